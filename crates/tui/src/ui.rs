//! Drawing: `impl Widget for &App` and the widgets it is made of.
//!
//! The screen, top to bottom: a title line, the board in a frame with the side panel on its
//! right (the panel hides on terminals narrower than 64 columns), and a line of keys. The
//! list of all keys opens over it with `?`.

use npuzzle_core::{Board, Move};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Padding, Paragraph, Widget, Wrap};

use crate::app::{App, Assist, Mode, Slide, Tone, clock, plural};
use crate::layout::{Grid, PANEL_MIN_SCREEN_WIDTH, Screen};
use crate::theme::Theme;

/// The smallest terminal the game draws in.
pub const MIN_WIDTH: u16 = 30;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 8;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let text = format!("npuzzle needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT}");
            Paragraph::new(text).wrap(Wrap { trim: true }).style(theme.warn).render(area, buf);
            return;
        }
        let screen = Screen::new(area);
        self.render_header(screen.header, buf);
        self.render_board(screen.board, buf);
        if screen.panel.width > 0 {
            self.render_panel(screen.panel, buf);
        }
        self.render_footer(screen.footer, buf);
        if self.mode() == &Mode::Help {
            HelpView { theme }.render(area, buf);
        }
    }
}

impl App {
    fn render_header(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        buf.set_style(area, theme.header);
        let arrows = if self.moves_blank() { "arrows move the blank" } else { "arrows move tiles" };
        let state = match self.mode() {
            Mode::Solving { .. } => "solving…".to_string(),
            Mode::Replay(r) if r.paused() => "playback paused".to_string(),
            Mode::Replay(_) => format!("playback ▶ {}/s", self.speed()),
            Mode::Play if self.game().is_solved() && self.game().moves() > 0 => {
                "solved ★".to_string()
            }
            _ => String::new(),
        };
        // Without the panel, the moves and the time go up here.
        let right = if area.width < PANEL_MIN_SCREEN_WIDTH {
            let game = self.game();
            let time = clock(game.elapsed(self.now()));
            format!("{state} {} · {time} ", plural(game.moves(), "move"))
        } else {
            format!("{state} ")
        };
        let right_w = u16::try_from(right.chars().count()).unwrap_or(0).min(area.width);
        let left = Line::from(vec![
            Span::styled(" npuzzle ", theme.brand),
            Span::styled(format!(" play · {arrows}"), theme.header),
        ]);
        left.render(Rect { width: area.width - right_w, ..area }, buf);
        let right_area = Rect { x: area.right() - right_w, width: right_w, ..area };
        Span::styled(right, theme.header).render(right_area, buf);
    }

    fn render_board(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let solved = self.game().is_solved();
        let (frame, title) = if solved && self.game().moves() > 0 {
            (theme.frame_solved, " Solved! ".to_string())
        } else {
            let size = self.board().size();
            (theme.frame, format!(" {}-puzzle · {size} ", size.cells() - 1))
        };
        let block = Block::bordered().border_type(BorderType::Rounded).border_style(frame);
        let block = block.title(Line::styled(title, frame).centered());
        let inner = block.inner(area);
        block.render(area, buf);
        BoardView {
            board: self.board(),
            goal: self.game().goal(),
            theme,
            next: self.next_tile(),
            slide: self.slide(),
        }
        .render(inner, buf);
    }

