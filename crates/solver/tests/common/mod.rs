//! What several test files share.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

use npuzzle_core::{Board, Move};

/// Exact distance to `goal` of every reachable board, by breadth-first search.
pub fn exact(goal: &Board) -> HashMap<Board, u32> {
    let mut dist = HashMap::from([(goal.clone(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in Move::ALL {
            if let Some(n) = b.moved(m) {
                dist.entry(n.clone()).or_insert_with(|| {
                    queue.push_back(n);
                    d + 1
                });
            }
        }
    }
    dist
}

/// A scratch directory under the target's temporary directory, empty at the start and
/// removed when dropped (when its test ends, passed or failed), so that test runs leave no
/// tables behind.
#[allow(dead_code, reason = "not every test file that shares this module uses it")]
pub struct Scratch(PathBuf);

#[allow(dead_code, reason = "not every test file that shares this module uses it")]
impl Scratch {
    /// The directory `name` plus this process's id (test runs at once do not share it).
    pub fn new(name: &str) -> Scratch {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        Scratch(dir)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
