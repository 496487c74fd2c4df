//! `npuzzle play`: the terminal game (see the `npuzzle-tui` crate).

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use npuzzle_core::{Board, Goal, Size};
use npuzzle_solver::Solver;
use npuzzle_solver::engine::twentyfour::Tables;
use npuzzle_solver::heuristic::pdb::Store;
use npuzzle_tui::{App, Config, StartError};

use crate::args::PlayArgs;

/// Exit status for a board that cannot reach the goal.
const EXIT_UNSOLVABLE: u8 = 3;

/// Runs `npuzzle play`.
pub fn run(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let (board, file_goal) = match args.board.as_deref() {
        // The keys come from stdin: it cannot hold the board too.
        Some("-") => bail!("play reads keys from the terminal: give BOARD as text or a file"),
        Some(text) => {
            let (board, goal) = crate::input::board_or_file(text)?;
            (Some(board), goal)
        }
        None => (None, None),
    };
    // A goal the board's file sets wins, as in `solve`.
    let goal = file_goal.unwrap_or_else(|| args.goal.clone());
    let size = match (&board, args.size, &goal) {
        (Some(board), Some(size), _) if board.size() != size => {
            bail!("the board is {} but --size says {size}", board.size())
        }
        (Some(board), _, _) => board.size(),
        (None, Some(size), _) => size,
        (None, None, Goal::Board(goal)) => goal.size(),
        (None, None, _) => Size::square(4).context("4x4")?,
    };
    let config = Config {
        size,
        goal,
        board,
        seed: args.seed.unwrap_or_else(clock_seed),
        // https://no-color.org: set and not empty means no colours.
        color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
        solver: Solver::new(),
    };
    // Check the game before taking over the terminal, so a bad one is a plain message.
    match App::new(config.clone(), std::time::Instant::now()) {
        Ok(_) => {}
        Err(err @ StartError::Unsolvable(_)) => {
            crate::stdio::complain(format_args!("{err}"));
            return Ok(ExitCode::from(EXIT_UNSOLVABLE));
        }
        Err(err) => bail!("--goal: {err}"),
    }
    if !io::stdin().is_terminal() || !io::stdout().is_terminal() {
        bail!("npuzzle play needs a terminal (stdin and stdout are not both one)");
    }
    let config = Config {
        solver: solver(!args.no_build, config.goal.board(config.size).ok().as_ref()),
        ..config
    };
    npuzzle_tui::play(config).context("terminal")?;
    Ok(ExitCode::SUCCESS)
}

/// The game's solver: it holds the pattern databases of the cache (loaded now, before the
/// terminal is taken, so 4x4 hints and solves are exact and fast when the 7-8 table is
/// there). When `build`, what the cache lacks is built in the background at the lowest
/// priority (the game answers with what it has meanwhile): the 7-8 table, and for a game on
/// `goal` that Korf & Felner's tables serve (5x5, blank in a corner) theirs after it; no
/// request builds. It says nothing: a message on stderr would scribble over the game's screen.
fn solver(build: bool, goal: Option<&Board>) -> Solver {
    let store = Arc::new(Store::new(Some(crate::cmd::pdb::cache())));
    store.load_cached();
    if build {
        let four = Size::square(4)
            .ok()
            .and_then(|size| Goal::BlankFirst.board(size).ok())
            .and_then(|g| store.build_in_background(&g, None));
        if goal.is_some_and(|g| Tables::korf_felner_partition(g).is_ok()) {
            let _ = store.build_twentyfour_in_background(four, None);
        }
    }
    Solver::new().with_store(store)
}

fn clock_seed() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}
