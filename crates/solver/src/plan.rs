//! Which engine answers a request: the one place that decides, for every request and every
//! front end. A pure function from the board's shape, the options, what the solver holds or
//! can get ([`Resources`]: pattern databases, Korf & Felner's 24-puzzle tables, walking
//! distance) and how much of the search the caller watches ([`Nodes`]) to a [`Plan`], with no
//! engine in sight, so the policy is tested on its own and written once. The run loop
//! ([`crate::run`]) executes the plan's steps and their fallbacks.

use std::time::Duration;

use npuzzle_core::Size;

use crate::engine::exact;
use crate::error::SolveError;
use crate::heuristic::HeuristicKind;
use crate::options::{Algorithm, Heuristic, Options};
use crate::watch::Nodes;

/// How long `auto` lets IDA* try for a proven optimum on boards of 13 to 16 cells before it
/// falls back to a fast non-optimal method (unless `optimal` is asked for).
pub const AUTO_OPTIMAL_BUDGET: Duration = Duration::from_secs(5);

/// Boards up to this many cells are solved optimally by `auto` with IDA* + linear conflict.
const AUTO_IDA_CELLS: usize = 12;

/// Boards up to this many cells get a bounded optimal attempt from `auto` first; when it
/// gives up, the near-optimal engine answers in the time left, then weighted A* if it found
/// nothing (weighted A*, w = 2, answered alone before:
/// on `15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0`, whose optimum is 70, weighted A* answers 90
/// moves at once, the engine 86 in 0.4 s and 70 in 1 s; of ten seeded 2x8 boards
/// (`scramble --size 2x8 --count 10 --seed 19`, `bench --timeout 10`), the one that IDA*
/// over the 6-6-3 database did not solve in its 5 s got 106 moves from weighted A*, 100 from
/// the engine, in 6.3 s in all).
const AUTO_TRY_CELLS: usize = 16;

/// Boards up to this many cells (16x16) get an answer from `auto` whatever the timeout: the
/// reduction solver, its last step on them, answers these in milliseconds (seeded boards,
/// `solve --algorithm reduction`: 5x5 0.3 ms, 10x10 1.7 ms, 16x16 5.2 ms), so it runs
/// whatever time the steps before it left, without its beams when none is left, and a step
/// before it that reaches the time limit hands over to it (see `run::solve`). A timeout the
/// earlier steps used up (a loaded machine; tables loaded or built in the solve's time: 0.17
/// s for Korf & Felner's on 5x5) gave a limit before, with no answer.
pub(crate) const LAST_RESORT_CELLS: usize = 256;

/// Boards from this many cells (4x5, 3x6, 2x9) to [`AUTO_NEAR_MAX_CELLS`] are answered by
/// `auto` with the near-optimal engine ([`crate::engine::near`]). From 17 to 24 cells `auto`
/// gave weighted A* (w = 2) a second, then the reduction solver: ten seeded boards of each
/// size (`scramble --size 4x5 --count 10 --seed 19`, `bench FILE --threads 2 --timeout 10`,
/// against `--algorithm near`), 4x5 96.7 moves against 75.1 from the engine, 4x6 125.7
/// against 97.1, 3x6 88.2 against 69.8, 3x7 136.6 against 93.4, 3x8 176.0 against 118.0,
/// 2x9 158.6 against 108.6, 2x10 177.8 against 123.4, 2x12 280.4 against 180.2 (0.64 to
/// 0.79 of the length), in a median of 0.8 to 2.5 s a board against 0.01 to 1 s, with lower
/// bounds a sixth to a quarter higher (4x5 67.3 against 55.1).
pub const AUTO_NEAR_MIN_CELLS: usize = 17;

/// The largest boards (16x16) `auto` gives the near-optimal engine's plain solve, which takes
/// up to 64x64 ([`crate::engine::near::MAX_CELLS`]) and plans 26 s up to 48x48, 50 s beyond;
/// beyond 16x16, up to 64 cells a side, a short one of a second or a few
/// ([`AUTO_NEAR_QUICK_SIDE`], [`auto_near_quick_budget`]; on 32x32, `scramble --seed 19`,
/// first board: 38,483 moves in 1 s, 36,365 with a timeout of 5 s, 35,933 with 8 s, against
/// 51,447 from the reduction solver and its beams), and beyond the reduction solver, unless
/// the caller gives the time (`improve`): then `auto` takes the engine's anytime mode up to
/// 64x64 (32x32, `--improve 10`: 35,389 moves in 8.4 s against 50,519 from the reduction
/// solver's anytime mode), and from 10 s up to 128x128 ([`AUTO_PEELED_IMPROVE`]). On
/// 13x13 to 16x16 the engine's answers are 27 to 29 % shorter than the reduction solver's,
/// in 26 to 46 s (medians; README, issue 19's figures: 10 seeded boards of each size; since
/// then 15x15 and 16x16 take one beam, in 6.5 and 8.5 s: see the engine's `BIG_CELLS`). On
/// 11x11 and 12x12 the engine's answers are a fifth to a quarter shorter than the reduction
/// solver's (with its two beams) within 5 s (`solve --algorithm near --timeout 5` on
/// `scramble --size 11x11`, `12x12`, `12x11`, `9x16`, seeds 1 and 2: 1,437 to 2,127 moves
/// against 1,879 to 2,828); with a second or two it could be longer (2,762 against 2,498 on
/// 12x12, seed 1), and then `auto` answers with the reduction solver's (since the engine
/// runs one beam there when less than 2.5 s are left, 12x12 within 1 s: 1,846 to 2,058
/// moves, seeds 1 to 3).
pub const AUTO_NEAR_MAX_CELLS: usize = 256;

