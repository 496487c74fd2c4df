//! Manhattan distance plus linear conflicts, kept up to date move by move.
//!
//! The beam search scores hundreds of thousands of children a layer and the window search
//! millions of nodes, so a move recomputes only what it can change: the moved tile's taxicab
//! distance, and the conflicts of the two lines across the move (a horizontal move changes
//! the tile's column, never the order of its row; a vertical one the reverse).

use npuzzle_core::Board;

use crate::heuristic::GoalMap;

/// Manhattan + linear conflict towards one goal, for any board size.
#[derive(Clone, Debug)]
pub(crate) struct Evaluator {
    map: GoalMap,
    width: usize,
    height: usize,
    /// Per tile, its goal column in the low 16 bits and its goal row in the high 16; the
    /// blank's is all ones (it belongs to no line).
    goal: Vec<u32>,
    /// Per cell, its column in the low 16 bits and its row in the high 16 (no division in
    /// the distances a beam takes for every child).
    cells: Vec<u32>,
}

impl Evaluator {
    /// The evaluator for `goal`.
    pub(crate) fn new(goal: &Board) -> Evaluator {
        let map = GoalMap::new(goal);
        let (width, height) = (goal.width(), goal.height());
        let goal: Vec<u32> = (0..goal.tiles().len() as u16)
            .map(|t| {
                if t == 0 {
                    u32::MAX
                } else {
                    let (x, y) = map.goal_of(t);
                    x as u32 | (y as u32) << 16
                }
            })
            .collect();
        let cells =
            (0..width * height).map(|c| (c % width) as u32 | ((c / width) as u32) << 16).collect();
        Evaluator { map, width, height, goal, cells }
    }

    /// The full value for `tiles` (cell to tile).
    pub(crate) fn value(&self, tiles: &[u16]) -> u32 {
        self.map.linear_conflict(tiles)
    }

    /// Slides the tile on `from` into the blank on `blank` (they are neighbours) and returns
    /// the new value, given the value `h` before the move.
    #[inline]
    pub(crate) fn slide(&self, tiles: &mut [u16], blank: usize, from: usize, h: u32) -> u32 {
        let (md, lc) = self.slide_parts(tiles, blank, from);
        (h as i32 + md + lc) as u32
    }

    /// The taxicab distance of `tile` on `cell` from its goal cell.
    #[inline]
    pub(crate) fn distance(&self, tile: u16, cell: usize) -> u32 {
        if tile == 0 {
            return 0;
        }
        let (g, c) = (self.goal[usize::from(tile)], self.cells[cell]);
        (g & 0xFFFF).abs_diff(c & 0xFFFF) + (g >> 16).abs_diff(c >> 16)
    }

