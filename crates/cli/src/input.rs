//! Where boards come from: arguments, an input file or stdin; and the jobs made of them.

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

/// Every board the command line names, in order: the BOARD arguments (a board, or the name
/// of a file holding boards, or `-` for stdin), then the --input file (or stdin when there
/// is neither).
///
/// # Errors
/// When an input file cannot be read or parsed (a bad line rejects its whole file), or there
/// is no input at all. A wrong BOARD argument is not an error here but an invalid job, so
/// that the other boards are solved.
pub fn jobs(args: &SolveArgs) -> anyhow::Result<Vec<Job>> {
    let mut jobs = Vec::new();
    let mut stdin_read = false;
    for (i, text) in args.boards.iter().enumerate() {
        let err = match parse_board(text) {
            Ok(board) => {
                let input = task(board, &args.goal);
                jobs.push(Job { origin: Origin::Arg(i + 1), input, expected: None });
                continue;
            }
            Err(err) => err,
        };
        let path = Path::new(text.as_str());
        if text == "-" || path.is_file() {
            read_boards(path, &args.goal, &mut stdin_read, &mut jobs)?;
            continue;
        }
        let mut reason = err.to_string();
        if !text.contains(char::is_whitespace) && text.contains(char::is_alphabetic) {
            reason.push_str(&format!(" (and there is no file named {text})"));
        }
        let invalid =
            Invalid { text: shorten(text), goal: explicit_goal(&args.goal), size: None, reason };
        jobs.push(Job { origin: Origin::Arg(i + 1), input: Err(invalid), expected: None });
    }

    let source = match &args.input {
        Some(path) => Some(path.as_path()),
        None if args.boards.is_empty() => {
            if io::stdin().is_terminal() {
                bail!(
                    "no board given: pass BOARD arguments, --input FILE, or pipe boards on stdin \
                     (see 'npuzzle solve --help')"
                );
            }
            Some(Path::new("-"))
        }
        None => None,
    };
    if let Some(path) = source {
        read_boards(path, &args.goal, &mut stdin_read, &mut jobs)?;
    }
    Ok(jobs)
}

/// Reads every board of a file (or stdin, for `-`) into `jobs`, each towards the goal its
/// file sets or else `goal`.
///
/// # Errors
/// When the file cannot be read, has a bad line, or holds a board that `goal` does not fit:
/// one bad line rejects the whole file, naming the line.
fn read_boards(
    path: &Path,
    goal: &Goal,
    stdin_read: &mut bool,
    jobs: &mut Vec<Job>,
) -> anyhow::Result<()> {
    if path == Path::new("-") {
        if *stdin_read {
            bail!("stdin is named twice: it can be read only once");
        }
        *stdin_read = true;
    }
    let (name, text) = read_text(path)?;
    for inst in Instances::new(&text) {
        let inst = inst.with_context(|| name.clone())?;
        let goal = inst.goal.as_deref().unwrap_or(goal);
        let task = task(inst.board, goal)
            .map_err(|invalid| anyhow::anyhow!("{name}: line {}: {}", inst.line, invalid.reason))?;
        jobs.push(Job { origin: Origin::Line(inst.line), input: Ok(task), expected: inst.optimal });
    }
    Ok(())
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

/// The task of solving `board` towards `goal`, or why the goal does not fit the board.
fn task(board: Board, goal: &Goal) -> Result<Task, Invalid> {
    match goal.board(board.size()) {
        Ok(goal) => Ok(Task { board, goal }),
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