    fn render_panel(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.frame)
            .padding(Padding::horizontal(1))
            .title(Line::styled(" Game ", theme.frame));
        let inner = block.inner(area);
        block.render(area, buf);
        let width = usize::from(inner.width);
        let row = |label: &str, value: String| -> Line<'static> {
            let pad = width.saturating_sub(label.chars().count() + value.chars().count());
            Line::from(vec![
                Span::styled(label.to_string(), theme.label),
                Span::raw(" ".repeat(pad)),
                Span::styled(value, theme.value),
            ])
        };
        let game = self.game();
        let distance = self.distance().to_string();
        let mut lines = vec![
            row("Moves", game.moves().to_string()),
            row("Time", clock(game.elapsed(self.now()))),
            row("Distance", distance),
            row("Goal", short_goal(game.goal())),
            Line::default(),
        ];
        lines.extend(self.status_lines(theme));
        if let Some((text, tone)) = self.note() {
            let style = match tone {
                Tone::Info => theme.dim,
                Tone::Good => theme.good,
                Tone::Warn => theme.warn,
            };
            lines.push(Line::default());
            lines.push(Line::styled(text.to_string(), style));
        }
        Paragraph::new(lines).wrap(Wrap { trim: false }).render(inner, buf);
    }

    /// The panel's middle: the solver, the hint, or the solved message.
    fn status_lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let game = self.game();
        let mut lines = Vec::new();
        match self.mode() {
            Mode::Solving { since, .. } => {
                let secs = self.now().saturating_duration_since(*since).as_secs_f64();
                lines.push(Line::styled(format!("Solving… {secs:.1} s"), theme.value));
                lines.push(Line::styled("Esc cancels", theme.dim));
            }
            Mode::Replay(r) => {
                let quality = if r.optimal() { "optimal" } else { "not optimal" };
                let len = plural(r.len(), "move");
                lines.push(Line::styled(format!("Solution: {len}"), theme.value));
                lines.push(Line::styled(format!("{quality}, {}", r.method()), theme.dim));
                let state = if r.paused() { "paused" } else { "playing" };
                lines.push(Line::styled(
                    format!("{state} {}/{} at {}/s", r.played(), r.len(), self.speed()),
                    theme.label,
                ));
            }
            Mode::Play | Mode::Help | Mode::Quit => {
                if game.is_solved() && game.moves() > 0 {
                    lines.push(Line::styled("★ Solved!", theme.good));
                    let took = clock(game.elapsed(self.now()));
                    let moves = plural(game.moves(), "move");
                    lines.push(Line::styled(format!("{moves} in {took}"), theme.value));
                    let how = match self.assist() {
                        Assist::None => "all by yourself",
                        Assist::Hints => "with hints",
                        Assist::Solver => "with the solver",
                    };
                    lines.push(Line::styled(how, theme.dim));
                    lines.push(Line::styled("r: a new board", theme.dim));
                } else if self.hint_pending() {
                    lines.push(Line::styled("Hint: thinking…", theme.label));
                } else if let Some(hint) = self.hint() {
                    match hint {
                        Ok(Some(h)) => {
                            let arrow = arrow(h.step);
                            lines.push(Line::from(vec![
                                Span::styled("Hint: ", theme.label),
                                Span::styled(format!("slide {} {arrow}", h.tile), theme.value),
                            ]));
                            let then = h.distance - 1;
                            let more = if h.optimal {
                                format!("then {then} more (optimal)")
                            } else {
                                format!("then ≤ {then} more")
                            };
                            lines.push(Line::styled(more, theme.dim));
                        }
                        Ok(None) => {}
                        Err(why) => lines.push(Line::styled(why.to_string(), theme.warn)),
                    }
                }
            }
        }
        lines
    }

    fn render_footer(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let keys: &[(&str, &str)] = match self.mode() {
            Mode::Play => &[
                ("←↑↓→", "move"),
                ("u", "undo"),
                ("y", "redo"),
                ("h", "hint"),
                ("s", "solve"),
                ("r", "new"),
                ("+-", "size"),
                ("?", "keys"),
                ("q", "quit"),
            ],
            Mode::Solving { .. } => &[("Esc", "cancel"), ("q", "quit")],
            Mode::Replay(_) => &[
                ("space", "pause"),
                (".", "step"),
                ("+-", "speed"),
                ("Esc", "stop"),
                ("q", "quit"),
            ],
            Mode::Help | Mode::Quit => &[("any key", "close"), ("q", "quit")],
        };
        let mut spans = vec![Span::raw(" ")];
        for (key, what) in keys {
            spans.push(Span::styled(*key, theme.key));
            spans.push(Span::styled(format!(" {what}  "), theme.dim));
        }
        Line::from(spans).render(area, buf);
    }
}

