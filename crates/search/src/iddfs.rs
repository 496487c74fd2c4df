//! Iterative-deepening depth-first search.

use core::mem::size_of;
use std::time::Instant;

use crate::limits::Budget;
use crate::observer::{Begin, Bound, Expand, Generate};
use crate::{Flow, Limits, Observer, Outcome, Report, Stats, Stop};
use crate::{finish, tick};

/// Finds a path with the fewest edges by iterative-deepening depth-first search: depth-first
/// searches with depth bounds 1, 2, 3, … until a goal appears.
///
/// It has the optimality of [`bfs`](crate::bfs) with the memory of a single path, at the price
/// of re-expanding the shallow layers once per iteration and of exploring every path (there is
/// no closed set, so nodes reachable by several routes are expanded once per route).
/// `successors(node)` yields the neighbouring nodes (every edge costs 1); a successor equal to
/// the node's own parent is skipped. `success(node)` recognises a goal, tested when generated.
/// Nodes need not be hashable.
///
/// # Contract
///
/// - The path has the fewest possible edges; it includes `start` and the goal, and `cost` is
///   `path.len() - 1`.
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) when an iteration is cut off nowhere (the
///   whole space is a finite tree without a goal) or when the bound would exceed
///   [`Limits::max_depth`] (goals up to `max_depth` moves away are found). In a graph with
///   cycles and no goal, the search runs until `max_depth` or another limit: set one.
/// - The observer's [`bound`](crate::Observer::bound) sees each depth bound; `g` is the depth,
///   `h` is 0, `open` the path length.
///
/// Memory: the current path and one successor iterator per path node.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, iddfs};
///
/// let report = iddfs(&1u32, |&n| [n + 1, 2 * n], |&n| n == 10, &Limits::default(), ());
/// assert_eq!(report.cost(), Some(4));
/// assert_eq!(report.path().map(|path| path[0]), Some(1));
/// ```
#[inline]
pub fn iddfs<N, FN, IN, FS, O>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    limits: &Limits,
    mut observer: O,
) -> Report<N, usize>
where
    N: Eq + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
    O: Observer<N, usize>,
{
    let clock = Instant::now();
    let budget = Budget::new(limits);
    let max_path = budget.memory(size_of::<N>() + size_of::<IN::IntoIter>(), 1, 0).max_nodes();
    let max_depth = limits.max_depth.unwrap_or(u64::MAX);
    let mut stats = Stats::default();
    // `levels[i]` iterates over the successors of `path[i]`; both are reused across iterations.
    let mut path: Vec<N> = Vec::new();
    let mut levels: Vec<IN::IntoIter> = Vec::new();

    let outcome = 'search: {
        if max_path == 0 {
            break 'search Outcome::Stopped(Stop::Memory);
        }
        if observer.begin(&Begin::new(start, 0)) == Flow::Stop {
            break 'search Outcome::Stopped(Stop::Cancelled);
        }
        if success(start) {
            break 'search Outcome::Found { path: vec![start.clone()], cost: 0 };
        }
        let mut bound = 1usize;
        loop {
            if bound as u64 > max_depth {
                break 'search Outcome::NotFound;
            }
            if observer.bound(&Bound::new(bound, stats.expanded)) == Flow::Stop {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            if let Err(stop) = budget.check_expand(stats.expanded) {
                break 'search Outcome::Stopped(stop);
            }
            let event = Expand::new(start, 0, 0).with_lists(1, 0);
            if observer.expand(&event) == Flow::Stop
                || tick(&mut observer, &stats, 1, clock) == Flow::Stop
            {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            path.clear();
            path.push(start.clone());
            levels.clear();
            levels.push(successors(start).into_iter());
            stats.expanded += 1;
            stats.max_frontier = stats.max_frontier.max(1);
            let mut cut_off = false;

            while let Some(level) = levels.last_mut() {
                let Some(child) = level.next() else {
                    levels.pop();
                    path.pop();
                    continue;
                };
                stats.generated += 1;
                let depth = path.len();
                if depth >= 2 && child == path[depth - 2] {
                    continue;
                }
                if observer.generate(&Generate::new(&child, &path[depth - 1], depth, 0))
                    == Flow::Stop
                {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                if success(&child) {
                    path.push(child);
                    break 'search Outcome::Found { path, cost: depth };
                }
                if depth >= bound {
                    cut_off = true;
                    continue;
                }
                if depth >= max_path {
                    break 'search Outcome::Stopped(Stop::Memory);
                }
                if let Err(stop) = budget.check_expand(stats.expanded) {
                    break 'search Outcome::Stopped(stop);
                }
                let event =
                    Expand::new(&child, depth, 0).with_parent(path.last()).with_lists(depth + 1, 0);
                if observer.expand(&event) == Flow::Stop
                    || tick(&mut observer, &stats, depth as u64 + 1, clock) == Flow::Stop
                {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                levels.push(successors(&child).into_iter());
                path.push(child);
                stats.expanded += 1;
                stats.max_frontier = stats.max_frontier.max(path.len() as u64);
            }
            if !cut_off {
                break 'search Outcome::NotFound;
            }
            bound += 1;
        }
    };
    stats.seconds = clock.elapsed().as_secs_f64();
    finish(&mut observer, outcome, stats)
}

#[cfg(test)]
mod tests {
    use super::iddfs;
    use crate::{Flow, Limits, Observer, Outcome};

    /// A binary tree of depth 4 numbered heap-style from 1.
    fn tree(&n: &u32) -> Vec<u32> {
        if n < 16 { vec![2 * n, 2 * n + 1] } else { vec![] }
    }

    #[test]
    fn finds_the_shallowest_goal() {
        let report = iddfs(&1, tree, |&n| n == 13 || n == 3, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::Found { path: vec![1, 3], cost: 1 });
    }

    #[test]
    fn exhausted_tree_is_not_found() {
        struct Bounds(Vec<usize>);
        impl Observer<u32, usize> for Bounds {
            fn bound(&mut self, bound: &crate::Bound<usize>) -> Flow {
                self.0.push(bound.bound());
                Flow::Continue
            }
        }
        let mut bounds = Bounds(Vec::new());
        let report = iddfs(&1, tree, |_| false, &Limits::default(), &mut bounds);
        assert_eq!(report.outcome, Outcome::NotFound);
        assert_eq!(bounds.0, [1, 2, 3, 4, 5]);
        assert_eq!(report.stats.max_frontier, 5);
    }

    #[test]
    fn only_the_parent_is_pruned() {
        // An undirected path 0 - 1 - 2 - 3: without parent pruning it would bounce forever.
        let line = |&n: &u8| [n.wrapping_sub(1), n + 1].into_iter().filter(|&m| m <= 3);
        let report = iddfs(&0, line, |&n| n == 3, &Limits::default(), ());
        assert_eq!(report.path(), Some(&[0, 1, 2, 3][..]));
        let limits = Limits { max_depth: Some(2), ..Limits::default() };
        assert_eq!(iddfs(&0, line, |&n| n == 3, &limits, ()).outcome, Outcome::NotFound);
    }
}
