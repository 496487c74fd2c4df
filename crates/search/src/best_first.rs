//! The best-first core shared by [`dijkstra`](crate::dijkstra), [`greedy`](crate::greedy),
//! [`astar`](crate::astar) and [`wastar`](crate::wastar): they differ only in the priority they
//! give a node and in whether an expanded node may be reopened.

use core::cmp::Ordering;
use core::hash::Hash;
use core::mem::size_of;
use std::collections::BinaryHeap;
use std::collections::hash_map::Entry as MapEntry;
use std::time::Instant;

use rustc_hash::FxHashMap;

use crate::limits::{Budget, Growth};
use crate::observer::{Begin, Expand, Frontier, Generate};
use crate::{Cost, Flow, Limits, Observer, Outcome, ROOT, Report, Stats, Stop, trace};
use crate::{finish, tick};

/// One stored node. The arena index is the node's identity inside the search, so queue entries
/// and parent links are 4 bytes whatever the node type.
struct Record<N, C> {
    node: N,
    parent: u32,
    g: C,
    h: C,
    closed: bool,
}

/// An open-list entry. `g` is the cost the node had when queued: the entry is stale (and
/// skipped) once the node's record holds a cheaper `g`. This lazy deletion avoids a
/// decrease-key operation, which `BinaryHeap` does not have.
struct Entry<K, C> {
    key: K,
    g: C,
    index: u32,
}

impl<K: Ord, C> PartialEq for Entry<K, C> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<K: Ord, C> Eq for Entry<K, C> {}

impl<K: Ord, C> PartialOrd for Entry<K, C> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<K: Ord, C> Ord for Entry<K, C> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

/// The open list as observers see it: the live entries nearest the heap's top.
struct OpenView<'a, N, C, K> {
    open: &'a BinaryHeap<Entry<K, C>>,
    arena: &'a [Record<N, C>],
}

impl<N, C: Cost, K: Ord> Frontier<N, C> for OpenView<'_, N, C, K> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&N, C, C)) {
        // `BinaryHeap` keeps a binary max-heap in its vector (children of `i` at `2i + 1` and
        // `2i + 2`), so the best entries are found by a small best-first walk from the root
        // instead of a scan of the whole list; `soonest_is_the_pop_order` checks this layout.
        // Stale entries (a cheaper path was found since) are skipped, as the search does, and
        // the walk is bounded so a heap full of them cannot make an observer slow.
        let heap = self.open.as_slice();
        let mut candidates: Vec<usize> = if heap.is_empty() { Vec::new() } else { vec![0] };
        let (mut shown, mut looked) = (0, 0);
        while shown < k && looked < 64 * k.max(1) {
            let best = candidates
                .iter()
                .enumerate()
                .max_by(|a, b| heap[*a.1].key.cmp(&heap[*b.1].key))
                .map(|(at, _)| at);
            let Some(at) = best else { break };
            let i = candidates.swap_remove(at);
            looked += 1;
            let entry = &heap[i];
            let record = &self.arena[entry.index as usize];
            if record.g == entry.g && !record.closed {
                visit(&record.node, entry.g, record.h);
                shown += 1;
            }
            candidates.extend([2 * i + 1, 2 * i + 2].into_iter().filter(|&c| c < heap.len()));
        }
    }
}

/// How a best-first search orders and revisits nodes.
pub(crate) struct Strategy<FP> {
    /// Maps `(g, h)` to a key; the open list pops the LARGEST key first.
    pub(crate) priority: FP,
    /// Whether a node already expanded is expanded again when reached more cheaply (needed
    /// for optimality with an inconsistent heuristic).
    pub(crate) reopen: bool,
}

