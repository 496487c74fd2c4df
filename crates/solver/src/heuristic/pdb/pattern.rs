//! Partitions of the tiles into patterns, and the board geometry the builder and the search
//! share.

use std::fmt;

use npuzzle_core::Board;
use thiserror::Error;

use super::rank::{MAX_PATTERN_TILES, binomial, factorial};

/// The most cells a board may have to get pattern databases (cell sets are `u32` masks).
pub const MAX_CELLS: usize = 25;

/// The most entries one pattern's table may have (2^30: 512 MiB at 4 bits an entry).
pub const MAX_ENTRIES: u64 = 1 << 30;

/// Why a partition cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PartitionError {
    /// The text is neither sizes (`7-8`) nor tile groups (`1,2,3/4,5,6`).
    #[error(
        "invalid partition {0:?}: expected group sizes like 7-8 or tile groups like 1,2,3/4,5,6"
    )]
    Syntax(String),
    /// The sizes do not add up to the board's tile count.
    #[error("partition sizes add up to {sum} but the board has {tiles} tiles")]
    SizeSum {
        /// The sum of the sizes given.
        sum: usize,
        /// Tiles on the board (cells minus one).
        tiles: usize,
    },
    /// A tile number that is not on the board, or that appears twice.
    #[error("tile {0} is not on the board or is in two groups")]
    BadTile(u16),
    /// A group that is empty or larger than [`MAX_PATTERN_TILES`], or whose table would be
    /// larger than [`MAX_ENTRIES`].
    #[error("a group of {0} tiles is too large for this board (at most 8 tiles and 2^30 entries)")]
    GroupSize(usize),
    /// The board has more than [`MAX_CELLS`] cells.
    #[error("pattern databases need at most {MAX_CELLS} cells, not {0}")]
    BoardTooLarge(usize),
}

/// Disjoint groups of tiles; each group is one pattern with its own table, and the tables add
/// up (Korf & Felner 2002).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Partition {
    groups: Vec<Vec<u16>>,
}

impl Partition {
    /// A partition from explicit groups, checked against a board of `cells` cells.
    ///
    /// # Errors
    /// [`PartitionError`] for an empty or oversized group, a tile out of range or repeated,
    /// or a board too large.
    pub fn new(groups: Vec<Vec<u16>>, cells: usize) -> Result<Partition, PartitionError> {
        if cells > MAX_CELLS {
            return Err(PartitionError::BoardTooLarge(cells));
        }
        let mut seen = vec![false; cells];
        for g in &groups {
            let k = g.len();
            if k == 0 || k > MAX_PATTERN_TILES || entries(cells, k) > MAX_ENTRIES {
                return Err(PartitionError::GroupSize(k));
            }
            for &t in g {
                let ti = usize::from(t);
                if t == 0 || ti >= cells || seen[ti] {
                    return Err(PartitionError::BadTile(t));
                }
                seen[ti] = true;
            }
        }
        if groups.is_empty() {
            return Err(PartitionError::Syntax(String::new()));
        }
        Ok(Partition { groups })
    }

    /// Consecutive groups of the given sizes, taking the tiles in the goal's reading order
    /// (row by row), so each group is a compact block of the goal.
    ///
    /// # Errors
    /// As [`Partition::new`], and [`PartitionError::SizeSum`] when the sizes do not cover
    /// every tile exactly.
    pub fn by_sizes(sizes: &[usize], goal: &Board) -> Result<Partition, PartitionError> {
        let tiles: Vec<u16> = goal.tiles().iter().copied().filter(|&t| t != 0).collect();
        let sum: usize = sizes.iter().sum();
        if sum != tiles.len() {
            return Err(PartitionError::SizeSum { sum, tiles: tiles.len() });
        }
        let mut groups = Vec::new();
        let mut at = 0;
        for &s in sizes {
            groups.push(tiles[at..at + s].to_vec());
            at += s;
        }
        Partition::new(groups, goal.tiles().len())
    }

