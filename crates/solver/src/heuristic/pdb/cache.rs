//! Database files in a cache directory: found by name, written to a temporary file and
//! renamed (so a crash or two builders at once never leave a torn file), mapped into memory
//! and verified when loaded; a file that fails the checks is never trusted.
//!
//! The directory is chosen by the caller (the command line resolves `$NPUZZLE_CACHE` or the
//! platform cache directory); the library reads no environment variables.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{SystemTime, UNIX_EPOCH};

use npuzzle_core::{Board, Goal};
use thiserror::Error;

use super::file::{self, FileError};
use super::{BuildError, Database, Partition, Progress};

/// Why the cache could not give a database.
#[derive(Debug, Error)]
pub enum CacheError {
    /// Reading, writing or renaming a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    /// The file is damaged, truncated, of another format version, or not a regular file.
    #[error("{path}: {}", damaged(source))]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: FileError,
    },
    /// The file is sound but holds another board, goal or partition than its name says.
    #[error("{path}: holds another goal or partition than its name says")]
    Stale {
        /// The file.
        path: PathBuf,
    },
    /// Building the database failed.
    #[error(transparent)]
    Build(#[from] BuildError),
}

/// One file found in the cache directory, as [`Cache::list`] describes it.
#[derive(Debug)]
pub struct CachedFile {
    /// Where it is.
    pub path: PathBuf,
    /// Its length in bytes.
    pub bytes: u64,
    /// What its header says (board, goal, partition), or why it cannot be read.
    pub header: Result<(Board, Partition), FileError>,
}

/// A cached file that may serve a goal ([`Cache::candidates_within`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Its tables' entries, over every group (the more, the stronger).
    pub entries: u64,
    /// Its length in bytes.
    pub bytes: u64,
    /// Where it is.
    pub path: PathBuf,
    /// Its partition, as its header says.
    pub partition: Partition,
}

/// One file checked by [`Cache::verify`]: its path, and the database or why it is unsound.
pub type Verified = (PathBuf, Result<Database, CacheError>);

/// A directory of database files, bounded by a size cap.
///
/// Every load marks the file used (its modification time is set to now); every save then
/// removes the least recently used other files until the directory's `.pdb` files fit the
/// cap ([`Cache::with_cap`], [`DEFAULT_CAP`] unless set). A file larger than the cap on its own
/// is still kept: the one just saved is never removed.
#[derive(Clone, Debug)]
pub struct Cache {
    dir: PathBuf,
    cap: u64,
}

/// The cache's default size cap: 1 GiB (the 4x4's 7-8 table is 783 MB, the 24-puzzle's
/// two 6-tile tables 181 MB, a 6-6-3 table 11 MB).
pub const DEFAULT_CAP: u64 = 1 << 30;

impl Cache {
    /// The cache directory every front end uses: `$NPUZZLE_CACHE`, or the platform cache
    /// directory's `npuzzle/` (`~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows,
    /// `$XDG_CACHE_HOME` or `~/.cache` elsewhere, the temporary directory failing all).
    /// The library reads no environment itself: `var` looks a variable up (pass
    /// `|name| std::env::var_os(name)`).
    pub fn default_dir(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
        let var = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(dir) = var("NPUZZLE_CACHE") {
            return dir;
        }
        let base = if cfg!(target_os = "macos") {
            var("HOME").map(|h| h.join("Library/Caches"))
        } else if cfg!(windows) {
            var("LOCALAPPDATA")
        } else {
            var("XDG_CACHE_HOME")
                .filter(|p| p.is_absolute())
                .or_else(|| var("HOME").map(|h| h.join(".cache")))
        };
        base.unwrap_or_else(std::env::temp_dir).join("npuzzle")
    }

