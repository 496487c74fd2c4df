//! The pattern databases a [`Solver`](crate::Solver) owns: those it holds in memory, those its
//! cache directory keeps, and those it may build on demand.
//!
//! A database is asked for by goal; the store answers with one built for that very goal, or
//! else with one built for the goal's [`Frame`] (the goal turned by a symmetry of the grid and
//! renamed, so that one table serves every goal with the blank on cells of one symmetry
//! class: one 7-8 table for every 4x4 goal with the blank in a corner). In order:
//!
//! 1. a database held in memory (given with [`Store::hold`], or loaded or built before);
//! 2. the strongest sound file of the cache for the goal, then for its frame's goal;
//! 3. when the store builds on demand ([`Store::building_on_demand`]), the small partition for
//!    the frame's goal ([`Partition::small`]: seconds on a 4x4), saved to the cache.
//!
//! Everything found is kept, so a run that meets 400 4x4 goals holds at most the three
//! frames' tables (blank in a corner, on an edge, in the centre). A full build of minutes
//! ([`Partition::full`]) is never started by a request: [`Store::build_in_background`] does it
//! on a thread of its own at low priority, and the store answers with what it has meanwhile.
//!
//! The library reads no environment: the caller names the cache directory.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use npuzzle_core::Board;

use super::{Cache, CacheError, Candidate, Database, Partition, Progress};
use crate::engine::twentyfour::Tables;
use crate::heuristic::frame::Frame;

/// What a store tells its owner about builds and bad files (the command line draws a progress
/// bar; a server logs). Every method does nothing by default.
pub trait Report: Send + Sync {
    /// A build of `partition` for `goal` starts.
    fn building(&self, _goal: &Board, _partition: &Partition) {}
    /// How far the build has got.
    fn progress(&self, _progress: Progress) {}
    /// A build ended: the database, the seconds it took, and where it was saved (or why not,
    /// or `None` for a store with no cache).
    fn built(&self, _db: &Database, _seconds: f64, _saved: Option<&Result<PathBuf, CacheError>>) {}
    /// A cached file was skipped, or a build failed: a one-line reason.
    fn warn(&self, _warning: &str) {}
}

/// A [`Report`] that says nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Report for Quiet {}

/// One database a store holds or builds, as [`Store::status`] describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The goal it was built for.
    pub goal: Board,
    /// Its group sizes, `7-8` for instance.
    pub partition: String,
    /// Its bytes in memory (or mapped).
    pub bytes: u64,
}

/// What a store holds and is building.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Status {
    /// Databases held.
    pub held: Vec<Entry>,
    /// Builds under way (bytes 0 until they end).
    pub building: Vec<Entry>,
}

/// What [`Store::twentyfour`] found.
#[derive(Clone, Debug)]
pub enum Found {
    /// The tables, held, cached or just built.
    Ready(Tables),
    /// Their build did not end within the time limit (the duration).
    OutOfTime(Duration),
    /// None can be had: not a 5x5 goal with the blank in a corner, no build on demand,
    /// cancelled, or a failed build (warned about).
    Unavailable,
}

/// The databases of one solver. `Send + Sync`; share it in an `Arc`.
pub struct Store {
    cache: Option<Cache>,
    on_demand: bool,
    threads: usize,
    report: Arc<dyn Report>,
    held: Mutex<Vec<Database>>,
    building: Mutex<Vec<Entry>>,
    /// Warnings already given: each is said once.
    warned: Mutex<Vec<String>>,
    /// The time limit a build of the 24-puzzle's tables last ran out of: requests with no
    /// more time than that are not made to wait for another.
    twentyfour_out_of_time: Mutex<Option<Duration>>,
    /// The frames whose small partition is being built on a thread of its own
    /// ([`Store::database_until`]), each with the flag its build raises when it ends.
    pending: Mutex<Vec<(Board, Arc<AtomicBool>)>>,
    /// The cached files being loaded on a thread of their own ([`Store::find_until`],
    /// [`Store::twentyfour_at_hand_until`]), each with the flag its load raises when it ends.
    loading: Mutex<Vec<(String, Arc<AtomicBool>)>>,
    /// The cached files last listed ([`Store::cached_best`]).
    seen: Mutex<Vec<Seen>>,
    /// Cached files that failed to load, with what identified them then
    /// ([`Store::set_aside`]).
    aside: Mutex<Vec<(PathBuf, Option<FileStamp>)>>,
}

/// The cached files for a goal within a limit, as last listed: the goal, the limit, the
/// cache directory's modification time then, and the files, strongest first.
type Seen = (Board, Option<u64>, SystemTime, Vec<Candidate>);

/// What tells one version of a file from another: its modification time, length and (on
/// Unix) inode. A file replaced by rename has a new inode even when the clock's coarse
/// steps give it the same time.
type FileStamp = (SystemTime, u64, u64);

/// The file's [`FileStamp`], `None` when it cannot be read.
fn file_stamp(path: &Path) -> Option<FileStamp> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    let inode = std::os::unix::fs::MetadataExt::ino(&m);
    #[cfg(not(unix))]
    let inode = 0;
    Some((m.modified().ok()?, m.len(), inode))
}

/// A database's strength, as the cache ranks its files: its partition's entries.
fn strength(db: &Database) -> u64 {
    db.partition().entries(db.size().cells())
}

/// How many of [`Seen`] a store remembers.
const SEEN_KEPT: usize = 64;

/// The share of the time left that a solve waits for a cached file to load
/// ([`Store::find_until`]). Loads took 0.2 to 0.48 s for Korf & Felner's 181 MB and 0.24 to
/// 0.33 s for the 15-puzzle's 783 MB from the page cache here (2026-12-03), and searches with
/// the tables answer far better than without them, while the fallbacks after a missed load
/// (the reduction solver, IDA* over linear conflict) answer or give up in the rest.
pub const LOAD_SHARE: f64 = 0.75;

