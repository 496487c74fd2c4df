//! A* for the packed engine (boards up to 4x4). IDA* and breadth-first search have their
//! own modules, and the records and closed set this search stores are in [`super::closed`].
//!
//! The generic algorithms of `npuzzle-search` pay for their generality per node: iterator
//! state, a path of full nodes, a binary heap. On sliding puzzles, where a node costs a few
//! nanoseconds to make, that overhead dominates. A* here follows the bucket-queue A* of
//! Burns, Hatem, Leighton & Ruml, "Implementing Fast Heuristic Search Code" (SoCS 2012): the
//! open list is kept in buckets by `(f, g)` (integers, small): lowest `f` first and, among
//! equal `f`, the largest `g` (the deepest node), with lazy deletion and reopening (linear
//! conflict is admissible but not consistent). The closed set is an open-addressing table
//! sized for the search at hand.
//!
//! Both honour the same limits and report the same statistics as the generic ones, and the
//! tests check them against the exact tables.

use npuzzle_core::{Board, Moves, Size};
use npuzzle_search::{Budget, Flow, Frontier, Stop};

use super::closed::{Closed, NONE, Record, SCRATCH, Scratch, resident_bytes, trace};
use super::{Node, PackedEngine, Watch};
use crate::solution::{Ended, Stats};

/// The bucket of a node with cost `g` and heuristic `h`: buckets are ordered by `f = g + h`,
/// and within one `f` by decreasing `g` (increasing `h`), so `f(f + 1) / 2 + h` numbers them
/// in exactly the order A* should expand them.
#[inline]
fn slot(g: u16, h: u8) -> usize {
    let f = usize::from(g) + usize::from(h);
    f * (f + 1) / 2 + usize::from(h)
}

/// A* with a bucket queue from `start`. Returns the moves, or why it stopped; `watch` sees
/// each new f layer (a proven lower bound) and the progress every 1024 expansions.
pub(crate) fn astar(
    e: &PackedEngine,
    start: Node,
    budget: &Budget<'_>,
    watch: &mut Watch<'_>,
    stats: &mut Stats,
) -> Result<Moves, Ended> {
    SCRATCH.with_borrow_mut(|scratch| {
        let wide = e.width * e.height > 10;
        scratch.reset(wide);
        if wide {
            search::<true>(e, start, budget, watch, stats, scratch)
        } else {
            search::<false>(e, start, budget, watch, stats, scratch)
        }
    })
}

/// Kept out of line: inlined into its caller's large body, its loop got worse register
/// allocation and ran about 10% slower.
#[inline(never)]
fn search<const WIDE: bool>(
    e: &PackedEngine,
    start: Node,
    budget: &Budget<'_>,
    watch: &mut Watch<'_>,
    stats: &mut Stats,
    scratch: &mut Scratch,
) -> Result<Moves, Ended> {
    let Scratch { records, index, heads } = scratch;
    let first = slot(0, start.h);
    if heads.len() <= first {
        heads.resize(first + 1, NONE);
    }
    records.push(Record::new(start, NONE, NONE, 0, u8::MAX));
    heads[first] = 0;
    let mut f = first;
    // Counted in locals (the compiler keeps them in registers) and stored at the end.
    let (mut expanded, mut generated, mut open, mut max_open) = (0u64, 0u64, 1u64, 1u64);
    // The limits (and the watcher) are looked at only from this expansion count on.
    let mut check_at = 0;
    // The largest f taken off the open list: no answer is cheaper (h is admissible).
    let mut layer = u32::from(start.h);
    let result = 'search: loop {
        while heads[f] == NONE {
            f += 1;
            if f >= heads.len() {
                // Nothing left open: cannot happen for a solvable board.
                break 'search Err(Ended::Exhausted);
            }
        }
        let at = heads[f];
        let rec = records[at as usize];
        heads[f] = rec.next;
        open -= 1;
        // Duplicates are caught here, when a position is taken off the open list, not when
        // it is made: most children are never taken off (their f is above the answer's),
        // so they never cost a probe. A position's copies come off cheapest first (same h,
        // so lowest f is lowest g); a later, cheaper copy (the heuristic may be
        // inconsistent) reopens it.
        if !index.visit_as::<WIDE>(rec.rows, rec.g) {
            continue;
        }
        if rec.rows == e.goal_rows {
            break Ok(trace(records, at as usize));
        }
        if expanded >= check_at {
            if let Err(stop) = budget.check_expand(expanded) {
                break Err(Ended::Stopped(stop));
            }
            // At most one closed-set entry per expansion until the next check (duplicates
            // add none).
            if index.growth_overruns(1024, budget.deadline()) {
                break Err(Ended::Stopped(Stop::Time));
            }
            if expanded > 0 && watch.progress(expanded, generated, open) == Flow::Stop {
                break Err(Ended::Stopped(Stop::Cancelled));
            }
            check_at = budget.next_check(expanded);
            if watch.wants(expanded) {
                let open_list = Open { records, heads, from: f, index, size: e.size() };
                let lists = (open as usize, index.len());
                let costs = (u32::from(rec.g), u32::from(rec.h));
                if watch.sample(rec.rows, costs, lists, Some(&open_list)) == Flow::Stop {
                    break Err(Ended::Stopped(Stop::Cancelled));
                }
                // Asked again at the next node.
                check_at = expanded + 1;
            }
        }
        let rf = u32::from(rec.g) + u32::from(rec.h);
        if rf > layer {
            layer = rf;
            if watch.bound(rf, expanded) == Flow::Stop {
                break Err(Ended::Stopped(Stop::Cancelled));
            }
        }
        expanded += 1;
        let node = rec.node();
        let g = rec.g + 1;
        let steps = &e.steps[usize::from(node.blank)];
        for &k in e.next_moves(&node, rec.via) {
            let child = e.child(&node, &steps[usize::from(k)]);
            let cf = slot(g, child.h);
            if cf >= heads.len() {
                heads.resize(cf + 1, NONE);
            }
            let new = records.len() as u32;
            records.push(Record::new(child, at, heads[cf], g, k));
            heads[cf] = new;
            // An inconsistent heuristic can put a child below the current f.
            f = f.min(cf);
        }
        let made = records.len() as u64 - 1 - generated;
        generated += made;
        open += made;
        max_open = max_open.max(open);
        // One closed-set entry per record taken off the open list.
        if resident_bytes(records.len(), index, 1) >= budget.max_bytes() {
            break Err(Ended::Stopped(Stop::Memory));
        }
    };
    stats.expanded = expanded;
    stats.generated = generated;
    stats.max_frontier = max_open;
    result
}

