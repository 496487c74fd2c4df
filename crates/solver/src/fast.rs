//! Specialised IDA* and A* for the packed engine (boards up to 4x4).
//!
//! The generic algorithms of `npuzzle-search` pay for their generality per node: iterator
//! state, a path of full nodes, a binary heap. On sliding puzzles, where a node costs a few
//! nanoseconds to make, that overhead dominates. These two follow the classic fast
//! implementations (Korf 1985 for IDA*; the bucket-queue A* of Burns, Hatem, Leighton &
//! Ruml, "Implementing Fast Heuristic Search Code", SoCS 2012):
//! - IDA* recurses over moves, not nodes: the path is a list of move indices, the parent is
//!   pruned by never making the inverse of the last move, and the heuristic is updated
//!   from the (at most three) lines a move changes;
//! - A* keeps its open list in buckets by `(f, g)` (integers, small): lowest `f` first and,
//!   among equal `f`, the largest `g` (the deepest node), with lazy deletion and reopening (linear
//!   conflict is admissible but not consistent).
//!
//! Both honour the same limits and report the same statistics as the generic ones, and the
//! tests check them against the exact tables.

use std::time::Instant;

use npuzzle_core::{Move, Moves};
use npuzzle_search::Stop;
use rustc_hash::FxHashMap;

use crate::small::{Engine, Node};
use crate::solution::Stats;

/// Limits in the form the hot loops check.
pub(crate) struct Budget<'a> {
    pub(crate) max_nodes: u64,
    pub(crate) max_memory: usize,
    pub(crate) deadline: Option<Instant>,
    pub(crate) cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Budget<'_> {
    #[inline]
    fn check(&self, expanded: u64) -> Result<(), Stop> {
        if expanded >= self.max_nodes {
            return Err(Stop::Nodes);
        }
        if expanded & 1023 == 0 { self.check_clock() } else { Ok(()) }
    }

    #[cold]
    fn check_clock(&self) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        Ok(())
    }
}

/// IDA* from `start`. Returns the moves, or why it stopped.
pub(crate) fn idastar(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
) -> Result<Moves, Stop> {
    struct Search<'a, 'b> {
        e: &'a Engine,
        budget: &'a Budget<'b>,
        bound: u32,
        next: u32,
        path: Vec<u8>,
        expanded: u64,
        generated: u64,
        max_depth: u64,
    }

    impl Search<'_, '_> {
        /// Depth-first search below `node` at depth `g`; `Ok(true)` when the goal is found.
        fn dfs(&mut self, node: Node, g: u32, last: u8) -> Result<bool, Stop> {
            if node.rows == self.e.goal_rows {
                return Ok(true);
            }
            self.budget.check(self.expanded)?;
            self.expanded += 1;
            self.max_depth = self.max_depth.max(u64::from(g) + 1);
            let steps = &self.e.steps[usize::from(node.blank)];
            for (k, st) in steps.iter().enumerate() {
                // Move k^1 is the inverse of move k (U/D, L/R): never undo the last move.
                if st.to == u8::MAX || k as u8 == last ^ 1 {
                    continue;
                }
                self.generated += 1;
                let child = self.e.child(&node, st);
                let f = g + 1 + u32::from(child.h);
                if f > self.bound {
                    self.next = self.next.min(f);
                    continue;
                }
                self.path.push(k as u8);
                if self.dfs(child, g + 1, k as u8)? {
                    return Ok(true);
                }
                self.path.pop();
            }
            Ok(false)
        }
    }

    let mut s = Search {
        e,
        budget,
        bound: u32::from(start.h),
        next: u32::MAX,
        path: Vec::with_capacity(128),
        expanded: 0,
        generated: 0,
        max_depth: 0,
    };
    let result = loop {
        s.next = u32::MAX;
        s.path.clear();
        match s.dfs(start, 0, u8::MAX) {
            Ok(true) => {
                break Ok(Moves(s.path.iter().map(|&k| Move::ALL[usize::from(k)]).collect()));
            }
            // A solvable position always has a deeper bound to try.
            Ok(false) if s.next != u32::MAX => s.bound = s.next,
            Ok(false) => break Err(Stop::Nodes),
            Err(stop) => break Err(stop),
        }
    };
    stats.expanded = s.expanded;
    stats.generated = s.generated;
    stats.max_frontier = s.max_depth;
    result
}