/// A cached file that did not load within the deadline of [`Store::find_until`] or
/// [`Store::twentyfour_at_hand_until`]: its load goes on, and what it loads is held for the
/// solves after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotLoaded {
    /// The file's size.
    pub bytes: u64,
}

/// What [`Store::find_within`] serves a goal with.
enum Pick {
    /// A database held in memory.
    Held(Database),
    /// The strongest cached file within the limit, stronger than any held, and the goal it
    /// is for (the goal asked for or its frame's).
    Cached(Board, Candidate),
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("cache", &self.cache.as_ref().map(Cache::dir))
            .field("on_demand", &self.on_demand)
            .field("held", &self.status().held)
            .finish_non_exhaustive()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Store {
    /// A store over `cache` (or memory only with `None`) that builds nothing on demand and
    /// reports nothing.
    pub fn new(cache: Option<Cache>) -> Store {
        Store {
            cache,
            on_demand: false,
            threads: 1,
            report: Arc::new(Quiet),
            held: Mutex::new(Vec::new()),
            building: Mutex::new(Vec::new()),
            warned: Mutex::new(Vec::new()),
            twentyfour_out_of_time: Mutex::new(None),
            pending: Mutex::new(Vec::new()),
            loading: Mutex::new(Vec::new()),
            seen: Mutex::new(Vec::new()),
            aside: Mutex::new(Vec::new()),
        }
    }

    /// The same store, building the small partition of a frame on demand when neither memory
    /// nor the cache has a database for it (`true`), on `threads` threads.
    #[must_use]
    pub fn building_on_demand(self, on: bool, threads: usize) -> Store {
        Store { on_demand: on, threads: threads.max(1), ..self }
    }

    /// The same store, telling `report` about builds and bad files.
    #[must_use]
    pub fn with_report(self, report: Arc<dyn Report>) -> Store {
        Store { report, ..self }
    }

    /// Tells the report `warning` unless it was told before.
    fn warn(&self, warning: &str) {
        let mut warned = lock(&self.warned);
        if !warned.iter().any(|w| w == warning) {
            warned.push(warning.to_string());
            drop(warned);
            self.report.warn(warning);
        }
    }

    /// The cache directory, if any.
    pub fn cache(&self) -> Option<&Cache> {
        self.cache.as_ref()
    }

    /// Holds `db` from now on (a database loaded or built by the caller). A weaker one held
    /// for the same goal is let go: the stronger serves every request it would (a held
    /// database is used whatever its size), so the process does not keep both (a session
    /// that loaded a 6-6-3 under a tight limit, then the 7-8, kept the 12 MB of the first).
    /// Searches using the weaker one keep it until they end.
    pub fn hold(&self, db: Database) {
        let mut held = lock(&self.held);
        if held.iter().any(|d| d.goal() == db.goal() && d.partition() == db.partition()) {
            return;
        }
        if db.covers_every_tile() {
            held.retain(|d| {
                !(d.goal() == db.goal() && d.covers_every_tile() && strength(d) < strength(&db))
            });
        }
        held.push(db);
    }

    /// What the store holds and builds.
    pub fn status(&self) -> Status {
        let entry = |d: &Database| Entry {
            goal: d.goal().clone(),
            partition: d.partition().sizes(),
            bytes: d.bytes().len() as u64,
        };
        Status {
            held: lock(&self.held).iter().map(entry).collect(),
            building: lock(&self.building).clone(),
        }
    }

    /// Loads every sound database of the cache whose goal is the goal of its own frame (the
    /// tables requests are served from); returns how many it holds now. For a server at start.
    pub fn load_cached(&self) -> usize {
        let Some(cache) = &self.cache else { return lock(&self.held).len() };
        let files = match cache.list() {
            Ok(files) => files,
            Err(e) => {
                self.warn(&e.to_string());
                return lock(&self.held).len();
            }
        };
        let mut goals: Vec<Board> = Vec::new();
        for f in files {
            if let Ok((goal, _)) = f.header
                && Frame::new(&goal).goal() == &goal
                && !goals.contains(&goal)
            {
                goals.push(goal);
            }
        }
        for goal in goals {
            let mut warn = |w: &str| self.warn(w);
            if let Ok(Some(db)) = cache.best(&goal, &mut warn) {
                self.hold(db);
            }
        }
        lock(&self.held).len()
    }

    /// The strongest database held for exactly `goal` (every tile in a group).
    fn held_for(&self, goal: &Board) -> Option<Database> {
        lock(&self.held)
            .iter()
            .filter(|d| d.goal() == goal && d.covers_every_tile())
            .max_by_key(|d| d.entries())
            .cloned()
    }

    /// A database for boards of `goal` held in memory or kept by the cache (for `goal`
    /// itself or for its frame's goal; see the module docs); never builds.
    pub fn find(&self, goal: &Board) -> Option<Database> {
        self.find_within(goal, None)
    }

    /// [`Store::find`], loading from the cache only a file of at most `limit` bytes (the
    /// strongest of those): for a memory limit the strongest cached one does not fit in. A
    /// database held already is used whatever its size (it adds nothing), unless a cached
    /// one within `limit` is stronger: then that one is loaded and held in its place (a
    /// process that loaded a small one under a tight limit loads the strong one for a later,
    /// roomier request, where it kept to the small one before; see [`Store::hold`]).
    pub fn find_within(&self, goal: &Board, limit: Option<u64>) -> Option<Database> {
        // Each turn either returns or sets a file aside; a few turns at most.
        for _ in 0..SEEN_KEPT {
            match self.pick(goal, limit)? {
                Pick::Held(db) => return Some(db),
                Pick::Cached(g, file) => {
                    let cache = self.cache.as_ref()?;
                    match cache.load(&g, &file.partition) {
                        Ok(Some(db)) => {
                            self.hold(db.clone());
                            return Some(db);
                        }
                        // Not under the name its header gives (a stale name): not used.
                        Ok(None) => self.set_aside(&file.path),
                        Err(e) => {
                            self.warn(&format!("{e}; ignoring it"));
                            self.set_aside(&file.path);
                        }
                    }
                }
            }
        }
        self.held_any(goal)
    }

    /// Leaves the cached file at `path` out of [`Store::pick`] until it changes (a file
    /// that failed to load was loaded again, checksum and all, by every solve after).
    fn set_aside(&self, path: &Path) {
        let stamp = file_stamp(path);
        let mut aside = lock(&self.aside);
        aside.retain(|(p, _)| p != path);
        if aside.len() >= SEEN_KEPT {
            aside.remove(0);
        }
        aside.push((path.to_path_buf(), stamp));
    }

    /// Whether the file at `path` was set aside and has not changed since.
    fn is_aside(&self, path: &Path) -> bool {
        let aside = lock(&self.aside);
        let Some((_, stamp)) = aside.iter().find(|(p, _)| p == path) else { return false };
        *stamp == file_stamp(path)
    }

    /// The strongest database held for `goal`, else for its frame's goal.
    fn held_any(&self, goal: &Board) -> Option<Database> {
        self.held_for(goal).or_else(|| self.held_for(Frame::new(goal).goal()))
    }

    /// What [`Store::find_within`] serves `goal` with: the strongest held database, unless
    /// the strongest cached file within `limit` (for `goal`, else for its frame's goal) has
    /// more entries. Files are not opened (their headers are read).
    fn pick(&self, goal: &Board, limit: Option<u64>) -> Option<Pick> {
        let held = self.held_any(goal);
        let cached = [goal, Frame::new(goal).goal()]
            .into_iter()
            .find_map(|g| self.cached_best(g, limit).map(|file| Pick::Cached(g.clone(), file)));
        match (held, cached) {
            (Some(db), Some(Pick::Cached(_, file))) if file.entries <= strength(&db) => {
                Some(Pick::Held(db))
            }
            (Some(db), None) => Some(Pick::Held(db)),
            (_, cached) => cached,
        }
    }

    /// The strongest cached file for `goal` within `limit` ([`Cache::candidates_within`])
    /// not set aside, from a listing remembered while the cache directory is unchanged:
    /// every solve over a held database asks (is a stronger one cached?), and reading the
    /// headers of every file of the cache for it would cost a short solve several per cent.
    /// Files are only ever added, replaced (by rename) or removed, each of which changes the
    /// directory's modification time; a listing made within a second of that time is not
    /// remembered (the time's steps are coarse).
    fn cached_best(&self, goal: &Board, limit: Option<u64>) -> Option<Candidate> {
        let cache = self.cache.as_ref()?;
        let stamp = std::fs::metadata(cache.dir()).and_then(|m| m.modified()).ok();
        let remembered = stamp.and_then(|stamp| {
            let seen = lock(&self.seen);
            let hit = seen.iter().find(|s| &s.0 == goal && s.1 == limit && s.2 == stamp)?;
            Some(hit.3.clone())
        });
        let files = match remembered {
            Some(files) => files,
            None => {
                let files = match cache.candidates_within(goal, limit) {
                    Ok(files) => files,
                    Err(e) => {
                        self.warn(&e.to_string());
                        return None;
                    }
                };
                let settled = |t: SystemTime| {
                    SystemTime::now().duration_since(t).is_ok_and(|d| d >= Duration::from_secs(1))
                };
                if let Some(stamp) = stamp.filter(|&t| settled(t)) {
                    let mut seen = lock(&self.seen);
                    seen.retain(|s| !(&s.0 == goal && s.1 == limit));
                    if seen.len() >= SEEN_KEPT {
                        seen.remove(0);
                    }
                    seen.push((goal.clone(), limit, stamp, files.clone()));
                }
                files
            }
        };
        files.into_iter().find(|f| !self.is_aside(&f.path))
    }

    /// The size of the strongest database for `goal` held (its image) or cached (its file),
    /// whatever the memory limit, when it is stronger than `db`: what a memory limit kept
    /// from the solve that used `db`.
    pub fn stronger_than(&self, goal: &Board, db: &Database) -> Option<u64> {
        match self.pick(goal, None)? {
            Pick::Held(best) => {
                (strength(&best) > strength(db)).then_some(best.bytes().len() as u64)
            }
            Pick::Cached(_, file) => (file.entries > strength(db)).then_some(file.bytes),
        }
    }

    /// [`Store::find`] within `deadline`: a cached file (hundreds of megabytes: the 7-8
    /// database of the 15-puzzle takes 0.2 s from the page cache, more than a second from
    /// disk) is loaded on a thread of its own, which the solve waits for until [`LOAD_SHARE`]
    /// of the time left before `deadline` has passed (the rest is for a search without it), or
    /// `cancel`; then it goes on without it ([`NotLoaded`]), and the load goes on for the
    /// solves after it. Without a deadline, [`Store::find`].
    ///
    /// # Errors
    /// [`NotLoaded`] when the file did not load in time.
    pub fn find_until(
        self: &Arc<Self>,
        goal: &Board,
        limit: Option<u64>,
        cancel: Option<&AtomicBool>,
        deadline: Option<Instant>,
    ) -> Result<Option<Database>, NotLoaded> {
        let (Some(deadline), Some(bytes)) = (deadline, self.bytes_to_load_within(goal, limit))
        else {
            return Ok(self.find_within(goal, limit));
        };
        if bytes == 0 {
            return Ok(self.find_within(goal, limit));
        }
        // With the file's size: the load of a smaller file, for a memory limit, is another.
        let key = format!("database {goal} {bytes}");
        let target = goal.clone();
        if self.loaded_until(&key, deadline, cancel, move |store| {
            store.find_within(&target, limit);
        }) {
            // What it held (not a second look in the cache: a file that failed to load has
            // been warned of).
            Ok(self.held_any(goal))
        } else {
            Err(NotLoaded { bytes })
        }
    }

    /// [`Store::twentyfour_at_hand`] within `deadline`, loading their cached file (181 MB)
    /// as [`Store::find_until`] does.
    ///
    /// # Errors
    /// [`NotLoaded`] when the file did not load in time.
    pub fn twentyfour_at_hand_until(
        self: &Arc<Self>,
        goal: &Board,
        cancel: Option<&AtomicBool>,
        deadline: Option<Instant>,
    ) -> Result<Option<Tables>, NotLoaded> {
        let (Some(deadline), Some(bytes)) = (deadline, self.twentyfour_bytes_to_load(goal)) else {
            return Ok(self.twentyfour_at_hand(goal));
        };
        if bytes == 0 {
            return Ok(self.twentyfour_at_hand(goal));
        }
        if self.loaded_until("Korf & Felner's tables", deadline, cancel, |store| {
            store.twentyfour_base_at_hand();
        }) {
            let (base, partition) =
                (Tables::korf_felner_base_goal(), Tables::korf_felner_base_partition());
            let held = lock(&self.held)
                .iter()
                .find(|d| d.goal() == &base && d.partition() == &partition)
                .cloned();
            Ok(held.and_then(|db| Tables::korf_felner(db, goal).ok()))
        } else {
            Err(NotLoaded { bytes })
        }
    }

    /// Runs `load` on a thread of its own, unless one for `key` is running already, and waits
    /// until it ends, [`LOAD_SHARE`] of the time left before `deadline` passes or `cancel` is
    /// raised: whether it ended.
    fn loaded_until(
        self: &Arc<Self>,
        key: &str,
        deadline: Instant,
        cancel: Option<&AtomicBool>,
        load: impl FnOnce(&Store) + Send + 'static,
    ) -> bool {
        use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
        let now = Instant::now();
        let deadline = now + deadline.saturating_duration_since(now).mul_f64(LOAD_SHARE);
        let done = {
            let mut loading = lock(&self.loading);
            if let Some((_, done)) = loading.iter().find(|(k, _)| k == key) {
                Arc::clone(done)
            } else {
                let done = Arc::new(AtomicBool::new(false));
                let (store, flag, name) = (Arc::clone(self), Arc::clone(&done), key.to_string());
                let spawned =
                    std::thread::Builder::new().name("npuzzle-pdb-load".into()).spawn(move || {
                        load(&store);
                        lock(&store.loading).retain(|(k, _)| *k != name);
                        flag.store(true, Release);
                    });
                if spawned.is_err() {
                    return false;
                }
                loading.push((key.to_string(), Arc::clone(&done)));
                done
            }
        };
        while !done.load(Acquire) {
            let now = Instant::now();
            if now >= deadline || cancel.is_some_and(|c| c.load(Relaxed)) {
                return false;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(2)));
        }
        true
    }

