//! Beam search over the reduction's choices, for the anytime mode.
//!
//! A reduction makes one choice per line: which side to peel, in what order to fill it, how
//! the blank weighs its walks. Whole random restarts rarely find a better combination;
//! choosing line by line does: from each kept partial solution, peel the next line several
//! ways, score each result by the moves made plus an estimate of the moves still to come
//! (`LOOKAHEAD` times the Manhattan distance left in the region), keep the best few.

use std::sync::Arc;

use npuzzle_core::{Board, Move};

use super::grid::Scratch;
use super::reduce::{Failure, Fill, GoalInfo, Reducer, Strategy};
use super::rng::SplitMix;

/// Moves expected per unit of Manhattan distance left: the plain solver's ratio.
const LOOKAHEAD: f64 = 2.6;

/// Blank step costs tried (see `Grid::blank_path`); all about as good on average, so each
/// line can pick the one that suits it.
pub(super) const COSTS: [(u32, u32); 6] = [(1, 10), (1, 6), (1, 8), (1, 14), (2, 13), (2, 19)];

const FILLS: [Fill; 3] = [Fill::Cheapest, Fill::Forward, Fill::Backward];

/// The moves of a partial solution, shared between the nodes that extend it.
struct Trail {
    moves: Vec<Move>,
    parent: Option<Arc<Trail>>,
}

/// A partial solution in the beam.
#[derive(Clone)]
struct Node {
    /// The reduction so far; its own move list holds only the moves not yet in `trail`.
    reducer: Reducer,
    trail: Option<Arc<Trail>>,
    length: usize,
    score: f64,
}

impl Node {
    /// Moves the reducer's recent moves into a new trail segment.
    fn seal(&mut self) {
        let moves = std::mem::take(&mut self.reducer.grid.moves);
        if !moves.is_empty() {
            self.length += moves.len();
            self.trail = Some(Arc::new(Trail { moves, parent: self.trail.take() }));
        }
        self.score = self.length as f64 + LOOKAHEAD * self.reducer.region_manhattan() as f64;
    }

    fn moves(&self) -> Vec<Move> {
        let mut parts = Vec::new();
        let mut at = self.trail.as_ref();
        while let Some(t) = at {
            parts.push(&t.moves);
            at = t.parent.as_ref();
        }
        let mut out = Vec::with_capacity(self.length + self.reducer.grid.moves.len());
        for p in parts.into_iter().rev() {
            out.extend_from_slice(p);
        }
        out.extend_from_slice(&self.reducer.grid.moves);
        out
    }
}

/// One beam search keeping `width` partial solutions and trying `children` ways to peel
/// each line from each. Returns the raw (not cleaned up) solution.
pub(super) fn search(
    board: &Board,
    goal: &Arc<GoalInfo>,
    width: usize,
    children: usize,
    seed: u64,
    interrupted: &dyn Fn() -> bool,
) -> Result<Vec<Move>, Failure> {
    let mut rng = SplitMix::new(seed);
    let strategy = Strategy { big_finish: rng.coin(), ..Strategy::PLAIN };
    let start = Reducer::new(board, Arc::clone(goal), &strategy);
    let mut scratch = Scratch::new(board.tiles().len());
    let mut beam = vec![Node { reducer: start, trail: None, length: 0, score: 0.0 }];
    while beam.iter().any(|n| !n.reducer.is_small()) {
        if interrupted() {
            return Err(Failure::Interrupted);
        }
        let mut next: Vec<Node> = Vec::with_capacity(beam.len() * children);
        for node in &beam {
            if node.reducer.is_small() {
                next.push(node.clone());
                continue;
            }
            let sides = node.reducer.sides();
            if sides.is_empty() {
                return Err(Failure::Stuck);
            }
            for k in 0..children {
                let mut child = node.clone();
                let side = sides[k % sides.len()];
                let fill = FILLS[(k / sides.len()) % FILLS.len()];
                // The first child of each node repeats the plain choices, so a beam never
                // does worse than the plain solver by construction of its first path.
                let plain = k == 0;
                let side = if plain { node.reducer.default_side() } else { side };
                let fill = if plain { Fill::Cheapest } else { fill };
                child.reducer.grid.costs =
                    if plain { COSTS[0] } else { COSTS[rng.below(COSTS.len())] };
                let ties = if plain || k < sides.len() { None } else { Some(&mut rng) };
                // The plain child tries both ends of its line for each tile (see
                // `Strategy::trials`). On 10 seeded 32x32 boards, 1 s: 2.457 x Manhattan
                // without trials, 2.442 with them in the plain child only, 2.449 in every
                // other child, 2.454 in all (each trial doubles a child's time).
                child.reducer.trials = plain;
                if child.reducer.peel(&mut scratch, side, fill, ties).is_ok() {
                    child.seal();
                    next.push(child);
                }
            }
        }
        if next.is_empty() {
            return Err(Failure::Stuck);
        }
        next.sort_by(|a, b| a.score.total_cmp(&b.score));
        next.truncate(width);
        beam = next;
    }
    let mut best: Option<Vec<Move>> = None;
    for mut node in beam {
        if node.reducer.finish().is_ok() {
            let moves = node.moves();
            if best.as_ref().is_none_or(|b| moves.len() < b.len()) {
                best = Some(moves);
            }
        }
    }
    best.ok_or(Failure::Stuck)
}
