//! Hints: every legal move with the distance to the goal after it, for the games' Hint
//! buttons and `npuzzle hint`.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use npuzzle_core::{Board, Move};

use crate::error::SolveError;
use crate::heuristic::{GoalMap, HeuristicKind};
use crate::options::{Algorithm, Heuristic, Options};
use crate::solution::{Note, Solution, Stats, Status};
use crate::solver::Solver;
use crate::watch::{Request, Watcher};

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
        self.hint_solving(&Request::new(board, goal, options), 16, &mut ())
    }

    /// [`Solver::hint`], telling `watcher` what the board's own solve finds and proves as it
    /// goes, as [`Solver::solve_with`] does: on big boards a hint is a near-optimal solve of
    /// seconds, and the games show its best path so far and its bound while it runs. A
    /// watcher's [`Flow::Stop`](npuzzle_search::Flow::Stop) (or the limits' cancel flag) ends
    /// it with the first move of the best path found so far.
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn hint_with<W: Watcher>(
        &self,
        request: &Request<'_>,
        watcher: &mut W,
    ) -> Result<Hint, SolveError> {
        self.hint_solving(request, 16, watcher)
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
        self.hint_solving(&Request::new(board, goal, options), 9, &mut ())
    }

    /// [`Solver::best_move_hint`], telling `watcher` what the solve finds and proves as it
    /// goes (see [`Solver::hint_with`]).
    ///
    /// # Errors
    /// As [`Solver::solve`].
    pub fn best_move_hint_with<W: Watcher>(
        &self,
        request: &Request<'_>,
        watcher: &mut W,
    ) -> Result<Hint, SolveError> {
        self.hint_solving(request, 9, watcher)
    }

    /// A hint that solves the neighbours too on boards of at most `solve_neighbours` cells;
    /// `watcher` hears the board's own solve.
    fn hint_solving<W: Watcher>(
        &self,
        request: &Request<'_>,
        solve_neighbours: usize,
        watcher: &mut W,
    ) -> Result<Hint, SolveError> {
        let Request { board, goal, options } = *request;
        let solution = self.solve_with(request, watcher)?;
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

/// The path an earlier hint found, so that the hints along it answer at once.
///
/// On boards of more than 16 cells a hint is a search of seconds (the near-optimal engine's
/// first move, not proven optimal), and a new search from the position a followed hint leads
/// to may answer with another path, even a longer one: the moves to go would go up by a
/// move the player was told to make. A trail keeps the first path: [`Trail::hint`] answers
/// for every position along it with the rest of it (one move shorter each move), its lower
/// bound the first's less the moves made (a move changes the distance by exactly one) or
/// the position's linear-conflict estimate, whichever is larger, and a
/// [`Note::Followed`]. The games keep the trails of their recent hints.
///
/// # Examples
/// ```
/// use npuzzle_core::{Board, Goal};
/// use npuzzle_solver::{Options, Solver, Trail};
/// let board: Board = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 0 23 24".parse()?;
/// let goal = Goal::BlankLast.board(board.size())?;
/// let options = Options::default();
/// let hint = Solver::new().best_move_hint(&board, &goal, &options)?;
/// let trail = Trail::new(&board, &goal, &options, &hint).expect("a 25-cell board's path");
/// let next = board.moved(hint.best.unwrap()).unwrap();
/// let followed = trail.hint(&next, &goal, &options).expect("on the path");
/// assert_eq!((followed.best.map(|m| m.letter()), followed.distance), (Some('L'), Some(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Trail {
    start: Board,
    goal: Board,
    moves: Vec<Move>,
    /// The hash of each position of the path (the goal's excluded), to its last index.
    at: HashMap<u64, usize>,
    /// The solve the path came from (its labels, bound and notes).
    solution: Solution,
    /// What the hint was asked with: a trail answers only hints asked the same way.
    asked: Asked,
}

/// The options a trail's hint was asked with (all but the limits).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Asked {
    algorithm: Algorithm,
    heuristic: Heuristic,
    weight: f64,
    optimal: bool,
    improve: bool,
}

impl Asked {
    fn of(options: &Options) -> Asked {
        Asked {
            algorithm: options.algorithm,
            heuristic: options.heuristic,
            weight: options.weight,
            optimal: options.optimal,
            improve: options.improve,
        }
    }
}

fn position_hash(board: &Board) -> u64 {
    let mut hasher = DefaultHasher::new();
    board.tiles().hash(&mut hasher);
    hasher.finish()
}

impl Trail {
    /// Boards of at most this many cells make no trail: their hints are optimal solves of a
    /// fraction of a second, which also solve the neighbouring positions.
    pub const MIN_CELLS: usize = 17;

