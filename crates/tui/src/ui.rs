//! Drawing: `impl Widget for &App` and the widgets it is made of.
//!
//! The screen, top to bottom: a title line, the board in a frame with the side panel on its
//! right, and a line of keys. Narrower than 64 columns the panel gives way to a status line
//! above the keys (the note, the hint, the playback's progress, the distance), and the
//! result card opens over the solved board. Every line is fitted to the width it has: the
//! title drops its least useful parts, the key line its least needed keys (`?` lists them
//! all), and the list of keys wraps and scrolls.

use npuzzle_core::{Board, Move};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Clear, Padding, Paragraph, Widget, Wrap};

use crate::app::{App, Assist, Mode, Slide, Tone, clock, plural};
use crate::card::{Card, Verdict};
use crate::help::HelpView;
use crate::layout::{Grid, PANEL_MIN_SCREEN_WIDTH, Screen};
use crate::replay::{Replay, Source};
use crate::text::{fit, width, wrap};
use crate::theme::Theme;
use npuzzle_solver::Live;

/// The smallest terminal the game draws in.
pub const MIN_WIDTH: u16 = 30;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 8;

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let text = format!(
                "npuzzle needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT} (this one is {}x{})",
                area.width, area.height
            );
            Paragraph::new(text).wrap(Wrap { trim: true }).style(theme.warn).render(area, buf);
            return;
        }
        let screen = Screen::new(area);
        self.render_header(screen.header, buf);
        self.render_board(screen.board, buf);
        if screen.panel.width > 0 {
            self.render_panel(screen.panel, buf);
        } else if let Some(card) = self.card() {
            CardView { card: &card, theme }.render(screen.board, buf);
        }
        if screen.status.height > 0 {
            self.render_status(screen.status, buf);
        }
        self.render_footer(screen.footer, area, buf);
        if let Mode::Help { scroll } = self.mode() {
            HelpView { theme, scroll: *scroll }.render(area, buf);
        }
    }
}

/// Parts of a line, each with how much it matters (0 most); the least needed go first when
/// the line is too narrow for all of them.
struct Parts(Vec<(String, u8)>);

impl Parts {
    /// The indices of the parts that fit in `room` cells when joined by `sep`, in order:
    /// the most needed first, each that still fits.
    fn fit(&self, sep: &str, room: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.0.len()).collect();
        order.sort_by_key(|&i| (self.0[i].1, i));
        let mut keep = vec![false; self.0.len()];
        let mut used = 0;
        for i in order {
            let extra = width(&self.0[i].0) + if used == 0 { 0 } else { width(sep) };
            if used + extra <= room {
                keep[i] = true;
                used += extra;
            }
        }
        (0..self.0.len()).filter(|&i| keep[i]).collect()
    }

    /// Whether the parts `a` show more of what matters than the parts `b`: more of the
    /// most needed, then of the next...
    fn better(&self, a: &[usize], b: &[usize]) -> bool {
        let counts = |kept: &[usize]| {
            let mut counts = [0usize; 4];
            for &i in kept {
                counts[usize::from(self.0[i].1.min(3))] += 1;
            }
            counts
        };
        counts(a) > counts(b)
    }

    /// The parts that fit, joined by `sep`.
    fn join(&self, sep: &str, room: usize) -> String {
        let kept: Vec<&str> =
            self.fit(sep, room).into_iter().map(|i| self.0[i].0.as_str()).collect();
        kept.join(sep)
    }
}