    /// What using the database for boards of `goal` would add to the process: 0 when one is
    /// held, the size of the file [`Store::find`] would load when one is cached, `None` when
    /// there is neither (a build on demand is not sized).
    pub fn bytes_to_load(&self, goal: &Board) -> Option<u64> {
        self.bytes_to_load_within(goal, None)
    }

    /// [`Store::bytes_to_load`] for [`Store::find_within`]'s `limit`: the size of the file
    /// it would load (0 when it would use a held one), `None` when nothing is held and no
    /// cached file fits.
    pub fn bytes_to_load_within(&self, goal: &Board, limit: Option<u64>) -> Option<u64> {
        match self.pick(goal, limit)? {
            Pick::Held(_) => Some(0),
            Pick::Cached(_, file) => Some(file.bytes),
        }
    }

    /// What using Korf & Felner's tables for boards of `goal` would add to the process: 0
    /// when they are held, the size of their cached file when it is cached, `None` when
    /// the goal is not theirs or they are neither (a build on demand is not sized).
    pub fn twentyfour_bytes_to_load(&self, goal: &Board) -> Option<u64> {
        Tables::korf_felner_partition(goal).ok()?;
        let base = Tables::korf_felner_base_goal();
        let partition = Tables::korf_felner_base_partition();
        if lock(&self.held).iter().any(|d| d.goal() == &base && d.partition() == &partition) {
            return Some(0);
        }
        let path = self.cache.as_ref()?.path(&base, &partition);
        std::fs::metadata(path).ok().map(|m| m.len())
    }

