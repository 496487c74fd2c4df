//! One instance on several threads: each iteration of IDA* is split over a frontier of nodes
//! a few moves below the root, which the threads take one at a time from a shared counter (so
//! a thread that drew easy subtrees simply takes more). Every thread searches its subtrees
//! to the iteration's threshold; the threshold moves only when every thread is done with
//! it, so any solution found is of the optimal length, as in the sequential search.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread;

use super::{Engine, Node, Pass, Watch};
use crate::solution::Stats;

/// Frontier nodes per thread to aim for: enough for the threads to even out.
const NODES_PER_THREAD: usize = 48;

/// Expansions between two looks at the other threads: a thread that finished must not wait
/// long for the others.
const CHECK_EVERY: u64 = 256;

/// A frontier node: the position, the moves that lead to it, and the last of them.
struct Start {
    node: Node,
    path: Vec<u8>,
    last: usize,
}

pub(crate) fn search(
    engine: &Engine<'_>,
    root: &Node,
    watch: &Watch<'_>,
    threads: usize,
    stats: &mut Stats,
) -> Option<Vec<u8>> {
    let h0 = engine.h(root);
    if root.md == 0 {
        return Some(Vec::new());
    }
    // Every path of at least h0 moves passes one node at each depth up to h0, so a frontier
    // at a depth of at most h0 loses no solution.
    let mut frontier = vec![Start { node: *root, path: Vec::new(), last: 4 }];
    let mut depth = 0u32;
    while depth < h0 && frontier.len() < NODES_PER_THREAD * threads && depth < 24 {
        let mut next = Vec::with_capacity(frontier.len() * 3);
        for s in &frontier {
            stats.expanded += 1;
            for &(m, to) in engine.moves(&s.node, s.last) {
                stats.generated += 1;
                let mut path = s.path.clone();
                path.push(m);
                next.push(Start { node: engine.child(&s.node, to), path, last: usize::from(m) });
            }
        }
        frontier = next;
        depth += 1;
    }
    let mut bound = h0;
    loop {
        let counter = AtomicUsize::new(0);
        let next_bound = AtomicU32::new(u32::MAX);
        let expanded = AtomicU64::new(0);
        let generated = AtomicU64::new(0);
        let found: Mutex<Option<Vec<u8>>> = Mutex::new(None);
        let work = || {
            let mut pass = Pass::new(engine, bound, watch, CHECK_EVERY);
            loop {
                let i = counter.fetch_add(1, Relaxed);
                if i >= frontier.len() || watch.done.load(Relaxed) {
                    break;
                }
                let s = &frontier[i];
                let f = depth + engine.h(&s.node);
                if f > bound {
                    pass.next_bound = pass.next_bound.min(f);
                    continue;
                }
                pass.path[..s.path.len()].copy_from_slice(&s.path);
                if pass.dfs(&s.node, depth, s.last, f - depth) {
                    let mut slot = found.lock().unwrap_or_else(|e| e.into_inner());
                    if slot.is_none() {
                        *slot = Some(pass.path[..pass.depth as usize].to_vec());
                    }
                    watch.done.store(true, Relaxed);
                    break;
                }
                if pass.stopped {
                    break;
                }
            }
            next_bound.fetch_min(pass.next_bound, Relaxed);
            expanded.fetch_add(pass.expanded, Relaxed);
            generated.fetch_add(pass.generated, Relaxed);
        };
        thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(work);
            }
            work();
        });
        stats.expanded += expanded.into_inner();
        stats.generated += generated.into_inner();
        if let Some(path) = found.into_inner().unwrap_or_else(|e| e.into_inner()) {
            stats.max_frontier = path.len() as u64;
            return Some(path);
        }
        let nb = next_bound.into_inner();
        if watch.done.load(Relaxed) || nb == u32::MAX || nb > 255 {
            return None;
        }
        bound = nb;
    }
}
