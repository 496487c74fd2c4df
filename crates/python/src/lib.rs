//! `npuzzle._native`: the extension module behind the `npuzzle` Python package.
//!
//! The package binds the library's one [`npuzzle_solver::Solver`]; it never searches on its
//! own. The conventions are those of `npuzzle-core` (boards row-major with 0 the blank, text
//! `8 6 7/2 5 4/3 0 1`, moves named by the tile's direction) and the answers carry the
//! fields of the JSON record (`npuzzle solve --format json`).
//!
//! - `engine`: the only module that calls the solver (solve, hint, the exact tables), so
//!   that a change of the solver's entry point is an edit of one file;
//! - `databases`: the pattern databases a solve uses, found in (or added to) the same cache
//!   as the command line's;
//! - `board`, `solution`: the `Board`, `Solution` and `Hint` classes;
//! - `batch`: the calls over numpy arrays, on every core (`solve_many`, `distances`,
//!   `heuristic`, `hints`, `scramble`, `solvable`);
//! - `vector`: many boards stepped in one call, for the vector environment of `npuzzle.gym`;
//! - `interrupt`: long calls run with the GIL released and stop on Ctrl-C;
//! - `convert` and `errors`: what crosses the boundary, and the typed exceptions.
//!
//! Tests are pytest (`crates/python/tests`), run by `scripts/test`.

mod batch;
mod board;
mod convert;
mod databases;
mod engine;
mod errors;
mod interrupt;
mod solution;
mod vector;

use pyo3::prelude::*;

/// The extension module: classes and functions that `npuzzle/__init__.py` re-exports with
/// their documentation.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<solution::PyHint>()?;
    m.add_class::<solution::PyHintMove>()?;
    m.add_class::<solution::PyProgress>()?;
    m.add_class::<vector::Boards>()?;
    m.add_function(wrap_pyfunction!(board::goal, m)?)?;
    m.add_function(wrap_pyfunction!(solution::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solution::hint, m)?)?;
    m.add_function(wrap_pyfunction!(batch::scramble, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::distances, m)?)?;
    m.add_function(wrap_pyfunction!(batch::heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(batch::hints, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solvable, m)?)?;
    m.add_function(wrap_pyfunction!(batch::optimal_paths, m)?)?;
    m.add_function(wrap_pyfunction!(databases::build_database, m)?)?;
    m.add_function(wrap_pyfunction!(databases::cache_dir_py, m)?)?;
    Ok(())
}
