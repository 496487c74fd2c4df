//! Builds a pattern database into a cache directory and reports the time taken:
//! `cargo run --release -p npuzzle-solver --example pdb_build -- DIR [PARTITION] [THREADS] [GOAL] [INDEXING]`
//! (defaults: 7-8, 2 threads, blank-first on 4x4, one entry per blank region). PARTITION
//! `korf-felner` builds the 24-puzzle's two stored tables; INDEXING `placement` builds Korf
//! & Felner's kind of table (one entry per placement), to compare with.

use std::time::Instant;

use npuzzle_core::{Goal, Size};
use npuzzle_solver::engine::twentyfour::Tables;
use npuzzle_solver::heuristic::pdb::{Cache, Database, Indexing, Partition};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args
        .first()
        .ok_or("usage: pdb_build DIR [PARTITION] [THREADS] [GOAL] [region|placement]")?;
    let spec = args.get(1).map_or("7-8", String::as_str);
    let threads: usize = args.get(2).map_or(Ok(2), |t| t.parse())?;
    let goal: Goal = args.get(3).map_or("blank-first", String::as_str).parse()?;
    let indexing = match args.get(4).map_or("region", String::as_str) {
        "region" => Indexing::Region,
        "placement" => Indexing::Placement,
        other => return Err(format!("indexing {other:?}: region or placement").into()),
    };
    let (goal, partition) = if spec == "korf-felner" {
        (Tables::korf_felner_base_goal(), Tables::korf_felner_base_partition())
    } else {
        let goal = goal.board(Size::square(4)?)?;
        let partition = Partition::parse(spec, &goal)?;
        (goal, partition)
    };
    let clock = Instant::now();
    let db = Database::build_indexed(&goal, &partition, indexing, threads, &|_| {}, None)?;
    let built = clock.elapsed();
    let path = Cache::new(dir).save(&db)?;
    let clock = Instant::now();
    let loaded = Cache::new(dir).load(&goal, &partition)?.ok_or("not saved")?;
    println!(
        "{spec} ({indexing:?}): built in {:.2} s on {threads} threads, {} bytes, loaded and verified in {:.3} s ({})",
        built.as_secs_f64(),
        loaded.bytes().len(),
        clock.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}
