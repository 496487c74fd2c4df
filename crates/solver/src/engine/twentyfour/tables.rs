//! Additive pattern databases whose lookups go through the board's symmetries, so that one
//! stored table serves every group that is an image of its pattern.

use std::sync::atomic::AtomicBool;

use npuzzle_core::{Board, Goal, Size};
use thiserror::Error;

use crate::heuristic::pdb::{
    BuildError, Cache, CacheError, Database, Geometry, MAX_PATTERN_TILES, Partition, Progress,
};

/// The most lookups of one position: 8 groups, twice (the position and its mirror).
pub const MAX_LOOKUPS: usize = 16;

/// Why the lookups of a partition cannot be served by a set of stored tables.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TablesError {
    /// The stored tables are for another board size.
    #[error("the stored tables are for {tables} boards, not {board}")]
    Size {
        /// The tables' size.
        tables: Size,
        /// The goal's size.
        board: Size,
    },
    /// The partition leaves a tile out (the search's goal test needs every tile).
    #[error("the partition must hold every tile")]
    NotCovering,
    /// More groups than [`MAX_LOOKUPS`] lookups allow.
    #[error("at most {} groups", MAX_LOOKUPS / 2)]
    TooManyGroups,
    /// No stored table is an image of this group (tiles listed) under a symmetry of the
    /// board that also keeps the blank's side of the pattern.
    #[error("no stored table serves the group {0:?}")]
    NoImage(Vec<u16>),
    /// The Korf & Felner partition is for 5x5 goals with the blank in a corner.
    #[error("the 6-6-6-6 tables are for 5x5 goals with the blank in a corner")]
    Goal,
}

/// One lookup: a group of tiles of the position (or of its mirror), seen through a symmetry
/// as a placement of a stored table's pattern.
#[derive(Clone, Debug)]
pub(crate) struct Lookup {
    /// The stored table.
    pub(crate) table: usize,
    /// The position's tile that plays each of the stored pattern's tiles, in its order.
    pub(crate) tiles: Vec<u8>,
    /// `cell[c]`: the stored table's cell that the position's cell `c` maps to.
    pub(crate) cell: [u8; 32],
}

/// Additive pattern databases for one goal served by fewer stored tables than groups: every
/// group's table is the image of a stored table under a symmetry of the board (rotations and
/// reflections of a square, the half turn and the flips of a rectangle). With the position
/// mirrored about the main diagonal as well (when that fixes the goal's blank), the bound is
/// the Manhattan distance plus twice the larger of the two sums, as in [`crate::heuristic::pdb`].
///
/// # Why an image serves
/// A stored table holds, for each placement of its pattern, the fewest pattern moves to the
/// pattern's goal, where a tile may only step into the part of the free cells the blank is in
/// (see [`crate::heuristic::pdb`]). A symmetry maps cells to cells and neighbours to neighbours, so it
/// maps that abstract space onto the one of the image pattern, distances included, provided
/// it also maps the part of the free cells that holds the stored goal's blank onto the part
/// that holds this goal's blank. [`Tables::new`] checks exactly that for every lookup, and
/// refuses the partition otherwise. The Manhattan distance the entries are stored relative
/// to is preserved too.
///
/// Korf & Felner's 6-6-6-6 partition of the 24-puzzle ([`Tables::korf_felner`]) needs two
/// stored tables: the group that closes the blank's corner, and a 2x3 block whose three
/// other images (by quarter turns) are the other groups. The mirrored lookups are images of
/// the same two. Both tables keep one entry per (placement, blank region), like every table
/// [`crate::heuristic::pdb`] builds by default: a symmetry maps regions to regions, so the
/// blank's cell goes through the same cell map as the tiles. With 6 tiles on 25 cells a
/// table takes about 35 CPU seconds to build and 90 MB (181 MB the two).
#[derive(Clone, Debug)]
pub struct Tables {
    base: Database,
    goal: Board,
    partition: Partition,
    pub(crate) lookups: Vec<Lookup>,
    /// Lookups per side (the groups); `lookups.len()` is this times the number of sides.
    pub(crate) groups: usize,
}

