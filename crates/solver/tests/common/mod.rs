//! What several test files share.

use std::collections::{HashMap, VecDeque};

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
