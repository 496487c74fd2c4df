//! The memory of the packed best-first searches (A* and breadth-first search): the records
//! of stored positions, the closed set, and the per-thread scratch that keeps them between
//! searches.

use std::time::{Duration, Instant};

use npuzzle_core::{Move, Moves};

use super::Node;

/// One stored position: A*'s open entries (and, once expanded, closed records) and
/// breadth-first search's records. The fields of a [`Node`] are kept flat so that the whole
/// record is 32 bytes.
#[derive(Clone, Copy)]
pub(super) struct Record {
    pub(super) rows: u64,
    pub(super) cols: u64,
    /// The record this one was reached from (`u32::MAX` for the start).
    pub(super) parent: u32,
    /// A*: the record below this one in the same bucket (`u32::MAX`: none).
    pub(super) next: u32,
    pub(super) g: u16,
    pub(super) blank: u8,
    pub(super) h: u8,
    /// The move that led here (index into `Move::ALL`).
    pub(super) via: u8,
}

impl Record {
    pub(super) fn new(node: Node, parent: u32, next: u32, g: u16, via: u8) -> Record {
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

    pub(super) fn node(&self) -> Node {
        Node { rows: self.rows, cols: self.cols, blank: self.blank, h: self.h }
    }
}

/// No record (an empty bucket, the start's parent).
pub(super) const NONE: u32 = u32::MAX;

/// The resident bytes of a search's records and closed set, measured rather than feared:
/// `records` records (a record's memory is resident once it is written; the spare capacity
/// of the growing buffer is not, and the allocator grows large buffers in place) plus the
/// closed set at its peak (see [`Closed::peak_bytes`]). Calibrated against the peak
/// resident size of the process: with `--max-memory 256`, packed A* stopped at 95 MB when
/// the limit counted every buffer three times over and every table six times; with this
/// count it stops within a few percent of the limit.
pub(super) fn resident_bytes(records: usize, index: &Closed, more: usize) -> u64 {
    (records * size_of::<Record>()) as u64 + index.peak_bytes(more) as u64
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
pub(super) struct Closed {
    words: Vec<u64>,
    /// Two words per slot (boards of more than 10 cells) or one.
    wide: bool,
    /// `64 - log2(slot count)`: the hash keeps its top bits.
    shift: u32,
    len: usize,
    /// The current search's number; a slot with another number is empty.
    epoch: u16,
    /// How long the last growth took (each takes about twice as long as the one before).
    last_growth: Duration,
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
            last_growth: Duration::ZERO,
        }
    }

    /// Forgets every entry (for positions packed in more than 40 bits if `wide`), and gives
    /// back the room a large earlier search took.
    pub(super) fn reset(&mut self, wide: bool) {
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
    pub(super) fn visit(&mut self, key: u64, g: u16) -> bool {
        if self.wide { self.visit_as::<true>(key, g) } else { self.visit_as::<false>(key, g) }
    }

    /// [`Closed::visit`] with the slot layout known at compile time (`WIDE` must equal
    /// `self.wide`).
    #[inline]
    pub(super) fn visit_as<const WIDE: bool>(&mut self, key: u64, g: u16) -> bool {
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

    /// The cheapest cost `key` was reached at, if it was (a read-only [`Closed::visit`]).
    pub(super) fn get(&self, key: u64) -> Option<u16> {
        let epoch = u64::from(self.epoch);
        let wide = usize::from(self.wide);
        let mask = (self.words.len() >> wide) - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        loop {
            if self.wide {
                let meta = self.words[2 * i + 1];
                if meta >> 16 != epoch {
                    return None;
                }
                if self.words[2 * i] == key {
                    return Some((meta & 0xFFFF) as u16);
                }
            } else {
                let word = self.words[i];
                if word >> 48 != epoch {
                    return None;
                }
                if word & ((1 << 40) - 1) == key {
                    return Some(((word >> 40) & 0xFF) as u16);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Positions recorded.
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The table's bytes, or, if `more` new entries would make it grow, its bytes while it
    /// grows: the old table and the new one, twice its size, both written.
    pub(super) fn peak_bytes(&self, more: usize) -> usize {
        let bytes = self.words.len() * size_of::<u64>();
        let slots = self.words.len() >> usize::from(self.wide);
        if 2 * (self.len + more) > slots { 3 * bytes } else { bytes }
    }

    /// Whether `more` new entries would make the table grow, and growing it (a rehash no
    /// limit check interrupts: seconds for a table of tens of millions of entries) would not
    /// finish before `deadline`. Searches ask at their periodic checks and stop in time
    /// instead of overrunning their time limit by the length of a rehash.
    pub(super) fn growth_overruns(&self, more: usize, deadline: Option<Instant>) -> bool {
        let Some(deadline) = deadline else { return false };
        let slots = self.words.len() >> usize::from(self.wide);
        if 2 * (self.len + more) <= slots {
            return false;
        }
        // The next growth moves twice as many entries as the last; allow three times its time.
        Instant::now().checked_add(3 * self.last_growth).is_none_or(|end| end > deadline)
    }

    #[cold]
    fn grow(&mut self) {
        let started = Instant::now();
        self.grow_table();
        self.last_growth = started.elapsed();
    }

    fn grow_table(&mut self) {
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

/// A*'s working memory, kept per thread between searches so that a stream of small solves
/// does not pay for growing the same tables again and again.
pub(super) struct Scratch {
    /// Every record of the search, in the order made: A*'s open entries stay where they
    /// were written (so the writes are sequential) and are chained into buckets.
    pub(super) records: Vec<Record>,
    pub(super) index: Closed,
    /// `heads[slot(f, h)]`: the last record pushed with that `f` and `h` (each links to the
    /// one pushed before it), or [`NONE`].
    pub(super) heads: Vec<u32>,
}

impl Scratch {
    /// Empties the tables, and gives back memory a huge earlier search left behind.
    pub(super) fn reset(&mut self, wide: bool) {
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
    pub(super) static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch {
        records: Vec::new(),
        index: Closed::new(false),
        heads: Vec::new(),
    });
}

/// The moves from the root to record `at`.
pub(super) fn trace(records: &[Record], mut at: usize) -> Moves {
    let mut moves = Vec::with_capacity(usize::from(records[at].g));
    while records[at].parent != NONE {
        moves.push(Move::ALL[usize::from(records[at].via)]);
        at = records[at].parent as usize;
    }
    moves.reverse();
    Moves(moves)
}
