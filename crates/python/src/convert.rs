//! What crosses the boundary: boards, goals, sizes and options from Python values, checked
//! here once (the library's types are valid by construction after that), and batches of
//! boards as numpy arrays `(count, height, width)`.
//!
//! Every message is the command line's for the same mistake (`tile 8 appears twice`,
//! `unknown algorithm "quantum": expected one of ...`), with the argument's name in front
//! where the command line names its flag.

use std::time::Duration;

use npuzzle_core::{Board, BoardError, Goal, Moves, Size};
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray3};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::board::PyBoard;
use crate::errors::Error;

/// A board from a `Board`, a string in any of the command line's forms, or rows of whole
/// numbers (nested lists or a 2-D numpy array; a flat list of N*N numbers for a square).
///
/// # Errors
/// `InvalidBoardError` with the command line's reason.
pub(crate) fn board(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(b) = obj.cast::<PyBoard>() {
        return Ok(b.get().board.clone());
    }
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return npuzzle_core::parse_board(&text).map_err(|e| Error::Board(e.to_string()).into());
    }
    // Numbers are written out and read back as text, so that every check and message is the
    // one text gets (a float is "not a number", a ragged row names its row).
    let list = if obj.hasattr("tolist")? { obj.call_method0("tolist")? } else { obj.clone() };
    let not_rows = || {
        Error::Board(
            "a board is a string (\"8 6 7/2 5 4/3 0 1\"), a Board, or rows of whole numbers \
             (a list of lists or a 2-D array)"
                .to_string(),
        )
    };
    let rows: Vec<Bound<'_, PyAny>> = sequence(&list).ok_or_else(not_rows)?;
    let mut text = String::new();
    let nested = rows.first().is_some_and(|r| sequence(r).is_some());
    for (i, row) in rows.iter().enumerate() {
        if nested {
            if i > 0 {
                text.push('/');
            }
            let cells = sequence(row).ok_or_else(not_rows)?;
            // Rows of rows: a batch of boards (what `scramble` returns) where one is wanted.
            if cells.first().is_some_and(|c| sequence(c).is_some()) {
                return Err(Error::Board(format!(
                    "a board has two dimensions (rows of numbers); this has three, a batch of \
                     {} boards: pass one of them (boards[0]), or all of them to solve_many",
                    rows.len()
                ))
                .into());
            }
            for (j, cell) in cells.iter().enumerate() {
                if j > 0 {
                    text.push(' ');
                }
                text.push_str(&number(cell)?);
            }
        } else {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&number(row)?);
        }
    }
    npuzzle_core::parse_board(&text).map_err(|e| Error::Board(e.to_string()).into())
}

/// The items of a list or tuple; `None` for anything else.
fn sequence<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(l) = obj.cast::<PyList>() {
        return Some(l.iter().collect());
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return Some(t.iter().collect());
    }
    None
}

/// A cell as text: a whole number as its digits, anything else as Python prints it (which
/// the board parser then refuses by name).
fn number(cell: &Bound<'_, PyAny>) -> PyResult<String> {
    if cell.is_instance_of::<pyo3::types::PyBool>() {
        return Ok(cell.str()?.to_string());
    }
    if let Ok(n) = cell.extract::<i128>() {
        return Ok(n.to_string());
    }
    let text = cell.str()?.to_string();
    // A separator inside a cell would be read as two cells.
    Ok(if text.contains([' ', '/', ',', '\n', '\t']) {
        format!("{:?}", text.replace(char::is_whitespace, ""))
    } else {
        text
    })
}

