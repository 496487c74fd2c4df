//! The output formats of `npuzzle solve`: text, moves, compact and JSON lines.

use std::io::Write;

use npuzzle_core::{Board, Perspective};
use npuzzle_solver::{Algorithm, Heuristic, Note, Record, Solution, Status, thousands};

use crate::args::SolveFormat;
use crate::batch::Report;
use crate::input::Origin;

/// Writes reports, one board at a time, flushing after each so that long batches stream.
pub struct Printer<W: Write> {
    out: W,
    format: SolveFormat,
    steps: bool,
    perspective: Perspective,
    algorithm: Algorithm,
    heuristic: Heuristic,
    printed: usize,
}

impl<W: Write> Printer<W> {
    /// A printer of `format`; moves in the blank's directions when `blank` (except in JSON);
    /// `algorithm` and `heuristic` are the ones asked for, reported for boards the solver
    /// never saw.
    pub fn new(
        out: W,
        format: SolveFormat,
        steps: bool,
        blank: bool,
        algorithm: Algorithm,
        heuristic: Heuristic,
    ) -> Printer<W> {
        let perspective = if blank { Perspective::Blank } else { Perspective::Tile };
        Printer { out, format, steps, perspective, algorithm, heuristic, printed: 0 }
    }

    /// Writes one board's report.
    ///
    /// # Errors
    /// When the output cannot be written.
    pub fn print(&mut self, report: &Report) -> anyhow::Result<()> {
        match self.format {
            SolveFormat::Text => self.text(report)?,
            SolveFormat::Moves | SolveFormat::Compact => {
                let compact = self.format == SolveFormat::Compact;
                let moves = solved(report)
                    .map(|s| s.moves.to_text(self.perspective, compact))
                    .unwrap_or_default();
                writeln!(self.out, "{moves}")?;
            }
            SolveFormat::Json => {
                let record = self.json(report);
                serde_json::to_writer(&mut self.out, &record)?;
                writeln!(self.out)?;
            }
        }
        self.printed += 1;
        self.out.flush()?;
        Ok(())
    }

    /// The board's record: the library's JSON object (the same as the web API's), with
    /// what only the command line knows (the file's line and expected length, and the
    /// reasons in its own words).
    fn json(&self, report: &Report) -> Record {
        let job = &report.job;
        let error = report.error().unwrap_or_default();
        let mut record = match (&job.input, report.solution()) {
            (Ok(t), Some(s)) => Record::new(&t.board, &t.goal, s),
            (Ok(t), None) => Record::invalid(
                &t.board.to_string(),
                Some(&t.goal),
                Some((t.board.width(), t.board.height())),
                self.algorithm,
                self.heuristic,
                &error,
            ),
            (Err(inv), _) => Record::invalid(
                &inv.text,
                inv.goal.as_ref(),
                inv.size,
                self.algorithm,
                self.heuristic,
                &error,
            ),
        };
        // What the replay found (a solver defect) wins over the solver's own account.
        record.tiles.clone_from(&report.tiles);
        record.error = report.error();
        record.expected_length = job.expected;
        record.line = job.origin.line();
        record
    }

    fn text(&mut self, report: &Report) -> std::io::Result<()> {
        let out = &mut self.out;
        if self.printed > 0 {
            writeln!(out)?;
        }
        let job = &report.job;
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
            // The reason says "unsolvable towards ...".
            Status::Unsolvable => writeln!(out, "{}", report.error().unwrap_or_default()),
            Status::Limit => {
                writeln!(out, "limit: {} — {effort}", report.error().unwrap_or_default())
            }
            Status::Solved => {
                let n = s.moves.len();
                let optimal = match (s.optimal, s.lower_bound) {
                    (true, _) => "optimal".to_string(),
                    (false, Some(bound)) => format!("not proven optimal; lower bound {bound}"),
                    (false, None) => "not proven optimal".to_string(),
                };
                let plural = if n == 1 { "" } else { "s" };
                writeln!(
                    out,
                    "solved: {} move{plural} ({optimal}) — {effort}",
                    thousands(n as u64)
                )?;
                let whose = match self.perspective {
                    Perspective::Tile => "",
                    Perspective::Blank => " (blank directions)",
                };
                if n == 0 {
                    writeln!(out, "moves: (none: the board is the goal)")?;
                } else {
                    writeln!(out, "moves{whose}: {}", s.moves.to_text(self.perspective, false))?;
                    let multi = s.moves.multi_tile_len();
                    if multi < n {
                        writeln!(
                            out,
                            "compact{whose}: {}",
                            s.moves.to_text(self.perspective, true)
                        )?;
                        let s = if multi == 1 { "" } else { "s" };
                        writeln!(out, "multi-tile metric: {} move{s}", thousands(multi as u64))?;
                    }
                }
                if let Some(note) = s.note() {
                    writeln!(out, "note: {note}{}", note_advice(s))?;
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

/// What the command line adds to the solver's notes: how to insist on an optimum, or give
/// the near-optimal engine the whole time limit.
pub fn note_advice(solution: &Solution) -> &'static str {
    if solution.notes.iter().any(|n| matches!(n, Note::WeightedAStar { .. })) {
        "; use --optimal to insist on a proven optimum"
    } else if matches!(solution.notes.last(), Some(Note::NearCut { quick: true, .. })) {
        " (--algorithm near)"
    } else {
        ""
    }
}

/// The solution, when the board was solved.
fn solved(report: &Report) -> Option<&Solution> {
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
