//! A fast, non-optimal solver for boards of any size and any goal: reduction.
//!
//! Optimal search stops being practical beyond 4x4; this solves 32x32 in a few hundredths of
//! a second, 100x100 in under one and 256x256 in about 6.5 CPU-seconds. The method is the one
//! people use by hand, with twists that matter for the length:
//!
//! 1. **Peel lines.** Place a whole outer row or column of the unsolved region, lock it, and
//!    shrink the region; never the line holding the goal blank's cell, so that the region
//!    left at the end holds it. Rows and columns alternate so that the region stays square,
//!    which suits `WxH` boards of any shape (2xN and Nx2 peel columns of two, resp. rows).
//!    Tiles are brought home one at a time: the blank walks around the tile through unlocked
//!    cells only, by an A* search (between two steps of a tile, within a 7x7 box round
//!    it), and tiles travel in diagonal staircases where they can (3 moves per cell
//!    instead of 5). The blank's walks are weighted: a step that pushes a
//!    tile away from its goal cell costs more than one that pushes it closer, so the blank
//!    tidies up on its way (a quarter fewer moves overall); pushing away a *hot* tile, one
//!    of the line being placed or of the next line, costs twice as much again, so that the
//!    blank, while it carries one tile, brings those it will need next closer rather than
//!    farther (3 % fewer moves). Each carried tile's **route is planned**: a dynamic
//!    programme over the box between the tile and its cell (up to 24 steps ahead along each
//!    axis, then again half-way, and again after the blank's first walk, which comes from
//!    afar; 12 on boards wider than 128) gives, for every cell and
//!    side of the blank behind the tile, the least weighted cost of the blank's walks round
//!    it (through the ring of 8 cells, on the board as it is) for the rest of a shortest
//!    route; each step then goes to whichever of the (at most two) closer cells costs least
//!    with its walk *plus* that cost to go. Where the greedy step took the cheapest walk
//!    now, the plan places the route's turns and straight stretches where the tiles the
//!    blank shifts on its way want to go: 4 % fewer moves on 32x32, 5 % on 100x100 and
//!    256x256 (for 10 % more time on 32x32, 40 % on 100x100 and 25 % on 256x256). The last two tiles of a line go
//!    in together (the classic trick, found by an exact search over both tiles and the
//!    blank in a small window, so the "second tile trapped in the corner" case needs no
//!    special code).
//! 2. **Finish optimally.** When at most 3x2 or 2x3 cells remain (3x3 in the anytime mode,
//!    whose tables take longer to build), the [`ExactTable`](crate::ExactTable) solves them.
//! 3. **Clean up.** Moves immediately undone are dropped, and every stretch where the blank
//!    stays in a small window is replaced by that window's optimal path when shorter (in
//!    the plain solve only for answers up to a million moves, about 70x70: it saves 0.15 %
//!    and costs as much time as the reduction).
//!
//! [`solve`] does this once, deterministically. [`solve_anytime`] then runs beam searches of
//! growing width over the choices of each line (which side to peel, in what order to fill
//! it, how to weigh the blank's walks), with heavier clean-up of the promising ones, until
//! its [`Budget`] runs out, and returns the shortest solution found.
//!
//! Solutions of [`solve`] are about 2.47 times the Manhattan lower bound
//! ([`manhattan_lower_bound`]) on random 32x32 boards (2.57 before the route plans), 2.63 on
//! 100x100 (2.78) and 2.70 on 256x256 (2.86); the anytime mode brings 32x32 to about 2.36 in
//! one second (2.44 before), and its first two beam searches without the heavy clean-up (what
//! `auto` runs on boards up to 50x50 with a side over 48, and where the near-optimal engine
//! did not get through in its short time on the others) to about 2.36 in 0.49 s (2.45 in
//! 0.39 s). The
//! crate's `reduction_quality` example measures it
//! (`cargo run --release -p npuzzle-solver --example reduction_quality -- 1 --auto --sizes 32`:
//! median and mean of 20 seeded boards, plain, anytime 1 s and `auto`).
//!
//! # Where the moves go, and what did not pay
//!
//! On a random 32x32 board (seed 0, before the clean-up, without hot tiles or route plans)
//! the 59,700 moves were: 20 % the blank fetching the next tile (taking 0.39 of Manhattan distance
//! off per move), 18 % the carried tiles' own moves (one each per cell, 1.0 per move), 47 %
//! the blank going round the carried tile between two of them (0.13 per move), and 15 % the
//! last pairs of the lines (0.33 per move). The blank's trips round the tile it carries are
//! what keeps the ratio far above 1.8: a tile carried straight costs 5 moves a cell, in a
//! staircase 3, and the tiles the blank shifts on the way go towards their cells barely
//! more often than away. Tried and measured (20 seeded 32x32 boards unless said):
//! - Reducing the Manhattan distance greedily over the whole board first (the best blank
//!   walk of up to 10 moves, by Manhattan distance taken off per move, with or without the
//!   squared distances): stuck after 20 to 110 moves every time. On a random board the
//!   tiles near an edge nearly all want to go inwards, so a blank that pushes tiles home
//!   drifts outwards, into a corner where every step pushes one away.
//! - Other step costs for the tiles that are not hot ((1, 6), (2, 10), (1, 4) with hot
//!   tiles): 1 to 4 % longer. More hot lines (3 or 4): the same.
//! - Choosing which end of a line to fill next by trying both (the moves made less twice
//!   the Manhattan distance taken off, `Strategy::trials` in `reduce.rs`) rather than by an
//!   estimate: 1 % shorter for twice the time (on 100x100, 0.4 % for three times): not in
//!   the plain solve; the anytime mode's beam uses it for the plain choices (1 s on 32x32:
//!   2.457 without, 2.442 with; in every child 2.454).
//! - With the route plans (plain solve, median of 20, 2.473 with them): other step costs,
//!   (1, 8) 2.481, (1, 14) 2.480, (2, 15) 2.486, hot (1, 31) 2.475, hot (1, 14) 2.490; the
//!   plan's cost to go weighed 0.5 to 2 times against the walk's: 2.479 to 2.485; the
//!   estimate of a tile's cost at 3 or 5 moves a cell instead of 4: 2.476, 2.486; hot
//!   tiles in 1 or 3 lines: 2.499, 2.480; the beam's `LOOKAHEAD` at 2.3 or 2.45 instead
//!   of 2.6 (`auto`): 2.370, 2.374 against 2.369. A tile's cost estimated as its
//!   carrying costs (`dx + dy + 4 max(dx, dy)` moves rather than `4 (dx + dy)`): plain
//!   2.468 (40 boards: 2.477 against 2.487; 64x64 2.571 against 2.577) but `auto` 2.372;
//!   the last pair's first window 3 deep rather than 2: 2.466 for 10 % more time, 4 deep
//!   2.474.
//! - The plans with the blank coming from afar (out of the 7x7 box, about once a tile):
//!   searching its walk to each of the two steps on its own and adding the plan's costs
//!   gave 2.464 (plain), but 10 % more time, and `auto` 2.367 against 2.369 for 16 % more;
//!   going on round the corner to the other step when the plan prefers it, 2.470. Neither
//!   kept; planning again after that walk is (2.473 -> 2.469, mean 2.483 -> 2.466; `auto`
//!   2.369 -> 2.363).
//! - Planning again after every step of the tile: 2.459 (plain) for 60 % more time; only
//!   within 5 steps ahead of the tile, where the blank's last walk changed the board:
//!   2.462, but `auto` 2.358 for 0.64 s against 2.363 for 0.49 s, and 100x100 2.630 for
//!   50 % more time against 2.625.
//! - Handing the last region to the near-optimal engine ([`crate::engine::near`]): it has
//!   no answer for a 10x10 board within a second (its full solve took 44 s, for 1,138
//!   moves against the reduction's 1,666), and the 6x6 it answers in 0.3 s (289 moves
//!   against 321) would save some 30 of the 55,000 moves of a 32x32.
//!
//! What remains for 1.8 times Manhattan on 32x32 is a way to carry tiles that does not cost
//! 2 to 4 blank moves per cell: the route plans make those moves tidy more (4 % fewer moves),
//! but a tile still travels at 3 moves a cell on a staircase and 5 on a straight stretch.
//! Several tiles carried together (a chain of `k` tiles moving along its own axis costs
//! `2 + 3 / k` moves per tile and cell) were not built. A search over whole-board states
//! that would find such moves itself was tried and does not get there, even with no time
//! limit (`near::peel::strips`, 2026-11-27): a beam over the rows left, until the next one
//! or two rows are home, ranked by `p x (4 x Manhattan + squared distances)` over the
//! strip's tiles, the same with weight 1 over the others and `5 x` the conflicts (with or
//! without a term for the blank's distance to the nearest strip tile not home), on 16x16
//! boards at widths of 100 and 1,000 and `p` from 1 to 100, and at 2,000 with `p` = 1,
//! never brought its strip home within 20,000 layers: with `p` large the strip's last
//! tiles stay out (their way in goes through the tiles already home, which the ranking
//! forbids, and a strip's sparse tiles leave the blank on plateaus), with `p` = 1 the beam
//! tidies the other tiles instead. On 6x6 it does get there (two seeded boards, strips of
//! one row at a width of 5,000, `p` = 1: 1.75 times Manhattan against the reduction's 2.61),
//! as the near-optimal engine's beams do on whole boards.
//!
//! A beam over whole boards does get there on 32x32, given the time (2026-11-28): the
//! near-optimal engine's beams went round with the blank in a corner from 18x18 on, and
//! held to spreading the blank over the board ([`crate::engine::near`]'s beams beyond
//! 12x12) they go through, for answers about 1.65 times the Manhattan distance on 32x32
//! (README, issue 19's figures). But in most of a minute: they copy 2 KB a node and a
//! layer, for some 35,000 layers, and within the second the engine has no answer as short
//! as this solver's. Within a second, 32x32 stays with this solver.
//!
//! # Example
//! ```
//! use npuzzle_core::{Goal, Scrambler, Size};
//! use npuzzle_solver::engine::reduction;
//! let goal = Goal::Snail.board(Size::new(12, 7)?)?;
//! let board = Scrambler::new(1).solvable(&goal);
//! let moves = reduction::solve(&board, &goal)?;
//! let mut end = board.clone();
//! end.apply_all(&moves)?;
//! assert_eq!(end, goal);
//! assert!(moves.len() as u64 >= reduction::manhattan_lower_bound(&board, &goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod beam;
mod grid;
mod peephole;
mod reduce;
mod rng;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use npuzzle_core::{Board, Move, Moves, Parity, Size};
use thiserror::Error;

