//! `npuzzle check`: replay a solution someone else found, and judge it.
//!
//! For 42 graders, speed-solvers and researchers checking another solver's output: the moves
//! are read in every notation people use (letters for the tile's or the blank's direction,
//! long or compact, or the numbers of the tiles slid), replayed one by one, and the verdict
//! names the first move that goes wrong. With `--optimal` the optimal length is found too.
//!
//! Text output, word for word:
//! ```text
//! board: 8 6 7/2 5 4/3 0 1  goal: 1 2 3/4 5 6/7 8 0
//! ok: 31 moves reach the goal (24 in the multi-tile metric)
//! optimal: 31 moves (gap 0)
//! ```
//! or `wrong: move 5 (U) is illegal: no tile can slide up into the blank`, `wrong: the 30
//! moves end at 1 2 3/4 5 6/7 0 8, not at the goal`; `optimal: 27 moves (gap 4)`,
//! `optimal: none: the board cannot reach the goal (...)`, `optimal: not proven within the
//! limits (...)`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};
use npuzzle_core::{Board, MoveError, Moves, Parity, Perspective};
use npuzzle_solver::{Limit, Limits, Options, Status};
use serde::Serialize;

use crate::args::{CheckArgs, TextOrJson};
use crate::input::{board_or_file, read_text};
use crate::stdio;

/// Exit status when the moves do not reach the goal (or, with --optimal, are not optimal).
const EXIT_WRONG: u8 = 1;
/// Exit status when --optimal could not prove the optimum within the limits.
const EXIT_LIMIT: u8 = 4;

/// What replaying the moves showed.
#[derive(Debug)]
struct Replay {
    /// The moves, as tile-direction letters (those played before a wrong one).
    moves: Moves,
    /// How many moves were given.
    given: usize,
    /// Where the replay stopped: the goal, another position, or just before a wrong move.
    end: Board,
    /// The first move that could not be made.
    illegal: Option<MoveError>,
}

/// What `--optimal` found.
#[derive(Debug)]
enum Optimum {
    /// Not asked for.
    NotAsked,
    /// The optimal length.
    Length(usize),
    /// The board cannot reach the goal, and why.
    Unsolvable(String),
    /// The search stopped at a limit.
    Limit(String),
}

