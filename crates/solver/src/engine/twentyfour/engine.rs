//! The IDA* engine over [`Tables`]: incremental indices, one table read per side and child,
//! move pruning by a [`Pruner`].

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use npuzzle_core::{Board, Move};

use super::tables::{MAX_LOOKUPS, Tables};
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
pub(crate) struct Node {
    pub(crate) board: [u8; 32],
    pub(crate) blank: u8,
    pub(crate) md: u16,
    sums: [u16; 2],
    slots: [Slot; MAX_LOOKUPS],
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
pub(crate) struct KorfEngine<'a> {
    /// For each blank cell: the legal moves as (move, cell the blank goes to).
    moves: Vec<[(u8, u8); 4]>,
    moves_len: Vec<u8>,
    /// Manhattan distance of each tile from each cell: `dist[tile * 32 + cell]`.
    dist: Vec<u8>,
    /// The lookup of each tile on each side.
    look: [[u8; 32]; 2],
    /// Per lookup: the cell map into its table's frame.
    cell: Vec<[u8; 32]>,
    /// Per lookup: its table.
    tables: Vec<TableRef<'a>>,
    groups: usize,
    reflect: bool,
    pruner: &'a [u16],
    colex: &'static Colex,
}

impl<'a> KorfEngine<'a> {
    pub(crate) fn new(tables: &'a Tables, pruner: &'a Pruner) -> KorfEngine<'a> {
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
        let groups = tables.groups;
        let reflect = tables.has_reflection();
        let mut look = [[0u8; 32]; 2];
        for (li, l) in tables.lookups.iter().enumerate() {
            for &t in &l.tiles {
                look[li / groups][usize::from(t)] = li as u8;
            }
        }
        if !reflect {
            look[1] = look[0];
        }
        let base = tables.base();
        let table_refs = tables
            .lookups
            .iter()
            .map(|l| {
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
            look,
            cell: tables.lookups.iter().map(|l| l.cell).collect(),
            tables: table_refs,
            groups,
            reflect,
            pruner: pruner.table(),
            colex: Colex::get(),
        }
    }

    /// The root node of `board`.
    pub(crate) fn root(&self, tables: &Tables, board: &Board) -> Node {
        let mut node = Node {
            board: [0; 32],
            blank: board.blank() as u8,
            md: 0,
            sums: [0; 2],
            slots: [Slot::default(); MAX_LOOKUPS],
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
            node.sums[li / self.groups] += u16::from(value);
        }
        if !self.reflect {
            node.sums[1] = node.sums[0];
        }
        node
    }

    /// The bound of `node`.
    #[inline]
    pub(crate) fn h(&self, node: &Node) -> u32 {
        u32::from(node.md) + 2 * u32::from(node.sums[0].max(node.sums[1]))
    }

    /// The legal moves from `node`, as (move, cell the blank goes to).
    pub(crate) fn moves(&self, node: &Node) -> &[(u8, u8)] {
        let b = usize::from(node.blank);
        &self.moves[b][..usize::from(self.moves_len[b])]
    }

    /// The pruning machine's state after move `m` from `state`, or [`FORBIDDEN`].
    #[inline(always)]
    pub(crate) fn prune(&self, state: u16, m: u8) -> u16 {
        self.pruner[usize::from(state) * 4 + usize::from(m)]
    }

    /// The child of `node` whose blank moves to `to` (both sides computed).
    pub(crate) fn child(&self, node: &Node, to: u8) -> Node {
        let blank = usize::from(node.blank);
        let to_c = usize::from(to);
        let tile = usize::from(node.board[to_c]);
        let mut child = *node;
        child.md = node.md + u16::from(self.dist[tile * 32 + blank])
            - u16::from(self.dist[tile * 32 + to_c]);
        for side in 0..1 + usize::from(self.reflect) {
            let li = usize::from(self.look[side][tile]);
            let dmd = child.md.wrapping_sub(node.md) as i8;
            let (mut slot, index) = self.locate(li, node.slots[li], to_c, blank, dmd);
            slot.value = self.read(li, node.slots[li], slot.md, index);
            child.sums[side] =
                node.sums[side] - u16::from(node.slots[li].value) + u16::from(slot.value);
            child.slots[li] = slot;
        }
        if !self.reflect {
            child.sums[1] = child.sums[0];
        }
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
        let map = &self.cell[li];
        let (from, to) = (u32::from(map[from]), u32::from(map[to]));
        let t = &self.tables[li];
        let (mask, i, j) = moved(slot.mask, from, to);
        let order =
            if i == j { slot.order } else { t.shifts.shift(i, j, u32::from(slot.order)) as u16 };
        // The blank now stands where the tile was.
        let index = self.index(li, mask, from, order);
        (Slot { mask, order, value: 0, md: slot.md.wrapping_add_signed(dmd) }, index)
    }