use peephole::Effort;
use reduce::{Failure, GoalInfo, Strategy};

use crate::tables::SolverTables;
use rng::SplitMix;

/// Why the reduction solver returned no solution.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReductionError {
    /// The goal is not the size of the board.
    #[error("goal is {goal} but the board is {board}")]
    SizeMismatch {
        /// The board's size.
        board: Size,
        /// The goal's size.
        goal: Size,
    },
    /// The board cannot reach the goal (checked before anything else is done).
    #[error("the board cannot reach the goal: {0}")]
    Unsolvable(Parity),
    /// [`solve_anytime`] only: the budget ran out, or the cancel flag was raised, before a
    /// first solution was complete (the first solution takes about 0.7 s on 100x100).
    #[error("no solution yet when the time budget ran out or the search was cancelled")]
    Interrupted,
    /// The solver found no way forward or produced a wrong sequence. This is a bug: the
    /// method works on every solvable board. Please report the board.
    #[error("internal error: the reduction solver failed on this board (please report it)")]
    Internal,
}

/// How long [`solve_anytime`] may run: until a deadline, or until a flag is raised.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Stop improving at this instant.
    pub deadline: Instant,
    /// Stop improving as soon as this is `true` (for example when a web client goes away).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget ending at `deadline`, with no cancel flag.
    pub fn until(deadline: Instant) -> Budget {
        Budget { deadline, cancel: None }
    }

    /// A budget of `duration` from now. A duration too large to represent means "one year".
    pub fn for_duration(duration: Duration) -> Budget {
        let now = Instant::now();
        let deadline = now
            .checked_add(duration)
            .or_else(|| now.checked_add(Duration::from_secs(365 * 24 * 3600)))
            .unwrap_or(now);
        Budget::until(deadline)
    }

    /// The same budget, also stopped when `flag` becomes `true`.
    pub fn with_cancel(mut self, flag: Arc<AtomicBool>) -> Budget {
        self.cancel = Some(flag);
        self
    }

    /// Whether the deadline has passed or the flag is raised.
    pub fn expired(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
            || Instant::now() >= self.deadline
    }
}

