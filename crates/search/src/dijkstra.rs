//! Dijkstra's algorithm (uniform-cost search).

use core::cmp::Reverse;
use core::hash::Hash;

use crate::best_first::{Strategy, best_first};
use crate::{Cost, Limits, Observer, Report};

/// Finds a cheapest path with Dijkstra's algorithm (uniform-cost search): A* without a
/// heuristic, expanding nodes in order of their cost `g` from `start`.
///
/// `successors(node)` yields `(successor, edge cost)` pairs; `success(node)` recognises a goal.
///
/// # Contract
///
/// - The path found is optimal (goal tested on expansion); it includes `start` and the goal.
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) means no goal is reachable.
/// - [`Limits::max_depth`] is ignored; the observer sees `h = 0`.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, dijkstra};
///
/// let successors = |n: &char| match n {
///     'a' => vec![('b', 2), ('c', 5)],
///     'b' => vec![('c', 1), ('d', 7)],
///     'c' => vec![('d', 2)],
///     _ => vec![],
/// };
/// let report = dijkstra(&'a', successors, |&n| n == 'd', &Limits::default(), ());
/// assert_eq!(report.path(), Some(&['a', 'b', 'c', 'd'][..]));
/// assert_eq!(report.cost(), Some(5u8));
/// ```
#[inline]
pub fn dijkstra<N, C, FN, IN, FS, O>(
    start: &N,
    successors: FN,
    success: FS,
    limits: &Limits,
    observer: O,
) -> Report<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FS: FnMut(&N) -> bool,
    O: Observer<N, C>,
{
    // With a zero heuristic no expanded node is ever reached more cheaply, so reopening is moot.
    let strategy = Strategy { priority: |g: C, _| Reverse(g), reopen: false };
    best_first(start, successors, |_: &N| C::default(), success, strategy, limits, observer)
}

#[cfg(test)]
mod tests {
    use super::dijkstra;
    use crate::Limits;

    #[test]
    fn prefers_many_cheap_edges_to_one_expensive_edge() {
        let successors = |&n: &u32| {
            let mut next = vec![(n + 1, 1u64)];
            if n == 0 {
                next.push((10, 11));
            }
            next.into_iter().filter(|&(m, _)| m <= 10)
        };
        let report = dijkstra(&0, successors, |&n| n == 10, &Limits::default(), ());
        assert_eq!(report.cost(), Some(10));
        assert_eq!(report.path().map(<[u32]>::len), Some(11));
    }

    #[test]
    fn zero_cost_edges_are_fine() {
        let successors =
            |&n: &u8| [(n.saturating_add(1), 0u8)].into_iter().filter(|&(m, _)| m <= 5);
        let report = dijkstra(&0, successors, |&n| n == 5, &Limits::default(), ());
        assert_eq!(report.cost(), Some(0));
        assert_eq!(report.path(), Some(&[0, 1, 2, 3, 4, 5][..]));
    }
}
