//! `solve` and `hint`, and the `Solution`, `Hint` and `HintMove` classes.

use npuzzle_core::{Board, Goal, Parity};
use npuzzle_solver::{Algorithm, Limit, Live, Reason, Record, Solution, Status, thousands};
use pyo3::prelude::*;
use pyo3::types::PyType;

use crate::board::PyBoard;
use crate::convert::{self, Request};
use crate::errors::Error;
use crate::{databases, engine, interrupt};

/// The answer of a solve: the fields of the JSON record of ``npuzzle solve --format json``.
///
/// ``status`` is ``"solved"``, ``"unsolvable"`` or ``"limit"``; ``moves`` the letters of
/// the tile directions (empty unless solved); ``optimal`` is true only when the length is
/// proven minimal; ``error`` the command line's one-line reason when not solved; ``note``
/// why an answer is not proven optimal. ``to_dict()`` gives the record itself.
///
/// >>> s = npuzzle.solve("8 6 7/2 5 4/3 0 1")
/// >>> s.status, s.length, s.optimal, s.moves[:6]
/// ('solved', 31, True, 'DDLURR')
/// >>> str(npuzzle.Board(s.board).apply(s.moves)) == s.goal
/// True
#[pyclass(name = "Solution", module = "npuzzle", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PySolution {
    pub(crate) record: Record,
}

#[pymethods]
impl PySolution {
    /// ``"solved"``, ``"unsolvable"`` or ``"limit"``.
    #[getter]
    fn status(&self) -> &str {
        &self.record.status
    }

    /// Whether the board was solved.
    #[getter]
    fn solved(&self) -> bool {
        self.record.status == "solved"
    }

    /// The board, in the standard notation.
    #[getter]
    fn board(&self) -> &str {
        &self.record.board
    }

    /// The goal, in the standard notation.
    #[getter]
    fn goal(&self) -> Option<&str> {
        self.record.goal.as_deref()
    }

    /// Columns.
    #[getter]
    fn width(&self) -> Option<usize> {
        self.record.width
    }

    /// Rows.
    #[getter]
    fn height(&self) -> Option<usize> {
        self.record.height
    }

    /// The algorithm that ran (``table``, ``idastar``, ...; never ``auto``).
    #[getter]
    fn algorithm(&self) -> &str {
        &self.record.algorithm
    }

    /// The heuristic that guided it, or ``None``.
    #[getter]
    fn heuristic(&self) -> Option<&str> {
        self.record.heuristic.as_deref()
    }

    /// True only when the length is proven minimal.
    #[getter]
    fn optimal(&self) -> bool {
        self.record.optimal
    }

    /// The number of moves, or ``None`` unless solved.
    #[getter]
    fn length(&self) -> Option<usize> {
        self.record.length
    }

    /// The moves, one letter each (tile directions); empty unless solved.
    #[getter]
    fn moves(&self) -> &str {
        &self.record.moves
    }

    /// The tile slid by each move.
    #[getter]
    fn tiles(&self) -> Vec<u16> {
        self.record.tiles.clone()
    }

    /// Nodes expanded.
    #[getter]
    fn expanded(&self) -> u64 {
        self.record.expanded
    }

    /// Nodes generated.
    #[getter]
    fn generated(&self) -> u64 {
        self.record.generated
    }

    /// The largest frontier.
    #[getter]
    fn max_frontier(&self) -> u64 {
        self.record.max_frontier
    }

