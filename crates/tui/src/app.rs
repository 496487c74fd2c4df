//! The game's model: [`App`] and its [`Mode`], driven by events and by the clock.
//!
//! Everything here works without a terminal: keys and clicks go in through
//! [`App::handle_event`], time through [`App::tick`], and the screen comes out by rendering
//! `&App` as a widget (see `ui.rs`). [`App::run`] is the only part that touches a terminal.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, Event, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind,
};
use npuzzle_core::{Board, Goal, GoalError, Move, Scrambler, Size};
use npuzzle_solver::heuristic;
use npuzzle_solver::{Algorithm, HeuristicKind};
use ratatui::Terminal;
use ratatui::backend::Backend;
use ratatui::layout::Rect;

use crate::game::Game;
use crate::hint::Hint;
use crate::keys::{self, Action, Direction};
use crate::layout::{Grid, Screen};
use crate::terminal::Input;
use crate::theme::Theme;
use crate::worker::{Answer, Task, Worker};

/// Playback speeds, in moves per second. The fast ones are for the long, non-optimal
/// solutions of large boards.
pub const SPEEDS: [u32; 13] = [1, 2, 3, 5, 8, 12, 20, 30, 60, 120, 250, 500, 1000];
/// The shortest time between two frames of a playback (about 30 frames a second): faster
/// speeds make several moves per frame.
const FRAME_AT_SPEED: Duration = Duration::from_millis(33);
/// The fastest playback whose tiles are drawn sliding (moves per second).
pub const MAX_SLIDING_SPEED: u32 = 12;
/// The time between two frames of a sliding tile (60 frames a second).
const SLIDE_FRAME: Duration = Duration::from_millis(16);
/// The most moves one frame of a playback makes.
const MAX_STEPS_PER_TICK: usize = 100;
/// The speed a playback starts at (an index into [`SPEEDS`]).
const DEFAULT_SPEED: usize = 3;
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
    /// A solve runs in the background; Esc cancels it.
    Solving {
        /// The worker's id of the solve.
        id: u64,
        /// When it started.
        since: Instant,
    },
    /// The solver's solution is played back move by move.
    Replay(Replay),
    /// The list of keys is shown; any key closes it.
    Help,
    /// The game is over; [`App::run`] returns.
    Quit,
}

/// A playback of the solver's solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    moves: Vec<Move>,
    next: usize,
    paused: bool,
    due: Instant,
    optimal: bool,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
}

impl Replay {
    /// The solution's length.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the solution is empty.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Moves played so far.
    pub fn played(&self) -> usize {
        self.next
    }

    /// Whether the playback is paused.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether the solution is proven shortest.
    pub fn optimal(&self) -> bool {
        self.optimal
    }

    /// The algorithm (and heuristic) that found it, for the panel.
    pub fn method(&self) -> String {
        match self.heuristic {
            Some(h) => format!("{} + {}", self.algorithm.name(), h.name()),
            None => self.algorithm.name().to_string(),
        }
    }

    /// The move the playback makes next.
    pub fn upcoming(&self) -> Option<Move> {
        self.moves.get(self.next).copied()
    }
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

/// How far the goal is, as far as the game knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distance {
    /// Exactly this many moves (proven by the solver).
    Exact(usize),
    /// At least this many (the linear-conflict lower bound).
    AtLeast(usize),
    /// At least the first, and a solution of the second's length exists.
    Between(usize, usize),
    /// A solution of this length exists (a playback of a non-optimal solution).
    AtMost(usize),
}

