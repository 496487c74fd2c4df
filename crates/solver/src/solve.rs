//! The entry point: check the request, pick an engine, run it under the limits.

use std::time::{Duration, Instant};

use npuzzle_core::{Board, Moves, Parity};
use npuzzle_search as search;
use search::{Flow, Observer, Outcome, Report, Stop};

use crate::error::SolveError;
use crate::options::{Algorithm, Heuristic, Limits, Options};
use crate::solution::{Solution, Stats, Status, thousands};
use crate::table::{self, ExactTable};
use crate::{fast, general, shaped, small};

/// How long `auto` lets IDA* try for a proven optimum on boards of 13 to 16 cells before it
/// falls back to a fast non-optimal method (unless `optimal` is asked for).
pub const AUTO_OPTIMAL_BUDGET: Duration = Duration::from_secs(5);

/// Boards up to this many cells are solved optimally by `auto` with IDA* + linear conflict.
const AUTO_IDA_CELLS: usize = 12;

/// Boards up to this many cells get a bounded optimal attempt from `auto` first.
const AUTO_TRY_CELLS: usize = 16;

/// Solves `board` towards `goal` as `options` ask.
///
/// With [`Algorithm::Auto`] it picks per board:
/// - at most 9 cells (3x3, 2x4, ...): the exact distance table, built on first use;
/// - at most 12 cells: IDA* with linear conflict (optimal);
/// - 13 to 16 cells (4x4, ...): IDA* with linear conflict for up to
///   [`AUTO_OPTIMAL_BUDGET`], then weighted A* (and reduction if that fails too), reported
///   as not optimal;
/// - anything larger: the [`crate::reduction`] solver, instant on any size, reported as not
///   optimal; with `options.improve` it spends the timeout improving its answer.
///
/// With `options.optimal`, `auto` uses IDA* with linear conflict on every size, under the
/// limits. Solvability is checked first; an unsolvable board is a [`Status::Unsolvable`]
/// answer, and running out of nodes, memory or time is a [`Status::Limit`] answer.
///
/// # Errors
/// [`SolveError`] when the request itself is wrong: a goal of another size, a weight below
/// 1, or the table engine on a board of more than 9 cells.
pub fn solve(board: &Board, goal: &Board, options: &Options) -> Result<Solution, SolveError> {
    let clock = Instant::now();
    check_request(board, goal, options)?;
    let cells = board.tiles().len();
    let algorithm = options.algorithm;
    if algorithm == Algorithm::Table && cells > table::MAX_CELLS {
        return Err(SolveError::TableTooLarge(cells));
    }
    // The table answers solvability itself, at no extra cost.
    let use_table = algorithm == Algorithm::Table
        || (algorithm == Algorithm::Auto && cells <= table::MAX_CELLS);
    if use_table {
        return Ok(solve_by_table(board, goal, clock));
    }
    let parity = Parity::of(board, goal);
    if !parity.solvable() {
        return Ok(unsolvable(&parity, options, cells, clock));
    }
    if algorithm == Algorithm::Reduction {
        return Ok(solve_by_reduction(board, goal, options, clock, String::new()));
    }
    if algorithm != Algorithm::Auto {
        let heuristic = resolve(options, cells).1;
        return Ok(run(
            board,
            goal,
            algorithm,
            heuristic,
            options.weight,
            &options.limits,
            None,
            clock,
        ));
    }
    Ok(auto(board, goal, options, clock))
}

