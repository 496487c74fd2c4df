//! Random positions: uniform, random walks, and deliberately unsolvable ones.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::Board;
use crate::moves::{Move, Moves};
use crate::solvable::Parity;

/// A seeded source of random boards. The same seed gives the same boards on every platform
/// (ChaCha8).
///
/// # Examples
/// ```
/// use npuzzle_core::{Goal, Scrambler, Size};
/// let goal = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
/// let a = Scrambler::new(7).solvable(&goal);
/// assert_eq!(a, Scrambler::new(7).solvable(&goal));
/// assert!(a.is_solvable(&goal));
/// ```
#[derive(Clone, Debug)]
pub struct Scrambler {
    rng: ChaCha8Rng,
}

impl Scrambler {
    /// A scrambler with the given seed.
    pub fn new(seed: u64) -> Scrambler {
        Scrambler { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    /// A board drawn uniformly from all boards that can reach `goal`.
    pub fn solvable(&mut self, goal: &Board) -> Board {
        self.uniform(goal, true)
    }

    /// A board drawn uniformly from all boards that can NOT reach `goal`.
    pub fn unsolvable(&mut self, goal: &Board) -> Board {
        self.uniform(goal, false)
    }

    fn uniform(&mut self, goal: &Board, solvable: bool) -> Board {
        let mut tiles = goal.tiles().to_vec();
        tiles.shuffle(&mut self.rng);
        // A shuffle of a valid board's tiles is a valid board.
        let mut b = Board::new(goal.size(), tiles).unwrap_or_else(|_| goal.clone());
        if Parity::of(&b, goal).solvable() != solvable {
            // Swapping the first two non-blank cells flips the permutation parity and keeps
            // the blank; as an involution on boards with that blank cell it maps each half
            // onto the other one to one, so the result stays uniform.
            let mut cells = (0..b.tiles().len()).filter(|&i| i != b.blank());
            if let (Some(i), Some(j)) = (cells.next(), cells.next()) {
                b.swap_cells(i, j);
            }
        }
        b
    }

    /// A random walk of `k` moves from `goal`, never undoing the previous move. Returns the
    /// board and the moves made (their inverse solves it, not necessarily optimally).
    pub fn walk(&mut self, goal: &Board, k: usize) -> (Board, Moves) {
        let mut b = goal.clone();
        let mut moves = Vec::with_capacity(k);
        let mut last: Option<Move> = None;
        for _ in 0..k {
            let mut options = [Move::Up; 4];
            let mut n = 0;
            for m in b.legal_moves() {
                if Some(m.inverse()) != last {
                    options[n] = m;
                    n += 1;
                }
            }
            // Every cell of a board at least 2x2 has two neighbours, so n >= 1.
            let m = options[self.rng.random_range(0..n.max(1))];
            if b.apply(m).is_ok() {
                moves.push(m);
                last = Some(m);
            }
        }
        (b, Moves(moves))
    }

    /// A random number in `0..n` (for callers that need more randomness from the same seed).
    pub fn below(&mut self, n: u64) -> u64 {
        self.rng.random_range(0..n.max(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Goal, Size};
    use std::collections::HashMap;

    #[test]
    fn uniform_scrambles_are_on_the_right_side_of_parity() {
        let mut s = Scrambler::new(1);
        for (w, h) in [(2, 2), (3, 3), (4, 4), (5, 3), (2, 7)] {
            let size = Size::new(w, h).unwrap();
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(size).unwrap();
                for _ in 0..50 {
                    assert!(s.solvable(&g).is_solvable(&g));
                    assert!(!s.unsolvable(&g).is_solvable(&g));
                }
            }
        }
    }

    #[test]
    fn uniform_on_2x2() {
        // 12 solvable 2x2 boards; 12,000 draws should hit each about 1,000 times.
        let g = Goal::BlankLast.board(Size::square(2).unwrap()).unwrap();
        let mut s = Scrambler::new(42);
        let mut counts: HashMap<Board, u32> = HashMap::new();
        for _ in 0..12_000 {
            *counts.entry(s.solvable(&g)).or_default() += 1;
        }
        assert_eq!(counts.len(), 12);
        assert!(counts.values().all(|&c| (850..1150).contains(&c)), "{counts:?}");
    }

    #[test]
    fn walks_never_undo_and_replay() {
        let g = Goal::Snail.board(Size::new(4, 3).unwrap()).unwrap();
        let (b, moves) = Scrambler::new(3).walk(&g, 200);
        assert_eq!(moves.len(), 200);
        assert!(moves.as_slice().windows(2).all(|w| w[1] != w[0].inverse()));
        let mut back = b.clone();
        back.apply_all(&moves.inverse()).unwrap();
        assert_eq!(back, g);
    }
}