    /// Wall-clock seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.record.seconds
    }

    /// Why the board was not solved (the command line's reason), or ``None``.
    #[getter]
    fn error(&self) -> Option<&str> {
        self.record.error.as_deref()
    }

    /// The moves with runs as counts (``R2U2LD``), or ``None`` unless solved.
    #[getter]
    fn compact(&self) -> Option<&str> {
        self.record.compact.as_deref()
    }

    /// The length in the multi-tile metric, or ``None`` unless solved.
    #[getter]
    fn multi_tile_length(&self) -> Option<usize> {
        self.record.multi_tile_length
    }

    /// A proven lower bound on the optimal length, for an answer not proven optimal.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        self.record.lower_bound
    }

    /// How the answer was found, chiefly why it is not proven optimal, or ``None``.
    #[getter]
    fn note(&self) -> Option<&str> {
        self.record.note.as_deref()
    }

    /// The boards along the solution, from the board to the goal (``length + 1`` of them;
    /// just the board when not solved).
    fn states(&self) -> PyResult<Vec<PyBoard>> {
        let mut b = npuzzle_core::parse_board(&self.record.board)
            .map_err(|e| Error::Board(e.to_string()))?;
        let moves: npuzzle_core::Moves = self
            .record
            .moves
            .parse()
            .map_err(|e: npuzzle_core::MoveError| Error::Move(e.to_string()))?;
        let mut out = Vec::with_capacity(moves.len() + 1);
        out.push(PyBoard::from(b.clone()));
        for &m in moves.as_slice() {
            b.apply(m).map_err(|e| Error::Move(e.to_string()))?;
            out.push(PyBoard::from(b.clone()));
        }
        Ok(out)
    }

    /// The record as a dict: the object ``npuzzle solve --format json`` prints.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?.call_method1("loads", (self.record.to_json(),))
    }

    /// The record as one line of JSON, as ``npuzzle solve --format json`` prints it.
    fn to_json(&self) -> String {
        self.record.to_json()
    }

    /// Raises ``UnsolvableError`` or ``LimitError`` (with the reason) unless solved.
    fn raise_for_status(&self) -> PyResult<()> {
        let reason = self.record.error.clone().unwrap_or_default();
        match self.record.status.as_str() {
            "solved" => Ok(()),
            "unsolvable" => Err(Error::Unsolvable(reason).into()),
            _ => Err(Error::Limit(reason).into()),
        }
    }

    /// A solution from its JSON record (for pickling).
    #[classmethod]
    fn from_json(_cls: &Bound<'_, PyType>, json: &str) -> PyResult<PySolution> {
        let record: Record = serde_json::from_str(json)
            .map_err(|e| Error::Option(format!("not a solution record: {e}")))?;
        Ok(PySolution { record })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().record.to_json(),)))
    }

    fn __repr__(&self) -> String {
        let r = &self.record;
        match (r.status.as_str(), r.length) {
            ("solved", Some(n)) => format!(
                "Solution(board='{}', {n} moves{}, moves='{}', algorithm='{}')",
                r.board,
                if r.optimal { ", optimal" } else { ", not proven optimal" },
                r.moves,
                r.algorithm
            ),
            (status, _) => format!(
                "Solution(board='{}', status='{status}', error={:?})",
                r.board,
                r.error.as_deref().unwrap_or("")
            ),
        }
    }
}

/// The record of `solution` for `board` towards `goal`, with the command line's reasons.
pub(crate) fn record(
    board: &Board,
    goal: &Board,
    goal_name: Option<&str>,
    solution: &Solution,
    request: &Request,
) -> Record {
    let mut record = Record::new(board, goal, solution);
    record.error = reason(board, goal, goal_name, solution, request);
    record
}

/// Why the board was not solved, in the command line's words (`None` when it was).
fn reason(
    board: &Board,
    goal: &Board,
    goal_name: Option<&str>,
    s: &Solution,
    request: &Request,
) -> Option<String> {
    match s.reason.as_ref()? {
        Reason::Unsolvable(parity) => Some(unsolvable(board, goal, goal_name, parity)),
        Reason::Limit(limit) => {
            let what = match (limit, request.max_memory) {
                (Limit::Memory(_), Some(given)) => format!(
                    "memory limit of {} MiB reached after {} expanded nodes",
                    given >> 20,
                    thousands(s.stats.expanded)
                ),
                _ => s.error().unwrap_or_default(),
            };
            let bound = s.lower_bound.map(|b| format!(" (lower bound {b})")).unwrap_or_default();
            Some(what + &bound)
        }
        _ => s.error(),
    }
}