/// A size from `"4x4"`, `"4"`, `4` or `(width, height)`.
///
/// # Errors
/// `InvalidOptionError` with the command line's reason.
pub(crate) fn size_of(obj: &Bound<'_, PyAny>) -> PyResult<Size> {
    if let Ok(text) = obj.cast::<PyString>() {
        return size(&text.to_cow()?);
    }
    if let Ok((w, h)) = obj.extract::<(i64, i64)>() {
        let side = |s: i64| usize::try_from(s).unwrap_or(0);
        return Size::new(side(w), side(h)).map_err(|e| Error::Option(e.to_string()).into());
    }
    if let Ok(n) = obj.extract::<i64>() {
        return Size::square(usize::try_from(n).unwrap_or(0))
            .map_err(|e| Error::Option(e.to_string()).into());
    }
    Err(Error::Option(format!(
        "invalid size {}: expected WxH (for example \"4x4\" or \"5x3\"), a side, or (width, height)",
        obj.repr()?
    ))
    .into())
}

/// A size from text: `4x4`, `5x3`, `4`.
///
/// # Errors
/// `InvalidOptionError` with the command line's reason.
pub(crate) fn size(text: &str) -> PyResult<Size> {
    text.parse::<Size>().map_err(|e| Error::Option(e.to_string()).into())
}

/// The goal board for boards of `size` from a name (`blank-last`, `blank-first`, `snail`), a
/// board in any form, or `None` (blank-last); with the goal's name when it has one.
///
/// # Errors
/// `InvalidGoalError`: not a goal, or a goal of another size.
pub(crate) fn goal(
    obj: Option<&Bound<'_, PyAny>>,
    size: Size,
) -> PyResult<(Board, Option<&'static str>)> {
    let goal = match obj {
        None => Goal::BlankLast,
        Some(obj) if obj.is_none() => Goal::BlankLast,
        Some(obj) => match obj.cast::<PyString>() {
            Ok(text) => text.to_cow()?.parse::<Goal>().map_err(|e| Error::Goal(e.to_string()))?,
            Err(_) => Goal::Board(board(obj).map_err(|e| {
                let reason = e.value(obj.py()).to_string();
                PyErr::from(Error::Goal(format!("invalid goal: {reason}")))
            })?),
        },
    };
    let name = goal.name();
    let board = goal.board(size).map_err(|e| Error::Goal(e.to_string()))?;
    Ok((board, name))
}

/// Moves from a string of tile-direction letters (`"DDLU"`, or compact `"D2LU"`), or a
/// sequence of tile numbers to slide, made from `board`.
///
/// # Errors
/// `InvalidMoveError` with the command line's reason.
pub(crate) fn moves(board: &Board, obj: &Bound<'_, PyAny>) -> PyResult<Moves> {
    if let Ok(text) = obj.cast::<PyString>() {
        return text.to_cow()?.parse::<Moves>().map_err(|e| Error::Move(e.to_string()).into());
    }
    let tiles: Vec<i64> = obj.extract().map_err(|_| {
        Error::Move(
            "moves are a string of letters (\"DDLU\", tile directions) or a list of tile numbers"
                .to_string(),
        )
    })?;
    let tiles: Vec<u32> = tiles.iter().map(|&t| u32::try_from(t).unwrap_or(u32::MAX)).collect();
    board.moves_for_tiles(&tiles).map_err(|e| Error::Move(e.to_string()).into())
}

/// The options of a solve, and what the messages need to know of them.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    /// The solver's options.
    pub options: Options,
    /// The memory limit the caller gave, in bytes (for the limit's message).
    pub max_memory: Option<usize>,
}

