//! One depth-first pass as several interleaved searches on one thread, so that the table
//! misses of one wait while the others compute.
//!
//! The search is bound by memory latency: a node's children's entries lie at random in
//! tables of hundreds of megabytes, and although [`PdbEngine::prepare`] asks for all of them
//! at once, the recursive pass ([`Pass::dfs`]) then waits for them before it can go on, one
//! miss after the other along the path. Here the pass keeps [`LANES`] explicit stacks. A
//! step of a lane reads the entries of the node it expanded at its last step (asked for a
//! whole round earlier: the other lanes' steps hid the wait), descends to the next child
//! within the threshold or backtracks, and expands that child: its children are located and
//! their lines asked for, and the lane yields to the next. A lane out of work takes the
//! untried child nearest the root from another lane's stack (the largest subtree left), so
//! every lane stays busy until the pass's tree is exhausted.
//!
//! The nodes searched are those of the recursive pass, with the same bounds, pathmax and
//! move pruning: an iteration that holds no solution generates exactly the same nodes, and
//! any solution found within the threshold is of the iteration's length, which the
//! iterations before proved optimal. Only the last iteration's count differs, as it depends
//! on the order in which the tree is walked until the goal is met.
//!
//! This is the software form of what hardware does for independent loads: an out-of-order
//! core overlaps misses only within its window of about two hundred instructions, and the
//! recursion's next miss lies beyond it (S. Chen, A. Ailamaki, P. B. Gibbons and T. C. Mowry,
//! "Improving hash join performance through prefetching", ICDE 2004, and Kocberber et al.'s
//! asynchronous memory access chaining, VLDB 2015, interleave independent lookups the same way).

use std::cell::RefCell;

use super::{Kid, Node, Pass};

/// Searches interleaved per pass. With 7-8 and reflection (per-region tables read through
/// their one-bit copies), one thread, 5 alternating runs against the recursive pass on a
/// shared machine: Korf's 100 in 0.132 s instead of 0.162 s (median; 16,926 nodes per
/// instance become 17,190: the last iteration walks its tree in another order), DeepCubeA's
/// 500 15-puzzles in 0.554 s instead of 0.633 s, and labels in bulk on both cores
/// (`bench --threads 2 --across`) 1,869 a second instead of 1,555. Two to five lanes
/// measured within the noise of each other there; four leave room for slower memory.
pub(crate) const LANES: usize = 4;

/// Frames per lane: a path of at most 255 moves (the thresholds stop there) and the root.
const DEPTH: usize = 257;

/// A node being expanded: its children, located (and, once `ready`, with their bounds and
/// only those within the threshold left, from `next` on).
#[derive(Clone, Copy)]
struct Frame {
    node: Node,
    g: u32,
    h: u32,
    kids: [Kid; 4],
    n: u8,
    next: u8,
    ready: bool,
}

/// One interleaved search: its stack of expanded nodes and the moves that led to the top.
struct Lane {
    frames: Box<[Frame]>,
    len: usize,
    /// The frames below this have no child left to try (where a thief starts looking).
    low: usize,
    path: [u8; 256],
}

impl Lane {
    fn new(root: &Node) -> Lane {
        let blank = Frame {
            node: *root,
            g: 0,
            h: 0,
            kids: [Kid::default(); 4],
            n: 0,
            next: 0,
            ready: false,
        };
        Lane { frames: vec![blank; DEPTH].into_boxed_slice(), len: 0, low: 0, path: [0; 256] }
    }

    /// Drops the top frame.
    #[inline(always)]
    fn pop(&mut self) {
        self.len -= 1;
        self.low = self.low.min(self.len);
    }
}

