//! Additive disjoint pattern databases (Korf & Felner 2002; Felner, Korf & Hanan 2004) for any
//! board of at most 25 cells, any goal and any partition of the tiles.
//!
//! A [`Partition`] splits the tiles into groups; each group's table holds, for every placement
//! of its tiles and every region the blank may be in, the fewest moves *of those tiles* that
//! bring them home, wherever the other tiles are. A [`Database`] is the tables of one
//! partition for one goal.
//!
//! # Zero-aware tables
//! A group's tiles, standing on the board, split the other cells into connected regions; the
//! blank can reach any cell of its own region without moving a tile of the group, and no
//! other. Korf & Felner's tables keep one entry per placement, the fewest moves over every
//! place of the blank ([`Indexing::Placement`]); the tables built here by default keep one
//! per (placement, blank region) ([`Indexing::Region`]; R. Clausecker and A. Reinefeld call
//! them zero-aware, "Zero-aware pattern databases with 1-bit compression for sliding tile
//! puzzles", SoCS 2022). They are at least as strong and consistent, and they take more
//! memory: the 15-puzzle's 8 tiles have 2.75 regions per cell set on average, so its 7-8
//! database is 783 MB instead of 288 MB. Measured on Korf's 100 with 7-8 and reflection, one
//! thread (README, benchmark section): 16,926 generated nodes per instance instead of
//! 29,271, 0.192 s instead of 0.264 s (median of 5 alternating runs); each node costs more,
//! since the table is larger and the index needs the blank's region (see `Regions`).
//!
//! # Admissibility
//! - **Claim.** For every position, the sum over the groups of their table entries is at most
//!   the number of moves left; so is the same sum taken on the position mirrored about the
//!   main diagonal ([`Database::has_reflection`]), and so is the larger of the two.
//! - **Why.** Follow an optimal solution and sort its moves by the tile that moves: each move
//!   moves a tile of exactly one group. The moves of one group's tiles, with the other tiles
//!   made indistinguishable, are a path in that group's abstract space (its tiles' cells and
//!   the blank's region) from the position's state to the goal, so there are at least as many
//!   as the table entry (the table is an exact breadth-first distance in that space; a
//!   per-placement table holds the minimum over the blank's regions, which is smaller still).
//!   The groups are disjoint, so the counts add up to at most the solution's length.
//!   Mirroring about the main diagonal, with the tiles relabelled so the goal maps to itself
//!   (possible when the board is square and the blank's goal cell is on the diagonal), maps
//!   solutions to solutions of the same length, so the bound of the mirror is a bound too.
//! - **Consistent (per region).** A move of a group's tile is one step in that group's
//!   abstract space and changes its entry by exactly one; a move of any other tile keeps the
//!   blank in the same region of every other group (it steps between two cells free of that
//!   group), so their entries stay. So the bound changes by exactly one a move, the mirror's
//!   too, and so does the larger of the two (both have the parity of the distance).
//! - **Not consistent (per placement).** An entry is the minimum over the blank's regions, and
//!   after a move the blank may stand in a region that is farther: when a pattern tile moves,
//!   the bound can jump by more than one move (by up to 7 on 3x3 and 9 on 2x4, mirror
//!   included). IDA* does not need consistency, and the search turns it into cut-offs
//!   (bidirectional pathmax, see [`crate::engine::pdb_search`]); A* over these tables must
//!   reopen nodes, which `npuzzle-search`'s A* does.
//! - **Tested instead.** `tests/pdb.rs` checks on every position of 3x3 and 2x4 boards that
//!   both kinds of table are admissible with the parity of the distance, that the per-region
//!   tables equal an independent search over (tile cells, blank cell), are consistent and at
//!   least the per-placement ones, and how far the per-placement bound jumps between
//!   neighbours.
//! - **Source.** R. E. Korf and A. Felner, "Disjoint pattern database heuristics", *Artificial
//!   Intelligence* 134, 2002; A. Felner, R. E. Korf and S. Hanan, "Additive pattern database
//!   heuristics", *JAIR* 22, 2004 (reflection about the main diagonal, as used there).
//! - **Test.** `tests/pdb.rs` computes exact distances for every position of 2x4, 4x2 and 3x3
//!   boards by breadth-first search, for three goals, and checks that every partition's bound
//!   (mirror included) is at most the distance with the same parity, that a single group of
//!   every tile gives the exact distance, and that one group's table equals an independent
//!   0-1 breadth-first search over (tile cells, blank cell).
//!
//! # Dual lookups
//! The dual of a permutation puzzle's position swaps the roles of tiles and cells (A. Felner,
//! U. Zahavi, J. Schaeffer and R. C. Holte, "Dual lookups in pattern databases", IJCAI 2005;
//! U. Zahavi, A. Felner, R. C. Holte and J. Schaeffer, "Duality in permutation state spaces
//! and the dual search algorithm", *Artificial Intelligence* 172, 2008). On a sliding board
//! the plain dual (the inverse permutation, looked up in the tables) is **not** a lower bound:
//! on every 3x3 position with the 4-4 tables and the blank first, it exceeds the distance
//! at 22,202 positions of 181,440, by up to 13 moves. What holds, and what
//! [`Database::dual_estimate`] and the search's `--dual` use, is this.
//! - **Claim.** Write `home(t)` for the goal cell of tile `t`, `G(c)` for the goal's tile on
//!   cell `c`, and `b` for the blank's cell. Let the dual position put tile `t` on cell
//!   `home(board[home(t)])`, and call `G(b)` its *hole*. Then the Manhattan distance of the
//!   dual position's tiles other than the hole (the blank's label counted as a tile whose goal
//!   is the blank's goal cell), plus twice the entries of the groups whose *zone* holds `b`,
//!   is at most the number of moves left; so is the same bound taken on the mirror. A
//!   group's zone is the part of the cells left free by its tiles at home that holds the
//!   blank's goal cell.
//! - **Why.** Number every tile by its goal cell, so the goal is the identity and a move
//!   swaps the contents of two neighbouring cells, one of them the blank's. If the moves
//!   `O1 … Ok` solve the position `s`, then `s∘O1∘…∘Ok = id`, so `s⁻¹∘Ok∘…∘O1 = id`: the
//!   same swaps in reverse order solve the dual position `s⁻¹`. In `s⁻¹` these swaps all move
//!   the label `b` (it stands where the blank's path ends, and each swap carries it one step
//!   back along the path), so `s⁻¹` is solved in `k` moves in the puzzle whose hole is the
//!   tile `G(b)` and whose goal has that hole on cell `b`; every other label, the blank's
//!   included, is an ordinary tile there. Sorting those `k` moves by the tile that moves:
//!   each tile other than the hole moves at least its Manhattan distance, and a group whose
//!   tiles do not include the hole moves at least as often as its table entry says, provided
//!   the table's goal (its tiles home, the blank in the zone) is the goal this puzzle ends in
//!   (its tiles home, the hole on `b`): that is, when `b` is in the zone. So the groups add
//!   up as in the regular lookup; a per-region table is read for the region of the dual
//!   position's hole, which stands on the blank's goal cell (it is `G(b)`, on
//!   `home(board[b])`). Only when `b` is the blank's goal cell is the dual the same
//!   puzzle (then `dist(s⁻¹) = dist(s)`), which is why the plain lookup fails elsewhere. The
//!   bound has the parity of the distance (each move changes the Manhattan distance of the
//!   hole puzzle's tiles by one), so the search's thresholds still step by two.
//! - **What it buys.** With 7-8 on the 15-puzzle, the 7-tile group's zone is the blank's goal
//!   cell alone and the 8-tile group's is the two top rows (the left two columns on the
//!   mirror). With per-placement tables and before move pruning, Korf's 100 took 33,121
//!   nodes per instance instead of 37,925, but each node reads up to four more entries, and
//!   the search was slower (0.49-0.51 s CPU against 0.34-0.35 s), so it is an option
//!   (`npuzzle bench --dual`), not the default.
//! - **Test.** `tests/pdb.rs` checks the claim (and the parity) on every position of 3x3, 2x4
//!   and 4x2 boards for three goals and several partitions, checks that the plain dual is
//!   not a bound there, and solves boards with the dual search against exact distances.
//!
//! # Storage
//! An entry stores `(distance - manhattan) / 2` for the group's tiles, which is exact (the two
//! have the same parity) and small: 4 bits an entry for every partition we build, so the 7-8
//! partition of the 15-puzzle takes 783 MB per region (288 MB per placement). The search adds the Manhattan distance it keeps
//! incrementally anyway. See [`mod@file`] for the file layout and [`Cache`] for where files live.