/// `unsolvable towards blank-last: <parity>; solvable towards snail: use goal="snail"`: the
/// command line's reason, naming the argument instead of its flag.
pub(crate) fn unsolvable(
    board: &Board,
    goal: &Board,
    goal_name: Option<&str>,
    parity: &Parity,
) -> String {
    let towards = match goal_name {
        Some(name) => format!("unsolvable towards {name}: {parity}"),
        None => format!("unsolvable towards the given goal: {parity}"),
    };
    let others: Vec<&'static str> = [Goal::BlankLast, Goal::BlankFirst, Goal::Snail]
        .iter()
        .filter(|g| g.name() != goal_name)
        .filter_map(|g| {
            let other = g.board(board.size()).ok()?;
            (&other != goal && board.is_solvable(&other)).then(|| g.name()).flatten()
        })
        .collect();
    if others.is_empty() {
        return towards;
    }
    let how = others.iter().map(|n| format!("goal=\"{n}\"")).collect::<Vec<_>>().join(" or ");
    format!("{towards}; solvable towards {}: use {how}", others.join(" and "))
}

/// Whether a request is answered by the exact table at once (no thread, no Ctrl-C needed).
pub(crate) fn instant(board: &Board, request: &Request) -> bool {
    board.tiles().len() <= 9
        && matches!(request.options.algorithm, Algorithm::Auto | Algorithm::Table)
}

/// What a solve has found and proved so far, handed to ``solve``'s ``progress`` callback.
#[pyclass(name = "Progress", module = "npuzzle", frozen, eq)]
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct PyProgress {
    /// Seconds since the solve started.
    #[pyo3(get)]
    seconds: f64,
    /// The best lower bound on the optimal length proved so far, or ``None``.
    #[pyo3(get)]
    lower_bound: Option<u32>,
    /// The length of the shortest solution found so far, or ``None`` (the near-optimal
    /// engine has one long before it ends; the optimal searches only at the end).
    #[pyo3(get)]
    best: Option<u64>,
    /// Nodes expanded so far, as the engine reports them (the near-optimal engine counts
    /// its nodes only at the end: 0 until then).
    #[pyo3(get)]
    expanded: u64,
}

#[pymethods]
impl PyProgress {
    fn __repr__(&self) -> String {
        let opt = |v: Option<u64>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Progress(seconds={:.3}, lower_bound={}, best={}, expanded={})",
            self.seconds,
            opt(self.lower_bound.map(u64::from)),
            opt(self.best),
            self.expanded
        )
    }
}

/// Calls `callback` with what `live` holds when it changed since `last` (the time aside):
/// `Ok(false)` when the callback returned ``False`` (stop with the best answer so far).
fn report(
    py: Python<'_>,
    callback: &Py<PyAny>,
    live: &Live,
    last: &mut Option<(Option<u32>, Option<u64>, u64)>,
) -> PyResult<bool> {
    let now = (live.bound(), live.best(), live.expanded());
    if *last == Some(now) || now == (None, None, 0) {
        return Ok(true);
    }
    *last = Some(now);
    let (lower_bound, best, expanded) = now;
    let progress =
        PyProgress { seconds: live.elapsed().as_secs_f64(), lower_bound, best, expanded };
    let answer = callback.call1(py, (progress,))?;
    // Only an explicit False stops: None (a function that returns nothing) goes on.
    Ok(!answer.bind(py).is(pyo3::types::PyBool::new(py, false)))
}

/// Runs `work` on the pool with Ctrl-C handled (see [`interrupt::interruptible`]); with a
/// ``progress`` callable, `work` gets a [`Live`] for its solve, and the callable hears what it
/// holds as it changes (see [`report`]).
fn with_progress<R: Send>(
    py: Python<'_>,
    cancel: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    progress: Option<Py<PyAny>>,
    work: impl FnOnce(Option<&std::sync::Arc<Live>>) -> R + Send,
) -> PyResult<R> {
    match progress {
        None => interrupt::interruptible(py, cancel, || work(None)),
        Some(callback) => {
            let live = std::sync::Arc::new(Live::new());
            let mut last = None;
            let mut poll = |py: Python<'_>| report(py, &callback, &live, &mut last);
            interrupt::interruptible_watched(py, cancel, &mut poll, || work(Some(&live)))
        }
    }
}

/// Refuses a ``progress`` that cannot be called, before any work.
fn check_callable(py: Python<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
    match progress {
        Some(callback) if !callback.bind(py).is_callable() => Err(Error::Option(
            "progress must be a callable (it is called with a Progress)".to_string(),
        )
        .into()),
        _ => Ok(()),
    }
}