thread_local! {
    /// Each thread's lanes, kept from pass to pass (a pass of a few hundred nodes would
    /// otherwise spend its time allocating them).
    static STORE: RefCell<Vec<Lane>> = const { RefCell::new(Vec::new()) };
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

impl Pass<'_, '_> {
    /// As [`Pass::dfs`] (the same nodes, bounds and pruning), on [`LANES`] interleaved stacks.
    pub(crate) fn dfs_lanes(&mut self, root: &Node, g: u32, state: u16, h: u32) -> bool {
        self.dfs_interleaved(LANES, root, g, state, h)
    }

    /// [`Pass::dfs_lanes`] on `want` lanes (at least one).
    pub(crate) fn dfs_interleaved(
        &mut self,
        want: usize,
        root: &Node,
        g: u32,
        state: u16,
        h: u32,
    ) -> bool {
        if root.md == 0 {
            self.depth = g;
            return true;
        }
        let mut lanes = STORE.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let want = want.max(1);
        lanes.truncate(want);
        while lanes.len() < want {
            lanes.push(Lane::new(root));
        }
        let found = self.interleave(&mut lanes, root, g, state, h);
        STORE.with(|s| *s.borrow_mut() = lanes);
        found
    }

    fn interleave(&mut self, lanes: &mut [Lane], root: &Node, g: u32, state: u16, h: u32) -> bool {
        for lane in lanes.iter_mut() {
            lane.len = 0;
            lane.low = 0;
        }
        self.expanded += 1;
        if self.expanded >= self.check_at {
            self.check(root, g, h);
            if self.stopped {
                return false;
            }
        }
        let first = &mut lanes[0];
        first.path[..g as usize].copy_from_slice(&self.path[..g as usize]);
        let f = &mut first.frames[0];
        f.node = *root;
        f.g = g;
        f.h = h;
        f.next = 0;
        f.ready = false;
        f.n = self.engine.prepare(&f.node, state, &mut f.kids) as u8;
        first.len = 1;
        loop {
            let mut busy = false;
            for li in 0..lanes.len() {
                if lanes[li].len == 0 && !steal(lanes, li) {
                    continue;
                }
                busy = true;
                match self.step(&mut lanes[li]) {
                    Step::Yield => {}
                    Step::Found(depth) => {
                        self.depth = depth;
                        self.path[..depth as usize]
                            .copy_from_slice(&lanes[li].path[..depth as usize]);
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

    /// One step of `lane`: reads the entries of its newest node, then goes down to the next
    /// child within the threshold (backtracking as needed) and expands it: counts it, checks
    /// the limits when due, locates its children and asks for their lines.
    #[inline(always)]
    fn step(&mut self, lane: &mut Lane) -> Step {
        let e = self.engine;
        loop {
            if lane.len == 0 {
                return Step::Yield;
            }
            let t = lane.len - 1;
            let top = &mut lane.frames[t];
            if !top.ready {
                let n = usize::from(top.n);
                match self.evaluate(&top.node, top.g, top.h, &mut top.kids[..n]) {
                    Some(kept) => {
                        top.n = kept as u8;
                        top.ready = true;
                    }
                    None => {
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
            lane.path[top.g as usize] = kid.m;
            if kid.md == 0 {
                return Step::Found(g);
            }
            let (below, above) = lane.frames.split_at_mut(lane.len);
            let parent = &below[t].node;
            let f = &mut above[0];
            e.kid_node_into(parent, &kid, &mut f.node);
            self.expanded += 1;
            if self.expanded >= self.check_at {
                self.check(&f.node, g, kid.h);
                if self.stopped {
                    return Step::Stopped;
                }
            }
            f.g = g;
            f.h = kid.h;
            f.next = 0;
            f.ready = false;
            f.n = e.prepare(&f.node, kid.state, &mut f.kids) as u8;
            lane.len += 1;
            return Step::Yield;
        }
    }
}

/// Gives the idle lane `li` the untried child nearest the root in any other lane (the last
/// of its frame's children, which its owner would search last); false when no lane has one.
/// The thief's stack starts with a copy of the parent holding just that child: its next step
/// goes down to it like any other.
fn steal(lanes: &mut [Lane], li: usize) -> bool {
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

#[cfg(test)]
mod tests {
    use super::super::{CHECK_EVERY, Pass, PdbEngine, Watch};
    use crate::Limits;
    use crate::heuristic::pdb::{Database, Partition};
    use npuzzle_core::{Board, Goal, Move, Scrambler, Size};

    fn watch(limits: &Limits) -> Watch<'_> {
        Watch {
            limits,
            deadline: None,
            done: Default::default(),
            nodes: Default::default(),
            limit_hit: Default::default(),
            which: Default::default(),
            generated: Default::default(),
            reserved: Default::default(),
            sink: None,
        }
    }

    /// Replays `moves` from `board`: whether it ends on `goal`.
    fn reaches(board: &Board, moves: &[u8], goal: &Board) -> bool {
        let mut b = board.clone();
        for &m in moves {
            if b.apply(Move::ALL[usize::from(m)]).is_err() {
                return false;
            }
        }
        &b == goal
    }

    /// Every iteration of IDA* on 1 to 6 interleaved lanes against the recursive pass: an
    /// iteration without a solution generates the same nodes and gives the same next
    /// threshold; the first iteration with one finds one of the same length on every lane
    /// count, which replays to the goal.
    #[test]
    fn interleaved_passes_search_the_recursive_pass_tree() {
        let limits = Limits::default();
        let cases =
            [(Size::new(3, 3).unwrap(), "4-4", 40), (Size::new(4, 4).unwrap(), "5-5-5", 12)];
        for (size, spec, boards) in cases {
            for goal in [Goal::BlankLast, Goal::BlankFirst] {
                let goal = goal.board(size).unwrap();
                let partition = Partition::parse(spec, &goal).unwrap();
                let db = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
                let engine = PdbEngine::new(&db).unwrap();
                let mut rng = Scrambler::new(7);
                for i in 0..boards {
                    // Random boards on 3x3; on 4x4 random walks short enough to solve fast.
                    let board = if size.cells() == 9 {
                        rng.solvable(&goal)
                    } else {
                        rng.walk(&goal, 30 + 2 * i).0
                    };
                    let root = engine.root(&board);
                    let mut bound = engine.h(&root);
                    loop {
                        let w = watch(&limits);
                        let mut deep = Pass::new(&engine, bound, &w, CHECK_EVERY);
                        let found = deep.dfs(&root, 0, 0, engine.h(&root));
                        for lanes in 1..=6 {
                            let w = watch(&limits);
                            let mut wide = Pass::new(&engine, bound, &w, CHECK_EVERY);
                            let wide_found =
                                wide.dfs_interleaved(lanes, &root, 0, 0, engine.h(&root));
                            assert_eq!(wide_found, found, "{board} bound {bound} lanes {lanes}");
                            if found {
                                assert_eq!(wide.depth, deep.depth);
                                let path = &wide.path[..wide.depth as usize];
                                assert!(reaches(&board, path, &goal), "{board} lanes {lanes}");
                            } else {
                                assert_eq!(
                                    (wide.expanded, wide.generated, wide.next_bound),
                                    (deep.expanded, deep.generated, deep.next_bound),
                                    "{board} bound {bound} lanes {lanes}"
                                );
                            }
                        }
                        if found {
                            assert!(reaches(&board, &deep.path[..deep.depth as usize], &goal));
                            break;
                        }
                        bound = deep.next_bound;
                    }
                }
            }
        }
    }

    /// A node limit stops the interleaved pass within the limit's check, as the recursive.
    #[test]
    fn a_node_limit_stops_the_interleaved_pass() {
        let goal = Goal::BlankLast.board(Size::new(4, 4).unwrap()).unwrap();
        let db =
            Database::build(&goal, &Partition::parse("5-5-5", &goal).unwrap(), 2, &|_| {}, None)
                .unwrap();
        let engine = PdbEngine::new(&db).unwrap();
        let board = Scrambler::new(3).solvable(&goal);
        let root = engine.root(&board);
        let limits = Limits { max_nodes: Some(500), ..Limits::default() };
        let w = watch(&limits);
        // A threshold far above the answer's length: without the limit the pass would
        // search a huge tree before meeting the goal.
        let mut pass = Pass::new(&engine, engine.h(&root) + 30, &w, CHECK_EVERY);
        let _ = pass.dfs_lanes(&root, 0, 0, engine.h(&root));
        assert!(pass.stopped, "the limit did not stop the pass");
        assert!(pass.expanded <= 500, "{} expansions", pass.expanded);
    }
}
