//! The terminal game of `npuzzle play`: slide the tiles home, with hints, undo, and the
//! solver playing its solution back. Built on ratatui with crossterm.
//!
//! The conventions are npuzzle's (see `npuzzle-core`): boards are row-major with `0` as the
//! blank, and a move is named by the direction the **tile** slides. The arrows follow that
//! notation (→ slides the tile left of the blank to the right); `b` switches them to moving
//! the blank instead.
//!
//! The shape is the usual one of ratatui apps:
//! - [`App`] is the model, with an explicit [`Mode`] (playing, solving, a playback on the
//!   transport, showing the keys). It takes events and the time as inputs
//!   ([`App::handle_event`], [`App::tick`]), so tests drive it without a terminal;
//! - every playback is a [`Replay`], which owns its position and its timing (play/pause,
//!   a step either way, the speed, the progress) and only ever holds a solution that
//!   reaches the goal: the solver's after `s`, and, on the [`Card`] of a solved game, your
//!   solve at its real speed and the optimal one;
//! - the [`Distance`] to the goal is a lower bound at once and exact once proven, and stays
//!   known through undo and redo;
//! - drawing is `impl Widget for &App`, made of small widgets (the board, the panel, the
//!   list of keys), tested by rendering into a `Buffer`; every line fits the terminal's
//!   width down to 30x8;
//! - [`App::run`] is the event loop, and [`play`] wraps it in a terminal [`Session`] that is
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
//! use npuzzle_solver::Solver;
//! use npuzzle_tui::{App, Config};
//! use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
//!
//! let config = Config {
//!     size: "3x3".parse()?,
//!     goal: Goal::BlankLast,
//!     board: Some("1 2 3/4 5 6/7 0 8".parse()?),
//!     seed: 1,
//!     color: false,
//!     solver: Solver::shared().clone(),
//! };
//! let mut app = App::new(config, Instant::now())?;
//! app.handle_key(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)); // the 8 slides left
//! assert!(app.game().is_solved());
//! // The result card: one move, as few as the optimum's (known once the solver answers).
//! assert_eq!(app.card().map(|card| card.moves), Some(1));
//! let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
//! (&app).render(buf.area, &mut buf);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod app;
mod card;
mod distance;
mod game;
mod help;
mod hint;
mod keys;
mod layout;
mod replay;
mod terminal;
mod text;
mod theme;
mod ui;
mod worker;

use std::io;

pub use app::{App, Assist, Config, Mode, Slide, StartError, Tone};
pub use card::{Best, Card, Verdict};
pub use distance::Distance;
pub use game::Game;
pub use hint::{Hint, Neighbour};
pub use replay::{Replay, ReplayError, Source};
pub use terminal::Session;

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