impl App {
    fn render_header(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        buf.set_style(area, theme.header);
        let narrow = area.width < PANEL_MIN_SCREEN_WIDTH;
        let game = self.game();
        let mut right = Parts(Vec::new());
        let state = match self.mode() {
            Mode::Solving { .. } => "solving…".to_string(),
            Mode::Replay(r) if r.paused() => format!("‖ paused · {}", r.speed_label()),
            Mode::Replay(r) => format!("▶ {}", r.speed_label()),
            _ if game.is_solved() && game.moves() > 0 => "solved ★".to_string(),
            _ => String::new(),
        };
        if !state.is_empty() {
            right.0.push((state, 1));
        }
        if narrow {
            if self.moves_blank() {
                right.0.push(("blank mode".to_string(), 2));
            }
            right.0.push((plural(game.moves(), "move"), 0));
            right.0.push((clock(game.elapsed(self.now())), 0));
        }
        let brand = " npuzzle ";
        let room = usize::from(area.width).saturating_sub(width(brand) + 2);
        let right = right.join(" · ", room);
        let right = if right.is_empty() { right } else { format!("{right} ") };
        let right_w = u16::try_from(width(&right)).unwrap_or(0).min(area.width);
        let left_room = usize::from(area.width - right_w).saturating_sub(width(brand) + 1);
        let arrows = if self.moves_blank() { "arrows move the blank" } else { "arrows move tiles" };
        let title =
            if narrow { String::new() } else { fit(&format!(" play · {arrows}"), left_room) };
        let left =
            Line::from(vec![Span::styled(brand, theme.brand), Span::styled(title, theme.header)]);
        left.render(Rect { width: area.width - right_w, ..area }, buf);
        let right_area = Rect { x: area.right() - right_w, width: right_w, ..area };
        Span::styled(right, theme.header).render(right_area, buf);
    }

    fn render_board(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let game = self.game();
        let (frame, title) = match self.mode() {
            Mode::Replay(r) if !r.source().drives_the_game() => {
                (theme.frame, format!(" {} · {}/{} ", r.source().title(), r.played(), r.len()))
            }
            _ if game.is_solved() && game.moves() > 0 => (theme.frame_solved, " Solved! ".into()),
            _ => {
                let size = self.board().size();
                (theme.frame, format!(" {}-puzzle · {size} ", size.cells() - 1))
            }
        };
        let title = fit(&title, usize::from(area.width.saturating_sub(2)));
        let block = Block::bordered().border_type(BorderType::Rounded).border_style(frame);
        let block = block.title(Line::styled(title, frame).centered());
        let inner = block.inner(area);
        block.render(area, buf);
        BoardView {
            board: self.board(),
            goal: game.goal(),
            theme,
            next: self.next_step(),
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
        let w = usize::from(inner.width);
        let row = |label: &str, value: String| -> Line<'static> {
            let pad = w.saturating_sub(width(label) + width(&value));
            Line::from(vec![
                Span::styled(label.to_string(), theme.label),
                Span::raw(" ".repeat(pad)),
                Span::styled(value, theme.value),
            ])
        };
        let game = self.game();
        // (how much it matters, the line): the least needed go when the panel is short.
        let mut lines: Vec<(u8, Line<'static>)> = vec![
            (0, row("Moves", game.moves().to_string())),
            (0, row("Time", clock(game.elapsed(self.now())))),
            (3, row("TPS", live_tps(game, self.assist(), self.now()))),
            (0, row("To goal", self.distance().to_string())),
            (3, row("Goal", short_goal(game.goal()))),
            (4, Line::default()),
        ];
        let styled = |text: String, style: Style| Line::styled(text, style);
        for (importance, text, style) in self.status_lines(theme) {
            for part in wrap(&text, w) {
                lines.push((importance, styled(part, style)));
            }
        }
        if let Some((text, tone)) = self.note() {
            lines.push((4, Line::default()));
            for part in wrap(text, w) {
                lines.push((1, styled(part, tone_style(theme, tone))));
            }
        }
        let lines = keep_most_needed(lines, usize::from(inner.height));
        Paragraph::new(lines).render(inner, buf);
    }

