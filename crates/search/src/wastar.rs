//! Weighted A* (Pohl 1970).

use core::cmp::Reverse;
use core::hash::Hash;

use crate::best_first::{Strategy, best_first};
use crate::{Cost, Limits, Observer, Report};

/// Fixed-point scale of the weight: priorities are `g * SCALE + round(weight * SCALE) * h`.
const SCALE: u64 = 1024;

/// Finds a path at most `weight` times the cheapest with weighted A* (Pohl, 1970).
///
/// Like [`astar`](crate::astar) but expands nodes in order of `g + weight * h`: the heuristic
/// counts more, so the search dives toward the goal and usually expands far fewer nodes. The
/// weight is converted to fixed point (1/1024 steps) so priorities stay exact `u64` integers
/// (`g * 1024 + round(weight * 1024) * h`, saturating). Ties prefer the larger `g`, as in A*.
///
/// # Contract
///
/// - With an admissible `heuristic`, the path's cost is at most `weight` times the optimum
///   (nodes reached more cheaply are reopened, which keeps this bound for inconsistent
///   heuristics too). `weight = 1` is A*.
/// - The path includes `start` and the goal; `cost` is its real cost (unweighted).
/// - [`Outcome::NotFound`](crate::Outcome::NotFound) means no goal is reachable.
///   [`Limits::max_depth`] is ignored.
///
/// # Panics
///
/// If `weight` is not a finite number `>= 1`.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, wastar};
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
/// let report = wastar(&'a', successors, heuristic, |&n| n == 'd', 2.0, &Limits::default(), ());
/// // The optimum is 5, so weight 2 allows up to 10; on this tiny graph it finds the optimum.
/// assert!(report.cost().is_some_and(|cost| cost <= 2 * 5));
/// assert_eq!(report.path().map(|path| path[0]), Some('a'));
/// ```
#[inline]
pub fn wastar<N, C, FN, IN, FH, FS, O>(
    start: &N,
    successors: FN,
    heuristic: FH,
    success: FS,
    weight: f64,
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
    assert!(
        weight.is_finite() && weight >= 1.0,
        "weighted A* needs a finite weight >= 1, got {weight}"
    );
    // `as` saturates: a huge weight becomes u64::MAX and the products saturate below.
    let scaled = (weight * SCALE as f64).round() as u64;
    let priority = move |g: C, h: C| {
        let f = g.to_u64().saturating_mul(SCALE).saturating_add(h.to_u64().saturating_mul(scaled));
        (Reverse(f), g)
    };
    best_first(
        start,
        successors,
        heuristic,
        success,
        Strategy { priority, reopen: true },
        limits,
        observer,
    )
}

#[cfg(test)]
mod tests {
    use super::wastar;
    use crate::{Limits, astar};

    /// A 12x12 open grid; the Manhattan distance to the far corner is admissible.
    fn grid(&(x, y): &(i8, i8)) -> impl Iterator<Item = ((i8, i8), u32)> + use<> {
        [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            .into_iter()
            .filter(|&(a, b)| (0..12).contains(&a) && (0..12).contains(&b))
            .map(|p| (p, 1))
    }

    fn manhattan(&(x, y): &(i8, i8)) -> u32 {
        (11 - x).unsigned_abs() as u32 + (11 - y).unsigned_abs() as u32
    }

    #[test]
    fn weight_one_is_astar() {
        let goal = |&p: &(i8, i8)| p == (11, 11);
        let a = astar(&(0, 0), grid, manhattan, goal, &Limits::default(), ());
        let w = wastar(&(0, 0), grid, manhattan, goal, 1.0, &Limits::default(), ());
        assert_eq!(a.outcome, w.outcome);
        assert_eq!(a.stats.expanded, w.stats.expanded);
    }

    #[test]
    fn heavier_weight_stays_within_its_bound() {
        let goal = |&p: &(i8, i8)| p == (11, 11);
        for weight in [1.5, 3.0, 1e9] {
            let report = wastar(&(0, 0), grid, manhattan, goal, weight, &Limits::default(), ());
            let cost = f64::from(report.cost().unwrap());
            assert!(cost <= 22.0 * weight, "weight {weight} gave {cost}");
        }
    }

    #[test]
    #[should_panic(expected = "weight >= 1")]
    fn weight_below_one_panics() {
        let _ = wastar(&(0, 0), grid, manhattan, |_| true, 0.5, &Limits::default(), ());
    }
}
