//! Greedy best-first search.

use core::cmp::Reverse;
use core::hash::Hash;

use crate::best_first::{Strategy, best_first};
use crate::{Cost, Limits, Observer, Report};

/// Finds SOME path with greedy best-first search: always expands the open node with the
/// smallest `heuristic`, ignoring the cost so far.
///
/// Often the fastest way to any solution, with no bound on how long it is. `successors(node)`
/// yields `(successor, edge cost)` pairs; `success(node)` recognises a goal.
///
/// # Contract
///
/// - The path is valid (it includes `start` and the goal, and `cost` is its cost) but not
///   necessarily optimal, whatever the heuristic.
/// - Each node is expanded at most once (closed set); a cheaper route to a node that is still
///   open replaces its parent.
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) means no goal is reachable.
///   [`Limits::max_depth`] is ignored.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, greedy};
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
/// let report = greedy(&'a', successors, heuristic, |&n| n == 'd', &Limits::default(), ());
/// // `c` looks closest, so greedy goes straight there: valid but not the cheapest (5).
/// assert_eq!(report.path(), Some(&['a', 'c', 'd'][..]));
/// assert_eq!(report.cost(), Some(7));
/// ```
#[inline]
pub fn greedy<N, C, FN, IN, FH, FS, O>(
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
    let strategy = Strategy { priority: |_: C, h: C| Reverse(h), reopen: false };
    best_first(start, successors, heuristic, success, strategy, limits, observer)
}

#[cfg(test)]
mod tests {
    use super::greedy;
    use crate::Limits;

    #[test]
    fn follows_the_heuristic_into_a_detour() {
        // From 0, the heuristic lures the search up to 9 before it can reach the goal 1.
        let successors = |&n: &u8| match n {
            0 => vec![(1, 1u32), (5, 1)],
            5..=8 => vec![(n + 1, 1)],
            9 => vec![(1, 1)],
            _ => vec![],
        };
        let heuristic = |&n: &u8| if n == 1 { 0 } else { u32::from(10 - n) };
        let report = greedy(&0, successors, heuristic, |&n| n == 1, &Limits::default(), ());
        assert_eq!(report.path(), Some(&[0, 1][..]));

        assert_eq!(report.stats.expanded, 1);

        let lure = |&n: &u8| if n == 1 { 9 } else { u32::from(10 - n.min(9)) };
        let report = greedy(&0, successors, lure, |&n| n == 1, &Limits::default(), ());
        assert_eq!(report.path(), Some(&[0, 1][..]));
        assert_eq!(report.stats.expanded, 6, "0 and the whole lure 5..=9");
    }

    #[test]
    fn a_cheaper_route_to_an_open_node_replaces_its_parent() {
        let successors = |&n: &u8| match n {
            0 => vec![(1, 10u32), (2, 1)],
            2 => vec![(1, 1)],
            1 => vec![(3, 1)],
            _ => vec![],
        };
        let heuristic = |&n: &u8| [9, 5, 0, 0][usize::from(n)];
        let report = greedy(&0, successors, heuristic, |&n| n == 3, &Limits::default(), ());
        assert_eq!(report.path(), Some(&[0, 2, 1, 3][..]));
        assert_eq!(report.cost(), Some(3));
    }
}
