//! The pattern databases the package's solves use: the solver's [`Store`] over the cache
//! the command line uses (so a table built once with `npuzzle pdb build` serves both), which
//! builds the small partition of a goal's frame on first use (6-6-3 on 4x4, seconds) and
//! saves it there, as the command line's `pdb_cmd::store` does. The library itself reads no
//! environment: the cache directory is found here.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use npuzzle_core::{Board, Goal};
use npuzzle_solver::heuristic::pdb::store::Report;
use npuzzle_solver::heuristic::pdb::{
    Cache, CacheError, DEFAULT_CAP, Database, MAX_CELLS, Partition, Store,
};
use pyo3::prelude::*;

use crate::convert;
use crate::errors::Error;

/// Warnings waiting for the GIL (a worker thread cannot call `warnings.warn`).
static WARNINGS: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// The cache directory: `$NPUZZLE_CACHE`, or the platform cache directory's `npuzzle/`, as
/// for the command line.
pub(crate) fn cache_dir() -> PathBuf {
    npuzzle_solver::heuristic::pdb::Cache::default_dir(|name| std::env::var_os(name))
}

/// The cache, capped at `$NPUZZLE_CACHE_MAX` MiB when that is set (as for the command line).
fn cache() -> Cache {
    let cache = Cache::new(cache_dir());
    match std::env::var("NPUZZLE_CACHE_MAX").ok().map(|t| t.trim().parse::<u64>()) {
        Some(Ok(mib)) if mib > 0 => cache.with_cap(mib.saturating_mul(1 << 20)),
        Some(_) => {
            warn(format!(
                "npuzzle: NPUZZLE_CACHE_MAX is not a number of MiB; using {}",
                DEFAULT_CAP >> 20
            ));
            cache
        }
        None => cache,
    }
}

/// The process's store, made on first use (after `$NPUZZLE_CACHE` has been read).
pub(crate) fn store() -> &'static Arc<Store> {
    static STORE: OnceLock<Arc<Store>> = OnceLock::new();
    STORE.get_or_init(|| {
        Arc::new(
            Store::new(Some(cache()))
                .building_on_demand(true, crate::interrupt::default_threads())
                .with_report(Arc::new(Queued)),
        )
    })
}

/// What the store says, queued as Python warnings.
struct Queued;

impl Report for Queued {
    fn built(&self, db: &Database, seconds: f64, saved: Option<&Result<PathBuf, CacheError>>) {
        if let Some(Err(e)) = saved {
            warn(format!("npuzzle: could not save the pattern database: {e}"));
        }
        let goal = db.goal();
        if Partition::full(goal).is_ok_and(|full| &full != db.partition()) {
            warn(format!(
                "npuzzle: built the {} pattern database for {} in {seconds:.1} s; for full \
                 speed, build the strongest one once (about a minute): \
                 npuzzle.build_database(\"{}\", goal=\"{}\")",
                db.partition().sizes(),
                goal.size(),
                goal.size(),
                goal_name(goal)
            ));
        }
    }

    fn warn(&self, warning: &str) {
        warn(format!("npuzzle: {warning}"));
    }
}

/// The database the solver uses for boards of `goal` (its own or its frame's; see
/// `npuzzle_solver::heuristic::pdb::store`), found or built; `None` above 25 cells.
pub(crate) fn database(goal: &Board) -> Option<Database> {
    if goal.tiles().len() > MAX_CELLS {
        return None;
    }
    store().database_for(goal, None)
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
/// 783 MB), saves it in the cache and returns its path. Solves then use it, as the command
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
        let db = Database::build(&goal, &partition, threads.max(1), &|_| {}, Some(&watched))
            .map_err(|e| Error::Option(format!("building the pattern database: {e}")))?;
        let path = cache()
            .save(&db)
            .map_err(|e| Error::Internal(format!("could not save the pattern database: {e}")))?;
        // Later solves use it (the store serves the strongest database it holds).
        store().hold(db);
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
