//! Where boards come from: arguments, input files or stdin; and the jobs made of them.
//!
//! A batch is read whole (every file at most 64 MiB) and checked line by line before any
//! board is solved, since one bad line rejects its file; the jobs are then made one at a
//! time as they are solved, so that a long file never holds its boards in memory twice.

use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::Path;

use anyhow::{Context, bail};
use npuzzle_core::{Board, Goal, Instances, parse_board};

use crate::args::SolveArgs;

/// The largest input read: far more than any instance file, small enough to hold in memory.
const MAX_INPUT: u64 = 64 << 20;

/// Where a board came from, to name it in messages.
#[derive(Clone, Debug)]
pub enum Origin {
    /// The n-th BOARD argument (one-based).
    Arg(usize),
    /// A line of the input file or stdin.
    Line(usize),
}

impl Origin {
    /// `board 2` or `line 7`.
    pub fn label(&self) -> String {
        match self {
            Origin::Arg(n) => format!("board {n}"),
            Origin::Line(n) => format!("line {n}"),
        }
    }

    /// The line number, for boards from a file.
    pub fn line(&self) -> Option<usize> {
        match self {
            Origin::Line(n) => Some(*n),
            Origin::Arg(_) => None,
        }
    }
}

/// A board and the goal it is to reach, both valid and of the same size.
#[derive(Clone, Debug)]
pub struct Task {
    /// The board.
    pub board: Board,
    /// The goal board.
    pub goal: Board,
    /// The goal's name (`blank-last`, `blank-first`, `snail`); `None` for an explicit board.
    pub goal_name: Option<&'static str>,
    /// Whether a `# goal:` line of the input set the goal (so that --goal does not change
    /// it).
    pub goal_from_file: bool,
}

/// A board that cannot be solved because the input is wrong.
#[derive(Clone, Debug)]
pub struct Invalid {
    /// The text given (shortened), or the board when it was valid but its goal was not.
    pub text: String,
    /// The goal, when it is a board.
    pub goal: Option<Board>,
    /// The size, when the board itself was valid.
    pub size: Option<(usize, usize)>,
    /// Why.
    pub reason: String,
}

/// One board to solve.
#[derive(Clone, Debug)]
pub struct Job {
    /// Where it came from.
    pub origin: Origin,
    /// The board and goal, or why there are none.
    pub input: Result<Task, Invalid>,
    /// The optimal length an instance file gave.
    pub expected: Option<u32>,
}

/// Where boards come from, in command-line order.
#[derive(Debug)]
enum Source {
    /// The n-th BOARD argument (one-based), when it is not a file.
    Arg(usize, String),
    /// A file or stdin: its name for messages, and its text.
    File(String, String),
}

/// Every board the command line names, read and checked: the BOARD arguments (a board, or
/// the name of a file holding boards, or `-` for stdin), then the --input file (or stdin
/// when there is neither).
#[derive(Debug)]
pub struct Batch {
    sources: Vec<Source>,
    goal: Goal,
    len: usize,
}

impl Batch {
    /// Reads and checks every input the command line names.
    ///
    /// # Errors
    /// When an input file cannot be read or parsed (a bad line rejects its whole file, and
    /// so does a board that the goal does not fit), or there is no input at all. A wrong
    /// BOARD argument is not an error here but an invalid job, so that the other boards are
    /// solved.
    pub fn read(args: &SolveArgs) -> anyhow::Result<Batch> {
        let mut sources = Vec::new();
        let mut stdin_read = false;
        for (i, text) in args.boards.iter().enumerate() {
            let path = Path::new(text.as_str());
            let is_file = parse_board(text).is_err() && names_a_file(text);
            sources.push(if is_file {
                read_file(path, &mut stdin_read)?
            } else {
                Source::Arg(i + 1, text.clone())
            });
        }
        let input = match &args.input {
            Some(path) => Some(path.as_path()),
            None if args.boards.is_empty() => {
                if io::stdin().is_terminal() {
                    bail!(
                        "no board given: pass BOARD arguments, --input FILE, or pipe boards on \
                         stdin (see 'npuzzle solve --help')"
                    );
                }
                Some(Path::new("-"))
            }
            None => None,
        };
        if let Some(path) = input {
            sources.push(read_file(path, &mut stdin_read)?);
        }
        let mut batch = Batch { sources, goal: args.goal.clone(), len: 0 };
        batch.len = batch.check()?;
        Ok(batch)
    }

    /// How many boards the batch holds.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Checks every file line by line (the goal must fit each board); returns how many
    /// boards there are.
    fn check(&self) -> anyhow::Result<usize> {
        let mut count = 0;
        for source in &self.sources {
            match source {
                Source::Arg(..) => count += 1,
                Source::File(name, text) => {
                    for inst in Instances::new(text) {
                        let inst = inst.with_context(|| name.clone())?;
                        if let Goal::Board(goal) = inst.goal.as_deref().unwrap_or(&self.goal) {
                            if goal.size() != inst.board.size() {
                                let mismatch = npuzzle_core::GoalError::SizeMismatch {
                                    goal: goal.size(),
                                    board: inst.board.size(),
                                };
                                bail!("{name}: line {}: {mismatch}", inst.line);
                            }
                        }
                        count += 1;
                    }
                }
            }
        }
        Ok(count)
    }

