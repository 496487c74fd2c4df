//! One game: the board, where it started, the goal, the move history and the clock.
//!
//! Pure state, no terminal and no wall clock: the caller passes the current [`Instant`], so
//! tests drive time by hand.

use std::time::{Duration, Instant};

use npuzzle_core::{Board, Move};

/// A game in progress.
///
/// The history is a list of gestures (one key press, one click that slides a run of tiles,
/// one step of the solver's playback), so undo takes back what one action did. The move
/// count is the number of single-tile moves in the history (the single-tile metric): undo
/// lowers it, redo raises it again. Each gesture keeps the time on the game's clock when it
/// was made, for the replay of a solve at its real speed.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    start: Board,
    goal: Board,
    done: Vec<Gesture>,
    undone: Vec<Gesture>,
    clock: Clock,
}

/// Moves made at once, and when (the game's clock then).
#[derive(Clone, Debug)]
struct Gesture {
    moves: Vec<Move>,
    at: Duration,
}

/// The game clock: runs from the first move to the solve.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Clock {
    /// No move yet.
    #[default]
    Idle,
    /// Running since this instant.
    Running(Instant),
    /// Stopped (the board reached the goal) after this long.
    Stopped(Duration),
}

impl Game {
    /// A new game from `board` towards `goal` (same size; the caller checked solvability).
    pub fn new(board: Board, goal: Board) -> Game {
        Game {
            start: board.clone(),
            board,
            goal,
            done: Vec::new(),
            undone: Vec::new(),
            clock: Clock::Idle,
        }
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The position this game started from.
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The goal position.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Whether the board is at the goal.
    pub fn is_solved(&self) -> bool {
        self.board == self.goal
    }

    /// Single-tile moves made (undone ones not counted).
    pub fn moves(&self) -> usize {
        self.done.iter().map(|g| g.moves.len()).sum()
    }

    /// The moves from the start to the current position (undone ones left out), each with
    /// the time on the game's clock when it was made: the first move at zero.
    pub fn played(&self) -> Vec<(Move, Duration)> {
        self.done.iter().flat_map(|g| g.moves.iter().map(|&m| (m, g.at))).collect()
    }

    /// Whether there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.done.is_empty()
    }

    /// Whether there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Time played at `now`: zero before the first move, frozen once solved.
    pub fn elapsed(&self, now: Instant) -> Duration {
        match self.clock {
            Clock::Idle => Duration::ZERO,
            Clock::Running(since) => now.saturating_duration_since(since),
            Clock::Stopped(took) => took,
        }
    }

    /// Whether the clock is running (so the screen needs redrawing as time passes).
    pub fn clock_running(&self) -> bool {
        matches!(self.clock, Clock::Running(_))
    }

    /// Makes `moves` as one gesture, all or nothing. Returns whether they were made (false
    /// when one is illegal or there are none). A new gesture clears the redo list.
    pub fn play(&mut self, moves: &[Move], now: Instant) -> bool {
        let mut next = self.board.clone();
        if moves.is_empty() || moves.iter().any(|&m| next.apply(m).is_err()) {
            return false;
        }
        self.board = next;
        self.undone.clear();
        let at = self.elapsed(now);
        self.done.push(Gesture { moves: moves.to_vec(), at });
        self.after_move(now);
        true
    }

    /// Takes back the last gesture. Returns whether there was one.
    pub fn undo(&mut self, now: Instant) -> bool {
        let Some(gesture) = self.done.pop() else { return false };
        for &m in gesture.moves.iter().rev() {
            // The gesture was made from this position, so its inverse replays legally.
            let _ = self.board.apply(m.inverse());
        }
        self.undone.push(gesture);
        self.after_move(now);
        true
    }

    /// Makes the last undone gesture again. Returns whether there was one.
    pub fn redo(&mut self, now: Instant) -> bool {
        let Some(mut gesture) = self.undone.pop() else { return false };
        for &m in &gesture.moves {
            let _ = self.board.apply(m);
        }
        gesture.at = self.elapsed(now);
        self.done.push(gesture);
        self.after_move(now);
        true
    }

    /// Back to the position this game started from: no moves, clock at zero.
    pub fn reset(&mut self) {
        *self = Game::new(self.start.clone(), self.goal.clone());
    }

    /// Starts the clock at the first move and stops it at the goal. A move away from the
    /// goal after a solve (an undo, say) lets it run on from where it stopped.
    fn after_move(&mut self, now: Instant) {
        self.clock = match self.clock {
            _ if self.board == self.goal => Clock::Stopped(self.elapsed(now)),
            Clock::Running(since) => Clock::Running(since),
            Clock::Idle => Clock::Running(now),
            Clock::Stopped(took) => Clock::Running(now.checked_sub(took).unwrap_or(now)),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(board: &str) -> Game {
        let board: Board = board.parse().unwrap();
        let goal = npuzzle_core::Goal::BlankLast.board(board.size()).unwrap();
        Game::new(board, goal)
    }

    #[test]
    fn undo_and_redo_take_whole_gestures() {
        let t = Instant::now();
        let mut g = game("1 2 3/4 5 6/0 7 8");
        assert!(g.play(&[Move::Left, Move::Left], t));
        assert!(g.is_solved());
        assert_eq!(g.moves(), 2);
        assert!(g.undo(t));
        assert_eq!(g.board().to_string(), "1 2 3/4 5 6/0 7 8");
        assert_eq!(g.moves(), 0);
        assert!(!g.undo(t));
        assert!(g.redo(t));
        assert!(g.is_solved());
        assert!(!g.redo(t));
    }

    #[test]
    fn an_illegal_gesture_changes_nothing() {
        let t = Instant::now();
        let mut g = game("1 2 3/4 5 6/0 7 8");
        assert!(!g.play(&[Move::Left, Move::Right, Move::Right], t));
        assert!(!g.play(&[], t));
        assert_eq!(g.board().to_string(), "1 2 3/4 5 6/0 7 8");
        assert!(!g.can_undo());
    }

    #[test]
    fn a_new_move_clears_redo() {
        let t = Instant::now();
        let mut g = game("1 2 3/4 5 6/0 7 8");
        g.play(&[Move::Left], t);
        g.undo(t);
        assert!(g.can_redo());
        g.play(&[Move::Down], t);
        assert!(!g.can_redo());
    }

    #[test]
    fn clock_runs_from_first_move_to_goal() {
        let t0 = Instant::now();
        let s = Duration::from_secs(1);
        let mut g = game("1 2 3/4 5 6/0 7 8");
        assert_eq!(g.elapsed(t0 + 5 * s), Duration::ZERO);
        g.play(&[Move::Left], t0 + s);
        assert_eq!(g.elapsed(t0 + 3 * s), 2 * s);
        g.play(&[Move::Left], t0 + 4 * s);
        assert!(g.is_solved() && !g.clock_running());
        assert_eq!(g.elapsed(t0 + 100 * s), 3 * s);
        // Each move with its time on the clock: the first at zero.
        assert_eq!(g.played(), [(Move::Left, Duration::ZERO), (Move::Left, 3 * s)]);
        g.reset();
        assert_eq!(g.elapsed(t0 + 100 * s), Duration::ZERO);
        assert_eq!(g.board().to_string(), "1 2 3/4 5 6/0 7 8");
    }
}
