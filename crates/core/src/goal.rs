//! Goal positions.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::board::{Board, BoardError};
use crate::size::Size;

/// The position a board is to be brought to.
///
/// # Examples
/// ```
/// use npuzzle_core::{Goal, Size};
/// let s = Size::square(3).unwrap();
/// assert_eq!(Goal::BlankLast.board(s).unwrap().to_string(), "1 2 3/4 5 6/7 8 0");
/// assert_eq!(Goal::BlankFirst.board(s).unwrap().to_string(), "0 1 2/3 4 5/6 7 8");
/// assert_eq!(Goal::Snail.board(s).unwrap().to_string(), "1 2 3/8 0 4/7 6 5");
/// let custom: Goal = "0 1/2 3".parse().unwrap();
/// assert!(custom.board(s).is_err()); // a 2x2 goal for a 3x3 board
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Tiles in order, blank in the last cell: `1 2 3/4 5 6/7 8 0` (the default).
    #[default]
    BlankLast,
    /// Blank in the first cell, then tiles in order: `0 1 2/3 4 5/6 7 8` (Korf's instances).
    BlankFirst,
    /// Tiles in a clockwise spiral from the top-left corner, blank where the spiral ends:
    /// `1 2 3/8 0 4/7 6 5` (the goal of the 42 school project).
    Snail,
    /// An explicit board.
    Board(Board),
}

/// Why a goal could not be read or used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GoalError {
    /// An explicit goal board whose size differs from the board being solved.
    #[error("goal is {goal} but the board is {board}")]
    SizeMismatch {
        /// The goal's size.
        goal: Size,
        /// The board's size.
        board: Size,
    },
    /// Neither a goal name nor a valid board.
    ///
    /// The reason is part of the message (not an error source), so that it is printed once.
    #[error("invalid goal {text:?}: expected blank-last, blank-first, snail or a board ({reason})")]
    Invalid {
        /// The text given (shortened).
        text: String,
        /// Why it is not a board.
        reason: BoardError,
    },
}

impl Goal {
    /// The goal board for boards of `size`.
    ///
    /// # Errors
    /// [`GoalError::SizeMismatch`] for an explicit goal of another size.
    pub fn board(&self, size: Size) -> Result<Board, GoalError> {
        let n = size.cells();
        let cells: Vec<u16> = match self {
            Goal::BlankLast => (1..n).chain(std::iter::once(0)).map(|t| t as u16).collect(),
            Goal::BlankFirst => (0..n).map(|t| t as u16).collect(),
            Goal::Snail => snail(size),
            Goal::Board(b) if b.size() == size => return Ok(b.clone()),
            Goal::Board(b) => {
                return Err(GoalError::SizeMismatch { goal: b.size(), board: size });
            }
        };
        // The named goals are permutations by construction.
        Board::new(size, cells)
            .map_err(|reason| GoalError::Invalid { text: self.to_string(), reason })
    }

    /// The short name of a named goal (`blank-last`, `blank-first`, `snail`), or `None` for
    /// an explicit board.
    pub fn name(&self) -> Option<&'static str> {
        match self {
            Goal::BlankLast => Some("blank-last"),
            Goal::BlankFirst => Some("blank-first"),
            Goal::Snail => Some("snail"),
            Goal::Board(_) => None,
        }
    }
}

/// Cells of the spiral goal: 1, 2, ... clockwise from the top-left, 0 at the spiral's end.
fn snail(size: Size) -> Vec<u16> {
    let (w, h) = (size.width() as isize, size.height() as isize);
    let n = size.cells();
    let mut cells = vec![0u16; n];
    let (mut top, mut bottom, mut left, mut right) = (0isize, h - 1, 0isize, w - 1);
    let mut next = 1usize;
    let mut put = |x: isize, y: isize, cells: &mut Vec<u16>| {
        if next < n {
            cells[(y * w + x) as usize] = next as u16;
        }
        next += 1;
    };
    while top <= bottom && left <= right {
        for x in left..=right {
            put(x, top, &mut cells);
        }
        for y in top + 1..=bottom {
            put(right, y, &mut cells);
        }
        if top < bottom {
            for x in (left..right).rev() {
                put(x, bottom, &mut cells);
            }
        }
        if left < right {
            for y in (top + 1..bottom).rev() {
                put(left, y, &mut cells);
            }
        }
        top += 1;
        bottom -= 1;
        left += 1;
        right -= 1;
    }
    cells
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Goal::Board(b) => write!(f, "{b}"),
            named => f.write_str(named.name().unwrap_or_default()),
        }
    }
}

impl FromStr for Goal {
    type Err = GoalError;

    /// Reads `blank-last` (also `last`, `default`), `blank-first` (also `first`, `korf`),
    /// `snail` (also `spiral`), or any board text.
    fn from_str(s: &str) -> Result<Goal, GoalError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "blank-last" | "last" | "default" | "blank_last" => Ok(Goal::BlankLast),
            "blank-first" | "first" | "korf" | "blank_first" => Ok(Goal::BlankFirst),
            "snail" | "spiral" => Ok(Goal::Snail),
            _ => s.parse::<Board>().map(Goal::Board).map_err(|reason| GoalError::Invalid {
                text: s.trim().chars().take(40).collect(),
                reason,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snail_goals() {
        let b = |w, h| Goal::Snail.board(Size::new(w, h).unwrap()).unwrap().to_string();
        assert_eq!(b(4, 4), "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7");
        assert_eq!(b(2, 2), "1 2/0 3");
        assert_eq!(b(3, 2), "1 2 3/0 5 4");
        assert_eq!(b(2, 3), "1 2/0 3/5 4");
        assert_eq!(b(5, 3), "1 2 3 4 5/12 13 14 0 6/11 10 9 8 7");
    }

    #[test]
    fn names_round_trip() {
        for g in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
            assert_eq!(g.to_string().parse::<Goal>().unwrap(), g);
        }
        let g: Goal = "3 1/2 0".parse().unwrap();
        assert_eq!(g.to_string(), "3 1/2 0");
        assert!("nonsense".parse::<Goal>().is_err());
    }

    #[test]
    fn size_mismatch_message() {
        let g: Goal = "1 2/3 0".parse().unwrap();
        let err = g.board(Size::square(3).unwrap()).unwrap_err();
        assert_eq!(err.to_string(), "goal is 2x2 but the board is 3x3");
    }
}
