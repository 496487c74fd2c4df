//! What `auto` (and every explicit request) runs: a pure function from the board's shape
//! and the options to a [`Plan`], with no engine in sight, so the policy is tested on its
//! own and written once.

use std::time::Duration;

use npuzzle_core::Size;

use crate::engine::exact;
use crate::error::SolveError;
use crate::heuristic::HeuristicKind;
use crate::options::{Algorithm, Heuristic, Options};

/// How long `auto` lets IDA* try for a proven optimum on boards of 13 to 16 cells before it
/// falls back to a fast non-optimal method (unless `optimal` is asked for).
pub const AUTO_OPTIMAL_BUDGET: Duration = Duration::from_secs(5);

/// Boards up to this many cells are solved optimally by `auto` with IDA* + linear conflict.
const AUTO_IDA_CELLS: usize = 12;

/// Boards up to this many cells get a bounded optimal attempt from `auto` first.
const AUTO_TRY_CELLS: usize = 16;

/// Boards up to this many cells (5x5) get a short weighted A* from `auto` before the
/// reduction solver: on Korf's first 24-puzzle instance it answers 129 moves in 0.02 s where
/// the reduction solver answers 203.
const AUTO_WASTAR_CELLS: usize = 25;

/// The longest weighted A* attempt `auto` makes on boards of 17 to 25 cells. Measured on
/// random 5x5 boards (`scramble -s 5x5`): w = 2 answers within a second about half the time,
/// in 110 to 140 moves where the reduction solver takes 160 to 220.
const AUTO_WASTAR_BUDGET: Duration = Duration::from_secs(1);

/// Boards from this many cells (5x5) to [`AUTO_NEAR_MAX_CELLS`] are answered by `auto` with
/// the near-optimal engine ([`crate::engine::near`]).
pub const AUTO_NEAR_MIN_CELLS: usize = 25;

/// The largest boards (10x10) `auto` gives the near-optimal engine; beyond, the reduction
/// solver.
pub const AUTO_NEAR_MAX_CELLS: usize = 100;

/// The share of the caller's timeout an attempt of `auto` may use before the next step:
/// the fallbacks (weighted A*, the reduction solver) answer well within the rest.
const AUTO_ATTEMPT_SHARE: f64 = 0.8;

/// A node-by-node search an engine runs (never `auto`, the table or the reduction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchAlgorithm {
    /// Breadth-first search.
    Bfs,
    /// Graph depth-first search.
    Dfs,
    /// Iterative-deepening depth-first search.
    Iddfs,
    /// Uniform-cost search.
    Dijkstra,
    /// Greedy best-first search.
    Greedy,
    /// A*.
    AStar,
    /// Weighted A*.
    WAStar,
    /// IDA*.
    IdaStar,
}

impl SearchAlgorithm {
    /// The [`Algorithm`] it is.
    pub fn algorithm(self) -> Algorithm {
        match self {
            SearchAlgorithm::Bfs => Algorithm::Bfs,
            SearchAlgorithm::Dfs => Algorithm::Dfs,
            SearchAlgorithm::Iddfs => Algorithm::Iddfs,
            SearchAlgorithm::Dijkstra => Algorithm::Dijkstra,
            SearchAlgorithm::Greedy => Algorithm::Greedy,
            SearchAlgorithm::AStar => Algorithm::AStar,
            SearchAlgorithm::WAStar => Algorithm::WAStar,
            SearchAlgorithm::IdaStar => Algorithm::IdaStar,
        }
    }

    /// The search an explicit [`Algorithm`] names, if it names one.
    pub fn of(algorithm: Algorithm) -> Option<SearchAlgorithm> {
        Some(match algorithm {
            Algorithm::Bfs => SearchAlgorithm::Bfs,
            Algorithm::Dfs => SearchAlgorithm::Dfs,
            Algorithm::Iddfs => SearchAlgorithm::Iddfs,
            Algorithm::Dijkstra => SearchAlgorithm::Dijkstra,
            Algorithm::Greedy => SearchAlgorithm::Greedy,
            Algorithm::AStar => SearchAlgorithm::AStar,
            Algorithm::WAStar => SearchAlgorithm::WAStar,
            Algorithm::IdaStar => SearchAlgorithm::IdaStar,
            Algorithm::Auto | Algorithm::Table | Algorithm::Reduction | Algorithm::Near => {
                return None;
            }
        })
    }
}

