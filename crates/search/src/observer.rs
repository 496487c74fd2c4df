//! Watching a search: the [`Observer`] trait, its events and [`Flow`].
//!
//! The events are structs with accessors rather than positional arguments, in the manner of
//! ripgrep's `Sink`: a new piece of information (a parent, a move, a timestamp) is a new
//! accessor, and no observer written before it has to change.

use core::ops::Add;
use std::time::{Duration, Instant};

use crate::{Stats, Stop};

/// What an [`Observer`] wants the search to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[must_use]
pub enum Flow {
    /// Keep searching.
    #[default]
    Continue,
    /// Stop now; the search returns [`Outcome::Stopped`](crate::Outcome::Stopped) with
    /// [`Stop::Cancelled`](crate::Stop::Cancelled).
    Stop,
}

/// The search starts from [`Begin::start`].
#[derive(Debug, Clone, Copy)]
pub struct Begin<'a, N, C> {
    start: &'a N,
    h: C,
}

impl<'a, N, C: Copy> Begin<'a, N, C> {
    /// The event for a search from `start`, whose heuristic value is `h` (0 for uninformed
    /// searches).
    pub fn new(start: &'a N, h: C) -> Self {
        Begin { start, h }
    }

    /// The start node.
    pub fn start(&self) -> &'a N {
        self.start
    }

    /// The start's heuristic value: a lower bound on the answer's cost.
    pub fn h(&self) -> C {
        self.h
    }
}

/// A read-only view of a search's open list, handed to observers by [`Expand::frontier`]
/// so that a visualizer can show what the search will expand next. Looking costs nothing
/// unless an observer asks.
pub trait Frontier<N, C> {
    /// Calls `visit(node, g, h)` for at most `k` open nodes, those the search will expand
    /// soonest first (for best-first searches: by priority, ties in any order; for BFS: the
    /// queue's head; for DFS: the stack's top).
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&N, C, C));
}

/// A node is about to be expanded (its successors generated).
#[derive(Clone, Copy)]
pub struct Expand<'a, N, C> {
    node: &'a N,
    parent: Option<&'a N>,
    g: C,
    h: C,
    open: usize,
    closed: usize,
    frontier: Option<&'a dyn Frontier<N, C>>,
}

impl<N: core::fmt::Debug, C: core::fmt::Debug> core::fmt::Debug for Expand<'_, N, C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Expand")
            .field("node", &self.node)
            .field("parent", &self.parent)
            .field("g", &self.g)
            .field("h", &self.h)
            .field("open", &self.open)
            .field("closed", &self.closed)
            .field("frontier", &self.frontier.is_some())
            .finish()
    }
}

impl<'a, N, C: Copy + Add<Output = C>> Expand<'a, N, C> {
    /// The expansion of `node`, reached at cost `g`, with heuristic value `h`.
    pub fn new(node: &'a N, g: C, h: C) -> Self {
        Expand { node, parent: None, g, h, open: 0, closed: 0, frontier: None }
    }

    /// The same event, with a view of the open list (see [`Expand::frontier`]).
    #[must_use]
    pub fn with_frontier(mut self, frontier: &'a dyn Frontier<N, C>) -> Self {
        self.frontier = Some(frontier);
        self
    }

    /// The open list as it is now (without the node being expanded), for the searches that
    /// keep one: the best-first searches, BFS and DFS; `None` for IDDFS and IDA*, which keep
    /// only their current path.
    pub fn frontier(&self) -> Option<&'a dyn Frontier<N, C>> {
        self.frontier
    }

    /// The same event, naming the node's parent on the path from the start.
    #[must_use]
    pub fn with_parent(mut self, parent: Option<&'a N>) -> Self {
        self.parent = parent;
        self
    }

    /// The same event, with the sizes of the search's lists (see [`Expand::open`]).
    #[must_use]
    pub fn with_lists(mut self, open: usize, closed: usize) -> Self {
        self.open = open;
        self.closed = closed;
        self
    }

    /// The node expanded.
    pub fn node(&self) -> &'a N {
        self.node
    }

    /// Its parent on the path from the start (`None` for the start itself).
    pub fn parent(&self) -> Option<&'a N> {
        self.parent
    }

    /// Its cost from the start (the depth, for the unit-cost searches).
    pub fn g(&self) -> C {
        self.g
    }

    /// Its heuristic value (0 for searches without a heuristic).
    pub fn h(&self) -> C {
        self.h
    }

    /// `g + h`.
    pub fn f(&self) -> C {
        self.g + self.h
    }

    /// For the best-first searches the open-list length (it may count stale duplicates); for
    /// DFS the stack length; for IDDFS and IDA* the current path length.
    pub fn open(&self) -> usize {
        self.open
    }

    /// For the best-first searches and DFS the number of expansions so far (the closed list);
    /// for BFS the number of nodes dequeued; 0 for IDDFS and IDA*.
    pub fn closed(&self) -> usize {
        self.closed
    }
}

