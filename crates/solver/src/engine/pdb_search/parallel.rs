//! This engine on several threads: the shared split of [`crate::engine::split`], driven
//! through the engine's moves, bounds and passes.

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use super::{Node, Pass, PdbEngine, ThreadReport, Watch};
use crate::engine::common;
use crate::engine::split::{self, Split};
use crate::solution::Stats;

/// Expansions between two looks at the other threads: a thread searching a subtree that
/// became useless must not go on long.
const CHECK_EVERY: u64 = 256;

/// The engine and the solve's watch, as the split sees them.
struct Shared<'e, 'a> {
    engine: &'e PdbEngine<'a>,
    watch: &'e Watch<'e>,
    h0: u32,
}

impl<'e, 'a> Split for Shared<'e, 'a> {
    type Node = Node;
    type Pass<'p>
        = Pass<'p, 'a>
    where
        Self: 'p;
    const ITEMS_PER_THREAD: usize = 64;
    const MAX_BOUND: u32 = 255;

    fn h(&self, node: &Node) -> u32 {
        self.engine.h(node)
    }
    fn is_goal(&self, node: &Node) -> bool {
        node.md == 0
    }
    fn moves(&self, node: &Node) -> &[(u8, u8)] {
        self.engine.moves(node, 4)
    }
    fn prune(&self, state: u16, m: u8) -> u16 {
        self.engine.prune(state, m)
    }
    fn child(&self, node: &Node, to: u8) -> Node {
        self.engine.child(node, to)
    }
    fn pass<'p>(&'p self, best: &'p AtomicU32, threads: usize) -> Pass<'p, 'a> {
        let mut pass = Pass::new(self.engine, self.h0, self.watch, CHECK_EVERY);
        pass.best = Some(best);
        pass.share = threads as u64;
        let w = self.watch;
        pass.check_at = if threads > 1 {
            common::reserve(w.limits, &w.reserved, CHECK_EVERY, threads as u64).max(1)
        } else {
            common::until_check(w.limits, w.nodes.load(Relaxed), CHECK_EVERY, 1)
        };
        pass
    }
    fn done(&self) -> bool {
        self.watch.done.load(Relaxed)
    }
    fn proven(&self, bound: u32) {
        if let Some(sink) = self.watch.sink {
            sink(ThreadReport::Bound(bound));
        }
    }
    fn frontier_done(&self, expanded: u64, generated: u64) {
        self.watch.nodes.fetch_add(expanded, Relaxed);
        self.watch.reserved.fetch_add(expanded, Relaxed);
        self.watch.generated.fetch_add(generated, Relaxed);
    }
    fn max_nodes(&self) -> Option<u64> {
        self.watch.limits.max_nodes
    }
}

impl split::Pass for Pass<'_, '_> {
    type Node = Node;
    fn search(
        &mut self,
        node: &Node,
        prefix: &[u8],
        state: u16,
        h: u32,
        bound: u32,
        iteration: u32,
    ) -> bool {
        self.bound = bound;
        self.iteration = iteration;
        self.stopped = false;
        self.path[..prefix.len()].copy_from_slice(prefix);
        crate::engine::lanes::search(self, node, prefix.len() as u32, state, h)
    }
    fn path(&self) -> &[u8] {
        &self.path[..self.depth as usize]
    }
    fn finish(self) -> (u64, u64) {
        (self.expanded, self.generated)
    }
}

/// IDA* from `root` on `threads` threads, from the threshold `first` on (every one below
/// it searched already); `proven` is raised to the largest bound every path was searched
/// within.
pub(crate) fn search(
    engine: &PdbEngine<'_>,
    root: &Node,
    watch: &Watch<'_>,
    threads: usize,
    stats: &mut Stats,
    proven: &mut u32,
    first: u32,
) -> Option<Vec<u8>> {
    let shared = Shared { engine, watch, h0: engine.h(root) };
    let out = split::search_from(&shared, root, 0, threads, first);
    *proven = (*proven).max(out.proven);
    stats.expanded += out.frontier.0 + out.passes.0;
    stats.generated += out.frontier.1 + out.passes.1;
    let path = out.path?;
    stats.max_frontier = path.len() as u64;
    Some(path)
}
