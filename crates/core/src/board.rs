//! The board: a validated permutation of tiles on a grid.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::moves::{Move, MoveError, Moves};
use crate::size::{Size, SizeError};

/// Why a board could not be made from the given cells or text.
///
/// Messages name the problem in the user's terms, for example "tile 8 appears twice" or
/// "row 2 has 2 cells, expected 3" (rows and tiles are counted from 1, as people count rows).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// No numbers at all (empty input, or only comments and separators).
    #[error("empty board: no tiles given")]
    Empty,
    /// A token that is not a whole number.
    #[error("{0:?} is not a number")]
    NotANumber(String),
    /// A negative number.
    #[error("tile {0} is negative")]
    Negative(String),
    /// A number too large to be any tile on a supported board.
    #[error("tile {0} is too large")]
    Overflow(String),
    /// A row whose cell count differs from the first row's.
    #[error("row {row} has {found} cell{}, expected {expected}", if *.found == 1 { "" } else { "s" })]
    Ragged {
        /// One-based row number.
        row: usize,
        /// Cells found in that row.
        found: usize,
        /// Cells in the first row.
        expected: usize,
    },
    /// A flat list (no row separators) whose length is not a square number.
    #[error(
        "{0} tiles in one row: a flat list must hold N*N tiles (for example 9 or 16); separate rows with '/' or newlines"
    )]
    NotSquare(usize),
    /// The cell count does not match the size given or declared.
    #[error("wrong number of tiles: found {found}, expected {expected} for a {size} board")]
    WrongCount {
        /// Cells found.
        found: usize,
        /// Cells the size needs.
        expected: usize,
        /// The size.
        size: Size,
    },
    /// A 42-style file whose row count differs from its declared side.
    #[error("the size line says {expected} rows, found {found}")]
    WrongRowCount {
        /// Rows found.
        found: usize,
        /// Rows declared.
        expected: usize,
    },
    /// A tile number outside `0..cells`.
    #[error("tile {tile} is out of range for a {size} board (tiles are 0 to {max})")]
    OutOfRange {
        /// The tile number.
        tile: u64,
        /// The board size.
        size: Size,
        /// The largest valid tile.
        max: usize,
    },
    /// A tile that appears more than once (`0` being the blank, however it was written).
    #[error("{} appears twice", tile_name(*.0))]
    Duplicate(u64),
    /// A tile that does not appear (reported only when nothing else is wrong).
    #[error("tile {0} is missing")]
    Missing(u64),
    /// More numbers than the largest board holds; reading stopped there.
    #[error("more than 65536 tiles: the largest board is 256x256")]
    TooManyTiles,
    /// A string of digits (one tile per digit) whose length fits no board it can name.
    #[error(
        "{0} digits in a digit string: write 4 or 9 digits (2x2 or 3x3), rows as 123/450, or \
         separate the tiles with spaces"
    )]
    DigitCount(usize),
    /// A digit string for a board of more than 9 cells, where tile numbers have two digits.
    #[error(
        "a digit string names one tile per digit, so it fits boards of at most 9 cells: \
         separate the tiles with spaces"
    )]
    DigitStringTooLong,
    /// The dimensions are not a supported size.
    #[error(transparent)]
    Size(#[from] SizeError),
}

/// `tile 8`, or `the blank` for 0.
fn tile_name(tile: u64) -> String {
    if tile == 0 { "the blank (0)".to_string() } else { format!("tile {tile}") }
}

/// A sliding-tile board: `width` x `height` cells, row-major, holding each of `0..cells`
/// exactly once, `0` being the blank.
///
/// A `Board` is validated when it is made and cannot become invalid: moves only ever swap
/// the blank with a neighbour.
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Move};
/// let mut b: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
/// assert_eq!(b.blank_xy(), (1, 2));
/// b.apply(Move::Right).unwrap();               // the 3 slides right, the blank goes left
/// assert_eq!(b.to_string(), "8 6 7/2 5 4/0 3 1");
/// assert!(b.apply(Move::Right).is_err());      // nothing left of the blank now
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    size: Size,
    tiles: Box<[u16]>,
    blank: usize,
}

impl Board {
    /// A board of `size` from its cells in row-major order.
    ///
    /// # Errors
    /// [`BoardError::WrongCount`], [`BoardError::OutOfRange`], [`BoardError::Duplicate`] or
    /// [`BoardError::Missing`] when `tiles` is not a permutation of `0..size.cells()`.
    pub fn new(size: Size, tiles: Vec<u16>) -> Result<Board, BoardError> {
        let wide: Vec<u64> = tiles.iter().map(|&t| u64::from(t)).collect();
        Board::from_numbers(size, &wide)
    }

