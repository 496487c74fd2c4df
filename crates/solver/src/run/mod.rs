//! The one run loop: [`solve`] executes a request's [`Plan`](crate::plan::Plan), step by
//! step, with its fallbacks, on the engine each step names. This module runs the steps on
//! the solver's own engines (the exact table, the packed engines for boards of both sides at
//! most 4, the general engine, the reduction solver, the near-optimal engine); [`tables`]
//! runs the steps over pattern databases, Korf & Felner's tables and walking distance.
//!
//! The own engines work on boards and goals relabelled to the goal's canonical numbering
//! (see [`crate::relabel`]) and known to be solvable (the table step answers solvability
//! itself); the steps over tables work on the caller's board and goal.

pub(crate) mod tables;

use std::time::{Duration, Instant};

use npuzzle_core::{Board, Moves, Parity};
use npuzzle_search::{self as search, Begin, Finish, Flow, Observer, Outcome, Report, Stop};

use crate::Solver;
use crate::error::SolveError;
use crate::options::Options;
use crate::plan::Resources;
use crate::relabel::{Relabel, is_canonical};
use crate::sample::{Renamed, Sampler};
use crate::watch::Nodes;

use crate::engine::boards::{AsBoards, Bounds};
use crate::engine::general;
use crate::engine::packed::{self, Watch};
use crate::engine::reduction;
use crate::heuristic::HeuristicKind;
use crate::options::{Algorithm, Limits};
use crate::plan::{self, SearchAlgorithm, Step};
use crate::solution::{Ended, Limit, Note, Reason, Solution, Stats, Status};
use crate::tables::SolverTables;

/// Bytes the reduction solver holds per unit of the board's Manhattan bound: its answers are
/// about 2.5 times the bound long, at about 8 bytes per move with the clean-up's copies
/// (measured: 29 MB for a 128x128 board, bound 1,390,052; 226 MB for 256x256, bound
/// 11,198,899), with a margin.
const REDUCTION_BYTES_PER_BOUND: usize = 24;

/// What the reduction solver needs for a board of `cells` cells and Manhattan bound
/// `bound`: its moves, and a few words per cell for its grids.
fn reduction_bytes(bound: u64, cells: usize) -> usize {
    usize::try_from(bound)
        .unwrap_or(usize::MAX)
        .saturating_mul(REDUCTION_BYTES_PER_BOUND)
        .saturating_add(cells.saturating_mul(64))
}

/// The share of the reduction solver's plain answer below which the near-optimal engine's
/// answer makes `auto` skip the reduction solver's beams (see [`Step::Reduction`]): they
/// take about 4 % off it.
const NEAR_CLEARLY: f64 = 0.9;

/// The time a step with its own `budget` may take under the caller's `limits`, counted from
/// the start of the whole solve.
pub(crate) fn step_timeout(limits: &Limits, budget: Option<Duration>) -> Option<Duration> {
    match (limits.timeout, budget) {
        (Some(t), Some(b)) => Some(t.min(b)),
        (t, b) => t.or(b),
    }
}

/// Whether `solution` stopped on its step's own `budget` while the caller's `limits` still
/// hold (then the plan goes on with its next step).
pub(crate) fn out_of_budget(
    solution: &Solution,
    limits: &Limits,
    budget: Option<Duration>,
) -> bool {
    solution.limit().is_some_and(|l| l.stop() == Stop::Time)
        && budget.is_some_and(|b| limits.timeout.is_none_or(|t| b < t))
        && !limits.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
}

/// What every step needs: where tables come from, the (relabelled) board and goal, the
/// caller's limits and the clock of the whole solve.
#[derive(Clone, Copy)]
pub(crate) struct Task<'a> {
    pub(crate) tables: &'a std::sync::Arc<SolverTables>,
    /// The solver's databases, for the steps that use them when at hand (`None` when the
    /// request names a heuristic other than the databases).
    pub(crate) store: Option<&'a std::sync::Arc<crate::heuristic::pdb::Store>>,
    pub(crate) board: &'a Board,
    pub(crate) goal: &'a Board,
    pub(crate) limits: &'a Limits,
    pub(crate) clock: Instant,
    /// Threads for the near-optimal engine (`None`: every core; [`crate::Databases`]).
    pub(crate) near_threads: Option<usize>,
    /// The room for tables loaded for this request ([`crate::Databases::table_memory`]).
    pub(crate) table_memory: Option<usize>,
}

/// A step's answer, and whether it stopped on the step's own time budget (so the plan may
/// go on) rather than on the caller's limits.
pub(crate) struct StepAnswer {
    pub(crate) solution: Solution,
    pub(crate) out_of_budget: bool,
}