    /// The sum over the tiles of their squared taxicab distances (the beam's extra term, see
    /// [`super::beam::Weights`]).
    pub(crate) fn squares(&self, tiles: &[u16]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, &t)| self.map.distance(t, c).pow(2))
            .sum()
    }

    /// The Manhattan part of [`Evaluator::value`] for `tiles`.
    pub(crate) fn manhattan(&self, tiles: &[u16]) -> u32 {
        self.map.manhattan(tiles)
    }

    /// [`Evaluator::slide`], returning the changes of the Manhattan distance and of the
    /// conflicts apart.
    #[inline]
    pub(crate) fn slide_parts(&self, tiles: &mut [u16], blank: usize, from: usize) -> (i32, i32) {
        let tile = tiles[from];
        let before_md = self.distance(tile, from);
        let after_md = self.distance(tile, blank);
        let g = self.goal[usize::from(tile)];
        let (gx, gy) = ((g & 0xFFFF) as usize, (g >> 16) as usize);
        let (f, b) = (self.cells[from], self.cells[blank]);
        let horizontal = f >> 16 == b >> 16;
        // Only the line the tile belongs to (in the crossing direction) can change, and only
        // if that line is the one it leaves or the one it enters.
        let line = if horizontal {
            (gx == (f & 0xFFFF) as usize || gx == (b & 0xFFFF) as usize).then_some(gx)
        } else {
            (gy == (f >> 16) as usize || gy == (b >> 16) as usize).then_some(gy)
        };
        let conflict = |tiles: &[u16], l: usize| {
            if horizontal { self.column_conflict(tiles, l) } else { self.row_conflict(tiles, l) }
        };
        let old_conflict = line.map_or(0, |l| conflict(tiles, l));
        tiles.swap(from, blank);
        let new_conflict = line.map_or(0, |l| conflict(tiles, l));
        (after_md as i32 - before_md as i32, new_conflict as i32 - old_conflict as i32)
    }

    /// Lines of the board: its rows, then its columns (the index [`Evaluator::slide_line`]
    /// gives).
    pub(crate) fn lines(&self) -> usize {
        self.width + self.height
    }

    /// Every line's conflicts, in the order of [`Evaluator::lines`].
    pub(crate) fn line_conflicts(&self, tiles: &[u16]) -> Vec<u16> {
        let rows = (0..self.height).map(|y| self.row_conflict(tiles, y));
        let columns = (0..self.width).map(|x| self.column_conflict(tiles, x));
        // A line has at most 512 cells (`near::MAX_CELLS`), so at most 1,022 extra moves.
        rows.chain(columns).map(|c| c as u16).collect()
    }

    /// The change of the Manhattan distance when the tile on `from` slides into the blank
    /// on `blank`, and the one line whose conflicts it can change with their count after
    /// the slide (its index as in [`Evaluator::lines`]); `tiles` stay as before the slide
    /// (the line is read as it will be). With the counts before the slide at hand, one line
    /// is counted, not two.
    #[inline]
    pub(crate) fn slide_line(
        &self,
        tiles: &[u16],
        blank: usize,
        from: usize,
    ) -> (i32, Option<(usize, u32)>) {
        let (dm, line) = self.slide_target(tiles, blank, from);
        let Some(line) = line else { return (dm, None) };
        if !self.short_lines() {
            return (dm, Some((line, self.map_line_after(tiles, blank, from, line))));
        }
        let (mut bits, mut lens) = ([[0u64; 64]; 4], [0; 4]);
        lens[0] = self.line_after(tiles, blank, from, line, &mut bits[0]);
        (dm, Some((line, removals_interleaved(&bits, lens)[0])))
    }

    /// The conflicts of `line` after the slide, by the [`GoalMap`] (boards with lines of
    /// more than 64 cells), on a copy of the board.
    #[cold]
    fn map_line_after(&self, tiles: &[u16], blank: usize, from: usize, line: usize) -> u32 {
        let mut copy = tiles.to_vec();
        copy.swap(from, blank);
        if line < self.height {
            self.map.row_conflict(&copy, line)
        } else {
            self.map.column_conflict(&copy, line - self.height)
        }
    }

    /// The change of the Manhattan distance when the tile on `from` slides into the blank
    /// on `blank`, and the one line whose conflicts the slide can change (its index as in
    /// [`Evaluator::lines`]), for [`Evaluator::line_after`] to count.
    #[inline]
    pub(crate) fn slide_target(
        &self,
        tiles: &[u16],
        blank: usize,
        from: usize,
    ) -> (i32, Option<usize>) {
        let tile = tiles[from];
        let dm = self.distance(tile, blank) as i32 - self.distance(tile, from) as i32;
        let g = self.goal[usize::from(tile)];
        let (gx, gy) = ((g & 0xFFFF) as usize, (g >> 16) as usize);
        let (f, b) = (self.cells[from], self.cells[blank]);
        let line = if f >> 16 == b >> 16 {
            (gx == (f & 0xFFFF) as usize || gx == (b & 0xFFFF) as usize).then_some(gx + self.height)
        } else {
            (gy == (f >> 16) as usize || gy == (b >> 16) as usize).then_some(gy)
        };
        (dm, line)
    }

    /// Whether the tile that slides into the blank on `blank` enters `line` (as in
    /// [`Evaluator::lines`]; otherwise it leaves it, when [`Evaluator::slide_target`] named
    /// it): the blank's cell is on it.
    #[inline]
    pub(crate) fn enters(&self, blank: usize, line: usize) -> bool {
        let b = self.cells[blank];
        if line < self.height {
            (b >> 16) as usize == line
        } else {
            (b & 0xFFFF) as usize + self.height == line
        }
    }

    /// Whether the tile on `from` that slides into the blank on `blank`, entering its own
    /// line `line` (as in [`Evaluator::lines`]), lands between the line's own tiles in
    /// order: the nearest of them on either side along the line have smaller and larger
    /// keys. In a line without conflicts, that is whether it stays without: if not, it
    /// has one removal.
    pub(crate) fn fits(&self, tiles: &[u16], blank: usize, from: usize, line: usize) -> bool {
        let g = self.goal[usize::from(tiles[from])];
        let (step, key, own_shift, first, last) = if line < self.height {
            let start = line * self.width;
            (1, g & 0xFFFF, 16, start, start + self.width - 1)
        } else {
            let x = line - self.height;
            (self.width, g >> 16, 0, x, x + (self.height - 1) * self.width)
        };
        let own = line_coordinate(line, self.height) as u32;
        let key_of = |c: usize| {
            let h = self.goal[usize::from(tiles[c])];
            let k = if own_shift == 16 { h & 0xFFFF } else { h >> 16 };
            (((h >> own_shift) & 0xFFFF) == own).then_some(k)
        };
        let mut c = blank;
        while c != first {
            c -= step;
            if let Some(k) = key_of(c) {
                if k > key {
                    return false;
                }
                break;
            }
        }
        let mut c = blank;
        while c != last {
            c += step;
            if let Some(k) = key_of(c) {
                return k > key;
            }
        }
        true
    }

    /// Whether [`Evaluator::line_after`] serves this board (lines of at most 64 cells).
    pub(crate) fn short_lines(&self) -> bool {
        self.width <= 64 && self.height <= 64
    }

    /// The line `line` after the tile on `from` slides into the blank on `blank`, for
    /// [`removals_interleaved`]: the key bits (`1 << goal coordinate along the line`) of the
    /// tiles whose own line it is, in line order, in `bits`; returns how many. Lines of at
    /// most 64 cells ([`Evaluator::short_lines`]).
    #[inline]
    pub(crate) fn line_after(
        &self,
        tiles: &[u16],
        blank: usize,
        from: usize,
        line: usize,
        bits: &mut [u64; 64],
    ) -> usize {
        let g = self.goal[usize::from(tiles[from])];
        let after = |c: usize, t: u16| {
            if c == from {
                u32::MAX
            } else if c == blank {
                g
            } else {
                self.goal[usize::from(t)]
            }
        };
        let mut k = 0usize;
        let mut put = |goal: u32, own: u32, key: u32, line: u32| {
            let mine = ((goal >> own) & 0xFFFF) == line;
            bits[k] = 1u64 << ((goal >> key) & 63);
            k += usize::from(mine);
        };
        if line < self.height {
            let start = line * self.width;
            for (x, &t) in tiles[start..start + self.width].iter().enumerate() {
                put(after(start + x, t), 16, 0, line as u32);
            }
        } else {
            let x = line - self.height;
            let column = tiles[x..].iter().step_by(self.width).take(self.height);
            for (y, &t) in column.enumerate() {
                put(after(x + y * self.width, t), 0, 16, x as u32);
            }
        }
        k
    }

    /// Extra moves of row `y` beyond Manhattan ([`GoalMap::row_conflict`]): without a branch
    /// on the tiles for rows up to 64 cells, where conflicts took two thirds of a beam's
    /// time on 32x32 boards.
    #[inline]
    pub(crate) fn row_conflict(&self, tiles: &[u16], y: usize) -> u32 {
        if self.width > 64 {
            return self.map.row_conflict(tiles, y);
        }
        let row = &tiles[y * self.width..(y + 1) * self.width];
        Self::removals(row.iter().map(|&t| self.goal[usize::from(t)]), y as u32, 16, 0)
    }

    /// Extra moves of column `x` beyond Manhattan ([`GoalMap::column_conflict`]), as
    /// [`Evaluator::row_conflict`].
    #[inline]
    pub(crate) fn column_conflict(&self, tiles: &[u16], x: usize) -> u32 {
        if self.height > 64 {
            return self.map.column_conflict(tiles, x);
        }
        let column = tiles[x..].iter().step_by(self.width).take(self.height);
        Self::removals(column.map(|&t| self.goal[usize::from(t)]), x as u32, 0, 16)
    }

    /// Twice the tiles to take out of a line for the rest to be in order
    /// ([`crate::heuristic::removals_below_64`]), over the packed goals of its cells: a tile
    /// is the line's own when the 16 bits of its goal from bit `own` are `line` (the
    /// blank's never are), and its key is the coordinate from bit `key`. Every cell is
    /// inserted, a tile not the line's own with a mask of zeros, so nothing branches on
    /// the tiles.
    #[inline]
    fn removals(goals: impl Iterator<Item = u32>, line: u32, own: u32, key: u32) -> u32 {
        let (mut tails, mut count) = (0u64, 0u32);
        for g in goals {
            let mine = u64::from(((g >> own) & 0xFFFF) == line);
            let mask = mine.wrapping_neg();
            let bit = 1u64 << ((g >> key) & 63);
            // The smallest tail not below the key gives way to it.
            let from = tails & !(bit - 1);
            tails = (tails & !(from & from.wrapping_neg() & mask)) | (bit & mask);
            count += mine as u32;
        }
        2 * (count - tails.count_ones())
    }
}