/// The default time limit, as on the command line.
pub(crate) const DEFAULT_TIMEOUT: Duration = Limits::DEFAULT_TIMEOUT;
/// The default memory limit, as on the command line.
pub(crate) const DEFAULT_MEMORY_MIB: u64 = 1024;
/// The longest time limit the command line takes: a year.
const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// The options of a solve from the keyword arguments. `timeout` is in seconds (`None`: 60,
/// as on the command line; `math.inf`: none), `max_memory` in MiB (`None`: 1024) and is
/// shared by `threads` searches at once.
///
/// # Errors
/// `InvalidOptionError` with the command line's reason.
#[expect(clippy::too_many_arguments, reason = "the keyword arguments of solve, one each")]
pub(crate) fn request(
    algorithm: &str,
    heuristic: &str,
    weight: f64,
    optimal: bool,
    timeout: Option<f64>,
    max_nodes: Option<i64>,
    max_memory: Option<i64>,
    threads: usize,
) -> PyResult<Request> {
    let algorithm: Algorithm =
        algorithm.parse().map_err(|e: npuzzle_solver::UnknownName| Error::Option(e.to_string()))?;
    let heuristic: Heuristic =
        heuristic.parse().map_err(|e: npuzzle_solver::UnknownName| Error::Option(e.to_string()))?;
    if !(1.0..=100.0).contains(&weight) {
        return Err(Error::Option(format!(
            "weight: {weight} is not a weight: expected a number from 1 to 100"
        ))
        .into());
    }
    let timeout = match timeout {
        None => Some(DEFAULT_TIMEOUT),
        Some(t) if t == f64::INFINITY => None,
        Some(t) if t.is_finite() && t > 0.0 && t <= MAX_SECONDS => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(Error::Option(format!(
                "timeout: {t} is not a time: expected a positive number of seconds (at most a \
                 year), or math.inf for none"
            ))
            .into());
        }
    };
    let max_nodes = match max_nodes {
        None => None,
        Some(n) if n >= 1 => Some(n as u64),
        Some(_) => return Err(Error::Option("max_nodes: must be at least 1".to_string()).into()),
    };
    let max_memory = match max_memory {
        None => Some(DEFAULT_MEMORY_MIB << 20),
        Some(m) if m >= 1 => (m as u64).checked_mul(1 << 20),
        Some(_) => return Err(Error::Option("max_memory: must be at least 1".to_string()).into()),
    }
    .and_then(|b| usize::try_from(b).ok());
    let Some(max_memory) = max_memory else {
        return Err(Error::Option(
            "max_memory: more memory than this machine can address".to_string(),
        )
        .into());
    };
    let options = Options {
        algorithm,
        heuristic,
        weight,
        optimal,
        improve: false,
        // As on the command line: the time the caller allows is the time auto's optimal
        // attempt may take; without one, auto's own budget.
        optimal_attempt: timeout.filter(|&t| t != DEFAULT_TIMEOUT),
        limits: Limits {
            max_nodes,
            max_memory: Some((max_memory / threads.max(1)).max(1 << 20)),
            timeout,
            cancel: None,
        },
    };
    Ok(Request { options, max_memory: Some(max_memory) })
}

/// `improve` seconds (`solve`'s and `solve_many`'s keyword, the command line's `--improve`):
/// boards of `size` that the near-optimal engine or the reduction solver answers get their
/// anytime mode for that long (within the timeout), keeping the best answer so far; other
/// boards are solved as without it.
///
/// # Errors
/// `InvalidOptionError` for a time that is not a positive number of seconds.
pub(crate) fn improve(request: &mut Request, improve: Option<f64>, size: Size) -> PyResult<()> {
    let Some(secs) = improve else { return Ok(()) };
    if !(secs.is_finite() && secs > 0.0 && secs <= MAX_SECONDS) {
        return Err(Error::Option(format!(
            "improve: {secs} is not a time: expected a positive number of seconds (at most a \
             year)"
        ))
        .into());
    }
    let secs = Duration::from_secs_f64(secs);
    let options = &mut request.options;
    options.improve = true;
    if npuzzle_solver::plan(size, options).is_ok_and(|p| p.improves()) {
        options.limits.timeout = options.limits.timeout.map(|t| t.min(secs)).or(Some(secs));
    }
    Ok(())
}

/// A batch of boards `(count, height, width)`, held as numpy gave it where it could be read
/// in place (`uint8`, `uint16`), else copied into `u16` cells.
pub(crate) struct Batch<'py> {
    holder: Holder<'py>,
    /// The boards' size.
    pub size: Size,
    /// How many boards.
    pub count: usize,
}