impl Task<'_> {
    /// `clock + t`, or no deadline when that cannot be represented (a timeout of centuries).
    fn deadline(&self, timeout: Option<Duration>) -> Option<Instant> {
        timeout.and_then(|t| self.clock.checked_add(t))
    }

    /// The search crate's limits for a search of at most `timeout`.
    fn search_limits(&self, timeout: Option<Duration>) -> search::Limits {
        search::Limits {
            max_nodes: self.limits.max_nodes,
            max_memory: self.limits.max_memory,
            node_bytes: 0,
            deadline: self.deadline(timeout),
            cancel: self.limits.cancel.clone(),
            max_depth: None,
        }
    }

    /// Runs `step` on the fast engines, showing `observer` the node-free events (bounds and
    /// progress) of the packed engines.
    pub(crate) fn run(&self, step: &Step, observer: &mut dyn crate::Sampler) -> StepAnswer {
        match *step {
            Step::Table => self.answer(self.table()),
            // The run loop runs the steps over tables (see `tables`); this is what runs in
            // their place when their tables cannot be had: their search with linear conflict.
            Step::TwentyFour => {
                let heuristic = Some(HeuristicKind::LinearConflict);
                let algorithm = SearchAlgorithm::IdaStar;
                self.run(
                    &Step::Search { algorithm, heuristic, weight: 1.0, budget: None },
                    observer,
                )
            }
            Step::Pdb { algorithm, weight, budget }
            | Step::WalkingDistance { algorithm, weight, budget } => {
                let heuristic = Some(HeuristicKind::LinearConflict);
                self.run(&Step::Search { algorithm, heuristic, weight, budget }, observer)
            }
            Step::Reduction { improve, beams } => self.answer(self.reduction(improve, beams)),
            Step::Near { improve, budget } => {
                let solution = self.near(improve, step_timeout(self.limits, budget), observer);
                let out_of_budget = out_of_budget(&solution, self.limits, budget);
                StepAnswer { solution, out_of_budget }
            }
            Step::Search { algorithm, heuristic, weight, budget } => {
                let timeout = step_timeout(self.limits, budget);
                let solution = self.search(algorithm, heuristic, weight, timeout, observer);
                let out_of_budget = out_of_budget(&solution, self.limits, budget);
                StepAnswer { solution, out_of_budget }
            }
        }
    }

    fn answer(&self, solution: Solution) -> StepAnswer {
        StepAnswer { solution, out_of_budget: false }
    }

    fn cancelled(&self) -> bool {
        self.limits.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    fn seconds(&self) -> f64 {
        self.clock.elapsed().as_secs_f64()
    }

    fn table(&self) -> Solution {
        let table = self.tables.exact(self.goal);
        let moves = table.as_ref().and_then(|t| t.solve(self.board));
        let seconds = self.seconds();
        match moves {
            // The walk down the table expands one node per move: a node limit below the
            // length stops it, with the length as the (exact) lower bound.
            Some(moves) if self.limits.max_nodes.is_some_and(|max| moves.len() as u64 > max) => {
                let max = self.limits.max_nodes.unwrap_or_default();
                Solution {
                    status: Status::Limit,
                    moves: Moves::default(),
                    optimal: false,
                    algorithm: Algorithm::Table,
                    heuristic: None,
                    stats: Stats { expanded: max, seconds, ..Stats::default() },
                    lower_bound: Some(moves.len() as u64),
                    reason: Some(Reason::Limit(Limit::Nodes(max))),
                    notes: Vec::new(),
                }
            }
            Some(moves) => {
                let length = moves.len() as u64;
                Solution {
                    status: Status::Solved,
                    stats: Stats { expanded: length, generated: 0, max_frontier: 0, seconds },
                    moves,
                    optimal: true,
                    algorithm: Algorithm::Table,
                    heuristic: None,
                    lower_bound: Some(length),
                    reason: None,
                    notes: Vec::new(),
                }
            }
            None => Solution {
                status: Status::Unsolvable,
                moves: Moves::default(),
                optimal: false,
                algorithm: Algorithm::Table,
                heuristic: None,
                stats: Stats { seconds, ..Stats::default() },
                lower_bound: None,
                reason: Some(Reason::Unsolvable(Parity::of(self.board, self.goal))),
                notes: Vec::new(),
            },
        }
    }

    fn reduction(&self, improve: bool, beams: u64) -> Solution {
        let bound = reduction::manhattan_lower_bound(self.board, self.goal);
        let base = Solution {
            status: Status::Solved,
            moves: Moves::default(),
            optimal: false,
            algorithm: Algorithm::Reduction,
            heuristic: None,
            stats: Stats { seconds: self.seconds(), ..Stats::default() },
            lower_bound: Some(bound),
            reason: None,
            notes: Vec::new(),
        };
        let stopped = |limit: Limit, base: Solution| Solution {
            status: Status::Limit,
            reason: Some(Reason::Limit(limit)),
            stats: Stats { seconds: self.seconds(), ..base.stats },
            ..base
        };
        // Limits the reduction is held to before it starts: its answer is at least the
        // Manhattan bound long, and it holds about REDUCTION_BYTES_PER_BOUND bytes per unit
        // of that bound (moves and their clean-up copies).
        if let Some(max) = self.limits.max_nodes.filter(|&max| bound > max) {
            return stopped(Limit::Nodes(max), base);
        }
        let need = reduction_bytes(bound, self.board.tiles().len());
        if let Some(max) = self.limits.max_memory.filter(|&max| need > max) {
            return stopped(Limit::Memory(max), base);
        }
        // The anytime mode until the timeout, or a given number of its beams.
        let improve = improve && self.limits.timeout.is_some();
        let beams = (!improve && beams > 0).then_some(beams);
        let mut budget = match self.deadline(self.limits.timeout) {
            Some(deadline) => reduction::Budget::until(deadline),
            None => reduction::Budget::for_duration(Duration::MAX),
        };
        if let Some(flag) = &self.limits.cancel {
            budget = budget.with_cancel(flag.clone());
        }
        let result = if improve || beams.is_some() {
            let anytime =
                reduction::solve_anytime_in(self.tables, self.board, self.goal, budget, beams);
            anytime.map(|r| {
                let improved = Note::Improved {
                    from: r.first_length,
                    to: r.moves.len(),
                    attempts: r.attempts,
                };
                (r.moves, Some(improved))
            })
        } else {
            reduction::solve_within(self.tables, self.board, self.goal, &budget).map(|m| (m, None))
        };
        match result {
            Ok((moves, _)) if self.limits.max_nodes.is_some_and(|max| moves.len() as u64 > max) => {
                stopped(Limit::Nodes(self.limits.max_nodes.unwrap_or_default()), base)
            }
            Ok((moves, improved)) => {
                // Timed after the solve: `base`'s clock was read before it (0.013 s was
                // reported for a run of 61.8 s).
                let stats =
                    Stats { expanded: moves.len() as u64, seconds: self.seconds(), ..base.stats };
                // As long as its own proven lower bound: optimal, whatever found it.
                if moves.len() as u64 == bound {
                    return Solution { stats, moves, optimal: true, ..base };
                }
                let mut notes = vec![Note::Reduction { lower_bound: bound }];
                notes.extend(improved);
                Solution { stats, moves, notes, ..base }
            }
            Err(reduction::ReductionError::Unsolvable(parity)) => Solution {
                status: Status::Unsolvable,
                lower_bound: None,
                reason: Some(Reason::Unsolvable(parity)),
                stats: Stats { seconds: self.seconds(), ..base.stats },
                ..base
            },
            Err(reduction::ReductionError::Interrupted) => {
                let limit = if self.cancelled() {
                    Limit::Cancelled
                } else {
                    Limit::Time(self.limits.timeout.unwrap_or_default())
                };
                stopped(limit, base)
            }
            Err(e) => Solution {
                status: Status::Limit,
                reason: Some(Reason::Reduction(e.to_string())),
                stats: Stats { seconds: self.seconds(), ..base.stats },
                ..base
            },
        }
    }

    /// The near-optimal engine ([`crate::engine::near`]); with `improve` (and a timeout), its
    /// anytime mode until the timeout. A cancelled or timed-out anytime run answers with its
    /// best answer so far.
    ///
    /// `observer` hears the bound each time it rises and, with the progress events, the best
    /// length so far each time it falls (the game and the CLI's progress line show both).
    fn near(
        &self,
        improve: bool,
        timeout: Option<Duration>,
        observer: &mut dyn crate::Sampler,
    ) -> Solution {
        use crate::engine::near::{NearError, Settings};
        use crate::heuristic::pdb::NotLoaded;
        use crate::watch::{Relayed, relay};
        let base = Solution {
            status: Status::Solved,
            moves: Moves::default(),
            optimal: false,
            algorithm: Algorithm::Near,
            heuristic: Some(HeuristicKind::LinearConflict),
            stats: Stats::default(),
            lower_bound: None,
            reason: None,
            notes: Vec::new(),
        };
        let budget = match self.deadline(timeout) {
            Some(deadline) => reduction::Budget::until(deadline),
            None => reduction::Budget::for_duration(Duration::MAX),
        };
        // Korf & Felner's tables, when loading them leaves room in the memory limit: the
        // beams get what is left.
        let load = self.store.and_then(|s| s.twentyfour_bytes_to_load(self.goal));
        let too_large = match (load, self.table_memory.or(self.limits.max_memory)) {
            (Some(bytes), Some(limit)) if bytes > limit as u64 => {
                Some(Note::TablesTooLarge { twentyfour: true, bytes, limit })
            }
            _ => None,
        };
        let mut not_loaded = None;
        let tables = if too_large.is_some() {
            None
        } else {
            // They re-solve windows of a 5x5 path when they are cached (never built for
            // this: 40 s), loaded within the time limit (see `Store::find_until`).
            let cancel = self.limits.cancel.as_deref();
            match self
                .store
                .map(|s| s.twentyfour_at_hand_until(self.goal, cancel, self.deadline(timeout)))
            {
                Some(Ok(tables)) => tables,
                Some(Err(NotLoaded { bytes })) => {
                    let timeout = timeout.unwrap_or_default();
                    not_loaded = Some(Note::TablesNotLoaded { twentyfour: true, bytes, timeout });
                    None
                }
                None => None,
            }
        };
        // (Tables still loading take their room too.)
        let loaded = if tables.is_some() || not_loaded.is_some() { load.unwrap_or(0) } else { 0 };
        let settings = Settings {
            budget,
            anytime: improve && timeout.is_some(),
            threads: self
                .near_threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
                .max(1),
            max_memory: self
                .limits
                .max_memory
                .map(|m| m.saturating_sub(usize::try_from(loaded).unwrap_or(usize::MAX))),
            max_nodes: self.limits.max_nodes,
            tables,
        };
        let stopped = |reason: Reason| Solution {
            status: Status::Limit,
            reason: Some(reason),
            stats: Stats { seconds: self.seconds(), ..Stats::default() },
            ..base.clone()
        };
        // The engine runs on the relay's thread and stops on the relay's flag, which follows
        // the caller's and rises too when the observer stops.
        let (result, stopped_by_observer) =
            relay(observer, self.limits.cancel.as_ref(), |stop, sink| {
                let settings =
                    Settings { budget: settings.budget.with_cancel(stop.clone()), ..settings };
                let mut heard = |length: usize, bound: u64| {
                    sink(Relayed::Bound(u32::try_from(bound).unwrap_or(u32::MAX)));
                    if length > 0 {
                        sink(Relayed::Best(length as u64));
                    }
                };
                let result = crate::engine::near::solve_observed(
                    self.board, self.goal, &settings, &mut heard,
                );
                (result, stop.load(std::sync::atomic::Ordering::Relaxed))
            });
        match result {
            Ok(answer) => {
                let length = answer.moves.len();
                let mut notes = Vec::new();
                if !answer.optimal {
                    notes.push(Note::Near {
                        lower_bound: answer.lower_bound,
                        length,
                        tables: answer.tables,
                        finished_by_reduction: answer.finished_by_reduction,
                        restarted: answer.restarted,
                        wide: answer.wide,
                        mended: answer.mended,
                        peeled: answer.peeled,
                    });
                }
                notes.extend(too_large);
                notes.extend(not_loaded);
                // A limit that ended the plan before it was done, or cut it down (less time
                // than its beams take, narrower beams for the memory): its answer is longer
                // than the engine's with more room. (The anytime mode's plan is to run to
                // its limit, and its note says how far it got.)
                if !settings.anytime && !answer.optimal {
                    let timed_out = timeout.is_some_and(|t| self.clock.elapsed() >= t);
                    let cut = if self.cancelled() || (stopped_by_observer && !timed_out) {
                        Some(Limit::Cancelled)
                    } else if timed_out {
                        timeout.map(Limit::Time)
                    } else if let Some(max) = self.limits.max_nodes.filter(|&m| answer.nodes >= m) {
                        Some(Limit::Nodes(max))
                    } else if answer.squeezed.time {
                        timeout.map(Limit::Time)
                    } else if answer.squeezed.memory {
                        settings.max_memory.map(Limit::Memory)
                    } else {
                        None
                    };
                    let quick =
                        crate::plan::quick_budget_binds(self.board.size(), self.limits, timeout);
                    let quick = quick && matches!(cut, Some(Limit::Time(_)));
                    notes.extend(cut.map(|limit| Note::NearCut { limit, quick }));
                }
                if settings.anytime {
                    notes.push(Note::Improved {
                        from: answer.first_length,
                        to: length,
                        attempts: answer.attempts,
                    });
                }
                Solution {
                    stats: Stats {
                        expanded: answer.nodes,
                        generated: answer.nodes,
                        seconds: self.seconds(),
                        ..base.stats
                    },
                    // Where the 24-puzzle's tables ran they rank the forward beam, prove
                    // the bound and search for shorter answers: theirs is the name (the note
                    // names linear conflict too, which ranks the beam from the goal).
                    heuristic: if answer.tables {
                        Some(HeuristicKind::Pdb)
                    } else {
                        base.heuristic
                    },
                    moves: answer.moves,
                    optimal: answer.optimal,
                    lower_bound: Some(answer.lower_bound),
                    notes,
                    ..base
                }
            }
            Err(NearError::Unsolvable(parity)) => Solution {
                status: Status::Unsolvable,
                reason: Some(Reason::Unsolvable(parity)),
                stats: Stats { seconds: self.seconds(), ..Stats::default() },
                ..base
            },
            Err(NearError::Interrupted { nodes, lower_bound }) => {
                let timed_out = timeout.is_some_and(|t| self.clock.elapsed() >= t);
                let cancelled = self.cancelled() || (stopped_by_observer && !timed_out);
                let limit = match (cancelled, timed_out, self.limits.max_nodes) {
                    (true, _, _) => Limit::Cancelled,
                    (false, false, Some(max)) => Limit::Nodes(max),
                    _ => Limit::Time(timeout.unwrap_or_default()),
                };
                let mut solution = stopped(Reason::Limit(limit));
                solution.notes.extend(not_loaded);
                solution.stats.expanded = nodes;
                solution.stats.generated = nodes;
                solution.lower_bound = Some(lower_bound);
                solution
            }
            Err(NearError::Memory) => {
                stopped(Reason::Limit(Limit::Memory(self.limits.max_memory.unwrap_or(0))))
            }
            // The plan and the solver's checks keep the first two out (sizes, at most
            // MAX_PEELED_CELLS); the third is a bug of the reduction solver.
            Err(
                e @ (NearError::SizeMismatch { .. }
                | NearError::TooLarge(_)
                | NearError::Reduction(_)),
            ) => stopped(Reason::Reduction(e.to_string())),
        }
    }

    /// One search on the fastest engine that runs it.
    fn search(
        &self,
        algorithm: SearchAlgorithm,
        heuristic: Option<HeuristicKind>,
        weight: f64,
        timeout: Option<Duration>,
        observer: &mut dyn crate::Sampler,
    ) -> Solution {
        let limits = self.search_limits(timeout);
        let (w, h) = (self.board.width(), self.board.height());
        let (result, stats, lower_bound) = if packed::fits(w, h) {
            let engine = self.tables.packed(self.goal, heuristic);
            let start = engine.pack(self.board);
            let budget = search::Budget::new(&limits);
            let mut watch = Watch::new(observer, u32::from(start.h)).with_size(self.board.size());
            let mut stats = Stats::default();
            // The packed engines: A* with a bucket queue, which with h = 0 is Dijkstra's
            // algorithm with Dial's buckets; IDA*, which with h = 0 is exactly iterative
            // deepening; and a packed breadth-first search. The others run generically over
            // packed nodes.
            let result = match algorithm {
                SearchAlgorithm::AStar | SearchAlgorithm::Dijkstra => {
                    packed::astar::astar(&engine, start, &budget, &mut watch, &mut stats)
                }
                SearchAlgorithm::Bfs => {
                    packed::bfs::bfs(&engine, start, &budget, &mut watch, &mut stats)
                }
                SearchAlgorithm::IdaStar | SearchAlgorithm::Iddfs => {
                    packed::idastar::idastar(&engine, start, &budget, &mut watch, &mut stats)
                }
                SearchAlgorithm::Dfs | SearchAlgorithm::Greedy | SearchAlgorithm::WAStar => {
                    let e = &*engine;
                    let succ = |n: &packed::Node| e.successors(n);
                    let succ_c = |n: &packed::Node| e.successors(n).map(|m| (m, 1u32));
                    let h_of = |n: &packed::Node| u32::from(n.h);
                    let goal_test = |n: &packed::Node| e.is_goal(n);
                    let mut bounds = Bounds { observer: (), lower_bound: u32::from(start.h) };
                    let report = dispatch(
                        algorithm,
                        &start,
                        succ,
                        succ_c,
                        h_of,
                        goal_test,
                        weight,
                        &limits,
                        &mut bounds,
                    );
                    let (result, s) = finish(report, |path| engine.moves(path));
                    stats = s;
                    result
                }
            };
            (result, stats, watch.lower_bound)
        } else {
            let engine = general::GeneralEngine::new(self.goal, heuristic);
            let h = engine.node(self.board).h;
            let mut bounds = Bounds { observer: (), lower_bound: h };
            let (result, stats) =
                on_general(&engine, self.board, algorithm, weight, limits, &mut bounds);
            (result, stats, bounds.lower_bound)
        };
        self.finish_search(result, stats, algorithm, heuristic, timeout, lower_bound)
    }

    /// Runs a search on the generic algorithms over the general engine, so that `observer`
    /// sees every node as a board.
    pub(crate) fn watched<O: Observer<Board, u32>>(
        &self,
        algorithm: SearchAlgorithm,
        heuristic: Option<HeuristicKind>,
        weight: f64,
        observer: O,
    ) -> Solution {
        let timeout = self.limits.timeout;
        let engine = general::GeneralEngine::new(self.goal, heuristic);
        let h = engine.node(self.board).h;
        let boards = AsBoards { engine: &engine, observer };
        let mut bounds = Bounds { observer: boards, lower_bound: h };
        let limits = self.search_limits(timeout);
        let (result, stats) =
            on_general(&engine, self.board, algorithm, weight, limits, &mut bounds);
        let lower_bound = bounds.lower_bound;
        self.finish_search(result, stats, algorithm, heuristic, timeout, lower_bound)
    }

    fn finish_search(
        &self,
        result: Result<Moves, Ended>,
        stats: Stats,
        algorithm: SearchAlgorithm,
        heuristic: Option<HeuristicKind>,
        timeout: Option<Duration>,
        lower_bound: u32,
    ) -> Solution {
        let stats = Stats { seconds: self.seconds(), ..stats };
        let algorithm = algorithm.algorithm();
        let (status, moves, reason) = match result {
            Ok(moves) => (Status::Solved, moves, None),
            Err(Ended::Stopped(stop)) => {
                let limit = match stop {
                    Stop::Nodes => Limit::Nodes(self.limits.max_nodes.unwrap_or(0)),
                    Stop::Memory => Limit::Memory(self.limits.max_memory.unwrap_or(0)),
                    Stop::Time => Limit::Time(timeout.unwrap_or_default()),
                    Stop::Cancelled => Limit::Cancelled,
                };
                (Status::Limit, Moves::default(), Some(Reason::Limit(limit)))
            }
            Err(Ended::Exhausted) => (Status::Limit, Moves::default(), Some(Reason::Exhausted)),
        };
        // As long as its proven lower bound (the start's admissible estimate, or IDA*'s last
        // exhausted threshold): optimal, whatever the algorithm, as for the reduction solver.
        let optimal = status == Status::Solved
            && (algorithm.is_optimal() || moves.len() as u64 == u64::from(lower_bound));
        let lower_bound = Some(if optimal { moves.len() as u64 } else { u64::from(lower_bound) });
        Solution {
            status,
            moves,
            optimal,
            algorithm,
            heuristic,
            stats,
            lower_bound,
            reason,
            notes: Vec::new(),
        }
    }
}

