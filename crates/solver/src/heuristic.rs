//! Admissible heuristics for any board size and goal.
//!
//! All three are lower bounds on the number of moves left:
//! - **Hamming**: tiles not on their goal cell (blank excluded), each needs a move;
//! - **Manhattan**: each tile's taxicab distance to its goal cell;
//! - **linear conflict** (Hansson, Mayer & Yung 1992): Manhattan plus 2 for every tile that
//!   must leave its line. In a row, the tiles whose goal is in that row must end in goal
//!   order; those that stay must already be in that order, so at least `k - LIS` of the `k`
//!   tiles (LIS = longest increasing subsequence of their goal columns) must step out of the
//!   row and back, two vertical moves Manhattan does not count. Columns likewise, with
//!   horizontal moves, so rows and columns add up. Taking the LIS makes the count exact; the
//!   common "count conflicting pairs" shortcut overestimates and is not admissible.
//!
//! The tests check all three against exact distances on every one of the 181,440 3x3 boards.

use std::fmt;

use npuzzle_core::Board;

pub mod frame;
pub mod pdb;
pub mod walking_distance;

/// A heuristic an engine computes: the [`crate::Heuristic`] option with `auto` resolved by
/// the policy ([`crate::Plan`]). Engines match on it exhaustively, so a new heuristic is a
/// compile error everywhere it must be handled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Misplaced tiles, blank excluded.
    Hamming,
    /// Sum of each tile's taxicab distance to its goal cell.
    Manhattan,
    /// Manhattan plus two moves for each tile that must leave its row or column.
    LinearConflict,
    /// Walking distance (boards up to 4x4): [`walking_distance`]. Only the walking-distance
    /// engine computes it; the line-table engines never get it.
    WalkingDistance,
    /// Additive pattern databases: [`crate::heuristic::pdb`]. Only the database engines compute it.
    Pdb,
}

impl HeuristicKind {
    /// Every heuristic an engine computes.
    pub const ALL: [HeuristicKind; 3] =
        [HeuristicKind::Hamming, HeuristicKind::Manhattan, HeuristicKind::LinearConflict];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Hamming => "hamming",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
            HeuristicKind::WalkingDistance => "walking-distance",
            HeuristicKind::Pdb => "pdb",
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where each tile belongs: the precomputed goal column and row of every tile.
#[derive(Clone, Debug)]
pub struct GoalMap {
    width: usize,
    height: usize,
    goal_x: Vec<u16>,
    goal_y: Vec<u16>,
}

impl GoalMap {
    /// The goal cells of `goal`'s tiles.
    pub fn new(goal: &Board) -> GoalMap {
        let n = goal.tiles().len();
        let mut goal_x = vec![0; n];
        let mut goal_y = vec![0; n];
        for (i, &t) in goal.tiles().iter().enumerate() {
            let (x, y) = goal.size().xy(i);
            goal_x[usize::from(t)] = x as u16;
            goal_y[usize::from(t)] = y as u16;
        }
        GoalMap { width: goal.width(), height: goal.height(), goal_x, goal_y }
    }

