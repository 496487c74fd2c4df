//! The batch calls: boards in as numpy arrays `(count, height, width)` (or lists of boards),
//! answers out as numpy arrays, the work spread over every core (rayon), with the GIL
//! released and Ctrl-C watched.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use npuzzle_core::{Board, Scrambler, Size};
use npuzzle_solver::heuristic::walking_distance::WalkingDistance;
use npuzzle_solver::heuristic::{GoalMap, frame::Frame};
use npuzzle_solver::{Heuristic, Solution, Status};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::convert::{self, Cells, Request, Tile};
use crate::errors::Error;
use crate::solution::PySolution;
use crate::{databases, engine, interrupt, solution};

/// The most cells a call may make or hold at once (2 GiB of `u16`): a guard against a count
/// that would not fit in memory, since an allocation failure aborts the process, it cannot
/// be caught.
pub(crate) const MAX_CELLS_PER_CALL: u64 = 1 << 30;
/// The most moves `scramble(walk=...)` makes in one call, as on the command line.
const MAX_WALK_STEPS: u64 = 1_000_000_000;

/// `f(i)` for every `i < count` on `threads` threads, in order; items left when `cancel`
/// rises are `None`. `min_len` items at least go to a thread at a time (many for cheap
/// items, so that the scheduling does not cost more than the work).
fn par_map<T: Send>(
    threads: usize,
    count: usize,
    min_len: usize,
    cancel: &AtomicBool,
    f: impl Fn(usize) -> T + Sync + Send,
) -> Result<Vec<Option<T>>, Error> {
    let run = || {
        (0..count)
            .into_par_iter()
            .with_min_len(min_len)
            .map(|i| (!cancel.load(Ordering::Relaxed)).then(|| f(i)))
            .collect()
    };
    if threads <= 1 || count <= 1 {
        return Ok((0..count).map(|i| (!cancel.load(Ordering::Relaxed)).then(|| f(i))).collect());
    }
    Ok(interrupt::pool(threads)?.install(run))
}

/// The most boards a batch solves before its pattern database is worth copying from the
/// mapped file into memory (huge pages where the system gives them: fewer TLB misses).
const PREPARE_AT: usize = 64;

/// Readies the database of a batch of `count` boards, when it is long enough to pay.
fn prepare(count: usize, goal: &Board, options: &npuzzle_solver::Options) {
    if count >= PREPARE_AT && goal.tiles().len() > 9 {
        engine::prepare(goal, options);
    }
}

/// The first error of a batch's results (by index), or the values.
fn gather<T>(results: Vec<Option<Result<T, Error>>>) -> Result<Vec<T>, Error> {
    let mut out = Vec::with_capacity(results.len());
    for r in results {
        match r {
            Some(Ok(v)) => out.push(v),
            Some(Err(e)) => return Err(e),
            // Cancelled: the caller raises KeyboardInterrupt before looking.
            None => return Err(Error::Limit("search cancelled".to_string())),
        }
    }
    Ok(out)
}

/// Board `i` of a batch, checked.
fn board_of(cells: Cells<'_>, size: Size, i: usize) -> Result<Board, Error> {
    let n = size.cells();
    match cells {
        Cells::U8(c) => convert::board_at(&c[i * n..(i + 1) * n], size, i),
        Cells::U16(c) => convert::board_at(&c[i * n..(i + 1) * n], size, i),
    }
}

