//! `npuzzle bench`: solve a set of instances with known optimal lengths and report the effort.
//!
//! The table has one row per instance (index, length, expected length, nodes generated,
//! seconds, proven lower bound) and a total with the node rate, then the lengths: their mean,
//! its ratio to the mean optimal length where the file gives them and to the mean lower
//! bound, the median seconds per instance, and with `--compare` the mean length of another
//! solver's results on the same instances (such as DeepCubeA's). The exit status is 1 when any length differs from
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

use std::collections::{BTreeMap, HashMap};
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
    lower_bound: Option<u64>,
    compare: Option<u64>,
}

/// The last line of `--format json`.
#[derive(Serialize)]
struct BenchSummary {
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
    #[serde(flatten)]
    lengths: Lengths,
}

/// The lengths of the solved instances, against the optimal lengths, the lower bounds and
/// the compared results where known.
#[derive(Serialize, Default)]
struct Lengths {
    /// Instances solved.
    solved: usize,
    mean_length: Option<f64>,
    median_seconds: Option<f64>,
    /// Over the solved instances with an expected length: the mean of each, and the ratio.
    with_expected: usize,
    mean_expected: Option<f64>,
    ratio_to_expected: Option<f64>,
    /// Over the solved instances with a lower bound.
    mean_lower_bound: Option<f64>,
    ratio_to_lower_bound: Option<f64>,
    /// Over the solved instances the compared file has.
    with_compare: usize,
    compare_mean_length: Option<f64>,
    mean_length_on_compared: Option<f64>,
    ratio_to_compare: Option<f64>,
    compare_mean_seconds: Option<f64>,
}

/// One solved instance, for [`Lengths`].
struct Solved {
    length: usize,
    seconds: f64,
    expected: Option<u32>,
    lower_bound: Option<u64>,
    compare: Option<(u64, Option<f64>)>,
}

fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

impl Lengths {
    fn of(solved: &[Solved]) -> Lengths {
        let mut seconds: Vec<f64> = solved.iter().map(|s| s.seconds).collect();
        seconds.sort_by(f64::total_cmp);
        let median = match seconds.len() {
            0 => None,
            n if n % 2 == 1 => Some(seconds[n / 2]),
            n => Some((seconds[n / 2 - 1] + seconds[n / 2]) / 2.0),
        };
        let with_expected: Vec<&Solved> = solved.iter().filter(|s| s.expected.is_some()).collect();
        let mean_expected = mean(with_expected.iter().filter_map(|s| s.expected.map(f64::from)));
        let length_on_expected = mean(with_expected.iter().map(|s| s.length as f64));
        let with_bound: Vec<&Solved> = solved.iter().filter(|s| s.lower_bound.is_some()).collect();
        let mean_bound = mean(with_bound.iter().filter_map(|s| s.lower_bound.map(|b| b as f64)));
        let length_on_bound = mean(with_bound.iter().map(|s| s.length as f64));
        let compared: Vec<&Solved> = solved.iter().filter(|s| s.compare.is_some()).collect();
        let compare_mean = mean(compared.iter().filter_map(|s| s.compare.map(|c| c.0 as f64)));
        let length_on_compared = mean(compared.iter().map(|s| s.length as f64));
        let ratio =
            |a: Option<f64>, b: Option<f64>| a.zip(b).filter(|&(_, b)| b > 0.0).map(|(a, b)| a / b);
        Lengths {
            solved: solved.len(),
            mean_length: mean(solved.iter().map(|s| s.length as f64)),
            median_seconds: median,
            with_expected: with_expected.len(),
            mean_expected,
            ratio_to_expected: ratio(length_on_expected, mean_expected),
            mean_lower_bound: mean_bound,
            ratio_to_lower_bound: ratio(length_on_bound, mean_bound),
            with_compare: compared.len(),
            compare_mean_length: compare_mean,
            mean_length_on_compared: length_on_compared,
            ratio_to_compare: ratio(length_on_compared, compare_mean),
            compare_mean_seconds: mean(compared.iter().filter_map(|s| s.compare.and_then(|c| c.1))),
        }
    }

    /// The summary line of the table.
    fn line(&self) -> Option<String> {
        let mean_length = self.mean_length?;
        let mut line = format!("lengths: mean {mean_length:.3} over {} solved", self.solved);
        if let (Some(e), Some(r)) = (self.mean_expected, self.ratio_to_expected) {
            line += &format!("; optimal mean {e:.3} over {} (ratio {r:.4})", self.with_expected);
        }
        if let (Some(b), Some(r)) = (self.mean_lower_bound, self.ratio_to_lower_bound) {
            line += &format!("; lower bound mean {b:.3} (ratio {r:.4})");
        }
        if let Some(m) = self.median_seconds {
            line += &format!("; median {m:.3} s per instance");
        }
        if let (Some(c), Some(l), Some(r)) =
            (self.compare_mean_length, self.mean_length_on_compared, self.ratio_to_compare)
        {
            line += &format!(
                "; compared on {}: {l:.3} against {c:.3} (ratio {r:.4}{})",
                self.with_compare,
                self.compare_mean_seconds
                    .map_or(String::new(), |s| format!(", theirs {s:.1} s per instance"))
            );
        }
        Some(line)
    }
}

/// Another solver's results: `(tiles, index) -> (length, seconds)`.
type Compared = HashMap<(usize, usize), (u64, Option<f64>)>;

