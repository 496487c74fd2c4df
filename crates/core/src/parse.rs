//! Reading boards and instance files from text.
//!
//! Everything a user may paste or save is read here: inline boards, grids over several lines
//! (with `.` or `_` for the blank, as `npuzzle solve --steps` prints them), digit strings,
//! 42-style files, instance files, and several grids separated by blank lines. Errors name
//! the line that is wrong, so that a user can find it in a long file.

use std::collections::VecDeque;
use std::iter::Peekable;
use std::sync::Arc;

use thiserror::Error;

use crate::board::{Board, BoardError};
use crate::goal::{Goal, GoalError};
use crate::size::Size;

/// The most cells any supported board has; longer inputs are refused before they are stored.
const MAX_CELLS: usize = Size::MAX_SIDE * Size::MAX_SIDE;

/// The most cells a digit string (one digit per tile) can name: tile numbers stay below 10.
const MAX_DIGIT_CELLS: usize = 9;

/// Lines numbered from 1, split at `\n`, `\r\n` or a lone `\r` (old Mac files), after a
/// UTF-8 byte-order mark is dropped.
#[derive(Clone)]
struct Lines<'a> {
    rest: Option<&'a str>,
    number: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        Lines { rest: Some(text.strip_prefix('\u{feff}').unwrap_or(text)), number: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = (usize, &'a str);

    fn next(&mut self) -> Option<(usize, &'a str)> {
        let text = self.rest?;
        let (line, rest) = match text.find(['\n', '\r']) {
            Some(i) => {
                let skip = if text[i..].starts_with("\r\n") { 2 } else { 1 };
                (&text[..i], Some(&text[i + skip..]))
            }
            None => (text, None),
        };
        // Like `str::lines`, a final line ending does not start another line.
        self.rest = rest.filter(|r| !r.is_empty());
        self.number += 1;
        Some((self.number, line))
    }
}

/// Drops a `#` comment from a line.
fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(before, _)| before)
}

/// Whether a token stands for the blank: `.` or `_`, as grids print it.
fn is_blank_token(token: &str) -> bool {
    token == "." || token == "_"
}

/// Reads one number token (or a blank token, read as 0).
fn number(token: &str) -> Result<u64, BoardError> {
    if is_blank_token(token) {
        return Ok(0);
    }
    let short = || token.chars().take(24).collect::<String>();
    let (neg, digits) = match token.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, token.strip_prefix('+').unwrap_or(token)),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BoardError::NotANumber(short()));
    }
    if neg && digits.bytes().any(|b| b != b'0') {
        return Err(BoardError::Negative(short()));
    }
    digits.parse::<u64>().map_err(|_| BoardError::Overflow(short()))
}

/// The cells of a row of text, separated by spaces, tabs or commas.
fn tokens(row: &str) -> impl Iterator<Item = &str> {
    row.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty())
}

/// A board error and the line it was found on.
#[derive(Debug)]
struct AtLine {
    line: usize,
    error: BoardError,
}

/// One row of a board as written: its tokens, its line, and whether it had that line to
/// itself (a 42-style size line must).
struct Row<'a> {
    line: usize,
    alone: bool,
    tokens: Vec<&'a str>,
}

/// Splits lines into rows: at line ends and at `/`, dropping comments and empty rows.
fn rows<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Vec<Row<'a>>, AtLine> {
    let mut out: Vec<Row<'a>> = Vec::new();
    let mut total = 0usize;
    for (line, text) in lines {
        let first = out.len();
        for part in strip_comment(text).split('/') {
            let toks: Vec<&str> = tokens(part).collect();
            if toks.is_empty() {
                continue;
            }
            total += toks.len();
            if total > MAX_CELLS {
                return Err(AtLine { line, error: BoardError::TooManyTiles });
            }
            out.push(Row { line, alone: false, tokens: toks });
        }
        if out.len() == first + 1 {
            out[first].alone = true;
        }
    }
    Ok(out)
}

/// Whether every row is one string of digits (and blanks) naming one tile per character:
/// `867254301`, or `867/254/3.1`. A lone character is a number, not a digit string.
fn is_digit_string(rows: &[Row<'_>]) -> bool {
    !rows.is_empty()
        && rows.iter().all(|r| {
            r.tokens.len() == 1
                && r.tokens[0].len() >= 2
                && r.tokens[0].bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'_')
        })
}