/// Random boards as a numpy array ``(count, height, width)``: uniformly random boards that
/// can reach ``goal`` (``unsolvable=True``: that cannot), or, with ``walk=k``, ``k`` random
/// moves from the goal (never undoing the last). The same ``seed`` gives the same boards as
/// ``npuzzle scramble --seed`` (ChaCha8, on every platform); without one, a random seed.
///
/// >>> npuzzle.scramble("3x3", count=2, seed=1).shape
/// (2, 3, 3)
#[pyfunction]
#[pyo3(signature = (size, count = 1, seed = None, walk = None, *, goal = None, unsolvable = false))]
pub(crate) fn scramble<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    count: i64,
    seed: Option<u64>,
    walk: Option<i64>,
    goal: Option<&Bound<'py, PyAny>>,
    unsolvable: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let size = convert::size_of(size)?;
    let (goal, _) = convert::goal(goal, size)?;
    let count =
        u64::try_from(count).map_err(|_| Error::Option("count: must be at least 0".to_string()))?;
    if count.saturating_mul(size.cells() as u64) > MAX_CELLS_PER_CALL {
        return Err(Error::Option(format!(
            "count: {count} boards of {size} are more than one call makes (at most {} cells)",
            MAX_CELLS_PER_CALL
        ))
        .into());
    }
    let walk = match walk {
        None => None,
        Some(k) if k >= 0 => Some(k as u64),
        Some(_) => return Err(Error::Option("walk: must be at least 0".to_string()).into()),
    };
    if let Some(k) = walk {
        if unsolvable {
            return Err(Error::Option(
                "walk and unsolvable exclude each other: a walk from the goal is solvable"
                    .to_string(),
            )
            .into());
        }
        if k.saturating_mul(count) > MAX_WALK_STEPS {
            return Err(Error::Option(
                "count times walk is at most 1,000,000,000 moves; ask for fewer boards or shorter walks"
                    .to_string(),
            )
            .into());
        }
    }
    let seed = seed.unwrap_or_else(random_seed);
    let cancel = interrupt::flag();
    let flag = Arc::clone(&cancel);
    let cells = interrupt::interruptible(py, &cancel, move || {
        let mut rng = Scrambler::new(seed);
        let mut cells = Vec::with_capacity(count as usize * size.cells());
        for _ in 0..count {
            if flag.load(Ordering::Relaxed) {
                break;
            }
            let b = match walk {
                Some(k) => rng.walk(&goal, k as usize).0,
                None if unsolvable => rng.unsolvable(&goal),
                None => rng.solvable(&goal),
            };
            cells.extend_from_slice(b.tiles());
        }
        cells
    })?;
    convert::boards_array(py, size, cells)
}

/// A seed from the clock and the process id (53 bits, so that it prints exactly as a float).
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    ((nanos as u64) ^ u64::from(std::process::id()).rotate_left(32)) & ((1 << 53) - 1)
}

/// Solves every board on every core (``threads``: how many), as ``solve`` would one by one;
/// returns the ``Solution`` of each, in order. ``max_memory`` (MiB) is shared by the
/// searches running at once, and ``improve`` (seconds) gives each board the anytime mode
/// ``solve``'s does. The boards are a numpy array ``(count, height, width)`` or a list of
/// boards.
///
/// >>> [s.length for s in npuzzle.solve_many(npuzzle.scramble("3x3", 3, seed=1))]
/// [19, 28, 20]
#[pyfunction]
#[pyo3(signature = (boards, goal = None, *, algorithm = "auto", heuristic = "auto", optimal = false,
    timeout = None, max_nodes = None, max_memory = None, weight = 2.0, improve = None,
    threads = None))]
#[expect(clippy::too_many_arguments, reason = "solve's keyword arguments and the thread count")]
pub(crate) fn solve_many(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    heuristic: &str,
    optimal: bool,
    timeout: Option<f64>,
    max_nodes: Option<i64>,
    max_memory: Option<i64>,
    weight: f64,
    improve: Option<f64>,
    threads: Option<usize>,
) -> PyResult<Vec<PySolution>> {
    let batch = convert::batch(boards)?;
    let (goal, goal_name) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?.min(batch.count.max(1));
    let mut request = convert::request(
        algorithm, heuristic, weight, optimal, timeout, max_nodes, max_memory, threads,
    )?;
    convert::improve(&mut request, improve, batch.size)?;
    let cancel = interrupt::flag();
    request.options.limits.cancel = Some(Arc::clone(&cancel));
    let (size, count, cells) = (batch.size, batch.count, batch.cells());
    let (req, goal_ref) = (&request, &goal);
    let results = interrupt::interruptible(py, &cancel, || {
        prepare(count, goal_ref, &req.options);
        par_map(threads, count, 1, &cancel, |i| {
            let board = board_of(cells, size, i)?;
            let s = engine::solve(&board, goal_ref, &req.options)?;
            Ok(PySolution { record: solution::record(&board, goal_ref, goal_name, &s, req) })
        })
    })?;
    databases::flush_warnings(py)?;
    Ok(gather(results?)?)
}

