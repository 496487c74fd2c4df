//! Board dimensions.

use std::fmt;
use std::num::NonZeroU16;
use std::str::FromStr;

use thiserror::Error;

/// The dimensions of a board: `width` columns by `height` rows, written `WxH` (width first).
///
/// A `Size` always has both sides within [`Size::MIN_SIDE`]`..=`[`Size::MAX_SIDE`], so every
/// board built on it has at least four cells and at most 65,536 (tile numbers fit in `u16`).
///
/// # Examples
/// ```
/// use npuzzle_core::Size;
/// let size: Size = "5x3".parse().unwrap();
/// assert_eq!((size.width(), size.height(), size.cells()), (5, 3, 15));
/// assert_eq!(size.to_string(), "5x3");
/// assert_eq!("4".parse::<Size>().unwrap(), Size::square(4).unwrap());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Size {
    width: NonZeroU16,
    height: NonZeroU16,
}

/// Why a [`Size`] could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SizeError {
    /// A side is below [`Size::MIN_SIDE`] or above [`Size::MAX_SIDE`].
    #[error("size {width}x{height} is out of range: each side must be 2 to 256")]
    OutOfRange {
        /// The width asked for.
        width: usize,
        /// The height asked for.
        height: usize,
    },
    /// A side is a number too large for any machine word, kept as written.
    #[error("size {0} is out of range: each side must be 2 to 256")]
    Huge(String),
    /// The text is not of the form `WxH` or `N`.
    #[error("invalid size {0:?}: expected WxH (for example 4x4 or 5x3)")]
    Syntax(String),
}

impl Size {
    /// The smallest side allowed: a one-row "board" has no puzzle in it.
    pub const MIN_SIDE: usize = 2;
    /// The largest side allowed, so that every tile number fits in a `u16`.
    pub const MAX_SIDE: usize = 256;

    /// A `width` x `height` size.
    ///
    /// # Errors
    /// [`SizeError::OutOfRange`] when a side is outside `2..=256`.
    pub fn new(width: usize, height: usize) -> Result<Size, SizeError> {
        let ok = |s: usize| (Self::MIN_SIDE..=Self::MAX_SIDE).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(SizeError::OutOfRange { width, height });
        }
        // Both sides are in 2..=256, so they are non-zero and fit in u16.
        match (NonZeroU16::new(width as u16), NonZeroU16::new(height as u16)) {
            (Some(width), Some(height)) => Ok(Size { width, height }),
            _ => Err(SizeError::OutOfRange { width, height }),
        }
    }

    /// A square `side` x `side` size.
    ///
    /// # Errors
    /// As [`Size::new`].
    pub fn square(side: usize) -> Result<Size, SizeError> {
        Size::new(side, side)
    }

    /// Number of columns.
    pub fn width(self) -> usize {
        usize::from(self.width.get())
    }

    /// Number of rows.
    pub fn height(self) -> usize {
        usize::from(self.height.get())
    }

    /// Number of cells, blank included.
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// Whether width equals height.
    pub fn is_square(self) -> bool {
        self.width == self.height
    }

    /// The size with width and height exchanged.
    pub fn transposed(self) -> Size {
        Size { width: self.height, height: self.width }
    }

    /// Row-major index of the cell at column `x`, row `y`.
    pub fn index(self, x: usize, y: usize) -> usize {
        y * self.width() + x
    }

    /// Column and row of the cell at row-major `index`.
    pub fn xy(self, index: usize) -> (usize, usize) {
        (index % self.width(), index / self.width())
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl FromStr for Size {
    type Err = SizeError;

    /// Parses `WxH` (also `W*H`, `WXH`) or a single side `N` for a square board.
    fn from_str(s: &str) -> Result<Size, SizeError> {
        let t = s.trim();
        let syntax = || SizeError::Syntax(t.chars().take(40).collect());
        let huge = || SizeError::Huge(t.chars().take(40).collect());
        let num = |p: &str| -> Result<usize, SizeError> {
            let p = p.trim();
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // An absurd number is out of range as written (it was reported saturated, as
            // 18446744073709551615).
            p.parse::<usize>().map_err(|_| huge())
        };
        match t.split_once(['x', 'X', '*', '×']) {
            Some((w, h)) => Size::new(num(w)?, num(h)?),
            None => Size::square(num(t)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for text in ["2x2", "3x3", "5x3", "3x5", "256x2", "16x16"] {
            assert_eq!(text.parse::<Size>().unwrap().to_string(), text);
        }
        assert_eq!("7".parse::<Size>().unwrap().to_string(), "7x7");
        assert_eq!(" 4 X 3 ".parse::<Size>().unwrap().to_string(), "4x3");
    }

    #[test]
    fn rejects_out_of_range_and_garbage() {
        for bad in ["1x4", "4x1", "0x0", "257x2"] {
            assert!(matches!(bad.parse::<Size>(), Err(SizeError::OutOfRange { .. })), "{bad}");
        }
        assert_eq!(
            "99999999999999999999x2".parse::<Size>().unwrap_err().to_string(),
            "size 99999999999999999999x2 is out of range: each side must be 2 to 256"
        );
        for bad in ["", "x", "3x", "axb", "-3x3", "3x3x3", "3.5x2"] {
            assert!(matches!(bad.parse::<Size>(), Err(SizeError::Syntax(_))), "{bad}");
        }
    }

    #[test]
    fn index_round_trips() {
        let s = Size::new(5, 3).unwrap();
        for i in 0..s.cells() {
            let (x, y) = s.xy(i);
            assert_eq!(s.index(x, y), i);
        }
        assert_eq!(s.transposed(), Size::new(3, 5).unwrap());
    }
}
