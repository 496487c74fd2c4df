//! What the solver answers.

use std::fmt;

use npuzzle_core::Moves;

use crate::options::{Algorithm, Heuristic};

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found.
    Solved,
    /// The board cannot reach the goal.
    Unsolvable,
    /// A limit (nodes, memory, time) was reached, or the solve was cancelled.
    Limit,
}

impl Status {
    /// `solved`, `unsolvable` or `limit`, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Search effort, as every engine reports it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Nodes whose successors were generated.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Largest open list (or deepest path, for depth-first methods).
    pub max_frontier: u64,
    /// Wall-clock seconds, table builds included.
    pub seconds: f64,
}

/// The answer to one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// How it ended.
    pub status: Status,
    /// The moves, tile direction (empty unless solved).
    pub moves: Moves,
    /// True only when the length is proven minimal.
    pub optimal: bool,
    /// The algorithm that actually ran (never `Auto`).
    pub algorithm: Algorithm,
    /// The heuristic that actually guided it, if any.
    pub heuristic: Option<Heuristic>,
    /// Search effort.
    pub stats: Stats,
    /// Why it was not solved, or a note about the method chosen (one line).
    pub message: Option<String>,
}

impl Solution {
    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution has no moves (the board was already the goal, or not solved).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// `1234567` as `1,234,567`: node counts in messages and text output.
///
/// # Examples
/// ```
/// assert_eq!(npuzzle_solver::thousands(1234567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }
}
