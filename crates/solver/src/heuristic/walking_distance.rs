//! Walking distance (Ken'ichiro Takahashi, 2002) for boards of at most 4x4 cells.
//!
//! Forget which tile is which and keep only, for every row, how many of its tiles belong to
//! each goal row, and the row of the blank. A vertical move takes one tile from the row above
//! or below the blank into the blank's row; the fewest such moves from a position's row
//! counts to the goal's is its **vertical walking distance**, found by a breadth-first search
//! over these count tables, done once per goal. Columns likewise give the horizontal one.
//!
//! # Admissibility
//! - **Claim.** Vertical plus horizontal walking distance is at most the number of moves
//!   left; so is the larger of it and linear conflict, which is what [`WalkingDistance::estimate`]
//!   returns.
//! - **Why.** Every vertical move of the real puzzle changes the row counts exactly as one
//!   move of the abstract row puzzle does, and changes no column count; horizontal moves
//!   likewise for columns. So an optimal solution makes at least the vertical walking distance
//!   of vertical moves and, separately, at least the horizontal one of horizontal moves. The
//!   larger of two lower bounds is a lower bound. Each half is consistent (one real move is
//!   one abstract move of one half), so the sum is too.
//! - **Source.** K. Takahashi, "Walking Distance" (2002), the heuristic of his 15-puzzle
//!   solver, described e.g. in the literature on 15-puzzle heuristics that compares it with
//!   Manhattan distance and linear conflict.
//! - **Test.** The tests compare it with the exact distance of every 3x3 and 2x4 position
//!   (never larger, changes by at most one per move) and check it is at least the Manhattan
//!   distance.

use std::collections::HashMap;

use npuzzle_core::Board;

use super::GoalMap;

/// The largest board side walking distance is offered for (tables grow fast with it).
pub const MAX_SIDE: usize = 4;

/// One direction's table: the abstract states, their distances and moves.
#[derive(Clone, Debug)]
struct Table {
    lines: usize,
    /// Distance to the goal of each state.
    dist: Vec<u8>,
    /// `next[state * 2 * lines + dir * lines + goal_line]`: the state after a tile whose goal
    /// line is `goal_line` moves from the line before (`dir` 0) or after (`dir` 1) the blank's
    /// into it; `u32::MAX` when impossible.
    next: Vec<u32>,
    ids: HashMap<u64, u32>,
}

/// Packs the count matrix and the blank's line into a key.
fn key(counts: &[u8], blank: usize) -> u64 {
    counts.iter().fold(blank as u64, |k, &c| (k << 3) | u64::from(c))
}

impl Table {
    /// `lines` lines of `len` cells; `goal_line[t]` is tile `t`'s goal line (index 0 is the
    /// blank's).
    fn new(lines: usize, goal_line: &[usize], blank_line: usize) -> Table {
        let mut start = vec![0u8; lines * lines];
        for (t, &g) in goal_line.iter().enumerate().skip(1) {
            start[g * lines + g] += 1;
            let _ = t;
        }
        let mut states: Vec<(Vec<u8>, usize)> = vec![(start.clone(), blank_line)];
        let mut ids = HashMap::from([(key(&start, blank_line), 0u32)]);
        let mut dist = vec![0u8];
        let mut next: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < states.len() {
            let (counts, blank) = states[i].clone();
            let mut row = vec![u32::MAX; 2 * lines];
            for dir in 0..2 {
                let from = if dir == 0 {
                    blank.checked_sub(1)
                } else {
                    Some(blank + 1).filter(|&l| l < lines)
                };
                let Some(from) = from else { continue };
                for g in 0..lines {
                    if counts[from * lines + g] == 0 {
                        continue;
                    }
                    let mut c = counts.clone();
                    c[from * lines + g] -= 1;
                    c[blank * lines + g] += 1;
                    let k = key(&c, from);
                    let id = *ids.entry(k).or_insert_with(|| {
                        states.push((c, from));
                        dist.push(dist[i] + 1);
                        (states.len() - 1) as u32
                    });
                    row[dir * lines + g] = id;
                }
            }
            next.extend_from_slice(&row);
            i += 1;
        }
        Table { lines, dist, next, ids }
    }

    /// The state of a position given as each cell's tile goal line, by line.
    fn state_of(
        &self,
        lines_of: &[usize],
        line_cells: &[Vec<usize>],
        tiles: &[u16],
        blank_cell: usize,
    ) -> u32 {
        let n = self.lines;
        let mut counts = vec![0u8; n * n];
        let mut blank = 0;
        for (l, cells) in line_cells.iter().enumerate() {
            for &c in cells {
                if c == blank_cell {
                    blank = l;
                } else {
                    counts[l * n + lines_of[usize::from(tiles[c])]] += 1;
                }
            }
        }
        self.ids[&key(&counts, blank)]
    }
}

