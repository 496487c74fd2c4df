//! What the solver answers.

use std::fmt;
use std::time::Duration;

use npuzzle_core::{Board, MoveError, Moves, Parity};
use npuzzle_search::Stop;

use crate::heuristic::HeuristicKind;
use crate::options::Algorithm;

/// How a solve ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// A solution was found.
    Solved,
    /// The board cannot reach the goal.
    Unsolvable,
    /// A limit (nodes, memory, time) was reached, or the solve was cancelled.
    Limit,
}

impl Status {
    /// `solved`, `unsolvable` or `limit`, as in the JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Search effort, as every engine reports it: the search crate's statistics (nodes expanded
/// and generated, the largest frontier, wall-clock seconds with table builds included).
pub use npuzzle_search::Stats;

/// Why a search ended without a solution (inside the crate: the engines' common answer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    /// A limit or the observer stopped it.
    Stopped(Stop),
    /// Everything reachable was searched: impossible for a solvable board without a depth
    /// limit, so reported as [`Reason::Exhausted`], never as a limit.
    Exhausted,
}

/// The limit that stopped a search, with the value it had.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// The node limit: this many expansions.
    Nodes(u64),
    /// The memory limit, in bytes.
    Memory(usize),
    /// The time limit.
    Time(Duration),
    /// The cancel flag was raised, or an observer asked to stop.
    Cancelled,
}

impl Limit {
    /// The search crate's name for it.
    pub fn stop(self) -> Stop {
        match self {
            Limit::Nodes(_) => Stop::Nodes,
            Limit::Memory(_) => Stop::Memory,
            Limit::Time(_) => Stop::Time,
            Limit::Cancelled => Stop::Cancelled,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Limit::Nodes(n) => write!(f, "node limit of {} reached", thousands(n)),
            Limit::Memory(bytes) => write!(f, "memory limit of {} MiB reached", bytes >> 20),
            Limit::Time(t) => write!(f, "time limit of {} s reached", t.as_secs_f64()),
            Limit::Cancelled => f.write_str("search cancelled"),
        }
    }
}

/// Why a board was not solved: set exactly when [`Solution::status`] is not
/// [`Status::Solved`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Reason {
    /// The board cannot reach the goal: the parity that forbids it.
    Unsolvable(Parity),
    /// A limit stopped the search before a solution was found.
    Limit(Limit),
    /// The search space was exhausted without reaching the goal. A solvable board always
    /// reaches it, so this is a defect of the solver, reported as it is rather than as a
    /// limit.
    Exhausted,
    /// The reduction solver could not finish (a defect of the solver; the message says
    /// where).
    Reduction(String),
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Unsolvable(parity) => write!(f, "{parity}"),
            Reason::Limit(limit) => write!(f, "{limit}"),
            Reason::Exhausted => f.write_str("search space exhausted without reaching the goal"),
            Reason::Reduction(message) => f.write_str(message),
        }
    }
}

