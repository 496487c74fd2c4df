//! `npuzzle pdb build|list|verify`, and finding or building the database a solve needs.
//!
//! Databases live in `$NPUZZLE_CACHE` when it is set, otherwise in the platform's cache
//! directory under `npuzzle/` (`$XDG_CACHE_HOME/npuzzle` or `~/.cache/npuzzle` on Linux,
//! `~/Library/Caches/npuzzle` on macOS, `%LOCALAPPDATA%\npuzzle` on Windows).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle_core::{Board, Goal, Size};
use npuzzle_solver::heuristic::pdb::store::Report;
use npuzzle_solver::heuristic::pdb::{
    Cache, CacheError, DEFAULT_CAP, Database, Partition, Progress, Store,
};
use npuzzle_solver::{Databases, Solver};

use crate::args::{PdbAction, PdbArgs, PdbBuildArgs};

/// The cache directory: `$NPUZZLE_CACHE`, or the platform cache directory's `npuzzle/`.
pub fn cache_dir() -> PathBuf {
    npuzzle_solver::heuristic::pdb::Cache::default_dir(|name| std::env::var_os(name))
}

/// The cache, capped at `$NPUZZLE_CACHE_MAX` MiB when it is set (default 1024): saving a
/// database removes the least recently used others past the cap.
pub fn cache() -> Cache {
    let cache = Cache::new(cache_dir());
    match std::env::var("NPUZZLE_CACHE_MAX") {
        Ok(text) if !text.trim().is_empty() => match text.trim().parse::<u64>() {
            Ok(mib) if mib > 0 => cache.with_cap(mib.saturating_mul(1 << 20)),
            _ => {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| {
                    crate::stdio::complain(format_args!(
                        "warning: NPUZZLE_CACHE_MAX={text:?} is not a number of MiB; using {}",
                        DEFAULT_CAP >> 20
                    ));
                });
                cache
            }
        },
        _ => cache,
    }
}

/// The solver's store for this run: the cache, and the small partition of a board's frame
/// built on demand (seconds) with a progress bar on a terminal and a note on how to build the
/// full one.
pub fn store() -> Arc<Store> {
    Arc::new(
        Store::new(Some(cache()))
            .building_on_demand(true, available_threads())
            .with_report(Arc::new(Reporter::default())),
    )
}

/// A solver that owns the run's [`store`], with `threads` threads for one search over a
/// database, loading tables from the store only when they fit in `max_memory` (bytes, the
/// whole process's `--max-memory`; the searches' shares are given with each request).
pub fn solver(threads: usize, max_memory: Option<usize>) -> Solver {
    let databases = Databases {
        threads: threads.max(1),
        table_memory: max_memory.map(|m| crate::memory::search_memory(m, 1)),
        ..Databases::default()
    };
    Solver::new().with_databases(databases).with_store(store())
}

/// What a long-running command (`serve`, `play`) says of its store's background builds: one
/// line when a build starts and when it ends, warnings; no progress bar.
pub struct Logged;

impl Report for Logged {
    fn built(&self, db: &Database, seconds: f64, saved: Option<&Result<PathBuf, CacheError>>) {
        match saved {
            Some(Ok(path)) => say_built(db, seconds, path),
            Some(Err(e)) => crate::stdio::complain(format_args!(
                "warning: could not save the pattern database: {e}"
            )),
            None => {}
        }
    }

    fn warn(&self, warning: &str) {
        crate::stdio::complain(format_args!("warning: {warning}"));
    }
}

/// What the command line shows of the store's builds: a progress bar on a terminal, where
/// the file went, and warnings on stderr.
#[derive(Default)]
struct Reporter {
    bar: Mutex<Option<ProgressBar>>,
}

impl Report for Reporter {
    fn building(&self, _goal: &Board, partition: &Partition) {
        *self.bar.lock().unwrap_or_else(PoisonError::into_inner) = bar(partition);
    }