/// The board: evenly sized tiles, as large as fit, centred; a message when none fit.
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// The position.
    pub board: &'a Board,
    /// The goal (tiles on their goal cell look different).
    pub goal: &'a Board,
    /// The styles.
    pub theme: &'a Theme,
    /// The tile to highlight (the hint's, or the playback's next).
    pub next: Option<u16>,
    /// A tile drawn part of the way from its previous cell.
    pub slide: Option<Slide>,
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let size = self.board.size();
        let grid = match Grid::fit(area, size) {
            Ok(grid) => grid,
            Err((w, h)) => {
                let text = format!(
                    "The {size} board does not fit: its tiles need {w}x{h} cells and there are {}x{}. Enlarge the terminal, or press - for a smaller board.",
                    area.width, area.height
                );
                let paragraph = Paragraph::new(text)
                    .wrap(Wrap { trim: true })
                    .alignment(Alignment::Center)
                    .style(self.theme.warn);
                let height = u16::try_from(paragraph.line_count(area.width))
                    .unwrap_or(area.height)
                    .min(area.height);
                let middle = Rect { y: area.y + (area.height - height) / 2, height, ..area };
                paragraph.render(middle, buf);
                return;
            }
        };
        for y in 0..size.height() {
            for x in 0..size.width() {
                let tile = self.board.get(x, y);
                if tile != 0 {
                    let home = self.goal.get(x, y) == tile;
                    let mut rect = grid.tile(x, y);
                    if let Some(slide) = self.slide.filter(|s| s.tile == tile) {
                        let from = grid.tile(slide.from.0, slide.from.1);
                        let along = |a: u16, b: u16| {
                            let t = slide.progress.clamp(0.0, 1.0);
                            (f32::from(a) + (f32::from(b) - f32::from(a)) * t).round() as u16
                        };
                        rect.x = along(from.x, rect.x);
                        rect.y = along(from.y, rect.y);
                    }
                    self.tile(rect, tile, home, self.next == Some(tile), buf);
                }
            }
        }
    }
}

impl BoardView<'_> {
    fn tile(&self, rect: Rect, tile: u16, home: bool, next: bool, buf: &mut Buffer) {
        let theme = self.theme;
        let style = match (next, home) {
            (true, _) => theme.tile_next,
            (false, true) => theme.tile_home,
            (false, false) => theme.tile,
        };
        let label = tile.to_string();
        let mut number_style = style;
        if theme.color {
            buf.set_style(rect, style);
        } else if rect.height >= 3 {
            // Monochrome boxes: a heavy border for a tile at home, reverse video for the
            // next one to move.
            let border = if home { BorderType::Thick } else { BorderType::Plain };
            let block = Block::new().borders(Borders::ALL).border_type(border).style(style);
            block.render(rect, buf);
        } else {
            // One row per tile: reverse video blocks, bold at home, underlined when next.
            number_style = Style::new().add_modifier(Modifier::REVERSED);
            if home {
                number_style = number_style.add_modifier(Modifier::BOLD);
            }
            if next {
                number_style = number_style.add_modifier(Modifier::UNDERLINED);
            }
            buf.set_style(rect, number_style);
        }
        // Big digits on big tiles (inside a monochrome box's border too).
        let room = if theme.color { rect.width } else { rect.width.saturating_sub(2) };
        let big_width = u16::try_from(label.len() * 4 - 1).unwrap_or(u16::MAX);
        if rect.height >= 5 && big_width + 2 <= room {
            let x = rect.x + (rect.width - big_width) / 2;
            let y = rect.y + (rect.height - 3) / 2;
            for (row, dy) in (0..3).zip(0u16..) {
                let text: Vec<&str> =
                    label.bytes().map(|d| BIG_DIGITS[usize::from(d - b'0')][row]).collect();
                buf.set_string(x, y + dy, text.join(" "), number_style);
            }
            return;
        }
        // Numbers right-aligned in a field as wide as the largest, centred: the digits of
        // every tile line up, like numbers in a table.
        let digits = (self.board.tiles().len() - 1).to_string().len();
        let field = u16::try_from(digits).unwrap_or(rect.width).min(rect.width);
        let len = u16::try_from(label.len()).unwrap_or(field).min(field);
        let x = rect.x + (rect.width - field) / 2 + (field - len);
        let y = rect.y + rect.height / 2;
        buf.set_string(x, y, &label, number_style);
    }
}

