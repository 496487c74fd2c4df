//! The JSON record of a solve (`npuzzle solve --format json`, `POST /api/solve`) and the
//! search events a visualizer streams, behind the `serde` feature.
//!
//! The record is the contract of DESIGN.md: one object per board with `status`, `board`,
//! `goal`, `width`, `height`, `algorithm`, `heuristic`, `optimal`, `length`, `moves`,
//! `tiles`, `expanded`, `generated`, `max_frontier`, `seconds` and `error`, in that order,
//! then `lower_bound` (for a board stopped by a limit), `expected_length`, `note` and `line`
//! when they apply. Every front end prints the same record, so a script can switch between
//! the command line and the web API.

use npuzzle_core::Board;
use npuzzle_search::{Begin, Bound, Expand, Progress};
use serde::{Deserialize, Serialize};

use crate::options::{Algorithm, Heuristic};
use crate::solution::{Solution, Status};

/// One board's answer as the JSON object of the command line and the web API.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `solved`, `unsolvable`, `limit` or `invalid`.
    pub status: String,
    /// The board in the standard notation; for a board that could not be read, the text
    /// given.
    pub board: String,
    /// The goal in the standard notation; null when no goal board could be made.
    pub goal: Option<String>,
    /// The board's width (null when it could not be read).
    pub width: Option<usize>,
    /// The board's height.
    pub height: Option<usize>,
    /// The algorithm that ran (or was asked for, when none ran).
    pub algorithm: String,
    /// The heuristic that guided it; null when none did.
    pub heuristic: Option<String>,
    /// True only when the length is proven minimal.
    pub optimal: bool,
    /// The number of moves; null unless solved.
    pub length: Option<usize>,
    /// The moves, one letter each, tile direction (empty unless solved).
    pub moves: String,
    /// The tile moved at each step.
    pub tiles: Vec<u16>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Nodes generated.
    pub generated: u64,
    /// The largest frontier.
    pub max_frontier: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Why the board was not solved; null when it was.
    pub error: Option<String>,
    /// The moves with runs written as counts (`R2U2LD`); absent unless solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compact: Option<String>,
    /// The length in the multi-tile metric (a run of moves in one direction counts once);
    /// absent unless solved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multi_tile_length: Option<usize>,
    /// A proven lower bound on the optimal length, for a board stopped by a limit or an
    /// answer not proven optimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    /// The optimal length an instance file gave (`| N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_length: Option<u32>,
    /// How the answer was found, chiefly why it is not proven optimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The line of the input file the board came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
}

impl Record {
    /// The record of `solution`, the answer for `board` towards `goal`. The moves are
    /// replayed for `tiles`; a solution whose moves do not replay (a solver defect) gets an
    /// empty `tiles`.
    pub fn new(board: &Board, goal: &Board, solution: &Solution) -> Record {
        let solved = solution.status == Status::Solved;
        let s = &solution.stats;
        Record {
            status: solution.status.name().to_string(),
            board: board.to_string(),
            goal: Some(goal.to_string()),
            width: Some(board.width()),
            height: Some(board.height()),
            algorithm: solution.algorithm.name().to_string(),
            heuristic: solution.heuristic.map(|h| h.name().to_string()),
            optimal: solved && solution.optimal,
            length: solved.then(|| solution.moves.len()),
            moves: if solved { solution.moves.to_string() } else { String::new() },
            tiles: if solved {
                board.tiles_moved(&solution.moves).unwrap_or_default()
            } else {
                Vec::new()
            },
            expanded: s.expanded,
            generated: s.generated,
            max_frontier: s.max_frontier,
            seconds: s.seconds,
            error: solution.error(),
            compact: solved.then(|| solution.moves.compact()),
            multi_tile_length: solved.then(|| solution.moves.multi_tile_len()),
            lower_bound: match solution.status {
                Status::Limit => solution.lower_bound,
                Status::Solved if !solution.optimal => solution.lower_bound,
                _ => None,
            },
            expected_length: None,
            note: solution.note(),
            line: None,
        }
    }