/// One stored node of A*.
#[derive(Clone, Copy)]
struct Record {
    node: Node,
    parent: u32,
    g: u16,
    /// The move that led here (index into `Move::ALL`).
    via: u8,
}

/// Bytes one stored node costs A* with margin: the record, the hash entry at load factor
/// 7/8 with its growth copy, a bucket entry.
const ASTAR_NODE_BYTES: usize = 2 * (size_of::<Record>() + 2 * (size_of::<(u64, u32)>() + 1) + 8);

/// The bucket of a node with cost `g` and heuristic `h`: buckets are ordered by `f = g + h`,
/// and within one `f` by decreasing `g` (increasing `h`), so `f(f + 1) / 2 + h` numbers them
/// in exactly the order A* should expand them.
#[inline]
fn slot(g: u16, h: u8) -> usize {
    let f = usize::from(g) + usize::from(h);
    f * (f + 1) / 2 + usize::from(h)
}

/// A* with a bucket queue from `start`. Returns the moves, or why it stopped.
pub(crate) fn astar(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
) -> Result<Moves, Stop> {
    let max_stored = budget.max_memory / ASTAR_NODE_BYTES;
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.reset();
        search(e, start, budget, stats, max_stored, scratch)
    })
}

/// A*'s working memory, kept per thread between searches so that a stream of small solves
/// does not pay for growing the same tables again and again.
#[derive(Default)]
struct Scratch {
    records: Vec<Record>,
    index: FxHashMap<u64, u32>,
    /// `buckets[slot(f, h)]` holds (record, g at push time); an entry whose g differs is
    /// stale.
    buckets: Vec<Vec<(u32, u16)>>,
    /// One past the highest bucket the last search used: only those need emptying.
    used: usize,
}

impl Scratch {
    /// Empties the tables, and gives back memory a huge earlier search left behind.
    fn reset(&mut self) {
        // Enough for every 3x3 position, so repeated 3x3 searches never regrow the tables.
        const KEEP: usize = 1 << 18;
        self.records.clear();
        self.index.clear();
        if self.records.capacity() > KEEP {
            self.records.shrink_to(KEEP);
            self.index.shrink_to(KEEP);
        }
        let used = std::mem::take(&mut self.used).min(self.buckets.len());
        for b in &mut self.buckets[..used] {
            b.clear();
            if b.capacity() > KEEP {
                b.shrink_to(KEEP);
            }
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

fn search(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
    max_stored: usize,
    scratch: &mut Scratch,
) -> Result<Moves, Stop> {
    let Scratch { records, index, buckets, used } = scratch;
    let first = slot(0, start.h);
    if buckets.len() <= first {
        buckets.resize(first + 1, Vec::new());
    }
    records.push(Record { node: start, parent: u32::MAX, g: 0, via: u8::MAX });
    index.insert(start.rows, 0);
    buckets[first].push((0, 0));
    *used = first + 1;
    let mut f = first;
    let mut open = 1u64;
    'search: loop {
        while buckets[f].is_empty() {
            f += 1;
            if f >= buckets.len() {
                // Nothing left open: cannot happen for a solvable board.
                break 'search Err(Stop::Nodes);
            }
        }
        let Some((i, g)) = buckets[f].pop() else { continue };
        open -= 1;
        let rec = records[i as usize];
        if rec.g != g {
            continue;
        }
        if rec.node.rows == e.goal_rows {
            break Ok(trace(records, i as usize));
        }
        if let Err(stop) = budget.check(stats.expanded) {
            break Err(stop);
        }
        stats.expanded += 1;
        let steps = &e.steps[usize::from(rec.node.blank)];
        for (k, st) in steps.iter().enumerate() {
            if st.to == u8::MAX || k as u8 == rec.via ^ 1 {
                continue;
            }
            stats.generated += 1;
            let child = e.child(&rec.node, st);
            let cg = g + 1;
            let next = records.len() as u32;
            let at = match index.entry(child.rows) {
                std::collections::hash_map::Entry::Occupied(slot) => {
                    let j = *slot.get();
                    let r = &mut records[j as usize];
                    if cg >= r.g {
                        continue;
                    }
                    // A cheaper path to a known node (possible with an inconsistent h).
                    r.g = cg;
                    r.parent = i;
                    r.via = k as u8;
                    j
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    if records.len() >= max_stored {
                        break 'search Err(Stop::Memory);
                    }
                    slot.insert(next);
                    records.push(Record { node: child, parent: i, g: cg, via: k as u8 });
                    next
                }
            };
            let cf = slot(cg, child.h);
            if cf >= buckets.len() {
                buckets.resize(cf + 1, Vec::new());
            }
            buckets[cf].push((at, cg));
            *used = (*used).max(cf + 1);
            open += 1;
            // An inconsistent heuristic can put a child below the current f.
            f = f.min(cf);
        }
        stats.max_frontier = stats.max_frontier.max(open);
    }
}

/// Breadth-first search from `start` (FIFO over packed positions). Returns the moves, or why
/// it stopped.
pub(crate) fn bfs(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
) -> Result<Moves, Stop> {
    let max_stored = budget.max_memory / ASTAR_NODE_BYTES;
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.reset();
        let Scratch { records, index, .. } = scratch;
        records.push(Record { node: start, parent: u32::MAX, g: 0, via: u8::MAX });
        index.insert(start.rows, 0);
        if start.rows == e.goal_rows {
            return Ok(Moves::default());
        }
        // The records double as the queue: records[head..] are still to expand.
        let mut head = 0;
        while head < records.len() {
            let rec = records[head];
            budget.check(stats.expanded)?;
            stats.expanded += 1;
            for (k, st) in e.steps[usize::from(rec.node.blank)].iter().enumerate() {
                if st.to == u8::MAX || k as u8 == rec.via ^ 1 {
                    continue;
                }
                stats.generated += 1;
                let child = e.child(&rec.node, st);
                if index.contains_key(&child.rows) {
                    continue;
                }
                if records.len() >= max_stored {
                    return Err(Stop::Memory);
                }
                let at = records.len() as u32;
                records.push(Record {
                    node: child,
                    parent: head as u32,
                    g: rec.g + 1,
                    via: k as u8,
                });
                index.insert(child.rows, at);
                if child.rows == e.goal_rows {
                    return Ok(trace(records, at as usize));
                }
            }
            head += 1;
            stats.max_frontier = stats.max_frontier.max((records.len() - head) as u64);
        }
        // Everything reachable was seen: cannot happen for a solvable board.
        Err(Stop::Nodes)
    })
}

