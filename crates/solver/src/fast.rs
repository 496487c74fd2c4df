//! Specialised A* and breadth-first search for the packed engine (boards up to 4x4), and
//! the limits every packed search checks. (IDA* has its own module, [`crate::shaped`].)
//!
//! The generic algorithms of `npuzzle-search` pay for their generality per node: iterator
//! state, a path of full nodes, a binary heap. On sliding puzzles, where a node costs a few
//! nanoseconds to make, that overhead dominates. A* here follows the bucket-queue A* of
//! Burns, Hatem, Leighton & Ruml, "Implementing Fast Heuristic Search Code" (SoCS 2012): the
//! open list is kept in buckets by `(f, g)` (integers, small): lowest `f` first and, among
//! equal `f`, the largest `g` (the deepest node), with lazy deletion and reopening (linear
//! conflict is admissible but not consistent). The closed set is an open-addressing table
//! sized for the search at hand.
//!
//! Both honour the same limits and report the same statistics as the generic ones, and the
//! tests check them against the exact tables.

use std::time::Instant;

use npuzzle_core::{Move, Moves};
use npuzzle_search::Stop;

use crate::small::{Engine, Node};
use crate::solution::Stats;

/// Limits in the form the hot loops check.
pub(crate) struct Budget<'a> {
    pub(crate) max_nodes: u64,
    pub(crate) max_memory: usize,
    pub(crate) deadline: Option<Instant>,
    pub(crate) cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

impl Budget<'_> {
    #[inline]
    pub(crate) fn check(&self, expanded: u64) -> Result<(), Stop> {
        if expanded >= self.max_nodes {
            return Err(Stop::Nodes);
        }
        if expanded & 1023 == 0 { self.check_clock() } else { Ok(()) }
    }

    #[cold]
    fn check_clock(&self) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        Ok(())
    }
}

/// One stored node of A*.
#[derive(Clone, Copy)]
struct Record {
    node: Node,
    parent: u32,
    g: u16,
    /// The move that led here (index into `Move::ALL`).
    via: u8,
}

/// Bytes one expanded (or, in breadth-first search, reached) position may cost at the
/// worst moment: its record (up to three copies' worth while the records grow: the old
/// buffer and a new one twice its size) and its closed-set slots (two to four per entry,
/// and six while the table grows), rounded up to a 2x margin.
const RECORD_BYTES: usize = 2 * (size_of::<Record>() + 4 * size_of::<Slot>());

/// Bytes one generated position costs A* on the open list: its entry, three times over (a
/// bucket's buffer is at most twice its contents, plus the old buffer while it grows).
const OPEN_BYTES: usize = 3 * size_of::<Record>();

/// The bucket of a node with cost `g` and heuristic `h`: buckets are ordered by `f = g + h`,
/// and within one `f` by decreasing `g` (increasing `h`), so `f(f + 1) / 2 + h` numbers them
/// in exactly the order A* should expand them.
#[inline]
fn slot(g: u16, h: u8) -> usize {
    let f = usize::from(g) + usize::from(h);
    f * (f + 1) / 2 + usize::from(h)
}

/// The closed set of the packed searches: packed positions to record indices, by linear
/// probing in one array of 16-byte slots, at most half full.
///
/// Each slot carries the number of the search that wrote it, so starting a new search is a
/// counter increment, not a clear; and the table starts small for every search (a few
/// thousand slots, in the first-level cache's neighbourhood) instead of keeping the size the
/// largest earlier search needed, whose scattered probes would miss the cache.
struct Closed {
    slots: Vec<Slot>,
    /// `64 - log2(slots.len())`: the hash keeps its top bits.
    shift: u32,
    len: usize,
    /// The current search's number; a slot with another number is empty.
    epoch: u16,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// The record of the position.
    value: u32,
    /// The cheapest known cost of reaching it (kept here so a duplicate is rejected
    /// without touching the record).
    g: u16,
    epoch: u16,
}

impl Closed {
    /// Slots a search starts with.
    const START: usize = 1 << 14;

    fn new() -> Closed {
        Closed {
            slots: vec![Slot::default(); Self::START],
            shift: 64 - Self::START.trailing_zeros(),
            len: 0,
            epoch: 1,
        }
    }

