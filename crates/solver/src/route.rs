//! Solving with tables the caller holds: pattern databases and walking distance.
//!
//! A [`Solver`] holds its pattern databases ([`Solver::with_databases`]); its
//! [`Solver::solve`] sends the requests those tables serve to their engines and everything
//! else to its own engines unchanged ([`solve_with`] does the same on the shared solver):
//!
//! | request | engine |
//! |---------|--------|
//! | `--heuristic pdb` (or `auto` on a board of 10 to 25 cells when a matching database is held) with `idastar` or `auto` | [`crate::engine::pdb_search`]: IDA* with incremental table indices, optimal |
//! | `--heuristic pdb` with `astar`, `wastar`, `greedy` | the generic searches of `npuzzle-search` over packed nodes, the database as heuristic |
//! | `--heuristic walking-distance` with any informed algorithm, boards up to 4x4 | the generic searches over packed nodes with incremental walking-distance states |
//!
//! The library reads no files and no environment: the command line finds or builds the
//! database and gives it to its solver.

use std::time::Instant;

use npuzzle_core::{Board, Parity};
use npuzzle_search::{self as search, Flow, Observer};

use crate::engine::exact;
use crate::engine::generic::{generic_pdb, generic_wd};
use crate::engine::pdb_search::{self, Engine};
use crate::engine::twentyfour;
use crate::heuristic::HeuristicKind;
use crate::heuristic::frame::Frame;
use crate::heuristic::pdb::Database;
use crate::heuristic::pdb::store::Found;
use crate::heuristic::walking_distance::WalkingDistance;
use crate::options::{Algorithm, Heuristic, Limits, Options};
use crate::plan::attempt_budget;
use crate::sample::Sampler;
use crate::solution::{Limit, Note, Reason, Solution, Status};
use crate::watch::{Relayed, relay};
use crate::{SolveError, Solver};

/// Pattern databases a solve may use (the command line loads them from its cache). Cheap to clone.
#[derive(Clone, Debug, Default)]
pub struct Databases {
    /// A pattern database; used for boards of its size and goal.
    pub pdb: Option<Database>,
    /// Threads for one IDA* search over the database (1: sequential).
    pub threads: usize,
    /// Dual lookups in the IDA* over the database (see [`crate::heuristic::pdb`], "Dual lookups").
    pub dual: bool,
    /// The 24-puzzle search's move pruning: the longest move string its pruning machine
    /// considers (`None`: [`twentyfour::DEFAULT_PRUNING`]).
    pub pruning: Option<u8>,
}

/// Solves like [`crate::solve`], with the engines that `tables` make possible (see the module
/// docs for which requests go where), on [`Solver::shared`] holding `tables` (see
/// [`Solver::with_databases`]); walking distance is used when asked for even with no
/// database in `tables`.
///
/// # Errors
/// As [`crate::solve`]; and [`SolveError::GoalSize`] for a mismatched goal before anything
/// else. Asking for `pdb` without a database for the board's goal runs [`crate::solve`] with
/// linear conflict instead and says so in the answer's message.
pub fn solve_with(
    board: &Board,
    goal: &Board,
    options: &Options,
    tables: &Databases,
) -> Result<Solution, SolveError> {
    solve_in(&Solver::shared().with_databases(tables.clone()), board, goal, options, ())
}

/// [`Solver::solve`] with the databases `solver` holds: the request goes to the engine the
/// module docs name, and everything else (every fallback too) to `solver`'s own engines.
pub(crate) fn solve_in<S: Sampler>(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    options: &Options,
    observer: S,
) -> Result<Solution, SolveError> {
    let mut solution = solve_routed(solver, board, goal, options, observer)?;
    label_check(&mut solution, options);
    Ok(solution)
}

