//! The packed engine for boards up to 4x4 (both sides at most 4).
//!
//! A position is two `u64`s, 4 bits per cell: the cells in row-major order and again in
//! column-major order. Every heuristic offered here is a sum over rows plus a sum over
//! columns of terms that depend only on that line's contents (a tile's Manhattan distance
//! depends only on the tile and its cell; a row's conflicts only on the row). So each line's
//! term is precomputed for all 16^w contents, and a heuristic value is `height + width` table
//! loads, with no allocation and no branching on the tiles.

use std::hash::{Hash, Hasher};

use std::time::Instant;

use npuzzle_core::{Board, Move, Moves, Size};
use npuzzle_search::{Bound, Expand, Flow, Frontier, Progress};

use crate::heuristic::{GoalMap, HeuristicKind, removals};

pub(crate) mod astar;
pub(crate) mod bfs;
mod closed;
pub(crate) mod idastar;

/// What a packed search shows while it runs (node-free events: bound changes and periodic
/// progress, both at points where the search already checks its limits, so they cost
/// nothing per node; and the nodes a [`Sampler`](crate::Sampler) asks for there), and the
/// lower bound on the answer it has proven so far.
pub(crate) struct Watch<'a> {
    observer: &'a mut dyn crate::Sampler,
    /// The board's size, to unpack samples.
    size: Option<Size>,
    clock: Instant,
    /// The largest bound proven: IDA*'s last bound started, A*'s f layer being expanded.
    pub(crate) lower_bound: u32,
}

impl<'a> Watch<'a> {
    /// Watches a search that starts now, from a position whose heuristic is `h`.
    pub(crate) fn new(observer: &'a mut dyn crate::Sampler, h: u32) -> Watch<'a> {
        Watch { observer, size: None, clock: Instant::now(), lower_bound: h }
    }

    /// Samples are boards of `size`.
    pub(crate) fn with_size(mut self, size: Size) -> Watch<'a> {
        self.size = Some(size);
        self
    }

    /// Whether the sampler wants to see the node about to be expanded after `expanded`.
    #[cold]
    pub(crate) fn wants(&mut self, expanded: u64) -> bool {
        self.size.is_some() && self.observer.wants(expanded)
    }

    /// Shows the sampler the position `rows` about to be expanded, at cost `g` with
    /// heuristic `h`, with the list sizes and the open list if the search has one.
    #[cold]
    pub(crate) fn sample(
        &mut self,
        rows: u64,
        (g, h): (u32, u32),
        (open, closed): (usize, usize),
        frontier: Option<&dyn Frontier<Board, u32>>,
    ) -> Flow {
        let Some(board) = self.size.and_then(|size| crate::sample::unpack(size, rows)) else {
            return Flow::Continue;
        };
        let mut event = Expand::new(&board, g, h).with_lists(open, closed);
        if let Some(frontier) = frontier {
            event = event.with_frontier(frontier);
        }
        self.observer.expand(&event)
    }

    /// The search has proven that no answer is shorter than `bound`.
    #[cold]
    pub(crate) fn bound(&mut self, bound: u32, expanded: u64) -> Flow {
        self.lower_bound = self.lower_bound.max(bound);
        self.observer.bound(&Bound::new(bound, expanded))
    }

