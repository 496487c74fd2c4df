//! How far the goal is, as far as the game knows: a lower bound at once, exact once proven,
//! and never forgotten while the game lasts.
//!
//! Facts come from the solver (a hint proves a board's distance and its neighbours'; an
//! optimal solution proves the distance of every position along it; any solution bounds it
//! from above) and from the rules: one move changes the distance by exactly one, so a
//! position next to one whose distance is known is known to within two, and the distance
//! has the parity of the Manhattan distance (each move changes that by exactly one too).
//! Facts are kept per position, so undo and redo find them again: "47" stays "47" after an
//! undo and a redo instead of falling back to the bare estimate.

use std::collections::HashMap;

use npuzzle_core::{Board, Move};
use npuzzle_solver::HeuristicKind;
use npuzzle_solver::heuristic::GoalMap;

/// Positions remembered before the memory starts again: at most 8 MiB of boards on a
/// 16x16 game, far more positions than a game visits.
const MAX_KNOWN: usize = 1 << 14;

/// How far the goal is, as far as the game knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Exactly this many moves (proven by the solver, or by the rules from what it proved).
    Exact(usize),
    /// At least this many (the linear-conflict lower bound, or better).
    AtLeast(usize),
    /// At least the first, and at most the second (a solution of that length exists).
    Between(usize, usize),
}

impl Distance {
    /// The lower bound (the exact distance when it is known).
    pub fn lower(self) -> usize {
        match self {
            Distance::Exact(n) | Distance::AtLeast(n) | Distance::Between(n, _) => n,
        }
    }

    /// The exact distance, when it is known.
    pub fn exact(self) -> Option<usize> {
        match self {
            Distance::Exact(n) => Some(n),
            _ => None,
        }
    }
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Distance::Exact(n) => write!(f, "{n}"),
            Distance::AtLeast(n) => write!(f, "≥ {n}"),
            Distance::Between(lo, hi) => write!(f, "{lo}–{hi}"),
        }
    }
}

/// Bounds on one position's distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bounds {
    low: usize,
    high: Option<usize>,
}

/// The facts known about the positions of one game, towards one goal.
#[derive(Debug)]
pub struct Distances {
    goal: Board,
    map: GoalMap,
    known: HashMap<Board, Bounds>,
}

impl Distances {
    /// Nothing known yet about the way to `goal`.
    pub fn new(goal: &Board) -> Distances {
        Distances { goal: goal.clone(), map: GoalMap::new(goal), known: HashMap::new() }
    }

    /// The goal the facts are about.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// What is known of `board`'s distance.
    pub fn get(&self, board: &Board) -> Distance {
        let b = self.bounds(board);
        match b.high {
            Some(high) if high <= b.low => Distance::Exact(high),
            Some(high) => Distance::Between(b.low, high),
            None => Distance::AtLeast(b.low),
        }
    }

    /// `board` is exactly `distance` moves from the goal.
    pub fn exact(&mut self, board: &Board, distance: usize) {
        self.learn(board, Bounds { low: distance, high: Some(distance) });
    }

    /// `board` is at least `distance` moves from the goal.
    pub fn at_least(&mut self, board: &Board, distance: usize) {
        self.learn(board, Bounds { low: distance, high: None });
    }

    /// A solution of `moves` from `board`: every position along it is at most as far as
    /// the moves left, exactly that far when the solution is `optimal`.
    pub fn solution(&mut self, board: &Board, moves: &[Move], optimal: bool) {
        let mut position = board.clone();
        for (i, &m) in moves.iter().enumerate() {
            let left = moves.len() - i;
            let low = if optimal { left } else { 0 };
            self.learn(&position, Bounds { low, high: Some(left) });
            if position.apply(m).is_err() {
                return;
            }
        }
    }

    /// The game went from `from` to `to` with `steps` moves: what is known of one tells
    /// about the other, both ways (each move changes the distance by exactly one).
    pub fn moved(&mut self, from: &Board, to: &Board, steps: usize) {
        let (a, b) = (self.bounds(from), self.bounds(to));
        self.learn(to, near(a, steps));
        self.learn(from, near(b, steps));
    }

    /// Bounds stored for `board`, tightened by the estimate and the parity.
    fn bounds(&self, board: &Board) -> Bounds {
        if *board == self.goal {
            return Bounds { low: 0, high: Some(0) };
        }
        let estimate = self.map.estimate(HeuristicKind::LinearConflict, board.tiles()) as usize;
        let stored = self.known.get(board).copied().unwrap_or(Bounds { low: 0, high: None });
        let parity = self.map.estimate(HeuristicKind::Manhattan, board.tiles()) as usize % 2;
        let mut low = stored.low.max(estimate);
        if low % 2 != parity {
            low += 1;
        }
        let high = stored.high.map(|h| if h % 2 != parity { h.saturating_sub(1) } else { h });
        // Facts cannot disagree (they are all proven); should they, the lower bound wins.
        let high = high.map(|h| h.max(low));
        Bounds { low, high }
    }

