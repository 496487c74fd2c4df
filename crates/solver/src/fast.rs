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
    /// The next expansion count at which [`Budget::check`] can fail or must look at the
    /// clock: a search may skip the checks until then.
    pub(crate) fn next_check(&self, expanded: u64) -> u64 {
        self.max_nodes.min((expanded | 1023) + 1)
    }

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

/// One stored position: A*'s open entries (and, once expanded, closed records) and
/// breadth-first search's records. The fields of a [`Node`] are kept flat so that the whole
/// record is 32 bytes.
#[derive(Clone, Copy)]
struct Record {
    rows: u64,
    cols: u64,
    /// The record this one was reached from (`u32::MAX` for the start).
    parent: u32,
    /// A*: the record below this one in the same bucket (`u32::MAX`: none).
    next: u32,
    g: u16,
    blank: u8,
    h: u8,
    /// The move that led here (index into `Move::ALL`).
    via: u8,
}

impl Record {
    fn new(node: Node, parent: u32, next: u32, g: u16, via: u8) -> Record {
        Record {
            rows: node.rows,
            cols: node.cols,
            parent,
            next,
            g,
            blank: node.blank,
            h: node.h,
            via,
        }
    }

    fn node(&self) -> Node {
        Node { rows: self.rows, cols: self.cols, blank: self.blank, h: self.h }
    }
}

/// No record (an empty bucket, the start's parent).
const NONE: u32 = u32::MAX;

/// Bytes one expanded (or, in breadth-first search, reached) position may cost at the
/// worst moment: its record (up to three copies' worth while the records grow: the old
/// buffer and a new one twice its size) and its closed-set slots (two to four per entry,
/// and six while the table grows), rounded up to a 2x margin.
const RECORD_BYTES: usize = 2 * (size_of::<Record>() + 4 * 16);

/// Bytes one generated position costs A*: its record, three times over (the records'
/// buffer is at most twice its contents, plus the old buffer while it grows).
const OPEN_BYTES: usize = 3 * size_of::<Record>();

/// Bytes one expanded position costs A* in the closed set: up to four 16-byte slots, and
/// six while the table grows.
const CLOSED_BYTES: usize = 6 * 16;

/// The bucket of a node with cost `g` and heuristic `h`: buckets are ordered by `f = g + h`,
/// and within one `f` by decreasing `g` (increasing `h`), so `f(f + 1) / 2 + h` numbers them
/// in exactly the order A* should expand them.
#[inline]
fn slot(g: u16, h: u8) -> usize {
    let f = usize::from(g) + usize::from(h);
    f * (f + 1) / 2 + usize::from(h)
}

/// The closed set of the packed searches: packed positions with the cheapest cost found,
/// by linear probing in one array of 64-bit words, at most half full.
///
/// A board of at most 10 cells packs into 40 bits, so one word holds a whole slot (the
/// position, its cost and the search's number) and the table for a typical 3x3 search is
/// 64 KiB; larger boards take two words per slot. Each slot carries the number of the
/// search that wrote it, so starting a new search is a counter increment, not a clear; and
/// a table that a large search grew is dropped, so the next small search probes a small
/// table that stays in the cache.
struct Closed {
    words: Vec<u64>,
    /// Two words per slot (boards of more than 10 cells) or one.
    wide: bool,
    /// `64 - log2(slot count)`: the hash keeps its top bits.
    shift: u32,
    len: usize,
    /// The current search's number; a slot with another number is empty.
    epoch: u16,
}

impl Closed {
    /// Slots a search starts with.
    const START: usize = 1 << 13;

    fn new(wide: bool) -> Closed {
        Closed {
            words: vec![0; Self::START << usize::from(wide)],
            wide,
            shift: 64 - Self::START.trailing_zeros(),
            len: 0,
            epoch: 1,
        }
    }

    /// Forgets every entry (for positions packed in more than 40 bits if `wide`), and gives
    /// back the room a large earlier search took.
    fn reset(&mut self, wide: bool) {
        if wide != self.wide
            || self.words.len() > Self::START << usize::from(wide)
            || self.epoch == u16::MAX
        {
            *self = Closed::new(wide);
        } else {
            self.epoch += 1;
            self.len = 0;
        }
    }

