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
    /// A character that is not a move letter, a digit or a separator, and its zero-based
    /// character position (messages count from 1).
    #[error("invalid move {0:?} at character {pos}: expected U, D, L or R", pos = .1 + 1)]
    BadLetter(char, usize),
    /// A repeat count of zero, or above [`Moves::MAX_RUN`], at this zero-based character
    /// position (messages count from 1).
    #[error(
        "invalid repeat count at character {pos}: expected 1 to 1048576",
        pos = .0 + 1
    )]
    BadCount(usize),
    /// More than [`Moves::MAX_LEN`] moves in all.
    #[error("too many moves: at most 268435456")]
    TooLong,
    /// The move has no tile to slide (the blank is on that edge).
    #[error(
        "move {number} ({letter}) is illegal: no tile can slide {direction} into the blank",
        number = .index + 1
    )]
    Illegal {
        /// Zero-based position of the move in the sequence (messages count from 1).
        index: usize,
        /// The move letter.
        letter: char,
        /// `up`, `down`, `left` or `right`.
        direction: &'static str,
    },
    /// A tile number that is not next to the blank at that point.
    #[error("move {number}: tile {tile} is not next to the blank", number = .index + 1)]
    NotAdjacent {
        /// Zero-based position of the move in the sequence (messages count from 1).
        index: usize,
        /// The tile asked for.
        tile: u32,
    },
}

/// Whose direction a move letter names.
///
/// npuzzle writes and reads the **tile**'s direction (the speed-solving convention). Many AI
/// courses name the **blank**'s move instead, which is always the opposite letter: the tile
/// move `R` is the blank move `L`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Perspective {
    /// The letter names the direction the tile slides (the default).
    #[default]
    Tile,
    /// The letter names the direction the blank moves.
    Blank,
}

/// A sequence of moves.
///
/// Text form: one letter per move (`RRUUL`); on input, a letter may be followed by a repeat
/// count (`R2U2L`), and spaces, commas and case are ignored. [`Moves::compact`] prints counts.
/// [`Moves::parse_as`] and [`Moves::to_text`] read and write the blank's directions too.
///
/// # Examples
/// ```
/// use npuzzle_core::{Moves, Perspective};
/// let m: Moves = "R2U2 l".parse().unwrap();
/// assert_eq!(m.to_string(), "RRUUL");
/// assert_eq!(m.compact(), "R2U2L");
/// assert_eq!(m.inverse().to_string(), "RDDLL");
/// assert_eq!(m.to_text(Perspective::Blank, true), "L2D2R");
/// assert_eq!(Moves::parse_as("L2D2R", Perspective::Blank).unwrap(), m);
/// assert_eq!(m.multi_tile_len(), 3);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moves(pub Vec<Move>);

impl Moves {
    /// The largest repeat count read or written in compact text (`R1048576`). Longer runs are
    /// written as several counts (`R1048576R`), so everything printed reads back.
    pub const MAX_RUN: usize = 1 << 20;
    /// The most moves one text may hold: more than any solution npuzzle prints (a 256x256
    /// board's reduction solution is tens of millions of moves), and a bound on the memory a
    /// short compact text can ask for.
    pub const MAX_LEN: usize = 1 << 28;

    /// The moves, in order.
    pub fn as_slice(&self) -> &[Move] {
        &self.0
    }

    /// Number of moves (the single-tile metric).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no moves.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Length in the multi-tile metric, where sliding several tiles of one line at once is one
    /// move. A run of equal letters is exactly such a slide (the blank travels along one row
    /// or column), so this is the number of runs.
    pub fn multi_tile_len(&self) -> usize {
        self.runs().count()
    }

    /// The sequence that undoes this one: reversed, each move inverted.
    pub fn inverse(&self) -> Moves {
        Moves(self.0.iter().rev().map(|m| m.inverse()).collect())
    }

    /// The text form with runs written as counts: `RRUUL` is `R2U2L`.
    pub fn compact(&self) -> String {
        self.to_text(Perspective::Tile, true)
    }

    /// The text form in `perspective`, with runs written as counts when `compact`.
    pub fn to_text(&self, perspective: Perspective, compact: bool) -> String {
        let letter = |m: Move| match perspective {
            Perspective::Tile => m.letter(),
            Perspective::Blank => m.inverse().letter(),
        };
        if !compact {
            return self.0.iter().map(|&m| letter(m)).collect();
        }
        let mut out = String::new();
        for (m, run) in self.runs() {
            let mut left = run;
            while left > 0 {
                let chunk = left.min(Self::MAX_RUN);
                out.push(letter(m));
                if chunk > 1 {
                    out.push_str(&chunk.to_string());
                }
                left -= chunk;
            }
        }
        out
    }

