//! The optimal 24-puzzle: Korf & Felner's 6-6-6-6 additive databases with reflection, served
//! by two stored tables through the board's symmetries; IDA* with incremental table indices,
//! move pruning by a finite-state machine, and one instance split over several threads.
//!
//! Everything here works for any board of at most 25 cells and any partition whose groups
//! are images of stored tables ([`Tables::new`]); the 24-puzzle is what it is built for.
//!
//! # The bound
//! A position's bound is its Manhattan distance plus twice the larger of two sums: the
//! entries of its four groups, and those of the four groups of its mirror about the main
//! diagonal (which fixes a corner goal's blank). Each entry is read from one of the two
//! stored tables at the group's placement and the blank's region mapped by a symmetry (see
//! [`Tables`] for why that is the group's own entry). A move changes one group on each side:
//! the search keeps each lookup's cell set (in its table's frame) and the order of its tiles,
//! and updates them with a shift of the mask, two population counts, two loads for the set's
//! rank, one for the blank's region (the blank now stands where the tile was) and at most one
//! shift-table load; the child's first-side sum is tested against the threshold before the
//! second side's entry is read.
//!
//! # The catalogue
//! When the nine other stored tables of a catalogue of seven 6-6-6-6 partitions are cached
//! (`npuzzle pdb build --partition catalogue`, about 2.5 minutes on two cores and 1 GB;
//! never built on demand), the bound is the largest of fourteen sums: each partition and its
//! mirror ([`Tables::catalogue`]; Holte, Felner, Newton, Meshulam and Furcy, "Maximizing
//! over multiple pattern databases speeds up heuristic search", *Artificial Intelligence*
//! 170, 2006; Clausecker and Reinefeld search the 24-puzzle with such catalogues). The six
//! added partitions move the boundaries between Korf & Felner's groups: the two blocks
//! around the blank's corner cut after the second column, the bottom half cut by rows, the
//! left column or a middle block as a group. A group shared by several partitions is looked
//! up once (28 distinct lookups for 56 sums' terms). A child reads first the entry of the
//! side largest at its parent; the other sides' entries are located and read only for the
//! children that side leaves under the threshold, one side at a time, so a child cut off
//! by one side reads no other. Per node that costs about three times Korf & Felner's
//! partition alone (two entries), and the search generates a quarter to a third as many
//! nodes: faster overall on the instances measured in the README.
//!
//! # The search
//! IDA* (Korf 1985). Each node carries the state of a [`Pruner`], which forbids move strings
//! with a shorter or equal equivalent (Taylor & Korf 1993); it replaces "never undo the last
//! move" and keeps an optimal solution reachable. With `threads > 1` the tree is cut at a
//! breadth-first frontier of a few thousand nodes, which the threads take in turn from a
//! shared counter at every iteration; a frontier node is skipped exactly when the sequential
//! search would have pruned one of its ancestors, so both search the same tree, and the
//! threshold only moves when every thread is done with it, so a solution is of optimal length.
//!
//! R. E. Korf, "Depth-first iterative-deepening: An optimal admissible tree search",
//! *Artificial Intelligence* 27(1), 1985; R. E. Korf and A. Felner, "Disjoint pattern database
//! heuristics", *Artificial Intelligence* 134, 2002; L. A. Taylor and R. E. Korf, "Pruning
//! duplicate nodes in depth-first search", AAAI 1993.

pub(crate) mod beam;
mod engine;
mod tables;

use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use std::time::Instant;

use npuzzle_core::{Board, Move, Moves, Parity};

pub use tables::{MAX_LOOKUPS, MAX_SIDES, Tables, TablesError};

use crate::engine::split::{self, Split};
use crate::heuristic::HeuristicKind;
use crate::options::{Algorithm, Limits};
use crate::pruning::Pruner;
use crate::solution::{Reason, Solution, Status};
use engine::{KorfEngine, Node, Pass, Watch};