mod build;
mod cache;
pub mod file;
mod pattern;
pub(crate) mod rank;
pub mod store;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use npuzzle_core::{Board, Size};
use thiserror::Error;

pub use cache::{Cache, CacheError, CachedFile, Candidate, DEFAULT_CAP, Verified};
pub use file::{Encoding, FORMAT_VERSION, FileError};
pub use pattern::{MAX_CELLS, MAX_ENTRIES, Partition, PartitionError, entries};
pub use rank::MAX_PATTERN_TILES;
pub use store::{Found, NotLoaded, Store};

pub(crate) use pattern::Geometry;

use build::{Interrupted, Layout, PatternSpec};
use file::GroupHeader;

/// How a table's entries are indexed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Indexing {
    /// One entry per placement of the group's tiles: the fewest moves over every region the
    /// blank may be in (Korf & Felner's tables).
    Placement,
    /// One entry per placement and region of the blank ("zero-aware", Clausecker &
    /// Reinefeld): at least as strong, and consistent.
    #[default]
    Region,
}

/// How far a build has got: abstract states expanded out of the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// States expanded so far, over every group.
    pub done: u64,
    /// States there are to expand, over every group.
    pub total: u64,
}

/// Why a database could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BuildError {
    /// The partition names a tile the goal's board does not have.
    #[error("the partition does not fit a {0} board")]
    Partition(Size),
    /// The board has more than [`MAX_CELLS`] cells.
    #[error("pattern databases need at most {MAX_CELLS} cells, not {0}")]
    BoardTooLarge(usize),
    /// The cancel flag was raised.
    #[error("the build was cancelled")]
    Cancelled,
    /// A distance did not fit a byte (not seen on boards of at most 25 cells).
    #[error("a pattern distance exceeds 254 moves")]
    TooDeep,
}

/// The tables of one partition for one goal. Cheap to clone (shared), `Send + Sync`.
#[derive(Clone)]
pub struct Database {
    inner: Arc<Inner>,
}

struct Inner {
    goal: Board,
    partition: Partition,
    tables: Vec<Table>,
    /// Shared by the database readied for many solves ([`Database::for_many_solves`]).
    image: Arc<Image>,
    mirror: Option<Mirror>,
    /// Each tile's contribution to the Manhattan distance from each cell (0 for tiles in no
    /// group): `manhattan[tile * cells + cell]`.
    manhattan: Vec<u8>,
    /// Per table, once made: one bit an entry for the searches (see [`Database::search_bits`]).
    bits: std::sync::OnceLock<Vec<Bits>>,
}

/// The whole file image: built in memory, mapped from the cache, or copied from the cache
/// into anonymous memory.
enum Image {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
    Anonymous(memmap2::Mmap),
}

impl Image {
    fn bytes(&self) -> &[u8] {
        match self {
            Image::Owned(v) => v,
            Image::Mapped(m) | Image::Anonymous(m) => m,
        }
    }
}

/// A copy of `bytes` in anonymous memory that asks for transparent huge pages. Lookups are
/// random reads over hundreds of megabytes: through 4 KiB pages nearly every one also misses
/// the TLB and waits for a page walk (in the profile, the prefetch instructions of the search
/// stalled on exactly that), while 2 MiB pages cover a table with a few hundred TLB entries.
/// Linux gives huge pages to anonymous memory only when asked (`madvise`) on most
/// distributions' default settings; elsewhere the advice is a no-op.
fn anonymous_copy(bytes: &[u8]) -> std::io::Result<memmap2::Mmap> {
    let mut map = anonymous_zeroed(bytes.len())?;
    map.copy_from_slice(bytes);
    map.make_read_only()
}

