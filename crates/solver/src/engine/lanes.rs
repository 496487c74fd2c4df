//! One depth-first pass of IDA* as several interleaved searches on one thread, so that the
//! table misses of one wait while the others compute: the pass of [`super::pdb_search`]
//! (the 15-puzzle's optimal solver), through the [`Interleave`] trait.
//!
//! That search is bound by memory latency: a node's children's entries lie at random in
//! tables of hundreds of megabytes, and although the engine asks for all of a node's entries
//! at once (a prefetch per child and side), the recursive pass then waits for them before it
//! can go on, one miss after the other along the path. An out-of-order core overlaps misses
//! only within its window of a few hundred instructions, and the recursion's next miss lies
//! beyond it. Here the pass keeps [`LANES`] explicit stacks. A step of a lane reads the
//! entries of the node it expanded at its last step (asked for a whole round earlier: the
//! other lanes' steps hid the wait), descends to the next child within the threshold or
//! backtracks, and expands that child: counts it, locates its children and asks for their
//! lines, and yields to the next lane. A lane out of work takes the untried child nearest
//! the root from another lane's stack (the largest subtree left), so every lane stays busy
//! until the pass's tree is exhausted.
//!
//! The nodes searched are those of the engine's recursive pass, with the same bounds,
//! pathmax and move pruning: an iteration that holds no solution generates exactly the same
//! nodes (the tests check it), and any solution found within the threshold is of the
//! iteration's length, which the iterations before proved optimal. Only the last iteration's
//! count differs, as it depends on the order in which the tree is walked until the goal is
//! met. Interleaving independent lookups this way is what database engines do for hash joins
//! (S. Chen, A. Ailamaki, P. B. Gibbons and T. C. Mowry, "Improving hash join performance
//! through prefetching", ICDE 2004; O. Kocberber, B. Falsafi and B. Grot, "Asynchronous
//! memory access chaining", VLDB 2015).
//!
//! **Not for the 24-puzzle.** The same lanes drove [`super::twentyfour`]'s pass (with a
//! second phase for the catalogue, which reads the other sides only for the children its
//! first side keeps) and did not pay. On Korf & Felner's #25 and #40 with the catalogue, one
//! thread, the recursive pass generated 47.2 M nodes in 10.1–10.4 s; one lane, 10.8–11.5 s
//! for the same nodes; four lanes, 85.5 M nodes in 22–26 s. Per node the lanes were no
//! faster there (3.3–3.9 against 4.6 M nodes a second): that search waits less on its
//! entries than on reading the region words of its 6-tile sets (4 MB per table shape, read
//! before an entry's index is known, so not asked for ahead), and its last iteration, a
//! large share of the nodes, meets the goal much later when walked in four places at once.

use std::any::Any;
use std::cell::RefCell;

/// Searches interleaved per pass. With 7-8 and reflection on the 15-puzzle (per-region
/// tables read through their one-bit copies), one thread, 5 alternating runs against the
/// recursive pass on a shared machine: Korf's 100 in 0.132 s instead of 0.162 s (median;
/// 16,926 nodes per instance become 17,190: the last iteration walks its tree in another
/// order), DeepCubeA's 500 15-puzzles in 0.554 s instead of 0.633 s, and labels in bulk on
/// both cores (`bench --threads 2 --across`) 1,869 a second instead of 1,555. Two to five
/// lanes measured within the noise of each other there; four leave room for slower memory.
pub(crate) const LANES: usize = 4;

/// Frames per lane: a path of at most 255 moves (the thresholds stop there) and the root.
const DEPTH: usize = 257;

/// What reading a node's children's entries came to.
pub(crate) enum Read {
    /// The node is cut off (pathmax).
    Cut,
    /// The children's bounds are known, and those within the threshold (this many) are at
    /// the front of the node's children, in order.
    Kept(usize),
}

/// An engine's depth-first pass, as the lanes drive it.
pub(crate) trait Interleave {
    /// A position with everything its bound needs.
    type Node: Copy + 'static;
    /// A child being made: where its entries are, then its bound.
    type Kid: Copy + 'static;

