//! Beam search: breadth-first, keeping only the `width` best children of each layer.
//!
//! Every node of a layer has the same path length, so "best" is the smallest ranking value
//! ([`Weights`]: Manhattan, linear conflict and the squared distances), ties broken by a
//! seeded hash. Positions reached twice in one layer (two blank routes
//! around a block) are kept once, by their Zobrist hash. Positions of earlier layers are not
//! remembered in full: a set of every kept hash made the search twice as slow (random reads
//! into tens of megabytes) for the same lengths on DeepCubeA's 35-puzzles (154, 135, 176
//! moves with it; 152, 135, 176 without), since a position comes back at the earliest 12
//! moves later (a cycle round a 2x2 block) and a wide beam rarely returns. A narrow one
//! does, and went round in circles: a small lossy table of recent positions stops that. The
//! first child with Manhattan distance 0 is the goal, and its path is read back through the
//! parents each layer records.
//!
//! Its cost is linear in `width x depth`, whatever the board, which is what makes it the
//! right first answer for boards too large for a memory-bound best-first search: a width of
//! tens of thousands answers 6x6 and 7x7 boards in seconds, with the window pass
//! ([`super::window`]) shortening what it leaves.
//!
//! On big boards its speed is what bounds the answer within a time. A beam of 256 on 32x32
//! (three seeded boards, the same paths) took 2.2 s on one thread; it takes 1.6 s on one
//! and 1.2 to 1.3 s on two (when the machine gives two cores; it sometimes gives two
//! threads of one): each node's position lives in a slot of a pool, which its first child
//! kept takes over and changes in place (two children in three did), with the node's line
//! counts after its cells; a child's line is read as it will be and four lines' patience
//! sorts run in step ([`super::heuristic::removals_interleaved`]); the Zobrist keys are
//! computed, not read from an 8 MB table; the blank-cell selection ([`keep_spread`]) is one
//! pass; and a helper thread that lives as long as the beam takes chunks of each layer
//! (where it is faster: on 32x32 it is not, and the engine runs two beams at once there
//! instead, one a thread: `super::twin_beams`).
//! DeepCubeA's first 20 35-puzzles (`bench --algorithm near --timeout 10`) came out the
//! same, 131.9 moves, in 17.4 s instead of 26.8. A line without conflicts before a move is
//! not counted again (a tile that leaves it leaves it in order; one that enters it is in
//! order or adds one removal, as its nearest own tiles along the line say:
//! [`super::heuristic::Evaluator::fits`]): reading a line of 32 cells and sorting its own
//! tiles' keys took about 70 ns, and a third of a beam's instructions on 32x32. The same
//! paths in 22 % fewer instructions (one seeded 32x32 board, a beam of 128 and its end,
//! callgrind: 10.6 G against 13.7 G), and in 0.84 times the time (three boards, widths
//! 96 and 128, the two builds one after the other: 1.07 / 1.31 s a board against 1.27 /
//! 1.55 s; `big_widths::experiment` in `super`).

use std::sync::atomic::{AtomicUsize, Ordering};

use npuzzle_core::{Board, Move};

use super::Meter;
use super::heuristic::{Evaluator, Neighbours};

/// SplitMix64: the seeded stream behind the Zobrist keys and tie-breaks.
pub(crate) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Keeps the `width` children with the smallest `key`, each position once, in linear time:
/// select a little more than `width`, drop repeated hashes (equal positions have equal
/// keys, so a repeat is never kept in place of a better one), select again; only when the
/// repeats leave fewer than `width` are the others sorted to fill up. The kept children
/// come in no particular order. Shared with the beam over Korf & Felner's tables
/// (`twentyfour::beam`). (It sorted twice the width before: an eighth of the tables' beam's
/// time, on one thread.)
pub(crate) fn keep_best<T>(
    children: &mut Vec<T>,
    width: usize,
    key: impl Fn(&T) -> u64 + Copy,
    hash: impl Fn(&T) -> u64,
) {
    let width = width.max(1);
    let n = children.len();
    let first = width.saturating_add(width / 8 + 16).min(n);
    if first < n {
        children.select_nth_unstable_by_key(first - 1, key);
    }
    // Repeats, by an open-addressed set of the hashes (0 marks an empty slot, so a hash of
    // 0 is stored as 1: positions hashing to 0 and to 1 would count as one). The positions
    // kept so far are moved to the front.
    let slots = (first * 2).next_power_of_two().max(16);
    let mask = slots - 1;
    // The set's table, kept between calls on this thread (made anew, it was a tenth of a
    // narrow beam's layer on 32x32).
    let mut seen = SEEN.take();
    seen.clear();
    seen.resize(slots, 0);
    let mut fresh = |h: u64| {
        let h = h.max(1);
        let mut i = (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            match seen[i] {
                0 => {
                    seen[i] = h;
                    return true;
                }
                x if x == h => return false,
                _ => i = (i + 1) & mask,
            }
        }
    };
    let mut kept = 0;
    for i in 0..first {
        if fresh(hash(&children[i])) {
            children.swap(kept, i);
            kept += 1;
        }
    }
    if kept < width && first < n {
        // So many repeats that the selection fell short: the rest in order (rare).
        children[first..].sort_unstable_by_key(key);
        for i in first..n {
            if kept == width {
                break;
            }
            if fresh(hash(&children[i])) {
                children.swap(kept, i);
                kept += 1;
            }
        }
    }
    SEEN.set(seen);
    children.truncate(kept);
    if width < kept {
        children.select_nth_unstable_by_key(width - 1, key);
        children.truncate(width);
    }
}