/// Runs a best-first search; see the public wrappers for the contracts.
#[inline]
pub(crate) fn best_first<N, C, K, FN, IN, FH, FS, FP, O>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    mut success: FS,
    mut strategy: Strategy<FP>,
    limits: &Limits,
    mut observer: O,
) -> Report<N, C>
where
    N: Eq + Hash + Clone,
    C: Cost,
    K: Ord,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
    FP: FnMut(C, C) -> K,
    O: Observer<N, C>,
{
    let clock = Instant::now();
    let budget = Budget::new(limits);
    let memory = budget.memory(
        size_of::<Record<N, C>>() + size_of::<(N, u32)>() + 1,
        2,
        size_of::<Entry<K, C>>(),
    );
    let mut stats = Stats::default();
    let mut arena: Vec<Record<N, C>> = Vec::new();
    let mut index: FxHashMap<N, u32> = FxHashMap::default();
    let mut open: BinaryHeap<Entry<K, C>> = BinaryHeap::new();
    let mut growth = Growth::for_nodes::<N>(&budget);

    let outcome = 'search: {
        if memory.exceeds(1, 1) {
            break 'search Outcome::Stopped(Stop::Memory);
        }
        let h = heuristic(start);
        let zero = C::default();
        if observer.begin(&Begin::new(start, h)) == Flow::Stop {
            break 'search Outcome::Stopped(Stop::Cancelled);
        }
        arena.push(Record { node: start.clone(), parent: ROOT, g: zero, h, closed: false });
        index.insert(start.clone(), 0);
        open.push(Entry { key: (strategy.priority)(zero, h), g: zero, index: 0 });

        while let Some(Entry { g, index: current, .. }) = open.pop() {
            let record = &arena[current as usize];
            if record.g != g {
                continue;
            }
            if success(&record.node) {
                break 'search Outcome::Found {
                    path: trace(&arena, current, |r| (&r.node, r.parent)),
                    cost: g,
                };
            }
            if let Err(stop) = budget.check_expand(stats.expanded) {
                break 'search Outcome::Stopped(stop);
            }
            if stats.expanded & 1023 == 0 {
                let more = Growth::next_entries(stats.generated, stats.expanded);
                let full = index.capacity() - index.len() < more
                    || arena.capacity() - arena.len() < more
                    || open.capacity() - open.len() < more;
                let held = index.len();
                let grow = || {
                    index.reserve(index.len().max(more));
                    arena.reserve(arena.len().max(more));
                    open.reserve(open.len().max(more));
                };
                if let Err(stop) = growth.room(&budget, full, held, grow) {
                    break 'search Outcome::Stopped(stop);
                }
                // Each node is held twice: in its record and as the index's key.
                if growth.must_release(&budget, 2 * arena.len()) {
                    break 'search Outcome::Stopped(Stop::Time);
                }
            }
            let record = &arena[current as usize];
            let closed = usize::try_from(stats.expanded).unwrap_or(usize::MAX);
            let parent = arena.get(record.parent as usize).map(|p| &p.node);
            let view = OpenView { open: &open, arena: &arena };
            let event = Expand::new(&record.node, g, record.h)
                .with_parent(parent)
                .with_lists(open.len(), closed)
                .with_frontier(&view);
            if observer.expand(&event) == Flow::Stop
                || tick(&mut observer, &stats, open.len(), clock) == Flow::Stop
            {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            let children = successors(&record.node);
            arena[current as usize].closed = true;
            stats.expanded += 1;

            for (child, cost) in children {
                stats.generated += 1;
                let child_g = g + cost;
                match index.entry(child) {
                    MapEntry::Vacant(slot) => {
                        // Indices stop below ROOT, which marks the start's parent.
                        if memory.exceeds(arena.len() + 1, open.len() + 1)
                            || arena.len() >= ROOT as usize
                        {
                            break 'search Outcome::Stopped(Stop::Memory);
                        }
                        let h = heuristic(slot.key());
                        let parent = &arena[current as usize].node;
                        if observer.generate(&Generate::new(slot.key(), parent, child_g, h))
                            == Flow::Stop
                        {
                            break 'search Outcome::Stopped(Stop::Cancelled);
                        }
                        let at = arena.len() as u32;
                        let node = slot.key().clone();
                        slot.insert(at);
                        arena.push(Record { node, parent: current, g: child_g, h, closed: false });
                        let key = (strategy.priority)(child_g, h);
                        open.push(Entry { key, g: child_g, index: at });
                    }
                    MapEntry::Occupied(slot) => {
                        let at = *slot.get();
                        let stored = arena.len();
                        let record = &arena[at as usize];
                        if child_g < record.g && (strategy.reopen || !record.closed) {
                            if memory.exceeds(stored, open.len() + 1) {
                                break 'search Outcome::Stopped(Stop::Memory);
                            }
                            let h = record.h;
                            let event = Generate::new(
                                &record.node,
                                &arena[current as usize].node,
                                child_g,
                                h,
                            );
                            if observer.generate(&event) == Flow::Stop {
                                break 'search Outcome::Stopped(Stop::Cancelled);
                            }
                            let record = &mut arena[at as usize];
                            record.g = child_g;
                            record.parent = current;
                            record.closed = false;
                            let key = (strategy.priority)(child_g, h);
                            open.push(Entry { key, g: child_g, index: at });
                        }
                    }
                }
            }
            stats.max_frontier = stats.max_frontier.max(open.len() as u64);
        }
        Outcome::NotFound
    };
    stats.max_frontier = stats.max_frontier.max(open.len() as u64);
    stats.seconds = clock.elapsed().as_secs_f64();
    finish(&mut observer, outcome, stats)
}

