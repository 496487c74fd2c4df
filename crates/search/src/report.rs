//! The result shape shared by every search: [`Report`], [`Outcome`], [`Stats`].

use crate::Stop;

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<N, C> {
    /// A goal was reached.
    Found {
        /// The nodes from the start to the goal, both included; consecutive nodes are
        /// successors.
        path: Vec<N>,
        /// The sum of the edge costs along `path` (for unit-cost searches: `path.len() - 1`).
        cost: C,
    },
    /// The whole reachable space (within [`Limits::max_depth`](crate::Limits::max_depth) where
    /// it applies) was searched and holds no goal.
    NotFound,
    /// A limit or the observer stopped the search first.
    Stopped(Stop),
}

/// What a search did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Stats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors produced by the `successors` function (duplicates included).
    pub generated: u64,
    /// Largest open-list length (queue or stack entries); for IDDFS and IDA* the deepest path,
    /// in nodes.
    pub max_frontier: u64,
    /// Wall-clock seconds spent in the call.
    pub seconds: f64,
}

/// The outcome of a search with its statistics.
#[derive(Debug, Clone, PartialEq)]
pub struct Report<N, C> {
    /// How the search ended.
    pub outcome: Outcome<N, C>,
    /// What it did.
    pub stats: Stats,
}

impl<N, C: Copy> Report<N, C> {
    /// The path from the start to the goal, both included, if one was found.
    pub fn path(&self) -> Option<&[N]> {
        match &self.outcome {
            Outcome::Found { path, .. } => Some(path),
            _ => None,
        }
    }

    /// The cost of the path found, if any.
    pub fn cost(&self) -> Option<C> {
        match self.outcome {
            Outcome::Found { cost, .. } => Some(cost),
            _ => None,
        }
    }

    /// Why the search stopped early, if it did.
    pub fn stop(&self) -> Option<Stop> {
        match self.outcome {
            Outcome::Stopped(stop) => Some(stop),
            _ => None,
        }
    }

    /// Whether a goal was reached.
    pub fn is_found(&self) -> bool {
        matches!(self.outcome, Outcome::Found { .. })
    }

    /// The path, consuming the report.
    pub fn into_path(self) -> Option<Vec<N>> {
        match self.outcome {
            Outcome::Found { path, .. } => Some(path),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Outcome, Report, Stats};
    use crate::Stop;

    #[test]
    fn helpers_read_the_outcome() {
        let found = Report {
            outcome: Outcome::Found { path: vec![1, 2], cost: 1u8 },
            stats: Stats::default(),
        };
        assert_eq!(found.path(), Some(&[1, 2][..]));
        assert_eq!(found.cost(), Some(1));
        assert_eq!(found.stop(), None);
        assert!(found.is_found());
        assert_eq!(found.into_path(), Some(vec![1, 2]));

        let stopped: Report<u8, u8> =
            Report { outcome: Outcome::Stopped(Stop::Time), stats: Stats::default() };
        assert_eq!(stopped.path(), None);
        assert_eq!(stopped.cost(), None);
        assert_eq!(stopped.stop(), Some(Stop::Time));
        assert!(!stopped.is_found());
    }
}