    fn learn(&mut self, board: &Board, fact: Bounds) {
        if *board == self.goal || (fact.low == 0 && fact.high.is_none()) {
            return;
        }
        if self.known.len() >= MAX_KNOWN && !self.known.contains_key(board) {
            self.known.clear();
        }
        let entry = self.known.entry(board.clone()).or_insert(Bounds { low: 0, high: None });
        entry.low = entry.low.max(fact.low);
        entry.high = match (entry.high, fact.high) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// What bounds on a position say about one `steps` moves away.
fn near(b: Bounds, steps: usize) -> Bounds {
    Bounds { low: b.low.saturating_sub(steps), high: b.high.map(|h| h + steps) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::Goal;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn distances(b: &Board) -> Distances {
        Distances::new(&Goal::BlankLast.board(b.size()).unwrap())
    }

    #[test]
    fn an_estimate_at_once_and_the_goal_exactly() {
        let start = board("8 6 7/2 5 4/3 0 1");
        let d = distances(&start);
        assert_eq!(d.get(&start), Distance::AtLeast(23));
        assert_eq!(d.get(&d.goal().clone()), Distance::Exact(0));
    }

    #[test]
    fn an_exact_distance_survives_undo_and_redo() {
        // The regression: after an undo and a redo, "47" became "≥ 37".
        let start = board("8 6 7/2 5 4/3 0 1");
        let mut d = distances(&start);
        d.exact(&start, 31);
        let next = start.moved(Move::Down).unwrap();
        d.moved(&start, &next, 1);
        d.moved(&next, &start, 1); // undo
        assert_eq!(d.get(&start), Distance::Exact(31));
        d.moved(&start, &next, 1); // redo
        assert!(matches!(d.get(&next), Distance::Between(30, 32) | Distance::Exact(_)));
        assert_eq!(d.get(&start), Distance::Exact(31));
    }

    #[test]
    fn a_neighbour_of_a_known_position_is_known_within_two() {
        let start = board("8 6 7/2 5 4/3 0 1");
        let mut d = distances(&start);
        d.exact(&start, 31);
        for m in start.legal_moves().collect::<Vec<_>>() {
            let next = start.moved(m).unwrap();
            d.moved(&start, &next, 1);
            // 30 or 32, never 31: the parity is fixed.
            assert!(
                matches!(d.get(&next), Distance::Between(30, 32) | Distance::Exact(30 | 32)),
                "{m:?}: {:?}",
                d.get(&next)
            );
        }
        // Once the neighbour is proven, the way back is proven too.
        let next = start.moved(Move::Down).unwrap();
        let mut d = distances(&start);
        d.exact(&next, 30);
        d.moved(&next, &start, 1);
        assert_eq!(d.get(&start), Distance::Between(29, 31));
    }

    #[test]
    fn a_solution_bounds_every_position_along_it() {
        let start = board("4 1 3/0 2 5/7 8 6");
        let goal = Goal::BlankLast.board(start.size()).unwrap();
        let solution = npuzzle_solver::solve(&start, &goal, &Default::default()).unwrap();
        let moves = solution.moves.as_slice();
        let mut d = distances(&start);
        d.solution(&start, moves, true);
        let mut position = start.clone();
        for (i, &m) in moves.iter().enumerate() {
            assert_eq!(d.get(&position), Distance::Exact(moves.len() - i));
            position.apply(m).unwrap();
        }
        // A solution not proven optimal only bounds from above.
        let start = board("8 6 7/2 5 4/3 0 1");
        let solution = npuzzle_solver::solve(&start, &goal, &Default::default()).unwrap();
        let mut d = distances(&start);
        d.solution(&start, solution.moves.as_slice(), false);
        assert_eq!(d.get(&start), Distance::Between(23, 31));
    }

    #[test]
    fn every_3x3_bound_holds_against_the_exact_table() {
        // Walk a thousand random moves, learning only the start's exact distance and what
        // the rules imply; every bound shown must contain the true distance.
        let goal = Goal::BlankLast.board("3x3".parse().unwrap()).unwrap();
        let mut scrambler = npuzzle_core::Scrambler::new(5);
        let start = scrambler.solvable(&goal);
        let exact = |b: &Board| {
            let s = npuzzle_solver::solve(b, &goal, &Default::default()).unwrap();
            assert!(s.optimal);
            s.moves.len()
        };
        let mut d = Distances::new(&goal);
        d.exact(&start, exact(&start));
        let mut position = start;
        let mut seed = 12345u64;
        for _ in 0..1000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let moves: Vec<Move> = position.legal_moves().collect();
            let m = moves[(seed >> 33) as usize % moves.len()];
            let next = position.moved(m).unwrap();
            d.moved(&position, &next, 1);
            position = next;
            let truth = exact(&position);
            match d.get(&position) {
                Distance::Exact(n) => assert_eq!(n, truth),
                Distance::AtLeast(lo) => assert!(lo <= truth),
                Distance::Between(lo, hi) => assert!(lo <= truth && truth <= hi),
            }
        }
    }
}
