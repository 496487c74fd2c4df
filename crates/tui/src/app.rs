//! The game's model: [`App`] and its [`Mode`], driven by events and by the clock.
//!
//! Everything here works without a terminal: keys and clicks go in through
//! [`App::handle_event`], time through [`App::tick`], and the screen comes out by rendering
//! `&App` as a widget (see `ui.rs`). [`App::run`] is the only part that touches a terminal.
//! Playbacks are [`Replay`]s (see `replay.rs`): the app only starts them, passes them the
//! keys and the time, and mirrors their moves.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, Event, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use npuzzle_core::{Board, Goal, GoalError, Move, Scrambler, Size};
use npuzzle_solver::{Solver, Trail};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::layout::Rect;

use crate::card::{Best, Card};
use crate::distance::{Distance, Distances};
use crate::game::Game;
use crate::hint::{self, Hint};
use crate::keys::{self, Action, Direction};
use crate::layout::{Grid, Screen};
use crate::replay::{DEFAULT_SPEED, Replay, SPEEDS, Source};
use crate::terminal::Input;
use crate::theme::Theme;
use crate::worker::{Answer, Done, Task, Worker};
use npuzzle_solver::Live;

/// The shortest time between two frames of a playback (about 30 frames a second): faster
/// speeds make several moves per frame.
pub(crate) const FRAME_AT_SPEED: Duration = Duration::from_millis(33);
/// The time between two frames of a sliding tile (60 frames a second).
pub(crate) const SLIDE_FRAME: Duration = Duration::from_millis(16);
/// How long a note stands in for a playback's progress on narrow screens.
const FRESH_NOTE: Duration = Duration::from_secs(3);
/// Boards up to this many cells get their exact distance computed after every move: the
/// solver answers them from a table in microseconds.
const AUTO_DISTANCE_CELLS: usize = 9;

/// How a game starts.
#[derive(Clone, Debug)]
pub struct Config {
    /// The size of random boards (ignored when `board` is given).
    pub size: Size,
    /// The goal; a named goal follows the board's size when it changes.
    pub goal: Goal,
    /// The starting position; `None` for a uniformly random solvable one.
    pub board: Option<Board>,
    /// Seed of the random boards.
    pub seed: u64,
    /// Whether to use colours (false for the monochrome look).
    pub color: bool,
    /// The solver that answers hints and solves: `Solver::shared()` (a clone) for its own
    /// tables, or one that holds pattern databases (`npuzzle play` gives it the cache's).
    pub solver: Solver,
}

/// Why a game cannot start.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The goal does not fit the board (an explicit goal of another size).
    #[error(transparent)]
    Goal(#[from] GoalError),
    /// The board can never reach the goal.
    #[error("this board cannot reach the goal {0} (the tiles' parity is wrong)")]
    Unsolvable(String),
}

/// What the game is doing; it decides what each key means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The player moves tiles.
    Play,
    /// A solve runs in the background; Esc stops it (the best answer so far plays), a second
    /// Esc cancels it.
    Solving {
        /// The worker's id of the solve.
        id: u64,
        /// When it started.
        since: Instant,
        /// Whether Esc asked it to stop and answer with what it has.
        stopping: bool,
    },
    /// A solution is played back on the transport: the solver's (on the game itself), or,
    /// once solved, the player's own solve or the optimal one (shown, the game untouched).
    Replay(Replay),
    /// The list of keys is shown, scrolled down by `scroll` lines; any key but the arrows
    /// and Page Up/Down closes it.
    Help {
        /// Lines scrolled past.
        scroll: u16,
    },
    /// The game is over; [`App::run`] returns.
    Quit,
}

/// A tile on its way from one cell to the next, drawn part of the way there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slide {
    /// The tile.
    pub tile: u16,
    /// The cell (column, row) it comes from; it is drawn between there and its cell now.
    pub from: (usize, usize),
    /// How far along it is, from 0 (at `from`) to 1 (arrived).
    pub progress: f32,
}

/// How a one-line note reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Neutral information.
    Info,
    /// Good news.
    Good,
    /// A refusal or a problem.
    Warn,
}

/// Who helped solve the current game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Assist {
    /// Nobody: the player did it alone.
    #[default]
    None,
    /// The player looked at hints.
    Hints,
    /// The solver played (part of) the solution.
    Solver,
}

/// What is known about the best next move from the current position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Advice {
    /// Nothing asked yet.
    #[default]
    Unknown,
    /// The worker is on it.
    Pending(u64),
    /// The answer: `None` at the goal.
    Ready(Option<Hint>),
    /// No answer (a limit, a cancel); one line why.
    Failed(String),
}

/// The terminal game.
#[derive(Debug)]
pub struct App {
    mode: Mode,
    game: Game,
    goal: Goal,
    scrambler: Scrambler,
    move_blank: bool,
    theme: Theme,
    now: Instant,
    area: Rect,
    /// The note, its tone and when it was said.
    note: Option<(String, Tone, Instant)>,
    advice: Advice,
    show_hint: bool,
    /// The path of the last hint on a board of more than 16 cells: the hints along it are
    /// read from it at once (see [`npuzzle_solver::Trail`]).
    trail: Option<Arc<Trail>>,
    distances: Distances,
    worker: Worker,
    /// The steady playback speed (an index into [`SPEEDS`]), kept from one playback to the
    /// next.
    speed: usize,
    assist: Assist,
    /// The best solution from the game's start, for the result card.
    best: Best,
    /// A size change waiting for its second press (it would end a game in progress).
    confirm: Option<Action>,
    /// The playback's last move, while it is drawn sliding: (tile, from cell, start, length).
    slide: Option<(u16, usize, Instant, Duration)>,
}

impl App {
    /// A game as `config` describes, at time `now`.
    ///
    /// # Errors
    /// [`StartError`] when the goal does not fit the board or the board cannot reach it.
    pub fn new(config: Config, now: Instant) -> Result<App, StartError> {
        let size = config.board.as_ref().map_or(config.size, Board::size);
        let goal_board = config.goal.board(size)?;
        let mut scrambler = Scrambler::new(config.seed);
        let board = match config.board {
            Some(board) if !board.is_solvable(&goal_board) => {
                return Err(StartError::Unsolvable(goal_board.to_string()));
            }
            Some(board) => board,
            None => scramble(&mut scrambler, &goal_board),
        };
        let mut app = App {
            mode: Mode::Play,
            distances: Distances::new(&goal_board),
            game: Game::new(board, goal_board),
            goal: config.goal,
            scrambler,
            move_blank: false,
            theme: Theme::new(config.color),
            now,
            area: Rect::new(0, 0, 80, 24),
            note: None,
            advice: Advice::Unknown,
            show_hint: false,
            trail: None,
            worker: Worker::new(config.solver),
            speed: DEFAULT_SPEED,
            assist: Assist::None,
            best: Best::Unknown,
            confirm: None,
            slide: None,
        };
        app.position_changed();
        Ok(app)
    }

    /// What the solve under way has proved so far, as its watcher heard it: the best lower
    /// bound (if any) and the nodes expanded; `None` when no solve runs.
    pub fn solving(&self) -> Option<&Live> {
        let Mode::Solving { id, .. } = self.mode else { return None };
        self.worker.live(id)
    }

    /// What the hint being worked out for this position has found and proved so far (on big
    /// boards it is a near-optimal solve of seconds); `None` when none is.
    pub fn hinting(&self) -> Option<&Live> {
        let Advice::Pending(id) = self.advice else { return None };
        self.worker.live(id)
    }

    /// The current mode.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The position on the screen: the game's, or the replay's while a solve is replayed.
    pub fn board(&self) -> &Board {
        match &self.mode {
            Mode::Replay(r) if !r.source().drives_the_game() => r.board(),
            _ => self.game.board(),
        }
    }

    /// The playback on the transport, if one is on.
    pub fn replay(&self) -> Option<&Replay> {
        match &self.mode {
            Mode::Replay(r) => Some(r),
            _ => None,
        }
    }

    /// The styles in use.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// The time the app last saw (set by [`App::tick`]).
    pub fn now(&self) -> Instant {
        self.now
    }

    /// The terminal's size as the app last heard it.
    pub fn area(&self) -> Rect {
        self.area
    }

    /// The note under the panel, if any.
    pub fn note(&self) -> Option<(&str, Tone)> {
        self.note.as_ref().map(|(text, tone, _)| (text.as_str(), *tone))
    }

    /// The note, if it was said in the last three seconds: on narrow screens a playback's
    /// progress gives way to it that long.
    pub fn fresh_note(&self) -> Option<(&str, Tone)> {
        let (text, tone, said) = self.note.as_ref()?;
        (self.now.saturating_duration_since(*said) < FRESH_NOTE).then_some((text.as_str(), *tone))
    }

