//! The three output formats of `npuzzle solve`: text, moves and JSON lines.

use std::io::Write;

use npuzzle_core::Board;
use npuzzle_solver::{Algorithm, Heuristic, Solution, Status, thousands};
use serde::Serialize;

use crate::args::SolveFormat;
use crate::input::Origin;
use crate::solve_cmd::Report;

/// Writes reports, one board at a time, flushing after each so that long batches stream.
pub struct Printer<W: Write> {
    out: W,
    format: SolveFormat,
    steps: bool,
    algorithm: Algorithm,
    heuristic: Heuristic,
    printed: usize,
}

/// One line of `--format json`. Field order is the order of the DESIGN contract.
#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    status: &'static str,
    /// Inline form; for a board that could not be read, the text given.
    board: String,
    /// Inline form of the goal board; null when no goal board could be made.
    goal: Option<String>,
    width: Option<usize>,
    height: Option<usize>,
    algorithm: &'static str,
    heuristic: Option<&'static str>,
    optimal: bool,
    /// Null unless solved.
    length: Option<usize>,
    moves: String,
    tiles: &'a [u16],
    expanded: u64,
    generated: u64,
    max_frontier: u64,
    seconds: f64,
    error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<usize>,
}

impl<W: Write> Printer<W> {
    /// A printer of `format`; `algorithm` and `heuristic` are the ones asked for, reported for
    /// boards the solver never saw.
    pub fn new(
        out: W,
        format: SolveFormat,
        steps: bool,
        algorithm: Algorithm,
        heuristic: Heuristic,
    ) -> Printer<W> {
        Printer { out, format, steps, algorithm, heuristic, printed: 0 }
    }

    /// Writes one board's report.
    ///
    /// # Errors
    /// When the output cannot be written.
    pub fn print(&mut self, report: &Report<'_>) -> anyhow::Result<()> {
        match self.format {
            SolveFormat::Text => self.text(report)?,
            SolveFormat::Moves => {
                let moves = solved(report).map(|s| s.moves.to_string()).unwrap_or_default();
                writeln!(self.out, "{moves}")?;
            }
            SolveFormat::Json => {
                let line = self.json(report);
                serde_json::to_writer(&mut self.out, &line)?;
                writeln!(self.out)?;
            }
        }
        self.printed += 1;
        self.out.flush()?;
        Ok(())
    }

    fn json<'r>(&self, report: &'r Report<'_>) -> JsonReport<'r> {
        let job = report.job;
        let s = report.solution();
        let (board, goal, size) = match &job.input {
            Ok(t) => (
                t.board.to_string(),
                Some(t.goal.to_string()),
                Some((t.board.width(), t.board.height())),
            ),
            Err(inv) => (inv.text.clone(), inv.goal.as_ref().map(Board::to_string), inv.size),
        };
        let solved = solved(report);
        let stats = s.map(|s| s.stats).unwrap_or_default();
        JsonReport {
            status: report.status(),
            board,
            goal,
            width: size.map(|(w, _)| w),
            height: size.map(|(_, h)| h),
            algorithm: s.map_or(self.algorithm, |s| s.algorithm).name(),
            heuristic: match s {
                Some(s) => s.heuristic.map(Heuristic::name),
                None => Some(self.heuristic.name()),
            },
            optimal: solved.is_some_and(|s| s.optimal),
            length: solved.map(|s| s.moves.len()),
            moves: solved.map(|s| s.moves.to_string()).unwrap_or_default(),
            tiles: &report.tiles,
            expanded: stats.expanded,
            generated: stats.generated,
            max_frontier: stats.max_frontier,
            seconds: stats.seconds,
            error: report.error(),
            expected_length: job.expected,
            note: solved.and_then(|s| s.message.clone()),
            line: job.origin.line(),
        }
    }

    fn text(&mut self, report: &Report<'_>) -> std::io::Result<()> {
        let out = &mut self.out;
        if self.printed > 0 {
            writeln!(out)?;
        }
        let job = report.job;
        match &job.input {
            Ok(t) => write!(out, "board: {}  goal: {}", t.board, t.goal)?,
            Err(inv) => {
                write!(out, "board: {}", inv.text.split_whitespace().collect::<Vec<_>>().join(" "))?
            }
        }
        match (&job.origin, job.expected) {
            (Origin::Line(line), Some(n)) => writeln!(out, "  (line {line}, optimal {n})")?,
            (Origin::Line(line), None) => writeln!(out, "  (line {line})")?,
            (Origin::Arg(_), _) => writeln!(out)?,
        }
        let Some(s) = report.solution() else {
            return writeln!(out, "invalid: {}", report.error().unwrap_or_default());
        };
        let effort = format!(
            "algorithm {}, {}, {} expanded, {} generated, {:.4} s",
            s.algorithm,
            s.heuristic.map_or("no heuristic".to_string(), |h| format!("heuristic {h}")),
            thousands(s.stats.expanded),
            thousands(s.stats.generated),
            s.stats.seconds,
        );
        match s.status {
            Status::Unsolvable => {
                writeln!(out, "unsolvable: {}", report.error().unwrap_or_default())
            }
            Status::Limit => {
                writeln!(out, "limit: {} — {effort}", report.error().unwrap_or_default())
            }
            Status::Solved => {
                let n = s.moves.len();
                let optimal = if s.optimal { "optimal" } else { "not proven optimal" };
                let plural = if n == 1 { "" } else { "s" };
                writeln!(
                    out,
                    "solved: {} move{plural} ({optimal}) — {effort}",
                    thousands(n as u64)
                )?;
                if n == 0 {
                    writeln!(out, "moves: (none: the board is the goal)")?;
                } else {
                    writeln!(out, "moves: {}", s.moves)?;
                    let compact = s.moves.compact();
                    if compact.len() < n {
                        writeln!(out, "compact: {compact}")?;
                    }
                }
                if let Some(note) = &s.message {
                    writeln!(out, "note: {note}")?;
                }
                if self.steps {
                    if let Ok(t) = &job.input {
                        steps(out, &t.board, s)?;
                    }
                }
                Ok(())
            }
        }
    }
}

/// The solution, when the board was solved.
fn solved<'r>(report: &'r Report<'_>) -> Option<&'r Solution> {
    report.solution().filter(|s| s.status == Status::Solved)
}

/// Every position along the solution, as grids, the way tutorials show them.
fn steps(out: &mut impl Write, board: &Board, solution: &Solution) -> std::io::Result<()> {
    let mut b = board.clone();
    writeln!(out)?;
    writeln!(out, "start:")?;
    write!(out, "{}", b.grid(true))?;
    for (i, &m) in solution.moves.as_slice().iter().enumerate() {
        let tile = b.tile_for_move(m);
        if b.apply(m).is_err() {
            // Report::new has flagged it; show where it went wrong and stop.
            return writeln!(out, "move {}: {m} is illegal here", i + 1);
        }
        let direction = match m.letter() {
            'U' => "up",
            'D' => "down",
            'L' => "left",
            _ => "right",
        };
        writeln!(out)?;
        writeln!(out, "move {}: tile {} slides {direction} ({m})", i + 1, tile.unwrap_or(0))?;
        write!(out, "{}", b.grid(true))?;
    }
    Ok(())
}
