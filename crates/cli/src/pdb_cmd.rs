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
/// saves it, and says where.
pub fn build_with_progress(
    goal: &Board,
    partition: &Partition,
    threads: usize,
) -> anyhow::Result<Database> {
    let cache = cache();
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
    let seconds = clock.elapsed().as_secs_f64();
    match cache.save(&db) {
        Ok(path) => crate::stdio::complain(format_args!(
            "built the {} pattern database for {} in {seconds:.1} s: {} ({:.1} MB)",
            partition.sizes(),
            goal,
            path.display(),
            db.bytes().len() as f64 / 1e6
        )),
        Err(e) => crate::stdio::complain(format_args!(
            "warning: could not save the pattern database: {e}"
        )),
    }
    Ok(db)
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
        PdbAction::List => list(),
        PdbAction::Verify => verify(),
    }
}

fn build(args: &PdbBuildArgs) -> anyhow::Result<ExitCode> {
    if args.partition.as_deref().is_some_and(|p| p.trim().eq_ignore_ascii_case("korf-felner")) {
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
                println!(
                    "{}: already built and sound ({:.1} MB)",
                    cache.path(&goal, &partition).display(),
                    db.bytes().len() as f64 / 1e6
                );
                return Ok(ExitCode::SUCCESS);
            }
            Ok(None) => {}
            Err(e) => crate::stdio::complain(format_args!("warning: {e}; rebuilding it")),
        }
    }
    build_with_progress(&goal, &partition, threads)?;
    Ok(ExitCode::SUCCESS)
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