/// `len` zero bytes of anonymous memory that asks for transparent huge pages (see
/// [`anonymous_copy`]).
fn anonymous_zeroed(len: usize) -> std::io::Result<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(len)?;
    #[cfg(target_os = "linux")]
    {
        // Only a hint: without it the memory still works, on small pages.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    Ok(map)
}

/// The entry after a move of one of a group's tiles, read from the group's one-bit table
/// `bits` (see [`Database::search_bits`]) at `index`: the group's entry before the move was
/// `value` with its tiles' Manhattan distance `md_before`, and their distance is now `md`.
/// The group's distance `d = 2 value + md` moved by exactly one, and the bit,
/// `floor(d / 2) mod 2` of the new distance, says which way.
#[inline(always)]
pub(crate) fn entry_from_bit(bits: &[u8], index: u64, value: u8, md_before: u8, md: u8) -> u8 {
    let bit = (bits[(index >> 3) as usize] >> (index & 7)) & 1;
    let d = 2 * u32::from(value) + u32::from(md_before);
    let up = if ((d + 1) >> 1) & 1 == u32::from(bit) { d + 1 } else { d - 1 };
    ((up - u32::from(md)) / 2) as u8
}

/// The low bits of the eight nibbles of `word`, nibble `j` to bit `j`.
#[inline]
fn low_bits_of_nibbles(word: u32) -> u8 {
    let x = word & 0x1111_1111;
    let x = (x | x >> 3) & 0x0303_0303;
    let x = (x | x >> 6) & 0x000F_000F;
    ((x | x >> 12) & 0xFF) as u8
}

/// Bits appended to bytes, the first in the lowest bit.
struct BitSink<'a> {
    out: &'a mut Vec<u8>,
    acc: u128,
    used: u32,
}

impl BitSink<'_> {
    /// Appends the low `n <= 64` bits of `word`.
    #[inline]
    fn append(&mut self, word: u64, n: u32) {
        self.acc |= u128::from(word) << self.used;
        self.used += n;
        if self.used >= 64 {
            self.out.extend_from_slice(&(self.acc as u64).to_le_bytes());
            self.acc >>= 64;
            self.used -= 64;
        }
    }

    fn finish(self) {
        let bytes = self.acc.to_le_bytes();
        self.out.extend_from_slice(&bytes[..self.used.div_ceil(8) as usize]);
    }
}

/// For the `k` tiles of a pattern on one cell set, `dm[q][p]` the taxicab distance of tile
/// `q` on the set's `p`-th cell from its goal: appends to `out`, bit by bit in bytes
/// (first entry in the lowest bit), `floor(manhattan / 2) mod 2` of every order in
/// lexicographic rank, each repeated `regions` times (the entries `o * R + r`).
///
/// Orders that share their first `k - 4` tiles are a run of 24, whose last four positions
/// take the four tiles left in every order: the runs' bits are made once per set of four
/// tiles and per value of the first positions' distance mod 4, then copied for each prefix
/// (a few operations a run instead of a few an order).
fn half_manhattan_parities(dm: &[[u8; 8]; 8], k: usize, regions: usize, out: &mut Vec<u8>) {
    let tail = k.min(4);
    let head = k - tail;
    let perms: Vec<[u8; 8]> =
        (0..rank::factorial(tail) as u32).map(|r| rank::perm_unrank(r, tail)).collect();
    let run_bits = perms.len() * regions;
    let words = run_bits.div_ceil(64);
    // `runs[(mask * 4 + a) * words ..]`: the run's bits for the tail tiles `mask` when the
    // head's distance is `a` mod 4.
    let mut runs = vec![0u64; (1usize << k) * 4 * words];
    let ones = (1u128 << regions) - 1;
    let mut sums = [0u32; 24];
    for mask in 0u32..1 << k {
        if mask.count_ones() as usize != tail {
            continue;
        }
        let mut tiles = [0usize; 4];
        let mut m = mask;
        for slot in tiles.iter_mut().take(tail) {
            *slot = m.trailing_zeros() as usize;
            m &= m - 1;
        }
        for (sum, perm) in sums.iter_mut().zip(&perms) {
            *sum = (0..tail).map(|i| u32::from(dm[tiles[usize::from(perm[i])]][head + i])).sum();
        }
        for a in 0..4u32 {
            let run = &mut runs[(mask as usize * 4 + a as usize) * words..][..words];
            for (j, &sum) in sums[..perms.len()].iter().enumerate() {
                if ((a + sum) >> 1) & 1 == 1 {
                    // Bits `j R .. (j + 1) R`, across two words at most (R <= 16).
                    let at = j * regions;
                    let bits = ones << (at % 64);
                    run[at / 64] |= bits as u64;
                    if at % 64 + regions > 64 {
                        run[at / 64 + 1] |= (bits >> 64) as u64;
                    }
                }
            }
        }
    }
    fn fill(
        dm: &[[u8; 8]; 8],
        k: usize,
        head: usize,
        p: usize,
        used: u32,
        sum: u32,
        emit: &mut dyn FnMut(u32, u32),
    ) {
        if p == head {
            emit(!used & ((1 << k) - 1), sum & 3);
            return;
        }
        let mut rest = !used & ((1 << k) - 1);
        while rest != 0 {
            let q = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            fill(dm, k, head, p + 1, used | 1 << q, sum + u32::from(dm[q][p]), emit);
        }
    }
    let mut sink = BitSink { out, acc: 0, used: 0 };
    let mut emit = |mask: u32, a: u32| {
        let run = &runs[(mask as usize * 4 + a as usize) * words..][..words];
        let mut left = run_bits;
        for &w in run {
            let n = left.min(64);
            sink.append(w, n as u32);
            left -= n;
        }
    };
    fill(dm, k, head, 0, 0, 0, &mut emit);
    sink.finish();
}

