//! Long calls: the work runs on its own thread with the GIL released, so that other Python
//! threads run meanwhile, and the calling thread wakes every [`POLL`] to run Python's signal
//! handlers. When one raises (Ctrl-C's `KeyboardInterrupt`), the cancel flag that every
//! search of the work watches (`Limits::cancel`) is raised, the searches stop at their next
//! check (the engines check every 1024 expansions or so), and the exception is raised once
//! the work has returned.
//!
//! Signal handlers only run in Python's main thread, so a call made from another thread
//! cannot be interrupted this way; it still releases the GIL.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

use pyo3::prelude::*;

use crate::errors::panicked;

/// How often the waiting thread runs the signal handlers.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` with the GIL released and Ctrl-C watched: see the module docs. `cancel` is the
/// flag the work's searches watch; it is raised when a signal handler raises.
///
/// # Errors
/// The exception a signal handler raised (`KeyboardInterrupt`), or an `InternalError` when
/// the work panicked.
pub(crate) fn interruptible<R: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> R + Send,
) -> PyResult<R> {
    let done = AtomicBool::new(false);
    let (result, interrupted) = py.detach(|| {
        let caller = thread::current();
        thread::scope(|scope| {
            let worker = scope.spawn(|| {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
                done.store(true, Ordering::Release);
                caller.unpark();
                r
            });
            let mut interrupted = None;
            while !done.load(Ordering::Acquire) {
                thread::park_timeout(POLL);
                if interrupted.is_none() && !done.load(Ordering::Acquire) {
                    if let Err(e) = Python::attach(|py| py.check_signals()) {
                        cancel.store(true, Ordering::SeqCst);
                        interrupted = Some(e);
                    }
                }
            }
            (worker.join(), interrupted)
        })
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match result {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(payload)) | Err(payload) => Err(panicked(payload.as_ref()).into()),
    }
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
