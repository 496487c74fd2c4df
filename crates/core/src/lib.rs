//! The sliding-tile puzzle model: boards of any size, goals, moves, their text forms,
//! solvability and scrambling. No I/O, no search (see `npuzzle-search` and `npuzzle-solver`).
//!
//! # Conventions
//! These hold everywhere in npuzzle: in the library, the command line, JSON and the web API.
//!
//! - A board is **row-major**; `0` is the **blank**. A size is written `WxH`, width first
//!   (`4x4`, `5x3`). Both sides are 2 to 256.
//! - **Text form** of a board: rows separated by `/`, cells by spaces: `8 6 7/2 5 4/3 0 1`.
//!   Input also accepts newlines for `/`, commas (or tabs) for spaces, a flat list of N*N
//!   numbers for square boards, the 42-style file (a line with the side N, then N rows), and
//!   `#` comments. See [`parse_board`] and [`parse_input`].
//! - **Goals** ([`Goal`]): `blank-last` (default, `1 2 3/4 5 6/7 8 0`), `blank-first`
//!   (`0 1 2/3 4 5/6 7 8`, the goal of Korf's research instances), `snail` (clockwise
//!   spiral, `1 2 3/8 0 4/7 6 5`), or any explicit board. Solvability is always decided
//!   relative to the chosen goal ([`Board::is_solvable`], [`Parity`]).
//! - **Moves** ([`Move`], [`Moves`]): one letter per move, `U D L R`, naming the direction
//!   the **tile** moves: `R` slides the tile left of the blank to the right. Compact text
//!   uses counts (`R2U2LD`); input accepts both. A move can also be named by the tile it
//!   slides ([`Board::moves_for_tiles`], [`Board::tiles_moved`]).
//! - One move is one tile slid one cell (the single-tile metric).
//!
//! # Example
//! ```
//! use npuzzle_core::{Board, Goal, Moves};
//! let mut board: Board = "1 2 3/4 5 6/0 7 8".parse()?;
//! let goal = Goal::BlankLast.board(board.size())?;
//! assert!(board.is_solvable(&goal));
//! board.apply_all(&"LL".parse::<Moves>()?)?;
//! assert_eq!(board, goal);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod board;
mod goal;
mod moves;
mod parse;
mod scramble;
mod size;
mod solvable;

pub use board::{Board, BoardError};
pub use goal::{Goal, GoalError};
pub use moves::{Move, MoveError, Moves, Perspective};
pub use parse::{InputError, Instance, Instances, parse_board, parse_input, parse_instances};
pub use scramble::Scrambler;
pub use size::{Size, SizeError};
pub use solvable::Parity;