    /// Reads moves written in `perspective`, in long or compact form (see [`Moves`]).
    ///
    /// # Errors
    /// [`MoveError::BadLetter`], [`MoveError::BadCount`] or [`MoveError::TooLong`].
    pub fn parse_as(text: &str, perspective: Perspective) -> Result<Moves, MoveError> {
        let mut out = Vec::new();
        let mut chars = text.chars().enumerate().peekable();
        while let Some((i, c)) = chars.next() {
            if c.is_whitespace() || c == ',' {
                continue;
            }
            let m = Move::from_letter(c).ok_or(MoveError::BadLetter(c, i))?;
            let m = match perspective {
                Perspective::Tile => m,
                Perspective::Blank => m.inverse(),
            };
            let mut count: Option<usize> = None;
            let start = i + 1;
            while let Some(&(_, d)) = chars.peek() {
                let Some(digit) = d.to_digit(10) else { break };
                chars.next();
                // Saturate: anything past MAX_RUN is refused below, however long.
                let n = count.unwrap_or(0).saturating_mul(10).saturating_add(digit as usize);
                count = Some(n.min(Self::MAX_RUN + 1));
            }
            let count = match count {
                None => 1,
                Some(n) if (1..=Self::MAX_RUN).contains(&n) => n,
                Some(_) => return Err(MoveError::BadCount(start)),
            };
            if out.len() + count > Self::MAX_LEN {
                return Err(MoveError::TooLong);
            }
            out.extend(std::iter::repeat_n(m, count));
        }
        Ok(Moves(out))
    }

    /// The runs of equal moves, as (move, length).
    fn runs(&self) -> impl Iterator<Item = (Move, usize)> + '_ {
        self.0.chunk_by(|a, b| a == b).map(|run| (run[0], run.len()))
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

    /// Reads tile-direction moves, long or compact: see [`Moves::parse_as`].
    fn from_str(s: &str) -> Result<Moves, MoveError> {
        Moves::parse_as(s, Perspective::Tile)
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
        assert_eq!("R1048577".parse::<Moves>(), Err(MoveError::BadCount(1)));
        assert_eq!(
            "UX".parse::<Moves>().unwrap_err().to_string(),
            "invalid move 'X' at character 2: expected U, D, L or R"
        );
        assert_eq!(
            "U0".parse::<Moves>().unwrap_err().to_string(),
            "invalid repeat count at character 2: expected 1 to 1048576"
        );
        let many = "R1048576".repeat(Moves::MAX_LEN / Moves::MAX_RUN) + "R";
        assert_eq!(many.parse::<Moves>(), Err(MoveError::TooLong));
    }

    #[test]
    fn compact_splits_runs_longer_than_the_largest_count_so_they_read_back() {
        let m = Moves(vec![Move::Right; Moves::MAX_RUN + 1]);
        assert_eq!(m.compact(), "R1048576R");
        assert_eq!(m.compact().parse::<Moves>().unwrap(), m);
        let m = Moves(vec![Move::Up; 2 * Moves::MAX_RUN]);
        assert_eq!(m.compact(), "U1048576U1048576");
        assert_eq!(m.compact().parse::<Moves>().unwrap(), m);
    }

    #[test]
    fn blank_perspective_is_the_opposite_letter() {
        let m: Moves = "RRULD".parse().unwrap();
        assert_eq!(m.to_text(Perspective::Blank, false), "LLDRU");
        assert_eq!(m.to_text(Perspective::Blank, true), "L2DRU");
        assert_eq!(m.to_text(Perspective::Tile, false), "RRULD");
        for text in ["LLDRU", "L2DRU", "l l d r u"] {
            assert_eq!(Moves::parse_as(text, Perspective::Blank).unwrap(), m);
        }
    }

    #[test]
    fn multi_tile_metric_counts_runs() {
        for (text, mtm) in [("", 0), ("R", 1), ("RR", 1), ("RRUUL", 3), ("RLR", 3), ("R3U2R", 3)] {
            assert_eq!(text.parse::<Moves>().unwrap().multi_tile_len(), mtm, "{text}");
        }
    }
}
