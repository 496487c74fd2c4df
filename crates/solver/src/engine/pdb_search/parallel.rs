//! One instance on several threads, with no thread waiting for another until the answer.
//!
//! The tree is cut at a breadth-first frontier a few moves below the root, in the order the
//! sequential search meets its nodes. A work item is a pair (iteration, frontier node), and
//! the items are handed out in that order from one shared counter: a thread that drew a
//! small subtree simply takes the next item, and a thread that ran out of items of one
//! iteration goes on with the next iteration's instead of waiting for the slowest subtree.
//! The threads are started once per solve.
//!
//! That needs every iteration's threshold in advance, and the bound gives it: a move
//! changes the moving tile's Manhattan distance by one and a table entry by a whole number,
//! and the bound is the Manhattan distance plus twice the table sum (see [`super`]), so
//! `depth + bound` keeps its parity along every path, and so does a bound raised by
//! pathmax (a neighbour's bound less one). Every threshold the sequential search would use
//! is therefore of the root's parity, and iteration `k` searches to `h(root) + 2k`: none is
//! skipped, and an iteration in which nothing lies exactly two above the last threshold
//! (not seen on 4x4) only repeats the one before.
//!
//! A solution found in iteration `k` is of the length `h(root) + 2k` when no earlier
//! iteration holds one. So when a thread finds one, the items of iteration `k` and later are
//! dropped (running ones stop at their next check), the items of earlier iterations still
//! running are finished, and the answer is the solution of the earliest iteration: the same
//! optimal length as the sequential search.
//!
//! The frontier keeps what the sequential search knows above it: each frontier node carries
//! the bound pathmax gives it and the largest `depth + bound` on the way to it, and an
//! iteration below that skips the node, as the sequential search would not reach it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::thread;

use super::ThreadReport;
use super::{Node, Pass, PdbEngine, Watch};
use crate::pruning::FORBIDDEN;
use crate::solution::Stats;

/// Frontier nodes to aim for per thread: enough for the threads to even out on the last
/// iteration, few enough that handing them out costs little on the first ones.
const NODES_PER_THREAD: usize = 64;

/// The deepest frontier: its nodes' paths are kept in arrays of this length.
const MAX_DEPTH: usize = 16;

/// Expansions between two looks at the other threads: a thread searching a subtree that
/// became useless must not go on long.
const CHECK_EVERY: u64 = 256;

/// A frontier node: the position, its bound after pathmax, the largest `depth + bound` on
/// the way to it (itself included), and the moves that lead to it.
#[derive(Clone, Copy)]
struct Start {
    node: Node,
    h: u32,
    cap: u32,
    /// The pruning machine's state.
    state: u16,
    path: [u8; MAX_DEPTH],
}

/// What the threads share.
struct Shared {
    /// The next work item: iteration `item / frontier.len()`, node `item % frontier.len()`.
    next: AtomicU64,
    /// The earliest iteration in which a solution was found (`u32::MAX`: none yet).
    best: AtomicU32,
    found: Mutex<Option<(u32, Vec<u8>)>>,
    expanded: AtomicU64,
    generated: AtomicU64,
    /// The iteration each thread is in (`u32::MAX`: done): the smallest is the proven one.
    current: Vec<AtomicU32>,
    /// The largest iteration reported as proven.
    proven: AtomicU32,
}