    /// Validates numbers read from text (which may be far out of range) and builds the board.
    pub(crate) fn from_numbers(size: Size, cells: &[u64]) -> Result<Board, BoardError> {
        let n = size.cells();
        if cells.len() != n {
            return Err(BoardError::WrongCount { found: cells.len(), expected: n, size });
        }
        if let Some(&tile) = cells.iter().find(|&&t| t >= n as u64) {
            return Err(BoardError::OutOfRange { tile, size, max: n - 1 });
        }
        let mut seen = vec![false; n];
        for &t in cells {
            if std::mem::replace(&mut seen[t as usize], true) {
                return Err(BoardError::Duplicate(t));
            }
        }
        // Right count, no duplicates, all in range: a permutation, so nothing is missing
        // and there is exactly one blank.
        let tiles: Box<[u16]> = cells.iter().map(|&t| t as u16).collect();
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        Ok(Board { size, tiles, blank })
    }

    /// The board's dimensions.
    pub fn size(&self) -> Size {
        self.size
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.size.width()
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.size.height()
    }

    /// The cells in row-major order.
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The tile at column `x`, row `y`.
    ///
    /// # Panics
    /// When `(x, y)` is outside the board.
    pub fn get(&self, x: usize, y: usize) -> u16 {
        assert!(x < self.width() && y < self.height(), "cell ({x}, {y}) is outside the board");
        self.tiles[self.size.index(x, y)]
    }

    /// Row-major index of the blank.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// Column and row of the blank.
    pub fn blank_xy(&self) -> (usize, usize) {
        self.size.xy(self.blank)
    }

