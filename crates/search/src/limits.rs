//! Resource limits ([`Limits`]), why a search stopped ([`Stop`]) and the internal budget that
//! enforces them.

use core::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Resource limits for one search. [`Limits::default`] is unlimited.
///
/// A search that hits a limit returns [`Outcome::Stopped`](crate::Outcome::Stopped) with the
/// matching [`Stop`]; it never panics and never grows past `max_memory`.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// Stop with [`Stop::Nodes`] before expanding more than this many nodes. Checked on every
    /// expansion.
    pub max_nodes: Option<u64>,
    /// Stop with [`Stop::Memory`] before the search's own data structures would exceed about
    /// this many bytes. The estimate per stored node is `size_of` of the node record, hash-map
    /// entry and queue entry plus `node_bytes` per copy of the node, all doubled to cover
    /// hash-table load factor and vector growth. IDDFS and IDA* store only the current path.
    pub max_memory: Option<usize>,
    /// The caller's estimate of the heap bytes one node value owns (0 for plain integers or
    /// arrays; the buffer size for a `Vec`-based state). Used only with `max_memory`.
    pub node_bytes: usize,
    /// Stop with [`Stop::Time`] once this instant has passed. Checked every 1024 expansions
    /// (and on the first one).
    pub deadline: Option<Instant>,
    /// Stop with [`Stop::Cancelled`] once this flag is set, e.g. from another thread. Checked
    /// every 1024 expansions (and on the first one).
    pub cancel: Option<Arc<AtomicBool>>,
    /// For [`bfs`](crate::bfs), [`dfs`](crate::dfs), [`iddfs`](crate::iddfs): do not expand
    /// nodes at this depth (number of moves from the start); for [`idastar`](crate::idastar):
    /// give up once the cost bound exceeds it. When nothing within the limit is a goal the
    /// outcome is [`Outcome::NotFound`](crate::Outcome::NotFound). Ignored by the best-first
    /// searches.
    pub max_depth: Option<u64>,
}

/// Why a search stopped before finishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stop {
    /// [`Limits::max_nodes`] expansions were done.
    Nodes,
    /// Storing more nodes would exceed [`Limits::max_memory`].
    Memory,
    /// [`Limits::deadline`] passed.
    Time,
    /// The [`Limits::cancel`] flag was set or the [`Observer`](crate::Observer) returned
    /// [`Flow::Stop`](crate::Flow::Stop).
    Cancelled,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Nodes => "node limit reached",
            Stop::Memory => "memory limit reached",
            Stop::Time => "time limit reached",
            Stop::Cancelled => "search cancelled",
        })
    }
}

impl std::error::Error for Stop {}

/// The limits of one search, in the form the hot loops check cheaply.
///
/// Every search of this crate checks its limits through one `Budget`, and so do the
/// specialised engines built on top of it (the sliding-puzzle solver's packed engines), so
/// that "when is the clock read" and "what counts as over the limit" have one answer.
///
/// # Examples
/// ```
/// use npuzzle_search::{Budget, Limits, Stop};
/// let limits = Limits { max_nodes: Some(2000), ..Limits::default() };
/// let budget = Budget::new(&limits);
/// assert_eq!(budget.check_expand(1999), Ok(()));
/// assert_eq!(budget.check_expand(2000), Err(Stop::Nodes));
/// // A hot loop may skip the checks until the next count where one can fire.
/// assert_eq!(budget.next_check(5), 1024);
/// assert_eq!(budget.next_check(1990), 2000);
/// ```
#[derive(Debug, Clone)]
pub struct Budget<'a> {
    max_nodes: u64,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    max_bytes: u64,
    node_bytes: u64,
}

impl<'a> Budget<'a> {
    /// The budget of `limits`.
    pub fn new(limits: &'a Limits) -> Self {
        Budget {
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            deadline: limits.deadline,
            cancel: limits.cancel.as_deref(),
            max_bytes: limits.max_memory.map_or(u64::MAX, |b| b as u64),
            node_bytes: limits.node_bytes as u64,
        }
    }

    /// Called before each expansion with the number of expansions done so far.
    ///
    /// # Errors
    /// The [`Stop`] reason once a limit is reached: the node count at once, the deadline
    /// and the cancel flag when `expanded` is a multiple of 1024.
    #[inline]
    pub fn check_expand(&self, expanded: u64) -> Result<(), Stop> {
        if expanded >= self.max_nodes {
            return Err(Stop::Nodes);
        }
        // The clock and the flag are read only every 1024 expansions: `Instant::now` costs
        // tens of nanoseconds, as much as expanding a sliding-puzzle node.
        if expanded & 1023 == 0 { self.check_clock() } else { Ok(()) }
    }

    /// The next expansion count at which [`Budget::check_expand`] can fail or must look at
    /// the clock: a search may skip the checks until then.
    #[inline]
    pub fn next_check(&self, expanded: u64) -> u64 {
        self.max_nodes.min((expanded | 1023) + 1)
    }