/// One method to try.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The exact distance table (at most 9 cells).
    Table,
    /// A search.
    Search {
        /// Which search.
        algorithm: SearchAlgorithm,
        /// Its heuristic (`None` for uninformed searches).
        heuristic: Option<HeuristicKind>,
        /// Weighted A*'s weight (1 for every other search).
        weight: f64,
        /// A time of its own, after which the plan moves on to the next step (within the
        /// caller's limits, which always hold).
        budget: Option<Duration>,
    },
    /// The reduction solver; with `improve`, its anytime mode until the timeout.
    Reduction {
        /// Spend the timeout improving the answer.
        improve: bool,
    },
    /// The near-optimal engine ([`crate::engine::near`]); with `improve`, its anytime mode until
    /// the timeout.
    Near {
        /// Spend the timeout improving the answer.
        improve: bool,
    },
}

/// The steps to try in order: the first that solves the board answers; one stopped by the
/// caller's own limits ends the plan; one that runs out of its own budget hands over to the
/// next.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The steps, at least one.
    pub steps: Vec<Step>,
}

/// The heuristic `auto` picks for `cells` cells.
fn auto_heuristic(_cells: usize) -> HeuristicKind {
    HeuristicKind::LinearConflict
}

/// The heuristic an informed search uses under `options`.
fn heuristic_for(options: &Options, cells: usize) -> HeuristicKind {
    match options.heuristic {
        Heuristic::Auto => auto_heuristic(cells),
        Heuristic::Hamming => HeuristicKind::Hamming,
        Heuristic::Manhattan => HeuristicKind::Manhattan,
        Heuristic::LinearConflict => HeuristicKind::LinearConflict,
        // The table heuristics run on their own engines (see `solve_with`); a request that
        // reaches the line-table engines without its tables gets linear conflict.
        Heuristic::WalkingDistance | Heuristic::Pdb => HeuristicKind::LinearConflict,
    }
}

/// `attempt`, cut to the share of the caller's timeout that leaves the next steps time.
pub(crate) fn attempt_budget(attempt: Duration, options: &Options) -> Duration {
    options.limits.timeout.map_or(attempt, |t| attempt.min(t.mul_f64(AUTO_ATTEMPT_SHARE)))
}

