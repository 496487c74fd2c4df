//! Additive pattern databases whose lookups go through the board's symmetries, so that one
//! stored table serves every group that is an image of its pattern.

use std::sync::atomic::AtomicBool;

use npuzzle_core::{Board, Goal, Size};
use thiserror::Error;

use crate::heuristic::pdb::{
    BuildError, Cache, CacheError, Database, Geometry, MAX_PATTERN_TILES, Partition, Progress,
};

/// The most distinct lookups of one position (over every side: a partition's groups, and
/// its mirror's).
pub const MAX_LOOKUPS: usize = 32;

/// The most sides (partitions and their mirrors) whose sums are maximised.
pub const MAX_SIDES: usize = 16;

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
    /// More distinct groups than [`MAX_LOOKUPS`], or more sides than [`MAX_SIDES`].
    #[error("at most {MAX_LOOKUPS} distinct groups in at most {MAX_SIDES} sides")]
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lookup {
    /// The database holding the stored table, and the table in it.
    pub(crate) base: usize,
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
    bases: Vec<Database>,
    goal: Board,
    partitions: Vec<Partition>,
    /// The distinct lookups: a group that several sides share is looked up once.
    pub(crate) lookups: Vec<Lookup>,
    /// Each side's lookups (indices into `lookups`): every partition, then, with reflection,
    /// its mirror.
    pub(crate) sides: Vec<Vec<u8>>,
    reflect: bool,
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

/// The catalogue's partitions of the 24-puzzle, as cells of the blank-first goal: Korf &
/// Felner's first, then six more whose groups move the boundaries between theirs (the two
/// blocks around the blank's corner cut after the second column instead of the third; the
/// bottom half cut by rows instead of by columns; the left column or a middle block as a
/// group). Every one is looked up on the position and on its mirror: 14 sums.
const CATALOGUE: [[[u8; 6]; 4]; 7] = [
    KORF_FELNER,
    [[1, 2, 5, 6, 10, 11], [3, 4, 7, 8, 9, 12], [13, 14, 18, 19, 23, 24], [15, 16, 17, 20, 21, 22]],
    [[1, 5, 6, 10, 11, 12], [2, 3, 4, 7, 8, 9], [13, 14, 15, 16, 17, 18], [19, 20, 21, 22, 23, 24]],
    [[1, 2, 5, 6, 10, 11], [3, 4, 7, 8, 9, 12], [13, 14, 15, 16, 17, 18], [19, 20, 21, 22, 23, 24]],
    [[1, 5, 6, 10, 15, 20], [2, 3, 4, 7, 8, 9], [11, 12, 16, 17, 21, 22], [13, 14, 18, 19, 23, 24]],
    [[1, 2, 5, 6, 10, 11], [3, 4, 9, 14, 19, 24], [7, 8, 12, 13, 18, 23], [15, 16, 17, 20, 21, 22]],
    [[1, 5, 6, 10, 15, 20], [2, 3, 4, 7, 8, 9], [11, 12, 13, 16, 17, 18], [14, 19, 21, 22, 23, 24]],
];

/// The partition of a 5x5 `goal` with the blank in a corner whose groups are `cells` of the
/// blank-first goal carried to the goal's corner by a symmetry, named by the goal's tiles on
/// those cells.
fn carry(cells: &[[u8; 6]; 4], goal: &Board) -> Result<Partition, TablesError> {
    if goal.width() != 5 || goal.height() != 5 {
        return Err(TablesError::Goal);
    }
    let rho = symmetries(5, 5)
        .into_iter()
        .find(|s| usize::from(s[0]) == goal.blank())
        .ok_or(TablesError::Goal)?;
    let groups = cells
        .iter()
        .map(|g| g.iter().map(|&c| goal.tiles()[usize::from(rho[usize::from(c)])]).collect())
        .collect();
    Partition::new(groups, 25).map_err(|_| TablesError::Goal)
}

/// Whether a table stored for the pattern on cells `stored` of the 5x5 blank-first goal
/// serves the group on cells `group` of the same goal (as [`Tables::catalogue`] decides).
fn serves(stored: &[u8], group: &[u8]) -> bool {
    let geometry = Geometry::new(5, 5);
    let mask = |cells: &[u8]| cells.iter().fold(0u32, |m, &c| m | 1 << c);
    let stored_mask = mask(stored);
    let blank_side = geometry.flood(1, geometry.all() & !stored_mask);
    symmetries(5, 5).iter().any(|tau| {
        group.iter().fold(0u32, |m, &c| m | 1 << tau[usize::from(c)]) == stored_mask
            && blank_side & (1 << tau[0]) != 0
    })
}

impl Tables {
    /// The lookups of `partition` on `goal`, each served by one of `base`'s tables through a
    /// symmetry; with the position mirrored about the main diagonal too when that mirror
    /// fixes the goal's blank cell.
    ///
    /// # Errors
    /// [`TablesError`] when the sizes differ, the partition does not hold every tile or has
    /// too many groups, or a group is no image of a stored table.
    pub fn new(base: Database, goal: &Board, partition: &Partition) -> Result<Tables, TablesError> {
        Tables::catalogue(vec![base], goal, std::slice::from_ref(partition))
    }

    /// A catalogue of partitions (Holte et al.'s maximum over several additive databases;
    /// Clausecker & Reinefeld search the 24-puzzle with such catalogues): the bound is the
    /// Manhattan distance plus twice the largest sum over every partition and, when the
    /// goal allows, every partition's mirror. Each group is served by a table of one of
    /// `bases` through a symmetry, as in [`Tables::new`]; a group that several partitions
    /// share is looked up once.
    ///
    /// # Errors
    /// As [`Tables::new`], for every partition; [`TablesError::TooManyGroups`] beyond
    /// [`MAX_LOOKUPS`] distinct groups or [`MAX_SIDES`] sides.
    pub fn catalogue(
        bases: Vec<Database>,
        goal: &Board,
        partitions: &[Partition],
    ) -> Result<Tables, TablesError> {
        let size = goal.size();
        if let Some(b) = bases.iter().find(|b| b.size() != size) {
            return Err(TablesError::Size { tables: b.size(), board: size });
        }
        let cells = size.cells();
        if partitions.is_empty()
            || partitions
                .iter()
                .any(|p| p.groups().iter().map(Vec::len).sum::<usize>() + 1 != cells)
        {
            return Err(TablesError::NotCovering);
        }
        let (w, h) = (size.width(), size.height());
        let geometry = Geometry::new(w, h);
        let syms = symmetries(w, h);
        let pos = goal.positions();
        let (bx, by) = goal.blank_xy();
        let reflect = w == h && bx == by;
        // The sides: every partition, then its mirror when that fixes the blank's goal.
        let mut sides: Vec<Vec<Vec<u16>>> =
            partitions.iter().map(|p| p.groups().to_vec()).collect();
        if reflect {
            let transpose = |c: usize| (c % w) * w + c / w;
            for partition in partitions {
                sides.push(
                    partition
                        .groups()
                        .iter()
                        .map(|g| {
                            g.iter()
                                .map(|&t| goal.tiles()[transpose(pos[usize::from(t)])])
                                .collect()
                        })
                        .collect(),
                );
            }
        }
        if sides.len() > MAX_SIDES {
            return Err(TablesError::TooManyGroups);
        }
        let mut lookups: Vec<Lookup> = Vec::new();
        let mut side_lookups = Vec::with_capacity(sides.len());
        for side in &sides {
            let mut mine = Vec::with_capacity(side.len());
            for group in side {
                let found = bases.iter().enumerate().find_map(|(b, base)| {
                    let base_goal = base.goal();
                    let base_pos = base_goal.positions();
                    base.tables().iter().enumerate().find_map(|(t, table)| {
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
                            let same =
                                tiles.iter().all(|&t| t != 0 && group.contains(&u16::from(t)));
                            let blank_kept = blank_side & (1 << tau[goal.blank()]) != 0;
                            (same && blank_kept).then(|| {
                                let mut cell = [0u8; 32];
                                cell[..cells].copy_from_slice(tau);
                                Lookup { base: b, table: t, tiles, cell }
                            })
                        })
                    })
                });
                let found = found.ok_or_else(|| TablesError::NoImage(group.clone()))?;
                let at = match lookups.iter().position(|l| *l == found) {
                    Some(at) => at,
                    None => {
                        lookups.push(found);
                        lookups.len() - 1
                    }
                };
                if lookups.len() > MAX_LOOKUPS {
                    return Err(TablesError::TooManyGroups);
                }
                mine.push(at as u8);
            }
            side_lookups.push(mine);
        }
        Ok(Tables {
            bases,
            goal: goal.clone(),
            partitions: partitions.to_vec(),
            lookups,
            sides: side_lookups,
            reflect,
        })
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
        carry(&KORF_FELNER, goal)
    }

    /// The stored patterns the catalogue needs beyond Korf & Felner's two, on
    /// [`Tables::korf_felner_base_goal`], one database each: every group of
    /// [`Tables::catalogue_partitions`] that no earlier stored pattern serves through a
    /// symmetry (nine tables of six tiles, about 90 MB and 20 s on two cores each).
    pub fn catalogue_base_partitions() -> Vec<Partition> {
        let mut stored: Vec<Vec<u8>> = KORF_FELNER[..2].iter().map(|g| g.to_vec()).collect();
        let mut extra = Vec::new();
        for group in CATALOGUE.iter().flatten() {
            if stored.iter().any(|s| serves(s, group)) {
                continue;
            }
            stored.push(group.to_vec());
            let tiles = vec![group.iter().map(|&c| u16::from(c)).collect()];
            extra.push(Partition::new(tiles, 25).expect("one group of six tiles"));
        }
        extra
    }

    /// The catalogue's seven partitions (Korf & Felner's first) for a 5x5
    /// `goal` with the blank in a corner, carried there as [`Tables::korf_felner_partition`]
    /// carries theirs.
    ///
    /// # Errors
    /// [`TablesError::Goal`] for another size or a blank elsewhere.
    pub fn catalogue_partitions(goal: &Board) -> Result<Vec<Partition>, TablesError> {
        CATALOGUE.iter().map(|p| carry(p, goal)).collect()
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
            let carried: Result<Vec<Partition>, _> = self
                .partitions
                .iter()
                .map(|p| {
                    let groups = p
                        .groups()
                        .iter()
                        .map(|g| {
                            g.iter()
                                .map(|&t| goal.tiles()[usize::from(rho[here[usize::from(t)]])])
                                .collect()
                        })
                        .collect();
                    Partition::new(groups, size.cells())
                })
                .collect();
            let Ok(partitions) = carried else { continue };
            match Tables::catalogue(self.bases.clone(), goal, &partitions) {
                Ok(t) => return Ok(t),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    /// The stored tables (the first database: Korf & Felner's two for their partition).
    pub fn base(&self) -> &Database {
        &self.bases[0]
    }

    /// Every database of stored tables.
    pub fn bases(&self) -> &[Database] {
        &self.bases
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The (first) partition of the goal's tiles.
    pub fn partition(&self) -> &Partition {
        &self.partitions[0]
    }

    /// Every partition whose sums are maximised.
    pub fn partitions(&self) -> &[Partition] {
        &self.partitions
    }

    /// Whether the mirrored position is looked up too.
    pub fn has_reflection(&self) -> bool {
        self.reflect
    }

    /// How many lookups a position takes over every side (groups, times two with
    /// reflection, times the partitions; a group several sides share counted in each), and
    /// how many distinct stored tables serve them.
    pub fn lookups(&self) -> (usize, usize) {
        let stored: usize = self.bases.iter().map(|b| b.tables().len()).sum();
        (self.sides.iter().map(Vec::len).sum(), stored)
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
        let values: Vec<u32> = self
            .lookups
            .iter()
            .map(|l| {
                let mut cells = [0u8; MAX_PATTERN_TILES];
                for (slot, &t) in cells.iter_mut().zip(&l.tiles) {
                    *slot = l.cell[pos[usize::from(t)]];
                }
                let k = l.tiles.len();
                let blank = usize::from(l.cell[pos[0]]);
                let base = &self.bases[l.base];
                u32::from(base.value(l.table, base.index(l.table, &cells[..k], blank)))
            })
            .collect();
        let best = self
            .sides
            .iter()
            .map(|side| side.iter().map(|&i| values[usize::from(i)]).sum::<u32>())
            .max()
            .unwrap_or(0);
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
    fn the_catalogue_needs_nine_more_stored_patterns_and_each_serves_itself_only_once() {
        let extra = Tables::catalogue_base_partitions();
        assert_eq!(extra.len(), 9);
        // Korf & Felner's 2x3 block serves the other three corner blocks, not the group
        // around the blank's corner.
        assert!(serves(&KORF_FELNER[1], &KORF_FELNER[2]));
        assert!(serves(&KORF_FELNER[1], &KORF_FELNER[3]));
        assert!(!serves(&KORF_FELNER[1], &KORF_FELNER[0]));
        // The group around the blank's corner serves its own mirror only.
        assert!(serves(&KORF_FELNER[0], &[1, 2, 5, 6, 7, 12]));
        assert!(!serves(&KORF_FELNER[0], &[3, 4, 7, 8, 9, 12]));
        for p in &extra {
            assert_eq!(p.groups().len(), 1);
            assert_eq!(p.groups()[0].len(), 6);
        }
        let first = Goal::BlankFirst.board(Size::square(5).unwrap()).unwrap();
        let partitions = Tables::catalogue_partitions(&first).unwrap();
        assert_eq!(partitions.len(), 7);
        assert_eq!(partitions[0], Tables::korf_felner_partition(&first).unwrap());
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