/// The pruning machine's default string length: 2x2 circles and the longer duplicates found
/// up to this many moves. Measured on the 24-puzzle in the README's benchmark section: with
/// the catalogue, 12 moves instead of 10 generate 0.90x the nodes on #26 (5.23 G against
/// 5.80 G) in 0.92x the time on 2 threads.
pub const DEFAULT_PRUNING: usize = 12;

/// How a search is run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Threads for the one instance (1: sequential).
    pub threads: usize,
    /// The longest move string the pruning machine considers (2: only "never undo the last
    /// move"; see [`Pruner::new`]).
    pub pruning: usize,
    /// Look only for a path of at most this many moves, shorter than one at hand: a single
    /// iteration at this threshold (less one when its parity is not the board's), the
    /// frontier's subtrees of the smallest bound first. A path found is then not claimed
    /// optimal (unless as long as the bound); an iteration searched to its end without one
    /// answers [`Status::Limit`] with no reason (no limit fired) and proves the threshold
    /// plus two a lower bound. `None`: an optimal search.
    pub within: Option<u32>,
}

impl Default for Config {
    fn default() -> Config {
        Config { threads: 1, pruning: DEFAULT_PRUNING, within: None }
    }
}

/// A search's progress: reported at each new threshold and about once a second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// The threshold of the iteration under way: no solution is shorter.
    pub bound: u32,
    /// Nodes expanded so far (every iteration).
    pub expanded: u64,
    /// Nodes generated so far (every iteration).
    pub generated: u64,
    /// Seconds since the search started.
    pub seconds: f64,
}

/// Where progress goes: called from any of the search's threads.
pub type ProgressFn<'a> = dyn Fn(Progress) + Sync + 'a;

/// Why a board cannot be searched with these tables.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The board's size is not the tables'.
    #[error("the tables are for another board size")]
    Mismatch,
}

/// Solves `board` optimally with IDA* over `tables`, under `limits`, reporting to
/// `progress`. An unsolvable board is answered [`Status::Unsolvable`] at once; running out of
/// nodes, time or a cancel is [`Status::Limit`] with the threshold reached as the lower bound.
///
/// # Errors
/// [`SearchError::Mismatch`] when the board is not of the tables' size.
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal, Size};
/// use npuzzle_solver::heuristic::pdb::{Database, Partition};
/// use npuzzle_solver::engine::twentyfour::{self, Config, Tables};
/// use npuzzle_solver::{Limits, Status};
/// let goal = Goal::BlankFirst.board(Size::square(3)?)?;
/// let partition = Partition::parse("1,2,3,4/5,6,7,8", &goal)?;
/// let base = Database::build(&goal, &partition, 1, &|_| {}, None)?;
/// let tables = Tables::new(base, &goal, &partition)?;
/// let board: Board = "8 6 7/2 5 4/3 0 1".parse()?;
/// let s = twentyfour::solve(&tables, &board, &Limits::default(), &Config::default(), None)?;
/// assert_eq!(s.status, Status::Solved);
/// let mut end = board.clone();
/// end.apply_all(&s.moves)?;
/// assert_eq!(end, goal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(
    tables: &Tables,
    board: &Board,
    limits: &Limits,
    config: &Config,
    progress: Option<&ProgressFn<'_>>,
) -> Result<Solution, SearchError> {
    let clock = Instant::now();
    if board.size() != tables.goal().size() {
        return Err(SearchError::Mismatch);
    }
    let goal = tables.goal();
    let mut solution =
        Solution::without_moves(Status::Unsolvable, Algorithm::IdaStar, Some(HeuristicKind::Pdb));
    let parity = Parity::of(board, goal);
    if !parity.solvable() {
        solution.reason = Some(Reason::Unsolvable(parity));
        solution.stats.seconds = clock.elapsed().as_secs_f64();
        return Ok(solution);
    }
    let pruner = Pruner::shared(config.pruning);
    let watch = Watch {
        limits,
        deadline: limits.timeout.map(|t| clock + t),
        started: clock,
        done: Default::default(),
        expanded: Default::default(),
        generated: Default::default(),
        reserved: Default::default(),
        which: Default::default(),
        reported: Default::default(),
        progress,
        bound: AtomicU32::new(0),
    };
    // Korf & Felner's partition alone keeps its nodes small; a catalogue needs room for
    // every lookup and side.
    let found = if tables.lookups.len() <= SMALL_LOOKUPS && tables.sides.len() <= 2 {
        search::<SMALL_LOOKUPS, 2>(tables, board, &watch, config, pruner)
    } else {
        search::<{ tables::MAX_LOOKUPS }, { tables::MAX_SIDES }>(
            tables, board, &watch, config, pruner,
        )
    };
    solution.stats.expanded = watch.expanded.load(Relaxed);
    solution.stats.generated = watch.generated.load(Relaxed);
    solution.stats.seconds = clock.elapsed().as_secs_f64();
    // Within a threshold, the watch's bound counts only once that iteration is searched.
    let bound = match config.within {
        Some(within) if watch.bound.load(Relaxed) <= within => tables.estimate(board),
        _ => watch.bound.load(Relaxed),
    };
    match found {
        Some(path) => {
            solution.status = Status::Solved;
            let length = path.len() as u64;
            solution.optimal = config.within.is_none() || length <= u64::from(bound);
            solution.stats.max_frontier = length;
            solution.lower_bound =
                Some(if config.within.is_none() { length } else { u64::from(bound).min(length) });
            solution.moves = Moves(path.iter().map(|&m| Move::ALL[usize::from(m)]).collect());
        }
        None => {
            solution.status = Status::Limit;
            solution.lower_bound = Some(u64::from(bound));
            // Within a threshold, a search may end with no path and no limit fired.
            let none_fired = config.within.is_some() && !watch.done.load(Relaxed);
            let limit = crate::engine::common::limit(watch.which.load(Relaxed), limits);
            solution.reason = (!none_fired).then_some(Reason::Limit(limit));
        }
    }
    Ok(solution)
}

