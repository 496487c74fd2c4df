//! Solving off the UI thread: one thread per request, a cancel flag, answers on a channel.
//!
//! The UI never waits for a solver. A request runs on its own thread under limits (time,
//! memory) and with a cancel flag that the game sets when the answer is no longer wanted
//! (the board changed, the player pressed Esc, the game quit); the solvers check that flag
//! as they go, so a cancelled thread ends within milliseconds. Answers carry the request's
//! id and board, so a late answer for an old position is recognised and dropped.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use npuzzle_core::Board;
use npuzzle_solver::{Algorithm, Limits, Live, Options, Request, Solution, Solver, Status};

use crate::hint::{self, Hint};

/// How long a solve may run before the game gives up on it.
pub const SOLVE_TIMEOUT: Duration = Duration::from_secs(30);

/// What to compute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// The hint (and the distance) for a position.
    Hint,
    /// A whole solution, to play back.
    Solve,
}

/// An answer from the worker.
#[derive(Debug)]
pub struct Done {
    /// The id [`Worker::start`] returned.
    pub id: u64,
    /// The position it is about.
    pub board: Board,
    /// The result.
    pub answer: Answer,
}

/// The result of a task; errors are one line for the player.
#[derive(Debug)]
pub enum Answer {
    /// The answer to [`Task::Hint`].
    Hint(Result<Option<Hint>, String>),
    /// The answer to [`Task::Solve`] (always [`Status::Solved`] when `Ok`).
    Solve(Result<Solution, String>),
}

/// Starts tasks on threads and collects their answers.
#[derive(Debug)]
pub struct Worker {
    solver: Solver,
    sender: Sender<Done>,
    receiver: Receiver<Done>,
    next_id: u64,
    running: Vec<(u64, Arc<AtomicBool>, Arc<Live>)>,
}

impl Worker {
    /// A worker that asks `solver` (a clone shares its tables and databases).
    pub fn new(solver: Solver) -> Worker {
        let (sender, receiver) = mpsc::channel();
        Worker { solver, sender, receiver, next_id: 1, running: Vec::new() }
    }

