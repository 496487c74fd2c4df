//! The `hint` mode of `POST /api/solve`: the solver library's
//! [`npuzzle_solver::Solver::best_move_hint`] (one solve), encoded as JSON.
//!
//! The answer names the next move and the distance to the goal: exact where that is cheap
//! (the exact table up to 9 cells, optimal solves up to 16 cells within the limits), otherwise
//! the next move of a fast solver with `"optimal": false` and the length of its solution.
//! It also lists every legal move with the distance after it: exact for every move up to 9
//! cells; on larger boards exact for the hinted move only, lower bounds for the others.
//!
//! On boards of more than 16 cells the server keeps the paths of its recent hints
//! ([`Trails`]): a hint for a position along one answers at once with the rest of that path
//! (its `distance` one less each move made along it, and a `note` that says so), rather than
//! a search of seconds whose path could be longer than the one the player just followed.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use npuzzle_core::Board;
use npuzzle_solver::{HeuristicKind, Hint, Options, Status, Trail};
use serde::Serialize;

/// The paths of the server's recent hints on boards of more than 16 cells (at most
/// [`Trails::CAPACITY`], the most recently used first), shared by every client: a path is a
/// fact about the board, whoever asked.
#[derive(Debug, Default)]
pub struct Trails(Mutex<VecDeque<Arc<Trail>>>);

impl Trails {
    /// How many paths are kept (a 32x32 path of 38,000 moves keeps about 1 MB of position
    /// hashes).
    pub const CAPACITY: usize = 32;

    /// The hint for `board` read from a kept path it lies on, if any (see [`Trail::hint`]).
    pub fn hint(&self, board: &Board, goal: &Board, options: &Options) -> Option<Hint> {
        let mut trails = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (i, hint) = trails
            .iter()
            .enumerate()
            .find_map(|(i, t)| Some((i, t.hint(board, goal, options)?)))?;
        if let Some(trail) = trails.remove(i) {
            trails.push_front(trail);
        }
        Some(hint)
    }

    /// Keeps `trail`, forgetting the least recently used path beyond the capacity.
    pub fn remember(&self, trail: Trail) {
        let mut trails = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        trails.push_front(Arc::new(trail));
        trails.truncate(Self::CAPACITY);
    }
}

/// One legal move of the board and the distance after it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveAnswer {
    /// The move's letter (tile direction).
    #[serde(rename = "move")]
    pub direction: char,
    /// The tile it slides.
    pub tile: u16,
    /// The distance to the goal after it: exact when `exact`, otherwise a lower bound.
    pub distance: Option<u64>,
    /// Whether `distance` is proven.
    pub exact: bool,
}

/// The answer of the hint mode.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HintAnswer {
    /// `solved` (there is a next move, or the board is the goal), `unsolvable` or `limit`.
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
    /// Moves from the board to the goal: exact when `optimal`, otherwise the length of the
    /// solution found (an upper bound).
    pub distance: Option<u64>,
    /// Whether `distance` is proven minimal (and so the move is on a shortest path).
    pub optimal: bool,
    /// What the solver proved of the distance: at least this many moves (equal to
    /// `distance` when `optimal`); with `distance`, how far from the optimum the hint may be.
    pub lower_bound: Option<u64>,
    /// The algorithm that found the move.
    pub algorithm: &'static str,
    /// Its heuristic, if any.
    pub heuristic: Option<&'static str>,
    /// Wall-clock seconds of the whole hint.
    pub seconds: f64,
    /// Why there is no move; null otherwise.
    pub error: Option<String>,
    /// How the answer was found when it is not proven optimal, or was read from the path of
    /// an earlier hint; null otherwise.
    pub note: Option<String>,
    /// Every legal move with the distance after it.
    pub moves: Vec<MoveAnswer>,
}

impl HintAnswer {
    /// The answer for `hint`, computed for `board` towards `goal` in `seconds`.
    pub fn new(board: &Board, goal: &Board, hint: &Hint, seconds: f64) -> HintAnswer {
        let solution = &hint.solution;
        HintAnswer {
            status: solution.status.name(),
            board: board.to_string(),
            goal: goal.to_string(),
            next: hint.best.map(|m| m.letter()),
            tile: hint.best.and_then(|m| board.tile_for_move(m)),
            distance: hint.distance,
            optimal: hint.exact && solution.status == Status::Solved,
            lower_bound: solution.lower_bound,
            algorithm: solution.algorithm.name(),
            heuristic: solution.heuristic.map(HeuristicKind::name),
            seconds,
            error: solution.error(),
            note: solution.note(),
            moves: hint
                .moves
                .iter()
                .map(|m| MoveAnswer {
                    direction: m.direction.letter(),
                    tile: m.tile,
                    distance: m.distance,
                    exact: m.exact,
                })
                .collect(),
        }
    }
}
