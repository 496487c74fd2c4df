//! `npuzzle hint`: every legal move with the distance to the goal after it, through the
//! library's [`npuzzle_solver::Solver::hint`] (the same function as the games' Hint button).
//!
//! Exact on boards of up to 16 cells (instant on 3x3, from the distance table; 4x4 through
//! optimal IDA*, under the limits); on larger boards the reduction solver's next move, with
//! estimates (linear-conflict lower bounds), and the output says so. Text output:
//! ```text
//! board: 1 2 3/4 5 6/7 0 8  goal: 1 2 3/4 5 6/7 8 0
//! distance: 1 move (optimal)
//! best: L (tile 8 slides left)
//! after each move (exact distances):
//!   D  tile 5 slides down   2
//!   L  tile 8 slides left   0  best
//!   R  tile 7 slides right  2
//! ```

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use npuzzle_core::{Move, Perspective};
use npuzzle_solver::{Hint, Limit, Limits, Options, Reason, Request, Solution, Status, thousands};
use serde::Serialize;

use crate::advice;
use crate::args::{HintArgs, TextOrJson};
use crate::input::{Task, board_or_file};
use crate::progress::{Mode, Progress};
use crate::{interrupt, stdio};

/// Boards up to this many cells get exact distances (optimal solves); larger ones, estimates.
const EXACT_CELLS: usize = 16;

/// One move of `--format json`.
#[derive(Debug, Serialize)]
struct JsonMove {
    /// The move's letter (tile direction).
    #[serde(rename = "move")]
    letter: char,
    tile: u16,
    distance: Option<u64>,
    exact: bool,
}

/// The object of `--format json`.
#[derive(Debug, Serialize)]
struct JsonHint {
    status: &'static str,
    board: String,
    goal: String,
    /// The board's distance to the goal (optimal when `exact`, else the length found).
    distance: Option<u64>,
    exact: bool,
    /// The best move's letter (tile direction), null when there is none.
    best: Option<char>,
    moves: Vec<JsonMove>,
    error: Option<String>,
}

/// `up`, `down`, `left`, `right`.
fn direction(m: Move) -> &'static str {
    match m {
        Move::Up => "up",
        Move::Down => "down",
        Move::Left => "left",
        Move::Right => "right",
    }
}

/// Runs `npuzzle hint`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let (board, file_goal) = board_or_file(&args.board)?;
    let goal_spec = file_goal.as_ref().unwrap_or(&args.goal);
    let goal = goal_spec.board(board.size()).context("--goal")?;
    let cancel = interrupt::install();
    let options = Options {
        optimal: board.tiles().len() <= EXACT_CELLS,
        limits: Limits {
            max_memory: Some(crate::memory::search_memory(args.max_memory, 1)),
            timeout: Some(args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT)),
            cancel: Some(Arc::clone(&cancel)),
            ..Limits::default()
        },
        ..Options::default()
    };
    // The pattern database of the goal's frame (cached, or the small one built in seconds)
    // makes every solve of the hint optimal and fast on 4x4; the solver routes to it.
    let solver = crate::cmd::pdb::solver(1, Some(args.max_memory));
    // On big boards a hint is a near-optimal solve of seconds: the progress line shows its
    // best path so far and its bound, as `solve`'s does.
    let progress = Progress::new(Mode::choose(args.quiet, args.progress), 1, 1);
    let request = Request::new(&board, &goal, &options);
    let hint = solver.hint_with(&request, &mut progress.watcher());
    progress.finish();
    let hint = hint?;
    let task = Task {
        board: board.clone(),
        goal: goal.clone(),
        goal_name: goal_spec.name(),
        goal_from_file: file_goal.is_some(),
    };
    let error = match &hint.solution.reason {
        None => None,
        Some(Reason::Unsolvable(parity)) => Some(advice::unsolvable(&task, parity)),
        Some(_) => Some(limit_message(&hint.solution, args.max_memory)),
    };
    let perspective = if args.blank { Perspective::Blank } else { Perspective::Tile };
    let text = match args.format {
        TextOrJson::Text => text(&task, &hint, error.as_deref(), perspective),
        TextOrJson::Json => {
            let record = JsonHint {
                status: hint.solution.status.name(),
                board: board.to_string(),
                goal: goal.to_string(),
                distance: hint.distance,
                exact: hint.exact,
                best: hint.best.map(Move::letter),
                moves: hint
                    .moves
                    .iter()
                    .map(|m| JsonMove {
                        letter: m.direction.letter(),
                        tile: m.tile,
                        distance: m.distance,
                        exact: m.exact,
                    })
                    .collect(),
                error: error.clone(),
            };
            serde_json::to_string(&record)? + "\n"
        }
    };
    stdio::print_bytes(text.as_bytes())?;
    let code = match hint.solution.status {
        Status::Solved => 0,
        Status::Unsolvable => 3,
        Status::Limit => 4,
    };
    if let Some(error) = &error {
        match hint.solution.status {
            Status::Limit => stdio::complain(format_args!("limit reached: {error}")),
            _ => stdio::complain(format_args!("{error}")),
        }
    }
    Ok(ExitCode::from(code))
}