#[cfg(test)]
mod tests {
    use super::{Strategy, best_first};
    use crate::{Limits, Outcome};
    use core::cmp::Reverse;

    /// A diamond where the heuristic is admissible but inconsistent: `b` looks bad, so `c` is
    /// expanded through the expensive route first and must be reopened.
    fn diamond(n: &char) -> Vec<(char, u32)> {
        match n {
            's' => vec![('a', 1), ('b', 1)],
            'a' => vec![('c', 5)],
            'b' => vec![('c', 1)],
            'c' => vec![('g', 5)],
            _ => vec![],
        }
    }

    fn inconsistent(n: &char) -> u32 {
        match n {
            'b' => 6,
            _ => 0,
        }
    }

    #[test]
    fn reopening_finds_the_optimum_with_an_inconsistent_heuristic() {
        let run = |reopen| {
            let strategy = Strategy { priority: |g: u32, h: u32| (Reverse(g + h), g), reopen };
            best_first(&'s', diamond, inconsistent, |&n| n == 'g', strategy, &Limits::default(), ())
        };
        let report = run(true);
        assert_eq!(report.outcome, Outcome::Found { path: vec!['s', 'b', 'c', 'g'], cost: 7 });
        // Without reopening `c` keeps its first, expensive parent.
        assert_eq!(run(false).cost(), Some(11));
    }

    /// Records the open list's three soonest nodes at every expansion and the order of
    /// expansions, on a grid with several paths to each node (so the heap holds stale
    /// entries) and many ties.
    #[test]
    fn soonest_is_the_pop_order() {
        use crate::{Expand, Flow, Observer};
        type Shown = Vec<((u8, u8), u32)>;
        struct Watch {
            expanded: Vec<((u8, u8), u32)>,
            soonest: Vec<Shown>,
        }
        impl Observer<(u8, u8), u32> for Watch {
            fn expand(&mut self, e: &Expand<'_, (u8, u8), u32>) -> Flow {
                self.expanded.push((*e.node(), e.g()));
                let mut next = Vec::new();
                if let Some(frontier) = e.frontier() {
                    frontier.soonest(3, &mut |n, g, _| next.push((*n, g)));
                }
                self.soonest.push(next);
                Flow::Continue
            }
        }
        let grid = |&(x, y): &(u8, u8)| {
            let mut out = Vec::new();
            if x < 6 {
                out.push(((x + 1, y), 1 + u32::from(y % 3)));
            }
            if y < 6 {
                out.push(((x, y + 1), 1 + u32::from(x % 2)));
            }
            out
        };
        let strategy = Strategy { priority: |g: u32, _h: u32| Reverse(g), reopen: false };
        let mut watch = Watch { expanded: Vec::new(), soonest: Vec::new() };
        let limits = Limits::default();
        let _ = best_first(&(0, 0), grid, |_| 0, |_| false, strategy, &limits, &mut watch);
        assert_eq!(watch.expanded.len(), 49);
        for (i, next) in watch.soonest.iter().enumerate() {
            // Best first, each with its current cost, each expanded later with that cost.
            assert!(next.windows(2).all(|w| w[0].1 <= w[1].1), "{next:?}");
            for shown in next {
                assert!(watch.expanded[i + 1..].contains(shown), "{shown:?} shown at {i}");
            }
            // The first shown has the cost of the next expansion (ties in any order).
            if let (Some(first), Some(expanded)) = (next.first(), watch.expanded.get(i + 1)) {
                assert_eq!(first.1, expanded.1);
            }
        }
        // The open list is empty only at the start and the end.
        assert!(watch.soonest[1..45].iter().all(|next| !next.is_empty()));
    }

    #[test]
    fn stale_entries_are_not_expanded() {
        let strategy = Strategy { priority: |g: u32, h: u32| (Reverse(g + h), g), reopen: true };
        let report =
            best_first(&'s', diamond, inconsistent, |_| false, strategy, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::NotFound);
        // s, a, c (via a), b, c again (via b), g: c is expanded twice, never its stale entry.
        assert_eq!(report.stats.expanded, 6);
    }
}