/// Solves like [`solve`], showing every node of the search to `observer` as a [`Board`]:
/// for visualizers and for teaching.
///
/// The search runs on the generic algorithms of `npuzzle-search` (over boxed positions), so
/// every event is available, at some cost in speed; [`solve`] with the same options uses the
/// specialised engines instead and is much faster. The observer receives boards with their
/// `g` and `h`, the open and closed counts, and IDA*'s and IDDFS's bounds (unit-cost
/// searches report depths); returning [`Flow::Stop`] cancels the search, which then ends
/// with [`Status::Limit`].
///
/// `auto` is watched as IDA* with linear conflict on boards of up to 16 cells. The exact
/// table, the reduction solver, and `auto` on larger boards are not node-by-node searches:
/// they run as in [`solve`] and the observer sees nothing.
///
/// # Errors
/// As [`solve`].
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal};
/// use npuzzle_search::{Flow, Observer};
/// use npuzzle_solver::{Algorithm, Options, solve_watched};
///
/// /// Counts the boards A* expands.
/// struct Count(u64);
/// impl Observer<Board, u32> for Count {
///     fn expand(&mut self, _: &Board, _: u32, _: u32, _: usize, _: usize) -> Flow {
///         self.0 += 1;
///         Flow::Continue
///     }
/// }
///
/// let board: Board = "1 2 3/4 5 6/0 7 8".parse()?;
/// let goal = Goal::BlankLast.board(board.size())?;
/// let options = Options { algorithm: Algorithm::AStar, ..Options::default() };
/// let mut count = Count(0);
/// let solution = solve_watched(&board, &goal, &options, &mut count)?;
/// assert_eq!(solution.moves.len(), 2);
/// assert_eq!(count.0, solution.stats.expanded);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve_watched<O>(
    board: &Board,
    goal: &Board,
    options: &Options,
    observer: O,
) -> Result<Solution, SolveError>
where
    O: Observer<Board, u32>,
{
    let clock = Instant::now();
    let cells = board.tiles().len();
    let algorithm = match options.algorithm {
        Algorithm::Auto if cells <= AUTO_TRY_CELLS || options.optimal => Algorithm::IdaStar,
        Algorithm::Auto | Algorithm::Table | Algorithm::Reduction => {
            return solve(board, goal, options);
        }
        other => other,
    };
    check_request(board, goal, options)?;
    let watched = Options { algorithm, ..options.clone() };
    let parity = Parity::of(board, goal);
    if !parity.solvable() {
        return Ok(unsolvable(&parity, &watched, cells, clock));
    }
    let heuristic = resolve(&watched, cells).1;
    let limits = &options.limits;
    let engine = general::Engine::new(goal, heuristic);
    let search_limits = search::Limits {
        max_nodes: limits.max_nodes,
        max_memory: limits.max_memory,
        node_bytes: 0,
        deadline: limits.timeout.map(|t| clock + t),
        cancel: limits.cancel.clone(),
        max_depth: None,
    };
    let boards = AsBoards { engine: &engine, observer };
    let (result, stats) =
        on_general(&engine, board, algorithm, options.weight, search_limits, boards);
    Ok(finish_run(result, stats, algorithm, heuristic, limits, limits.timeout, clock))
}

/// Shows a search over the general engine's nodes to an observer of boards.
struct AsBoards<'a, O> {
    engine: &'a general::Engine,
    observer: O,
}

impl<O: Observer<Board, u32>> Observer<general::Node, u32> for AsBoards<'_, O> {
    fn expand(&mut self, node: &general::Node, g: u32, h: u32, open: usize, closed: usize) -> Flow {
        match self.engine.board(node) {
            Some(b) => self.observer.expand(&b, g, h, open, closed),
            None => Flow::Continue,
        }
    }

    fn generate(&mut self, node: &general::Node, g: u32, h: u32) -> Flow {
        match self.engine.board(node) {
            Some(b) => self.observer.generate(&b, g, h),
            None => Flow::Continue,
        }
    }

    fn bound(&mut self, bound: u32) -> Flow {
        self.observer.bound(bound)
    }
}