/// The moves from the root to record `at`.
fn trace(records: &[Record], mut at: usize) -> Moves {
    let mut moves = Vec::with_capacity(usize::from(records[at].g));
    while records[at].parent != u32::MAX {
        moves.push(Move::ALL[usize::from(records[at].via)]);
        at = records[at].parent as usize;
    }
    moves.reverse();
    Moves(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Heuristic;
    use crate::table::ExactTable;
    use npuzzle_core::{Goal, Scrambler, Size};

    fn unlimited() -> Budget<'static> {
        Budget { max_nodes: u64::MAX, max_memory: usize::MAX, deadline: None, cancel: None }
    }

    #[test]
    fn optimal_on_small_shapes() {
        let mut s = Scrambler::new(3);
        for (w, h) in [(2, 2), (3, 2), (2, 4), (3, 3), (4, 2)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let table = ExactTable::for_goal(&g).unwrap();
                for kind in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict] {
                    let e = Engine::get(&g, Some(kind));
                    for _ in 0..30 {
                        let b = s.solvable(&g);
                        let want = usize::from(table.distance(&b).unwrap());
                        for run in [idastar, astar, bfs] {
                            let mut stats = Stats::default();
                            let moves = run(&e, e.pack(&b), &unlimited(), &mut stats).unwrap();
                            assert_eq!(moves.len(), want, "{kind} {b}");
                            let mut end = b.clone();
                            end.apply_all(&moves).unwrap();
                            assert_eq!(end, g);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn limits_stop_both() {
        let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        let b = Scrambler::new(4).solvable(&g);
        let e = Engine::get(&g, Some(Heuristic::Manhattan));
        let nodes = Budget { max_nodes: 500, ..unlimited() };
        assert_eq!(idastar(&e, e.pack(&b), &nodes, &mut Stats::default()), Err(Stop::Nodes));
        assert_eq!(astar(&e, e.pack(&b), &nodes, &mut Stats::default()), Err(Stop::Nodes));
        let memory = Budget { max_memory: 1 << 20, ..unlimited() };
        assert_eq!(astar(&e, e.pack(&b), &memory, &mut Stats::default()), Err(Stop::Memory));
        let late = Budget { deadline: Some(Instant::now()), ..unlimited() };
        assert_eq!(idastar(&e, e.pack(&b), &late, &mut Stats::default()), Err(Stop::Time));
    }
}
