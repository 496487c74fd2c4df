//! The reduction solver on large random boards (seeded): 32x32 and 100x100.

use criterion::{Criterion, criterion_group, criterion_main};
use npuzzle_core::{Goal, Scrambler, Size};
use npuzzle_solver::engine::reduction;

fn bench(c: &mut Criterion) {
    for (side, samples) in [(32usize, 30usize), (100, 10)] {
        let Ok(size) = Size::square(side) else { continue };
        let Ok(goal) = Goal::BlankLast.board(size) else { continue };
        let boards: Vec<_> = (0..4).map(|seed| Scrambler::new(seed).solvable(&goal)).collect();
        // Build the exact tables once, outside the measurement.
        let _ = reduction::solve(&boards[0], &goal);
        let mut group = c.benchmark_group("reduction");
        group.sample_size(samples.max(10));
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
