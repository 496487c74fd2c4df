//! What a caller asks of the solver: algorithm, heuristic, weight and limits.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use thiserror::Error;

/// A search algorithm, or an engine the solver can run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Pick per board: see [`crate::solve`].
    #[default]
    Auto,
    /// Breadth-first search: optimal, memory-hungry.
    Bfs,
    /// Graph depth-first search with a closed set: some solution, usually very long.
    Dfs,
    /// Iterative-deepening depth-first search: optimal, no memory, exponential time.
    Iddfs,
    /// Uniform-cost search: optimal; on unit costs it expands like BFS.
    Dijkstra,
    /// Greedy best-first on the heuristic alone: fast, not optimal.
    Greedy,
    /// A*: optimal with an admissible heuristic.
    AStar,
    /// Weighted A* (`f = g + w*h`): at most `w` times the optimal length.
    WAStar,
    /// Iterative-deepening A* (Korf 1985): optimal, memory linear in the depth.
    IdaStar,
    /// Exact distance table (boards of at most 9 cells): optimal, instant after the build.
    Table,
    /// Reduction (place rows and columns, finish the last 3x3 exactly): any size, not optimal.
    Reduction,
    /// Near-optimal engine (beam search, then IDA* over windows of the path) with a proven
    /// lower bound: boards of at most [`crate::engine::near::MAX_CELLS`] cells; see [`crate::engine::near`].
    Near,
}

impl Algorithm {
    /// Every algorithm name accepted on the command line.
    pub const NAMES: &'static [&'static str] = &[
        "auto",
        "bfs",
        "dfs",
        "iddfs",
        "dijkstra",
        "greedy",
        "astar",
        "wastar",
        "idastar",
        "table",
        "reduction",
        "near",
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Bfs => "bfs",
            Algorithm::Dfs => "dfs",
            Algorithm::Iddfs => "iddfs",
            Algorithm::Dijkstra => "dijkstra",
            Algorithm::Greedy => "greedy",
            Algorithm::AStar => "astar",
            Algorithm::WAStar => "wastar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Table => "table",
            Algorithm::Reduction => "reduction",
            Algorithm::Near => "near",
        }
    }

    /// Whether the algorithm uses a heuristic.
    pub fn is_informed(self) -> bool {
        matches!(
            self,
            Algorithm::Greedy | Algorithm::AStar | Algorithm::WAStar | Algorithm::IdaStar
        )
    }

    /// Whether a solution it returns is proven shortest (given an admissible heuristic).
    pub fn is_optimal(self) -> bool {
        matches!(
            self,
            Algorithm::Bfs
                | Algorithm::Iddfs
                | Algorithm::Dijkstra
                | Algorithm::AStar
                | Algorithm::IdaStar
                | Algorithm::Table
        )
    }
}

/// A heuristic: a lower bound on the number of moves left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Heuristic {
    /// Pick the strongest one available for the board.
    #[default]
    Auto,
    /// Misplaced tiles, blank excluded.
    Hamming,
    /// Sum of each tile's taxicab distance to its goal cell.
    Manhattan,
    /// Manhattan plus two moves for each tile that must leave its row or column to let
    /// another tile of that line pass (Hansson, Mayer & Yung 1992).
    LinearConflict,
    /// Walking distance (Takahashi) for boards up to 4x4, with linear conflict where that is
    /// larger; see [`crate::heuristic::walking_distance`].
    WalkingDistance,
    /// Additive disjoint pattern databases (Korf & Felner 2002), with the mirror lookup where
    /// the goal allows it; see [`crate::heuristic::pdb`].
    Pdb,
}

impl Heuristic {
    /// Every heuristic name accepted on the command line.
    pub const NAMES: &'static [&'static str] =
        &["auto", "hamming", "manhattan", "linear-conflict", "walking-distance", "pdb"];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Heuristic::Auto => "auto",
            Heuristic::Hamming => "hamming",
            Heuristic::Manhattan => "manhattan",
            Heuristic::LinearConflict => "linear-conflict",
            Heuristic::WalkingDistance => "walking-distance",
            Heuristic::Pdb => "pdb",
        }
    }
}

/// An unknown algorithm or heuristic name.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown {kind} {name:?}: expected one of {expected}")]
pub struct UnknownName {
    /// `algorithm` or `heuristic`.
    pub kind: &'static str,
    /// The name given (shortened).
    pub name: String,
    /// The accepted names, comma-separated.
    pub expected: String,
}

