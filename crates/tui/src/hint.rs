//! The hint: the next move of a solution, and how far the goal is.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use npuzzle_core::{Board, Move};
use npuzzle_solver::{Algorithm, Limits, Live, Options, Request, Solver, Status, Trail};

/// How long each solve of a hint may think: long enough for the optimal attempt that `auto`
/// makes on 4x4 boards, after which it answers with a non-optimal solution's first move.
pub const HINT_TIMEOUT: Duration = Duration::from_secs(10);

/// Memory a hint (or a solve) may use.
pub const MEMORY: usize = 512 << 20;

/// The advice for one position.
#[derive(Clone, Debug)]
pub struct Hint {
    /// The move to make.
    pub step: Move,
    /// The tile that move slides.
    pub tile: u16,
    /// Moves to the goal from the position the hint was asked for (the step included).
    pub distance: usize,
    /// Whether `distance` is proven minimal (then `step` starts an optimal solution).
    pub optimal: bool,
    /// What the solver proved of the distance from the hinted position: at least this many
    /// moves (equal to `distance` when `optimal`). With `distance`, how far from the optimum
    /// a non-optimal hint may be.
    pub lower_bound: Option<usize>,
    /// The whole solution that `step` starts (`distance` moves).
    pub solution: Vec<Move>,
    /// The other legal moves, with what is known of the distance after each.
    pub neighbours: Vec<Neighbour>,
    /// The path the hint came from, kept so that the hints along it answer at once (boards
    /// of more than 16 cells: see [`Trail`]).
    pub trail: Option<Arc<Trail>>,
}

/// Two hints are the same advice (whichever trail each keeps).
impl PartialEq for Hint {
    fn eq(&self, other: &Hint) -> bool {
        (self.step, self.tile, self.distance, self.optimal, self.lower_bound)
            == (other.step, other.tile, other.distance, other.optimal, other.lower_bound)
            && self.solution == other.solution
            && self.neighbours == other.neighbours
    }
}

impl Eq for Hint {}

/// A legal move from the hinted position and the distance after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Neighbour {
    /// The move.
    pub step: Move,
    /// The distance to the goal after it: exact when `exact`, otherwise a lower bound.
    pub distance: usize,
    /// Whether `distance` is proven.
    pub exact: bool,
}

/// The hint for `board` towards `goal`: `Ok(None)` when the board is already solved, an
/// error (one line) when no solution was found within the limits or `cancel` was set;
/// `live` hears what the solve finds and proves as it goes.
///
/// This is the one place the game asks for advice: [`Solver::hint`] of the game's solver
/// (with the pattern databases it holds), optimal and instant on boards of up to 9 cells,
/// optimal where an optimal solve finishes within the limits on boards of up to 16 cells (it
/// also solves the neighbouring positions there), and the next move of the fast non-optimal
/// solver elsewhere (then `optimal` is false).
pub fn hint(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    cancel: Arc<AtomicBool>,
    live: &Arc<Live>,
) -> Result<Option<Hint>, String> {
    if board == goal {
        return Ok(None);
    }
    let options = options(Some(cancel));
    // On big boards the hint is a near-optimal solve of seconds: `live` hears its best path
    // so far and its bound, which the panel shows while it runs.
    let request = Request::new(board, goal, &options);
    let answer = solver.hint_with(&request, &mut live.watcher()).map_err(|e| e.to_string())?;
    let trail = Trail::new(board, goal, &options, &answer).map(Arc::new);
    advice(board, &answer, trail)
}

/// The hint for `board` read from the path of an earlier one, when `board` lies on it: at
/// once, without a solve (see [`Trail`]); `None` when it does not.
pub fn follow(trail: &Arc<Trail>, board: &Board, goal: &Board) -> Option<Hint> {
    let answer = trail.hint(board, goal, &options(None))?;
    advice(board, &answer, Some(Arc::clone(trail))).ok().flatten()
}

/// What the game asks the solver for a hint with.
fn options(cancel: Option<Arc<AtomicBool>>) -> Options {
    Options {
        algorithm: Algorithm::Auto,
        limits: Limits {
            max_nodes: None,
            max_memory: Some(MEMORY),
            timeout: Some(HINT_TIMEOUT),
            cancel,
        },
        ..Options::default()
    }
}

/// The game's advice from the solver's hint.
fn advice(
    board: &Board,
    answer: &npuzzle_solver::Hint,
    trail: Option<Arc<Trail>>,
) -> Result<Option<Hint>, String> {
    match (answer.best, answer.distance, answer.solution.status) {
        (Some(step), Some(distance), _) => Ok(Some(Hint {
            step,
            tile: board.tile_for_move(step).unwrap_or(0),
            distance: usize::try_from(distance).unwrap_or(usize::MAX),
            optimal: answer.exact,
            lower_bound: answer
                .solution
                .lower_bound
                .map(|b| usize::try_from(b).unwrap_or(usize::MAX)),
            solution: answer.solution.moves.as_slice().to_vec(),
            neighbours: answer
                .moves
                .iter()
                .filter_map(|m| {
                    let distance = usize::try_from(m.distance?).ok()?;
                    Some(Neighbour { step: m.direction, distance, exact: m.exact })
                })
                .collect(),
            trail,
        })),
        (_, _, Status::Solved) => Ok(None),
        (_, _, Status::Unsolvable) => Err("this board cannot reach the goal".to_string()),
        (_, _, Status::Limit) => Err("no hint within the time and memory limits".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle_core::Goal;

    #[test]
    fn hint_on_3x3_is_optimal_and_leads_closer() {
        let board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let h = hint(Solver::shared(), &board, &goal, Arc::default(), &Arc::default())
            .unwrap()
            .unwrap();
        assert_eq!(h.distance, 31);
        assert!(h.optimal);
        assert_eq!(board.tile_for_move(h.step), Some(h.tile));
        assert_eq!((h.solution.len(), h.solution[0]), (31, h.step));
        assert!(h.neighbours.iter().all(|n| n.exact && n.distance.abs_diff(31) == 1));
        let next = board.moved(h.step).unwrap();
        let after =
            hint(Solver::shared(), &next, &goal, Arc::default(), &Arc::default()).unwrap().unwrap();
        assert_eq!(after.distance, 30);
    }

    #[test]
    fn no_hint_at_the_goal() {
        let goal = Goal::Snail.board("3x3".parse().unwrap()).unwrap();
        assert_eq!(hint(Solver::shared(), &goal, &goal, Arc::default(), &Arc::default()), Ok(None));
    }

    #[test]
    fn a_cancelled_hint_says_so() {
        // A hard 4x4 board: without the cancel, IDA* would think for seconds.
        let board: Board = "0 9 6 3/8 14 12 13/5 2 7 11/15 10 1 4".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let cancel = Arc::new(AtomicBool::new(true));
        let err = hint(Solver::shared(), &board, &goal, cancel, &Arc::default()).unwrap_err();
        assert_eq!(err, "no hint within the time and memory limits");
    }
}