    /// Whether [`Store::database_for`] may build a database.
    pub fn builds_on_demand(&self) -> bool {
        self.on_demand
    }

    /// A database for boards of `goal`: [`Store::find`]'s, or else a build of the small
    /// partition for the goal's frame when the store builds on demand (stopped when `cancel`
    /// is raised). `None` when there is none to have.
    pub fn database_for(&self, goal: &Board, cancel: Option<&AtomicBool>) -> Option<Database> {
        if let Some(db) = self.find(goal) {
            return Some(db);
        }
        if !self.on_demand {
            return None;
        }
        let frame = Frame::new(goal);
        let canonical = frame.goal();
        let partition = Partition::small(canonical).ok()?;
        // One build per frame at a time: a second request waits for the first one's table.
        static BUILDING: Mutex<()> = Mutex::new(());
        let _one = lock(&BUILDING);
        if let Some(db) = self.held_for(canonical) {
            return Some(db);
        }
        let db = self.build(canonical, &partition, self.threads, cancel)?;
        self.hold(db.clone());
        Some(db)
    }

    /// [`Store::database_for`] for a solve that must answer by `deadline`: a build runs on a
    /// thread of its own at the lowest scheduling priority, which the solve waits for until
    /// `deadline` or `cancel`; then it goes on without
    /// the table (`None`, and a warning once), and the build goes on for the solves after it
    /// (a server's, a game's, a batch's), which find the table held once it ends. Without a
    /// deadline, [`Store::database_for`].
    pub fn database_until(
        self: &Arc<Self>,
        goal: &Board,
        cancel: Option<&AtomicBool>,
        deadline: Option<Instant>,
    ) -> Option<Database> {
        use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
        let Some(deadline) = deadline else {
            return self.database_for(goal, cancel);
        };
        if let Some(db) = self.find(goal) {
            return Some(db);
        }
        if !self.on_demand {
            return None;
        }
        let canonical = Frame::new(goal).goal().clone();
        let partition = Partition::small(&canonical).ok()?;
        let done = {
            let mut pending = lock(&self.pending);
            if let Some((_, done)) = pending.iter().find(|(g, _)| *g == canonical) {
                Arc::clone(done)
            } else {
                let done = Arc::new(AtomicBool::new(false));
                let (store, frame_goal, flag) =
                    (Arc::clone(self), canonical.clone(), Arc::clone(&done));
                let spawned = std::thread::Builder::new()
                    .name("npuzzle-pdb-build".into())
                    .spawn(move || {
                        lower_priority();
                        store.database_for(&frame_goal, None);
                        lock(&store.pending).retain(|(g, _)| *g != frame_goal);
                        flag.store(true, Release);
                    })
                    .is_ok();
                if !spawned {
                    drop(pending);
                    return self.database_for(goal, cancel);
                }
                pending.push((canonical.clone(), Arc::clone(&done)));
                done
            }
        };
        while !done.load(Acquire) {
            let now = Instant::now();
            if now >= deadline || cancel.is_some_and(|c| c.load(Relaxed)) {
                if now >= deadline {
                    self.warn(&format!(
                        "the {} pattern database for {canonical} was not ready within the time \
                         limit, so the search went on without it (its build goes on)",
                        partition.sizes()
                    ));
                }
                return None;
            }
            std::thread::sleep((deadline - now).min(Duration::from_millis(5)));
        }
        self.find(goal)
    }