/// The unit-cost searches count depths in `usize`; boards are never deeper than `u32`.
impl<O: Observer<Board, u32>> Observer<general::Node, usize> for AsBoards<'_, O> {
    fn expand(
        &mut self,
        node: &general::Node,
        g: usize,
        h: usize,
        open: usize,
        closed: usize,
    ) -> Flow {
        let (g, h) = (u32::try_from(g).unwrap_or(u32::MAX), u32::try_from(h).unwrap_or(u32::MAX));
        Observer::<general::Node, u32>::expand(self, node, g, h, open, closed)
    }

    fn generate(&mut self, node: &general::Node, g: usize, h: usize) -> Flow {
        let (g, h) = (u32::try_from(g).unwrap_or(u32::MAX), u32::try_from(h).unwrap_or(u32::MAX));
        Observer::<general::Node, u32>::generate(self, node, g, h)
    }

    fn bound(&mut self, bound: usize) -> Flow {
        Observer::<general::Node, u32>::bound(self, u32::try_from(bound).unwrap_or(u32::MAX))
    }
}

/// The checks every request passes first: the goal's size and the weight.
fn check_request(board: &Board, goal: &Board, options: &Options) -> Result<(), SolveError> {
    if board.size() != goal.size() {
        return Err(SolveError::GoalSize { goal: goal.size(), board: board.size() });
    }
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::Weight(options.weight));
    }
    Ok(())
}

/// The answer for a board that cannot reach the goal, naming the parity that forbids it.
fn unsolvable(parity: &Parity, options: &Options, cells: usize, clock: Instant) -> Solution {
    let (algorithm, heuristic) = resolve(options, cells);
    Solution {
        status: Status::Unsolvable,
        moves: Moves::default(),
        optimal: false,
        algorithm,
        heuristic,
        stats: Stats { seconds: clock.elapsed().as_secs_f64(), ..Stats::default() },
        message: Some(parity.to_string()),
    }
}

/// The algorithm and heuristic that will actually run (for reporting).
fn resolve(options: &Options, cells: usize) -> (Algorithm, Option<Heuristic>) {
    let algorithm = match options.algorithm {
        Algorithm::Auto if cells <= table::MAX_CELLS => Algorithm::Table,
        Algorithm::Auto if options.optimal || cells <= AUTO_TRY_CELLS => Algorithm::IdaStar,
        Algorithm::Auto => Algorithm::Reduction,
        other => other,
    };
    let heuristic = algorithm.is_informed().then_some(match options.heuristic {
        Heuristic::Auto => Heuristic::LinearConflict,
        h => h,
    });
    (algorithm, heuristic)
}

fn solve_by_table(board: &Board, goal: &Board, clock: Instant) -> Solution {
    // The caller checked the cell count.
    let table = ExactTable::for_goal(goal);
    let moves = table.as_ref().and_then(|t| t.solve(board));
    let seconds = clock.elapsed().as_secs_f64();
    match moves {
        Some(moves) => Solution {
            status: Status::Solved,
            stats: Stats { expanded: moves.len() as u64, generated: 0, max_frontier: 0, seconds },
            moves,
            optimal: true,
            algorithm: Algorithm::Table,
            heuristic: None,
            message: None,
        },
        None => Solution {
            status: Status::Unsolvable,
            moves: Moves::default(),
            optimal: false,
            algorithm: Algorithm::Table,
            heuristic: None,
            stats: Stats { seconds, ..Stats::default() },
            message: Some(Parity::of(board, goal).to_string()),
        },
    }
}

fn auto(board: &Board, goal: &Board, options: &Options, clock: Instant) -> Solution {
    let cells = board.tiles().len();
    let heuristic = match options.heuristic {
        Heuristic::Auto => Heuristic::LinearConflict,
        h => h,
    };
    let limits = &options.limits;
    if options.optimal || cells <= AUTO_IDA_CELLS {
        return run(board, goal, Algorithm::IdaStar, Some(heuristic), 1.0, limits, None, clock);
    }
    let mut note = String::new();
    if cells <= AUTO_TRY_CELLS {
        let budget = limits.timeout.map_or(AUTO_OPTIMAL_BUDGET, |t| t.min(AUTO_OPTIMAL_BUDGET));
        let attempt =
            run(board, goal, Algorithm::IdaStar, Some(heuristic), 1.0, limits, Some(budget), clock);
        if attempt.status == Status::Solved || user_limit_hit(&attempt, limits, clock) {
            return attempt;
        }
        note = format!(
            "IDA* + {} found no proven optimum within {:.0} s, so ",
            heuristic.name(),
            budget.as_secs_f64()
        );
    }
    if cells > AUTO_TRY_CELLS {
        return solve_by_reduction(board, goal, options, clock, note);
    }
    let mut answer =
        run(board, goal, Algorithm::WAStar, Some(heuristic), options.weight, limits, None, clock);
    if answer.status == Status::Solved {
        answer.message = Some(format!(
            "not proven optimal: {note}auto used weighted A* (w = {}); use --optimal to insist on a proven optimum",
            options.weight
        ));
        return answer;
    }
    if user_limit_hit(&answer, limits, clock) {
        return answer;
    }
    solve_by_reduction(board, goal, options, clock, note)
}