impl FromStr for Algorithm {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Algorithm, UnknownName> {
        let all = [
            Algorithm::Auto,
            Algorithm::Bfs,
            Algorithm::Dfs,
            Algorithm::Iddfs,
            Algorithm::Dijkstra,
            Algorithm::Greedy,
            Algorithm::AStar,
            Algorithm::WAStar,
            Algorithm::IdaStar,
            Algorithm::Table,
            Algorithm::Reduction,
            Algorithm::Near,
        ];
        let key = s.trim().to_ascii_lowercase().replace(['-', '_', '*'], "");
        let key = match key.as_str() {
            "a" => "astar",
            "ida" => "idastar",
            "wa" | "weightedastar" => "wastar",
            "ucs" | "uniformcost" => "dijkstra",
            "ids" => "iddfs",
            other => other,
        }
        .to_string();
        all.into_iter().find(|a| a.name() == key).ok_or_else(|| UnknownName {
            kind: "algorithm",
            name: s.trim().chars().take(40).collect(),
            expected: Algorithm::NAMES.join(", "),
        })
    }
}

impl FromStr for Heuristic {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Heuristic, UnknownName> {
        match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
            "auto" => Ok(Heuristic::Auto),
            "hamming" | "misplaced" | "misplaced-tiles" => Ok(Heuristic::Hamming),
            "manhattan" => Ok(Heuristic::Manhattan),
            "linear-conflict" | "linear" | "lc" | "manhattan-lc" => Ok(Heuristic::LinearConflict),
            "walking-distance" | "walking" | "wd" => Ok(Heuristic::WalkingDistance),
            "pdb" | "pattern-database" | "pattern-databases" => Ok(Heuristic::Pdb),
            _ => Err(UnknownName {
                kind: "heuristic",
                name: s.trim().chars().take(40).collect(),
                expected: Heuristic::NAMES.join(", "),
            }),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Heuristic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Bounds on one solve. Reaching any of them ends the search at once with
/// [`crate::Status::Limit`].
#[derive(Clone, Debug)]
pub struct Limits {
    /// Most nodes to expand.
    pub max_nodes: Option<u64>,
    /// Most bytes the search may hold (estimated with margin, so the process stays below).
    pub max_memory: Option<usize>,
    /// Longest wall-clock time.
    pub timeout: Option<Duration>,
    /// Set to `true` from another thread to stop the search.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// The default memory bound: 1 GiB.
    pub const DEFAULT_MEMORY: usize = 1 << 30;
    /// The default time bound: 60 seconds.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

    /// No bounds at all. Only for callers that bound the search some other way.
    pub fn unlimited() -> Limits {
        Limits { max_nodes: None, max_memory: None, timeout: None, cancel: None }
    }
}

impl Default for Limits {
    /// 1 GiB of memory and 60 seconds: enough for any 3x3 search and most 4x4 ones, and a
    /// plain solve can never run away.
    fn default() -> Limits {
        Limits {
            max_nodes: None,
            max_memory: Some(Limits::DEFAULT_MEMORY),
            timeout: Some(Limits::DEFAULT_TIMEOUT),
            cancel: None,
        }
    }
}

/// Everything a solve can be told besides the board and the goal.
#[derive(Clone, Debug)]
pub struct Options {
    /// Which algorithm to run.
    pub algorithm: Algorithm,
    /// Which heuristic informed algorithms use.
    pub heuristic: Heuristic,
    /// The weight of weighted A* (at least 1; default 2).
    pub weight: f64,
    /// With [`Algorithm::Auto`], insist on a proven-optimal method even when it may hit the
    /// limits.
    pub optimal: bool,
    /// Spend the whole timeout improving a non-optimal answer (the reduction solver's
    /// anytime mode) instead of returning the first one found. Needs `limits.timeout`.
    pub improve: bool,
    /// How long [`Algorithm::Auto`] tries for a proven optimum on boards of 13 to 16 cells
    /// before a faster method answers; `None` for [`crate::AUTO_OPTIMAL_BUDGET`]. Either way
    /// at most 80% of `limits.timeout`, so that the fallbacks have time to answer.
    pub optimal_attempt: Option<Duration>,
    /// Bounds on time, memory and nodes.
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            algorithm: Algorithm::Auto,
            heuristic: Heuristic::Auto,
            weight: 2.0,
            optimal: false,
            improve: false,
            optimal_attempt: None,
            limits: Limits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in Algorithm::NAMES {
            assert_eq!(name.parse::<Algorithm>().unwrap().name(), *name);
        }
        for name in Heuristic::NAMES {
            assert_eq!(name.parse::<Heuristic>().unwrap().name(), *name);
        }
        assert_eq!("A*".parse::<Algorithm>().unwrap(), Algorithm::AStar);
        assert_eq!("IDA*".parse::<Algorithm>().unwrap(), Algorithm::IdaStar);
        let err = "quantum".parse::<Algorithm>().unwrap_err().to_string();
        assert!(
            err.starts_with("unknown algorithm \"quantum\": expected one of auto, bfs"),
            "{err}"
        );
    }
}
