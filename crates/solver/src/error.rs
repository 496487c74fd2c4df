//! Why a solve could not even start.

use npuzzle_core::Size;
use thiserror::Error;

/// A request the solver refuses before searching. Everything else, including "no solution
/// within the limits", is a [`crate::Solution`].
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SolveError {
    /// The goal board is not the size of the board.
    #[error("goal is {goal} but the board is {board}")]
    GoalSize {
        /// The goal's size.
        goal: Size,
        /// The board's size.
        board: Size,
    },
    /// A weighted-A* weight below 1 or not a number.
    #[error("weight must be a number of at least 1, got {0}")]
    Weight(f64),
    /// The exact table was asked for on a board too large for it.
    #[error("the table algorithm handles boards of at most 9 cells; this one has {0}")]
    TableTooLarge(usize),
    /// The near-optimal engine was asked for on a board too large for it.
    #[error("the near algorithm handles boards of at most {max} cells; this one has {0}", max = crate::engine::near::MAX_PEELED_CELLS)]
    NearTooLarge(usize),
}