    /// Forgets every entry, and gives back the room a large earlier search took.
    fn reset(&mut self) {
        if self.slots.len() > Self::START || self.epoch == u16::MAX {
            *self = Closed::new();
        } else {
            self.epoch += 1;
            self.len = 0;
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The slot of `key`, and whether it was there before; a new slot gets `value` and `g`.
    #[inline]
    fn entry(&mut self, key: u64, value: u32, g: u16) -> (&mut Slot, bool) {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            if self.slots[i].epoch != self.epoch {
                self.len += 1;
                let slot = &mut self.slots[i];
                *slot = Slot { key, value, g, epoch: self.epoch };
                return (slot, false);
            }
            if self.slots[i].key == key {
                return (&mut self.slots[i], true);
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        let epoch = self.epoch;
        self.slots = vec![Slot::default(); 2 * old.len()];
        self.shift -= 1;
        self.len = 0;
        for s in old.into_iter().filter(|s| s.epoch == epoch) {
            self.entry(s.key, s.value, s.g);
        }
    }
}

/// A* with a bucket queue from `start`. Returns the moves, or why it stopped.
pub(crate) fn astar(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
) -> Result<Moves, Stop> {
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.reset();
        search(e, start, budget, stats, scratch)
    })
}

/// A*'s working memory, kept per thread between searches so that a stream of small solves
/// does not pay for growing the same tables again and again.
struct Scratch {
    records: Vec<Record>,
    index: Closed,
    /// `buckets[slot(f, h)]`: the open positions with that `f` and `h`, each with its
    /// parent and cost.
    buckets: Vec<Vec<Record>>,
    /// One past the highest bucket the last search used: only those need emptying.
    used: usize,
}

impl Scratch {
    /// Empties the tables, and gives back memory a huge earlier search left behind.
    fn reset(&mut self) {
        // Enough for every 3x3 position, so repeated 3x3 searches never regrow the tables.
        const KEEP: usize = 1 << 18;
        self.records.clear();
        self.index.reset();
        if self.records.capacity() > KEEP {
            self.records.shrink_to(KEEP);
        }
        let used = std::mem::take(&mut self.used).min(self.buckets.len());
        for b in &mut self.buckets[..used] {
            b.clear();
            if b.capacity() > KEEP {
                b.shrink_to(KEEP);
            }
        }
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        records: Vec::new(),
        index: Closed::new(),
        buckets: Vec::new(),
        used: 0,
    });
}

/// Kept out of line: inlined into its caller's large body, its loop got worse register
/// allocation and ran about 10% slower.
#[inline(never)]
fn search(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
    scratch: &mut Scratch,
) -> Result<Moves, Stop> {
    let Scratch { records, index, buckets, used } = scratch;
    let first = slot(0, start.h);
    if buckets.len() <= first {
        buckets.resize(first + 1, Vec::new());
    }
    buckets[first].push(Record { node: start, parent: u32::MAX, g: 0, via: u8::MAX });
    *used = first + 1;
    let mut f = first;
    let mut open = 1u64;
    'search: loop {
        while buckets[f].is_empty() {
            f += 1;
            if f >= buckets.len() {
                // Nothing left open: cannot happen for a solvable board.
                break 'search Err(Stop::Nodes);
            }
        }
        let Some(rec) = buckets[f].pop() else { continue };
        open -= 1;
        // Duplicates are caught here, when a position is taken off the open list, not when
        // it is made: most children are never taken off (their f is above the answer's),
        // so they never cost a probe. A position's copies come off cheapest first (same h,
        // so lowest f is lowest g); a later, cheaper copy (the heuristic may be
        // inconsistent) reopens it.
        let at = records.len() as u32;
        if let (slot, true) = index.entry(rec.node.rows, at, rec.g) {
            if rec.g >= slot.g {
                continue;
            }
            slot.g = rec.g;
            slot.value = at;
        }
        records.push(rec);
        if rec.node.rows == e.goal_rows {
            break Ok(trace(records, at as usize));
        }
        if let Err(stop) = budget.check(stats.expanded) {
            break Err(stop);
        }
        stats.expanded += 1;
        let g = rec.g + 1;
        let steps = &e.steps[usize::from(rec.node.blank)];
        for &k in e.next_moves(&rec.node, rec.via) {
            stats.generated += 1;
            let child = e.child(&rec.node, &steps[usize::from(k)]);
            let cf = slot(g, child.h);
            if cf >= buckets.len() {
                buckets.resize(cf + 1, Vec::new());
            }
            buckets[cf].push(Record { node: child, parent: at, g, via: k });
            *used = (*used).max(cf + 1);
            open += 1;
            // An inconsistent heuristic can put a child below the current f.
            f = f.min(cf);
        }
        let held = records.len() * RECORD_BYTES + stats.generated as usize * OPEN_BYTES;
        if held >= budget.max_memory {
            break Err(Stop::Memory);
        }
        stats.max_frontier = stats.max_frontier.max(open);
    }
}