    fn progress(&self, p: Progress) {
        if let Some(bar) = &*self.bar.lock().unwrap_or_else(PoisonError::into_inner) {
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
    }

    fn built(&self, db: &Database, seconds: f64, saved: Option<&Result<PathBuf, CacheError>>) {
        if let Some(bar) = self.bar.lock().unwrap_or_else(PoisonError::into_inner).take() {
            bar.finish_and_clear();
        }
        match saved {
            Some(Ok(path)) => say_built(db, seconds, path),
            Some(Err(e)) => crate::stdio::complain(format_args!(
                "warning: could not save the pattern database: {e}"
            )),
            None => {}
        }
        let goal = db.goal();
        if let Ok(full) = Partition::full(goal)
            && &full != db.partition()
        {
            crate::stdio::complain(format_args!(
                "note: for full speed, build the {} database once (about a minute): npuzzle pdb build --size {} --goal \"{}\"",
                full.sizes(),
                goal.size(),
                goal_name(goal)
            ));
        }
    }

    fn warn(&self, warning: &str) {
        // A build's bar ends here: the warning is the last of it that the run waits for (a
        // solve that stopped waiting for the build, whose output would otherwise come between
        // the bar's redraws).
        if let Some(bar) = self.bar.lock().unwrap_or_else(PoisonError::into_inner).take() {
            bar.finish_and_clear();
        }
        crate::stdio::complain(format_args!("warning: {warning}"));
    }
}

/// Builds a database with a progress bar for `pdb build`, whose whole purpose is the file: a
/// database that cannot be saved (a read-only or full disk, no permission) is an error, so that a script
/// can tell that nothing was stored.
///
/// # Errors
/// When the build fails or the file cannot be written.
pub fn build_and_save(goal: &Board, partition: &Partition, threads: usize) -> anyhow::Result<()> {
    let (db, seconds) = build_only(goal, partition, threads)?;
    let path = cache().save(&db).context("could not save the pattern database")?;
    say_built(&db, seconds, &path);
    Ok(())
}

/// Builds a database with a progress bar on stderr when it is a terminal; returns it and the
/// seconds the build took.
fn build_only(
    goal: &Board,
    partition: &Partition,
    threads: usize,
) -> anyhow::Result<(Database, f64)> {
    let bar = bar(partition);
    let clock = Instant::now();
    let update = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
    };
    let db = Database::build(goal, partition, threads, &update, None)
        .with_context(|| format!("building the {} pattern database", partition.sizes()))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    Ok((db, clock.elapsed().as_secs_f64()))
}

/// `built the 7-8 pattern database for ... in 12.3 s: PATH (549.0 MB)` on stderr.
fn say_built(db: &Database, seconds: f64, path: &std::path::Path) {
    crate::stdio::complain(format_args!(
        "built the {} pattern database for {} in {seconds:.1} s: {} ({:.1} MB)",
        db.partition().sizes(),
        db.goal(),
        path.display(),
        db.bytes().len() as f64 / 1e6
    ));
}

