//! Heuristics, exact tables, specialised engines, and the [`Solver`] that picks among them.
//!
//! The conventions (board text, goals, move letters) are those of `npuzzle-core`. This crate
//! puts the problem-agnostic searches of `npuzzle-search` to work on sliding-tile puzzles:
//!
//! - [`Solver`]: an immutable value, shareable across threads, that owns the tables it
//!   builds and answers requests; [`solve`] is the easy path through a shared one;
//! - [`plan`]: the policy, board shape + [`Options`] to the [`Step`]s to try (`auto` is
//!   written once, there);
//! - [`Solution`]: the answer, with why it is not solved ([`Reason`]) or not proven optimal
//!   ([`Note`]) as data, for each front end to word its own way;
//! - [`heuristic`]: Hamming, Manhattan and linear conflict for any size and goal;
//! - [`ExactTable`]: breadth-first distance tables for boards of at most 9 cells;
//! - packed engines for boards up to 4x4 (`packed/`: IDA* compiled per shape, bucket A*,
//!   breadth-first search) and a general engine for every other size;
//! - [`near`]: near-optimal answers with a proven lower bound for boards from 5x5 to about
//!   10x10 (beam search, then IDA* over sliding windows of the path);
//! - [`reduction`]: a fast non-optimal solver for boards of any size;
//! - [`Solver::solve_watched`] runs a request node by node for an observer, and
//!   [`Solver::solve_observed`] reports bounds and progress from the fast engines, and
//!   [`Solver::solve_sampled`] adds the few nodes a [`Sampler`] asks for;
//! - with the `serde` feature, `Record`: the JSON object of `npuzzle solve --format json`
//!   and of the web API.
//!
//! # Tables depend on the shape and the blank cell only
//! Every table describes where tiles belong, not what they are called, so the solver
//! renames each tile after its cell in the goal (reading order, the blank kept) and solves
//! towards that canonical goal with the same moves. Goals of one shape therefore share a
//! table per blank cell, and a solver holds a bounded set of tables whatever goals it is
//! given.
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
mod dispatch;
mod error;
mod exact;
mod general;
pub mod heuristic;
mod hint;
pub mod near;
mod options;
mod packed;
pub mod pdb;
pub mod pdb_search;
mod policy;
pub mod pruning;
#[cfg(feature = "serde")]
mod record;
pub mod reduction;
mod relabel;
mod sample;
mod solution;
mod solver;
mod tables;
pub mod twentyfour;
mod watch;

pub use database_policy::{Databases, solve_with};
pub use error::SolveError;
pub use exact::ExactTable;
pub use heuristic::HeuristicKind;
pub use hint::{Hint, HintMove, hint};
pub use options::{Algorithm, Heuristic, Limits, Options, UnknownName};
pub use policy::{AUTO_OPTIMAL_BUDGET, Plan, SearchAlgorithm, Step, plan};
#[cfg(feature = "serde")]
pub use record::{Event, Record};
pub use sample::Sampler;
pub use solution::{Limit, Note, Reason, Solution, Stats, Status, thousands};
pub use solver::{Solver, solve, solve_watched};
