//! Hints: every legal move with the distance to the goal after it, for the games' Hint
//! buttons and `npuzzle hint`.

use npuzzle_core::{Board, Move};

use crate::error::SolveError;
use crate::heuristic::{GoalMap, HeuristicKind};
use crate::options::Options;
use crate::solution::{Solution, Status};
use crate::solver::Solver;

/// One legal move and where it leads.
#[derive(Clone, Debug, PartialEq)]
pub struct HintMove {
    /// The move (tile direction).
    pub direction: Move,
    /// The tile it slides.
    pub tile: u16,
    /// The distance to the goal after the move: exact when [`HintMove::exact`], otherwise a
    /// lower-bound estimate (linear conflict); `None` when the board is unsolvable.
    pub distance: Option<u64>,
    /// Whether `distance` is the proven optimal distance.
    pub exact: bool,
}

/// The answer of [`hint`].
#[derive(Clone, Debug, PartialEq)]
pub struct Hint {
    /// The move to make: the first of an optimal solution when [`Hint::exact`], otherwise
    /// the first of the best solution found (`None` when solved already, unsolvable, or
    /// stopped by a limit).
    pub best: Option<Move>,
    /// The board's distance to the goal: optimal when [`Hint::exact`], otherwise the length
    /// of the solution found (`None` when none was found).
    pub distance: Option<u64>,
    /// Whether `best` and `distance` are proven optimal.
    pub exact: bool,
    /// Every legal move, in the order of [`Move::ALL`], with the distance after it.
    pub moves: Vec<HintMove>,
    /// The solve of the board that the hint comes from.
    pub solution: Solution,
}

impl Solver {
    /// Every legal move of `board` with the distance to `goal` after it, and the best move.
    ///
    /// Optimal where that is cheap: instant on boards of at most 9 cells (the exact table),
    /// through an optimal solve of the board and its neighbours on boards of at most 16 cells
    /// (under `options`' limits); on larger boards the first move of the answer `options`
    /// give (with `auto`, the near-optimal engine's from 17 cells up to 64x64, else the
    /// reduction solver's), with linear-conflict estimates, all marked not exact.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal};
    /// use npuzzle_solver::{Options, Solver};
    /// let board: Board = "1 2 3/4 5 6/7 0 8".parse()?;
    /// let goal = Goal::BlankLast.board(board.size())?;
    /// let hint = Solver::new().hint(&board, &goal, &Options::default())?;
    /// assert_eq!(hint.best.map(|m| m.letter()), Some('L'));
    /// assert_eq!((hint.distance, hint.exact), (Some(1), true));
    /// // Three legal moves: tile 8 left (solves it), tile 5 down, tile 7 right.
    /// assert_eq!(hint.moves.iter().map(|m| m.distance).collect::<Vec<_>>(), [Some(2), Some(0), Some(2)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn hint(&self, board: &Board, goal: &Board, options: &Options) -> Result<Hint, SolveError> {
        self.hint_with(board, goal, options, 16)
    }

    /// The best move with one solve: as [`Solver::hint`], but the other moves' distances
    /// are exact only up to 9 cells (the exact table); above that they are lower bounds, the
    /// larger of the linear-conflict estimate and the board's distance less one (a move
    /// changes the distance by exactly one). On 4x4 boards this answers in the time of one
    /// optimal solve instead of one per legal move (up to 5.6 s measured before).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    ///
    /// # Examples
    /// ```
    /// use npuzzle_core::{Board, Goal};
    /// use npuzzle_solver::{Options, Solver};
    /// let board: Board = "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12".parse()?;
    /// let goal = Goal::BlankLast.board(board.size())?;
    /// let hint = Solver::new().best_move_hint(&board, &goal, &Options::default())?;
    /// assert_eq!((hint.best.map(|m| m.letter()), hint.distance, hint.exact), (Some('L'), Some(2), true));
    /// // The best move's distance is exact, the others' are lower bounds.
    /// assert!(hint.moves.iter().all(|m| m.exact == (m.direction.letter() == 'L')));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn best_move_hint(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
    ) -> Result<Hint, SolveError> {
        self.hint_with(board, goal, options, 9)
    }

    /// A hint that solves the neighbours too on boards of at most `solve_neighbours` cells.
    fn hint_with(
        &self,
        board: &Board,
        goal: &Board,
        options: &Options,
        solve_neighbours: usize,
    ) -> Result<Hint, SolveError> {
        let solution = self.solve(board, goal, options)?;
        let solved = solution.status == Status::Solved;
        let best = solution.moves.as_slice().first().copied().filter(|_| solved);
        let distance = solved.then(|| solution.moves.len() as u64);
        let exact = solved && solution.optimal;
        let small = board.tiles().len() <= solve_neighbours;
        let map = GoalMap::new(goal);
        // The neighbours that need a solve of their own are solved at once, one thread each
        // (two or three on a 4x4, each as long as the board's own solve).
        let needs_solve = |direction: Move| {
            exact && small && Some(direction) != best && board.moved(direction).is_some()
        };
        // They share the memory limit.
        let count = Move::ALL.into_iter().filter(|&d| needs_solve(d)).count().max(1);
        let mut shared = options.clone();
        shared.limits.max_memory = options.limits.max_memory.map(|m| m / count);
        let shared = &shared;
        let solved_children: Vec<(Move, Result<Solution, SolveError>)> = std::thread::scope(|s| {
            let handles: Vec<_> = Move::ALL
                .into_iter()
                .filter(|&d| needs_solve(d))
                .map(|d| {
                    let child = board.moved(d).expect("a legal move");
                    (d, s.spawn(move || self.solve(&child, goal, shared)))
                })
                .collect();
            handles
                .into_iter()
                .map(|(d, h)| {
                    let answer = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                    (d, answer)
                })
                .collect()
        });
        let mut solved_children = solved_children.into_iter();
        let mut moves = Vec::new();
        for direction in Move::ALL {
            let Some(child) = board.moved(direction) else { continue };
            let tile = board.tile_for_move(direction).unwrap_or(0);
            let estimate = || {
                let h = u64::from(map.estimate(HeuristicKind::LinearConflict, child.tiles()));
                // With the board's exact distance d, a neighbour is at least d - 1 away.
                let floor = distance.filter(|_| exact).map_or(0, |d| d.saturating_sub(1));
                (Some(h.max(floor)), false)
            };
            let (distance, exact) = match (distance, exact) {
                (None, _) if solution.status == Status::Unsolvable => (None, false),
                (Some(d), true) if Some(direction) == best => (Some(d - 1), true),
                (Some(_), true) if small => {
                    let (d, after) = solved_children.next().expect("one solve per neighbour");
                    debug_assert_eq!(d, direction);
                    let after = after?;
                    if after.status == Status::Solved && after.optimal {
                        (Some(after.moves.len() as u64), true)
                    } else {
                        (after.lower_bound, false)
                    }
                }
                _ => estimate(),
            };
            moves.push(HintMove { direction, tile, distance, exact });
        }
        Ok(Hint { best, distance, exact, moves, solution })
    }
}

/// [`Solver::hint`] with the process's shared [`Solver`].
///
/// # Errors
/// As [`Solver::solve`].
pub fn hint(board: &Board, goal: &Board, options: &Options) -> Result<Hint, SolveError> {
    Solver::shared().hint(board, goal, options)
}
