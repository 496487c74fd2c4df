//! `npuzzle`: solve, scramble and check sliding-tile puzzles from the command line.
//!
//! The command line is a contract that scripts rely on (see `npuzzle --help`):
//! `npuzzle solve` prints each board's solution as text, bare moves or one JSON object per
//! line, and exits 0 when every board was solved, 2 for invalid input or usage, 3 when a board
//! is unsolvable and 4 when a limit was reached (with several boards, the highest of these).
//! Every non-zero status comes with a one-line reason on stderr, prefixed `npuzzle: `.
//!
//! Choices the design leaves open, made here:
//! - `solve` reads the BOARD arguments first (a BOARD that is not a board but names a file, or
//!   is `-`, is read as an input file), then `--input`; with neither, stdin if it is not a
//!   terminal. A `# goal:` line in an input file overrides `--goal` for the boards after it.
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
//! - `check` exits 1 when the moves do not reach the goal (see `cmd::check`).
//! - Usage errors are one line that keeps clap's suggestion and the accepted values.
//! - Output that cannot be written (a full disk, a closed stdout) exits 2; a reader that stops
//!   early (`| head`) does not make an error.

mod advice;
mod args;
mod batch;
mod cmd;
mod input;
mod interrupt;
mod man_page;
mod memory;
mod output;
mod progress;
mod stdio;

use std::io;
use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};

use crate::args::{Cli, Command};

/// Exit status for invalid input or usage.
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    memory::return_freed_memory();
    match run() {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => {
            // `npuzzle solve ... | head`: the reader has all it wanted; not an error.
            ExitCode::SUCCESS
        }
        Err(err) => {
            stdio::complain(format_args!("{}", reason(&err)));
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// Parses the command line and runs the subcommand. Errors are invalid input or usage.
fn run() -> anyhow::Result<ExitCode> {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => match err.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                // Not `err.exit()`: help that cannot be written is an error like any other
                // output, never a panic.
                err.print()?;
                return Ok(ExitCode::SUCCESS);
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                anyhow::bail!(
                    "missing command: expected solve, scramble, check, hint, bench, pdb, serve, \
                     play, completions or man (see 'npuzzle --help')"
                )
            }
            _ => anyhow::bail!("{} (see --help)", clap_reason(&err)),
        },
    };
    match cli.command {
        Command::Solve(args) => {
            stdio::check_stdout()?;
            cmd::solve::run(&args)
        }
        Command::Scramble(args) => {
            stdio::check_stdout()?;
            cmd::scramble::run(&args)
        }
        Command::Check(args) => {
            stdio::check_stdout()?;
            cmd::check::run(&args)
        }
        Command::Hint(args) => {
            stdio::check_stdout()?;
            cmd::hint::run(&args)
        }
        Command::Completions(args) => {
            stdio::check_stdout()?;
            // Generated into memory first: clap_complete panics when its writer fails.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut Cli::command(), "npuzzle", &mut script);
            stdio::print_bytes(&script)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man => {
            stdio::check_stdout()?;
            let mut page = Vec::new();
            man_page::render(&mut page)?;
            stdio::print_bytes(&page)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Bench(args) => cmd::bench::run(&args),
        Command::Pdb(args) => cmd::pdb::run(&args),
        Command::Play(args) => cmd::play::run(&args),
        Command::Serve(args) => cmd::serve::run(&args),
    }
}

/// A clap error in one line, keeping what helps a user fix it: the argument and value at
/// fault, the values accepted, and clap's "did you mean" suggestion. clap's own rendering
/// spreads these over several lines with usage and tips; the contract is one line.
fn clap_reason(err: &clap::Error) -> String {
    let context = |kind| err.get(kind).map(ToString::to_string);
    // `--format <FORMAT>` is named `--format` in a sentence.
    let arg = context(ContextKind::InvalidArg)
        .map(|a| a.split_whitespace().next().unwrap_or_default().to_string());
    let value = context(ContextKind::InvalidValue);
    let suggestion = [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand]
        .into_iter()
        .find_map(|kind| match err.get(kind) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            Some(ContextValue::Strings(list)) => list.first().cloned(),
            Some(other) => Some(other.to_string()),
            None => None,
        });
    let did_you_mean = suggestion.map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default();
    match (err.kind(), arg, value) {
        (ErrorKind::InvalidValue, Some(arg), Some(value)) => {
            let expected = match err.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(valid)) => format!(": expected {}", either(valid)),
                _ => String::new(),
            };
            format!("invalid value '{value}' for {arg}{expected}")
        }
        (ErrorKind::ValueValidation, Some(arg), Some(value)) => {
            let why = std::error::Error::source(err).map(|e| format!(": {e}")).unwrap_or_default();
            format!("invalid value '{value}' for {arg}{why}")
        }
        (ErrorKind::UnknownArgument, Some(arg), _) => {
            format!("unexpected argument '{arg}'{did_you_mean}")
        }
        (ErrorKind::InvalidSubcommand, _, _) => {
            let name = context(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("unknown command '{name}'{did_you_mean}")
        }
        _ => {
            let text = err.render().to_string();
            let first =
                text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("invalid usage");
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    }
}

/// `a, b or c`.
fn either(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// An error and its causes in one line, each reason once: a cause whose text its parent
/// already ends with (`"x" is not a number: "x" is not a number`) is not repeated.
fn reason(err: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in err.chain() {
        let text = one_line(&cause.to_string());
        if out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// Joins a possibly multi-line message into one line.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        let kind = e
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            // JSON output is written by serde_json, which wraps the I/O error in its own.
            .or_else(|| {
                e.downcast_ref::<serde_json::Error>().and_then(serde_json::Error::io_error_kind)
            });
        kind == Some(io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_repeated_by_its_cause_is_printed_once() {
        let inner = anyhow::anyhow!("\"bad\" is not a number");
        let err = inner.context("line 1: \"bad\" is not a number").context("stdin");
        assert_eq!(reason(&err), "stdin: line 1: \"bad\" is not a number");
    }

    #[test]
    fn lists_read_as_sentences() {
        let list =
            |items: &[&str]| either(&items.iter().map(ToString::to_string).collect::<Vec<_>>());
        assert_eq!(list(&["text"]), "text");
        assert_eq!(list(&["text", "json"]), "text or json");
        assert_eq!(list(&["text", "moves", "json"]), "text, moves or json");
    }
}