std::thread_local! {
    /// [`keep_best`]'s table of hashes, kept between calls.
    static SEEN: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Zobrist keys: one random word per (tile, cell); a position's hash is the XOR of its
/// tiles' keys (the blank has none). On big boards they are computed (the SplitMix64
/// finaliser of the pair's index), not looked up: a table of them is 8 MB on 32x32, and
/// its random reads pushed the rest of a beam's working set out of the caches (a beam of
/// 256 on 32x32 took 15 % less time for its children computing them).
pub(crate) struct Zobrist {
    /// The keys in a table, on boards of at most [`ZOBRIST_TABLE_CELLS`] cells (a table
    /// of 128 KB at most, which is faster than computing them); empty beyond.
    keys: Vec<u64>,
    cells: usize,
}

/// The most cells of a board whose Zobrist keys are kept in a table. Beyond it they are
/// computed (a table of 1,024 x 1,024 keys on 32x32 was slower). Keys made from two tables
/// of 1,024 instead, one a tile and one a cell (`(tile key ^ cell key) x a constant`), did
/// not make a beam faster: four seeded 32x32 boards, beams of 96, three alternating runs,
/// 0.774 to 0.786 s a board against 0.775 to 0.786 (2026-12-04): the hashing is not what
/// a child waits for.
const ZOBRIST_TABLE_CELLS: usize = 128;

impl Zobrist {
    /// Keys for boards of `cells` cells.
    pub(crate) fn new(cells: usize) -> Zobrist {
        let mut s = 0x006E_7075_7A7A_6C65_u64;
        let keys = if cells <= ZOBRIST_TABLE_CELLS {
            (0..cells * cells).map(|_| splitmix(&mut s)).collect()
        } else {
            Vec::new()
        };
        Zobrist { keys, cells }
    }

    #[inline]
    fn key(&self, tile: u16, cell: usize) -> u64 {
        let index = usize::from(tile) * self.cells + cell;
        if let Some(&k) = self.keys.get(index) {
            return k;
        }
        let mut z =
            (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x006E_7075_7A7A_6C65);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The hash of `tiles`.
    pub(crate) fn hash(&self, tiles: &[u16]) -> u64 {
        tiles.iter().enumerate().filter(|&(_, &t)| t != 0).fold(0, |h, (c, &t)| h ^ self.key(t, c))
    }

    /// The hash after `tile` moves from `from` to `to`.
    #[inline]
    pub(crate) fn moved(&self, hash: u64, tile: u16, from: usize, to: usize) -> u64 {
        hash ^ self.key(tile, from) ^ self.key(tile, to)
    }
}

/// Bytes of an entry of a beam's trail: a node's parent index and move.
const PER_ENTRY: usize = 5;

/// Bytes of a layer of a beam's trail besides its entries: two vectors and their blocks.
const PER_LAYER: usize = 112;

/// Bytes a beam holds for each node of its width, its trail aside: two slots a node of
/// 2-byte cells and line counts (fewer lines than cells), its children twice (the chunks'
/// and the layer's, 40 bytes each, three a node), its blank, values, hash and last move.
fn per_node(cells: usize) -> usize {
    2 * 2 * (2 * cells) + 2 * 3 * 40 + 2 + 12 + 8 + 1
}

/// About how many bytes a beam search of `width` on `cells` cells holds at depth `depth`:
/// its nodes ([`per_node`]), the trail's last layers (up to [`COMPACT_EVERY`] of them
/// whole, and about 16 more where the lineages have not yet merged), and a layer with
/// about one entry for every layer before (see [`compact`]; a beam stops when its trail
/// outgrows what the caller allows, [`reach_by`]).
pub(crate) fn memory(width: usize, cells: usize, depth: usize) -> usize {
    let node = per_node(cells) + PER_ENTRY * (COMPACT_EVERY + 16);
    width.saturating_mul(node).saturating_add(depth.saturating_mul(PER_LAYER + PER_ENTRY))
}

/// How the beam ranks a child: `md x manhattan + lc x conflicts + squares x (the sum of the
/// tiles' squared distances)`.
///
/// The squared term is what matters most. Manhattan + linear conflict counts the moves of the
/// tiles and none of the blank's trips between them; a tile far from home needs the blank
/// beside it again and again, which the squares charge for, so the beam brings far tiles in
/// first instead of polishing near ones. Measured on DeepCubeA's boards with beams of 10,000
/// (6x6, first 6) and 5,000 (7x7, first 3), after the windows: `4 md + 5 lc` gave 142.7 and
/// 352.0 moves; `4 md + 5 lc + squares` 135.3 and 301.3; the squares alone with `5 lc` 142.7,
/// and `4 md + 5 lc + 1 x misplaced tiles` 146.0 (worse); exponents 1.5, 2.5 and 3 instead of
/// 2 gave 141.3, 138.0 and 141.3 on 6x6. (`4 md + 5 lc` beat `md + lc`: 141.0 against 142.8
/// on the first 8 6x6 boards with beams of 10,000.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Weights {
    /// Weight of the Manhattan distance.
    pub(crate) md: u32,
    /// Weight of the linear conflicts' extra moves.
    pub(crate) lc: u32,
    /// Weight of the sum of the squared distances.
    pub(crate) squares: u32,
}

impl Weights {
    /// The weights measured best (see above).
    pub(crate) const BEST: Weights = Weights { md: 4, lc: 5, squares: 1 };

    #[inline]
    fn score(self, md: u32, lc: u32, sq: u32) -> u32 {
        self.md * md + self.lc * lc + self.squares * sq
    }
}

/// One child: its value, its hash, the index of its parent in the layer and its move.
#[derive(Clone, Copy)]
struct Child {
    key: u64,
    md: u32,
    lc: u32,
    sq: u32,
    hash: u64,
    parent: u32,
    /// The cell of its blank.
    blank: u16,
    mv: u8,
    /// The line whose conflicts the move changed (`u16::MAX`: none) and their new count.
    line: u16,
    conflicts: u16,
}

/// Layers a beam may go on without keeping a position it ranks better than every one before:
/// then it is going round a basin of its ranking that it cannot leave (on some 10x10
/// boards, a beam of 4,000 went on for 7,920 layers without reaching the goal), and
/// [`reach`] stops. A beam that progresses finds a better position every few layers; a
/// narrow one can come out of such a basin late (a beam of 300 on a 7x7 board did, after
/// 264 layers, and reached the goal in 649 moves, where this engine averages 308 on
/// random 7x7 boards), and is better finished by the reduction solver.
pub(crate) const STALL_LAYERS: usize = 200;

/// Boards of more than this many cells (12x12) get beams whose layers keep at most
/// [`BLANK_SHARE`] times their even share of nodes (`width / cells`) with the blank on any
/// one cell. Without it, on boards of 18x18 and more, every beam went round a basin within
/// its first few hundred moves, always with the blank in a corner or on an edge: the tiles
/// by the edges mostly want to go inwards, so the blank that pushes them home drifts out
/// to the edges, and the beam fills up with small variations of positions there. Held to
/// its share, the beam keeps positions with the blank elsewhere, and goes through: with a
/// timeout of 60 s and `BLANK_SHARE` 2, `scramble --seed 2` boards of 24x24 and 32x32 took
/// 15,167 and 36,403 moves (1.63 and 1.65 times the Manhattan distance) against the
/// reduction solver's 21,643 and 52,213; with caps of 20 nodes a cell (shares of 1.6 and
/// 2), an 18x18 and a 20x20 (seed 1, `--timeout 30`) 6,201 and 8,270 moves against 8,295
/// and 11,434 without (a cap of 100: 6,421 and 8,902). On DeepCubeA's first 20 35-puzzles
/// it changed little (131.30 moves with a share of 2, 132.00 with 4, 131.90 without), nor
/// on the first ten 48-puzzles (`--timeout 30`: 270.40 with 2, 273.80 with 1, 272.60 with
/// 4, 270.60 without), so boards up to 12x12 keep the plain selection. The plain solve
/// takes longer with it: on
/// 16x16 about 47 s of `auto`'s 48 where it took about 23, its beams going through rather
/// than round. Not for the selection's cost: it sorted four times the width each layer at
/// first, and the linear-time [`keep_spread`] (the same choices) gave the same times and
/// lengths (10 seeded 16x16 boards: 4,463.1 moves, median 47.1 s, against 4,440.3 and
/// 46.4 s).
pub(crate) const DIVERSE_CELLS: usize = 144;

/// See [`DIVERSE_CELLS`].
pub(crate) const BLANK_SHARE: f64 = 2.0;

/// Beams narrower than this share of the cells, with one node a cell ([`blank_cap`]), keep
/// at most one node with the blank in any 2x2 block of cells instead, until the Manhattan
/// distance left falls to [`BLOCKS_UNTIL`] of the board's.
///
/// With one node a cell, a narrow beam's nodes crowd into one neighbourhood (the blank a
/// step or two apart: nearly the same position), and it goes the long way. Every node of a
/// layer has its blank on cells of one colour of the chequerboard, so a 2x2 block holds two
/// of them, and the beam spreads over twice the ground. On 32x32 (six seeded boards,
/// `Scrambler::new(100..106)`, one thread, the beam's path then `tidy`, over the Manhattan
/// distance), beams of 96 / 128 / 160 wide took 1.93 / 1.83 / 1.81 times with the blocks
/// (until 15 % of the distance is left) against 2.24 / 2.03 / 1.84 without (ranked `BEST`
/// but the conflicts weighing 15). On 24x24 beams of 64 / 96: 1.97 / 1.88 against 2.20 /
/// 1.92. With the big boards' ranking (`near::BIG_WEIGHTS`), twelve boards of 32x32: 1.750
/// against 1.779 at 192, and 1.748 against 1.711 at 224 (crowded: 224 nodes on 256 blocks),
/// 1.736 against 1.704 at 256, so the blocks stop at this share (204 nodes on 32x32);
/// eight of 24x24 at 100, 1.840 against 1.856. Blocks until 25 % or 8 % of the distance is
/// left gave 1.796 and 1.813 at 128 (1.802 at 15 %); throughout, 1.87 (the last tiles want
/// the nodes close together). Blocks of 3x3, 4x1 or 1x4 stalled far from the goal.
pub(crate) const BLOCKS_BELOW: f64 = 0.2;

/// See [`BLOCKS_BELOW`].
const BLOCKS_UNTIL: f64 = 0.15;

/// The width a beam spread over blocks ([`in_blocks`]), now `width` wide on `cells` cells,
/// can have to end in time, given the width that would if its layers to go stayed as they
/// are (`fits`): a narrower beam goes more layers. On 32x32 (six seeded boards, fixed
/// widths, `big_widths::experiment`) beams of 48, 64, 96, 128 and 192 went 58, 48, 39.5,
/// 37 and 36 thousand layers, about `1 + (w0 / width)^2` times the widest's with `w0` 37
/// (1.15 times the side), so that narrowing from 96 to 48 saved a fifth of the beam's
/// time (layers times width) for paths 40 % longer, and below `w0` it saves none. Paced
/// as if the layers stayed, a beam on a slow stretch narrowed step by step from 64 to 32
/// and went 59,000 layers in the time the other beam took for 41,500 at about 80. Twenty
/// seeded 32x32 boards within 1 s on such a stretch (`bench --algorithm near --threads 2
/// --timeout 1`, two alternating runs): 41,070.1 / 41,000.8 moves against 49,251.9 /
/// 48,418.5 paced as before (`w0` 1.6 and 2.2 times the side: 40,888.3 and 42,992.6);
/// three seeded 48x48 within 10 s, 132,109.3 against 134,890.7; 14x14 within 1 s, 16x16
/// within 2 s and 24x24 within 1 s (six boards each) within a few moves of before.
fn blocks_fit(width: usize, cells: usize, fits: f64) -> usize {
    let w0 = 1.15 * (cells as f64).sqrt();
    let now = width.max(1) as f64;
    let layers = |w: f64| 1.0 + (w0 / w).powi(2);
    // The widest `w` with `w x layers(w) <= fits x layers(now)`.
    let room = fits * layers(now);
    if room <= 2.0 * w0 {
        return w0 as usize;
    }
    ((room + (room * room - 4.0 * w0 * w0).sqrt()) / 2.0) as usize
}

/// Whether a beam `width` wide on `cells` cells spreads over 2x2 blocks ([`BLOCKS_BELOW`])
/// while the distance left is more than [`BLOCKS_UNTIL`] of the board's.
fn in_blocks(width: usize, cells: usize) -> bool {
    blank_cap(width, cells) == Some(1) && (width as f64) < BLOCKS_BELOW * cells as f64
}

/// The most nodes a layer of a beam `width` wide on `cells` cells keeps with the blank on
/// any one cell; `None` when there is no such cap ([`DIVERSE_CELLS`]).
fn blank_cap(width: usize, cells: usize) -> Option<usize> {
    (cells > DIVERSE_CELLS)
        .then(|| ((BLANK_SHARE * width as f64) / cells as f64).ceil().max(1.0) as usize)
}

/// Keeps the `width` children with the smallest keys among those that rank within the best
/// `cap` of their cell (`cell`, below `cells`): the children sorted by key and taken in
/// turn, skipping a child whose cell has `cap` already, in linear time (a count per cell;
/// where a cell has more than `cap`, a selection among its own, then one over them all).
/// The kept children come in no particular order. `spread` is scratch kept between calls
/// (a layer of a beam on 32x32 took 15 microseconds with buffers over every cell made
/// anew).
fn keep_spread<T: Copy>(
    children: &mut Vec<T>,
    width: usize,
    cap: usize,
    cells: usize,
    key: impl Fn(&T) -> u64 + Copy,
    cell: impl Fn(&T) -> usize,
    spread: &mut Spread<T>,
) {
    let (width, cap) = (width.max(1), cap.max(1));
    if spread.count.len() < cells {
        spread.count.resize(cells, 0);
    }
    if cap == 1 {
        // Each cell's best child: its index in `count`, plus one (without branches on the
        // keys, which come in no order).
        spread.touched.resize(children.len(), 0);
        let mut touched = 0;
        for (i, c) in children.iter().enumerate() {
            let k = cell(c);
            let best = spread.count[k];
            let fresh = best == 0;
            // Without branches (the compiler made two of `fresh || key < ...` and `if`, and
            // the keys come in no order): mispredicted about once a child, they made this
            // loop a tenth of a beam's time on 32x32 (beams of 128, three seeded boards,
            // one thread, the same paths: 2.82 s, now 2.55 s).
            let prev = key(&children[best.max(1) as usize - 1]);
            let better = u32::from(fresh) | u32::from(key(c) < prev);
            let mask = better.wrapping_neg();
            spread.count[k] = (mask & (i as u32 + 1)) | (!mask & best);
            spread.touched[touched] = k as u32;
            touched += usize::from(fresh);
        }
        spread.touched.truncate(touched);
        spread.grouped.clear();
        for &k in &spread.touched {
            spread.grouped.push(children[spread.count[k as usize] as usize - 1]);
            spread.count[k as usize] = 0;
        }
        spread.touched.clear();
        std::mem::swap(children, &mut spread.grouped);
        smallest(children, width, key, &mut spread.keys);
        return;
    }
    let mut crowded = false;
    for c in children.iter() {
        let k = cell(c);
        if spread.count[k] == 0 {
            spread.touched.push(k as u32);
        }
        spread.count[k] += 1;
        crowded |= spread.count[k] as usize > cap;
    }
    if crowded {
        // Group the children by cell (cells in the order first met), keep each cell's best.
        let mut at = 0u32;
        for &k in &spread.touched {
            let k = k as usize;
            let size = spread.count[k];
            spread.count[k] = at;
            at += size;
        }
        spread.grouped.clear();
        spread.grouped.extend_from_slice(children);
        for c in children.iter() {
            let k = cell(c);
            spread.grouped[spread.count[k] as usize] = *c;
            spread.count[k] += 1;
        }
        children.clear();
        let mut start = 0usize;
        for &k in &spread.touched {
            let end = spread.count[k as usize] as usize;
            let group = &mut spread.grouped[start..end];
            if group.len() > cap {
                group.select_nth_unstable_by_key(cap - 1, key);
            }
            children.extend_from_slice(&group[..group.len().min(cap)]);
            start = end;
        }
    }
    for &k in &spread.touched {
        spread.count[k as usize] = 0;
    }
    spread.touched.clear();
    smallest(children, width, key, &mut spread.keys);
}

/// Keeps the `width` items with the smallest keys (in their order; of equal keys at the
/// border, the first), selecting among the keys alone (`keys` is scratch): selecting among
/// the items themselves, 40 bytes each, took most of a beam's selection on 32x32.
fn smallest<T: Copy>(
    items: &mut Vec<T>,
    width: usize,
    key: impl Fn(&T) -> u64,
    keys: &mut Vec<u64>,
) {
    if items.len() <= width {
        return;
    }
    keys.clear();
    keys.extend(items.iter().map(&key));
    let (_, &mut border, _) = keys.select_nth_unstable(width - 1);
    let below = items.iter().filter(|c| key(c) < border).count();
    let mut ties = width - below;
    items.retain(|c| {
        let k = key(c);
        k < border
            || (k == border && ties > 0 && {
                ties -= 1;
                true
            })
    });
}

/// Scratch for [`keep_spread`]: a count per cell (all zero between calls), the cells
/// counted, and the children grouped by cell.
struct Spread<T> {
    keys: Vec<u64>,
    count: Vec<u32>,
    touched: Vec<u32>,
    grouped: Vec<T>,
}

impl<T> Default for Spread<T> {
    fn default() -> Spread<T> {
        Spread { keys: Vec::new(), count: Vec::new(), touched: Vec::new(), grouped: Vec::new() }
    }
}

/// How a beam ended ([`reach`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reach {
    /// It reached the goal: the path there.
    Goal(Vec<Move>),
    /// It stalled ([`STALL_LAYERS`]), ran out of depth or died out: the path to the
    /// position it ranked best of all it kept (for another method to finish).
    Closest(Vec<Move>),
    /// The meter said stop.
    Stopped,
}

