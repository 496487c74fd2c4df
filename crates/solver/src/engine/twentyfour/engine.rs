//! The IDA* engine over [`Tables`]: incremental indices, one table read per side and child,
//! move pruning by a [`Pruner`].

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use npuzzle_core::{Board, Move};

use super::tables::Tables;
use super::{Progress, ProgressFn};
use crate::engine::common::{self, Entries, moved};
use crate::heuristic::pdb::rank::{Shifts, binomial};
use crate::heuristic::pdb::{Encoding, Regions};
use crate::options::Limits;
use crate::pruning::{FORBIDDEN, Pruner};

/// Colexicographic ranks of cell sets of up to 25 cells in two loads: the low 13 cells
/// give their part of the rank directly; the high 12 cells' part depends on how many cells
/// are below them, at most [`crate::heuristic::pdb::MAX_PATTERN_TILES`]. (The pattern builder's ranker
/// has one table for 16 cells and a loop above; on 25 cells nearly every set has a cell above
/// 16.)
pub(crate) struct Colex {
    low: Vec<u32>,
    high: Vec<u32>,
}

const LOW_BITS: u32 = 13;
const HIGH_BITS: u32 = 12;

impl Colex {
    pub(crate) fn get() -> &'static Colex {
        static TABLE: OnceLock<Colex> = OnceLock::new();
        TABLE.get_or_init(|| {
            let part = |mask: u32, shift: u32, below: u32| -> u32 {
                let mut rank = 0u64;
                let mut p = below as usize + 1;
                let mut m = mask;
                while m != 0 {
                    let c = (m.trailing_zeros() + shift) as usize;
                    rank += binomial(c, p);
                    p += 1;
                    m &= m - 1;
                }
                rank as u32
            };
            let low = (0..1u32 << LOW_BITS).map(|m| part(m, 0, 0)).collect();
            let mut high = Vec::with_capacity(9 << HIGH_BITS);
            for below in 0..9 {
                high.extend((0..1u32 << HIGH_BITS).map(|m| part(m, LOW_BITS, below)));
            }
            Colex { low, high }
        })
    }

    /// The rank of `mask` (at most 25 cells, at most 8 of them in the low 13).
    #[inline(always)]
    pub(crate) fn rank(&self, mask: u32) -> u32 {
        let lo = mask & ((1 << LOW_BITS) - 1);
        let below = lo.count_ones().min(8);
        self.low[lo as usize] + self.high[((below << HIGH_BITS) | (mask >> LOW_BITS)) as usize]
    }
}

/// One lookup's state: the pattern's cells (in the stored table's frame), the order of its
/// tiles on them, and the entry.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Slot {
    mask: u32,
    order: u16,
    value: u8,
    /// The Manhattan distance of the lookup's tiles (what a one-bit table needs).
    md: u8,
}

/// A position and everything its bound needs; copied from parent to child.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node<const L: usize, const S: usize> {
    pub(crate) board: [u8; 32],
    pub(crate) blank: u8,
    /// The side whose sum is the largest (tested first in the children).
    best: u8,
    pub(crate) md: u16,
    sums: [u16; S],
    slots: [Slot; L],
}

struct TableRef<'a> {
    entries: Entries<'a>,
    /// A per-region table's regions (see `Regions`); empty for a per-placement one.
    regions: &'a Regions,
    /// The table's one-bit copy (see `Database::search_bits`), or empty.
    bits: &'a [u8],
    orders: u32,
    shifts: &'static Shifts,
}

/// The precomputed tables of one search.
pub(crate) struct KorfEngine<'a, const L: usize, const S: usize> {
    /// For each blank cell: the legal moves as (move, cell the blank goes to).
    moves: Vec<[(u8, u8); 4]>,
    moves_len: Vec<u8>,
    /// Manhattan distance of each tile from each cell: `dist[tile * 32 + cell]`.
    dist: Vec<u8>,
    /// The distinct lookups each tile is in (over every side), and how many.
    touch: [[u8; S]; 32],
    touch_len: [u8; 32],
    /// For each side and tile: where in the tile's `touch` its lookup on that side is.
    at: [[u8; 32]; S],
    /// Each side's lookups.
    side_lookups: Vec<Vec<u8>>,
    /// Per lookup: the cell map into its table's frame.
    cell: Vec<[u8; 32]>,
    /// Per lookup: its table.
    tables: Vec<TableRef<'a>>,
    sides: usize,
    pruner: &'a [u16],
    colex: &'static Colex,
}

