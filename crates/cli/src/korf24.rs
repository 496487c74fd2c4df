//! The optimal 24-puzzle from the command line: Korf & Felner's 6-6-6-6 tables (two stored
//! tables, built once with a progress bar and cached), and a search with progress on stderr.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle_core::Board;
use npuzzle_solver::pdb::Progress as BuildProgress;
use npuzzle_solver::twentyfour::{self, Config, Progress, Tables};
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options, Solution, thousands};

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
    let result = Tables::korf_felner_cached(&cache, goal, threads, &update, cancel, &mut warn);
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
            Some(t)
        }
        Err(e) => {
            crate::stdio::complain(format_args!("warning: {e:#}"));
            None
        }
    }
}

/// Solves `board` with `tables` on `threads` threads, under `limits` (Ctrl-C through their
/// cancel flag), with the search's progress on stderr: redrawn in place on a terminal, else
/// a line at each new bound and every ten seconds. `label` names the board in those lines.
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
        if p.seconds < 2.0 || (!terminal && !new_bound && p.seconds < last.1 + 10.0) {
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
    by_goal: Mutex<HashMap<Board, Option<Tables>>>,
}

impl Cached {
    /// Searches on `threads` threads.
    pub fn new(threads: usize) -> Cached {
        Cached { threads: threads.max(1), by_goal: Mutex::default() }
    }

    /// The tables when `options` ask for an optimal answer (`--optimal`, or IDA* over
    /// pattern databases) on a 5x5 goal with the blank in a corner; else `None` (auto on 5x5
    /// stays with its fast solvers).
    pub fn get(&self, goal: &Board, options: &Options) -> Option<Tables> {
        let wanted = options.optimal
            || (options.algorithm == Algorithm::IdaStar && options.heuristic == Heuristic::Pdb);
        if !wanted || !applies(goal, options.algorithm, options.heuristic) {
            return None;
        }
        let mut map = self.by_goal.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(goal.clone())
            .or_insert_with(|| {
                tables(goal, pdb_cmd::available_threads(), options.limits.cancel.as_deref())
            })
            .clone()
    }

    /// Solves `board` with `tables` as [`solve`] does, on this run's threads.
    pub fn solve(
        &self,
        tables: &Tables,
        board: &Board,
        options: &Options,
    ) -> Result<Solution, String> {
        solve(tables, board, &options.limits, self.threads, None, "search")
            .map_err(|e| format!("{e:#}"))
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
            println!(
                "{}: already built and sound ({:.1} MB)",
                cache.path(&goal, &partition).display(),
                db.bytes().len() as f64 / 1e6
            );
            return Ok(());
        }
    }
    pdb_cmd::build_with_progress(&goal, &partition, threads)?;
    Ok(())
}