    /// The panel's middle: the solver, the playback, the hint, or the result card. Each line
    /// is (how much it matters, text, style).
    fn status_lines(&self, theme: &Theme) -> Vec<(u8, String, Style)> {
        let mut lines = Vec::new();
        match self.mode() {
            Mode::Solving { since, .. } => {
                let secs = self.now().saturating_duration_since(*since).as_secs_f64();
                lines.push((0, format!("Solving… {secs:.1} s"), theme.value));
                if let Some(live) = self.solving() {
                    lines.extend(live_lines(live, theme));
                }
                lines.push((2, "Esc stops it".to_string(), theme.dim));
            }
            Mode::Replay(r) => {
                lines.push((
                    0,
                    format!("{}: {}", r.source().title(), plural(r.len(), "move")),
                    theme.value,
                ));
                let about = match r.source() {
                    Source::Solver { optimal, method } => {
                        let quality = if *optimal { "optimal" } else { "not optimal" };
                        format!("{quality}, {method}")
                    }
                    Source::Yours => "at its real speed".to_string(),
                    Source::Best { optimal: true } => "proven shortest".to_string(),
                    Source::Best { optimal: false } => "not proven optimal".to_string(),
                };
                lines.push((2, about, theme.dim));
                lines.push((0, transport_text(r), theme.label));
                lines.push((0, progress_bar(r.played(), r.len(), 24), theme.value));
            }
            Mode::Play | Mode::Help { .. } | Mode::Quit => {
                if let Some(card) = self.card() {
                    let how = match card.assist {
                        Assist::None => "all by yourself",
                        Assist::Hints => "with hints",
                        Assist::Solver => "with the solver",
                    };
                    lines.push((0, "★ Solved!".to_string(), theme.good));
                    let took = format!("{} in {}", plural(card.moves, "move"), clock(card.time));
                    lines.push((1, took, theme.value));
                    lines.push((2, how.to_string(), theme.dim));
                    if card.assist != Assist::Solver {
                        lines.push((0, format!("{} TPS", card.tps_text()), theme.value));
                    }
                    let verdict = card.verdict();
                    let style = if verdict == Verdict::Optimal { theme.good } else { theme.value };
                    lines.push((0, verdict.to_string(), style));
                    lines.push((4, String::new(), theme.dim));
                    lines.push((1, "m  replay yours".to_string(), theme.label));
                    if matches!(card.best, crate::card::Best::Found { .. }) {
                        lines.push((1, "o  replay optimal".to_string(), theme.label));
                    }
                    lines.push((2, "n  new board".to_string(), theme.label));
                } else if self.hint_pending() {
                    // On a big board the hint is a solve of seconds: its best path and bound.
                    match self.hinting() {
                        Some(live) => {
                            let secs = live.elapsed().as_secs_f64();
                            lines.push((0, format!("Hint: thinking… {secs:.1} s"), theme.label));
                            lines.extend(live_lines(live, theme));
                        }
                        None => lines.push((0, "Hint: thinking…".to_string(), theme.label)),
                    }
                } else if let Some(hint) = self.hint() {
                    match hint {
                        Ok(Some(h)) => {
                            lines.push((
                                0,
                                format!("Hint: slide {} {}", h.tile, arrow(h.step)),
                                theme.value,
                            ));
                            let then = h.distance - 1;
                            let more = match (h.optimal, h.lower_bound) {
                                (true, _) => format!("then {then} more (optimal)"),
                                // How far from the optimum it may be: the proven bound.
                                (false, Some(b)) if b > 1 => {
                                    format!("then ≤ {then} more (≥ {})", b - 1)
                                }
                                (false, _) => format!("then ≤ {then} more"),
                            };
                            lines.push((1, more, theme.dim));
                        }
                        Ok(None) => {}
                        Err(why) => lines.push((0, why.to_string(), theme.warn)),
                    }
                }
            }
        }
        lines
    }

