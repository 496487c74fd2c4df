//! The terminal game of `npuzzle play`: slide the tiles home, with hints, undo, and the
//! solver playing its solution back. Built on ratatui with crossterm.
//!
//! The conventions are npuzzle's (see `npuzzle-core`): boards are row-major with `0` as the
//! blank, and a move is named by the direction the **tile** slides. The arrows follow that
//! notation (→ slides the tile left of the blank to the right); `b` switches them to moving
//! the blank instead.
//!
//! The shape is the usual one of ratatui apps:
//! - [`App`] is the model, with an explicit [`Mode`] (playing, solving, playing a solution
//!   back, showing the keys). It takes events and the time as inputs
//!   ([`App::handle_event`], [`App::tick`]), so tests drive it without a terminal;
//! - drawing is `impl Widget for &App`, made of small widgets ([`BoardView`], [`HelpView`]),
//!   tested by rendering into a `Buffer`;
//! - [`App::run`] is the event loop, and [`play`] wraps it in a terminal session that is
//!   always restored: on quit, on error, on panic, on Ctrl-C and on SIGTERM.
//!
//! Solving never blocks the screen: hints and solves run on their own threads under time
//! and memory limits, with a cancel flag (see `worker.rs`).
//!
//! # Example
//! ```
//! use std::time::Instant;
//! use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
//! use npuzzle_core::Goal;
//! use npuzzle_tui::{App, Config};
//! use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
//!
//! let config = Config {
//!     size: "3x3".parse()?,
//!     goal: Goal::BlankLast,
//!     board: Some("1 2 3/4 5 6/7 0 8".parse()?),
//!     seed: 1,
//!     color: false,
//! };
//! let mut app = App::new(config, Instant::now())?;
//! app.handle_key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)); // the 8 slides left
//! assert!(app.game().is_solved());
//! let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
//! (&app).render(buf.area, &mut buf);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod app;
mod game;
mod hint;
mod keys;
mod layout;
mod terminal;
mod theme;
mod ui;
mod worker;

use std::io;

pub use app::{
    App, Assist, Config, Distance, MAX_SLIDING_SPEED, Mode, Replay, SPEEDS, Slide, StartError,
    Tone, clock,
};
pub use game::Game;
pub use hint::{HINT_TIMEOUT, Hint, hint};
pub use keys::{Action, Direction, action};
pub use layout::{Grid, Screen};
pub use terminal::{Input, Session, restore, wait_for_input};
pub use theme::Theme;
pub use ui::{BoardView, HelpView, KEYS};
pub use worker::SOLVE_TIMEOUT;

/// Plays the game in this terminal until the player quits. The terminal is restored on
/// every way out.
///
/// # Errors
/// [`io::Error`] when the terminal cannot be set up, drawn on or read from; an invalid
/// `config` is reported as [`io::ErrorKind::InvalidInput`] (use [`App::new`] first to get
/// the typed [`StartError`]).
pub fn play(config: Config) -> io::Result<()> {
    let mut app = App::new(config, std::time::Instant::now())
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let mut session = Session::start()?;
    let stop = std::sync::Arc::clone(&session.stop);
    app.run(&mut session.terminal, &stop)
}