    /// Periodic statistics.
    #[cold]
    pub(crate) fn progress(&mut self, expanded: u64, generated: u64, frontier: u64) -> Flow {
        self.observer.progress(&Progress::new(expanded, generated, frontier, self.clock))
    }
}

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
pub(crate) struct PackedEngine {
    /// The board's size.
    size: Size,
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) goal_rows: u64,
    /// Every line's term for every contents: `terms[(r << (4 * width)) | contents]` for row
    /// `r`, then from `col_base`, `terms[col_base + ((c << (4 * height)) | contents)]` for
    /// column `c` (only when the heuristic has column terms).
    terms: Box<[u8; TERMS_LEN]>,
    col_base: usize,
    /// Linear conflict only: the conflict term (twice the tiles to remove) of every line
    /// and contents, rows from 0 (`r << (4 * width)`), columns from `height << (4 *
    /// width)` (`c << (4 * height)` past that), then a block of zeros (see [`LineStep::line`]).
    conflicts: Box<[u8]>,
    /// Whether the heuristic has column terms (linear conflict does).
    has_cols: bool,
    /// Whether there is no heuristic (every term is 0).
    pub(crate) blind: bool,
    /// `(1 << (4 * width)) - 1` and `(1 << (4 * height)) - 1`: one line of each word.
    row_mask: u64,
    col_mask: u64,
    /// Column-major index of each row-major cell.
    pub(crate) col_index: [u8; 16],
    /// For each cell and move, what the move changes (so the hot loops never divide).
    pub(crate) steps: [[LineStep; 4]; 16],
    /// For each blank cell and last move (4: none), the moves worth trying: the legal ones
    /// except the last move's inverse, as `(count, moves)`. One short loop instead of a
    /// legality test and an inverse test per move.
    next: [[(u8, [u8; 4]); 5]; 16],
}

/// What one move from one blank cell changes, precomputed so that the hot loops only shift,
/// mask and load.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LineStep {
    /// The cell the blank moves to (`u8::MAX`: the move is illegal).
    pub(crate) to: u8,
    /// Bit offsets of the moving tile in the row-major word, before and after the move.
    row_from: u8,
    row_to: u8,
    /// The same in the column-major word.
    col_from: u8,
    col_to: u8,
    /// Whether the tile moves vertically (changes row) or horizontally (changes column).
    pub(crate) vertical: bool,
    /// `delta[t]`: how the moving tile's own term (its distance, or for Hamming whether it
    /// is misplaced) changes when the tile is `t`: for every heuristic but linear conflict,
    /// the whole change of h.
    delta: [i8; 16],
    /// Linear conflict: `line[t]` is the one line whose conflicts can change when tile `t`
    /// moves, as `shift << 24 | offset` into `PackedEngine::conflicts` (the row-major word for a
    /// vertical move, the column-major word for a horizontal one). A vertical move takes
    /// the tile from one row to another, and only the row it belongs to (if it is one of
    /// the two) has conflicts involving it; likewise columns. When neither line is the
    /// tile's own, the entry points at a block of zeros.
    line: [u32; 16],
}

/// The length of [`PackedEngine::terms`]: room for the row and column tables of every shape up to
/// 4x4 (at most 4 rows and 4 columns of 16^4 contents), so that code compiled for one shape
/// indexes a fixed-size array with indices the compiler can bound, and needs no checks.
pub(crate) const TERMS_LEN: usize = 8 << 16;

/// Whether the packed engine handles boards of this shape.
pub(crate) fn fits(width: usize, height: usize) -> bool {
    width <= 4 && height <= 4
}