/// The reduction solver, for any size (the board is known to be solvable).
fn solve_by_reduction(
    board: &Board,
    goal: &Board,
    options: &Options,
    clock: Instant,
    note: String,
) -> Solution {
    use crate::reduction;
    let limits = &options.limits;
    let result = match (options.improve, limits.timeout) {
        (true, Some(timeout)) => {
            let mut budget = reduction::Budget::until(clock + timeout);
            if let Some(flag) = &limits.cancel {
                budget = budget.with_cancel(flag.clone());
            }
            reduction::solve_anytime(board, goal, budget).map(|r| {
                let detail = format!(
                    "; the anytime mode improved it from {} to {} moves in {} attempts",
                    r.first_length,
                    r.moves.len(),
                    r.attempts
                );
                (r.moves, detail)
            })
        }
        _ => reduction::solve(board, goal).map(|m| (m, String::new())),
    };
    let seconds = clock.elapsed().as_secs_f64();
    let base = Solution {
        status: Status::Solved,
        moves: Moves::default(),
        optimal: false,
        algorithm: Algorithm::Reduction,
        heuristic: None,
        stats: Stats { seconds, ..Stats::default() },
        message: None,
    };
    match result {
        Ok((moves, detail)) => {
            let bound = reduction::manhattan_lower_bound(board, goal);
            let message = format!(
                "not proven optimal: {note}the reduction solver placed rows and columns (Manhattan lower bound {bound}){detail}"
            );
            let stats = Stats { expanded: moves.len() as u64, ..base.stats };
            Solution { stats, moves, message: Some(message), ..base }
        }
        Err(reduction::ReductionError::Unsolvable(parity)) => {
            Solution { status: Status::Unsolvable, message: Some(parity.to_string()), ..base }
        }
        Err(e) => Solution { status: Status::Limit, message: Some(e.to_string()), ..base },
    }
}

/// Whether the attempt stopped because of the caller's own limits (not auto's budget).
fn user_limit_hit(attempt: &Solution, limits: &Limits, clock: Instant) -> bool {
    attempt.status == Status::Limit
        && (limits.timeout.is_some_and(|t| clock.elapsed() >= t)
            || limits.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
            || attempt.message.as_deref().is_some_and(|m| !m.starts_with("time limit")))
}

