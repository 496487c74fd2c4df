//! Showing a search over the general engine's nodes to an observer of [`Board`]s.

use npuzzle_core::Board;
use npuzzle_search::{Begin, Bound, Expand, Finish, Flow, Frontier, Generate, Observer, Progress};

use crate::engine::general;

/// Converts the general engine's nodes into boards for `observer`; the unit-cost searches'
/// `usize` costs become `u32` (no board is deeper than that).
pub(crate) struct AsBoards<'a, O> {
    pub(crate) engine: &'a general::GeneralEngine,
    pub(crate) observer: O,
}

fn cost(c: usize) -> u32 {
    u32::try_from(c).unwrap_or(u32::MAX)
}

/// A search's open list over the general engine's nodes, with the conversion of its costs.
type NodeFrontier<'a, C> = (&'a dyn Frontier<general::Node, C>, fn(C) -> u32);

/// The open list of a search over the general engine's nodes, seen as boards.
struct BoardFrontier<'a, C> {
    engine: &'a general::GeneralEngine,
    inner: &'a dyn Frontier<general::Node, C>,
    cost: fn(C) -> u32,
}

impl<C> Frontier<Board, u32> for BoardFrontier<'_, C> {
    fn soonest(&self, k: usize, visit: &mut dyn FnMut(&Board, u32, u32)) {
        self.inner.soonest(k, &mut |node, g, h| {
            if let Some(board) = self.engine.board(node) {
                visit(&board, (self.cost)(g), (self.cost)(h));
            }
        });
    }
}

impl<O: Observer<Board, u32>> AsBoards<'_, O> {
    fn board(&self, node: &general::Node) -> Option<Board> {
        self.engine.board(node)
    }

    fn on_begin(&mut self, start: &general::Node, h: u32) -> Flow {
        match self.board(start) {
            Some(b) => self.observer.begin(&Begin::new(&b, h)),
            None => Flow::Continue,
        }
    }

    fn on_expand<C>(
        &mut self,
        e: (&general::Node, Option<&general::Node>, u32, u32),
        lists: (usize, usize),
        frontier: Option<NodeFrontier<'_, C>>,
    ) -> Flow {
        let (node, parent, g, h) = e;
        let Some(b) = self.board(node) else { return Flow::Continue };
        let p = parent.and_then(|p| self.board(p));
        let event = Expand::new(&b, g, h).with_parent(p.as_ref()).with_lists(lists.0, lists.1);
        match frontier {
            Some((inner, cost)) => {
                let view = BoardFrontier { engine: self.engine, inner, cost };
                self.observer.expand(&event.with_frontier(&view))
            }
            None => self.observer.expand(&event),
        }
    }

    fn on_generate(
        &mut self,
        node: &general::Node,
        parent: &general::Node,
        g: u32,
        h: u32,
    ) -> Flow {
        match (self.board(node), self.board(parent)) {
            (Some(b), Some(p)) => self.observer.generate(&Generate::new(&b, &p, g, h)),
            _ => Flow::Continue,
        }
    }
}

impl<O: Observer<Board, u32>> Observer<general::Node, u32> for AsBoards<'_, O> {
    fn begin(&mut self, e: &Begin<'_, general::Node, u32>) -> Flow {
        self.on_begin(e.start(), e.h())
    }

    fn expand(&mut self, e: &Expand<'_, general::Node, u32>) -> Flow {
        let frontier = e.frontier().map(|f| (f, (|c| c) as fn(u32) -> u32));
        self.on_expand((e.node(), e.parent(), e.g(), e.h()), (e.open(), e.closed()), frontier)
    }

    fn generate(&mut self, e: &Generate<'_, general::Node, u32>) -> Flow {
        self.on_generate(e.node(), e.parent(), e.g(), e.h())
    }

    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        self.observer.bound(e)
    }

    fn progress(&mut self, e: &Progress) -> Flow {
        self.observer.progress(e)
    }

    fn finish(&mut self, e: &Finish<'_>) {
        self.observer.finish(e);
    }
}

impl<O: Observer<Board, u32>> Observer<general::Node, usize> for AsBoards<'_, O> {
    fn begin(&mut self, e: &Begin<'_, general::Node, usize>) -> Flow {
        self.on_begin(e.start(), cost(e.h()))
    }

    fn expand(&mut self, e: &Expand<'_, general::Node, usize>) -> Flow {
        let frontier = e.frontier().map(|f| (f, cost as fn(usize) -> u32));
        let node = (e.node(), e.parent(), cost(e.g()), cost(e.h()));
        self.on_expand(node, (e.open(), e.closed()), frontier)
    }

    fn generate(&mut self, e: &Generate<'_, general::Node, usize>) -> Flow {
        self.on_generate(e.node(), e.parent(), cost(e.g()), cost(e.h()))
    }

    fn bound(&mut self, e: &Bound<usize>) -> Flow {
        self.observer.bound(&Bound::new(cost(e.bound()), e.expanded()))
    }

    fn progress(&mut self, e: &Progress) -> Flow {
        self.observer.progress(e)
    }

    fn finish(&mut self, e: &Finish<'_>) {
        self.observer.finish(e);
    }
}

/// Tracks the largest bound a generic search reports (its proven lower bound), passing
/// everything on to `observer`.
pub(crate) struct Bounds<O> {
    pub(crate) observer: O,
    pub(crate) lower_bound: u32,
}

impl<N, O: Observer<N, u32>> Observer<N, u32> for Bounds<O> {
    fn begin(&mut self, e: &Begin<'_, N, u32>) -> Flow {
        self.lower_bound = self.lower_bound.max(e.h());
        self.observer.begin(e)
    }

    fn expand(&mut self, e: &Expand<'_, N, u32>) -> Flow {
        self.observer.expand(e)
    }

    fn generate(&mut self, e: &Generate<'_, N, u32>) -> Flow {
        self.observer.generate(e)
    }

    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        self.lower_bound = self.lower_bound.max(e.bound());
        self.observer.bound(e)
    }

    fn progress(&mut self, e: &Progress) -> Flow {
        self.observer.progress(e)
    }

    fn finish(&mut self, e: &Finish<'_>) {
        self.observer.finish(e);
    }
}

impl<N, O: Observer<N, usize>> Observer<N, usize> for Bounds<O> {
    fn begin(&mut self, e: &Begin<'_, N, usize>) -> Flow {
        self.observer.begin(e)
    }

    fn expand(&mut self, e: &Expand<'_, N, usize>) -> Flow {
        self.observer.expand(e)
    }

    fn generate(&mut self, e: &Generate<'_, N, usize>) -> Flow {
        self.observer.generate(e)
    }

    fn bound(&mut self, e: &Bound<usize>) -> Flow {
        self.lower_bound = self.lower_bound.max(cost(e.bound()));
        self.observer.bound(e)
    }

    fn progress(&mut self, e: &Progress) -> Flow {
        self.observer.progress(e)
    }

    fn finish(&mut self, e: &Finish<'_>) {
        self.observer.finish(e);
    }
}