/// What [`solve_anytime`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnytimeReport {
    /// The shortest solution found.
    pub moves: Moves,
    /// The length of the first solution: the one [`solve`] returns (or a little longer if
    /// the budget ran out during its clean-up).
    pub first_length: usize,
    /// The Manhattan lower bound of the board ([`manhattan_lower_bound`]).
    pub lower_bound: u64,
    /// Complete solutions made: the plain one, then one per beam search.
    pub attempts: u64,
    /// How many times a shorter solution was found after the first.
    pub improvements: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// The sum over all tiles (not the blank) of the taxicab distance to the tile's goal cell: a
/// lower bound on the length of any solution. 0 when the sizes differ.
///
/// # Examples
/// ```
/// use npuzzle_solver::engine::reduction::manhattan_lower_bound;
/// let board = "1 2 3/4 5 6/0 7 8".parse()?;
/// let goal = "1 2 3/4 5 6/7 8 0".parse()?;
/// assert_eq!(manhattan_lower_bound(&board, &goal), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn manhattan_lower_bound(board: &Board, goal: &Board) -> u64 {
    if board.size() != goal.size() {
        return 0;
    }
    let w = board.width();
    let home = goal.positions();
    board
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(i, &t)| grid::dist(w, i, home[usize::from(t)]) as u64)
        .sum()
}