/// Something the caller should know about how an answer was found: chiefly why it is not
/// proven optimal. Each front end words these its own way; [`fmt::Display`] gives a neutral
/// wording that names no command-line flag.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Note {
    /// `auto` gave an optimal search this long and it found no proven optimum in time, so a
    /// faster method answered.
    OptimalAttemptGaveUp {
        /// The heuristic the optimal search used.
        heuristic: HeuristicKind,
        /// The time it was given.
        budget: Duration,
    },
    /// `auto` answered with weighted A* (at most `weight` times the optimum).
    WeightedAStar {
        /// The weight.
        weight: f64,
    },
    /// The reduction solver placed rows and columns; the optimum is at least `lower_bound`
    /// (the Manhattan distance).
    Reduction {
        /// The Manhattan lower bound.
        lower_bound: u64,
    },
    /// A pattern-database heuristic was asked for but no database for the goal was given,
    /// so linear conflict guided the search.
    NoDatabase,
    /// The 24-puzzle's tables (Korf & Felner's 6-6-6-6 databases, about a minute to build)
    /// were neither held nor cached, and their build did not end within the time limit: no
    /// search ran. Built once, they are kept in the cache.
    TablesNotReady {
        /// The time limit the build ran into.
        timeout: Duration,
    },
    /// The tables the plan runs over (a pattern database, or Korf & Felner's 6-6-6-6 tables
    /// of the 24-puzzle) were not held in memory, and loading them would have passed the
    /// memory limit: the answer was found without them.
    TablesTooLarge {
        /// Whether they are Korf & Felner's tables (otherwise a pattern database).
        twentyfour: bool,
        /// What loading them would have added, in bytes.
        bytes: u64,
        /// The memory limit of the search, in bytes.
        limit: usize,
    },
    /// The strongest cached pattern database for the goal would have passed the memory
    /// limit, so the strongest cached one within it guided the search.
    SmallerDatabase {
        /// The size of the strongest one's file, in bytes.
        bytes: u64,
        /// The size of the file used, in bytes.
        used: u64,
        /// The memory limit of the search, in bytes.
        limit: usize,
    },
    /// The tables the plan runs over (a pattern database, or Korf & Felner's 6-6-6-6 tables
    /// of the 24-puzzle) were cached but not held in memory, and their file did not load
    /// within the time limit (hundreds of megabytes: a second or more from disk): the answer
    /// was found without them. Their load goes on, for the solves after it in the process (a
    /// server's, a batch's).
    TablesNotLoaded {
        /// Whether they are Korf & Felner's tables (otherwise a pattern database).
        twentyfour: bool,
        /// The file's size, in bytes.
        bytes: u64,
        /// The time limit of the step that waited for them.
        timeout: Duration,
    },
    /// The heuristic the request named did not guide the answer: the algorithm uses none,
    /// the exact table answered, or it is not available for this board (then `ran` guided
    /// the search instead). Labels always name what ran; this says why it differs.
    HeuristicNotUsed {
        /// The heuristic asked for.
        asked: HeuristicKind,
        /// The heuristic that ran instead, if any.
        ran: Option<HeuristicKind>,
        /// The algorithm that answered.
        algorithm: crate::Algorithm,
    },
    /// A watched or sampled search (a visualizer's) could not use the heuristic asked for:
    /// its node-by-node engines have no tables for it.
    NotWatchable {
        /// The heuristic asked for.
        asked: HeuristicKind,
        /// The heuristic that ran instead.
        ran: HeuristicKind,
    },
    /// The near-optimal engine answered (beam searches ranked by Manhattan distance, linear
    /// conflicts and squared distances, then beams and IDA* over windows of the path):
    /// the optimum is at least `lower_bound` moves, so this answer is at most
    /// `length - lower_bound` moves longer than it.
    Near {
        /// The proven lower bound.
        lower_bound: u64,
        /// The answer's length.
        length: usize,
        /// Whether Korf & Felner's 6-6-6-6 tables ran (5x5, cached): IDA* over them at the
        /// root, the forward beam ranked by them, and windows re-solved over them; otherwise
        /// linear conflict proves the bound.
        tables: bool,
        /// Whether a beam stopped short of the goal and the reduction solver finished its
        /// path (before the windows shortened it).
        finished_by_reduction: bool,
        /// How many more times the engine ran, each from a position one or two moves from
        /// the board: first the one after the answer's first move, then the board's other
        /// neighbours, then the positions two moves away (5x5 with the tables, an answer far
        /// above its bound, time left).
        restarted: u32,
        /// The width of the wide beam over the tables of a second run from the board itself,
        /// 0 when none ran (5x5 with the tables, an answer far above its bound, time left);
        /// the runs counted by `restarted` come after it.
        wide: usize,
        /// Whether a beam stopped a few tiles short of the goal and its misplaced tiles were
        /// mended a knot at a time (before the windows shortened the path).
        mended: bool,
        /// On a board beyond 64x64, or beyond what the engine takes in the time given, the
        /// width and height of the region the reduction solver left for the engine (it
        /// brought every other tile home first).
        peeled: Option<(usize, usize)>,
    },
    /// The near-optimal engine, a step of `auto`, stopped at a limit before its first
    /// answer (its time: a loaded machine, a tight limit; or a memory limit below its
    /// narrowest beam; or the node limit), so the reduction solver answered.
    NearGaveUp {
        /// The limit that stopped it: for time, the time it was given.
        limit: Limit,
    },
    /// A limit ended the near-optimal engine before its plan was done, or cut the plan down
    /// (less time than its beams take, beams narrowed for the memory), so its answer is
    /// longer than with more room: a seeded 7x7 board, 318 moves in its usual 11 s, 472
    /// within 0.3 s or 3 M nodes. (Not in the anytime mode, whose plan is to run to its
    /// limit.)
    NearCut {
        /// The limit: for time, the time the engine was given; for memory, its share.
        limit: Limit,
        /// Whether the time was `auto`'s quick budget for boards beyond 16x16 (an answer in
        /// about a second on 32x32, whatever the time limit), not the caller's limit.
        quick: bool,
    },
    /// The near-optimal engine, a step of `auto`, answered, but with a longer path than the
    /// reduction solver's (in a short budget: a tight limit, a slow machine, the largest
    /// boards it takes), so the reduction solver's answer is given.
    NearLonger {
        /// The near-optimal engine's answer's length.
        length: usize,
        /// The seconds it took.
        seconds: f64,
    },
    /// The reduction solver's anytime mode improved its first answer.
    Improved {
        /// The first answer's length.
        from: usize,
        /// The answer's length.
        to: usize,
        /// Attempts made.
        attempts: u64,
    },
    /// A hint read from the path an earlier hint found (a [`crate::Trail`]), `moves` moves
    /// back along it, without a search of its own: the rest of that path, its bound less
    /// the moves made.
    Followed {
        /// The moves made along the path since it was found.
        moves: usize,
    },
}

