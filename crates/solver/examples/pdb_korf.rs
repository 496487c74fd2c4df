//! Solves an instance file with IDA* on a cached pattern database and prints per-instance
//! nodes and times (a profiling driver; `npuzzle bench` is the user-facing command):
//! `cargo run --release -p npuzzle-solver --example pdb_korf -- DIR FILE [PARTITION] [THREADS] [LIMIT]`
//! (tables as `bench` readies them, one-bit where they can be; `PDB_COPY=1`: a copy of the full
//! entries; `PDB_MAPPED=1`: read through the mapped file)

use std::time::Instant;

use npuzzle_core::{Goal, parse_instances};
use npuzzle_solver::Limits;
use npuzzle_solver::engine::pdb_search;
use npuzzle_solver::heuristic::pdb::{Cache, Partition};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = &args[0];
    let text = std::fs::read_to_string(&args[1])?;
    let spec = args.get(2).map_or("7-8", String::as_str);
    let threads: usize = args.get(3).map_or(Ok(1), |t| t.parse())?;
    let limit: usize = args.get(4).map_or(Ok(usize::MAX), |t| t.parse())?;
    let instances = parse_instances(&text)?;
    let size = instances[0].board.size();
    let goal = instances[0].goal.as_deref().unwrap_or(&Goal::BlankLast).board(size)?;
    let partition = Partition::parse(spec, &goal)?;
    let clock = Instant::now();
    let db = Cache::new(dir).load(&goal, &partition)?.ok_or("build it first (pdb_build)")?;
    let db = if std::env::var_os("PDB_MAPPED").is_some() {
        db
    } else if std::env::var_os("PDB_COPY").is_some() {
        db.in_memory()
    } else {
        db.for_many_solves()
    };
    println!("loaded in {:.3} s", clock.elapsed().as_secs_f64());
    let cpu0 = cpu_seconds();
    let (mut nodes, mut total) = (0u64, 0f64);
    let limits = Limits::unlimited();
    for (i, inst) in instances.iter().take(limit).enumerate() {
        let s = if std::env::var_os("LC").is_some() {
            let options = npuzzle_solver::Options {
                algorithm: npuzzle_solver::Algorithm::IdaStar,
                heuristic: npuzzle_solver::Heuristic::LinearConflict,
                limits: limits.clone(),
                ..Default::default()
            };
            npuzzle_solver::solve(&inst.board, &goal, &options)?
        } else {
            pdb_search::solve_dual(
                &db,
                &inst.board,
                &limits,
                threads,
                std::env::var_os("DUAL").is_some(),
            )?
        };
        nodes += s.stats.generated;
        total += s.stats.seconds;
        let ok = inst.optimal.is_none_or(|o| o as usize == s.moves.len());
        println!(
            "{:3} {:3} {:>12} {:>12} {:8.4}{}",
            i + 1,
            s.moves.len(),
            s.stats.expanded,
            s.stats.generated,
            s.stats.seconds,
            if ok { "" } else { "  WRONG" }
        );
    }
    let n = instances.len().min(limit) as f64;
    let cpu = cpu_seconds() - cpu0;
    println!(
        "total {total:.3} s wall, {cpu:.2} s CPU (process), {:.0} generated/instance, {:.2} M nodes/s wall, {:.2} M nodes per CPU second",
        nodes as f64 / n,
        nodes as f64 / total / 1e6,
        nodes as f64 / cpu / 1e6
    );
    Ok(())
}

/// User plus system CPU seconds of this process so far, from /proc (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat.rsplit(')').next().unwrap_or("").split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
