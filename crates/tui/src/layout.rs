//! Where things go on the screen: pure functions of the terminal's size, shared by drawing
//! and by mouse clicks (a click is mapped back to a cell with the same geometry that drew
//! the board).

use npuzzle_core::Size;
use ratatui::layout::Rect;

/// Width of the side panel.
pub const PANEL_WIDTH: u16 = 28;
/// The panel is shown when the terminal is at least this wide.
pub const PANEL_MIN_SCREEN_WIDTH: u16 = 64;

/// The regions of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Screen {
    /// The title line.
    pub header: Rect,
    /// The board's frame.
    pub board: Rect,
    /// Inside the board's frame.
    pub board_inner: Rect,
    /// The side panel (empty on narrow terminals).
    pub panel: Rect,
    /// The status line above the keys, on narrow terminals of at least
    /// [`STATUS_MIN_SCREEN_HEIGHT`] rows (empty otherwise): it stands in for the panel.
    pub status: Rect,
    /// The key line.
    pub footer: Rect,
}

/// Narrow terminals get a status line when they are at least this tall.
pub const STATUS_MIN_SCREEN_HEIGHT: u16 = 10;

impl Screen {
    /// The regions of a terminal of size `area`.
    pub fn new(area: Rect) -> Screen {
        let header = Rect { height: area.height.min(1), ..area };
        let footer_h = u16::from(area.height >= 3);
        let footer = Rect { y: area.bottom().saturating_sub(footer_h), height: footer_h, ..area };
        let panel_w = if area.width >= PANEL_MIN_SCREEN_WIDTH { PANEL_WIDTH } else { 0 };
        let status_h = u16::from(panel_w == 0 && area.height >= STATUS_MIN_SCREEN_HEIGHT);
        let status = Rect { y: footer.y.saturating_sub(status_h), height: status_h, ..area };
        let body = Rect {
            y: header.bottom(),
            height: area.height.saturating_sub(header.height + footer_h + status_h),
            ..area
        };
        let board = Rect { width: body.width - panel_w, ..body };
        let panel = Rect { x: board.right(), width: panel_w, ..body };
        let board_inner = Rect {
            x: board.x + 1,
            y: board.y + 1,
            width: board.width.saturating_sub(2),
            height: board.height.saturating_sub(2),
        };
        Screen { header, board, board_inner, panel, status, footer }
    }
}

/// How the tiles of one board are laid out in an area: every tile the same size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Left edge of the first column.
    pub x: u16,
    /// Top edge of the first row.
    pub y: u16,
    /// Columns of the board.
    pub cols: u16,
    /// Rows of the board.
    pub rows: u16,
    /// Width of a tile in cells.
    pub tile_w: u16,
    /// Height of a tile in cells.
    pub tile_h: u16,
    /// Blank columns between tiles.
    pub gap_x: u16,
    /// Blank rows between tiles.
    pub gap_y: u16,
}

/// Tile shapes from largest to smallest: (least width, height, column gap, row gap). A
/// terminal cell is about twice as tall as it is wide, so a tile twice as wide as it is tall
/// looks square.
const SHAPES: [(u16, u16, u16, u16); 6] =
    [(19, 9, 3, 1), (15, 7, 2, 1), (11, 5, 2, 1), (7, 3, 1, 1), (0, 1, 1, 1), (0, 1, 1, 0)];

impl Grid {
    /// The largest grid of evenly sized tiles for `size` that fits in `area`, centred in it;
    /// or, when none fits, the area the smallest one needs (width, height).
    pub fn fit(area: Rect, size: Size) -> Result<Grid, (u16, u16)> {
        let mut smallest = (u16::MAX, u16::MAX);
        for shape in SHAPES {
            let grid = Grid::with_shape(size, shape);
            let (w, h) = (grid.width(), grid.height());
            if w <= area.width && h <= area.height {
                let x = area.x + (area.width - w) / 2;
                let y = area.y + (area.height - h) / 2;
                return Ok(Grid { x, y, ..grid });
            }
            smallest = (w, h);
        }
        Err(smallest)
    }

    fn with_shape(size: Size, (least_w, tile_h, gap_x, gap_y): (u16, u16, u16, u16)) -> Grid {
        // Sides are at most 256, so every count here fits in u16 (saturating for safety).
        let digits = (size.cells() - 1).to_string().len() as u16;
        // Equal padding on both sides of the widest number, at least one cell.
        let pad = least_w.saturating_sub(digits).div_ceil(2).max(1);
        Grid {
            x: 0,
            y: 0,
            cols: u16::try_from(size.width()).unwrap_or(u16::MAX),
            rows: u16::try_from(size.height()).unwrap_or(u16::MAX),
            tile_w: digits + 2 * pad,
            tile_h,
            gap_x,
            gap_y,
        }
    }