/// `secs` with `digits` decimals and its unit, as the notes give a step's budget; below a
/// hundredth of a second (a tiny timeout's share) in milliseconds, "0.8 ms" rather than
/// "0.00 s".
fn budget_text(secs: f64, digits: usize) -> String {
    if secs < 0.01 { format!("{:.1} ms", secs * 1000.0) } else { format!("{secs:.digits$} s") }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Note::OptimalAttemptGaveUp { heuristic, budget } => {
                // Budgets are cut from timeouts (1.6 s of 2 s): show the tenths, not a
                // rounded number the attempt never had.
                let secs = budget.as_secs_f64();
                let secs = if secs.fract() == 0.0 {
                    format!("{secs:.0} s")
                } else {
                    budget_text(secs, if secs < 0.1 { 2 } else { 1 })
                };
                write!(f, "IDA* + {heuristic} found no proven optimum within {secs}")
            }
            Note::WeightedAStar { weight } => write!(f, "auto used weighted A* (w = {weight})"),
            Note::Reduction { lower_bound } => write!(
                f,
                "the reduction solver placed rows and columns (Manhattan lower bound {lower_bound})"
            ),
            Note::NotWatchable { asked, ran } => write!(
                f,
                "{} has no node-by-node engine to watch, so {} guided this search (npuzzle solve runs {} itself)",
                asked.name(),
                ran.name(),
                asked.name()
            ),
            Note::HeuristicNotUsed { asked, ran: Some(ran), .. } => write!(
                f,
                "{} is not available for this board, so {} guided the search",
                asked.name(),
                ran.name()
            ),
            Note::HeuristicNotUsed { asked, ran: None, algorithm } => {
                if *algorithm == crate::Algorithm::Table {
                    write!(
                        f,
                        "the exact distance table answered (it needs no heuristic), so {} was not used",
                        asked.name()
                    )
                } else {
                    write!(
                        f,
                        "{} uses no heuristic, so {} was not used",
                        algorithm.name(),
                        asked.name()
                    )
                }
            }
            Note::Near {
                lower_bound,
                length,
                tables,
                finished_by_reduction,
                restarted,
                wide,
                mended,
                peeled,
            } => {
                let gap = (*length as u64).saturating_sub(*lower_bound);
                let percent =
                    if *lower_bound > 0 { 100.0 * gap as f64 / *lower_bound as f64 } else { 0.0 };
                if *tables {
                    write!(
                        f,
                        "near-optimal engine (a beam search ranked by Korf & Felner's 6-6-6-6 \
                         tables, one from the goal ranked by Manhattan distance, linear \
                         conflicts and squared distances, then beams and IDA* over windows of \
                         the path; the tables prove the bound with linear conflict, re-solve \
                         windows of up to 70 moves and search for an answer two moves \
                         shorter{again}): the optimum is at least {lower_bound} \
                         moves, so this answer is at most {gap} moves ({percent:.1}%) longer",
                        again = match (*wide, restarted) {
                            (0, 0) => String::new(),
                            (0, 1) => "; far above the bound, the engine ran again from the \
                                       position after the first move"
                                .to_string(),
                            (0, n) => format!(
                                "; far above the bound, the engine ran {n} more times, each \
                                 from a position one or two moves from the board"
                            ),
                            (w, 0) => format!(
                                "; far above the bound, the engine ran again with a beam {} \
                                 wide",
                                thousands(w as u64)
                            ),
                            (w, 1) => format!(
                                "; far above the bound, the engine ran again with a beam {} \
                                 wide, then once more from the position after the first move",
                                thousands(w as u64)
                            ),
                            (w, n) => format!(
                                "; far above the bound, the engine ran again with a beam {} \
                                 wide, then {n} more times from positions one or two moves \
                                 from the board",
                                thousands(w as u64)
                            ),
                        }
                    )?;
                } else {
                    write!(
                        f,
                        "near-optimal engine (beam searches ranked by Manhattan distance, linear \
                         conflicts and squared distances, then beams and IDA* over windows of \
                         the path; linear conflict proves the bound): the optimum is at least \
                         {lower_bound} moves, so this answer is at most {gap} moves \
                         ({percent:.1}%) longer"
                    )?;
                }
                if *finished_by_reduction {
                    f.write_str(
                        "; a beam went round without reaching the goal, and the reduction \
                         solver finished its path",
                    )?;
                }
                if *mended {
                    f.write_str(
                        "; a beam stopped a few tiles short of the goal, and they were mended \
                         a knot at a time",
                    )?;
                }
                if let Some((w, h)) = peeled {
                    write!(
                        f,
                        "; the reduction solver first brought home every tile but those of a \
                         {w}x{h} region (the largest the engine takes in the time given at this \
                         machine's pace, 64x64 at most), which the engine solved"
                    )?;
                }
                Ok(())
            }
            Note::NearGaveUp { limit } => {
                match limit {
                    Limit::Memory(bytes) => write!(
                        f,
                        "the near-optimal engine's narrowest beam needs more memory than this \
                         solve's share of the memory limit ({} MiB)",
                        bytes >> 20
                    )?,
                    Limit::Nodes(n) => write!(
                        f,
                        "the near-optimal engine found no answer within the node limit ({})",
                        thousands(*n)
                    )?,
                    // Hundredths below a second: a tight timeout's share (0.04 s) is no "0.0".
                    Limit::Time(t) => {
                        let secs = t.as_secs_f64();
                        let secs = budget_text(secs, if secs < 1.0 { 2 } else { 1 });
                        write!(f, "the near-optimal engine found no answer within {secs}")?;
                    }
                    Limit::Cancelled => f.write_str("the near-optimal engine was stopped")?,
                }
                // "turned to": the reduction solver may reach the same limit.
                f.write_str(", so auto turned to the reduction solver")
            }
            Note::NearCut { limit, quick } => match limit {
                Limit::Time(t) => {
                    let secs = t.as_secs_f64();
                    let secs = budget_text(secs, if secs < 1.0 { 2 } else { 1 });
                    if *quick {
                        return write!(
                            f,
                            "auto gives the near-optimal engine {secs} on a board this large, \
                             which cut its plan short: the engine alone, with the whole time \
                             limit, answers shorter"
                        );
                    }
                    write!(
                        f,
                        "the time limit ({secs}) cut the near-optimal engine's plan short: \
                         with more time its answers are shorter"
                    )
                }
                Limit::Nodes(n) => write!(
                    f,
                    "the node limit ({}) cut the near-optimal engine's plan short: with more \
                     nodes its answers are shorter",
                    thousands(*n)
                ),
                Limit::Memory(bytes) => write!(
                    f,
                    "the near-optimal engine narrowed its beams to fit in the memory limit \
                     ({} MiB): with more memory its answers are shorter",
                    bytes >> 20
                ),
                Limit::Cancelled => f.write_str(
                    "the near-optimal engine was stopped before its plan was done: this is \
                     its best answer so far",
                ),
            },
            Note::NearLonger { length, seconds } => write!(
                f,
                "the near-optimal engine's answer in {} was longer ({} moves), so auto answered \
                 with the reduction solver",
                budget_text(*seconds, if *seconds < 1.0 { 2 } else { 1 }),
                thousands(*length as u64)
            ),
            Note::NoDatabase => {
                f.write_str("no pattern database for this goal: linear conflict was used")
            }
            Note::TablesTooLarge { twentyfour, bytes, limit } => {
                let (what, they) = if *twentyfour {
                    ("Korf & Felner's 6-6-6-6 tables", "they were")
                } else {
                    ("the pattern database for this goal", "it was")
                };
                write!(
                    f,
                    "{what} ({} MB) would not fit in the memory limit ({} MiB), so {they} not \
                     loaded and linear conflict was used",
                    bytes.div_ceil(1_000_000),
                    limit >> 20
                )
            }
            Note::SmallerDatabase { bytes, used, limit } => write!(
                f,
                "the strongest pattern database for this goal ({}) would not fit in the \
                 memory limit ({} MiB), so a smaller one ({}) was used",
                megabytes(*bytes),
                limit >> 20,
                megabytes(*used)
            ),
            Note::TablesNotLoaded { twentyfour, bytes, timeout } => {
                let (what, its) = if *twentyfour {
                    ("Korf & Felner's 6-6-6-6 tables", "their")
                } else {
                    ("the pattern database for this goal", "its")
                };
                let secs = timeout.as_secs_f64();
                write!(
                    f,
                    "{what} ({} MB) did not load within the time limit ({}), so linear \
                     conflict was used ({its} load goes on, for later solves in this process)",
                    bytes.div_ceil(1_000_000),
                    budget_text(secs, if secs < 1.0 { 2 } else { 1 })
                )
            }
            Note::TablesNotReady { timeout } => write!(
                f,
                "the 24-puzzle's 6-6-6-6 tables were not built within the time limit ({:.0} s): \
                 no search ran; built once (about a minute), they are cached",
                timeout.as_secs_f64()
            ),
            Note::Improved { from, to, attempts } => {
                let attempts = match attempts {
                    1 => "1 attempt".to_string(),
                    n => format!("{n} attempts"),
                };
                if to < from {
                    write!(
                        f,
                        "the anytime mode improved it from {from} to {to} moves in {attempts}"
                    )
                } else {
                    // "improved it from 4 to 4 moves" said what did not happen.
                    write!(
                        f,
                        "the anytime mode found nothing shorter than {from} moves in {attempts}"
                    )
                }
            }
            Note::Followed { moves } => {
                let moves =
                    if *moves == 1 { "1 move".to_string() } else { format!("{moves} moves") };
                write!(f, "the rest of the path a hint found {moves} back (no new search)")
            }
        }
    }
}