impl PackedEngine {
    /// The engine for `goal` and `kind` (`None`: blind, h is always 0). The
    /// [`crate::Solver`] keeps one per (shape, blank cell of the goal, heuristic): with the
    /// tiles relabelled, that is all the tables depend on.
    pub(crate) fn new(goal: &Board, kind: Option<HeuristicKind>) -> PackedEngine {
        let (width, height) = (goal.width(), goal.height());
        debug_assert!(fits(width, height));
        let map = GoalMap::new(goal);
        let cells = width * height;
        // Line terms are computed straight from the decoded line: 16^4 contents per line on
        // 4x4, so no allocation per entry.
        let mut small_buf = [0u16; 64];
        let mut big_buf = Vec::new();
        let mut row_terms = vec![0u8; height << (4 * width)];
        let mut row_conflicts = vec![0u8; height << (4 * width)];
        for r in 0..height {
            for contents in 0..1usize << (4 * width) {
                let tile = |x: usize| ((contents >> (4 * x)) & 0xF) as u16;
                if (0..width).any(|x| usize::from(tile(x)) >= cells) {
                    continue;
                }
                let cell = |x: usize| r * width + x;
                let term = match kind {
                    None => 0,
                    Some(HeuristicKind::Hamming) => (0..width)
                        .filter(|&x| tile(x) != 0 && map.distance(tile(x), cell(x)) != 0)
                        .count() as u32,
                    Some(HeuristicKind::Manhattan) => {
                        (0..width).map(|x| map.distance(tile(x), cell(x))).sum()
                    }
                    Some(
                        HeuristicKind::LinearConflict
                        | HeuristicKind::WalkingDistance
                        | HeuristicKind::Pdb,
                    ) => {
                        let dist: u32 = (0..width).map(|x| map.distance(tile(x), cell(x))).sum();
                        let in_row = (0..width)
                            .map(tile)
                            .filter(|&t| t != 0 && map.goal_of(t).1 == r)
                            .map(|t| map.goal_of(t).0 as u16);
                        let conflicts = 2 * removals(in_row, &mut small_buf, &mut big_buf);
                        row_conflicts[(r << (4 * width)) | contents] = conflicts as u8;
                        dist + conflicts
                    }
                };
                row_terms[(r << (4 * width)) | contents] = term as u8;
            }
        }
        let mut col_terms = Vec::new();
        if matches!(
            kind,
            Some(
                HeuristicKind::LinearConflict | HeuristicKind::WalkingDistance | HeuristicKind::Pdb
            )
        ) {
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
        let mut steps = [[LineStep { to: u8::MAX, ..LineStep::default() }; 4]; 16];
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
                let zeros = (row_conflicts.len() + col_terms.len()) as u32;
                let mut line = [zeros; 16];
                for (t, l) in line.iter_mut().enumerate().take(cells).skip(1) {
                    let (goal_x, goal_y) = map.goal_of(t as u16);
                    let own = if vertical { goal_y } else { goal_x };
                    if own == line_a || own == line_b {
                        *l = if vertical {
                            ((4 * width * own) << 24 | own << (4 * width)) as u32
                        } else {
                            ((4 * height * own) << 24
                                | (row_conflicts.len() + (own << (4 * height))))
                                as u32
                        };
                    }
                }
                // The tile on `to` moves to `b`.
                let mut delta = [0i8; 16];
                for (t, d) in delta.iter_mut().enumerate().take(cells).skip(1) {
                    let t = t as u16;
                    let (before, after) = (map.distance(t, to), map.distance(t, b));
                    *d = match kind {
                        None => 0,
                        Some(HeuristicKind::Hamming) => {
                            i8::from(after != 0) - i8::from(before != 0)
                        }
                        Some(
                            HeuristicKind::Manhattan
                            | HeuristicKind::LinearConflict
                            | HeuristicKind::WalkingDistance
                            | HeuristicKind::Pdb,
                        ) => after as i8 - before as i8,
                    };
                }
                steps[b][k] = LineStep {
                    to: to as u8,
                    row_from: (4 * to) as u8,
                    row_to: (4 * b) as u8,
                    col_from: 4 * col_index[to],
                    col_to: 4 * col_index[b],
                    vertical,
                    delta,
                    line,
                };
            }
        }
        let has_cols = !col_terms.is_empty();
        let col_base = row_terms.len();
        let mut conflicts = Vec::new();
        if has_cols {
            conflicts = row_conflicts;
            conflicts.extend_from_slice(&col_terms);
            conflicts.resize(conflicts.len() + (1 << (4 * width.max(height))), 0);
        }
        // Zeroed memory of a fixed length: the pages past the tables are never touched.
        let mut terms = vec![0u8; TERMS_LEN];
        terms[..row_terms.len()].copy_from_slice(&row_terms);
        terms[col_base..col_base + col_terms.len()].copy_from_slice(&col_terms);
        let Ok(terms) = <Box<[u8; TERMS_LEN]>>::try_from(terms.into_boxed_slice()) else {
            unreachable!("allocated with TERMS_LEN just above")
        };
        let mut next = [[(0u8, [0u8; 4]); 5]; 16];
        for (b, by_last) in next.iter_mut().enumerate().take(cells) {
            for (last, (count, moves)) in by_last.iter_mut().enumerate() {
                for (k, step) in steps[b].iter().enumerate() {
                    if step.to != u8::MAX && (last == 4 || k != last ^ 1) {
                        moves[usize::from(*count)] = k as u8;
                        *count += 1;
                    }
                }
            }
        }
        let mut engine = PackedEngine {
            steps,
            next,
            width,
            height,
            goal_rows: 0,
            terms,
            col_base,
            conflicts: conflicts.into_boxed_slice(),
            has_cols,
            blind: kind.is_none(),
            row_mask: (1u64 << (4 * width)) - 1,
            col_mask: (1u64 << (4 * height)) - 1,
            col_index,
            size: goal.size(),
        };
        engine.goal_rows = engine.pack(goal).rows;
        engine
    }

    /// The board's size.
    pub(crate) fn size(&self) -> Size {
        self.size
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
    fn row_term(&self, rows: u64, r: usize) -> u8 {
        let wbits = 4 * self.width;
        self.terms[(r << wbits) | ((rows >> (wbits * r)) & self.row_mask) as usize]
    }

    /// The heuristic term of column `c` of `cols` (0 when the heuristic has none).
    #[inline]
    fn col_term(&self, cols: u64, c: usize) -> u8 {
        if !self.has_cols {
            return 0;
        }
        let hbits = 4 * self.height;
        self.terms
            [self.col_base + ((c << hbits) | ((cols >> (hbits * c)) & self.col_mask) as usize)]
    }

    fn h(&self, rows: u64, cols: u64) -> u8 {
        let rows_h: u8 = (0..self.height).map(|r| self.row_term(rows, r)).sum();
        let cols_h: u8 = (0..self.width).map(|c| self.col_term(cols, c)).sum();
        rows_h + cols_h
    }

    /// Every line's term for every contents, rows first (row `r` at `r << (4 * width)`),
    /// then columns from `height << (4 * width)` (column `c` at `c << (4 * height)` past
    /// that); and whether the column part exists.
    pub(crate) fn terms(&self) -> (&[u8; TERMS_LEN], bool) {
        (&self.terms, self.has_cols)
    }

    /// The moves worth trying from `node` when it was reached by move `last` (an index into
    /// [`Move::ALL`], or anything above 3 at the start): the legal ones except the inverse
    /// of `last`.
    #[inline]
    pub(crate) fn next_moves(&self, node: &Node, last: u8) -> &[u8] {
        let (count, moves) = &self.next[usize::from(node.blank)][usize::from(last.min(4))];
        &moves[..usize::from(*count)]
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

    /// The position after move `st` from `node`, with its heuristic updated incrementally:
    /// the moving tile's own term changes by `st.delta[tile]` (its distance, or whether it is
    /// misplaced), and under linear conflict the conflicts of the one line that can change
    /// (the tile's own row or column, when it is one of the two the move touches) are looked
    /// up before and after. (The shape-compiled IDA* in [`idastar`] updates h differently,
    /// from the whole terms of the two rows or columns the move touches.)
    #[inline(always)]
    pub(crate) fn child(&self, node: &Node, st: &LineStep) -> Node {
        // The blank's nibble is 0, so swapping it with the tile's is two xors per word.
        let t = (node.rows >> st.row_from) & 0xF;
        let rows = node.rows ^ (t << st.row_from) ^ (t << st.row_to);
        let cols = node.cols ^ (t << st.col_from) ^ (t << st.col_to);
        let mut h = i32::from(node.h) + i32::from(st.delta[t as usize]);
        if self.has_cols {
            // Linear conflict: the one line whose conflicts can change.
            let line = st.line[t as usize];
            let (shift, base) = (line >> 24, (line & 0xFF_FFFF) as usize);
            let (old, new, mask) = if st.vertical {
                (node.rows, rows, self.row_mask)
            } else {
                (node.cols, cols, self.col_mask)
            };
            h += i32::from(self.conflicts[base + ((new >> shift) & mask) as usize])
                - i32::from(self.conflicts[base + ((old >> shift) & mask) as usize]);
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
                for kind in HeuristicKind::ALL {
                    let e = PackedEngine::new(&g, Some(kind));
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