    /// The memory limit in bytes (`u64::MAX` when there is none).
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// The deadline, if there is one: for work that must not start when it cannot finish in
    /// time (a hash table's rehash, which no check interrupts).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    #[cold]
    #[inline(never)]
    fn check_clock(&self) -> Result<(), Stop> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stop::Time);
        }
        Ok(())
    }

    /// A memory model for searches that store `node_copies` copies of each node in
    /// `node_overhead` bytes of records (node values included) plus `entry` bytes per queue
    /// entry.
    pub(crate) fn memory(&self, node_overhead: usize, node_copies: u64, entry: usize) -> Memory {
        let margin = 2;
        Memory {
            per_node: margin * (node_overhead as u64 + node_copies * self.node_bytes),
            per_entry: margin * entry as u64,
            max_bytes: self.max_bytes,
        }
    }
}

/// Estimated bytes of a search's stored nodes and queue entries, against the limit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory {
    per_node: u64,
    per_entry: u64,
    max_bytes: u64,
}

impl Memory {
    /// Whether storing `nodes` nodes and `entries` queue entries would exceed the limit.
    #[inline]
    pub(crate) fn exceeds(&self, nodes: usize, entries: usize) -> bool {
        (nodes as u64)
            .saturating_mul(self.per_node)
            .saturating_add((entries as u64).saturating_mul(self.per_entry))
            > self.max_bytes
    }

    /// The largest number of nodes that fits when each needs no queue entry (paths).
    pub(crate) fn max_nodes(&self) -> usize {
        usize::try_from(self.max_bytes / self.per_node.max(1)).unwrap_or(usize::MAX)
    }
}

/// Grows a search's tables at its periodic checks, timed, instead of letting an insert grow
/// them at any moment: a rehash of millions of entries takes seconds and no check interrupts
/// it (a breadth-first search of a 5x5 board under `--timeout 3` reported 3.58 s). A growth
/// that would not finish before the deadline is not started: the search stops in time.
///
/// It also keeps time to release what the search holds: a search whose nodes own heap
/// memory (a boxed board) frees every stored copy when it returns, millions of frees that
/// no check interrupts either (an A* of a 5x5 board under `--timeout 2` reported 2.33 s, a
/// third of a second of it in `free`). Such a search stops once the time left would not
/// cover releasing what it holds.
#[derive(Debug, Default)]
pub(crate) struct Growth {
    /// How long the last growth took.
    last: std::time::Duration,
    /// Nanoseconds to release one stored copy of a node: 0 for nodes without drop glue.
    release_ns: u64,
}

/// Nanoseconds to free one stored copy of a node that owns heap memory, at the end of a
/// search, given the heap bytes it owns ([`Limits::node_bytes`]). Measured for the general
/// engine's boxed boards (scattered frees that miss the cache): 80 ns a copy on 5x5 (50
/// bytes), 135 ns on 7x7 (98 bytes), 335 ns on 16x16 (512 bytes), about 70 ns plus half a
/// nanosecond a byte; this allows half as much again for slower or busier machines, and
/// [`Growth::room`] raises it to what a rehash took per entry on this machine.
fn release_ns_per_copy(node_bytes: u64) -> u64 {
    (100 + node_bytes / 2) * 3 / 2
}

impl Growth {
    /// The growth policy of a search storing nodes of type `N` under `budget`.
    pub(crate) fn for_nodes<N>(budget: &Budget) -> Growth {
        let release_ns =
            if std::mem::needs_drop::<N>() { release_ns_per_copy(budget.node_bytes) } else { 0 };
        Growth { last: std::time::Duration::ZERO, release_ns }
    }

    /// Whether releasing `copies` stored node values would end past the deadline: the
    /// search must stop now to answer in time. Call it at the periodic checks.
    pub(crate) fn must_release(&self, budget: &Budget, copies: usize) -> bool {
        if self.release_ns == 0 {
            return false;
        }
        let Some(deadline) = budget.deadline() else { return false };
        let release =
            std::time::Duration::from_nanos(self.release_ns.saturating_mul(copies as u64));
        Instant::now().checked_add(release).is_none_or(|end| end >= deadline)
    }

    /// When `full` (the tables have no room for the entries the next checks' worth of
    /// expansions may add), runs `grow` if it can end before the deadline. `entries` is the
    /// number of nodes the hash table holds: rehashing them reads every node, as freeing
    /// them will, so the time per entry raises the estimate of the release (a busy machine
    /// frees more slowly too).
    ///
    /// # Errors
    /// [`Stop::Time`] when the growth would end past the deadline.
    pub(crate) fn room(
        &mut self,
        budget: &Budget,
        full: bool,
        entries: usize,
        grow: impl FnOnce(),
    ) -> Result<(), Stop> {
        if !full {
            return Ok(());
        }
        if let Some(deadline) = budget.deadline() {
            // The next growth moves about twice as much as the last: allow three times its
            // time.
            if Instant::now().checked_add(3 * self.last).is_none_or(|end| end > deadline) {
                return Err(Stop::Time);
            }
        }
        let started = Instant::now();
        grow();
        self.last = started.elapsed();
        if self.release_ns > 0 && entries >= 1 << 16 {
            let per_entry = u64::try_from(self.last.as_nanos() / entries as u128).unwrap_or(0);
            // Frees took from 0.4 to 1.15 times a rehash's time per entry (5x5 to 16x16
            // boards, quiet and busy): allow 1.5 times.
            self.release_ns = self.release_ns.max(per_entry * 3 / 2);
        }
        Ok(())
    }