/// Boards of more than 256 cells (`AUTO_NEAR_MAX_CELLS`) with both sides at most this long
/// (17x17 to 64x64, and shapes such as 48x8) get the near-optimal engine from `auto` for a
/// short time ([`auto_near_quick_budget`]: half a second on 20x20, a second on 32x32, 7.6 s
/// on 48x48), then the reduction solver, the shorter answer kept. In that time the engine's
/// one beam, which keeps to it, reaches the goal. Mean lengths on seeded boards (`scramble
/// --count 20 --seed 19` for 20x20, 24x24 and 32x32, `--count 6` for the others), `auto`
/// against `auto` before (the reduction solver and its two beams): 20x20 9,102.0 against
/// 12,261.2 (0.74), 24x24 15,711.3 against 21,480.1 (0.73), 32x32 38,562.1 against 51,486.6
/// (0.75; 1.77 times the Manhattan distance, in 1 s against 0.4 s), 36x36 0.73, 40x40
/// 73,883.0 against 102,762.3 (0.72, in 3.1 s against 0.8 s), 44x44 0.70, 48x48 125,900.5
/// against 181,056.2 (0.70, in 7.7 s against 1.4 s), 48x8 0.70; `--algorithm near` within
/// the budget on other shapes: 32x16 0.73, 32x9 0.77, 40x16 0.72, 48x36 0.72, 48x24 0.74,
/// 48x12 0.73.
/// With less time the beams are too narrow to get through, and the reduction
/// solver finishes them: 32x32 within 0.5 s, 40x40 within 1 s and 48x48 within 2 s came to
/// 1.04, 1.03 and 1.03 times `auto`'s lengths, and 48x48 within 5 s to 0.84 (before the
/// engine peeled boards down to what the time allows). Strips need more time than their
/// cells say (see [`auto_near_quick_budget`]); beyond 64 cells a side, within a second,
/// 128x8 1.05 and 256x4 1.07. From 49 to 64 cells a side the engine gets at most 48x48's 7.6 s, and peels the
/// board down to about a 48x48 region first (the reduction solver brings the other tiles
/// home; see the engine's `region_for`): three seeded boards each, `--algorithm near
/// --timeout 7.6` against `auto` before, 56x56 241,305.3 against 295,772.0 (0.82), 64x64
/// 399,043.0 against 446,569.0 (0.89), 64x32 (not peeled) 110,814.3 against 163,530.3
/// (0.68).
pub const AUTO_NEAR_QUICK_SIDE: usize = 64;

/// The longest [`auto_near_quick_budget`]: 48x48's.
const AUTO_NEAR_QUICK_MAX: f64 = 7.6;

/// The time `auto` gives the near-optimal engine on a board of `size` that
/// [`AUTO_NEAR_QUICK_SIDE`] lets it take beyond 256 cells, counting the cells of a square of
/// its mean side (`((w + h) / 2)^2`: a strip's tiles go farther than a square's of as many
/// cells; three seeded boards each, 64x16 within 1 s 0.99 of `auto`'s lengths before and
/// within 3.05 s 0.67, 64x8 within 0.5 s 0.99 and within 1.8 s 0.67): up to 1,024 such
/// cells (32x32) as many seconds as `cells / 1024`, at least half a second; beyond, that
/// ratio to the power 2.5
/// (the path grows as the cells to the power 1.5, and the widths that go through with
/// them): 3.05 s on 40x40, 7.6 s on 48x48 (see [`AUTO_NEAR_QUICK_SIDE`] for what less gave),
/// and no more beyond.
#[must_use]
pub fn auto_near_quick_budget(size: Size) -> Duration {
    // A square of the board's mean side: strips need longer than their cells say.
    let side = (size.width() + size.height()) as f64 / 2.0;
    let ratio = side * side / 1024.0;
    let seconds = if ratio <= 1.0 { ratio.max(0.5) } else { ratio.powf(2.5) };
    let seconds = seconds.min(AUTO_NEAR_QUICK_MAX);
    Duration::from_secs_f64(seconds)
}

/// Whether `timeout`, the near-optimal engine's time in a plan for a board of `size` under
/// `limits`, is `auto`'s quick budget ([`auto_near_quick_budget`]) rather than a share of the
/// caller's time limit: then that budget, not the caller's limit, bounded the engine.
pub(crate) fn quick_budget_binds(
    size: Size,
    limits: &crate::Limits,
    timeout: Option<Duration>,
) -> bool {
    let quick = auto_near_quick_budget(size);
    size.cells() > AUTO_NEAR_MAX_CELLS
        && timeout == Some(quick)
        && limits.timeout.is_none_or(|t| t.mul_f64(AUTO_ATTEMPT_SHARE) > quick)
}

/// The largest boards (4x4) `auto`'s IDA* takes a pattern database from the solver's store
/// for: beyond, the store's small partition is too weak to answer in time (the 24-puzzle's
/// optimal search has tables of its own). A database the caller gives the solver serves any
/// size.
pub const AUTO_DB_CELLS: usize = 16;

/// Boards of more than 256 cells (`AUTO_NEAR_MAX_CELLS`) and up to this many (50x50) get
/// [`AUTO_REDUCTION_BEAMS`] beam searches of the reduction solver's anytime mode from `auto`
/// after its first answer, even without `improve`: on 32x32 the first answer comes in
/// about 27 ms and the beams take 4 % off it in about 0.5 s. A number of beams rather than
/// a time, so that the answer is the same on every machine and under every timeout (which
/// only cuts them short). Beyond 50x50 they would take more than a second, and so they do
/// on strips with a side over 100 (`AUTO_REDUCTION_BEAMS_SIDE`; `scramble --seed 1`, with
/// them against without: 100x10 0.95 s, 128x8 1.7 s, 16x128 3.2 s and 256x4 7.4 s, for 3
/// to 5 % fewer moves, where the reduction solver alone takes 0.03 to 0.1 s).
pub const AUTO_REDUCTION_IMPROVE_CELLS: usize = 2500;