    /// Records that `key` was reached at cost `g`: `true` if it is new or `g` is cheaper
    /// than before (the position must be expanded), `false` for a duplicate.
    #[inline]
    fn visit(&mut self, key: u64, g: u16) -> bool {
        if self.wide { self.visit_as::<true>(key, g) } else { self.visit_as::<false>(key, g) }
    }

    /// [`Closed::visit`] with the slot layout known at compile time (`WIDE` must equal
    /// `self.wide`).
    #[inline]
    fn visit_as<const WIDE: bool>(&mut self, key: u64, g: u16) -> bool {
        debug_assert_eq!(WIDE, self.wide);
        if 2 * (self.len + 1) > self.words.len() >> usize::from(WIDE) {
            self.grow();
        }
        let epoch = u64::from(self.epoch);
        let mask = (self.words.len() >> usize::from(WIDE)) - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        if WIDE {
            loop {
                let meta = self.words[2 * i + 1];
                if meta >> 16 != epoch {
                    self.words[2 * i] = key;
                    self.words[2 * i + 1] = epoch << 16 | u64::from(g);
                    self.len += 1;
                    return true;
                }
                if self.words[2 * i] == key {
                    if u64::from(g) >= meta & 0xFFFF {
                        return false;
                    }
                    self.words[2 * i + 1] = epoch << 16 | u64::from(g);
                    return true;
                }
                i = (i + 1) & mask;
            }
        } else {
            // key: bits 0..40, g: 40..48 (costs on these boards are below 256), epoch: 48..64.
            let g = u64::from(g.min(255));
            loop {
                let word = self.words[i];
                if word >> 48 != epoch {
                    self.words[i] = epoch << 48 | g << 40 | key;
                    self.len += 1;
                    return true;
                }
                if word & ((1 << 40) - 1) == key {
                    if g >= (word >> 40) & 0xFF {
                        return false;
                    }
                    self.words[i] = epoch << 48 | g << 40 | key;
                    return true;
                }
                i = (i + 1) & mask;
            }
        }
    }

    #[cold]
    fn grow(&mut self) {
        let doubled = vec![0; 2 * self.words.len()];
        let old = std::mem::replace(&mut self.words, doubled);
        let epoch = u64::from(self.epoch);
        self.shift -= 1;
        self.len = 0;
        if self.wide {
            for pair in old.chunks_exact(2) {
                if pair[1] >> 16 == epoch {
                    self.visit(pair[0], (pair[1] & 0xFFFF) as u16);
                }
            }
        } else {
            for &word in &old {
                if word >> 48 == epoch {
                    self.visit(word & ((1 << 40) - 1), ((word >> 40) & 0xFF) as u16);
                }
            }
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
        let wide = e.width * e.height > 10;
        scratch.reset(wide);
        if wide {
            search::<true>(e, start, budget, stats, scratch)
        } else {
            search::<false>(e, start, budget, stats, scratch)
        }
    })
}

/// A*'s working memory, kept per thread between searches so that a stream of small solves
/// does not pay for growing the same tables again and again.
struct Scratch {
    /// Every record of the search, in the order made: A*'s open entries stay where they
    /// were written (so the writes are sequential) and are chained into buckets.
    records: Vec<Record>,
    index: Closed,
    /// `heads[slot(f, h)]`: the last record pushed with that `f` and `h` (each links to the
    /// one pushed before it), or [`NONE`].
    heads: Vec<u32>,
}

impl Scratch {
    /// Empties the tables, and gives back memory a huge earlier search left behind.
    fn reset(&mut self, wide: bool) {
        // Enough for every 3x3 position, so repeated 3x3 searches never regrow the tables.
        const KEEP: usize = 1 << 18;
        self.records.clear();
        self.index.reset(wide);
        if self.records.capacity() > KEEP {
            self.records.shrink_to(KEEP);
        }
        // A few thousand entries at most (f and h are below 256 on these boards).
        self.heads.fill(NONE);
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        records: Vec::new(),
        index: Closed::new(false),
        heads: Vec::new(),
    });
}