/// One line of `--format json`.
#[derive(Debug, Serialize)]
struct JsonCheck {
    board: String,
    goal: String,
    reaches_goal: bool,
    /// Moves given, in the single-tile metric.
    length: usize,
    /// Moves given, in the multi-tile metric (only when every move could be made).
    multi_tile_length: Option<usize>,
    /// The moves as tile-direction letters (up to the first wrong one).
    moves: String,
    /// The position where the replay stopped.
    end: String,
    /// Why the moves do not reach the goal.
    error: Option<String>,
    optimal_length: Option<usize>,
    gap: Option<usize>,
    /// Whether the moves reach the goal in the optimal number; null unless --optimal proved
    /// the optimum.
    optimal: Option<bool>,
    /// Why --optimal found no length.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// Runs `npuzzle check`.
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    if args.board == "-" && args.moves == "-" {
        bail!("BOARD and MOVES are both '-': stdin can be read only once");
    }
    let (board, file_goal) = board_or_file(&args.board)?;
    let goal = file_goal.as_ref().unwrap_or(&args.goal);
    let goal = goal.board(board.size()).context("--goal")?;
    let text = if args.moves == "-" { read_text(Path::new("-"))?.1 } else { args.moves.clone() };
    let perspective = if args.blank { Perspective::Blank } else { Perspective::Tile };
    let replay = replay(&board, &text, perspective)?;
    let optimum = if args.optimal { optimum(&board, &goal, args) } else { Optimum::NotAsked };
    let reaches = replay.illegal.is_none() && replay.end == goal;
    let wrong = wrong_reason(&replay, reaches);
    let gap = match optimum {
        Optimum::Length(best) if reaches => Some(replay.given.saturating_sub(best)),
        _ => None,
    };
    match args.format {
        TextOrJson::Text => print_text(&board, &goal, &replay, wrong.as_deref(), &optimum, gap)?,
        TextOrJson::Json => {
            let record = JsonCheck {
                board: board.to_string(),
                goal: goal.to_string(),
                reaches_goal: reaches,
                length: replay.given,
                multi_tile_length: replay.illegal.is_none().then(|| replay.moves.multi_tile_len()),
                moves: replay.moves.to_string(),
                end: replay.end.to_string(),
                error: wrong.clone(),
                optimal_length: match optimum {
                    Optimum::Length(n) => Some(n),
                    _ => None,
                },
                gap,
                optimal: gap.map(|g| g == 0),
                note: match &optimum {
                    Optimum::Unsolvable(why) | Optimum::Limit(why) => Some(why.clone()),
                    _ => None,
                },
            };
            let mut line = serde_json::to_vec(&record)?;
            line.push(b'\n');
            stdio::print_bytes(&line)?;
        }
    }
    // The verdict's reason on stderr too, as for every non-zero status.
    if let Some(wrong) = &wrong {
        stdio::complain(format_args!("wrong: {wrong}"));
        return Ok(ExitCode::from(EXIT_WRONG));
    }
    match (&optimum, gap) {
        (_, Some(gap)) if gap > 0 => {
            let best = replay.given - gap;
            stdio::complain(format_args!(
                "not optimal: {} moves, the optimum is {best} (gap {gap})",
                replay.given
            ));
            Ok(ExitCode::from(EXIT_WRONG))
        }
        (Optimum::Limit(why), _) => {
            stdio::complain(format_args!("limit reached: {why}"));
            Ok(ExitCode::from(EXIT_LIMIT))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// Reads the moves (letters in `perspective`, or tile numbers) and plays them on `board`
/// until one cannot be made.
///
/// # Errors
/// When the text is not moves at all (invalid input, exit 2).
fn replay(board: &Board, text: &str, perspective: Perspective) -> anyhow::Result<Replay> {
    let mut end = board.clone();
    let mut played = Vec::new();
    let first = text.trim_start_matches(|c: char| c.is_whitespace() || c == ',');
    if first.starts_with(|c: char| c.is_ascii_digit()) {
        if perspective == Perspective::Blank {
            bail!("invalid MOVES: --blank applies to move letters, and these are tile numbers");
        }
        let tiles = tile_numbers(text)?;
        let mut illegal = None;
        for (index, &tile) in tiles.iter().enumerate() {
            let m = u16::try_from(tile).ok().and_then(|t| end.move_for_tile(t));
            let Some(m) = m.filter(|&m| end.apply(m).is_ok()) else {
                illegal = Some(MoveError::NotAdjacent { index, tile });
                break;
            };
            played.push(m);
        }
        return Ok(Replay { moves: Moves(played), given: tiles.len(), end, illegal });
    }
    let moves = Moves::parse_as(text, perspective).context("invalid MOVES")?;
    let mut illegal = None;
    for (index, &m) in moves.as_slice().iter().enumerate() {
        if let Err(err) = end.apply(m) {
            // `apply` numbers the move 0, being given one move; name its place in the list.
            illegal = Some(match err {
                MoveError::Illegal { letter, direction, .. } => {
                    MoveError::Illegal { index, letter, direction }
                }
                other => other,
            });
            break;
        }
        played.push(m);
    }
    Ok(Replay { given: moves.len(), moves: Moves(played), end, illegal })
}

/// Reads tile numbers separated by spaces or commas.
fn tile_numbers(text: &str) -> anyhow::Result<Vec<u32>> {
    let tokens = text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    let mut out = Vec::new();
    for (i, token) in tokens.enumerate() {
        if out.len() >= Moves::MAX_LEN {
            bail!("invalid MOVES: too many moves: at most {}", Moves::MAX_LEN);
        }
        let short: String = token.chars().take(24).collect();
        if !token.bytes().all(|b| b.is_ascii_digit()) {
            bail!("invalid MOVES: {short:?} (number {}) is not a tile number", i + 1);
        }
        out.push(token.parse::<u32>().unwrap_or(u32::MAX));
    }
    Ok(out)
}

/// Why the replay does not reach the goal, if it does not.
fn wrong_reason(replay: &Replay, reaches: bool) -> Option<String> {
    if let Some(err) = &replay.illegal {
        return Some(err.to_string());
    }
    if reaches {
        return None;
    }
    let n = replay.given;
    Some(format!(
        "the {n} move{} end{} at {}, not at the goal",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" },
        replay.end
    ))
}

/// The optimal length from `board` to `goal`, under the limits given.
fn optimum(board: &Board, goal: &Board, args: &CheckArgs) -> Optimum {
    if !board.is_solvable(goal) {
        return Optimum::Unsolvable(format!(
            "the board cannot reach the goal ({})",
            Parity::of(board, goal)
        ));
    }
    let timeout = args.timeout.unwrap_or(Limits::DEFAULT_TIMEOUT);
    let options = Options {
        optimal: true,
        limits: Limits {
            max_memory: Some(crate::memory::search_memory(args.max_memory, 1)),
            timeout: Some(timeout),
            // Ctrl-C (or SIGTERM) answers "search cancelled" with status 4, as in `solve`;
            // without it, the process was killed silently.
            cancel: Some(crate::interrupt::install()),
            ..Limits::default()
        },
        ..Options::default()
    };
    let limits = format!(
        "the optimum was not proven within {} s and {} MiB; raise --timeout or --max-memory",
        timeout.as_secs_f64(),
        args.max_memory >> 20
    );
    // The run's solver: its databases make 4x4 optima a matter of milliseconds.
    match crate::cmd::pdb::solver(1, Some(args.max_memory)).solve(board, goal, &options) {
        Ok(s) if s.status == Status::Solved && s.optimal => Optimum::Length(s.moves.len()),
        Ok(s) if s.limit() == Some(Limit::Cancelled) => {
            Optimum::Limit(Limit::Cancelled.to_string())
        }
        Ok(_) => Optimum::Limit(limits),
        Err(err) => Optimum::Limit(format!("the optimal search failed: {err}")),
    }
}

fn print_text(
    board: &Board,
    goal: &Board,
    replay: &Replay,
    wrong: Option<&str>,
    optimum: &Optimum,
    gap: Option<usize>,
) -> anyhow::Result<()> {
    let mut text = format!("board: {board}  goal: {goal}\n");
    match wrong {
        Some(wrong) => text.push_str(&format!("wrong: {wrong}\n")),
        None => {
            let n = replay.given;
            text.push_str(&format!(
                "ok: {n} move{} reach{} the goal ({} in the multi-tile metric)\n",
                if n == 1 { "" } else { "s" },
                if n == 1 { "es" } else { "" },
                replay.moves.multi_tile_len()
            ));
        }
    }
    match (optimum, gap) {
        (Optimum::NotAsked, _) => {}
        (Optimum::Length(best), Some(gap)) => {
            let s = if *best == 1 { "" } else { "s" };
            text.push_str(&format!("optimal: {best} move{s} (gap {gap})\n"));
        }
        (Optimum::Length(best), None) => {
            let s = if *best == 1 { "" } else { "s" };
            text.push_str(&format!("optimal: {best} move{s}\n"));
        }
        (Optimum::Unsolvable(why), _) => text.push_str(&format!("optimal: none: {why}\n")),
        (Optimum::Limit(why), _) => text.push_str(&format!("optimal: not proven: {why}\n")),
    }
    stdio::print_bytes(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    #[test]
    fn every_notation_replays_the_same_moves() {
        let b = board("1 2 3/4 5 6/0 7 8");
        let g = board("1 2 3/4 5 6/7 8 0");
        for (text, perspective) in [
            ("LL", Perspective::Tile),
            ("L2", Perspective::Tile),
            ("l, l", Perspective::Tile),
            ("RR", Perspective::Blank),
            ("7 8", Perspective::Tile),
            ("7,8", Perspective::Tile),
        ] {
            let r = replay(&b, text, perspective).unwrap();
            assert_eq!(r.end, g, "{text}");
            assert!(r.illegal.is_none());
            assert_eq!(r.moves.to_string(), "LL");
        }
    }

    #[test]
    fn the_first_wrong_move_is_named_counting_from_one() {
        let b = board("1 2 3/4 5 6/0 7 8");
        let g = board("1 2 3/4 5 6/7 8 0");
        let r = replay(&b, "LLL", Perspective::Tile).unwrap();
        assert_eq!(
            r.illegal.unwrap().to_string(),
            "move 3 (L) is illegal: no tile can slide left into the blank"
        );
        assert_eq!(r.end, g);
        let r = replay(&b, "7 1", Perspective::Tile).unwrap();
        assert_eq!(r.illegal.unwrap().to_string(), "move 2: tile 1 is not next to the blank");
        let r = replay(&b, "7 99999999999", Perspective::Tile).unwrap();
        assert!(r.illegal.is_some());
        assert!(replay(&b, "LX", Perspective::Tile).is_err());
        assert!(replay(&b, "7 x", Perspective::Tile).is_err());
        assert!(replay(&b, "7 8", Perspective::Blank).is_err());
    }
}
