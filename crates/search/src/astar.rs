//! A* (Hart, Nilsson & Raphael 1968).

use core::cmp::Reverse;
use core::hash::Hash;

use crate::best_first::{Strategy, best_first};
use crate::{Cost, Limits, Observer, Report};

/// Finds a cheapest path with A* (Hart, Nilsson & Raphael, 1968).
///
/// Nodes are expanded in order of `f = g + h`, where `g` is the cost from `start` and `h =
/// heuristic(node)`; among equal `f` the node with the LARGER `g` goes first, which on sliding
/// puzzles and similar spaces reaches the goal long before exhausting the last `f` layer.
/// `successors(node)` yields `(successor, edge cost)` pairs; `success(node)` recognises a goal.
///
/// # Contract
///
/// - If `heuristic` never overestimates the cheapest cost to a goal (it is *admissible*), the
///   path found is optimal. The goal test happens on expansion, which this needs.
/// - An admissible but inconsistent heuristic still gives optimal paths: a node reached more
///   cheaply after its expansion is reopened.
/// - The path includes `start` and the goal; `cost` is the sum of its edge costs.
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) means no goal is reachable; a limit gives
///   [`Outcome::Stopped`](crate::Outcome::Stopped). [`Limits::max_depth`] is ignored.
///
/// Memory: one record, one hash-map entry and one or more open-list entries per node reached.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, Outcome, astar};
///
/// let successors = |n: &char| match n {
///     'a' => vec![('b', 2), ('c', 5)],
///     'b' => vec![('c', 1), ('d', 7)],
///     'c' => vec![('d', 2)],
///     _ => vec![],
/// };
/// // Never more than the true remaining cost (a: 5, b: 3, c: 2).
/// let heuristic = |n: &char| match n {
///     'a' => 4,
///     'b' => 3,
///     'c' => 2,
///     _ => 0u32,
/// };
/// let report = astar(&'a', successors, heuristic, |&n| n == 'd', &Limits::default(), ());
/// assert_eq!(report.outcome, Outcome::Found { path: vec!['a', 'b', 'c', 'd'], cost: 5 });
/// ```
#[inline]
pub fn astar<N, C, FN, IN, FH, FS, O>(
    start: &N,
    successors: FN,
    heuristic: FH,
    success: FS,
    limits: &Limits,
    observer: O,
) -> Report<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
    O: Observer<N, C>,
{
    let strategy = Strategy { priority: |g: C, h: C| (Reverse(g + h), g), reopen: true };
    best_first(start, successors, heuristic, success, strategy, limits, observer)
}

#[cfg(test)]
mod tests {
    use super::astar;
    use crate::{Limits, Outcome};

    /// A 1-D corridor 0..=20; moving costs 1 each way.
    fn corridor(&n: &i32) -> impl Iterator<Item = (i32, u16)> + use<> {
        [n - 1, n + 1].into_iter().filter(|m| (0..=20).contains(m)).map(|m| (m, 1))
    }

    #[test]
    fn perfect_heuristic_expands_only_the_path() {
        let report = astar(
            &3,
            corridor,
            |&n| (17 - n).unsigned_abs() as u16,
            |&n| n == 17,
            &Limits::default(),
            (),
        );
        assert_eq!(report.cost(), Some(14));
        assert_eq!(report.path().map(<[i32]>::len), Some(15));
        // Larger g first among equal f: no detour is ever expanded.
        assert_eq!(report.stats.expanded, 14);
    }

    #[test]
    fn start_that_is_a_goal_costs_nothing() {
        let report = astar(&5, corridor, |_| 0u16, |&n| n == 5, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::Found { path: vec![5], cost: 0 });
        assert_eq!(report.stats.expanded, 0);
    }

    #[test]
    fn unreachable_goal_is_not_found() {
        let report = astar(&5, corridor, |_| 0u16, |&n| n == 50, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::NotFound);
        assert_eq!(report.stats.expanded, 21);
    }
}