/// Solves `board` towards `goal`: the plan for the request on a solver with `resources`, for
/// a caller that watches `nodes`, run step by step. The first step that solves the board
/// answers; one stopped by the caller's own limits ends the plan; one that runs out of its own
/// budget (or, when more steps follow, of memory) hands over to the next, which keeps the
/// lower bound it proved; a step over tables that cannot have them hands over at once (a
/// database step runs its search with linear conflict instead). The answer's labels name what
/// ran, its notes say why when that is not what was asked, and its counts are the whole
/// solve's.
pub(crate) fn solve<S: Sampler>(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    options: &Options,
    observer: S,
    resources: Resources,
    nodes: Nodes,
) -> Result<Solution, SolveError> {
    let clock = Instant::now();
    if board.size() != goal.size() {
        return Err(SolveError::GoalSize { goal: goal.size(), board: board.size() });
    }
    let plan = plan::plan_for(board.size(), options, resources, nodes)?;
    let mut observer = Renamed { inner: observer, names: None };
    let original = (board, goal);
    // Blank-last and blank-first goals are canonical already: no copies then (a 3x3 solve by
    // table takes about a microsecond, so a few allocations would show).
    let renamed;
    let (board, goal) = if is_canonical(goal) {
        (board, goal)
    } else {
        let relabel = Relabel::new(goal);
        renamed = (relabel.board(board), relabel.goal().clone());
        // Samples are shown in the caller's numbering.
        observer.names = Some(relabel.names_back());
        (&renamed.0, &renamed.1)
    };
    let limits = &options.limits;
    // The store serves the near-optimal engine's tables: only where the request leaves the
    // heuristic to the solver or names the databases (linear conflict asked for is what runs).
    let databases = matches!(options.heuristic, crate::Heuristic::Auto | crate::Heuristic::Pdb);
    let store = solver.store().filter(|_| databases);
    let near_threads = solver.databases().near_threads;
    let table_memory = solver.databases().table_memory;
    let task = Task {
        tables: solver.tables(),
        store,
        board,
        goal,
        limits,
        clock,
        near_threads,
        table_memory,
    };
    let given = tables::Given { solver, board: original.0, goal: original.1, options, clock };
    // The table answers solvability itself, at no extra cost.
    if plan.steps.first() != Some(&Step::Table) {
        let parity = Parity::of(board, goal);
        if !parity.solvable() {
            return Ok(unsolvable(parity, plan.steps[0], clock));
        }
    }
    if observer.begin(&Begin::new(original.0, 0)) == Flow::Stop {
        let mut s = cancelled(plan.steps[0], clock);
        tables::label_check(&mut s, options);
        return Ok(s);
    }
    let mut notes = Vec::new();
    let mut answer = None;
    // The best lower bound an earlier step proved (IDA*'s last completed bound): it still
    // holds for the answer a later, faster step gives.
    let mut proven = None;
    // What the earlier steps expanded and generated: the answer counts the whole solve.
    let (mut expanded, mut generated) = (0, 0);
    let several = plan.steps.len() > 1;
    // `auto`'s last resort, the reduction solver, answers boards up to 16x16 in milliseconds
    // (`plan::LAST_RESORT_CELLS`): it runs whatever time the earlier steps left, and a step
    // before it that reaches the time limit hands over to it, so that `auto` answers them
    // (on a loaded machine a 0.5 s solve of a 4x4 stopped at the limit: the optimal attempt,
    // the near-optimal engine and weighted A* had used it all).
    let last_resort = |i: usize| {
        several
            && i + 1 == plan.steps.len()
            && matches!(plan.steps[i], Step::Reduction { .. })
            && board.tiles().len() <= plan::LAST_RESORT_CELLS
    };
    for (i, step) in plan.steps.iter().enumerate() {
        let last = i + 1 == plan.steps.len();
        if let Step::Search { algorithm: SearchAlgorithm::WAStar, weight, .. } = *step {
            // Only `auto` plans several steps; an explicit wastar needs no note.
            if several {
                notes.push(Note::WeightedAStar { weight });
            }
        }
        let run = match *step {
            Step::TwentyFour => match tables::twentyfour(&given, &mut observer.inner) {
                Ok(answer) => answer,
                Err(note) => {
                    notes.extend(note);
                    // No tables: the next step (the plan never ends with this one).
                    if !last {
                        continue;
                    }
                    task.run(step, &mut observer)
                }
            },
            Step::Pdb { algorithm, weight, budget } => {
                match tables::pdb(&given, algorithm, weight, budget, &mut observer.inner) {
                    Ok(answer) => answer,
                    Err(note) => {
                        if let Some(note) = note {
                            notes.push(note);
                        } else if options.heuristic == crate::Heuristic::Pdb {
                            notes.push(Note::NoDatabase);
                        }
                        task.run(step, &mut observer)
                    }
                }
            }
            Step::WalkingDistance { algorithm, weight, budget } => {
                match tables::walking_distance(&given, algorithm, weight, budget) {
                    Some(answer) => answer,
                    None => task.run(step, &mut observer),
                }
            }
            Step::Reduction { improve, beams } if last_resort(i) => {
                // Plain, and past the timeout, when the time is up; its beams (or its anytime
                // mode) in the time left otherwise, and plain when they found no answer in it.
                let untimed = Limits { timeout: None, ..limits.clone() };
                let plain = Step::Reduction { improve: false, beams: 0 };
                let timed = (improve || beams > 0).then(|| task.run(step, &mut observer));
                match timed {
                    Some(run)
                        if !matches!(run.solution.limit(), Some(Limit::Time(_)))
                            || task.cancelled() =>
                    {
                        run
                    }
                    timed => {
                        // The answer counts the whole solve, a timed run that gave up too.
                        if let Some(run) = timed {
                            expanded += run.solution.stats.expanded;
                            generated += run.solution.stats.generated;
                        }
                        Task { limits: &untimed, ..task }.run(&plain, &mut observer)
                    }
                }
            }
            _ => task.run(step, &mut observer),
        };
        let mut solution = run.solution;
        // The near-optimal engine's answer in a short budget (a tight timeout, a slow
        // machine, the largest boards it takes) can be longer than the reduction solver's,
        // which comes in milliseconds: `auto` answers with the shorter.
        if let (Step::Near { .. }, Some(next @ Step::Reduction { .. })) =
            (step, plan.steps.get(i + 1))
        {
            if solution.status == Status::Solved && !solution.optimal && !task.cancelled() {
                let other = match *next {
                    // The reduction solver alone first (milliseconds), and its beams (which
                    // take about 4 % off its answer, in ten times as long) only when the
                    // engine's answer is not a tenth shorter than that.
                    Step::Reduction { improve: false, beams } if beams > 0 => {
                        let alone = Step::Reduction { improve: false, beams: 0 };
                        let plain = task.run(&alone, &mut observer).solution;
                        let clear = plain.status == Status::Solved
                            && (solution.moves.len() as f64)
                                < NEAR_CLEARLY * plain.moves.len() as f64;
                        if clear || task.cancelled() {
                            plain
                        } else {
                            expanded += plain.stats.expanded;
                            generated += plain.stats.generated;
                            task.run(next, &mut observer).solution
                        }
                    }
                    _ => task.run(next, &mut observer).solution,
                };
                if other.status == Status::Solved && other.moves.len() < solution.moves.len() {
                    notes.push(Note::NearLonger {
                        length: solution.moves.len(),
                        seconds: solution.stats.seconds,
                    });
                    proven = proven.max(solution.lower_bound);
                    expanded += solution.stats.expanded;
                    generated += solution.stats.generated;
                    solution = other;
                } else {
                    // The answer counts the whole solve, this comparison included.
                    expanded += other.stats.expanded;
                    generated += other.stats.generated;
                }
            }
        }
        // A step of `auto` that ran out of memory hands over too: the next steps need less
        // (the near-optimal engine sizes its beams to the memory, the reduction solver needs
        // little), and `auto` always answers.
        let out_of_memory =
            several && matches!(solution.limit(), Some(Limit::Memory(_))) && !task.cancelled();
        let out_of_time = last_resort(i + 1)
            && matches!(solution.limit(), Some(Limit::Time(_)))
            && !task.cancelled();
        let hand_over = run.out_of_budget || out_of_memory || out_of_time;
        if solution.status == Status::Solved || !hand_over || last {
            notes.append(&mut solution.notes);
            solution.notes = notes;
            if solution.status != Status::Unsolvable {
                // (The near-optimal engine's note keeps the bound its linear conflicts proved,
                // which is what it says; an optimal attempt before it may have proved more.)
                solution.lower_bound = solution.lower_bound.max(proven);
            }
            solution.stats.expanded += expanded;
            solution.stats.generated += generated;
            answer = Some(solution);
            break;
        }
        proven = proven.max(solution.lower_bound);
        expanded += solution.stats.expanded;
        generated += solution.stats.generated;
        match *step {
            Step::Search {
                algorithm: SearchAlgorithm::IdaStar,
                heuristic: Some(heuristic),
                budget: Some(budget),
                ..
            } => notes.push(Note::OptimalAttemptGaveUp { heuristic, budget }),
            Step::Pdb { algorithm: SearchAlgorithm::IdaStar, budget: Some(budget), .. }
            | Step::WalkingDistance {
                algorithm: SearchAlgorithm::IdaStar,
                budget: Some(budget),
                ..
            } => {
                let heuristic = solution.heuristic.unwrap_or(crate::HeuristicKind::LinearConflict);
                notes.push(Note::OptimalAttemptGaveUp { heuristic, budget });
            }
            Step::Near { budget: Some(budget), .. } => {
                // Why it went without its tables, before why it gave up.
                notes.extend(
                    solution
                        .notes
                        .iter()
                        .filter(|n| matches!(n, Note::TablesNotLoaded { .. }))
                        .cloned(),
                );
                let limit = match solution.limit() {
                    Some(l @ (Limit::Memory(_) | Limit::Nodes(_))) => l,
                    _ => Limit::Time(budget),
                };
                notes.push(Note::NearGaveUp { limit });
            }
            // A weighted A* that gave up leaves nothing to say about the next answer.
            Step::Search { algorithm: SearchAlgorithm::WAStar, .. } => {
                notes.retain(|n| !matches!(n, Note::WeightedAStar { .. }));
            }
            _ => {}
        }
    }
    let mut solution = answer.unwrap_or_else(|| cancelled(plan.steps[0], clock));
    solution.stats.seconds = clock.elapsed().as_secs_f64();
    let stop = solution.limit().map(Limit::stop);
    observer.finish(&Finish::new(&solution.stats, solution.status == Status::Solved, stop));
    tables::label_check(&mut solution, options);
    Ok(solution)
}

