//! Reading boards and instance files from text.

use thiserror::Error;

use crate::board::{Board, BoardError};
use crate::goal::{Goal, GoalError};
use crate::size::Size;

/// The most cells any supported board has; longer inputs are refused before they are stored.
const MAX_CELLS: usize = Size::MAX_SIDE * Size::MAX_SIDE;

/// Drops a `#` comment from a line.
fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(before, _)| before)
}

/// Reads one number token.
fn number(token: &str) -> Result<u64, BoardError> {
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

/// Splits one row of text into numbers (cells separated by spaces, tabs or commas).
fn row_numbers(row: &str, total: &mut usize) -> Result<Vec<u64>, BoardError> {
    let mut out = Vec::new();
    for token in row.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()) {
        *total += 1;
        if *total > MAX_CELLS {
            return Err(BoardError::Size(crate::size::SizeError::OutOfRange {
                width: *total,
                height: 1,
            }));
        }
        out.push(number(token)?);
    }
    Ok(out)
}

/// Reads a board from any of its text forms.
///
/// - inline rows separated by `/`: `8 6 7/2 5 4/3 0 1`;
/// - rows on separate lines;
/// - cells separated by spaces, tabs or commas;
/// - for square boards, a flat list of N*N numbers: `8 6 7 2 5 4 3 0 1`;
/// - the 42-style file: a first value line holding only the side N, then N rows;
/// - `#` starts a comment anywhere.
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
/// assert_eq!(parse_board("# This puzzle is solvable\n3\n 8 6 7\n 2 5 4\n 3 0 1\n").unwrap(), a);
/// assert_eq!(parse_board("1 2 3/4 5").unwrap_err().to_string(), "row 2 has 2 cells, expected 3");
/// ```
pub fn parse_board(text: &str) -> Result<Board, BoardError> {
    let mut total = 0;
    let mut rows: Vec<Vec<u64>> = Vec::new();
    for line in text.lines() {
        for row in strip_comment(line).split('/') {
            let cells = row_numbers(row, &mut total)?;
            if !cells.is_empty() {
                rows.push(cells);
            }
        }
    }
    board_from_rows(rows)
}

fn board_from_rows(mut rows: Vec<Vec<u64>>) -> Result<Board, BoardError> {
    match rows.len() {
        0 => Err(BoardError::Empty),
        1 => {
            let cells = rows.pop().unwrap_or_default();
            let side = (cells.len() as f64).sqrt().round() as usize;
            if side * side != cells.len() {
                return Err(BoardError::NotSquare(cells.len()));
            }
            Board::from_numbers(Size::square(side)?, &cells)
        }
        _ if rows[0].len() == 1 => {
            // 42-style: the side, then that many rows of that many cells.
            let declared = rows[0][0];
            let side = usize::try_from(declared).unwrap_or(usize::MAX);
            let size = Size::square(side)?;
            let body = &rows[1..];
            if body.len() != side {
                return Err(BoardError::WrongRowCount { found: body.len(), expected: side });
            }
            check_ragged(body, side, 0)?;
            Board::from_numbers(size, &body.concat())
        }
        height => {
            let width = rows[0].len();
            check_ragged(&rows, width, 0)?;
            Board::from_numbers(Size::new(width, height)?, &rows.concat())
        }
    }
}

fn check_ragged(rows: &[Vec<u64>], width: usize, offset: usize) -> Result<(), BoardError> {
    for (i, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(BoardError::Ragged {
                row: i + 1 + offset,
                found: row.len(),
                expected: width,
            });
        }
    }
    Ok(())
}

/// One board from an instance file or other input, with what the file said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// One-based line number where the board starts.
    pub line: usize,
    /// The board.
    pub board: Board,
    /// The goal set by a `# goal: ...` line above it, if any.
    pub goal: Option<Goal>,
    /// The optimal solution length given after `|`, if any.
    pub optimal: Option<u32>,
}