    /// The status line of narrow screens: the playback's transport, or the note, the hint,
    /// the card's verdict; the distance on the right.
    fn render_status(&self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let w = usize::from(area.width.saturating_sub(1));
        let note = self.fresh_note();
        if let (Mode::Replay(r), None) = (self.mode(), note) {
            let text = transport_text(r);
            let bar_w = w.saturating_sub(width(&text) + 2);
            let mut spans = vec![Span::raw(" "), Span::styled(text, theme.label)];
            if bar_w >= 4 {
                spans.push(Span::raw(" "));
                spans.push(Span::styled(progress_bar(r.played(), r.len(), bar_w), theme.value));
            }
            Line::from(spans).render(area, buf);
            return;
        }
        let distance = format!("to goal {}", self.distance());
        let (text, style) = if let Some((note, tone)) = self.note() {
            (note.to_string(), tone_style(theme, tone))
        } else if let Mode::Solving { since, .. } = self.mode() {
            let secs = self.now().saturating_duration_since(*since).as_secs_f64();
            let live = self.solving();
            let best = live.and_then(Live::best).map(|b| format!(", best {b}")).unwrap_or_default();
            let bound = live.and_then(Live::bound).map(|b| format!(", ≥ {b}")).unwrap_or_default();
            (format!("solving… {secs:.1} s{best}{bound}, Esc stops it"), theme.value)
        } else if self.card().is_some() {
            // The card says it all, over the board.
            (String::new(), theme.dim)
        } else if self.hint_pending() {
            // Its best path and bound are the distance's range on the right.
            let secs = self.hinting().map(|l| format!(" {:.1} s", l.elapsed().as_secs_f64()));
            (format!("hint: thinking…{}", secs.unwrap_or_default()), theme.label)
        } else {
            match self.hint() {
                Some(Ok(Some(h))) => {
                    (format!("hint: slide {} {}", h.tile, arrow(h.step)), theme.value)
                }
                Some(Err(why)) => (why.to_string(), theme.warn),
                _ => (String::new(), theme.dim),
            }
        };
        // The distance keeps its place on the right; the text gets what is left.
        let right =
            if self.card().is_some() || self.replay().is_some() { String::new() } else { distance };
        let room = w.saturating_sub(width(&right) + 2);
        let text = fit(&text, if right.is_empty() { w } else { room });
        let pad = w.saturating_sub(width(&text) + width(&right));
        Line::from(vec![
            Span::raw(" "),
            Span::styled(text, style),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, theme.label),
        ])
        .render(area, buf);
    }

    /// The key line in `area`, for a screen of size `screen`.
    fn render_footer(&self, area: Rect, screen: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        let solved = self.card().is_some();
        // (key, what, how much it matters: 0 always shown).
        let keys: Vec<(&str, &str, u8)> = match self.mode() {
            Mode::Play if solved => vec![
                ("m", "your replay", 1),
                ("o", "optimal", 1),
                ("n", "new", 1),
                ("u", "undo", 3),
                ("+-", "size", 3),
                ("?", "keys", 0),
                ("q", "quit", 2),
            ],
            Mode::Play => vec![
                ("←↑↓→", "move", 2),
                ("u", "undo", 2),
                ("y", "redo", 3),
                ("h", "hint", 1),
                ("s", "solve", 1),
                ("n", "new", 1),
                ("+-", "size", 3),
                ("?", "keys", 0),
                ("q", "quit", 2),
            ],
            Mode::Solving { .. } => vec![("Esc", "stop", 0), ("q", "quit", 1)],
            Mode::Replay(r) => vec![
                ("space", if r.paused() { "play" } else { "pause" }, 0),
                (",.", "step", 1),
                ("<>", "speed", 1),
                ("Esc", "stop", 0),
                ("?", "keys", 2),
                ("q", "quit", 3),
            ],
            Mode::Help { .. } | Mode::Quit if crate::help::max_scroll(screen) > 0 => {
                vec![("↑↓", "scroll", 1), ("any key", "close", 0), ("q", "quit", 1)]
            }
            Mode::Help { .. } | Mode::Quit => vec![("any key", "close", 0), ("q", "quit", 1)],
        };
        let parts = Parts(keys.iter().map(|(k, w, i)| (format!("{k} {w}"), *i)).collect());
        // Two spaces between keys and one before them; one between them when that shows
        // more keys (the keys' own style still tells them apart).
        let room = usize::from(area.width).saturating_sub(1);
        let (mut shown, mut sep) = (parts.fit("  ", room), "  ");
        let tight = parts.fit(" ", room);
        if parts.better(&tight, &shown) {
            (shown, sep) = (tight, " ");
        }
        let mut spans = vec![Span::raw(" ")];
        for (n, i) in shown.into_iter().enumerate() {
            let (key, what, _) = keys[i];
            if n > 0 {
                spans.push(Span::raw(sep));
            }
            spans.push(Span::styled(key, theme.key));
            spans.push(Span::styled(format!(" {what}"), theme.dim));
        }
        Line::from(spans).render(area, buf);
    }
}

