//! `POST /api/solve`: decode the request, solve on the pool, encode the record.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use npuzzle_core::{Board, Goal, parse_board};
use npuzzle_solver::{
    Algorithm, Heuristic, Limits, Live, Options, Record, Solution, Solver, Trail,
};
use serde::Deserialize;

use crate::error::{AppError, AppJson};
use crate::hint::{HintAnswer, Trails};
use crate::pool::PoolError;
use crate::{AppState, Config};

/// The body of `POST /api/solve`. Every field but `board` is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The board in any text form the command line reads.
    pub board: String,
    /// `blank-last` (default), `blank-first`, `snail` or a board.
    pub goal: Option<String>,
    /// An algorithm name as on the command line (default `auto`).
    pub algorithm: Option<String>,
    /// A heuristic name as on the command line (default `auto`).
    pub heuristic: Option<String>,
    /// Weighted A*'s weight (default 2).
    pub weight: Option<f64>,
    /// With `auto`, insist on a proven optimum.
    pub optimal: Option<bool>,
    /// Most nodes to expand; capped by the server's limit.
    pub max_nodes: Option<u64>,
    /// Most milliseconds to search; capped by the server's limit.
    pub timeout_ms: Option<u64>,
    /// Most MiB the search may hold; capped by the server's limit.
    pub max_memory_mib: Option<u64>,
    /// `solve` (default): the whole record. `hint`: the next move and the distance.
    #[serde(default)]
    pub mode: Mode,
    /// A name the client gives the solve or hint (1 to 64 letters, digits, `-` and `_`), so
    /// that `GET /api/solve/{id}` tells what it has found and proved so far and `POST
    /// /api/solve/{id}/stop` stops it: it then answers with the best solution it has found so
    /// far (a hint: that solution's first move).
    pub id: Option<String>,
}

/// A named solve: its stop flag, and what it has found and proved so far.
#[derive(Debug)]
struct Entry {
    stop: Arc<AtomicBool>,
    live: Arc<Live>,
}

/// The named solves by the names clients gave them.
type Entries = std::collections::HashMap<String, Entry>;

/// The solves running under a client's id, with their stop flags (`POST /api/solve/{id}/stop`)
/// and what they have found and proved so far (`GET /api/solve/{id}`).
#[derive(Debug, Default)]
pub struct Running(std::sync::Mutex<Entries>);

impl Running {
    fn lock(&self) -> std::sync::MutexGuard<'_, Entries> {
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Raises the stop flag of the solve named `id`; whether one runs.
    pub fn stop(&self, id: &str) -> bool {
        self.lock().get(id).is_some_and(|entry| {
            entry.stop.store(true, Relaxed);
            true
        })
    }

    /// What the solve named `id` has found and proved so far, if it runs.
    pub fn progress(&self, id: &str) -> Option<Progress> {
        self.lock().get(id).map(|entry| Progress::of(&entry.live))
    }

    /// How many named solves run now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no named solve runs now.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `GET /api/solve/{id}`: a named solve's progress.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Progress {
    /// Always true: a solve that ended answers 404.
    pub running: bool,
    /// Seconds since the solve started on a worker.
    pub seconds: f64,
    /// The best lower bound on the optimal length proved so far, if any.
    pub lower_bound: Option<u32>,
    /// The length of the shortest solution found so far, if any (the near-optimal engine
    /// has one long before it ends; the optimal searches only at the end).
    pub best: Option<u64>,
    /// Nodes expanded so far, as the engine reports them (the near-optimal engine: 0).
    pub expanded: u64,
}

impl Progress {
    fn of(live: &Live) -> Progress {
        Progress {
            running: true,
            seconds: live.elapsed().as_secs_f64(),
            lower_bound: live.bound(),
            best: live.best(),
            expanded: live.expanded(),
        }
    }
}

/// A named solve's entry in [`Running`], removed when the solve ends.
struct Registered<'a> {
    running: &'a Running,
    id: String,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.running.lock().remove(&self.id);
    }
}