/// The longest side of a board that gets `auto`'s [`AUTO_REDUCTION_BEAMS`] (see
/// [`AUTO_REDUCTION_IMPROVE_CELLS`]).
const AUTO_REDUCTION_BEAMS_SIDE: usize = 100;

/// The reduction solver's beams `auto` runs after its first answer on a board of `size`.
fn reduction_beams(size: Size) -> u64 {
    let fits = size.cells() <= AUTO_REDUCTION_IMPROVE_CELLS
        && size.width().max(size.height()) <= AUTO_REDUCTION_BEAMS_SIDE;
    if fits { AUTO_REDUCTION_BEAMS } else { 0 }
}

/// With `improve` and a timeout at least this long, `auto` gives the near-optimal engine
/// boards beyond 64x64 too (up to [`crate::engine::near::MAX_PEELED_CELLS`], 128x128), which
/// the reduction solver peels down to a 64x64 region first: on three seeded 80x80 boards,
/// `--improve 30` gives 2.24 times the Manhattan distance (in 24 s) against 2.55 from the
/// reduction solver's anytime mode, and within 60 s the engine 2.19 against 2.54. With less
/// time the region's beams are too narrow to go through (on 64x64
/// they need about 20 s), and the reduction solver's anytime mode keeps the time. It was 30
/// s; since the engine peels a board down to the region the time allows (the engine's
/// `region_for`), 10 s: `--algorithm near --improve 8` (what `auto --improve 10` gives it)
/// against `auto --improve 10` before, 80x80 (three seeded boards) 840,328.3 against
/// 868,809.7 (0.97), 100x100 (two) 1,695,349.0 against 1,717,182.0 (0.99), 128x128 (two)
/// 3,657,415.5 against 3,654,148.5 (even); 80x80 `--improve 4` against 5, 858,994.3
/// against 870,963.7 (0.99).
pub const AUTO_PEELED_IMPROVE: Duration = Duration::from_secs(10);

/// How many beam searches `auto` runs on boards up to [`AUTO_REDUCTION_IMPROVE_CELLS`].
pub const AUTO_REDUCTION_BEAMS: u64 = 2;

/// The share of the caller's timeout an attempt of `auto` may use before the next step:
/// the fallbacks (the near-optimal engine, which keeps to the time left; weighted A* and the
/// reduction solver, in milliseconds) answer within the rest.
const AUTO_ATTEMPT_SHARE: f64 = 0.8;

/// The share of the caller's timeout by which the near-optimal engine ends when it follows
/// an optimal attempt on boards of 13 to 16 cells: weighted A* or the reduction solver
/// answer in the rest (milliseconds there) when the engine has found nothing.
const AUTO_FALLBACK_SHARE: f64 = 0.95;

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
    /// The reduction solver; with `improve`, its anytime mode until the timeout, else its
    /// first `beams` beam searches.
    Reduction {
        /// Spend the timeout improving the answer.
        improve: bool,
        /// Without `improve`: how many of the anytime mode's beam searches to run after the
        /// first answer (`auto` on boards up to [`AUTO_REDUCTION_IMPROVE_CELLS`]), within the
        /// caller's limits.
        beams: u64,
    },
    /// The near-optimal engine ([`crate::engine::near`]); with `improve`, its anytime mode until
    /// the timeout.
    Near {
        /// Spend the timeout improving the answer.
        improve: bool,
        /// A time of its own (`auto`'s share of the timeout), after which the plan moves on
        /// to the reduction solver.
        budget: Option<Duration>,
    },
    /// Korf & Felner's optimal 24-puzzle search over their 6-6-6-6 tables
    /// ([`crate::engine::twentyfour`]). When the tables cannot be had (a store that does not
    /// build, a cache without them), the plan goes on with its next step; when they cannot
    /// be built within the timeout, the answer is a time limit that says so.
    TwentyFour,
    /// A search over a pattern database: IDA* over it ([`crate::engine::pdb_search`]), or A*,
    /// weighted A* and greedy with it as their heuristic (the generic searches over packed positions). The
    /// database is the one the solver holds, else its store's (cached, or built on demand,
    /// but never for a board at its goal, nor under `auto` for one a quick search answers at
    /// once). When no database can be had, the same search runs with linear conflict, and a
    /// note says so where the request named `pdb`.
    Pdb {
        /// Which search.
        algorithm: SearchAlgorithm,
        /// Weighted A*'s weight (1 for every other search).
        weight: f64,
        /// As [`Step::Search`]'s budget.
        budget: Option<Duration>,
    },
    /// A search with walking distance as its heuristic, over packed positions of up to 32
    /// cells (the generic searches over packed positions).
    WalkingDistance {
        /// Which search.
        algorithm: SearchAlgorithm,
        /// Weighted A*'s weight (1 for every other search).
        weight: f64,
        /// As [`Step::Search`]'s budget.
        budget: Option<Duration>,
    },
}