/// The heuristic an explicit request names (`None` for `auto`).
fn asked(heuristic: Heuristic) -> Option<HeuristicKind> {
    match heuristic {
        Heuristic::Auto => None,
        Heuristic::Hamming => Some(HeuristicKind::Hamming),
        Heuristic::Manhattan => Some(HeuristicKind::Manhattan),
        Heuristic::LinearConflict => Some(HeuristicKind::LinearConflict),
        Heuristic::WalkingDistance => Some(HeuristicKind::WalkingDistance),
        Heuristic::Pdb => Some(HeuristicKind::Pdb),
    }
}

/// [`label_check`] for the watched and sampled searches, whose engines run linear conflict
/// where walking distance or a database is asked for: the note says so.
pub(crate) fn watched_label_check(solution: &mut Solution, options: &Options) {
    if let (Some(asked), Some(ran)) = (asked(options.heuristic), solution.heuristic)
        && asked != ran
        && matches!(asked, HeuristicKind::WalkingDistance | HeuristicKind::Pdb)
        && solution.status != Status::Unsolvable
    {
        solution.notes.insert(0, Note::NotWatchable { asked, ran });
    }
    label_check(solution, options);
}

/// Honest labels: when the answer's heuristic is not the one the request named, a note says
/// what ran instead and why (unless one already does).
fn label_check(solution: &mut Solution, options: &Options) {
    let Some(asked) = asked(options.heuristic) else { return };
    if solution.status == Status::Unsolvable || solution.heuristic == Some(asked) {
        return;
    }
    let explained = solution.notes.iter().any(|n| {
        matches!(n, Note::NoDatabase | Note::HeuristicNotUsed { .. } | Note::NotWatchable { .. })
    });
    if !explained {
        solution.notes.insert(
            0,
            Note::HeuristicNotUsed {
                asked,
                ran: solution.heuristic,
                algorithm: solution.algorithm,
            },
        );
    }
}

/// [`solve_in`] before the label check: the database for the goal (held, or from the
/// solver's store) serves the board directly or through the goal's frame (see
/// [`crate::heuristic::frame`]).
fn solve_routed<S: Sampler>(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    options: &Options,
    observer: S,
) -> Result<Solution, SolveError> {
    if board.size() != goal.size() {
        return solve_direct(solver, board, goal, options, observer, None);
    }
    if twentyfour_wanted(goal, options)
        && let Some(store) = solver.store()
    {
        match store.twentyfour(goal, options.limits.timeout, options.limits.cancel.as_deref()) {
            Found::Ready(tables) => {
                return Ok(solve_twentyfour(solver, &tables, board, options, observer));
            }
            Found::OutOfTime(timeout) => return Ok(out_of_time(board, goal, timeout)),
            Found::Unavailable => {}
        }
    }
    if !uses_db(options, board) {
        return solve_direct(solver, board, goal, options, observer, None);
    }
    let Some(db) = database(solver, board, goal, options) else {
        return solve_direct(solver, board, goal, options, observer, None);
    };
    if db.goal() == goal {
        return solve_direct(solver, board, goal, options, observer, Some(&db));
    }
    let frame = Frame::new(goal);
    let framed = Framed { inner: observer, frame: &frame };
    let mut s =
        solve_direct(solver, &frame.board(board), frame.goal(), options, framed, Some(&db))?;
    s.moves = frame.moves_back(&s.moves);
    Ok(s)
}