/// A successor was queued: a new node, or a known one reached by a cheaper path (for IDDFS
/// and IDA*: a successor within the current bound).
#[derive(Debug, Clone, Copy)]
pub struct Generate<'a, N, C> {
    node: &'a N,
    parent: &'a N,
    g: C,
    h: C,
}

impl<'a, N, C: Copy + Add<Output = C>> Generate<'a, N, C> {
    /// `node`, generated from `parent` at cost `g`, with heuristic value `h`.
    pub fn new(node: &'a N, parent: &'a N, g: C, h: C) -> Self {
        Generate { node, parent, g, h }
    }

    /// The successor.
    pub fn node(&self) -> &'a N {
        self.node
    }

    /// The node it was generated from.
    pub fn parent(&self) -> &'a N {
        self.parent
    }

    /// Its cost from the start.
    pub fn g(&self) -> C {
        self.g
    }

    /// Its heuristic value.
    pub fn h(&self) -> C {
        self.h
    }

    /// `g + h`.
    pub fn f(&self) -> C {
        self.g + self.h
    }
}

/// IDDFS or IDA* starts a new iteration with a larger bound. Every iteration before it
/// searched the whole tree within its bound, so [`Bound::bound`] is a proven lower bound on
/// the answer's cost.
#[derive(Debug, Clone, Copy)]
pub struct Bound<C> {
    bound: C,
    expanded: u64,
}

impl<C: Copy> Bound<C> {
    /// A new iteration with `bound`, after `expanded` expansions in all.
    pub fn new(bound: C, expanded: u64) -> Self {
        Bound { bound, expanded }
    }

    /// The new depth or cost bound.
    pub fn bound(&self) -> C {
        self.bound
    }

    /// Expansions done before this iteration.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }
}

/// Periodic statistics of a running search (about every 1024 expansions, and at least at
/// every clock check of the limits).
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    expanded: u64,
    generated: u64,
    frontier: u64,
    started: Instant,
    best: Option<u64>,
}

impl Progress {
    /// Statistics so far of a search that started at `started`.
    pub fn new(expanded: u64, generated: u64, frontier: u64, started: Instant) -> Self {
        Progress { expanded, generated, frontier, started, best: None }
    }

    /// The same, from a search that has found a solution of `cost` already and goes on for
    /// a cheaper one (an anytime search).
    pub fn with_best(mut self, cost: u64) -> Self {
        self.best = Some(cost);
        self
    }

    /// The cost of the best solution found so far, from an anytime search that has one
    /// (`None` from searches that have no solution before they end).
    pub fn best(&self) -> Option<u64> {
        self.best
    }

    /// Nodes expanded so far.
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// Successors generated so far.
    pub fn generated(&self) -> u64 {
        self.generated
    }

    /// The current open-list length (for depth-first searches: the path length).
    pub fn frontier(&self) -> u64 {
        self.frontier
    }

    /// Time since the search started (read from the clock when asked, so a no-op observer
    /// never pays for it).
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// The search has ended.
#[derive(Debug, Clone, Copy)]
pub struct Finish<'a> {
    stats: &'a Stats,
    found: bool,
    stop: Option<Stop>,
}

impl<'a> Finish<'a> {
    /// The end of a search with `stats`; `found` when it reached a goal, `stop` when a limit
    /// or the observer ended it.
    pub fn new(stats: &'a Stats, found: bool, stop: Option<Stop>) -> Self {
        Finish { stats, found, stop }
    }

    /// The search's final statistics.
    pub fn stats(&self) -> &'a Stats {
        self.stats
    }

    /// Whether a goal was reached.
    pub fn found(&self) -> bool {
        self.found
    }

    /// Why the search stopped early, if it did.
    pub fn stop(&self) -> Option<Stop> {
        self.stop
    }
}

/// Watches a search as it runs, in the manner of ripgrep's `Sink`.
///
/// Every method has a no-op default that returns [`Flow::Continue`], so an observer implements
/// only what it needs, and each event is a struct with accessors, so new information never
/// breaks an existing observer. The observer is a generic parameter of every search function:
/// with `()` or [`NoObserver`] all calls compile away and the search runs as if there were no
/// observer. Returning [`Flow::Stop`] from any method ends the search with
/// [`Stop::Cancelled`](crate::Stop::Cancelled).
///
/// Order: [`begin`](Observer::begin) once, then [`bound`](Observer::bound) before each
/// iteration of IDDFS and IDA*, [`expand`](Observer::expand) and
/// [`generate`](Observer::generate) as nodes are met, [`progress`](Observer::progress) about
/// every 1024 expansions, and [`finish`](Observer::finish) once at the end, whatever the
/// outcome.
///
/// For the unit-cost searches ([`bfs`](crate::bfs), [`dfs`](crate::dfs),
/// [`iddfs`](crate::iddfs)) the cost type `C` is `usize`, `g` is the depth and `h` is 0. For
/// searches without a heuristic ([`dijkstra`](crate::dijkstra)) `h` is 0.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Expand, Flow, Limits, Observer, Outcome, Stop, bfs};
///
/// /// Counts expansions and gives up after three.
/// struct Impatient(u32);
///
/// impl Observer<u32, usize> for Impatient {
///     fn expand(&mut self, _: &Expand<'_, u32, usize>) -> Flow {
///         self.0 += 1;
///         if self.0 > 3 { Flow::Stop } else { Flow::Continue }
///     }
/// }
///
/// let mut watcher = Impatient(0);
/// let report = bfs(&0u32, |&n| [n + 1, n + 2], |&n| n == 100, &Limits::default(), &mut watcher);
/// assert_eq!(report.outcome, Outcome::Stopped(Stop::Cancelled));
/// assert_eq!(watcher.0, 4);
/// ```
pub trait Observer<N, C> {
    /// The search starts.
    #[inline]
    fn begin(&mut self, event: &Begin<'_, N, C>) -> Flow {
        let _ = event;
        Flow::Continue
    }

