//! `npuzzle solve`: solve every board, in parallel if asked, and report in input order.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufWriter};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;

use npuzzle_core::Board;
use npuzzle_solver::{
    Algorithm, Databases, Limit, Limits, Options, Reason, Solution, Status, solve_with,
};

use crate::args::SolveArgs;
use crate::input::{self, Job};
use crate::output::Printer;

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
pub struct Report<'a> {
    /// The job.
    pub job: &'a Job,
    /// Its outcome.
    pub outcome: Outcome,
    /// The tile numbers the solution slides, in order (empty unless solved).
    pub tiles: Vec<u16>,
    /// Set when the solver's moves do not replay to the goal: a solver bug.
    pub replay_error: Option<String>,
}

impl<'a> Report<'a> {
    fn new(job: &'a Job, outcome: Outcome) -> Report<'a> {
        let mut report = Report { job, outcome, tiles: Vec::new(), replay_error: None };
        if let (Ok(task), Outcome::Done(s)) = (&job.input, &report.outcome) {
            if s.status == Status::Solved {
                // Replaying costs one swap per move: cheap insurance that what we print as a
                // solution is one.
                let mut end = task.board.clone();
                report.replay_error = match end.apply_all(&s.moves) {
                    Err(err) => Some(err.to_string()),
                    Ok(()) if end != task.goal => Some(format!("the moves end at {end}")),
                    Ok(()) => None,
                };
                report.tiles = task.board.tiles_moved(&s.moves).unwrap_or_default();
            }
        }
        report
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
        match &self.outcome {
            Outcome::Invalid(reason) => Some(reason.clone()),
            Outcome::Done(s) => s.error(),
        }
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
}

/// Runs `npuzzle solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let jobs = input::jobs(args)?;
    let threads = args.threads.clamp(1, jobs.len().max(1));
    let cancel = Arc::new(AtomicBool::new(false));
    let options = Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        weight: args.weight,
        optimal: args.optimal,
        improve: args.timeout.is_some(),
        limits: Limits {
            max_nodes: args.max_nodes,
            // Each thread runs one search at a time, so this keeps the whole run under the
            // limit the user gave.
            max_memory: Some(args.max_memory / threads),
            timeout: Some(args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT)),
            cancel: Some(Arc::clone(&cancel)),
        },
    };
    let tables = crate::pdb_cmd::tables_for(&jobs, &options, args.threads)?;
    let mut printer = Printer::new(
        BufWriter::new(io::stdout().lock()),
        args.format,
        args.steps,
        args.algorithm,
        args.heuristic,
    );
    let several = jobs.len() > 1;
    let mut worst = 0u8;
    for_each_outcome(&jobs, &options, &tables, threads, &cancel, |job, outcome| {
        let report = Report::new(job, outcome);
        printer.print(&report)?;
        complain(&report, several);
        worst = worst.max(report.exit_code());
        Ok(())
    })?;
    Ok(ExitCode::from(worst))
}

/// Solves every job on `threads` threads and hands the outcomes to `emit` in input order, as
/// soon as each one and all before it are done. When `emit` fails (say, stdout was closed),
/// the searches still running are cancelled and the error returned.
fn for_each_outcome(
    jobs: &[Job],
    options: &Options,
    tables: &HashMap<Board, Databases>,
    threads: usize,
    cancel: &AtomicBool,
    mut emit: impl FnMut(&Job, Outcome) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if threads <= 1 {
        for job in jobs {
            emit(job, solve_job(job, options, tables))?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Outcome)>();
    thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                while !cancel.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    if tx.send((i, solve_job(job, options, tables))).is_err() {
                        break;
                    }
                }
            });
        }
        // The workers hold the only senders now, so the loop below ends when they are done.
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut printed = 0;
        for (i, outcome) in rx {
            waiting.insert(i, outcome);
            while let Some(outcome) = waiting.remove(&printed) {
                if let Err(err) = emit(&jobs[printed], outcome) {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(err);
                }
                printed += 1;
            }
        }
        Ok(())
    })
}

fn solve_job(job: &Job, options: &Options, tables: &HashMap<Board, Databases>) -> Outcome {
    let task = match &job.input {
        Ok(task) => task,
        Err(invalid) => return Outcome::Invalid(invalid.reason.clone()),
    };
    // A solver bug must not take the other boards of a batch down with it; the panic hook has
    // already printed the details.
    let none = Databases::default();
    let tables = tables.get(&task.goal).unwrap_or(&none);
    match panic::catch_unwind(AssertUnwindSafe(|| {
        solve_with(&task.board, &task.goal, options, tables)
    })) {
        Ok(Ok(solution)) => Outcome::Done(solution),
        Ok(Err(err)) => Outcome::Invalid(err.to_string()),
        Err(_) => Outcome::Invalid("internal error: the solver panicked on this board".into()),
    }
}

/// Writes the one-line reasons and warnings for a board to stderr.
fn complain(report: &Report<'_>, several: bool) {
    let at = if several { format!("{}: ", report.job.origin.label()) } else { String::new() };
    if let Some(err) = &report.replay_error {
        eprintln!("npuzzle: bug: {at}the solver's moves do not solve the board: {err}");
    }
    if let Some(error) = report.error() {
        match report.solution() {
            Some(s) if s.status == Status::Limit => match limit_hint(s) {
                Some(hint) => eprintln!("npuzzle: {at}limit reached: {error}; {hint}"),
                None => eprintln!("npuzzle: {at}limit reached: {error}"),
            },
            Some(s) if s.status == Status::Unsolvable => {
                eprintln!("npuzzle: {at}unsolvable: {error}");
            }
            _ => eprintln!("npuzzle: {at}invalid input: {error}"),
        }
    }
    if let (Some(s), Some(expected)) = (report.solution(), report.job.expected) {
        let len = s.moves.len() as u64;
        let expected = u64::from(expected);
        if s.status == Status::Solved && ((s.optimal && len != expected) || len < expected) {
            let kind = if s.optimal { "an optimal" } else { "a" };
            eprintln!(
                "npuzzle: warning: {at}found {kind} solution of {len} moves but the input says \
                 the optimum is {expected}: one of them is wrong"
            );
        }
    }
}

/// What to try after a limit stopped the search of `solution`, in the command line's words;
/// `None` when there is nothing to suggest (the user cancelled).
fn limit_hint(solution: &Solution) -> Option<String> {
    let limit = match solution.reason {
        Some(Reason::Limit(Limit::Cancelled)) => return None,
        Some(Reason::Limit(limit)) => limit,
        Some(Reason::Exhausted | Reason::Reduction(_)) => {
            return Some("this is a bug in npuzzle: please report the board".to_string());
        }
        _ => return None,
    };
    let algorithm = solution.algorithm;
    Some(match algorithm {
        Algorithm::Bfs
        | Algorithm::Dfs
        | Algorithm::Dijkstra
        | Algorithm::AStar
        | Algorithm::Greedy
        | Algorithm::WAStar => format!(
            "{algorithm} keeps every position it reaches: try --algorithm idastar (memory-free) \
             or the default auto"
        ),
        Algorithm::Iddfs => "uninformed search cannot cope with this board: try \
                             --algorithm idastar (optimal, little memory) or --algorithm auto"
            .to_string(),
        Algorithm::IdaStar if matches!(limit, Limit::Time(_) | Limit::Nodes(_)) => {
            "try --algorithm wastar or the default auto (fast, not optimal), or raise \
             --timeout or --max-nodes"
                .to_string()
        }
        _ => "raise --max-nodes, --max-memory or --timeout, or try another algorithm, such as \
              --algorithm auto"
            .to_string(),
    })
}