/// Runs one explicit algorithm on a solvable board.
#[expect(clippy::too_many_arguments, reason = "one private dispatcher with every knob")]
fn run(
    board: &Board,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: Option<Heuristic>,
    weight: f64,
    limits: &Limits,
    budget: Option<Duration>,
    clock: Instant,
) -> Solution {
    let heuristic =
        if algorithm.is_informed() { heuristic.or(Some(Heuristic::LinearConflict)) } else { None };
    let timeout = match (limits.timeout, budget) {
        (Some(t), Some(b)) => Some(t.min(b)),
        (t, b) => t.or(b),
    };
    let search_limits = search::Limits {
        max_nodes: limits.max_nodes,
        max_memory: limits.max_memory,
        node_bytes: 0,
        deadline: timeout.map(|t| clock + t),
        cancel: limits.cancel.clone(),
        max_depth: None,
    };
    let (w, h) = (board.width(), board.height());
    let (result, stats) = if small::fits(w, h) {
        let engine = small::Engine::get(goal, heuristic);
        let start = engine.pack(board);
        // The packed engines: A* with a bucket queue, which with h = 0 is Dijkstra's
        // algorithm with Dial's buckets; IDA*, which with h = 0 is exactly iterative
        // deepening; and a packed breadth-first search.
        let fast_kind = matches!(
            algorithm,
            Algorithm::AStar
                | Algorithm::IdaStar
                | Algorithm::Dijkstra
                | Algorithm::Iddfs
                | Algorithm::Bfs
        );
        if fast_kind {
            let budget = fast::Budget {
                max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
                max_memory: limits.max_memory.unwrap_or(usize::MAX),
                deadline: search_limits.deadline,
                cancel: limits.cancel.as_deref(),
            };
            let mut stats = Stats::default();
            let result = match algorithm {
                Algorithm::AStar | Algorithm::Dijkstra => {
                    fast::astar(&engine, start, &budget, &mut stats)
                }
                Algorithm::Bfs => fast::bfs(&engine, start, &budget, &mut stats),
                _ => shaped::idastar(&engine, start, &budget, &mut stats),
            };
            let result = result.map_err(Ended::Stopped);
            return finish_run(result, stats, algorithm, heuristic, limits, timeout, clock);
        }
        let e = &*engine;
        let succ = |n: &small::Node| e.successors(n);
        let succ_c = |n: &small::Node| e.successors(n).map(|m| (m, 1u32));
        let h_of = |n: &small::Node| u32::from(n.h);
        let goal_test = |n: &small::Node| e.is_goal(n);
        let report =
            dispatch(algorithm, &start, succ, succ_c, h_of, goal_test, weight, &search_limits, ());
        finish(report, |path| engine.moves(path))
    } else {
        let engine = general::Engine::new(goal, heuristic);
        on_general(&engine, board, algorithm, weight, search_limits, ())
    };
    finish_run(result, stats, algorithm, heuristic, limits, timeout, clock)
}

/// Runs a generic search of `npuzzle-search` on the general engine, shown to `observer`.
fn on_general<O>(
    engine: &general::Engine,
    board: &Board,
    algorithm: Algorithm,
    weight: f64,
    mut search_limits: search::Limits,
    observer: O,
) -> (Result<Moves, Ended>, Stats)
where
    O: Observer<general::Node, u32> + Observer<general::Node, usize>,
{
    search_limits.node_bytes = engine.node_bytes();
    let start = engine.node(board);
    let succ = |n: &general::Node| engine.successors(n);
    let succ_c = |n: &general::Node| engine.successors(n).map(|m| (m, 1u32));
    let h_of = |n: &general::Node| n.h;
    let goal_test = |n: &general::Node| engine.is_goal(n);
    let report = dispatch(
        algorithm,
        &start,
        succ,
        succ_c,
        h_of,
        goal_test,
        weight,
        &search_limits,
        observer,
    );
    finish(report, |path| engine.moves(path))
}

fn finish_run(
    result: Result<Moves, Ended>,
    stats: Stats,
    algorithm: Algorithm,
    heuristic: Option<Heuristic>,
    limits: &Limits,
    timeout: Option<Duration>,
    clock: Instant,
) -> Solution {
    let stats = Stats { seconds: clock.elapsed().as_secs_f64(), ..stats };
    let (status, moves, message) = match result {
        Ok(moves) => (Status::Solved, moves, None),
        Err(ended) => {
            let message = limit_message(ended, algorithm, limits, timeout, &stats);
            (Status::Limit, Moves::default(), Some(message))
        }
    };
    let optimal = status == Status::Solved && algorithm.is_optimal();
    Solution { status, moves, optimal, algorithm, heuristic, stats, message }
}

/// Why a search ended without a solution.
enum Ended {
    Stopped(Stop),
    Exhausted,
}

