//! Colours, or none: the game's two looks.
//!
//! The coloured look fills tiles with a background colour (blue when misplaced, green on
//! their goal cell, amber for the hinted tile). The monochrome look (for `NO_COLOR`, see
//! <https://no-color.org>) uses no colour at all, only bold, reverse video and box-drawing
//! borders, so every state is still visible.

use ratatui::style::{Color, Modifier, Style};

/// The styles the widgets draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    /// Whether colours are used (false: monochrome).
    pub color: bool,
    /// A tile away from its goal cell.
    pub tile: Style,
    /// A tile on its goal cell.
    pub tile_home: Style,
    /// The tile the hint (or the playback) moves next.
    pub tile_next: Style,
    /// The board's frame and the panel's.
    pub frame: Style,
    /// The frame when the board is solved.
    pub frame_solved: Style,
    /// The title bar.
    pub header: Style,
    /// The name in the title bar.
    pub brand: Style,
    /// Labels in the panel.
    pub label: Style,
    /// Values in the panel.
    pub value: Style,
    /// Good news: solved, optimal.
    pub good: Style,
    /// Something the player should read: a refused key, a limit.
    pub warn: Style,
    /// Key names in the footer and the help.
    pub key: Style,
    /// Less important text.
    pub dim: Style,
}

impl Theme {
    /// The look for a terminal with colours, or the monochrome one.
    pub fn new(color: bool) -> Theme {
        if color { Theme::colored() } else { Theme::monochrome() }
    }

    /// Colours from the 256-colour palette, which every current terminal has.
    pub fn colored() -> Theme {
        let white = Color::Indexed(231);
        let bold = Modifier::BOLD;
        Theme {
            color: true,
            tile: Style::new().fg(white).bg(Color::Indexed(25)).add_modifier(bold),
            tile_home: Style::new().fg(white).bg(Color::Indexed(29)).add_modifier(bold),
            tile_next: Style::new()
                .fg(Color::Indexed(16))
                .bg(Color::Indexed(214))
                .add_modifier(bold),
            frame: Style::new().fg(Color::Indexed(244)),
            frame_solved: Style::new().fg(Color::Indexed(41)).add_modifier(bold),
            header: Style::new().fg(Color::Indexed(252)).bg(Color::Indexed(236)),
            brand: Style::new().fg(Color::Indexed(16)).bg(Color::Indexed(75)).add_modifier(bold),
            label: Style::new().fg(Color::Indexed(246)),
            value: Style::new().fg(Color::Indexed(231)).add_modifier(bold),
            good: Style::new().fg(Color::Indexed(41)).add_modifier(bold),
            warn: Style::new().fg(Color::Indexed(214)),
            key: Style::new().fg(Color::Indexed(75)).add_modifier(bold),
            dim: Style::new().fg(Color::Indexed(244)),
        }
    }

    /// No colours: bold, reverse video and plain text.
    pub fn monochrome() -> Theme {
        let plain = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        Theme {
            color: false,
            tile: plain,
            tile_home: bold,
            tile_next: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            frame: plain,
            frame_solved: bold,
            header: Style::new().add_modifier(Modifier::REVERSED),
            brand: Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD),
            label: plain,
            value: bold,
            good: bold,
            warn: bold,
            key: bold,
            dim: plain,
        }
    }
}