    /// Builds `partition` for `goal`, reporting, and saves it to the cache.
    fn build(
        &self,
        goal: &Board,
        partition: &Partition,
        threads: usize,
        cancel: Option<&AtomicBool>,
    ) -> Option<Database> {
        let entry = Entry { goal: goal.clone(), partition: partition.sizes(), bytes: 0 };
        lock(&self.building).push(entry.clone());
        self.report.building(goal, partition);
        let clock = Instant::now();
        let progress = |p: Progress| self.report.progress(p);
        let built = Database::build(goal, partition, threads, &progress, cancel);
        lock(&self.building).retain(|e| e != &entry);
        match built {
            Ok(db) => {
                let saved = self.cache.as_ref().map(|c| c.save(&db));
                self.report.built(&db, clock.elapsed().as_secs_f64(), saved.as_ref());
                Some(db)
            }
            // Stopped: whoever stopped it (a deadline, a cancel) knows, and says so if needed.
            Err(crate::heuristic::pdb::BuildError::Cancelled) => None,
            Err(e) => {
                self.report
                    .warn(&format!("building the {} pattern database: {e}", partition.sizes()));
                None
            }
        }
    }

    /// [`Store::database_for`], then readied for runs of many solves
    /// ([`Database::for_many_solves`]: one-bit copies of per-region tables, or a copy in
    /// anonymous memory, on huge pages where the system gives them) and held so.
    pub fn prepare(&self, goal: &Board, cancel: Option<&AtomicBool>) -> Option<Database> {
        let db = self.database_for(goal, cancel)?;
        if !db.is_mapped() || db.reads_bits() {
            return Some(db);
        }
        let owned = db.for_many_solves();
        let mut held = lock(&self.held);
        held.retain(|d| !(d.goal() == db.goal() && d.partition() == db.partition()));
        held.push(owned.clone());
        Some(owned)
    }

    /// Korf & Felner's 6-6-6-6 tables for `goal` (a 5x5 goal with the blank in a corner; the
    /// two stored tables behind them serve every such goal): held, from the cache, or built
    /// when the store builds on demand (about a minute on two cores, 181 MB), the build
    /// stopped when `cancel` is raised or `timeout` has passed. When the catalogue's nine
    /// other stored tables are cached too, the tables are the catalogue of seven partitions
    /// ([`Tables::catalogue`]), which holds theirs.
    pub fn twentyfour(
        &self,
        goal: &Board,
        timeout: Option<Duration>,
        cancel: Option<&AtomicBool>,
    ) -> Found {
        if Tables::korf_felner_partition(goal).is_err() {
            return Found::Unavailable;
        }
        let base = match self.twentyfour_base(timeout, cancel) {
            Ok(base) => base,
            Err(found) => return found,
        };
        match self.twentyfour_tables(base, goal) {
            Ok(tables) => Found::Ready(tables),
            Err(e) => {
                self.warn(&format!("the 24-puzzle's tables: {e}"));
                Found::Unavailable
            }
        }
    }

