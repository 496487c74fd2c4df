//! Breadth-first construction of one pattern's table.
//!
//! The abstract space of a pattern of `k` tiles holds their cells and the blank. Only moves of
//! the pattern's own tiles cost a move (that is what makes the tables of disjoint patterns add
//! up, Korf & Felner 2002); the blank wanders among the other cells for free. So a state is a
//! placement of the `k` tiles plus the *region* of the blank: the connected part of the free
//! cells it is in. Tracking the region, not just the placement, is what keeps a tile from
//! moving into a cell the blank cannot reach, and makes each table as strong as its pattern
//! allows; tracking only the region, not the cell, keeps every edge at cost 1, so the search
//! is a plain breadth-first search.
//!
//! States are numbered `(region slot, order)` where the region slots of a cell set are
//! consecutive (see [`super::rank`]): all the states that share a cell set share their
//! regions and their moves, so a layer is expanded one (cell set, region) block at a time,
//! with the moves computed once per block and the orders streamed through a shift table.
//! Each state keeps its depth modulo 3 in two bits (3: not reached), which is all a
//! layer-by-layer search needs to tell the current layer, the next one and the rest apart.
//! A per-region table keeps each state's depth; a per-placement one keeps the depth at which
//! the placement is first reached (in any region): the fewest pattern moves over every blank
//! position. [`interleave`] then puts each placement's regions side by side.
//!
//! Layers are expanded by every thread at once, each taking cell sets from a shared counter.
//! Two threads may reach one state in the same layer: both write the same two bits with an
//! atomic AND, and only the one that saw it unreached counts it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::thread;

use super::pattern::Geometry;
use super::rank::{Shifts, binomial, factorial, perm_rank, perm_unrank, subset_rank};

/// One pattern to build: the board and where the pattern's tiles and the blank belong.
#[derive(Clone, Debug)]
pub(crate) struct PatternSpec {
    pub(crate) geometry: Geometry,
    /// The goal cell of each of the pattern's tiles, in group order.
    pub(crate) goal_cells: Vec<u8>,
    /// The goal cell of the blank.
    pub(crate) blank_goal: u8,
}

/// The build was cancelled, or the distances did not fit a byte (never on boards of at most
/// 25 cells in practice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interrupted {
    Cancelled,
    TooDeep,
}

/// The cell sets of a pattern and where each set's region slots start.
pub(crate) struct Layout {
    pub(crate) k: usize,
    pub(crate) orders: usize,
    /// Every `k`-cell set, in colexicographic order (increasing as integers).
    pub(crate) masks: Vec<u32>,
    /// `region_base[s]`: the first region slot of cell set `s`; the last entry is the total.
    pub(crate) region_base: Vec<u64>,
}

impl Layout {
    pub(crate) fn new(geometry: &Geometry, k: usize) -> Layout {
        let count = binomial(geometry.cells, k) as usize;
        let mut masks = Vec::with_capacity(count);
        let mut x: u64 = (1 << k) - 1;
        for _ in 0..count {
            masks.push(x as u32);
            // Gosper's hack: the next larger integer with as many set bits.
            let c = x & x.wrapping_neg();
            let r = x + c;
            x = (((r ^ x) >> 2) / c) | r;
        }
        let mut region_base = Vec::with_capacity(count + 1);
        let mut total = 0u64;
        let mut regions = Vec::new();
        for &m in &masks {
            region_base.push(total);
            geometry.regions(geometry.all() & !m, &mut regions);
            total += regions.len() as u64;
        }
        region_base.push(total);
        Layout { k, orders: factorial(k) as usize, masks, region_base }
    }

    /// Abstract states: every (cell set, region, order).
    pub(crate) fn states(&self) -> u64 {
        self.region_base[self.masks.len()] * self.orders as u64
    }

    /// Table entries: every (cell set, order).
    pub(crate) fn placements(&self) -> u64 {
        self.masks.len() as u64 * self.orders as u64
    }
}