/// The row or column a line (as in [`Evaluator::lines`]) is, on a board of `height` rows.
fn line_coordinate(line: usize, height: usize) -> usize {
    if line < height { line } else { line - height }
}

/// Twice the tiles to take out of each of four lines for the rest to be in order, given
/// their own tiles' key bits in line order and how many ([`Evaluator::line_after`]): four
/// patience sorts on the bits of a word, in step. Each step of one depends on the one
/// before, so one sort leaves the processor mostly waiting; four in step keep it busy (a
/// zero word is a step that changes nothing, which pads the shorter lines).
pub(crate) fn removals_interleaved(bits: &[[u64; 64]; 4], lens: [usize; 4]) -> [u32; 4] {
    let longest = lens.iter().copied().max().unwrap_or(0).min(64);
    let mut tails = [0u64; 4];
    for j in 0..longest {
        for ((tail, line), &len) in tails.iter_mut().zip(bits).zip(&lens) {
            let bit = if j < len { line[j] } else { 0 };
            let from = *tail & !bit.wrapping_sub(1);
            *tail = (*tail & !(from & from.wrapping_neg())) | bit;
        }
    }
    let mut out = [0u32; 4];
    for lane in 0..4 {
        out[lane] = 2 * (lens[lane].min(64) as u32 - tails[lane].count_ones());
    }
    out
}

