//! Every body of `POST /api/solve` that ever made the `web_request` fuzz target fail
//! (`fuzz/regressions/web_request/`), and the seeds it starts from, replayed through the same
//! checks (`fuzz/src/web_checks.rs`), so that the normal suite keeps them fixed.

use std::fs;
use std::path::Path;

#[path = "../../../fuzz/src/web_checks.rs"]
mod web_checks;

#[test]
fn web_request_inputs_that_once_failed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut checked = 0;
    for dir in ["regressions", "seeds"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join("web_request")) else { continue };
        for entry in entries {
            let path = entry.expect("a readable directory").path();
            if path.file_name().is_some_and(|n| n == ".gitkeep") {
                continue;
            }
            let data = fs::read(&path).expect("a readable file");
            let outcome = std::panic::catch_unwind(|| web_checks::web_request(&data));
            assert!(outcome.is_ok(), "{} fails again", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 3, "the seeds are there: {checked}");
}
