//! `npuzzle bench`: solve a set of instances with known optimal lengths and report the effort.
//!
//! The table has one row per instance (index, length, expected length, nodes generated,
//! seconds) and a total with the node rate. The exit status is 1 when any length differs from
//! the expected one (a wrong answer); otherwise 3 when an instance cannot reach its goal, 4
//! when a limit stopped an instance (the highest of these), else 0. An unsolvable instance
//! is reported as such, never as a length that differs; a limit is named with its value and
//! the flag that would help.
//!
//! `--threads N` splits each instance's search over N threads; with `--across`, N instances
//! run at a time instead, one thread each, over the one solver and its loaded tables (the
//! way labels are made in bulk), and the total adds the wall time from the first start to
//! the last end and the instances a second over it. Every table is readied before the first
//! clock starts.
//!
//! A file is read as `solve` reads one: at most 64 MiB, so `/dev/zero`, a FIFO fed forever or
//! a huge sparse file is refused at once instead of filling the memory.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::Context;
use npuzzle_core::{Board, Goal, parse_instances};
use npuzzle_solver::{Algorithm, Databases, Limits, Options, Status, thousands};
use serde::Serialize;

use crate::advice::{self, Given};
use crate::args::{BenchArgs, ScrambleFormat};
use crate::cmd::pdb;
use crate::progress::{Mode, Progress};

/// Exit status when an instance cannot reach its goal (as `solve`'s).
const EXIT_UNSOLVABLE: u8 = 3;
/// Exit status when a limit stopped an instance.
const EXIT_LIMIT: u8 = 4;

const KORF100: &str = include_str!("../../../../testdata/korf100.txt");
const KORF24: &str = include_str!("../../../../testdata/korf24.txt");

/// One instance's line of `--format json`.
#[derive(Serialize)]
struct Row {
    index: usize,
    board: String,
    status: &'static str,
    length: Option<usize>,
    expected: Option<u32>,
    ok: bool,
    expanded: u64,
    generated: u64,
    seconds: f64,
    algorithm: &'static str,
    heuristic: Option<&'static str>,
}

/// The last line of `--format json`.
#[derive(Serialize)]
struct Summary {
    summary: bool,
    instances: usize,
    mismatches: usize,
    limits: usize,
    expanded: u64,
    generated: u64,
    seconds: f64,
    nodes_per_second: f64,
    /// CPU seconds of the process (every thread) over the solves, where the system says
    /// (Linux); wall time on a shared machine is not the program's speed.
    cpu_seconds: Option<f64>,
    threads: usize,
    /// Whether the instances ran side by side (`--across`), one thread each.
    across: bool,
    /// Wall seconds from the first instance's start to the last one's end (tables ready),
    /// and instances per wall second over them.
    wall_seconds: f64,
    instances_per_second: f64,
    /// Whether the database search made dual lookups (`--dual`).
    dual: bool,
}

/// User plus system CPU seconds of this process so far, every thread (Linux: from
/// `/proc/self/stat`, in clock ticks of 1/100 s); `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<f64>().ok();
    Some((ticks(11)? + ticks(12)?) / 100.0)
}