    /// Reads `7-8` (sizes, see [`Partition::by_sizes`]) or `1,2,3/4,5,6` (groups of tiles,
    /// separated by `/`; tiles by commas or spaces).
    ///
    /// # Errors
    /// [`PartitionError`] as in [`Partition::new`] and [`Partition::by_sizes`].
    pub fn parse(text: &str, goal: &Board) -> Result<Partition, PartitionError> {
        let text = text.trim();
        let syntax = || PartitionError::Syntax(text.chars().take(60).collect());
        if text.contains('/') || text.contains(',') || text.contains(' ') {
            let groups = text
                .split('/')
                .map(|g| {
                    g.split([',', ' '])
                        .filter(|s| !s.is_empty())
                        .map(|s| s.parse::<u16>().map_err(|_| syntax()))
                        .collect::<Result<Vec<u16>, _>>()
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Partition::new(groups, goal.tiles().len());
        }
        let sizes = text
            .split('-')
            .map(|s| s.parse::<usize>().ok().filter(|&k| k > 0 && k <= 64))
            .collect::<Option<Vec<usize>>>()
            .ok_or_else(syntax)?;
        Partition::by_sizes(&sizes, goal)
    }

    /// The strongest partition worth building for `goal`'s board: 7-8 on 4x4; 6-6-6-6 on
    /// 5x5 (Korf & Felner's 2x3 blocks when the blank's goal cell is outside them); on other
    /// boards, equal groups as large as keep each table under 2^26 entries.
    ///
    /// # Errors
    /// [`PartitionError::BoardTooLarge`] above [`MAX_CELLS`] cells.
    pub fn full(goal: &Board) -> Result<Partition, PartitionError> {
        let cells = goal.tiles().len();
        if cells == 16 {
            return Partition::by_sizes(&[7, 8], goal);
        }
        if goal.width() == 5 && goal.height() == 5 {
            const BLOCKS: [[usize; 6]; 4] = [
                [1, 2, 5, 6, 7, 12],
                [3, 4, 8, 9, 13, 14],
                [10, 11, 15, 16, 20, 21],
                [17, 18, 19, 22, 23, 24],
            ];
            let groups: Vec<Vec<u16>> =
                BLOCKS.iter().map(|b| b.iter().map(|&c| goal.tiles()[c]).collect()).collect();
            if groups.iter().flatten().all(|&t| t != 0) {
                return Partition::new(groups, cells);
            }
            return Partition::by_sizes(&[6, 6, 6, 6], goal);
        }
        Partition::balanced(goal, 1 << 26)
    }

    /// A partition that builds in about a second: 6-6-3 on 4x4; on other boards, equal
    /// groups as large as keep each table under 2^23 entries.
    ///
    /// # Errors
    /// [`PartitionError::BoardTooLarge`] above [`MAX_CELLS`] cells.
    pub fn small(goal: &Board) -> Result<Partition, PartitionError> {
        let cells = goal.tiles().len();
        if cells == 16 {
            return Partition::by_sizes(&[6, 6, 3], goal);
        }
        Partition::balanced(goal, 1 << 23)
    }

    fn balanced(goal: &Board, budget: u64) -> Result<Partition, PartitionError> {
        let cells = goal.tiles().len();
        if cells > MAX_CELLS {
            return Err(PartitionError::BoardTooLarge(cells));
        }
        let tiles = cells - 1;
        let most = (1..=MAX_PATTERN_TILES.min(tiles))
            .take_while(|&k| entries(cells, k) <= budget)
            .last()
            .unwrap_or(1);
        let groups = tiles.div_ceil(most);
        let sizes: Vec<usize> =
            (0..groups).map(|i| tiles / groups + usize::from(i < tiles % groups)).collect();
        Partition::by_sizes(&sizes, goal)
    }

    /// The groups, in order.
    pub fn groups(&self) -> &[Vec<u16>] {
        &self.groups
    }

    /// The group sizes joined by `-`, for example `7-8`.
    pub fn sizes(&self) -> String {
        self.groups.iter().map(|g| g.len().to_string()).collect::<Vec<_>>().join("-")
    }

    /// Total table entries over all groups, on a board of `cells` cells.
    pub fn entries(&self, cells: usize) -> u64 {
        self.groups.iter().map(|g| entries(cells, g.len())).sum()
    }
}

/// `C(cells, k) * k!`: the placements of `k` distinct tiles on `cells` cells.
pub fn entries(cells: usize, k: usize) -> u64 {
    binomial(cells, k).saturating_mul(factorial(k))
}

/// The entries of a table with one entry per (placement, blank region) for a group of `k`
/// tiles on a `width` x `height` board: the regions the blank may be in, over every cell set
/// of the group, times `k!`. Counted once a process for each shape and group size: every
/// file header's check asks (a listing of the cache reads every header), and counting them
/// for a group of 8 on 4x4 takes about 40 ms.
pub(crate) fn region_entries(width: usize, height: usize, k: usize) -> u64 {
    use std::sync::{Mutex, PoisonError};
    /// A board's width and height, a group size, and its entries.
    type Counted = ((usize, usize, usize), u64);
    static COUNTED: Mutex<Vec<Counted>> = Mutex::new(Vec::new());
    let key = (width, height, k);
    let counted = || COUNTED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(&(_, n)) = counted().iter().find(|(at, _)| *at == key) {
        return n;
    }
    // Counted without the lock held: two threads may both count, and agree.
    let n = super::build::Layout::new(&Geometry::new(width, height), k).states();
    let mut all = counted();
    if !all.iter().any(|(at, _)| *at == key) {
        all.push((key, n));
    }
    n
}

impl fmt::Display for Partition {
    /// Groups separated by `/`, tiles by commas: `1,2,3,4,5,6,7/8,9,10,11,12,13,14,15`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, g) in self.groups.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            let tiles: Vec<String> = g.iter().map(u16::to_string).collect();
            f.write_str(&tiles.join(","))?;
        }
        Ok(())
    }
}