    /// The cache in directory `dir` (created when a database is first saved), capped at
    /// [`DEFAULT_CAP`].
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into(), cap: DEFAULT_CAP }
    }

    /// The same cache with a size cap of `bytes`.
    #[must_use]
    pub fn with_cap(self, bytes: u64) -> Cache {
        Cache { cap: bytes, ..self }
    }

    /// The size cap in bytes.
    pub fn cap(&self) -> u64 {
        self.cap
    }

    /// The bytes the directory's `.pdb` files take.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory exists but cannot be read.
    pub fn used(&self) -> Result<u64, CacheError> {
        Ok(self.list()?.iter().map(|f| f.bytes).sum())
    }

    /// Removes the least recently used `.pdb` files other than `keep` until the rest fit the
    /// cap; returns the removed paths. Called by [`Cache::save`].
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory cannot be read.
    pub fn evict(&self, keep: Option<&Path>) -> Result<Vec<PathBuf>, CacheError> {
        let mut files: Vec<(SystemTime, PathBuf, u64)> = self
            .list()?
            .into_iter()
            .map(|f| {
                let used = fs::metadata(&f.path).and_then(|m| m.modified()).unwrap_or(UNIX_EPOCH);
                (used, f.path, f.bytes)
            })
            .collect();
        let mut total: u64 = files.iter().map(|f| f.2).sum();
        files.sort();
        let mut removed = Vec::new();
        for (_, path, bytes) in files {
            if total <= self.cap {
                break;
            }
            if Some(path.as_path()) == keep {
                continue;
            }
            if fs::remove_file(&path).is_ok() {
                total -= bytes;
                removed.push(path);
            }
        }
        Ok(removed)
    }

    /// Removes every `.pdb` file (and any temporary file a stopped build left); returns the
    /// removed paths and the bytes freed.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory cannot be read or a file cannot be removed.
    pub fn clean(&self) -> Result<(Vec<PathBuf>, u64), CacheError> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
            Err(source) => return Err(CacheError::Io { path: self.dir.clone(), source }),
        };
        let mut removed = Vec::new();
        let mut freed = 0;
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let ours = name.ends_with(".pdb") || (name.starts_with('.') && name.ends_with(".tmp"));
            if !ours || !entry.file_type().is_ok_and(|t| t.is_file()) {
                continue;
            }
            let path = entry.path();
            let bytes = entry.metadata().map_or(0, |m| m.len());
            fs::remove_file(&path)
                .map_err(|source| CacheError::Io { path: path.clone(), source })?;
            freed += bytes;
            removed.push(path);
        }
        removed.sort();
        Ok((removed, freed))
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file name of a database: size, goal, group sizes and a hash of both, for example
    /// `4x4-blank-first-7-8-3f2a91c0.pdb`.
    pub fn file_name(goal: &Board, partition: &Partition) -> String {
        let size = goal.size();
        let named = [Goal::BlankLast, Goal::BlankFirst, Goal::Snail]
            .into_iter()
            .find(|g| g.board(size).is_ok_and(|b| &b == goal));
        let goal_tag = match named {
            Some(g) => g.to_string(),
            None => format!("goal{:08x}", fnv(goal.to_string().as_bytes()) as u32),
        };
        let key = format!("{goal}|{partition}|{}", file::FORMAT_VERSION);
        format!("{size}-{goal_tag}-{}-{:08x}.pdb", partition.sizes(), fnv(key.as_bytes()) as u32)
    }

    /// Where the database of `goal` and `partition` is kept.
    pub fn path(&self, goal: &Board, partition: &Partition) -> PathBuf {
        self.dir.join(Cache::file_name(goal, partition))
    }

    /// The database of `goal` and `partition`, if a sound file holds it. `Ok(None)` when there
    /// is no file.
    ///
    /// # Errors
    /// [`CacheError::Invalid`] or [`CacheError::Stale`] for a file that cannot be trusted,
    /// [`CacheError::Io`] when it cannot be read.
    pub fn load(
        &self,
        goal: &Board,
        partition: &Partition,
    ) -> Result<Option<Database>, CacheError> {
        let path = self.path(goal, partition);
        let db = match open(&path) {
            Ok(db) => db,
            Err(CacheError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if db.goal() != goal || db.partition() != partition {
            return Err(CacheError::Stale { path });
        }
        touch(&path);
        Ok(Some(db))
    }

    /// Writes `db` to its file: to a temporary file in the same directory first, then renamed
    /// over the final name, so readers see the old file or the new one, never a mix.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory or the file cannot be written.
    pub fn save(&self, db: &Database) -> Result<PathBuf, CacheError> {
        let io_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| CacheError::Io { path, source }
        };
        fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        let path = self.path(db.goal(), db.partition());
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let tmp = self.dir.join(format!(
            ".{}.{}.{}.{}.tmp",
            Cache::file_name(db.goal(), db.partition()),
            std::process::id(),
            nanos,
            COUNTER.fetch_add(1, Relaxed)
        ));
        let written = (|| {
            let mut f = fs::File::create(&tmp)?;
            f.write_all(db.bytes())?;
            f.sync_all()?;
            drop(f);
            fs::rename(&tmp, &path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(CacheError::Io { path: tmp, source: e });
        }
        // Over the cap: the least recently used others go (a failure to list is no failure
        // to save).
        let _ = self.evict(Some(&path));
        Ok(path)
    }

    /// The database of `goal` and `partition` from the cache, or built and saved when there is
    /// none or its file cannot be trusted (`warn` then gets a one-line reason). A database
    /// that cannot be saved is still returned (with a warning).
    ///
    /// # Errors
    /// [`CacheError::Build`] when the build fails (cancelled, or a partition that does not
    /// fit).
    pub fn load_or_build(
        &self,
        goal: &Board,
        partition: &Partition,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: Option<&AtomicBool>,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Database, CacheError> {
        match self.load(goal, partition) {
            Ok(Some(db)) => return Ok(db),
            Ok(None) => {}
            Err(e) => warn(&format!("{e}; rebuilding it")),
        }
        let db = Database::build(goal, partition, threads, progress, cancel)?;
        if let Err(e) = self.save(&db) {
            warn(&format!("could not save the pattern database: {e}"));
        }
        Ok(db)
    }

    /// Every `.pdb` file in the directory, with what its header says (data not checked; see
    /// [`Cache::verify`]). Sorted by name; an absent directory is empty.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory exists but cannot be read.
    pub fn list(&self) -> Result<Vec<CachedFile>, CacheError> {
        let entries = match fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => return Err(CacheError::Io { path: self.dir.clone(), source }),
        };
        let mut out = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || !name.ends_with(".pdb") {
                continue;
            }
            let bytes = fs::metadata(&path).map_or(0, |m| m.len());
            let header = read_head(&path).and_then(|head| describe(&head));
            out.push(CachedFile { path, bytes, header });
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// Loads and checks every file of [`Cache::list`] (length, checksum, and that the name
    /// matches the contents).
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory cannot be read.
    pub fn verify(&self) -> Result<Vec<Verified>, CacheError> {
        Ok(self
            .list()?
            .into_iter()
            .map(|f| {
                let result = open(&f.path).and_then(|db| {
                    let expected = self.path(db.goal(), db.partition());
                    if expected == f.path {
                        Ok(db)
                    } else {
                        Err(CacheError::Stale { path: f.path.clone() })
                    }
                });
                (f.path, result)
            })
            .collect())
    }

    /// The sound database for `goal` with the most entries (the strongest) among those whose
    /// groups hold every tile, if any; files that fail the checks are skipped with a warning.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory cannot be read.
    pub fn best(
        &self,
        goal: &Board,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Option<Database>, CacheError> {
        self.best_within(goal, None, warn)
    }

    /// [`Cache::best`] among the files of at most `limit` bytes (all without a limit): for
    /// a memory limit the strongest does not fit in.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory cannot be read.
    pub fn best_within(
        &self,
        goal: &Board,
        limit: Option<u64>,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Option<Database>, CacheError> {
        for (_, _, partition) in self.candidates(goal, limit)? {
            match self.load(goal, &partition) {
                Ok(Some(db)) => return Ok(Some(db)),
                Ok(None) => {}
                Err(e) => warn(&format!("{e}; ignoring it")),
            }
        }
        Ok(None)
    }

    /// The size of the file [`Cache::best`] tries first for `goal`, if any: what loading it
    /// would add to the process.
    pub fn best_bytes(&self, goal: &Board) -> Option<u64> {
        Some(self.candidates_within(goal, None).ok()?.first()?.bytes)
    }

    /// The cached files for `goal` covering every tile, of at most `limit` bytes, in the
    /// order [`Cache::best_within`] tries them (the most entries first); headers read, data
    /// not checked.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the directory exists but cannot be read.
    pub fn candidates_within(
        &self,
        goal: &Board,
        limit: Option<u64>,
    ) -> Result<Vec<Candidate>, CacheError> {
        Ok(self
            .candidates(goal, limit)?
            .into_iter()
            .filter_map(|(entries, path, partition)| {
                let bytes = fs::metadata(&path).ok()?.len();
                Some(Candidate { entries, bytes, path, partition })
            })
            .collect())
    }

    /// The cached files for `goal` covering every tile, of at most `limit` bytes, the
    /// largest partition first.
    fn candidates(
        &self,
        goal: &Board,
        limit: Option<u64>,
    ) -> Result<Vec<(u64, PathBuf, Partition)>, CacheError> {
        let mut candidates: Vec<(u64, PathBuf, Partition)> = self
            .list()?
            .into_iter()
            .filter_map(|f| match f.header {
                Ok((g, p))
                    if &g == goal
                        && p.groups().iter().map(Vec::len).sum::<usize>() + 1
                            == goal.tiles().len()
                        && limit
                            .is_none_or(|l| fs::metadata(&f.path).is_ok_and(|m| m.len() <= l)) =>
                {
                    Some((p.entries(goal.tiles().len()), f.path, p))
                }
                _ => None,
            })
            .collect();
        candidates.sort_by_key(|c| std::cmp::Reverse(c.0));
        Ok(candidates)
    }
}

/// Marks a file used now (the eviction order); a read-only cache just keeps its order.
fn touch(path: &Path) {
    if let Ok(f) = fs::File::open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// Maps and checks one file.
fn open(path: &Path) -> Result<Database, CacheError> {
    let io_err = |source| CacheError::Io { path: path.to_path_buf(), source };
    if !regular_file(path).map_err(io_err)? {
        return Err(CacheError::Invalid { path: path.to_path_buf(), source: FileError::NotAFile });
    }
    let f = fs::File::open(path).map_err(io_err)?;
    // SAFETY: the map is read-only, and npuzzle never writes a database file in place: new
    // files are written under a temporary name and renamed over the old one, which leaves
    // the mapped inode untouched. Another program truncating the file while it is mapped
    // could still fault the process; the checksum below covers any other change made before
    // the load.
    #[expect(unsafe_code, reason = "memory-mapping a file that is only ever replaced by rename")]
    let map = unsafe { memmap2::Mmap::map(&f) }.map_err(io_err)?;
    Database::from_mmap(map)
        .map_err(|source| CacheError::Invalid { path: path.to_path_buf(), source })
}

/// The first bytes of a file: enough for any header.
fn read_head(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read;
    let unreadable = |e: io::Error| FileError::Unreadable(e.to_string());
    if !regular_file(path).map_err(unreadable)? {
        return Err(FileError::NotAFile);
    }
    let mut head = Vec::new();
    fs::File::open(path).and_then(|f| f.take(4096).read_to_end(&mut head)).map_err(unreadable)?;
    Ok(head)
}

/// Whether `path` is a regular file (after symlinks), asked before opening it: opening a FIFO
/// blocks until a writer comes (a FIFO named `*.pdb` hung `solve`, `pdb list` and `pdb
/// verify` forever), and a device or a directory is no database either.
fn regular_file(path: &Path) -> io::Result<bool> {
    Ok(fs::metadata(path)?.is_file())
}

/// Why a file cannot be trusted, saying "damaged" unless the reason already does, or the
/// file is sound but of another format version.
fn damaged(source: &FileError) -> String {
    match source {
        FileError::Checksum | FileError::Version(_) | FileError::NotAFile => source.to_string(),
        FileError::Unreadable(_) => format!("cannot be read: {source}"),
        _ => format!("damaged: {source}"),
    }
}

fn describe(head: &[u8]) -> Result<(Board, Partition), FileError> {
    let h = file::decode_header(head)?;
    let size =
        npuzzle_core::Size::new(h.width, h.height).map_err(|_| FileError::Header("board size"))?;
    let goal = Board::new(size, h.goal).map_err(|_| FileError::Header("goal is not a board"))?;
    let partition = Partition::new(h.groups.into_iter().map(|g| g.tiles).collect(), size.cells())
        .map_err(|_| FileError::Header("partition"))?;
    Ok((goal, partition))
}

/// FNV-1a: a stable name hash (not a checksum).
fn fnv(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}