enum Holder<'py> {
    U8(PyReadonlyArray3<'py, u8>),
    U16(PyReadonlyArray3<'py, u16>),
    Owned(Vec<u16>),
}

/// The cells of a batch, row-major, board after board.
#[derive(Clone, Copy)]
pub(crate) enum Cells<'a> {
    /// One byte a cell (boards of at most 256 cells).
    U8(&'a [u8]),
    /// Two bytes a cell.
    U16(&'a [u16]),
}

impl Batch<'_> {
    /// The cells, board after board.
    pub(crate) fn cells(&self) -> Cells<'_> {
        match &self.holder {
            // Both arrays were made C-contiguous before they were borrowed.
            Holder::U8(a) => Cells::U8(a.as_slice().unwrap_or(&[])),
            Holder::U16(a) => Cells::U16(a.as_slice().unwrap_or(&[])),
            Holder::Owned(v) => Cells::U16(v),
        }
    }
}

/// A tile type of a batch's cells.
pub(crate) trait Tile: Copy + Send + Sync {
    /// The tile number.
    fn get(self) -> usize;
}

impl Tile for u8 {
    #[inline]
    fn get(self) -> usize {
        usize::from(self)
    }
}

impl Tile for u16 {
    #[inline]
    fn get(self) -> usize {
        usize::from(self)
    }
}

/// A batch from a numpy array `(count, height, width)` of whole numbers, or a list of boards
/// in any form (strings, `Board`s, rows) of one size.
///
/// # Errors
/// `InvalidBoardError` for an array of another shape or type, or a board that cannot be read.
pub(crate) fn batch<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Batch<'py>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    if let Some(items) = sequence(obj) {
        // A list of arrays (or of rows) of one shape is read as one array; anything else
        // (strings, Boards, a mix) board by board.
        let plain = !items.is_empty()
            && items
                .iter()
                .all(|item| !item.is_instance_of::<PyString>() && item.cast::<PyBoard>().is_err());
        let stacked = if plain { np.call_method1("asarray", (obj,)).ok() } else { None };
        let integer_3d = stacked.as_ref().is_some_and(|a| {
            a.getattr("ndim").and_then(|n| n.extract::<usize>()).is_ok_and(|n| n == 3)
                && a.getattr("dtype")
                    .and_then(|d| d.getattr("kind"))
                    .and_then(|k| k.extract::<String>())
                    .is_ok_and(|k| k == "i" || k == "u")
        });
        if !integer_3d {
            return listed(py, &items);
        }
    }
    let array = np.call_method1("ascontiguousarray", (obj,))?;
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    let [count, height, width] = shape[..] else {
        return Err(Error::Board(format!(
            "boards must be an array of shape (count, height, width); got shape {}",
            array.getattr("shape")?.repr()?
        ))
        .into());
    };
    let size = Size::new(width, height).map_err(|e| Error::Board(e.to_string()))?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    if kind != "i" && kind != "u" {
        return Err(Error::Board(format!(
            "boards must hold whole numbers; got an array of {}",
            dtype.str()?
        ))
        .into());
    }
    if let Ok(a) = array.extract::<PyReadonlyArray3<'py, u8>>() {
        return Ok(Batch { holder: Holder::U8(a), size, count });
    }
    if let Ok(a) = array.extract::<PyReadonlyArray3<'py, u16>>() {
        return Ok(Batch { holder: Holder::U16(a), size, count });
    }
    // Another integer type: in range, then as u16.
    if count > 0 {
        let min: i128 = array.call_method0("min")?.extract()?;
        let max: i128 = array.call_method0("max")?.extract()?;
        if min < 0 {
            return Err(Error::Board(BoardError::Negative(min.to_string()).to_string()).into());
        }
        if max > i128::from(u16::MAX) || max >= size.cells() as i128 {
            let tile = u64::try_from(max).unwrap_or(u64::MAX);
            let e = BoardError::OutOfRange { tile, size, max: size.cells() - 1 };
            return Err(Error::Board(e.to_string()).into());
        }
    }
    let cast = array.call_method1("astype", (np.getattr("uint16")?,))?;
    let a = cast.extract::<PyReadonlyArray3<'py, u16>>()?;
    Ok(Batch { holder: Holder::U16(a), size, count })
}