/// The eight symmetries of a square (four of a rectangle) as cell maps.
pub(crate) fn symmetries(width: usize, height: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for swap in [false, true] {
        if swap && width != height {
            continue;
        }
        for flip_x in [false, true] {
            for flip_y in [false, true] {
                let map = (0..width * height)
                    .map(|c| {
                        let (mut x, mut y) = (c % width, c / width);
                        if flip_x {
                            x = width - 1 - x;
                        }
                        if flip_y {
                            y = height - 1 - y;
                        }
                        if swap {
                            std::mem::swap(&mut x, &mut y);
                        }
                        (y * width + x) as u8
                    })
                    .collect();
                out.push(map);
            }
        }
    }
    out
}

/// Korf & Felner's groups of the 24-puzzle, as cells of the blank-first goal.
const KORF_FELNER: [[u8; 6]; 4] =
    [[1, 5, 6, 10, 11, 12], [2, 3, 4, 7, 8, 9], [13, 14, 18, 19, 23, 24], [15, 16, 17, 20, 21, 22]];

impl Tables {
    /// The lookups of `partition` on `goal`, each served by one of `base`'s tables through a
    /// symmetry; with the position mirrored about the main diagonal too when that mirror
    /// fixes the goal's blank cell.
    ///
    /// # Errors
    /// [`TablesError`] when the sizes differ, the partition does not hold every tile or has
    /// too many groups, or a group is no image of a stored table.
    pub fn new(base: Database, goal: &Board, partition: &Partition) -> Result<Tables, TablesError> {
        let size = goal.size();
        if base.size() != size {
            return Err(TablesError::Size { tables: base.size(), board: size });
        }
        let cells = size.cells();
        if partition.groups().iter().map(Vec::len).sum::<usize>() + 1 != cells {
            return Err(TablesError::NotCovering);
        }
        let groups = partition.groups().len();
        if groups * 2 > MAX_LOOKUPS {
            return Err(TablesError::TooManyGroups);
        }
        let (w, h) = (size.width(), size.height());
        let geometry = Geometry::new(w, h);
        let syms = symmetries(w, h);
        let pos = goal.positions();
        // The sides: the position itself, and its mirror when it fixes the blank's goal.
        let mut sides: Vec<Vec<Vec<u16>>> = vec![partition.groups().to_vec()];
        let (bx, by) = goal.blank_xy();
        if w == h && bx == by {
            let transpose = |c: usize| (c % w) * w + c / w;
            sides.push(
                partition
                    .groups()
                    .iter()
                    .map(|g| {
                        g.iter().map(|&t| goal.tiles()[transpose(pos[usize::from(t)])]).collect()
                    })
                    .collect(),
            );
        }
        let base_goal = base.goal();
        let base_pos = base_goal.positions();
        let mut lookups = Vec::new();
        for side in &sides {
            for group in side {
                let found = base.tables().iter().enumerate().find_map(|(t, table)| {
                    if table.tiles.len() != group.len() {
                        return None;
                    }
                    let stored: Vec<usize> =
                        table.tiles.iter().map(|&x| base_pos[usize::from(x)]).collect();
                    let stored_mask = stored.iter().fold(0u32, |m, &c| m | 1 << c);
                    let blank_side =
                        geometry.flood(1 << base_goal.blank(), geometry.all() & !stored_mask);
                    syms.iter().find_map(|tau| {
                        // The goal cell of this group that maps to each stored goal cell.
                        let mut inverse = [0usize; 32];
                        for (c, &d) in tau.iter().enumerate() {
                            inverse[usize::from(d)] = c;
                        }
                        let tiles: Vec<u8> =
                            stored.iter().map(|&s| goal.tiles()[inverse[s]] as u8).collect();
                        let same = tiles.iter().all(|&t| t != 0 && group.contains(&u16::from(t)));
                        let blank_kept = blank_side & (1 << tau[goal.blank()]) != 0;
                        (same && blank_kept).then(|| {
                            let mut cell = [0u8; 32];
                            cell[..cells].copy_from_slice(tau);
                            Lookup { table: t, tiles, cell }
                        })
                    })
                });
                lookups.push(found.ok_or_else(|| TablesError::NoImage(group.clone()))?);
            }
        }
        Ok(Tables { base, goal: goal.clone(), partition: partition.clone(), lookups, groups })
    }