/// Digits three cells wide and three tall, drawn with half blocks, for big tiles.
const BIG_DIGITS: [[&str; 3]; 10] = [
    ["█▀█", "█ █", "▀▀▀"],
    ["▀█ ", " █ ", "▀▀▀"],
    ["▀▀█", "█▀▀", "▀▀▀"],
    ["▀▀█", " ▀█", "▀▀▀"],
    ["█ █", "▀▀█", "  ▀"],
    ["█▀▀", "▀▀█", "▀▀▀"],
    ["█▀▀", "█▀█", "▀▀▀"],
    ["▀▀█", "  █", "  ▀"],
    ["█▀█", "█▀█", "▀▀▀"],
    ["█▀█", "▀▀█", "▀▀▀"],
];

/// The list of every key, over the middle of the screen.
#[derive(Clone, Copy, Debug)]
pub struct HelpView<'a> {
    /// The styles.
    pub theme: &'a Theme,
}

/// Every key, for the help and the README.
pub const KEYS: &[(&str, &str)] = &[
    ("arrows", "move a tile (or the blank)"),
    ("W A S D", "move, with Shift"),
    ("H J K L", "move, with Shift"),
    ("b  Tab", "toggle moving tiles / the blank"),
    ("click", "slide the tiles up to the blank"),
    ("u  y", "undo / redo"),
    ("r", "new random board"),
    ("0", "back to this game's start"),
    ("+  -", "bigger / smaller board"),
    ("h", "hint: the next optimal move"),
    ("s", "solve and play the solution"),
    ("space  .", "pause / one step (playback)"),
    ("+  -", "faster / slower (playback)"),
    ("Esc", "cancel, stop; quit when playing"),
    ("q  Ctrl-C", "quit"),
];

impl Widget for HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let height = (KEYS.len() as u16 + 2).min(area.height);
        let width = 50.min(area.width);
        let popup = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        Clear.render(popup, buf);
        let lines: Vec<Line> = KEYS
            .iter()
            .map(|(key, what)| {
                Line::from(vec![
                    Span::styled(format!(" {key:<11}"), theme.key),
                    Span::styled(*what, theme.label),
                ])
            })
            .collect();
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.frame)
            .title(Line::styled(" Keys ", theme.value).centered());
        Paragraph::new(lines).block(block).render(popup, buf);
    }
}

fn arrow(m: Move) -> &'static str {
    match m {
        Move::Up => "↑",
        Move::Down => "↓",
        Move::Left => "←",
        Move::Right => "→",
    }
}

