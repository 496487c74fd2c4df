//! Heuristics, exact tables, specialised engines, and [`solve`], which picks among them.
//!
//! The conventions (board text, goals, move letters) are those of `npuzzle-core`. This crate
//! puts the problem-agnostic searches of `npuzzle-search` to work on sliding-tile puzzles:
//!
//! - [`heuristic`]: Hamming, Manhattan and linear conflict for any size and goal;
//! - [`ExactTable`]: breadth-first distance tables for boards of at most 9 cells;
//! - packed engines for boards up to 4x4 (incremental, table-driven heuristics) and a general
//!   engine for every other size;
//! - [`reduction`]: a fast non-optimal solver for boards of any size;
//! - [`solve`]: one entry point, with [`Algorithm::Auto`] choosing per board;
//!   [`solve_watched`] runs the same request with an observer that sees every node.
//!
//! # Example
//! ```
//! use npuzzle_core::{Board, Goal};
//! use npuzzle_solver::{Options, Status, solve};
//! let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
//! let goal = Goal::BlankLast.board(board.size())?;
//! let solution = solve(&board, &goal, &Options::default())?;
//! assert_eq!(solution.status, Status::Solved);
//! assert!(solution.optimal);
//! assert_eq!(solution.moves.len(), 31);
//! let mut end = board.clone();
//! end.apply_all(&solution.moves)?;
//! assert_eq!(end, goal);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod database_policy;
mod error;
mod fast;
mod general;
pub mod heuristic;
mod options;
pub mod pdb;
pub mod pdb_search;
pub mod reduction;
mod shaped;
mod small;
mod solution;
mod solve;
mod table;

pub use database_policy::{Tables, solve_with};
pub use error::SolveError;
pub use options::{Algorithm, Heuristic, Limits, Options, UnknownName};
pub use solution::{Solution, Stats, Status, thousands};
pub use solve::{AUTO_OPTIMAL_BUDGET, solve, solve_watched};
pub use table::ExactTable;