impl Reach {
    /// The path when the beam reached the goal; `None` otherwise.
    pub(crate) fn goal(self) -> Option<Vec<Move>> {
        match self {
            Reach::Goal(path) => Some(path),
            Reach::Closest(_) | Reach::Stopped => None,
        }
    }
}

/// Searches from `board` to `goal` keeping `width` nodes a layer, for at most `max_depth`
/// layers, on `threads` threads: the path to the goal, or, when the depth ran out or the
/// beam stalled or died out, the path to its best position ([`Reach::Closest`]), or
/// [`Reach::Stopped`] when `meter` said stop (it is asked once a layer, and counts the
/// children made).
#[expect(
    clippy::too_many_arguments,
    reason = "the search's own knobs, each a plain value; every caller names them in one place"
)]
pub(crate) fn reach(
    board: &Board,
    goal: &Board,
    width: usize,
    seed: u64,
    max_depth: usize,
    threads: usize,
    meter: &Meter,
    weights: Weights,
) -> Reach {
    reach_by(board, goal, width, seed, max_depth, threads, meter, weights, None, None)
}

/// Layers a beam with an end in view ([`reach_by`]) goes before it first checks its pace,
/// and between checks.
const PACE_LAYERS: usize = 256;

/// Layers back over which a paced beam ([`reach_by`]) measures how fast its Manhattan
/// distance falls. Measured from the start, as it was, the rate counted the first layers'
/// fast fall against the slower middle and end, and (with [`PACE_OVER_BLOCKS`] at 1.8 to
/// make up for it) a beam on 32x32 within 1 s went about 70 wide for most of its way and
/// ended near the goal at 0.75 s of the 0.94 s it had. Twenty seeded 32x32 boards within
/// 1 s (`scramble --size 32x32 --count 20 --seed 19`, `bench --algorithm near --threads 2
/// --timeout 1` on each board, the two builds board by board in turn, five runs each, the
/// machine's pace changing from run to run by up to a tenth): 38,818.1 / 38,726.3 /
/// 39,305.3 / 38,485.9 moves (two runs) against 39,128.7 / 39,970.3 / 39,681.2 / 38,868.9;
/// a window of 8,192 layers 39,041.4 and 39,191.4 (against 38,818.1 and 39,305.3 for
/// 4,096). Within 3 s, 35,311.5 against 35,300.0; six seeded 24x24 within 1 s, 15,555.3
/// against 15,677.5; 16x16 within 2 s, 4,421.8 against 4,435.8; three 48x48 within 10 s,
/// 122,430 against 123,080.
const PACE_WINDOW: usize = 4096;

/// How many times over a paced beam counts the layers it has to go, from the Manhattan
/// distance left at the rate it fell over the last [`PACE_WINDOW`] layers: the end game
/// falls slower (twice over, from the start, left a beam on 20x20 a third of its time
/// unused). For beams spread over blocks of cells ([`in_blocks`]), `PACE_OVER_BLOCKS`.
/// Those fell faster early on, and from the start, at 1.4 times, a beam on 32x32 within
/// 1 s was cut to 42 wide near the end, from 158, and stalled with a quarter of the tiles
/// out of place; over the window, 1.2 times (above) against 1.0 (39,306.9 against
/// 39,305.3, even) and 1.4 (39,674.8 against 38,726.3; with the beams free to widen to
/// four times their first width instead of two, 40,253.8 against 40,310.4, and two times
/// 40,056.6: no better). Other beams keep 1.4: six seeded
/// 14x14 boards within 1 s (a short solve's one beam, about 3,000 layers: the window is
/// the whole way) came out 0.8 % longer at 1.2, and 16x16 within 2 s 4,450.5 moves
/// against 4,421.8.
const PACE_OVER: f64 = 1.4;

/// See [`PACE_OVER`]. With the rate since the board (before [`PACE_WINDOW`]) it was 1.8;
/// 20 seeded 32x32 boards within 1 s, in three runs: 41,472.4 / 41,548.3 moves at 1.7 /
/// 2.0 times against 43,042.5 at 1.4; 39,235.6 / 39,636.8 / 40,830.1 at 1.6 / 1.8 / 2.1;
/// 40,867.0 / 41,466.2 at 1.8 / 1.6.
const PACE_OVER_BLOCKS: f64 = 1.2;

/// A paced beam's record of its Manhattan distance at each check of its pace.
#[derive(Default)]
struct Pace {
    /// Depth and the layer's least Manhattan distance, a check each, oldest first, the
    /// last [`PACE_WINDOW`] layers' worth.
    samples: std::collections::VecDeque<(usize, u32)>,
}

impl Pace {
    /// The layers a beam at `depth` with `md_now` left has to go, `over` times what the
    /// fall since the oldest check within [`PACE_WINDOW`] layers gives (since the board,
    /// `md0`, on the first check; `None` when the distance has not fallen); records this
    /// check.
    fn layers_to_go(&mut self, depth: usize, md_now: u32, md0: u32, over: f64) -> Option<f64> {
        while self.samples.front().is_some_and(|&(d, _)| d + PACE_WINDOW < depth) {
            self.samples.pop_front();
        }
        let (d_then, md_then) = self.samples.front().copied().unwrap_or((0, md0));
        self.samples.push_back((depth, md_now));
        let fallen = md_then.checked_sub(md_now).filter(|&f| f > 0)?;
        Some(over * (depth - d_then) as f64 * f64::from(md_now) / f64::from(fallen))
    }
}

