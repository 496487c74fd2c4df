//! Running the steps over tables: [`Step::TwentyFour`], [`Step::Pdb`] and
//! [`Step::WalkingDistance`]. The plan ([`crate::plan`]) decided that they run; this module
//! gets their tables (held by the solver, or from its store) and runs their engines on the
//! caller's board and goal, showing the caller's watcher what they show in its own
//! orientation and numbering.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use npuzzle_core::Board;
use npuzzle_search::{self as search, Flow};

use crate::Solver;
use crate::engine::generic::{generic_pdb, generic_wd};
use crate::engine::pdb_search::{self, PdbEngine};
use crate::engine::twentyfour;
use crate::heuristic::HeuristicKind;
use crate::heuristic::frame::Frame;
use crate::heuristic::pdb::Database;
use crate::heuristic::pdb::NotLoaded;
use crate::heuristic::pdb::store::Found;
use crate::heuristic::walking_distance::WalkingDistance;
use crate::options::{Algorithm, Heuristic, Limits, Options};
use crate::plan::{SearchAlgorithm, Step};
use crate::sample::Sampler;
use crate::solution::{Limit, Note, Reason, Solution, Status};
use crate::watch::{Relayed, relay};

use super::StepAnswer;

/// Moves within which `auto` answers a board at once without a database: a quick IDA* with
/// linear conflict gets this many expansions before a database is built for the board.
const QUICK_NODES: u64 = 20_000;

/// The caller's side of a step over tables: the board and goal as given, the options, the
/// solver and the clock of the whole solve.
pub(crate) struct Given<'a> {
    pub(crate) solver: &'a Solver,
    pub(crate) board: &'a Board,
    pub(crate) goal: &'a Board,
    pub(crate) options: &'a Options,
    pub(crate) clock: Instant,
}

impl Given<'_> {
    /// The caller's limits with the timeout cut to `budget` and counted from the start of
    /// the whole solve.
    fn limits(&self, budget: Option<Duration>) -> Limits {
        Limits {
            timeout: self.timeout(budget).map(|t| t.saturating_sub(self.clock.elapsed())),
            ..self.options.limits.clone()
        }
    }

    /// The time a step with `budget` may take, counted from the start of the whole solve.
    fn timeout(&self, budget: Option<Duration>) -> Option<Duration> {
        super::step_timeout(&self.options.limits, budget)
    }

    /// The answer of a step with `budget`, which ran out of it when it stopped on time before
    /// the caller's own timeout.
    fn answer(&self, mut solution: Solution, budget: Option<Duration>) -> StepAnswer {
        // The engines count their time from their own start: the limit the answer names is
        // the one the caller set (or the step's budget).
        if let (Some(Limit::Time(_)), Some(timeout)) = (solution.limit(), self.timeout(budget)) {
            solution.reason = Some(Reason::Limit(Limit::Time(timeout)));
        }
        let out_of_budget = super::out_of_budget(&solution, &self.options.limits, budget);
        StepAnswer { solution, out_of_budget }
    }

    /// Options for the generic engines: one algorithm, the step's limits.
    fn generic_options(
        &self,
        algorithm: SearchAlgorithm,
        weight: f64,
        budget: Option<Duration>,
    ) -> Options {
        Options {
            algorithm: algorithm.algorithm(),
            weight,
            limits: self.limits(budget),
            ..self.options.clone()
        }
    }
}

/// Whether `db` serves boards towards `goal`: of its shape, covering every tile, for the goal
/// itself or for the goal's frame.
pub(crate) fn serves(db: &Database, goal: &Board) -> bool {
    db.size() == goal.size()
        && db.covers_every_tile()
        && (db.goal() == goal || Frame::new(goal).goal() == db.goal())
}