/// A board's cells as bit masks: who neighbours whom, and distances.
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    pub(crate) width: usize,
    pub(crate) cells: usize,
    /// Every cell's neighbours, as a mask.
    pub(crate) neighbours: Vec<u32>,
    all: u32,
    not_left: u32,
    not_right: u32,
}

impl Geometry {
    pub(crate) fn new(width: usize, height: usize) -> Geometry {
        let cells = width * height;
        debug_assert!(cells <= 32);
        let all = if cells == 32 { u32::MAX } else { (1u32 << cells) - 1 };
        let mut not_left = all;
        let mut not_right = all;
        for y in 0..height {
            not_left &= !(1 << (y * width));
            not_right &= !(1 << (y * width + width - 1));
        }
        let mut g = Geometry { width, cells, neighbours: vec![], all, not_left, not_right };
        g.neighbours = (0..cells).map(|c| g.spread(1 << c)).collect();
        g
    }

    /// The cells next to any cell of `x` (without `x` itself unless a neighbour).
    #[inline]
    pub(crate) fn spread(&self, x: u32) -> u32 {
        let w = self.width;
        (((x & self.not_right) << 1) | ((x & self.not_left) >> 1) | (x << w) | (x >> w)) & self.all
    }

    /// The connected part of `free` that holds the cells of `seed`.
    #[inline]
    pub(crate) fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut r = seed & free;
        loop {
            let next = (r | self.spread(r)) & free;
            if next == r {
                return r;
            }
            r = next;
        }
    }

    /// The connected parts of `free`, in the order of their lowest cells.
    pub(crate) fn regions(&self, free: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut rest = free;
        while rest != 0 {
            let r = self.flood(rest & rest.wrapping_neg(), free);
            out.push(r);
            rest &= !r;
        }
    }

    /// The index (as in [`Geometry::regions`]) of the part of `free` holding `cell`.
    #[inline]
    pub(crate) fn region_index(&self, free: u32, cell: usize) -> usize {
        let mut rest = free;
        let mut i = 0;
        loop {
            let r = self.flood(rest & rest.wrapping_neg(), free);
            if r & (1 << cell) != 0 {
                return i;
            }
            rest &= !r;
            i += 1;
        }
    }

    /// All cells.
    pub(crate) fn all(&self) -> u32 {
        self.all
    }

    /// Taxicab distance between two cells.
    pub(crate) fn distance(&self, a: usize, b: usize) -> u32 {
        let (ax, ay) = (a % self.width, a / self.width);
        let (bx, by) = (b % self.width, b / self.width);
        (ax.abs_diff(bx) + ay.abs_diff(by)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Size};

    #[test]
    fn partitions_parse_and_print() {
        let goal = Goal::BlankFirst.board(Size::square(4).unwrap()).unwrap();
        let p = Partition::parse("7-8", &goal).unwrap();
        assert_eq!(p.to_string(), "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15");
        assert_eq!(p.sizes(), "7-8");
        assert_eq!(Partition::parse(&p.to_string(), &goal).unwrap(), p);
        assert!(matches!(
            Partition::parse("7-7", &goal),
            Err(PartitionError::SizeSum { sum: 14, tiles: 15 })
        ));
        assert!(matches!(Partition::parse("1,2/2,3", &goal), Err(PartitionError::BadTile(2))));
        assert!(matches!(Partition::parse("15", &goal), Err(PartitionError::GroupSize(15))));
        assert!(matches!(Partition::parse("x", &goal), Err(PartitionError::Syntax(_))));
        assert_eq!(Partition::small(&goal).unwrap().sizes(), "6-6-3");
        let g34 = Goal::BlankLast.board(Size::new(3, 4).unwrap()).unwrap();
        assert_eq!(Partition::full(&g34).unwrap().sizes(), "6-5");
        let g55 = Goal::BlankFirst.board(Size::square(5).unwrap()).unwrap();
        assert_eq!(Partition::full(&g55).unwrap().sizes(), "6-6-6-6");
    }

    #[test]
    fn regions_split_the_free_cells() {
        let g = Geometry::new(4, 4);
        // A wall down column 1 splits column 0 from columns 2-3.
        let wall = 0b0010_0010_0010_0010u32;
        let mut out = Vec::new();
        g.regions(g.all() & !wall, &mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0], 0b0001_0001_0001_0001);
        assert_eq!(g.region_index(g.all() & !wall, 3), 1);
        assert_eq!(g.neighbours[0], 0b10010);
        assert_eq!(g.neighbours[3], 0b1000_0100);
    }
}