/// The plan for a board of `size` under `options`.
///
/// With [`Algorithm::Auto`]:
/// - at most 9 cells (3x3, 2x4, ...): the exact distance table;
/// - at most 12 cells: IDA* with linear conflict (optimal);
/// - 13 to 16 cells (4x4, ...): IDA* with linear conflict for up to
///   `options.optimal_attempt` ([`AUTO_OPTIMAL_BUDGET`] by default), then weighted A*, then
///   the reduction solver;
/// - 17 to 24 cells (4x5, ...): weighted A* for up to a second, then the reduction solver;
/// - 25 to 100 cells (5x5 to 10x10, any shape): the near-optimal engine (with
///   `options.improve`, its anytime mode);
/// - anything larger: the reduction solver (with `options.improve`, its anytime mode).
///
/// An attempt that hands over to a next step never takes more than 80% of
/// `options.limits.timeout`, so that a tight limit still gets an answer.
///
/// With `options.optimal`, `auto` uses IDA* with linear conflict on every size above 9
/// cells. An explicit
/// algorithm is a plan of one step.
///
/// # Errors
/// [`SolveError::Weight`] for a weight below 1 or not finite, and
/// [`SolveError::TableTooLarge`] for the table on more than 9 cells, and
/// [`SolveError::NearTooLarge`] for the near-optimal engine above [`crate::engine::near::MAX_CELLS`].
pub fn plan(size: Size, options: &Options) -> Result<Plan, SolveError> {
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::Weight(options.weight));
    }
    let cells = size.cells();
    let search = |algorithm: SearchAlgorithm, budget| {
        let informed = algorithm.algorithm().is_informed();
        let weight = if algorithm == SearchAlgorithm::WAStar { options.weight } else { 1.0 };
        Step::Search {
            algorithm,
            heuristic: informed.then(|| heuristic_for(options, cells)),
            weight,
            budget,
        }
    };
    let steps = match options.algorithm {
        Algorithm::Table if cells > exact::MAX_CELLS => {
            return Err(SolveError::TableTooLarge(cells));
        }
        Algorithm::Table => vec![Step::Table],
        Algorithm::Reduction => vec![Step::Reduction { improve: options.improve }],
        Algorithm::Near if cells > crate::engine::near::MAX_CELLS => {
            return Err(SolveError::NearTooLarge(cells));
        }
        Algorithm::Near => vec![Step::Near { improve: options.improve }],
        // The table is exact, so it serves `optimal` too.
        Algorithm::Auto if cells <= exact::MAX_CELLS => vec![Step::Table],
        Algorithm::Auto if options.optimal || cells <= AUTO_IDA_CELLS => {
            vec![search(SearchAlgorithm::IdaStar, None)]
        }
        Algorithm::Auto if cells <= AUTO_TRY_CELLS => {
            let attempt = options.optimal_attempt.unwrap_or(AUTO_OPTIMAL_BUDGET);
            vec![
                search(SearchAlgorithm::IdaStar, Some(attempt_budget(attempt, options))),
                search(SearchAlgorithm::WAStar, None),
                Step::Reduction { improve: false },
            ]
        }
        Algorithm::Auto
            if (AUTO_NEAR_MIN_CELLS..=AUTO_NEAR_MAX_CELLS).contains(&cells) && !options.optimal =>
        {
            vec![Step::Near { improve: options.improve }]
        }
        Algorithm::Auto if cells <= AUTO_WASTAR_CELLS => {
            let budget = attempt_budget(AUTO_WASTAR_BUDGET, options);
            vec![
                search(SearchAlgorithm::WAStar, Some(budget)),
                Step::Reduction { improve: options.improve },
            ]
        }
        Algorithm::Auto => vec![Step::Reduction { improve: options.improve }],
        explicit => {
            let Some(algorithm) = SearchAlgorithm::of(explicit) else {
                unreachable!("auto, table, reduction and near are matched above")
            };
            vec![search(algorithm, None)]
        }
    };
    Ok(Plan { steps })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    fn ida(budget: Option<Duration>) -> Step {
        Step::Search {
            algorithm: SearchAlgorithm::IdaStar,
            heuristic: Some(HeuristicKind::LinearConflict),
            weight: 1.0,
            budget,
        }
    }

    #[test]
    fn auto_picks_by_cell_count() {
        let auto = Options::default();
        for (w, h) in [(2, 2), (3, 3), (2, 4), (4, 2)] {
            assert_eq!(plan(size(w, h), &auto).unwrap().steps, [Step::Table], "{w}x{h}");
        }
        for (w, h) in [(2, 5), (3, 4), (4, 3), (2, 6)] {
            assert_eq!(plan(size(w, h), &auto).unwrap().steps, [ida(None)], "{w}x{h}");
        }
        let fallback = vec![
            ida(Some(AUTO_OPTIMAL_BUDGET)),
            Step::Search {
                algorithm: SearchAlgorithm::WAStar,
                heuristic: Some(HeuristicKind::LinearConflict),
                weight: 2.0,
                budget: None,
            },
            Step::Reduction { improve: false },
        ];
        assert_eq!(plan(size(4, 4), &auto).unwrap().steps, fallback);
        assert_eq!(plan(size(2, 8), &auto).unwrap().steps, fallback);
        let wastar = |budget| Step::Search {
            algorithm: SearchAlgorithm::WAStar,
            heuristic: Some(HeuristicKind::LinearConflict),
            weight: 2.0,
            budget: Some(budget),
        };
        for (w, h) in [(3, 6), (4, 5), (2, 12)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            let want = [wastar(AUTO_WASTAR_BUDGET), Step::Reduction { improve: false }];
            assert_eq!(steps, want, "{w}x{h}");
        }
        for (w, h) in [(5, 5), (6, 5), (2, 13), (6, 6), (7, 7), (10, 10), (20, 5)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            assert_eq!(steps, [Step::Near { improve: false }], "{w}x{h}");
        }
        for (w, h) in [(11, 10), (16, 16), (100, 100)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            assert_eq!(steps, [Step::Reduction { improve: false }], "{w}x{h}");
        }
    }

    #[test]
    fn the_optimal_attempt_leaves_the_fallbacks_a_fifth_of_the_timeout() {
        let within = |secs| Options {
            limits: crate::Limits {
                timeout: Some(Duration::from_secs_f64(secs)),
                ..Default::default()
            },
            ..Options::default()
        };
        let budget = |options: &Options| match plan(size(4, 4), options).unwrap().steps[0] {
            Step::Search { budget, .. } => budget,
            _ => None,
        };
        assert_eq!(budget(&within(2.0)), Some(Duration::from_secs_f64(1.6)));
        assert_eq!(budget(&within(60.0)), Some(AUTO_OPTIMAL_BUDGET));
        // The attempt grows with the time the caller allows it.
        let patient = Options { optimal_attempt: Some(Duration::from_secs(24)), ..within(30.0) };
        assert_eq!(budget(&patient), Some(Duration::from_secs(24)));
        let greedy = Options { optimal_attempt: Some(Duration::from_secs(100)), ..within(30.0) };
        assert_eq!(budget(&greedy), Some(Duration::from_secs(24)));
    }

    #[test]
    fn optimal_and_improve_change_auto() {
        let optimal = Options { optimal: true, ..Options::default() };
        assert_eq!(plan(size(3, 3), &optimal).unwrap().steps, [Step::Table]);
        for (w, h) in [(3, 4), (4, 4), (5, 5)] {
            assert_eq!(plan(size(w, h), &optimal).unwrap().steps, [ida(None)], "{w}x{h}");
        }
        let improve = Options { improve: true, ..Options::default() };
        assert_eq!(plan(size(9, 9), &improve).unwrap().steps, [Step::Near { improve: true }]);
        assert_eq!(
            plan(size(12, 12), &improve).unwrap().steps,
            [Step::Reduction { improve: true }]
        );
    }

    #[test]
    fn explicit_algorithms_are_one_step_with_their_heuristic() {
        let of = |algorithm, heuristic| Options { algorithm, heuristic, ..Options::default() };
        let steps = plan(size(3, 3), &of(Algorithm::Bfs, Heuristic::Manhattan)).unwrap().steps;
        assert_eq!(
            steps,
            [Step::Search {
                algorithm: SearchAlgorithm::Bfs,
                heuristic: None,
                weight: 1.0,
                budget: None
            }]
        );
        let steps = plan(size(4, 4), &of(Algorithm::WAStar, Heuristic::Hamming)).unwrap().steps;
        assert_eq!(
            steps,
            [Step::Search {
                algorithm: SearchAlgorithm::WAStar,
                heuristic: Some(HeuristicKind::Hamming),
                weight: 2.0,
                budget: None
            }]
        );
        assert_eq!(
            plan(size(7, 7), &of(Algorithm::Reduction, Heuristic::Auto)).unwrap().steps,
            [Step::Reduction { improve: false }]
        );
    }

    #[test]
    fn bad_requests_are_refused() {
        let table = Options { algorithm: Algorithm::Table, ..Options::default() };
        assert_eq!(plan(size(3, 4), &table), Err(SolveError::TableTooLarge(12)));
        let near = Options { algorithm: Algorithm::Near, ..Options::default() };
        assert_eq!(plan(size(13, 12), &near), Err(SolveError::NearTooLarge(156)));
        assert_eq!(plan(size(3, 3), &near).unwrap().steps, [Step::Near { improve: false }]);
        for weight in [0.5, f64::NAN, f64::INFINITY] {
            let options = Options { algorithm: Algorithm::WAStar, weight, ..Options::default() };
            assert!(matches!(plan(size(3, 3), &options), Err(SolveError::Weight(_))));
        }
    }
}