/// Checks a client's solve id: 1 to 64 ASCII letters, digits, `-` or `_`.
fn checked_id(id: &str) -> Result<&str, AppError> {
    let fine = (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fine {
        Ok(id)
    } else {
        Err(AppError::bad_request(
            "id must be 1 to 64 letters, digits, '-' or '_' (a name the client gives the solve)",
        ))
    }
}

/// The largest weight of weighted A*, as on the command line.
pub const MAX_WEIGHT: f64 = 100.0;

/// What `POST /api/solve` answers: `"solve"` or `"hint"`, in any case (as the command line
/// reads its values).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The record of `npuzzle solve --format json`.
    #[default]
    Solve,
    /// The next move of a (preferably optimal) solution and the distance.
    Hint,
}

impl<'de> Deserialize<'de> for Mode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Mode, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.trim().to_ascii_lowercase().as_str() {
            "solve" => Ok(Mode::Solve),
            "hint" => Ok(Mode::Hint),
            _ => Err(serde::de::Error::unknown_variant(&text, &["solve", "hint"])),
        }
    }
}

/// A request checked at the boundary: what the solver is asked to do.
#[derive(Clone, Debug)]
pub struct Task {
    /// The board.
    pub board: Board,
    /// The goal board, of the board's size.
    pub goal: Board,
    /// Algorithm, heuristic and limits (capped by the server).
    pub options: Options,
}

impl Task {
    /// Checks a request against the server's caps.
    ///
    /// # Errors
    /// A 400 naming what is wrong: the board, the goal, a name, the weight or a limit.
    pub fn new(request: &SolveRequest, config: &Config) -> Result<Task, AppError> {
        let board = parse_board(&request.board)
            .map_err(|err| AppError::bad_request(format!("invalid board: {err}")))?;
        let goal_spec = match &request.goal {
            None => Goal::BlankLast,
            Some(text) => {
                text.parse::<Goal>().map_err(|err| AppError::bad_request(err.to_string()))?
            }
        };
        let goal =
            goal_spec.board(board.size()).map_err(|err| AppError::bad_request(err.to_string()))?;
        let name = |text: &Option<String>| text.as_deref().unwrap_or("auto").to_string();
        let algorithm = name(&request.algorithm)
            .parse::<Algorithm>()
            .map_err(|err| AppError::bad_request(err.to_string()))?;
        let heuristic = name(&request.heuristic)
            .parse::<Heuristic>()
            .map_err(|err| AppError::bad_request(err.to_string()))?;
        let weight = request.weight.unwrap_or(2.0);
        // The command line's cap: past it weighted A* is greedy in all but name.
        if !(weight.is_finite() && (1.0..=MAX_WEIGHT).contains(&weight)) {
            return Err(AppError::bad_request(format!(
                "{weight} is not a weight: expected a number from 1 to {MAX_WEIGHT}"
            )));
        }
        let options = Options {
            algorithm,
            heuristic,
            weight,
            optimal: request.optimal.unwrap_or(false),
            improve: false,
            limits: limits(request, config)?,
            ..Options::default()
        };
        Ok(Task { board, goal, options })
    }
}

/// The request's limits, each capped by the server's.
fn limits(request: &SolveRequest, config: &Config) -> Result<Limits, AppError> {
    if request.max_nodes == Some(0)
        || request.timeout_ms == Some(0)
        || request.max_memory_mib == Some(0)
    {
        return Err(AppError::bad_request(
            "max_nodes, timeout_ms and max_memory_mib must be at least 1",
        ));
    }
    let max_nodes = match (request.max_nodes, config.max_nodes) {
        (Some(asked), Some(cap)) => Some(asked.min(cap)),
        (asked, cap) => asked.or(cap),
    };
    let timeout = request
        .timeout_ms
        .map_or(config.timeout, |ms| Duration::from_millis(ms).min(config.timeout));
    let max_memory = request.max_memory_mib.map_or(config.max_memory, |mib| {
        usize::try_from(mib)
            .ok()
            .and_then(|m| m.checked_mul(1 << 20))
            .unwrap_or(usize::MAX)
            .min(config.max_memory)
    });
    Ok(Limits { max_nodes, max_memory: Some(max_memory), timeout: Some(timeout), cancel: None })
}