/// The player's tiles per second so far: `–` before the clock has run a tenth of a second,
/// and once the solver has played (its speed is not the player's).
fn live_tps(game: &crate::game::Game, assist: Assist, now: std::time::Instant) -> String {
    let secs = game.elapsed(now).as_secs_f64();
    if secs < 0.1 || assist == Assist::Solver {
        "–".to_string()
    } else {
        format!("{:.2}", game.moves() as f64 / secs)
    }
}

/// Lines that fit in `height`, dropping the least needed first (the last of them first),
/// keeping the order of the rest.
fn keep_most_needed(lines: Vec<(u8, Line<'static>)>, height: usize) -> Vec<Line<'static>> {
    let mut keep = vec![true; lines.len()];
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(lines[i].0), std::cmp::Reverse(i)));
    let mut count = lines.len();
    for i in order {
        if count <= height {
            break;
        }
        keep[i] = false;
        count -= 1;
    }
    lines.into_iter().zip(keep).filter(|(_, k)| *k).map(|((_, line), _)| line).collect()
}

fn tone_style(theme: &Theme, tone: Tone) -> Style {
    match tone {
        Tone::Info => theme.dim,
        Tone::Good => theme.good,
        Tone::Warn => theme.warn,
    }
}

/// `▶ 12/31 · 5/s` or `‖ 12/31 · 5/s`.
/// The panel's lines for what a running solve (or hint) has found and proved so far: the
/// near-optimal engine's best answer falls, and the bound rises, towards the optimum.
fn live_lines(live: &Live, theme: &Theme) -> Vec<(u8, String, Style)> {
    let mut lines = Vec::new();
    if let Some(best) = live.best() {
        lines.push((1, format!("best so far {}", plural(best as usize, "move")), theme.value));
    }
    if let Some(b) = live.bound() {
        lines.push((1, format!("at least {}", plural(b as usize, "move")), theme.label));
    }
    let expanded = live.expanded();
    if expanded > 0 {
        lines.push((3, format!("{} nodes", npuzzle_solver::thousands(expanded)), theme.dim));
    }
    lines
}

fn transport_text(r: &Replay) -> String {
    let state = if r.paused() { "‖" } else { "▶" };
    format!("{state} {}/{} · {}", r.played(), r.len(), r.speed_label())
}

/// `━━━━━━──────`: `done` of `total`, in `width` cells.
fn progress_bar(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width).checked_div(total).unwrap_or(width);
    format!("{}{}", "━".repeat(filled), "─".repeat(width - filled.min(width)))
}

/// The result card over the board, where there is no panel to hold it.
struct CardView<'a> {
    card: &'a Card<'a>,
    theme: &'a Theme,
}