/// Cell sets a worker takes at a time.
const CHUNK: usize = 8;

/// The fewest pattern moves to the goal, one byte an entry, `0xFF` where no state is
/// reachable: with `per_region`, for every abstract state (placement and blank region,
/// numbered as in [`Layout`]); otherwise for every placement (the minimum over the blank's
/// regions). `progress` is called with the number of states expanded since its last call.
pub(crate) fn distances(
    spec: &PatternSpec,
    layout: &Layout,
    per_region: bool,
    threads: usize,
    progress: &(dyn Fn(u64) + Sync),
    cancel: Option<&AtomicBool>,
) -> Result<Vec<u8>, Interrupted> {
    let g = &spec.geometry;
    let k = layout.k;
    let orders = layout.orders;
    let shifts = Shifts::get(k);
    let seen: Vec<AtomicU64> =
        (0..layout.states().div_ceil(32)).map(|_| AtomicU64::new(!0)).collect();
    let entries = if per_region { layout.states() } else { layout.placements() };
    let depth: Vec<AtomicU64> = (0..entries.div_ceil(8)).map(|_| AtomicU64::new(!0)).collect();

    // The goal state: the tiles home, the blank in the region of its goal cell.
    let goal_mask = spec.goal_cells.iter().fold(0u32, |m, &c| m | 1 << c);
    let mut order = [0u8; 8];
    for (q, &c) in spec.goal_cells.iter().enumerate() {
        order[(goal_mask & ((1 << c) - 1)).count_ones() as usize] = q as u8;
    }
    let s0 = u64::from(subset_rank(goal_mask));
    let r0 = g.region_index(g.all() & !goal_mask, usize::from(spec.blank_goal)) as u64;
    let o0 = u64::from(perm_rank(&order[..k]));
    let state0 = (layout.region_base[s0 as usize] + r0) * orders as u64 + o0;
    mark(&seen, state0, 0);
    set_depth(&depth, if per_region { state0 } else { s0 * orders as u64 + o0 }, 0);

    let threads = threads.max(1);
    for d in 0u32.. {
        if d + 1 >= 0xFF {
            return Err(Interrupted::TooDeep);
        }
        let layer = Layer {
            geometry: g,
            layout,
            shifts,
            seen: &seen,
            depth: &depth,
            per_region,
            cur: u64::from(d % 3),
            next: u64::from((d + 1) % 3),
            next_depth: u64::from(d + 1),
            counter: AtomicUsize::new(0),
            found: AtomicU64::new(0),
            progress,
            cancel,
        };
        thread::scope(|s| {
            for _ in 1..threads {
                s.spawn(|| layer.work());
            }
            layer.work();
        });
        if cancel.is_some_and(|c| c.load(Relaxed)) {
            return Err(Interrupted::Cancelled);
        }
        if layer.found.load(Relaxed) == 0 {
            break;
        }
    }
    drop(seen);
    let mut out = Vec::with_capacity(layout.placements() as usize);
    for w in depth {
        out.extend_from_slice(&w.into_inner().to_le_bytes());
    }
    out.truncate(entries as usize);
    Ok(out)
}

/// One layer of the search, shared by the threads that expand it.
struct Layer<'a> {
    geometry: &'a Geometry,
    layout: &'a Layout,
    shifts: &'a Shifts,
    seen: &'a [AtomicU64],
    depth: &'a [AtomicU64],
    /// Depths are kept per state (else per placement, the first reach).
    per_region: bool,
    cur: u64,
    next: u64,
    next_depth: u64,
    counter: AtomicUsize,
    found: AtomicU64,
    progress: &'a (dyn Fn(u64) + Sync),
    cancel: Option<&'a AtomicBool>,
}