impl Step {
    /// The algorithm and heuristic this step reports when it runs as planned.
    pub fn labels(self) -> (Algorithm, Option<HeuristicKind>) {
        match self {
            Step::Table => (Algorithm::Table, None),
            Step::Reduction { .. } => (Algorithm::Reduction, None),
            Step::Near { .. } => (Algorithm::Near, Some(HeuristicKind::LinearConflict)),
            Step::Search { algorithm, heuristic, .. } => (algorithm.algorithm(), heuristic),
            Step::TwentyFour => (Algorithm::IdaStar, Some(HeuristicKind::Pdb)),
            Step::Pdb { algorithm, .. } => (algorithm.algorithm(), Some(HeuristicKind::Pdb)),
            Step::WalkingDistance { algorithm, .. } => {
                (algorithm.algorithm(), Some(HeuristicKind::WalkingDistance))
            }
        }
    }

    /// Whether a sampling watcher ([`Nodes::Sampled`]) sees nodes from this step: the packed
    /// engines' A*, Dijkstra, breadth-first search, IDA* and IDDFS on boards of at most 4x4,
    /// and the IDA* over a pattern database (one thread). The table, the reduction solver,
    /// the near-optimal engine, the 24-puzzle's search and the generic engines show none.
    pub fn samples(self, width: usize, height: usize) -> bool {
        let packed = width <= 4 && height <= 4;
        match self {
            Step::Search { algorithm, .. } => {
                packed
                    && matches!(
                        algorithm,
                        SearchAlgorithm::AStar
                            | SearchAlgorithm::Dijkstra
                            | SearchAlgorithm::Bfs
                            | SearchAlgorithm::IdaStar
                            | SearchAlgorithm::Iddfs
                    )
            }
            // Without a database it runs as the same search with linear conflict: IDA* on
            // the packed engine, which samples too.
            Step::Pdb { algorithm: SearchAlgorithm::IdaStar, .. } => true,
            _ => false,
        }
    }
}

/// What the solver holds or can get for one goal besides its own engines: what a plan needs
/// to pick the engines over tables. [`Resources::default`] is none of them (the plan of a
/// bare [`crate::Solver`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Resources {
    /// The solver holds a pattern database that serves the goal (given by the caller).
    pub held_database: bool,
    /// The solver owns a store of pattern databases (cached; built on demand if it may).
    pub store: bool,
    /// The store can give Korf & Felner's 24-puzzle tables for the goal (a 5x5 goal with
    /// its blank in a corner).
    pub twentyfour: bool,
    /// Walking-distance tables exist for the goal (boards of at most 32 cells).
    pub walking_distance: bool,
}

/// The steps to try in order: the first that solves the board answers; one stopped by the
/// caller's own limits ends the plan; one that runs out of its own budget hands over to the
/// next.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The steps, at least one.
    pub steps: Vec<Step>,
}

