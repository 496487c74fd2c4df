//! `npuzzle scramble`: random boards, as an instance file or JSON lines.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::{SystemTime, UNIX_EPOCH};

use anyhow::{Context, bail};
use npuzzle_core::{Goal, Scrambler, Size};
use serde::Serialize;

use crate::args::{ScrambleArgs, ScrambleFormat};

/// The side scrambled when neither --size nor an explicit goal board names one: the
/// 15-puzzle, the board people mean by "sliding puzzle".
const DEFAULT_SIDE: usize = 4;

/// Random-walk steps one run may take in all: about ten seconds of work. Past that a run would
/// look hung.
const MAX_WALK_STEPS: u64 = 1_000_000_000;

/// One line of `scramble --format json`.
#[derive(Debug, Serialize)]
struct JsonBoard<'a> {
    board: String,
    size: String,
    /// The goal's name, or its inline form for an explicit goal.
    goal: &'a str,
    seed: u64,
    walk: Option<u64>,
    solvable: bool,
}

/// Runs `npuzzle scramble`.
pub fn run(args: &ScrambleArgs) -> anyhow::Result<ExitCode> {
    let size = match (args.size, &args.goal) {
        (Some(size), _) => size,
        (None, Goal::Board(goal)) => goal.size(),
        (None, _) => Size::square(DEFAULT_SIDE)?,
    };
    let goal = args.goal.board(size).context("--goal")?;
    if let Some(k) = args.walk {
        if k.saturating_mul(args.count) > MAX_WALK_STEPS {
            bail!(
                "--count times --walk is at most 1,000,000,000 moves; ask for fewer boards or shorter walks"
            );
        }
    }
    let seed = match args.seed {
        Some(seed) => seed,
        None => {
            let seed = clock_seed();
            crate::stdio::note(format_args!("# seed: {seed}"));
            seed
        }
    };
    let mut rng = Scrambler::new(seed);
    let goal_name = args.goal.to_string();
    let mut out = BufWriter::new(io::stdout().lock());
    if args.format == ScrambleFormat::Text && args.goal != Goal::BlankLast {
        // Makes the output an instance file that `solve --input -` reads with the right goal.
        writeln!(out, "# goal: {goal_name}")?;
    }
    for _ in 0..args.count {
        let board = match args.walk {
            // The walk is at most MAX_WALK moves, which fits any usize.
            Some(k) => rng.walk(&goal, usize::try_from(k).unwrap_or(usize::MAX)).0,
            None if args.unsolvable => rng.unsolvable(&goal),
            None => rng.solvable(&goal),
        };
        match args.format {
            ScrambleFormat::Text => writeln!(out, "{board}")?,
            ScrambleFormat::Json => {
                let line = JsonBoard {
                    board: board.to_string(),
                    size: size.to_string(),
                    goal: &goal_name,
                    seed,
                    walk: args.walk,
                    solvable: board.is_solvable(&goal),
                };
                serde_json::to_writer(&mut out, &line)?;
                writeln!(out)?;
            }
        }
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// A seed from the clock, below 2^53 so that JSON readers that use doubles keep it exact.
fn clock_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    // Mix in the process id so two runs started in the same tick differ.
    let mixed = (nanos as u64) ^ u64::from(std::process::id()).rotate_left(32);
    mixed & ((1 << 53) - 1)
}
