//! The optimal 24-puzzle from the command line: Korf & Felner's 6-6-6-6 tables (two stored
//! tables, built once with a progress bar and cached), and a search with progress on stderr.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle_core::Board;
use npuzzle_solver::engine::reduction::manhattan_lower_bound;
use npuzzle_solver::engine::twentyfour::{self, Config, Progress, Tables};
use npuzzle_solver::heuristic::pdb::Progress as BuildProgress;
use npuzzle_solver::{
    Algorithm, Heuristic, HeuristicKind, Limit, Limits, Options, Reason, Solution, Status,
    thousands,
};

use crate::pdb_cmd;

/// Whether a request for `goal` goes to the 6-6-6-6 search: a 5x5 goal with the blank in a
/// corner, IDA* (or auto) over pattern databases (or auto).
pub fn applies(goal: &Board, algorithm: Algorithm, heuristic: Heuristic) -> bool {
    matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
        && matches!(heuristic, Heuristic::Auto | Heuristic::Pdb)
        && Tables::korf_felner_partition(goal).is_ok()
}

/// Korf & Felner's tables for `goal`, from the cache or built now on `threads` threads with a
/// progress bar on a terminal (about a minute on two cores, 128 MB on disk), or `None` with a
/// warning when they cannot be had.
pub fn tables(goal: &Board, threads: usize, cancel: Option<&AtomicBool>) -> Option<Tables> {
    match tables_within(goal, threads, cancel, None) {
        Lookup::Ready(tables) => Some(tables),
        Lookup::OutOfTime(_) | Lookup::Unavailable => None,
    }
}

/// What [`tables_within`] found.
#[derive(Clone)]
pub enum Lookup {
    /// The tables, cached or just built.
    Ready(Tables),
    /// The build was stopped when the time limit (the duration) ran out.
    OutOfTime(Duration),
    /// They cannot be had (cancelled, unwritable cache, ...): a warning was printed.
    Unavailable,
}

