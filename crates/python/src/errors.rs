//! The typed exceptions: one Rust value per kind of failure, turned into the exception class
//! of `npuzzle.errors` (defined in Python, so that each can also be a `ValueError` or a
//! `RuntimeError`) with the command line's one-line reason as its message.

use pyo3::PyErr;

pyo3::import_exception!(npuzzle.errors, InvalidBoardError);
pyo3::import_exception!(npuzzle.errors, InvalidGoalError);
pyo3::import_exception!(npuzzle.errors, InvalidMoveError);
pyo3::import_exception!(npuzzle.errors, InvalidOptionError);
pyo3::import_exception!(npuzzle.errors, NotExactError);
pyo3::import_exception!(npuzzle.errors, LimitError);
pyo3::import_exception!(npuzzle.errors, UnsolvableError);
pyo3::import_exception!(npuzzle.errors, InternalError);

/// A failure, as plain Rust data: worker threads make these without the GIL, and the caller
/// turns them into exceptions once it holds it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Error {
    /// A board that cannot be read (`InvalidBoardError`).
    Board(String),
    /// A goal that cannot be read or does not fit the board (`InvalidGoalError`).
    Goal(String),
    /// Moves that cannot be read or made (`InvalidMoveError`).
    Move(String),
    /// An option the solver refuses: an unknown name, a bad weight or limit
    /// (`InvalidOptionError`).
    Option(String),
    /// Exact distances asked for where none can be promised (`NotExactError`).
    NotExact(String),
    /// A limit stopped a search whose answer had to be exact (`LimitError`).
    Limit(String),
    /// A board that cannot reach its goal where an answer was required (`UnsolvableError`).
    Unsolvable(String),
    /// A defect of npuzzle, such as a panic (`InternalError`).
    Internal(String),
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Board(m) => InvalidBoardError::new_err(m),
            Error::Goal(m) => InvalidGoalError::new_err(m),
            Error::Move(m) => InvalidMoveError::new_err(m),
            Error::Option(m) => InvalidOptionError::new_err(m),
            Error::NotExact(m) => NotExactError::new_err(m),
            Error::Limit(m) => LimitError::new_err(m),
            Error::Unsolvable(m) => UnsolvableError::new_err(m),
            Error::Internal(m) => InternalError::new_err(m),
        }
    }
}

/// The message of a caught panic, for an `InternalError`: a panic never crosses into
/// Python (where it would be a `BaseException` that `except Exception` misses).
pub(crate) fn panicked(payload: &(dyn std::any::Any + Send)) -> Error {
    let what = payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string());
    Error::Internal(format!(
        "internal error: the solver panicked ({what}); this is a bug in npuzzle, please report the board"
    ))
}
