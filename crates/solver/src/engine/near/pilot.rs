//! A measurement, not part of the engine: the pilot method over beams (see "What did not
//! help" in the module's docs).

use std::time::Instant;

use npuzzle_core::{Board, Goal, Move};

use super::beam::{self, Weights};
use super::*;

/// The pilot method on a file's first boards: from the board, a beam (`width`) from each
/// child; go on from the child whose beam reached the goal in the fewest moves, `steps`
/// times; the shortest path seen, shortened by the plain windows. `NEAR_FILE=... LIMIT=20
/// PILOT=5000:10,10000:15 cargo test --release -p npuzzle-solver --lib pilot::experiment --
/// --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a test"]
fn experiment() {
    let rows = super::tables_beam::rows();
    let goal = Goal::BlankLast.board(rows[0].0.size()).unwrap();
    let meter = Meter::unlimited();
    for v in std::env::var("PILOT").unwrap().split(',') {
        let x: Vec<usize> = v.split(':').map(|x| x.parse().unwrap()).collect();
        let (width, steps) = (x[0], x[1]);
        let (mut total, mut first_total, mut secs) = (0, 0, 0.0);
        let mut each = Vec::new();
        for (board, _) in &rows {
            let t = Instant::now();
            let run = |from: &Board| {
                beam::reach(from, &goal, width, 2, 2000, 2, &meter, Weights::BEST).goal()
            };
            let mut best = run(board).unwrap();
            first_total += best.len();
            let mut pos = board.clone();
            let mut prefix: Vec<Move> = Vec::new();
            for _ in 0..steps {
                let mut choice: Option<(usize, Move)> = None;
                for m in Move::ALL {
                    if prefix.last().is_some_and(|l| l.inverse() == m) {
                        continue;
                    }
                    let mut child = pos.clone();
                    if child.apply(m).is_err() {
                        continue;
                    }
                    let Some(rest) = run(&child) else { continue };
                    let len = prefix.len() + 1 + rest.len();
                    if len < best.len() {
                        best = prefix.iter().copied().chain([m]).chain(rest).collect();
                    }
                    if choice.is_none_or(|(l, _)| len < l) {
                        choice = Some((len, m));
                    }
                }
                let Some((_, m)) = choice else { break };
                pos.apply(m).unwrap();
                prefix.push(m);
            }
            super::tables_beam::shorten(board, &mut best, &meter);
            assert!(replays(board, &goal, &best));
            secs += t.elapsed().as_secs_f64();
            total += best.len();
            each.push(best.len());
        }
        let k = rows.len() as f64;
        eprintln!(
            "{v}: mean {:.2} (first beam {:.2} before windows), {:.2} s a board: {each:?}",
            total as f64 / k,
            first_total as f64 / k,
            secs / k
        );
    }
}