/// [`tables`], with the build stopped once `timeout` has passed: a build takes about a minute,
/// and no solve may run past its time limit. A stopped build prints how to build the tables
/// once, with no limit.
pub fn tables_within(
    goal: &Board,
    threads: usize,
    cancel: Option<&AtomicBool>,
    timeout: Option<Duration>,
) -> Lookup {
    let cache = pdb_cmd::cache();
    let base_goal = Tables::korf_felner_base_goal();
    let base_partition = Tables::korf_felner_base_partition();
    let cached = matches!(cache.load(&base_goal, &base_partition), Ok(Some(_)));
    let bar = (!cached && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(1);
        bar.set_style(
            ProgressStyle::with_template(
                "{msg} [{elapsed_precise}] {wide_bar} {percent:>3}% (eta {eta})",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message("building the 6-6-6-6 tables of the 24-puzzle");
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    });
    if !cached {
        crate::stdio::complain(format_args!(
            "building the two 6-tile tables of the 24-puzzle (once; about a minute on 2 cores, 128 MB) in {}",
            cache.dir().display()
        ));
    }
    let clock = Instant::now();
    let update = |p: BuildProgress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.done);
        }
    };
    let mut warn = |w: &str| crate::stdio::complain(format_args!("warning: {w}"));
    let deadline = timeout.filter(|_| !cached).map(|t| clock + t);
    let (result, out_of_time) = until(deadline, cancel, |stop| {
        Tables::korf_felner_cached(&cache, goal, threads, &update, stop, &mut warn)
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    match result.context("the 6-6-6-6 tables") {
        Ok(t) => {
            if !cached {
                crate::stdio::complain(format_args!(
                    "built the 6-6-6-6 tables in {:.1} s",
                    clock.elapsed().as_secs_f64()
                ));
            }
            Lookup::Ready(t)
        }
        Err(_) if out_of_time => {
            let timeout = timeout.unwrap_or_default();
            crate::stdio::complain(format_args!(
                "the 6-6-6-6 tables were not built within the time limit ({:.0} s): build them \
                 once with `npuzzle pdb build --partition korf-felner` (about a minute)",
                timeout.as_secs_f64()
            ));
            Lookup::OutOfTime(timeout)
        }
        Err(e) => {
            crate::stdio::complain(format_args!("warning: {}", crate::reason(&e)));
            Lookup::Unavailable
        }
    }
}

/// Runs `work` with a stop flag that is raised when `cancel` is, or at `deadline`; returns its
/// result and whether the deadline raised the flag. A watcher thread polls every 20 ms.
fn until<T>(
    deadline: Option<Instant>,
    cancel: Option<&AtomicBool>,
    work: impl FnOnce(Option<&AtomicBool>) -> T,
) -> (T, bool) {
    let Some(deadline) = deadline else {
        return (work(cancel), false);
    };
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let out_of_time = AtomicBool::new(false);
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            while !finished.load(Relaxed) {
                if Instant::now() >= deadline {
                    out_of_time.store(true, Relaxed);
                    stop.store(true, Relaxed);
                    break;
                }
                if cancel.is_some_and(|c| c.load(Relaxed)) {
                    stop.store(true, Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let result = work(Some(&stop));
        finished.store(true, Relaxed);
        result
    });
    (result, out_of_time.load(Relaxed))
}

/// The answer for `board` when the tables could not be built within `timeout`: a time limit,
/// with the Manhattan distance as the lower bound.
fn out_of_time(board: &Board, goal: &Board, timeout: Duration) -> Solution {
    let mut solution =
        Solution::without_moves(Status::Limit, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    solution.stats.seconds = timeout.as_secs_f64();
    solution.lower_bound = Some(manhattan_lower_bound(board, goal));
    solution.reason = Some(Reason::Limit(Limit::Time(timeout)));
    solution
}

/// Solves `board` with `tables` on `threads` threads, under `limits` (Ctrl-C through their
/// cancel flag), with the search's progress on stderr: redrawn in place on a terminal, else
/// a line at each new bound (from the start) and every ten seconds. `label` names the board in those lines.
pub fn solve(
    tables: &Tables,
    board: &Board,
    limits: &Limits,
    threads: usize,
    pruning: Option<u8>,
    label: &str,
) -> anyhow::Result<Solution> {
    let terminal = std::io::stderr().is_terminal();
    let last: Mutex<(u32, f64)> = Mutex::new((0, 0.0));
    let show = |p: Progress| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        let new_bound = p.bound != last.0;
        // In a log, every bound gets its line, however quick: the nodes at the start of
        // each iteration are what a per-iteration comparison with published counts needs.
        let log_bound = !terminal && new_bound;
        if !log_bound && (p.seconds < 2.0 || (!terminal && p.seconds < last.1 + 10.0)) {
            last.0 = p.bound;
            return;
        }
        *last = (p.bound, p.seconds);
        let rate = p.generated as f64 / p.seconds.max(1e-9) / 1e6;
        let line = format!(
            "{label}: bound {}, {} nodes, {rate:.1} M nodes/s, {:.0} s",
            p.bound,
            thousands(p.generated),
            p.seconds
        );
        if terminal {
            eprint!("\r\x1b[Knpuzzle: {line}");
        } else {
            crate::stdio::complain(format_args!("{line}"));
        }
    };
    let config = Config {
        threads: threads.max(1),
        pruning: pruning.map_or(twentyfour::DEFAULT_PRUNING, usize::from),
    };
    let s = twentyfour::solve(tables, board, limits, &config, Some(&show))
        .context("the 6-6-6-6 search")?;
    if terminal && last.lock().unwrap_or_else(|e| e.into_inner()).1 > 0.0 {
        eprint!("\r\x1b[K");
    }
    Ok(s)
}

/// The 6-6-6-6 tables of a run, by goal, for `solve --optimal` on 5x5: found (or built)
/// once per goal on first use.
pub struct Cached {
    threads: usize,
    by_goal: Mutex<HashMap<Board, Lookup>>,
}

impl Cached {
    /// Searches on `threads` threads.
    pub fn new(threads: usize) -> Cached {
        Cached { threads: threads.max(1), by_goal: Mutex::default() }
    }

    /// The tables when `options` ask for an optimal answer (`--optimal`, or IDA* over
    /// pattern databases) on a 5x5 goal with the blank in a corner; else `None` (auto on 5x5
    /// stays with its fast solvers). A build runs within `options`' time limit; once it has
    /// run out of time (or failed), later boards of the run are not made to wait for it again.
    pub fn get(&self, goal: &Board, options: &Options) -> Option<Lookup> {
        let wanted = options.optimal
            || (options.algorithm == Algorithm::IdaStar && options.heuristic == Heuristic::Pdb);
        if !wanted || !applies(goal, options.algorithm, options.heuristic) {
            return None;
        }
        let mut map = self.by_goal.lock().unwrap_or_else(|e| e.into_inner());
        let found = map.entry(goal.clone()).or_insert_with(|| {
            tables_within(
                goal,
                pdb_cmd::available_threads(),
                options.limits.cancel.as_deref(),
                options.limits.timeout,
            )
        });
        Some(found.clone())
    }

    /// Solves `board` with the `found` tables as [`solve`] does, on this run's threads: a time
    /// limit when the tables ran out of time; `None` when there are none (the caller solves
    /// another way).
    pub fn solve(
        &self,
        found: &Lookup,
        board: &Board,
        goal: &Board,
        options: &Options,
    ) -> Option<Result<Solution, String>> {
        match found {
            Lookup::Ready(tables) => Some(
                solve(tables, board, &options.limits, self.threads, None, "search")
                    .map_err(|e| crate::reason(&e)),
            ),
            Lookup::OutOfTime(timeout) => Some(Ok(out_of_time(board, goal, *timeout))),
            Lookup::Unavailable => None,
        }
    }
}

/// `npuzzle pdb build --partition korf-felner`: the two stored tables of the 24-puzzle's
/// 6-6-6-6 databases (they serve the blank-first and blank-last goals alike).
pub fn build(threads: usize, force: bool) -> anyhow::Result<()> {
    let cache = pdb_cmd::cache();
    let goal = Tables::korf_felner_base_goal();
    let partition = Tables::korf_felner_base_partition();
    if !force {
        if let Ok(Some(db)) = cache.load(&goal, &partition) {
            return pdb_cmd::already_built(&cache.path(&goal, &partition), &db);
        }
    }
    pdb_cmd::build_and_save(&goal, &partition, threads)
}
