//! Moves and move sequences, in the tile-direction notation.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// One move: a tile next to the blank slides one cell into it.
///
/// The letter names the direction the **tile** moves (the speed-solving convention): `R`
/// slides the tile on the blank's left to the right, so the blank itself goes left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// The tile below the blank slides up.
    Up,
    /// The tile above the blank slides down.
    Down,
    /// The tile right of the blank slides left.
    Left,
    /// The tile left of the blank slides right.
    Right,
}

impl Move {
    /// All four moves, in the order `U D L R`.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter of this move: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// The move named by a letter (either case).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// How the **blank** moves when this move is made, as `(dx, dy)`: opposite to the tile.
    pub fn blank_delta(self) -> (isize, isize) {
        match self {
            Move::Up => (0, 1),
            Move::Down => (0, -1),
            Move::Left => (1, 0),
            Move::Right => (-1, 0),
        }
    }

    /// The move whose blank displacement is `(dx, dy)`, if it is one of the four unit steps.
    pub fn from_blank_delta(dx: isize, dy: isize) -> Option<Move> {
        match (dx, dy) {
            (0, 1) => Some(Move::Up),
            (0, -1) => Some(Move::Down),
            (1, 0) => Some(Move::Left),
            (-1, 0) => Some(Move::Right),
            _ => None,
        }
    }

    /// A small index `0..4` (`U D L R`), for tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a move or a move sequence could not be read or made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// A character that is not a move letter, a digit or a separator.
    #[error("invalid move {0:?} at position {1}: expected U, D, L or R")]
    BadLetter(char, usize),
    /// A repeat count of zero, or one too large to be meant.
    #[error("invalid repeat count at position {0}")]
    BadCount(usize),
    /// The move has no tile to slide (the blank is on that edge).
    #[error("move {index} ({letter}) is illegal: no tile can slide {direction} into the blank")]
    Illegal {
        /// Zero-based position of the move in the sequence.
        index: usize,
        /// The move letter.
        letter: char,
        /// `up`, `down`, `left` or `right`.
        direction: &'static str,
    },
    /// A tile number that is not next to the blank at that point.
    #[error("move {index}: tile {tile} is not next to the blank")]
    NotAdjacent {
        /// Zero-based position of the move in the sequence.
        index: usize,
        /// The tile asked for.
        tile: u32,
    },
}

/// A sequence of moves.
///
/// Text form: one letter per move (`RRUUL`); on input, a letter may be followed by a repeat
/// count (`R2U2L`), and spaces, commas and case are ignored. [`Moves::compact`] prints counts.
///
/// # Examples
/// ```
/// use npuzzle_core::Moves;
/// let m: Moves = "R2U2 l".parse().unwrap();
/// assert_eq!(m.to_string(), "RRUUL");
/// assert_eq!(m.compact(), "R2U2L");
/// assert_eq!(m.inverse().to_string(), "RDDLL");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves(pub Vec<Move>);

impl Moves {
    /// The moves, in order.
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The sequence that undoes this one: reversed, each move inverted.
    pub fn inverse(&self) -> Moves {
        Moves(self.0.iter().rev().map(|m| m.inverse()).collect())
    }

    /// The text form with runs written as counts: `RRUUL` is `R2U2L`.
    pub fn compact(&self) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < self.0.len() {
            let m = self.0[i];
            let run = self.0[i..].iter().take_while(|&&x| x == m).count();
            out.push(m.letter());
            if run > 1 {
                out.push_str(&run.to_string());
            }
            i += run;
        }
        out
    }
}

impl From<Vec<Move>> for Moves {
    fn from(v: Vec<Move>) -> Moves {
        Moves(v)
    }
}

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.0 {
            write!(f, "{}", m.letter())?;
        }
        Ok(())
    }
}

impl FromStr for Moves {
    type Err = MoveError;

    fn from_str(s: &str) -> Result<Moves, MoveError> {
        // A count above this is almost surely a typo; refusing it also bounds memory.
        const MAX_COUNT: usize = 1 << 20;
        let mut out = Vec::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() || c == ',' {
                i += 1;
                continue;
            }
            let m = Move::from_letter(c).ok_or(MoveError::BadLetter(c, i))?;
            i += 1;
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let count = if start == i {
                1
            } else {
                let digits: String = chars[start..i].iter().collect();
                match digits.parse::<usize>() {
                    Ok(n) if (1..=MAX_COUNT).contains(&n) => n,
                    _ => return Err(MoveError::BadCount(start)),
                }
            };
            if out.len() + count > 16 * MAX_COUNT {
                return Err(MoveError::BadCount(start));
            }
            out.extend(std::iter::repeat_n(m, count));
        }
        Ok(Moves(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for text in ["", "U", "RRUULDDR", "LURD"] {
            let m: Moves = text.parse().unwrap();
            assert_eq!(m.to_string(), text);
            assert_eq!(m.compact().parse::<Moves>().unwrap(), m);
        }
    }

    #[test]
    fn inverse_of_inverse_is_identity() {
        let m: Moves = "R3ULD2".parse().unwrap();
        assert_eq!(m.inverse().inverse(), m);
        for mv in Move::ALL {
            assert_eq!(mv.inverse().inverse(), mv);
            let (dx, dy) = mv.blank_delta();
            assert_eq!(Move::from_blank_delta(dx, dy), Some(mv));
            assert_eq!(Move::from_letter(mv.letter()), Some(mv));
        }
    }

    #[test]
    fn rejects_bad_text() {
        assert_eq!("RX".parse::<Moves>(), Err(MoveError::BadLetter('X', 1)));
        assert_eq!("R0".parse::<Moves>(), Err(MoveError::BadCount(1)));
        assert!("R99999999999999999999999".parse::<Moves>().is_err());
    }
}
