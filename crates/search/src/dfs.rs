//! Depth-first graph search.

use core::hash::Hash;
use core::mem::size_of;
use std::time::Instant;

use rustc_hash::FxHashSet;

use crate::limits::{Budget, Growth};
use crate::observer::{Begin, Expand, Frontier, Generate};
use crate::{Flow, Limits, Observer, Outcome, ROOT, Report, Stats, Stop, trace};
use crate::{finish, tick};

/// Finds SOME path by depth-first graph search, like the textbook version: an explicit stack
/// and a closed set, so each node is visited at most once.
///
/// `successors(node)` yields the neighbouring nodes (every edge costs 1); the first successor
/// is explored first. `success(node)` recognises a goal, tested when a node is taken off the
/// stack.
///
/// # Contract
///
/// - The path is valid but usually far from the shortest; it includes `start` and the goal,
///   and `cost` is `path.len() - 1`.
/// - Nodes are marked visited when pushed, so with [`Limits::max_depth`] `d` (nodes at depth
///   `d` are not expanded) a goal within `d` moves can be missed when it was first reached by
///   a longer route; the outcome is then [`Outcome::NotFound`](crate::Outcome::NotFound).
///   Use [`iddfs`](crate::iddfs) or [`bfs`](crate::bfs) for shortest paths.
/// - The observer sees `g` = depth, `h` = 0 and `open` = stack length.
///
/// Memory: every node reached is kept (a record, a hash-set entry and a stack slot).
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Limits, dfs};
///
/// let report = dfs(&1u32, |&n| [n + 1, 2 * n], |&n| n == 10, &Limits::default(), ());
/// // `n + 1` first, skipping nodes already pushed (4 was pushed by 2): valid, not short.
/// assert_eq!(report.path(), Some(&[1, 2, 3, 6, 7, 8, 9, 10][..]));
/// assert_eq!(report.cost(), Some(7));
/// ```
#[inline]
pub fn dfs<N, FN, IN, FS, O>(
    start: &N,
    mut successors: FN,
    mut success: FS,
    limits: &Limits,
    mut observer: O,
) -> Report<N, usize>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
    O: Observer<N, usize>,
{
    let clock = Instant::now();
    let budget = Budget::new(limits);
    let memory =
        budget.memory(size_of::<(N, u32, u32)>() + size_of::<N>() + 1, 2, size_of::<u32>());
    let max_depth = limits.max_depth.unwrap_or(u64::MAX);
    let mut stats = Stats::default();
    // Records are (node, parent index, depth); the stack holds record indices.
    let mut arena: Vec<(N, u32, u32)> = Vec::new();
    let mut seen: FxHashSet<N> = FxHashSet::default();
    let mut stack: Vec<u32> = Vec::new();
    let mut growth = Growth::for_nodes::<N>(&budget);

    let outcome = 'search: {
        if memory.exceeds(1, 1) {
            break 'search Outcome::Stopped(Stop::Memory);
        }
        if observer.begin(&Begin::new(start, 0)) == Flow::Stop {
            break 'search Outcome::Stopped(Stop::Cancelled);
        }
        arena.push((start.clone(), ROOT, 0));
        seen.insert(start.clone());
        stack.push(0);

        while let Some(current) = stack.pop() {
            let (node, _, depth) = &arena[current as usize];
            let depth = *depth;
            if success(node) {
                let path = trace(&arena, current, |(node, parent, _)| (node, *parent));
                break 'search Outcome::Found { path, cost: depth as usize };
            }
            if u64::from(depth) >= max_depth {
                continue;
            }
            if let Err(stop) = budget.check_expand(stats.expanded) {
                break 'search Outcome::Stopped(stop);
            }
            if stats.expanded & 1023 == 0 {
                let more = Growth::next_entries(stats.generated, stats.expanded);
                let full = seen.capacity() - seen.len() < more
                    || arena.capacity() - arena.len() < more
                    || stack.capacity() - stack.len() < more;
                let held = seen.len();
                let grow = || {
                    seen.reserve(seen.len().max(more));
                    arena.reserve(arena.len().max(more));
                    stack.reserve(stack.len().max(more));
                };
                if let Err(stop) = growth.room(&budget, full, held, grow) {
                    break 'search Outcome::Stopped(stop);
                }
                // Each node is held twice: in the arena and in the seen set.
                if growth.must_release(&budget, 2 * arena.len()) {
                    break 'search Outcome::Stopped(Stop::Time);
                }
            }
            let (node, parent, _) = &arena[current as usize];
            let closed = usize::try_from(stats.expanded).unwrap_or(usize::MAX);
            let parent = arena.get(*parent as usize).map(|p| &p.0);
            let view = StackView { stack: &stack, arena: &arena };
            let event = Expand::new(node, depth as usize, 0)
                .with_parent(parent)
                .with_lists(stack.len(), closed)
                .with_frontier(&view);
            if observer.expand(&event) == Flow::Stop
                || tick(&mut observer, &stats, stack.len(), clock) == Flow::Stop
            {
                break 'search Outcome::Stopped(Stop::Cancelled);
            }
            let children = successors(node);
            stats.expanded += 1;
            let base = stack.len();

            for child in children {
                stats.generated += 1;
                if seen.contains(&child) {
                    continue;
                }
                if memory.exceeds(arena.len() + 1, stack.len() + 1) || arena.len() >= ROOT as usize
                {
                    break 'search Outcome::Stopped(Stop::Memory);
                }
                let event =
                    Generate::new(&child, &arena[current as usize].0, depth as usize + 1, 0);
                if observer.generate(&event) == Flow::Stop {
                    break 'search Outcome::Stopped(Stop::Cancelled);
                }
                seen.insert(child.clone());
                stack.push(arena.len() as u32);
                arena.push((child, current, depth + 1));
            }
            // Pushed in order, popped in reverse: flip so the first successor comes out first.
            stack[base..].reverse();
            stats.max_frontier = stats.max_frontier.max(stack.len() as u64);
        }
        Outcome::NotFound
    };
    stats.seconds = clock.elapsed().as_secs_f64();
    finish(&mut observer, outcome, stats)
}

