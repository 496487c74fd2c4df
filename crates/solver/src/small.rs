//! The packed engine for boards up to 4x4 (both sides at most 4).
//!
//! A position is two `u64`s, 4 bits per cell: the cells in row-major order and again in
//! column-major order. Every heuristic offered here is a sum over rows plus a sum over
//! columns of terms that depend only on that line's contents (a tile's Manhattan distance
//! depends only on the tile and its cell; a row's conflicts only on the row). So each line's
//! term is precomputed for all 16^w contents, and a heuristic value is `height + width` table
//! loads, with no allocation and no branching on the tiles.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use npuzzle_core::{Board, Move, Moves};

use crate::heuristic::{GoalMap, removals};
use crate::options::Heuristic;

/// A packed position with its heuristic value. Equality and hashing use the cells only.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) rows: u64,
    pub(crate) cols: u64,
    pub(crate) blank: u8,
    pub(crate) h: u8,
}

impl PartialEq for Node {
    fn eq(&self, other: &Node) -> bool {
        self.rows == other.rows
    }
}

impl Eq for Node {}

impl Hash for Node {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.rows);
    }
}

/// Line tables and move tables for one (size, goal, heuristic).
pub(crate) struct Engine {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) goal_rows: u64,
    /// `row_terms[(r << (4 * width)) | contents]`.
    row_terms: Box<[u8]>,
    /// `col_terms[(c << (4 * height)) | contents]`; empty when the heuristic has no column term.
    col_terms: Box<[u8]>,
    /// Column-major index of each row-major cell.
    pub(crate) col_index: [u8; 16],
    /// For each cell and move, what the move changes (so the hot loops never divide).
    pub(crate) steps: [[Step; 4]; 16],
}

/// What one move from one blank cell changes, precomputed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Step {
    /// The cell the blank moves to (`u8::MAX`: the move is illegal).
    pub(crate) to: u8,
    /// Column-major index of `to` and of the blank's cell.
    pub(crate) to_col: u8,
    pub(crate) from_col: u8,
    /// Whether the tile moves vertically (changes row) or horizontally (changes column).
    pub(crate) vertical: bool,
    /// The two lines whose terms change: rows for a vertical move, columns otherwise.
    pub(crate) line_a: u8,
    pub(crate) line_b: u8,
    /// The row of a horizontal move (its term changes with the tile's distance).
    pub(crate) row: u8,
}

/// Whether the packed engine handles boards of this shape.
pub(crate) fn fits(width: usize, height: usize) -> bool {
    width <= 4 && height <= 4
}