/// The answer for a board that cannot reach the goal, naming the parity that forbids it.
pub(crate) fn unsolvable(parity: Parity, first: Step, clock: Instant) -> Solution {
    let (algorithm, heuristic) = first.labels();
    Solution {
        status: Status::Unsolvable,
        moves: Moves::default(),
        optimal: false,
        algorithm,
        heuristic,
        stats: Stats { seconds: clock.elapsed().as_secs_f64(), ..Stats::default() },
        lower_bound: None,
        reason: Some(Reason::Unsolvable(parity)),
        notes: Vec::new(),
    }
}

/// The answer when the observer stopped the solve before any step ran.
fn cancelled(first: Step, clock: Instant) -> Solution {
    let (algorithm, heuristic) = first.labels();
    Solution {
        status: Status::Limit,
        moves: Moves::default(),
        optimal: false,
        algorithm,
        heuristic,
        stats: Stats { seconds: clock.elapsed().as_secs_f64(), ..Stats::default() },
        lower_bound: Some(0),
        reason: Some(Reason::Limit(Limit::Cancelled)),
        notes: Vec::new(),
    }
}

/// Runs a generic search of `npuzzle-search` on the general engine, shown to `observer`.
fn on_general<O>(
    engine: &general::GeneralEngine,
    board: &Board,
    algorithm: SearchAlgorithm,
    weight: f64,
    mut limits: search::Limits,
    observer: O,
) -> (Result<Moves, Ended>, Stats)
where
    O: Observer<general::Node, u32> + Observer<general::Node, usize>,
{
    limits.node_bytes = engine.node_bytes();
    let start = engine.node(board);
    let succ = |n: &general::Node| engine.successors(n);
    let succ_c = |n: &general::Node| engine.successors(n).map(|m| (m, 1u32));
    let h_of = |n: &general::Node| n.h;
    let goal_test = |n: &general::Node| engine.is_goal(n);
    let report =
        dispatch(algorithm, &start, succ, succ_c, h_of, goal_test, weight, &limits, observer);
    finish(report, |path| engine.moves(path))
}