/// The options of an optimal solve (`auto`, insisting on a proven optimum).
fn optimal_request(
    timeout: Option<f64>,
    max_memory: Option<i64>,
    threads: usize,
    cancel: &Arc<AtomicBool>,
) -> PyResult<Request> {
    let mut r = convert::request("auto", "auto", 2.0, true, timeout, None, max_memory, threads)?;
    r.options.limits.cancel = Some(Arc::clone(cancel));
    Ok(r)
}

/// The most cells a board may have for exact answers: the exact tables take 9, pattern
/// databases serve 4x4.
const EXACT_CELLS: usize = 16;

/// The optimal distance of one board, by an optimal solve: `-1` when unsolvable.
fn optimal_distance(
    board: &Board,
    goal: &Board,
    request: &Request,
    i: usize,
) -> Result<i32, Error> {
    let s = engine::solve(board, goal, &request.options)?;
    match s.status {
        Status::Solved if s.optimal => Ok(s.moves.len() as i32),
        Status::Unsolvable => Ok(-1),
        _ => Err(not_exact(board, &s, i)),
    }
}

/// The error of a board whose optimal solve stopped (a limit) or came back unproven.
fn not_exact(board: &Board, s: &Solution, i: usize) -> Error {
    let why = s.error().or_else(|| s.note()).unwrap_or_else(|| "not proven optimal".to_string());
    Error::Limit(format!(
        "boards[{i}] ({board}): no exact distance: {why}; raise timeout (or max_memory)"
    ))
}

/// The message for exact answers asked on boards too large for them.
fn too_large(size: Size, what: &str) -> Error {
    Error::NotExact(format!(
        "exact {what} are known for boards of at most {EXACT_CELLS} cells (exact tables up to 9 \
         cells, pattern databases on 4x4); these boards are {size} ({} cells): pass exact=False \
         for the fast solver's lengths (upper bounds, not proven optimal)",
        size.cells()
    ))
}

/// The optimal number of moves from each board to ``goal``, as a numpy ``int32`` array
/// (``-1`` for a board that cannot reach the goal).
///
/// Exact on boards of at most 16 cells: the exact tables up to 9 cells (a lookup each),
/// optimal solves above (IDA* over the pattern databases on 4x4: the strongest one in the
/// cache, else the 6-6-3 one, built once; ``npuzzle.build_database()`` builds 7-8). Larger
/// boards raise ``NotExactError`` unless ``exact=False``, which gives the length of the fast
/// solver's answer (an upper bound). A board whose optimal solve hits a limit raises
/// ``LimitError``.
///
/// >>> npuzzle.distances(["8 6 7/2 5 4/3 0 1", "1 2 3/4 5 6/7 8 0"])
/// array([31,  0], dtype=int32)
#[pyfunction]
#[pyo3(signature = (boards, goal = None, *, exact = true, timeout = None, max_memory = None, threads = None))]
pub(crate) fn distances<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    exact: bool,
    timeout: Option<f64>,
    max_memory: Option<i64>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let batch = convert::batch(boards)?;
    let (goal, _) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?;
    let cells = batch.size.cells();
    if exact && cells > EXACT_CELLS {
        return Err(too_large(batch.size, "distances").into());
    }
    let cancel = interrupt::flag();
    let request = if exact {
        optimal_request(timeout, max_memory, threads, &cancel)?
    } else {
        // The fast methods of `auto` (weighted A*, then the reduction solver, on linear
        // conflict): no pattern database to build for lengths that are not exact anyway.
        let heuristic = "linear-conflict";
        let mut r =
            convert::request("auto", heuristic, 2.0, false, timeout, None, max_memory, threads)?;
        r.options.limits.cancel = Some(Arc::clone(&cancel));
        r
    };
    let out = if cells <= 9 {
        let (size, count, data) = (batch.size, batch.count, batch.cells());
        interrupt::interruptible(py, &cancel, || {
            table_distances(data, size, count, &goal, threads, &cancel)
        })?
    } else {
        let (size, count, data) = (batch.size, batch.count, batch.cells());
        let (req, goal_ref) = (&request, &goal);
        interrupt::interruptible(py, &cancel, || {
            prepare(count, goal_ref, &req.options);
            par_map(threads, count, 1, &cancel, |i| {
                let board = board_of(data, size, i)?;
                if exact {
                    optimal_distance(&board, goal_ref, req, i)
                } else {
                    let s = engine::solve(&board, goal_ref, &req.options)?;
                    match s.status {
                        Status::Solved => Ok(s.moves.len() as i32),
                        Status::Unsolvable => Ok(-1),
                        Status::Limit => Err(not_exact(&board, &s, i)),
                    }
                }
            })
            .and_then(gather)
        })?
    };
    databases::flush_warnings(py)?;
    Ok(PyArray1::from_vec(py, out?))
}