impl std::fmt::Display for Distance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Distance::Exact(n) => write!(f, "{n}"),
            Distance::AtLeast(n) => write!(f, "≥ {n}"),
            Distance::Between(lo, hi) => write!(f, "{lo}–{hi}"),
            Distance::AtMost(n) => write!(f, "≤ {n}"),
        }
    }
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
    note: Option<(String, Tone)>,
    advice: Advice,
    show_hint: bool,
    lower_bound: u32,
    worker: Worker,
    speed: usize,
    assist: Assist,
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
            lower_bound: 0,
            worker: Worker::default(),
            speed: DEFAULT_SPEED,
            assist: Assist::None,
            slide: None,
        };
        app.position_changed();
        Ok(app)
    }

    /// The current mode.
    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The game in progress.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        self.game.board()
    }

    /// The styles in use.
    pub fn theme(&self) -> &Theme {
        &self.theme
    }

    /// The time the app last saw (set by [`App::tick`]).
    pub fn now(&self) -> Instant {
        self.now
    }

    /// The note under the panel, if any.
    pub fn note(&self) -> Option<(&str, Tone)> {
        self.note.as_ref().map(|(text, tone)| (text.as_str(), *tone))
    }

    /// Whether the arrows move the blank (true) or the tiles (false).
    pub fn moves_blank(&self) -> bool {
        self.move_blank
    }

    /// Who helped with the current game.
    pub fn assist(&self) -> Assist {
        self.assist
    }

    /// The playback speed in moves per second.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// The hint to show, if the player asked for one and it is ready: `Ok(None)` at the goal.
    pub fn hint(&self) -> Option<Result<Option<Hint>, &str>> {
        if !self.show_hint {
            return None;
        }
        match &self.advice {
            Advice::Ready(hint) => Some(Ok(*hint)),
            Advice::Failed(why) => Some(Err(why)),
            Advice::Unknown | Advice::Pending(_) => None,
        }
    }

    /// Whether a hint was asked for and is still being worked out.
    pub fn hint_pending(&self) -> bool {
        self.show_hint && matches!(self.advice, Advice::Pending(_))
    }

    /// The distance to the goal as far as it is known.
    pub fn distance(&self) -> Distance {
        if let Mode::Replay(r) = &self.mode {
            let left = r.len() - r.played();
            return if r.optimal { Distance::Exact(left) } else { Distance::AtMost(left) };
        }
        let low = self.lower_bound as usize;
        match &self.advice {
            _ if self.game.is_solved() => Distance::Exact(0),
            Advice::Ready(Some(h)) if h.optimal => Distance::Exact(h.distance),
            Advice::Ready(Some(h)) => Distance::Between(low, h.distance),
            _ => Distance::AtLeast(low),
        }
    }

    /// The tile to highlight: the hint's, or the one the playback moves next.
    pub fn next_tile(&self) -> Option<u16> {
        match &self.mode {
            Mode::Replay(r) => r.upcoming().and_then(|m| self.board().tile_for_move(m)),
            _ => match self.hint() {
                Some(Ok(Some(h))) => Some(h.tile),
                _ => None,
            },
        }
    }

    /// The tile the playback is sliding, if its slide is still under way. The playback
    /// slides its tiles at speeds up to [`MAX_SLIDING_SPEED`]; faster, tiles jump.
    pub fn slide(&self) -> Option<Slide> {
        let (tile, from, start, length) = self.slide?;
        let elapsed = self.now.checked_duration_since(start)?;
        (elapsed < length).then(|| Slide {
            tile,
            from: self.board().size().xy(from),
            progress: elapsed.as_secs_f32() / length.as_secs_f32(),
        })
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
            None if self.mode == Mode::Help && key.kind != KeyEventKind::Release => {
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
        match self.mode {
            Mode::Play => {}
            Mode::Replay(_) => self.stop_replay("playback stopped"),
            Mode::Help => {
                self.mode = Mode::Play;
                return;
            }
            Mode::Solving { .. } | Mode::Quit => return,
        }
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

    /// Advances time to `now`: collects the worker's answers and plays the next move of a
    /// playback when it is due.
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
            Mode::Replay(r) if !r.paused => {
                r.due.saturating_duration_since(self.now).clamp(FRAME_AT_SPEED, FRAME)
            }
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
        match (&self.mode, action) {
            (Mode::Quit, _) => {}
            (_, Action::Quit) => self.quit(),
            (Mode::Help, _) => self.mode = Mode::Play,
            (Mode::Solving { id, .. }, Action::Back) => {
                let id = *id;
                self.worker.cancel(id);
                self.mode = Mode::Play;
                self.say("solve cancelled", Tone::Info);
            }
            (Mode::Solving { .. }, _) => self.say("solving… Esc cancels", Tone::Info),
            (Mode::Replay(_), Action::Pause) => {
                if let Mode::Replay(r) = &mut self.mode {
                    r.paused = !r.paused;
                    r.due = self.now + interval(self.speed);
                }
            }
            (Mode::Replay(_), Action::Step) => {
                if let Mode::Replay(r) = &mut self.mode {
                    r.paused = true;
                    r.due = self.now;
                }
                self.step_replay();
            }
            (Mode::Replay(_), Action::More) => self.set_speed(self.speed + 1),
            (Mode::Replay(_), Action::Less) => self.set_speed(self.speed.saturating_sub(1)),
            (Mode::Replay(_), Action::Back | Action::Solve) => self.stop_replay("playback stopped"),
            (Mode::Replay(_), other) => {
                self.stop_replay("playback stopped");
                self.act(other);
            }
            (Mode::Play, action) => self.play(action),
        }
    }

    fn play(&mut self, action: Action) {
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
                if self.game.undo(self.now) {
                    self.position_changed();
                } else {
                    self.say("nothing to undo", Tone::Info);
                }
            }
            Action::Redo => {
                if self.game.redo(self.now) {
                    self.position_changed();
                } else {
                    self.say("nothing to redo", Tone::Info);
                }
            }
            Action::Scramble => {
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
            Action::More => self.resize(true),
            Action::Less => self.resize(false),
            Action::Hint => self.ask_hint(),
            Action::Solve => self.ask_solve(),
            Action::Pause | Action::Step => {
                self.say("space and . control the solver's playback: press s to solve", Tone::Info)
            }
            Action::Help => self.mode = Mode::Help,
            Action::Back | Action::Quit => self.quit(),
        }
    }

    /// Makes one gesture; returns whether it was legal.
    fn make(&mut self, moves: &[Move]) -> bool {
        if !self.game.play(moves, self.now) {
            return false;
        }
        self.position_changed();
        // The panel and the title show the solve; the note would only repeat them.
        true
    }

    /// Forgets what was known about the old position and starts finding out about the new.
    fn position_changed(&mut self) {
        if let Advice::Pending(id) = self.advice {
            self.worker.cancel(id);
        }
        self.advice = Advice::Unknown;
        self.show_hint = false;
        self.note = None;
        self.slide = None;
        let board = self.game.board();
        self.lower_bound =
            heuristic::estimate(HeuristicKind::LinearConflict, board, self.game.goal());
        let replaying = matches!(self.mode, Mode::Replay(_));
        if board.tiles().len() <= AUTO_DISTANCE_CELLS && !replaying {
            self.advice = Advice::Pending(self.worker.start(Task::Hint, board, self.game.goal()));
        }
    }

    fn new_game(&mut self, board: Board, goal: Board) {
        self.worker.cancel_all();
        self.game = Game::new(board, goal);
        self.assist = Assist::None;
        self.position_changed();
    }

    fn resize(&mut self, grow: bool) {
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
        // A named goal exists for every size.
        let Ok(goal) = self.goal.board(new) else { return };
        let board = scramble(&mut self.scrambler, &goal);
        self.new_game(board, goal);
        self.say(&format!("a new {new} board"), Tone::Info);
    }

    fn ask_hint(&mut self) {
        if self.game.is_solved() {
            self.say("the board is solved: press r for a new one", Tone::Info);
            return;
        }
        self.show_hint = true;
        self.assist = self.assist.max(Assist::Hints);
        if matches!(self.advice, Advice::Unknown | Advice::Failed(_)) {
            let id = self.worker.start(Task::Hint, self.game.board(), self.game.goal());
            self.advice = Advice::Pending(id);
        }
    }

    fn ask_solve(&mut self) {
        if self.game.is_solved() {
            self.say("the board is solved: press r for a new one", Tone::Info);
            return;
        }
        let id = self.worker.start(Task::Solve, self.game.board(), self.game.goal());
        self.mode = Mode::Solving { id, since: self.now };
        self.note = None;
    }

    fn receive(&mut self, done: crate::worker::Done) {
        match done.answer {
            Answer::Hint(answer) => {
                if self.advice != Advice::Pending(done.id) || done.board != *self.board() {
                    return;
                }
                self.advice = match answer {
                    Ok(hint) => Advice::Ready(hint),
                    Err(why) => Advice::Failed(why),
                };
            }
            Answer::Solve(answer) => {
                if !matches!(self.mode, Mode::Solving { id, .. } if id == done.id) {
                    return;
                }
                self.mode = Mode::Play;
                match answer {
                    // The board cannot change while solving; this only guards the playback.
                    Ok(_) if done.board != *self.board() => {}
                    Ok(solution) => {
                        let moves = solution.moves.as_slice().to_vec();
                        if let Some(&step) = moves.first() {
                            // The solve answers the hint for this position too.
                            if let Advice::Pending(id) = self.advice {
                                self.worker.cancel(id);
                            }
                            self.advice = Advice::Ready(Some(Hint {
                                step,
                                tile: self.board().tile_for_move(step).unwrap_or(0),
                                distance: moves.len(),
                                optimal: solution.optimal,
                            }));
                        }
                        self.mode = Mode::Replay(Replay {
                            moves,
                            next: 0,
                            paused: false,
                            due: self.now + interval(self.speed),
                            optimal: solution.optimal,
                            algorithm: solution.algorithm,
                            heuristic: solution.heuristic,
                        });
                    }
                    Err(why) => self.say(&why, Tone::Warn),
                }
            }
        }
    }

    /// Plays every move that is due by now: one per frame at slow speeds, many per frame at
    /// the fast ones (a frame is at least [`FRAME_AT_SPEED`]). A playback that fell far behind
    /// (a stalled machine) picks up from now instead of rushing to catch up.
    fn advance_replay(&mut self) {
        for _ in 0..MAX_STEPS_PER_TICK {
            match &self.mode {
                Mode::Replay(r) if !r.paused && self.now >= r.due => self.step_replay(),
                _ => return,
            }
        }
        if let Mode::Replay(r) = &mut self.mode {
            r.due = r.due.max(self.now);
        }
    }

    /// Plays the next move of the playback, and ends it at the goal.
    fn step_replay(&mut self) {
        let Mode::Replay(r) = &mut self.mode else { return };
        let Some(m) = r.upcoming() else { return };
        r.next += 1;
        r.due += interval(self.speed);
        let finished = r.next == r.moves.len();
        let (len, optimal) = (r.moves.len(), r.optimal);
        self.assist = Assist::Solver;
        if finished {
            self.mode = Mode::Play;
        }
        let from = self.board().target(m);
        let tile = self.board().tile_for_move(m);
        if self.game.play(&[m], self.now) {
            self.position_changed();
            let speed = SPEEDS[self.speed];
            if let (Some(from), Some(tile), true) = (from, tile, speed <= MAX_SLIDING_SPEED) {
                // Most of the time between two moves, so a tile arrives before the next
                // one leaves; at most 150 ms, so slow playbacks do not drag.
                let length = (interval(self.speed) * 2 / 3).min(Duration::from_millis(150));
                self.slide = Some((tile, from, self.now, length));
            }
        }
        if finished {
            let quality = if optimal { "optimal" } else { "not proven optimal" };
            let len = plural(len, "move");
            self.say(&format!("the solver finished: {len} ({quality})"), Tone::Good);
        }
    }

    fn stop_replay(&mut self, why: &str) {
        if matches!(self.mode, Mode::Replay(_)) {
            self.mode = Mode::Play;
            self.position_changed();
            self.say(why, Tone::Info);
        }
    }

    fn set_speed(&mut self, speed: usize) {
        self.speed = speed.min(SPEEDS.len() - 1);
        if let Mode::Replay(r) = &mut self.mode {
            r.due = r.due.min(self.now + interval(self.speed));
        }
    }

    fn say(&mut self, text: &str, tone: Tone) {
        self.note = Some((text.to_string(), tone));
    }
}

