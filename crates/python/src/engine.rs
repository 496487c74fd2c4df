//! The binding of the solver: the only module that calls `npuzzle_solver::Solver`.
//!
//! Every answer of the package comes from [`Solver::solve`] (and [`Solver::hint`], which
//! solves through it; a solve with a progress callback through [`Solver::solve_with`]) on one solver for the process, sharing the shared solver's tables and
//! owning the store of pattern databases of [`crate::databases`], as the command line's
//! solves do; and from the solver's exact tables for boards of at most 9 cells. A change of the solver's entry point
//! is an edit of this file alone.
//!
//! Ctrl-C reaches a search through `Limits::cancel`, which every engine watches (the
//! databases' IDA* included), rather than through an observer: see [`crate::interrupt`].

use std::sync::{Arc, OnceLock};

use npuzzle_core::Board;
use npuzzle_solver::heuristic::pdb::Database;
use npuzzle_solver::{Databases, ExactTable, Hint, Live, Options, Request, Solution, Solver};

use crate::databases;
use crate::errors::{Error, panicked};

/// The process's solver: the shared solver's tables, and the store of pattern databases
/// (see [`crate::databases`]), one thread a search over a database, as the command line's.
fn solver() -> &'static Solver {
    static SOLVER: OnceLock<Solver> = OnceLock::new();
    SOLVER.get_or_init(|| {
        let databases = Databases { threads: 1, ..Databases::default() };
        Solver::shared().with_databases(databases).with_store(Arc::clone(databases::store()))
    })
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
    guarded(|| solver().solve(board, goal, options))?.map_err(|e| Error::Option(e.to_string()))
}

/// [`solve`], telling `live` the bounds and best lengths the solver finds as it goes.
///
/// # Errors
/// As [`solve`].
pub(crate) fn solve_live(
    board: &Board,
    goal: &Board,
    options: &Options,
    live: &Arc<Live>,
) -> Result<Solution, Error> {
    let request = Request::new(board, goal, options);
    guarded(|| solver().solve_with(&request, &mut live.watcher()))?
        .map_err(|e| Error::Option(e.to_string()))
}

/// Every legal move of `board` with the distance after it (see [`Solver::hint`]).
///
/// # Errors
/// As [`solve`].
pub(crate) fn hint(board: &Board, goal: &Board, options: &Options) -> Result<Hint, Error> {
    guarded(|| solver().hint(board, goal, options))?.map_err(|e| Error::Option(e.to_string()))
}

/// [`hint`], telling `live` what the board's own solve finds and proves as it goes (see
/// [`Solver::hint_with`]).
///
/// # Errors
/// As [`solve`].
pub(crate) fn hint_live(
    board: &Board,
    goal: &Board,
    options: &Options,
    live: &Arc<Live>,
) -> Result<Hint, Error> {
    let request = Request::new(board, goal, options);
    guarded(|| solver().hint_with(&request, &mut live.watcher()))?
        .map_err(|e| Error::Option(e.to_string()))
}

/// The exact distance table of `goal`'s canonical goal (tiles renamed after their goal
/// cells: see [`canonical_names`]), built on first use; `None` above 9 cells.
pub(crate) fn exact_table(goal: &Board) -> Option<Arc<ExactTable>> {
    guarded(|| solver().exact_table(goal)).ok().flatten()
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

/// Readies the database that requests like `options` towards `goal` use, held in memory
/// for the many solves of a batch (see [`Solver::prepare`]).
pub(crate) fn prepare(goal: &Board, options: &Options) {
    let _ = guarded(|| solver().prepare(goal, options));
}