#[expect(clippy::too_many_arguments, reason = "the closures each algorithm family needs")]
fn dispatch<N, FN, IN, FC, IC, FH, FS, O>(
    algorithm: SearchAlgorithm,
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
        SearchAlgorithm::Bfs => unit(search::bfs(start, succ, goal, limits, &mut observer)),
        SearchAlgorithm::Dfs => unit(search::dfs(start, succ, goal, limits, &mut observer)),
        SearchAlgorithm::Iddfs => unit(search::iddfs(start, succ, goal, limits, &mut observer)),
        SearchAlgorithm::Dijkstra => search::dijkstra(start, succ_c, goal, limits, &mut observer),
        SearchAlgorithm::Greedy => search::greedy(start, succ_c, h, goal, limits, &mut observer),
        SearchAlgorithm::WAStar => {
            search::wastar(start, succ_c, h, goal, weight, limits, &mut observer)
        }
        SearchAlgorithm::AStar => search::astar(start, succ_c, h, goal, limits, &mut observer),
        SearchAlgorithm::IdaStar => search::idastar(start, succ_c, h, goal, limits, &mut observer),
    }
}

fn finish<N>(
    report: Report<N, u32>,
    moves: impl Fn(&[N]) -> Moves,
) -> (Result<Moves, Ended>, Stats) {
    let result = match report.outcome {
        Outcome::Found { path, .. } => Ok(moves(&path)),
        Outcome::NotFound => Err(Ended::Exhausted),
        Outcome::Stopped(stop) => Err(Ended::Stopped(stop)),
    };
    (result, report.stats)
}