#[expect(clippy::too_many_arguments, reason = "the closures each algorithm family needs")]
fn dispatch<N, FN, IN, FC, IC, FH, FS, O>(
    algorithm: Algorithm,
    start: &N,
    succ: FN,
    succ_c: FC,
    h: FH,
    goal: FS,
    weight: f64,
    limits: &search::Limits,
    mut observer: O,
) -> Report<N, u32>
where
    N: Eq + std::hash::Hash + Clone,
    O: Observer<N, u32> + Observer<N, usize>,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FC: FnMut(&N) -> IC,
    IC: IntoIterator<Item = (N, u32)>,
    FH: FnMut(&N) -> u32,
    FS: FnMut(&N) -> bool,
{
    let unit = |r: Report<N, usize>| Report {
        outcome: match r.outcome {
            Outcome::Found { path, cost } => Outcome::Found { path, cost: cost as u32 },
            Outcome::NotFound => Outcome::NotFound,
            Outcome::Stopped(s) => Outcome::Stopped(s),
        },
        stats: r.stats,
    };
    match algorithm {
        Algorithm::Bfs => unit(search::bfs(start, succ, goal, limits, &mut observer)),
        Algorithm::Dfs => unit(search::dfs(start, succ, goal, limits, &mut observer)),
        Algorithm::Iddfs => unit(search::iddfs(start, succ, goal, limits, &mut observer)),
        Algorithm::Dijkstra => search::dijkstra(start, succ_c, goal, limits, &mut observer),
        Algorithm::Greedy => search::greedy(start, succ_c, h, goal, limits, &mut observer),
        Algorithm::WAStar => search::wastar(start, succ_c, h, goal, weight, limits, &mut observer),
        Algorithm::AStar => search::astar(start, succ_c, h, goal, limits, &mut observer),
        // Auto, Table and Reduction never reach here; IDA* is the safe catch-all.
        _ => search::idastar(start, succ_c, h, goal, limits, &mut observer),
    }
}

fn finish<N>(
    report: Report<N, u32>,
    moves: impl Fn(&[N]) -> Moves,
) -> (Result<Moves, Ended>, Stats) {
    let s = report.stats;
    let stats = Stats {
        expanded: s.expanded,
        generated: s.generated,
        max_frontier: s.max_frontier,
        seconds: s.seconds,
    };
    let result = match report.outcome {
        Outcome::Found { path, .. } => Ok(moves(&path)),
        Outcome::NotFound => Err(Ended::Exhausted),
        Outcome::Stopped(stop) => Err(Ended::Stopped(stop)),
    };
    (result, stats)
}

fn limit_message(
    ended: Ended,
    algorithm: Algorithm,
    limits: &Limits,
    timeout: Option<Duration>,
    stats: &Stats,
) -> String {
    let nodes = format!("after {} expanded nodes", thousands(stats.expanded));
    let stores_everything = matches!(
        algorithm,
        Algorithm::Bfs
            | Algorithm::Dfs
            | Algorithm::Dijkstra
            | Algorithm::AStar
            | Algorithm::Greedy
            | Algorithm::WAStar
    );
    let advice = if stores_everything {
        format!(
            "; {} keeps every position it reaches: try --algorithm idastar (memory-free) or the default auto",
            algorithm.name()
        )
    } else {
        "; try the default --algorithm auto, or raise the limit".to_string()
    };
    match ended {
        Ended::Stopped(Stop::Memory) => {
            let mib = limits.max_memory.unwrap_or(0) / (1 << 20);
            format!("memory limit of {mib} MiB reached {nodes}{advice}")
        }
        Ended::Stopped(Stop::Time) => {
            let secs = timeout.map_or(0.0, |t| t.as_secs_f64());
            format!("time limit of {secs} s reached {nodes}{advice}")
        }
        Ended::Stopped(Stop::Nodes) => {
            format!("node limit of {} reached{advice}", thousands(limits.max_nodes.unwrap_or(0)))
        }
        Ended::Stopped(Stop::Cancelled) => format!("search cancelled {nodes}"),
        Ended::Exhausted => format!("search space exhausted without reaching the goal {nodes}"),
    }
}
