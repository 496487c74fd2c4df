//! `npuzzle`: solve and scramble sliding-tile puzzles from the command line.
//!
//! The command line is a contract that scripts rely on (see `npuzzle --help`):
//! `npuzzle solve` prints each board's solution as text, bare moves or one JSON object per
//! line, and exits 0 when every board was solved, 2 for invalid input or usage, 3 when a board
//! is unsolvable and 4 when a limit was reached (with several boards, the highest of these).
//! Every non-zero status comes with a one-line reason on stderr, prefixed `npuzzle: `.
//!
//! Choices the design leaves open, made here:
//! - `solve` reads the BOARD arguments first, then `--input`; with neither, stdin if it is not
//!   a terminal. A `# goal:` line in an input file overrides `--goal` for the boards after it.
//!   A bad BOARD argument is reported as that board's `invalid` result (the others are still
//!   solved); a bad line in an input file rejects the whole file, naming the line.
//! - Text output, per board: `board: B  goal: G` (plus `(line N, optimal L)` for file input),
//!   then `solved: N moves (optimal|not proven optimal) — algorithm A, heuristic H, X expanded,
//!   Y generated, S s`, `moves: ...`, `compact: ...` when shorter, `note: ...` when the solver
//!   left one, and with `--steps` every position as a grid. A board not solved gets one line
//!   `unsolvable: ...`, `limit: ...` or `invalid: ...` instead. Boards are separated by a blank
//!   line.
//! - `--format moves` prints an empty line for a board not solved, so line N is board N.
//! - In JSON, `length` is null unless the board was solved; `expected_length`, `note` and
//!   `line` appear only when there is one.

mod args;
mod bench_cmd;
mod input;
mod output;
mod pdb_cmd;
mod play_cmd;
mod scramble_cmd;
mod serve_cmd;
mod solve_cmd;

use std::io;
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;

use crate::args::{Cli, Command};

/// Exit status for invalid input or usage.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => {
            // `npuzzle solve ... | head`: the reader has all it wanted; not an error.
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("npuzzle: {}", one_line(&format!("{err:#}")));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Parses the command line and runs the subcommand. Errors are invalid input or usage.
fn run() -> anyhow::Result<ExitCode> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => match err.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => err.exit(),
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                anyhow::bail!(
                    "missing command: expected 'solve', 'scramble' or 'serve' (see 'npuzzle --help')"
                )
            }
            _ => anyhow::bail!("{} (see --help)", clap_reason(&err)),
        },
    };
    match cli.command {
        Command::Solve(args) => solve_cmd::run(&args),
        Command::Scramble(args) => scramble_cmd::run(&args),
        Command::Bench(args) => bench_cmd::run(&args),
        Command::Pdb(args) => pdb_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Serve(args) => serve_cmd::run(&args),
    }
}

/// The first line of a clap error, without its `error: ` prefix: clap's own rendering adds
/// usage and tips over several lines, and the contract is one line on stderr.
fn clap_reason(err: &clap::Error) -> String {
    let text = err.render().to_string();
    let first = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("invalid usage");
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// Joins a possibly multi-line message into one line.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