impl Layer<'_> {
    fn work(&self) {
        let g = self.geometry;
        let orders = self.layout.orders as u64;
        let mut frontier: Vec<u32> = Vec::with_capacity(self.layout.orders);
        let mut regions = Vec::new();
        let mut found = 0u64;
        loop {
            if self.cancel.is_some_and(|c| c.load(Relaxed)) {
                break;
            }
            let start = self.counter.fetch_add(CHUNK, Relaxed);
            if start >= self.layout.masks.len() {
                break;
            }
            let mut expanded = 0u64;
            for s in start..(start + CHUNK).min(self.layout.masks.len()) {
                let mask = self.layout.masks[s];
                g.regions(g.all() & !mask, &mut regions);
                for (ri, &region) in regions.iter().enumerate() {
                    let block = (self.layout.region_base[s] + ri as u64) * orders;
                    self.collect(block, &mut frontier);
                    if frontier.is_empty() {
                        continue;
                    }
                    expanded += frontier.len() as u64;
                    // Every pattern tile next to the region may slide into it.
                    let mut into = region;
                    while into != 0 {
                        let f = into.trailing_zeros() as usize;
                        into &= into - 1;
                        let mut tiles = g.neighbours[f] & mask;
                        while tiles != 0 {
                            let c = tiles.trailing_zeros() as usize;
                            tiles &= tiles - 1;
                            let i = (mask & ((1 << c) - 1)).count_ones() as usize;
                            let moved = mask ^ (1 << c) ^ (1 << f);
                            let j = (moved & ((1 << f) - 1)).count_ones() as usize;
                            let s2 = u64::from(subset_rank(moved));
                            // The blank now stands where the tile was.
                            let r2 = g.region_index(g.all() & !moved, c) as u64;
                            let tblock = (self.layout.region_base[s2 as usize] + r2) * orders;
                            let tplace = s2 * orders;
                            if i == j {
                                for &o in &frontier {
                                    found +=
                                        self.visit(tblock + u64::from(o), tplace + u64::from(o));
                                }
                            } else {
                                let row = self.shifts.row(i, j);
                                for &o in &frontier {
                                    let o2 = u64::from(row[o as usize]);
                                    found += self.visit(tblock + o2, tplace + o2);
                                }
                            }
                        }
                    }
                }
            }
            (self.progress)(expanded);
        }
        self.found.fetch_add(found, Relaxed);
    }

    /// The orders of the block starting at state `block` that are in the current layer.
    fn collect(&self, block: u64, out: &mut Vec<u32>) {
        out.clear();
        let rep = [0, 0x5555_5555_5555_5555u64, 0xAAAA_AAAA_AAAA_AAAA, !0][self.cur as usize];
        let end = block + self.layout.orders as u64;
        let mut w = block >> 5;
        while w * 32 < end {
            let lo = w * 32;
            let x = self.seen[w as usize].load(Relaxed) ^ rep;
            let mut eq = !(x | (x >> 1)) & 0x5555_5555_5555_5555;
            if lo < block {
                eq &= !0u64 << ((block - lo) * 2);
            }
            if lo + 32 > end {
                eq &= (1u64 << ((end - lo) * 2)) - 1;
            }
            while eq != 0 {
                let b = u64::from(eq.trailing_zeros());
                out.push((lo + b / 2 - block) as u32);
                eq &= eq - 1;
            }
            w += 1;
        }
    }

    /// Reaches `state` (of table entry `placement`) in the next layer; 1 if it is new.
    #[inline]
    fn visit(&self, state: u64, placement: u64) -> u64 {
        let word = &self.seen[(state >> 5) as usize];
        let shift = (state & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 3 {
            return 0;
        }
        let old = word.fetch_and(!((3 ^ self.next) << shift), Relaxed);
        if (old >> shift) & 3 != 3 {
            return 0;
        }
        let entry = if self.per_region { state } else { placement };
        let dword = &self.depth[(entry >> 3) as usize];
        let dshift = (entry & 7) * 8;
        if (dword.load(Relaxed) >> dshift) & 0xFF == 0xFF {
            dword.fetch_and(!((0xFF ^ self.next_depth) << dshift), Relaxed);
        }
        1
    }
}