impl<'a, const L: usize, const S: usize> KorfEngine<'a, L, S> {
    /// The engine for `tables`, which must have at most `L` lookups and `S` sides.
    pub(crate) fn new(tables: &'a Tables, pruner: &'a Pruner) -> KorfEngine<'a, L, S> {
        assert!(tables.lookups.len() <= L && tables.sides.len() <= S, "an engine too small");
        let goal = tables.goal();
        let size = goal.size();
        let (w, h) = (size.width(), size.height());
        let cells = w * h;
        let goal_pos = goal.positions();
        let mut dist = vec![0u8; 32 * 32];
        for t in 1..cells {
            for c in 0..cells {
                let (a, b) = (c, goal_pos[t]);
                dist[t * 32 + c] = ((a % w).abs_diff(b % w) + (a / w).abs_diff(b / w)) as u8;
            }
        }
        let mut moves = vec![[(0u8, 0u8); 4]; cells];
        let mut moves_len = vec![0u8; cells];
        for b in 0..cells {
            let (x, y) = (b % w, b / w);
            let mut n = 0;
            for m in Move::ALL {
                let (dx, dy) = m.blank_delta();
                let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy))
                else {
                    continue;
                };
                if nx < w && ny < h {
                    moves[b][n] = (m.index() as u8, (ny * w + nx) as u8);
                    n += 1;
                }
            }
            moves_len[b] = n as u8;
        }
        let sides = tables.sides.len();
        let mut touch = [[0u8; S]; 32];
        let mut touch_len = [0u8; 32];
        let mut at = [[0u8; 32]; S];
        for (si, side) in tables.sides.iter().enumerate() {
            for &li in side {
                for &t in &tables.lookups[usize::from(li)].tiles {
                    let t = usize::from(t);
                    let n = usize::from(touch_len[t]);
                    let j = match touch[t][..n].iter().position(|&x| x == li) {
                        Some(j) => j,
                        None => {
                            touch[t][n] = li;
                            touch_len[t] += 1;
                            n
                        }
                    };
                    at[si][t] = j as u8;
                }
            }
        }
        let table_refs = tables
            .lookups
            .iter()
            .map(|l| {
                let base = &tables.bases()[l.base];
                let info = &base.tables()[l.table];
                TableRef {
                    entries: Entries {
                        bytes: base.table_bytes(l.table),
                        nibble: info.encoding == Encoding::Nibble,
                    },
                    regions: &info.regions,
                    bits: base.search_bits(l.table),
                    orders: info.orders as u32,
                    shifts: Shifts::get(info.tiles.len()),
                }
            })
            .collect();
        KorfEngine {
            moves,
            moves_len,
            dist,
            touch,
            touch_len,
            at,
            side_lookups: tables.sides.clone(),
            cell: tables.lookups.iter().map(|l| l.cell).collect(),
            tables: table_refs,
            sides,
            pruner: pruner.table(),
            colex: Colex::get(),
        }
    }

    /// The root node of `board`.
    pub(crate) fn root(&self, tables: &Tables, board: &Board) -> Node<L, S> {
        let mut node = Node {
            board: [0; 32],
            blank: board.blank() as u8,
            best: 0,
            md: 0,
            sums: [0; S],
            slots: [Slot::default(); L],
        };
        let pos = board.positions();
        for (c, &t) in board.tiles().iter().enumerate() {
            node.board[c] = t as u8;
            if t != 0 {
                node.md += u16::from(self.dist[usize::from(t) * 32 + c]);
            }
        }
        for (li, l) in tables.lookups.iter().enumerate() {
            let k = l.tiles.len();
            let mut mapped = [0u8; 8];
            for (slot, &t) in mapped.iter_mut().zip(&l.tiles) {
                *slot = l.cell[pos[usize::from(t)]];
            }
            let mask = mapped[..k].iter().fold(0u32, |m, &c| m | 1 << c);
            let mut order = [0u8; 8];
            for (q, &c) in mapped[..k].iter().enumerate() {
                order[(mask & ((1 << c) - 1)).count_ones() as usize] = q as u8;
            }
            let order = crate::heuristic::pdb::rank::perm_rank(&order[..k]) as u16;
            let blank = u32::from(l.cell[pos[0]]);
            let index = self.index(li, mask, blank, order);
            let value = self.tables[li].entries.get(index);
            let md =
                l.tiles.iter().map(|&t| self.dist[usize::from(t) * 32 + pos[usize::from(t)]]).sum();
            node.slots[li] = Slot { mask, order, value, md };
        }
        for (si, side) in self.side_lookups.iter().enumerate() {
            node.sums[si] =
                side.iter().map(|&li| u16::from(node.slots[usize::from(li)].value)).sum();
        }
        node.best = self.best(&node.sums);
        node
    }

    /// The side with the largest of `sums`.
    #[inline(always)]
    fn best(&self, sums: &[u16; S]) -> u8 {
        let mut best = 0;
        for s in 1..self.sides {
            if sums[s] > sums[best] {
                best = s;
            }
        }
        best as u8
    }

    /// The bound of `node`.
    #[inline]
    pub(crate) fn h(&self, node: &Node<L, S>) -> u32 {
        u32::from(node.md) + 2 * u32::from(node.sums[usize::from(node.best)])
    }

    /// The legal moves from `node`, as (move, cell the blank goes to).
    pub(crate) fn moves(&self, node: &Node<L, S>) -> &[(u8, u8)] {
        let b = usize::from(node.blank);
        &self.moves[b][..usize::from(self.moves_len[b])]
    }

    /// The pruning machine's state after move `m` from `state`, or [`FORBIDDEN`].
    #[inline(always)]
    pub(crate) fn prune(&self, state: u16, m: u8) -> u16 {
        self.pruner[usize::from(state) * 4 + usize::from(m)]
    }

    /// The child of `node` whose blank moves to `to` (both sides computed).
    pub(crate) fn child(&self, node: &Node<L, S>, to: u8) -> Node<L, S> {
        let blank = usize::from(node.blank);
        let to_c = usize::from(to);
        let tile = usize::from(node.board[to_c]);
        let mut child = *node;
        child.md = node.md + u16::from(self.dist[tile * 32 + blank])
            - u16::from(self.dist[tile * 32 + to_c]);
        let dmd = child.md.wrapping_sub(node.md) as i8;
        for &li in &self.touch[tile][..usize::from(self.touch_len[tile])] {
            let li = usize::from(li);
            let (mut slot, index) = self.locate(li, node.slots[li], to_c, blank, dmd);
            slot.value = self.read(li, node.slots[li], slot.md, index);
            child.slots[li] = slot;
        }
        for s in 0..self.sides {
            let li = usize::from(self.touch[tile][usize::from(self.at[s][tile])]);
            child.sums[s] =
                node.sums[s] - u16::from(node.slots[li].value) + u16::from(child.slots[li].value);
        }
        child.best = self.best(&child.sums);
        child.board[blank] = tile as u8;
        child.board[to_c] = 0;
        child.blank = to;
        child
    }

    /// The entry `index` of lookup `li` for a lookup whose state before the move was
    /// `parent` and whose Manhattan distance is now `md`: read whole, or followed from the
    /// one-bit table (see `Database::search_bits`).
    #[inline(always)]
    fn read(&self, li: usize, parent: Slot, md: u8, index: u64) -> u8 {
        let t = &self.tables[li];
        if t.bits.is_empty() {
            return t.entries.get(index);
        }
        crate::heuristic::pdb::entry_from_bit(t.bits, index, parent.value, parent.md, md)
    }

    /// Lookup `li`'s state after its tile moves from cell `from` to cell `to` (cells of the
    /// board): the new state, entry not read, and the entry's index.
    #[inline(always)]
    fn locate(&self, li: usize, slot: Slot, from: usize, to: usize, dmd: i8) -> (Slot, u64) {
        let (slot, set, at) = self.place(li, slot, from, to, dmd);
        (slot, self.index_of_set(li, set, at, slot.order))
    }

    /// [`KorfEngine::locate`] up to the entry's index: the new state, the rank of its cell
    /// set and the blank's cell (in the table's frame; it now stands where the tile was).
    /// [`KorfEngine::index_of_set`] then reads the set's region words.
    #[inline(always)]
    fn place(&self, li: usize, slot: Slot, from: usize, to: usize, dmd: i8) -> (Slot, u32, u32) {
        let map = &self.cell[li];
        let (from, to) = (u32::from(map[from]), u32::from(map[to]));
        let t = &self.tables[li];
        let (mask, i, j) = moved(slot.mask, from, to);
        let order =
            if i == j { slot.order } else { t.shifts.shift(i, j, u32::from(slot.order)) as u16 };
        let set = self.colex.rank(mask);
        (Slot { mask, order, value: 0, md: slot.md.wrapping_add_signed(dmd) }, set, from)
    }

    /// Asks for the region words of lookup `li`'s set `set` with the blank on `blank` (a
    /// hint). The catalogue locates about ten lookups per child it keeps, each reading the
    /// words of a 6-tile set (4 MB per table, mostly not in the L2 cache): asked for all
    /// first, their misses overlap. On #25 and #40 with the catalogue, one thread, 3
    /// alternating runs on a loaded machine: 10.5–11.2 s against 12.8–13.5 s (0.84x). Not
    /// for the first side's lookup, nor for Korf & Felner's partition alone (two lookups a
    /// child): no faster there.
    #[inline(always)]
    fn ask_regions(&self, li: usize, set: u32, blank: u32) {
        let t = &self.tables[li];
        if !t.regions.is_empty() {
            t.regions.prefetch(set, blank);
        }
    }

    /// The entry index of lookup `li` for its tiles in order `order` on the cell set of rank
    /// `set` with the blank on `blank` (in the table's frame).
    #[inline(always)]
    fn index_of_set(&self, li: usize, set: u32, blank: u32, order: u16) -> u64 {
        let t = &self.tables[li];
        if t.regions.is_empty() {
            u64::from(set) * u64::from(t.orders) + u64::from(order)
        } else {
            t.regions.index(set, blank, u32::from(order), t.orders)
        }
    }

    /// The entry index of lookup `li` for its tiles on the cells of `mask` in order `order`
    /// with the blank on `blank` (cells in the table's frame).
    #[inline(always)]
    fn index(&self, li: usize, mask: u32, blank: u32, order: u16) -> u64 {
        self.index_of_set(li, self.colex.rank(mask), blank, order)
    }

    /// Asks for the cache line of entry `index` of lookup `li` (a hint; never faults).
    #[inline(always)]
    fn prefetch(&self, li: usize, index: u64) {
        let t = &self.tables[li];
        if t.bits.is_empty() {
            t.entries.prefetch(index);
        } else {
            Entries { bytes: t.bits, nibble: false }.prefetch(index >> 3);
        }
    }
}