/// The cells of a row and their count, whether written as numbers or as a digit string.
fn row_cells(row: &Row<'_>, digits: bool) -> Result<Vec<u64>, AtLine> {
    let at = |error| AtLine { line: row.line, error };
    if digits {
        Ok(row.tokens[0]
            .bytes()
            .map(|b| if b.is_ascii_digit() { u64::from(b - b'0') } else { 0 })
            .collect())
    } else {
        row.tokens.iter().map(|t| number(t).map_err(at)).collect()
    }
}

/// Builds the board the rows describe, naming the line of the first problem.
fn board_from_rows(rows: &[Row<'_>]) -> Result<Board, AtLine> {
    let Some(first) = rows.first() else {
        return Err(AtLine { line: 1, error: BoardError::Empty });
    };
    // 42-style: a line holding only the side N, then N rows of N cells. (Rows that are all
    // digit strings, `12` then `30`, are a digit-string board instead.)
    if rows.len() > 1 && first.alone && first.tokens.len() == 1 && !is_digit_string(rows) {
        let at = |error| AtLine { line: first.line, error };
        let declared = number(first.tokens[0]).map_err(at)?;
        let side = usize::try_from(declared).unwrap_or(usize::MAX);
        let size = Size::square(side).map_err(|e| at(e.into()))?;
        let body = &rows[1..];
        if body.len() != side {
            return Err(at(BoardError::WrongRowCount { found: body.len(), expected: side }));
        }
        return grid(body, Some(size));
    }
    grid(rows, None)
}

/// A board from rows of cells (numbers or digit strings); `size` is the declared size of a
/// 42-style file.
fn grid(rows: &[Row<'_>], declared: Option<Size>) -> Result<Board, AtLine> {
    let digits = is_digit_string(rows);
    let first_line = rows.first().map_or(1, |r| r.line);
    let at_first = |error| AtLine { line: first_line, error };
    let total: usize =
        rows.iter().map(|r| if digits { r.tokens[0].len() } else { r.tokens.len() }).sum();
    if digits && total > MAX_DIGIT_CELLS {
        return Err(at_first(BoardError::DigitStringTooLong));
    }
    let mut cells = Vec::with_capacity(total);
    let mut cell_lines = Vec::with_capacity(total);
    let mut width = declared.map(Size::width);
    for (i, row) in rows.iter().enumerate() {
        let found = row_cells(row, digits)?;
        let expected = *width.get_or_insert(found.len());
        if rows.len() > 1 && found.len() != expected {
            let error = BoardError::Ragged { row: i + 1, found: found.len(), expected };
            return Err(AtLine { line: row.line, error });
        }
        cell_lines.extend(std::iter::repeat_n(row.line, found.len()));
        cells.extend(found);
    }
    let size = match (declared, rows.len()) {
        (Some(size), _) => size,
        (None, 1) if digits => match total {
            4 => Size::square(2),
            9 => Size::square(3),
            n => return Err(at_first(BoardError::DigitCount(n))),
        }
        .map_err(|e| at_first(e.into()))?,
        (None, 1) => {
            // A flat list: it must hold N*N tiles for some side N.
            let side = total.isqrt();
            if side * side != total {
                return Err(at_first(BoardError::NotSquare(total)));
            }
            Size::square(side).map_err(|e| at_first(e.into()))?
        }
        (None, height) => {
            Size::new(cells.len() / height, height).map_err(|e| at_first(e.into()))?
        }
    };
    Board::from_numbers(size, &cells).map_err(|error| {
        // Point at the line of the offending tile: the first one out of range, or the second
        // copy of a duplicate.
        let index = match error {
            BoardError::OutOfRange { tile, .. } => cells.iter().position(|&t| t == tile),
            BoardError::Duplicate(tile) => {
                cells.iter().enumerate().filter(|&(_, &t)| t == tile).nth(1).map(|(i, _)| i)
            }
            _ => None,
        };
        AtLine { line: index.map_or(first_line, |i| cell_lines[i]), error }
    })
}

/// Reads a board from any of its text forms.
///
/// - inline rows separated by `/`: `8 6 7/2 5 4/3 0 1`;
/// - rows on separate lines (`\n`, `\r\n` or `\r`);
/// - cells separated by spaces, tabs or commas; `.` or `_` for the blank;
/// - for square boards, a flat list of N*N numbers: `8 6 7 2 5 4 3 0 1`;
/// - for boards of at most 9 cells, digit strings with one tile per digit: `867254301`
///   (2x2 and 3x3), or rows of digits `8672/5430` for other shapes;
/// - the 42-style file: a first line holding only the side N, then N rows;
/// - `#` starts a comment anywhere; a UTF-8 byte-order mark is ignored.
///
/// # Errors
/// A [`BoardError`] naming the first problem found.
///
/// # Examples
/// ```
/// use npuzzle_core::parse_board;
/// let a = parse_board("8 6 7/2 5 4/3 0 1").unwrap();
/// assert_eq!(parse_board("8,6,7\n2,5,4\n3,0,1").unwrap(), a);
/// assert_eq!(parse_board("8 6 7 2 5 4 3 0 1").unwrap(), a);
/// assert_eq!(parse_board("867254301").unwrap(), a);
/// assert_eq!(parse_board("8 6 7\n2 5 4\n3 . 1").unwrap(), a);
/// assert_eq!(parse_board("# This puzzle is solvable\n3\n 8 6 7\n 2 5 4\n 3 0 1\n").unwrap(), a);
/// assert_eq!(parse_board("1 2 3/4 5").unwrap_err().to_string(), "row 2 has 2 cells, expected 3");
/// ```
pub fn parse_board(text: &str) -> Result<Board, BoardError> {
    board_at_lines(Lines::new(text)).map_err(|e| e.error)
}

fn board_at_lines<'a>(lines: impl Iterator<Item = (usize, &'a str)>) -> Result<Board, AtLine> {
    board_from_rows(&rows(lines)?)
}

