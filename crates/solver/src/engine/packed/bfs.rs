//! Breadth-first search for the packed engine (boards up to 4x4): FIFO over packed
//! positions, with the records doubling as the queue.

use npuzzle_core::{Board, Moves, Size};
use npuzzle_search::{Budget, Flow, Frontier, Stop};

use super::closed::{NONE, Record, SCRATCH, Scratch, resident_bytes, trace};
use super::{Node, PackedEngine, Watch};
use crate::solution::{Ended, Stats};

/// Breadth-first search from `start` (FIFO over packed positions). Returns the moves, or why
/// it stopped.
pub(crate) fn bfs(
    e: &PackedEngine,
    start: Node,
    budget: &Budget<'_>,
    watch: &mut Watch<'_>,
    stats: &mut Stats,
) -> Result<Moves, Ended> {
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.reset(e.width * e.height > 10);
        let Scratch { records, index, .. } = scratch;
        records.push(Record::new(start, NONE, NONE, 0, u8::MAX));
        index.visit(start.rows, 0);
        if start.rows == e.goal_rows {
            return Ok(Moves::default());
        }
        // The records double as the queue: records[head..] are still to expand.
        let mut head = 0;
        // Whether to ask the sampler at this node: at the start, at each check, and after
        // each sample.
        let mut sampling = true;
        while head < records.len() {
            let rec = records[head];
            budget.check_expand(stats.expanded).map_err(Ended::Stopped)?;
            if stats.expanded & 1023 == 0 && stats.expanded > 0 {
                // At most three new positions per expansion until the next check.
                if index.growth_overruns(3 * 1024, budget.deadline()) {
                    return Err(Ended::Stopped(Stop::Time));
                }
                let frontier = (records.len() - head) as u64;
                if watch.progress(stats.expanded, stats.generated, frontier) == Flow::Stop {
                    return Err(Ended::Stopped(Stop::Cancelled));
                }
                sampling = true;
            }
            if sampling {
                sampling = watch.wants(stats.expanded);
                if sampling {
                    // The queue's head: the records after this one, in order.
                    let queue = Queue { records: &records[head + 1..], size: e.size() };
                    let lists = (records.len() - head, head);
                    let costs = (u32::from(rec.g), u32::from(rec.h));
                    if watch.sample(rec.rows, costs, lists, Some(&queue)) == Flow::Stop {
                        return Err(Ended::Stopped(Stop::Cancelled));
                    }
                }
            }
            if u32::from(rec.g) > watch.lower_bound
                && watch.bound(rec.g.into(), stats.expanded) == Flow::Stop
            {
                return Err(Ended::Stopped(Stop::Cancelled));
            }
            stats.expanded += 1;
            let node = rec.node();
            let steps = &e.steps[usize::from(node.blank)];
            for &k in e.next_moves(&node, rec.via) {
                stats.generated += 1;
                let child = e.child(&node, &steps[usize::from(k)]);
                let at = records.len() as u32;
                if !index.visit(child.rows, 0) {
                    continue;
                }
                if resident_bytes(records.len() + 1, index, 1) > budget.max_bytes() {
                    return Err(Ended::Stopped(Stop::Memory));
                }
                records.push(Record::new(child, head as u32, NONE, rec.g + 1, k));
                if child.rows == e.goal_rows {
                    return Ok(trace(records, at as usize));
                }
            }
            head += 1;
            stats.max_frontier = stats.max_frontier.max((records.len() - head) as u64);
        }
        // Everything reachable was seen: cannot happen for a solvable board.
        Err(Ended::Exhausted)
    })
}

/// The breadth-first queue's head, for a sampler.
struct Queue<'a> {
    records: &'a [Record],
    size: Size,
}

impl Frontier<Board, u32> for Queue<'_> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&Board, u32, u32)) {
        for rec in self.records.iter().take(k) {
            if let Some(board) = crate::sample::unpack(self.size, rec.rows) {
                visit(&board, rec.g.into(), rec.h.into());
            }
        }
    }
}
