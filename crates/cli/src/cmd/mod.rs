//! One module per command: each parses nothing (that is [`crate::args`]) and runs its
//! command through the one [`Solver`](npuzzle_solver::Solver) that [`pdb::solver`] makes.

pub mod bench;
pub mod check;
pub mod hint;
pub mod pdb;
pub mod play;
pub mod scramble;
pub mod serve;
pub mod solve;