/// The bucket queue's open list, for a sampler: the buckets from the one being expanded
/// on, each in the order A* takes them, without the copies of positions already expanded
/// as cheaply.
struct Open<'a> {
    records: &'a [Record],
    heads: &'a [u32],
    from: usize,
    index: &'a Closed,
    size: Size,
}

impl Frontier<Board, u32> for Open<'_> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&Board, u32, u32)) {
        let mut shown = 0;
        for &head in self.heads.get(self.from..).unwrap_or_default() {
            let mut at = head;
            while at != NONE && shown < k {
                let rec = &self.records[at as usize];
                at = rec.next;
                if self.index.get(rec.rows).is_some_and(|g| g <= rec.g) {
                    continue;
                }
                if let Some(board) = crate::sample::unpack(self.size, rec.rows) {
                    visit(&board, rec.g.into(), rec.h.into());
                    shown += 1;
                }
            }
            if shown == k {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use npuzzle_core::{Goal, Scrambler, Size};
    use npuzzle_search::Limits;

    use super::*;
    use crate::engine::exact::ExactTable;
    use crate::engine::packed::{bfs::bfs, idastar::idastar};
    use crate::heuristic::HeuristicKind;

    type Search =
        fn(&PackedEngine, Node, &Budget<'_>, &mut Watch<'_>, &mut Stats) -> Result<Moves, Ended>;

    fn run(
        search: Search,
        e: &PackedEngine,
        b: &npuzzle_core::Board,
        limits: &Limits,
    ) -> Result<Moves, Ended> {
        let start = e.pack(b);
        let mut nobody = ();
        let mut watch = Watch::new(&mut nobody, start.h.into());
        search(e, start, &Budget::new(limits), &mut watch, &mut Stats::default())
    }

    #[test]
    fn optimal_on_small_shapes() {
        let mut s = Scrambler::new(3);
        for (w, h) in [(2, 2), (3, 2), (2, 4), (3, 3), (4, 2)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let table = ExactTable::build(&g).unwrap();
                for kind in HeuristicKind::ALL {
                    let e = PackedEngine::new(&g, Some(kind));
                    for _ in 0..30 {
                        let b = s.solvable(&g);
                        let want = usize::from(table.distance(&b).unwrap());
                        for search in [idastar as Search, astar, bfs] {
                            let moves = run(search, &e, &b, &Limits::default()).unwrap();
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
    fn limits_stop_every_search() {
        let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        let b = Scrambler::new(4).solvable(&g);
        let e = PackedEngine::new(&g, Some(HeuristicKind::Manhattan));
        let nodes = Limits { max_nodes: Some(500), ..Limits::default() };
        let memory = Limits { max_memory: Some(1 << 20), ..Limits::default() };
        let late = Limits { deadline: Some(Instant::now()), ..Limits::default() };
        let stopped = |stop| Err(Ended::Stopped(stop));
        for search in [idastar as Search, astar, bfs] {
            assert_eq!(run(search, &e, &b, &nodes), stopped(Stop::Nodes));
            assert_eq!(run(search, &e, &b, &late), stopped(Stop::Time));
        }
        assert_eq!(run(astar, &e, &b, &memory), stopped(Stop::Memory));
        assert_eq!(run(bfs, &e, &b, &memory), stopped(Stop::Memory));
    }
}