/// Distances by the exact table: one lookup a board.
fn table_distances(
    cells: Cells<'_>,
    size: Size,
    count: usize,
    goal: &Board,
    threads: usize,
    cancel: &AtomicBool,
) -> Result<Vec<i32>, Error> {
    let table = engine::exact_table(goal)
        .ok_or_else(|| Error::Internal("no exact table for this goal".to_string()))?;
    let names = engine::canonical_names(goal);
    let n = size.cells();
    let lookup = |tiles: Vec<u16>, i: usize| -> Result<i32, Error> {
        let renamed: Vec<u16> = tiles.iter().map(|&t| names[usize::from(t)]).collect();
        let board =
            Board::new(size, renamed).map_err(|e| Error::Board(format!("boards[{i}]: {e}")))?;
        Ok(table.distance(&board).map_or(-1, i32::from))
    };
    let results = match cells {
        Cells::U8(c) => par_map(threads, count, 4096, cancel, |i| {
            check_and(&c[i * n..(i + 1) * n], size, i, |t| lookup(t, i))
        }),
        Cells::U16(c) => par_map(threads, count, 4096, cancel, |i| {
            check_and(&c[i * n..(i + 1) * n], size, i, |t| lookup(t, i))
        }),
    }?;
    gather(results)
}

/// Checks board `i` and hands its tiles to `f`.
fn check_and<T: Tile, R>(
    tiles: &[T],
    size: Size,
    i: usize,
    f: impl FnOnce(Vec<u16>) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut seen = Vec::new();
    convert::check(tiles, size, &mut seen)
        .map_err(|e| Error::Board(format!("boards[{i}]: {e}")))?;
    f(tiles.iter().map(|&t| t.get() as u16).collect())
}