/// A one-bit table (see [`Database::search_bits`]).
enum Bits {
    Owned(Vec<u8>),
    Anonymous(memmap2::Mmap),
}

impl Bits {
    fn bytes(&self) -> &[u8] {
        match self {
            Bits::Owned(v) => v,
            Bits::Anonymous(m) => m,
        }
    }
}

/// One group's table inside the image.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub(crate) tiles: Vec<u16>,
    pub(crate) orders: u64,
    pub(crate) encoding: Encoding,
    /// For a table with one entry per (placement, blank region): where each cell set's
    /// regions start and which holds each cell (see [`Regions`]); empty for a table with one
    /// entry per placement.
    pub(crate) regions: Regions,
    /// Entries in the table.
    entries: u64,
    /// Byte range in the image.
    start: usize,
    len: usize,
}

impl Table {
    /// Whether entries are kept per (placement, blank region).
    pub(crate) fn per_region(&self) -> bool {
        !self.regions.is_empty()
    }

    /// Whether [`Database::search_bits`] can be made for this table: per region, a nibble
    /// an entry, and each cell set's block (`R * k!` entries) starting on a whole byte of
    /// bits, true for every pattern of 4 tiles or more.
    fn has_search_bits(&self) -> bool {
        self.per_region() && self.encoding == Encoding::Nibble && self.orders % 8 == 0
    }
}

/// Where a per-region table keeps its entries. A cell set with `R` regions (its free cells'
/// connected parts, in the order of their lowest cells) owns `R * k!` consecutive entries
/// from its first one, and the entry of order `o` with the blank in region `r` is `o * R + r`
/// within them: the regions of one placement sit side by side, so a search that meets a
/// placement again with the blank elsewhere reads the same cache line, as with one entry
/// per placement. Per cell set, one word holds the first entry's block (in `k!` entries) and
/// `R`, and one or two more hold the region of each cell, four bits a cell: 16 or 24 bytes
/// a set (206 KB for the 15-puzzle's 8 tiles, 4.3 MB for 6 tiles on 25 cells), one cache
/// line to read. The words sit in anonymous memory advised for huge pages: a search reads
/// them at random at every move, and on small pages nearly every read of the 25-cell
/// words missed the TLB.
#[derive(Clone, Debug, Default)]
pub(crate) struct Regions {
    /// The words, little-endian (empty for a per-placement table).
    words: Option<Arc<memmap2::MmapMut>>,
    stride: usize,
}

impl Regions {
    /// The regions of every set of `k` cells on `geometry`'s board: made once per process
    /// for each board shape and `k`, and shared by every table of that size (they depend on
    /// nothing else). A search over many tables of one size, such as the 24-puzzle's
    /// catalogue of eleven 6-tile tables, then reads one 4 MB array, not eleven.
    fn new(geometry: &Geometry, k: usize) -> Regions {
        use std::collections::HashMap;
        use std::sync::{Mutex, PoisonError};
        /// The regions made so far, by (width, cells, pattern size).
        type Made = HashMap<(usize, usize, usize), Regions>;
        static MADE: Mutex<Option<Made>> = Mutex::new(None);
        let key = (geometry.width, geometry.cells, k);
        let mut made = MADE.lock().unwrap_or_else(PoisonError::into_inner);
        made.get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert_with(|| Regions::make(geometry, k))
            .clone()
    }

    /// [`Regions::new`], made.
    fn make(geometry: &Geometry, k: usize) -> Regions {
        let layout = Layout::new(geometry, k);
        let stride = 1 + geometry.cells.div_ceil(16);
        let mut words = vec![0u64; layout.masks.len() * stride];
        let mut regions = Vec::new();
        for (s, &mask) in layout.masks.iter().enumerate() {
            geometry.regions(geometry.all() & !mask, &mut regions);
            // At most 15 regions: on 25 cells, k tiles wall off at most k free parts.
            assert!(regions.len() < 16, "more than 15 regions");
            let at = s * stride;
            words[at] = layout.region_base[s] | (regions.len() as u64) << 32;
            for (r, &region) in regions.iter().enumerate() {
                let mut rest = region;
                while rest != 0 {
                    let c = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    words[at + 1 + c / 16] |= (r as u64) << ((c % 16) * 4);
                }
            }
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let map = match anonymous_zeroed(bytes.len()) {
            Ok(mut map) => {
                map.copy_from_slice(&bytes);
                map
            }
            // No anonymous mapping to be had: the search still works on an ordinary one...
            Err(_) => {
                let mut map = memmap2::MmapOptions::new()
                    .len(bytes.len())
                    .map_anon()
                    .expect("an anonymous mapping of a few megabytes");
                map.copy_from_slice(&bytes);
                map
            }
        };
        Regions { words: Some(Arc::new(map)), stride }
    }

    /// Whether there are none (a per-placement table).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.words.is_none()
    }

    /// The words' bytes.
    #[inline(always)]
    fn bytes(&self) -> &[u8] {
        self.words.as_deref().map_or(&[], |m| &m[..])
    }

    /// Word `i`.
    #[inline(always)]
    fn word(bytes: &[u8], i: usize) -> u64 {
        let b: [u8; 8] = bytes[i * 8..i * 8 + 8].try_into().expect("eight bytes");
        u64::from_le_bytes(b)
    }

    /// Asks for the cache lines that [`Regions::index`] reads for set `set` with the blank on
    /// `blank` (a hint; never faults).
    #[inline(always)]
    pub(crate) fn prefetch(&self, set: u32, blank: u32) {
        let at = set as usize * self.stride;
        let entries = crate::engine::common::Entries { bytes: self.bytes(), nibble: false };
        entries.prefetch(at as u64 * 8);
        entries.prefetch((at + 1 + (blank as usize >> 4)) as u64 * 8);
    }

