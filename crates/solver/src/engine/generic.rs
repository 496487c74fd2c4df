//! The generic searches of `npuzzle-search` (A*, weighted A*, greedy, IDA*) over packed
//! positions of up to 32 cells, with a heuristic the packed engines do not have: a pattern
//! database ([`generic_pdb`]) or walking distance ([`generic_wd`]), both updated incrementally.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use npuzzle_core::{Board, Move, Moves, Parity};
use npuzzle_search as search;

use crate::engine::boards::Bounds;
use crate::engine::pdb_search::{self, PdbEngine};
use crate::heuristic::HeuristicKind;
use crate::heuristic::walking_distance::WalkingDistance;
use crate::options::{Algorithm, Options};
use crate::solution::{Limit, Reason, Solution, Stats, Status};

/// A packed position for the generic searches: cells and blank, plus incremental heuristic
/// state that equality ignores.
#[derive(Clone, Copy, Debug)]
struct Packed<S> {
    cells: [u8; 32],
    blank: u8,
    state: S,
}

impl<S> PartialEq for Packed<S> {
    fn eq(&self, other: &Self) -> bool {
        self.cells == other.cells
    }
}

impl<S> Eq for Packed<S> {}

impl<S> Hash for Packed<S> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.cells.hash(h);
    }
}

/// Runs the requested generic search with `engine`'s database as the heuristic.
pub(crate) fn generic_pdb(
    engine: &PdbEngine<'_>,
    board: &Board,
    goal: &Board,
    options: &Options,
) -> Solution {
    let root = engine.root(board);
    let start = Packed { cells: engine.cells_of(&root), blank: board.blank() as u8, state: root };
    run_generic(
        start,
        |n: &Packed<pdb_search::Node>| {
            let mut out = [None; 4];
            for (slot, &(_, to)) in out.iter_mut().zip(engine.moves(&n.state, 4)) {
                let child = engine.child(&n.state, to);
                *slot = Some((
                    Packed { cells: engine.cells_of(&child), blank: to, state: child },
                    1u32,
                ));
            }
            out.into_iter().flatten()
        },
        |n| engine.h(&n.state),
        board,
        goal,
        options,
        HeuristicKind::Pdb,
    )
}

/// Runs the requested generic search with walking distance as the heuristic.
pub(crate) fn generic_wd(
    wd: &WalkingDistance,
    board: &Board,
    goal: &Board,
    options: &Options,
) -> Solution {
    let w = board.width();
    let mut cells = [0u8; 32];
    for (c, &t) in board.tiles().iter().enumerate() {
        cells[c] = t as u8;
    }
    let start = Packed { cells, blank: board.blank() as u8, state: wd.states(board) };
    let n_cells = board.tiles().len();
    run_generic(
        start,
        |n: &Packed<(u32, u32)>| {
            let b = usize::from(n.blank);
            let (x, y) = (b % w, b / w);
            let h = n_cells / w;
            let targets = [
                (y > 0).then(|| b - w),
                (y + 1 < h).then(|| b + w),
                (x > 0).then(|| b - 1),
                (x + 1 < w).then(|| b + 1),
            ];
            targets
                .map(|to| {
                    to.map(|to| {
                        let tile = n.cells[to];
                        let (row, col) = n.state;
                        let state = if to + w == b {
                            (wd.row_step(row, u16::from(tile), true), col)
                        } else if to == b + w {
                            (wd.row_step(row, u16::from(tile), false), col)
                        } else {
                            (row, wd.col_step(col, u16::from(tile), to < b))
                        };
                        let mut cells = n.cells;
                        cells[b] = tile;
                        cells[to] = 0;
                        (Packed { cells, blank: to as u8, state }, 1u32)
                    })
                })
                .into_iter()
                .flatten()
        },
        |n| wd.value(n.state.0, n.state.1),
        board,
        goal,
        options,
        HeuristicKind::WalkingDistance,
    )
}

