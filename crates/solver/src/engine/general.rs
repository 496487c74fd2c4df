//! The general engine: positions as boxed tile arrays, for every size the packed engine
//! does not cover. Heuristics are updated incrementally: a move changes one tile's distance
//! and the conflicts of the two lines it leaves and enters.

use std::hash::{Hash, Hasher};

use npuzzle_core::{Board, Move, Moves, Size};

use crate::heuristic::GoalMap;
use crate::heuristic::HeuristicKind;

/// A position with its heuristic value. Equality and hashing use the cells only.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    tiles: Box<[u16]>,
    blank: u32,
    pub(crate) h: u32,
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.tiles == other.tiles
    }
}

impl Eq for Node {}

impl Hash for Node {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.tiles.hash(state);
    }
}

/// Goal data and neighbour logic for one (size, goal, heuristic).
pub(crate) struct GeneralEngine {
    size: Size,
    map: GoalMap,
    kind: Option<HeuristicKind>,
    goal: Box<[u16]>,
}

impl GeneralEngine {
    /// An engine for `goal`; `kind` is `None` for blind searches (h is always 0).
    pub(crate) fn new(goal: &Board, kind: Option<HeuristicKind>) -> GeneralEngine {
        GeneralEngine {
            size: goal.size(),
            map: GoalMap::new(goal),
            kind,
            goal: goal.tiles().into(),
        }
    }

    /// Heap bytes one node owns, for memory accounting.
    pub(crate) fn node_bytes(&self) -> usize {
        self.size.cells() * 2
    }

    pub(crate) fn node(&self, board: &Board) -> Node {
        let h = self.kind.map_or(0, |k| self.map.estimate(k, board.tiles()));
        Node { tiles: board.tiles().into(), blank: board.blank() as u32, h }
    }

    /// The position of `node` as a board (`None` cannot happen: nodes are permutations).
    pub(crate) fn board(&self, node: &Node) -> Option<Board> {
        Board::new(self.size, node.tiles.to_vec()).ok()
    }

    #[inline]
    pub(crate) fn is_goal(&self, node: &Node) -> bool {
        node.tiles == self.goal
    }

    /// The positions one move from `node`.
    pub(crate) fn successors(&self, node: &Node) -> impl Iterator<Item = Node> + use<> {
        let w = self.size.width();
        let b = node.blank as usize;
        let (x, y) = (b % w, b / w);
        let mut out: [Option<Node>; 4] = [None, None, None, None];
        for (k, m) in Move::ALL.into_iter().enumerate() {
            let (dx, dy) = m.blank_delta();
            let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else {
                continue;
            };
            if nx < w && ny < self.size.height() {
                out[k] = Some(self.slide(node, ny * w + nx));
            }
        }
        out.into_iter().flatten()
    }

    fn slide(&self, node: &Node, to: usize) -> Node {
        let b = node.blank as usize;
        let mut tiles = node.tiles.clone();
        let t = tiles[to];
        tiles.swap(b, to);
        let h = match self.kind {
            None => 0,
            Some(kind) => {
                let before = self.map.distance(t, to) as i64;
                let after = self.map.distance(t, b) as i64;
                let delta = match kind {
                    HeuristicKind::Hamming => i64::from(after != 0) - i64::from(before != 0),
                    HeuristicKind::Manhattan => after - before,
                    HeuristicKind::LinearConflict
                    | HeuristicKind::WalkingDistance
                    | HeuristicKind::Pdb => {
                        let w = self.size.width();
                        let lines = |tiles: &[u16]| -> i64 {
                            if to % w == b % w {
                                // Vertical move: the tile changes row; column order is kept.
                                i64::from(
                                    self.map.row_conflict(tiles, to / w)
                                        + self.map.row_conflict(tiles, b / w),
                                )
                            } else {
                                i64::from(
                                    self.map.column_conflict(tiles, to % w)
                                        + self.map.column_conflict(tiles, b % w),
                                )
                            }
                        };
                        after - before + lines(&tiles) - lines(&node.tiles)
                    }
                };
                (i64::from(node.h) + delta) as u32
            }
        };
        Node { tiles, blank: to as u32, h }
    }

    /// The moves along a path of positions.
    pub(crate) fn moves(&self, path: &[Node]) -> Moves {
        let w = self.size.width() as isize;
        Moves(
            path.windows(2)
                .filter_map(|p| {
                    let (a, b) = (p[0].blank as isize, p[1].blank as isize);
                    Move::from_blank_delta(b % w - a % w, b / w - a / w)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler};

    #[test]
    fn incremental_heuristics_equal_full_recomputation() {
        let mut s = Scrambler::new(11);
        for (w, h) in [(5, 5), (2, 6), (7, 3), (3, 3)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let map = GoalMap::new(&g);
                for kind in HeuristicKind::ALL {
                    let e = GeneralEngine::new(&g, Some(kind));
                    let mut b = s.solvable(&g);
                    let mut node = e.node(&b);
                    for _ in 0..200 {
                        let next: Vec<Node> = e.successors(&node).collect();
                        let pick = next[s.below(next.len() as u64) as usize].clone();
                        let m = e.moves(&[node.clone(), pick.clone()]).as_slice()[0];
                        b.apply(m).unwrap();
                        assert_eq!(pick.h, map.estimate(kind, b.tiles()), "{kind} {b}");
                        node = pick;
                    }
                }
            }
        }
    }
}