impl Plan {
    /// Whether a step runs an anytime mode under [`Options::improve`] (the near-optimal
    /// engine's or the reduction solver's): the front ends then give the board their
    /// `--improve` time as its time limit.
    pub fn improves(&self) -> bool {
        self.steps.iter().any(|s| {
            matches!(s, Step::Reduction { improve: true, .. } | Step::Near { improve: true, .. })
        })
    }
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

/// The plan for a board of `size` under `options` on a solver with no tables of its own and
/// an unwatched solve: [`plan_for`] with [`Resources::default`] and [`Nodes::None`].
///
/// # Errors
/// As [`plan_for`].
pub fn plan(size: Size, options: &Options) -> Result<Plan, SolveError> {
    plan_for(size, options, Resources::default(), Nodes::None)
}

/// The plan for a board of `size` under `options`, on a solver with `resources`, for a
/// caller that watches `nodes` of the search.
///
/// With [`Algorithm::Auto`]:
/// - at most 9 cells (3x3, 2x4, ...): the exact distance table (IDA* when the request names
///   `pdb` or `walking-distance`, which the table does not use);
/// - at most 12 cells: IDA* with linear conflict (optimal);
/// - 13 to 16 cells (4x4, ...): IDA* with linear conflict for up to
///   `options.optimal_attempt` ([`AUTO_OPTIMAL_BUDGET`] by default), then the near-optimal
///   engine in the time left, then weighted A*, then the reduction solver;
/// - 17 to 256 cells (4x5 to 16x16, any shape): the near-optimal engine (with
///   `options.improve`, its anytime mode) for up to 80% of the timeout, then the reduction
///   solver (with [`AUTO_REDUCTION_BEAMS`] beams above 100 cells), which also answers when
///   its answer is the shorter (a tight timeout, a slow machine);
/// - with `options.improve`, up to 4,096 cells (64x64, [`crate::engine::near::MAX_CELLS`]),
///   and up to 16,384 (128x128) with a timeout of at least [`AUTO_PEELED_IMPROVE`]: the
///   near-optimal engine's anytime mode for 80% of the timeout, then the reduction solver
///   with [`AUTO_REDUCTION_BEAMS`] beams up to [`AUTO_REDUCTION_IMPROVE_CELLS`], as above;
/// - both sides at most [`AUTO_NEAR_QUICK_SIDE`] (17x17 to 64x64, 48x8, ...): the
///   near-optimal engine for [`auto_near_quick_budget`] (at most 80% of the timeout), then
///   the reduction solver with [`AUTO_REDUCTION_BEAMS`] beams, the shorter answer kept;
/// - up to [`AUTO_REDUCTION_IMPROVE_CELLS`] (50x50) with no side over 100: the reduction solver and
///   [`AUTO_REDUCTION_BEAMS`] beam searches of its anytime mode (with `options.improve`, its
///   anytime mode until the timeout);
/// - anything larger: the reduction solver (with `options.improve`, its anytime mode).
///
/// An attempt that hands over to a next step never takes more than 80% of
/// `options.limits.timeout`, so that a tight limit still gets an answer.
///
/// With `options.optimal`, `auto` uses IDA* with linear conflict on every size above 9
/// cells. An explicit algorithm is a plan of one step. A watcher that wants nodes
/// ([`Nodes::Sampled`], [`Nodes::Every`]) watches `auto` as IDA* on boards of at most 16 cells
/// (or with `optimal`): the optimal search a teacher shows.
///
/// Then the tables the solver has take over:
/// - an optimal answer asked (`optimal`, or IDA* with `pdb`) on a 5x5 goal with a corner
///   blank starts with [`Step::TwentyFour`] when the store can give its tables;
/// - IDA* steps take a pattern database ([`Step::Pdb`]) when the request names `pdb`, or
///   leaves the heuristic to the solver on a board of more than 9 cells and the solver
///   holds a database or (up to 16 cells) has a store; an explicit A*,
///   weighted A* or greedy takes one when the request names `pdb`;
/// - the same steps take walking distance ([`Step::WalkingDistance`]) when the request names
///   it and its tables exist.
///
/// `auto`'s fallbacks (the near-optimal engine, weighted A*, the reduction solver) keep
/// linear conflict.
///
/// # Errors
/// [`SolveError::Weight`] for a weight below 1 or not finite, and
/// [`SolveError::TableTooLarge`] for the table on more than 9 cells, and
/// [`SolveError::NearTooLarge`] for the near-optimal engine above
/// [`crate::engine::near::MAX_PEELED_CELLS`].
pub fn plan_for(
    size: Size,
    options: &Options,
    resources: Resources,
    nodes: Nodes,
) -> Result<Plan, SolveError> {
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::Weight(options.weight));
    }
    let cells = size.cells();
    let watched = nodes != Nodes::None
        && options.algorithm == Algorithm::Auto
        && (cells <= AUTO_TRY_CELLS || options.optimal);
    let algorithm = if watched { Algorithm::IdaStar } else { options.algorithm };
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
    let steps = match algorithm {
        Algorithm::Table if cells > exact::MAX_CELLS => {
            return Err(SolveError::TableTooLarge(cells));
        }
        Algorithm::Table => vec![Step::Table],
        Algorithm::Reduction => vec![Step::Reduction { improve: options.improve, beams: 0 }],
        Algorithm::Near if cells > crate::engine::near::MAX_PEELED_CELLS => {
            return Err(SolveError::NearTooLarge(cells));
        }
        Algorithm::Near => vec![Step::Near { improve: options.improve, budget: None }],
        // The table is exact, so it serves `optimal` too; a heuristic over tables asked for
        // by name gets its IDA* instead (the table uses none).
        Algorithm::Auto
            if cells <= exact::MAX_CELLS
                && !matches!(options.heuristic, Heuristic::Pdb | Heuristic::WalkingDistance) =>
        {
            vec![Step::Table]
        }
        Algorithm::Auto if options.optimal || cells <= AUTO_IDA_CELLS => {
            vec![search(SearchAlgorithm::IdaStar, None)]
        }
        Algorithm::Auto if cells <= AUTO_TRY_CELLS => {
            let attempt = options.optimal_attempt.unwrap_or(AUTO_OPTIMAL_BUDGET);
            // Then the near-optimal engine in the time left (see `AUTO_TRY_CELLS`), all but a
            // twentieth; weighted A* when it has found nothing (it answers in milliseconds,
            // and also when a database built for the attempt took the whole timeout), then
            // the reduction solver.
            let budget = options.limits.timeout.map(|t| t.mul_f64(AUTO_FALLBACK_SHARE));
            vec![
                search(SearchAlgorithm::IdaStar, Some(attempt_budget(attempt, options))),
                Step::Near { improve: false, budget },
                search(SearchAlgorithm::WAStar, None),
                Step::Reduction { improve: false, beams: 0 },
            ]
        }
        Algorithm::Auto
            if (AUTO_NEAR_MIN_CELLS..=AUTO_NEAR_MAX_CELLS).contains(&cells) && !options.optimal =>
        {
            // The reduction solver answers in milliseconds on these boards: what `auto` says
            // when the near-optimal engine has found nothing in its share of the timeout
            // (a loaded machine, a tight limit).
            let budget = options.limits.timeout.map(|t| t.mul_f64(AUTO_ATTEMPT_SHARE));
            // Above 100 cells, what `auto` answered before the near-optimal engine took
            // them: never a longer answer than that.
            let beams = if cells > 100 { AUTO_REDUCTION_BEAMS } else { 0 };
            vec![
                Step::Near { improve: options.improve, budget },
                Step::Reduction { improve: false, beams },
            ]
        }
        Algorithm::Auto
            if options.improve
                && !options.optimal
                && ((AUTO_NEAR_MAX_CELLS..=crate::engine::near::MAX_CELLS).contains(&cells)
                    || (cells <= crate::engine::near::MAX_PEELED_CELLS
                        && options.limits.timeout.is_some_and(|t| t >= AUTO_PEELED_IMPROVE))) =>
        {
            // Beyond 16x16, the engine's anytime mode when the caller gives the time
            // (`improve`); without it, a short plain solve up to 64x64 (the arm below).
            let budget = options.limits.timeout.map(|t| t.mul_f64(AUTO_ATTEMPT_SHARE));
            let beams = reduction_beams(size);
            vec![Step::Near { improve: true, budget }, Step::Reduction { improve: false, beams }]
        }
        Algorithm::Auto
            if cells > AUTO_NEAR_MAX_CELLS
                && size.width().max(size.height()) <= AUTO_NEAR_QUICK_SIDE
                && !options.optimal =>
        {
            // A short plain solve (see `AUTO_NEAR_QUICK_SIDE`), then the reduction solver
            // as before, which answers when the engine's beam did not get through in time.
            let quick = auto_near_quick_budget(size);
            let budget =
                options.limits.timeout.map_or(quick, |t| quick.min(t.mul_f64(AUTO_ATTEMPT_SHARE)));
            vec![
                Step::Near { improve: false, budget: Some(budget) },
                Step::Reduction { improve: false, beams: reduction_beams(size) },
            ]
        }
        Algorithm::Auto => {
            let beams = reduction_beams(size);
            vec![Step::Reduction { improve: options.improve, beams }]
        }
        explicit => {
            let Some(algorithm) = SearchAlgorithm::of(explicit) else {
                unreachable!("auto, table, reduction and near are matched above")
            };
            vec![search(algorithm, None)]
        }
    };
    Ok(Plan { steps: with_tables(steps, algorithm, options, cells, resources) })
}