    /// The goal the stored tables of Korf & Felner's partition are built for: the 5x5
    /// blank-first goal.
    pub fn korf_felner_base_goal() -> Board {
        // A 5x5 blank-first goal always exists.
        Goal::BlankFirst.board(Size::square(5).expect("5x5")).expect("the blank-first goal")
    }

    /// The two stored patterns of Korf & Felner's partition, on [`Tables::korf_felner_base_goal`]:
    /// the group that closes the blank's corner and a 2x3 block.
    pub fn korf_felner_base_partition() -> Partition {
        let groups = KORF_FELNER[..2].iter().map(|g| g.iter().map(|&t| u16::from(t)).collect());
        Partition::new(groups.collect(), 25).expect("two groups of six tiles")
    }

    /// Korf & Felner's 6-6-6-6 partition for a 5x5 `goal` with the blank in a corner: their
    /// groups {1,5,6,10,11,12}, {2,3,4,7,8,9}, {13,14,18,19,23,24}, {15,16,17,20,21,22} of
    /// the blank-first goal, carried to the goal's corner by a symmetry and named by the
    /// goal's tiles on those cells.
    ///
    /// # Errors
    /// [`TablesError::Goal`] for another size or a blank elsewhere.
    pub fn korf_felner_partition(goal: &Board) -> Result<Partition, TablesError> {
        if goal.width() != 5 || goal.height() != 5 {
            return Err(TablesError::Goal);
        }
        let rho = symmetries(5, 5)
            .into_iter()
            .find(|s| usize::from(s[0]) == goal.blank())
            .ok_or(TablesError::Goal)?;
        let groups = KORF_FELNER
            .iter()
            .map(|g| g.iter().map(|&c| goal.tiles()[usize::from(rho[usize::from(c)])]).collect())
            .collect();
        Partition::new(groups, 25).map_err(|_| TablesError::Goal)
    }

    /// Korf & Felner's 6-6-6-6 databases with reflection for `goal` (5x5, blank in a corner),
    /// served by `base`, the two stored tables (see [`Tables::korf_felner_base_partition`]).
    ///
    /// # Errors
    /// As [`Tables::new`] and [`Tables::korf_felner_partition`].
    pub fn korf_felner(base: Database, goal: &Board) -> Result<Tables, TablesError> {
        let partition = Tables::korf_felner_partition(goal)?;
        Tables::new(base, goal, &partition)
    }

    /// Korf & Felner's databases for `goal` with the two stored tables from `cache`, built
    /// (on `threads` threads, reporting to `progress`) and saved when missing or unsound.
    ///
    /// # Errors
    /// [`CacheError::Build`] when the build fails or is cancelled, or the goal is not a 5x5
    /// goal with the blank in a corner.
    pub fn korf_felner_cached(
        cache: &Cache,
        goal: &Board,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: Option<&AtomicBool>,
        warn: &mut dyn FnMut(&str),
    ) -> Result<Tables, CacheError> {
        let size = goal.size();
        let bad_goal = || CacheError::Build(BuildError::Partition(size));
        Tables::korf_felner_partition(goal).map_err(|_| bad_goal())?;
        let base = cache.load_or_build(
            &Tables::korf_felner_base_goal(),
            &Tables::korf_felner_base_partition(),
            threads,
            progress,
            cancel,
            warn,
        )?;
        Tables::korf_felner(base, goal).map_err(|_| bad_goal())
    }