/// Runs [`Step::TwentyFour`]: `None` when its tables cannot be had (the plan goes on).
pub(crate) fn twentyfour<S: Sampler>(
    given: &Given<'_>,
    observer: &mut S,
) -> Result<StepAnswer, Option<Note>> {
    let store = given.solver.store().ok_or(None)?;
    if let Some(note) = too_large(given, true) {
        return Err(Some(note));
    }
    let limits = &given.options.limits;
    // Loaded within the time limit, when cached and not held (see `Store::find_until`).
    let deadline = limits.timeout.map(|t| given.clock + t);
    let cancel = limits.cancel.as_deref();
    if let Err(NotLoaded { bytes }) = store.twentyfour_at_hand_until(given.goal, cancel, deadline) {
        let timeout = limits.timeout.unwrap_or_default();
        return Err(Some(Note::TablesNotLoaded { twentyfour: true, bytes, timeout }));
    }
    let tables = match store.twentyfour(given.goal, limits.timeout, cancel) {
        Found::Ready(tables) => tables,
        Found::OutOfTime(timeout) => return Ok(given.answer(out_of_time(given, timeout), None)),
        Found::Unavailable => return Err(None),
    };
    let databases = given.solver.databases();
    let config = twentyfour::Config {
        threads: databases.threads.max(1),
        pruning: databases.pruning.map_or(twentyfour::DEFAULT_PRUNING, usize::from),
        within: None,
    };
    let limits = given.limits(None);
    let s = relay(observer, limits.cancel.as_ref(), |stop, sink| {
        let limits = Limits { cancel: Some(stop), ..limits.clone() };
        let last = AtomicU32::new(0);
        let progress = |p: twentyfour::Progress| {
            if last.fetch_max(p.bound, Ordering::Relaxed) < p.bound {
                sink(Relayed::Bound(p.bound));
            }
            sink(Relayed::Progress(p.expanded, p.generated));
        };
        twentyfour::solve(&tables, given.board, &limits, &config, Some(&progress))
    });
    // The plan sends only boards of the tables' shape here.
    let s = s.unwrap_or_else(|_| stopped(Algorithm::IdaStar));
    Ok(given.answer(s, None))
}