/// The lookups of the small engine (Korf & Felner's partition and its mirror: 8).
const SMALL_LOOKUPS: usize = 16;

/// IDA* over `tables` with an engine of `L` lookups and `S` sides; every count goes to
/// the watch.
fn search<const L: usize, const S: usize>(
    tables: &Tables,
    board: &Board,
    watch: &Watch<'_>,
    config: &Config,
    pruner: &Pruner,
) -> Option<Vec<u8>> {
    let engine = KorfEngine::<L, S>::new(tables, pruner);
    let root = engine.root(tables, board);
    watch.bound.store(engine.h(&root), Relaxed);
    if let Some(within) = config.within {
        // The threshold of the root's parity at most `within`.
        let h = engine.h(&root);
        if within < h {
            return None;
        }
        let threshold = within - (within - h) % 2;
        let shared = Shared { engine: &engine, watch, h0: h };
        let out =
            split::search_within(&shared, &root, pruner.start(), config.threads.max(1), threshold);
        if out.path.is_none() && !watch.done.load(Relaxed) {
            watch.bound.store(threshold + 2, Relaxed);
        }
        return out.path;
    }
    if config.threads > 1 {
        parallel(&engine, &root, watch, config.threads, pruner.start())
    } else {
        sequential(&engine, &root, watch, pruner.start())
    }
}

/// No bound passes this (the longest 5x5 solutions are about 150 moves; paths are `u8`-indexed).
const MAX_BOUND: u32 = 250;

fn sequential<const L: usize, const S: usize>(
    engine: &KorfEngine<'_, L, S>,
    root: &Node<L, S>,
    watch: &Watch<'_>,
    start: u16,
) -> Option<Vec<u8>> {
    let mut bound = engine.h(root);
    loop {
        watch.bound.store(bound, Relaxed);
        watch.report(true);
        let mut pass = Pass::new(engine, bound, watch);
        let found = pass.dfs(root, 0, start);
        pass.flush();
        if found {
            return Some(pass.path[..pass.depth as usize].to_vec());
        }
        if pass.stopped || pass.next_bound > MAX_BOUND {
            return None;
        }
        bound = pass.next_bound;
    }
}