/// The limits and the progress of one solve, shared by its threads.
pub(crate) struct Watch<'a> {
    pub(crate) limits: &'a Limits,
    pub(crate) deadline: Option<Instant>,
    pub(crate) started: Instant,
    /// Raised by the thread that finds a solution or hits a limit.
    pub(crate) done: AtomicBool,
    /// Nodes expanded by every thread, updated at each check.
    pub(crate) expanded: AtomicU64,
    pub(crate) generated: AtomicU64,
    /// Expansions the threads of a parallel search reserved from the node limit.
    pub(crate) reserved: AtomicU64,
    /// Which limit fired: 0 none, 1 nodes, 2 time, 3 cancel.
    pub(crate) which: AtomicU8,
    /// Milliseconds since the start at the last progress report.
    pub(crate) reported: AtomicU64,
    pub(crate) progress: Option<&'a ProgressFn<'a>>,
    /// The bound of the iteration under way.
    pub(crate) bound: std::sync::atomic::AtomicU32,
}

/// Progress reports at most this often.
const REPORT_EVERY_MS: u64 = 1000;

impl Watch<'_> {
    pub(crate) fn report(&self, force: bool) {
        let Some(progress) = self.progress else { return };
        let ms = self.started.elapsed().as_millis() as u64;
        let last = self.reported.load(Relaxed);
        if !force && ms < last + REPORT_EVERY_MS {
            return;
        }
        if !force && self.reported.compare_exchange(last, ms, Relaxed, Relaxed).is_err() {
            return;
        }
        self.reported.store(ms, Relaxed);
        progress(Progress {
            bound: self.bound.load(Relaxed),
            expanded: self.expanded.load(Relaxed),
            generated: self.generated.load(Relaxed),
            seconds: ms as f64 / 1e3,
        });
    }
}