/// Checks the request: same size, solvable.
fn check(board: &Board, goal: &Board) -> Result<(), ReductionError> {
    if board.size() != goal.size() {
        return Err(ReductionError::SizeMismatch { board: board.size(), goal: goal.size() });
    }
    let parity = Parity::of(board, goal);
    if !parity.solvable() {
        return Err(ReductionError::Unsolvable(parity));
    }
    Ok(())
}

/// Whether `moves` take `board` to `goal`.
fn replays(board: &Board, goal: &Board, moves: &[Move]) -> bool {
    let mut b = board.clone();
    b.apply_all(&Moves(moves.to_vec())).is_ok() && &b == goal
}

/// A solution from `board` to `goal` (any goal: blank-last, blank-first, snail or any
/// explicit board of the same size), found by reduction and cleaned up. Not optimal, but
/// fast: about 27 ms for a random 32x32, 0.45 s for 100x100 and 6.5 s for 256x256
/// (median of 20, 5 and 1 seeded boards with the `reduction_quality` example and
/// `npuzzle solve`, on a shared and busy 2-core machine).
/// Deterministic.
///
/// # Errors
/// [`ReductionError::SizeMismatch`] when the sizes differ, [`ReductionError::Unsolvable`]
/// when the board cannot reach the goal, and [`ReductionError::Internal`] never (it would be
/// a bug; the solution is checked by replaying it before it is returned).
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal};
/// use npuzzle_solver::engine::reduction;
/// let board: Board = "2 3 4 8/1 6 7 12/5 10 11 0/9 13 14 15".parse()?;
/// let goal = Goal::BlankLast.board(board.size())?;
/// let moves = reduction::solve(&board, &goal)?;
/// let mut end = board.clone();
/// end.apply_all(&moves)?;
/// assert_eq!(end, goal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn solve(board: &Board, goal: &Board) -> Result<Moves, ReductionError> {
    solve_in(crate::Solver::shared().tables(), board, goal)
}

/// [`solve`] with the tables of a [`crate::Solver`].
pub(crate) fn solve_in(
    tables: &Arc<SolverTables>,
    board: &Board,
    goal: &Board,
) -> Result<Moves, ReductionError> {
    check(board, goal)?;
    let info = Arc::new(GoalInfo::new(goal, Arc::clone(tables)));
    let moves = attempt(board, goal, &info, Strategy::PLAIN, 0, Effort::LIGHT, &|| false)?;
    Ok(Moves(moves))
}

/// [`solve_in`] held to `budget`: [`ReductionError::Interrupted`] when it runs out during
/// the reduction itself; when it runs out during the clean-up, the answer is returned as
/// far as it was cleaned up (every step of the clean-up keeps a valid solution).
pub(crate) fn solve_within(
    tables: &Arc<SolverTables>,
    board: &Board,
    goal: &Board,
    budget: &Budget,
) -> Result<Moves, ReductionError> {
    check(board, goal)?;
    let info = Arc::new(GoalInfo::new(goal, Arc::clone(tables)));
    let interrupted = || budget.expired();
    let moves = attempt(board, goal, &info, Strategy::PLAIN, 0, Effort::LIGHT, &interrupted)?;
    Ok(Moves(moves))
}

