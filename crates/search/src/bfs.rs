//! Breadth-first search.

use core::hash::Hash;
use core::mem::size_of;
use std::time::Instant;

use rustc_hash::FxHashSet;

use crate::limits::{Budget, Growth};
use crate::observer::{Begin, Expand, Frontier, Generate};
use crate::{Flow, Limits, Observer, Outcome, ROOT, Report, Stats, Stop, trace};
use crate::{finish, tick};

/// Finds a path with the fewest edges by breadth-first search.
///
/// `successors(node)` yields the neighbouring nodes (every edge costs 1); `success(node)`
/// recognises a goal. Nodes are visited layer by layer, each once.
///
/// # Contract
///
/// - The path has the fewest possible edges; it includes `start` and the goal, and `cost` is
///   `path.len() - 1`. Goals are tested when generated, which is still optimal for unit costs
///   and saves expanding the whole last layer.
/// - With [`Limits::max_depth`] `d`, nodes at depth `d` are not expanded: goals up to `d`
///   moves away are found, and otherwise the outcome is
///   [`Outcome::NotFound`](crate::Outcome::NotFound).
/// - The observer sees `g` = depth and `h` = 0.
///
/// Memory: every node reached is kept (a queue record and a hash-set entry).
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, bfs};
///
/// // From n you can go to n + 1 or 2n: 1, 2, 4, 5, 10 is a shortest route to 10.
/// let report = bfs(&1u32, |&n| [n + 1, 2 * n], |&n| n == 10, &Limits::default(), ());
/// assert_eq!(report.path(), Some(&[1, 2, 4, 5, 10][..]));
/// assert_eq!(report.cost(), Some(4));
/// ```
#[inline]
pub fn bfs<N, FN, IN, FS, O>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    limits: &Limits,
    mut observer: O,
) -> Report<N, usize>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
    O: Observer<N, usize>,
{
    let clock = Instant::now();
    let budget = Budget::new(limits);
    let memory = budget.memory(size_of::<(N, u32)>() + size_of::<N>() + 1, 2, 0);
    let max_depth = limits.max_depth.unwrap_or(u64::MAX);
    let mut stats = Stats::default();
    // The arena doubles as the FIFO queue: `queue[head..]` is the open list, and every entry
    // keeps its parent's index so the path can be traced back.
    let mut queue: Vec<(N, u32)> = Vec::new();
    let mut seen: FxHashSet<N> = FxHashSet::default();
    let mut growth = Growth::for_nodes::<N>(&budget);

    let outcome = 'search: {
        if memory.exceeds(1, 0) {
            break 'search Outcome::Stopped(Stop::Memory);
        }
        if observer.begin(&Begin::new(start, 0)) == Flow::Stop {
            break 'search Outcome::Stopped(Stop::Cancelled);
        }
        if success(start) {
            break 'search Outcome::Found { path: vec![start.clone()], cost: 0 };
        }
        queue.push((start.clone(), ROOT));
        seen.insert(start.clone());
        let (mut head, mut depth, mut layer_end) = (0, 0usize, 1);

        while head < queue.len() {
            if head == layer_end {
                depth += 1;
                layer_end = queue.len();
            }
            if depth as u64 >= max_depth {
                break 'search Outcome::NotFound;
            }
            if let Err(stop) = budget.check_expand(stats.expanded) {
                break 'search Outcome::Stopped(stop);
            }
            if stats.expanded & 1023 == 0 {
                let more = Growth::next_entries(stats.generated, stats.expanded);
                let full =
                    seen.capacity() - seen.len() < more || queue.capacity() - queue.len() < more;
                let held = seen.len();
                let grow = || {
                    seen.reserve(seen.len().max(more));
                    queue.reserve(queue.len().max(more));
                };
                if let Err(stop) = growth.room(&budget, full, held, grow) {
                    break 'search Outcome::Stopped(stop);
                }
                // Each node is held twice: in the queue and in the seen set.
                if growth.must_release(&budget, 2 * queue.len()) {
                    break 'search Outcome::Stopped(Stop::Time);
                }
            }
            let (node, parent) = &queue[head];
            let parent = queue.get(*parent as usize).map(|p| &p.0);
            let view = QueueView { queue: &queue, next: head + 1, layer_end, depth };
            let event = Expand::new(node, depth, 0)
                .with_parent(parent)
                .with_lists(queue.len() - head, head)
                .with_frontier(&view);
            if observer.expand(&event) == Flow::Stop
                || tick(&mut observer, &stats, queue.len() - head, clock) == Flow::Stop
            {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            let children = successors(node);
            stats.expanded += 1;

            for child in children {
                stats.generated += 1;
                if seen.contains(&child) {
                    continue;
                }
                if memory.exceeds(queue.len() + 1, 0) || queue.len() >= ROOT as usize {
                    break 'search Outcome::Stopped(Stop::Memory);
                }
                if observer.generate(&Generate::new(&child, &queue[head].0, depth + 1, 0))
                    == Flow::Stop
                {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                if success(&child) {
                    let mut path = trace(&queue, head as u32, |(node, parent)| (node, *parent));
                    path.push(child);
                    break 'search Outcome::Found { path, cost: depth + 1 };
                }
                seen.insert(child.clone());
                queue.push((child, head as u32));
            }
            head += 1;
            stats.max_frontier = stats.max_frontier.max((queue.len() - head) as u64);
        }
        Outcome::NotFound
    };
    stats.seconds = clock.elapsed().as_secs_f64();
    finish(&mut observer, outcome, stats)
}

/// The FIFO queue as observers see it: `queue[next..]`, whose entries before `layer_end` are
/// at `depth` and the rest one deeper.
struct QueueView<'a, N> {
    queue: &'a [(N, u32)],
    next: usize,
    layer_end: usize,
    depth: usize,
}

impl<N> Frontier<N, usize> for QueueView<'_, N> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&N, usize, usize)) {
        for (i, (node, _)) in self.queue.iter().enumerate().skip(self.next).take(k) {
            let g = if i < self.layer_end { self.depth } else { self.depth + 1 };
            visit(node, g, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::bfs;
    use crate::{Limits, Outcome};

    fn doubling(&n: &u32) -> [u32; 2] {
        [n + 1, 2 * n]
    }

    #[test]
    fn depth_limit_cuts_the_search() {
        let within = Limits { max_depth: Some(4), ..Limits::default() };
        assert_eq!(bfs(&1, doubling, |&n| n == 10, &within, ()).cost(), Some(4));
        let short = Limits { max_depth: Some(3), ..Limits::default() };
        assert_eq!(bfs(&1, doubling, |&n| n == 10, &short, ()).outcome, Outcome::NotFound);
    }

    #[test]
    fn layers_are_counted_as_depth() {
        struct Depths(Vec<usize>);
        impl crate::Observer<u32, usize> for Depths {
            fn expand(&mut self, e: &crate::Expand<'_, u32, usize>) -> crate::Flow {
                self.0.push(e.g());
                crate::Flow::Continue
            }
        }
        let mut depths = Depths(Vec::new());
        let report = bfs(&1, doubling, |&n| n == 7, &Limits::default(), &mut depths);
        // Layers 1 | 2 | 3 4 | 6 5 8: 7 is generated from 6, the first node of layer 3.
        assert_eq!(report.path(), Some(&[1, 2, 3, 6, 7][..]));
        assert_eq!(depths.0, [0, 1, 2, 2, 3]);
    }

    #[test]
    fn finite_space_without_goal_is_not_found() {
        let report = bfs(&0u8, |&n| [n.saturating_add(1)], |_| false, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::NotFound);
        assert_eq!(report.stats.expanded, 256);
    }
}