/// Expansions between two looks at the clock, the limits and the other threads.
pub(crate) const CHECK_EVERY: u64 = 1 << 13;

/// A child being made: where its entries are, before they are read.
#[derive(Clone, Copy, Debug)]
struct Kid<const S: usize> {
    m: u8,
    to: u8,
    tile: u8,
    state: u16,
    md: u16,
    /// The new state of each lookup the tile is in (the engine's `touch` order), and its
    /// entry's index.
    slots: [Slot; S],
    index: [u64; S],
    /// Once read and kept: the child's sum on each side.
    sums: [u16; S],
}

impl<const S: usize> Kid<S> {
    fn new() -> Kid<S> {
        Kid {
            m: 0,
            to: 0,
            tile: 0,
            state: 0,
            md: 0,
            slots: [Slot::default(); S],
            index: [0; S],
            sums: [0; S],
        }
    }
}

/// One depth-first pass to a threshold.
pub(crate) struct Pass<'e, 'a, const L: usize, const S: usize> {
    engine: &'e KorfEngine<'a, L, S>,
    pub(crate) bound: u32,
    /// The smallest bound seen above the threshold.
    pub(crate) next_bound: u32,
    pub(crate) expanded: u64,
    pub(crate) generated: u64,
    /// Counts already added to the watch.
    flushed: (u64, u64),
    pub(crate) path: [u8; 256],
    /// The depth of the goal, once found.
    pub(crate) depth: u32,
    /// Set when a limit fired or another thread finished.
    pub(crate) stopped: bool,
    check_at: u64,
    /// Expansions between two checks.
    every: u64,
    /// The threads sharing the node limit.
    share: u64,
    watch: &'e Watch<'e>,
    /// The iteration this pass belongs to, and the earliest iteration in which any thread
    /// found a solution (parallel mode): a pass of that iteration or a later one stops.
    pub(crate) iteration: u32,
    pub(crate) best: Option<&'e std::sync::atomic::AtomicU32>,
    /// The children being made at each depth, kept from node to node: with many sides they
    /// are over a kilobyte a node, which a fresh array would have to clear at every node.
    scratch: Vec<[Kid<S>; 4]>,
}