impl Widget for CardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (card, theme) = (self.card, self.theme);
        let how = match card.assist {
            Assist::None => "by yourself",
            Assist::Hints => "with hints",
            Assist::Solver => "with the solver",
        };
        let verdict = card.verdict();
        let verdict_style = if verdict == Verdict::Optimal { theme.good } else { theme.value };
        let mut keys = vec![Span::styled("m", theme.key), Span::styled(" yours", theme.label)];
        if matches!(card.best, crate::card::Best::Found { .. }) {
            keys.push(Span::styled("  o", theme.key));
            keys.push(Span::styled(" optimal", theme.label));
        }
        let speed = match card.assist {
            Assist::Solver => how.to_string(),
            _ => format!("{} TPS · {how}", card.tps_text()),
        };
        let lines = vec![
            Line::styled(
                format!("{} in {}", plural(card.moves, "move"), clock(card.time)),
                theme.value,
            ),
            Line::styled(speed, theme.label),
            Line::styled(verdict.to_string(), verdict_style),
            Line::from(keys),
        ];
        let card_w = area.width.min(32);
        let height = area.height.min(u16::try_from(lines.len()).unwrap_or(0) + 2);
        if card_w < 12 || height < 4 {
            return;
        }
        let popup = Rect {
            x: area.x + (area.width - card_w) / 2,
            y: area.y + (area.height - height) / 2,
            width: card_w,
            height,
        };
        Clear.render(popup, buf);
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.frame_solved)
            .padding(Padding::horizontal(1))
            .title(Line::styled(" ★ Solved! ", theme.good).centered());
        let inner = block.inner(popup);
        block.render(popup, buf);
        let lines: Vec<Line> = lines
            .into_iter()
            .map(|line| {
                let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
                if width(&text) <= usize::from(inner.width) {
                    line
                } else {
                    Line::styled(fit(&text, usize::from(inner.width)), theme.value)
                }
            })
            .collect();
        Paragraph::new(lines).render(inner, buf);
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
    /// The tile to highlight and the way it goes (the hint's, or the playback's next): it
    /// gets an arrow.
    pub next: Option<(u16, Move)>,
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
                    let next = self.next.filter(|(t, _)| *t == tile).map(|(_, m)| m);
                    self.tile(rect, tile, home, next, buf);
                }
            }
        }
    }
}