/// The reduction's plain solve held to `budget`, stopped when the region it has left has at
/// most `cells` cells: its moves (cleaned up as [`solve`]'s: the clean-up keeps where a
/// path ends), and that region as a board of its own and its goal, each tile renamed after
/// its goal cell's rank among the region's. A path between those two, after the moves,
/// takes the board to its goal (a move in the region is the same move on the board).
pub(crate) fn peel_to(
    board: &Board,
    goal: &Board,
    cells: usize,
    budget: &Budget,
) -> Result<(Moves, Board, Board), ReductionError> {
    check(board, goal)?;
    let info = Arc::new(GoalInfo::new(goal, Arc::clone(crate::Solver::shared().tables())));
    let interrupted = || budget.expired();
    let (moves, region, region_goal) = reduce::reduce_to(board, &info, cells, &interrupted)
        .map_err(|e| match e {
            Failure::Interrupted => ReductionError::Interrupted,
            Failure::Stuck => ReductionError::Internal,
        })?;
    let moves = peephole::optimise(board, moves, Effort::LIGHT, &info.tables, &interrupted);
    Ok((Moves(moves), region, region_goal))
}

/// One reduction with `strategy`, cleaned up with `effort`, checked.
fn attempt(
    board: &Board,
    goal: &Board,
    info: &Arc<GoalInfo>,
    strategy: Strategy,
    seed: u64,
    effort: Effort,
    interrupted: &dyn Fn() -> bool,
) -> Result<Vec<Move>, ReductionError> {
    let mut rng = SplitMix::new(seed);
    let moves =
        reduce::reduce(board, info, strategy, &mut rng, interrupted).map_err(|e| match e {
            Failure::Interrupted => ReductionError::Interrupted,
            Failure::Stuck => ReductionError::Internal,
        })?;
    let moves = peephole::optimise(board, moves, effort, &info.tables, interrupted);
    if replays(board, goal, &moves) { Ok(moves) } else { Err(ReductionError::Internal) }
}

/// Like [`solve`], then keeps looking for shorter solutions until `budget` runs out, and
/// returns the shortest found (never longer than [`solve`]'s).
///
/// After the plain solution, each attempt is a beam search over
/// the reduction's choices line by line (the side peeled among those allowed, the order in
/// which the line is filled, the weights of the blank's walks, ties between tile routes),
/// keeping the partial solutions with the fewest moves plus 2.6 times the Manhattan distance
/// left; each attempt is wider than the one before, and its answer gets the heavier clean-up
/// (3x3, 4x2 and 2x4 windows) when it is within 0.5 % of the best. The attempts are seeded, so for a given
/// number of attempts the result is reproducible; how many fit in the budget depends on the
/// machine.
///
/// The first solution is always completed unless the budget runs out during it. The budget
/// is polled between lines and every 65,536 moves of the clean-up, so the call returns
/// within a few tens of milliseconds of the deadline on boards up to 256x256 (a line of a
/// 256x256 board takes about 15 ms).
///
/// # Errors
/// As [`solve`], and [`ReductionError::Interrupted`] when the budget runs out before the
/// first solution is complete.
pub fn solve_anytime(
    board: &Board,
    goal: &Board,
    budget: Budget,
) -> Result<AnytimeReport, ReductionError> {
    solve_anytime_in(crate::Solver::shared().tables(), board, goal, budget, None)
}