/// The answer to one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// How it ended.
    pub status: Status,
    /// The moves, tile direction (empty unless solved).
    pub moves: Moves,
    /// True only when the length is proven minimal.
    pub optimal: bool,
    /// The algorithm that actually ran (never `Auto`).
    pub algorithm: Algorithm,
    /// The heuristic that actually guided it, if any.
    pub heuristic: Option<HeuristicKind>,
    /// Search effort.
    pub stats: Stats,
    /// A proven lower bound on the optimal length: the length itself when optimal; IDA*'s
    /// last bound or A*'s last f layer when a search stopped; otherwise the heuristic of the
    /// start. `None` for an unsolvable board.
    pub lower_bound: Option<u64>,
    /// Why it was not solved (`None` exactly when solved).
    pub reason: Option<Reason>,
    /// How the answer was found, chiefly why it is not proven optimal (in order).
    pub notes: Vec<Note>,
}

impl Solution {
    /// An answer with no moves, for an engine to fill in: nothing proven, no lower bound,
    /// reason or notes, and zero effort.
    pub fn without_moves(
        status: Status,
        algorithm: Algorithm,
        heuristic: Option<HeuristicKind>,
    ) -> Solution {
        Solution {
            status,
            moves: Moves::default(),
            optimal: false,
            algorithm,
            heuristic,
            stats: Stats::default(),
            lower_bound: None,
            reason: None,
            notes: Vec::new(),
        }
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution has no moves (the board was already the goal, or not solved).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The limit that stopped the search, when one did.
    pub fn limit(&self) -> Option<Limit> {
        match self.reason {
            Some(Reason::Limit(limit)) => Some(limit),
            _ => None,
        }
    }

    /// Why the board was not solved, in one neutral line (no command-line advice), with the
    /// effort spent when a limit stopped it; `None` when solved.
    pub fn error(&self) -> Option<String> {
        let reason = self.reason.as_ref()?;
        Some(match reason {
            Reason::Limit(Limit::Nodes(_)) => reason.to_string(),
            Reason::Limit(_) | Reason::Exhausted => {
                format!("{reason} after {} expanded nodes", thousands(self.stats.expanded))
            }
            _ => reason.to_string(),
        })
    }

    /// The notes as one line: `not proven optimal: ...` for an answer not proven optimal;
    /// `None` when there are none.
    pub fn note(&self) -> Option<String> {
        if self.notes.is_empty() {
            return None;
        }
        let mut text = String::new();
        if self.status == Status::Solved && !self.optimal {
            text.push_str("not proven optimal: ");
        }
        for (i, note) in self.notes.iter().enumerate() {
            // "... so linear conflict was used (...); the near-optimal engine found no
            // answer ..." rather than a second "so".
            let after_tables = i > 0
                && matches!(
                    self.notes[i - 1],
                    Note::TablesNotLoaded { .. } | Note::TablesTooLarge { .. }
                );
            let after_gave_up = i > 0
                && matches!(self.notes[i - 1], Note::NearGaveUp { .. } | Note::NearLonger { .. });
            let sep = match (i, note) {
                (0, _) => "",
                // "... found no proven optimum within 4.0 s, so auto used the near-optimal
                // engine (...)".
                (_, Note::Near { .. })
                    if matches!(self.notes[i - 1], Note::OptimalAttemptGaveUp { .. }) =>
                {
                    ", so auto used the "
                }
                (_, Note::NearGaveUp { .. })
                    if matches!(self.notes[i - 1], Note::OptimalAttemptGaveUp { .. }) =>
                {
                    "; "
                }
                (
                    _,
                    Note::Improved { .. }
                    | Note::HeuristicNotUsed { .. }
                    | Note::Near { .. }
                    | Note::TablesTooLarge { .. }
                    | Note::TablesNotLoaded { .. }
                    | Note::SmallerDatabase { .. }
                    | Note::NearCut { .. }
                    | Note::Followed { .. },
                ) => "; ",
                // "auto turned to the reduction solver; the reduction solver placed ..."
                // rather than a second "so".
                (_, Note::Reduction { .. }) if after_gave_up => "; ",
                _ if after_tables => "; ",
                _ => ", so ",
            };
            text.push_str(sep);
            let piece = note.to_string();
            // After the near-optimal engine on 4x4 comes weighted A*, whose note says so.
            let next_wastar = matches!(self.notes.get(i + 1), Some(Note::WeightedAStar { .. }));
            let turned = ", so auto turned to the reduction solver";
            match piece.strip_suffix(turned) {
                Some(gave_up) if next_wastar => text.push_str(gave_up),
                _ => text.push_str(&piece),
            }
        }
        Some(text)
    }
}

/// A file's size in megabytes for a note: one decimal below 10 MB (a 3x4 database is a
/// fraction of one), whole megabytes above.
fn megabytes(bytes: u64) -> String {
    let mb = bytes as f64 / 1e6;
    if mb < 10.0 { format!("{mb:.1} MB") } else { format!("{} MB", bytes.div_ceil(1_000_000)) }
}

/// `1234567` as `1,234,567`: node counts in messages and text output.
///
/// # Examples
/// ```
/// assert_eq!(npuzzle_solver::thousands(1234567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    /// A budget or a time reads in seconds, with the decimals that show it, or in milliseconds.
    #[test]
    fn budgets_read_in_the_unit_that_shows_them() {
        let attempt = |micros| {
            let budget = Duration::from_micros(micros);
            Note::OptimalAttemptGaveUp { heuristic: HeuristicKind::Pdb, budget }.to_string()
        };
        let near = |micros| {
            Note::NearGaveUp { limit: Limit::Time(Duration::from_micros(micros)) }.to_string()
        };
        assert!(attempt(800).ends_with("within 0.8 ms"), "{}", attempt(800));
        assert!(attempt(40_000).ends_with("within 0.04 s"), "{}", attempt(40_000));
        assert!(attempt(1_600_000).ends_with("within 1.6 s"), "{}", attempt(1_600_000));
        assert!(attempt(5_000_000).ends_with("within 5 s"), "{}", attempt(5_000_000));
        assert!(near(950).contains("within 0.9 ms, "), "{}", near(950));
        assert!(near(475_000).contains("within 0.47 s, "), "{}", near(475_000));
        assert!(near(4_000_000).contains("within 4.0 s, "), "{}", near(4_000_000));
        let longer = |seconds| Note::NearLonger { length: 2_623, seconds }.to_string();
        assert!(longer(0.041).contains("answer in 0.04 s was"), "{}", longer(0.041));
        assert!(longer(2.46).contains("answer in 2.5 s was"), "{}", longer(2.46));
    }