    /// The same partition's tables for another `goal` of this size: each group's cells
    /// carried by a symmetry of the board that takes this goal's blank cell to `goal`'s, and
    /// named by `goal`'s tiles on them (for Korf & Felner's tables, any 5x5 goal with a
    /// corner blank).
    ///
    /// # Errors
    /// [`TablesError::Goal`] when no symmetry takes one blank cell to the other, and as
    /// [`Tables::new`] when a carried group is no image of a stored table.
    pub fn for_goal(&self, goal: &Board) -> Result<Tables, TablesError> {
        let size = self.goal.size();
        if goal.size() != size {
            return Err(TablesError::Size { tables: size, board: goal.size() });
        }
        let here = self.goal.positions();
        let mut last = TablesError::Goal;
        for rho in symmetries(size.width(), size.height()) {
            if usize::from(rho[self.goal.blank()]) != goal.blank() {
                continue;
            }
            let groups = self
                .partition
                .groups()
                .iter()
                .map(|g| {
                    g.iter()
                        .map(|&t| goal.tiles()[usize::from(rho[here[usize::from(t)]])])
                        .collect()
                })
                .collect();
            let Ok(partition) = Partition::new(groups, size.cells()) else { continue };
            match Tables::new(self.base.clone(), goal, &partition) {
                Ok(t) => return Ok(t),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// The stored tables.
    pub fn base(&self) -> &Database {
        &self.base
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The partition of the goal's tiles.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// Whether the mirrored position is looked up too.
    pub fn has_reflection(&self) -> bool {
        self.lookups.len() > self.groups
    }

    /// How many lookups a position takes (groups, times two with reflection), and how many
    /// distinct tables serve them.
    pub fn lookups(&self) -> (usize, usize) {
        (self.lookups.len(), self.base.tables().len())
    }

    /// The lower bound for `board` (of the goal's size): the Manhattan distance plus twice
    /// the larger of the sums of the position's and the mirror's lookups.
    ///
    /// # Panics
    /// If `board` is not of the goal's size.
    pub fn estimate(&self, board: &Board) -> u32 {
        assert_eq!(board.size(), self.goal.size(), "board size");
        let w = self.goal.width();
        let goal_pos = self.goal.positions();
        let pos = board.positions();
        let md: u32 = (1..pos.len())
            .map(|t| {
                let (a, b) = (pos[t], goal_pos[t]);
                ((a % w).abs_diff(b % w) + (a / w).abs_diff(b / w)) as u32
            })
            .sum();
        let mut best = 0;
        for side in self.lookups.chunks(self.groups) {
            let mut sum = 0u32;
            for l in side {
                let mut cells = [0u8; MAX_PATTERN_TILES];
                for (slot, &t) in cells.iter_mut().zip(&l.tiles) {
                    *slot = l.cell[pos[usize::from(t)]];
                }
                let k = l.tiles.len();
                let blank = usize::from(l.cell[pos[0]]);
                sum += u32::from(
                    self.base.value(l.table, self.base.index(l.table, &cells[..k], blank)),
                );
            }
            best = best.max(sum);
        }
        md + 2 * best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_are_eight_distinct_maps_of_the_square() {
        let s = symmetries(5, 5);
        assert_eq!(s.len(), 8);
        for m in &s {
            let mut seen = [false; 25];
            for &c in m {
                seen[usize::from(c)] = true;
            }
            assert!(seen.iter().all(|&x| x));
        }
        for (i, a) in s.iter().enumerate() {
            for b in &s[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(symmetries(4, 3).len(), 4);
    }

    #[test]
    fn the_korf_felner_partition_of_blank_last_is_the_half_turn() {
        let goal = Goal::BlankLast.board(Size::square(5).unwrap()).unwrap();
        let p = Tables::korf_felner_partition(&goal).unwrap();
        // Cell 1 of blank-first is cell 23 of blank-last, which holds tile 24.
        assert_eq!(p.groups()[0], vec![24, 20, 19, 15, 14, 13]);
        let first = Goal::BlankFirst.board(Size::square(5).unwrap()).unwrap();
        assert_eq!(
            Tables::korf_felner_partition(&first).unwrap().to_string(),
            "1,5,6,10,11,12/2,3,4,7,8,9/13,14,18,19,23,24/15,16,17,20,21,22"
        );
        let snail = Goal::Snail.board(Size::square(5).unwrap()).unwrap();
        assert_eq!(Tables::korf_felner_partition(&snail), Err(TablesError::Goal));
    }
}
