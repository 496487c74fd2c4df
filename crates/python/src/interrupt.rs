//! Long calls: the work runs on a worker thread with the GIL released, so that other Python
//! threads run meanwhile, and the calling thread wakes every [`POLL`] to run Python's signal
//! handlers. When one raises (Ctrl-C's `KeyboardInterrupt`), the cancel flag that every
//! search of the work watches (`Limits::cancel`) is raised, the searches stop at their next
//! check (the engines check every 1024 expansions or so), and the exception is raised once
//! the work has returned.
//!
//! Signal handlers only run in Python's main thread, so a call made from another thread
//! cannot be interrupted this way; it still releases the GIL.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::{Error, panicked};

/// How often the waiting thread runs the signal handlers.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` with the GIL released and Ctrl-C watched: see the module docs. `cancel` is the
/// flag the work's searches watch; it is raised when a signal handler raises.
///
/// The work runs on the process's worker pool, not on a thread of its own: the solver keeps
/// each thread's search memory for the next search on that thread, and a fresh thread for
/// every call paid for fresh memory every time (two Python threads running breadth-first
/// searches at once took longer than one after the other: 1.3 times, the page faults of
/// new memory serialised in the kernel).
///
/// # Errors
/// The exception a signal handler raised (`KeyboardInterrupt`), or an `InternalError` when
/// the work panicked or the pool could not start.
pub(crate) fn interruptible<R: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    interruptible_watched(py, cancel, &mut |_| Ok(true), work)
}

/// [`interruptible`], calling `poll` with the GIL held at every wake-up of the waiting thread
/// (every [`POLL`]) while the work runs: `Ok(false)` raises the cancel flag (the work then
/// answers with what it has), an error raises it too and is raised once the work has
/// returned, as a signal handler's is.
///
/// # Errors
/// As [`interruptible`], and the error `poll` returned.
pub(crate) fn interruptible_watched<R: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    poll: &mut (dyn FnMut(Python<'_>) -> PyResult<bool> + Send),
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    let pool = pool(default_threads()).map_err(PyErr::from)?;
    let done = AtomicBool::new(false);
    let mut result = None;
    let interrupted = py.detach(|| {
        let caller = thread::current();
        let slot = &mut result;
        let (done, caller) = (&done, &caller);
        pool.in_place_scope(|scope| {
            scope.spawn(move |_| {
                *slot = Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)));
                done.store(true, Ordering::Release);
                caller.unpark();
            });
            let mut interrupted = None;
            while !done.load(Ordering::Acquire) {
                thread::park_timeout(POLL);
                if interrupted.is_none() && !done.load(Ordering::Acquire) {
                    let polled = Python::attach(|py| {
                        py.check_signals()?;
                        poll(py)
                    });
                    match polled {
                        Ok(true) => {}
                        Ok(false) => cancel.store(true, Ordering::SeqCst),
                        Err(e) => {
                            cancel.store(true, Ordering::SeqCst);
                            interrupted = Some(e);
                        }
                    }
                }
            }
            interrupted
        })
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match result {
        Some(Ok(r)) => Ok(r),
        Some(Err(payload)) => Err(panicked(payload.as_ref()).into()),
        None => Err(Error::Internal("internal error: the work did not run".to_string()).into()),
    }
}

/// The worker pools, by thread count (building one costs more than a small batch).
static POOLS: Mutex<Option<HashMap<usize, Arc<rayon::ThreadPool>>>> = Mutex::new(None);

/// The pool of `threads` worker threads, started on first use and kept.
///
/// # Errors
/// An `InternalError` when the threads cannot be started.
pub(crate) fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, Error> {
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    let pools = pools.get_or_insert_with(HashMap::new);
    if let Some(p) = pools.get(&threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("npuzzle-{i}"))
        .build()
        .map_err(|e| Error::Internal(format!("could not start {threads} threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(threads, Arc::clone(&p));
    Ok(p)
}

/// Every core.
pub(crate) fn default_threads() -> usize {
    thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `work` with the GIL released but no thread of its own: for calls that take
/// microseconds (a table lookup), where a thread would cost more than the work. A panic
/// becomes an `InternalError`.
///
/// # Errors
/// An `InternalError` when the work panicked.
pub(crate) fn detached<R: Send>(py: Python<'_>, work: impl FnOnce() -> R + Send) -> PyResult<R> {
    py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)))
        .map_err(|payload| PyErr::from(panicked(payload.as_ref())))
}

/// A fresh cancel flag.
pub(crate) fn flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}