/// Runs `npuzzle bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    crate::stdio::check_stdout()?;
    let text = match args.source.as_str() {
        "korf100" => KORF100.to_string(),
        "korf24" => KORF24.to_string(),
        path => crate::input::read_text(Path::new(path))?.1,
    };
    let mut instances =
        parse_instances(&text).with_context(|| format!("reading {}", args.source))?;
    // The instances' numbers in the file (1-based), kept through --only.
    let mut numbers: Vec<usize> = (1..=instances.len()).collect();
    if let Some(only) = &args.only {
        if let Some(&n) = only.iter().find(|&&n| n > instances.len()) {
            anyhow::bail!("--only: {} has {} instances, not {n}", args.source, instances.len());
        }
        let keep = |n: &usize| only.contains(n);
        instances =
            instances.into_iter().zip(1..).filter(|(_, n)| keep(n)).map(|(i, _)| i).collect();
        numbers.retain(keep);
    }
    if let Some(limit) = args.limit {
        instances.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    }
    let cancel = crate::interrupt::install();
    // Instances run (fewer than asked when Ctrl-C ends the run).
    let mut done = 0usize;
    // A file that gives every instance's optimal length is a benchmark of optimal solving:
    // `auto` proves each answer (the 24-puzzle's 6-6-6-6 search on 5x5) instead of keeping a
    // fast answer in reserve.
    let optimal =
        args.algorithm == Algorithm::Auto && instances.iter().all(|i| i.optimal.is_some());
    let options = Options {
        algorithm: args.algorithm,
        heuristic: args.heuristic,
        optimal,
        limits: Limits {
            max_nodes: args.max_nodes,
            timeout: Some(args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT)),
            cancel: Some(cancel.clone()),
            ..Limits::default()
        },
        ..Options::default()
    };
    let json = args.format == ScrambleFormat::Json;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if !json {
        writeln!(
            out,
            "{:>5} {:>6} {:>8} {:>14} {:>10}",
            "#", "length", "expected", "nodes", "seconds"
        )?;
    }
    // Threads per search: all of them, or one each when instances run side by side.
    let across = args.across && args.threads > 1 && instances.len() > 1;
    let search_threads = if across { 1 } else { args.threads };
    let solver = pdb::solver(search_threads).with_databases(Databases {
        pdb: None,
        threads: search_threads,
        dual: args.dual,
        pruning: args.pruning,
    });
    let mut prepared: std::collections::HashSet<Board> = std::collections::HashSet::new();
    // The search's bound and nodes on a terminal, for instances that take more than a second.
    let progress = Progress::new(Mode::choose(false, false), instances.len(), 1);
    let mut goals = Vec::with_capacity(instances.len());
    // Every table readied before the first clock starts: many solves, so in anonymous memory
    // rather than read through the mapped file's small pages.
    for inst in &instances {
        let goal = inst.goal.as_deref().unwrap_or(&Goal::BlankLast).board(inst.board.size())?;
        if !prepared.contains(&goal) {
            let clock = Instant::now();
            if let Some(db) = solver.prepare(&goal, &options) {
                let kind = if db.covers_every_tile() { "pattern database" } else { "tables" };
                crate::stdio::complain(format_args!(
                    "{kind} {} for {} ({:.1} MB{}), ready in {:.3} s",
                    db.partition().sizes(),
                    db.size(),
                    db.bytes().len() as f64 / 1e6,
                    if db.has_reflection() { ", with reflection" } else { "" },
                    clock.elapsed().as_secs_f64()
                ));
            }
            prepared.insert(goal.clone());
        }
        goals.push(goal);
    }
    let solve_one = |i: usize| -> anyhow::Result<npuzzle_solver::Solution> {
        Ok(solver.solve_observed(&instances[i].board, &goals[i], &options, progress.watcher())?)
    };
    let (mut mismatches, mut limits, mut unsolvable) = (0usize, 0usize, 0usize);
    // The first limit hit: which instance, what limit, and what would help.
    let mut first_limit: Option<String> = None;
    let (mut expanded, mut generated, mut seconds) = (0u64, 0u64, 0f64);
    let mut method = String::new();
    let mut cpu = 0.0;
    let (cpu_start, wall_start) = (cpu_seconds(), Instant::now());
    // Raised when the rows stop being read (an error, Ctrl-C): no further instance starts.
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel();
        if across {
            for _ in 0..args.threads {
                let tx = tx.clone();
                let (stop, next, solve_one, cancel) = (&stop, &next, &solve_one, &cancel);
                let count = instances.len();
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= count
                            || stop.load(Ordering::Relaxed)
                            || cancel.load(Ordering::Relaxed)
                        {
                            break;
                        }
                        if tx.send((i, solve_one(i))).is_err() {
                            break;
                        }
                    }
                });
            }
        }
        drop(tx);
        // Rows in file order: what finished early waits here for the ones before it.
        let mut waiting = BTreeMap::new();
        let result = (|| -> anyhow::Result<()> {
            for i in 0..instances.len() {
                let s = if across {
                    loop {
                        if let Some(s) = waiting.remove(&i) {
                            break s;
                        }
                        match rx.recv() {
                            Ok((j, s)) => {
                                waiting.insert(j, s);
                            }
                            // The workers stopped (Ctrl-C) before this instance.
                            Err(_) => return Ok(()),
                        }
                    }
                } else {
                    let cpu0 = cpu_seconds();
                    let s = solve_one(i);
                    cpu += cpu_seconds().zip(cpu0).map_or(0.0, |(b, a)| b - a);
                    s
                }?;
                let (inst, goal) = (&instances[i], &goals[i]);
                if let Err(e) = s.replay(&inst.board, goal) {
                    anyhow::bail!("bug: instance {}: {e}", numbers[i]);
                }
                let length = (s.status == Status::Solved).then_some(s.moves.len());
                let ok = match (length, inst.optimal) {
                    (Some(l), Some(e)) => l == e as usize || (!s.optimal && l >= e as usize),
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                match s.status {
                    Status::Limit => {
                        limits += 1;
                        if first_limit.is_none() {
                            first_limit = Some(limit_reason(&s, args, numbers[i]));
                        }
                    }
                    Status::Unsolvable => unsolvable += 1,
                    _ if !ok => mismatches += 1,
                    _ => {}
                }
                expanded += s.stats.expanded;
                generated += s.stats.generated;
                seconds += s.stats.seconds;
                method = format!(
                    "{}{}",
                    s.algorithm,
                    s.heuristic.map_or(String::new(), |h| format!(" + {h}"))
                );
                if json {
                    let row = Row {
                        index: numbers[i],
                        board: inst.board.to_string(),
                        status: s.status.name(),
                        length,
                        expected: inst.optimal,
                        ok,
                        expanded: s.stats.expanded,
                        generated: s.stats.generated,
                        seconds: s.stats.seconds,
                        algorithm: s.algorithm.name(),
                        heuristic: s.heuristic.map(|h| h.name()),
                    };
                    writeln!(out, "{}", serde_json::to_string(&row)?)?;
                } else {
                    let length =
                        length.map_or_else(|| s.status.name().to_string(), |l| l.to_string());
                    let expected = inst.optimal.map_or_else(|| "-".to_string(), |e| e.to_string());
                    let flag = match s.status {
                        _ if ok => String::new(),
                        Status::Limit => {
                            format!(
                                "  ({})",
                                s.limit().map_or_else(|| "limit".to_string(), |l| l.to_string())
                            )
                        }
                        Status::Unsolvable => "  (cannot reach the goal)".to_string(),
                        _ => "  DIFFERS".to_string(),
                    };
                    writeln!(
                        out,
                        "{:>5} {:>6} {:>8} {:>14} {:>10.4}{flag}",
                        numbers[i],
                        length,
                        expected,
                        thousands(s.stats.generated),
                        s.stats.seconds
                    )?;
                }
                out.flush()?;
                done += 1;
                if cancel.load(Ordering::Relaxed) {
                    crate::stdio::complain(format_args!(
                        "interrupted: instance {} stopped at bound {}",
                        numbers[i],
                        s.lower_bound.unwrap_or(0)
                    ));
                    break;
                }
            }
            Ok(())
        })();
        stop.store(true, Ordering::Relaxed);
        result
    })?;
    let wall = wall_start.elapsed().as_secs_f64();
    if across {
        cpu = cpu_seconds().zip(cpu_start).map_or(0.0, |(b, a)| b - a);
    }
    let n = done;
    let rate = if seconds > 0.0 { generated as f64 / seconds } else { 0.0 };
    if json {
        let summary = Summary {
            summary: true,
            instances: n,
            mismatches,
            limits,
            expanded,
            generated,
            seconds,
            nodes_per_second: rate,
            cpu_seconds: cpu_seconds().map(|_| cpu),
            threads: args.threads,
            across,
            wall_seconds: wall,
            instances_per_second: n as f64 / wall.max(1e-9),
            dual: args.dual,
        };
        writeln!(out, "{}", serde_json::to_string(&summary)?)?;
    } else {
        writeln!(
            out,
            "total: {n} instances, {} as expected, {} nodes ({} per instance), {seconds:.3} s{}, {:.2} M nodes/s ({method}{}, {} thread{})",
            n - mismatches - limits - unsolvable,
            thousands(generated),
            thousands(generated / n.max(1) as u64),
            cpu_seconds().map_or(String::new(), |_| format!(" ({cpu:.2} s CPU)")),
            rate / 1e6,
            if args.dual { ", dual lookups" } else { "" },
            args.threads,
            if args.threads == 1 { "" } else { "s" }
        )?;
        if across {
            writeln!(
                out,
                "across: {} instances at a time, one thread each: {wall:.3} s wall from the first start to the last end, {:.0} instances a second",
                args.threads,
                n as f64 / wall.max(1e-9)
            )?;
        }
    }
    out.flush()?;
    if mismatches > 0 {
        crate::stdio::complain(format_args!(
            "{mismatches} instance(s) solved with another length than expected"
        ));
        return Ok(ExitCode::from(1));
    }
    if unsolvable > 0 {
        crate::stdio::complain(format_args!(
            "{unsolvable} instance(s) cannot reach the goal (unsolvable)"
        ));
    }
    if limits > 0 {
        crate::stdio::complain(format_args!(
            "{limits} instance(s) stopped at a limit; the first: {}",
            first_limit.unwrap_or_default()
        ));
        return Ok(ExitCode::from(EXIT_LIMIT));
    }
    if unsolvable > 0 {
        return Ok(ExitCode::from(EXIT_UNSOLVABLE));
    }
    Ok(ExitCode::SUCCESS)
}

/// `#3: time limit of 60 s reached after 1,234 expanded nodes; raise --timeout (it was 60 s),
/// ...`: which limit stopped instance `number`, and what would help, worded with bench's own
/// flags.
fn limit_reason(s: &npuzzle_solver::Solution, args: &BenchArgs, number: usize) -> String {
    let given = Given {
        algorithm: args.algorithm,
        optimal: false,
        timeout: args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT),
        max_memory: 0,
        threads: args.threads,
        max_nodes: args.max_nodes,
    };
    let what = s.error().unwrap_or_else(|| "a limit was reached".to_string());
    // bench has no --max-memory: only another algorithm helps there.
    let help = match s.limit() {
        Some(npuzzle_solver::Limit::Memory(_)) => {
            Some("use --algorithm idastar (optimal, memory linear in the depth)".to_string())
        }
        _ => advice::after_limit(s, &given),
    };
    match help {
        Some(help) => format!("#{number}: {what}; {help}"),
        None => format!("#{number}: {what}"),
    }
}