/// [`solve_anytime`] with the tables of a [`crate::Solver`]; with `beams`, it also stops
/// after that many beam searches (so that its answer does not depend on the machine).
pub(crate) fn solve_anytime_in(
    tables: &Arc<SolverTables>,
    board: &Board,
    goal: &Board,
    budget: Budget,
    beams: Option<u64>,
) -> Result<AnytimeReport, ReductionError> {
    let started = Instant::now();
    check(board, goal)?;
    let info = Arc::new(GoalInfo::new(goal, Arc::clone(tables)));
    let interrupted = || budget.expired();
    let first = attempt(board, goal, &info, Strategy::PLAIN, 0, Effort::LIGHT, &interrupted)?;
    let first_length = first.len();
    let mut best = first;
    let mut attempts = 1u64;
    let mut improvements = 0u64;
    let mut consider = |moves: Vec<Move>, best: &mut Vec<Move>| {
        if moves.len() < best.len() {
            *best = moves;
            improvements += 1;
        }
    };
    // Beam searches of growing width, each seeded differently, until the budget runs out
    // or an answer reaches the lower bound (then it is optimal: nothing shorter exists).
    let lower_bound = manhattan_lower_bound(board, goal);
    let mut seed = 1u64;
    let mut width = 2usize;
    while !budget.expired()
        && best.len() as u64 > lower_bound
        && beams.is_none_or(|max| attempts <= max)
    {
        let children = (width + 2).min(12);
        match beam::search(board, &info, width, children, seed, &interrupted) {
            Ok(moves) => {
                attempts += 1;
                // The heavy clean-up saves a quarter of a percent and takes longer than the
                // beam itself (half a second on 32x32): only for answers that it could make
                // the best, and not in a given number of beams (`auto`'s), which are meant
                // to be quick.
                let mut moves =
                    peephole::optimise(board, moves, Effort::LIGHT, tables, &interrupted);
                if beams.is_none() && moves.len() <= best.len() + best.len() / 200 {
                    moves = peephole::optimise(board, moves, Effort::HEAVY, tables, &interrupted);
                }
                if replays(board, goal, &moves) {
                    consider(moves, &mut best);
                }
            }
            Err(Failure::Interrupted) => break,
            // A search gone wrong (a bug) is only wasted time: the best so far stands.
            Err(Failure::Stuck) => {}
        }
        seed += 1;
        width = (width * 3 / 2).min(64);
    }
    Ok(AnytimeReport {
        moves: Moves(best),
        first_length,
        lower_bound,
        attempts,
        improvements,
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::{Goal, Scrambler};

    fn replay_ok(board: &Board, goal: &Board, moves: &Moves) -> bool {
        replays(board, goal, moves.as_slice())
    }

    #[test]
    fn small_shapes_and_all_goals() {
        let mut s = Scrambler::new(3);
        for (w, h) in
            [(2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (4, 4), (5, 2), (2, 5), (4, 3), (3, 4)]
        {
            let size = Size::new(w, h).unwrap();
            for goal in [Goal::BlankLast, Goal::BlankFirst, Goal::Snail] {
                let g = goal.board(size).unwrap();
                for _ in 0..30 {
                    let b = s.solvable(&g);
                    let m = solve(&b, &g).unwrap_or_else(|e| panic!("{e}: {b} -> {g}"));
                    assert!(replay_ok(&b, &g, &m), "{b} -> {g}");
                }
            }
        }
    }

    #[test]
    fn cancel_drops_undone_moves() {
        let mut m: Vec<Move> = "RULDDURL".parse::<Moves>().unwrap().0;
        peephole::cancel(&mut m);
        assert_eq!(Moves(m).to_string(), "RULD");
    }

    #[test]
    fn window_pass_keeps_the_end_and_shortens_a_detour() {
        let goal = Goal::BlankLast.board(Size::square(5).unwrap()).unwrap();
        // A loop of the blank around a 2x2 block, three times: the identity on 12 moves.
        let detour: Moves = "DRULDRULDRUL".parse().unwrap();
        let mut start = goal.clone();
        start.apply_all(&detour.inverse()).unwrap();
        start.apply_all(&detour).unwrap();
        let mut moves = detour.0.clone();
        moves.extend(detour.0.iter().copied());
        let out =
            peephole::optimise(&start, moves, Effort::HEAVY, &SolverTables::default(), &|| false);
        assert!(out.is_empty(), "{}", Moves(out));
    }

    #[test]
    fn unsolvable_and_mismatched_are_refused() {
        let g = Goal::BlankLast.board(Size::square(5).unwrap()).unwrap();
        let b = Scrambler::new(9).unsolvable(&g);
        assert!(matches!(solve(&b, &g), Err(ReductionError::Unsolvable(_))));
        let other = Goal::BlankLast.board(Size::new(5, 4).unwrap()).unwrap();
        assert!(matches!(solve(&b, &other), Err(ReductionError::SizeMismatch { .. })));
    }
}