    /// The jobs, made one at a time, in order.
    pub fn jobs(&self) -> impl Iterator<Item = Job> + Send + '_ {
        self.sources.iter().flat_map(move |source| -> Box<dyn Iterator<Item = Job> + Send + '_> {
            match source {
                Source::Arg(n, text) => Box::new(std::iter::once(self.arg_job(*n, text))),
                Source::File(_, text) => Box::new(
                    // Checked in `read`: every instance is valid and fits its goal.
                    Instances::new(text).map_while(Result::ok).map(|inst| {
                        let (goal, from_file) = match &inst.goal {
                            Some(goal) => (&**goal, true),
                            None => (&self.goal, false),
                        };
                        Job {
                            origin: Origin::Line(inst.line),
                            input: task(inst.board, goal, from_file),
                            expected: inst.optimal,
                        }
                    }),
                ),
            }
        })
    }

    /// The job of the n-th BOARD argument.
    fn arg_job(&self, n: usize, text: &str) -> Job {
        let input = match parse_board(text) {
            Ok(board) => task(board, &self.goal, false),
            Err(err) => {
                let mut reason = err.to_string();
                if !text.contains(char::is_whitespace) && text.contains(char::is_alphabetic) {
                    reason.push_str(&format!(" (and there is no file named {text})"));
                }
                Err(Invalid {
                    text: shorten(text),
                    goal: explicit_goal(&self.goal),
                    size: None,
                    reason,
                })
            }
        };
        Job { origin: Origin::Arg(n), input, expected: None }
    }
}

/// Reads a file (or stdin, for `-`, at most once) as a source.
fn read_file(path: &Path, stdin_read: &mut bool) -> anyhow::Result<Source> {
    if path == Path::new("-") {
        if *stdin_read {
            bail!("stdin is named twice: it can be read only once");
        }
        *stdin_read = true;
    }
    let (name, text) = read_text(path)?;
    Ok(Source::File(name, text))
}

/// Reads the one board of a file (or stdin, for `-`), with the goal the file sets, if any.
///
/// # Errors
/// When the file cannot be read or parsed, or holds more than one board.
pub fn read_one_board(path: &Path) -> anyhow::Result<(Board, Option<Goal>)> {
    let (name, text) = read_text(path)?;
    let mut instances = Instances::new(&text);
    let first = instances.next().unwrap_or(Err(npuzzle_core::InputError::Empty));
    let first = first.with_context(|| name.clone())?;
    if let Some(second) = instances.next() {
        let second = second.with_context(|| name.clone())?;
        bail!("{name} holds several boards (a second one on line {}); give one", second.line);
    }
    Ok((first.board, first.goal.map(|g| (*g).clone())))
}

/// A board from an argument that may instead name a file holding one board (or be `-`).
/// Returns the board and the goal the file sets, if any.
///
/// # Errors
/// When the text is neither a board nor a readable file with one board.
pub fn board_or_file(text: &str) -> anyhow::Result<(Board, Option<Goal>)> {
    match parse_board(text) {
        Ok(board) => Ok((board, None)),
        Err(err) => {
            if names_a_file(text) {
                read_one_board(Path::new(text))
            } else {
                bail!("invalid BOARD: {err}");
            }
        }
    }
}

/// Whether `text` (not a board) names an input: `-` for stdin, or anything that exists. Not
/// only regular files: a directory or a device is then refused by [`read_text`] with the
/// system's reason, where it was parsed as a board (`"tmp" is not a number`).
pub fn names_a_file(text: &str) -> bool {
    text == "-" || std::fs::metadata(text).is_ok()
}

/// The task of solving `board` towards `goal`, or why the goal does not fit the board.
fn task(board: Board, goal: &Goal, goal_from_file: bool) -> Result<Task, Invalid> {
    match goal.board(board.size()) {
        Ok(goal_board) => {
            Ok(Task { board, goal: goal_board, goal_name: goal.name(), goal_from_file })
        }
        Err(err) => Err(Invalid {
            text: board.to_string(),
            goal: explicit_goal(goal),
            size: Some((board.width(), board.height())),
            reason: err.to_string(),
        }),
    }
}

fn explicit_goal(goal: &Goal) -> Option<Board> {
    match goal {
        Goal::Board(b) => Some(b.clone()),
        _ => None,
    }
}

/// At most 200 characters of a user's text, for messages and output.
fn shorten(text: &str) -> String {
    let t = text.trim();
    if t.chars().count() <= 200 {
        t.to_string()
    } else {
        t.chars().take(200).collect::<String>() + "..."
    }
}

/// Reads a whole input file, or stdin for `-`, refusing more than [`MAX_INPUT`] bytes.
/// Returns a name for messages and the text.
pub fn read_text(path: &Path) -> anyhow::Result<(String, String)> {
    let stdin = path == Path::new("-");
    let name = if stdin { "stdin".to_string() } else { path.display().to_string() };
    let mut bytes = Vec::new();
    let too_large = || format!("{name} is larger than 64 MiB; split it into smaller files");
    if stdin {
        io::stdin()
            .lock()
            .take(MAX_INPUT + 1)
            .read_to_end(&mut bytes)
            .context("cannot read stdin")?;
    } else {
        let file = File::open(path).with_context(|| format!("cannot read {name}"))?;
        if file.metadata().is_ok_and(|m| m.is_file() && m.len() > MAX_INPUT) {
            bail!(too_large());
        }
        file.take(MAX_INPUT + 1)
            .read_to_end(&mut bytes)
            .with_context(|| format!("cannot read {name}"))?;
    }
    if bytes.len() as u64 > MAX_INPUT {
        bail!(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok((name, text))
}