/// Runs the requested generic search and turns its report into a [`Solution`].
fn run_generic<S, FN, IN, FH>(
    start: Packed<S>,
    successors: FN,
    heuristic: FH,
    board: &Board,
    goal: &Board,
    options: &Options,
    kind: HeuristicKind,
) -> Solution
where
    S: Clone,
    FN: FnMut(&Packed<S>) -> IN,
    IN: IntoIterator<Item = (Packed<S>, u32)>,
    FH: FnMut(&Packed<S>) -> u32,
{
    let clock = Instant::now();
    let algorithm = match options.algorithm {
        Algorithm::Auto => Algorithm::IdaStar,
        a => a,
    };
    let mut solution = Solution::without_moves(Status::Unsolvable, algorithm, Some(kind));
    let parity = Parity::of(board, goal);
    if !parity.solvable() {
        solution.reason = Some(Reason::Unsolvable(parity));
        return solution;
    }
    let mut goal_cells = [0u8; 32];
    for (c, &t) in goal.tiles().iter().enumerate() {
        goal_cells[c] = t as u8;
    }
    let limits = search::Limits {
        max_nodes: options.limits.max_nodes,
        max_memory: options.limits.max_memory,
        node_bytes: 0,
        deadline: options.limits.timeout.map(|t| clock + t),
        cancel: options.limits.cancel.clone(),
        max_depth: None,
    };
    let success = |n: &Packed<S>| n.cells == goal_cells;
    // The start's estimate, raised by the bounds A* and IDA* prove as they go: the lower
    // bound an answer or a stopped search reports, as the other engines' do.
    let mut bounds = Bounds { observer: (), lower_bound: 0 };
    let b = &mut bounds;
    let report = match algorithm {
        Algorithm::AStar => search::astar(&start, successors, heuristic, success, &limits, b),
        Algorithm::WAStar => {
            search::wastar(&start, successors, heuristic, success, options.weight, &limits, b)
        }
        Algorithm::Greedy => search::greedy(&start, successors, heuristic, success, &limits, b),
        _ => search::idastar(&start, successors, heuristic, success, &limits, b),
    };
    solution.stats = Stats {
        expanded: report.stats.expanded,
        generated: report.stats.generated,
        max_frontier: report.stats.max_frontier,
        seconds: clock.elapsed().as_secs_f64(),
    };
    match report.outcome {
        search::Outcome::Found { path, .. } => {
            let w = board.width() as isize;
            let moves: Vec<Move> = path
                .windows(2)
                .filter_map(|p| {
                    let d = p[1].blank as isize - p[0].blank as isize;
                    let (dx, dy) = if d.abs() == 1 { (d, 0) } else { (0, d / w) };
                    Move::from_blank_delta(dx, dy)
                })
                .collect();
            solution.status = Status::Solved;
            // As long as its proven lower bound: optimal, whatever the algorithm.
            solution.optimal =
                algorithm.is_optimal() || moves.len() as u64 == u64::from(bounds.lower_bound);
            solution.lower_bound = Some(if solution.optimal {
                moves.len() as u64
            } else {
                u64::from(bounds.lower_bound)
            });
            solution.moves = Moves(moves);
        }
        search::Outcome::NotFound => {
            solution.status = Status::Limit;
            solution.reason = Some(Reason::Exhausted);
        }
        search::Outcome::Stopped(stop) => {
            solution.status = Status::Limit;
            solution.lower_bound = Some(u64::from(bounds.lower_bound));
            let limit = match stop {
                search::Stop::Nodes => Limit::Nodes(options.limits.max_nodes.unwrap_or(0)),
                search::Stop::Memory => Limit::Memory(options.limits.max_memory.unwrap_or(0)),
                search::Stop::Time => Limit::Time(options.limits.timeout.unwrap_or_default()),
                _ => Limit::Cancelled,
            };
            solution.reason = Some(Reason::Limit(limit));
        }
    }
    solution
}
