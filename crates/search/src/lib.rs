//! Problem-agnostic search algorithms: breadth-first, depth-first, iterative deepening,
//! Dijkstra, greedy best-first, A*, weighted A* and IDA*.
//!
//! The algorithms know nothing about the problem they solve. Each is a function that takes the
//! start node and closures in the manner of the `pathfinding` crate:
//!
//! - `successors(&node)` returns any `IntoIterator` of neighbours: `(node, edge cost)` pairs
//!   for the weighted searches, plain nodes for the unit-cost ones ([`bfs`], [`dfs`],
//!   [`iddfs`]). A fixed-size array or a small iterator avoids allocating per node;
//! - `heuristic(&node)` estimates the remaining cost ([`greedy`], [`astar`], [`wastar`],
//!   [`idastar`]);
//! - `success(&node)` recognises a goal;
//!
//! followed by the [`Limits`] of the search and an [`Observer`] (`()` for none). They share one
//! result shape, so they can be swapped by a flag:
//!
//! | function     | successors   | heuristic | returns                        |
//! |--------------|--------------|-----------|--------------------------------|
//! | [`bfs`]      | `N`          | —         | fewest edges                   |
//! | [`dfs`]      | `N`          | —         | some path                      |
//! | [`iddfs`]    | `N`          | —         | fewest edges, memory = path    |
//! | [`dijkstra`] | `(N, C)`     | —         | cheapest                       |
//! | [`greedy`]   | `(N, C)`     | `C`       | some path                      |
//! | [`astar`]    | `(N, C)`     | `C`       | cheapest if `h` admissible     |
//! | [`wastar`]   | `(N, C)`     | `C`       | ≤ `weight` × cheapest          |
//! | [`idastar`]  | `(N, C)`     | `C`       | cheapest if `h` admissible, memory = path |
//!
//! Every function returns a [`Report`]: an [`Outcome`] — [`Outcome::Found`] with the path
//! (start and goal included) and its cost, [`Outcome::NotFound`] when the space holds no
//! reachable goal, or [`Outcome::Stopped`] with the [`Stop`] reason when a limit or the observer
//! ended the search — and the [`Stats`] of the run. Running out of budget is a value, never a
//! panic; the memory limit exists so that a search is never killed for using too much.
//!
//! Costs are unsigned integers (the [`Cost`] trait); the unit-cost searches use `usize`.
//! The node type `N` is anything `Eq + Hash + Clone` (`Eq + Clone` for [`iddfs`] and
//! [`idastar`]); a packed integer state makes the searches fastest. Everything is generic and
//! monomorphised: there is no boxing or dynamic dispatch, and with the `()` observer the
//! observer calls compile to nothing.
//!
//! # Algorithms and references
//!
//! - A*: P. E. Hart, N. J. Nilsson, B. Raphael, "A Formal Basis for the Heuristic
//!   Determination of Minimum Cost Paths", IEEE Trans. SSC 4(2), 1968. Among equal `f = g + h`
//!   this implementation expands the larger `g` first and reopens nodes reached more cheaply.
//! - Weighted A*: I. Pohl, "Heuristic search viewed as path finding in a graph", Artificial
//!   Intelligence 1(3), 1970.
//! - IDA*: R. E. Korf, "Depth-first iterative-deepening: An optimal admissible tree search",
//!   Artificial Intelligence 27(1), 1985 (which also introduces iterative deepening, [`iddfs`]).
//!
//! The best-first searches ([`dijkstra`], [`greedy`], [`astar`], [`wastar`]) share one core: an
//! arena of node records, a hash map from node to arena index and a binary heap with lazy
//! deletion of stale entries. They differ only in the priority given to a node.
//!
//! # Examples
//!
//! A 5×5 grid with a wall; A* with the Manhattan distance and BFS agree on the shortest path.
//!
//! ```
//! use npuzzle_search::{Limits, Outcome, astar, bfs};
//!
//! // `#` cells are walls; moves go up, down, left and right.
//! let maze = ["..#..", "..#..", "..#..", ".....", "....."];
//! let open = |(x, y): (i32, i32)| {
//!     (0..5).contains(&x) && (0..5).contains(&y) && maze[y as usize].as_bytes()[x as usize] == b'.'
//! };
//! let neighbours = move |&(x, y): &(i32, i32)| {
//!     [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)].into_iter().filter(move |&p| open(p))
//! };
//! let goal = (4, 0);
//! let manhattan = |&(x, y): &(i32, i32)| (goal.0 - x).unsigned_abs() + (goal.1 - y).unsigned_abs();
//!
//! let limits = Limits::default();
//! let a = astar(&(0, 0), |p| neighbours(p).map(|q| (q, 1)), manhattan, |&p| p == goal, &limits, ());
//! let b = bfs(&(0, 0), neighbours, |&p| p == goal, &limits, ());
//! assert_eq!(a.cost(), Some(10));
//! assert_eq!(b.cost(), Some(10));
//! assert_eq!(a.path().map(|path| path[0]), Some((0, 0)));
//!
//! // Limits turn an expensive search into a value, not a hang or an out-of-memory kill.
//! let tight = Limits { max_nodes: Some(3), ..Limits::default() };
//! let stopped = bfs(&(0, 0), neighbours, |&p| p == goal, &tight, ());
//! assert!(matches!(stopped.outcome, Outcome::Stopped(_)));
//! ```