/// Breadth-first search from `start` (FIFO over packed positions). Returns the moves, or why
/// it stopped.
pub(crate) fn bfs(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
) -> Result<Moves, Stop> {
    let max_stored = budget.max_memory / RECORD_BYTES;
    SCRATCH.with_borrow_mut(|scratch| {
        scratch.reset();
        let Scratch { records, index, .. } = scratch;
        records.push(Record { node: start, parent: u32::MAX, g: 0, via: u8::MAX });
        index.entry(start.rows, 0, 0);
        if start.rows == e.goal_rows {
            return Ok(Moves::default());
        }
        // The records double as the queue: records[head..] are still to expand.
        let mut head = 0;
        while head < records.len() {
            let rec = records[head];
            budget.check(stats.expanded)?;
            stats.expanded += 1;
            for (k, st) in e.steps[usize::from(rec.node.blank)].iter().enumerate() {
                if st.to == u8::MAX || k as u8 == rec.via ^ 1 {
                    continue;
                }
                stats.generated += 1;
                let child = e.child(&rec.node, st);
                let at = records.len() as u32;
                if index.entry(child.rows, at, 0).1 {
                    continue;
                }
                if records.len() >= max_stored {
                    return Err(Stop::Memory);
                }
                records.push(Record {
                    node: child,
                    parent: head as u32,
                    g: rec.g + 1,
                    via: k as u8,
                });
                if child.rows == e.goal_rows {
                    return Ok(trace(records, at as usize));
                }
            }
            head += 1;
            stats.max_frontier = stats.max_frontier.max((records.len() - head) as u64);
        }
        // Everything reachable was seen: cannot happen for a solvable board.
        Err(Stop::Nodes)
    })
}

/// The moves from the root to record `at`.
fn trace(records: &[Record], mut at: usize) -> Moves {
    let mut moves = Vec::with_capacity(usize::from(records[at].g));
    while records[at].parent != u32::MAX {
        moves.push(Move::ALL[usize::from(records[at].via)]);
        at = records[at].parent as usize;
    }
    moves.reverse();
    Moves(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Heuristic;
    use crate::table::ExactTable;
    use npuzzle_core::{Goal, Scrambler, Size};

    fn unlimited() -> Budget<'static> {
        Budget { max_nodes: u64::MAX, max_memory: usize::MAX, deadline: None, cancel: None }
    }

    #[test]
    fn optimal_on_small_shapes() {
        let mut s = Scrambler::new(3);
        for (w, h) in [(2, 2), (3, 2), (2, 4), (3, 3), (4, 2)] {
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(Size::new(w, h).unwrap()).unwrap();
                let table = ExactTable::for_goal(&g).unwrap();
                for kind in [Heuristic::Hamming, Heuristic::Manhattan, Heuristic::LinearConflict] {
                    let e = Engine::get(&g, Some(kind));
                    for _ in 0..30 {
                        let b = s.solvable(&g);
                        let want = usize::from(table.distance(&b).unwrap());
                        for run in [crate::shaped::idastar, astar, bfs] {
                            let mut stats = Stats::default();
                            let moves = run(&e, e.pack(&b), &unlimited(), &mut stats).unwrap();
                            assert_eq!(moves.len(), want, "{kind} {b}");
                            let mut end = b.clone();
                            end.apply_all(&moves).unwrap();
                            assert_eq!(end, g);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn limits_stop_both() {
        let g = Goal::BlankLast.board(Size::square(4).unwrap()).unwrap();
        let b = Scrambler::new(4).solvable(&g);
        let e = Engine::get(&g, Some(Heuristic::Manhattan));
        let nodes = Budget { max_nodes: 500, ..unlimited() };
        assert_eq!(
            crate::shaped::idastar(&e, e.pack(&b), &nodes, &mut Stats::default()),
            Err(Stop::Nodes)
        );
        assert_eq!(astar(&e, e.pack(&b), &nodes, &mut Stats::default()), Err(Stop::Nodes));
        let memory = Budget { max_memory: 1 << 20, ..unlimited() };
        assert_eq!(astar(&e, e.pack(&b), &memory, &mut Stats::default()), Err(Stop::Memory));
        let late = Budget { deadline: Some(Instant::now()), ..unlimited() };
        assert_eq!(
            crate::shaped::idastar(&e, e.pack(&b), &late, &mut Stats::default()),
            Err(Stop::Time)
        );
    }
}