/// Whether a request goes to the 24-puzzle's search over Korf & Felner's tables: an optimal
/// answer asked (`optimal`, or IDA* over pattern databases) on a 5x5 goal with the blank in
/// a corner. `auto` without `optimal` stays with its fast engines on 5x5.
fn twentyfour_wanted(goal: &Board, options: &Options) -> bool {
    let wanted = options.optimal
        || (options.algorithm == Algorithm::IdaStar && options.heuristic == Heuristic::Pdb);
    wanted
        && matches!(options.algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(options.heuristic, Heuristic::Auto | Heuristic::Pdb)
        && twentyfour::Tables::korf_felner_partition(goal).is_ok()
}

/// The 24-puzzle's search over `tables`, on the solver's threads, its bounds and progress
/// relayed to `observer`.
fn solve_twentyfour<S: Sampler>(
    solver: &Solver,
    tables: &twentyfour::Tables,
    board: &Board,
    options: &Options,
    mut observer: S,
) -> Solution {
    let clock = Instant::now();
    if observer.begin(&search::Begin::new(board, 0)) == Flow::Stop {
        return cancelled(board, tables.goal());
    }
    let databases = solver.databases();
    let config = twentyfour::Config {
        threads: databases.threads.max(1),
        pruning: databases.pruning.map_or(twentyfour::DEFAULT_PRUNING, usize::from),
    };
    let s = relay(&mut observer, options.limits.cancel.as_ref(), |stop, sink| {
        let limits = Limits { cancel: Some(stop), ..options.limits.clone() };
        let last = std::sync::atomic::AtomicU32::new(0);
        let progress = |p: twentyfour::Progress| {
            if last.fetch_max(p.bound, std::sync::atomic::Ordering::Relaxed) < p.bound {
                sink(Relayed::Bound(p.bound));
            }
            sink(Relayed::Progress(p.expanded, p.generated));
        };
        twentyfour::solve(tables, board, &limits, &config, Some(&progress))
    });
    // The board is of the tables' size: `twentyfour_wanted` checked the goal's.
    let mut s = s.unwrap_or_else(|_| cancelled(board, tables.goal()));
    if s.limit() == Some(Limit::Cancelled)
        && !options
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    {
        // Stopped by the watcher: a cancel all the same.
        s.reason = Some(Reason::Limit(Limit::Cancelled));
    }
    finish(&mut observer, &s);
    s.stats.seconds = clock.elapsed().as_secs_f64();
    s
}

/// The answer for `board` when the 24-puzzle's tables could not be built within `timeout`: a
/// time limit, with the Manhattan distance as the lower bound.
fn out_of_time(board: &Board, goal: &Board, timeout: std::time::Duration) -> Solution {
    let mut s =
        Solution::without_moves(Status::Limit, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    s.stats.seconds = timeout.as_secs_f64();
    s.lower_bound = Some(crate::engine::reduction::manhattan_lower_bound(board, goal));
    s.reason = Some(Reason::Limit(Limit::Time(timeout)));
    s.notes.push(Note::TablesNotReady { timeout });
    s
}

/// Tells `observer` how a search over a database ended.
fn finish<O: Observer<Board, u32>>(observer: &mut O, s: &Solution) {
    let stats = search::Stats {
        expanded: s.stats.expanded,
        generated: s.stats.generated,
        max_frontier: s.stats.max_frontier,
        seconds: s.stats.seconds,
    };
    let stop = s.limit().map(|l| match l {
        Limit::Nodes(_) => search::Stop::Nodes,
        Limit::Time(_) => search::Stop::Time,
        _ => search::Stop::Cancelled,
    });
    observer.finish(&search::Finish::new(&stats, s.status == Status::Solved, stop));
}

/// A sampler shown the boards of a search towards a goal's frame, in the caller's own
/// orientation and numbering.
struct Framed<'f, S> {
    inner: S,
    frame: &'f Frame,
}

impl<S: Sampler> Observer<Board, u32> for Framed<'_, S> {
    fn begin(&mut self, e: &search::Begin<'_, Board, u32>) -> Flow {
        let board = self.frame.board_back(e.start());
        self.inner.begin(&search::Begin::new(&board, e.h()))
    }
    fn expand(&mut self, e: &search::Expand<'_, Board, u32>) -> Flow {
        let board = self.frame.board_back(e.node());
        let event = search::Expand::new(&board, e.g(), e.h()).with_lists(e.open(), e.closed());
        self.inner.expand(&event)
    }
    fn bound(&mut self, e: &search::Bound<u32>) -> Flow {
        self.inner.bound(e)
    }
    fn progress(&mut self, e: &search::Progress) -> Flow {
        self.inner.progress(e)
    }
    fn finish(&mut self, e: &search::Finish<'_>) {
        self.inner.finish(e);
    }
}

