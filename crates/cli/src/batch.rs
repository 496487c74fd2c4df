//! Batch handling for `npuzzle solve`: what became of each board ([`Report`]), the loop that
//! solves boards on several threads and hands them back in input order
//! ([`for_each_outcome`]), the one-line complaints and the summary line.
//!
//! `cmd::solve` drives it and `output` prints its reports; this module needs neither.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use npuzzle_solver::{Limit, Reason, Solution, Status, thousands};

use crate::advice::{self, Given};
use crate::input::Job;
use crate::stdio;

/// What became of one job.
#[derive(Debug)]
pub enum Outcome {
    /// The input was wrong (bad board, goal of another size, option the solver refused).
    Invalid(String),
    /// The solver ran: solved, unsolvable, or stopped at a limit.
    Done(Solution),
}

/// A job, its outcome, and what the command line derives from them.
#[derive(Debug)]
pub struct Report {
    /// The job.
    pub job: Job,
    /// Its outcome.
    pub outcome: Outcome,
    /// The tile numbers the solution slides, in order (empty unless solved).
    pub tiles: Vec<u16>,
    /// Set when the solver's moves do not replay to the goal: a solver bug.
    pub replay_error: Option<String>,
    /// Why the board was not solved, in the command line's words; `None` when it was.
    pub error: Option<String>,
    /// What to change after a limit, with the options given.
    pub advice: Option<String>,
}

impl Report {
    pub fn new(job: Job, outcome: Outcome, given: &Given) -> Report {
        let mut replay_error = None;
        let mut tiles = Vec::new();
        let mut advice = None;
        let error = match (&job.input, &outcome) {
            (_, Outcome::Invalid(reason)) => Some(reason.clone()),
            (Ok(task), Outcome::Done(s)) => match &s.reason {
                None => {
                    // Replaying costs one swap per move: cheap insurance that what we print
                    // as a solution is one.
                    replay_error = s.replay(&task.board, &task.goal).err().map(|e| e.to_string());
                    tiles = task.board.tiles_moved(&s.moves).unwrap_or_default();
                    None
                }
                Some(Reason::Unsolvable(parity)) => Some(advice::unsolvable(task, parity)),
                Some(Reason::Limit(limit)) => {
                    advice = advice::after_limit(s, given);
                    let bound = s.lower_bound.map(|b| format!(" (lower bound {b})"));
                    let what = match limit {
                        // Each search gets a share of --max-memory (see `search_memory`):
                        // name the limit the user gave.
                        Limit::Memory(_) => format!(
                            "memory limit of {} MiB reached after {} expanded nodes",
                            given.max_memory >> 20,
                            thousands(s.stats.expanded)
                        ),
                        _ => s.error().unwrap_or_default(),
                    };
                    Some(what + &bound.unwrap_or_default())
                }
                Some(_) => {
                    advice = advice::after_limit(s, given);
                    s.error()
                }
            },
            (Err(invalid), Outcome::Done(_)) => Some(invalid.reason.clone()),
        };
        Report { job, outcome, tiles, replay_error, error, advice }
    }

    /// The solution, when the solver ran.
    pub fn solution(&self) -> Option<&Solution> {
        match &self.outcome {
            Outcome::Done(s) => Some(s),
            Outcome::Invalid(_) => None,
        }
    }

    /// Why the board was not solved, in one line; `None` when it was.
    pub fn error(&self) -> Option<String> {
        self.error.clone()
    }

    /// The exit status this board calls for.
    pub fn exit_code(&self) -> u8 {
        match &self.outcome {
            Outcome::Invalid(_) => 2,
            Outcome::Done(s) => match s.status {
                Status::Solved => 0,
                Status::Unsolvable => 3,
                Status::Limit => 4,
            },
        }
    }

    /// Whether the answer contradicts the optimal length the input file gives: an optimal
    /// answer of another length, or any answer shorter than it.
    pub fn mismatch(&self) -> bool {
        match (self.solution(), self.job.expected) {
            (Some(s), Some(expected)) if s.status == Status::Solved => {
                let len = s.moves.len() as u64;
                let expected = u64::from(expected);
                (s.optimal && len != expected) || len < expected
            }
            _ => false,
        }
    }
}

/// How many boards may wait for their turn to be printed, per thread: enough to keep every
/// thread busy behind a slow board, few enough that a long batch is never held in memory.
const WINDOW_PER_THREAD: usize = 4;