impl<'e, 'a, const L: usize, const S: usize> Pass<'e, 'a, L, S> {
    pub(crate) fn new(
        engine: &'e KorfEngine<'a, L, S>,
        bound: u32,
        watch: &'e Watch<'e>,
    ) -> Pass<'e, 'a, L, S> {
        Pass {
            engine,
            bound,
            next_bound: u32::MAX,
            expanded: 0,
            generated: 0,
            flushed: (0, 0),
            path: [0; 256],
            depth: 0,
            stopped: false,
            check_at: common::until_check(
                watch.limits,
                watch.expanded.load(Relaxed),
                CHECK_EVERY,
                1,
            ),
            every: CHECK_EVERY,
            share: 1,
            watch,
            iteration: 0,
            best: None,
            scratch: vec![[Kid::new(); 4]; 256],
        }
    }

    /// Checks the limits and the other threads every `every` expansions, sharing the node
    /// limit with `share` threads.
    pub(crate) fn check_every(&mut self, every: u64, share: u64) {
        self.every = every;
        self.share = share;
        let w = self.watch;
        self.check_at = self.expanded
            + if share > 1 {
                common::reserve(w.limits, &w.reserved, every, share).max(1)
            } else {
                common::until_check(w.limits, w.expanded.load(Relaxed), every, 1)
            };
    }

    /// Adds this pass's counts since the last flush to the watch.
    pub(crate) fn flush(&mut self) {
        let w = self.watch;
        w.expanded.fetch_add(self.expanded - self.flushed.0, Relaxed);
        w.generated.fetch_add(self.generated - self.flushed.1, Relaxed);
        self.flushed = (self.expanded, self.generated);
    }