    /// The two stored tables behind [`Store::twentyfour`].
    /// Korf & Felner's tables for `goal` when they are held or cached, never built: for
    /// engines that use them when at hand (the near-optimal engine's windows on 5x5).
    pub fn twentyfour_at_hand(&self, goal: &Board) -> Option<Tables> {
        Tables::korf_felner_partition(goal).ok()?;
        // Korf & Felner's partition alone, even when the catalogue is cached: with the
        // catalogue (its node budgets cut to a third, for its cost a node) the near-optimal
        // engine gave the same lengths on DeepCubeA's first 40 24-puzzles, a mean bound 0.3
        // higher, and a slower median (3.78 s a board against 3.08 s; figures in
        // `engine::near`).
        Tables::korf_felner(self.twentyfour_base_at_hand()?, goal).ok()
    }

    /// The tables over Korf & Felner's two stored ones, `base`, for `goal`: the catalogue
    /// ([`Tables::catalogue`], seven partitions) when its nine other stored tables are held
    /// or cached (`npuzzle pdb build --partition catalogue`; never built on demand), Korf &
    /// Felner's partition alone otherwise.
    fn twentyfour_tables(
        &self,
        base: Database,
        goal: &Board,
    ) -> Result<Tables, crate::engine::twentyfour::TablesError> {
        if let Some(extra) = self.twentyfour_catalogue_at_hand() {
            let mut bases = vec![base.clone()];
            bases.extend(extra);
            match Tables::catalogue(bases, goal, &Tables::catalogue_partitions(goal)?) {
                Ok(tables) => return Ok(tables),
                Err(e) => self.warn(&format!("the 24-puzzle's catalogue: {e}")),
            }
        }
        Tables::korf_felner(base, goal)
    }

    /// The catalogue's stored tables beyond Korf & Felner's, when every one is held or
    /// cached (then held, copied onto huge pages as theirs are).
    fn twentyfour_catalogue_at_hand(&self) -> Option<Vec<Database>> {
        let goal = Tables::korf_felner_base_goal();
        let partitions = Tables::catalogue_base_partitions();
        let find = |p: &Partition| {
            lock(&self.held).iter().find(|d| d.goal() == &goal && d.partition() == p).cloned()
        };
        // Only when all are there: loading some would copy hundreds of megabytes for nothing.
        let cache = self.cache.as_ref();
        let present = partitions
            .iter()
            .all(|p| find(p).is_some() || cache.is_some_and(|c| c.path(&goal, p).exists()));
        if !present {
            return None;
        }
        let mut out = Vec::with_capacity(partitions.len());
        for p in &partitions {
            if let Some(db) = find(p) {
                out.push(db);
                continue;
            }
            match cache?.load(&goal, p) {
                Ok(Some(db)) => {
                    let db = db.in_memory();
                    self.hold(db.clone());
                    out.push(db);
                }
                Ok(None) => return None,
                Err(e) => {
                    self.warn(&e.to_string());
                    return None;
                }
            }
        }
        Some(out)
    }

    /// The 24-puzzle's two stored tables when held or cached (then held).
    fn twentyfour_base_at_hand(&self) -> Option<Database> {
        let goal = Tables::korf_felner_base_goal();
        let partition = Tables::korf_felner_base_partition();
        let held = lock(&self.held)
            .iter()
            .find(|d| d.goal() == &goal && d.partition() == &partition)
            .cloned();
        if held.is_some() {
            return held;
        }
        match self.cache.as_ref()?.load(&goal, &partition) {
            Ok(Some(db)) => {
                // A 24-puzzle search reads the tables at random for seconds to hours:
                // copied onto huge pages at once (0.1 to 0.2 s for 181 MB).
                let db = db.in_memory();
                self.hold(db.clone());
                Some(db)
            }
            Ok(None) => None,
            Err(e) => {
                self.warn(&e.to_string());
                None
            }
        }
    }

