//! One instance on several threads, for both IDA* engines over pattern databases
//! ([`super::pdb_search`] on 4x4 and smaller, [`super::twentyfour`] on 5x5), with no thread
//! waiting for another until the answer.
//!
//! The tree is cut at a breadth-first frontier a few moves below the root, in the order the
//! sequential search meets its nodes. A work item is a pair (iteration, frontier node), and
//! the items are handed out in that order from one shared counter: a thread that drew a
//! small subtree simply takes the next item, and a thread that ran out of items of one
//! iteration goes on with the next iteration's instead of waiting for the slowest subtree.
//! The threads are started once per solve.
//!
//! That needs every iteration's threshold in advance, and the bound gives it: both engines'
//! bound is the Manhattan distance plus twice a sum of table entries, a move changes the
//! moving tile's Manhattan distance by one and an entry by a whole number, so `depth +
//! bound` keeps its parity along every path, and so does a bound raised by pathmax (a
//! neighbour's bound less one). Every threshold the sequential search would use is
//! therefore of the root's parity, and iteration `k` searches to `h(root) + 2k`: none is
//! skipped, and an iteration in which nothing lies exactly two above the last threshold
//! only repeats the one before.
//!
//! A solution found in iteration `k` is of the length `h(root) + 2k` when no earlier
//! iteration holds one. So when a thread finds one, the items of iteration `k` and later are
//! dropped (running ones stop at their next check), the items of earlier iterations still
//! running are finished, and the answer is the solution of the earliest iteration: the same
//! optimal length as the sequential search.
//!
//! The frontier keeps what the sequential search knows above it: each frontier node carries
//! the bound pathmax gives it and the largest `depth + bound` on the way to it, and an
//! iteration below that skips the node, as the sequential search would not reach it (pathmax
//! is admissible, so a node it skips holds no path within the threshold).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};
use std::thread;

use crate::pruning::FORBIDDEN;

/// The deepest frontier: its nodes' paths are kept in arrays of this length.
const MAX_DEPTH: usize = 16;

/// An IDA* engine over a database, as the split drives it: the moves, bounds and children
/// of its nodes, a depth-first pass per thread, and the solve's shared state (limits,
/// reports).
pub(crate) trait Split: Sync {
    /// A position with everything its bound needs.
    type Node: Copy + Send + Sync;
    /// One thread's depth-first search.
    type Pass<'p>: Pass<Node = Self::Node>
    where
        Self: 'p;
    /// Frontier nodes to aim for per thread: enough for the threads to even out on the last
    /// iteration, few enough that handing them out costs little on the first ones.
    const ITEMS_PER_THREAD: usize;
    /// No threshold passes this (the passes keep paths in 256-move arrays).
    const MAX_BOUND: u32;

    /// The bound of `node`.
    fn h(&self, node: &Self::Node) -> u32;
    /// Whether `node` is the goal.
    fn is_goal(&self, node: &Self::Node) -> bool;
    /// The legal moves from `node` as (move, cell the blank goes to).
    fn moves(&self, node: &Self::Node) -> &[(u8, u8)];
    /// The pruning machine's state after move `m` from `state`, or [`FORBIDDEN`].
    fn prune(&self, state: u16, m: u8) -> u16;
    /// The child of `node` whose blank moves to `to`.
    fn child(&self, node: &Self::Node, to: u8) -> Self::Node;
    /// A pass for one of `threads` threads, which stops at its next check once `best` is at
    /// or below the iteration it searches.
    fn pass<'p>(&'p self, best: &'p AtomicU32, threads: usize) -> Self::Pass<'p>;
    /// Whether every thread must stop: a limit fired or the caller cancelled.
    fn done(&self) -> bool;
    /// Every path was searched within `bound`: it is a lower bound on the answer.
    fn proven(&self, bound: u32);
    /// The frontier's construction expanded and generated these nodes: they count towards
    /// the node limit.
    fn frontier_done(&self, expanded: u64, generated: u64);
    /// The caller's node limit, if any: the frontier stays within half of it.
    fn max_nodes(&self) -> Option<u64>;
}