    /// Whether the arrows move the blank (true) or the tiles (false).
    pub fn moves_blank(&self) -> bool {
        self.move_blank
    }

    /// Who helped with the current game.
    pub fn assist(&self) -> Assist {
        self.assist
    }

    /// The speed of the playback on the transport (`5/s`, `1×`...), or of the next one.
    pub fn speed(&self) -> String {
        match &self.mode {
            Mode::Replay(r) => r.speed_label(),
            _ => format!("{}/s", SPEEDS[self.speed]),
        }
    }

    /// The hint to show, if the player asked for one and it is ready: `Ok(None)` at the goal.
    pub fn hint(&self) -> Option<Result<Option<&Hint>, &str>> {
        if !self.show_hint || matches!(self.mode, Mode::Replay(_)) {
            return None;
        }
        match &self.advice {
            Advice::Ready(hint) => Some(Ok(hint.as_ref())),
            Advice::Failed(why) => Some(Err(why)),
            Advice::Unknown | Advice::Pending(_) => None,
        }
    }

    /// Whether a hint was asked for and is still being worked out.
    pub fn hint_pending(&self) -> bool {
        self.show_hint && matches!(self.advice, Advice::Pending(_))
    }

    /// The distance to the goal of the position on the screen, as far as it is known: a
    /// lower bound at once, exact once the solver (or the rules) proved it.
    pub fn distance(&self) -> Distance {
        if let Mode::Replay(r) = &self.mode {
            if !r.source().drives_the_game() {
                let known = self.distances.get(r.board());
                return match r.source() {
                    Source::Best { optimal: true } => Distance::Exact(r.left()),
                    _ if known.exact().is_some() => known,
                    _ => Distance::Between(known.lower().min(r.left()), r.left()),
                };
            }
        }
        let known = self.distances.get(self.game.board());
        // A solve (or a hint) of this position under way raises the lower bound as it proves
        // bounds, and lowers the upper one as it finds shorter answers.
        let Some(live) = self.solving().or_else(|| self.hinting()) else { return known };
        let bound = live.bound().map_or(0, |b| b as usize);
        let best = live.best().map(|b| usize::try_from(b).unwrap_or(usize::MAX));
        let distance = match (known, best) {
            (Distance::Exact(_), _) => known,
            (Distance::AtLeast(n), None) => Distance::AtLeast(n.max(bound)),
            (Distance::AtLeast(n), Some(m)) => Distance::Between(n.max(bound).min(m), m),
            (Distance::Between(n, m), best) => {
                let m = best.map_or(m, |b| b.min(m));
                Distance::Between(n.max(bound).min(m), m)
            }
        };
        match distance {
            Distance::Between(n, m) if n == m => Distance::Exact(n),
            d => d,
        }
    }

    /// The tile to highlight and the way it goes: the hint's, or the playback's next move.
    pub fn next_step(&self) -> Option<(u16, Move)> {
        let m = match &self.mode {
            Mode::Replay(r) => r.upcoming()?,
            _ => match self.hint() {
                Some(Ok(Some(h))) => h.step,
                _ => return None,
            },
        };
        Some((self.board().tile_for_move(m)?, m))
    }

    /// The tile the playback is sliding, if its slide is still under way (the playback
    /// slides its tiles at the speeds where the eye can follow them).
    pub fn slide(&self) -> Option<Slide> {
        let (tile, from, start, length) = self.slide?;
        let elapsed = self.now.checked_duration_since(start)?;
        (elapsed < length).then(|| Slide {
            tile,
            from: self.board().size().xy(from),
            progress: elapsed.as_secs_f32() / length.as_secs_f32(),
        })
    }