    /// The near engine's note names the further runs only when they ran, and how many.
    #[test]
    fn the_near_note_counts_the_runs_that_ran() {
        let note_wide = |restarted, wide| {
            Note::Near {
                lower_bound: 80,
                length: 88,
                tables: true,
                finished_by_reduction: false,
                restarted,
                wide,
                mended: false,
                peeled: None,
            }
            .to_string()
        };
        let note = |restarted| note_wide(restarted, 0);
        assert!(!note(0).contains("ran again") && !note(0).contains("more times"), "{}", note(0));
        assert!(
            note(1).contains("the engine ran again from the position after the first move"),
            "{}",
            note(1)
        );
        assert!(
            note(2).contains("the engine ran 2 more times, each from a position one or two moves"),
            "{}",
            note(2)
        );
        assert!(note(5).contains("the engine ran 5 more times"), "{}", note(5));
        let wide = note_wide(0, 412_345);
        assert!(wide.contains("the engine ran again with a beam 412,345 wide)"), "{wide}");
        let wide = note_wide(1, 412_345);
        assert!(
            wide.contains("a beam 412,345 wide, then once more from the position after the first"),
            "{wide}"
        );
        let wide = note_wide(3, 412_345);
        assert!(
            wide.contains("wide, then 3 more times from positions one or two moves from the board"),
            "{wide}"
        );
        assert!(note(2).contains("at most 8 moves (10.0%) longer"), "{}", note(2));
    }