impl<S: Sampler> Sampler for Framed<'_, S> {
    fn wants(&mut self, expanded: u64) -> bool {
        self.inner.wants(expanded)
    }
    fn samples(&self) -> bool {
        self.inner.samples()
    }
}

/// The largest board `auto` takes a database from the store for.
const AUTO_DB_CELLS: usize = 16;

/// Moves within which `auto` answers a board at once without a database: a quick IDA* with
/// linear conflict gets this many expansions before a database is built for the board.
const QUICK_NODES: u64 = 20_000;

/// The database serving `goal` (for the goal itself, or for its frame's goal): the one the
/// solver holds, else its store's. A build on demand is never started for a board already at
/// its goal, nor, under `auto`, for one a quick search answers at once.
fn database(solver: &Solver, board: &Board, goal: &Board, options: &Options) -> Option<Database> {
    let serves = |d: &Database| {
        d.size() == goal.size()
            && d.covers_every_tile()
            && (d.goal() == goal || Frame::new(goal).goal() == d.goal())
    };
    if let Some(db) = solver.databases().pdb.as_ref().filter(|d| serves(d)) {
        return Some(db.clone());
    }
    // `auto` takes a database from the store on boards up to 4x4 only: beyond, a table of
    // the small partition is too weak to answer in time (the 24-puzzle's optimal search has
    // tables of its own).
    if options.heuristic == Heuristic::Auto && goal.tiles().len() > AUTO_DB_CELLS {
        return None;
    }
    let store = solver.store()?;
    if let Some(db) = store.find(goal).filter(serves) {
        return Some(db);
    }
    if board == goal || !store.builds_on_demand() {
        return None;
    }
    if options.heuristic == Heuristic::Auto && quick(solver, board, goal, options) {
        return None;
    }
    let cancel = options.limits.cancel.as_deref();
    store.database_for(goal, cancel).filter(serves)
}

/// [`Solver::prepare`].
pub(crate) fn prepare(solver: &Solver, goal: &Board, options: &Options) -> Option<Database> {
    if twentyfour_wanted(goal, options) {
        let store = solver.store()?;
        let cancel = options.limits.cancel.as_deref();
        return match store.twentyfour(goal, options.limits.timeout, cancel) {
            Found::Ready(tables) => Some(tables.base().clone()),
            _ => None,
        };
    }
    if !uses_db(options, goal)
        || (options.heuristic == Heuristic::Auto && goal.tiles().len() > AUTO_DB_CELLS)
    {
        return None;
    }
    let serves = |d: &Database| d.size() == goal.size() && d.covers_every_tile();
    if let Some(db) = solver.databases().pdb.as_ref().filter(|d| serves(d)) {
        return Some(db.clone());
    }
    solver.store()?.prepare(goal, options.limits.cancel.as_deref()).filter(serves)
}

/// Whether a quick optimal search (IDA* with linear conflict, [`QUICK_NODES`] expansions)
/// answers the board: then the solve needs no database.
fn quick(solver: &Solver, board: &Board, goal: &Board, options: &Options) -> bool {
    let probe = Options {
        algorithm: Algorithm::IdaStar,
        heuristic: Heuristic::LinearConflict,
        optimal: true,
        limits: Limits { max_nodes: Some(QUICK_NODES), ..options.limits.clone() },
        ..options.clone()
    };
    solver.solve_plain(board, goal, &probe, ()).is_ok_and(|s| s.status == Status::Solved)
}

/// Whether a request uses a pattern database when one serves the board.
fn uses_db(options: &Options, board: &Board) -> bool {
    match options.heuristic {
        Heuristic::Pdb => options.algorithm.is_informed() || options.algorithm == Algorithm::Auto,
        // IDA* with the heuristic left to the solver takes the strongest it has: a
        // database where one serves the board.
        Heuristic::Auto => {
            matches!(options.algorithm, Algorithm::Auto | Algorithm::IdaStar)
                && board.tiles().len() > exact::MAX_CELLS
        }
        _ => false,
    }
}