    #[cold]
    fn check(&mut self) {
        self.flush();
        let w = self.watch;
        let total = w.expanded.load(Relaxed);
        let mut which = common::fired(w.limits, w.deadline, total);
        let chunk = if self.share > 1 {
            let chunk = common::reserve(w.limits, &w.reserved, self.every, self.share);
            if chunk == 0 && which == common::FIRED_NONE {
                which = common::FIRED_NODES;
            }
            chunk
        } else {
            common::until_check(w.limits, total, self.every, 1)
        };
        self.check_at = self.expanded + chunk.max(1);
        if which != common::FIRED_NONE {
            let _ = w.which.compare_exchange(0, which, Relaxed, Relaxed);
            w.done.store(true, Relaxed);
        }
        if w.done.load(Relaxed) || self.best.is_some_and(|b| b.load(Relaxed) <= self.iteration) {
            self.stopped = true;
        }
        w.report(false);
    }

    /// Searches below `node` (at depth `g`, pruning machine in `state`) within the threshold;
    /// true when it reached the goal (the moves are then in `path[..depth]`).
    pub(crate) fn dfs(&mut self, node: &Node<L, S>, g: u32, state: u16) -> bool {
        if node.md == 0 {
            self.depth = g;
            return true;
        }
        self.expanded += 1;
        if self.expanded >= self.check_at {
            self.check();
            if self.stopped {
                return false;
            }
        }
        let e = self.engine;
        let blank = usize::from(node.blank);
        let moves = &e.moves[blank][..usize::from(e.moves_len[blank])];
        // Every child's table positions first, with their cache lines asked for, then the
        // reads: the children's misses overlap instead of queueing.
        let mut scratch = std::mem::take(&mut self.scratch);
        let kids = &mut scratch[g as usize];
        let mut n = 0;
        for &(m, to) in moves {
            let next = e.prune(state, m);
            if next == FORBIDDEN {
                continue;
            }
            let kid = &mut kids[n];
            n += 1;
            let to_c = usize::from(to);
            let tile = usize::from(node.board[to_c]);
            kid.m = m;
            kid.to = to;
            kid.tile = tile as u8;
            kid.state = next;
            kid.md = node.md + u16::from(e.dist[tile * 32 + blank])
                - u16::from(e.dist[tile * 32 + to_c]);
            let dmd = kid.md.wrapping_sub(node.md) as i8;
            let touched = &e.touch[tile][..usize::from(e.touch_len[tile])];
            if e.sides <= 2 {
                for (j, &li) in touched.iter().enumerate() {
                    let li = usize::from(li);
                    let (slot, index) = e.locate(li, node.slots[li], to_c, blank, dmd);
                    kid.slots[j] = slot;
                    kid.index[j] = index;
                    e.prefetch(li, index);
                }
            } else {
                // Many sides: first only the lookup of the side largest at the parent.
                let j = usize::from(e.at[usize::from(node.best)][tile]);
                let li = usize::from(touched[j]);
                let (slot, index) = e.locate(li, node.slots[li], to_c, blank, dmd);
                kid.slots[j] = slot;
                kid.index[j] = index;
                e.prefetch(li, index);
            }
        }
        // With more than two sides, the other lookups are located (a read of the set's
        // regions each) and their entries asked for only for the children that the first
        // side leaves under the threshold.
        let mut dead = 0u32;
        if e.sides > 2 {
            let best = usize::from(node.best);
            for (k, kid) in kids[..n].iter_mut().enumerate() {
                let tile = usize::from(kid.tile);
                let touched = &e.touch[tile][..usize::from(e.touch_len[tile])];
                let first = usize::from(e.at[best][tile]);
                let li = usize::from(touched[first]);
                kid.slots[first].value =
                    e.read(li, node.slots[li], kid.slots[first].md, kid.index[first]);
                let sum = node.sums[best] - u16::from(node.slots[li].value)
                    + u16::from(kid.slots[first].value);
                if g + 1 + u32::from(kid.md) + 2 * u32::from(sum) > self.bound {
                    dead |= 1 << k;
                    continue;
                }
                let to_c = usize::from(kid.to);
                let dmd = kid.md.wrapping_sub(node.md) as i8;
                // First every lookup's cell set, with its region words asked for, then
                // the indices: the region words' misses overlap instead of queueing.
                for (j, &lj) in touched.iter().enumerate() {
                    if j != first {
                        let lj = usize::from(lj);
                        let (slot, set, at) = e.place(lj, node.slots[lj], to_c, blank, dmd);
                        e.ask_regions(lj, set, at);
                        kid.slots[j] = slot;
                        kid.index[j] = u64::from(set) << 32 | u64::from(at);
                    }
                }
            }
            // Then their indices (the region words in cache by now), their entries asked for.
            for (k, kid) in kids[..n].iter_mut().enumerate() {
                if dead & (1 << k) != 0 {
                    continue;
                }
                let tile = usize::from(kid.tile);
                let touched = &e.touch[tile][..usize::from(e.touch_len[tile])];
                let first = usize::from(e.at[best][tile]);
                for (j, &lj) in touched.iter().enumerate() {
                    if j != first {
                        let lj = usize::from(lj);
                        let packed = kid.index[j];
                        let (set, at) = ((packed >> 32) as u32, packed as u32);
                        let index = e.index_of_set(lj, set, at, kid.slots[j].order);
                        kid.index[j] = index;
                        e.prefetch(lj, index);
                    }
                }
            }
        }
        let mut kept = 0;
        for k in 0..n {
            self.generated += 1;
            let kid = &mut kids[k];
            let tile = usize::from(kid.tile);
            let touch = &e.touch[tile];
            if dead & (1 << k) != 0 {
                // Cut off by the first side (its entry read above).
                let best = usize::from(node.best);
                let li = usize::from(touch[usize::from(e.at[best][tile])]);
                let sum = node.sums[best] - u16::from(node.slots[li].value)
                    + u16::from(kid.slots[usize::from(e.at[best][tile])].value);
                let f = g + 1 + u32::from(kid.md) + 2 * u32::from(sum);
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            // The sides in turn from the one largest at the parent (the likeliest to cut
            // the child off); an entry is read when a side needs it, so a child cut off by
            // one side reads no other's.
            let mut read = if e.sides > 2 { 1u32 << e.at[usize::from(node.best)][tile] } else { 0 };
            let mut sums = node.sums;
            let mut cut = false;
            let mut s = usize::from(node.best);
            for _ in 0..e.sides {
                let j = usize::from(e.at[s][tile]);
                let li = usize::from(touch[j]);
                if read & (1 << j) == 0 {
                    read |= 1 << j;
                    kid.slots[j].value = e.read(li, node.slots[li], kid.slots[j].md, kid.index[j]);
                }
                let sum =
                    node.sums[s] - u16::from(node.slots[li].value) + u16::from(kid.slots[j].value);
                let f = g + 1 + u32::from(kid.md) + 2 * u32::from(sum);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    cut = true;
                    break;
                }
                sums[s] = sum;
                s += 1;
                if s == e.sides {
                    s = 0;
                }
            }
            if cut {
                continue;
            }
            kid.sums = sums;
            if kept != k {
                kids[kept] = kids[k];
            }
            kept += 1;
        }
        self.scratch = scratch;
        for k in 0..kept {
            let (child, m, state) = {
                let kid = &self.scratch[g as usize][k];
                let tile = usize::from(kid.tile);
                let mut child = *node;
                for (j, &li) in e.touch[tile][..usize::from(e.touch_len[tile])].iter().enumerate() {
                    child.slots[usize::from(li)] = kid.slots[j];
                }
                child.sums = kid.sums;
                child.best = e.best(&kid.sums);
                child.board[blank] = kid.tile;
                child.board[usize::from(kid.to)] = 0;
                child.blank = kid.to;
                child.md = kid.md;
                (child, kid.m, kid.state)
            };
            self.path[g as usize] = m;
            if self.dfs(&child, g + 1, state) {
                return true;
            }
            if self.stopped {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::rank::subset_rank;

    #[test]
    fn colex_ranks_agree_with_the_builder_on_every_small_set_of_25_cells() {
        let c = Colex::get();
        for k in 1..=4u32 {
            let mut x: u64 = (1 << k) - 1;
            while x < 1 << 25 {
                assert_eq!(c.rank(x as u32), subset_rank(x as u32), "{x:b}");
                let lo = x & x.wrapping_neg();
                let r = x + lo;
                x = (((r ^ x) >> 2) / lo) | r;
            }
        }
        for mask in [0b111111u32 << 19, 0b101010101 << 10, (1 << 24) | 0b11111] {
            assert_eq!(c.rank(mask), subset_rank(mask));
        }
    }
}