/// The time between two moves of a playback at speed index `speed`.
fn interval(speed: usize) -> Duration {
    Duration::from_secs(1) / SPEEDS[speed.min(SPEEDS.len() - 1)]
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
    use crossterm::event::{KeyCode, KeyModifiers};

    /// Long enough for any hint or solve these tests ask for (all instant in practice);
    /// only a hang would reach it.
    const PATIENCE: Duration = Duration::from_secs(60);

    fn app(board: &str) -> App {
        app_with(board, Goal::BlankLast)
    }

    fn app_with(board: &str, goal: Goal) -> App {
        let board: Board = board.parse().unwrap();
        let config = Config { size: board.size(), goal, board: Some(board), seed: 7, color: true };
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
    fn hint_shows_the_next_optimal_move_and_the_distance() {
        let mut a = app("8 6 7/2 5 4/3 0 1");
        assert_eq!(a.distance(), Distance::AtLeast(23));
        chars(&mut a, "h");
        assert_eq!(a.assist(), Assist::Hints);
        settle_until(&mut a, |a| a.hint().is_some());
        let hint = a.hint().unwrap().unwrap().unwrap();
        assert!(hint.optimal);
        assert_eq!(hint.distance, 31);
        assert_eq!(a.distance(), Distance::Exact(31));
        assert_eq!(a.next_tile(), Some(hint.tile));
        // Following the hint gets one closer; the hint itself goes away.
        let key = match hint.step {
            Move::Up => KeyCode::Up,
            Move::Down => KeyCode::Down,
            Move::Left => KeyCode::Left,
            Move::Right => KeyCode::Right,
        };
        press(&mut a, key);
        assert!(a.hint().is_none());
        settle_until(&mut a, |a| a.distance() == Distance::Exact(30));
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
        assert_eq!((replay.len(), replay.optimal()), (5, true));
        assert_eq!(a.distance(), Distance::Exact(5));
        assert_eq!(a.speed(), 5);
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
        chars(&mut a, "++");
        assert_eq!(a.speed(), 12);
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
        };
        let mut a = App::new(config, Instant::now()).unwrap();
        let start = a.now();
        chars(&mut a, "s");
        settle_until(&mut a, |a| matches!(a.mode(), Mode::Replay(_)));
        let Mode::Replay(replay) = a.mode() else { unreachable!() };
        let len = replay.len();
        assert!(len > 100, "a long, non-optimal solution: {len}");
        chars(&mut a, &"+".repeat(SPEEDS.len()));
        assert_eq!(a.speed(), 1000);
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
        assert!(matches!(a.mode(), Mode::Solving { .. }));
        press(&mut a, KeyCode::Esc);
        assert_eq!(a.mode(), &Mode::Play);
        assert_eq!(a.note(), Some(("solve cancelled", Tone::Info)));
        press(&mut a, KeyCode::Esc);
        assert_eq!(a.mode(), &Mode::Quit);
    }

    #[test]
    fn q_and_ctrl_c_quit_from_every_mode() {
        let mut a = app("1 2 3/4 0 5/7 8 6");
        chars(&mut a, "?");
        assert_eq!(a.mode(), &Mode::Help);
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
        };
        let err = App::new(config, Instant::now()).unwrap_err();
        assert!(matches!(err, StartError::Unsolvable(_)));
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_millis(83_456)), "1:23.4");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03.0");
    }
}