fn bar(partition: &Partition) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(1);
    let style = ProgressStyle::with_template(
        "{msg} [{elapsed_precise}] {wide_bar} {percent:>3}% (eta {eta})",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(format!("building the {} pattern database", partition.sizes()));
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// `blank-first` for a named goal, else the board.
fn goal_name(goal: &Board) -> String {
    [Goal::BlankLast, Goal::BlankFirst, Goal::Snail]
        .into_iter()
        .find(|g| g.board(goal.size()).is_ok_and(|b| &b == goal))
        .map_or_else(|| goal.to_string(), |g| g.to_string())
}

/// Cores to build on.
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `npuzzle pdb ...`.
pub fn run(args: &PdbArgs) -> anyhow::Result<ExitCode> {
    match &args.action {
        PdbAction::Build(b) => build(b),
        PdbAction::List => {
            crate::stdio::check_stdout()?;
            list()
        }
        PdbAction::Clean => {
            crate::stdio::check_stdout()?;
            clean()
        }
        PdbAction::Verify => {
            crate::stdio::check_stdout()?;
            verify()
        }
    }
}

fn build(args: &PdbBuildArgs) -> anyhow::Result<ExitCode> {
    if args.partition.as_deref().is_some_and(|p| p.trim().eq_ignore_ascii_case("korf-felner")) {
        korf_felner_fits(args)?;
        build_korf_felner(args.threads.unwrap_or_else(available_threads), args.force)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.partition.as_deref().is_some_and(|p| p.trim().eq_ignore_ascii_case("catalogue")) {
        korf_felner_fits(args)?;
        let threads = args.threads.unwrap_or_else(available_threads);
        build_korf_felner(threads, args.force)?;
        build_catalogue(threads, args.force)?;
        return Ok(ExitCode::SUCCESS);
    }
    let size = args.size.unwrap_or(Size::square(4)?);
    let goal = args.goal.board(size).context("--goal")?;
    if size.cells() > npuzzle_solver::heuristic::pdb::MAX_CELLS {
        bail!(
            "pattern databases need boards of at most {} cells; {size} has {}",
            npuzzle_solver::heuristic::pdb::MAX_CELLS,
            size.cells()
        );
    }
    // Group sizes (or no partition) are built in the goal's frame: the goal turned so that
    // its blank's cell is the first of its symmetry class and renamed, so that one file
    // serves every goal of that class (blank-last and blank-first share the 4x4's 7-8).
    // Explicit tile groups name the goal's own tiles: built for the goal itself.
    let by_sizes = args
        .partition
        .as_deref()
        .is_none_or(|p| p.trim().chars().all(|c| c.is_ascii_digit() || c == '-'));
    let asked = goal.clone();
    let goal = if by_sizes {
        npuzzle_solver::heuristic::frame::Frame::new(&goal).goal().clone()
    } else {
        goal
    };
    if goal != asked {
        crate::stdio::complain(format_args!(
            "note: built for {} (goal {goal}), which serves {} through the board's symmetry",
            goal_name(&goal),
            goal_name(&asked)
        ));
    }
    let partition = match &args.partition {
        Some(text) => Partition::parse(text, &goal).context("--partition")?,
        None => Partition::full(&goal)?,
    };
    let threads = args.threads.unwrap_or_else(available_threads);
    if !args.force {
        let cache = cache();
        match cache.load(&goal, &partition) {
            Ok(Some(db)) => {
                already_built(&cache.path(&goal, &partition), &db)?;
                return Ok(ExitCode::SUCCESS);
            }
            Ok(None) => {}
            Err(e) => crate::stdio::complain(format_args!("warning: {e}; rebuilding it")),
        }
    }
    build_and_save(&goal, &partition, threads)?;
    Ok(ExitCode::SUCCESS)
}

/// `PATH: already built and sound (549.0 MB)` on stdout.
///
/// # Errors
/// When stdout cannot be written.
pub fn already_built(path: &std::path::Path, db: &Database) -> anyhow::Result<()> {
    let line = format!(
        "{}: already built and sound ({:.1} MB)\n",
        path.display(),
        db.bytes().len() as f64 / 1e6
    );
    crate::stdio::print_bytes(line.as_bytes())?;
    Ok(())
}

/// Refuses `--partition korf-felner` (or `catalogue`) with a size or goal its tables do not serve: they are the
/// 24-puzzle's, for a goal with the blank in a corner (it built the 5x5 tables whatever
/// `--size` and `--goal` said).
fn korf_felner_fits(args: &PdbBuildArgs) -> anyhow::Result<()> {
    let five = Size::square(5)?;
    let size = args.size.unwrap_or(five);
    let name = args.partition.as_deref().unwrap_or("korf-felner").trim().to_ascii_lowercase();
    if size != five {
        bail!("--partition {name}: the tables are for the 5x5 board (the 24-puzzle), not {size}");
    }
    let goal = args.goal.board(size).context("--goal")?;
    if npuzzle_solver::engine::twentyfour::Tables::korf_felner_partition(&goal).is_err() {
        bail!(
            "--partition {name}: the tables serve goals with the blank in a corner, and \
             --goal {} has it elsewhere",
            args.goal
        );
    }
    Ok(())
}

fn list() -> anyhow::Result<ExitCode> {
    let cache = cache();
    let mut files = cache.list()?;
    let used = |f: &npuzzle_solver::heuristic::pdb::CachedFile| {
        std::fs::metadata(&f.path).and_then(|m| m.modified()).ok()
    };
    // Least recently used first: the order in which the cap removes them.
    files.sort_by_key(|f| used(f));
    let total: u64 = files.iter().map(|f| f.bytes).sum();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "cache: {}  {:.1} MB of {:.1} MB (least recently used first)",
        cache.dir().display(),
        total as f64 / 1e6,
        cache.cap() as f64 / 1e6
    )?;
    if files.is_empty() {
        writeln!(out, "no pattern databases (build one with 'npuzzle pdb build')")?;
    }
    for f in files {
        let name =
            f.path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match f.header {
            Ok((goal, partition)) => writeln!(
                out,
                "{name}  {:.1} MB  {}  goal {}  partition {}",
                f.bytes as f64 / 1e6,
                goal.size(),
                goal,
                partition
            )?,
            Err(e) => writeln!(out, "{name}  {:.1} MB  unreadable: {e}", f.bytes as f64 / 1e6)?,
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn clean() -> anyhow::Result<ExitCode> {
    let cache = cache();
    let (removed, freed) = cache.clean()?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "removed {} file(s), {:.1} MB, from {}",
        removed.len(),
        freed as f64 / 1e6,
        cache.dir().display()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn verify() -> anyhow::Result<ExitCode> {
    let cache = cache();
    let mut bad = 0;
    let mut out = std::io::stdout().lock();
    let results = cache.verify()?;
    if results.is_empty() {
        writeln!(out, "no pattern databases in {}", cache.dir().display())?;
    }
    for (path, result) in results {
        let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        match result {
            Ok(db) => writeln!(
                out,
                "{name}: ok ({} entries, {} partition)",
                db.entries(),
                db.partition().sizes()
            )?,
            Err(e) => {
                bad += 1;
                let reason = match &e {
                    CacheError::Invalid { source, .. } => source.to_string(),
                    CacheError::Stale { .. } => {
                        "holds another goal or partition than its name says".to_string()
                    }
                    other => other.to_string(),
                };
                writeln!(out, "{name}: damaged: {reason}")?;
            }
        }
    }
    if bad > 0 {
        crate::stdio::complain(format_args!(
            "{bad} damaged file(s): they are rebuilt when next needed, or run 'npuzzle pdb build'"
        ));
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `npuzzle pdb build --partition catalogue` (after Korf & Felner's two): the nine other
/// stored tables of the 24-puzzle's catalogue of seven 6-6-6-6 partitions, one file each.
fn build_catalogue(threads: usize, force: bool) -> anyhow::Result<()> {
    use npuzzle_solver::engine::twentyfour::Tables;
    let cache = cache();
    let goal = Tables::korf_felner_base_goal();
    for partition in Tables::catalogue_base_partitions() {
        if !force {
            if let Ok(Some(db)) = cache.load(&goal, &partition) {
                already_built(&cache.path(&goal, &partition), &db)?;
                continue;
            }
        }
        build_and_save(&goal, &partition, threads)?;
    }
    Ok(())
}

/// `npuzzle pdb build --partition korf-felner`: the two stored tables of the 24-puzzle's
/// 6-6-6-6 databases (they serve every 5x5 goal with the blank in a corner).
fn build_korf_felner(threads: usize, force: bool) -> anyhow::Result<()> {
    use npuzzle_solver::engine::twentyfour::Tables;
    let cache = cache();
    let goal = Tables::korf_felner_base_goal();
    let partition = Tables::korf_felner_base_partition();
    if !force {
        if let Ok(Some(db)) = cache.load(&goal, &partition) {
            return already_built(&cache.path(&goal, &partition), &db);
        }
    }
    build_and_save(&goal, &partition, threads)
}