/// A batch from a list of boards in any form, one by one.
fn listed<'py>(py: Python<'py>, items: &[Bound<'py, PyAny>]) -> PyResult<Batch<'py>> {
    if items.is_empty() {
        return Err(Error::Board(
            "no boards given (for none, give an array of shape (0, height, width))".to_string(),
        )
        .into());
    }
    let mut cells = Vec::new();
    let mut size = None;
    for (i, item) in items.iter().enumerate() {
        let b = board(item)
            .map_err(|e| PyErr::from(Error::Board(format!("boards[{i}]: {}", e.value(py)))))?;
        match size {
            None => size = Some(b.size()),
            Some(s) if s != b.size() => {
                return Err(Error::Board(format!(
                    "boards[{i}] is {} but boards[0] is {s}: a batch holds boards of one size",
                    b.size()
                ))
                .into());
            }
            Some(_) => {}
        }
        cells.extend_from_slice(b.tiles());
    }
    let Some(size) = size else {
        return Err(Error::Board("no boards given".to_string()).into());
    };
    Ok(Batch { holder: Holder::Owned(cells), size, count: items.len() })
}

/// Checks that `tiles` is a permutation of `0..tiles.len()`, with the command line's
/// message for the first problem; `seen` is scratch space, reused between boards.
pub(crate) fn check<T: Tile>(
    tiles: &[T],
    size: Size,
    seen: &mut Vec<u64>,
) -> Result<(), BoardError> {
    let n = tiles.len();
    seen.clear();
    seen.resize(n.div_ceil(64), 0);
    for &t in tiles {
        let t = t.get();
        if t >= n {
            return Err(BoardError::OutOfRange { tile: t as u64, size, max: n - 1 });
        }
        let (word, bit) = (t / 64, 1u64 << (t % 64));
        if seen[word] & bit != 0 {
            return Err(BoardError::Duplicate(t as u64));
        }
        seen[word] |= bit;
    }
    Ok(())
}

/// Board `i` of a batch as a [`Board`], checked.
pub(crate) fn board_at<T: Tile>(tiles: &[T], size: Size, i: usize) -> Result<Board, Error> {
    let cells: Vec<u16> = tiles.iter().map(|&t| t.get() as u16).collect();
    // Tiles above u16 were refused when the batch was read; `Board::new` checks the rest.
    Board::new(size, cells).map_err(|e| Error::Board(format!("boards[{i}]: {e}")))
}

/// Boards as a numpy array `(count, height, width)`: `uint8` for boards of at most 256
/// cells, `uint16` above.
pub(crate) fn boards_array<'py>(
    py: Python<'py>,
    size: Size,
    cells: Vec<u16>,
) -> PyResult<Bound<'py, PyAny>> {
    let count = cells.len() / size.cells().max(1);
    let shape = [count, size.height(), size.width()];
    if size.cells() <= 256 {
        let small: Vec<u8> = cells.into_iter().map(|t| t as u8).collect();
        Ok(PyArray1::from_vec(py, small).reshape(shape)?.into_any())
    } else {
        Ok(PyArray1::from_vec(py, cells).reshape(shape)?.into_any())
    }
}

/// The number of worker threads for a batch: `threads`, or every core.
///
/// # Errors
/// `InvalidOptionError` for zero threads.
pub(crate) fn threads(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        None => Ok(crate::interrupt::default_threads()),
        Some(0) => Err(Error::Option("threads: must be at least 1".to_string()).into()),
        Some(n) => Ok(n.min(1024)),
    }
}

/// The shape `(height, width)` of a size, for numpy.
pub(crate) fn shape(size: Size) -> (usize, usize) {
    (size.height(), size.width())
}