    /// The most positions times cells a trail hashes (a 32x32 path of 38,000 moves is 39 M):
    /// beyond it no trail is kept.
    const MAX_WORK: usize = 1 << 26;

    /// The trail of `hint`, asked for `board` towards `goal` with `options`; `None` when
    /// there is nothing to follow: a board of at most [`Trail::MIN_CELLS`] cells, a hint
    /// without a solution, or a path too long to keep.
    pub fn new(board: &Board, goal: &Board, options: &Options, hint: &Hint) -> Option<Trail> {
        let solution = &hint.solution;
        let moves = solution.moves.as_slice();
        let cells = board.tiles().len();
        if cells < Self::MIN_CELLS
            || solution.status != Status::Solved
            || moves.is_empty()
            || moves.len().saturating_mul(cells) > Self::MAX_WORK
            || goal.size() != board.size()
        {
            return None;
        }
        let mut at = HashMap::with_capacity(moves.len());
        let mut position = board.clone();
        for (i, &m) in moves.iter().enumerate() {
            at.insert(position_hash(&position), i);
            position.apply(m).ok()?;
        }
        if position != *goal {
            return None;
        }
        Some(Trail {
            start: board.clone(),
            goal: goal.clone(),
            moves: moves.to_vec(),
            at,
            solution: Solution { moves: Default::default(), ..solution.clone() },
            asked: Asked::of(options),
        })
    }

    /// How many moves along the path `board` lies, when it does (towards the same goal).
    fn index(&self, board: &Board, goal: &Board) -> Option<usize> {
        if *goal != self.goal || board.size() != self.start.size() {
            return None;
        }
        let &i = self.at.get(&position_hash(board))?;
        // A hash is not a proof: the path's position there is.
        let mut position = self.start.clone();
        for &m in &self.moves[..i] {
            position.apply(m).ok()?;
        }
        (position == *board).then_some(i)
    }

    /// The hint for `board` read from the path, when `board` lies on it (towards the same
    /// goal, asked with the same options but the limits); `None` otherwise.
    pub fn hint(&self, board: &Board, goal: &Board, options: &Options) -> Option<Hint> {
        if Asked::of(options) != self.asked {
            return None;
        }
        let i = self.index(board, goal)?;
        let rest = &self.moves[i..];
        let best = rest[0];
        let length = rest.len();
        let distance = length as u64;
        let exact = self.solution.optimal;
        let map = GoalMap::new(goal);
        let estimate =
            |b: &Board| u64::from(map.estimate(HeuristicKind::LinearConflict, b.tiles()));
        let first_bound = self.solution.lower_bound.unwrap_or(0);
        let lower_bound = if exact {
            distance
        } else {
            first_bound.saturating_sub(i as u64).max(estimate(board)).min(distance)
        };
        let moves = Move::ALL
            .into_iter()
            .filter_map(|direction| {
                let child = board.moved(direction)?;
                let tile = board.tile_for_move(direction).unwrap_or(0);
                let (distance, exact) = if direction == best {
                    (distance - 1, exact)
                } else {
                    // A neighbour is at least the board's distance less one away.
                    (estimate(&child).max(lower_bound.saturating_sub(1)), false)
                };
                Some(HintMove { direction, tile, distance: Some(distance), exact })
            })
            .collect();
        let mut notes: Vec<Note> = self
            .solution
            .notes
            .iter()
            .map(|note| match note {
                Note::Near {
                    tables,
                    finished_by_reduction,
                    restarted,
                    wide,
                    mended,
                    peeled,
                    ..
                } => Note::Near {
                    lower_bound,
                    length,
                    tables: *tables,
                    finished_by_reduction: *finished_by_reduction,
                    restarted: *restarted,
                    wide: *wide,
                    mended: *mended,
                    peeled: *peeled,
                },
                other => other.clone(),
            })
            .collect();
        if i > 0 {
            notes.push(Note::Followed { moves: i });
        }
        let solution = Solution {
            moves: rest.to_vec().into(),
            lower_bound: Some(lower_bound),
            stats: Stats::default(),
            notes,
            ..self.solution.clone()
        };
        Some(Hint { best: Some(best), distance: Some(distance), exact, moves, solution })
    }
}

