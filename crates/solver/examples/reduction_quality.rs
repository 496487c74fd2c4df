//! Solution length / Manhattan lower bound of the reduction solver on random boards.
//!
//! `cargo run --release -p npuzzle-solver --example reduction_quality [SECONDS...] [--auto] [--sizes 10,20,32] [--count 20]`
//!
//! Prints, for each size, the median and mean ratio and the median and largest time of the
//! plain solve, of the anytime mode with each budget given (default: 1 and 10 seconds; `0`
//! alone: the plain solve only) and, with `--auto`, of the solver's `auto` (what
//! `npuzzle solve` does: up to 48x48 a short solve of the near-optimal engine first, then
//! the reduction solver; beyond, up to 50x50, a given number of beams). The boards are `Scrambler::new(seed)` for seeds `0..count`, as
//! `npuzzle scramble --size NxN --seed SEED` makes them.

use std::time::{Duration, Instant};

use npuzzle_core::{Goal, Scrambler, Size};
use npuzzle_solver::engine::reduction::{self, Budget};
use npuzzle_solver::{Options, Solver};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn mean(v: &[f64]) -> f64 {
    if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 }
}

/// "median / mean ratio, median / largest ms" of one column.
fn column(ratios: Vec<f64>, ms: Vec<f64>) -> String {
    let max = ms.iter().copied().fold(0.0, f64::max);
    format!(
        "{:.3} / {:.3} {:>7.1} / {:<7.1}",
        median(ratios.clone()),
        mean(&ratios),
        median(ms),
        max
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut budgets: Vec<f64> = Vec::new();
    let mut sizes = vec![10usize, 20, 32];
    let mut count = 20u64;
    let mut auto = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--sizes" => {
                sizes = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.parse().ok())
                    .collect();
            }
            "--auto" => auto = true,
            "--count" => count = args.next().and_then(|s| s.parse().ok()).unwrap_or(count),
            other => budgets.push(other.parse()?),
        }
    }
    if budgets.is_empty() {
        budgets = vec![1.0, 10.0];
    }
    budgets.retain(|&b| b > 0.0);
    let mut heads: Vec<String> =
        budgets.iter().map(|b| format!("anytime {b}s: ratio, ms")).collect();
    if auto {
        heads.push("auto: ratio, ms".to_string());
    }
    println!("size    boards  plain: ratio median / mean, ms median / max  {}", heads.join("  "));
    for &n in &sizes {
        let goal = Goal::BlankLast.board(Size::square(n)?)?;
        let mut plain = Vec::new();
        let mut ms = Vec::new();
        let columns = budgets.len() + usize::from(auto);
        let mut any: Vec<(Vec<f64>, Vec<f64>)> = vec![(Vec::new(), Vec::new()); columns];
        for seed in 0..count {
            let board = Scrambler::new(seed).solvable(&goal);
            let lb = reduction::manhattan_lower_bound(&board, &goal) as f64;
            let t = Instant::now();
            let moves = reduction::solve(&board, &goal)?;
            ms.push(t.elapsed().as_secs_f64() * 1e3);
            plain.push(moves.len() as f64 / lb);
            for (i, &b) in budgets.iter().enumerate() {
                let t = Instant::now();
                let report = reduction::solve_anytime(
                    &board,
                    &goal,
                    Budget::for_duration(Duration::from_secs_f64(b)),
                )?;
                any[i].0.push(report.moves.len() as f64 / lb);
                any[i].1.push(t.elapsed().as_secs_f64() * 1e3);
            }
            if auto {
                let t = Instant::now();
                let solution = Solver::shared().solve(&board, &goal, &Options::default())?;
                let ms = t.elapsed().as_secs_f64() * 1e3;
                let column = &mut any[budgets.len()];
                column.0.push(solution.moves.len() as f64 / lb);
                column.1.push(ms);
            }
        }
        println!(
            "{n:>3}x{n:<3} {count:>6}  {:>31}  {}",
            column(plain, ms),
            any.into_iter()
                .map(|(r, t)| format!("{:>30}", column(r, t)))
                .collect::<Vec<_>>()
                .join("  ")
        );
    }
    Ok(())
}