    /// A node is about to be expanded.
    #[inline]
    fn expand(&mut self, event: &Expand<'_, N, C>) -> Flow {
        let _ = event;
        Flow::Continue
    }

    /// A successor was queued.
    #[inline]
    fn generate(&mut self, event: &Generate<'_, N, C>) -> Flow {
        let _ = event;
        Flow::Continue
    }

    /// IDDFS and IDA* start a new iteration with a larger bound.
    #[inline]
    fn bound(&mut self, event: &Bound<C>) -> Flow {
        let _ = event;
        Flow::Continue
    }

    /// Periodic statistics.
    #[inline]
    fn progress(&mut self, event: &Progress) -> Flow {
        let _ = event;
        Flow::Continue
    }

    /// The search has ended (found, exhausted, or stopped).
    #[inline]
    fn finish(&mut self, event: &Finish<'_>) {
        let _ = event;
    }
}

/// An observer that watches nothing; the same as `()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NoObserver;

impl<N, C> Observer<N, C> for NoObserver {}

impl<N, C> Observer<N, C> for () {}

impl<N, C, O: Observer<N, C> + ?Sized> Observer<N, C> for &mut O {
    #[inline]
    fn begin(&mut self, event: &Begin<'_, N, C>) -> Flow {
        (**self).begin(event)
    }

    #[inline]
    fn expand(&mut self, event: &Expand<'_, N, C>) -> Flow {
        (**self).expand(event)
    }

    #[inline]
    fn generate(&mut self, event: &Generate<'_, N, C>) -> Flow {
        (**self).generate(event)
    }

    #[inline]
    fn bound(&mut self, event: &Bound<C>) -> Flow {
        (**self).bound(event)
    }

    #[inline]
    fn progress(&mut self, event: &Progress) -> Flow {
        (**self).progress(event)
    }

    #[inline]
    fn finish(&mut self, event: &Finish<'_>) {
        (**self).finish(event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counter(usize);

    impl Observer<u8, u8> for Counter {
        fn generate(&mut self, _: &Generate<'_, u8, u8>) -> Flow {
            self.0 += 1;
            Flow::Continue
        }
    }

    fn drive<O: Observer<u8, u8>>(mut o: O) -> [Flow; 5] {
        let stats = Stats::default();
        o.finish(&Finish::new(&stats, false, None));
        [
            o.begin(&Begin::new(&1, 0)),
            o.expand(&Expand::new(&1, 0, 0)),
            o.generate(&Generate::new(&2, &1, 1, 0)),
            o.bound(&Bound::new(3, 0)),
            o.progress(&Progress::new(1, 2, 3, Instant::now())),
        ]
    }

    #[test]
    fn defaults_continue() {
        assert_eq!(drive(()), [Flow::Continue; 5]);
        assert_eq!(drive(NoObserver), [Flow::Continue; 5]);
    }

    #[test]
    fn mutable_reference_forwards_to_the_observer() {
        let mut counter = Counter(0);
        let _ = drive(&mut counter);
        let _ = drive(&mut counter);
        assert_eq!(counter.0, 2);
    }

    #[test]
    fn events_carry_what_they_were_made_with() {
        let e = Expand::new(&7u8, 3u8, 4).with_parent(Some(&6)).with_lists(5, 2);
        assert_eq!((e.node(), e.parent(), e.g(), e.h(), e.f()), (&7, Some(&6), 3, 4, 7));
        assert_eq!((e.open(), e.closed()), (5, 2));
        let g = Generate::new(&8u8, &7, 4u8, 1);
        assert_eq!((g.node(), g.parent(), g.f()), (&8, &7, 5));
        assert_eq!(Bound::new(9u8, 10).bound(), 9);
        let p = Progress::new(1, 2, 3, Instant::now());
        assert_eq!((p.expanded(), p.generated(), p.frontier()), (1, 2, 3));
    }
}