/// Kept out of line: inlined into its caller's large body, its loop got worse register
/// allocation and ran about 10% slower.
#[inline(never)]
fn search<const WIDE: bool>(
    e: &Engine,
    start: Node,
    budget: &Budget<'_>,
    stats: &mut Stats,
    scratch: &mut Scratch,
) -> Result<Moves, Stop> {
    let Scratch { records, index, heads } = scratch;
    let first = slot(0, start.h);
    if heads.len() <= first {
        heads.resize(first + 1, NONE);
    }
    records.push(Record::new(start, NONE, NONE, 0, u8::MAX));
    heads[first] = 0;
    let mut f = first;
    // Counted in locals (the compiler keeps them in registers) and stored at the end.
    let (mut expanded, mut generated, mut open, mut max_open) = (0u64, 0u64, 1u64, 1u64);
    let result = 'search: loop {
        while heads[f] == NONE {
            f += 1;
            if f >= heads.len() {
                // Nothing left open: cannot happen for a solvable board.
                break 'search Err(Stop::Nodes);
            }
        }
        let at = heads[f];
        let rec = records[at as usize];
        heads[f] = rec.next;
        open -= 1;
        // Duplicates are caught here, when a position is taken off the open list, not when
        // it is made: most children are never taken off (their f is above the answer's),
        // so they never cost a probe. A position's copies come off cheapest first (same h,
        // so lowest f is lowest g); a later, cheaper copy (the heuristic may be
        // inconsistent) reopens it.
        if !index.visit_as::<WIDE>(rec.rows, rec.g) {
            continue;
        }
        if rec.rows == e.goal_rows {
            break Ok(trace(records, at as usize));
        }
        if let Err(stop) = budget.check(expanded) {
            break Err(stop);
        }
        expanded += 1;
        let node = rec.node();
        let g = rec.g + 1;
        let steps = &e.steps[usize::from(node.blank)];
        for &k in e.next_moves(&node, rec.via) {
            let child = e.child(&node, &steps[usize::from(k)]);
            let cf = slot(g, child.h);
            if cf >= heads.len() {
                heads.resize(cf + 1, NONE);
            }
            let new = records.len() as u32;
            records.push(Record::new(child, at, heads[cf], g, k));
            heads[cf] = new;
            // An inconsistent heuristic can put a child below the current f.
            f = f.min(cf);
        }
        let made = records.len() as u64 - 1 - generated;
        generated += made;
        open += made;
        max_open = max_open.max(open);
        let bytes = records.len() * OPEN_BYTES + expanded as usize * CLOSED_BYTES;
        if bytes >= budget.max_memory {
            break Err(Stop::Memory);
        }
    };
    stats.expanded = expanded;
    stats.generated = generated;
    stats.max_frontier = max_open;
    result
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
        scratch.reset(e.width * e.height > 10);
        let Scratch { records, index, .. } = scratch;
        records.push(Record::new(start, NONE, NONE, 0, u8::MAX));
        index.visit(start.rows, 0);
        if start.rows == e.goal_rows {
            return Ok(Moves::default());
        }
        // The records double as the queue: records[head..] are still to expand.
        let mut head = 0;
        while head < records.len() {
            let rec = records[head];
            budget.check(stats.expanded)?;
            stats.expanded += 1;
            let node = rec.node();
            let steps = &e.steps[usize::from(node.blank)];
            for &k in e.next_moves(&node, rec.via) {
                stats.generated += 1;
                let child = e.child(&node, &steps[usize::from(k)]);
                let at = records.len() as u32;
                if !index.visit(child.rows, 0) {
                    continue;
                }
                if records.len() >= max_stored {
                    return Err(Stop::Memory);
                }
                records.push(Record::new(child, head as u32, NONE, rec.g + 1, k));
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
    while records[at].parent != NONE {
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