fn solve_direct<S: Sampler>(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    options: &Options,
    mut observer: S,
    db: Option<&Database>,
) -> Result<Solution, SolveError> {
    let tables = solver.databases();
    if board.size() != goal.size() {
        return solver.solve_plain(board, goal, options, observer);
    }
    let cells = board.tiles().len();
    let algorithm = options.algorithm;
    if uses_db(options, board) {
        if let Some(db) = db {
            match algorithm {
                Algorithm::Auto | Algorithm::IdaStar => {
                    // `auto` (not `optimal`) keeps a fifth of the timeout for a fast answer,
                    // as it does without a database: a tight limit still gets one.
                    let attempt = (algorithm == Algorithm::Auto && !options.optimal)
                        .then_some(options.limits.timeout)
                        .flatten()
                        .map(|t| attempt_budget(options.optimal_attempt.unwrap_or(t), options));
                    let limits = Limits {
                        timeout: attempt.or(options.limits.timeout),
                        ..options.limits.clone()
                    };
                    let clock = Instant::now();
                    if observer.begin(&search::Begin::new(board, 0)) == Flow::Stop {
                        return Ok(cancelled(board, goal));
                    }
                    let mismatch =
                        |_| SolveError::GoalSize { goal: db.size(), board: board.size() };
                    // A sampler sees the nodes of one thread; several threads report bounds
                    // and progress, relayed to the observer on this thread.
                    let threads = if observer.samples() { 1 } else { tables.threads.max(1) };
                    let mut s = if threads > 1 {
                        let cancel = options.limits.cancel.as_ref();
                        relay(&mut observer, cancel, |stop, sink| {
                            let limits = Limits { cancel: Some(stop), ..limits.clone() };
                            let sink = |r: pdb_search::Report| match r {
                                pdb_search::Report::Bound(b) => sink(Relayed::Bound(b)),
                                pdb_search::Report::Progress(e, g) => {
                                    sink(Relayed::Progress(e, g));
                                }
                            };
                            pdb_search::solve_ticked(
                                db,
                                board,
                                &limits,
                                threads,
                                tables.dual,
                                &mut (),
                                Some(&sink),
                            )
                        })
                        .map_err(mismatch)?
                    } else {
                        let size = board.size();
                        let mut tick = Ticker { observer: &mut observer, started: clock, size };
                        pdb_search::solve_ticked(
                            db,
                            board,
                            &limits,
                            1,
                            tables.dual,
                            &mut tick,
                            None,
                        )
                        .map_err(mismatch)?
                    };
                    finish(&mut observer, &s);
                    if s.status == Status::Solved {
                        s.notes.clear();
                    }
                    let cancelled = options
                        .limits
                        .cancel
                        .as_ref()
                        .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
                    if let (Some(budget), Some(Limit::Time(_)), false) =
                        (attempt, s.limit(), cancelled)
                    {
                        return fall_back(solver, board, goal, options, s, budget, clock);
                    }
                    return Ok(s);
                }
                Algorithm::AStar | Algorithm::WAStar | Algorithm::Greedy => {
                    let engine = Engine::new(db).map_err(|_| SolveError::GoalSize {
                        goal: db.size(),
                        board: board.size(),
                    })?;
                    return Ok(generic_pdb(&engine, board, goal, options));
                }
                _ => {}
            }
        } else if options.heuristic == Heuristic::Pdb && algorithm.is_informed() {
            let fallback = Options { heuristic: Heuristic::LinearConflict, ..options.clone() };
            let mut s = solver.solve_plain(board, goal, &fallback, observer)?;
            s.notes.push(Note::NoDatabase);
            return Ok(s);
        }
    }
    // Walking distance runs wherever it is asked for and its tables exist (the packed
    // positions of its engine hold up to 32 cells); `auto` on a board the exact table answers
    // gets the table, and a note says so.
    if options.heuristic == Heuristic::WalkingDistance
        && (algorithm.is_informed() || (algorithm == Algorithm::Auto && cells > exact::MAX_CELLS))
        && cells <= 32
    {
        if let Some(wd) = WalkingDistance::new(goal) {
            return Ok(generic_wd(&wd, board, goal, options));
        }
    }
    solver.solve_plain(board, goal, options, observer)
}