    /// The result card, once the player's board is solved (not while a playback runs).
    pub fn card(&self) -> Option<Card<'_>> {
        let shown = matches!(self.mode, Mode::Play | Mode::Help { .. });
        (shown && self.game.is_solved() && self.game.moves() > 0).then(|| Card {
            moves: self.game.moves(),
            time: self.game.elapsed(self.now),
            assist: self.assist,
            best: &self.best,
        })
    }

    /// The best solution known from this game's start.
    pub fn best(&self) -> &Best {
        &self.best
    }

    /// Tells the app the terminal's size (for mouse clicks and the size check of `+`).
    pub fn set_area(&mut self, area: Rect) {
        self.area = area;
    }

    /// Handles one terminal event.
    pub fn handle_event(&mut self, event: &Event) {
        match event {
            Event::Key(key) => self.handle_key(*key),
            Event::Mouse(mouse) => self.handle_mouse(*mouse),
            Event::Resize(w, h) => self.area = Rect::new(0, 0, *w, *h),
            _ => {}
        }
    }

    /// Handles a key press.
    pub fn handle_key(&mut self, key: KeyEvent) {
        match keys::action(key) {
            Some(action) => self.act(action),
            // Any key closes the help, even one that means nothing else.
            None if matches!(self.mode, Mode::Help { .. }) && key.kind != KeyEventKind::Release => {
                self.mode = Mode::Play;
            }
            None => {}
        }
    }

    /// Handles a mouse event: a left click on a tile in the blank's row or column slides the
    /// run of tiles between it and the blank.
    pub fn handle_mouse(&mut self, mouse: MouseEvent) {
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return;
        }
        match &self.mode {
            Mode::Play => {}
            // The player takes over from the solver's playback...
            Mode::Replay(r) if r.source().drives_the_game() => {
                self.stop_replay("playback stopped");
            }
            // ... and a click on a replay of a finished solve only stops it.
            Mode::Replay(_) => {
                self.stop_replay("replay stopped");
                return;
            }
            Mode::Help { .. } => {
                self.mode = Mode::Play;
                return;
            }
            Mode::Solving { .. } | Mode::Quit => return,
        }
        self.confirm = None;
        let screen = Screen::new(self.area);
        let Ok(grid) = Grid::fit(screen.board_inner, self.board().size()) else { return };
        let Some((x, y)) = grid.hit(mouse.column, mouse.row) else { return };
        let (bx, by) = self.board().blank_xy();
        let moves = if (x, y) == (bx, by) {
            return;
        } else if y == by && x < bx {
            vec![Move::Right; bx - x]
        } else if y == by {
            vec![Move::Left; x - bx]
        } else if x == bx && y < by {
            vec![Move::Down; by - y]
        } else if x == bx {
            vec![Move::Up; y - by]
        } else {
            self.say("click a tile in the blank's row or column", Tone::Info);
            return;
        };
        self.make(&moves);
    }

    /// Advances time to `now`: collects the worker's answers and plays the moves of a
    /// playback that are due.
    pub fn tick(&mut self, now: Instant) {
        self.now = now;
        while let Some(done) = self.worker.poll() {
            self.receive(done);
        }
        self.advance_replay();
    }

    /// How long the event loop may sleep before something on screen changes by itself.
    pub fn next_wake(&self) -> Duration {
        const FRAME: Duration = Duration::from_millis(100);
        if self.slide().is_some() {
            return SLIDE_FRAME;
        }
        match &self.mode {
            Mode::Replay(r) => match r.due() {
                Some(due) => due.saturating_duration_since(self.now).clamp(FRAME_AT_SPEED, FRAME),
                None => FRAME,
            },
            Mode::Solving { .. } => FRAME,
            _ if self.worker.busy() || self.game.clock_running() => FRAME,
            _ => Duration::from_millis(250),
        }
    }

    /// Blocks until the worker answers (at most `timeout`) and takes the answer in: for
    /// tests and scripts that need the hint or the solve to finish.
    pub fn settle(&mut self, timeout: Duration) {
        if let Some(done) = self.worker.wait(timeout) {
            self.receive(done);
        }
    }

    /// Runs the game on `terminal` until the player quits or `stop` is set (by a signal
    /// handler), redrawing after every event, on resize, and as the clock and the playback
    /// advance.
    ///
    /// # Errors
    /// When the terminal cannot be drawn on or read from.
    pub fn run<B: Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        loop {
            self.tick(Instant::now());
            if stop.load(Ordering::Relaxed) {
                self.quit();
            }
            if self.mode == Mode::Quit {
                return Ok(());
            }
            let mut area = self.area;
            terminal.draw(|frame| {
                area = frame.area();
                frame.render_widget(&*self, area);
            })?;
            self.area = area;
            // Wait on the terminal ourselves first: crossterm's poll spins for ever on a
            // terminal that has hung up (see `wait_for_input`). Then crossterm reads what is
            // there, and what it has queued, including resizes.
            if crate::terminal::wait_for_input(self.next_wake())? == Input::Gone {
                self.quit();
                continue;
            }
            if event::poll(Duration::ZERO)? {
                self.now = Instant::now();
                self.handle_event(&event::read()?);
                // Take in everything queued (a held key, a paste) before drawing again.
                while self.mode != Mode::Quit && event::poll(Duration::ZERO)? {
                    // Each move at its own time: the replay of a solve keeps its rhythm.
                    self.now = Instant::now();
                    self.handle_event(&event::read()?);
                }
            }
        }
    }

    /// Ends the game: cancels any solving, and [`App::run`] returns.
    pub fn quit(&mut self) {
        self.worker.cancel_all();
        self.mode = Mode::Quit;
    }

    fn act(&mut self, action: Action) {
        // A size change waits for a second press of the same key, and only that.
        let confirmed = self.confirm.take() == Some(action);
        match (&mut self.mode, action) {
            (Mode::Quit, _) => {}
            (_, Action::Quit) => self.quit(),
            (Mode::Help { scroll }, Action::Move(d @ (Direction::Up | Direction::Down))) => {
                *scroll = scrolled(*scroll, d, 1).min(crate::help::max_scroll(self.area));
            }
            (Mode::Help { scroll }, Action::Page(d)) => {
                let page = crate::help::page_height(self.area);
                *scroll = scrolled(*scroll, d, page).min(crate::help::max_scroll(self.area));
            }
            (Mode::Help { .. }, _) => self.mode = Mode::Play,
            (Mode::Solving { id, stopping: false, .. }, Action::Back) => {
                // The near-optimal engine answers at once with the best path it has.
                let id = *id;
                self.worker.stop(id);
                if let Mode::Solving { stopping, .. } = &mut self.mode {
                    *stopping = true;
                }
                self.say("stopping: the best answer so far plays (Esc again cancels)", Tone::Info);
            }
            (Mode::Solving { id, stopping: true, .. }, Action::Back) => {
                let id = *id;
                self.worker.cancel(id);
                self.mode = Mode::Play;
                self.say("solve cancelled", Tone::Info);
            }
            (Mode::Solving { .. }, _) => self.say("solving… Esc stops it", Tone::Info),
            (Mode::Replay(_), _) => self.transport(action),
            (Mode::Play, action) => self.play(action, confirmed),
        }
    }

    /// A key during a playback: the transport's keys drive it, the size keys are refused
    /// (they never mean the speed), and any other key stops it and does what it says.
    fn transport(&mut self, action: Action) {
        let Mode::Replay(r) = &mut self.mode else { return };
        let now = self.now;
        let drives = r.source().drives_the_game();
        let why = stop_word(r);
        match action {
            Action::Pause => r.toggle_pause(now),
            Action::StepForward => {
                let before = r.board().clone();
                match r.step_forward() {
                    Some(m) => self.mirror(&before, &[m]),
                    None => self.say("the playback is at its end", Tone::Info),
                }
            }
            Action::StepBack => {
                if r.step_back().is_none() {
                    self.say("the playback is at its start", Tone::Info);
                    return;
                }
                self.slide = None;
                if drives {
                    let before = self.game.board().clone();
                    self.game.undo(now);
                    self.after_change(&before, 1);
                }
            }
            Action::Faster | Action::Slower => {
                let faster = action == Action::Faster;
                let changed = if faster { r.faster(now) } else { r.slower(now) };
                let label = r.speed_label();
                if let Some(speed) = r.steady_speed() {
                    self.speed = speed;
                }
                if !changed {
                    let end = if faster { "fastest" } else { "slowest" };
                    self.say(&format!("{label} is the {end} speed"), Tone::Info);
                }
            }
            Action::Bigger | Action::Smaller => self.say(
                "+ - change the board's size; the speed is < >. Esc stops the playback",
                Tone::Info,
            ),
            Action::Back => self.stop_replay(why),
            Action::Solve if drives => self.stop_replay(why),
            Action::ReplayYours if *r.source() == Source::Yours => self.stop_replay(why),
            Action::ReplayBest if matches!(r.source(), Source::Best { .. }) => {
                self.stop_replay(why);
            }
            // Arrows on a replay of a finished solve stop it; they move nothing.
            Action::Move(_) if !drives => self.stop_replay(why),
            other => {
                self.stop_replay(why);
                self.act(other);
            }
        }
    }

    fn play(&mut self, action: Action, confirmed: bool) {
        match action {
            Action::Move(direction) => {
                let tile_move = match direction {
                    Direction::Up => Move::Up,
                    Direction::Down => Move::Down,
                    Direction::Left => Move::Left,
                    Direction::Right => Move::Right,
                };
                let m = if self.move_blank { tile_move.inverse() } else { tile_move };
                if !self.make(&[m]) {
                    let way = format!("{direction:?}").to_lowercase();
                    let why = if self.move_blank {
                        format!("the blank cannot go {way}")
                    } else {
                        format!("no tile can slide {way}")
                    };
                    self.say(&why, Tone::Info);
                }
            }
            Action::Page(_) => {}
            Action::LowercaseMove(c) => {
                let upper = c.to_ascii_uppercase();
                self.say(
                    &format!("letters move with Shift ({upper}): h is hint, s is solve"),
                    Tone::Info,
                );
            }
            Action::ToggleBlank => {
                self.move_blank = !self.move_blank;
                let what = if self.move_blank { "the blank" } else { "tiles" };
                self.say(&format!("arrows now move {what}"), Tone::Info);
            }
            Action::Undo => {
                let (before, moves) = (self.game.board().clone(), self.game.moves());
                if self.game.undo(self.now) {
                    self.after_change(&before, moves.abs_diff(self.game.moves()));
                } else {
                    self.say("nothing to undo", Tone::Info);
                }
            }
            Action::Redo => {
                let (before, moves) = (self.game.board().clone(), self.game.moves());
                if self.game.redo(self.now) {
                    self.after_change(&before, moves.abs_diff(self.game.moves()));
                } else {
                    self.say("nothing to redo", Tone::Info);
                }
            }
            Action::New => {
                let board = scramble(&mut self.scrambler, self.game.goal());
                self.new_game(board, self.game.goal().clone());
                self.say("a new random board", Tone::Info);
            }
            Action::Reset => {
                self.game.reset();
                self.assist = Assist::None;
                self.position_changed();
                self.say("back to the start of this game", Tone::Info);
            }
            Action::Bigger | Action::Smaller => self.resize(action, confirmed),
            Action::Hint => self.ask_hint(),
            Action::Solve => self.ask_solve(),
            Action::ReplayYours => self.replay_yours(),
            Action::ReplayBest => self.replay_best(),
            Action::Faster | Action::Slower => {
                self.speed = if action == Action::Faster {
                    (self.speed + 1).min(SPEEDS.len() - 1)
                } else {
                    self.speed.saturating_sub(1)
                };
                let speed = SPEEDS[self.speed];
                self.say(&format!("playbacks will run at {speed} moves/s"), Tone::Info);
            }
            Action::Pause | Action::StepForward | Action::StepBack => {
                self.say("space , . < > drive playbacks: s plays the solver's solution", Tone::Info)
            }
            Action::Help => self.mode = Mode::Help { scroll: 0 },
            // Esc stops playbacks and solves; pressed once too often as one ends, it must
            // not end the game as well.
            Action::Back => self.say("q quits; Esc stops playbacks and solves", Tone::Info),
            Action::Quit => self.quit(),
        }
    }

    /// Makes one gesture; returns whether it was legal.
    fn make(&mut self, moves: &[Move]) -> bool {
        let before = self.game.board().clone();
        if !self.game.play(moves, self.now) {
            return false;
        }
        self.after_change(&before, moves.len());
        true
    }

    /// The game's board changed from `before` by `steps` moves: what was known there tells
    /// about here (and back), then everything else a new position needs.
    fn after_change(&mut self, before: &Board, steps: usize) {
        let after = self.game.board().clone();
        self.distances.moved(before, &after, steps);
        self.position_changed();
    }

    /// Forgets the advice about the old position and starts finding out about the new.
    fn position_changed(&mut self) {
        if let Advice::Pending(id) = self.advice {
            self.worker.cancel(id);
        }
        self.advice = Advice::Unknown;
        self.show_hint = false;
        let replaying = matches!(self.mode, Mode::Replay(_));
        // A note about the playback (a refused key, a speed) outlives its moves.
        if !replaying {
            self.note = None;
        }
        self.slide = None;
        let board = self.game.board();
        let known = self.distances.get(board).exact().is_some();
        if board.tiles().len() <= AUTO_DISTANCE_CELLS && !replaying && !known {
            self.advice = Advice::Pending(self.worker.start(Task::Hint, board, self.game.goal()));
        }
        if self.game.is_solved() && self.game.moves() > 0 && !replaying {
            self.ask_best();
        }
    }

    /// Asks the solver for the best solution from the game's start, for the card.
    fn ask_best(&mut self) {
        if matches!(self.best, Best::Unknown | Best::Failed(_)) {
            let id = self.worker.start(Task::Solve, self.game.start(), self.game.goal());
            self.best = Best::Pending(id);
        }
    }

    fn new_game(&mut self, board: Board, goal: Board) {
        self.worker.cancel_all();
        if goal != *self.distances.goal() {
            self.distances = Distances::new(&goal);
        }
        self.game = Game::new(board, goal);
        self.trail = None;
        self.assist = Assist::None;
        self.best = Best::Unknown;
        self.advice = Advice::Unknown;
        self.position_changed();
    }

    fn resize(&mut self, action: Action, confirmed: bool) {
        let grow = action == Action::Bigger;
        if let Goal::Board(goal) = &self.goal {
            let size = goal.size();
            self.say(&format!("the goal board fixes the size at {size}"), Tone::Warn);
            return;
        }
        let size = self.board().size();
        let side = |s: usize| if grow { s + 1 } else { s.saturating_sub(1).max(Size::MIN_SIDE) };
        let Ok(new) = Size::new(side(size.width()), side(size.height())) else {
            self.say("that is the largest board", Tone::Warn);
            return;
        };
        if new == size {
            self.say(&format!("{size} is the smallest board"), Tone::Warn);
            return;
        }
        if grow {
            if let Err((w, h)) = Grid::fit(Screen::new(self.area).board_inner, new) {
                self.say(
                    &format!(
                        "a {new} board needs {w}x{h} cells for its tiles: enlarge the terminal"
                    ),
                    Tone::Warn,
                );
                return;
            }
        }
        // A game in progress is not thrown away by one key press.
        let in_progress = self.game.moves() > 0 && !self.game.is_solved();
        if in_progress && !confirmed {
            let key = if grow { '+' } else { '-' };
            self.confirm = Some(action);
            self.say(
                &format!("press {key} again for a new {new} board (this game ends)"),
                Tone::Warn,
            );
            return;
        }
        // A named goal exists for every size.
        let Ok(goal) = self.goal.board(new) else { return };
        let board = scramble(&mut self.scrambler, &goal);
        self.new_game(board, goal);
        self.say(&format!("a new {new} board"), Tone::Info);
    }

    fn ask_hint(&mut self) {
        if self.game.is_solved() {
            self.say("the board is solved: n deals a new one", Tone::Info);
            return;
        }
        self.show_hint = true;
        self.assist = self.assist.max(Assist::Hints);
        if matches!(self.advice, Advice::Unknown | Advice::Failed(_)) {
            // On the path of the last hint: the rest of it, at once.
            let (board, goal) = (self.game.board(), self.game.goal());
            if let Some(hint) = self.trail.as_ref().and_then(|t| hint::follow(t, board, goal)) {
                let board = board.clone();
                self.learn_hint(&board, &hint);
                self.advice = Advice::Ready(Some(hint));
                return;
            }
            let id = self.worker.start(Task::Hint, self.game.board(), self.game.goal());
            self.advice = Advice::Pending(id);
        }
    }

    fn ask_solve(&mut self) {
        if self.game.is_solved() {
            self.say("the board is solved: n deals a new one", Tone::Info);
            return;
        }
        let id = self.worker.start(Task::Solve, self.game.board(), self.game.goal());
        self.mode = Mode::Solving { id, since: self.now, stopping: false };
        self.note = None;
    }

    /// `m`: the player's own solve from the start, at its real speed.
    fn replay_yours(&mut self) {
        if self.card().is_none() {
            self.say("m replays your solve once the board is solved", Tone::Info);
            return;
        }
        let (moves, times): (Vec<Move>, Vec<Duration>) = self.game.played().into_iter().unzip();
        let replay = Replay::recorded(
            Source::Yours,
            self.game.start(),
            moves,
            &times,
            self.game.goal(),
            self.now,
        );
        self.start_replay(replay);
    }

    /// `o`: the best known solution from the start, beside the player's.
    fn replay_best(&mut self) {
        if self.card().is_none() {
            self.say("o replays the optimal solution once the board is solved", Tone::Info);
            return;
        }
        match &self.best {
            Best::Found { moves, optimal } => {
                let replay = Replay::steady(
                    Source::Best { optimal: *optimal },
                    self.game.start(),
                    moves.clone(),
                    self.game.goal(),
                    self.speed,
                    self.now,
                );
                self.start_replay(replay);
            }
            Best::Unknown | Best::Pending(_) => {
                self.ask_best();
                self.say("the solver is still working out the optimum", Tone::Info);
            }
            Best::Failed(why) => {
                let why = format!("no solution to replay: {why}");
                self.say(&why, Tone::Warn);
            }
        }
    }

    fn start_replay(&mut self, replay: Result<Replay, crate::replay::ReplayError>) {
        match replay {
            Ok(replay) => {
                self.slide = None;
                self.note = None;
                self.mode = Mode::Replay(replay);
            }
            // Never expected: every solution is checked against the goal before it plays.
            Err(err) => self.say(&format!("cannot play it back: {err}"), Tone::Warn),
        }
    }

    fn receive(&mut self, done: Done) {
        match done.answer {
            Answer::Hint(answer) => {
                if let Ok(Some(hint)) = &answer {
                    self.learn_hint(&done.board, hint);
                    if hint.trail.is_some() && done.board.size() == self.game.goal().size() {
                        self.trail.clone_from(&hint.trail);
                    }
                }
                if self.advice != Advice::Pending(done.id) || done.board != *self.game.board() {
                    return;
                }
                self.advice = match answer {
                    Ok(hint) => Advice::Ready(hint),
                    Err(why) => Advice::Failed(why),
                };
            }
            Answer::Solve(answer) => {
                let same_goal = done.board.size() == self.game.goal().size();
                if let (Ok(solution), true) = (&answer, same_goal) {
                    let moves = solution.moves.as_slice();
                    self.distances.solution(&done.board, moves, solution.optimal);
                    if let Some(bound) = solution.lower_bound {
                        let bound = usize::try_from(bound).unwrap_or(usize::MAX);
                        self.distances.at_least(&done.board, bound);
                    }
                    if done.board == *self.game.start() {
                        self.found_best(moves, solution.optimal);
                    }
                }
                if self.best == Best::Pending(done.id) {
                    if let Err(why) = &answer {
                        self.best = Best::Failed(why.clone());
                    }
                }
                let Mode::Solving { id, stopping, .. } = self.mode else { return };
                if id != done.id {
                    return;
                }
                self.mode = Mode::Play;
                match answer {
                    // The board cannot change while solving; this only guards the playback.
                    Ok(_) if done.board != *self.game.board() => {}
                    Ok(solution) => {
                        let moves = solution.moves.as_slice().to_vec();
                        let method = match solution.heuristic {
                            Some(h) => format!("{} + {}", solution.algorithm.name(), h.name()),
                            None => solution.algorithm.name().to_string(),
                        };
                        let source = Source::Solver { optimal: solution.optimal, method };
                        let replay = Replay::steady(
                            source,
                            self.game.board(),
                            moves,
                            self.game.goal(),
                            self.speed,
                            self.now,
                        );
                        self.start_replay(replay);
                        if stopping {
                            self.say("stopped early: the best answer found so far", Tone::Info);
                        }
                    }
                    Err(why) if stopping => self.say(&why, Tone::Info),
                    Err(why) => self.say(&why, Tone::Warn),
                }
            }
        }
    }

    /// Everything a hint proves: the position's distance, the whole solution's, and the
    /// neighbours'.
    fn learn_hint(&mut self, board: &Board, hint: &Hint) {
        // An answer about a board of another size came from before a size change: its goal
        // is not this one. (Within a size the goal is always the same.)
        if board.size() != self.game.goal().size() {
            return;
        }
        self.distances.solution(board, &hint.solution, hint.optimal);
        // The bound the solver proved (the near-optimal engine's on big boards) is a fact too.
        if let Some(bound) = hint.lower_bound {
            self.distances.at_least(board, bound);
        }
        for n in &hint.neighbours {
            if let Some(next) = board.moved(n.step) {
                if n.exact {
                    self.distances.exact(&next, n.distance);
                } else {
                    self.distances.at_least(&next, n.distance);
                }
            }
        }
        if *board == *self.game.start() {
            self.found_best(&hint.solution, hint.optimal);
        }
    }

    /// A solution from the game's start: the card's best, if it is better than what was
    /// known.
    fn found_best(&mut self, moves: &[Move], optimal: bool) {
        let better = match &self.best {
            Best::Found { moves: known, optimal: proven } => {
                !proven && (optimal || moves.len() < known.len())
            }
            _ => true,
        };
        if better && !moves.is_empty() {
            if let Best::Pending(id) = self.best {
                self.worker.cancel(id);
            }
            self.best = Best::Found { moves: moves.to_vec(), optimal };
        }
    }

    /// Plays the moves of the playback that are due by now, and ends it at the goal.
    fn advance_replay(&mut self) {
        let Mode::Replay(r) = &mut self.mode else { return };
        let before = r.board().clone();
        let made = r.advance(self.now);
        if !made.is_empty() {
            self.mirror(&before, &made);
        }
    }

    /// Shows the moves `made` that the playback just played from `before`: on the game
    /// itself when the playback drives it, sliding the tile when one move was made at a
    /// speed the eye can follow; and ends the playback at its end.
    fn mirror(&mut self, before: &Board, made: &[Move]) {
        let Mode::Replay(r) = &self.mode else { return };
        let drives = r.source().drives_the_game();
        let slide_time = r.slide_time();
        let finished = r.finished();
        let source = r.source().clone();
        let len = r.len();
        if drives {
            self.assist = Assist::Solver;
            for &m in made {
                let here = self.game.board().clone();
                if self.game.play(&[m], self.now) {
                    let after = self.game.board().clone();
                    self.distances.moved(&here, &after, 1);
                }
            }
            self.position_changed();
        }
        self.slide = None;
        if let ([m], Some(length)) = (made, slide_time) {
            if let (Some(from), Some(tile)) = (before.target(*m), before.tile_for_move(*m)) {
                self.slide = Some((tile, from, self.now, length));
            }
        }
        if finished {
            self.mode = Mode::Play;
            let note = match source {
                Source::Solver { optimal, .. } => {
                    let quality = if optimal { "optimal" } else { "not proven optimal" };
                    format!("the solver finished: {} ({quality})", plural(len, "move"))
                }
                Source::Yours => "your solve, replayed".to_string(),
                Source::Best { .. } => "the solver's solution, replayed".to_string(),
            };
            if drives {
                // The solve is done: what the card needs is known or on its way.
                self.position_changed();
            }
            self.say(&note, Tone::Good);
        }
    }

    fn stop_replay(&mut self, why: &str) {
        if let Mode::Replay(r) = &self.mode {
            let drives = r.source().drives_the_game();
            self.mode = Mode::Play;
            self.slide = None;
            if drives {
                self.position_changed();
            }
            self.say(why, Tone::Info);
        }
    }

    fn say(&mut self, text: &str, tone: Tone) {
        self.note = Some((text.to_string(), tone, self.now));
    }
}

