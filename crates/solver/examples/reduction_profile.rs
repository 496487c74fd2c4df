//! Times the plain reduction solve on one random board: `reduction_profile SIZE [REPEAT]`.

use std::time::Instant;

use npuzzle_core::{Goal, Scrambler, Size};
use npuzzle_solver::engine::reduction;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(32);
    let repeat: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let goal = Goal::BlankLast.board(Size::square(n)?)?;
    for seed in 0..repeat {
        let board = Scrambler::new(seed).solvable(&goal);
        let t = Instant::now();
        let moves = reduction::solve(&board, &goal)?;
        let lb = reduction::manhattan_lower_bound(&board, &goal);
        println!(
            "{n}x{n} seed {seed}: {} moves, ratio {:.3}, {:.1} ms",
            moves.len(),
            moves.len() as f64 / lb as f64,
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    Ok(())
}