    /// A child with nothing in it (to fill a frame's array).
    fn blank_kid() -> Self::Kid;
    /// Counts `node` (at depth `g`, bound `h`) as expanded and checks the limits when due:
    /// false when the pass must stop.
    fn count(&mut self, node: &Self::Node, g: u32, h: u32) -> bool;
    /// The children of `node` that the pruning machine in `state` allows (their number is
    /// returned), located, their entries asked for.
    fn prepare(&self, node: &Self::Node, state: u16, kids: &mut [Self::Kid; 4]) -> usize;
    /// Reads the entries of `node`'s children `kids` (at depth `g` with bound `h`).
    fn read(&mut self, node: &Self::Node, g: u32, h: u32, kids: &mut [Self::Kid]) -> Read;
    /// The move to `kid`, the pruning machine's state after it, and its bound.
    fn step_of(kid: &Self::Kid) -> (u8, u16, u32);
    /// Whether `kid` is the goal.
    fn is_goal(kid: &Self::Kid) -> bool;
    /// Whether `node`, at depth `g`, is the goal: then the pass's path to it is its own
    /// prefix of `g` moves.
    fn at_goal(&mut self, node: &Self::Node, g: u32) -> bool;
    /// Writes into `child` the child of `node` that `kid` (read) describes.
    fn make(&self, node: &Self::Node, kid: &Self::Kid, child: &mut Self::Node);
    /// The goal was reached by `path`.
    fn found(&mut self, path: &[u8]);
    /// The moves from the root to the pass's start (a parallel pass starts below the root).
    fn prefix(&self, g: u32) -> &[u8];
}

/// A node being expanded: its children, located (and, once `ready`, with their bounds and
/// only those within the threshold left, from `next` on).
#[derive(Clone, Copy)]
struct Frame<N, K> {
    node: N,
    g: u32,
    h: u32,
    kids: [K; 4],
    n: u8,
    next: u8,
    ready: bool,
}

/// One interleaved search: its stack of expanded nodes and the moves that led to the top.
struct Lane<N, K> {
    /// Grown as the lane goes deeper (room for [`DEPTH`] is reserved, not touched: a lane on
    /// a fresh thread would otherwise write a few hundred kilobytes before its first node).
    frames: Vec<Frame<N, K>>,
    len: usize,
    /// The frames below this have no child left to try (where a thief starts looking).
    low: usize,
    path: [u8; 256],
}

impl<N: Copy, K: Copy> Lane<N, K> {
    fn new(node: N, kid: K) -> Lane<N, K> {
        let blank = Frame { node, g: 0, h: 0, kids: [kid; 4], n: 0, next: 0, ready: false };
        let mut frames = Vec::with_capacity(DEPTH);
        frames.push(blank);
        Lane { frames, len: 0, low: 0, path: [0; 256] }
    }

    /// Drops the top frame.
    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
        self.low = self.low.min(self.len);
    }
}