/// A heuristic's value for each board, as a numpy ``int32`` array: ``"hamming"``,
/// ``"manhattan"``, ``"linear-conflict"``, ``"walking-distance"`` (boards up to 4x4) or
/// ``"pdb"`` (the pattern database the solver uses for the goal, boards of 10 to 25 cells).
/// Each is a lower bound on the distance (admissible); all are computed on every core.
///
/// >>> npuzzle.heuristic(["3 2 1/4 5 6/7 8 0"], "linear-conflict")
/// array([8], dtype=int32)
#[pyfunction]
#[pyo3(signature = (boards, kind = "manhattan", goal = None, *, threads = None))]
pub(crate) fn heuristic<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    kind: &str,
    goal: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<i32>>> {
    let batch = convert::batch(boards)?;
    let (goal, _) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?;
    let kind: Heuristic =
        kind.parse().map_err(|e: npuzzle_solver::UnknownName| Error::Option(e.to_string()))?;
    let cancel = interrupt::flag();
    let (size, count, data) = (batch.size, batch.count, batch.cells());
    let out = interrupt::interruptible(py, &cancel, || {
        let estimator = Estimator::new(kind, &goal)?;
        let n = size.cells();
        let results = match data {
            Cells::U8(c) => par_map(threads, count, 8192, &cancel, |i| {
                estimator.value(&c[i * n..(i + 1) * n], size, i)
            }),
            Cells::U16(c) => par_map(threads, count, 8192, &cancel, |i| {
                estimator.value(&c[i * n..(i + 1) * n], size, i)
            }),
        }?;
        gather(results)
    })?;
    databases::flush_warnings(py)?;
    Ok(PyArray1::from_vec(py, out?))
}

/// A heuristic ready to evaluate boards of one goal.
enum Estimator {
    /// Hamming or Manhattan from a table `distance[tile * cells + cell]`.
    Table { manhattan: bool, distance: Vec<u16> },
    /// Hamming or Manhattan from the goal map (boards too large for a table).
    Map { manhattan: bool, map: GoalMap },
    /// Linear conflict.
    Linear(GoalMap),
    /// Walking distance.
    Walking(Box<WalkingDistance>),
    /// A pattern database, through the goal's frame.
    Pdb(npuzzle_solver::heuristic::pdb::Database, Box<Frame>),
}

impl Estimator {
    fn new(kind: Heuristic, goal: &Board) -> Result<Estimator, Error> {
        let cells = goal.tiles().len();
        let map = GoalMap::new(goal);
        Ok(match kind {
            Heuristic::Hamming | Heuristic::Manhattan => {
                let manhattan = kind == Heuristic::Manhattan;
                if cells > 4096 {
                    // A table of cells^2 entries would be too large: the goal map computes.
                    return Ok(Estimator::Map { manhattan, map });
                }
                let mut distance = vec![0u16; cells * cells];
                for tile in 1..cells {
                    for cell in 0..cells {
                        distance[tile * cells + cell] = map.distance(tile as u16, cell) as u16;
                    }
                }
                Estimator::Table { manhattan, distance }
            }
            Heuristic::LinearConflict => Estimator::Linear(map),
            Heuristic::WalkingDistance => match WalkingDistance::new(goal) {
                Some(wd) => Estimator::Walking(Box::new(wd)),
                None => {
                    return Err(Error::Option(format!(
                        "walking-distance is available for boards of at most 4x4, not {}",
                        goal.size()
                    )));
                }
            },
            Heuristic::Pdb => {
                let frame = Frame::new(goal);
                match engine::database(goal) {
                    Some(db) if db.goal() == frame.goal() || db.goal() == goal => {
                        let frame = if db.goal() == goal { Frame::identity(goal) } else { frame };
                        Estimator::Pdb(db, Box::new(frame))
                    }
                    _ => {
                        return Err(Error::Option(format!(
                            "no pattern database for {} boards towards {goal}: databases serve \
                             boards of 10 to 25 cells",
                            goal.size()
                        )));
                    }
                }
            }
            Heuristic::Auto => {
                return Err(Error::Option(
                    "heuristic: name one (hamming, manhattan, linear-conflict, walking-distance, pdb)"
                        .to_string(),
                ));
            }
        })
    }

