//! The pattern databases a solve uses: found in the cache the command line uses (so a table
//! built once with `npuzzle pdb build` serves both), or, for the small partition (6-6-3 on
//! 4x4, about a second), built on first use and saved there. This follows the command line's
//! `pdb_cmd::database_for`: the library itself reads no files.
//!
//! Databases are kept per goal frame (the goal renamed and turned so that one table serves
//! every goal of a shape with the blank in a corner; see `npuzzle_solver::heuristic::frame`)
//! for the life of the process.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use npuzzle_core::{Board, Goal};
use npuzzle_solver::heuristic::frame::Frame;
use npuzzle_solver::pdb::{Cache, Database, MAX_CELLS, Partition};
use npuzzle_solver::{Algorithm, Databases, Heuristic};
use pyo3::prelude::*;

use crate::convert;
use crate::errors::Error;

/// The databases found or built so far, by frame goal; `None` where none could be had.
static BY_FRAME: Mutex<Option<HashMap<Board, Option<Database>>>> = Mutex::new(None);

/// Warnings waiting for the GIL (a worker thread cannot call `warnings.warn`).
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The cache directory: `$NPUZZLE_CACHE`, or the platform cache directory's `npuzzle/`, as
/// for the command line.
pub(crate) fn cache_dir() -> PathBuf {
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

/// Whether a request of `algorithm` and `heuristic` on boards of `cells` cells uses a
/// database: as the command line decides.
fn wants(cells: usize, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    match heuristic {
        Heuristic::Pdb => (10..=MAX_CELLS).contains(&cells),
        Heuristic::Auto => algorithm == Algorithm::Auto && (13..=16).contains(&cells),
        _ => false,
    }
}

/// The databases for solving towards `goal` as asked, if the request uses one: the
/// strongest sound one in the cache for the goal or its frame; with none, the small
/// partition, built now and saved.
pub(crate) fn for_goal(
    goal: &Board,
    algorithm: Algorithm,
    heuristic: Heuristic,
) -> Option<Databases> {
    if !wants(goal.tiles().len(), algorithm, heuristic) {
        return None;
    }
    database(goal).map(|pdb| Databases { pdb: Some(pdb), threads: 1, dual: false })
}

/// The database for `goal` (see [`for_goal`]), whatever the request.
pub(crate) fn database(goal: &Board) -> Option<Database> {
    if goal.tiles().len() > MAX_CELLS {
        return None;
    }
    let mut map = BY_FRAME.lock().unwrap_or_else(|e| e.into_inner());
    let map = map.get_or_insert_with(HashMap::new);
    if let Some(found) = map.get(goal) {
        return found.clone();
    }
    let frame = Frame::new(goal);
    let key = frame.goal().clone();
    if let Some(found) = map.get(&key) {
        return found.clone();
    }
    let found = find_or_build(goal, &frame);
    map.insert(key, found.clone());
    found
}

fn find_or_build(goal: &Board, frame: &Frame) -> Option<Database> {
    let cache = Cache::new(cache_dir());
    let mut warn = |w: &str| warn(format!("npuzzle: {w}"));
    for g in [goal, frame.goal()] {
        match cache.best(g, &mut warn) {
            Ok(Some(db)) => return Some(db),
            Ok(None) => {}
            Err(e) => warn(&format!("{e}")),
        }
    }
    let goal = frame.goal();
    let small = Partition::small(goal).ok()?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let db = match Database::build(goal, &small, threads, &|_| {}, None) {
        Ok(db) => db,
        Err(e) => {
            warn(&format!("could not build the {} pattern database: {e}", small.sizes()));
            return None;
        }
    };
    if let Err(e) = cache.save(&db) {
        warn(&format!("could not save the pattern database: {e}"));
    }
    if Partition::full(goal).is_ok_and(|full| full != small) {
        warn(&format!(
            "built the small {} pattern database for {}; for full speed, build the strongest one \
             once (about a minute): npuzzle.build_database(\"{}\", goal=\"{}\")",
            small.sizes(),
            goal.size(),
            goal.size(),
            goal_name(goal)
        ));
    }
    Some(db)
}

/// `blank-first` for a named goal, else the board.
fn goal_name(goal: &Board) -> String {
    [Goal::BlankLast, Goal::BlankFirst, Goal::Snail]
        .into_iter()
        .find(|g| g.board(goal.size()).is_ok_and(|b| &b == goal))
        .map_or_else(|| goal.to_string(), |g| g.to_string())
}

/// Queues a warning for [`flush_warnings`].
fn warn(message: String) {
    WARNINGS.lock().unwrap_or_else(|e| e.into_inner()).push(message);
}

/// Issues the queued warnings as Python `UserWarning`s.
pub(crate) fn flush_warnings(py: Python<'_>) -> PyResult<()> {
    let queued = std::mem::take(&mut *WARNINGS.lock().unwrap_or_else(|e| e.into_inner()));
    for w in queued {
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        let message = std::ffi::CString::new(w.replace('\0', " ")).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}

/// Builds the pattern database of `partition` for boards of `size` towards `goal` (the
/// strongest worth building when no partition is given: 7-8 on 4x4, about a minute and
/// 288 MB), saves it in the cache and returns its path. Solves then use it, as the command
/// line's do (`npuzzle pdb build` makes the same file).
///
/// Example: ``npuzzle.build_database("4x4", goal="blank-first", partition="7-8")``.
#[pyfunction]
#[pyo3(name = "build_database", signature = (size = "4x4", goal = None, partition = None, threads = None))]
pub(crate) fn build_database(
    py: Python<'_>,
    size: &str,
    goal: Option<&Bound<'_, PyAny>>,
    partition: Option<&str>,
    threads: Option<usize>,
) -> PyResult<String> {
    let size = convert::size(size)?;
    let goal = convert::goal(goal, size)?.0;
    if size.cells() > MAX_CELLS {
        return Err(Error::Option(format!(
            "pattern databases need boards of at most {MAX_CELLS} cells; {size} has {}",
            size.cells()
        ))
        .into());
    }
    let partition = match partition {
        Some(text) => Partition::parse(text, &goal),
        None => Partition::full(&goal),
    }
    .map_err(|e| Error::Option(format!("partition: {e}")))?;
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let cancel = crate::interrupt::flag();
    let watched = std::sync::Arc::clone(&cancel);
    let built = crate::interrupt::interruptible(py, &cancel, move || {
        let cache = Cache::new(cache_dir());
        let db = Database::build(&goal, &partition, threads.max(1), &|_| {}, Some(&watched))
            .map_err(|e| Error::Option(format!("building the pattern database: {e}")))?;
        let path = cache
            .save(&db)
            .map_err(|e| Error::Internal(format!("could not save the pattern database: {e}")))?;
        // Later solves look again: forget what was found before.
        *BY_FRAME.lock().unwrap_or_else(|e| e.into_inner()) = None;
        Ok::<_, Error>(path)
    })?;
    Ok(built.map_err(PyErr::from)?.display().to_string())
}

/// The directory where pattern databases are kept: ``$NPUZZLE_CACHE``, or the platform's
/// cache directory's ``npuzzle/`` (the command line's too).
#[pyfunction]
#[pyo3(name = "cache_dir")]
pub(crate) fn cache_dir_py() -> String {
    cache_dir().display().to_string()
}