    /// For each tile number, its row-major cell index.
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.tiles.len()];
        for (i, &t) in self.tiles.iter().enumerate() {
            pos[usize::from(t)] = i;
        }
        pos
    }

    /// The cell the blank would go to with `m`, if the move is legal.
    pub fn target(&self, m: Move) -> Option<usize> {
        let (x, y) = self.blank_xy();
        let (dx, dy) = m.blank_delta();
        let nx = x.checked_add_signed(dx)?;
        let ny = y.checked_add_signed(dy)?;
        (nx < self.width() && ny < self.height()).then(|| self.size.index(nx, ny))
    }

    /// Whether `m` is legal here.
    pub fn can_move(&self, m: Move) -> bool {
        self.target(m).is_some()
    }

    /// The legal moves here, in the order `U D L R`.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL.into_iter().filter(|&m| self.can_move(m))
    }

    /// The tile that `m` would slide, if the move is legal.
    pub fn tile_for_move(&self, m: Move) -> Option<u16> {
        self.target(m).map(|i| self.tiles[i])
    }

    /// The move that slides `tile`, if it is next to the blank.
    pub fn move_for_tile(&self, tile: u16) -> Option<Move> {
        if tile == 0 {
            return None;
        }
        self.legal_moves().find(|&m| self.tile_for_move(m) == Some(tile))
    }

    /// Makes move `m`.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] (with index 0) when no tile can slide that way; the board is
    /// unchanged.
    pub fn apply(&mut self, m: Move) -> Result<(), MoveError> {
        self.apply_at(m, 0)
    }

    fn apply_at(&mut self, m: Move, index: usize) -> Result<(), MoveError> {
        let to = self.target(m).ok_or(MoveError::Illegal {
            index,
            letter: m.letter(),
            direction: match m {
                Move::Up => "up",
                Move::Down => "down",
                Move::Left => "left",
                Move::Right => "right",
            },
        })?;
        self.tiles.swap(self.blank, to);
        self.blank = to;
        Ok(())
    }

    /// The board after move `m`, or `None` when it is illegal.
    pub fn moved(&self, m: Move) -> Option<Board> {
        let mut b = self.clone();
        b.apply(m).ok().map(|()| b)
    }

    /// Makes every move of `moves` in order.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] naming the first illegal move; the board is left as it was
    /// just before that move.
    pub fn apply_all(&mut self, moves: &Moves) -> Result<(), MoveError> {
        for (i, &m) in moves.as_slice().iter().enumerate() {
            self.apply_at(m, i)?;
        }
        Ok(())
    }

    /// The tile numbers that `moves` slide, in order (the "tile list" form of a solution).
    ///
    /// # Errors
    /// As [`Board::apply_all`].
    pub fn tiles_moved(&self, moves: &Moves) -> Result<Vec<u16>, MoveError> {
        let mut b = self.clone();
        let mut out = Vec::with_capacity(moves.len());
        for (i, &m) in moves.as_slice().iter().enumerate() {
            let tile = b.tile_for_move(m);
            b.apply_at(m, i)?;
            // The move was legal, so there was a tile to slide.
            out.push(tile.unwrap_or(0));
        }
        Ok(out)
    }

    /// The moves that slide the given tiles in order (a solution written as tile numbers).
    ///
    /// # Errors
    /// [`MoveError::NotAdjacent`] when a tile is not next to the blank at its turn.
    pub fn moves_for_tiles(&self, tiles: &[u32]) -> Result<Moves, MoveError> {
        let mut b = self.clone();
        let mut out = Vec::with_capacity(tiles.len());
        for (index, &tile) in tiles.iter().enumerate() {
            let m = u16::try_from(tile)
                .ok()
                .and_then(|t| b.move_for_tile(t))
                .ok_or(MoveError::NotAdjacent { index, tile })?;
            b.apply_at(m, index)?;
            out.push(m);
        }
        Ok(Moves(out))
    }

    /// Swaps the contents of two cells. Crate-internal: it can change solvability.
    pub(crate) fn swap_cells(&mut self, a: usize, b: usize) {
        self.tiles.swap(a, b);
        if self.tiles[a] == 0 {
            self.blank = a;
        } else if self.tiles[b] == 0 {
            self.blank = b;
        }
    }

    /// The board as a grid: one row per line, numbers right-aligned, the blank shown as `.`
    /// when `dot_blank` is true.
    pub fn grid(&self, dot_blank: bool) -> String {
        let w = (self.tiles.len() - 1).to_string().len();
        let mut out = String::new();
        for row in self.tiles.chunks(self.width()) {
            let cells: Vec<String> =
                row.iter()
                    .map(|&t| {
                        if t == 0 && dot_blank {
                            format!("{:>w$}", ".")
                        } else {
                            format!("{t:>w$}")
                        }
                    })
                    .collect();
            out.push_str(&cells.join(" "));
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Board {
    /// The inline form: rows separated by `/`, cells by spaces (`8 6 7/2 5 4/3 0 1`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (r, row) in self.tiles.chunks(self.width()).enumerate() {
            if r > 0 {
                f.write_str("/")?;
            }
            for (c, t) in row.iter().enumerate() {
                if c > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{t}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Reads any board text form: see [`crate::parse_board`].
    fn from_str(s: &str) -> Result<Board, BoardError> {
        crate::parse::parse_board(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_non_permutations_with_named_reasons() {
        let s = Size::square(2).unwrap();
        assert_eq!(
            Board::new(s, vec![1, 1, 2, 0]).unwrap_err().to_string(),
            "tile 1 appears twice"
        );
        assert_eq!(
            Board::new(s, vec![1, 4, 2, 0]).unwrap_err().to_string(),
            "tile 4 is out of range for a 2x2 board (tiles are 0 to 3)"
        );
        assert!(matches!(Board::new(s, vec![1, 2, 0]), Err(BoardError::WrongCount { .. })));
    }

    #[test]
    fn tiles_and_moves_round_trip() {
        let b: Board = "1 2 3/4 0 5/7 8 6".parse().unwrap();
        let moves: Moves = "LUR".parse().unwrap();
        let tiles = b.tiles_moved(&moves).unwrap();
        assert_eq!(tiles, vec![5, 6, 8]);
        let back = b.moves_for_tiles(&tiles.iter().map(|&t| u32::from(t)).collect::<Vec<_>>());
        assert_eq!(back.unwrap(), moves);
        assert!(matches!(b.moves_for_tiles(&[1]), Err(MoveError::NotAdjacent { tile: 1, .. })));
    }

    #[test]
    fn a_move_then_its_inverse_is_the_identity() {
        let b: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        for m in b.legal_moves() {
            let mut c = b.clone();
            c.apply(m).unwrap();
            c.apply(m.inverse()).unwrap();
            assert_eq!(c, b);
        }
    }

    #[test]
    fn illegal_move_names_position_and_leaves_board_before_it() {
        let mut b: Board = "1 2 3/4 5 6/7 8 0".parse().unwrap();
        let err = b.apply_all(&"RRR".parse().unwrap()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "move 3 (R) is illegal: no tile can slide right into the blank"
        );
        assert_eq!(b.to_string(), "1 2 3/4 5 6/0 7 8");
    }

    #[test]
    fn grid_aligns_columns() {
        let b: Board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0".parse().unwrap();
        assert_eq!(b.grid(true).lines().last().unwrap(), "13 14 15  .");
    }
}