/// One board from an instance file or other input, with what the file said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// One-based line number where the board starts.
    pub line: usize,
    /// The board.
    pub board: Board,
    /// The goal set by a `# goal: ...` line above it (or inside it), if any. Shared by every
    /// board the line applies to.
    pub goal: Option<Arc<Goal>>,
    /// The optimal solution length given after `|`, if any.
    pub optimal: Option<u32>,
}

/// Why an input file could not be read.
///
/// Messages hold the line number and the reason once: `line 4: row 2 has 2 cells, expected 3`.
/// The reason is part of the message, not a separate [`std::error::Error::source`], so that
/// error reporters that print a chain do not repeat it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InputError {
    /// A line holding an invalid board, or the line of a board's first problem.
    #[error("line {line}: {reason}")]
    Board {
        /// One-based line number.
        line: usize,
        /// What is wrong with the board.
        reason: BoardError,
    },
    /// An invalid `# goal:` line.
    #[error("line {line}: {reason}")]
    Goal {
        /// One-based line number.
        line: usize,
        /// What is wrong with the goal.
        reason: GoalError,
    },
    /// A board whose size differs from the explicit goal board set on an earlier line.
    #[error("line {line}: the goal set on line {goal_line} is {goal} but the board is {board}")]
    GoalSize {
        /// The board's line.
        line: usize,
        /// The line of the `# goal:` comment.
        goal_line: usize,
        /// The goal's size.
        goal: Size,
        /// The board's size.
        board: Size,
    },
    /// A solution length after `|` too large to be one.
    #[error("line {line}: solution length {text} after '|' is out of range (at most {})", u32::MAX)]
    LengthRange {
        /// One-based line number.
        line: usize,
        /// The number (shortened).
        text: String,
    },
    /// Text after `|` that is not a solution length.
    #[error("line {line}: {text:?} after '|' is not a solution length")]
    Length {
        /// One-based line number.
        line: usize,
        /// The text (shortened).
        text: String,
    },
    /// Nothing but comments and blank lines.
    #[error("no boards in the input")]
    Empty,
}

impl From<AtLine> for InputError {
    fn from(e: AtLine) -> InputError {
        InputError::Board { line: e.line, reason: e.error }
    }
}