    /// Total width in cells.
    pub fn width(&self) -> u16 {
        let n = u32::from(self.cols);
        let w = n * u32::from(self.tile_w) + (n - 1) * u32::from(self.gap_x);
        u16::try_from(w).unwrap_or(u16::MAX)
    }

    /// Total height in cells.
    pub fn height(&self) -> u16 {
        let n = u32::from(self.rows);
        let h = n * u32::from(self.tile_h) + (n - 1) * u32::from(self.gap_y);
        u16::try_from(h).unwrap_or(u16::MAX)
    }

    /// The rectangle of the tile in column `x`, row `y`.
    pub fn tile(&self, x: usize, y: usize) -> Rect {
        // x < cols and y < rows, and the whole grid fits in u16 coordinates.
        let (x, y) = (x as u16, y as u16);
        Rect {
            x: self.x + x * (self.tile_w + self.gap_x),
            y: self.y + y * (self.tile_h + self.gap_y),
            width: self.tile_w,
            height: self.tile_h,
        }
    }

    /// The board cell (column, row) under screen position (`col`, `row`); `None` outside
    /// the tiles, gaps included.
    pub fn hit(&self, col: u16, row: u16) -> Option<(usize, usize)> {
        let dx = col.checked_sub(self.x)?;
        let dy = row.checked_sub(self.y)?;
        let (pitch_x, pitch_y) = (self.tile_w + self.gap_x, self.tile_h + self.gap_y);
        let (cx, cy) = (dx / pitch_x, dy / pitch_y);
        let inside = cx < self.cols
            && cy < self.rows
            && dx % pitch_x < self.tile_w
            && dy % pitch_y < self.tile_h;
        inside.then_some((usize::from(cx), usize::from(cy)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(w: usize, h: usize) -> Size {
        Size::new(w, h).unwrap()
    }

    #[test]
    fn at_80x24_boards_up_to_10x10_fit() {
        let screen = Screen::new(Rect::new(0, 0, 80, 24));
        assert_eq!(screen.panel.width, PANEL_WIDTH);
        for side in 2..=10 {
            assert!(Grid::fit(screen.board_inner, size(side, side)).is_ok(), "{side}");
        }
        assert!(Grid::fit(screen.board_inner, size(11, 11)).is_err());
    }

    #[test]
    fn narrow_screens_get_a_status_line_and_nothing_overlaps() {
        for (w, h) in [(40, 12), (30, 8), (63, 10), (64, 24), (0, 0), (1, 1), (200, 60)] {
            let s = Screen::new(Rect::new(0, 0, w, h));
            let parts = [s.header, s.board, s.panel, s.status, s.footer];
            for (i, a) in parts.iter().enumerate() {
                for b in &parts[i + 1..] {
                    assert!(a.intersection(*b).is_empty(), "{w}x{h}: {a:?} {b:?}");
                }
            }
            assert_eq!(s.status.height, u16::from(w < PANEL_MIN_SCREEN_WIDTH && h >= 10));
        }
        let s = Screen::new(Rect::new(0, 0, 40, 12));
        assert_eq!((s.board.height, s.status.y, s.footer.y), (9, 10, 11));
        // A 4x4 board of one-row tiles fits.
        assert!(Grid::fit(s.board_inner, size(4, 4)).is_ok());
    }

    #[test]
    fn tiles_are_even_and_numbers_centred() {
        let area = Rect::new(0, 0, 60, 25);
        let g = Grid::fit(area, size(3, 3)).unwrap();
        assert_eq!((g.tile_w, g.tile_h), (15, 7));
        let g = Grid::fit(area, size(4, 4)).unwrap();
        // Two digits: an even width, so "12" has the same padding on both sides.
        assert_eq!((g.tile_w, g.tile_h), (12, 5));
        let g = Grid::fit(Rect::new(0, 0, 50, 20), size(4, 4)).unwrap();
        assert_eq!((g.tile_w, g.tile_h), (8, 3));
    }

    #[test]
    fn clicks_map_back_to_cells() {
        let g = Grid::fit(Rect::new(3, 2, 60, 30), size(4, 3)).unwrap();
        for y in 0..3 {
            for x in 0..4 {
                let r = g.tile(x, y);
                assert_eq!(g.hit(r.x, r.y), Some((x, y)));
                assert_eq!(g.hit(r.right() - 1, r.bottom() - 1), Some((x, y)));
                // The gap right of a tile is no tile.
                assert_eq!(g.hit(r.right(), r.y), None);
            }
        }
        assert_eq!(g.hit(0, 0), None);
        assert_eq!(g.hit(g.x + g.width(), g.y), None);
    }

    #[test]
    fn too_small_reports_what_it_needs() {
        let (w, h) = Grid::fit(Rect::new(0, 0, 20, 5), size(10, 10)).unwrap_err();
        assert_eq!((w, h), (49, 10));
    }
}