/// [`reach`], aiming to end by `finish_by.0`: from [`PACE_LAYERS`] layers on, every 64
/// layers, the beam takes the width (between half of `width` and `finish_by.1`, the widest
/// the caller's memory allows) that fits in the time left at its pace so far, the layers
/// to go counted from the Manhattan distance left at the rate it has fallen over its last
/// [`PACE_WINDOW`] layers, [`PACE_OVER`] times over. A width estimated before
/// the search from a narrow beam's pace
/// was off by up to half on big boards: on a 20x20 board a beam of 2,297 meant for 4.2 s
/// was not done in 7.8 s, and the time ran out with nothing from it. (It used to narrow
/// only; widening too, the first ten seeded 32x32 boards came out at 37,506.4 moves within
/// 2 s, 1.719 times the bound, where the beams sized in advance had stalled half-way.)
///
/// Its layers are expanded on two threads when `threads` is 2 or more and a layer has
/// [`HELPER_NODES`] nodes: a helper thread lives as long as the beam and takes chunks of
/// each layer in turn with the calling thread ([`CHUNKS`]); their children are read in
/// the chunks' order, so the beam goes the same way on one thread or two.
///
/// With `memory` (bytes), the beam stops with its best position ([`Reach::Closest`]) when
/// its trail outgrows what its widest nodes leave of it ([`memory`]'s estimate holds
/// unless the lineages fail to merge).
#[expect(
    clippy::too_many_arguments,
    reason = "the search's own knobs, each a plain value; every caller names them in one place"
)]
pub(crate) fn reach_by(
    board: &Board,
    goal: &Board,
    width: usize,
    seed: u64,
    max_depth: usize,
    threads: usize,
    meter: &Meter,
    weights: Weights,
    finish_by: Option<(std::time::Instant, usize)>,
    memory: Option<usize>,
) -> Reach {
    let n = board.tiles().len();
    let eval = Evaluator::new(goal);
    let tiles: Vec<u16> = board.tiles().to_vec();
    let md0 = eval.manhattan(&tiles);
    if md0 == 0 {
        return Reach::Goal(Vec::new());
    }
    let mut tie = seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1;
    let tie_salt = splitmix(&mut tie);
    let ctx = Context {
        next: Neighbours::new(board.width(), board.height()),
        zobrist: Zobrist::new(n),
        lines: eval.lines(),
        n,
        board_width: board.width(),
        tie_salt,
        weights,
        eval,
    };
    let hash = ctx.zobrist.hash(&tiles);
    // Positions kept lately, in a lossy direct-mapped table (a slot per hash's low bits,
    // overwritten by later ones): enough to keep a narrow beam from going round in circles,
    // without the cost of a set of every position (see the module docs). A slot holds the
    // hash's high 32 bits (`recent_tag`; a false match, one in four billion, only drops a
    // child): with whole hashes the table's loads and stores drew about 7 % of a beam's
    // samples on 32x32 (perf), and with half the bytes the same paths took 0.723 s a board
    // against 0.732 (medians of five alternating runs, `W=96 BOARDS=3 ...
    // big_widths::experiment`).
    let slots = width.max(1).saturating_mul(16).next_power_of_two().clamp(1 << 12, 1 << 20);
    let mut recent = vec![0u32; slots];
    recent[hash as usize & (slots - 1)] = recent_tag(hash);
    let values = vec![(md0, ctx.eval.value(&tiles) - md0, ctx.eval.squares(&tiles))];
    // Each node's conflicts per line (`Evaluator::lines`) follow its cells in its slot, so
    // that a child counts only the line its move changes, after the move (counting a line
    // takes a scan of it; the counts before and after were half a beam's time on 32x32).
    let mut tiles = tiles;
    tiles.extend(ctx.eval.line_conflicts(board.tiles()));
    let layer = Layer {
        values,
        blanks: vec![board.blank() as u16],
        hashes: vec![hash],
        last: vec![u8::MAX],
        tiles,
        slot: vec![0],
        recent,
        pull: None,
    };
    let shared = Shared {
        layer: std::sync::RwLock::new(layer),
        chunks: (0..CHUNKS).map(|_| std::sync::Mutex::new(Vec::new())).collect(),
        next: std::sync::atomic::AtomicU64::new(CLOSED),
        finished: AtomicUsize::new(0),
        posted: AtomicUsize::new(0),
        quit: std::sync::atomic::AtomicBool::new(false),
    };
    let widest = finish_by.map_or(width, |f| f.1.max(width));
    let max_trail = memory.map(|m| m.saturating_sub(widest.saturating_mul(per_node(n))));
    let limits = Limits { width, max_trail, max_depth, meter, finish_by, md0 };
    if threads < 2 {
        return layers(&ctx, &shared, &limits, None);
    }
    std::thread::scope(|s| {
        let helper = s.spawn(|| help(&ctx, &shared));
        // The helper is told to quit however the layers end.
        let _quit = Quit(&shared, helper.thread());
        layers(&ctx, &shared, &limits, Some(helper.thread()))
    })
}

/// Tells the helper thread to quit when dropped.
struct Quit<'a>(&'a Shared, &'a std::thread::Thread);

impl Drop for Quit<'_> {
    fn drop(&mut self) {
        self.0.quit.store(true, Ordering::Release);
        self.0.posted.fetch_add(1, Ordering::AcqRel);
        self.1.unpark();
    }
}

/// What the table of recent positions keeps of a hash in its slot (chosen by the hash's low
/// bits): its high 32 bits.
#[inline]
fn recent_tag(hash: u64) -> u32 {
    (hash >> 32) as u32
}

/// What every layer of a beam shares: the board's tables and the ranking.
struct Context {
    eval: Evaluator,
    next: Neighbours,
    zobrist: Zobrist,
    lines: usize,
    n: usize,
    board_width: usize,
    tie_salt: u64,
    weights: Weights,
}

/// A beam's limits ([`reach_by`]).
struct Limits<'a> {
    width: usize,
    /// The most bytes the trail may hold after a compaction ([`PER_ENTRY`], [`PER_LAYER`]):
    /// beyond, the beam stops and hands back its best position.
    max_trail: Option<usize>,
    max_depth: usize,
    meter: &'a Meter,
    finish_by: Option<(std::time::Instant, usize)>,
    md0: u32,
}

/// One layer of a beam: its nodes' positions and what their children need of them.
struct Layer {
    /// The positions, `n` cells each and then the conflicts of each line, in slots of a
    /// pool: node `i`'s is slot `slot[i]`. A
    /// child takes its parent's slot when it is the first of its parent's children kept, and
    /// is moved there in place; the others are copies into the slots of parents without
    /// children kept (on 32x32, two children in three took their parent's).
    tiles: Vec<u16>,
    slot: Vec<u32>,
    blanks: Vec<u16>,
    /// Manhattan, conflicts, squares.
    values: Vec<(u32, u32, u32)>,
    hashes: Vec<u64>,
    /// The move that made each node (`u8::MAX`: none).
    last: Vec<u8>,
    /// The lossy table of positions kept lately.
    recent: Vec<u32>,
    /// The cell the blank is drawn to, when the beam has not progressed for a while
    /// ([`PULL_AFTER`]).
    pull: Option<(u32, u32)>,
}

/// The layer and the threads' work on it: the main thread posts a layer (`posted` goes up),
/// both threads expand its chunks in turn, and the main thread waits for every chunk to be
/// `finished` before it reads their children.
struct Shared {
    layer: std::sync::RwLock<Layer>,
    /// The children of each chunk of the layer's nodes (`CHUNKS` chunks).
    chunks: Vec<std::sync::Mutex<Vec<Child>>>,
    /// The posting whose chunks are being taken (the high 32 bits) and its next chunk to
    /// expand (the low 32), or [`CLOSED`] between postings; and how many chunks are done.
    next: std::sync::atomic::AtomicU64,
    finished: AtomicUsize,
    posted: AtomicUsize,
    quit: std::sync::atomic::AtomicBool,
}

/// The chunks a layer's nodes are cut into, which the threads take in turn: a thread
/// that runs slower (the machine's other work, or a core shared with it) takes fewer.
/// Halves split once ran 2.8 s where one thread took 1.6, the second thread expanding its
/// half at half the first one's pace.
const CHUNKS: usize = 16;

/// The fewest nodes in a chunk (but the last): taking a chunk costs two atomic operations
/// and a lock, about a node's work.
const CHUNK_NODES: usize = 32;

/// How many nodes a chunk of a layer of `count` nodes has (but the last), and how many
/// chunks there are (at most [`CHUNKS`]).
fn chunking(count: usize) -> (usize, usize) {
    let size = count.div_ceil(CHUNKS).max(CHUNK_NODES);
    (size, count.div_ceil(size))
}

/// What `Shared::next` holds between postings: no posting's.
const CLOSED: u64 = u64::MAX;

/// `Shared::next` at the start of posting `posting`.
fn opening(posting: usize) -> u64 {
    (posting as u64 & 0xFFFF_FFFF) << 32
}

/// Expands the chunks of `layer`, posted as `posting`, not taken yet, one at a time. A
/// helper that woke late for an earlier posting takes none: a chunk is taken only while
/// `next` names this posting (the main thread closes it before it changes the layer).
/// Taking them by a plain count, a helper that woke after its layer was done took a chunk
/// of a later one and counted it `finished`, and the main thread waited for a count it had
/// passed: a hang (seen once, a 9x7 board's window beams in the web tests).
fn take_chunks(ctx: &Context, shared: &Shared, layer: &Layer, posting: usize) {
    let count = layer.blanks.len();
    let (size, chunks) = chunking(count);
    loop {
        let now = shared.next.load(Ordering::Acquire);
        let c = (now & 0xFFFF_FFFF) as usize;
        if now & !0xFFFF_FFFF != opening(posting) || c >= chunks {
            return;
        }
        if shared
            .next
            .compare_exchange_weak(now, now + 1, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            continue;
        }
        {
            let mut out =
                shared.chunks[c].lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            out.clear();
            expand(ctx, layer, c * size..((c + 1) * size).min(count), &mut out);
        }
        shared.finished.fetch_add(1, Ordering::AcqRel);
    }
}

/// Layers narrower than this are expanded on one thread (the hand-over costs about a
/// microsecond).
const HELPER_NODES: usize = 2 * CHUNK_NODES;

/// How long the helper spins for the next layer before it sleeps until woken: longer than
/// the main thread's part of a layer on 32x32 (tens of microseconds; waking a sleeping
/// thread costs about as much), far shorter than on 6x6 with beams of 20,000 (milliseconds,
/// where a helper that spun through them made the main thread a sixth slower).
const HELPER_SPIN: std::time::Duration = std::time::Duration::from_micros(100);

/// Waits until `flag` is not `not` (then returns its value): spins for [`HELPER_SPIN`],
/// then sleeps until unparked (the main thread unparks the helper with each layer).
fn wait_while(flag: &AtomicUsize, not: usize) -> usize {
    let started = std::time::Instant::now();
    let mut spins = 0u32;
    loop {
        let now = flag.load(Ordering::Acquire);
        if now != not {
            return now;
        }
        spins += 1;
        if spins % 64 != 0 || started.elapsed() < HELPER_SPIN {
            std::hint::spin_loop();
        } else {
            std::thread::park();
        }
    }
}

/// The second thread: expands its share of each posted layer until told to quit.
fn help(ctx: &Context, shared: &Shared) {
    let mut seen = 0;
    loop {
        seen = wait_while(&shared.posted, seen);
        if shared.quit.load(Ordering::Acquire) {
            return;
        }
        {
            let layer = shared.layer.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            take_chunks(ctx, shared, &layer, seen);
        }
    }
}

