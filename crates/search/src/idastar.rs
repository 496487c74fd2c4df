//! IDA*: iterative-deepening A* (Korf 1985).

use core::mem::size_of;
use std::time::Instant;

use crate::limits::Budget;
use crate::observer::{Begin, Bound, Expand, Generate};
use crate::{Cost, Flow, Limits, Observer, Outcome, Report, Stats, Stop};
use crate::{finish, tick};

/// One node of the current path: its cost from the start and the successors still to try.
struct Level<I, C> {
    successors: I,
    g: C,
}

/// Finds a cheapest path with IDA*, iterative-deepening A* (Korf, 1985): depth-first searches
/// that cut off nodes with `f = g + h` above a bound, the bound growing each iteration to the
/// smallest `f` that was cut off.
///
/// Memory is one path, so IDA* solves problems whose state spaces do not fit in memory, such
/// as the 15-puzzle; the price is re-expanding the earlier iterations' nodes and expanding
/// nodes once per route (no closed set). A successor equal to the node's own parent is
/// skipped. `successors(node)` yields `(successor, edge cost)` pairs; `success(node)`
/// recognises a goal, tested when generated within the bound. Nodes need not be hashable; no
/// memory is allocated per node.
///
/// # Contract
///
/// - If `heuristic` never overestimates (it is admissible; in particular it is 0 at goals),
///   the path found is optimal.
/// - The path includes `start` and the goal; `cost` is the sum of its edge costs.
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) when no node was cut off (a finite tree
///   without a goal) or when the bound would exceed [`Limits::max_depth`] (compared as
///   `u64`). In a graph with cycles and no goal, the search runs until a limit: set one.
/// - The observer's [`bound`](crate::Observer::bound) sees each cost bound; `open` is the path
///   length.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, Outcome, idastar};
///
/// let successors = |n: &char| match n {
///     'a' => vec![('b', 2), ('c', 5)],
///     'b' => vec![('c', 1), ('d', 7)],
///     'c' => vec![('d', 2)],
///     _ => vec![],
/// };
/// let heuristic = |n: &char| match n {
///     'a' => 4,
///     'b' => 3,
///     'c' => 2,
///     _ => 0u32,
/// };
/// let report = idastar(&'a', successors, heuristic, |&n| n == 'd', &Limits::default(), ());
/// assert_eq!(report.outcome, Outcome::Found { path: vec!['a', 'b', 'c', 'd'], cost: 5 });
/// ```
#[inline]
pub fn idastar<N, C, FN, IN, FH, FS, O>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    limits: &Limits,
    mut observer: O,
) -> Report<N, C>
where
    N: Eq + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
    O: Observer<N, C>,
{
    let clock = Instant::now();
    let budget = Budget::new(limits);
    let max_path =
        budget.memory(size_of::<N>() + size_of::<Level<IN::IntoIter, C>>(), 1, 0).max_nodes();
    let max_bound = limits.max_depth.unwrap_or(u64::MAX);
    let mut stats = Stats::default();
    // `levels[i]` belongs to `path[i]`; both are reused across iterations, so the search
    // allocates nothing once the path has reached its deepest.
    let mut path: Vec<N> = Vec::new();
    let mut levels: Vec<Level<IN::IntoIter, C>> = Vec::new();

    let outcome = 'search: {
        if max_path == 0 {
            break 'search Outcome::Stopped(Stop::Memory);
        }
        let zero = C::default();
        if success(start) {
            break 'search Outcome::Found { path: vec![start.clone()], cost: zero };
        }
        let start_h = heuristic(start);
        if observer.begin(&Begin::new(start, start_h)) == Flow::Stop {
            break 'search Outcome::Stopped(Stop::Cancelled);
        }
        let mut bound = start_h;
        loop {
            if bound.to_u64() > max_bound {
                break 'search Outcome::NotFound;
            }
            if observer.bound(&Bound::new(bound, stats.expanded)) == Flow::Stop {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            if let Err(stop) = budget.check_expand(stats.expanded) {
                break 'search Outcome::Stopped(stop);
            }
            let event = Expand::new(start, zero, start_h).with_lists(1, 0);
            if observer.expand(&event) == Flow::Stop
                || tick(&mut observer, &stats, 1, clock) == Flow::Stop
            {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            path.clear();
            path.push(start.clone());
            levels.clear();
            levels.push(Level { successors: successors(start).into_iter(), g: zero });
            stats.expanded += 1;
            stats.max_frontier = stats.max_frontier.max(1);
            // The smallest f above the bound: the next iteration's bound.
            let mut next: Option<C> = None;

            while let Some(level) = levels.last_mut() {
                let g = level.g;
                let Some((child, cost)) = level.successors.next() else {
                    levels.pop();
                    path.pop();
                    continue;
                };
                stats.generated += 1;
                let depth = path.len();
                if depth >= 2 && child == path[depth - 2] {
                    continue;
                }
                let child_g = g + cost;
                let h = heuristic(&child);
                let f = child_g + h;
                if f > bound {
                    next = Some(next.map_or(f, |b| b.min(f)));
                    continue;
                }
                if observer.generate(&Generate::new(&child, &path[depth - 1], child_g, h))
                    == Flow::Stop
                {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                if success(&child) {
                    path.push(child);
                    break 'search Outcome::Found { path, cost: child_g };
                }
                if depth >= max_path {
                    break 'search Outcome::Stopped(Stop::Memory);
                }
                if let Err(stop) = budget.check_expand(stats.expanded) {
                    break 'search Outcome::Stopped(stop);
                }
                let event = Expand::new(&child, child_g, h)
                    .with_parent(path.last())
                    .with_lists(depth + 1, 0);
                if observer.expand(&event) == Flow::Stop
                    || tick(&mut observer, &stats, depth as u64 + 1, clock) == Flow::Stop
                {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                levels.push(Level { successors: successors(&child).into_iter(), g: child_g });
                path.push(child);
                stats.expanded += 1;
                stats.max_frontier = stats.max_frontier.max(path.len() as u64);
            }
            match next {
                Some(larger) => bound = larger,
                None => break 'search Outcome::NotFound,
            }
        }
    };
    stats.seconds = clock.elapsed().as_secs_f64();
    finish(&mut observer, outcome, stats)
}

#[cfg(test)]
mod tests {
    use super::idastar;
    use crate::{Flow, Limits, Observer, Outcome};

    /// An undirected weighted path 0 - 1 - 2 - 3 - 4 with edge i-(i+1) costing i + 1.
    fn line(&n: &u8) -> impl Iterator<Item = (u8, u32)> + use<> {
        let back = n.checked_sub(1).map(|m| (m, u32::from(n)));
        let ahead = (n < 4).then(|| (n + 1, u32::from(n) + 1));
        back.into_iter().chain(ahead)
    }

    struct Bounds(Vec<u32>);

    impl Observer<u8, u32> for Bounds {
        fn bound(&mut self, bound: &crate::Bound<u32>) -> Flow {
            self.0.push(bound.bound());
            Flow::Continue
        }
    }

    #[test]
    fn bounds_grow_to_the_smallest_cut_off_f() {
        let mut bounds = Bounds(Vec::new());
        let report = idastar(&0, line, |_| 0, |&n| n == 4, &Limits::default(), &mut bounds);
        assert_eq!(report.outcome, Outcome::Found { path: vec![0, 1, 2, 3, 4], cost: 10 });
        assert_eq!(bounds.0, [0, 1, 3, 6, 10]);
        assert_eq!(report.stats.max_frontier, 4);
    }

    #[test]
    fn perfect_heuristic_needs_one_iteration() {
        let exact = |&n: &u8| [10, 9, 7, 4, 0][usize::from(n)];
        let mut bounds = Bounds(Vec::new());
        let report = idastar(&0, line, exact, |&n| n == 4, &Limits::default(), &mut bounds);
        assert_eq!(report.cost(), Some(10));
        assert_eq!(bounds.0, [10]);
        assert_eq!(report.stats.expanded, 4);
    }

    #[test]
    fn bound_limit_gives_not_found() {
        let limits = Limits { max_depth: Some(9), ..Limits::default() };
        let report = idastar(&0, line, |_| 0, |&n| n == 4, &limits, ());
        assert_eq!(report.outcome, Outcome::NotFound);
    }
}
