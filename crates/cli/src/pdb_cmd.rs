//! `npuzzle pdb build|list|verify`, and finding or building the database a solve needs.
//!
//! Databases live in `$NPUZZLE_CACHE` when it is set, otherwise in the platform's cache
//! directory under `npuzzle/` (`$XDG_CACHE_HOME/npuzzle` or `~/.cache/npuzzle` on Linux,
//! `~/Library/Caches/npuzzle` on macOS, `%LOCALAPPDATA%\npuzzle` on Windows).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle_core::{Board, Goal, Size};
use npuzzle_solver::pdb::{Cache, CacheError, Database, Partition, Progress};
use npuzzle_solver::{Algorithm, Heuristic};

use crate::args::{PdbAction, PdbArgs, PdbBuildArgs};

/// The cache directory: `$NPUZZLE_CACHE`, or the platform cache directory's `npuzzle/`.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
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

/// The cache.
pub fn cache() -> Cache {
    Cache::new(cache_dir())
}

/// Builds (or rebuilds) a database with a progress bar on stderr when it is a terminal,
/// saves it, and says where. A database that cannot be saved is still returned, with a
/// warning: a solve can use it all the same.
pub fn build_with_progress(
    goal: &Board,
    partition: &Partition,
    threads: usize,
) -> anyhow::Result<Database> {
    let (db, seconds) = build_only(goal, partition, threads)?;
    match cache().save(&db) {
        Ok(path) => say_built(&db, seconds, &path),
        Err(e) => crate::stdio::complain(format_args!(
            "warning: could not save the pattern database: {e}"
        )),
    }
    Ok(db)
}

/// [`build_with_progress`] for `pdb build`, whose whole purpose is the file: a database that
/// cannot be saved (a read-only or full disk, no permission) is an error, so that a script
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

/// The database a solve of boards of `goal` should use, if any: the strongest sound one in
/// the cache; with none, the small partition, built now (seconds) with a one-line note on
/// how to build the full one. `None` when the request does not use a database.
pub fn database_for(
    goal: &Board,
    algorithm: Algorithm,
    heuristic: Heuristic,
) -> anyhow::Result<Option<Database>> {
    let cells = goal.tiles().len();
    let wants = match heuristic {
        Heuristic::Pdb => (10..=npuzzle_solver::pdb::MAX_CELLS).contains(&cells),
        // auto answers 4x4-sized boards optimally with a database.
        Heuristic::Auto => matches!(algorithm, Algorithm::Auto) && (13..=16).contains(&cells),
        _ => false,
    };
    if !wants {
        return Ok(None);
    }
    let cache = cache();
    let mut warn = |w: &str| crate::stdio::complain(format_args!("warning: {w}"));
    // A database built for this very goal (`pdb build --goal ...`), else the one of the
    // goal's frame: tiles renamed after their goal cells and the board turned so the blank's
    // goal cell is the first of its symmetry class, so that one table serves every goal of a
    // shape with the blank in a corner (see `npuzzle_solver::heuristic::frame`).
    if let Some(db) = cache.best(goal, &mut warn)? {
        return Ok(Some(db));
    }
    let frame = npuzzle_solver::heuristic::frame::Frame::new(goal);
    let goal = frame.goal();
    if let Some(db) = cache.best(goal, &mut warn)? {
        return Ok(Some(db));
    }
    let small = Partition::small(goal)?;
    let full = Partition::full(goal)?;
    let db = build_with_progress(goal, &small, available_threads())?;
    if full != small {
        crate::stdio::complain(format_args!(
            "note: for full speed, build the {} database once (about a minute): npuzzle pdb build --size {} --goal \"{}\"",
            full.sizes(),
            goal.size(),
            goal_name(goal)
        ));
    }
    Ok(Some(db))
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
        PdbAction::Verify => {
            crate::stdio::check_stdout()?;
            verify()
        }
    }
}

fn build(args: &PdbBuildArgs) -> anyhow::Result<ExitCode> {
    if args.partition.as_deref().is_some_and(|p| p.trim().eq_ignore_ascii_case("korf-felner")) {
        korf_felner_fits(args)?;
        crate::korf24::build(args.threads.unwrap_or_else(available_threads), args.force)?;
        return Ok(ExitCode::SUCCESS);
    }
    let size = args.size.unwrap_or(Size::square(4)?);
    let goal = args.goal.board(size).context("--goal")?;
    if size.cells() > npuzzle_solver::pdb::MAX_CELLS {
        bail!(
            "pattern databases need boards of at most {} cells; {size} has {}",
            npuzzle_solver::pdb::MAX_CELLS,
            size.cells()
        );
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

/// Refuses `--partition korf-felner` with a size or goal its tables do not serve: they are the
/// 24-puzzle's, for a goal with the blank in a corner (it built the 5x5 tables whatever
/// `--size` and `--goal` said).
fn korf_felner_fits(args: &PdbBuildArgs) -> anyhow::Result<()> {
    let five = Size::square(5)?;
    let size = args.size.unwrap_or(five);
    if size != five {
        bail!(
            "--partition korf-felner: the tables are for the 5x5 board (the 24-puzzle), not {size}"
        );
    }
    let goal = args.goal.board(size).context("--goal")?;
    if npuzzle_solver::twentyfour::Tables::korf_felner_partition(&goal).is_err() {
        bail!(
            "--partition korf-felner: the tables serve goals with the blank in a corner, and \
             --goal {} has it elsewhere",
            args.goal
        );
    }
    Ok(())
}

fn list() -> anyhow::Result<ExitCode> {
    let cache = cache();
    let files = cache.list()?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "cache: {}", cache.dir().display())?;
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
