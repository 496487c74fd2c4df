//! The `hint` mode of `POST /api/solve`: the next move and the distance to the goal.
//!
//! The distance is exact where that is cheap: the exact table on boards of at most 9 cells
//! (instant), IDA* with linear conflict up to 12 cells, and on 13 to 16 cells (4x4) IDA* for
//! at most [`OPTIMAL_BUDGET`]. Past that, or on larger boards, the next move comes from a
//! fast non-optimal solver (weighted A*, then the reduction solver) and the answer says
//! `"optimal": false`: its distance is the length of that solution, an upper bound.
//!
//! When the solver library publishes its own `hint`, this module becomes a call to it.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use npuzzle_core::Board;
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options, Solution, SolveError, Status};
use serde::Serialize;

/// How long a hint on a 4x4 board may search for a proven optimum.
pub const OPTIMAL_BUDGET: Duration = Duration::from_secs(3);

/// Boards up to this many cells get an optimal hint at any cost (within the limits).
const ALWAYS_OPTIMAL_CELLS: usize = 12;

/// Boards up to this many cells get a bounded optimal attempt.
const TRY_OPTIMAL_CELLS: usize = 16;

/// The answer of the hint mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HintAnswer {
    /// `solved` (a next move or the goal reached), `unsolvable` or `limit`.
    pub status: &'static str,
    /// The board, inline form.
    pub board: String,
    /// The goal, inline form.
    pub goal: String,
    /// The next move's letter (tile direction); null at the goal or when not solved.
    #[serde(rename = "move")]
    pub next: Option<char>,
    /// The tile that move slides.
    pub tile: Option<u16>,
    /// Moves from the board to the goal: exact when `optimal`, otherwise an upper bound.
    pub distance: Option<usize>,
    /// Whether `distance` is proven minimal (and so the move is on a shortest path).
    pub optimal: bool,
    /// The algorithm that found the move.
    pub algorithm: &'static str,
    /// Its heuristic, if any.
    pub heuristic: Option<&'static str>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Why there is no move; null otherwise.
    pub error: Option<String>,
}

/// The next move from `board` towards `goal`, preferably on a shortest path.
///
/// `options` is the checked request (its algorithm is used on boards of at most 12 cells,
/// where every choice the server allows is optimal and quick); `limits` bound the whole hint.
///
/// # Errors
/// As [`npuzzle_solver::solve`].
pub fn hint(
    board: &Board,
    goal: &Board,
    options: &Options,
    limits: Limits,
) -> Result<HintAnswer, SolveError> {
    let clock = Instant::now();
    let cells = board.tiles().len();
    let run = |algorithm, timeout: Option<Duration>| {
        let limits = Limits { timeout, ..limits.clone() };
        let asked = Options {
            algorithm,
            heuristic: Heuristic::LinearConflict,
            optimal: false,
            improve: false,
            limits,
            ..options.clone()
        };
        npuzzle_solver::solve(board, goal, &asked)
    };
    let remaining =
        || limits.timeout.map(|t| t.saturating_sub(clock.elapsed()).max(Duration::from_millis(1)));
    let solution = if cells <= ALWAYS_OPTIMAL_CELLS {
        let algorithm = match options.algorithm {
            a @ (Algorithm::Auto | Algorithm::Table | Algorithm::IdaStar) => a,
            _ => Algorithm::Auto,
        };
        run(algorithm, limits.timeout)?
    } else {
        let cancelled = || limits.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));
        let mut answer = None;
        if cells <= TRY_OPTIMAL_CELLS {
            let budget = limits.timeout.map_or(OPTIMAL_BUDGET, |t| t.min(OPTIMAL_BUDGET));
            let attempt = run(Algorithm::IdaStar, Some(budget))?;
            if attempt.status != Status::Limit || cancelled() {
                answer = Some(attempt);
            } else {
                let fast = run(Algorithm::WAStar, remaining())?;
                if fast.status != Status::Limit || cancelled() {
                    answer = Some(fast);
                }
            }
        }
        match answer {
            Some(a) => a,
            None => run(Algorithm::Reduction, remaining())?,
        }
    };
    Ok(answer(board, goal, &solution, clock))
}

fn answer(board: &Board, goal: &Board, solution: &Solution, clock: Instant) -> HintAnswer {
    let solved = solution.status == Status::Solved;
    let first = solution.moves.as_slice().first().copied().filter(|_| solved);
    HintAnswer {
        status: solution.status.name(),
        board: board.to_string(),
        goal: goal.to_string(),
        next: first.map(|m| m.letter()),
        tile: first.and_then(|m| board.tile_for_move(m)),
        distance: solved.then(|| solution.moves.len()),
        optimal: solved && solution.optimal,
        algorithm: solution.algorithm.name(),
        heuristic: solution.heuristic.map(Heuristic::name),
        seconds: clock.elapsed().as_secs_f64(),
        error: (!solved).then(|| {
            solution.message.clone().unwrap_or_else(|| match solution.status {
                Status::Unsolvable => "the board cannot reach the goal".to_string(),
                _ => "a search limit was reached".to_string(),
            })
        }),
    }
}