/// The cells next to `cell` on a `width` x `height` board, with the move that brings the tile
/// there into the blank on `cell`, as a fixed table per board.
#[derive(Clone, Debug)]
pub(crate) struct Neighbours {
    /// `next[cell * 4 + m]`: the cell the blank goes to with move `m` (`U D L R`), or
    /// `u16::MAX`.
    next: Vec<u16>,
}

impl Neighbours {
    /// The table for a board of `width` x `height`.
    pub(crate) fn new(width: usize, height: usize) -> Neighbours {
        let mut next = vec![u16::MAX; width * height * 4];
        for cell in 0..width * height {
            let (x, y) = (cell % width, cell / width);
            for m in npuzzle_core::Move::ALL {
                let (dx, dy) = m.blank_delta();
                let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                else {
                    continue;
                };
                if nx < width && ny < height {
                    next[cell * 4 + m.index()] = (ny * width + nx) as u16;
                }
            }
        }
        Neighbours { next }
    }

    /// The cell the blank on `cell` goes to with move index `m`, if any.
    #[inline]
    pub(crate) fn of(&self, cell: usize, m: usize) -> Option<usize> {
        let n = self.next[cell * 4 + m];
        (n != u16::MAX).then_some(usize::from(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Move, Scrambler, Size};

    /// Move by move, the value kept up to date (the conflicts of the lines across each move,
    /// counted without branches up to 64 cells a line), and each line's conflicts kept up to
    /// date as the beam keeps them (`slide_line`), equal a full recount by the
    /// [`GoalMap`], from scrambled boards and from the goal (whose walks keep many tiles in
    /// their own lines, where the conflicts are), on lines of up to 64 cells and beyond.
    #[test]
    fn sliding_keeps_the_value_of_a_full_recount() {
        let shapes = [(3, 3), (5, 5), (6, 4), (7, 7), (32, 32), (64, 2), (70, 3), (3, 70)];
        for ((w, h), from_goal) in shapes.into_iter().flat_map(|s| [(s, false), (s, true)]) {
            let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
            let eval = Evaluator::new(&goal);
            let next = Neighbours::new(w, h);
            let mut board =
                if from_goal { goal.clone() } else { Scrambler::new(7).solvable(&goal) };
            let mut tiles = board.tiles().to_vec();
            let mut value = eval.value(&tiles);
            let mut squares = eval.squares(&tiles);
            let mut lines = eval.line_conflicts(&tiles);
            let mut manhattan = eval.manhattan(&tiles);
            let mut blank = board.blank();
            let (mut conflicted, mut state) = (0, 5u64);
            let (mut batch, mut batch_bits, mut batch_lens) = (Vec::new(), [[0u64; 64]; 4], [0; 4]);
            let (mut batched, mut fast, mut out_of_order) = (0, 0, 0);
            for step in 0..2000usize {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = Move::ALL[(state >> 62) as usize];
                let Some(to) = next.of(blank, m.index()) else { continue };
                let tile = tiles[to];
                squares =
                    squares + eval.distance(tile, blank).pow(2) - eval.distance(tile, to).pow(2);
                // The beam's way: the one line a move changes, counted after it.
                let (dm, changed) = eval.slide_line(&tiles, blank, to);
                assert_eq!(tiles, board.tiles(), "slide_line leaves the tiles as they were");
                // The beam's batched way: the line read as it will be, four lines' sorts in
                // step (checked when four have gathered).
                let (target_dm, target) = eval.slide_target(&tiles, blank, to);
                assert_eq!((target_dm, target), (dm, changed.map(|c| c.0)));
                if let Some(line) = target.filter(|_| eval.short_lines()) {
                    let k = batch.len();
                    batch_lens[k] = eval.line_after(&tiles, blank, to, line, &mut batch_bits[k]);
                    batch.push(changed.map_or(0, |c| c.1));
                    if batch.len() == 4 {
                        let got = removals_interleaved(&batch_bits, batch_lens);
                        assert_eq!(got.to_vec(), batch, "{w}x{h} step {step}");
                        batch.clear();
                        batched += 4;
                    }
                }
                // A line without conflicts before the move, as the beam counts it: a tile
                // that leaves it leaves none, one that enters it adds one removal unless it
                // lands between its own neighbours in order.
                if let Some((line, now)) = changed.filter(|&(line, _)| lines[line] == 0) {
                    let enters = eval.enters(blank, line);
                    let predicted =
                        if enters && !eval.fits(&tiles, blank, to, line) { 2 } else { 0 };
                    assert_eq!(predicted, now, "{w}x{h} step {step}: entering {enters}");
                    fast += 1;
                    out_of_order += usize::from(predicted == 2);
                }
                manhattan = (manhattan as i32 + dm) as u32;
                if let Some((line, now)) = changed {
                    lines[line] = now as u16;
                }
                value = eval.slide(&mut tiles, blank, to, value);
                blank = to;
                board.apply(m).unwrap();
                assert_eq!(tiles, board.tiles());
                assert_eq!(manhattan, eval.manhattan(&tiles), "{w}x{h} step {step}");
                assert_eq!(lines, eval.line_conflicts(&tiles), "{w}x{h} step {step}");
                assert_eq!(value, eval.value(&tiles), "{w}x{h} step {step}");
                assert_eq!(squares, eval.squares(&tiles), "{w}x{h} step {step}");
                conflicted += usize::from(value > eval.manhattan(&tiles));
            }
            // The walks do meet conflicts (this is not a check of Manhattan alone).
            assert!(conflicted > 100, "{w}x{h}: {conflicted} positions with conflicts");
            assert!(batched > 0 || !eval.short_lines(), "{w}x{h}: no line counted in step");
            assert!(fast > 0, "{w}x{h}: no line without conflicts entered or left");
            // Both ways: tiles that enter such a line out of order too.
            assert!(out_of_order > 0 || !from_goal, "{w}x{h}: none entered out of order");
        }
    }
}