mod astar;
mod best_first;
mod bfs;
mod cost;
mod dfs;
mod dijkstra;
mod greedy;
mod idastar;
mod iddfs;
mod limits;
mod observer;
mod report;
mod wastar;

pub use astar::astar;
pub use bfs::bfs;
pub use cost::Cost;
pub use dfs::dfs;
pub use dijkstra::dijkstra;
pub use greedy::greedy;
pub use idastar::idastar;
pub use iddfs::iddfs;
pub use limits::{Budget, Limits, Stop};
pub use observer::{
    Begin, Bound, Expand, Finish, Flow, Frontier, Generate, NoObserver, Observer, Progress,
};
pub use report::{Outcome, Report, Stats};
pub use wastar::wastar;

/// Parent index of the start node in the arena-based searches.
pub(crate) const ROOT: u32 = u32::MAX;

/// Shows `observer` the search's statistics every 1024 expansions (never on the first).
#[inline]
pub(crate) fn tick<N, C, O: Observer<N, C>>(
    observer: &mut O,
    stats: &Stats,
    frontier: impl TryInto<u64>,
    clock: std::time::Instant,
) -> Flow {
    if stats.expanded & 1023 != 0 || stats.expanded == 0 {
        return Flow::Continue;
    }
    let frontier = frontier.try_into().unwrap_or(u64::MAX);
    observer.progress(&Progress::new(stats.expanded, stats.generated, frontier, clock))
}

/// Tells `observer` the search has ended and makes its report.
#[inline]
pub(crate) fn finish<N, C, O: Observer<N, C>>(
    observer: &mut O,
    outcome: Outcome<N, C>,
    stats: Stats,
) -> Report<N, C> {
    let stop = match &outcome {
        Outcome::Stopped(stop) => Some(*stop),
        _ => None,
    };
    observer.finish(&Finish::new(&stats, matches!(outcome, Outcome::Found { .. }), stop));
    Report { outcome, stats }
}

/// The path from the start to `records[last]`, following parent links (`ROOT` ends them).
pub(crate) fn trace<R, N: Clone>(
    records: &[R],
    mut last: u32,
    link: impl Fn(&R) -> (&N, u32),
) -> Vec<N> {
    let mut path = Vec::new();
    while last != ROOT {
        let (node, parent) = link(&records[last as usize]);
        path.push(node.clone());
        last = parent;
    }
    path.reverse();
    path
}