/// Solves a board optimally where that takes seconds (every board up to 4x4 with the default
/// ``algorithm="auto"``), otherwise with a fast method that says so in ``note``.
///
/// ``board`` is a ``Board``, a string (``"8 6 7/2 5 4/3 0 1"``) or rows of numbers;
/// ``goal`` is ``"blank-last"`` (default), ``"blank-first"``, ``"snail"`` or a board.
/// ``algorithm``: ``auto bfs dfs iddfs dijkstra greedy astar wastar idastar table
/// reduction near``; ``heuristic``: ``auto hamming manhattan linear-conflict walking-distance
/// pdb``. ``timeout`` is in seconds (default 60, ``math.inf`` for none), ``max_memory`` in
/// MiB (default 1024); limits only limit. The GIL is released while searching, and Ctrl-C
/// stops the search (``KeyboardInterrupt``).
///
/// ``improve`` (seconds), as the command line's ``--improve``: on boards that the
/// near-optimal engine (4x5 to 64x64, and up to 128x128 with 10 s or more) or the
/// reduction solver answers, their anytime mode runs that long (within ``timeout``) and
/// the best answer so far is kept; answers only get shorter with more time, and ``note``
/// says how far it came. Other boards are solved as without it.
///
/// ``progress``, a callable, is called with a ``Progress`` (``seconds``, ``lower_bound``,
/// ``best``, ``expanded``) each time the bound, the best length so far or the node count
/// changed, at most twenty times a second, on the calling thread; it is not called for
/// answers that come at once (boards of at most 9 cells). Returning ``False`` stops the
/// solve, which then answers with the best solution found so far (a ``limit`` status when
/// it had none); an exception it raises stops the solve and is raised.
///
/// Returns a ``Solution`` (an unsolvable board or a limit is a status, not an exception);
/// bad input raises an ``InvalidInputError`` with the command line's reason.
///
/// >>> s = npuzzle.solve("1 2 3/4 5 6/0 7 8")
/// >>> s.moves, s.optimal
/// ('LL', True)
/// >>> npuzzle.solve("1 2 3/4 5 6/8 7 0").error
/// 'unsolvable towards blank-last: ...; solvable towards snail: use goal="snail"'
#[pyfunction]
#[pyo3(signature = (board, goal = None, *, algorithm = "auto", heuristic = "auto", optimal = false,
    timeout = None, max_nodes = None, max_memory = None, weight = 2.0, improve = None,
    progress = None))]
#[expect(clippy::too_many_arguments, reason = "solve's keyword arguments, as on the command line")]
pub(crate) fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    heuristic: &str,
    optimal: bool,
    timeout: Option<f64>,
    max_nodes: Option<i64>,
    max_memory: Option<i64>,
    weight: f64,
    improve: Option<f64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PySolution> {
    let board = convert::board(board)?;
    let (goal, goal_name) = convert::goal(goal, board.size())?;
    let mut request =
        convert::request(algorithm, heuristic, weight, optimal, timeout, max_nodes, max_memory, 1)?;
    convert::improve(&mut request, improve, board.size())?;
    check_callable(py, progress.as_ref())?;
    let solution = if instant(&board, &request) {
        interrupt::detached(py, || engine::solve(&board, &goal, &request.options))?
    } else {
        let cancel = interrupt::flag();
        request.options.limits.cancel = Some(std::sync::Arc::clone(&cancel));
        let options = &request.options;
        with_progress(py, &cancel, progress, |live| match live {
            None => engine::solve(&board, &goal, options),
            Some(live) => engine::solve_live(&board, &goal, options, live),
        })?
    };
    databases::flush_warnings(py)?;
    let solution = solution?;
    Ok(PySolution { record: record(&board, &goal, goal_name, &solution, &request) })
}

/// One legal move of a hint.
#[pyclass(name = "HintMove", module = "npuzzle", frozen, eq)]
#[derive(Clone, PartialEq)]
pub(crate) struct PyHintMove {
    /// The move's letter (tile direction).
    #[pyo3(get)]
    r#move: String,
    /// The tile it slides.
    #[pyo3(get)]
    tile: u16,
    /// The distance to the goal after it, or ``None`` when the board cannot reach the goal.
    #[pyo3(get)]
    distance: Option<u64>,
    /// Whether ``distance`` is the proven optimal distance (otherwise a lower bound).
    #[pyo3(get)]
    exact: bool,
}