/// Appends the children of nodes `range` of `layer` to `out`.
fn expand(ctx: &Context, layer: &Layer, range: std::ops::Range<usize>, out: &mut Vec<Child>) {
    let (n, bw) = (ctx.n, ctx.board_width);
    let stride = n + ctx.lines;
    let mask = layer.recent.len() - 1;
    let rank = |c: &mut Child| {
        let pull = layer.pull.map_or(0, |(cx, cy)| {
            let b = usize::from(c.blank);
            PULL_WEIGHT * (((b % bw) as u32).abs_diff(cx) + ((b / bw) as u32).abs_diff(cy))
        });
        let mixed = (c.hash ^ ctx.tie_salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
        c.key = u64::from(ctx.weights.score(c.md, c.lc, c.sq) + pull) << 24 | mixed;
    };
    // Children whose line needs counting, four at a time (`removals_interleaved`): their
    // index in `out`, their line's bits and length, and the line's count before the move.
    let short = ctx.eval.short_lines();
    let mut bits = [[0u64; 64]; 4];
    let mut lens = [0usize; 4];
    let mut at = [0usize; 4];
    let mut was = [0u16; 4];
    let mut pending = 0usize;
    let settle = |out: &mut Vec<Child>,
                  bits: &[[u64; 64]; 4],
                  lens: &mut [usize; 4],
                  at: &[usize; 4],
                  was: &[u16; 4],
                  pending: usize| {
        for l in lens.iter_mut().skip(pending) {
            *l = 0;
        }
        let now = super::heuristic::removals_interleaved(bits, *lens);
        for k in 0..pending {
            let c = &mut out[at[k]];
            c.lc = (c.lc as i32 + now[k] as i32 - i32::from(was[k])) as u32;
            c.conflicts = now[k] as u16;
            rank(c);
        }
    };
    out.reserve(range.len() * 3);
    for i in range {
        let slot = layer.slot[i] as usize * stride;
        let state = &layer.tiles[slot..slot + n];
        let blank = usize::from(layer.blanks[i]);
        let (md0, lc0, sq0) = layer.values[i];
        for m in 0..4 {
            if usize::from(layer.last[i]) == (Move::ALL[m].inverse().index()) {
                continue;
            }
            let Some(from) = ctx.next.of(blank, m) else { continue };
            let tile = state[from];
            let hash = ctx.zobrist.moved(layer.hashes[i], tile, from, blank);
            if layer.recent[hash as usize & mask] == recent_tag(hash) {
                continue;
            }
            let (before, after) = (ctx.eval.distance(tile, from), ctx.eval.distance(tile, blank));
            let (dm, line) = ctx.eval.slide_target(state, blank, from);
            let mut child = Child {
                key: 0,
                md: (md0 as i32 + dm) as u32,
                lc: lc0,
                sq: sq0 + after * after - before * before,
                hash,
                parent: i as u32,
                blank: from as u16,
                mv: m as u8,
                line: u16::MAX,
                conflicts: 0,
            };
            let Some(l) = line else {
                rank(&mut child);
                out.push(child);
                continue;
            };
            child.line = l as u16;
            let before_count = layer.tiles[slot + n + l];
            // A line without conflicts before the move needs no count: a tile that leaves
            // it leaves it in order, and one that enters it is in order or adds one
            // removal, as the own tiles next to it along the line say.
            if before_count == 0 {
                let now = if ctx.eval.enters(blank, l) && !ctx.eval.fits(state, blank, from, l) {
                    2
                } else {
                    0
                };
                child.lc = lc0 + now;
                child.conflicts = now as u16;
                rank(&mut child);
                out.push(child);
                continue;
            }
            if !short {
                let (_, counted) = ctx.eval.slide_line(state, blank, from);
                let now = counted.map_or(u32::from(before_count), |(_, c)| c);
                child.lc = (lc0 as i32 + now as i32 - i32::from(before_count)) as u32;
                child.conflicts = now as u16;
                rank(&mut child);
                out.push(child);
                continue;
            }
            lens[pending] = ctx.eval.line_after(state, blank, from, l, &mut bits[pending]);
            at[pending] = out.len();
            was[pending] = before_count;
            out.push(child);
            pending += 1;
            if pending == 4 {
                settle(out, &bits, &mut lens, &at, &was, pending);
                pending = 0;
            }
        }
    }
    if pending > 0 {
        settle(out, &bits, &mut lens, &at, &was, pending);
    }
}

/// Layers of each [`TRIAL_EVERY`] a beam expands with the helper thread, then as many
/// without, to see which is faster ([`Helping`]).
const TRIAL_LAYERS: usize = 32;

/// See [`TRIAL_LAYERS`].
const TRIAL_EVERY: usize = 1024;

/// Whether the helper thread takes chunks of the layers: it does for [`TRIAL_LAYERS`]
/// layers of every [`TRIAL_EVERY`], then the calling thread expands alone as many, and the
/// faster way, per child, runs until the next trial. (The beam goes the same way both ways.)
///
/// Handing a layer over costs what this machine makes it cost: the helper reads positions
/// the calling thread wrote and hands back children it reads, and the two vCPUs are
/// sometimes two cores that share them quickly, sometimes not. A beam of 512 on 32x32
/// (one seeded board) took 3.3 s on two threads and 3.7 s on one in one minute, 6.8 s on
/// two and 3.8 s on one a few minutes later (its slots' copies 1.58 s against 0.55 s on one
/// thread, its expansion 4.01 s against 2.37 s): the helper cannot be trusted to help.
struct Helping {
    on: bool,
    last: std::time::Instant,
    /// Seconds and children of this trial's layers with the helper and without.
    with: (f64, usize),
    without: (f64, usize),
}

impl Helping {
    fn new() -> Helping {
        Helping { on: true, last: std::time::Instant::now(), with: (0.0, 0), without: (0.0, 0) }
    }

    /// Whether layer `depth` is expanded with the helper.
    fn wanted(&self, depth: usize) -> bool {
        match depth % TRIAL_EVERY {
            p if p < TRIAL_LAYERS => true,
            p if p < 2 * TRIAL_LAYERS => false,
            _ => self.on,
        }
    }

    /// Records that layer `depth` made `children` by `now` (the time since the last layer's
    /// record goes to the way it was expanded); at the end of a trial, takes the faster way.
    fn layer_done(&mut self, depth: usize, children: usize, now: std::time::Instant) {
        let seconds = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        let p = depth % TRIAL_EVERY;
        let part = if p < TRIAL_LAYERS {
            &mut self.with
        } else if p < 2 * TRIAL_LAYERS {
            &mut self.without
        } else {
            return;
        };
        part.0 += seconds;
        part.1 += children;
        if p + 1 == 2 * TRIAL_LAYERS {
            let pace = |(s, c): (f64, usize)| s / c.max(1) as f64;
            self.on = pace(self.with) < pace(self.without);
            self.with = (0.0, 0);
            self.without = (0.0, 0);
        }
    }
}

/// Layers a beam beyond [`DIVERSE_CELLS`] goes without a better position before its ranking
/// draws the blank towards the misplaced tiles ([`PULL_WEIGHT`]).
///
/// Narrow beams on big boards stalled half-way: the edges solved, the middle a tangle of
/// tiles ten or more cells from home, the blank on an edge or in a corner. Every way back
/// into the middle moves solved tiles out of place, so the ranking holds the beam where it
/// is until [`STALL_LAYERS`] end it. Drawn to the tiles still to solve (their centre, each
/// weighted by its squared distance, on the layer's best node), it walks back in. Beams on
/// 32x32 (six seeded boards, `Scrambler::new(100..106)`, the path to the beam's best
/// position and then `tidy`, over the Manhattan distance): of width 160, 1.902 times
/// after 10 layers, 1.898 after 5, 1.935 after 20, 1.956 after 40, and stalls far from the
/// goal after 2 or 4 (weights 16 to 64 changed little: 1.895 to 1.957); of width 224,
/// 1.799 after 10, where three of the six stalled half-way without it; of width 256, three
/// boards: 38,045 moves against 38,199 without.
const PULL_AFTER: usize = 10;

/// What a step of the blank away from the cell it is drawn to costs in a child's rank
/// when the beam has not progressed for [`PULL_AFTER`] layers (a step that moves a
/// solved tile out of place costs about 10).
const PULL_WEIGHT: u32 = 32;

/// Layers a beam goes between two compactions of its trail ([`compact`]).
const COMPACT_EVERY: usize = 128;

/// Drops from a beam's `trail` (per layer, each node's parent index in the layer before and
/// its move) every node that leads neither to the last layer nor to the node `keep` (layer,
/// index; the index is updated), and returns the first layer whose entries it may have
/// changed. Layers before `settled` were compacted before: once one of them is left whole,
/// so are those before it (each of their nodes then has a child kept), and the pass stops
/// there (its cost is that of the layers it changed, not of the whole trail).
///
/// A beam's lineages merge within a few layers, so the trail of a long beam holds about a
/// node a layer but for its last ones, where it held the beam's width in every layer: on
/// 48x48, a beam of 1,150 held 14,839 entries after 8,320 layers and 105,349 after 97,920
/// (about six layers' width more than one a layer); a beam of 512 on 64x64, 350,000 layers
/// deep, would hold 1.1 GB of trail without this.
pub(crate) fn compact(
    trail: &mut [(Vec<u32>, Vec<u8>)],
    keep: Option<usize>,
    keep_at: &mut usize,
    settled: usize,
) -> usize {
    let mut alive: Vec<bool> = Vec::new();
    let mut remap: Vec<u32> = Vec::new();
    for k in (1..trail.len()).rev() {
        let (older, newer) = trail.split_at_mut(k);
        let (prev, cur) = (&mut older[k - 1], &mut newer[0]);
        alive.clear();
        alive.resize(prev.0.len(), false);
        for &p in &cur.0 {
            alive[p as usize] = true;
        }
        if keep == Some(k - 1) {
            alive[*keep_at] = true;
        }
        if alive.iter().all(|&a| a) {
            if k - 1 < settled {
                return k;
            }
            continue;
        }
        remap.clear();
        let mut kept = 0u32;
        for &a in &alive {
            remap.push(kept);
            kept += u32::from(a);
        }
        for p in &mut cur.0 {
            *p = remap[*p as usize];
        }
        if keep == Some(k - 1) {
            *keep_at = remap[*keep_at] as usize;
        }
        let mut w = 0;
        for (i, &a) in alive.iter().enumerate() {
            if a {
                prev.0[w] = prev.0[i];
                prev.1[w] = prev.1[i];
                w += 1;
            }
        }
        prev.0.truncate(w);
        prev.1.truncate(w);
        prev.0.shrink_to_fit();
        prev.1.shrink_to_fit();
    }
    0
}

/// The layers of a beam ([`reach_by`]), with the `helper` thread if any.
fn layers(
    ctx: &Context,
    shared: &Shared,
    limits: &Limits,
    helper: Option<&std::thread::Thread>,
) -> Reach {
    let (n, lines) = (ctx.n, ctx.lines);
    let (eval, weights) = (&ctx.eval, ctx.weights);
    let meter = limits.meter;
    let mut width = limits.width.max(1);
    let narrowest = (width / 2).max(1);
    let started = std::time::Instant::now();
    let mut expanded = 0usize;
    let md0 = limits.md0;
    let mut closest: (u32, Option<usize>, usize) = {
        let layer = shared.layer.read().unwrap_or_else(std::sync::PoisonError::into_inner);
        (weights.score(layer.values[0].0, layer.values[0].1, layer.values[0].2), None, 0)
    };
    // The path from the board to the node `at` of layer `layer` of `trail`.
    let path_to = |trail: &[(Vec<u32>, Vec<u8>)], layer: Option<usize>, mut at: usize| {
        let Some(layer) = layer else { return Vec::new() };
        let mut path = Vec::with_capacity(layer + 1);
        for (parents, moves) in trail[..=layer].iter().rev() {
            path.push(Move::ALL[usize::from(moves[at])]);
            at = parents[at] as usize;
        }
        path.reverse();
        path
    };
    // Scratch: each parent's first child kept (its heir), and the free slots.
    let (mut heir, mut free): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
    // Per layer: each kept node's parent index and move.
    let mut trail: Vec<(Vec<u32>, Vec<u8>)> = Vec::new();
    // Layers pushed since the trail was last compacted, and the layers it had then; the
    // entries of its layers up to each one, as of then.
    let (mut since, mut settled) = (0usize, 0usize);
    let mut entries: Vec<usize> = Vec::new();
    let mut best_now = 0usize;
    let mut mine: Vec<Child> = Vec::new();
    let bw = ctx.board_width;
    let mut spread = Spread::default();
    let mut helping = Helping::new();
    let mut pace = Pace::default();

    for depth in 0..limits.max_depth {
        if meter.stop() {
            return Reach::Stopped;
        }
        // Past the end it keeps to: its best position, for the caller to finish in the time
        // it kept for that (run on until the caller's deadline, the beam was stopped there
        // and its work lost: on a slow machine, 32x32 boards under `auto`, which gives the
        // engine 0.8 s of a second, came back with the first narrow beam's answer, 54,231
        // moves where the beams give about 40,000. Twenty seeded boards, `bench --threads
        // 2` (`auto`, no timeout): 41,306.6 moves in 1.03 s against 47,573.4 in 1.24 s; six,
        // `--algorithm near --timeout 0.8`: 47,902.2 / 44,587.2 against 53,045.8 / 53,623.8).
        if depth % 16 == 0
            && limits.finish_by.is_some_and(|(end, _)| std::time::Instant::now() > end)
        {
            break;
        }
        let stalled_for = closest.1.map_or(depth, |l| depth - 1 - l);
        if stalled_for >= STALL_LAYERS {
            break;
        }
        let mut layer = shared.layer.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        layer.pull = (n > DIVERSE_CELLS && stalled_for >= PULL_AFTER).then(|| {
            let at = layer.slot[best_now] as usize * (n + lines);
            let st = &layer.tiles[at..at + n];
            let (mut sx, mut sy, mut sw) = (0u64, 0u64, 0u64);
            for (c, &t) in st.iter().enumerate() {
                let d = u64::from(eval.distance(t, c));
                let w = d * d;
                sx += w * (c % bw) as u64;
                sy += w * (c / bw) as u64;
                sw += w;
            }
            let sw = sw.max(1);
            ((sx / sw) as u32, (sy / sw) as u32)
        });
        let count = layer.blanks.len();
        expanded += count;
        let md_now = layer.values.iter().map(|v| v.0).min().unwrap_or(0);
        let pacing = limits.finish_by.filter(|_| depth >= PACE_LAYERS && depth % 64 == 0);
        if let Some((end, widest)) = pacing {
            let over = if in_blocks(width, n) { PACE_OVER_BLOCKS } else { PACE_OVER };
            if let Some(to_go) = pace.layers_to_go(depth, md_now, md0, over) {
                let per_node = started.elapsed().as_secs_f64() / expanded as f64;
                let left = end.saturating_duration_since(std::time::Instant::now()).as_secs_f64();
                let as_now = left / (to_go * per_node).max(1e-12);
                let fits = if in_blocks(width, n) {
                    blocks_fit(width, n, as_now)
                } else {
                    as_now as usize
                };
                width = fits.clamp(narrowest, widest.max(narrowest));
            }
        }
        drop(layer);
        mine.clear();
        let mut children = if helper.is_some() && count >= HELPER_NODES && helping.wanted(depth) {
            let posting = shared.posted.load(Ordering::Acquire) + 1;
            shared.finished.store(0, Ordering::Release);
            shared.next.store(opening(posting), Ordering::Release);
            shared.posted.store(posting, Ordering::Release);
            if let Some(helper) = helper {
                helper.unpark();
            }
            {
                let layer = shared.layer.read().unwrap_or_else(std::sync::PoisonError::into_inner);
                take_chunks(ctx, shared, &layer, posting);
            }
            let mut spins = 0u32;
            // Only for chunks the helper took: one that has not woken (a busy machine) is
            // not waited for.
            let chunks = chunking(count).1;
            while shared.finished.load(Ordering::Acquire) != chunks {
                if spins < 1_000_000 {
                    spins += 1;
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            shared.next.store(CLOSED, Ordering::Release);
            // In the chunks' order, whichever thread made them: the same children as one
            // thread's, in the same order.
            for c in &shared.chunks[..chunks] {
                mine.extend_from_slice(
                    &c.lock().unwrap_or_else(std::sync::PoisonError::into_inner),
                );
            }
            std::mem::take(&mut mine)
        } else {
            let layer = shared.layer.read().unwrap_or_else(std::sync::PoisonError::into_inner);
            expand(ctx, &layer, 0..count, &mut mine);
            std::mem::take(&mut mine)
        };
        meter.add(children.len() as u64);
        helping.layer_done(depth, children.len(), std::time::Instant::now());
        if children.is_empty() {
            break;
        }
        let mut guard = shared.layer.write().unwrap_or_else(std::sync::PoisonError::into_inner);
        let layer = &mut *guard;
        match blank_cap(width, n) {
            None => keep_best(&mut children, width, |c| c.key, |c| c.hash),
            Some(cap) => {
                // The best children by rank, at most `cap` of them with the blank on any
                // one cell (see `DIVERSE_CELLS`).
                // With one child a cell, the cell's best is kept once: equal positions have
                // the same blank and rank.
                if cap > 1 || children.len() > width.saturating_mul(4) {
                    keep_best(&mut children, width.saturating_mul(4), |c| c.key, |c| c.hash);
                }
                // Narrow beams spread over 2x2 blocks of cells (`BLOCKS_BELOW`).
                let blocks =
                    in_blocks(width, n) && f64::from(md_now) > BLOCKS_UNTIL * f64::from(md0);
                let cell = |c: &Child| {
                    let b = usize::from(c.blank);
                    if blocks { (b / bw / 2) * bw + (b % bw) / 2 } else { b }
                };
                keep_spread(&mut children, width, cap, n, |c| c.key, cell, &mut spread);
            }
        }

        if let Some(goal_child) = children.iter().find(|c| c.md == 0) {
            // The goal: read the path back.
            let mut path = vec![Move::ALL[usize::from(goal_child.mv)]];
            let mut at = goal_child.parent as usize;
            for (parents, moves) in trail.iter().rev() {
                path.push(Move::ALL[usize::from(moves[at])]);
                at = parents[at] as usize;
            }
            path.reverse();
            return Reach::Goal(path);
        }
        if let Some((i, c)) = children.iter().enumerate().min_by_key(|(_, c)| c.key) {
            best_now = i;
            let score = weights.score(c.md, c.lc, c.sq);
            if score < closest.0 {
                closest = (score, Some(trail.len()), i);
            }
        }

        // The children's positions: the first child kept of each parent takes its slot,
        // the others are copied into free slots (of parents without children kept, or new
        // ones) before any slot is changed in place.
        let count = layer.blanks.len();
        heir.clear();
        heir.resize(count, u32::MAX);
        for (j, c) in children.iter().enumerate() {
            let p = c.parent as usize;
            if heir[p] == u32::MAX {
                heir[p] = j as u32;
            }
        }
        free.clear();
        free.extend((0..count).filter(|&p| heir[p] == u32::MAX).map(|p| layer.slot[p]));
        let mut new_slot = Vec::with_capacity(children.len());
        let stride = n + lines;
        let mut pool = layer.tiles.len() / stride;
        for (j, c) in children.iter().enumerate() {
            let p = c.parent as usize;
            if heir[p] == j as u32 {
                new_slot.push(layer.slot[p]);
                continue;
            }
            let s = free.pop().unwrap_or_else(|| {
                pool += 1;
                (pool - 1) as u32
            });
            if layer.tiles.len() < pool * stride {
                layer.tiles.resize(pool * stride, 0);
            }
            let (from, to) = (layer.slot[p] as usize * stride, s as usize * stride);
            layer.tiles.copy_within(from..from + stride, to);
            layer.tiles.swap(to + usize::from(c.blank), to + usize::from(layer.blanks[p]));
            if c.line != u16::MAX {
                layer.tiles[to + n + usize::from(c.line)] = c.conflicts;
            }
            new_slot.push(s);
        }
        for (j, c) in children.iter().enumerate() {
            let p = c.parent as usize;
            if heir[p] == j as u32 {
                let at = layer.slot[p] as usize * stride;
                layer.tiles.swap(at + usize::from(c.blank), at + usize::from(layer.blanks[p]));
                if c.line != u16::MAX {
                    layer.tiles[at + n + usize::from(c.line)] = c.conflicts;
                }
            }
        }
        let mut new_blanks = Vec::with_capacity(children.len());
        let mut new_values = Vec::with_capacity(children.len());
        let mut new_hashes = Vec::with_capacity(children.len());
        let mut parents = Vec::with_capacity(children.len());
        let mut moves = Vec::with_capacity(children.len());
        let mask = layer.recent.len() - 1;
        for c in &children {
            new_blanks.push(c.blank);
            new_values.push((c.md, c.lc, c.sq));
            new_hashes.push(c.hash);
            layer.recent[c.hash as usize & mask] = recent_tag(c.hash);
            parents.push(c.parent);
            moves.push(c.mv);
        }
        trail.push((parents, moves.clone()));
        since += 1;
        if since == COMPACT_EVERY {
            let from = compact(&mut trail, closest.1, &mut closest.2, settled);
            (since, settled) = (0, trail.len() - 1);
            entries.truncate(from);
            for layer in &trail[from..] {
                entries.push(entries.last().copied().unwrap_or(0) + layer.0.len());
            }
            let bytes = entries[entries.len() - 1] * PER_ENTRY + trail.len() * PER_LAYER;
            if limits.max_trail.is_some_and(|max| bytes > max) {
                break;
            }
        }
        layer.slot = new_slot;
        layer.blanks = new_blanks;
        layer.values = new_values;
        layer.hashes = new_hashes;
        layer.last = moves;
        mine = children;
    }
    Reach::Closest(path_to(&trail, closest.1, closest.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A beam past the end it keeps to hands back its best position (for its caller to
    /// finish in the time it kept) rather than running on to the caller's deadline.
    #[test]
    fn a_beam_past_its_end_hands_back_its_best_position() {
        let goal = Goal::BlankLast.board(Size::new(20, 20).unwrap()).unwrap();
        let board = Scrambler::new(4).solvable(&goal);
        let meter = Meter::unlimited();
        let end = Some((std::time::Instant::now(), 64));
        let reached = reach_by(&board, &goal, 64, 1, 100_000, 1, &meter, Weights::BEST, end, None);
        let Reach::Closest(path) = reached else { panic!("{reached:?}") };
        assert!(path.len() <= 16, "{} layers past its end", path.len());
        let mut at = board.clone();
        at.apply_all(&Moves(path)).unwrap();
    }

    /// The layers to go follow the rate of the last `PACE_WINDOW` layers: a beam whose
    /// distance fell fast at first and slowly since is paced by the slow fall, not by its
    /// average since the board; a distance that has not fallen gives no estimate.
    #[test]
    fn the_pace_follows_the_recent_fall() {
        let mut pace = Pace::default();
        // The first check counts from the board: 1,000 fell in 256 layers, 9,000 left.
        let first = pace.layers_to_go(256, 9_000, 10_000, 1.0).unwrap();
        assert!((first - 2_304.0).abs() < 1e-6, "{first}");
        // Then 1 a layer for 8,000 layers: 1,000 left, about 1,000 layers to go (the
        // average since the board would say 1,000 * 8,256 / 9,000, about 917).
        let mut md = 9_000;
        let mut to_go = 0.0;
        for depth in (320..=8_256).step_by(64) {
            md -= 64;
            to_go = pace.layers_to_go(depth, md, 10_000, 1.0).unwrap();
        }
        assert_eq!(md, 1_000);
        assert!((to_go - f64::from(md)).abs() < 1e-6, "{to_go}");
        // Twice over: twice the layers.
        let over = pace.layers_to_go(8_320, md - 64, 10_000, 2.0).unwrap();
        assert!((over - 2.0 * f64::from(md - 64)).abs() < 1e-6, "{over}");
        // Only the window's checks are kept.
        assert!(pace.samples.len() <= PACE_WINDOW / 64 + 1);
        assert!(pace.samples.iter().all(|&(d, _)| d + PACE_WINDOW >= 8_320));
        // No fall over the window: no estimate.
        let mut flat = Pace::default();
        assert_eq!(flat.layers_to_go(256, 10_000, 10_000, 1.4), None);
        assert_eq!(flat.layers_to_go(320, 10_000, 10_000, 1.4), None);
    }

    /// A beam spread over blocks is paced to the width that ends in time given that a
    /// narrower one goes more layers: no narrower than where narrowing stops saving time
    /// (`w0`, 37 on 32x32), never wider than the time allows, and, with room to spare,
    /// about as wide as the layers it would then go allow.
    #[test]
    fn blocks_are_paced_with_the_layers_a_width_goes() {
        let cells = 1024;
        let w0 = 1.15 * 32.0;
        let layers = |w: f64| 1.0 + (w0 / w).powi(2);
        for now in [40usize, 64, 96, 160] {
            let mut last = 0;
            for fits in [1.0, 20.0, 40.0, 64.0, 100.0, 200.0, 1000.0] {
                let w = blocks_fit(now, cells, fits);
                assert!(w >= w0 as usize, "{now} {fits}: {w}");
                assert!(w >= last, "{now} {fits}: {w} narrower than {last} with more room");
                last = w;
                // The layers it then goes, times its width, fit in the time (unless no
                // width does).
                let cost = w as f64 * layers(w as f64);
                if fits * layers(now as f64) > 2.0 * w0 {
                    assert!(cost <= fits * layers(now as f64) + 1.0, "{now} {fits}: {w}");
                }
            }
            // Plenty of room: about the width the layers' count gives, fewer layers to go
            // than the beam now `now` wide would (a narrow beam's layers shrink as it
            // widens).
            let wide = blocks_fit(now, cells, 1000.0) as f64;
            let room = 1000.0 * layers(now as f64);
            assert!(wide > 0.95 * room && wide <= room, "{now}: {wide} for {room}");
        }
    }
    use npuzzle_core::{Goal, Moves, Scrambler, Size};

    /// A beam whose trail outgrows the bytes it is given stops at a compaction, handing
    /// back its best position; given room, the same beam goes on.
    #[test]
    fn a_beam_stops_when_its_trail_outgrows_its_memory() {
        let goal = Goal::BlankLast.board(Size::new(12, 12).unwrap()).unwrap();
        let board = Scrambler::new(3).solvable(&goal);
        let (width, meter) = (256, Meter::unlimited());
        // Room for the nodes and the overhead of about 200 layers of trail: it stops at the
        // first or the second compaction (128 or 256 layers).
        let room = width * per_node(144) + 200 * PER_LAYER;
        let beam = |memory| {
            reach_by(&board, &goal, width, 1, 10_000, 1, &meter, Weights::BEST, None, memory)
        };
        match beam(Some(room)) {
            Reach::Closest(path) => assert!(path.len() <= 2 * COMPACT_EVERY, "{}", path.len()),
            other => panic!("{other:?}"),
        }
        match beam(None) {
            Reach::Goal(path) | Reach::Closest(path) => {
                assert!(path.len() > 2 * COMPACT_EVERY, "{}", path.len())
            }
            Reach::Stopped => panic!("stopped"),
        }
    }

    /// Compacting a trail keeps the path to every node of its last layer and to the node
    /// kept aside, drops every other node, and the pass that stops at a settled layer
    /// leaves what a full pass would.
    #[test]
    fn compacting_a_trail_keeps_every_path_that_matters() {
        // Per layer, each node's moves back to the root.
        let paths = |trail: &[(Vec<u32>, Vec<u8>)], layer: usize, mut at: usize| {
            let mut path = Vec::new();
            for (parents, moves) in trail[..=layer].iter().rev() {
                path.push(moves[at]);
                at = parents[at] as usize;
            }
            path
        };
        let mut state = 7u64;
        for round in 0..50 {
            let mut trail: Vec<(Vec<u32>, Vec<u8>)> = Vec::new();
            let (mut keep, mut keep_at, mut settled) = (None, 0usize, 0usize);
            let mut before = 1usize;
            for depth in 0..300 {
                let count = 1 + (splitmix(&mut state) % 6) as usize;
                let parents: Vec<u32> =
                    (0..count).map(|_| (splitmix(&mut state) % before as u64) as u32).collect();
                let moves: Vec<u8> = (0..count).map(|_| (splitmix(&mut state) % 4) as u8).collect();
                trail.push((parents, moves));
                before = count;
                if depth == 40 + round {
                    (keep, keep_at) = (Some(depth), count - 1);
                }
                if depth % 37 == 36 {
                    let last = trail.len() - 1;
                    let want: Vec<_> =
                        (0..trail[last].0.len()).map(|i| paths(&trail, last, i)).collect();
                    let kept = keep.map(|k| paths(&trail, k, keep_at));
                    let mut full = trail.clone();
                    let mut full_at = keep_at;
                    let unchanged = trail.clone();
                    let from = compact(&mut trail, keep, &mut keep_at, settled);
                    compact(&mut full, keep, &mut full_at, 0);
                    settled = last;
                    assert_eq!(trail, full, "round {round}, depth {depth}");
                    assert_eq!(keep_at, full_at);
                    // The layers before the one it says it may have changed are as they were.
                    assert_eq!(trail[..from], unchanged[..from]);
                    for (i, path) in want.iter().enumerate() {
                        assert_eq!(&paths(&trail, last, i), path);
                    }
                    assert_eq!(keep.map(|k| paths(&trail, k, keep_at)), kept);
                    // Every node left leads to the last layer or is the one kept aside.
                    for k in 0..last {
                        for i in 0..trail[k].0.len() {
                            let child = trail[k + 1].0.contains(&(i as u32));
                            assert!(child || (keep == Some(k) && keep_at == i), "{k}:{i}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn beams_reach_the_goal_on_several_shapes() {
        for (w, h, width) in [(3, 3, 50), (4, 4, 200), (5, 5, 500), (6, 5, 500), (7, 7, 1000)] {
            let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
            let board = Scrambler::new(11).solvable(&goal);
            let moves =
                reach(&board, &goal, width, 3, 10_000, 2, &Meter::unlimited(), Weights::BEST)
                    .goal()
                    .expect("a path");
            let mut end = board.clone();
            end.apply_all(&Moves(moves)).unwrap();
            assert_eq!(end, goal, "{w}x{h}");
        }
    }

    /// A beam that cannot reach the goal stops within [`STALL_LAYERS`] of its best position
    /// and hands back the path there, which replays to a position it ranks no worse than the
    /// board (beams of 4 on 8x8 do, often).
    #[test]
    fn a_stalled_beam_stops_and_hands_back_its_best_position() {
        let goal = Goal::BlankLast.board(Size::new(8, 8).unwrap()).unwrap();
        let eval = Evaluator::new(&goal);
        let score = |b: &Board| {
            let md = eval.manhattan(b.tiles());
            Weights::BEST.score(md, eval.value(b.tiles()) - md, eval.squares(b.tiles()))
        };
        let mut rng = Scrambler::new(5);
        let (mut closest, mut reached) = (0, 0);
        for _ in 0..6 {
            let board = rng.solvable(&goal);
            let meter = Meter::unlimited();
            match reach(&board, &goal, 4, 1, 100_000, 1, &meter, Weights::BEST) {
                Reach::Goal(path) => {
                    let mut end = board.clone();
                    end.apply_all(&Moves(path)).unwrap();
                    assert_eq!(end, goal);
                    reached += 1;
                }
                Reach::Closest(path) => {
                    let mut end = board.clone();
                    end.apply_all(&Moves(path.clone())).unwrap();
                    assert!(score(&end) <= score(&board));
                    assert_ne!(end, goal);
                    // It stopped long before the 100,000 layers it was allowed.
                    assert!(meter.nodes() < 4 * 4 * (path.len() + STALL_LAYERS + 1) as u64);
                    closest += 1;
                }
                Reach::Stopped => panic!("nothing stopped it"),
            }
        }
        assert!(closest > 0, "no narrow beam stalled ({reached} reached the goal)");
        // A meter past its node limit.
        let stopped =
            Meter { budget: None, nodes: std::sync::atomic::AtomicU64::new(1), max_nodes: 0 };
        let board = rng.solvable(&goal);
        assert_eq!(reach(&board, &goal, 4, 1, 100, 1, &stopped, Weights::BEST), Reach::Stopped);
    }

    /// The squared term is kept up to date move by move: a beam's path replays, and with it
    /// the ranking finds shorter paths than without it (the measured gain, here on three 6x6
    /// boards). Narrow beams on big boards can die out or wander with either ranking (on
    /// 7x7, beams of 64 to 1,000 did, now and then), hence boards where both reach the goal.
    #[test]
    fn the_squared_term_shortens_the_beams() {
        let goal = Goal::BlankLast.board(Size::new(6, 6).unwrap()).unwrap();
        let (mut with, mut without) = (0, 0);
        let plain = Weights { md: 4, lc: 5, squares: 0 };
        for seed in 0..3 {
            let board = Scrambler::new(seed).solvable(&goal);
            let run = |weights| {
                reach(&board, &goal, 2000, 1, 3000, 2, &Meter::unlimited(), weights).goal()
            };
            let (Some(a), Some(b)) = (run(Weights::BEST), run(plain)) else { continue };
            for moves in [&a, &b] {
                let mut end = board.clone();
                end.apply_all(&Moves(moves.clone())).unwrap();
                assert_eq!(end, goal);
            }
            with += a.len();
            without += b.len();
        }
        assert!(with > 0 && with < without, "{with} against {without}");
    }

    /// The linear-time selection keeps what sorting by key and skipping full cells keeps.
    #[test]
    fn keep_spread_keeps_the_best_of_each_cell_then_the_best() {
        let mut state = 7u64;
        for (count, cells, width, cap) in [
            (1000, 36, 100, 5),
            (5000, 256, 800, 7),
            (300, 10, 500, 40),
            (50, 4, 10, 1),
            (800, 1024, 256, 1),
        ] {
            // (key, cell); keys distinct, as the beam's are (a tie-break in the low bits).
            let children: Vec<(u64, usize)> = (0..count)
                .map(|i| {
                    ((splitmix(&mut state) % 1000) << 20 | i, splitmix(&mut state) as usize % cells)
                })
                .collect();
            let mut sorted = children.clone();
            sorted.sort_unstable();
            let mut on_cell = vec![0; cells];
            let mut want: Vec<(u64, usize)> = sorted
                .into_iter()
                .filter(|c| {
                    on_cell[c.1] += 1;
                    on_cell[c.1] <= cap
                })
                .take(width)
                .collect();
            let mut got = children.clone();
            let mut spread = Spread::default();
            keep_spread(&mut got, width, cap, cells, |c| c.0, |c| c.1, &mut spread);
            got.sort_unstable();
            want.sort_unstable();
            assert_eq!(got, want, "{count} {cells} {width} {cap}");
        }
    }

    /// The linear selection keeps what sorting would: the `width` smallest keys, each
    /// position (hash) once, whatever the repeats and the widths.
    #[test]
    fn keep_best_keeps_the_smallest_keys_once_each() {
        let mut s = 5u64;
        for (n, width, positions) in
            [(0, 3, 1), (10, 3, 4), (1000, 100, 300), (5000, 40, 5000), (3000, 2000, 900)]
        {
            // Children of `positions` positions; a position's key depends on it alone.
            let children: Vec<(u64, u64)> = (0..n)
                .map(|_| {
                    let hash = splitmix(&mut s) % positions + 1;
                    (hash.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 20, hash)
                })
                .collect();
            let mut expected = children.clone();
            expected.sort_unstable();
            expected.dedup();
            expected.truncate(width);
            let mut kept = children;
            keep_best(&mut kept, width, |c| c.0, |c| c.1);
            kept.sort_unstable();
            assert_eq!(kept, expected, "{n} children, width {width}");
        }
    }

    /// Beyond `DIVERSE_CELLS`, a beam that stops progressing is drawn back to the tiles still
    /// to solve ([`PULL_AFTER`]): on 24x24, beams of 64 end a few knots short of the goal,
    /// which `tidy` mends, where without the pull they stalled with 494 to 559 of the 575
    /// tiles out of place (these boards, measured when it came in). Spread over 2x2 blocks
    /// ([`BLOCKS_BELOW`]), they take 1.91 to 2.00 times the Manhattan distance, beam and
    /// mending, where one node a cell took 2.15 to 2.36.
    #[test]
    fn narrow_beams_on_big_boards_get_near_the_goal() {
        let goal = Goal::BlankLast.board(Size::new(24, 24).unwrap()).unwrap();
        for seed in 100..103 {
            let board = Scrambler::new(seed).solvable(&goal);
            let meter = Meter::unlimited();
            let path = match reach(&board, &goal, 64, 1, 200_000, 1, &meter, Weights::BEST) {
                Reach::Goal(path) | Reach::Closest(path) => path,
                Reach::Stopped => panic!("nothing stopped it"),
            };
            let mut end = board.clone();
            let path_length = path.len();
            end.apply_all(&Moves(path)).unwrap();
            let out = end.tiles().iter().zip(goal.tiles()).filter(|(a, b)| a != b).count();
            assert!(out < 150, "seed {seed}: {out} cells out of place");
            let tail = super::super::tidy::finish(&end, &goal, &meter).expect("mended");
            let length = path_length + tail.len();
            end.apply_all(&Moves(tail)).unwrap();
            assert_eq!(end, goal);
            let ratio = length as f64 / f64::from(Evaluator::new(&goal).manhattan(board.tiles()));
            assert!(ratio < 2.08, "seed {seed}: {length} moves, {ratio:.3} times Manhattan");
        }
    }

    /// On one thread or two (the helper taking chunks of each layer), a beam goes the same
    /// way: the same path, on a board beyond `DIVERSE_CELLS` (the spread and the pull) and
    /// on one within.
    #[test]
    fn two_threads_find_the_same_path_as_one() {
        for (w, h, width) in [(20, 20, 100), (6, 6, 3000)] {
            let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
            let board = Scrambler::new(4).solvable(&goal);
            let run = |threads| {
                let meter = Meter::unlimited();
                reach(&board, &goal, width, 3, 100_000, threads, &meter, Weights::BEST)
            };
            let one = run(1);
            assert!(!matches!(one, Reach::Stopped), "{w}x{h}");
            assert_eq!(run(2), one, "{w}x{h}");
        }
    }

    /// Many short beams on two threads, their layers growing (more chunks each) and going
    /// with and without the helper (layers 32 to 63 of every 1,024 go without), all end. A
    /// helper that woke late once took a chunk of a later layer and the main thread waited
    /// for ever (`take_chunks`); that needs a helper descheduled at the wrong moment, which
    /// this test cannot force: it did not hang before the fix either, in four runs at once.
    #[test]
    fn beams_on_two_threads_always_end() {
        let goal = Goal::BlankLast.board(Size::new(7, 7).unwrap()).unwrap();
        let mut rng = Scrambler::new(9);
        for _ in 0..100 {
            let board = rng.solvable(&goal);
            let meter = Meter::unlimited();
            let reached = reach(&board, &goal, 300, 1, 100, 2, &meter, Weights::BEST);
            assert!(!matches!(reached, Reach::Stopped));
        }
    }

    /// The helper is tried and left out in turn, and the faster way per child goes on until
    /// the next trial.
    #[test]
    fn the_faster_way_to_expand_is_kept() {
        for (with, without, on) in [(3, 1, false), (1, 3, true)] {
            let mut helping = Helping::new();
            let mut now = helping.last;
            for depth in 0..TRIAL_EVERY + 1 {
                let wanted = helping.wanted(depth);
                assert_eq!(
                    wanted,
                    depth % TRIAL_EVERY < TRIAL_LAYERS || (depth >= 2 * TRIAL_LAYERS && helping.on)
                );
                let micros = if wanted { with } else { without };
                now += std::time::Duration::from_micros(micros * 100);
                helping.layer_done(depth, 100, now);
                if depth >= 2 * TRIAL_LAYERS {
                    assert_eq!(helping.on, on, "{with} against {without}");
                }
            }
        }
    }

    /// Zobrist keys, from a table (small boards) or computed (big ones): a move's update
    /// equals a recount, and no two (tile, cell) pairs of a board share a key.
    #[test]
    fn zobrist_updates_match_a_recount_and_keys_differ() {
        for (w, h) in [(5, 5), (12, 12), (32, 32)] {
            let goal = Goal::BlankLast.board(Size::new(w, h).unwrap()).unwrap();
            let n = w * h;
            let zobrist = Zobrist::new(n);
            let mut keys: Vec<u64> = (1..n as u16)
                .flat_map(|t| (0..n).map(move |c| (t, c)))
                .map(|(t, c)| zobrist.key(t, c))
                .collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), (n - 1) * n, "{w}x{h}");
            let mut board = Scrambler::new(10).solvable(&goal);
            let mut hash = zobrist.hash(board.tiles());
            let mut state = 1u64;
            for _ in 0..500 {
                let m = Move::ALL[(splitmix(&mut state) % 4) as usize];
                let blank = board.blank();
                if board.apply(m).is_err() {
                    continue;
                }
                hash = zobrist.moved(hash, board.tiles()[blank], board.blank(), blank);
                assert_eq!(hash, zobrist.hash(board.tiles()), "{w}x{h}");
            }
        }
    }

    #[test]
    fn a_solved_board_needs_no_moves() {
        let goal = Goal::BlankLast.board(Size::new(6, 6).unwrap()).unwrap();
        assert_eq!(
            reach(&goal, &goal, 10, 1, 10, 1, &Meter::unlimited(), Weights::BEST).goal(),
            Some(Vec::new())
        );
    }
}
