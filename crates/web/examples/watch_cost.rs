//! What watching costs: one A* search solved plainly (the packed engine /api/solve runs),
//! watched by an observer that looks at nothing, and watched by one that counts expansions.
//! `cargo run --release -p npuzzle-web --example watch_cost -- BOARD`

use std::time::Instant;

use npuzzle_core::{Board, Goal};
use npuzzle_search::{Expand, Flow, Observer};
use npuzzle_solver::{Algorithm, Heuristic, Options, Solver};

struct Count(u64);

impl Observer<Board, u32> for Count {
    fn expand(&mut self, _: &Expand<'_, Board, u32>) -> Flow {
        self.0 += 1;
        Flow::Continue
    }
}

fn main() {
    let text =
        std::env::args().nth(1).unwrap_or_else(|| "12 9 1 11/13 6 4 2/3 5 10 8/14 15 0 7".into());
    let board: Board = text.parse().expect("a board");
    let goal = Goal::BlankLast.board(board.size()).expect("a goal");
    let options = Options {
        algorithm: Algorithm::AStar,
        heuristic: Heuristic::Manhattan,
        ..Options::default()
    };
    let solver = Solver::new();
    for round in 0..3 {
        let t = Instant::now();
        let plain = solver.solve(&board, &goal, &options).expect("solves");
        let plain_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let silent = solver.solve_watched(&board, &goal, &options, ()).expect("solves");
        let silent_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut count = Count(0);
        let _ = solver.solve_watched(&board, &goal, &options, &mut count).expect("solves");
        let count_s = t.elapsed().as_secs_f64();
        println!(
            "round {round}: plain {plain_s:.3} s ({} nodes), watched by () {silent_s:.3} s ({} nodes), counting {count_s:.3} s ({} nodes)",
            plain.stats.expanded, silent.stats.expanded, count.0
        );
    }
}
