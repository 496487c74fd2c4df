//! The reduction solver on large random boards (seeded): 32x32, 100x100 and 256x256 (the
//! last takes about a minute: ten solves of about 6 s; `cargo bench --bench large -- 32x32`
//! picks one size). Lengths over the Manhattan bound: the `reduction_quality` example.

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle_core::{Goal, Scrambler, Size};
use npuzzle_solver::engine::reduction;

fn bench(c: &mut Criterion) {
    for (side, samples) in [(32usize, 30usize), (100, 10), (256, 10)] {
        let Ok(size) = Size::square(side) else { continue };
        let Ok(goal) = Goal::BlankLast.board(size) else { continue };
        let count = if side > 100 { 1 } else { 4 };
        let boards: Vec<_> = (0..count).map(|seed| Scrambler::new(seed).solvable(&goal)).collect();
        // Build the exact tables once, outside the measurement.
        let _ = reduction::solve(&boards[0], &goal);
        let mut group = c.benchmark_group("reduction");
        group.sample_size(samples.max(10));
        if side > 100 {
            // Ten solves of several seconds each: say so rather than let criterion warn.
            group.measurement_time(std::time::Duration::from_secs(80));
            group.warm_up_time(std::time::Duration::from_secs(1));
        }
        let mut i = 0;
        group.bench_function(format!("solve {side}x{side}"), |b| {
            b.iter(|| {
                i = (i + 1) % boards.len();
                reduction::solve(&boards[i], &goal).map(|m| m.len())
            });
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
