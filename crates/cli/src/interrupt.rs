//! Ctrl-C: the first one cancels the running searches, which end promptly with a `limit`
//! answer (reason "search cancelled", with their lower bound) so that the results so far are
//! printed; a second one ends the process at once. SIGTERM and SIGHUP (a `kill`, a closed
//! terminal, a job scheduler's stop) do the same: ended silently, a run left no record.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status after a second Ctrl-C: 128 + SIGINT, as shells report a killed process.
const EXIT_INTERRUPTED: i32 = 130;

/// Installs the Ctrl-C handler and returns the flag it raises: pass it to the searches as
/// their cancel flag and check it between boards.
///
/// A handler can be installed once per process; if that fails (a library already installed
/// one), Ctrl-C keeps its default effect of ending the process, and the flag never rises.
pub fn install() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&flag);
    let _ = ctrlc::set_handler(move || {
        if raised.swap(true, Ordering::SeqCst) {
            std::process::exit(EXIT_INTERRUPTED);
        }
    });
    flag
}