    /// The entry of the tiles in order `order` (of `orders`) on cell set `set` (its
    /// colexicographic rank) with the blank on cell `blank` (a free cell of the set).
    #[inline(always)]
    pub(crate) fn index(&self, set: u32, blank: u32, order: u32, orders: u32) -> u64 {
        let at = set as usize * self.stride;
        let bytes = self.bytes();
        let head = Regions::word(bytes, at);
        let word = Regions::word(bytes, at + 1 + (blank as usize >> 4));
        let region = (word >> ((blank & 15) * 4)) & 15;
        (head & 0xFFFF_FFFF) * u64::from(orders) + u64::from(order) * (head >> 32) + region
    }
}

/// The reflection about the main diagonal that maps the goal to itself.
#[derive(Clone, Debug)]
pub(crate) struct Mirror {
    /// The mirrored cell of each cell.
    pub(crate) cell: Vec<u8>,
    /// The label each tile takes in the mirrored position.
    pub(crate) tile: Vec<u8>,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database")
            .field("size", &self.size())
            .field("goal", &self.inner.goal)
            .field("partition", &self.inner.partition.to_string())
            .finish_non_exhaustive()
    }
}

impl Database {
    /// Builds every group's table by breadth-first search on `threads` threads, calling
    /// `progress` now and then (from any of the threads).
    ///
    /// # Errors
    /// [`BuildError`] when the partition does not fit the board, or `cancel` was raised.
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal, Size};
    /// use npuzzle_solver::heuristic::pdb::{Database, Partition};
    /// let goal = Goal::BlankLast.board(Size::new(3, 3)?)?;
    /// let partition = Partition::parse("4-4", &goal)?;
    /// let db = Database::build(&goal, &partition, 1, &|_| {}, None)?;
    /// let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
    /// assert!(db.estimate(&board) <= 31); // 31 moves are optimal
    /// assert_eq!(db.estimate(&goal), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(
        goal: &Board,
        partition: &Partition,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: Option<&AtomicBool>,
    ) -> Result<Database, BuildError> {
        Database::build_indexed(goal, partition, Indexing::default(), threads, progress, cancel)
    }

    /// [`Database::build`] with the tables indexed as `indexing` says.
    ///
    /// # Errors
    /// As [`Database::build`].
    pub fn build_indexed(
        goal: &Board,
        partition: &Partition,
        indexing: Indexing,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        cancel: Option<&AtomicBool>,
    ) -> Result<Database, BuildError> {
        let per_region = indexing == Indexing::Region;
        let size = goal.size();
        let cells = size.cells();
        if cells > MAX_CELLS {
            return Err(BuildError::BoardTooLarge(cells));
        }
        if partition.groups().iter().flatten().any(|&t| usize::from(t) >= cells) {
            return Err(BuildError::Partition(size));
        }
        let geometry = Geometry::new(size.width(), size.height());
        let positions = goal.positions();
        let layouts: Vec<Layout> =
            partition.groups().iter().map(|g| Layout::new(&geometry, g.len())).collect();
        let total = layouts.iter().map(Layout::states).sum();
        let done = AtomicU64::new(0);
        let report = |n: u64| {
            let d = done.fetch_add(n, Relaxed) + n;
            progress(Progress { done: d, total });
        };
        let mut tables = Vec::new();
        for (group, layout) in partition.groups().iter().zip(&layouts) {
            let spec = PatternSpec {
                geometry: geometry.clone(),
                goal_cells: group.iter().map(|&t| positions[usize::from(t)] as u8).collect(),
                blank_goal: goal.blank() as u8,
            };
            let mut table = build::distances(&spec, layout, per_region, threads, &report, cancel)
                .map_err(|e| match e {
                Interrupted::Cancelled => BuildError::Cancelled,
                Interrupted::TooDeep => BuildError::TooDeep,
            })?;
            let most = build::to_extra(&spec, layout, per_region, &mut table, threads);
            if per_region {
                build::interleave(layout, &mut table);
            }
            let encoding = if most <= 15 { Encoding::Nibble } else { Encoding::Byte };
            if encoding == Encoding::Nibble {
                let packed: Vec<u8> =
                    table.chunks(2).map(|p| p[0] | p.get(1).map_or(0, |&b| b << 4)).collect();
                table = packed;
            }
            tables.push((group.clone(), encoding, table));
        }
        progress(Progress { done: total, total });
        let mut offset = 0u64;
        let mut groups = Vec::new();
        for (tiles, encoding, bytes) in &tables {
            groups.push(GroupHeader {
                tiles: tiles.clone(),
                encoding: *encoding,
                per_region,
                offset,
                len: bytes.len() as u64,
            });
            offset = file::align(offset + bytes.len() as u64);
        }
        let mut image = file::encode_header(size.width(), size.height(), goal.tiles(), &groups);
        let header_len = image.len();
        let data_len = groups.last().map_or(0, |g| g.offset + g.len);
        image.reserve_exact(data_len as usize);
        for ((_, _, bytes), g) in tables.iter().zip(&groups) {
            image.resize(header_len + g.offset as usize, 0);
            image.extend_from_slice(bytes);
        }
        drop(tables);
        file::seal(&mut image);
        // The search reads the tables at random: on huge pages if the system gives them.
        let image = match anonymous_copy(&image) {
            Ok(map) => Image::Anonymous(map),
            Err(_) => Image::Owned(image),
        };
        Database::from_image(image).map_err(|_| BuildError::Partition(size))
    }

    /// A database from a file image, checked (magic, version, lengths, fields, checksum).
    ///
    /// # Errors
    /// [`FileError`] naming what does not hold.
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Database, FileError> {
        Database::from_image(Image::Owned(bytes))
    }

    pub(crate) fn from_mmap(map: memmap2::Mmap) -> Result<Database, FileError> {
        Database::from_image(Image::Mapped(map))
    }

    fn from_image(image: Image) -> Result<Database, FileError> {
        let header = file::decode(image.bytes())?;
        let size =
            Size::new(header.width, header.height).map_err(|_| FileError::Header("board size"))?;
        let goal = Board::new(size, header.goal.clone())
            .map_err(|_| FileError::Header("goal is not a board"))?;
        let groups: Vec<Vec<u16>> = header.groups.iter().map(|g| g.tiles.clone()).collect();
        let partition =
            Partition::new(groups, size.cells()).map_err(|_| FileError::Header("partition"))?;
        // The order-update tables the search needs (built once per process, about 1 MB),
        // now rather than on the first solve. (The full shift tables, 5 MB and a sixth of a
        // CPU-second for 8 tiles, are only the builder's and the 24-puzzle engine's.)
        rank::Suffixes::get();
        let geometry = Geometry::new(size.width(), size.height());
        let tables = header
            .groups
            .iter()
            .map(|g| Table {
                tiles: g.tiles.clone(),
                orders: rank::factorial(g.tiles.len()),
                encoding: g.encoding,
                regions: if g.per_region {
                    Regions::new(&geometry, g.tiles.len())
                } else {
                    Regions::default()
                },
                entries: if g.per_region {
                    pattern::region_entries(size.width(), size.height(), g.tiles.len())
                } else {
                    pattern::entries(size.cells(), g.tiles.len())
                },
                start: header.header_len + g.offset as usize,
                len: g.len as usize,
            })
            .collect();
        let covers_all = partition.groups().iter().map(Vec::len).sum::<usize>() + 1 == size.cells();
        let mirror = if covers_all { mirror_of(&goal) } else { None };
        let cells = size.cells();
        let goal_pos = goal.positions();
        let mut manhattan = vec![0u8; cells * cells];
        for &t in partition.groups().iter().flatten() {
            let t = usize::from(t);
            for c in 0..cells {
                manhattan[t * cells + c] = geometry.distance(c, goal_pos[t]) as u8;
            }
        }
        Ok(Database {
            inner: Arc::new(Inner {
                goal,
                partition,
                tables,
                image: Arc::new(image),
                mirror,
                manhattan,
                bits: std::sync::OnceLock::new(),
            }),
        })
    }

    /// The whole file image (header and tables), as the cache stores it.
    pub fn bytes(&self) -> &[u8] {
        self.inner.image.bytes()
    }

    /// The same database with its tables copied into this process's anonymous memory, on
    /// transparent huge pages where the system gives them. Lookups are random reads over
    /// hundreds of megabytes: a mapped file is read through 4 KiB pages, and nearly every
    /// lookup then also misses the TLB. Worth it for many solves (a benchmark, a batch); one
    /// solve of a few milliseconds is better served by the mapped file. Measured on the 7-8
    /// tables and Korf's 100 instances: see the README's benchmark section.
    pub fn in_memory(&self) -> Database {
        self.copied()
    }

    /// The same database made ready for many solves by the 15-puzzle's search (a
    /// benchmark, a batch): per-region tables (the default, [`Indexing::Region`]) get
    /// one-bit copies ([`Database::reads_bits`]: about a second for the 7-8 tables on two
    /// cores), on transparent huge pages where the system gives them, and the searches read
    /// those; the full entries stay where they are, read only at each search's root. Other
    /// tables are copied as by [`Database::in_memory`].
    ///
    /// On the 7-8 tables the searches ran about 1.25 times as fast (DeepCubeA's 500
    /// 15-puzzles); on the 24-puzzle's 6-tile tables, no faster than on the copy, whose
    /// 181 MB take a tenth of the time to make: the 24-puzzle keeps the copy. See the
    /// README's benchmark section.
    pub fn for_many_solves(&self) -> Database {
        if !self.inner.tables.iter().all(Table::has_search_bits) {
            return self.copied();
        }
        let inner = &self.inner;
        let db = Database {
            inner: Arc::new(Inner {
                goal: inner.goal.clone(),
                partition: inner.partition.clone(),
                tables: inner.tables.clone(),
                image: Arc::clone(&inner.image),
                mirror: inner.mirror.clone(),
                manhattan: inner.manhattan.clone(),
                bits: std::sync::OnceLock::new(),
            }),
        };
        db.make_search_bits();
        db
    }

    fn copied(&self) -> Database {
        match &*self.inner.image {
            Image::Owned(_) | Image::Anonymous(_) => self.clone(),
            Image::Mapped(m) => {
                let image =
                    anonymous_copy(m).map_or_else(|_| Image::Owned(m.to_vec()), Image::Anonymous);
                let inner = &self.inner;
                Database {
                    inner: Arc::new(Inner {
                        goal: inner.goal.clone(),
                        partition: inner.partition.clone(),
                        tables: inner.tables.clone(),
                        image: Arc::new(image),
                        mirror: inner.mirror.clone(),
                        manhattan: inner.manhattan.clone(),
                        bits: std::sync::OnceLock::new(),
                    }),
                }
            }
        }
    }

    /// Whether the searches read one-bit copies of every table ([`Database::for_many_solves`]
    /// makes them for per-region tables).
    pub fn reads_bits(&self) -> bool {
        self.inner.bits.get().is_some_and(|b| b.iter().all(|x| !x.bytes().is_empty()))
    }

    /// Makes the one-bit tables of [`Database::search_bits`] (seconds for the 7-8 tables).
    pub(crate) fn make_search_bits(&self) {
        self.inner.bits.get_or_init(|| {
            (0..self.inner.tables.len()).map(|t| self.half_distance_parity(t)).collect()
        });
    }

    /// One bit an entry of per-region table `t`, once made ([`Database::make_search_bits`];
    /// empty otherwise, and for per-placement tables): the parity of half the group's
    /// distance, `floor(d / 2) mod 2`. Per-region tables are consistent, so a move of one of
    /// the group's tiles changes its distance by exactly one, up or down; the two candidates
    /// `d + 1` and `d - 1` differ by two, so their halves differ by one, and the bit tells
    /// them apart. A search that knows the root's distances then follows every move from
    /// this bit, reading a table 4 times smaller (Clausecker & Reinefeld 2022).
    pub(crate) fn search_bits(&self, t: usize) -> &[u8] {
        self.inner.bits.get().map_or(&[], |b| b[t].bytes())
    }

    /// The bits of [`Database::search_bits`] for table `t`.
    fn half_distance_parity(&self, t: usize) -> Bits {
        let table = &self.inner.tables[t];
        let k = table.tiles.len();
        let orders = table.orders as usize;
        if !table.has_search_bits() {
            return Bits::Owned(Vec::new());
        }
        let size = self.size();
        let geometry = Geometry::new(size.width(), size.height());
        let layout = Layout::new(&geometry, k);
        let goal_pos = self.inner.goal.positions();
        let homes: Vec<usize> = table.tiles.iter().map(|&x| goal_pos[usize::from(x)]).collect();
        let nibbles = self.table_bytes(t);
        let total = (*layout.region_base.last().unwrap_or(&0) as usize) * orders;
        // Read at random like the tables: on huge pages where the system gives them.
        let mut anonymous = anonymous_zeroed(total / 8).ok();
        let mut owned = Vec::new();
        if anonymous.is_none() {
            owned = vec![0u8; total / 8];
        }
        let bits: &mut [u8] = match &mut anonymous {
            Some(map) => map,
            None => &mut owned,
        };
        let sets = layout.masks.len();
        let threads = std::thread::available_parallelism().map_or(1, usize::from).clamp(1, 8);
        // Contiguous runs of sets, one a thread, each writing its own bytes.
        let byte_of = |s: usize| layout.region_base[s] as usize * orders / 8;
        let mut rest: &mut [u8] = bits;
        let mut parts = Vec::with_capacity(threads);
        let mut at = 0;
        for i in 1..=threads {
            let end_set = sets * i / threads;
            let (part, tail) = rest.split_at_mut(byte_of(end_set) - byte_of(at));
            parts.push((at, end_set, part));
            rest = tail;
            at = end_set;
        }
        std::thread::scope(|scope| {
            for (first_set, end_set, part) in parts {
                let (layout, geometry, homes) = (&layout, &geometry, &homes);
                scope.spawn(move || {
                    let mut flips = Vec::new();
                    let offset = byte_of(first_set);
                    for s in first_set..end_set {
                        let mut dm = [[0u8; 8]; 8];
                        let mut m = layout.masks[s];
                        let mut p = 0;
                        while m != 0 {
                            let c = m.trailing_zeros() as usize;
                            m &= m - 1;
                            for (q, &home) in homes.iter().enumerate() {
                                dm[q][p] = geometry.distance(home, c) as u8;
                            }
                            p += 1;
                        }
                        let regions = (layout.region_base[s + 1] - layout.region_base[s]) as usize;
                        flips.clear();
                        half_manhattan_parities(&dm, k, regions, &mut flips);
                        let from = byte_of(s);
                        for (j, &flip) in flips.iter().enumerate() {
                            // Entries `8 (from + j)` to `+ 8`: four bytes of nibbles.
                            let n = 4 * (from + j);
                            let word = u32::from_le_bytes([
                                nibbles[n],
                                nibbles[n + 1],
                                nibbles[n + 2],
                                nibbles[n + 3],
                            ]);
                            part[from - offset + j] = low_bits_of_nibbles(word) ^ flip;
                        }
                    }
                });
            }
        });
        match anonymous {
            // Should the protection fail, the searches read the full entries instead.
            Some(map) => {
                map.make_read_only().map_or_else(|_| Bits::Owned(Vec::new()), Bits::Anonymous)
            }
            None => Bits::Owned(owned),
        }
    }

    /// Whether the tables are mapped from a file rather than held in memory.
    pub fn is_mapped(&self) -> bool {
        matches!(*self.inner.image, Image::Mapped(_))
    }

    /// The board size.
    pub fn size(&self) -> Size {
        self.inner.goal.size()
    }

    /// The goal the distances lead to.
    pub fn goal(&self) -> &Board {
        &self.inner.goal
    }

    /// The partition of the tiles.
    pub fn partition(&self) -> &Partition {
        &self.inner.partition
    }

    /// Table entries over every group (one per placement, or per placement and region of
    /// the blank).
    pub fn entries(&self) -> u64 {
        self.inner.tables.iter().map(|t| t.entries).sum()
    }

    /// How each group's table is stored.
    pub fn encodings(&self) -> Vec<Encoding> {
        self.inner.tables.iter().map(|t| t.encoding).collect()
    }

    /// Whether the groups hold every tile (what the optimal search needs: its goal test is
    /// "every tile home").
    pub fn covers_every_tile(&self) -> bool {
        self.inner.partition.groups().iter().map(Vec::len).sum::<usize>() + 1 == self.size().cells()
    }

    /// Whether lookups also use the position mirrored about the main diagonal (square boards
    /// whose goal has the blank on the diagonal, with a partition of every tile, so the
    /// Manhattan distance is the same for both).
    pub fn has_reflection(&self) -> bool {
        self.inner.mirror.is_some()
    }

    pub(crate) fn tables(&self) -> &[Table] {
        &self.inner.tables
    }

    pub(crate) fn mirror(&self) -> Option<&Mirror> {
        self.inner.mirror.as_ref()
    }

    /// The bytes of table `t`.
    #[inline]
    pub(crate) fn table_bytes(&self, t: usize) -> &[u8] {
        let table = &self.inner.tables[t];
        &self.inner.image.bytes()[table.start..table.start + table.len]
    }

    /// The lower bound for `board` (a board of this database's size): its Manhattan
    /// distance plus twice the larger of the table sums for it and for its mirror.
    ///
    /// # Panics
    /// If `board` is not of this database's size.
    pub fn estimate(&self, board: &Board) -> u32 {
        assert_eq!(board.size(), self.size(), "board size");
        let tiles: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
        let md = self.manhattan(&tiles);
        let mut extra = self.extra(&tiles);
        if let Some(m) = self.mirror() {
            let mut mirrored = vec![0u8; tiles.len()];
            for (c, &t) in tiles.iter().enumerate() {
                mirrored[usize::from(m.cell[c])] = m.tile[usize::from(t)];
            }
            extra = extra.max(self.extra(&mirrored));
        }
        md + 2 * extra
    }

    /// The dual lower bound for `board` (a board of this database's size), the larger of
    /// the one for it and the one for its mirror: see "Dual lookups" in the module docs.
    ///
    /// # Panics
    /// If `board` is not of this database's size.
    pub fn dual_estimate(&self, board: &Board) -> u32 {
        assert_eq!(board.size(), self.size(), "board size");
        let tiles: Vec<u8> = board.tiles().iter().map(|&t| t as u8).collect();
        let zones = self.dual_zones();
        let mut best = self.dual(&tiles, &zones);
        if let Some(m) = self.mirror() {
            let mut mirrored = vec![0u8; tiles.len()];
            for (c, &t) in tiles.iter().enumerate() {
                mirrored[usize::from(m.cell[c])] = m.tile[usize::from(t)];
            }
            best = best.max(self.dual(&mirrored, &zones));
        }
        best
    }

    /// For each group, the cells the blank may stand on for the group's table to serve the
    /// dual lookup: the part of the free cells around the group's goal cells that holds the
    /// blank's goal cell.
    pub(crate) fn dual_zones(&self) -> Vec<u32> {
        let goal = &self.inner.goal;
        let g = Geometry::new(goal.width(), goal.height());
        let pos = goal.positions();
        self.inner
            .tables
            .iter()
            .map(|t| {
                let home = t.tiles.iter().fold(0u32, |m, &x| m | 1 << pos[usize::from(x)]);
                g.flood(1 << goal.blank(), g.all() & !home)
            })
            .collect()
    }

    /// The dual bound of the position `tiles` (cell to tile), one side.
    fn dual(&self, tiles: &[u8], zones: &[u32]) -> u32 {
        let goal = &self.inner.goal;
        let g = Geometry::new(goal.width(), goal.height());
        let pos = goal.positions();
        let n = tiles.len();
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        // The dual position puts tile `t` on the goal cell of the tile that stands on `t`'s
        // goal cell; its hole is the tile whose goal cell the blank stands on.
        let dual_cell = |t: usize| pos[usize::from(tiles[pos[t]])] as u8;
        let hole = usize::from(goal.tiles()[blank]);
        let mut md = 0;
        for t in (0..n).filter(|&t| t != hole) {
            md += g.distance(usize::from(dual_cell(t)), pos[t]);
        }
        let mut cells = [0u8; MAX_PATTERN_TILES];
        let mut extra = 0;
        for (i, table) in self.inner.tables.iter().enumerate() {
            if zones[i] & (1 << blank) == 0 {
                continue;
            }
            let k = table.tiles.len();
            for (slot, &x) in cells.iter_mut().zip(&table.tiles) {
                *slot = dual_cell(usize::from(x));
            }
            // The hole stands on the blank's goal cell (see the module docs).
            extra += u32::from(self.value(i, self.index(i, &cells[..k], goal.blank())));
        }
        md + 2 * extra
    }

    /// The Manhattan distance of the tiles of the groups.
    fn manhattan(&self, tiles: &[u8]) -> u32 {
        let n = tiles.len();
        tiles
            .iter()
            .enumerate()
            .map(|(c, &t)| u32::from(self.inner.manhattan[usize::from(t) * n + c]))
            .sum()
    }

    /// The sum of the table entries for the position `tiles` (cell to tile).
    fn extra(&self, tiles: &[u8]) -> u32 {
        let mut cell_of = vec![0u8; tiles.len()];
        for (c, &t) in tiles.iter().enumerate() {
            cell_of[usize::from(t)] = c as u8;
        }
        let mut cells = [0u8; MAX_PATTERN_TILES];
        let mut sum = 0;
        for (t, table) in self.inner.tables.iter().enumerate() {
            let k = table.tiles.len();
            for (slot, &x) in cells.iter_mut().zip(&table.tiles) {
                *slot = cell_of[usize::from(x)];
            }
            sum += u32::from(self.value(t, self.index(t, &cells[..k], cell_of[0].into())));
        }
        sum
    }

    /// The entry index in table `t` of its group's tiles standing on `cells` (in group
    /// order) with the blank on cell `blank`.
    pub(crate) fn index(&self, t: usize, cells: &[u8], blank: usize) -> u64 {
        let table = &self.inner.tables[t];
        let placement = index_of(cells, table.orders);
        if table.per_region() {
            let (set, order) = (placement / table.orders, placement % table.orders);
            table.regions.index(set as u32, blank as u32, order as u32, table.orders as u32)
        } else {
            placement
        }
    }

    /// Entry `index` of table `t`.
    #[inline]
    pub(crate) fn value(&self, t: usize, index: u64) -> u8 {
        let bytes = self.table_bytes(t);
        match self.inner.tables[t].encoding {
            Encoding::Nibble => (bytes[(index >> 1) as usize] >> ((index & 1) << 2)) & 15,
            Encoding::Byte => bytes[index as usize],
        }
    }
}

/// The table index of a group whose tiles (in group order) stand on `cells`.
pub(crate) fn index_of(cells: &[u8], orders: u64) -> u64 {
    let mask = cells.iter().fold(0u32, |m, &c| m | 1 << c);
    let mut order = [0u8; MAX_PATTERN_TILES];
    for (q, &c) in cells.iter().enumerate() {
        order[(mask & ((1 << c) - 1)).count_ones() as usize] = q as u8;
    }
    u64::from(rank::subset_rank(mask)) * orders + u64::from(rank::perm_rank(&order[..cells.len()]))
}

/// The diagonal reflection that fixes `goal`, if there is one.
fn mirror_of(goal: &Board) -> Option<Mirror> {
    let (w, h) = (goal.width(), goal.height());
    if w != h {
        return None;
    }
    let (bx, by) = goal.blank_xy();
    if bx != by {
        return None;
    }
    let cell: Vec<u8> = (0..w * h).map(|c| ((c % w) * w + c / w) as u8).collect();
    let pos = goal.positions();
    let tile: Vec<u8> = (0..w * h).map(|t| goal.tiles()[usize::from(cell[pos[t]])] as u8).collect();
    Some(Mirror { cell, tile })
}