/// The goal's name for the panel: `blank-last` and friends, or `custom`.
fn short_goal(goal: &Board) -> String {
    use npuzzle_core::Goal;
    for named in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
        if named.board(goal.size()).is_ok_and(|g| g == *goal) {
            return named.name().unwrap_or_default().to_string();
        }
    }
    "custom".to_string()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::app::Config;
    use npuzzle_core::Goal;

    /// The buffer's text, one string per line (styles dropped).
    fn lines(buf: &Buffer) -> Vec<String> {
        let area = buf.area;
        (area.top()..area.bottom())
            .map(|y| (area.left()..area.right()).map(|x| buf[(x, y)].symbol()).collect())
            .collect()
    }

    fn app(board: &str, color: bool) -> App {
        let board: Board = board.parse().unwrap();
        let config = Config {
            size: board.size(),
            goal: Goal::BlankLast,
            board: Some(board),
            seed: 1,
            color,
        };
        App::new(config, Instant::now()).unwrap()
    }

    fn render(app: &App, width: u16, height: u16) -> Buffer {
        let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
        app.render(buf.area, &mut buf);
        buf
    }

    #[track_caller]
    fn assert_lines(buf: &Buffer, expected: &[&str]) {
        let actual = lines(buf);
        assert_eq!(actual.len(), expected.len(), "line count");
        for (i, (a, e)) in actual.iter().zip(expected).enumerate() {
            assert_eq!(a, e, "line {i}");
        }
    }

    #[test]
    fn whole_screen_at_80x24_monochrome() {
        let app = app("8 6 7/2 5 4/3 0 1", false);
        assert_lines(
            &render(&app, 80, 24),
            &[
                " npuzzle  play · arrows move tiles                                              ",
                "╭───────────────── 8-puzzle · 3x3 ─────────────────╮╭ Game ────────────────────╮",
                "│                                                  ││ Moves                  0 │",
                "│      ┌─────────┐  ┌─────────┐  ┌─────────┐       ││ Time              0:00.0 │",
                "│      │   █▀█   │  │   █▀▀   │  │   ▀▀█   │       ││ Distance            ≥ 23 │",
                "│      │   █▀█   │  │   █▀█   │  │     █   │       ││ Goal          blank-last │",
                "│      │   ▀▀▀   │  │   ▀▀▀   │  │     ▀   │       ││                          │",
                "│      └─────────┘  └─────────┘  └─────────┘       ││                          │",
                "│                                                  ││                          │",
                "│      ┌─────────┐  ┏━━━━━━━━━┓  ┌─────────┐       ││                          │",
                "│      │   ▀▀█   │  ┃   █▀▀   ┃  │   █ █   │       ││                          │",
                "│      │   █▀▀   │  ┃   ▀▀█   ┃  │   ▀▀█   │       ││                          │",
                "│      │   ▀▀▀   │  ┃   ▀▀▀   ┃  │     ▀   │       ││                          │",
                "│      └─────────┘  ┗━━━━━━━━━┛  └─────────┘       ││                          │",
                "│                                                  ││                          │",
                "│      ┌─────────┐               ┌─────────┐       ││                          │",
                "│      │   ▀▀█   │               │   ▀█    │       ││                          │",
                "│      │    ▀█   │               │    █    │       ││                          │",
                "│      │   ▀▀▀   │               │   ▀▀▀   │       ││                          │",
                "│      └─────────┘               └─────────┘       ││                          │",
                "│                                                  ││                          │",
                "│                                                  ││                          │",
                "╰──────────────────────────────────────────────────╯╰──────────────────────────╯",
                " ←↑↓→ move  u undo  y redo  h hint  s solve  r new  +- size  ? keys  q quit     ",
            ],
        );
    }

    #[test]
    fn small_tiles_are_one_row_with_plain_numbers() {
        let board: Board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let theme = Theme::monochrome();
        let view =
            BoardView { board: &board, goal: &goal, theme: &theme, next: Some(15), slide: None };
        let mut buf = Buffer::empty(Rect::new(0, 0, 19, 7));
        view.render(buf.area, &mut buf);
        assert_lines(
            &buf,
            &[
                "  1    2    3    4 ",
                "                   ",
                "  5    6    7    8 ",
                "                   ",
                "  9   10   11   12 ",
                "                   ",
                " 13   14        15 ",
            ],
        );
        // One-row tiles are reverse-video blocks; the next tile to move is underlined.
        let fifteen = &buf[(16, 6)];
        assert!(fifteen.modifier.contains(Modifier::REVERSED | Modifier::UNDERLINED));
        assert!(!buf[(1, 0)].modifier.contains(Modifier::UNDERLINED));
        assert!(buf[(0, 0)].modifier.contains(Modifier::REVERSED));
        assert!(!buf[(4, 0)].modifier.contains(Modifier::REVERSED), "the gap is not a tile");
    }

    #[test]
    fn colours_mark_home_tiles_and_the_hint() {
        let board: Board = "1 2/0 3".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let theme = Theme::colored();
        let view =
            BoardView { board: &board, goal: &goal, theme: &theme, next: Some(3), slide: None };
        let mut buf = Buffer::empty(Rect::new(0, 0, 9, 3));
        view.render(buf.area, &mut buf);
        // Tiles of three cells with a gap of one, centred: 7 of the 9 columns.
        assert_lines(&buf, &["  1   2  ", "         ", "      3  "]);
        assert_eq!(buf[(1, 0)].bg, theme.tile_home.bg.unwrap());
        assert_eq!(buf[(5, 2)].bg, theme.tile_next.bg.unwrap());
        assert_eq!(buf[(4, 0)].bg, ratatui::style::Color::Reset, "the gap is no tile");
        assert_eq!(buf[(2, 2)].bg, ratatui::style::Color::Reset, "the blank is empty");
    }

    #[test]
    fn a_sliding_tile_is_drawn_part_of_the_way() {
        // The 3 has just slid right, from where the blank is now.
        let board: Board = "1 2/0 3".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let theme = Theme::colored();
        let slide = Slide { tile: 3, from: (0, 1), progress: 0.5 };
        let view =
            BoardView { board: &board, goal: &goal, theme: &theme, next: None, slide: Some(slide) };
        let mut buf = Buffer::empty(Rect::new(0, 0, 9, 3));
        view.render(buf.area, &mut buf);
        // Halfway between column 1 and column 5.
        assert_lines(&buf, &["  1   2  ", "         ", "    3    "]);
        assert_eq!(buf[(3, 2)].bg, theme.tile.bg.unwrap());
        assert_eq!(buf[(6, 2)].bg, ratatui::style::Color::Reset);
    }

    #[test]
    fn a_board_too_large_for_the_terminal_says_so() {
        let board = Goal::BlankLast.board("20x20".parse().unwrap()).unwrap();
        let app = app(&board.to_string(), true);
        let text = lines(&render(&app, 80, 24)).join("\n");
        assert!(text.contains("The 20x20 board does not fit"), "{text}");
        assert!(text.contains("press - for a smaller"), "{text}");
        // Still a game: the panel is there.
        assert!(text.contains("Moves"));
    }

    #[test]
    fn every_terminal_size_draws_without_panicking() {
        let boards = ["1 2/3 0", "8 6 7/2 5 4/3 0 1", "1 2 3 4 5/6 7 8 9 10/11 12 13 14 0"];
        for board in boards {
            for help in [false, true] {
                let mut app = app(board, true);
                if help {
                    app.handle_key(crossterm::event::KeyEvent::from(
                        crossterm::event::KeyCode::Char('?'),
                    ));
                }
                for width in 0..=90 {
                    for height in 0..=30 {
                        let _ = render(&app, width, height);
                    }
                }
            }
        }
    }

    #[test]
    fn a_tiny_terminal_gets_one_message() {
        let app = app("1 2/3 0", true);
        let text = lines(&render(&app, 20, 5)).join("");
        assert!(text.starts_with("npuzzle needs a"), "{text}");
    }

    #[test]
    fn narrow_terminals_drop_the_panel() {
        let app = app("1 2 3/4 5 6/7 0 8", false);
        let screen = lines(&render(&app, 50, 20));
        assert!(!screen.join("\n").contains("Moves"));
        assert!(screen[1].contains("8-puzzle"));
        // The moves and the time move up to the title line.
        assert!(screen[0].ends_with(" 0 moves · 0:00.0 "), "{}", screen[0]);
    }

    #[test]
    fn help_lists_every_key() {
        let mut app = app("1 2 3/4 5 6/7 0 8", true);
        app.handle_key(crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char('?')));
        let text = lines(&render(&app, 80, 24)).join("\n");
        for (key, what) in KEYS {
            assert!(text.contains(key) && text.contains(what), "{key} {what}\n{text}");
        }
    }
}
