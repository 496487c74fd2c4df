//! Solvability relative to any goal, for every board shape.

use std::fmt;

use crate::board::Board;

/// Whether a board can reach a goal, and why not when it cannot.
///
/// Every move swaps the blank with a neighbour: it flips the parity of the permutation
/// (blank included) that takes the board to the goal, and it flips the colour of the blank's
/// cell on a checkerboard. So the two parities must agree: the permutation parity must
/// equal the parity of the blank's taxicab distance to its goal cell. On every rectangular
/// board with both sides at least 2 the condition is also sufficient (Wilson 1974; checked
/// against exhaustive search on 2x2, 2x3, 3x2, 2x4 and 3x3 in the tests). The tutorials'
/// rule "even number of inversions" is this rule specialised to odd widths with the blank
/// last; it is wrong for even widths and for other goals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parity {
    /// Parity of the permutation from the board to the goal (blank counted as a tile).
    pub permutation_odd: bool,
    /// Parity of the blank's taxicab distance to its goal cell.
    pub blank_distance_odd: bool,
}

impl Parity {
    /// The parities of `board` relative to `goal` (which must be of the same size).
    pub fn of(board: &Board, goal: &Board) -> Parity {
        debug_assert_eq!(board.size(), goal.size());
        let goal_pos = goal.positions();
        // Cycle decomposition of i -> goal position of the tile at i.
        let n = board.tiles().len();
        let mut seen = vec![false; n];
        let mut cycles = 0usize;
        for start in 0..n {
            if seen[start] {
                continue;
            }
            cycles += 1;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = goal_pos[usize::from(board.tiles()[i])];
            }
        }
        let (bx, by) = board.blank_xy();
        let (gx, gy) = goal.blank_xy();
        Parity {
            permutation_odd: (n - cycles) % 2 == 1,
            blank_distance_odd: (bx.abs_diff(gx) + by.abs_diff(gy)) % 2 == 1,
        }
    }

    /// Whether the board can reach the goal.
    pub fn solvable(self) -> bool {
        self.permutation_odd == self.blank_distance_odd
    }
}

impl fmt::Display for Parity {
    /// A one-line explanation, for example "the tile permutation is odd but the blank is
    /// an even number of moves from its goal cell".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = |odd: bool| if odd { "odd" } else { "even" };
        let joint = if self.solvable() { "and" } else { "but" };
        write!(
            f,
            "the tile permutation is {} {joint} the blank is an {} number of moves from its goal cell",
            word(self.permutation_odd),
            word(self.blank_distance_odd)
        )
    }
}

impl Board {
    /// Whether this board can be brought to `goal` (a board of the same size).
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal};
    /// let b: Board = "1 2 3/4 5 6/8 7 0".parse().unwrap();
    /// let goal = Goal::BlankLast.board(b.size()).unwrap();
    /// assert!(!b.is_solvable(&goal));
    /// ```
    pub fn is_solvable(&self, goal: &Board) -> bool {
        Parity::of(self, goal).solvable()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Goal, Move, Size};
    use std::collections::{HashSet, VecDeque};

    /// Every board reachable from `goal`, by breadth-first search.
    fn reachable(goal: &Board) -> HashSet<Board> {
        let mut seen = HashSet::from([goal.clone()]);
        let mut queue = VecDeque::from([goal.clone()]);
        while let Some(b) = queue.pop_front() {
            for m in Move::ALL {
                if let Some(n) = b.moved(m) {
                    if seen.insert(n.clone()) {
                        queue.push_back(n);
                    }
                }
            }
        }
        seen
    }

    /// All permutations of `0..n`, by Heap's algorithm.
    fn permutations(n: usize) -> Vec<Vec<u16>> {
        fn go(k: usize, a: &mut Vec<u16>, out: &mut Vec<Vec<u16>>) {
            if k <= 1 {
                out.push(a.clone());
                return;
            }
            for i in 0..k {
                go(k - 1, a, out);
                if k % 2 == 0 { a.swap(i, k - 1) } else { a.swap(0, k - 1) }
            }
        }
        let mut out = Vec::new();
        go(n, &mut (0..n as u16).collect(), &mut out);
        out
    }

    #[test]
    fn parity_rule_matches_brute_force_reachability() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3)] {
            let size = Size::new(w, h).unwrap();
            let perms = permutations(size.cells());
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(size).unwrap();
                let reach = reachable(&g);
                assert_eq!(reach.len(), perms.len() / 2, "{size} {goal}");
                for p in &perms {
                    let b = Board::new(size, p.clone()).unwrap();
                    assert_eq!(b.is_solvable(&g), reach.contains(&b), "{size} {goal} {b}");
                }
            }
        }
    }

    #[test]
    fn explains_unsolvable_boards() {
        let b: Board = "1 2 3/4 5 6/8 7 0".parse().unwrap();
        let g = Goal::BlankLast.board(b.size()).unwrap();
        assert_eq!(
            Parity::of(&b, &g).to_string(),
            "the tile permutation is odd but the blank is an even number of moves from its goal cell"
        );
    }
}