/// Solves every job on `threads` threads and hands the outcomes to `emit` in input order, as
/// soon as each one and all before it are done. Jobs are taken from `jobs` as threads become
/// free, at most a few per thread ahead of the next to print. When `emit` fails (say, stdout
/// was closed), the searches still running are cancelled and the error returned; when
/// `cancel` rises (Ctrl-C), no new job starts.
pub fn for_each_outcome<I, S, E>(
    jobs: I,
    threads: usize,
    cancel: &AtomicBool,
    solve: S,
    mut emit: E,
) -> anyhow::Result<()>
where
    I: Iterator<Item = Job> + Send,
    S: Fn(&Job) -> Outcome + Sync,
    E: FnMut(Job, Outcome) -> anyhow::Result<()>,
{
    if threads <= 1 {
        for job in jobs {
            if cancel.load(Ordering::SeqCst) {
                break;
            }
            let outcome = solve(&job);
            emit(job, outcome)?;
        }
        return Ok(());
    }
    struct Feed<I> {
        jobs: I,
        taken: usize,
        printed: usize,
        stop: bool,
    }
    let window = threads * (WINDOW_PER_THREAD + MAX_RUN);
    let feed = Mutex::new(Feed { jobs, taken: 0, printed: 0, stop: false });
    let turn = Condvar::new();
    let (tx, rx) = mpsc::channel::<Vec<(usize, Job, Outcome)>>();
    thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let (feed, turn, solve) = (&feed, &turn, &solve);
            scope.spawn(move || {
                // Jobs taken at a time: one while they are slow, so that no thread sits on
                // a queue of long searches; up to MAX_RUN while they take microseconds, so
                // that the lock, the wake-ups and the channel are paid once per run rather
                // than once per board (a million 2x2 boards ran slower on two threads than
                // on one: 5.2 s against 2.2 s).
                let mut run = 1;
                loop {
                    let first = {
                        let Ok(mut f) = feed.lock() else { return };
                        while !f.stop && f.taken + run > f.printed + window {
                            let Ok(g) = turn.wait(f) else { return };
                            f = g;
                        }
                        if f.stop || cancel.load(Ordering::SeqCst) {
                            return;
                        }
                        let first = f.taken;
                        let taken: Vec<Job> = f.jobs.by_ref().take(run).collect();
                        f.taken += taken.len();
                        (first, taken)
                    };
                    let (first, taken) = first;
                    if taken.is_empty() {
                        return;
                    }
                    let clock = Instant::now();
                    let n = taken.len();
                    let mut done = Vec::with_capacity(n);
                    for (k, job) in taken.into_iter().enumerate() {
                        // Ctrl-C: no new job starts, as when jobs are taken one by one.
                        if k > 0 && cancel.load(Ordering::SeqCst) {
                            break;
                        }
                        let outcome = solve(&job);
                        done.push((first + k, job, outcome));
                    }
                    run = if clock.elapsed() < FAST_JOB * n as u32 {
                        (run * 2).min(MAX_RUN)
                    } else {
                        1
                    };
                    if tx.send(done).is_err() {
                        return;
                    }
                }
            });
        }
        // The workers hold the only senders now, so the loop below ends when they are done.
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        let stop = |feed: &Mutex<Feed<I>>| {
            if let Ok(mut f) = feed.lock() {
                f.stop = true;
            }
            turn.notify_all();
        };
        for done in rx {
            for (i, job, outcome) in done {
                waiting.insert(i, (job, outcome));
            }
            let before = printed;
            while let Some((job, outcome)) = waiting.remove(&printed) {
                if let Err(err) = emit(job, outcome) {
                    cancel.store(true, Ordering::SeqCst);
                    stop(&feed);
                    return Err(err);
                }
                printed += 1;
            }
            if printed > before {
                if let Ok(mut f) = feed.lock() {
                    f.printed = printed;
                }
                turn.notify_all();
            }
        }
        Ok(())
    })
}

/// The most jobs a thread takes at a time (see [`for_each_outcome`]).
const MAX_RUN: usize = 64;
/// A job faster than this lets its thread take more at a time.
const FAST_JOB: Duration = Duration::from_micros(200);