    #[allow(
        clippy::result_large_err,
        reason = "the error is a `Found` that is never `Ready`; the lint sizes it by that variant"
    )]
    fn twentyfour_base(
        &self,
        timeout: Option<Duration>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Database, Found> {
        let goal = Tables::korf_felner_base_goal();
        let partition = Tables::korf_felner_base_partition();
        let held = |store: &Store| {
            lock(&store.held)
                .iter()
                .find(|d| d.goal() == &goal && d.partition() == &partition)
                .cloned()
        };
        if let Some(db) = self.twentyfour_base_at_hand() {
            return Ok(db);
        }
        if !self.on_demand {
            return Err(Found::Unavailable);
        }
        if let (Some(failed), Some(t)) = (*lock(&self.twentyfour_out_of_time), timeout)
            && t <= failed
        {
            return Err(Found::OutOfTime(t));
        }
        static BUILDING: Mutex<()> = Mutex::new(());
        let _one = lock(&BUILDING);
        if let Some(db) = held(self) {
            return Ok(db);
        }
        let deadline = timeout.map(|t| Instant::now() + t);
        let (built, out_of_time) =
            until(deadline, cancel, |stop| self.build(&goal, &partition, self.threads, stop));
        match built {
            Some(db) => {
                let db = db.in_memory();
                self.hold(db.clone());
                Ok(db)
            }
            None if out_of_time => {
                let t = timeout.unwrap_or_default();
                *lock(&self.twentyfour_out_of_time) = Some(t);
                Err(Found::OutOfTime(t))
            }
            None => Err(Found::Unavailable),
        }
    }

    /// Starts building the full partition ([`Partition::full`]) of `goal`'s frame on a thread
    /// of its own at the lowest scheduling priority, unless memory or the cache already has
    /// it; the store holds it once built, and answers with what it has meanwhile. Returns the
    /// thread, or `None` when nothing needs building.
    pub fn build_in_background(
        self: &Arc<Self>,
        goal: &Board,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Option<std::thread::JoinHandle<()>> {
        let frame = Frame::new(goal);
        let canonical = frame.goal().clone();
        let partition = Partition::full(&canonical).ok()?;
        let have = |store: &Store| {
            lock(&store.held).iter().any(|d| d.goal() == &canonical && d.partition() == &partition)
        };
        if have(self) {
            return None;
        }
        if let Some(cache) = &self.cache
            && let Ok(Some(db)) = cache.load(&canonical, &partition)
        {
            self.hold(db);
            return None;
        }
        let store = Arc::clone(self);
        std::thread::Builder::new()
            .name("npuzzle-pdb-build".into())
            .spawn(move || {
                lower_priority();
                let threads = std::thread::available_parallelism().map_or(1, usize::from);
                if let Some(db) = store.build(&canonical, &partition, threads, cancel.as_deref()) {
                    store.hold(db);
                }
            })
            .ok()
    }

    /// Starts building Korf & Felner's two stored tables (the ones behind
    /// [`Store::twentyfour`] and [`Store::twentyfour_at_hand`]: about 70 CPU-seconds and
    /// 181 MB) on a thread of its own at the lowest scheduling priority, unless memory or the
    /// cache already has them; the thread first waits for `after` (another background build,
    /// so that two builds never run at once). The store holds the tables once built, so 5x5
    /// solves and hints use them from then on. Returns the thread, or `None` when nothing
    /// needs building.
    pub fn build_twentyfour_in_background(
        self: &Arc<Self>,
        after: Option<std::thread::JoinHandle<()>>,
        cancel: Option<Arc<AtomicBool>>,
    ) -> Option<std::thread::JoinHandle<()>> {
        // Loaded and held when cached (0.1 to 0.2 s): then nothing to build, and `after` goes
        // on alone.
        if self.twentyfour_base_at_hand().is_some() {
            return None;
        }
        let store = Arc::clone(self);
        std::thread::Builder::new()
            .name("npuzzle-pdb-build-24".into())
            .spawn(move || {
                if let Some(after) = after {
                    let _ = after.join();
                }
                lower_priority();
                let goal = Tables::korf_felner_base_goal();
                let partition = Tables::korf_felner_base_partition();
                let threads = std::thread::available_parallelism().map_or(1, usize::from);
                // A request that needed them meanwhile may have built them (`twentyfour`
                // with a store that builds on demand).
                if store.twentyfour_base_at_hand().is_some() {
                    return;
                }
                if let Some(db) = store.build(&goal, &partition, threads, cancel.as_deref()) {
                    store.hold(db.in_memory());
                }
            })
            .ok()
    }
}

/// Runs `work` with a stop flag that is raised when `cancel` is, or at `deadline`; returns its
/// result and whether the deadline raised the flag. A watcher thread polls every 20 ms.
fn until<T>(
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
    work: impl FnOnce(Option<&AtomicBool>) -> T,
) -> (T, bool) {
    use std::sync::atomic::Ordering::Relaxed;
    let Some(deadline) = deadline else {
        return (work(cancel), false);
    };
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let out_of_time = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(Relaxed) {
                if Instant::now() >= deadline {
                    out_of_time.store(true, Relaxed);
                    stop.store(true, Relaxed);
                    break;
                }
                if cancel.is_some_and(|c| c.load(Relaxed)) {
                    stop.store(true, Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let result = work(Some(&stop));
        finished.store(true, Relaxed);
        result
    });
    (result, out_of_time.load(Relaxed))
}

/// Puts the calling thread (and the threads it starts) at the lowest scheduling priority, so
/// a background build never slows the requests (Linux; elsewhere nothing).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: setpriority with PRIO_PROCESS and a thread id sets that thread's nice value
        // (Linux's per-thread niceness); it takes no pointers.
        #[expect(unsafe_code, reason = "setpriority(2) on the calling thread")]
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, 19);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cached database whose load does not end within the deadline is waited for until
    /// then, not after; the solve goes on without it and says why; once loaded it is held.
    #[test]
    fn a_load_that_outlasts_the_deadline_is_not_waited_for() {
        let dir = std::env::temp_dir().join(format!("npuzzle-store-load-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let board: Board = "1 2 3 4/5 6 0 8/9 10 7 11".parse().unwrap();
        let goal = npuzzle_core::Goal::BlankLast.board(board.size()).unwrap();
        let building = Store::new(Some(Cache::new(&dir))).building_on_demand(true, 1);
        assert!(building.database_for(&goal, None).is_some());
        let store = Arc::new(Store::new(Some(Cache::new(&dir))));
        let bytes = store.bytes_to_load(&goal).unwrap();
        assert!(bytes > 0);
        // A load that never ends (as a file read from a slow disk would take seconds).
        let key = format!("database {goal} {bytes}");
        lock(&store.loading).push((key.clone(), Arc::new(AtomicBool::new(false))));
        let clock = Instant::now();
        let waited = store.find_until(&goal, None, None, Some(clock + Duration::from_millis(100)));
        assert_eq!(waited.err(), Some(NotLoaded { bytes }));
        // Its share of the time left (the rest is for the search without it).
        let took = clock.elapsed();
        assert!(took >= Duration::from_millis(75) && took < Duration::from_secs(5), "{took:?}");
        // Through a solve: IDA* over linear conflict instead, within its time, and the note.
        let solver = crate::Solver::new().with_store(Arc::clone(&store));
        let options = crate::Options {
            algorithm: crate::Algorithm::IdaStar,
            heuristic: crate::Heuristic::Pdb,
            limits: crate::Limits {
                timeout: Some(Duration::from_millis(300)),
                ..crate::Limits::default()
            },
            ..crate::Options::default()
        };
        let s = solver.solve(&board, &goal, &options).unwrap();
        assert_eq!(s.status, crate::Status::Solved);
        assert_eq!(s.heuristic, Some(crate::HeuristicKind::LinearConflict));
        assert!(
            matches!(s.notes[..], [crate::Note::TablesNotLoaded { twentyfour: false, bytes: b, timeout }]
                if b == bytes && timeout == Duration::from_millis(300)),
            "{:?}",
            s.notes
        );
        let note = s.note().unwrap();
        assert!(note.contains("did not load within the time limit (0.30 s)"), "{note}");
        // The load ends: the next look finds it, and holds it.
        lock(&store.loading).retain(|(k, _)| *k != key);
        let found =
            store.find_until(&goal, None, None, Some(Instant::now() + Duration::from_secs(60)));
        assert!(found.is_ok_and(|d| d.is_some()));
        assert_eq!(store.bytes_to_load(&goal), Some(0));
        let s = solver.solve(&board, &goal, &options).unwrap();
        assert_eq!(s.heuristic, Some(crate::HeuristicKind::Pdb));
        assert!(s.notes.is_empty(), "{:?}", s.notes);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A fresh cache directory named after `name`, the 3x4 blank-last goal, and its 4-4-3
    /// and 6-5 databases, built (neither saved).
    fn two_databases(name: &str) -> (PathBuf, Board, Cache, [Database; 2]) {
        let dir = std::env::temp_dir().join(format!("npuzzle-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let goal = npuzzle_core::Goal::BlankLast.board(npuzzle_core::Size::new(3, 4).unwrap());
        let goal = goal.unwrap();
        let build = |spec: &str| {
            let partition = crate::heuristic::pdb::Partition::parse(spec, &goal).unwrap();
            Database::build(&goal, &partition, 1, &|_| {}, None).unwrap()
        };
        let databases = [build("4-4-3"), build("6-5")];
        let cache = Cache::new(&dir);
        (dir, goal, cache, databases)
    }

    /// What a store remembers of the cache never hides a file saved after it: a stronger
    /// database saved into a directory it had listed (and remembered, the directory's time
    /// set back so that the listing counts as settled) is found and loaded.
    #[test]
    fn a_remembered_listing_of_the_cache_never_hides_a_newer_file() {
        let (dir, goal, cache, [small, strong]) = two_databases("seen");
        cache.save(&small).unwrap();
        let settle = || {
            let past = SystemTime::now() - Duration::from_secs(60);
            std::fs::File::open(&dir).unwrap().set_modified(past).unwrap();
        };
        settle();
        let store = Store::new(Some(Cache::new(&dir)));
        let bytes = small.bytes().len() as u64;
        assert_eq!(store.bytes_to_load(&goal), Some(bytes));
        assert_eq!(lock(&store.seen).len(), 1, "a settled listing is remembered");
        assert_eq!(store.find(&goal).map(|d| d.partition().groups().len()), Some(3));
        assert_eq!(store.bytes_to_load(&goal), Some(0));
        // A stronger one saved by another process: the directory changed, so it is seen.
        cache.save(&strong).unwrap();
        assert_eq!(store.bytes_to_load(&goal), Some(strong.bytes().len() as u64));
        assert_eq!(store.find(&goal).map(|d| d.partition().groups().len()), Some(2));
        assert_eq!(store.bytes_to_load(&goal), Some(0));
        // Remembered again once settled, and still right.
        settle();
        assert_eq!(store.bytes_to_load(&goal), Some(0));
        assert_eq!(store.stronger_than(&goal, &small), Some(strong.bytes().len() as u64));
        assert_eq!(store.stronger_than(&goal, &strong), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A damaged cached file stronger than the database held is tried once, warned of, and
    /// then left alone (it was tried again on every solve, its checksum read whole each
    /// time) until it is replaced; the held one serves meanwhile.
    #[test]
    fn a_damaged_stronger_file_is_tried_once_until_it_is_replaced() {
        let (dir, goal, cache, [small, strong]) = two_databases("bad");
        cache.save(&small).unwrap();
        let strong_path = cache.save(&strong).unwrap();
        // Damaged past its header: the listing sees a sound header, the load the checksum.
        let mut bytes = std::fs::read(&strong_path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xFF;
        std::fs::write(&strong_path, &bytes).unwrap();
        let warnings = Arc::new(Mutex::new(Vec::<String>::new()));
        struct Keep(Arc<Mutex<Vec<String>>>);
        impl Report for Keep {
            fn warn(&self, text: &str) {
                lock(&self.0).push(text.to_string());
            }
        }
        let store =
            Store::new(Some(Cache::new(&dir))).with_report(Arc::new(Keep(Arc::clone(&warnings))));
        let found = store.find(&goal).unwrap();
        assert_eq!(found.partition().groups().len(), 3);
        assert_eq!(lock(&warnings).len(), 1, "{:?}", lock(&warnings));
        assert!(lock(&warnings)[0].contains("ignoring it"), "{:?}", lock(&warnings));
        // Left alone from now on: the held small one serves, with nothing to load.
        assert_eq!(store.bytes_to_load(&goal), Some(0));
        assert_eq!(store.stronger_than(&goal, &found), None);
        assert_eq!(store.find(&goal).unwrap().partition().groups().len(), 3);
        // Replaced by a sound one (a rebuild elsewhere): loaded.
        cache.save(&strong).unwrap();
        assert_eq!(store.bytes_to_load(&goal), Some(strong.bytes().len() as u64));
        assert_eq!(store.find(&goal).unwrap().partition().groups().len(), 2);
        assert_eq!(lock(&warnings).len(), 1, "{:?}", lock(&warnings));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