/// What stopping this playback is called.
fn stop_word(r: &Replay) -> &'static str {
    if r.source().drives_the_game() { "playback stopped" } else { "replay stopped" }
}

/// A scroll position moved by `by` lines (the help clamps it to its length when drawn).
fn scrolled(scroll: u16, direction: Direction, by: u16) -> u16 {
    match direction {
        Direction::Up => scroll.saturating_sub(by),
        _ => scroll.saturating_add(by),
    }
}

/// A uniformly random solvable board other than the goal itself (on 2x2 boards the goal
/// comes up one time in twelve, which is no game).
fn scramble(scrambler: &mut Scrambler, goal: &Board) -> Board {
    let mut board = scrambler.solvable(goal);
    for _ in 0..64 {
        if board != *goal {
            break;
        }
        board = scrambler.solvable(goal);
    }
    board
}

/// `1 move`, `2 moves`.
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 { format!("1 {thing}") } else { format!("{n} {thing}s") }
}

/// `1:23.4`, or `1:02:03.4` past an hour.
pub fn clock(time: Duration) -> String {
    let tenths = time.as_millis() / 100;
    let (h, m, s, t) = (tenths / 36_000, tenths / 600 % 60, tenths / 10 % 60, tenths % 10);
    if h > 0 { format!("{h}:{m:02}:{s:02}.{t}") } else { format!("{m}:{s:02}.{t}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::Verdict;
    use crossterm::event::{KeyCode, KeyModifiers};

    /// Long enough for any hint or solve these tests ask for (all instant in practice);
    /// only a hang would reach it.
    const PATIENCE: Duration = Duration::from_secs(60);

    fn app(board: &str) -> App {
        app_with(board, Goal::BlankLast)
    }

    fn app_with(board: &str, goal: Goal) -> App {
        let board: Board = board.parse().unwrap();
        let config = Config {
            size: board.size(),
            goal,
            board: Some(board),
            seed: 7,
            color: true,
            solver: Solver::shared().clone(),
        };
        App::new(config, Instant::now()).unwrap()
    }

    fn press(app: &mut App, code: KeyCode) {
        app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
    }

    fn chars(app: &mut App, keys: &str) {
        for c in keys.chars() {
            press(app, KeyCode::Char(c));
        }
    }

    fn click(app: &mut App, x: usize, y: usize) {
        let screen = Screen::new(app.area);
        let grid = Grid::fit(screen.board_inner, app.board().size()).unwrap();
        let r = grid.tile(x, y);
        app.handle_mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: r.x + r.width / 2,
            row: r.y + r.height / 2,
            modifiers: KeyModifiers::NONE,
        });
    }

    /// Waits for the worker's answers until `done` holds.
    fn settle_until(app: &mut App, done: impl Fn(&App) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(app) {
            assert!(Instant::now() < deadline, "the worker did not answer");
            app.settle(Duration::from_millis(50));
        }
    }

    #[test]
    fn arrows_move_tiles_and_b_switches_to_the_blank() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        press(&mut a, KeyCode::Left); // the 5 slides left
        assert_eq!(a.board().to_string(), "1 2 3/4 5 0/7 8 6");
        chars(&mut a, "b");
        assert!(a.moves_blank());
        press(&mut a, KeyCode::Down); // the blank goes down: the 6 slides up
        assert_eq!(a.board().to_string(), "1 2 3/4 5 6/7 8 0");
        assert!(a.game().is_solved());
        assert_eq!(a.assist(), Assist::None);
    }

    #[test]
    fn shifted_letters_move_and_lowercase_ones_explain() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        chars(&mut a, "A"); // WASD: left
        assert_eq!(a.board().to_string(), "1 2 3/4 5 0/7 8 6");
        chars(&mut a, "K"); // HJKL: up
        assert_eq!(a.board().to_string(), "1 2 3/4 5 6/7 8 0");
        chars(&mut a, "uu");
        chars(&mut a, "a");
        assert_eq!(a.board().to_string(), "1 2 3/4 0 5/7 8 6");
        assert!(a.note().unwrap().0.starts_with("letters move with Shift (A)"));
    }

    #[test]
    fn an_impossible_move_changes_nothing_and_says_why() {
        let mut a = app("1 2 3/4 5 6/7 8 0");
        press(&mut a, KeyCode::Up);
        assert_eq!(a.board().to_string(), "1 2 3/4 5 6/7 8 0");
        assert_eq!(a.note(), Some(("no tile can slide up", Tone::Info)));
        assert_eq!(a.game().moves(), 0);
    }

    #[test]
    fn undo_redo_and_reset() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        press(&mut a, KeyCode::Left);
        press(&mut a, KeyCode::Up);
        chars(&mut a, "u");
        assert_eq!(a.board().to_string(), "1 2 3/4 5 0/7 8 6");
        chars(&mut a, "y");
        assert!(a.game().is_solved());
        press(&mut a, KeyCode::Backspace);
        assert_eq!(a.game().moves(), 1);
        chars(&mut a, "0");
        assert_eq!(a.board().to_string(), "1 2 3/4 0 5/7 8 6");
        assert_eq!(a.game().moves(), 0);
        chars(&mut a, "y");
        assert_eq!(a.note(), Some(("nothing to redo", Tone::Info)));
    }

    #[test]
    fn a_click_slides_the_run_up_to_the_blank() {
        let mut a = app("1 2 3 4/5 6 7 8/9 10 11 12/0 13 14 15");
        a.set_area(Rect::new(0, 0, 80, 24));
        click(&mut a, 3, 3); // three tiles slide left at once
        assert_eq!(a.board().to_string(), "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0");
        assert_eq!(a.game().moves(), 3);
        click(&mut a, 3, 0); // the column above the blank slides down
        assert_eq!(a.board().to_string(), "1 2 3 0/5 6 7 4/9 10 11 8/13 14 15 12");
        click(&mut a, 0, 2); // neither row nor column: nothing
        assert_eq!(a.game().moves(), 6);
        assert_eq!(a.note(), Some(("click a tile in the blank's row or column", Tone::Info)));
        chars(&mut a, "u"); // one undo takes back the whole run
        assert_eq!(a.board().to_string(), "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0");
    }

    #[test]
    fn clicks_anywhere_on_any_terminal_size_never_panic() {
        let mut a = app("1 2 3/4 5 6/7 0 8");
        for (w, h) in [(0, 0), (1, 1), (10, 3), (29, 7), (30, 8), (80, 24), (200, 60)] {
            a.set_area(Rect::new(0, 0, w, h));
            for column in (0..w + 5).step_by(3) {
                for row in 0..h + 2 {
                    a.handle_mouse(MouseEvent {
                        kind: MouseEventKind::Down(MouseButton::Left),
                        column,
                        row,
                        modifiers: KeyModifiers::NONE,
                    });
                }
            }
        }
        assert!(a.board().is_solvable(a.game().goal()));
    }

    #[test]
    fn scramble_deals_a_solvable_board_and_a_fresh_game() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        press(&mut a, KeyCode::Left);
        chars(&mut a, "r");
        assert_eq!(a.game().moves(), 0);
        assert!(a.board().is_solvable(a.game().goal()));
        assert_ne!(a.board(), a.game().goal());
        let first = a.board().clone();
        chars(&mut a, "0");
        assert_eq!(*a.board(), first, "reset goes back to the scrambled start");
    }

    #[test]
    fn plus_and_minus_change_the_size_within_the_terminal() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        a.set_area(Rect::new(0, 0, 80, 24));
        chars(&mut a, "+");
        assert_eq!(a.board().size().to_string(), "4x4");
        assert!(a.board().is_solvable(a.game().goal()));
        chars(&mut a, "---");
        assert_eq!(a.board().size().to_string(), "2x2");
        assert_eq!(a.note(), Some(("2x2 is the smallest board", Tone::Warn)));
        // 30x8 leaves 28x4 cells for the tiles: room for four rows of one-row tiles.
        a.set_area(Rect::new(0, 0, 30, 8));
        chars(&mut a, "++++");
        assert_eq!(a.board().size().to_string(), "4x4");
        assert!(a.note().unwrap().0.contains("enlarge the terminal"));
    }

    #[test]
    fn an_explicit_goal_fixes_the_size() {
        let mut a = app_with("1 2 3/4 0 5/7 8 6", "1 2 3/4 5 6/7 8 0".parse().unwrap());
        chars(&mut a, "+");
        assert_eq!(a.board().size().to_string(), "3x3");
        assert_eq!(a.note(), Some(("the goal board fixes the size at 3x3", Tone::Warn)));
    }

    #[test]
    fn a_hints_proven_bound_raises_the_distance_readout() {
        // What a non-optimal hint says of a big board, here on a 3x3 for speed: greedy's
        // solution, and a proven bound of 27 (the optimum is 31; linear conflict says 23).
        let mut a = app("8 6 7/2 5 4/3 0 1");
        let board = a.board().clone();
        let options = npuzzle_solver::Options {
            algorithm: npuzzle_solver::Algorithm::Greedy,
            ..npuzzle_solver::Options::default()
        };
        let found = npuzzle_solver::solve(&board, a.game.goal(), &options).unwrap();
        let solution = found.moves.as_slice().to_vec();
        assert!(solution.len() > 31);
        let hint = Hint {
            step: solution[0],
            tile: board.tile_for_move(solution[0]).unwrap(),
            distance: solution.len(),
            optimal: false,
            lower_bound: Some(27),
            solution,
            neighbours: Vec::new(),
            trail: None,
        };
        assert_eq!(a.distance().lower(), 23);
        a.learn_hint(&board, &hint);
        assert_eq!(a.distance().lower(), 27);
    }

    #[test]
    fn hint_shows_the_next_optimal_move_and_the_distance() {
        let mut a = app("8 6 7/2 5 4/3 0 1");
        assert_eq!(a.distance(), Distance::AtLeast(23));
        chars(&mut a, "h");
        assert_eq!(a.assist(), Assist::Hints);
        settle_until(&mut a, |a| a.hint().is_some());
        let hint = a.hint().unwrap().unwrap().unwrap().clone();
        assert!(hint.optimal);
        assert_eq!(hint.distance, 31);
        assert_eq!(a.distance(), Distance::Exact(31));
        assert_eq!(a.next_step(), Some((hint.tile, hint.step)));
        // Following the hint gets one closer; the hint itself goes away.
        press(&mut a, key_for(hint.step));
        assert!(a.hint().is_none());
        settle_until(&mut a, |a| a.distance() == Distance::Exact(30));
    }

    #[test]
    fn a_followed_hint_on_a_big_board_answers_at_once_from_its_path() {
        // 20 cells: the near-optimal engine's hint, a search of about a second.
        let goal = Goal::BlankLast.board("5x4".parse().unwrap()).unwrap();
        let board = npuzzle_core::Scrambler::new(5).solvable(&goal);
        let mut a = app(&board.to_string());
        chars(&mut a, "h");
        settle_until(&mut a, |a| a.hint().is_some());
        let first = a.hint().unwrap().unwrap().unwrap().clone();
        assert!(first.trail.is_some(), "a 20-cell hint keeps its path");
        for k in 1..=3 {
            let step = a.hint().unwrap().unwrap().unwrap().step;
            press(&mut a, key_for(step));
            assert!(a.hint().is_none());
            // No worker: the answer is there as soon as it is asked for.
            chars(&mut a, "h");
            let hint = a.hint().expect("at once").unwrap().unwrap().clone();
            assert_eq!(hint.step, first.solution[k]);
            assert_eq!(hint.distance, first.distance - k);
            assert_eq!(hint.solution, first.solution[k..]);
            assert_eq!(hint.optimal, first.optimal);
            let bound = hint.lower_bound.unwrap();
            assert!(bound <= hint.distance && bound + k >= first.lower_bound.unwrap());
        }
        // A move off the path (neither the hinted one nor back): the next hint is a search.
        let positions: Vec<Board> = (0..=first.solution.len())
            .map(|k| {
                let mut at = board.clone();
                first.solution[..k].iter().for_each(|&m| at.apply(m).unwrap());
                at
            })
            .collect();
        let here = a.board().clone();
        let off = here
            .legal_moves()
            .find(|&m| !positions.contains(&here.moved(m).unwrap()))
            .expect("a move off the path");
        press(&mut a, key_for(off));
        chars(&mut a, "h");
        assert!(a.hint().is_none(), "a search is under way");
        settle_until(&mut a, |a| a.hint().is_some());
        assert!(a.hint().unwrap().is_ok());
    }

    fn key_for(step: Move) -> KeyCode {
        match step {
            Move::Up => KeyCode::Up,
            Move::Down => KeyCode::Down,
            Move::Left => KeyCode::Left,
            Move::Right => KeyCode::Right,
        }
    }

    #[test]
    fn solve_plays_the_solution_back_under_the_players_control() {
        let mut a = app("4 1 3/0 2 5/7 8 6");
        let t0 = Instant::now();
        a.tick(t0);
        chars(&mut a, "s");
        assert!(matches!(a.mode(), Mode::Solving { .. }));
        // Keys other than Esc and q wait for the solver.
        press(&mut a, KeyCode::Left);
        assert_eq!(a.game().moves(), 0);
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        let Mode::Replay(replay) = a.mode() else { unreachable!() };
        assert_eq!(replay.len(), 5);
        assert!(matches!(replay.source(), Source::Solver { optimal: true, .. }));
        assert_eq!(a.distance(), Distance::Exact(5));
        assert_eq!(a.speed(), "5/s");
        // Nothing moves before the first move is due (a fifth of a second at 5 moves/s).
        a.tick(t0 + Duration::from_millis(100));
        assert_eq!(a.game().moves(), 0);
        a.tick(t0 + Duration::from_millis(250));
        assert_eq!(a.game().moves(), 1);
        chars(&mut a, " "); // pause: time passes, nothing moves
        a.tick(t0 + Duration::from_secs(10));
        assert_eq!(a.game().moves(), 1);
        chars(&mut a, "."); // one step
        assert_eq!(a.game().moves(), 2);
        chars(&mut a, ","); // one step back: the game follows
        assert_eq!(a.game().moves(), 1);
        assert_eq!(a.distance(), Distance::Exact(4));
        chars(&mut a, ".");
        assert_eq!(a.game().moves(), 2);
        chars(&mut a, ">>");
        assert_eq!(a.speed(), "12/s");
        chars(&mut a, " ");
        for ms in 1..=3 {
            a.tick(t0 + Duration::from_secs(10) + Duration::from_millis(100 * ms));
        }
        assert_eq!(a.mode(), &Mode::Play);
        assert!(a.game().is_solved());
        assert_eq!(a.game().moves(), 5);
        assert_eq!(a.assist(), Assist::Solver);
        assert_eq!(a.note(), Some(("the solver finished: 5 moves (optimal)", Tone::Good)));
        // The playback is in the history like any move.
        chars(&mut a, "u");
        assert_eq!(a.game().moves(), 4);
    }

    #[test]
    fn playback_slides_its_tiles_at_slow_speeds() {
        let mut a = app("4 1 3/0 2 5/7 8 6");
        let t0 = a.now();
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        let ms = |n| t0 + Duration::from_millis(n);
        // The first move (the 4 slides down), sliding for two thirds of the 200 ms between
        // moves at 5 moves a second.
        a.tick(ms(200));
        let slide = a.slide().unwrap();
        assert_eq!((slide.tile, slide.from, slide.progress), (4, (0, 0), 0.0));
        assert_eq!(a.next_wake(), SLIDE_FRAME);
        a.tick(ms(275));
        let progress = a.slide().unwrap().progress;
        assert!((progress - 75.0 / 133.333).abs() < 1e-3, "{progress}");
        a.tick(ms(350));
        assert_eq!(a.slide(), None, "arrived");
        // A move of the player's is not animated.
        press(&mut a, KeyCode::Up);
        assert_eq!(a.slide(), None);
    }

    #[test]
    fn fast_playback_makes_many_moves_per_frame_and_ends_at_the_goal() {
        let config = Config {
            size: "5x5".parse().unwrap(),
            goal: Goal::Snail,
            board: None,
            seed: 3,
            color: true,
            solver: Solver::shared().clone(),
        };
        let mut a = App::new(config, Instant::now()).unwrap();
        let start = a.now();
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        let Mode::Replay(replay) = a.mode() else { unreachable!() };
        let len = replay.len();
        assert!(len > 100, "a long, non-optimal solution: {len}");
        chars(&mut a, &">".repeat(SPEEDS.len()));
        assert_eq!(a.speed(), "1000/s");
        assert_eq!(a.next_wake(), FRAME_AT_SPEED, "frames, not a wake-up per move");
        let frame = |n: u32| start + FRAME_AT_SPEED * n;
        a.tick(frame(1));
        let Mode::Replay(replay) = a.mode() else { unreachable!() };
        // 33 ms at 1,000 moves a second.
        assert!((30..=40).contains(&replay.played()), "{}", replay.played());
        let mut n = 1;
        while a.mode() != &Mode::Play {
            n += 1;
            assert!(n < 10_000, "the playback never ended");
            a.tick(frame(n));
        }
        assert!(a.game().is_solved());
        assert_eq!(a.game().moves(), len);
    }

    #[test]
    fn a_key_during_playback_stops_it_and_acts() {
        let mut a = app("4 1 3/0 2 5/7 8 6");
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        press(&mut a, KeyCode::Up); // the player takes over: the 7 slides up
        assert_eq!(a.mode(), &Mode::Play);
        assert_eq!(a.board().to_string(), "4 1 3/7 2 5/0 8 6");
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        press(&mut a, KeyCode::Esc); // Esc stops the playback, not the game
        assert_eq!(a.mode(), &Mode::Play);
    }

    #[test]
    fn esc_cancels_a_solve_and_the_game_goes_on() {
        // A hard 4x4 board: the solve would take seconds.
        let mut a = app("0 9 6 3/8 14 12 13/5 2 7 11/15 10 1 4");
        chars(&mut a, "s");
        assert!(matches!(a.mode(), Mode::Solving { stopping: false, .. }));
        // The first Esc asks the solve to stop and answer with what it has; the second
        // cancels it at once.
        press(&mut a, KeyCode::Esc);
        assert!(matches!(a.mode(), Mode::Solving { stopping: true, .. }), "{:?}", a.mode());
        press(&mut a, KeyCode::Esc);
        assert_eq!(a.mode(), &Mode::Play);
        assert_eq!(a.note(), Some(("solve cancelled", Tone::Info)));
        // One Esc too many does not quit: q does.
        press(&mut a, KeyCode::Esc);
        assert_eq!(a.mode(), &Mode::Play);
        chars(&mut a, "q");
        assert_eq!(a.mode(), &Mode::Quit);
    }

    /// Esc stops a long solve and plays the best answer it has found: on an 8x8 the
    /// near-optimal engine has a path within half a second, and goes on improving it for
    /// several more.
    #[test]
    fn esc_stops_a_solve_and_its_best_answer_so_far_plays() {
        let goal = Goal::BlankLast.board(Size::new(8, 8).unwrap()).unwrap();
        let board = npuzzle_core::Scrambler::new(3).solvable(&goal);
        let mut a = app(&board.to_string());
        chars(&mut a, "s");
        assert!(matches!(a.mode(), Mode::Solving { .. }));
        std::thread::sleep(Duration::from_secs(1));
        a.settle(Duration::from_millis(1));
        assert!(matches!(a.mode(), Mode::Solving { .. }), "answered within 1 s: {:?}", a.mode());
        // Meanwhile the panel and the readout know the best answer so far and the bound.
        let live = a.solving().expect("a solve runs");
        let (best, bound) = (live.best().expect("a path within 1 s"), live.bound().unwrap());
        assert!(u64::from(bound) < best, "{bound} {best}");
        assert_eq!(a.distance(), Distance::Between(bound as usize, best as usize));
        press(&mut a, KeyCode::Esc);
        settle_until(&mut a, |a| !matches!(a.mode(), Mode::Solving { .. }));
        let Mode::Replay(replay) = a.mode() else { panic!("{:?} {:?}", a.mode(), a.note()) };
        assert!(matches!(replay.source(), Source::Solver { optimal: false, .. }));
        assert_eq!(a.note(), Some(("stopped early: the best answer found so far", Tone::Info)));
        assert!(replay.len() as u64 <= best, "{} moves, {best} before the stop", replay.len());
        // It replays to the goal.
        let mut end = board.clone();
        for step in replay.moves() {
            end = end.moved(*step).unwrap();
        }
        assert_eq!(end, goal);
    }

    /// A hint on an 8x8 is a near-optimal solve of seconds: while it thinks, the panel and the
    /// readout know its best path so far and its bound; its answer is no longer.
    #[test]
    fn a_hint_on_a_big_board_shows_its_best_path_while_it_thinks() {
        let goal = Goal::BlankLast.board(Size::new(8, 8).unwrap()).unwrap();
        let board = npuzzle_core::Scrambler::new(3).solvable(&goal);
        let mut a = app(&board.to_string());
        chars(&mut a, "h");
        std::thread::sleep(Duration::from_secs(1));
        a.settle(Duration::from_millis(1));
        assert!(a.hint_pending(), "answered within 1 s: {:?}", a.hint());
        let live = a.hinting().expect("a hint runs");
        let (best, bound) = (live.best().expect("a path within 1 s"), live.bound().unwrap());
        assert!(u64::from(bound) < best, "{bound} {best}");
        assert_eq!(a.distance(), Distance::Between(bound as usize, best as usize));
        settle_until(&mut a, |a| !a.hint_pending());
        let Some(Ok(Some(hint))) = a.hint() else { panic!("{:?}", a.hint()) };
        assert!(!hint.optimal && hint.distance as u64 <= best, "{hint:?} after {best}");
        assert!(a.hinting().is_none());
    }

    #[test]
    fn q_and_ctrl_c_quit_from_every_mode() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        chars(&mut a, "?");
        assert_eq!(a.mode(), &Mode::Help { scroll: 0 });
        chars(&mut a, "x"); // any key closes the help
        assert_eq!(a.mode(), &Mode::Play);
        chars(&mut a, "?q");
        assert_eq!(a.mode(), &Mode::Quit);

        let mut a = app("0 9 6 3/8 14 12 13/5 2 7 11/15 10 1 4");
        chars(&mut a, "s");
        a.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(a.mode(), &Mode::Quit);
    }

    #[test]
    fn an_unsolvable_board_is_refused() {
        let board: Board = "2 1 3/4 5 6/7 8 0".parse().unwrap();
        let config = Config {
            size: board.size(),
            goal: Goal::BlankLast,
            board: Some(board),
            seed: 1,
            color: true,
            solver: Solver::shared().clone(),
        };
        let err = App::new(config, Instant::now()).unwrap_err();
        assert!(matches!(err, StartError::Unsolvable(_)));
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_millis(83_456)), "1:23.4");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03.0");
    }

    /// Replays the playback on the transport to its end, a frame at a time from `start`,
    /// checking that the position it shows is always the one its moves lead to.
    fn play_to_the_end(app: &mut App, start: Instant) {
        let Mode::Replay(r) = app.mode() else { panic!("no playback: {:?}", app.mode()) };
        let mut shown = r.start().clone();
        let moves = r.moves().to_vec();
        let mut n = 0;
        while let Mode::Replay(r) = app.mode() {
            n += 1;
            assert!(n < 100_000, "the playback never ended");
            let played = r.played();
            app.tick(start + FRAME_AT_SPEED * n);
            let now_played = app.replay().map_or(moves.len(), Replay::played);
            for &m in &moves[played..now_played] {
                shown.apply(m).unwrap();
            }
            assert_eq!(shown, *app.board());
        }
    }

    #[test]
    fn plus_during_a_playback_never_deals_a_new_board() {
        // The regression: + and - meant the speed during a playback and the size otherwise,
        // so a + pressed as the playback ended threw the solved game away.
        let mut a = app("4 1 3/0 2 5/7 8 6");
        let t0 = a.now();
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        chars(&mut a, "+-");
        assert!(matches!(a.mode(), Mode::Replay(_)), "the playback goes on");
        assert_eq!(a.speed(), "5/s", "+ is not the speed");
        assert!(a.note().unwrap().0.contains("the speed is < >"));
        play_to_the_end(&mut a, t0);
        assert!(a.game().is_solved());
        chars(&mut a, ">");
        assert_eq!(a.board().size().to_string(), "3x3");
        assert!(a.game().is_solved(), "> after a playback keeps the game");
        assert_eq!(a.note(), Some(("playbacks will run at 8 moves/s", Tone::Info)));
    }

    #[test]
    fn a_size_change_asks_before_ending_a_game_in_progress() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        press(&mut a, KeyCode::Left);
        chars(&mut a, "+");
        assert_eq!(a.board().size().to_string(), "3x3");
        assert_eq!(
            a.note(),
            Some(("press + again for a new 4x4 board (this game ends)", Tone::Warn))
        );
        // Another key in between cancels the question.
        chars(&mut a, "?x+");
        assert_eq!(a.board().size().to_string(), "3x3");
        chars(&mut a, "+");
        assert_eq!(a.board().size().to_string(), "4x4");
        assert_eq!(a.game().moves(), 0);
    }

    #[test]
    fn undo_and_redo_keep_an_exact_distance() {
        // The regression: on a board too large for the automatic distance, the exact
        // distance a hint proved became the bare estimate after an undo and a redo.
        let mut a = app("1 2 3 4/5 6 7 8/9 10 11 12/13 0 14 15");
        assert_eq!(a.distance(), Distance::AtLeast(2));
        press(&mut a, KeyCode::Right); // away from the goal: 13 slides right
        chars(&mut a, "h");
        settle_until(&mut a, |a| a.hint().is_some());
        assert_eq!(a.distance(), Distance::Exact(3));
        chars(&mut a, "u");
        assert_eq!(a.distance(), Distance::Exact(2));
        chars(&mut a, "y");
        assert_eq!(a.distance(), Distance::Exact(3));
        chars(&mut a, "u");
        press(&mut a, KeyCode::Down); // somewhere new: known within two, by the rules
        assert!(
            matches!(a.distance(), Distance::Between(1, 3) | Distance::Exact(3)),
            "{:?}",
            a.distance()
        );
    }

    #[test]
    fn the_card_compares_your_moves_with_the_optimum_and_replays_both() {
        // Four moves where two would do.
        let mut a = app("1 2 3/4 5 6/0 7 8");
        let t0 = Instant::now();
        a.tick(t0);
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        a.tick(at(1000));
        press(&mut a, KeyCode::Left);
        a.tick(at(1500));
        press(&mut a, KeyCode::Right);
        a.tick(at(2000));
        press(&mut a, KeyCode::Left);
        a.tick(at(3000));
        press(&mut a, KeyCode::Left);
        assert!(a.game().is_solved());
        settle_until(&mut a, |a| matches!(a.best(), Best::Found { .. }));
        let card = a.card().unwrap();
        assert_eq!((card.moves, card.time), (4, Duration::from_secs(2)));
        assert_eq!(card.tps_text(), "2.00");
        assert_eq!(card.verdict(), Verdict::Over { over: 2, optimal: 2 });

        // o: the optimal solution from the start, shown without touching the game.
        chars(&mut a, "o");
        let Mode::Replay(r) = a.mode() else { panic!("{:?}", a.mode()) };
        assert_eq!((r.source(), r.len()), (&Source::Best { optimal: true }, 2));
        assert_eq!(a.board().to_string(), "1 2 3/4 5 6/0 7 8");
        assert!(a.card().is_none(), "the card makes way for the replay");
        play_to_the_end(&mut a, at(3000));
        assert!(a.game().is_solved() && a.game().moves() == 4);
        assert!(a.card().is_some());

        // m: your own solve at its real speed: the gaps were 0.5, 0.5 and 1 s.
        chars(&mut a, "m");
        let Mode::Replay(r) = a.mode() else { panic!("{:?}", a.mode()) };
        assert_eq!((r.source(), r.len(), r.speed_label().as_str()), (&Source::Yours, 4, "1×"));
        let t = a.now();
        a.tick(t + Duration::from_millis(400));
        assert_eq!(a.replay().unwrap().played(), 1);
        a.tick(t + Duration::from_millis(899));
        assert_eq!(a.replay().unwrap().played(), 1);
        a.tick(t + Duration::from_millis(900));
        assert_eq!(a.replay().unwrap().played(), 2);
        // Any other key stops the replay and does what it says: here, a new board.
        chars(&mut a, "n");
        assert_eq!(a.mode(), &Mode::Play);
        assert_eq!(a.game().moves(), 0);
        assert_eq!(a.best(), &Best::Unknown);
    }

    #[test]
    fn every_playback_ends_at_the_goal() {
        // The solver's playback, the optimal replay and your replay, on a 4x3 board: each
        // ends with the board at the goal.
        let config = Config {
            size: "4x3".parse().unwrap(),
            goal: Goal::BlankLast,
            board: None,
            seed: 9,
            color: true,
            solver: Solver::shared().clone(),
        };
        let mut a = App::new(config, Instant::now()).unwrap();
        let t0 = a.now();
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        chars(&mut a, &">".repeat(SPEEDS.len()));
        play_to_the_end(&mut a, t0);
        assert!(a.game().is_solved());
        settle_until(&mut a, |a| matches!(a.best(), Best::Found { .. }));
        for key in ["o", "m"] {
            chars(&mut a, key);
            chars(&mut a, &">".repeat(SPEEDS.len()));
            let start = a.now();
            play_to_the_end(&mut a, start);
            assert_eq!(a.board(), a.game().goal(), "{key}");
        }
    }

    #[test]
    fn the_replay_keys_wait_for_a_solved_board() {
        let mut a = app("1 2 3/4 5 6/0 7 8");
        chars(&mut a, "m");
        assert_eq!(a.mode(), &Mode::Play);
        assert_eq!(a.note(), Some(("m replays your solve once the board is solved", Tone::Info)));
        chars(&mut a, " ");
        assert!(a.note().unwrap().0.starts_with("space , . < > drive playbacks"));
    }

    #[test]
    fn the_list_of_keys_scrolls_on_a_small_terminal() {
        let mut a = app("1 2 3/4 5 6/0 7 8");
        a.set_area(Rect::new(0, 0, 40, 12));
        chars(&mut a, "?");
        press(&mut a, KeyCode::Down);
        assert_eq!(a.mode(), &Mode::Help { scroll: 1 });
        for _ in 0..100 {
            press(&mut a, KeyCode::PageDown);
        }
        let end = crate::help::max_scroll(a.area());
        assert!(end > 0);
        assert_eq!(a.mode(), &Mode::Help { scroll: end });
        press(&mut a, KeyCode::Up);
        assert_eq!(a.mode(), &Mode::Help { scroll: end - 1 });
        chars(&mut a, "x");
        assert_eq!(a.mode(), &Mode::Play);
    }
}