/// The answer when the 24-puzzle's tables could not be built within `timeout`: a time
/// limit, with the Manhattan distance as the lower bound.
fn out_of_time(given: &Given<'_>, timeout: Duration) -> Solution {
    let mut s =
        Solution::without_moves(Status::Limit, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    s.lower_bound = Some(crate::engine::reduction::manhattan_lower_bound(given.board, given.goal));
    s.reason = Some(Reason::Limit(Limit::Time(timeout)));
    s.notes.push(Note::TablesNotReady { timeout });
    s
}

/// A search over tables stopped before it could say more.
fn stopped(algorithm: Algorithm) -> Solution {
    let mut s = Solution::without_moves(Status::Limit, algorithm, Some(HeuristicKind::Pdb));
    s.reason = Some(Reason::Limit(Limit::Cancelled));
    s.lower_bound = Some(0);
    s
}

/// Runs [`Step::Pdb`]: `None` when no database serves the board (the run loop then runs the
/// same search with linear conflict).
pub(crate) fn pdb<S: Sampler>(
    given: &Given<'_>,
    algorithm: SearchAlgorithm,
    weight: f64,
    budget: Option<Duration>,
    observer: &mut S,
) -> Result<StepAnswer, Option<Note>> {
    let (db, smaller) = database(given, budget)?;
    let mut answer = pdb_over(given, &db, algorithm, weight, budget, observer)?;
    if let Some(note) = smaller {
        answer.solution.notes.insert(0, note);
    }
    Ok(answer)
}

/// [`pdb`] over the database `db`.
fn pdb_over<S: Sampler>(
    given: &Given<'_>,
    db: &Database,
    algorithm: SearchAlgorithm,
    weight: f64,
    budget: Option<Duration>,
    observer: &mut S,
) -> Result<StepAnswer, Option<Note>> {
    let (board, goal) = (given.board, given.goal);
    if algorithm != SearchAlgorithm::IdaStar {
        let engine = PdbEngine::new(db).map_err(|_| None)?;
        let options = given.generic_options(algorithm, weight, budget);
        let s = if db.goal() == goal {
            generic_pdb(&engine, board, goal, &options)
        } else {
            let frame = Frame::new(goal);
            let mut s = generic_pdb(&engine, &frame.board(board), frame.goal(), &options);
            s.moves = frame.moves_back(&s.moves);
            s
        };
        return Ok(given.answer(s, budget));
    }
    let limits = given.limits(budget);
    let s = if db.goal() == goal {
        ida(given, db, board, &limits, observer)
    } else {
        let frame = Frame::new(goal);
        let mut framed = Framed { inner: observer, frame: &frame };
        let mut s = ida(given, db, &frame.board(board), &limits, &mut framed);
        s.moves = frame.moves_back(&s.moves);
        s
    };
    Ok(given.answer(s, budget))
}

/// The IDA* over `db` for `board` (in the database's frame), on the solver's threads unless
/// the observer samples nodes (it sees one thread's); bounds and progress go to `observer`.
fn ida<S: Sampler>(
    given: &Given<'_>,
    db: &Database,
    board: &Board,
    limits: &Limits,
    observer: &mut S,
) -> Solution {
    let tables = given.solver.databases();
    let threads = if observer.samples() { 1 } else { tables.threads.max(1) };
    // The first iterations on this thread, told to the observer directly; on several
    // threads, those after the first of `HAND_OVER` nodes on them, their reports relayed.
    let split = (threads > 1).then_some(pdb_search::HAND_OVER);
    let begun = {
        let mut tick =
            Ticker { observer: &mut *observer, started: Instant::now(), size: board.size() };
        pdb_search::begin(db, board, limits, tables.dual, &mut tick, split)
    };
    let s = match begun {
        Ok(pdb_search::Begun::HandOver(h)) => {
            relay(observer, limits.cancel.as_ref(), |stop, sink| {
                let limits = Limits { cancel: Some(stop), ..limits.clone() };
                let sink = |r: pdb_search::ThreadReport| match r {
                    pdb_search::ThreadReport::Bound(b) => sink(Relayed::Bound(b)),
                    pdb_search::ThreadReport::Progress(e, g) => sink(Relayed::Progress(e, g)),
                };
                pdb_search::finish(db, board, &limits, threads, tables.dual, Some(&sink), h)
            })
        }
        Ok(pdb_search::Begun::Done(s)) => Ok(s),
        Err(e) => Err(e),
    };
    // The plan sends only boards of the database's shape here.
    let mut s = s.unwrap_or_else(|_| stopped(Algorithm::IdaStar));
    if s.status == Status::Solved {
        s.notes.clear();
    }
    s
}

/// Runs [`Step::WalkingDistance`]: `None` when its tables do not exist for the goal.
pub(crate) fn walking_distance(
    given: &Given<'_>,
    algorithm: SearchAlgorithm,
    weight: f64,
    budget: Option<Duration>,
) -> Option<StepAnswer> {
    let wd = WalkingDistance::new(given.goal)?;
    let options = given.generic_options(algorithm, weight, budget);
    Some(given.answer(generic_wd(&wd, given.board, given.goal, &options), budget))
}

/// The database serving the board: the one the solver holds, else its store's. A build on
/// demand is never started for a board already at its goal, nor, under `auto`, for one a
/// quick search answers at once; a build is waited for until the end of the step's `budget`
/// (or the caller's timeout), and then the step runs with linear conflict (the build goes on
/// for the solves after it).
/// The database for the step: the solver's own, one held or cached (loaded within the time
/// limit), or one built on demand; else why not, when a note says it (too large for the
/// memory limit, not loaded in time).
///
/// When the strongest cached database would pass the memory limit, the strongest cached one
/// within it serves, with a note that says so.
fn database(
    given: &Given<'_>,
    budget: Option<Duration>,
) -> Result<(Database, Option<Note>), Option<Note>> {
    let Given { solver, board, goal, options, .. } = *given;
    if let Some(db) = solver.databases().pdb.as_ref().filter(|d| serves(d, goal)) {
        return Ok((db.clone(), None));
    }
    let store = solver.store().ok_or(None)?;
    if let Some(note) = too_large(given, false) {
        return Err(Some(note));
    }
    let limit = room(solver, options).map(|r| r as u64);
    // The note when the limit kept a stronger one (held or cached) from the solve.
    let smaller = |db: &Database| {
        let bytes = store.stronger_than(goal, db)?;
        let used = db.bytes().len() as u64;
        limit.map(|l| Note::SmallerDatabase { bytes, used, limit: l as usize })
    };
    // A board a quick IDA* over linear conflict answers needs no database, so none is
    // loaded or built for it (a 10-move 15-puzzle loaded the 7-8 database's 783 MB: 1.7 s
    // from disk, for an answer of milliseconds).
    let held = store.bytes_to_load(goal) == Some(0);
    if !held && options.heuristic == Heuristic::Auto && board != goal && quick(given) {
        return Err(None);
    }
    let cancel = options.limits.cancel.as_deref();
    let timeout = given.timeout(budget);
    let deadline = timeout.map(|t| given.clock + t);
    match store.find_until(goal, limit, cancel, deadline) {
        Ok(Some(db)) if serves(&db, goal) => {
            let note = smaller(&db);
            return Ok((db, note));
        }
        Ok(_) => {}
        Err(NotLoaded { bytes }) => {
            let timeout = timeout.unwrap_or_default();
            return Err(Some(Note::TablesNotLoaded { twentyfour: false, bytes, timeout }));
        }
    }
    if board == goal || !store.builds_on_demand() {
        return Err(None);
    }
    store
        .database_until(goal, cancel, deadline)
        .filter(|d| serves(d, goal))
        .map(|d| (d, None))
        .ok_or(None)
}

/// The room the solver has for tables ([`crate::Databases::table_memory`]), else the
/// request's memory limit, in bytes.
fn room(solver: &Solver, options: &Options) -> Option<usize> {
    solver.databases().table_memory.or(options.limits.max_memory)
}

/// The note for tables the request's memory limit leaves no room for: a pattern database
/// (Korf & Felner's tables with `twentyfour`) that is not held, whose cached file is larger
/// than the room the solver has for tables ([`crate::Databases::table_memory`]), else than
/// the request's memory limit; `None` when they fit, are held, or there are none to load.
/// A pattern database counts as fitting when any cached one for the goal does (the strongest
/// of those serves, [`database`]).
pub(crate) fn too_large(given: &Given<'_>, twentyfour: bool) -> Option<Note> {
    let limit = room(given.solver, given.options)?;
    if !twentyfour && given.solver.databases().pdb.as_ref().is_some_and(|d| serves(d, given.goal)) {
        return None;
    }
    let store = given.solver.store()?;
    let bytes = if twentyfour {
        store.twentyfour_bytes_to_load(given.goal)?
    } else {
        if store.bytes_to_load_within(given.goal, Some(limit as u64)).is_some() {
            return None;
        }
        store.bytes_to_load(given.goal)?
    };
    (bytes > limit as u64).then_some(Note::TablesTooLarge { twentyfour, bytes, limit })
}

/// Whether a quick optimal search (IDA* with linear conflict, [`QUICK_NODES`] expansions)
/// answers the board: then the solve needs no database.
fn quick(given: &Given<'_>) -> bool {
    let probe = Options {
        algorithm: Algorithm::IdaStar,
        heuristic: Heuristic::LinearConflict,
        optimal: true,
        limits: Limits { max_nodes: Some(QUICK_NODES), ..given.options.limits.clone() },
        ..given.options.clone()
    };
    given
        .solver
        .solve_plain(given.board, given.goal, &probe, ())
        .is_ok_and(|s| s.status == Status::Solved)
}

/// [`Solver::prepare`]: the database the plan of a request like `options` for boards of
/// `goal` runs over, readied (built only with `build`).
pub(crate) fn prepare(
    solver: &Solver,
    goal: &Board,
    options: &Options,
    build: bool,
) -> Option<Database> {
    let plan = solver.plan(goal, options, crate::watch::Nodes::None).ok()?;
    let cancel = options.limits.cancel.as_deref();
    // Not tables the memory limit leaves no room for (see `too_large`).
    let room = room(solver, options);
    let fits = |bytes: Option<u64>| room.is_none_or(|r| bytes.is_none_or(|b| b <= r as u64));
    if plan.steps.first() == Some(&Step::TwentyFour) {
        if !build || !fits(solver.store()?.twentyfour_bytes_to_load(goal)) {
            return None;
        }
        return match solver.store()?.twentyfour(goal, options.limits.timeout, cancel) {
            Found::Ready(tables) => Some(tables.base().clone()),
            _ => None,
        };
    }
    if !plan.steps.iter().any(|s| matches!(s, Step::Pdb { .. })) {
        return None;
    }
    if let Some(db) = solver.databases().pdb.as_ref().filter(|d| serves(d, goal)) {
        return Some(db.clone());
    }
    let store = solver.store()?;
    // The strongest held or cached one within the room (as a solve would load, `database`);
    // a build only when none is cached.
    if let Some(db) = store.find_within(goal, room.map(|r| r as u64)) {
        return serves(&db, goal).then_some(db);
    }
    if !build || store.bytes_to_load(goal).is_some() {
        return None;
    }
    store.prepare(goal, cancel).filter(|d| serves(d, goal))
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

/// [`label_check`] for the watched searches, whose generic engines run linear conflict
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
pub(crate) fn label_check(solution: &mut Solution, options: &Options) {
    let Some(asked) = asked(options.heuristic) else { return };
    if solution.status == Status::Unsolvable || solution.heuristic == Some(asked) {
        return;
    }
    let explained = solution.notes.iter().any(|n| {
        matches!(
            n,
            Note::NoDatabase
                | Note::TablesTooLarge { .. }
                | Note::TablesNotLoaded { .. }
                | Note::HeuristicNotUsed { .. }
                | Note::NotWatchable { .. }
        )
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

/// A sampler shown the boards of a search towards a goal's frame, in the caller's own
/// orientation and numbering.
struct Framed<'f, S> {
    inner: S,
    frame: &'f Frame,
}

impl<S: Sampler> search::Observer<Board, u32> for Framed<'_, S> {
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