    fn value<T: Tile>(&self, tiles: &[T], size: Size, i: usize) -> Result<i32, Error> {
        let mut seen = Vec::new();
        convert::check(tiles, size, &mut seen)
            .map_err(|e| Error::Board(format!("boards[{i}]: {e}")))?;
        let cells = tiles.len();
        Ok(match self {
            Estimator::Table { manhattan, distance } => {
                let mut sum = 0u32;
                for (cell, &t) in tiles.iter().enumerate() {
                    let d = u32::from(distance[t.get() * cells + cell]);
                    sum += if *manhattan { d } else { u32::from(d != 0) };
                }
                sum as i32
            }
            Estimator::Map { manhattan, map } => {
                let t: Vec<u16> = tiles.iter().map(|&t| t.get() as u16).collect();
                (if *manhattan { map.manhattan(&t) } else { map.hamming(&t) }) as i32
            }
            Estimator::Linear(map) => {
                let t: Vec<u16> = tiles.iter().map(|&t| t.get() as u16).collect();
                map.linear_conflict(&t) as i32
            }
            Estimator::Walking(wd) => wd.estimate(&convert::board_at(tiles, size, i)?) as i32,
            Estimator::Pdb(db, frame) => {
                db.estimate(&frame.board(&convert::board_at(tiles, size, i)?)) as i32
            }
        })
    }
}

/// Hints for every board: ``(best, after, exact)``, numpy arrays. ``best[i]`` is the action
/// to take on board ``i`` as an index into ``"UDLR"`` (``-1`` at the goal or unsolvable);
/// ``after[i, a]`` the distance to the goal after action ``a`` (``-1`` when illegal or
/// unsolvable); ``exact[i, a]`` whether that distance is proven optimal (always up to 4x4,
/// where it comes from optimal solves; a lower bound above).
///
/// >>> best, after, exact = npuzzle.hints(["1 2 3/4 5 6/7 0 8"])
/// >>> best, after
/// (array([2], dtype=int8), array([[-1,  2,  0,  2]], dtype=int32))
#[pyfunction]
#[pyo3(signature = (boards, goal = None, *, timeout = None, max_memory = None, threads = None))]
pub(crate) fn hints<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    timeout: Option<f64>,
    max_memory: Option<i64>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let batch = convert::batch(boards)?;
    let (goal, _) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?;
    let cancel = interrupt::flag();
    let mut request =
        convert::request("auto", "auto", 2.0, false, timeout, None, max_memory, threads)?;
    request.options.limits.cancel = Some(Arc::clone(&cancel));
    let (size, count, data) = (batch.size, batch.count, batch.cells());
    let (options, goal_ref) = (&request.options, &goal);
    let results = interrupt::interruptible(py, &cancel, || {
        par_map(threads, count, 1, &cancel, |i| {
            let board = board_of(data, size, i)?;
            let h = engine::hint(&board, goal_ref, options)?;
            let mut row = ([-1i32; 4], [false; 4]);
            for m in &h.moves {
                row.0[m.direction.index()] = m.distance.map_or(-1, |d| d as i32);
                row.1[m.direction.index()] = m.exact;
            }
            let best = h.best.map_or(-1i8, |m| m.index() as i8);
            Ok((best, row))
        })
        .and_then(gather)
    })?;
    databases::flush_warnings(py)?;
    let rows = results?;
    let best: Vec<i8> = rows.iter().map(|r| r.0).collect();
    let after: Vec<i32> = rows.iter().flat_map(|r| r.1.0).collect();
    let exact: Vec<bool> = rows.iter().flat_map(|r| r.1.1).collect();
    let best = PyArray1::from_vec(py, best).into_any();
    let after = PyArray1::from_vec(py, after).reshape([count, 4])?.into_any();
    let exact = PyArray1::from_vec(py, exact).reshape([count, 4])?.into_any();
    Ok((best, after, exact))
}

/// Whether each board can reach ``goal``, as a numpy ``bool`` array.
///
/// >>> npuzzle.solvable(["1 2 3/4 5 6/7 8 0", "1 2 3/4 5 6/8 7 0"])
/// array([ True, False])
#[pyfunction]
#[pyo3(signature = (boards, goal = None, *, threads = None))]
pub(crate) fn solvable<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let batch = convert::batch(boards)?;
    let (goal, _) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?;
    let cancel = interrupt::flag();
    let (size, count, data) = (batch.size, batch.count, batch.cells());
    let out = interrupt::interruptible(py, &cancel, || {
        par_map(threads, count, 4096, &cancel, |i| Ok(board_of(data, size, i)?.is_solvable(&goal)))
            .and_then(gather)
    })?;
    Ok(PyArray1::from_vec(py, out?))
}

