//! What the two IDA* engines over pattern databases ([`super::pdb_search`] and
//! [`super::twentyfour`]) share: per lookup, reading a table's entry (bytes or nibbles),
//! asking for its cache line ahead of the read, and updating a group's subset mask and the
//! positions a move changes in its rank (both call these in their inner loop, so every one
//! is inlined); per check, which of the caller's limits fired, and the [`Limit`] it stands
//! for in the answer.

use std::time::Instant;

use crate::options::Limits;
use crate::solution::Limit;

/// No limit fired (the value of a search's shared "which" flag).
pub(crate) const FIRED_NONE: u8 = 0;
/// The node limit fired.
pub(crate) const FIRED_NODES: u8 = 1;
/// The deadline passed.
pub(crate) const FIRED_TIME: u8 = 2;
/// The search was cancelled (Ctrl-C, a client gone, a watcher's stop).
pub(crate) const FIRED_CANCEL: u8 = 3;

/// Which of `limits` fires once every thread together expanded `expanded` nodes: the node
/// limit, then the deadline, then the cancel flag ([`FIRED_NONE`] when none). Called at each
/// check, every few thousand nodes.
#[cold]
pub(crate) fn fired(limits: &Limits, deadline: Option<Instant>, expanded: u64) -> u8 {
    if limits.max_nodes.is_some_and(|m| expanded >= m) {
        FIRED_NODES
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        FIRED_TIME
    } else if limits.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
        FIRED_CANCEL
    } else {
        FIRED_NONE
    }
}

/// The expansions a pass may make before its next check, `total` nodes being expanded by
/// all: `every`, or, when the node limit leaves fewer, its share of what is left among the
/// `share` threads searching (at least one), so that together they stop at the limit.
pub(crate) fn until_check(limits: &Limits, total: u64, every: u64, share: u64) -> u64 {
    let left = limits.max_nodes.map_or(u64::MAX, |m| m.saturating_sub(total) / share.max(1));
    every.min(left).max(1)
}

/// The next chunk of expansions a thread of a parallel search may make before its next
/// check, reserved from the node limit on `reserved` (the expansions every thread reserved
/// so far): `every`, or its share of what is left among `share` threads (at least one) when
/// that is less; 0 when the limit leaves nothing, and the thread must stop. Reserving
/// instead of reading the others' flushed counts keeps the threads together within the
/// limit: each may be a whole interval ahead of what it last reported.
pub(crate) fn reserve(
    limits: &Limits,
    reserved: &std::sync::atomic::AtomicU64,
    every: u64,
    share: u64,
) -> u64 {
    use std::sync::atomic::Ordering::Relaxed;
    let Some(m) = limits.max_nodes else { return every };
    let mut chunk = 0;
    let _ = reserved.fetch_update(Relaxed, Relaxed, |r| {
        let left = m.saturating_sub(r);
        chunk = every.min((left / share.max(1)).max(1)).min(left);
        Some(r + chunk)
    });
    chunk
}

/// The limit a fired code stands for in the answer, named as the caller set it.
pub(crate) fn limit(fired: u8, limits: &Limits) -> Limit {
    match fired {
        FIRED_NODES => Limit::Nodes(limits.max_nodes.unwrap_or(0)),
        FIRED_TIME => Limit::Time(limits.timeout.unwrap_or_default()),
        _ => Limit::Cancelled,
    }
}

/// A pattern database's entries as the searches read them: one byte or one nibble each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entries<'a> {
    /// The table's bytes.
    pub(crate) bytes: &'a [u8],
    /// Two entries per byte (low nibble first).
    pub(crate) nibble: bool,
}

impl Entries<'_> {
    /// Entry `index`.
    #[inline(always)]
    pub(crate) fn get(self, index: u64) -> u8 {
        if self.nibble {
            (self.bytes[(index >> 1) as usize] >> ((index & 1) << 2)) & 15
        } else {
            self.bytes[index as usize]
        }
    }

    /// Asks for the cache line of entry `index` (a hint; never faults). The tables are read
    /// at random: without the hint, the children's misses queue one after the other.
    /// Measured on Korf's 100 with 7-8 (CPU seconds, busy machine): 0.77 s without, 0.72 s
    /// with.
    #[inline(always)]
    pub(crate) fn prefetch(self, index: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let byte = if self.nibble { index >> 1 } else { index } as usize;
            if let Some(p) = self.bytes.get(byte) {
                // SAFETY: `_mm_prefetch` is unsafe only because it is a `target_feature(sse)`
                // function; SSE is part of the x86_64 baseline, and a prefetch is a hint that
                // never faults, here on a pointer into the table anyway.
                #[expect(unsafe_code, reason = "a cache hint; see the SAFETY note")]
                unsafe {
                    std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                        std::ptr::from_ref(p).cast::<i8>(),
                    );
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = index;
    }
}

/// A group's tile moves from cell `from` to cell `to` (cells numbered within the group's
/// frame): the group's new subset mask, the tile's rank among the occupied cells before the
/// move (`i`) and after it (`j`). The order part of the index changes only when `i != j`.
#[inline(always)]
pub(crate) fn moved(mask: u32, from: u32, to: u32) -> (u32, usize, usize) {
    let next = mask ^ (1 << from) ^ (1 << to);
    let i = (mask & ((1 << from) - 1)).count_ones();
    let j = (next & ((1 << to) - 1)).count_ones();
    (next, i as usize, j as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_bytes_and_nibbles() {
        let bytes = [0x21u8, 0x43, 7];
        let nibbles = Entries { bytes: &bytes, nibble: true };
        assert_eq!((0..4).map(|i| nibbles.get(i)).collect::<Vec<_>>(), [1, 2, 3, 4]);
        let whole = Entries { bytes: &bytes, nibble: false };
        assert_eq!(whole.get(2), 7);
        // A hint past the end is no fault.
        whole.prefetch(1 << 40);
    }

    #[test]
    fn the_node_limit_fires_first_then_time_then_cancel() {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        use std::time::Duration;
        let cancel = Arc::new(AtomicBool::new(true));
        let limits = Limits {
            max_nodes: Some(10),
            timeout: Some(Duration::from_secs(1)),
            cancel: Some(Arc::clone(&cancel)),
            ..Limits::default()
        };
        let past = Some(Instant::now());
        assert_eq!(fired(&limits, past, 10), FIRED_NODES);
        assert_eq!(fired(&limits, past, 9), FIRED_TIME);
        assert_eq!(fired(&limits, None, 9), FIRED_CANCEL);
        cancel.store(false, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(fired(&limits, None, 9), FIRED_NONE);
        assert_eq!(limit(FIRED_NODES, &limits), Limit::Nodes(10));
        assert_eq!(limit(FIRED_TIME, &limits), Limit::Time(Duration::from_secs(1)));
        assert_eq!(limit(FIRED_CANCEL, &limits), Limit::Cancelled);
    }

    #[test]
    fn a_move_updates_the_mask_and_the_ranks() {
        // Cells 1, 4, 6 occupied; the tile on 4 (rank 1) moves to 7 (rank 2 among 1, 6, 7).
        assert_eq!(moved(0b101_0010, 4, 7), (0b1100_0010, 1, 2));
        // To cell 0: rank 0 after.
        assert_eq!(moved(0b101_0010, 4, 0), (0b100_0011, 1, 0));
    }
}