thread_local! {
    /// Each thread's lanes, per engine and node type, kept from pass to pass (a pass of a few hundred
    /// nodes would otherwise spend its time allocating them).
    static STORE: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// What a step of a lane came to.
enum Step {
    /// It expanded a node (or ran out of work).
    Yield,
    /// It reached the goal: the moves are in the lane's path, to this depth.
    Found(u32),
    /// A limit fired or another thread finished.
    Stopped,
}

/// Searches below `root` (at depth `g`, pruning machine in `state`, with bound `h`) within
/// the pass's threshold, as the engine's recursive pass would, on [`LANES`] lanes; true when
/// it reached the goal (then told to the pass by [`Interleave::found`]).
pub(crate) fn search<P: Interleave>(
    pass: &mut P,
    root: &P::Node,
    g: u32,
    state: u16,
    h: u32,
) -> bool {
    search_on(LANES, pass, root, g, state, h)
}

/// [`search`] on `want` lanes (at least one).
pub(crate) fn search_on<P: Interleave>(
    want: usize,
    pass: &mut P,
    root: &P::Node,
    g: u32,
    state: u16,
    h: u32,
) -> bool {
    if pass.at_goal(root, g) {
        return true;
    }
    // This thread's lanes for this engine, taken out of the store while searching.
    let taken = STORE.with(|s| {
        let mut s = s.borrow_mut();
        let at = s.iter().position(|b| b.is::<Vec<Lane<P::Node, P::Kid>>>())?;
        Some(s.swap_remove(at))
    });
    let mut lanes: Vec<Lane<P::Node, P::Kid>> = match taken {
        Some(b) => *b.downcast().expect("checked by is"),
        None => Vec::new(),
    };
    let want = want.max(1);
    lanes.truncate(want);
    while lanes.len() < want {
        lanes.push(Lane::new(*root, P::blank_kid()));
    }
    let found = interleave(pass, &mut lanes, root, g, state, h);
    STORE.with(|s| s.borrow_mut().push(Box::new(lanes)));
    found
}

fn interleave<P: Interleave>(
    pass: &mut P,
    lanes: &mut [Lane<P::Node, P::Kid>],
    root: &P::Node,
    g: u32,
    state: u16,
    h: u32,
) -> bool {
    for lane in lanes.iter_mut() {
        lane.len = 0;
        lane.low = 0;
    }
    if !pass.count(root, g, h) {
        return false;
    }
    let first = &mut lanes[0];
    first.path[..g as usize].copy_from_slice(pass.prefix(g));
    let f = &mut first.frames[0];
    f.node = *root;
    f.g = g;
    f.h = h;
    f.next = 0;
    f.ready = false;
    f.n = pass.prepare(&f.node, state, &mut f.kids) as u8;
    first.len = 1;
    loop {
        let mut busy = false;
        for li in 0..lanes.len() {
            if lanes[li].len == 0 && !steal(lanes, li) {
                continue;
            }
            busy = true;
            match step(pass, &mut lanes[li]) {
                Step::Yield => {}
                Step::Found(depth) => {
                    pass.found(&lanes[li].path[..depth as usize]);
                    return true;
                }
                Step::Stopped => return false,
            }
        }
        if !busy {
            return false;
        }
    }
}

/// One step of `lane`: reads the entries of its newest node's children, then goes down to the next child within the threshold (backtracking as
/// needed) and expands it: counts it, checks the limits when due, locates its children and
/// asks for their lines.
#[inline(always)]
fn step<P: Interleave>(pass: &mut P, lane: &mut Lane<P::Node, P::Kid>) -> Step {
    loop {
        if lane.len == 0 {
            return Step::Yield;
        }
        let t = lane.len - 1;
        let top = &mut lane.frames[t];
        if !top.ready {
            let n = usize::from(top.n);
            match pass.read(&top.node, top.g, top.h, &mut top.kids[..n]) {
                Read::Kept(kept) => {
                    top.n = kept as u8;
                    top.ready = true;
                }
                Read::Cut => {
                    lane.pop();
                    continue;
                }
            }
        }
        if top.next == top.n {
            lane.pop();
            continue;
        }
        let kid = top.kids[usize::from(top.next)];
        top.next += 1;
        let g = top.g + 1;
        let (m, state, h) = P::step_of(&kid);
        lane.path[top.g as usize] = m;
        if P::is_goal(&kid) {
            return Step::Found(g);
        }
        if lane.len == lane.frames.len() {
            lane.frames.push(lane.frames[0]);
        }
        let (below, above) = lane.frames.split_at_mut(lane.len);
        let f = &mut above[0];
        pass.make(&below[t].node, &kid, &mut f.node);
        if !pass.count(&f.node, g, h) {
            return Step::Stopped;
        }
        f.g = g;
        f.h = h;
        f.next = 0;
        f.ready = false;
        f.n = pass.prepare(&f.node, state, &mut f.kids) as u8;
        lane.len += 1;
        return Step::Yield;
    }
}

/// Gives the idle lane `li` the untried child nearest the root in any other lane (the last
/// of its frame's children, which its owner would search last); false when no lane has one.
/// The thief's stack starts with a copy of the parent holding just that child: its next step
/// goes down to it like any other.
fn steal<N: Copy, K: Copy>(lanes: &mut [Lane<N, K>], li: usize) -> bool {
    let mut best: Option<(usize, usize, u32)> = None;
    for (vi, lane) in lanes.iter_mut().enumerate() {
        if vi == li {
            continue;
        }
        while lane.low < lane.len && {
            let f = &lane.frames[lane.low];
            f.ready && f.next == f.n
        } {
            lane.low += 1;
        }
        let fi = lane.low;
        if fi < lane.len && lane.frames[fi].ready {
            let g = lane.frames[fi].g;
            if best.is_none_or(|(_, _, bg)| g < bg) {
                best = Some((vi, fi, g));
            }
        }
    }
    let Some((vi, fi, g)) = best else {
        return false;
    };
    let frame = &mut lanes[vi].frames[fi];
    frame.n -= 1;
    let kid = frame.kids[usize::from(frame.n)];
    let parent = Frame { kids: [kid; 4], n: 1, next: 0, ..*frame };
    let prefix = lanes[vi].path;
    let thief = &mut lanes[li];
    thief.path[..g as usize].copy_from_slice(&prefix[..g as usize]);
    thief.frames[0] = parent;
    thief.len = 1;
    thief.low = 0;
    true
}