/// The stack as observers see it: its top is popped first.
struct StackView<'a, N> {
    stack: &'a [u32],
    arena: &'a [(N, u32, u32)],
}

impl<N> Frontier<N, usize> for StackView<'_, N> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&N, usize, usize)) {
        for &at in self.stack.iter().rev().take(k) {
            let (node, _, depth) = &self.arena[at as usize];
            visit(node, *depth as usize, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::dfs;
    use crate::{Limits, Outcome};

    #[test]
    fn visits_every_node_of_a_finite_graph_once() {
        // A 4-cycle with a chord: 0-1-2-3-0 and 0-2.
        let successors = |&n: &u8| match n {
            0 => vec![1, 3, 2],
            1 => vec![0, 2],
            2 => vec![1, 3, 0],
            _ => vec![2, 0],
        };
        let report = dfs(&0, successors, |_| false, &Limits::default(), ());
        assert_eq!(report.outcome, Outcome::NotFound);
        assert_eq!(report.stats.expanded, 4);
        assert_eq!(report.stats.generated, 10);
    }

    #[test]
    fn depth_limit_stops_the_dive() {
        let limits = Limits { max_depth: Some(5), ..Limits::default() };
        let report = dfs(&0u32, |&n| [n + 1, n + 100], |&n| n == 100, &limits, ());
        // 0..5 are explored first, then the `+100` branches, deepest first.
        assert_eq!(report.path(), Some(&[0, 100][..]));
        let report = dfs(&0u32, |&n| [n + 1], |&n| n == 10, &limits, ());
        assert_eq!(report.outcome, Outcome::NotFound);
    }
}