    /// Goal column and row of `tile`.
    #[inline]
    pub fn goal_of(&self, tile: u16) -> (usize, usize) {
        (usize::from(self.goal_x[usize::from(tile)]), usize::from(self.goal_y[usize::from(tile)]))
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Taxicab distance of `tile` standing at `cell` to its goal cell (0 for the blank).
    #[inline]
    pub fn distance(&self, tile: u16, cell: usize) -> u32 {
        if tile == 0 {
            return 0;
        }
        let (gx, gy) = self.goal_of(tile);
        let (x, y) = (cell % self.width, cell / self.width);
        (x.abs_diff(gx) + y.abs_diff(gy)) as u32
    }

    /// Misplaced tiles of `tiles`, blank excluded.
    pub fn hamming(&self, tiles: &[u16]) -> u32 {
        tiles.iter().enumerate().filter(|&(i, &t)| t != 0 && self.distance(t, i) != 0).count()
            as u32
    }

    /// Sum of taxicab distances of `tiles`.
    pub fn manhattan(&self, tiles: &[u16]) -> u32 {
        tiles.iter().enumerate().map(|(i, &t)| self.distance(t, i)).sum()
    }

    /// Extra moves of row `y` beyond Manhattan: 2 per tile that must leave the row.
    pub fn row_conflict(&self, tiles: &[u16], y: usize) -> u32 {
        let row = &tiles[y * self.width..(y + 1) * self.width];
        let goal_cols = row
            .iter()
            .filter(|&&t| t != 0 && usize::from(self.goal_y[usize::from(t)]) == y)
            .map(|&t| self.goal_x[usize::from(t)]);
        if self.width <= 64 {
            return 2 * removals_below_64(goal_cols);
        }
        let mut keys = [0u16; 64];
        let mut big = Vec::new();
        2 * removals(goal_cols, &mut keys, &mut big)
    }

    /// Extra moves of column `x` beyond Manhattan: 2 per tile that must leave the column.
    pub fn column_conflict(&self, tiles: &[u16], x: usize) -> u32 {
        let goal_rows = (0..self.height)
            .map(|y| tiles[y * self.width + x])
            .filter(|&t| t != 0 && usize::from(self.goal_x[usize::from(t)]) == x)
            .map(|t| self.goal_y[usize::from(t)]);
        if self.height <= 64 {
            return 2 * removals_below_64(goal_rows);
        }
        let mut keys = [0u16; 64];
        let mut big = Vec::new();
        2 * removals(goal_rows, &mut keys, &mut big)
    }

    /// Manhattan plus linear conflicts of every row and column.
    pub fn linear_conflict(&self, tiles: &[u16]) -> u32 {
        let rows: u32 = (0..self.height).map(|y| self.row_conflict(tiles, y)).sum();
        let cols: u32 = (0..self.width).map(|x| self.column_conflict(tiles, x)).sum();
        self.manhattan(tiles) + rows + cols
    }

    /// The value of heuristic `kind` for `tiles` (the table heuristics, whose tables a
    /// `GoalMap` does not hold, give linear conflict here: see [`walking_distance`] and
    /// [`crate::heuristic::pdb`]).
    pub fn estimate(&self, kind: HeuristicKind, tiles: &[u16]) -> u32 {
        match kind {
            HeuristicKind::Hamming => self.hamming(tiles),
            HeuristicKind::Manhattan => self.manhattan(tiles),
            HeuristicKind::LinearConflict | HeuristicKind::WalkingDistance | HeuristicKind::Pdb => {
                self.linear_conflict(tiles)
            }
        }
    }
}

/// [`removals`] for keys below 64, by patience sorting on the bits of one word: the tails
/// (the smallest last key of an increasing run of each length) are a set of keys, and each
/// key takes the place of the smallest tail not below it (the lowest set bit from its own
/// up), so the longest run is the number of tails.
#[inline]
pub(crate) fn removals_below_64(keys: impl Iterator<Item = u16>) -> u32 {
    let mut tails = 0u64;
    let mut count = 0u32;
    for k in keys {
        count += 1;
        let from = tails & (u64::MAX << (k & 63));
        tails = (tails & !(from & from.wrapping_neg())) | (1u64 << (k & 63));
    }
    count - tails.count_ones()
}

/// How many items of `keys` must be removed to leave them strictly increasing:
/// `len - LIS`, by patience sorting. Uses the stack buffer for lines up to 64 cells.
pub(crate) fn removals(
    keys: impl Iterator<Item = u16>,
    small: &mut [u16; 64],
    big: &mut Vec<u16>,
) -> u32 {
    let mut len = 0usize;
    let mut count = 0u32;
    for k in keys {
        count += 1;
        // tails[i] = smallest tail of an increasing subsequence of length i + 1.
        let tails: &mut [u16] = if len < small.len() && big.is_empty() {
            &mut small[..]
        } else {
            if big.is_empty() {
                big.extend_from_slice(&small[..len]);
            }
            if big.len() <= len {
                big.resize(len + 1, 0);
            }
            &mut big[..]
        };
        let pos = tails[..len].partition_point(|&t| t < k);
        tails[pos] = k;
        if pos == len {
            len += 1;
        }
    }
    count - len as u32
}

/// The value of `kind` for `board` against `goal` (a convenience over [`GoalMap`]).
///
/// # Examples
/// ```
/// use npuzzle_solver::heuristic::{HeuristicKind, estimate};
/// let board = "3 2 1/4 5 6/7 8 0".parse().unwrap();
/// let goal = "1 2 3/4 5 6/7 8 0".parse().unwrap();
/// assert_eq!(estimate(HeuristicKind::Hamming, &board, &goal), 2);
/// assert_eq!(estimate(HeuristicKind::Manhattan, &board, &goal), 4);
/// // 3 2 1 is reversed: two of the three must leave the row and come back (2 moves each).
/// assert_eq!(estimate(HeuristicKind::LinearConflict, &board, &goal), 8);
/// ```
pub fn estimate(kind: HeuristicKind, board: &Board, goal: &Board) -> u32 {
    GoalMap::new(goal).estimate(kind, board.tiles())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removals_is_len_minus_lis() {
        let mut s = [0u16; 64];
        let mut b = Vec::new();
        let r = |v: &[u16], s: &mut [u16; 64], b: &mut Vec<u16>| {
            b.clear();
            removals(v.iter().copied(), s, b)
        };
        assert_eq!(r(&[], &mut s, &mut b), 0);
        assert_eq!(r(&[0, 1, 2], &mut s, &mut b), 0);
        assert_eq!(r(&[2, 1, 0], &mut s, &mut b), 2);
        assert_eq!(r(&[1, 0, 3, 2], &mut s, &mut b), 2);
        assert_eq!(r(&[3, 0, 1, 2], &mut s, &mut b), 1);
        let long: Vec<u16> = (0..200).rev().collect();
        assert_eq!(r(&long, &mut s, &mut b), 199);
        let inc: Vec<u16> = (0..200).collect();
        assert_eq!(r(&inc, &mut s, &mut b), 0);
    }

    /// The one-word patience sort counts what the general one counts: on every ordering of
    /// up to seven distinct keys, and on seeded random lines of distinct keys below 64 (as in
    /// a line's own tiles: each goal column or row once).
    #[test]
    fn removals_in_one_word_match_the_general_count() {
        let mut s = [0u16; 64];
        let mut b = Vec::new();
        let mut general = |v: &[u16]| {
            b.clear();
            removals(v.iter().copied(), &mut s, &mut b)
        };
        fn orderings(len: u16, prefix: &mut Vec<u16>, each: &mut dyn FnMut(&[u16])) {
            each(prefix);
            for k in 0..len {
                if !prefix.contains(&k) {
                    prefix.push(k);
                    orderings(len, prefix, each);
                    prefix.pop();
                }
            }
        }
        let mut checked = 0;
        orderings(7, &mut Vec::new(), &mut |v| {
            assert_eq!(removals_below_64(v.iter().copied()), general(v), "{v:?}");
            checked += 1;
        });
        assert!(checked > 13_000);
        let mut state = 7u64;
        for _ in 0..2_000 {
            let mut keys: Vec<u16> = (0..64).collect();
            for i in (1..keys.len()).rev() {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                keys.swap(i, (state >> 33) as usize % (i + 1));
            }
            let len = (state >> 20) as usize % 65;
            let line = &keys[..len];
            assert_eq!(removals_below_64(line.iter().copied()), general(line), "{line:?}");
        }
    }
}