#[pymethods]
impl PyHintMove {
    fn __repr__(&self) -> String {
        let d = self.distance.map_or("None".to_string(), |d| d.to_string());
        format!(
            "HintMove(move='{}', tile={}, distance={d}, exact={})",
            self.r#move,
            self.tile,
            if self.exact { "True" } else { "False" }
        )
    }
}

/// The answer of ``hint``: the best move and every legal move's distance after it.
#[pyclass(name = "Hint", module = "npuzzle", frozen)]
pub(crate) struct PyHint {
    /// The move to make (a letter), or ``None`` (at the goal, unsolvable, or a limit).
    #[pyo3(get)]
    best: Option<String>,
    /// The board's distance to the goal (optimal when ``exact``), or ``None``.
    #[pyo3(get)]
    distance: Option<u64>,
    /// Whether ``best`` and ``distance`` are proven optimal.
    #[pyo3(get)]
    exact: bool,
    /// Every legal move, in the order ``U D L R``, with the distance after it.
    #[pyo3(get)]
    moves: Vec<PyHintMove>,
    /// The solve the hint comes from.
    #[pyo3(get)]
    solution: PySolution,
}

#[pymethods]
impl PyHint {
    fn __repr__(&self) -> String {
        format!(
            "Hint(best={}, distance={}, exact={}, moves={})",
            self.best.as_ref().map_or("None".to_string(), |b| format!("'{b}'")),
            self.distance.map_or("None".to_string(), |d| d.to_string()),
            if self.exact { "True" } else { "False" },
            self.moves.iter().map(PyHintMove::__repr__).collect::<Vec<_>>().join(", ")
        )
    }
}

/// Every legal move with the distance to the goal after it, and the best move: exact up to
/// 4x4 (instant on boards of at most 9 cells), estimates above (the fast solver's move, not
/// proven optimal). The library function behind ``npuzzle hint`` and the games' Hint
/// buttons.
///
/// ``progress``, a callable, is called as ``solve``'s is, with what the hint's solve has found
/// and proved so far (on big boards a hint is a near-optimal solve of seconds); returning
/// ``False`` stops it with the first move of the best path found so far.
///
/// >>> h = npuzzle.hint("1 2 3/4 5 6/7 0 8")
/// >>> h.best, h.distance, [m.distance for m in h.moves]
/// ('L', 1, [2, 0, 2])
#[pyfunction]
#[pyo3(signature = (board, goal = None, *, timeout = None, max_memory = None, progress = None))]
pub(crate) fn hint(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    timeout: Option<f64>,
    max_memory: Option<i64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<PyHint> {
    let board = convert::board(board)?;
    let (goal, goal_name) = convert::goal(goal, board.size())?;
    let mut request = convert::request("auto", "auto", 2.0, false, timeout, None, max_memory, 1)?;
    check_callable(py, progress.as_ref())?;
    let cancel = interrupt::flag();
    request.options.limits.cancel = Some(std::sync::Arc::clone(&cancel));
    let options = &request.options;
    let hint = with_progress(py, &cancel, progress, |live| match live {
        None => engine::hint(&board, &goal, options),
        Some(live) => engine::hint_live(&board, &goal, options, live),
    })?;
    databases::flush_warnings(py)?;
    let hint = hint?;
    Ok(py_hint(&board, &goal, goal_name, &hint, &request))
}

/// The Python value of a hint.
pub(crate) fn py_hint(
    board: &Board,
    goal: &Board,
    goal_name: Option<&str>,
    hint: &npuzzle_solver::Hint,
    request: &Request,
) -> PyHint {
    let moves = hint
        .moves
        .iter()
        .map(|m| PyHintMove {
            r#move: m.direction.letter().to_string(),
            tile: m.tile,
            distance: m.distance,
            exact: m.exact,
        })
        .collect();
    let solved = hint.solution.status == Status::Solved;
    PyHint {
        best: hint.best.map(|m| m.letter().to_string()),
        distance: hint.distance.filter(|_| solved),
        exact: hint.exact,
        moves,
        solution: PySolution { record: record(board, goal, goal_name, &hint.solution, request) },
    }
}
