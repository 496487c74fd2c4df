//! Heuristics, exact tables, specialised engines, and the [`Solver`] that picks among them.
//!
//! The conventions (board text, goals, move letters) are those of `npuzzle-core`. This crate
//! puts the problem-agnostic searches of `npuzzle-search` to work on sliding-tile puzzles.
//! Its engines ([`engine`]), and when `auto` picks each:
//!
//! | engine | boards | optimal | `auto` picks it |
//! |---|---|---|---|
//! | exact table ([`ExactTable`]) | up to 9 cells | yes | always, on those boards |
//! | packed IDA*, A*, Dijkstra, BFS, IDDFS | up to 4x4 | with A*, IDA*, Dijkstra, BFS | IDA* with linear conflict on 10 to 16 cells when no database serves the board |
//! | IDA* over pattern databases ([`engine::pdb_search`]) | up to 25 cells | yes | on 10 to 16 cells with a database held, cached or built on demand |
//! | the 24-puzzle's 6-6-6-6 IDA* ([`engine::twentyfour`]) | 5x5, blank in a corner | yes | with `optimal` (or IDA* over `pdb`) on 5x5 |
//! | generic searches with walking distance or a database | up to 32 cells | with A*, IDA* | when those heuristics are asked for |
//! | general engine (every search of `npuzzle-search`) | any | with A*, IDA*, Dijkstra, BFS | weighted A* above 16 cells, within a budget |
//! | near-optimal ([`engine::near`]): beam searches ranked by Manhattan, linear conflicts and squared distances, loop cutting, windows, a lower bound proven with linear conflict | up to 4,096 cells (64x64); up to 16,384 (128x128) after the reduction solver peels the board down to 64x64 | no (a bound says how far) | on 17 to 256 cells (4x5 to 16x16, without `optimal`), unless the reduction solver's answer is shorter |
//! | reduction ([`engine::reduction`]) | any | no | when nothing else answers in time, and on large boards |
//!
//! Around them:
//!
//! - [`Solver`]: an immutable value, shareable across threads, that owns the tables it
//!   builds and its pattern databases ([`heuristic::pdb::Store`]) and answers requests;
//!   [`solve`] is the easy path through a shared one;
//! - [`plan_for`]: the one place that decides which engine answers: board shape,
//!   [`Options`], what the solver holds or can get ([`Resources`]: pattern databases, the
//!   24-puzzle's tables, walking distance) and how much the caller watches, to the [`Step`]s
//!   to try, with their budgets and fallbacks (`auto` is written once, there;
//!   [`Solver::plan`] gives a solver's own); one run loop executes them for every entry
//!   point ([`Solver::solve`], [`Solver::solve_with`] and its watchers);
//! - [`Solution`]: the answer, with why it is not solved ([`Reason`]) or not proven optimal
//!   ([`Note`]) as data, for each front end to word its own way;
//! - [`heuristic`]: Hamming, Manhattan, linear conflict, walking distance and pattern
//!   databases for any size and goal;
//! - [`engine::near`]: near-optimal answers with a proven lower bound for boards from 5x5 to about
//!   10x10 (beam search, then IDA* over sliding windows of the path);
//! - [`Solver::solve_with`] takes a [`Request`] and a [`Watcher`] that receives bounds and
//!   progress from every engine and asks for none, some ([`Sampler`]) or every node
//!   ([`Nodes`]); [`Solver::shows_nodes`] says whether the plan's engine can show them at full
//!   speed;
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

pub mod engine;
mod error;
pub mod heuristic;
mod hint;
mod options;
mod plan;
pub mod pruning;
#[cfg(feature = "serde")]
mod record;
mod relabel;
mod run;
mod sample;
mod solution;
mod solver;
mod tables;
mod watch;

/// The pattern databases: now [`heuristic::pdb`].
#[deprecated(since = "0.2.0", note = "moved to `npuzzle_solver::heuristic::pdb`")]
pub mod pdb {
    pub use crate::heuristic::pdb::*;
}
/// IDA* over pattern databases: now [`engine::pdb_search`].
#[deprecated(since = "0.2.0", note = "moved to `npuzzle_solver::engine::pdb_search`")]
pub mod pdb_search {
    pub use crate::engine::pdb_search::*;
}
/// The reduction solver: now [`engine::reduction`].
#[deprecated(since = "0.2.0", note = "moved to `npuzzle_solver::engine::reduction`")]
pub mod reduction {
    pub use crate::engine::reduction::*;
}
/// The optimal 24-puzzle: now [`engine::twentyfour`].
#[deprecated(since = "0.2.0", note = "moved to `npuzzle_solver::engine::twentyfour`")]
pub mod twentyfour {
    pub use crate::engine::twentyfour::*;
}

pub use engine::exact::ExactTable;
pub use error::SolveError;
pub use heuristic::HeuristicKind;
pub use hint::{Hint, HintMove, Trail, hint};
pub use options::{Algorithm, Heuristic, Limits, Options, UnknownName};
pub use plan::{
    AUTO_NEAR_QUICK_SIDE, AUTO_OPTIMAL_BUDGET, AUTO_PEELED_IMPROVE, AUTO_REDUCTION_BEAMS,
    AUTO_REDUCTION_IMPROVE_CELLS, Plan, Resources, SearchAlgorithm, Step, auto_near_quick_budget,
    plan, plan_for,
};
#[cfg(feature = "serde")]
pub use record::{Event, Record};
pub use sample::Sampler;
pub use solution::{Limit, Note, Reason, ReplayError, Solution, Stats, Status, thousands};
pub use solver::{Databases, Solver, solve, solve_watched, solve_with};
pub use watch::{Live, LiveWatcher, Nodes, Request, Watcher};