impl Engine {
    /// The engine for `goal` and `kind` (`None`: blind, h is always 0), built once per
    /// process and shared.
    pub(crate) fn get(goal: &Board, kind: Option<Heuristic>) -> Arc<Engine> {
        type Cache = Mutex<HashMap<(Board, Option<Heuristic>), Arc<Engine>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let mut map = CACHE.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            map.entry((goal.clone(), kind)).or_insert_with(|| Arc::new(Engine::new(goal, kind))),
        )
    }

    fn new(goal: &Board, kind: Option<Heuristic>) -> Engine {
        let (width, height) = (goal.width(), goal.height());
        debug_assert!(fits(width, height));
        let map = GoalMap::new(goal);
        let cells = width * height;
        // Line terms are computed straight from the decoded line: 16^4 contents per line on
        // 4x4, so no allocation per entry.
        let mut small_buf = [0u16; 64];
        let mut big_buf = Vec::new();
        let mut row_terms = vec![0u8; height << (4 * width)];
        for r in 0..height {
            for contents in 0..1usize << (4 * width) {
                let tile = |x: usize| ((contents >> (4 * x)) & 0xF) as u16;
                if (0..width).any(|x| usize::from(tile(x)) >= cells) {
                    continue;
                }
                let cell = |x: usize| r * width + x;
                let term = match kind {
                    None => 0,
                    Some(Heuristic::Hamming) => (0..width)
                        .filter(|&x| tile(x) != 0 && map.distance(tile(x), cell(x)) != 0)
                        .count() as u32,
                    Some(Heuristic::Manhattan) => {
                        (0..width).map(|x| map.distance(tile(x), cell(x))).sum()
                    }
                    Some(Heuristic::LinearConflict | Heuristic::Auto) => {
                        let dist: u32 = (0..width).map(|x| map.distance(tile(x), cell(x))).sum();
                        let in_row = (0..width)
                            .map(tile)
                            .filter(|&t| t != 0 && map.goal_of(t).1 == r)
                            .map(|t| map.goal_of(t).0 as u16);
                        dist + 2 * removals(in_row, &mut small_buf, &mut big_buf)
                    }
                };
                row_terms[(r << (4 * width)) | contents] = term as u8;
            }
        }
        let mut col_terms = Vec::new();
        if matches!(kind, Some(Heuristic::LinearConflict | Heuristic::Auto)) {
            col_terms = vec![0u8; width << (4 * height)];
            for c in 0..width {
                for contents in 0..1usize << (4 * height) {
                    let tile = |y: usize| ((contents >> (4 * y)) & 0xF) as u16;
                    if (0..height).any(|y| usize::from(tile(y)) >= cells) {
                        continue;
                    }
                    let in_col = (0..height)
                        .map(tile)
                        .filter(|&t| t != 0 && map.goal_of(t).0 == c)
                        .map(|t| map.goal_of(t).1 as u16);
                    col_terms[(c << (4 * height)) | contents] =
                        (2 * removals(in_col, &mut small_buf, &mut big_buf)) as u8;
                }
            }
        }
        let mut col_index = [0u8; 16];
        let mut neighbours = [[u8::MAX; 4]; 16];
        for i in 0..cells {
            let (x, y) = (i % width, i / width);
            col_index[i] = (x * height + y) as u8;
            for (k, m) in Move::ALL.into_iter().enumerate() {
                let (dx, dy) = m.blank_delta();
                if let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) {
                    if nx < width && ny < height {
                        neighbours[i][k] = (ny * width + nx) as u8;
                    }
                }
            }
        }
        let mut steps = [[Step { to: u8::MAX, ..Step::default() }; 4]; 16];
        for b in 0..cells {
            for k in 0..4 {
                let to = neighbours[b][k];
                if to == u8::MAX {
                    continue;
                }
                let to = usize::from(to);
                let vertical = b % width == to % width;
                let (line_a, line_b) =
                    if vertical { (b / width, to / width) } else { (b % width, to % width) };
                steps[b][k] = Step {
                    to: to as u8,
                    to_col: col_index[to],
                    from_col: col_index[b],
                    vertical,
                    line_a: line_a as u8,
                    line_b: line_b as u8,
                    row: (b / width) as u8,
                };
            }
        }
        let mut engine = Engine {
            steps,
            width,
            height,
            goal_rows: 0,
            row_terms: row_terms.into_boxed_slice(),
            col_terms: col_terms.into_boxed_slice(),
            col_index,
        };
        engine.goal_rows = engine.pack(goal).rows;
        engine
    }

    /// The packed form of `board` (which must have this engine's size).
    pub(crate) fn pack(&self, board: &Board) -> Node {
        let mut rows = 0u64;
        let mut cols = 0u64;
        for (i, &t) in board.tiles().iter().enumerate() {
            rows |= u64::from(t) << (4 * i);
            cols |= u64::from(t) << (4 * usize::from(self.col_index[i]));
        }
        Node { rows, cols, blank: board.blank() as u8, h: self.h(rows, cols) }
    }

    /// The heuristic term of row `r` of `rows`.
    #[inline]
    pub(crate) fn row_term(&self, rows: u64, r: usize) -> u8 {
        let wbits = 4 * self.width;
        let contents = ((rows >> (wbits * r)) & ((1u64 << wbits) - 1)) as usize;
        self.row_terms[(r << wbits) | contents]
    }

    /// The heuristic term of column `c` of `cols` (0 when the heuristic has none).
    #[inline]
    pub(crate) fn col_term(&self, cols: u64, c: usize) -> u8 {
        if self.col_terms.is_empty() {
            return 0;
        }
        let hbits = 4 * self.height;
        let contents = ((cols >> (hbits * c)) & ((1u64 << hbits) - 1)) as usize;
        self.col_terms[(c << hbits) | contents]
    }

    #[inline]
    fn h(&self, rows: u64, cols: u64) -> u8 {
        let wbits = 4 * self.width;
        let wmask = (1u64 << wbits) - 1;
        let mut h = 0u8;
        for r in 0..self.height {
            let contents = ((rows >> (wbits * r)) & wmask) as usize;
            h += self.row_terms[(r << wbits) | contents];
        }
        if !self.col_terms.is_empty() {
            let hbits = 4 * self.height;
            let hmask = (1u64 << hbits) - 1;
            for c in 0..self.width {
                let contents = ((cols >> (hbits * c)) & hmask) as usize;
                h += self.col_terms[(c << hbits) | contents];
            }
        }
        h
    }

    /// Whether `node` is the goal.
    #[inline]
    pub(crate) fn is_goal(&self, node: &Node) -> bool {
        node.rows == self.goal_rows
    }

    /// The positions one move from `node`, with their heuristic values.
    #[inline]
    pub(crate) fn successors(&self, node: &Node) -> impl Iterator<Item = Node> + use<> {
        let mut out = [None; 4];
        for (k, st) in self.steps[usize::from(node.blank)].iter().enumerate() {
            if st.to != u8::MAX {
                out[k] = Some(self.child(node, st));
            }
        }
        out.into_iter().flatten()
    }

    /// The position after move `st` from `node`, with its heuristic updated from the lines that
    /// changed: a vertical move changes two rows (a column keeps the order of its tiles); a
    /// horizontal move changes one row's distances and two columns.
    #[inline(always)]
    pub(crate) fn child(&self, node: &Node, st: &Step) -> Node {
        let (b, to) = (usize::from(node.blank), usize::from(st.to));
        let t = (node.rows >> (4 * to)) & 0xF;
        let rows = (node.rows & !(0xF << (4 * to))) | (t << (4 * b));
        let (ct, cb) = (usize::from(st.to_col), usize::from(st.from_col));
        let cols = (node.cols & !(0xF << (4 * ct))) | (t << (4 * cb));
        let (la, lb) = (usize::from(st.line_a), usize::from(st.line_b));
        let mut h = i32::from(node.h);
        if st.vertical {
            h += i32::from(self.row_term(rows, la)) + i32::from(self.row_term(rows, lb))
                - i32::from(self.row_term(node.rows, la))
                - i32::from(self.row_term(node.rows, lb));
        } else {
            let r = usize::from(st.row);
            h += i32::from(self.row_term(rows, r)) - i32::from(self.row_term(node.rows, r))
                + i32::from(self.col_term(cols, la))
                + i32::from(self.col_term(cols, lb))
                - i32::from(self.col_term(node.cols, la))
                - i32::from(self.col_term(node.cols, lb));
        }
        Node { rows, cols, blank: st.to, h: h as u8 }
    }

    /// The moves along a path of positions.
    pub(crate) fn moves(&self, path: &[Node]) -> Moves {
        let w = self.width as isize;
        Moves(
            path.windows(2)
                .filter_map(|p| {
                    let (a, b) = (isize::from(p[0].blank), isize::from(p[1].blank));
                    Move::from_blank_delta(b % w - a % w, b / w - a / w)
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler, Size};

    #[test]
    fn table_heuristics_equal_the_generic_ones() {
        let mut s = Scrambler::new(9);
        for (w, h) in [(2, 2), (3, 3), (4, 4), (4, 3), (3, 4), (2, 4)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let map = GoalMap::new(&g);
                for kind in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict] {
                    let e = Engine::new(&g, Some(kind));
                    for _ in 0..50 {
                        let b = s.solvable(&g);
                        let node = e.pack(&b);
                        assert_eq!(u32::from(node.h), map.estimate(kind, b.tiles()), "{kind} {b}");
                        for m in b.legal_moves() {
                            let c = b.moved(m).unwrap();
                            let n = e.successors(&node).find(|n| *n == e.pack(&c)).unwrap();
                            assert_eq!(u32::from(n.h), map.estimate(kind, c.tiles()));
                            assert_eq!(e.moves(&[node, n]).as_slice(), &[m]);
                        }
                    }
                }
            }
        }
    }
}
