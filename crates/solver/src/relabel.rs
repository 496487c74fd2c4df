//! Relabelling tiles so that tables depend only on the board's shape and the goal's blank
//! cell.
//!
//! Every table of this crate (exact distances, the packed engines' line terms) describes one
//! goal. But a table only needs to know where each tile belongs, not what the tile is called:
//! renaming the tiles of a board and of its goal by the same bijection (the blank stays 0)
//! changes no distance, no heuristic value and no move. So a board is solved towards its
//! goal by renaming every tile after the cell it occupies in the goal, counted in reading
//! order ("the canonical goal": `1, 2, ...` row by row, the blank where the goal has it),
//! and solving the renamed board towards the canonical goal, with the same moves. Goals of
//! one shape then share at most one table per blank cell, whatever their numbering: a server
//! that accepts any goal holds at most `cells` tables per shape and heuristic.
//!
//! Blank-last and blank-first goals are already canonical; the snail and explicit goals are
//! renamed. The tests check that a solve under a random goal equals the relabelled solve.

use npuzzle_core::Board;

/// The canonical goal's contents: `1, 2, ...` in reading order, the blank (0) kept where it
/// is in `goal_tiles`.
pub(crate) fn canonical_tiles(goal_tiles: &[u16]) -> Vec<u16> {
    let mut next = 0;
    goal_tiles
        .iter()
        .map(|&t| {
            if t == 0 {
                0
            } else {
                next += 1;
                next
            }
        })
        .collect()
}

/// Whether `goal` is its own canonical goal (no renaming needed), checked without
/// allocating.
pub(crate) fn is_canonical(goal: &Board) -> bool {
    let mut next = 0;
    goal.tiles().iter().all(|&t| {
        t == 0 || {
            next += 1;
            t == next
        }
    })
}

/// The renaming of one goal's tiles into its canonical goal's.
#[derive(Clone, Debug)]
pub(crate) struct Relabel {
    /// `name[t]`: the canonical name of tile `t` (the blank stays 0).
    name: Vec<u16>,
    canonical: Board,
}

impl Relabel {
    /// The renaming for `goal`.
    pub(crate) fn new(goal: &Board) -> Relabel {
        let tiles = goal.tiles();
        let canonical_tiles = canonical_tiles(tiles);
        let mut name = vec![0u16; tiles.len()];
        for (&t, &c) in tiles.iter().zip(&canonical_tiles) {
            name[usize::from(t)] = c;
        }
        let canonical = Board::new(goal.size(), canonical_tiles)
            .expect("a renaming of a permutation is a permutation");
        Relabel { name, canonical }
    }

    /// The canonical goal.
    pub(crate) fn goal(&self) -> &Board {
        &self.canonical
    }

    /// Whether the goal was canonical already (blank-last, blank-first, ...).
    #[cfg(test)]
    pub(crate) fn is_identity(&self) -> bool {
        self.name.iter().enumerate().all(|(t, &n)| usize::from(n) == t)
    }

    /// The caller's name of every canonical tile: the inverse renaming.
    pub(crate) fn names_back(&self) -> Vec<u16> {
        let mut back = vec![0u16; self.name.len()];
        for (t, &c) in self.name.iter().enumerate() {
            back[usize::from(c)] = t as u16;
        }
        back
    }

    /// `board` (of the goal's size) with its tiles renamed.
    pub(crate) fn board(&self, board: &Board) -> Board {
        let tiles = board.tiles().iter().map(|&t| self.name[usize::from(t)]).collect();
        Board::new(board.size(), tiles).expect("a renaming of a permutation is a permutation")
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Parity, Scrambler, Size};

    use super::*;
    use crate::heuristic::{GoalMap, HeuristicKind};

    #[test]
    fn canonical_goals_are_reading_order_around_the_blank() {
        assert_eq!(canonical_tiles(&[1, 2, 3, 8, 0, 4, 7, 6, 5]), [1, 2, 3, 4, 0, 5, 6, 7, 8]);
        let snail = Goal::Snail.board(Size::square(3).unwrap()).unwrap();
        let r = Relabel::new(&snail);
        assert!(!r.is_identity() && !is_canonical(&snail));
        assert_eq!(r.goal().to_string(), "1 2 3/4 0 5/6 7 8");
        assert_eq!(r.board(&snail), *r.goal());
        for goal in [Goal::BlankLast, Goal::BlankFirst] {
            let g = goal.board(Size::new(4, 3).unwrap()).unwrap();
            assert!(Relabel::new(&g).is_identity() && is_canonical(&g));
        }
    }

    #[test]
    fn renaming_keeps_heuristics_moves_and_solvability() {
        let mut s = Scrambler::new(11);
        for (w, h) in [(3, 3), (4, 4), (5, 3)] {
            let size = Size::new(w, h).unwrap();
            for _ in 0..20 {
                // A random goal: any permutation, solvable towards blank-last or not.
                let goal = s.solvable(&Goal::BlankLast.board(size).unwrap());
                let r = Relabel::new(&goal);
                let (map, canonical_map) = (GoalMap::new(&goal), GoalMap::new(r.goal()));
                for _ in 0..10 {
                    let b = s.solvable(&goal);
                    let renamed = r.board(&b);
                    assert!(Parity::of(&renamed, r.goal()).solvable());
                    for kind in HeuristicKind::ALL {
                        assert_eq!(
                            map.estimate(kind, b.tiles()),
                            canonical_map.estimate(kind, renamed.tiles()),
                            "{kind} {b} towards {goal}"
                        );
                    }
                    for m in b.legal_moves() {
                        assert_eq!(r.board(&b.moved(m).unwrap()), renamed.moved(m).unwrap());
                    }
                }
            }
        }
    }
}