/// Every board on an optimal path from each board to ``goal``, with its distance: the
/// labels of a dataset for learned heuristics. Returns ``(states, distances, source)``:
/// ``states`` a numpy array ``(m, height, width)`` (each board, then each board after it on
/// its optimal solution, down to the goal), ``distances`` their optimal distances
/// (``int32``), ``source`` the index of the board each state comes from (``int64``).
/// Exact on boards of at most 16 cells (``NotExactError`` above); an unsolvable board raises
/// ``UnsolvableError``, a limit ``LimitError``.
///
/// >>> states, d, src = npuzzle.optimal_paths(["1 2 3/4 5 6/0 7 8"])
/// >>> d.tolist(), src.tolist()
/// ([2, 1, 0], [0, 0, 0])
#[pyfunction]
#[pyo3(signature = (boards, goal = None, *, timeout = None, max_memory = None, threads = None))]
pub(crate) fn optimal_paths<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    timeout: Option<f64>,
    max_memory: Option<i64>,
    threads: Option<usize>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let batch = convert::batch(boards)?;
    let (goal, goal_name) = convert::goal(goal, batch.size)?;
    let threads = convert::threads(threads)?;
    if batch.size.cells() > EXACT_CELLS {
        return Err(too_large(batch.size, "paths").into());
    }
    let cancel = interrupt::flag();
    let request = optimal_request(timeout, max_memory, threads, &cancel)?;
    let (size, count, data) = (batch.size, batch.count, batch.cells());
    let (req, goal_ref) = (&request, &goal);
    let paths = interrupt::interruptible(py, &cancel, || {
        prepare(count, goal_ref, &req.options);
        par_map(threads, count, 1, &cancel, |i| {
            let board = board_of(data, size, i)?;
            let s = engine::solve(&board, goal_ref, &req.options)?;
            match s.status {
                Status::Solved if s.optimal => {}
                Status::Unsolvable => {
                    let parity = npuzzle_core::Parity::of(&board, goal_ref);
                    return Err(Error::Unsolvable(format!(
                        "boards[{i}] ({board}): {}",
                        solution::unsolvable(&board, goal_ref, goal_name, &parity)
                    )));
                }
                _ => return Err(not_exact(&board, &s, i)),
            }
            let mut b = board.clone();
            let mut cells = Vec::with_capacity((s.moves.len() + 1) * size.cells());
            cells.extend_from_slice(b.tiles());
            for &m in s.moves.as_slice() {
                b.apply(m)
                    .map_err(|e| Error::Internal(format!("the solution does not replay: {e}")))?;
                cells.extend_from_slice(b.tiles());
            }
            if &b != goal_ref {
                return Err(Error::Internal(format!("boards[{i}]: the solution ends at {b}")));
            }
            Ok((cells, s.moves.len()))
        })
        .and_then(gather)
    })?;
    databases::flush_warnings(py)?;
    let paths = paths?;
    let total: usize = paths.iter().map(|p| p.1 + 1).sum();
    if (total as u64).saturating_mul(size.cells() as u64) > MAX_CELLS_PER_CALL {
        return Err(
            Error::Option("too many states for one call: split the boards".to_string()).into()
        );
    }
    let mut cells = Vec::with_capacity(total * size.cells());
    let mut dist = Vec::with_capacity(total);
    let mut source = Vec::with_capacity(total);
    for (i, (c, len)) in paths.into_iter().enumerate() {
        cells.extend_from_slice(&c);
        dist.extend((0..=len).rev().map(|d| d as i32));
        source.extend(std::iter::repeat_n(i as i64, len + 1));
    }
    let states = convert::boards_array(py, size, cells)?;
    Ok((states, PyArray1::from_vec(py, dist).into_any(), PyArray1::from_vec(py, source).into_any()))
}