/// [`Solver::hint`] with the process's shared [`Solver`].
///
/// # Errors
/// As [`Solver::solve`].
pub fn hint(board: &Board, goal: &Board, options: &Options) -> Result<Hint, SolveError> {
    Solver::shared().hint(board, goal, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;
    use npuzzle_core::{Goal, Scrambler};
    use std::time::Duration;

    fn within_a_second() -> Options {
        Options {
            limits: Limits { timeout: Some(Duration::from_secs(1)), ..Limits::default() },
            ..Options::default()
        }
    }

    #[test]
    fn a_trail_answers_along_its_path_one_move_shorter_each_move() {
        let goal = Goal::BlankLast.board("5x4".parse().unwrap()).unwrap();
        let board = Scrambler::new(7).solvable(&goal);
        let options = within_a_second();
        let first = Solver::new().best_move_hint(&board, &goal, &options).unwrap();
        let trail = Trail::new(&board, &goal, &options, &first).expect("a 20-cell board's path");
        let path = first.solution.moves.as_slice().to_vec();
        let first_bound = first.solution.lower_bound.unwrap();
        let map = GoalMap::new(&goal);
        let mut at = board.clone();
        for (k, &step) in path.iter().enumerate() {
            let hint = trail.hint(&at, &goal, &options).expect("every position of the path");
            let left = (path.len() - k) as u64;
            assert_eq!(
                (hint.best, hint.distance, hint.exact),
                (Some(step), Some(left), first.exact)
            );
            hint.solution.replay(&at, &goal).unwrap();
            assert_eq!(hint.solution.moves.as_slice(), &path[k..]);
            // The bound: the first's less the moves made, or the position's own estimate.
            let bound = hint.solution.lower_bound.unwrap();
            let estimate = u64::from(map.estimate(HeuristicKind::LinearConflict, at.tiles()));
            assert!(bound <= left && bound >= estimate, "{bound} {estimate} {left}");
            assert!(bound >= first_bound.saturating_sub(k as u64));
            assert_eq!(bound % 2, left % 2, "a bound has the distance's parity");
            for m in &hint.moves {
                let d = m.distance.unwrap();
                if m.direction == step {
                    assert_eq!((d, m.exact), (left - 1, first.exact));
                } else {
                    assert!(!m.exact && d + 1 >= bound, "{m:?}");
                }
            }
            let note = hint.solution.note().unwrap_or_default();
            match k {
                0 => assert!(!note.contains("no new search"), "{note}"),
                1 => assert!(note.ends_with("a hint found 1 move back (no new search)"), "{note}"),
                _ => assert!(note.contains(&format!("found {k} moves back")), "{note}"),
            }
            // The engine's note tells the bound and the length of this answer, not the first's.
            if !first.exact {
                assert!(note.contains(&format!("the optimum is at least {bound} moves")), "{note}");
            }
            at.apply(step).unwrap();
        }
        assert_eq!(at, goal);
        // At the goal, off the path, towards another goal or asked otherwise: nothing.
        assert!(trail.hint(&goal, &goal, &options).is_none());
        let elsewhere = Scrambler::new(8).solvable(&goal);
        assert!(trail.hint(&elsewhere, &goal, &options).is_none());
        let snail = Goal::Snail.board(goal.size()).unwrap();
        assert!(trail.hint(&board, &snail, &options).is_none());
        let reduction = Options { algorithm: Algorithm::Reduction, ..within_a_second() };
        assert!(trail.hint(&board, &goal, &reduction).is_none());
        // Limits do not matter: the path is the same whatever they were.
        assert!(trail.hint(&board, &goal, &Options::default()).is_some());
    }

    #[test]
    fn small_boards_and_boards_without_a_path_make_no_trail() {
        let goal = Goal::BlankLast.board("4x4".parse().unwrap()).unwrap();
        let board: Board = "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12".parse().unwrap();
        let options = Options::default();
        let hint = Solver::new().best_move_hint(&board, &goal, &options).unwrap();
        assert_eq!(hint.distance, Some(2));
        assert!(Trail::new(&board, &goal, &options, &hint).is_none(), "16 cells");
        let goal = Goal::BlankLast.board("5x5".parse().unwrap()).unwrap();
        let hint = Solver::new().best_move_hint(&goal, &goal, &options).unwrap();
        assert!(Trail::new(&goal, &goal, &options, &hint).is_none(), "no moves");
        let stopped = Options {
            limits: Limits { max_nodes: Some(1), ..Limits::default() },
            algorithm: Algorithm::AStar,
            ..Options::default()
        };
        let board = Scrambler::new(1).solvable(&goal);
        let hint = Solver::new().best_move_hint(&board, &goal, &stopped).unwrap();
        assert_eq!(hint.solution.status, Status::Limit);
        assert!(Trail::new(&board, &goal, &stopped, &hint).is_none(), "no solution");
    }
}