/// Reads a results file for `--compare`.
fn read_compare(path: &Path) -> anyhow::Result<Compared> {
    let text = crate::input::read_text(path)?.1;
    let mut lines = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#'));
    let header: Vec<&str> =
        lines.next().context("--compare: the file is empty")?.split('\t').map(str::trim).collect();
    let column = |want: &dyn Fn(&str) -> bool| header.iter().position(|h| want(h));
    let puzzle = column(&|h| h == "puzzle").context("--compare: no `puzzle` column")?;
    let index = column(&|h| h == "index").context("--compare: no `index` column")?;
    let length = column(&|h| h.ends_with("_length") && h != "optimal_length")
        .context("--compare: no `*_length` column (other than optimal_length)")?;
    let seconds = column(&|h| h.ends_with("_seconds"));
    let mut out = HashMap::new();
    for (n, line) in lines.enumerate() {
        let fields: Vec<&str> = line.split('\t').map(str::trim).collect();
        let field = |i: usize| fields.get(i).copied().unwrap_or("");
        let parsed = (
            field(puzzle).parse::<usize>(),
            field(index).parse::<usize>(),
            field(length).parse::<u64>(),
        );
        let (Ok(p), Ok(i), Ok(l)) = parsed else {
            anyhow::bail!("--compare: line {} is not `puzzle index ... length`", n + 2);
        };
        let s = seconds.and_then(|c| field(c).parse::<f64>().ok());
        out.insert((p, i), (l, s));
    }
    Ok(out)
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
    let compare = args.compare.as_deref().map(read_compare).transpose()?;
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
            timeout: Some(args.improve.or(args.timeout).unwrap_or(Limits::DEFAULT_TIMEOUT)),
            cancel: Some(cancel.clone()),
            ..Limits::default()
        },
        improve: args.improve.is_some(),
        ..Options::default()
    };
    let mut solved: Vec<Solved> = Vec::new();
    let json = args.format == ScrambleFormat::Json;
    let mut out = BufWriter::new(std::io::stdout().lock());
    if !json {
        writeln!(
            out,
            "{:>5} {:>6} {:>8} {:>14} {:>10} {:>6}",
            "#", "length", "expected", "nodes", "seconds", "bound"
        )?;
    }
    // Threads per search: all of them, or one each when instances run side by side.
    let across = args.across && args.threads > 1 && instances.len() > 1;
    let search_threads = if across { 1 } else { args.threads };
    let solver = pdb::solver(search_threads, None).with_databases(Databases {
        pdb: None,
        threads: search_threads,
        dual: args.dual,
        pruning: args.pruning,
        near_threads: Some(search_threads),
        table_memory: None,
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
                // The 24-puzzle's catalogue runs when its other tables are cached too: say so,
                // not just the first database's groups.
                let catalogue = (!db.covers_every_tile())
                    .then(|| match solver.store()?.twentyfour(&goal, None, None) {
                        npuzzle_solver::heuristic::pdb::Found::Ready(t) => Some(t),
                        _ => None,
                    })
                    .flatten()
                    .filter(|t| t.partitions().len() > 1);
                if let Some(t) = catalogue {
                    let bytes: usize = t.bases().iter().map(|b| b.bytes().len()).sum();
                    crate::stdio::complain(format_args!(
                        "tables: a catalogue of {} 6-6-6-6 partitions with reflection for {} \
                         ({} stored tables, {:.1} MB), ready in {:.3} s",
                        t.partitions().len(),
                        db.size(),
                        t.lookups().1,
                        bytes as f64 / 1e6,
                        clock.elapsed().as_secs_f64()
                    ));
                    prepared.insert(goal.clone());
                    goals.push(goal);
                    continue;
                }
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
    // Whether a 5x5 instance was answered without Korf & Felner's tables, which would serve it.
    let mut tables_would_help = false;
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
                tables_would_help |= advice::korf_felner_would_serve(&s, goal);
                let length = (s.status == Status::Solved).then_some(s.moves.len());
                let compared = compare
                    .as_ref()
                    .and_then(|c| c.get(&(inst.board.tiles().len() - 1, numbers[i])).copied());
                if let Some(length) = length {
                    solved.push(Solved {
                        length,
                        seconds: s.stats.seconds,
                        expected: inst.optimal,
                        lower_bound: s.lower_bound,
                        compare: compared,
                    });
                }
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
                        lower_bound: s.lower_bound,
                        compare: compared.map(|c| c.0),
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
                        "{:>5} {:>6} {:>8} {:>14} {:>10.4} {:>6}{flag}",
                        numbers[i],
                        length,
                        expected,
                        thousands(s.stats.generated),
                        s.stats.seconds,
                        s.lower_bound.map_or_else(|| "-".to_string(), |b| b.to_string())
                    )?;
                }
                // Rows wait in the buffer while the progress line is up, and are written
                // with it cleared.
                progress.suspend(|| out.flush())?;
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
        let summary = BenchSummary {
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
            lengths: Lengths::of(&solved),
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
        if let Some(line) = Lengths::of(&solved).line() {
            writeln!(out, "{line}")?;
        }
    }
    out.flush()?;
    if tables_would_help && !advice::korf_felner_cached() {
        crate::stdio::complain(format_args!("{}", advice::KORF_FELNER_ADVICE));
    }
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
        improve: args.improve,
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
