//! `npuzzle solve`: solve every board, in parallel if asked, and report in input order.
//!
//! Boards stream: a batch is checked first (one bad line rejects its file), then each board
//! is made, solved, printed and dropped, with at most a few boards per thread waiting to be
//! printed, so that memory does not grow with the batch. Ctrl-C cancels the searches under
//! way (they are reported as `limit`, "search cancelled", with their lower bound) and stops
//! the batch, which says how many boards were done.

use std::io::{self, BufWriter, IsTerminal};
use std::panic::{self, AssertUnwindSafe};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use npuzzle_core::Board;
use npuzzle_solver::{Limits, Options, Solver, plan};

use crate::advice::{self, Given};
use crate::args::SolveArgs;
use crate::batch::{Outcome, Report, Summary, complain, for_each_outcome};
use crate::input::{Batch, Job};
use crate::memory::search_memory;
use crate::output::Printer;
use crate::progress::{Mode, Progress};
use crate::{interrupt, stdio};

/// The exit status of a batch whose answers contradict the lengths its file gives.
const EXIT_MISMATCH: u8 = 1;

/// Runs `npuzzle solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let batch = Batch::read(args)?;
    let total = batch.len();
    let threads = args.threads.clamp(1, total.max(1));
    let cancel = interrupt::install();
    let timeout = args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT);
    let given = Given {
        algorithm: args.algorithm,
        optimal: args.optimal,
        timeout,
        improve: args.improve,
        max_memory: args.max_memory,
        threads,
        max_nodes: args.max_nodes,
    };
    let options = Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        weight: args.weight,
        optimal: args.optimal,
        improve: args.improve.is_some(),
        // The time the user allows is the time auto's optimal attempt may take (the policy
        // keeps a fifth of it for the fallbacks); without --timeout, auto's own budget.
        optimal_attempt: args.timeout,
        limits: Limits {
            max_nodes: args.max_nodes,
            // Each thread runs one search at a time, so this keeps the whole run under the
            // limit the user gave.
            max_memory: Some(search_memory(args.max_memory, threads)),
            timeout: Some(timeout),
            cancel: Some(Arc::clone(&cancel)),
        },
    };
    let progress = Progress::new(Mode::choose(args.quiet, args.progress), total, threads);
    let mut printer = Printer::new(
        BufWriter::new(io::stdout().lock()),
        args.format,
        args.steps,
        args.blank,
        args.algorithm,
        args.heuristic,
    );
    // One solver owns the run's databases (see `crate::cmd::pdb::solver`); one board's search over
    // a database may take every thread asked for.
    let solver =
        crate::cmd::pdb::solver(if total == 1 { args.threads } else { 1 }, Some(args.max_memory));
    let several = total > 1;
    let mut summary = Summary::default();
    let started = Instant::now();
    let mut worst = 0u8;
    // Whether a 5x5 board was answered without Korf & Felner's tables, which would serve it.
    let mut tables_would_help = false;
    // Many boards: each goal's database readied once, by the first board that needs it, in
    // anonymous memory on huge pages (see `Solver::prepare`) and shared by every thread;
    // never built for this (a batch a quick search answers must not wait for a build). The
    // time it takes is kept apart, so that the summary's rate is the solving's.
    let readied: Mutex<Vec<Board>> = Mutex::new(Vec::new());
    let readying = Mutex::new(Duration::ZERO);
    let solve = |job: &Job| {
        if several && let Ok(task) = &job.input {
            ready(&solver, &readied, &readying, &task.goal, &options);
        }
        solve_job(&solver, job, &options, args.improve, &progress)
    };
    let result = for_each_outcome(batch.jobs(), threads, &cancel, solve, |job, outcome| {
        let report = Report::new(job, outcome, &given);
        progress.suspend(|| printer.print(&report))?;
        progress.suspend(|| complain(&report, several));
        summary.add(&report);
        if let (Some(s), Ok(task)) = (report.solution(), &report.job.input) {
            tables_would_help |= advice::korf_felner_would_serve(s, &task.goal);
        }
        progress.board_done();
        worst = worst.max(report.exit_code());
        Ok(())
    });
    progress.finish();
    result?;
    if cancel.load(Ordering::SeqCst) {
        // A single board stopped without an answer has said so on its own line already; one
        // answered (an anytime search ends with its best answer so far) says why the status
        // is 4.
        if several {
            stdio::complain(format_args!(
                "cancelled: {} of {total} boards done",
                summary.boards - summary.cancelled
            ));
        } else if summary.cancelled == 0 && summary.boards > 0 {
            stdio::complain(format_args!(
                "cancelled: the answer given is the best found before the interrupt"
            ));
        }
        worst = worst.max(4);
    }
    let show_summary = !args.quiet && (args.summary || (several && io::stderr().is_terminal()));
    if show_summary {
        let readying = readying.into_inner().unwrap_or_else(|e| e.into_inner());
        summary.print(started.elapsed(), readying);
    }
    if tables_would_help && !args.quiet && !advice::korf_felner_cached() {
        stdio::complain(format_args!("{}", advice::KORF_FELNER_ADVICE));
    }
    if summary.mismatches > 0 {
        worst = worst.max(EXIT_MISMATCH);
    }
    Ok(ExitCode::from(worst))
}

/// Solves one job under `options`; with `improve`, a board that the reduction solver's
/// anytime mode answers gets that much time for it (within the timeout).
fn solve_job(
    solver: &Solver,
    job: &Job,
    options: &Options,
    improve: Option<Duration>,
    progress: &Progress,
) -> Outcome {
    let task = match &job.input {
        Ok(task) => task,
        Err(invalid) => return Outcome::Invalid(invalid.reason.clone()),
    };
    let improving =
        improve.filter(|_| plan(task.board.size(), options).is_ok_and(|p| p.improves()));
    let local;
    let options = match improving {
        Some(improve) => {
            let mut o = options.clone();
            o.limits.timeout = o.limits.timeout.map(|t| t.min(improve)).or(Some(improve));
            local = o;
            &local
        }
        None => options,
    };
    // A solver bug must not take the other boards of a batch down with it; the panic hook has
    // already printed the details.
    let solve = || solver.solve_observed(&task.board, &task.goal, options, progress.watcher());
    match panic::catch_unwind(AssertUnwindSafe(solve)) {
        Ok(Ok(solution)) => Outcome::Done(solution),
        Ok(Err(err)) => Outcome::Invalid(err.to_string()),
        Err(_) => Outcome::Invalid("internal error: the solver panicked on this board".into()),
    }
}

/// Readies `goal`'s database for many solves the first time a board of that goal comes
/// (see `run`), adding the time it took to `readying`.
fn ready(
    solver: &Solver,
    readied: &Mutex<Vec<Board>>,
    readying: &Mutex<Duration>,
    goal: &Board,
    options: &Options,
) {
    // Held while readying: another thread with a board of this goal waits for the table
    // rather than searching through the mapped file meanwhile.
    let Ok(mut done) = readied.lock() else { return };
    if done.contains(goal) {
        return;
    }
    let clock = Instant::now();
    solver.prepare_cached(goal, options);
    done.push(goal.clone());
    if let Ok(mut t) = readying.lock() {
        *t += clock.elapsed();
    }
}