/// Walking distance tables for one goal.
#[derive(Clone, Debug)]
pub struct WalkingDistance {
    rows: Table,
    cols: Table,
    goal_row: Vec<usize>,
    goal_col: Vec<usize>,
    row_cells: Vec<Vec<usize>>,
    col_cells: Vec<Vec<usize>>,
    map: GoalMap,
}

impl WalkingDistance {
    /// The tables for `goal`, or `None` when a side is longer than [`MAX_SIDE`].
    pub fn new(goal: &Board) -> Option<WalkingDistance> {
        let (w, h) = (goal.width(), goal.height());
        if w > MAX_SIDE || h > MAX_SIDE {
            return None;
        }
        let n = w * h;
        let pos = goal.positions();
        let goal_row: Vec<usize> = (0..n).map(|t| pos[t] / w).collect();
        let goal_col: Vec<usize> = (0..n).map(|t| pos[t] % w).collect();
        let rows = Table::new(h, &goal_row, goal_row[0]);
        let cols = Table::new(w, &goal_col, goal_col[0]);
        let row_cells = (0..h).map(|y| (0..w).map(|x| y * w + x).collect()).collect();
        let col_cells = (0..w).map(|x| (0..h).map(|y| y * w + x).collect()).collect();
        Some(WalkingDistance {
            rows,
            cols,
            goal_row,
            goal_col,
            row_cells,
            col_cells,
            map: GoalMap::new(goal),
        })
    }

    /// Vertical plus horizontal walking distance of `board`.
    pub fn walking(&self, board: &Board) -> u32 {
        let (r, c) = self.states(board);
        self.value(r, c)
    }

    /// The larger of walking distance and linear conflict for `board`.
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal};
    /// use npuzzle_solver::heuristic::walking_distance::WalkingDistance;
    /// let goal = Goal::BlankLast.board("3x3".parse()?)?;
    /// let wd = WalkingDistance::new(&goal).unwrap();
    /// let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
    /// assert!(wd.estimate(&board) <= 31);
    /// assert_eq!(wd.estimate(&goal), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn estimate(&self, board: &Board) -> u32 {
        self.walking(board).max(self.map.linear_conflict(board.tiles()))
    }

    /// The row and column states of `board`.
    pub(crate) fn states(&self, board: &Board) -> (u32, u32) {
        let r = self.rows.state_of(&self.goal_row, &self.row_cells, board.tiles(), board.blank());
        let c = self.cols.state_of(&self.goal_col, &self.col_cells, board.tiles(), board.blank());
        (r, c)
    }

    /// The walking distance of a row state and a column state.
    #[inline]
    pub(crate) fn value(&self, row: u32, col: u32) -> u32 {
        u32::from(self.rows.dist[row as usize]) + u32::from(self.cols.dist[col as usize])
    }

    /// The row state after a vertical move: the tile `tile` enters the blank's row from the
    /// row above (`from_above`) or below.
    #[inline]
    pub(crate) fn row_step(&self, row: u32, tile: u16, from_above: bool) -> u32 {
        let n = self.rows.lines;
        self.rows.next
            [row as usize * 2 * n + usize::from(!from_above) * n + self.goal_row[usize::from(tile)]]
    }

    /// The column state after a horizontal move: `tile` enters the blank's column from the
    /// left (`from_left`) or the right.
    #[inline]
    pub(crate) fn col_step(&self, col: u32, tile: u16, from_left: bool) -> u32 {
        let n = self.cols.lines;
        self.cols.next
            [col as usize * 2 * n + usize::from(!from_left) * n + self.goal_col[usize::from(tile)]]
    }

    /// Abstract states of the two tables (for the record: 24,964 rows on 4x4).
    pub fn states_count(&self) -> (usize, usize) {
        (self.rows.dist.len(), self.cols.dist.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Size};

    #[test]
    fn the_4x4_tables_have_takahashis_size() {
        let goal = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        let wd = WalkingDistance::new(&goal).unwrap();
        assert_eq!(wd.states_count(), (24964, 24964));
        assert_eq!(wd.walking(&goal), 0);
        // One vertical move away.
        let b: Board = "1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12".parse().unwrap();
        assert_eq!(wd.walking(&b), 1);
        assert!(
            WalkingDistance::new(&Goal::BlankLast.board(Size::square(5).unwrap()).unwrap())
                .is_none()
        );
    }
}