fn mark(seen: &[AtomicU64], state: u64, value: u64) {
    let shift = (state & 31) * 2;
    seen[(state >> 5) as usize].fetch_and(!((3 ^ value) << shift), Relaxed);
}

fn set_depth(depth: &[AtomicU64], entry: u64, value: u64) {
    let shift = (entry & 7) * 8;
    depth[(entry >> 3) as usize].fetch_and(!((0xFF ^ value) << shift), Relaxed);
}

/// Turns distances into what the table stores: `(distance - manhattan) / 2`, where
/// `manhattan` is the pattern tiles' own Manhattan distance. Every pattern move changes one
/// tile's Manhattan distance by one, so the two have the same parity and the difference
/// halves exactly; the halves are small (at most 15 for every partition we build, so they fit
/// 4 bits), and the search adds the Manhattan distance it keeps anyway. Unreachable entries
/// become 0. `table` holds one block of `k!` orders per placement's cell set, or with
/// `per_region` one per (cell set, region). Returns the largest value.
pub(crate) fn to_extra(
    spec: &PatternSpec,
    layout: &Layout,
    per_region: bool,
    table: &mut [u8],
    threads: usize,
) -> u8 {
    let k = layout.k;
    let orders = layout.orders;
    let perms: Vec<[u8; 8]> = (0..orders as u32).map(|r| perm_unrank(r, k)).collect();
    let g = &spec.geometry;
    // The cell set of each block.
    let block_masks: Vec<u32> = if per_region {
        (0..layout.masks.len())
            .flat_map(|s| {
                let n = layout.region_base[s + 1] - layout.region_base[s];
                std::iter::repeat_n(layout.masks[s], n as usize)
            })
            .collect()
    } else {
        layout.masks.clone()
    };
    let sets_per_thread = block_masks.len().div_ceil(threads.max(1));
    let mut most = 0u8;
    thread::scope(|s| {
        let mut handles = Vec::new();
        for (t, part) in table.chunks_mut(sets_per_thread * orders).enumerate() {
            let (perms, block_masks) = (&perms, &block_masks);
            handles.push(s.spawn(move || {
                let mut most = 0u8;
                for (n, block) in part.chunks_mut(orders).enumerate() {
                    let mask = block_masks[t * sets_per_thread + n];
                    let mut dm = [[0u8; 8]; 8];
                    let mut m = mask;
                    let mut p = 0;
                    while m != 0 {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        for (q, &gc) in spec.goal_cells.iter().enumerate() {
                            dm[q][p] = g.distance(usize::from(gc), c) as u8;
                        }
                        p += 1;
                    }
                    for (o, e) in block.iter_mut().enumerate() {
                        if *e == 0xFF {
                            *e = 0;
                            continue;
                        }
                        let sigma = &perms[o];
                        let md: u8 = (0..k).map(|p| dm[usize::from(sigma[p])][p]).sum();
                        debug_assert!(*e >= md && (*e - md) % 2 == 0, "distance below Manhattan");
                        *e = (*e - md) / 2;
                        most = most.max(*e);
                    }
                }
                most
            }));
        }
        for h in handles {
            most = most.max(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
    });
    most
}

/// Rearranges a per-region table from the search's numbering (each cell set's regions one
/// after the other, `k!` orders each) to the stored one (each order's regions side by side:
/// entry `o * R + r` of the set's `R * k!`), so that one placement's regions share a cache
/// line (see `Regions`).
pub(crate) fn interleave(layout: &Layout, table: &mut [u8]) {
    let orders = layout.orders;
    let mut block = Vec::new();
    for s in 0..layout.masks.len() {
        let (first, end) = (layout.region_base[s] as usize, layout.region_base[s + 1] as usize);
        let regions = end - first;
        if regions < 2 {
            continue;
        }
        let part = &mut table[first * orders..end * orders];
        block.clear();
        block.extend_from_slice(part);
        for r in 0..regions {
            for o in 0..orders {
                part[o * regions + r] = block[r * orders + o];
            }
        }
    }
}