/// A sampler seen by the IDA* over a database: bounds, progress and the nodes it asks for;
/// `false` to stop.
struct Ticker<'o, S> {
    observer: &'o mut S,
    started: Instant,
    size: npuzzle_core::Size,
}

impl<S: Sampler> pdb_search::Tick for Ticker<'_, S> {
    fn bound(&mut self, bound: u32, expanded: u64) -> bool {
        self.observer.bound(&search::Bound::new(bound, expanded)) == Flow::Continue
    }

    fn progress(&mut self, expanded: u64, generated: u64) -> bool {
        let event = search::Progress::new(expanded, generated, 0, self.started);
        self.observer.progress(&event) == Flow::Continue
    }

    fn wants(&mut self, expanded: u64) -> bool {
        self.observer.wants(expanded)
    }

    fn samples(&self) -> bool {
        self.observer.samples()
    }

    fn node(&mut self, cells: &[u8], g: u32, h: u32) -> bool {
        let tiles = cells.iter().map(|&t| u16::from(t)).collect();
        let Ok(board) = Board::new(self.size, tiles) else { return true };
        // IDA*'s "open list" is the path from the root: `g` boards deep.
        let event = search::Expand::new(&board, g, h).with_lists(g as usize, 0);
        self.observer.expand(&event) == Flow::Continue
    }
}

/// The answer when the observer stops a search before it starts.
fn cancelled(board: &Board, goal: &Board) -> Solution {
    let mut s =
        Solution::without_moves(Status::Limit, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    s.reason = Some(Reason::Limit(Limit::Cancelled));
    if !Parity::of(board, goal).solvable() {
        s.status = Status::Unsolvable;
        s.reason = Some(Reason::Unsolvable(Parity::of(board, goal)));
    }
    s
}

/// After the optimal attempt over the database ran out of its `budget`: weighted A* (then
/// the reduction solver) within the rest of the caller's timeout, as `auto` does without a
/// database. The answer keeps the lower bound the attempt proved, and says what happened.
fn fall_back(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    options: &Options,
    attempt: Solution,
    budget: std::time::Duration,
    clock: Instant,
) -> Result<Solution, SolveError> {
    let rest = options.limits.timeout.map(|t| t.saturating_sub(clock.elapsed()));
    let limits = Limits { timeout: rest, ..options.limits.clone() };
    let weighted = Options {
        algorithm: Algorithm::WAStar,
        heuristic: Heuristic::LinearConflict,
        optimal: false,
        limits: limits.clone(),
        ..options.clone()
    };
    let mut s = solver.solve_plain(board, goal, &weighted, ())?;
    let mut notes = vec![Note::OptimalAttemptGaveUp { heuristic: HeuristicKind::Pdb, budget }];
    if s.status == Status::Solved {
        notes.push(Note::WeightedAStar { weight: options.weight });
    } else {
        let reduction = Options { algorithm: Algorithm::Reduction, limits, ..options.clone() };
        s = solver.solve_plain(board, goal, &reduction, ())?;
    }
    notes.append(&mut s.notes);
    s.notes = notes;
    if s.status != Status::Unsolvable {
        s.lower_bound = s.lower_bound.max(attempt.lower_bound);
    }
    s.stats.expanded += attempt.stats.expanded;
    s.stats.generated += attempt.stats.generated;
    s.stats.seconds = clock.elapsed().as_secs_f64();
    Ok(s)
}
