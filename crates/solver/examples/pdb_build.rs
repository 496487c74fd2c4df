//! Builds a pattern database into a cache directory and reports the time taken:
//! `cargo run --release -p npuzzle-solver --example pdb_build -- DIR [PARTITION] [THREADS] [GOAL]`
//! (defaults: 7-8, 2 threads, blank-first on 4x4).

use std::time::Instant;

use npuzzle_core::{Goal, Size};
use npuzzle_solver::heuristic::pdb::{Cache, Database, Partition};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().ok_or("usage: pdb_build DIR [PARTITION] [THREADS] [GOAL]")?;
    let spec = args.get(1).map_or("7-8", String::as_str);
    let threads: usize = args.get(2).map_or(Ok(2), |t| t.parse())?;
    let goal: Goal = args.get(3).map_or("blank-first", String::as_str).parse()?;
    let goal = goal.board(Size::square(4)?)?;
    let partition = Partition::parse(spec, &goal)?;
    let clock = Instant::now();
    let db = Database::build(&goal, &partition, threads, &|_| {}, None)?;
    let built = clock.elapsed();
    let path = Cache::new(dir).save(&db)?;
    let clock = Instant::now();
    let loaded = Cache::new(dir).load(&goal, &partition)?.ok_or("not saved")?;
    println!(
        "{spec}: built in {:.2} s on {threads} threads, {} bytes, loaded and verified in {:.3} s ({})",
        built.as_secs_f64(),
        loaded.bytes().len(),
        clock.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}
