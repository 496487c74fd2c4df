//! Glimpses of a fast search: [`Sampler`], for [`Solver::solve_sampled`](crate::Solver::solve_sampled).
//!
//! The packed engines show no node to an observer (a call per node would cost more than the
//! node). A sampler is asked, where the engine checks its limits anyway (about every 1024
//! expansions), whether it wants to see the node about to be expanded; only then is the
//! node unpacked into a [`Board`] and shown through [`Observer::expand`], with its costs,
//! the list sizes and (for A* and breadth-first search) a view of the open list. After a
//! sample the engine asks again at the very next node, so a sampler that keeps saying yes
//! sees consecutive nodes (to show the last few expanded, to single-step, or to pace).

use npuzzle_core::{Board, Size};
use npuzzle_search::{Begin, Bound, Expand, Finish, Flow, Frontier, Generate, Observer, Progress};

/// An observer that looks at some of the nodes of a fast search.
///
/// Its [`Observer::expand`] sees only the nodes it asked for, each the node about to be
/// expanded after `expanded` others (the count [`Sampler::wants`] was given); the other
/// events come as from [`Solver::solve_observed`](crate::Solver::solve_observed).
pub trait Sampler: Observer<Board, u32> {
    /// Whether to show the node about to be expanded after `expanded` expansions. Asked
    /// about every 1024 expansions, and at every node after a node was shown.
    fn wants(&mut self, expanded: u64) -> bool;

    /// Whether it may want samples at all (`false` lets an engine search on several threads,
    /// which show none). Yes by default.
    fn samples(&self) -> bool {
        true
    }
}

impl<S: Sampler + ?Sized> Sampler for &mut S {
    fn wants(&mut self, expanded: u64) -> bool {
        (**self).wants(expanded)
    }
    fn samples(&self) -> bool {
        (**self).samples()
    }
}

/// Wants no sample.
impl Sampler for () {
    fn wants(&mut self, _: u64) -> bool {
        false
    }
    fn samples(&self) -> bool {
        false
    }
}

/// An observer that wants no sample: what [`Solver::solve_observed`](crate::Solver::solve_observed) runs with.
pub(crate) struct Unsampled<O>(pub(crate) O);

impl<O: Observer<Board, u32>> Observer<Board, u32> for Unsampled<O> {
    fn begin(&mut self, e: &Begin<'_, Board, u32>) -> Flow {
        self.0.begin(e)
    }
    fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        self.0.expand(e)
    }
    fn generate(&mut self, e: &Generate<'_, Board, u32>) -> Flow {
        self.0.generate(e)
    }
    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        self.0.bound(e)
    }
    fn progress(&mut self, e: &Progress) -> Flow {
        self.0.progress(e)
    }
    fn finish(&mut self, e: &Finish<'_>) {
        self.0.finish(e);
    }
}

impl<O: Observer<Board, u32>> Sampler for Unsampled<O> {
    fn wants(&mut self, _: u64) -> bool {
        false
    }
    fn samples(&self) -> bool {
        false
    }
}

/// Shows a sampler the boards of a search towards a relabelled goal in the caller's own
/// numbering: `names[t]` is the caller's name of canonical tile `t`.
pub(crate) struct Renamed<S> {
    pub(crate) inner: S,
    pub(crate) names: Option<Vec<u16>>,
}

fn rename(names: &[u16], board: &Board) -> Option<Board> {
    let tiles: Option<Vec<u16>> =
        board.tiles().iter().map(|&t| names.get(usize::from(t)).copied()).collect();
    Board::new(board.size(), tiles?).ok()
}

/// The open list of a relabelled search, renamed.
struct RenamedFrontier<'a> {
    names: &'a [u16],
    inner: &'a dyn Frontier<Board, u32>,
}

impl Frontier<Board, u32> for RenamedFrontier<'_> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&Board, u32, u32)) {
        self.inner.soonest(k, &mut |b, g, h| {
            if let Some(b) = rename(self.names, b) {
                visit(&b, g, h);
            }
        });
    }
}

impl<S: Sampler> Observer<Board, u32> for Renamed<S> {
    fn begin(&mut self, e: &Begin<'_, Board, u32>) -> Flow {
        self.inner.begin(e)
    }
    fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        let Some(names) = &self.names else { return self.inner.expand(e) };
        let Some(board) = rename(names, e.node()) else { return Flow::Continue };
        let mut event = Expand::new(&board, e.g(), e.h()).with_lists(e.open(), e.closed());
        let frontier;
        if let Some(inner) = e.frontier() {
            frontier = RenamedFrontier { names, inner };
            event = event.with_frontier(&frontier);
        }
        self.inner.expand(&event)
    }
    fn generate(&mut self, e: &Generate<'_, Board, u32>) -> Flow {
        self.inner.generate(e)
    }
    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        self.inner.bound(e)
    }
    fn progress(&mut self, e: &Progress) -> Flow {
        self.inner.progress(e)
    }
    fn finish(&mut self, e: &Finish<'_>) {
        self.inner.finish(e);
    }
}

