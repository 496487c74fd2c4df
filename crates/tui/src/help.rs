//! The list of every key, over the middle of the screen: as wide as fits (descriptions wrap
//! on narrow terminals) and scrolled with the arrows when it is taller than the screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Clear, Paragraph, Widget};

use crate::text::wrap;
use crate::theme::Theme;

/// Every key, for the help and the README.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows", "move a tile (or the blank)"),
    ("W A S D", "move, with Shift"),
    ("H J K L", "move, with Shift"),
    ("b  Tab", "toggle moving tiles / the blank"),
    ("click", "slide the tiles up to the blank"),
    ("u  y", "undo / redo"),
    ("n  r", "new random board"),
    ("0", "back to this game's start"),
    ("+  -", "bigger / smaller board"),
    ("h", "hint: the next optimal move"),
    ("s", "solve and play the solution"),
    ("m", "replay your solve (once solved)"),
    ("o", "replay the optimal solution"),
    ("space", "play / pause a playback"),
    (",  .", "step back / forward"),
    ("<  >", "slower / faster"),
    ("Esc", "stop a playback or a solve"),
    ("?", "this list"),
    ("q  Ctrl-C", "quit"),
];

/// The widest the list is drawn.
const MAX_WIDTH: u16 = 52;
/// The key column: a space, the longest key (`q  Ctrl-C`), two spaces.
const KEY_COLUMN: usize = 12;

/// Where the list goes on a screen of size `area`, and its lines for that width.
fn layout(area: Rect) -> (Rect, Vec<(String, String)>) {
    let width = MAX_WIDTH.min(area.width);
    // Inside the border, after the key column, and a space before the border.
    let text_width = usize::from(width.saturating_sub(3)).saturating_sub(KEY_COLUMN);
    let mut lines = Vec::new();
    for (key, what) in KEYS {
        for (i, part) in wrap(what, text_width.max(8)).into_iter().enumerate() {
            let key = if i == 0 { format!(" {key}") } else { String::new() };
            lines.push((key, part));
        }
    }
    let wanted = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX);
    let height = wanted.min(area.height);
    let popup = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    (popup, lines)
}

/// Lines of the list shown at once on a screen of size `area` (a page, for Page Down).
pub(crate) fn page_height(area: Rect) -> u16 {
    layout(area).0.height.saturating_sub(2).max(1)
}

/// The furthest the list scrolls on a screen of size `area`.
pub(crate) fn max_scroll(area: Rect) -> u16 {
    let (popup, lines) = layout(area);
    let shown = usize::from(popup.height.saturating_sub(2));
    u16::try_from(lines.len().saturating_sub(shown)).unwrap_or(u16::MAX)
}

/// The list of every key, scrolled down by `scroll` lines.
#[derive(Clone, Copy, Debug)]
pub struct HelpView<'a> {
    /// The styles.
    pub theme: &'a Theme,
    /// Lines scrolled past (more than there are is the end of the list).
    pub scroll: u16,
}

impl Widget for HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let (popup, lines) = layout(area);
        if popup.width < 3 || popup.height < 3 {
            return;
        }
        let scroll = self.scroll.min(max_scroll(area));
        let shown = usize::from(popup.height - 2);
        let more_above = scroll > 0;
        let more_below = usize::from(scroll) + shown < lines.len();
        Clear.render(popup, buf);
        let lines: Vec<Line> = lines
            .into_iter()
            .skip(usize::from(scroll))
            .take(shown)
            .map(|(key, what)| {
                Line::from(vec![
                    Span::styled(format!("{key:<KEY_COLUMN$}"), theme.key),
                    Span::styled(what, theme.label),
                ])
            })
            .collect();
        let mut block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.frame)
            .title(Line::styled(" Keys ", theme.value).centered());
        let scroll_hint = match (more_above, more_below) {
            (false, true) => Some(" ↓ more "),
            (true, true) => Some(" ↑↓ more "),
            (true, false) => Some(" ↑ more "),
            (false, false) => None,
        };
        if let Some(hint) = scroll_hint {
            block = block.title_bottom(Line::styled(hint, theme.dim).centered());
        }
        Paragraph::new(lines).block(block).render(popup, buf);
    }
}
