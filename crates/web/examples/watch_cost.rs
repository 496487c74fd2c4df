//! What watching costs: one A* search solved plainly (the packed engine /api/solve runs),
//! sampled at 30 frames a second on the same engine (what a stream at full speed on a 4x4
//! board runs: each frame the board, its five open-list best, as text), watched on the
//! generic engine by an observer that looks at nothing, and by one that counts expansions.
//! `cargo run --release -p npuzzle-web --example watch_cost -- BOARD [MAX_NODES]`

use std::time::Instant;

use npuzzle_core::{Board, Goal};
use npuzzle_search::{Expand, Flow, Observer};
use npuzzle_solver::{Algorithm, Heuristic, Limits, Options, Sampler, Solver};

/// Wants a node every 33 ms, and turns it and the open list's best five into text.
struct Frames {
    last: Instant,
    frames: u64,
    bytes: usize,
}

impl Observer<Board, u32> for Frames {
    fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        self.frames += 1;
        self.bytes += e.node().to_string().len();
        if let Some(open) = e.frontier() {
            open.soonest(5, &mut |b, _, _| self.bytes += b.to_string().len());
        }
        Flow::Continue
    }
}

impl Sampler for Frames {
    fn wants(&mut self, _: u64) -> bool {
        let due = self.last.elapsed().as_millis() >= 33;
        if due {
            self.last = Instant::now();
        }
        due
    }
}

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
    let max_nodes = std::env::args().nth(2).map(|n| n.parse().expect("a node count"));
    let options = Options {
        algorithm: Algorithm::AStar,
        heuristic: Heuristic::Manhattan,
        limits: Limits { max_nodes, ..Limits::default() },
        ..Options::default()
    };
    let solver = Solver::new();
    for round in 0..3 {
        let t = Instant::now();
        let plain = solver.solve(&board, &goal, &options).expect("solves");
        let plain_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut frames = Frames { last: Instant::now(), frames: 0, bytes: 0 };
        let sampled = solver.solve_sampled(&board, &goal, &options, &mut frames).expect("solves");
        let sampled_s = t.elapsed().as_secs_f64();
        assert_eq!(sampled.moves, plain.moves);
        let t = Instant::now();
        let silent = solver.solve_watched(&board, &goal, &options, ()).expect("solves");
        let silent_s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let mut count = Count(0);
        let _ = solver.solve_watched(&board, &goal, &options, &mut count).expect("solves");
        let count_s = t.elapsed().as_secs_f64();
        println!(
            "round {round}: plain {plain_s:.3} s ({} nodes), sampled {sampled_s:.3} s ({} frames), watched by () {silent_s:.3} s ({} nodes), counting {count_s:.3} s ({} nodes)",
            plain.stats.expanded, frames.frames, silent.stats.expanded, count.0
        );
    }
}