impl BoardView<'_> {
    fn tile(&self, rect: Rect, tile: u16, home: bool, next: Option<Move>, buf: &mut Buffer) {
        let theme = self.theme;
        let style = match (next.is_some(), home) {
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
            if next.is_some() {
                number_style = number_style.add_modifier(Modifier::UNDERLINED);
            }
            buf.set_style(rect, number_style);
        }
        self.number(rect, &label, number_style, buf);
        if let Some(m) = next {
            // The arrow sits on the edge the tile leaves by (on a monochrome box's border,
            // clear of the digits); on a one-row tile, up and down go after the number.
            let (mid_x, mid_y) = (rect.x + rect.width / 2, rect.y + rect.height / 2);
            let (left, right) = (rect.x, rect.right().saturating_sub(1));
            let (top, bottom) = (rect.y, rect.bottom().saturating_sub(1));
            let tall = rect.height >= 3;
            let (x, y) = match m {
                Move::Left => (left, mid_y),
                Move::Right => (right, mid_y),
                Move::Up if tall => (mid_x, top),
                Move::Down if tall => (mid_x, bottom),
                Move::Up | Move::Down => (right, mid_y),
            };
            buf.set_string(x, y, arrow(m), number_style);
        }
    }

    /// The tile's number: big digits on big tiles, otherwise right-aligned in a field as
    /// wide as the largest number, so the digits of every tile line up like in a table.
    fn number(&self, rect: Rect, label: &str, style: Style, buf: &mut Buffer) {
        let theme = self.theme;
        // Big digits on big tiles (inside a monochrome box's border too).
        let room = if theme.color { rect.width } else { rect.width.saturating_sub(2) };
        let big_width = u16::try_from(label.len() * 4 - 1).unwrap_or(u16::MAX);
        if rect.height >= 5 && big_width + 2 <= room {
            let x = rect.x + (rect.width - big_width) / 2;
            let y = rect.y + (rect.height - 3) / 2;
            for (row, dy) in (0..3).zip(0u16..) {
                let text: Vec<&str> =
                    label.bytes().map(|d| BIG_DIGITS[usize::from(d - b'0')][row]).collect();
                buf.set_string(x, y + dy, text.join(" "), style);
            }
            return;
        }
        let digits = (self.board.tiles().len() - 1).to_string().len();
        let field = u16::try_from(digits).unwrap_or(rect.width).min(rect.width);
        let len = u16::try_from(label.len()).unwrap_or(field).min(field);
        let x = rect.x + (rect.width - field) / 2 + (field - len);
        let y = rect.y + rect.height / 2;
        buf.set_string(x, y, label, style);
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
    use crate::help::KEYS;
    use crossterm::event::{KeyCode, KeyEvent};
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
            solver: npuzzle_solver::Solver::shared().clone(),
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
                "│      │   █▀█   │  │   █▀▀   │  │   ▀▀█   │       ││ TPS                    – │",
                "│      │   █▀█   │  │   █▀█   │  │     █   │       ││ To goal             ≥ 23 │",
                "│      │   ▀▀▀   │  │   ▀▀▀   │  │     ▀   │       ││ Goal          blank-last │",
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
                " ←↑↓→ move  u undo  y redo  h hint  s solve  n new  +- size  ? keys  q quit     ",
            ],
        );
    }

    #[test]
    fn small_tiles_are_one_row_with_plain_numbers() {
        let board: Board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let theme = Theme::monochrome();
        let view = BoardView {
            board: &board,
            goal: &goal,
            theme: &theme,
            next: Some((15, Move::Left)),
            slide: None,
        };
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
                " 13   14       ←15 ",
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
        let view = BoardView {
            board: &board,
            goal: &goal,
            theme: &theme,
            next: Some((3, Move::Left)),
            slide: None,
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, 9, 3));
        view.render(buf.area, &mut buf);
        // Tiles of three cells with a gap of one, centred: 7 of the 9 columns.
        // The hinted 3 has an arrow on the side it leaves by.
        assert_lines(&buf, &["  1   2  ", "         ", "     ←3  "]);
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
        // Every state that draws something of its own: playing with a hint, the list of keys
        // scrolled, solving, a playback (paused, with a note), the result card, a replay.
        let boards = ["1 0/3 2", "8 6 7/2 5 4/3 0 1", "1 2 3 4 5/6 7 8 9 10/11 12 13 0 14"];
        let press = |app: &mut App, keys: &str| {
            for c in keys.chars() {
                app.handle_key(KeyEvent::from(KeyCode::Char(c)));
            }
        };
        let settle = |app: &mut App, done: &dyn Fn(&App) -> bool| {
            for _ in 0..600 {
                if done(app) {
                    return;
                }
                app.settle(std::time::Duration::from_millis(100));
            }
            panic!("the worker did not answer");
        };
        let playback = |board: &str| {
            let mut a = app(board, true);
            press(&mut a, "s");
            settle(&mut a, &|a| matches!(a.mode(), Mode::Replay(_)));
            a
        };
        let solved = |board: &str| {
            let mut a = playback(board);
            let left = a.replay().map_or(0, Replay::left);
            press(&mut a, &".".repeat(left));
            settle(&mut a, &|a| matches!(a.best(), crate::card::Best::Found { .. }));
            assert!(a.card().is_some());
            a
        };
        for board in boards {
            let mut hint = app(board, true);
            press(&mut hint, "h");
            settle(&mut hint, &|a| a.hint().is_some());
            let mut help = app(board, true);
            press(&mut help, "?");
            help.handle_key(KeyEvent::from(KeyCode::PageDown));
            let mut solving = app(board, false);
            press(&mut solving, "s");
            let mut paused = playback(board);
            press(&mut paused, " .+");
            let card = solved(board);
            let mut replay = solved(board);
            press(&mut replay, "o .");
            let states = [hint, help, solving, paused, card, replay];
            for app in &states {
                for width in 0..=90 {
                    for height in 0..=30 {
                        let _ = render(app, width, height);
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

    /// A 4x4 game at 40x12, moved `keys` (arrows as `<>^v`).
    fn small_game(board: &str) -> App {
        let mut app = app(board, false);
        app.set_area(Rect::new(0, 0, 40, 12));
        app
    }

    #[test]
    fn at_40x12_nothing_collides_or_is_cut() {
        // The regression: at 40x12 the title collided with the moves, and the key line was
        // cut. The title keeps what matters, the status line stands in for the panel, and
        // the key line shows the keys that fit whole (? lists the others).
        let app = small_game("5 1 3 4/2 6 7 8/9 10 11 12/13 14 0 15");
        assert_lines(
            &render(&app, 40, 12),
            &[
                " npuzzle               0 moves · 0:00.0 ",
                "╭────────── 15-puzzle · 4x4 ───────────╮",
                "│           5    1    3    4           │",
                "│                                      │",
                "│           2    6    7    8           │",
                "│                                      │",
                "│           9   10   11   12           │",
                "│                                      │",
                "│          13   14        15           │",
                "╰──────────────────────────────────────╯",
                "                             to goal ≥ 5",
                " u undo  h hint  s solve  n new  ? keys ",
            ],
        );
    }

    #[test]
    fn at_40x12_a_playback_shows_its_transport() {
        let mut app = small_game("5 1 3 4/2 6 7 8/9 10 11 12/13 14 0 15");
        app.handle_key(KeyEvent::from(KeyCode::Char('s')));
        while !matches!(app.mode(), Mode::Replay(_)) {
            app.settle(std::time::Duration::from_secs(1));
        }
        app.handle_key(KeyEvent::from(KeyCode::Char('.')));
        app.handle_key(KeyEvent::from(KeyCode::Char('.')));
        let screen = lines(&render(&app, 40, 12));
        // The title keeps the moves and the time; the state is below, with the progress.
        assert_eq!(screen[0], " npuzzle               2 moves · 0:00.0 ");
        assert_eq!(screen[10], " ‖ 2/11 · 5/s ━━━━───────────────────── ");
        assert_eq!(screen[11], " space play  ,. step  <> speed  Esc stop");
    }

    #[test]
    fn at_40x12_the_card_opens_over_the_solved_board() {
        let mut app = small_game("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
        app.handle_key(KeyEvent::from(KeyCode::Left));
        while !matches!(app.best(), crate::card::Best::Found { .. }) {
            app.settle(std::time::Duration::from_secs(1));
        }
        let screen = lines(&render(&app, 40, 12));
        assert_eq!(
            screen[2..8],
            [
                "│   ╭───────── ★ Solved! ──────────╮   │",
                "│   │ 1 move in 0:00.0             │   │",
                "│   │ – TPS · by yourself          │   │",
                "│   │ optimal!                     │   │",
                "│   │ m yours  o optimal           │   │",
                "│   ╰──────────────────────────────╯   │",
            ]
        );
        assert_eq!(screen[10].trim(), "", "the card says it all");
        assert_eq!(screen[11], " m your replay  o optimal  n new  ? keys");
    }

    #[test]
    fn at_40x12_the_list_of_keys_wraps_and_scrolls() {
        let mut app = small_game("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
        app.handle_key(KeyEvent::from(KeyCode::Char('?')));
        let screen = lines(&render(&app, 40, 12));
        assert!(screen[0].starts_with("╭───"), "{}", screen[0]);
        assert!(screen[11].contains("↓ more"), "{}", screen[11]);
        for _ in 0..30 {
            app.handle_key(KeyEvent::from(KeyCode::Down));
        }
        let text = lines(&render(&app, 40, 12)).join("\n");
        assert!(text.contains("q  Ctrl-C  quit"), "{text}");
        assert!(text.contains("↑ more"), "{text}");
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