    /// Entries the next 1024 expansions may add, from the branching seen so far.
    pub(crate) fn next_entries(generated: u64, expanded: u64) -> usize {
        let branching = generated.div_ceil(expanded.max(1)).max(1);
        usize::try_from(branching.saturating_mul(1024) + 1024).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, Limits, Stop};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Instant;

    #[test]
    fn a_rehash_that_could_not_end_before_the_deadline_was_started_anyway() {
        use super::Growth;
        use std::time::Duration;
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..Limits::default()
        };
        let budget = Budget::new(&limits);
        let mut growth = Growth::default();
        let mut grown = 0;
        assert_eq!(growth.room(&budget, false, 0, || grown += 1), Ok(()));
        assert_eq!(grown, 0, "nothing to grow while there is room");
        assert_eq!(growth.room(&budget, true, 0, || grown += 1), Ok(()));
        assert_eq!(grown, 1);
        // The last growth took twenty minutes: the next would take about forty, and three
        // times the last does not fit in the hour left.
        growth.last = Duration::from_secs(20 * 60);
        assert_eq!(growth.room(&budget, true, 0, || grown += 1), Err(Stop::Time));
        assert_eq!(grown, 1, "a growth that cannot finish in time is not started");
        // Without a deadline it always grows.
        assert_eq!(growth.room(&Budget::new(&Limits::default()), true, 0, || grown += 1), Ok(()));
        assert_eq!(grown, 2);
        assert_eq!(Growth::next_entries(0, 0), 2048);
        assert_eq!(Growth::next_entries(4000, 1000), 5 * 1024);
    }

    #[test]
    fn a_search_holding_boxed_nodes_stops_in_time_to_free_them() {
        use super::Growth;
        use std::time::Duration;
        let limits = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(3600)),
            ..Limits::default()
        };
        let budget = Budget::new(&limits);
        let boxed = Growth::for_nodes::<Box<[u16]>>(&budget);
        assert!(!boxed.must_release(&budget, 1_000_000), "a million frees fit in an hour");
        // Freeing 30 billion boxes would take over an hour: stop now.
        assert!(boxed.must_release(&budget, 30_000_000_000));
        // Plain values need no freeing, and without a deadline nothing is owed.
        assert!(!Growth::for_nodes::<u64>(&budget).must_release(&budget, usize::MAX));
        assert!(!boxed.must_release(&Budget::new(&Limits::default()), usize::MAX));
    }

    #[test]
    fn unlimited_never_stops() {
        let limits = Limits::default();
        let budget = Budget::new(&limits);
        assert_eq!(budget.check_expand(0), Ok(()));
        assert_eq!(budget.check_expand(u64::MAX - 1), Ok(()));
        assert!(!budget.memory(100, 2, 16).exceeds(usize::MAX / 2, usize::MAX / 2));
    }

    #[test]
    fn node_limit_counts_expansions_done() {
        let limits = Limits { max_nodes: Some(5), ..Limits::default() };
        let budget = Budget::new(&limits);
        assert_eq!(budget.check_expand(4), Ok(()));
        assert_eq!(budget.check_expand(5), Err(Stop::Nodes));
    }

    #[test]
    fn clock_and_flag_are_read_every_1024_expansions() {
        let limits = Limits { deadline: Some(Instant::now()), ..Limits::default() };
        let budget = Budget::new(&limits);
        assert_eq!(budget.check_expand(0), Err(Stop::Time));
        assert_eq!(budget.check_expand(1), Ok(()));
        assert_eq!(budget.check_expand(2048), Err(Stop::Time));

        let cancel = Arc::new(AtomicBool::new(true));
        let limits = Limits { cancel: Some(cancel), ..Limits::default() };
        assert_eq!(Budget::new(&limits).check_expand(1024), Err(Stop::Cancelled));
    }

    #[test]
    fn memory_model_counts_node_bytes_and_margin() {
        let limits = Limits { max_memory: Some(1000), node_bytes: 10, ..Limits::default() };
        let memory = Budget::new(&limits).memory(30, 2, 5);
        // 2 * (30 + 2 * 10) = 100 bytes per node, 10 per entry.
        assert!(!memory.exceeds(9, 10));
        assert!(memory.exceeds(10, 1));
        assert_eq!(memory.max_nodes(), 10);
    }

    #[test]
    fn stop_reasons_are_lowercase_lines() {
        for stop in [Stop::Nodes, Stop::Memory, Stop::Time, Stop::Cancelled] {
            let text = stop.to_string();
            assert_eq!(text, text.to_lowercase());
            assert!(!text.contains('\n'));
        }
    }
}