/// One thread's depth-first pass, run on one work item after another.
pub(crate) trait Pass {
    /// The engine's position.
    type Node;
    /// Searches below `node`, reached by the moves `prefix` (pruning machine in `state`,
    /// bound `h` after pathmax), within `bound`, as part of iteration `iteration`; true
    /// when it reached the goal, the moves then in [`Pass::path`].
    fn search(
        &mut self,
        node: &Self::Node,
        prefix: &[u8],
        state: u16,
        h: u32,
        bound: u32,
        iteration: u32,
    ) -> bool;
    /// The moves from the root to the goal the last search found.
    fn path(&self) -> &[u8];
    /// Ends the pass: its expansions and generations, after it handed what it owes to the
    /// solve's totals.
    fn finish(self) -> (u64, u64);
}

/// A frontier node: the position, its bound after pathmax, the largest `depth + bound` on
/// the way to it (itself included), and the moves that lead to it.
#[derive(Clone, Copy)]
struct Start<N> {
    node: N,
    h: u32,
    cap: u32,
    /// The pruning machine's state.
    state: u16,
    path: [u8; MAX_DEPTH],
}

/// What a split search did: the moves it found (`None`: a limit or the caller stopped it),
/// the nodes the frontier's construction expanded and generated, and those of the passes.
pub(crate) struct Outcome {
    pub(crate) path: Option<Vec<u8>>,
    pub(crate) frontier: (u64, u64),
    pub(crate) passes: (u64, u64),
    /// The largest bound proven (every path within it searched).
    pub(crate) proven: u32,
}

