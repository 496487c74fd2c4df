//! The `Board` class: an immutable, hashable, picklable board.

use npuzzle_core::{Board, Move};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyTuple, PyType};

use crate::convert;

/// A sliding-tile board: ``width`` x ``height`` cells, row-major, ``0`` the blank.
///
/// Made from a string in any of the command line's forms (``"8 6 7/2 5 4/3 0 1"``, a flat
/// list of N*N numbers, a 42-style file's text, digits ``"867254301"``), rows of numbers
/// (``[[8, 6, 7], [2, 5, 4], [3, 0, 1]]``) or a 2-D numpy array. A board is immutable:
/// ``apply`` returns a new one. Boards compare, hash and pickle by their tiles;
/// ``str(board)`` is the standard notation, and ``numpy.asarray(board)`` the
/// ``(height, width)`` array.
///
/// Moves are letters naming the direction the **tile** moves (``U D L R``, the
/// speed-solving convention: ``R`` slides the tile left of the blank to the right).
///
/// >>> b = npuzzle.Board("8 6 7/2 5 4/3 0 1")
/// >>> b.moves()
/// ['D', 'L', 'R']
/// >>> str(b.apply("D"))
/// '8 6 7/2 0 4/3 5 1'
/// >>> b.solvable(), b.solvable("snail")
/// (True, False)
#[pyclass(name = "Board", module = "npuzzle", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyBoard {
    /// The board.
    pub(crate) board: Board,
}

impl PyBoard {
    /// Wraps a board.
    pub(crate) fn from(board: Board) -> PyBoard {
        PyBoard { board }
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    fn new(cells: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        Ok(PyBoard { board: convert::board(cells)? })
    }

    /// The goal board of a size: ``Board.goal("3x3", "snail")``. Same as
    /// ``npuzzle.goal``.
    #[classmethod]
    #[pyo3(signature = (size, goal = None))]
    fn goal(
        _cls: &Bound<'_, PyType>,
        size: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBoard> {
        self::goal(size, goal)
    }

    /// Number of columns.
    #[getter]
    fn width(&self) -> usize {
        self.board.width()
    }

    /// Number of rows.
    #[getter]
    fn height(&self) -> usize {
        self.board.height()
    }

    /// The size as text, width first: ``"4x4"``, ``"5x3"``.
    #[getter]
    fn size(&self) -> String {
        self.board.size().to_string()
    }

    /// The numpy shape ``(height, width)``.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        convert::shape(self.board.size())
    }

    /// The tiles in row-major order, as a tuple.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.board.tiles())
    }

    /// The blank's cell as ``(x, y)``: column and row, from 0.
    #[getter]
    fn blank(&self) -> (usize, usize) {
        self.board.blank_xy()
    }

    /// The rows as lists of numbers.
    fn tolist(&self) -> Vec<Vec<u16>> {
        self.board.tiles().chunks(self.board.width()).map(<[u16]>::to_vec).collect()
    }

    /// The board as a numpy array ``(height, width)``: ``uint8`` up to 256 cells, else
    /// ``uint16`` (as every array of boards in npuzzle).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let size = self.board.size();
        let cells = self.board.tiles().to_vec();
        let shape = [size.height(), size.width()];
        if size.cells() <= 256 {
            let small: Vec<u8> = cells.into_iter().map(|t| t as u8).collect();
            Ok(PyArray1::from_vec(py, small).reshape(shape)?.into_any())
        } else {
            Ok(PyArray1::from_vec(py, cells).reshape(shape)?.into_any())
        }
    }

    /// The numpy array protocol: ``numpy.asarray(board)``.
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = copy; // Always a fresh array.
        let array = self.to_numpy(py)?;
        match dtype {
            Some(d) if !d.is_none() => array.call_method1("astype", (d,)),
            _ => Ok(array),
        }
    }

    /// The legal moves here, as letters in the order ``U D L R``.
    fn moves(&self) -> Vec<String> {
        self.board.legal_moves().map(|m| m.letter().to_string()).collect()
    }

    /// The board after ``moves``: a string of letters (``"DDLU"``, or compact ``"D2LU"``,
    /// tile directions) or a list of the tile numbers to slide.
    ///
    /// Raises ``InvalidMoveError`` naming the first move that cannot be made.
    fn apply(&self, moves: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let moves = convert::moves(&self.board, moves)?;
        let mut b = self.board.clone();
        b.apply_all(&moves).map_err(|e| crate::errors::Error::Move(e.to_string()))?;
        Ok(PyBoard { board: b })
    }

    /// The tile each of ``moves`` slides, in order.
    fn tiles_moved(&self, moves: &Bound<'_, PyAny>) -> PyResult<Vec<u16>> {
        let moves = convert::moves(&self.board, moves)?;
        Ok(self.board.tiles_moved(&moves).map_err(|e| crate::errors::Error::Move(e.to_string()))?)
    }

    /// The tile that move ``move`` (a letter) would slide, or ``None`` when it is illegal.
    fn tile_for_move(&self, r#move: &str) -> PyResult<Option<u16>> {
        let m = letter(r#move)?;
        Ok(self.board.tile_for_move(m))
    }

    /// Every legal move with the board it leads to: ``[("D", Board(...)), ...]``.
    fn neighbours(&self) -> Vec<(String, PyBoard)> {
        self.board
            .legal_moves()
            .filter_map(|m| {
                self.board.moved(m).map(|b| (m.letter().to_string(), PyBoard { board: b }))
            })
            .collect()
    }

    /// Whether the board can reach ``goal`` (a name, ``blank-last`` by default, or a board).
    #[pyo3(signature = (goal = None))]
    fn solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let (goal, _) = convert::goal(goal, self.board.size())?;
        Ok(self.board.is_solvable(&goal))
    }

    /// The board as a grid: one row a line, the blank shown as ``.``.
    fn grid(&self) -> String {
        self.board.grid(true)
    }

    fn __str__(&self) -> String {
        self.board.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.board)
    }

    fn __len__(&self) -> usize {
        self.board.tiles().len()
    }

    /// Pickling (every protocol): the class and the board's text.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.get().board.to_string(),))
    }
}

/// A move from its letter.
pub(crate) fn letter(text: &str) -> PyResult<Move> {
    let mut chars = text.trim().chars();
    match (chars.next().and_then(Move::from_letter), chars.next()) {
        (Some(m), None) => Ok(m),
        _ => Err(crate::errors::Error::Move(format!(
            "invalid move {:?}: expected U, D, L or R",
            text.chars().take(40).collect::<String>()
        ))
        .into()),
    }
}

/// The goal board of boards of ``size`` (``"4x4"``, ``4`` or ``(width, height)``):
/// ``goal`` is ``"blank-last"`` (the default, ``1 2 3/4 5 6/7 8 0``), ``"blank-first"``
/// (``0 1 2/3 4 5/6 7 8``, Korf's), ``"snail"`` (the spiral, ``1 2 3/8 0 4/7 6 5``) or a
/// board.
///
/// >>> str(npuzzle.goal("3x3", "snail"))
/// '1 2 3/8 0 4/7 6 5'
#[pyfunction]
#[pyo3(signature = (size, goal = None))]
pub(crate) fn goal(size: &Bound<'_, PyAny>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
    let size = convert::size_of(size)?;
    Ok(PyBoard { board: convert::goal(goal, size)?.0 })
}