    /// The entry index of lookup `li` for its tiles on the cells of `mask` in order `order`
    /// with the blank on `blank` (cells in the table's frame).
    #[inline(always)]
    fn index(&self, li: usize, mask: u32, blank: u32, order: u16) -> u64 {
        let t = &self.tables[li];
        let set = self.colex.rank(mask);
        if t.regions.is_empty() {
            u64::from(set) * u64::from(t.orders) + u64::from(order)
        } else {
            t.regions.index(set, blank, u32::from(order), t.orders)
        }
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
#[derive(Clone, Copy, Debug, Default)]
struct Kid {
    m: u8,
    to: u8,
    tile: u8,
    state: u16,
    md: u16,
    l0: u8,
    l1: u8,
    slot0: Slot,
    index0: u64,
    slot1: Slot,
    index1: u64,
}

/// One depth-first pass to a threshold.
pub(crate) struct Pass<'e, 'a> {
    engine: &'e KorfEngine<'a>,
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
}

impl<'e, 'a> Pass<'e, 'a> {
    pub(crate) fn new(
        engine: &'e KorfEngine<'a>,
        bound: u32,
        watch: &'e Watch<'e>,
    ) -> Pass<'e, 'a> {
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
    pub(crate) fn dfs(&mut self, node: &Node, g: u32, state: u16) -> bool {
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
        let mut kids = [Kid::default(); 4];
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
            kid.l0 = e.look[0][tile];
            let l0 = usize::from(kid.l0);
            let dmd = kid.md.wrapping_sub(node.md) as i8;
            let (slot, index) = e.locate(l0, node.slots[l0], to_c, blank, dmd);
            kid.slot0 = slot;
            kid.index0 = index;
            e.prefetch(l0, index);
            if e.reflect {
                kid.l1 = e.look[1][tile];
                let l1 = usize::from(kid.l1);
                let (slot, index) = e.locate(l1, node.slots[l1], to_c, blank, dmd);
                kid.slot1 = slot;
                kid.index1 = index;
                e.prefetch(l1, index);
            }
        }
        for kid in &kids[..n] {
            self.generated += 1;
            let l0 = usize::from(kid.l0);
            let mut s0 = kid.slot0;
            s0.value = e.read(l0, node.slots[l0], s0.md, kid.index0);
            let sum0 = node.sums[0] - u16::from(node.slots[l0].value) + u16::from(s0.value);
            // The bound test on the first side before the second side's entry is read.
            let f = g + 1 + u32::from(kid.md) + 2 * u32::from(sum0);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let mut child = *node;
            child.slots[l0] = s0;
            child.sums[0] = sum0;
            if e.reflect {
                let l1 = usize::from(kid.l1);
                let mut s1 = kid.slot1;
                s1.value = e.read(l1, node.slots[l1], s1.md, kid.index1);
                let sum1 = node.sums[1] - u16::from(node.slots[l1].value) + u16::from(s1.value);
                let f = g + 1 + u32::from(kid.md) + 2 * u32::from(sum1);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    continue;
                }
                child.slots[l1] = s1;
                child.sums[1] = sum1;
            } else {
                child.sums[1] = sum0;
            }
            let to_c = usize::from(kid.to);
            child.board[blank] = kid.tile;
            child.board[to_c] = 0;
            child.blank = kid.to;
            child.md = kid.md;
            self.path[g as usize] = kid.m;
            if self.dfs(&child, g + 1, kid.state) {
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