/// Writes the one-line reasons and warnings for a board to stderr.
pub fn complain(report: &Report, several: bool) {
    if report.replay_error.is_none() && report.error.is_none() && !report.mismatch() {
        return; // The common case, a board solved: nothing to format.
    }
    let at = if several { format!("{}: ", report.job.origin.label()) } else { String::new() };
    if let Some(err) = &report.replay_error {
        stdio::complain(format_args!("bug: {at}{err}"));
    }
    if let Some(error) = report.error() {
        let advice = report.advice.as_ref().map(|a| format!("; {a}")).unwrap_or_default();
        match report.solution().map(|s| s.status) {
            Some(Status::Limit) => {
                stdio::complain(format_args!("{at}limit reached: {error}{advice}"));
            }
            // The reason starts "unsolvable towards ...".
            Some(Status::Unsolvable) => stdio::complain(format_args!("{at}{error}")),
            _ => stdio::complain(format_args!("{at}invalid input: {error}")),
        }
    }
    if report.mismatch() {
        if let (Some(s), Some(expected)) = (report.solution(), report.job.expected) {
            let kind = if s.optimal { "an optimal" } else { "a" };
            stdio::complain(format_args!(
                "warning: {at}found {kind} solution of {} moves but the input says the optimum \
                 is {expected}: one of them is wrong",
                s.moves.len()
            ));
        }
    }
}

/// Counts of a batch, for the summary line.
#[derive(Debug, Default)]
pub struct Summary {
    /// Boards reported.
    pub boards: usize,
    solved: usize,
    optimal: usize,
    unsolvable: usize,
    limit: usize,
    /// Boards whose search Ctrl-C cancelled.
    pub cancelled: usize,
    invalid: usize,
    moves: u64,
    expanded: u64,
    /// Answers that contradict the file's optimal length.
    pub mismatches: usize,
    mismatch_at: Vec<String>,
}

impl Summary {
    pub fn add(&mut self, report: &Report) {
        self.boards += 1;
        match report.solution() {
            None => self.invalid += 1,
            Some(s) => {
                self.expanded += s.stats.expanded;
                match s.status {
                    Status::Solved => {
                        self.solved += 1;
                        self.optimal += usize::from(s.optimal);
                        self.moves += s.moves.len() as u64;
                    }
                    Status::Unsolvable => self.unsolvable += 1,
                    Status::Limit if s.limit() == Some(Limit::Cancelled) => self.cancelled += 1,
                    Status::Limit => self.limit += 1,
                }
            }
        }
        if report.mismatch() {
            self.mismatches += 1;
            if self.mismatch_at.len() < 10 {
                self.mismatch_at.push(report.job.origin.label());
            }
        }
    }

    /// `npuzzle: summary: 10 boards: 8 solved (7 optimal), 1 unsolvable, 1 limit; mean
    /// length 45.3; 12,345,678 nodes expanded; 12.3 s (0.4 s readying tables); 0.84 boards
    /// a second`, and a line for mismatches. The rate leaves out `readying`, the time spent
    /// readying databases.
    pub fn print(&self, elapsed: Duration, readying: Duration) {
        let mut parts = vec![format!("{} solved ({} optimal)", self.solved, self.optimal)];
        for (n, what) in [
            (self.unsolvable, "unsolvable"),
            (self.limit, "limit"),
            (self.cancelled, "cancelled"),
            (self.invalid, "invalid"),
        ] {
            if n > 0 {
                parts.push(format!("{n} {what}"));
            }
        }
        let mean = if self.solved > 0 {
            format!("; mean length {:.1}", self.moves as f64 / self.solved as f64)
        } else {
            String::new()
        };
        let ready = if readying > Duration::from_millis(1) {
            format!(" ({:.2} s readying tables)", readying.as_secs_f64())
        } else {
            String::new()
        };
        let solving = elapsed.saturating_sub(readying).as_secs_f64();
        stdio::complain(format_args!(
            "summary: {} board{}: {}{mean}; {} nodes expanded; {:.2} s{ready}; {:.0} boards a second",
            self.boards,
            if self.boards == 1 { "" } else { "s" },
            parts.join(", "),
            thousands(self.expanded),
            elapsed.as_secs_f64(),
            self.boards as f64 / solving.max(1e-9)
        ));
        if self.mismatches > 0 {
            let more = if self.mismatches > self.mismatch_at.len() { ", ..." } else { "" };
            stdio::complain(format_args!(
                "summary: {} answer{} contradict{} the file's optimal length ({}{more})",
                self.mismatches,
                if self.mismatches == 1 { "" } else { "s" },
                if self.mismatches == 1 { "s" } else { "" },
                self.mismatch_at.join(", ")
            ));
        }
    }
}
