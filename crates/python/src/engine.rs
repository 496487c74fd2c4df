//! The binding of the solver: the only module that calls `npuzzle_solver::Solver`.
//!
//! Every answer of the package comes from [`Solver::solve`] (and [`Solver::hint`], which
//! solves through it) on the process's shared solver, holding the pattern database that
//! [`crate::databases`] finds for the goal, as the command line's solves do; and from the
//! solver's exact tables for boards of at most 9 cells. A change of the solver's entry point
//! is an edit of this file alone.
//!
//! Ctrl-C reaches a search through `Limits::cancel`, which every engine watches (the
//! databases' IDA* included), rather than through an observer: see [`crate::interrupt`].

use std::sync::Arc;

use npuzzle_core::Board;
use npuzzle_solver::pdb::Database;
use npuzzle_solver::{ExactTable, Hint, Options, Solution, Solver};

use crate::databases;
use crate::errors::{Error, panicked};

/// The solver for boards towards `goal` under `options`: the shared one, holding the
/// goal's pattern database when the request uses one. A board at its goal needs none (as on
/// the command line, where it never loads one).
fn solver_for(board: &Board, goal: &Board, options: &Options) -> Solver {
    let shared = Solver::shared();
    if board == goal {
        return shared.clone();
    }
    match databases::for_goal(goal, options.algorithm, options.heuristic) {
        Some(dbs) => shared.with_databases(dbs),
        None => shared.clone(),
    }
}

/// Runs `f`, turning a panic into an [`Error::Internal`].
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, Error> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|p| panicked(p.as_ref()))
}

/// Solves `board` towards `goal` as `options` ask.
///
/// # Errors
/// [`Error::Option`] for a request the solver refuses (a goal of another size, a bad weight,
/// the table on a large board), [`Error::Internal`] for a panic.
pub(crate) fn solve(board: &Board, goal: &Board, options: &Options) -> Result<Solution, Error> {
    let solver = solver_for(board, goal, options);
    guarded(|| solver.solve(board, goal, options))?.map_err(|e| Error::Option(e.to_string()))
}

/// Every legal move of `board` with the distance after it (see [`Solver::hint`]).
///
/// # Errors
/// As [`solve`].
pub(crate) fn hint(board: &Board, goal: &Board, options: &Options) -> Result<Hint, Error> {
    let solver = solver_for(board, goal, options);
    guarded(|| solver.hint(board, goal, options))?.map_err(|e| Error::Option(e.to_string()))
}

/// The exact distance table of `goal`'s canonical goal (tiles renamed after their goal
/// cells: see [`canonical_names`]), built on first use; `None` above 9 cells.
pub(crate) fn exact_table(goal: &Board) -> Option<Arc<ExactTable>> {
    guarded(|| Solver::shared().exact_table(goal)).ok().flatten()
}

/// `names[t]`: the name tile `t` of `goal` has in the canonical goal whose table
/// [`exact_table`] returns (`1, 2, ...` in reading order of the goal's cells, the blank 0).
pub(crate) fn canonical_names(goal: &Board) -> Vec<u16> {
    let mut names = vec![0u16; goal.tiles().len()];
    let mut next = 0u16;
    for &t in goal.tiles() {
        if t != 0 {
            next += 1;
            names[usize::from(t)] = next;
        }
    }
    names
}

/// The pattern database the solver uses for `goal` (see [`crate::databases`]), if any.
pub(crate) fn database(goal: &Board) -> Option<Database> {
    databases::database(goal)
}
