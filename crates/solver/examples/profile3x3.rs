//! A driver for profiling the 3x3 engines: solves the benchmark's 1,000 seeded boards
//! (Scrambler seed 2026, blank-last) several times with one algorithm and heuristic, and
//! prints the fastest round per board with the average node counts. Run it under
//! `perf record` or `valgrind --tool=cachegrind`; quote timings from the criterion
//! benchmark (`cargo bench -p npuzzle-solver --bench solve3x3`), not from here.
//!
//! ```text
//! cargo run --release -p npuzzle-solver --example profile3x3 -- idastar linear-conflict 10
//! ```

use std::time::Instant;

use npuzzle_core::{Goal, Scrambler, Size};
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options, solve};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let algorithm: Algorithm = args.next().as_deref().unwrap_or("idastar").parse()?;
    let heuristic: Heuristic = args.next().as_deref().unwrap_or("linear-conflict").parse()?;
    let rounds: usize = args.next().as_deref().unwrap_or("5").parse()?;
    let goal = Goal::BlankLast.board(Size::square(3)?)?;
    let mut scrambler = Scrambler::new(2026);
    let boards: Vec<_> = (0..1000).map(|_| scrambler.solvable(&goal)).collect();
    let options =
        Options { algorithm, heuristic, limits: Limits::unlimited(), ..Options::default() };
    let mut best = f64::MAX;
    let (mut expanded, mut generated) = (0, 0);
    for _ in 0..rounds.max(1) {
        let clock = Instant::now();
        (expanded, generated) = (0, 0);
        for board in &boards {
            let solution = solve(board, &goal, &options)?;
            expanded += solution.stats.expanded;
            generated += solution.stats.generated;
        }
        best = best.min(clock.elapsed().as_secs_f64());
    }
    let n = boards.len() as f64;
    println!(
        "{algorithm} + {heuristic}: {:.2} us per board (fastest of {rounds} rounds), {:.0} expanded, {:.0} generated",
        best * 1e6 / n,
        expanded as f64 / n,
        generated as f64 / n,
    );
    Ok(())
}