/// Expansions between two looks at the other threads in a parallel search: a thread
/// searching a subtree that became useless must not go on long.
const PARALLEL_CHECK_EVERY: u64 = 1 << 11;

/// The engine and the solve's watch, as the shared split ([`crate::engine::split`]) sees
/// them.
struct Shared<'e, 'a, const L: usize, const S: usize> {
    engine: &'e KorfEngine<'a, L, S>,
    watch: &'e Watch<'e>,
    h0: u32,
}

impl<'e, 'a, const L: usize, const S: usize> Split for Shared<'e, 'a, L, S> {
    type Node = Node<L, S>;
    type Pass<'p>
        = Pass<'p, 'a, L, S>
    where
        Self: 'p;
    // Subtrees below a 24-puzzle frontier differ by orders of magnitude: more items even
    // them out.
    const ITEMS_PER_THREAD: usize = 512;
    const MAX_BOUND: u32 = MAX_BOUND;

    fn h(&self, node: &Node<L, S>) -> u32 {
        self.engine.h(node)
    }
    fn is_goal(&self, node: &Node<L, S>) -> bool {
        node.md == 0
    }
    fn moves(&self, node: &Node<L, S>) -> &[(u8, u8)] {
        self.engine.moves(node)
    }
    fn prune(&self, state: u16, m: u8) -> u16 {
        self.engine.prune(state, m)
    }
    fn child(&self, node: &Node<L, S>, to: u8) -> Node<L, S> {
        self.engine.child(node, to)
    }
    fn pass<'p>(&'p self, best: &'p AtomicU32, threads: usize) -> Pass<'p, 'a, L, S> {
        let mut pass = Pass::new(self.engine, self.h0, self.watch);
        pass.check_every(PARALLEL_CHECK_EVERY, threads as u64);
        pass.best = Some(best);
        pass
    }
    fn done(&self) -> bool {
        self.watch.done.load(Relaxed)
    }
    fn proven(&self, bound: u32) {
        self.watch.bound.fetch_max(bound, Relaxed);
        self.watch.report(true);
    }
    fn frontier_done(&self, expanded: u64, generated: u64) {
        self.watch.expanded.fetch_add(expanded, Relaxed);
        self.watch.reserved.fetch_add(expanded, Relaxed);
        self.watch.generated.fetch_add(generated, Relaxed);
    }
    fn max_nodes(&self) -> Option<u64> {
        self.watch.limits.max_nodes
    }
}

impl<const L: usize, const S: usize> split::Pass for Pass<'_, '_, L, S> {
    type Node = Node<L, S>;
    fn search(
        &mut self,
        node: &Node<L, S>,
        prefix: &[u8],
        state: u16,
        _h: u32,
        bound: u32,
        iteration: u32,
    ) -> bool {
        self.bound = bound;
        self.iteration = iteration;
        self.stopped = false;
        self.path[..prefix.len()].copy_from_slice(prefix);
        self.dfs(node, prefix.len() as u32, state)
    }
    fn path(&self) -> &[u8] {
        &self.path[..self.depth as usize]
    }
    fn finish(mut self) -> (u64, u64) {
        self.flush();
        (self.expanded, self.generated)
    }
}

/// IDA* on `threads` threads through the shared split; every count goes to the watch.
fn parallel<const L: usize, const S: usize>(
    engine: &KorfEngine<'_, L, S>,
    root: &Node<L, S>,
    watch: &Watch<'_>,
    threads: usize,
    start: u16,
) -> Option<Vec<u8>> {
    let shared = Shared { engine, watch, h0: engine.h(root) };
    let out = split::search(&shared, root, start, threads);
    watch.bound.fetch_max(out.proven, Relaxed);
    out.path
}