    /// The record of input that could not be solved at all: `text` as given, the goal and
    /// size when they are known, the algorithm and heuristic asked for, and the reason.
    pub fn invalid(
        text: &str,
        goal: Option<&Board>,
        size: Option<(usize, usize)>,
        algorithm: Algorithm,
        heuristic: Heuristic,
        reason: &str,
    ) -> Record {
        Record {
            status: "invalid".to_string(),
            board: text.to_string(),
            goal: goal.map(Board::to_string),
            width: size.map(|(w, _)| w),
            height: size.map(|(_, h)| h),
            algorithm: algorithm.name().to_string(),
            heuristic: Some(heuristic.name().to_string()),
            optimal: false,
            length: None,
            moves: String::new(),
            tiles: Vec::new(),
            expanded: 0,
            generated: 0,
            max_frontier: 0,
            seconds: 0.0,
            error: Some(reason.to_string()),
            compact: None,
            multi_tile_length: None,
            lower_bound: None,
            expected_length: None,
            note: None,
            line: None,
        }
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        // A struct of strings, numbers and options always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A search event, as a visualizer streams it (for example as server-sent events): the
/// `type` field names the kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum Event {
    /// The search starts.
    Begin {
        /// The start board.
        board: String,
        /// Its heuristic value.
        h: u32,
    },
    /// A board is expanded.
    Expand {
        /// The board.
        board: String,
        /// Its parent on the path from the start (null for the start).
        parent: Option<String>,
        /// Cost from the start.
        g: u32,
        /// Heuristic value.
        h: u32,
        /// `g + h`.
        f: u32,
        /// Open-list length (path length for the depth-first searches).
        open: usize,
        /// Closed-list length.
        closed: usize,
    },
    /// IDA* or IDDFS starts an iteration with a new bound (a proven lower bound).
    Bound {
        /// The bound.
        bound: u32,
        /// Expansions so far.
        expanded: u64,
    },
    /// Periodic statistics.
    Progress {
        /// Expansions so far.
        expanded: u64,
        /// Successors generated so far.
        generated: u64,
        /// Current frontier size.
        frontier: u64,
        /// Seconds since the search started.
        seconds: f64,
    },
    /// The search has ended: the record of its answer.
    Done(Box<Record>),
}

impl Event {
    /// The event of a search's start.
    pub fn begin(e: &Begin<'_, Board, u32>) -> Event {
        Event::Begin { board: e.start().to_string(), h: e.h() }
    }

    /// The event of an expansion.
    pub fn expand(e: &Expand<'_, Board, u32>) -> Event {
        Event::Expand {
            board: e.node().to_string(),
            parent: e.parent().map(Board::to_string),
            g: e.g(),
            h: e.h(),
            f: e.f(),
            open: e.open(),
            closed: e.closed(),
        }
    }

    /// The event of a new bound.
    pub fn bound(e: &Bound<u32>) -> Event {
        Event::Bound { bound: e.bound(), expanded: e.expanded() }
    }

    /// The event of periodic statistics.
    pub fn progress(e: &Progress) -> Event {
        Event::Progress {
            expanded: e.expanded(),
            generated: e.generated(),
            frontier: e.frontier(),
            seconds: e.elapsed().as_secs_f64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_core::Goal;

    use super::*;
    use crate::{Options, solve};

    #[test]
    fn a_record_round_trips_through_json() {
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let solution = solve(&board, &goal, &Options::default()).unwrap();
        let record = Record::new(&board, &goal, &solution);
        assert_eq!((record.length, record.optimal, record.tiles.len()), (Some(31), true, 31));
        let json = record.to_json();
        assert!(json.starts_with(r#"{"status":"solved","board":"8 6 7/2 5 4/3 0 1","goal":"#));
        assert!(!json.contains("lower_bound") && !json.contains("\"line\""));
        assert_eq!(serde_json::from_str::<Record>(&json).unwrap(), record);
        let invalid = Record::invalid(
            "1 1",
            None,
            None,
            Algorithm::Auto,
            Heuristic::Auto,
            "tile 1 appears twice",
        );
        let back: Record = serde_json::from_str(&invalid.to_json()).unwrap();
        assert_eq!(back, invalid);
    }

    #[test]
    fn events_serialise_with_their_kind() {
        let board: Board = "1 2/3 0".parse().unwrap();
        let e = Event::expand(&Expand::new(&board, 1, 2).with_lists(3, 4));
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"type":"expand","board":"1 2/3 0","parent":null,"g":1,"h":2,"f":3,"open":3,"closed":4}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&serde_json::to_string(&e).unwrap()).unwrap(), e);
    }
}