/// `POST /api/solve`.
pub async fn handler(
    State(state): State<Arc<AppState>>,
    AppJson(request): AppJson<SolveRequest>,
) -> Result<Response, AppError> {
    let task = Task::new(&request, &state.config)?;
    let solver = state.solver.clone();
    let id = request.id.as_deref().map(checked_id).transpose()?.map(str::to_string);
    let shared = Arc::clone(&state);
    match request.mode {
        Mode::Solve => {
            let record = state
                .pool
                .run(move |cancel| {
                    let (_entry, live) = register(&shared.running, id, &cancel)?;
                    match live {
                        Some(live) => solve_watched(&solver, task, cancel, live.watcher()),
                        None => solve_task(&solver, task, cancel),
                    }
                })
                .await
                .map_err(pool_error)??;
            Ok(Json(record).into_response())
        }
        Mode::Hint => {
            let answer = state
                .pool
                .run(move |cancel| {
                    let (_entry, live) = register(&shared.running, id, &cancel)?;
                    match live {
                        Some(live) => {
                            hint_watched(&solver, &shared.trails, task, cancel, live.watcher())
                        }
                        None => hint_task(&solver, &shared.trails, task, cancel),
                    }
                })
                .await
                .map_err(pool_error)??;
            Ok(Json(answer).into_response())
        }
    }
}

/// Registers a named solve or hint as it starts on a worker, so that `POST
/// /api/solve/{id}/stop` can raise its `cancel` flag and `GET /api/solve/{id}` read what it
/// has found and proved so far; the entry goes when the returned guard drops. Unnamed:
/// nothing to register.
///
/// # Errors
/// 400 when a solve of that name runs already.
fn register<'a>(
    running: &'a Running,
    id: Option<String>,
    cancel: &Arc<AtomicBool>,
) -> Result<(Option<Registered<'a>>, Option<Arc<Live>>), AppError> {
    let Some(id) = id else { return Ok((None, None)) };
    let mut entries = running.lock();
    if entries.contains_key(&id) {
        return Err(AppError::bad_request(format!("a solve named {id} is running already")));
    }
    let live = Arc::new(Live::new());
    entries.insert(id.clone(), Entry { stop: Arc::clone(cancel), live: Arc::clone(&live) });
    Ok((Some(Registered { running, id }), Some(live)))
}

/// `POST /api/solve/{id}/stop`: stops the solve the client named `id`, which then answers
/// its own request with the best solution it has found so far (the near-optimal engine's
/// path, say), or with `status: "limit"` when it has none yet. Answers `{"stopped": true}`,
/// or 404 when no solve of that name runs (it ended, or waits for a worker still).
///
/// # Errors
/// 400 for a malformed id, 404 when no such solve runs.
pub async fn stop(
    State(state): State<Arc<AppState>>,
    crate::error::AppPath(id): crate::error::AppPath<String>,
) -> Result<Response, AppError> {
    let id = checked_id(&id)?;
    if state.running.stop(id) {
        Ok(Json(serde_json::json!({ "stopped": true })).into_response())
    } else {
        Err(AppError::not_found(format!("no solve named {id} is running")))
    }
}

/// `GET /api/solve/{id}`: what the solve the client named `id` has found and proved so far
/// ([`Progress`]), or 404 when no solve of that name runs (it ended, or waits for a worker
/// still).
///
/// # Errors
/// 400 for a malformed id, 404 when no such solve runs.
pub async fn progress(
    State(state): State<Arc<AppState>>,
    crate::error::AppPath(id): crate::error::AppPath<String>,
) -> Result<Response, AppError> {
    let id = checked_id(&id)?;
    match state.running.progress(id) {
        Some(progress) => Ok(Json(progress).into_response()),
        None => Err(AppError::not_found(format!("no solve named {id} is running"))),
    }
}