impl<S: Sampler> Sampler for Renamed<S> {
    fn wants(&mut self, expanded: u64) -> bool {
        self.inner.wants(expanded)
    }
    fn samples(&self) -> bool {
        self.inner.samples()
    }
}

/// The board a packed position stands for: 4 bits per cell in reading order.
pub(crate) fn unpack(size: Size, rows: u64) -> Option<Board> {
    let tiles = (0..size.cells()).map(|i| ((rows >> (4 * i)) & 0xF) as u16).collect();
    Board::new(size, tiles).ok()
}

#[cfg(test)]
mod tests {
    use npuzzle_core::{Goal, Scrambler, Size};
    use npuzzle_search::Progress;

    use super::*;
    use crate::{Algorithm, Heuristic, Options, Solver};

    /// A board with g and h.
    type Costed = (Board, u32, u32);
    /// What a sample showed: expansions before it, the board, g, h, open, closed, soonest.
    type Seen = (u64, Board, u32, u32, usize, usize, Vec<Costed>);

    /// Wants the first `first` nodes, then one at each check; keeps what it saw.
    #[derive(Default)]
    struct Every {
        first: u64,
        asked: Vec<u64>,
        seen: Vec<Seen>,
        progress: u64,
    }

    impl Observer<Board, u32> for Every {
        fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
            let mut soonest = Vec::new();
            if let Some(f) = e.frontier() {
                f.soonest(5, &mut |b, g, h| soonest.push((b.clone(), g, h)));
            }
            let at = *self.asked.last().unwrap();
            self.seen.push((at, e.node().clone(), e.g(), e.h(), e.open(), e.closed(), soonest));
            Flow::Continue
        }
        fn progress(&mut self, e: &Progress) -> Flow {
            self.progress = e.expanded();
            Flow::Continue
        }
    }

    impl Sampler for Every {
        fn wants(&mut self, expanded: u64) -> bool {
            self.asked.push(expanded);
            expanded < self.first || expanded % 1024 == 0
        }
    }

    #[test]
    fn samples_show_the_nodes_asked_for_and_the_answer_is_solves() {
        let size = Size::square(4).unwrap();
        let solver = Solver::new();
        for goal in [Goal::BlankLast, Goal::Snail] {
            let goal = goal.board(size).unwrap();
            let board = Scrambler::new(5).walk(&goal, 60).0;
            for algorithm in [Algorithm::AStar, Algorithm::IdaStar, Algorithm::Bfs] {
                let options = Options {
                    algorithm,
                    heuristic: Heuristic::Manhattan,
                    limits: crate::Limits { max_nodes: Some(200_000), ..Default::default() },
                    ..Options::default()
                };
                let plain = solver.solve(&board, &goal, &options).unwrap();
                let mut every = Every { first: 20, ..Every::default() };
                let sampled = solver.solve_sampled(&board, &goal, &options, &mut every).unwrap();
                assert_eq!(sampled.moves, plain.moves, "{algorithm:?}");
                assert_eq!(sampled.stats.expanded, plain.stats.expanded, "{algorithm:?}");
                // The first 20 nodes, one by one, the start first, in the goal's numbering.
                let counts: Vec<u64> = every.seen.iter().map(|s| s.0).collect();
                assert_eq!(counts[..20], (0..20).collect::<Vec<_>>()[..], "{algorithm:?}");
                assert_eq!(every.seen[0].1, board);
                assert!(counts.iter().all(|&n| n < plain.stats.expanded.max(1)));
                for (_, b, g, h, open, _, soonest) in &every.seen {
                    // Each board is a real position of the search: as far from the goal as
                    // its h says (Manhattan), at most g from the start.
                    let map = crate::heuristic::GoalMap::new(&goal);
                    if algorithm != Algorithm::Bfs {
                        assert_eq!(map.estimate(crate::HeuristicKind::Manhattan, b.tiles()), *h);
                    }
                    let _ = (g, open);
                    if algorithm == Algorithm::AStar {
                        for (sb, sg, sh) in soonest {
                            assert!(sg + sh >= g + h, "{sb}: the open list's best come later");
                        }
                    }
                }
                // Consecutive nodes are one move apart for IDA* (a depth-first walk: the
                // second node is a child of the first).
                if algorithm == Algorithm::IdaStar {
                    let (a, b) = (&every.seen[0].1, &every.seen[1].1);
                    assert!(a == b || a.legal_moves().any(|m| a.moved(m).as_ref() == Some(b)));
                }
                if algorithm != Algorithm::IdaStar {
                    assert!(!every.seen[1].6.is_empty(), "{algorithm:?}: an open list");
                }
            }
        }
    }
}
