//! The JSON answer to a solve: the object `npuzzle solve --format json` prints for one board.
//!
//! This is the only place the web crate encodes a [`Solution`]: when the solver library
//! publishes its own record type (`npuzzle_solver::Record`, same fields), this module becomes
//! a re-export.

use npuzzle_core::{Board, Parity};
use npuzzle_solver::{Heuristic, Solution, Status};
use serde::Serialize;

/// One solve's answer. Field order is the DESIGN contract's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Record {
    /// `solved`, `unsolvable` or `limit`.
    pub status: &'static str,
    /// The board, inline form.
    pub board: String,
    /// The goal, inline form.
    pub goal: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// The algorithm that ran.
    pub algorithm: &'static str,
    /// The heuristic that guided it, if any.
    pub heuristic: Option<&'static str>,
    /// True only when the length is proven minimal.
    pub optimal: bool,
    /// Number of moves; null unless solved.
    pub length: Option<usize>,
    /// One letter per move, tile direction; empty unless solved.
    pub moves: String,
    /// The tile slid at each move.
    pub tiles: Vec<u16>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// Largest frontier.
    pub max_frontier: u64,
    /// Wall-clock seconds of the solve.
    pub seconds: f64,
    /// Why the board was not solved; null when it was.
    pub error: Option<String>,
    /// A note about the method, such as why the answer is not proven optimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Record {
    /// The record of `solution`, the answer for `board` towards `goal`.
    pub fn new(board: &Board, goal: &Board, solution: &Solution) -> Record {
        let solved = solution.status == Status::Solved;
        let stats = solution.stats;
        let error = match solution.status {
            Status::Solved => None,
            Status::Unsolvable => Some(
                solution.message.clone().unwrap_or_else(|| Parity::of(board, goal).to_string()),
            ),
            Status::Limit => Some(
                solution.message.clone().unwrap_or_else(|| "a search limit was reached".into()),
            ),
        };
        Record {
            status: solution.status.name(),
            board: board.to_string(),
            goal: goal.to_string(),
            width: board.width(),
            height: board.height(),
            algorithm: solution.algorithm.name(),
            heuristic: solution.heuristic.map(Heuristic::name),
            optimal: solved && solution.optimal,
            length: solved.then(|| solution.moves.len()),
            moves: if solved { solution.moves.to_string() } else { String::new() },
            tiles: if solved {
                board.tiles_moved(&solution.moves).unwrap_or_default()
            } else {
                Vec::new()
            },
            expanded: stats.expanded,
            generated: stats.generated,
            max_frontier: stats.max_frontier,
            seconds: stats.seconds,
            error,
            note: if solved { solution.message.clone() } else { None },
        }
    }
}
