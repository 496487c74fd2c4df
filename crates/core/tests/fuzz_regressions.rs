//! Every input that ever made a fuzz target fail (`fuzz/regressions/<target>/`), replayed
//! through the same checks as the fuzz targets (`fuzz/src/checks.rs`), so that the normal test
//! suite keeps them fixed. `scripts/fuzz` says where to put a new one.

use std::fs;
use std::path::Path;

#[path = "../../../fuzz/src/checks.rs"]
mod checks;

/// Runs `check` on every file of `fuzz/regressions/<target>/`, and on the seed inputs the
/// fuzzers start from. Returns how many inputs it checked.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut checked = 0;
    for dir in ["regressions", "seeds"] {
        let Ok(entries) = fs::read_dir(root.join(dir).join(target)) else { continue };
        for entry in entries {
            let path = entry.expect("a readable directory").path();
            if path.file_name().is_some_and(|n| n == ".gitkeep") {
                continue;
            }
            let data = fs::read(&path).expect("a readable file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{} fails again", path.display());
            checked += 1;
        }
    }
    checked
}

#[test]
fn board_text_inputs_that_once_failed() {
    assert!(replay("board_text", checks::board_text) > 0);
}

#[test]
fn input_file_inputs_that_once_failed() {
    assert!(replay("input_file", checks::input_file) > 0);
}

#[test]
fn moves_inputs_that_once_failed() {
    assert!(replay("moves", checks::moves) > 0);
}

#[test]
fn goal_and_size_inputs_that_once_failed() {
    assert!(replay("goal_and_size", checks::goal_and_size) > 0);
}

#[test]
fn the_compact_moves_that_failed_a_round_were_never_stored() {
    // `R545544` twice: over a million moves from sixteen bytes, whose round trips slowed the
    // moves target to 20 executions a second (it failed as a slow unit). The README said it
    // was kept; the folder held only `.gitkeep`.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/moves");
    let kept = fs::read_dir(&dir)
        .expect("fuzz/regressions/moves exists")
        .filter_map(Result::ok)
        .any(|e| fs::read(e.path()).is_ok_and(|data| data == b"RR545544RR545544"));
    assert!(kept, "RR545544RR545544 is not in {}", dir.display());
}