/// Why an input file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InputError {
    /// A line holding an invalid board.
    #[error("line {line}: {source}")]
    Board {
        /// One-based line number.
        line: usize,
        /// What is wrong with the board.
        source: BoardError,
    },
    /// An invalid `# goal:` line.
    #[error("line {line}: {source}")]
    Goal {
        /// One-based line number.
        line: usize,
        /// What is wrong with the goal.
        source: GoalError,
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

/// Reads every board in an input text, whatever its form:
///
/// - an **instance file**: one board per line (`BOARD` or `BOARD | OPTIMAL_LENGTH`), `#`
///   comments, and `# goal: G` lines that set the goal of the boards after them;
/// - a single **42-style** file (first value line is the side N);
/// - a single board written over several lines.
///
/// The form is decided by the first non-comment line: a single number means a 42-style
/// file; a line that is a whole board by itself (it has `/` or `|`, or a square number of
/// cells) means an instance file; otherwise the whole text is one multi-line board.
///
/// # Errors
/// [`InputError`] naming the line of the first problem.
///
/// # Examples
/// ```
/// use npuzzle_core::{parse_input, Goal};
/// let text = "# goal: blank-first\n1 0 2 3 4 5 6 7 8 | 1\n1 2 3/4 5 6/7 8 0\n";
/// let boards = parse_input(text).unwrap();
/// assert_eq!(boards.len(), 2);
/// assert_eq!(boards[0].goal, Some(Goal::BlankFirst));
/// assert_eq!(boards[0].optimal, Some(1));
/// ```
pub fn parse_input(text: &str) -> Result<Vec<Instance>, InputError> {
    let first = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i, strip_comment(l).trim()))
        .find(|(_, l)| !l.is_empty());
    let Some((first_line, first)) = first else {
        return Err(InputError::Empty);
    };
    let single_number = matches!(row_numbers(first, &mut 0), Ok(t) if t.len() == 1);
    let one_board = |source_line: usize| -> Result<Vec<Instance>, InputError> {
        let board =
            parse_board(text).map_err(|source| InputError::Board { line: source_line, source })?;
        let goal = goal_above(text, first_line)?;
        Ok(vec![Instance { line: first_line + 1, board, goal, optimal: None }])
    };
    if single_number {
        // 42-style: the side, then the rows.
        return one_board(first_line + 1);
    }
    if first.contains('/') || first.contains('|') {
        return parse_instances(text);
    }
    // Lines of bare numbers: one board per line, or one board over several lines. Boards
    // cannot be both (a line that is a whole board holds every tile of a smaller board), so
    // take whichever reading is valid, and otherwise report the likelier one's error.
    match parse_instances(text) {
        Ok(list) => Ok(list),
        Err(list_err) => match one_board(first_line + 1) {
            Ok(one) => Ok(one),
            Err(board_err) => {
                // If the first line is a valid board by itself, the file is a list whose
                // later line is wrong; otherwise it is one board with a wrong row.
                Err(if parse_board(first).is_ok() { list_err } else { board_err })
            }
        },
    }
}

/// The goal set by a `# goal:` comment before line `before`, if any.
fn goal_above(text: &str, before: usize) -> Result<Option<Goal>, InputError> {
    let mut goal = None;
    for (i, line) in text.lines().enumerate().take(before) {
        if let Some(g) = goal_directive(line, i + 1)? {
            goal = Some(g);
        }
    }
    Ok(goal)
}

fn goal_directive(line: &str, line_no: usize) -> Result<Option<Goal>, InputError> {
    let Some((_, comment)) = line.split_once('#') else { return Ok(None) };
    let comment = comment.trim();
    let Some(rest) = comment.strip_prefix("goal:").or_else(|| comment.strip_prefix("goal ")) else {
        return Ok(None);
    };
    rest.trim()
        .parse::<Goal>()
        .map(Some)
        .map_err(|source| InputError::Goal { line: line_no, source })
}

/// Reads an instance file: one board per line, as described in [`parse_input`].
///
/// # Errors
/// As [`parse_input`].
pub fn parse_instances(text: &str) -> Result<Vec<Instance>, InputError> {
    let mut goal = None;
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if let Some(g) = goal_directive(raw, line)? {
            goal = Some(g);
        }
        let body = strip_comment(raw).trim();
        if body.is_empty() {
            continue;
        }
        let (board_text, optimal) = match body.split_once('|') {
            Some((b, len)) => {
                let len = len.trim();
                let n = len.parse::<u32>().map_err(|_| InputError::Length {
                    line,
                    text: len.chars().take(24).collect(),
                })?;
                (b, Some(n))
            }
            None => (body, None),
        };
        let board = parse_board(board_text).map_err(|source| InputError::Board { line, source })?;
        out.push(Instance { line, board, goal: goal.clone(), optimal });
    }
    if out.is_empty() {
        return Err(InputError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse_board(text).unwrap_err().to_string()
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
        ] {
            assert_eq!(parse_board(text).unwrap(), want, "{text:?}");
        }
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
        assert_eq!(err("1 2/3"), "row 2 has 1 cells, expected 2");
        assert_eq!(err("2\n1 0\n3 2 4"), "row 2 has 3 cells, expected 2");
        assert_eq!(err("0"), "size 1x1 is out of range: each side must be 2 to 256");
    }

    #[test]
    fn oversized_input_is_refused_early() {
        let text = "1 ".repeat(MAX_CELLS + 10);
        assert!(matches!(parse_board(&text), Err(BoardError::Size(_))));
    }

    #[test]
    fn input_forms() {
        let one = parse_input("# This puzzle is solvable\n3\n 8 6 7\n 2 5 4\n 3 0 1\n").unwrap();
        assert_eq!(one.len(), 1);
        let multi = parse_input("1 2 3\n4 5 6\n7 8 0\n").unwrap();
        assert_eq!(multi.len(), 1);
        let list =
            parse_input("1 2 3/4 5 6/7 0 8\n# goal: snail\n1 2 3 8 0 4 7 6 5 | 0\n").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[0].goal, None);
        assert_eq!(list[1].goal, Some(Goal::Snail));
        assert_eq!(list[1].line, 3);
        let bad = parse_input("1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/7 8 8\n").unwrap_err();
        assert_eq!(bad.to_string(), "line 2: tile 8 appears twice");
        assert!(matches!(parse_input("# nothing\n\n"), Err(InputError::Empty)));
        let four = parse_input("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 0\n").unwrap();
        assert_eq!(four.len(), 1);
        assert_eq!(four[0].board.size().to_string(), "4x4");
        let rows = parse_input("1 2 3 4\n5 6 7\n").unwrap_err();
        assert_eq!(rows.to_string(), "line 1: row 2 has 3 cells, expected 4");
        assert!(matches!(parse_input("1 2 3/4 5 6/7 0 8 | x"), Err(InputError::Length { .. })));
    }
}