/// Why the search stopped, with its lower bound. A memory limit is named with the
/// `--max-memory` the user gave, `max_memory` bytes: the search itself gets what is left after
/// the process and its tables (it said "memory limit of 38 MiB" for `--max-memory 64`).
fn limit_message(s: &Solution, max_memory: usize) -> String {
    let bound = s.lower_bound.map(|b| format!(" (lower bound {b})")).unwrap_or_default();
    let what = match s.limit() {
        Some(Limit::Memory(_)) => format!(
            "memory limit of {} MiB reached after {} expanded nodes",
            max_memory >> 20,
            thousands(s.stats.expanded)
        ),
        _ => s.error().unwrap_or_default(),
    };
    format!("{what}{bound}")
}

/// The move's letter in `perspective`, and what it does.
fn named(m: Move, tile: u16, perspective: Perspective) -> (char, String) {
    match perspective {
        Perspective::Tile => (m.letter(), format!("tile {tile} slides {}", direction(m))),
        Perspective::Blank => {
            let blank = m.inverse();
            (
                blank.letter(),
                format!("blank moves {} (tile {tile} slides {})", direction(blank), direction(m)),
            )
        }
    }
}

fn text(task: &Task, hint: &Hint, error: Option<&str>, perspective: Perspective) -> String {
    let mut out = format!("board: {}  goal: {}\n", task.board, task.goal);
    if let Some(error) = error {
        let label = if hint.solution.status == Status::Limit { "limit: " } else { "" };
        out.push_str(&format!("{label}{error}\n"));
    }
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    match (hint.distance, hint.exact) {
        (Some(0), _) => out.push_str("distance: 0 moves (the board is the goal)\n"),
        (Some(d), true) => out.push_str(&format!("distance: {d} move{} (optimal)\n", plural(d))),
        (Some(d), false) => {
            let bound =
                hint.solution.lower_bound.map(|b| format!("; lower bound {b}")).unwrap_or_default();
            out.push_str(&format!(
                "distance: at most {d} move{} (a solution found, not proven optimal{bound})\n",
                plural(d)
            ));
        }
        (None, _) => {}
    }
    if let Some(best) = hint.best {
        let tile = hint.moves.iter().find(|m| m.direction == best).map_or(0, |m| m.tile);
        let (letter, what) = named(best, tile, perspective);
        out.push_str(&format!("best: {letter} ({what})\n"));
    }
    if hint.solution.status == Status::Unsolvable {
        return out;
    }
    let exact = hint.moves.iter().all(|m| m.exact);
    out.push_str(if exact {
        "after each move (exact distances):\n"
    } else {
        "after each move (estimates where not exact: linear-conflict lower bounds):\n"
    });
    let rows: Vec<(char, String, String)> = hint
        .moves
        .iter()
        .map(|m| {
            let (letter, what) = named(m.direction, m.tile, perspective);
            let distance = match (m.distance, m.exact || exact) {
                (Some(d), true) => d.to_string(),
                (Some(d), false) => format!("{d} (estimate)"),
                (None, _) => "?".to_string(),
            };
            let best = if Some(m.direction) == hint.best { "  best" } else { "" };
            (letter, what, format!("{distance}{best}"))
        })
        .collect();
    let width = rows.iter().map(|(_, what, _)| what.len()).max().unwrap_or(0);
    for (letter, what, distance) in rows {
        out.push_str(&format!("  {letter}  {what:<width$}  {distance}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_solver::Algorithm;

    #[test]
    fn a_memory_limit_was_named_by_the_share_the_search_got_not_by_max_memory() {
        let mut s = Solution::without_moves(Status::Limit, Algorithm::WAStar, None);
        // `--max-memory 64` leaves the search 38 MiB after the process and its tables.
        s.reason = Some(Reason::Limit(Limit::Memory(38 << 20)));
        s.stats.expanded = 1375;
        s.lower_bound = Some(74);
        assert_eq!(
            limit_message(&s, 64 << 20),
            "memory limit of 64 MiB reached after 1,375 expanded nodes (lower bound 74)"
        );
        s.reason = Some(Reason::Limit(Limit::Nodes(5)));
        assert_eq!(limit_message(&s, 64 << 20), "node limit of 5 reached (lower bound 74)");
    }
}