/// Reads every board in an input text, whatever its form. See [`Instances`] for the forms;
/// this collects them, stopping at the first error.
///
/// # Errors
/// [`InputError`] naming the line of the first problem; [`InputError::Empty`] when there is
/// no board at all.
///
/// # Examples
/// ```
/// use npuzzle_core::{parse_input, Goal};
/// let text = "# goal: blank-first\n1 0 2 3 4 5 6 7 8 | 1\n1 2 3/4 5 6/7 8 0\n";
/// let boards = parse_input(text).unwrap();
/// assert_eq!(boards.len(), 2);
/// assert_eq!(boards[0].goal.as_deref(), Some(&Goal::BlankFirst));
/// assert_eq!(boards[0].optimal, Some(1));
/// ```
pub fn parse_input(text: &str) -> Result<Vec<Instance>, InputError> {
    Instances::new(text).collect()
}

/// Reads an instance file in which every board is on a line of its own (see [`Instances`]):
/// multi-line boards are not recognised.
///
/// # Errors
/// As [`parse_input`].
pub fn parse_instances(text: &str) -> Result<Vec<Instance>, InputError> {
    Instances { one_per_line: true, ..Instances::new(text) }.collect()
}

/// The boards of an input text, one at a time, in order, whatever the text's form. An
/// iterator, so that a long instance file is read while it is being solved.
///
/// The text is a sequence of blocks separated by blank lines. Each block is either
/// - an **instance list**: one board per line (`BOARD` or `BOARD | OPTIMAL_LENGTH`);
/// - a **42-style** board: a line holding only the side N, then N rows;
/// - one board written over several lines (a grid, as `npuzzle solve --steps` prints it).
///
/// A block is a list when its first line is a whole board by itself (it has `/` or `|`, or
/// its numbers form a valid board) and so is its second line, if any: two rows of one board
/// can never both be boards, as only one of them holds the blank. A block whose first line
/// is a valid board but whose other lines are not is read as one grid when that is valid
/// (`0 1 2 3` starts both a 2x2 list and a 4x4 grid), and as a list otherwise, so that the
/// error names the wrong line.
///
/// `#` starts a comment. A comment `# goal: G` (any case) sets the goal of the boards that
/// end after it, until the next such line; an explicit goal board must have the size of every
/// board it applies to. A UTF-8 byte-order mark is ignored; lines may end in `\n`, `\r\n`
/// or `\r`.
///
/// After the first error, the iterator ends. If the text holds no board, the only item is
/// [`InputError::Empty`].
pub struct Instances<'a> {
    lines: Peekable<Lines<'a>>,
    goal: Option<(usize, Arc<Goal>)>,
    /// Inside a block read as a list.
    in_list: bool,
    /// Read every non-empty line as a board by itself ([`parse_instances`]).
    one_per_line: bool,
    ready: VecDeque<Result<Instance, InputError>>,
    found: bool,
    done: bool,
}