    /// Starts `task` for `board` towards `goal` on a new thread and returns its id.
    pub fn start(&mut self, task: Task, board: &Board, goal: &Board) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let cancel = Arc::new(AtomicBool::new(false));
        let live = Arc::new(Live::default());
        self.running.push((id, Arc::clone(&cancel), Arc::clone(&live)));
        let position = board.clone();
        let (board, goal, sender) = (board.clone(), goal.clone(), self.sender.clone());
        let solver = self.solver.clone();
        let work = move || {
            let answer = panic::catch_unwind(AssertUnwindSafe(|| match task {
                Task::Hint => Answer::Hint(hint::hint(&solver, &board, &goal, cancel, &live)),
                Task::Solve => Answer::Solve(solution(&solver, &board, &goal, cancel, live)),
            }))
            .unwrap_or_else(|payload| {
                let why = panic_message(payload.as_ref());
                let message = format!("the solver failed: {why}");
                match task {
                    Task::Hint => Answer::Hint(Err(message)),
                    Task::Solve => Answer::Solve(Err(message)),
                }
            });
            // The game may have quit; then nobody is listening, which is fine.
            let _ = sender.send(Done { id, board, answer });
        };
        if let Err(err) = thread::Builder::new().name(format!("npuzzle-{task:?}")).spawn(work) {
            // No thread: answer at once, so the game does not wait forever.
            self.running.retain(|(i, ..)| *i != id);
            let message = format!("could not start the solver: {err}");
            let answer = match task {
                Task::Hint => Answer::Hint(Err(message)),
                Task::Solve => Answer::Solve(Err(message)),
            };
            let _ = self.sender.send(Done { id, board: position, answer });
        }
        id
    }

    /// Asks task `id` to stop; its answer, if one still comes, should be ignored.
    pub fn cancel(&mut self, id: u64) {
        self.running.retain(|(i, flag, _)| {
            if *i == id {
                flag.store(true, Ordering::Relaxed);
            }
            *i != id
        });
    }

    /// Asks task `id` to stop now and answer with what it has: a solve then answers with
    /// the best solution it found so far, if any (its answer still comes, through
    /// [`Worker::poll`]).
    pub fn stop(&self, id: u64) {
        for (i, flag, _) in &self.running {
            if *i == id {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Asks every task to stop.
    pub fn cancel_all(&mut self) {
        for (_, flag, _) in self.running.drain(..) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// An answer, if one is ready (never blocks).
    pub fn poll(&mut self) -> Option<Done> {
        let done = self.receiver.try_recv().ok()?;
        self.running.retain(|(i, ..)| *i != done.id);
        Some(done)
    }

    /// Waits up to `timeout` for an answer (for tests and for a clean exit).
    pub fn wait(&mut self, timeout: Duration) -> Option<Done> {
        let done = self.receiver.recv_timeout(timeout).ok()?;
        self.running.retain(|(i, ..)| *i != done.id);
        Some(done)
    }

    /// What running task `id` has found and proved so far (its best answer's length, its
    /// bound and nodes), if it runs.
    pub fn live(&self, id: u64) -> Option<&Live> {
        self.running.iter().find(|(i, ..)| *i == id).map(|(_, _, live)| live.as_ref())
    }

    /// Whether any task is still running.
    pub fn busy(&self) -> bool {
        !self.running.is_empty()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel_all();
    }
}

/// A solution to play back, under the game's limits.
fn solution(
    solver: &Solver,
    board: &Board,
    goal: &Board,
    cancel: Arc<AtomicBool>,
    live: Arc<Live>,
) -> Result<Solution, String> {
    let options = Options {
        algorithm: Algorithm::Auto,
        limits: Limits {
            max_nodes: None,
            max_memory: Some(hint::MEMORY),
            timeout: Some(SOLVE_TIMEOUT),
            cancel: Some(Arc::clone(&cancel)),
        },
        ..Options::default()
    };
    // The solver tells the watcher its bounds and progress: the screen shows them live.
    let request = Request::new(board, goal, &options);
    let solution = solver.solve_with(&request, &mut live.watcher()).map_err(|e| e.to_string())?;
    match solution.status {
        Status::Solved => Ok(solution),
        Status::Unsolvable => Err("this board cannot reach the goal".to_string()),
        Status::Limit if cancel.load(Ordering::Relaxed) => Err("solve cancelled".to_string()),
        Status::Limit => Err(format!(
            "no solution within the limits ({} s, {} MiB)",
            SOLVE_TIMEOUT.as_secs(),
            hint::MEMORY >> 20
        )),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".to_string())
}

#[cfg(test)]
mod tests {
    use npuzzle_core::Goal;

    use super::*;

    /// A solve of the game tells its watcher the bounds it proves: the screen's live line
    /// reads a lower bound that never exceeds the answer.
    #[test]
    fn a_solve_keeps_its_proven_bound_where_the_screen_reads_it() {
        let board: Board = "5 1 3 4/2 6 8 12/9 10 7 15/13 14 11 0".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let live = Arc::new(Live::default());
        let cancel = Arc::new(AtomicBool::new(false));
        let s = solution(&Solver::new(), &board, &goal, cancel, Arc::clone(&live)).unwrap();
        let bound = live.bound().expect("a proven bound");
        assert!(bound > 0 && bound as usize <= s.moves.len(), "{bound} vs {}", s.moves.len());
    }

    /// While it runs, the worker shows what a solve has proved; once it is done, nothing.
    #[test]
    fn the_worker_shows_a_running_solves_progress_and_forgets_it_when_done() {
        let mut worker = Worker::new(Solver::new());
        let board: Board = "5 1 3 4/2 6 8 12/9 10 7 15/13 14 11 0".parse().unwrap();
        let goal = Goal::BlankLast.board(board.size()).unwrap();
        let id = worker.start(Task::Solve, &board, &goal);
        assert!(worker.live(id).is_some());
        let done = worker.wait(Duration::from_secs(30)).expect("an answer");
        assert_eq!(done.id, id);
        assert!(worker.live(id).is_none());
    }
}