    /// The notes read as one sentence: "so" between a cause and its consequence, never
    /// twice in a row for the near engine giving up and the reduction answering.
    #[test]
    fn notes_join_into_one_line() {
        let mut s = Solution::without_moves(Status::Solved, Algorithm::Reduction, None);
        s.notes = vec![
            Note::NearGaveUp { limit: Limit::Time(Duration::from_secs(4)) },
            Note::Reduction { lower_bound: 655 },
        ];
        assert_eq!(
            s.note().unwrap(),
            "not proven optimal: the near-optimal engine found no answer within 4.0 s, so auto \
             turned to the reduction solver; the reduction solver placed rows and columns \
             (Manhattan lower bound 655)"
        );
        // On 4x4: the optimal attempt, the engine, then weighted A*.
        let attempt = Note::OptimalAttemptGaveUp {
            heuristic: crate::HeuristicKind::Pdb,
            budget: Duration::from_millis(400),
        };
        s.notes = vec![
            attempt.clone(),
            Note::NearGaveUp { limit: Limit::Time(Duration::from_millis(475)) },
            Note::WeightedAStar { weight: 2.0 },
        ];
        assert_eq!(
            s.note().unwrap(),
            "not proven optimal: IDA* + pdb found no proven optimum within 0.4 s; the \
             near-optimal engine found no answer within 0.47 s, so auto used weighted A* (w = 2)"
        );
        s.notes = vec![attempt, Note::NearGaveUp { limit: Limit::Cancelled }];
        assert!(
            s.note().unwrap().ends_with(
                "; the near-optimal engine was stopped, so auto turned to the reduction solver"
            ),
            "{:?}",
            s.note()
        );
        s.notes = vec![Note::NearGaveUp { limit: Limit::Time(Duration::from_millis(40)) }];
        assert!(s.note().unwrap().contains("no answer within 0.04 s,"), "{:?}", s.note());
        s.notes = vec![
            Note::WeightedAStar { weight: 2.0 },
            Note::Improved { from: 90, to: 80, attempts: 3 },
        ];
        let text = s.note().unwrap();
        assert!(text.starts_with("not proven optimal: "), "{text}");
        assert!(text.ends_with("; the anytime mode improved it from 90 to 80 moves in 3 attempts"));
        // The limit that cut the near-optimal engine short, after its own note.
        s.notes = vec![Note::NearCut { limit: Limit::Time(Duration::from_secs(1)), quick: true }];
        assert_eq!(
            s.note().unwrap(),
            "not proven optimal: auto gives the near-optimal engine 1.0 s on a board this \
             large, which cut its plan short: the engine alone, with the whole time limit, \
             answers shorter"
        );
        s.notes.insert(0, Note::WeightedAStar { weight: 2.0 });
        s.notes[1] = Note::NearCut { limit: Limit::Memory(3 << 20), quick: false };
        assert!(
            s.note().unwrap().ends_with(
                "(w = 2); the near-optimal engine narrowed its beams to fit in the memory \
                 limit (3 MiB): with more memory its answers are shorter"
            ),
            "{:?}",
            s.note()
        );
        s.notes[1] = Note::NearCut { limit: Limit::Cancelled, quick: false };
        assert!(
            s.note()
                .unwrap()
                .ends_with("stopped before its plan was done: this is its best answer so far")
        );
        s.notes.clear();
        assert_eq!(s.note(), None);
    }
}

/// Why an answer's moves are not a solution: what [`Solution::replay`] found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A move cannot be made on the board reached before it.
    #[error("the solver's moves are illegal: {0}")]
    Illegal(MoveError),
    /// The moves end on another board than the goal.
    #[error("the solver's moves end at {0}, not at the goal")]
    WrongEnd(Board),
}

impl Solution {
    /// Replays the moves of a solved answer from `board` (one swap a move): `Ok` when they
    /// reach `goal`, or when the answer is not [`Status::Solved`] (it has no moves to check).
    /// The one check the command line, the web API and the tests make before showing a
    /// solution.
    ///
    /// # Errors
    /// [`ReplayError`] when the moves are illegal or end elsewhere: a defect of the solver.
    pub fn replay(&self, board: &Board, goal: &Board) -> Result<(), ReplayError> {
        if self.status != Status::Solved {
            return Ok(());
        }
        let mut end = board.clone();
        end.apply_all(&self.moves).map_err(ReplayError::Illegal)?;
        if end == *goal { Ok(()) } else { Err(ReplayError::WrongEnd(end)) }
    }
}
