//! Watching a search: the [`Observer`] trait and [`Flow`].

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

/// Watches a search as it runs, in the manner of ripgrep's `Sink`.
///
/// Every method has a no-op default that returns [`Flow::Continue`], so an observer implements
/// only what it needs. The observer is a generic parameter of every search function: with `()`
/// or [`NoObserver`] all calls compile away and the search runs as if there were no observer.
/// Returning [`Flow::Stop`] from any method ends the search with
/// [`Stop::Cancelled`](crate::Stop::Cancelled).
///
/// For the unit-cost searches ([`bfs`](crate::bfs), [`dfs`](crate::dfs),
/// [`iddfs`](crate::iddfs)) the cost type `C` is `usize`, `g` is the depth and `h` is 0. For
/// searches without a heuristic ([`dijkstra`](crate::dijkstra)) `h` is 0.
///
/// # Examples
///
/// ```
/// use npuzzle_search::{Flow, Limits, Observer, Outcome, Stop, bfs};
///
/// /// Counts expansions and gives up after three.
/// struct Impatient(u32);
///
/// impl Observer<u32, usize> for Impatient {
///     fn expand(&mut self, _: &u32, _: usize, _: usize, _: usize, _: usize) -> Flow {
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
    /// A node is about to be expanded (its successors generated).
    ///
    /// `g` is its cost from the start, `h` its heuristic value. For the best-first searches
    /// `open` is the open-list length (it may count stale duplicates) and `closed` the number of
    /// expansions so far; for DFS `open` is the stack length; for IDDFS and IDA* `open` is the
    /// current path length and `closed` is 0.
    #[inline]
    fn expand(&mut self, node: &N, g: C, h: C, open: usize, closed: usize) -> Flow {
        let _ = (node, g, h, open, closed);
        Flow::Continue
    }

    /// A successor was queued: a new node, or a known one reached by a cheaper path
    /// (for IDDFS and IDA*: a successor within the current bound).
    #[inline]
    fn generate(&mut self, node: &N, g: C, h: C) -> Flow {
        let _ = (node, g, h);
        Flow::Continue
    }

    /// IDDFS and IDA* start a new iteration with this depth or cost bound.
    #[inline]
    fn bound(&mut self, bound: C) -> Flow {
        let _ = bound;
        Flow::Continue
    }
}

/// An observer that watches nothing; the same as `()`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct NoObserver;

impl<N, C> Observer<N, C> for NoObserver {}

impl<N, C> Observer<N, C> for () {}

impl<N, C, O: Observer<N, C> + ?Sized> Observer<N, C> for &mut O {
    #[inline]
    fn expand(&mut self, node: &N, g: C, h: C, open: usize, closed: usize) -> Flow {
        (**self).expand(node, g, h, open, closed)
    }

    #[inline]
    fn generate(&mut self, node: &N, g: C, h: C) -> Flow {
        (**self).generate(node, g, h)
    }

    #[inline]
    fn bound(&mut self, bound: C) -> Flow {
        (**self).bound(bound)
    }
}

#[cfg(test)]
mod tests {
    use super::{Flow, NoObserver, Observer};

    struct Counter(usize);

    impl Observer<u8, u8> for Counter {
        fn generate(&mut self, _: &u8, _: u8, _: u8) -> Flow {
            self.0 += 1;
            Flow::Continue
        }
    }

    fn drive<O: Observer<u8, u8>>(mut o: O) -> [Flow; 3] {
        [o.expand(&1, 0, 0, 0, 0), o.generate(&2, 1, 0), o.bound(3)]
    }

    #[test]
    fn defaults_continue() {
        assert_eq!(drive(()), [Flow::Continue; 3]);
        assert_eq!(drive(NoObserver), [Flow::Continue; 3]);
    }

    #[test]
    fn mutable_reference_forwards_to_the_observer() {
        let mut counter = Counter(0);
        let _ = drive(&mut counter);
        let _ = drive(&mut counter);
        assert_eq!(counter.0, 2);
    }
}