/// The frontier of `root` at the first depth with at least `want` nodes (at most `h0`, so
/// that no path to the goal ends above it, and at most [`MAX_DEPTH`]), each node with the
/// bounds the sequential search would give it.
fn frontier(
    engine: &PdbEngine<'_>,
    root: &Node,
    want: usize,
    stats: &mut Stats,
) -> (Vec<Start>, u32) {
    let h0 = engine.h(root);
    let mut level = vec![Start { node: *root, h: h0, cap: h0, state: 0, path: [0; MAX_DEPTH] }];
    let mut depth = 0u32;
    while depth < h0 && level.len() < want && (depth as usize) < MAX_DEPTH {
        let mut next = Vec::with_capacity(level.len() * 3);
        for s in &level {
            stats.expanded += 1;
            let mut kids = [(0u8, 0u16, *root, 0u32); 4];
            let mut n = 0;
            let mut most = 0;
            for &(m, to) in engine.moves(&s.node, 4) {
                let state = engine.prune(s.state, m);
                if state == FORBIDDEN {
                    continue;
                }
                stats.generated += 1;
                let child = engine.child(&s.node, to);
                let h = engine.h(&child);
                most = most.max(h);
                kids[n] = (m, state, child, h);
                n += 1;
            }
            // Pathmax both ways, as `Pass::dfs` does at this node.
            let h = s.h.max(most.saturating_sub(1));
            let cap = s.cap.max(depth + h);
            for &(m, state, child, kh) in &kids[..n] {
                let kh = kh.max(h.saturating_sub(1));
                let mut path = s.path;
                path[depth as usize] = m;
                next.push(Start { node: child, h: kh, cap: cap.max(depth + 1 + kh), state, path });
            }
        }
        level = next;
        depth += 1;
    }
    (level, depth)
}

pub(crate) fn search(
    engine: &PdbEngine<'_>,
    root: &Node,
    watch: &Watch<'_>,
    threads: usize,
    stats: &mut Stats,
    proven: &mut u32,
) -> Option<Vec<u8>> {
    if root.md == 0 {
        return Some(Vec::new());
    }
    let h0 = engine.h(root);
    let (starts, depth) = frontier(engine, root, NODES_PER_THREAD * threads, stats);
    let shared = Shared {
        next: AtomicU64::new(0),
        best: AtomicU32::new(u32::MAX),
        found: Mutex::new(None),
        expanded: AtomicU64::new(0),
        generated: AtomicU64::new(0),
        current: (0..threads).map(|_| AtomicU32::new(0)).collect(),
        proven: AtomicU32::new(0),
    };
    let count = starts.len() as u64;
    let work = |me: usize| {
        let mut pass = Pass::new(engine, h0, watch, CHECK_EVERY);
        pass.best = Some(&shared.best);
        loop {
            let item = shared.next.fetch_add(1, Relaxed);
            let k = (item / count) as u32;
            // Every item of the iterations before the smallest one a thread is in has been
            // searched: that iteration's bound is proven.
            if shared.current[me].swap(k, Relaxed) != k {
                let least = shared.current.iter().map(|c| c.load(Relaxed)).min().unwrap_or(k);
                if shared.proven.fetch_max(least, Relaxed) < least
                    && let Some(sink) = watch.sink
                {
                    sink(ThreadReport::Bound(h0 + 2 * least));
                }
            }
            let bound = h0 + 2 * k;
            if k >= shared.best.load(Relaxed) || bound > 255 || watch.done.load(Relaxed) {
                break;
            }
            let s = &starts[(item % count) as usize];
            if s.cap > bound {
                continue;
            }
            pass.bound = bound;
            pass.iteration = k;
            pass.stopped = false;
            pass.path[..depth as usize].copy_from_slice(&s.path[..depth as usize]);
            if pass.dfs(&s.node, depth, s.state, s.h) {
                let mut slot = shared.found.lock().unwrap_or_else(|e| e.into_inner());
                if slot.as_ref().is_none_or(|(j, _)| k < *j) {
                    *slot = Some((k, pass.path[..pass.depth as usize].to_vec()));
                }
                shared.best.fetch_min(k, Relaxed);
            }
        }
        shared.expanded.fetch_add(pass.expanded, Relaxed);
        shared.generated.fetch_add(pass.generated, Relaxed);
    };
    thread::scope(|scope| {
        for me in 1..threads {
            scope.spawn(move || work(me));
        }
        work(0);
    });
    *proven = (*proven).max(h0 + 2 * shared.proven.load(Relaxed));
    stats.expanded += shared.expanded.into_inner();
    stats.generated += shared.generated.into_inner();
    if watch.limit_hit.load(Relaxed) {
        // An earlier iteration may not have been finished: no claim of optimality.
        return None;
    }
    let (_, path) = shared.found.into_inner().unwrap_or_else(|e| e.into_inner())?;
    stats.max_frontier = path.len() as u64;
    Some(path)
}