/// The frontier of `root` at the first depth with at least `want` nodes (at most `h0`, so
/// that no path to the goal ends above it, and at most [`MAX_DEPTH`]), each node with the
/// bounds the sequential search would give it; and its depth, expansions and generations.
fn frontier<S: Split>(
    engine: &S,
    root: &S::Node,
    state: u16,
    want: usize,
) -> (Vec<Start<S::Node>>, u32, (u64, u64)) {
    let h0 = engine.h(root);
    let mut level = vec![Start { node: *root, h: h0, cap: h0, state, path: [0; MAX_DEPTH] }];
    let (mut expanded, mut generated) = (0, 0);
    let mut depth = 0u32;
    while depth < h0 && level.len() < want && (depth as usize) < MAX_DEPTH {
        let mut next = Vec::with_capacity(level.len() * 3);
        for s in &level {
            expanded += 1;
            let mut kids = [(0u8, 0u16, *root, 0u32); 4];
            let mut n = 0;
            let mut most = 0;
            for &(m, to) in engine.moves(&s.node) {
                let state = engine.prune(s.state, m);
                if state == FORBIDDEN {
                    continue;
                }
                generated += 1;
                let child = engine.child(&s.node, to);
                let h = engine.h(&child);
                most = most.max(h);
                kids[n] = (m, state, child, h);
                n += 1;
            }
            // Pathmax both ways: a node's bound is at least its children's less one, and a
            // child's at least its parent's less one.
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
    (level, depth, (expanded, generated))
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

/// IDA* from `root` (pruning machine in `state`) on `threads` threads.
pub(crate) fn search<S: Split>(engine: &S, root: &S::Node, state: u16, threads: usize) -> Outcome {
    search_from(engine, root, state, threads, engine.h(root))
}

/// One iteration of [`search`] at `threshold` (of the root's parity), the frontier's nodes
/// in the order of their bounds, smallest first: a search for any path within the
/// threshold, where the answer lies under those nodes more often. A path it finds is
/// returned even when a limit stopped the search afterwards.
pub(crate) fn search_within<S: Split>(
    engine: &S,
    root: &S::Node,
    state: u16,
    threads: usize,
    threshold: u32,
) -> Outcome {
    run(engine, root, state, threads, threshold, threshold, true)
}

/// [`search`] from the threshold `first` on (of the parity of the root's bound, and at
/// least it): every iteration below it was searched without a solution (by the caller, on
/// one thread), so `first` is a lower bound already, and the split's iterations go on from
/// there.
pub(crate) fn search_from<S: Split>(
    engine: &S,
    root: &S::Node,
    state: u16,
    threads: usize,
    first: u32,
) -> Outcome {
    run(engine, root, state, threads, first, S::MAX_BOUND, false)
}

fn run<S: Split>(
    engine: &S,
    root: &S::Node,
    state: u16,
    threads: usize,
    first: u32,
    last: u32,
    promising: bool,
) -> Outcome {
    let h0 = first.max(engine.h(root));
    let last = last.min(S::MAX_BOUND);
    if engine.is_goal(root) {
        return Outcome { path: Some(Vec::new()), frontier: (0, 0), passes: (0, 0), proven: 0 };
    }
    // A level of the frontier holds more nodes than all the levels above it together, so
    // building one of `want` nodes expands fewer than `want`.
    let want = S::ITEMS_PER_THREAD * threads.max(1);
    let want =
        engine.max_nodes().map_or(want, |m| want.min(usize::try_from(m / 2).unwrap_or(want)));
    let (mut starts, depth, frontier) = frontier(engine, root, state, want.max(1));
    if promising {
        starts.sort_by_key(|s| s.h);
    }
    engine.frontier_done(frontier.0, frontier.1);
    // A node limit of a few intervals is not worth sharing: one thread keeps it exactly.
    let threads =
        if engine.max_nodes().is_some_and(|m| m < (threads as u64) << 12) { 1 } else { threads };
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
        let mut pass = engine.pass(&shared.best, threads);
        loop {
            // A pass a limit stopped left its item unfinished: this thread must not move on
            // to a later iteration, or the bound proven below would claim that item.
            if engine.done() {
                break;
            }
            let item = shared.next.fetch_add(1, Relaxed);
            let k = (item / count) as u32;
            // Every item of the iterations before the smallest one a thread is in has been
            // searched: that iteration's bound is proven.
            if shared.current[me].swap(k, Relaxed) != k {
                let least = shared.current.iter().map(|c| c.load(Relaxed)).min().unwrap_or(k);
                if shared.proven.fetch_max(least, Relaxed) < least {
                    engine.proven(h0 + 2 * least);
                }
            }
            let bound = h0 + 2 * k;
            if k >= shared.best.load(Relaxed) || bound > last {
                break;
            }
            let s = &starts[(item % count) as usize];
            if s.cap > bound {
                continue;
            }
            if pass.search(&s.node, &s.path[..depth as usize], s.state, s.h, bound, k) {
                let mut slot = shared.found.lock().unwrap_or_else(|e| e.into_inner());
                if slot.as_ref().is_none_or(|(j, _)| k < *j) {
                    *slot = Some((k, pass.path().to_vec()));
                }
                shared.best.fetch_min(k, Relaxed);
            }
        }
        let (e, g) = pass.finish();
        shared.expanded.fetch_add(e, Relaxed);
        shared.generated.fetch_add(g, Relaxed);
    };
    thread::scope(|scope| {
        for me in 1..threads {
            scope.spawn(move || work(me));
        }
        work(0);
    });
    let found = shared.found.into_inner().unwrap_or_else(|e| e.into_inner());
    Outcome {
        // A limit may have stopped an earlier iteration before its end: no claim then
        // (none is earlier than the first).
        path: found.filter(|&(k, _)| k == 0 || !engine.done()).map(|(_, path)| path),
        frontier,
        passes: (shared.expanded.into_inner(), shared.generated.into_inner()),
        proven: h0 + 2 * shared.proven.load(Relaxed),
    }
}