/// Solves a task on the calling (blocking) thread and checks the answer by replaying it.
///
/// # Errors
/// 400 when the solver refuses the request; 500 when its moves do not reach the goal (a bug).
pub fn solve_task(
    solver: &Solver,
    task: Task,
    cancel: Arc<AtomicBool>,
) -> Result<Record, AppError> {
    solve_watched(solver, task, cancel, ())
}

/// [`solve_task`], telling `watcher` the bounds and best lengths the solver finds.
fn solve_watched<W: npuzzle_solver::Watcher>(
    solver: &Solver,
    mut task: Task,
    cancel: Arc<AtomicBool>,
    mut watcher: W,
) -> Result<Record, AppError> {
    task.options.limits.cancel = Some(cancel);
    let request = npuzzle_solver::Request::new(&task.board, &task.goal, &task.options);
    let solution = solver
        .solve_with(&request, &mut watcher)
        .map_err(|err| AppError::bad_request(err.to_string()))?;
    check(&task.board, &task.goal, &solution)?;
    Ok(Record::new(&task.board, &task.goal, &solution))
}

/// The next move for a task, on the calling (blocking) thread, its solution checked.
///
/// # Errors
/// 400 when the solver refuses the request; 500 when its solution does not reach the goal.
pub fn hint_task(
    solver: &Solver,
    trails: &Trails,
    task: Task,
    cancel: Arc<AtomicBool>,
) -> Result<HintAnswer, AppError> {
    hint_watched(solver, trails, task, cancel, ())
}

/// [`hint_task`], telling `watcher` the bounds and best lengths the hint's solve finds.
fn hint_watched<W: npuzzle_solver::Watcher>(
    solver: &Solver,
    trails: &Trails,
    mut task: Task,
    cancel: Arc<AtomicBool>,
    mut watcher: W,
) -> Result<HintAnswer, AppError> {
    let clock = Instant::now();
    // On the path of a recent hint: the rest of it, at once.
    if let Some(hint) = trails.hint(&task.board, &task.goal, &task.options) {
        check(&task.board, &task.goal, &hint.solution)?;
        return Ok(HintAnswer::new(&task.board, &task.goal, &hint, clock.elapsed().as_secs_f64()));
    }
    task.options.limits.cancel = Some(cancel);
    // A player waits for a hint: the optimal attempt gets 2 s (with the 4x4's 7-8 table it
    // needs a fraction of that), then weighted A* answers, labelled as such.
    task.options.optimal_attempt.get_or_insert(HINT_ATTEMPT);
    let request = npuzzle_solver::Request::new(&task.board, &task.goal, &task.options);
    let hint = solver
        .best_move_hint_with(&request, &mut watcher)
        .map_err(|err| AppError::bad_request(err.to_string()))?;
    check(&task.board, &task.goal, &hint.solution)?;
    if let Some(trail) = Trail::new(&task.board, &task.goal, &task.options, &hint) {
        trails.remember(trail);
    }
    Ok(HintAnswer::new(&task.board, &task.goal, &hint, clock.elapsed().as_secs_f64()))
}

/// The optimal attempt of a hint without a database (see [`hint_task`]).
const HINT_ATTEMPT: std::time::Duration = std::time::Duration::from_secs(2);

/// Replays a solution: one swap per move, cheap insurance that what we send is a solution.
fn check(board: &Board, goal: &Board, solution: &Solution) -> Result<(), AppError> {
    solution.replay(board, goal).map_err(|e| AppError::internal(format!("bug: {e}")))
}

fn pool_error(err: PoolError) -> AppError {
    match err {
        PoolError::Busy => AppError::busy(),
        PoolError::Panicked => {
            AppError::internal("internal error: the solver panicked on this board")
        }
    }
}