impl<'a> Instances<'a> {
    /// The boards of `text`.
    pub fn new(text: &'a str) -> Instances<'a> {
        Instances {
            lines: Lines::new(text).peekable(),
            goal: None,
            in_list: false,
            one_per_line: false,
            ready: VecDeque::new(),
            found: false,
            done: false,
        }
    }

    /// Applies a `# goal:` comment on this line, if there is one.
    fn directive(&mut self, line: usize, text: &str) -> Result<(), InputError> {
        if let Some(goal) = goal_directive(text, line)? {
            self.goal = Some((line, Arc::new(goal)));
        }
        Ok(())
    }

    /// The instance for `board`, starting on `line`, under the goal in effect.
    fn instance(
        &self,
        line: usize,
        board: Board,
        optimal: Option<u32>,
    ) -> Result<Instance, InputError> {
        if let Some((goal_line, goal)) = &self.goal {
            if let Goal::Board(g) = &**goal {
                if g.size() != board.size() {
                    return Err(InputError::GoalSize {
                        line,
                        goal_line: *goal_line,
                        goal: g.size(),
                        board: board.size(),
                    });
                }
            }
        }
        Ok(Instance { line, board, goal: self.goal.as_ref().map(|(_, g)| Arc::clone(g)), optimal })
    }

    /// One line of a list block: its goal comment, then its board, if any.
    fn list_line(&mut self, line: usize, text: &str) -> Option<Result<Instance, InputError>> {
        if let Err(e) = self.directive(line, text) {
            return Some(Err(e));
        }
        let body = strip_comment(text).trim();
        if body.is_empty() {
            return None;
        }
        Some(instance_line(body, line).and_then(|(board, len)| self.instance(line, board, len)))
    }

    /// Reads the block starting at the next line, queueing what it yields.
    fn block(&mut self) {
        // The lines up to the second value line decide the block's form.
        let mut head: Vec<(usize, &'a str)> = Vec::new();
        let mut values = Vec::new();
        while let Some(&(line, text)) = self.lines.peek() {
            if text.trim().is_empty() || values.len() == 2 {
                break;
            }
            self.lines.next();
            head.push((line, text));
            if !strip_comment(text).trim().is_empty() {
                values.push((line, text));
            }
        }
        let alone = |text: &str| {
            let body = strip_comment(text).trim();
            body.contains(['/', '|']) || parse_board(body).is_ok()
        };
        let list = self.one_per_line
            || match values.as_slice() {
                [] => true,
                [(_, first), ..] if strip_comment(first).contains(['/', '|']) => true,
                [(_, first)] => alone(first),
                [(_, first), (_, second)] => alone(first) && alone(second),
                _ => false,
            };
        if list {
            return self.list(head);
        }
        // One board over several lines: the rest of the block belongs to it.
        let mut block = head.clone();
        while let Some(&(line, text)) = self.lines.peek() {
            if text.trim().is_empty() {
                break;
            }
            self.lines.next();
            block.push((line, text));
        }
        let first_line = values.first().map_or(1, |&(l, _)| l);
        let board = board_at_lines(block.iter().copied());
        let first_alone = values.first().is_some_and(|(_, t)| alone(t));
        if board.is_err() && first_alone {
            // The first line is a board by itself: a list whose later line is wrong.
            return self.list(block);
        }
        for &(line, text) in &block {
            if let Err(e) = self.directive(line, text) {
                self.ready.push_back(Err(e));
                return;
            }
        }
        let item = board
            .map_err(InputError::from)
            .and_then(|board| self.instance(first_line, board, None));
        self.ready.push_back(item);
    }

    /// Reads `lines` as list lines, and the rest of the block after them.
    fn list(&mut self, lines: Vec<(usize, &'a str)>) {
        for (line, text) in lines {
            if let Some(item) = self.list_line(line, text) {
                let failed = item.is_err();
                self.ready.push_back(item);
                if failed {
                    return;
                }
            }
        }
        self.in_list = true;
    }
}

impl Iterator for Instances<'_> {
    type Item = Result<Instance, InputError>;

    fn next(&mut self) -> Option<Result<Instance, InputError>> {
        loop {
            if self.done {
                return None;
            }
            if let Some(item) = self.ready.pop_front() {
                self.found = true;
                if item.is_err() {
                    self.done = true;
                    self.ready.clear();
                }
                return Some(item);
            }
            let Some(&(line, text)) = self.lines.peek() else {
                self.done = true;
                return (!self.found).then_some(Err(InputError::Empty));
            };
            if text.trim().is_empty() {
                self.lines.next();
                self.in_list = self.one_per_line;
                continue;
            }
            if self.in_list {
                self.lines.next();
                if let Some(item) = self.list_line(line, text) {
                    self.ready.push_back(item);
                }
                continue;
            }
            self.block();
        }
    }
}

/// Reads an instance line's body: a board, and an optional `| LENGTH`.
fn instance_line(body: &str, line: usize) -> Result<(Board, Option<u32>), InputError> {
    let (board_text, optimal) = match body.split_once('|') {
        Some((b, len)) => {
            let len = len.trim();
            let text = || len.chars().take(24).collect();
            let n = len.parse::<u32>().map_err(|_| {
                if !len.is_empty() && len.bytes().all(|b| b.is_ascii_digit()) {
                    InputError::LengthRange { line, text: text() }
                } else {
                    InputError::Length { line, text: text() }
                }
            })?;
            (b, Some(n))
        }
        None => (body, None),
    };
    let board = parse_board(board_text).map_err(|reason| InputError::Board { line, reason })?;
    Ok((board, optimal))
}

/// The goal a `# goal: G` comment on this line sets, if it has one. The word `goal` may be in
/// any case and followed by `:`, `=` or a space.
fn goal_directive(line: &str, line_no: usize) -> Result<Option<Goal>, InputError> {
    let Some((_, comment)) = line.split_once('#') else { return Ok(None) };
    let comment = comment.trim_start_matches('#').trim();
    let Some(word) = comment.get(..4) else { return Ok(None) };
    if !word.eq_ignore_ascii_case("goal") {
        return Ok(None);
    }
    let rest = &comment[4..];
    let value = match rest.trim_start().strip_prefix([':', '=']) {
        Some(v) => v,
        None if rest.starts_with(char::is_whitespace) => rest,
        None => return Ok(None),
    };
    value
        .trim()
        .parse::<Goal>()
        .map(Some)
        .map_err(|reason| InputError::Goal { line: line_no, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_board(text).unwrap_err().to_string()
    }

    fn input_err(text: &str) -> String {
        parse_input(text).unwrap_err().to_string()
    }

    #[test]
    fn every_text_form_reads_the_same_board() {
        let want = parse_board("8 6 7/2 5 4/3 0 1").unwrap();
        for text in [
            "8 6 7\n2 5 4\n3 0 1",
            "8,6,7/2,5,4/3,0,1",
            "8, 6, 7, 2, 5, 4, 3, 0, 1",
            "  8 6 7 / 2 5 4 / 3 0 1  ",
            "# a comment\n3\n 8 6 7\n 2 5 4 # trailing comment\n 3 0 1\n",
            "\r\n8\t6\t7\r\n2 5 4\r\n3 0 1\r\n",
            "8 6 7\r2 5 4\r3 0 1\r",
            "\u{feff}8 6 7/2 5 4/3 0 1",
            "8 6 7/2 5 4/3 . 1",
            "8 6 7\n2 5 4\n3 _ 1\n",
            "867254301",
            "867/254/3.1",
            "867\n254\n3_1",
            "3\n867\n254\n301",
        ] {
            assert_eq!(parse_board(text).unwrap(), want, "{text:?}");
        }
    }

    #[test]
    fn digit_strings() {
        assert_eq!(parse_board("1230").unwrap().to_string(), "1 2/3 0");
        assert_eq!(parse_board("123/450").unwrap().to_string(), "1 2 3/4 5 0");
        assert_eq!(parse_board("12/34/50").unwrap().to_string(), "1 2/3 4/5 0");
        assert_eq!(
            err("123450"),
            "6 digits in a digit string: write 4 or 9 digits (2x2 or 3x3), rows as 123/450, or \
             separate the tiles with spaces"
        );
        assert_eq!(
            err("1234/5678/9012"),
            "a digit string names one tile per digit, so it fits boards of at most 9 cells: \
             separate the tiles with spaces"
        );
        assert_eq!(err("867254311"), "tile 1 appears twice");
        assert_eq!(err("8672543.."), "the blank (0) appears twice");
    }

    #[test]
    fn rectangular_boards() {
        let b = parse_board("1 2 3 4 5/6 7 8 9 0").unwrap();
        assert_eq!(b.size().to_string(), "5x2");
        assert_eq!(parse_board(&b.to_string()).unwrap(), b);
    }

    #[test]
    fn named_errors() {
        assert_eq!(err(""), "empty board: no tiles given");
        assert_eq!(err("# only a comment"), "empty board: no tiles given");
        assert_eq!(err("1 2 3/4 5 6/7 8 8"), "tile 8 appears twice");
        assert_eq!(err("1 2 3/4 5"), "row 2 has 2 cells, expected 3");
        assert_eq!(
            err("1 2 3/4 5 6/7 8 9"),
            "tile 9 is out of range for a 3x3 board (tiles are 0 to 8)"
        );
        assert_eq!(err("1 2 -3/4 5 6/7 8 0"), "tile -3 is negative");
        assert_eq!(err("1 2 x/4 5 6/7 8 0"), "\"x\" is not a number");
        assert_eq!(
            err("1 2 99999999999999999999999/4 5 6/7 8 0"),
            "tile 99999999999999999999999 is too large"
        );
        assert_eq!(
            err("1 2 3 4 5 0"),
            "6 tiles in one row: a flat list must hold N*N tiles (for example 9 or 16); separate rows with '/' or newlines"
        );
        assert_eq!(err("3\n1 2 3\n4 5 6"), "the size line says 3 rows, found 2");
        assert_eq!(err("1 2/3"), "row 2 has 1 cell, expected 2");
        assert_eq!(err("2\n1 0\n3 2 4"), "row 2 has 3 cells, expected 2");
        assert_eq!(err("0"), "size 1x1 is out of range: each side must be 2 to 256");
        // Rows of one cell separated by '/' are not a 42-style size line.
        assert_eq!(err("1/2/0"), "size 1x3 is out of range: each side must be 2 to 256");
        assert_eq!(err("1\n2\n0"), "size 1x1 is out of range: each side must be 2 to 256");
    }

    #[test]
    fn oversized_input_is_refused_early() {
        let text = "1 ".repeat(MAX_CELLS + 10);
        assert_eq!(parse_board(&text), Err(BoardError::TooManyTiles));
        assert_eq!(err(&text), "more than 65536 tiles: the largest board is 256x256");
    }

    #[test]
    fn lines_end_at_lf_crlf_or_cr() {
        fn split(t: &str) -> Vec<(usize, &str)> {
            Lines::new(t).collect()
        }
        assert_eq!(split("a\nb\r\nc\rd"), [(1, "a"), (2, "b"), (3, "c"), (4, "d")]);
        assert_eq!(split("a\n"), [(1, "a")]);
        assert_eq!(split("a\n\nb"), [(1, "a"), (2, ""), (3, "b")]);
        assert_eq!(split("\r\r"), [(1, ""), (2, "")]);
        assert_eq!(split(""), [(1, "")]);
    }

    #[test]
    fn input_forms() {
        let one = parse_input("# This puzzle is solvable\n3\n 8 6 7\n 2 5 4\n 3 0 1\n").unwrap();
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].line, 2);
        let multi = parse_input("1 2 3\n4 5 6\n7 8 0\n").unwrap();
        assert_eq!(multi.len(), 1);
        let list =
            parse_input("1 2 3/4 5 6/7 0 8\n# goal: snail\n1 2 3 8 0 4 7 6 5 | 0\n").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].goal, None);
        assert_eq!(list[1].goal.as_deref(), Some(&Goal::Snail));
        assert_eq!(list[1].line, 3);
        let bad = parse_input("1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/7 8 8\n").unwrap_err();
        assert_eq!(bad.to_string(), "line 2: tile 8 appears twice");
        assert_eq!(parse_input("# nothing\n\n"), Err(InputError::Empty));
        assert_eq!(parse_input(""), Err(InputError::Empty));
        let four = parse_input("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n").unwrap();
        assert_eq!(four.len(), 1);
        assert_eq!(four[0].board.size().to_string(), "4x4");
        // Its first row is a 2x2 board by itself, its second is not: one 4x4 grid.
        let korf = parse_input("0 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n").unwrap();
        assert_eq!(korf.len(), 1);
        assert_eq!(korf[0].board.size().to_string(), "4x4");
        assert!(matches!(parse_input("1 2 3/4 5 6/7 0 8 | x"), Err(InputError::Length { .. })));
        assert_eq!(
            parse_input("1 2 3/4 5 6/7 0 8 | 99999999999").unwrap_err().to_string(),
            "line 1: solution length 99999999999 after '|' is out of range (at most 4294967295)"
        );
        let flat = parse_input("1 2 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 0 8\n").unwrap();
        assert_eq!(flat.len(), 2);
        let digits = parse_input("867254301\n123456780\n\n1230\n").unwrap();
        assert_eq!(digits.len(), 3);
        assert_eq!(digits[2].line, 4);
    }

    #[test]
    fn grids_separated_by_blank_lines_are_several_boards() {
        let text = "1 2 3\n4 5 6\n7 8 .\n\n8 6 7\n2 5 4\n3 . 1\n\n\n# 42\n2\n1 2\n3 0\n";
        let boards = parse_input(text).unwrap();
        let got: Vec<String> = boards.iter().map(|i| i.board.to_string()).collect();
        assert_eq!(got, ["1 2 3/4 5 6/7 8 0", "8 6 7/2 5 4/3 0 1", "1 2/3 0"]);
        let lines: Vec<usize> = boards.iter().map(|i| i.line).collect();
        assert_eq!(lines, [1, 5, 11]);
    }

    #[test]
    fn errors_inside_a_multi_line_board_name_the_wrong_line() {
        assert_eq!(input_err("1 2 3 4\n5 6 7\n"), "line 2: row 2 has 3 cells, expected 4");
        assert_eq!(
            input_err("# This puzzle is solvable\n3\n 8 6 7\n 2 5\n 3 0 1\n"),
            "line 4: row 2 has 2 cells, expected 3"
        );
        assert_eq!(
            input_err("# comment\n3\n 8 6 7\n 2 5 4\n 3 6 1\n"),
            "line 5: tile 6 appears twice"
        );
        assert_eq!(
            input_err("3\n 8 6 7\n 2 5 9\n 3 0 1\n"),
            "line 3: tile 9 is out of range for a 3x3 board (tiles are 0 to 8)"
        );
        assert_eq!(input_err("3\n 8 6 7\n 2 x 4\n 3 0 1\n"), "line 3: \"x\" is not a number");
        assert_eq!(
            input_err("\n\n3\n 8 6 7\n 2 5 4\n"),
            "line 3: the size line says 3 rows, found 2"
        );
        assert_eq!(input_err("1 2 3\n4 5 6\n7 8 0\n\n1 2\n3 3\n"), "line 6: tile 3 appears twice");
    }

    #[test]
    fn goal_comments_in_any_case_and_anywhere_apply() {
        let one = parse_input("# Goal: snail\n3\n1 2 3\n8 4 0\n7 6 5\n").unwrap();
        assert_eq!(one[0].goal.as_deref(), Some(&Goal::Snail));
        let inside = parse_input("3\n# goal: snail\n1 2 3\n8 4 0\n7 6 5\n").unwrap();
        assert_eq!(inside[0].goal.as_deref(), Some(&Goal::Snail));
        let grid = parse_input("1 2 3\n8 4 0\n# GOAL = blank-first\n7 6 5\n").unwrap();
        assert_eq!(grid[0].goal.as_deref(), Some(&Goal::BlankFirst));
        let bare = parse_input("#goal:snail\n1 2 3/8 4 0/7 6 5\n").unwrap();
        assert_eq!(bare[0].goal.as_deref(), Some(&Goal::Snail));
        // Not a goal line.
        let words = parse_input("# goals are set below\n1 2 3/8 4 0/7 6 5\n").unwrap();
        assert_eq!(words[0].goal, None);
        assert_eq!(
            input_err("# goal: nowhere\n1 2 3/8 4 0/7 6 5\n"),
            "line 1: invalid goal \"nowhere\": expected blank-last, blank-first, snail or a \
             board (\"nowhere\" is not a number)"
        );
    }

    #[test]
    fn an_explicit_goal_of_another_size_rejects_the_file() {
        assert_eq!(
            input_err("1 2 3/4 5 6/7 0 8\n# goal: 1 2/3 0\n1 2/0 3\n1 2 3/4 5 6/7 0 8\n"),
            "line 4: the goal set on line 2 is 2x2 but the board is 3x3"
        );
        let goals = parse_input("# goal: 3 2 1/0 4 5\n1 2 3/4 5 0\n3 2 1/4 5 0\n").unwrap();
        assert!(Arc::ptr_eq(goals[0].goal.as_ref().unwrap(), goals[1].goal.as_ref().unwrap()));
    }

    #[test]
    fn the_iterator_stops_after_the_first_error() {
        let items: Vec<_> = Instances::new("1 2/3 0\n1 1/3 0\n1 2/0 3\n").collect();
        assert_eq!(items.len(), 2);
        assert!(items[0].is_ok());
        assert_eq!(items[1].as_ref().unwrap_err().to_string(), "line 2: tile 1 appears twice");
    }

    #[test]
    fn parse_instances_reads_one_board_per_line() {
        let list = parse_instances("1 2 3 4 5 6 7 8 0\n\n0 1 2 3\n").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(
            parse_instances("1 2 3\n4 5 6\n7 8 0\n").unwrap_err().to_string(),
            "line 1: 3 tiles in one row: a flat list must hold N*N tiles (for example 9 or \
             16); separate rows with '/' or newlines"
        );
    }
}
