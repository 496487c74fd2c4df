//! The result card of a solved game: your moves against the optimum, the time and the TPS
//! (tiles per second), as the web game shows them.

use std::time::Duration;

use npuzzle_core::Move;

use crate::app::Assist;

/// The best solution known from a game's start: what the card compares the player's with,
/// and what `o` replays.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Best {
    /// Not asked for yet.
    #[default]
    Unknown,
    /// The solver is working on it (the worker's id).
    Pending(u64),
    /// A solution from the start; proven shortest when `optimal`.
    Found {
        /// Its moves.
        moves: Vec<Move>,
        /// Whether it is proven shortest.
        optimal: bool,
    },
    /// The solver found none within its limits (one line why).
    Failed(String),
}

/// A solved game, as the card shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Card<'a> {
    /// Single-tile moves the solve took.
    pub moves: usize,
    /// From the first move to the solve.
    pub time: Duration,
    /// Who helped.
    pub assist: Assist,
    /// The best solution known from the start.
    pub best: &'a Best,
}

/// How the player's moves compare with the best known solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solver is still working out the optimum.
    Asking,
    /// As few moves as the optimum.
    Optimal,
    /// `over` moves more than the optimum, `optimal`.
    Over {
        /// Moves over the optimum.
        over: usize,
        /// The optimum.
        optimal: usize,
    },
    /// The solver's best is `length` moves but not proven shortest.
    Unproven {
        /// The length of the solver's solution.
        length: usize,
    },
    /// No solution from the solver (one line why).
    Unknown(String),
}

impl Card<'_> {
    /// Tiles per second: the moves over the time; `None` when no time passed (a solve that
    /// took no measurable time has no meaningful rate).
    pub fn tps(&self) -> Option<f64> {
        let secs = self.time.as_secs_f64();
        (secs > 0.0).then(|| self.moves as f64 / secs)
    }

    /// `1.85`, or `–` without a rate.
    pub fn tps_text(&self) -> String {
        self.tps().map_or_else(|| "–".to_string(), |tps| format!("{tps:.2}"))
    }

    /// The player's moves against the best known solution.
    pub fn verdict(&self) -> Verdict {
        match self.best {
            Best::Unknown | Best::Pending(_) => Verdict::Asking,
            Best::Failed(why) => Verdict::Unknown(why.clone()),
            Best::Found { moves, optimal: true } if self.moves <= moves.len() => Verdict::Optimal,
            Best::Found { moves, optimal: true } => {
                Verdict::Over { over: self.moves - moves.len(), optimal: moves.len() }
            }
            Best::Found { moves, optimal: false } => Verdict::Unproven { length: moves.len() },
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Asking => write!(f, "optimum: asking the solver…"),
            Verdict::Optimal => write!(f, "optimal!"),
            Verdict::Over { over, optimal } => write!(f, "+{over} over optimal ({optimal})"),
            Verdict::Unproven { length } => write!(f, "solver: {length} (not proven optimal)"),
            Verdict::Unknown(why) => write!(f, "no optimum: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(moves: usize, millis: u64, best: &Best) -> Card<'_> {
        Card { moves, time: Duration::from_millis(millis), assist: Assist::None, best }
    }

    #[test]
    fn tps_is_moves_per_second() {
        let best = Best::Unknown;
        assert_eq!(card(37, 20_000, &best).tps_text(), "1.85");
        assert_eq!(card(3, 0, &best).tps(), None);
        assert_eq!(card(3, 0, &best).tps_text(), "–");
    }

    #[test]
    fn the_verdict_compares_with_the_optimum() {
        let found = |n: usize, optimal| Best::Found { moves: vec![Move::Up; n], optimal };
        let optimal = found(31, true);
        assert_eq!(card(31, 1, &optimal).verdict(), Verdict::Optimal);
        assert_eq!(card(37, 1, &optimal).verdict().to_string(), "+6 over optimal (31)");
        let unproven = found(80, false);
        assert_eq!(card(90, 1, &unproven).verdict().to_string(), "solver: 80 (not proven optimal)");
        assert_eq!(card(9, 1, &Best::Pending(3)).verdict(), Verdict::Asking);
        let failed = Best::Failed("no solution within the limits".into());
        assert_eq!(
            card(9, 1, &failed).verdict().to_string(),
            "no optimum: no solution within the limits"
        );
    }
}