/// `steps` with the engines over tables in place of the searches they serve (see
/// [`plan_for`]).
fn with_tables(
    mut steps: Vec<Step>,
    algorithm: Algorithm,
    options: &Options,
    cells: usize,
    resources: Resources,
) -> Vec<Step> {
    let explicit = algorithm != Algorithm::Auto;
    let database = match options.heuristic {
        Heuristic::Pdb => true,
        Heuristic::Auto => {
            cells > exact::MAX_CELLS
                && (resources.held_database || (resources.store && cells <= AUTO_DB_CELLS))
        }
        _ => false,
    };
    let walking = options.heuristic == Heuristic::WalkingDistance && resources.walking_distance;
    // In place: a plain solve (a 3x3 by table takes about a microsecond) pays no second list.
    for step in &mut steps {
        let Step::Search { algorithm: a, heuristic: Some(_), weight, budget } = *step else {
            continue;
        };
        // `auto`'s fallbacks keep linear conflict; its IDA* takes the tables. A heuristic
        // left to the solver gives IDA* a database, never A* or greedy.
        let ida = a == SearchAlgorithm::IdaStar;
        if (ida || explicit) && database && (ida || options.heuristic == Heuristic::Pdb) {
            *step = Step::Pdb { algorithm: a, weight, budget };
        } else if (ida || explicit) && walking {
            *step = Step::WalkingDistance { algorithm: a, weight, budget };
        }
    }
    // IDA* asked for is an optimal search: with its heuristic left to the solver (or `pdb`
    // named), the 24-puzzle's tables serve it where they can, as `--optimal` does (`bench
    // --algorithm idastar` on 5x5 ran IDA* with linear conflict, about half the node rate and
    // a far weaker bound).
    let optimal_asked = options.optimal
        || (algorithm == Algorithm::IdaStar
            && matches!(options.heuristic, Heuristic::Pdb | Heuristic::Auto));
    if resources.twentyfour
        && optimal_asked
        && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(options.heuristic, Heuristic::Auto | Heuristic::Pdb)
    {
        steps.insert(0, Step::TwentyFour);
    }
    steps
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

    /// What follows the optimal attempt on 13 to 16 cells under the default 60 s timeout.
    fn after_attempt() -> Vec<Step> {
        vec![
            Step::Near { improve: false, budget: Some(Duration::from_secs(57)) },
            Step::Search {
                algorithm: SearchAlgorithm::WAStar,
                heuristic: Some(HeuristicKind::LinearConflict),
                weight: 2.0,
                budget: None,
            },
            Step::Reduction { improve: false, beams: 0 },
        ]
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
        let fallback = [vec![ida(Some(AUTO_OPTIMAL_BUDGET))], after_attempt()].concat();
        assert_eq!(plan(size(4, 4), &auto).unwrap().steps, fallback);
        assert_eq!(plan(size(2, 8), &auto).unwrap().steps, fallback);
        // From 17 cells (4x5, 3x6, 2x9) to 100.
        let near_sizes = [(3, 6), (4, 5), (2, 9), (3, 8), (2, 12), (5, 5), (6, 5), (2, 13)];
        for (w, h) in near_sizes.into_iter().chain([(6, 6), (7, 7), (10, 10), (20, 5)]) {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            // 80% of the default 60 s timeout.
            let near = Step::Near { improve: false, budget: Some(Duration::from_secs(48)) };
            assert_eq!(steps, [near, Step::Reduction { improve: false, beams: 0 }], "{w}x{h}");
        }
        for (w, h) in [(11, 10), (12, 12), (4, 36), (9, 16), (13, 12), (16, 16), (32, 8)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            let near = Step::Near { improve: false, budget: Some(Duration::from_secs(48)) };
            let then = Step::Reduction { improve: false, beams: AUTO_REDUCTION_BEAMS };
            assert_eq!(steps, [near, then], "{w}x{h}");
        }
        // Up to 64x64, a short plain solve of the near-optimal engine first.
        let reduce = Step::Reduction { improve: false, beams: AUTO_REDUCTION_BEAMS };
        for (w, h, millis) in [(17, 16, 500), (20, 20, 500), (32, 32, 1000)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            let quick = Duration::from_millis(millis);
            assert_eq!(auto_near_quick_budget(size(w, h)), quick);
            let near = Step::Near { improve: false, budget: Some(quick) };
            assert_eq!(steps, [near, reduce], "{w}x{h}");
        }
        let steps = plan(size(32, 9), &auto).unwrap().steps;
        assert!(matches!(steps[..], [Step::Near { improve: false, .. }, _]), "{steps:?}");
        // A tight timeout cuts it to 80 % of that.
        let tight = Options {
            limits: crate::Limits {
                timeout: Some(Duration::from_millis(500)),
                ..Default::default()
            },
            ..Options::default()
        };
        let steps = plan(size(32, 32), &tight).unwrap().steps;
        let budget = Some(Duration::from_millis(400));
        assert_eq!(steps, [Step::Near { improve: false, budget }, reduce]);
        // As long as a square of the mean side; at most 48x48's.
        for (w, h, low, high) in [
            (40, 40, 3.0, 3.1),
            (48, 48, 7.5, 7.7),
            (48, 8, 0.76, 0.77),
            (64, 16, 3.0, 3.1),
            (64, 64, 7.6, 7.6),
            (64, 40, 7.6, 7.6),
        ] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            let quick = auto_near_quick_budget(size(w, h)).as_secs_f64();
            assert!((low..=high).contains(&quick), "{w}x{h}: {quick}");
            assert!(matches!(steps[..], [Step::Near { improve: false, .. }, _]), "{steps:?}");
        }
        // Beyond 2,500 cells without the reduction solver's beams.
        let steps = plan(size(64, 64), &auto).unwrap().steps;
        assert_eq!(steps[1], Step::Reduction { improve: false, beams: 0 });
        // A side beyond 64: the reduction solver and its beams.
        for (w, h) in [(65, 16), (16, 65), (100, 10)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            assert_eq!(steps, [reduce], "{w}x{h}");
        }
        // Not on strips with a side over 100, where they take seconds.
        for (w, h) in [(128, 8), (4, 256), (101, 3)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            assert_eq!(steps, [Step::Reduction { improve: false, beams: 0 }], "{w}x{h}");
        }
        let optimal = Options { optimal: true, ..Options::default() };
        assert!(matches!(plan(size(20, 20), &optimal).unwrap().steps[..], [Step::Search { .. }]));
        // With `improve`, the near-optimal engine's anytime mode up to 64x64.
        let improve = Options { improve: true, ..Options::default() };
        for (w, h) in [(17, 16), (20, 20), (32, 32), (64, 16), (48, 48), (64, 64)] {
            let steps = plan(size(w, h), &improve).unwrap().steps;
            let near = Step::Near { improve: true, budget: Some(Duration::from_secs(48)) };
            let beams = if w * h <= 2500 { AUTO_REDUCTION_BEAMS } else { 0 };
            let then = Step::Reduction { improve: false, beams };
            assert_eq!(steps, [near, then], "{w}x{h}");
        }
        // Beyond, the reduction solver's anytime mode (with no beams of `auto`'s above 50x50),
        // unless the timeout (60 s by default) leaves the engine time for a region peeled
        // down to 64x64.
        let within = |secs| Options {
            limits: crate::Limits {
                timeout: Some(Duration::from_secs(secs)),
                ..Default::default()
            },
            ..improve.clone()
        };
        for (w, h) in [(65, 64), (128, 128)] {
            let steps = plan(size(w, h), &within(9)).unwrap().steps;
            assert_eq!(steps, [Step::Reduction { improve: true, beams: 0 }], "{w}x{h}");
            let steps = plan(size(w, h), &within(10)).unwrap().steps;
            let near = Step::Near { improve: true, budget: Some(Duration::from_secs(8)) };
            assert_eq!(steps, [near, Step::Reduction { improve: false, beams: 0 }], "{w}x{h}");
        }
        let steps = plan(size(129, 128), &within(60)).unwrap().steps;
        assert_eq!(steps, [Step::Reduction { improve: true, beams: 0 }]);
        for (w, h) in [(65, 50), (100, 100)] {
            let steps = plan(size(w, h), &auto).unwrap().steps;
            assert_eq!(steps, [Step::Reduction { improve: false, beams: 0 }], "{w}x{h}");
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
        assert_eq!(
            plan(size(9, 9), &improve).unwrap().steps,
            [
                Step::Near { improve: true, budget: Some(Duration::from_secs(48)) },
                Step::Reduction { improve: false, beams: 0 }
            ]
        );
        assert_eq!(
            plan(size(17, 16), &improve).unwrap().steps,
            [
                Step::Near { improve: true, budget: Some(Duration::from_secs(48)) },
                Step::Reduction { improve: false, beams: AUTO_REDUCTION_BEAMS }
            ]
        );
        assert_eq!(
            plan(size(129, 128), &improve).unwrap().steps,
            [Step::Reduction { improve: true, beams: 0 }]
        );
        // Those improve; the table and the optimal searches, and any plan without the
        // option, do not.
        for (w, h) in [(9, 9), (17, 16), (129, 128)] {
            assert!(plan(size(w, h), &improve).unwrap().improves(), "{w}x{h}");
            assert!(!plan(size(w, h), &Options::default()).unwrap().improves(), "{w}x{h}");
        }
        assert!(!plan(size(3, 3), &improve).unwrap().improves());
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
            [Step::Reduction { improve: false, beams: 0 }]
        );
    }

    #[test]
    fn bad_requests_are_refused() {
        let table = Options { algorithm: Algorithm::Table, ..Options::default() };
        assert_eq!(plan(size(3, 4), &table), Err(SolveError::TableTooLarge(12)));
        let near = Options { algorithm: Algorithm::Near, ..Options::default() };
        assert_eq!(plan(size(129, 128), &near), Err(SolveError::NearTooLarge(16512)));
        let step = Step::Near { improve: false, budget: None };
        assert_eq!(plan(size(3, 3), &near).unwrap().steps, [step]);
        for weight in [0.5, f64::NAN, f64::INFINITY] {
            let options = Options { algorithm: Algorithm::WAStar, weight, ..Options::default() };
            assert!(matches!(plan(size(3, 3), &options), Err(SolveError::Weight(_))));
        }
    }

    #[test]
    fn the_solvers_tables_take_over_the_searches_they_serve() {
        let store = Resources { store: true, ..Resources::default() };
        let of = |algorithm, heuristic| Options { algorithm, heuristic, ..Options::default() };
        let auto = of(Algorithm::Auto, Heuristic::Auto);
        let pdb = |algorithm, budget| Step::Pdb { algorithm, weight: 1.0, budget };
        // `auto` on a 4x4: its IDA* over a database, then the fallbacks, which use none.
        let steps = plan_for(size(4, 4), &auto, store, Nodes::None).unwrap().steps;
        let attempt = Some(AUTO_OPTIMAL_BUDGET);
        let want = [vec![pdb(SearchAlgorithm::IdaStar, attempt)], after_attempt()].concat();
        assert_eq!(steps, want);
        // 3x4: optimal IDA* over a database; 3x3: the table, which needs none.
        let steps = plan_for(size(3, 4), &auto, store, Nodes::None).unwrap().steps;
        assert_eq!(steps, [pdb(SearchAlgorithm::IdaStar, None)]);
        assert_eq!(plan_for(size(3, 3), &auto, store, Nodes::None).unwrap().steps, [Step::Table]);
        // A heuristic left to the solver never gives A* a database; `pdb` by name does.
        let astar =
            plan_for(size(4, 4), &of(Algorithm::AStar, Heuristic::Auto), store, Nodes::None);
        assert!(matches!(astar.unwrap().steps[..], [Step::Search { .. }]));
        let astar = plan_for(size(4, 4), &of(Algorithm::AStar, Heuristic::Pdb), store, Nodes::None);
        assert_eq!(astar.unwrap().steps, [pdb(SearchAlgorithm::AStar, None)]);
        // `pdb` by name with `auto` on a 3x3: IDA* over a database, not the table.
        let steps = plan_for(size(3, 3), &of(Algorithm::Auto, Heuristic::Pdb), store, Nodes::None);
        assert_eq!(steps.unwrap().steps, [pdb(SearchAlgorithm::IdaStar, None)]);
        // Beyond 4x4, the store's small partition is too weak for `auto`: a held one serves.
        let optimal = Options { optimal: true, ..auto.clone() };
        assert_eq!(plan_for(size(5, 5), &optimal, store, Nodes::None).unwrap().steps, [ida(None)]);
        let held = Resources { held_database: true, ..Resources::default() };
        let steps = plan_for(size(5, 5), &optimal, held, Nodes::None).unwrap().steps;
        assert_eq!(steps, [pdb(SearchAlgorithm::IdaStar, None)]);
        // The 24-puzzle's tables come first for an optimal 5x5, when the store has them.
        let korf = Resources { twentyfour: true, ..store };
        let steps = plan_for(size(5, 5), &optimal, korf, Nodes::None).unwrap().steps;
        assert_eq!(steps, [Step::TwentyFour, ida(None)]);
        // And for IDA* asked for by name with its heuristic left to the solver, but not when
        // another heuristic is named.
        let ida_auto = of(Algorithm::IdaStar, Heuristic::Auto);
        let steps = plan_for(size(5, 5), &ida_auto, korf, Nodes::None).unwrap().steps;
        assert_eq!(steps, [Step::TwentyFour, ida(None)]);
        let ida_lc = of(Algorithm::IdaStar, Heuristic::LinearConflict);
        let steps = plan_for(size(5, 5), &ida_lc, korf, Nodes::None).unwrap().steps;
        assert_eq!(steps, [ida(None)]);
        // Not for a fast answer.
        let steps = plan_for(size(5, 5), &auto, korf, Nodes::None).unwrap().steps;
        assert!(matches!(steps[..], [Step::Near { .. }, Step::Reduction { .. }]), "{steps:?}");
        // Walking distance where its tables exist, linear conflict (and a note) elsewhere.
        let wd = of(Algorithm::Auto, Heuristic::WalkingDistance);
        let tables = Resources { walking_distance: true, ..Resources::default() };
        let steps = plan_for(size(3, 4), &wd, tables, Nodes::None).unwrap().steps;
        let walk = Step::WalkingDistance {
            algorithm: SearchAlgorithm::IdaStar,
            weight: 1.0,
            budget: None,
        };
        assert_eq!(steps, [walk]);
        let steps = plan_for(size(3, 4), &wd, Resources::default(), Nodes::None).unwrap().steps;
        assert_eq!(steps, [ida(None)]);
    }

    #[test]
    fn a_watcher_that_wants_nodes_watches_auto_as_ida_star() {
        let auto = Options::default();
        for nodes in [Nodes::Sampled, Nodes::Every] {
            let steps = plan_for(size(3, 3), &auto, Resources::default(), nodes).unwrap().steps;
            assert_eq!(steps, [ida(None)], "{nodes:?}");
            let store = Resources { store: true, ..Resources::default() };
            let steps = plan_for(size(4, 4), &auto, store, nodes).unwrap().steps;
            let pdb = Step::Pdb { algorithm: SearchAlgorithm::IdaStar, weight: 1.0, budget: None };
            assert_eq!(steps, [pdb], "{nodes:?}");
            // Beyond 16 cells, what `auto` runs unwatched.
            let steps = plan_for(size(5, 5), &auto, Resources::default(), nodes).unwrap().steps;
            assert!(matches!(steps[0], Step::Near { .. }), "{nodes:?}");
        }
        assert!(ida(None).samples(4, 4));
        assert!(!ida(None).samples(5, 3));
        assert!(!Step::Table.samples(3, 3));
        assert!(
            Step::Pdb { algorithm: SearchAlgorithm::IdaStar, weight: 1.0, budget: None }
                .samples(5, 3)
        );
    }
}
