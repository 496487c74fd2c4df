//! `GET /api/search`: a search streamed as Server-Sent Events, node by node, and the control
//! requests that pause, step, resume and stop it.
//!
//! The search runs on its own thread (not the solve pool's: a stream that is paused or paced
//! at one node a second holds its thread for minutes), through the solver's one entry point,
//! [`Solver::solve_with`], with the stream's watcher ([`watcher`]). A search that starts at
//! full speed on a board of at most 4x4 with A*, Dijkstra, BFS, IDDFS or IDA* (or `auto`,
//! watched as IDA*) asks for sampled nodes ([`npuzzle_solver::Nodes::Sampled`]) and runs on
//! the very engine `/api/solve` runs (same answer, same counts, a few percent slower): the
//! packed engines, or IDA* over the solver's pattern database when the heuristic is left to
//! the solver or is `pdb` (so IDA* on a random 4x4 runs to its end). The engine asks the
//! watcher at its checks whether it wants the node at hand, and the watcher says yes when a
//! frame is due (and for the few nodes before it, shown as `recent`), or at every node while
//! the search is paused or paced (a pause, a step or a new pace then acts node by node, as on
//! the generic engines). Every other search (paced from the start, larger boards, DFS,
//! greedy, weighted A*, walking distance) asks for every node
//! ([`npuzzle_solver::Nodes::Every`]) and runs on the generic engines, whose observer here
//! does four things at every node: it blocks while the search is paused or ahead of its pace,
//! it decides whether this node is drawn (every node when paced; at full speed at most
//! [`FRAME`] apart, with the number skipped), it keeps the statistics, and it stops the search
//! when the client has gone, asked it to stop, or the search used up its share of time. The
//! sessions (streams, controls, pace) are in [`session`].
//!
//! # Events, in order
//! - `start`: `{"id", "board", "goal", "width", "height", "algorithm", "heuristic", "weight",
//!   "pace", "max_nodes", "max_seconds", "max_memory_mib", "engine"}`. The `id` names the
//!   stream in control requests; `engine` is `fast` (sampled, on the engines `/api/solve`
//!   runs) or `generic` (every node, on the generic searches).
//! - `expand`: a node about to be expanded: `{"n", "board", "g", "h", "f", "open",
//!   "closed", "skipped", "elapsed", "soonest", "recent"}`. `n` counts expansions from 1; `open` and
//!   `closed` are the list sizes the search reports (see `npuzzle_search::Expand`);
//!   `skipped` is how many expansions since the previous `expand` event were not sent (0
//!   when paced); `soonest` lists the open list's best few (`{"board", "g", "h", "f"}`, the
//!   next to be expanded first; empty for IDDFS and IDA*, which keep no open list) and
//!   `recent` the last few expanded before this one, newest first. For IDDFS and IDA*,
//!   `path` is the current path: the moves from the start to this node (tile directions,
//!   `RRDLU...`, as many as `g`), absent where the stream does not know it (a fast search,
//!   seen in glimpses, knows it only from an iteration's start seen node after node: pace
//!   the search to see it at every node). When paced faster than
//!   about 30 nodes a second, only events at least [`FRAME`] apart carry the two lists
//!   (they are most of the bytes, and no screen draws faster). At full speed, the last
//!   node expanded is sent after the search ends if its frame was skipped, without
//!   `soonest`.
//! - `bound`: IDDFS and IDA* start an iteration: `{"bound", "expanded"}`.
//! - `stats`: about every [`STATS_EVERY`] and whenever the search pauses: `{"expanded",
//!   "generated", "frontier", "elapsed", "searching", "nodes_per_second"}`; `elapsed` is
//!   wall seconds since the start, `searching` the seconds not spent waiting (for the pace,
//!   a pause, or a slow client), `nodes_per_second` the rate since the previous `stats`.
//! - `state`: `{"state": "paused" | "running", "expanded"}` when a control request changes
//!   it; a paused search has just sent the `expand` event of the node it waits on; and
//!   `queued` before a search waits for its turn (see Turns below).
//! - `limit`: `{"message"}` when a server cap stopped the search, in words with advice
//!   ("BFS stopped at 1,000,000 nodes: try A* with linear conflict").
//! - `done`: the last event, the object `POST /api/solve` answers (see
//!   [`npuzzle_solver::Record`]); the stream then ends.
//!
//! # Control
//! `POST /api/search/{id}/pause`, `.../resume`, `.../step` (a paused search expands one node
//! and waits again; a running one pauses first), `.../stop` and `.../pace/{nodes_per_second}`
//! (0: full speed) answer `{"id", "state", "expanded"}`, or 404 when no such search runs.
//! Closing the stream stops the search: the server notices at its next failed write (it
//! writes at least every [`KEEP_ALIVE`], a comment line when there is no event), and the
//! search at its next node (fast engines: within 1024 nodes), or within [`POLL`] while it
//! waits.
//!
//! # Turns
//! Searches compute only while they hold a turn on the cores ([`crate::gate`]): one that
//! starts while every turn is taken first sends `state` `{"state": "queued", "expanded": 0,
//! "ahead"}` (`ahead`: searches waiting before it) and, once it has a turn, `{"state":
//! "running", "expanded": 0}`.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use npuzzle_solver::{
    Algorithm, Limit, Nodes, Reason, Record, Request, Solution, Solver, thousands,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::mpsc;

pub mod session;
pub mod watcher;

pub use session::Streams;
use session::{Session, lock, pace};
use watcher::StreamWatcher;

use crate::AppState;
use crate::error::{AppError, AppPath, AppQuery};
use crate::gate::{Gate, Turn};
use crate::solve::{SolveRequest, Task};

/// At full speed, the least time between two `expand` events: about 30 frames a second.
pub const FRAME: Duration = Duration::from_millis(33);
/// The time between two `stats` events while the search runs.
pub const STATS_EVERY: Duration = Duration::from_millis(250);
/// How often a waiting search looks whether its client has gone.
pub const POLL: Duration = Duration::from_millis(20);
/// How many of the open list's best boards, and of the last expanded, each `expand` shows.
pub const SHOWN: usize = 5;
/// The longest a stream goes without writing: a comment line then. The server learns that
/// a client has gone only when a write to its socket fails (the first write after the
/// client closed is still accepted; the one after fails), so a paused or slowly paced
/// search whose client left is stopped within about two of these.
pub const KEEP_ALIVE: Duration = Duration::from_millis(25);
/// Searches paced at most one node this often (10,000 nodes a second) compute without a
/// turn on the cores (see [`crate::gate`]): each node costs microseconds, and waiting in
/// line would break the pace.
pub const SLOW_PACE: Duration = Duration::from_micros(100);
/// Events buffered between the search thread and the connection.
const CHANNEL: usize = 256;

/// The query of `GET /api/search`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchQuery {
    /// The board in any text form the command line reads.
    pub board: String,
    /// `blank-last` (default), `blank-first`, `snail` or a board.
    pub goal: Option<String>,
    /// An algorithm name as on the command line (default `auto`: IDA* up to 4x4).
    pub algorithm: Option<String>,
    /// A heuristic name (default `auto`).
    pub heuristic: Option<String>,
    /// Weighted A*'s weight (default 2).
    pub weight: Option<f64>,
    /// Nodes per second (at least 1, at most 1,000,000); absent or 0: as fast as possible.
    pub pace: Option<f64>,
    /// Most nodes to expand; capped by the server's stream limit.
    pub max_nodes: Option<u64>,
    /// Most milliseconds of searching (waits excluded); capped by the server's limit.
    pub timeout_ms: Option<u64>,
}

/// A control request's answer.
#[derive(Debug, Serialize)]
pub struct ControlAnswer {
    /// The stream's id.
    pub id: String,
    /// `paused`, `running` or `stopping`.
    pub state: &'static str,
    /// Nodes expanded so far.
    pub expanded: u64,
}

/// The running search `id`, or a 404 saying there is none.
fn running(state: &AppState, id: &str) -> Result<Arc<Session>, AppError> {
    state.streams.get(id).ok_or_else(|| AppError::not_found(format!("no search {id} is running")))
}

/// `POST /api/search/{id}/{action}`.
pub async fn control(
    State(state): State<Arc<AppState>>,
    AppPath((id, action)): AppPath<(String, String)>,
) -> Result<Json<ControlAnswer>, AppError> {
    let session = running(&state, &id)?;
    let answer = |state| ControlAnswer {
        id: id.clone(),
        state,
        expanded: session.expanded.load(Ordering::Relaxed),
    };
    if action == "stop" {
        session.stop();
        return Ok(Json(answer("stopping")));
    }
    let mut control = lock(&session.control);
    match action.as_str() {
        "pause" => control.paused = true,
        "resume" => {
            control.paused = false;
            control.steps = 0;
        }
        "step" => {
            if control.paused {
                control.steps += 1;
            }
            control.paused = true;
        }
        other => {
            return Err(AppError::bad_request(format!(
                "unknown action {other:?}: pause, resume, step or stop"
            )));
        }
    }
    let paused = control.paused;
    session.paused.store(paused, Ordering::Relaxed);
    session.wake.notify_all();
    drop(control);
    Ok(Json(answer(if paused { "paused" } else { "running" })))
}

/// `POST /api/search/{id}/pace/{nodes_per_second}`: a new pace (0: full speed).
pub async fn set_pace(
    State(state): State<Arc<AppState>>,
    AppPath((id, value)): AppPath<(String, String)>,
) -> Result<Json<ControlAnswer>, AppError> {
    let session = running(&state, &id)?;
    let value = value
        .parse::<f64>()
        .map_err(|_| AppError::bad_request(format!("pace must be a number, got {value:?}")))?;
    session.set_pace(pace(Some(value))?);
    let paused = session.paused.load(Ordering::Relaxed);
    Ok(Json(ControlAnswer {
        id,
        state: if paused { "paused" } else { "running" },
        expanded: session.expanded.load(Ordering::Relaxed),
    }))
}

/// `GET /api/search`.
pub async fn handler(
    State(state): State<Arc<AppState>>,
    AppQuery(query): AppQuery<SearchQuery>,
) -> Result<Response, AppError> {
    let config = &state.config;
    let pace = pace(query.pace)?;
    if query.max_nodes == Some(0) || query.timeout_ms == Some(0) {
        return Err(AppError::bad_request("max_nodes and timeout_ms must be at least 1"));
    }
    let request = SolveRequest {
        board: query.board.clone(),
        goal: query.goal.clone(),
        algorithm: query.algorithm.clone(),
        heuristic: query.heuristic.clone(),
        weight: query.weight,
        ..SolveRequest::default()
    };
    let mut task = Task::new(&request, config)?;
    let max_nodes = query.max_nodes.map_or(config.stream_nodes, |n| n.min(config.stream_nodes));
    let searching = query
        .timeout_ms
        .map_or(config.stream_time, |ms| Duration::from_millis(ms).min(config.stream_time));
    task.options.limits.max_nodes = Some(max_nodes);
    task.options.limits.max_memory = Some(config.stream_memory);
    // Time is the observer's to count (waits excluded): a deadline in the search would stop
    // a paused or slowly paced search that has barely searched. The wall cap bounds the rest.
    task.options.limits.timeout = Some(config.stream_wall);

    let mut slot = state.streams.admit(config.streams).ok_or_else(AppError::busy)?;
    let id = state.streams.new_id();
    let session = Arc::new(Session::default());
    session.set_pace(pace);
    task.options.limits.cancel = Some(Arc::clone(&session.cancel));
    lock(&state.streams.sessions).insert(id.clone(), Arc::clone(&session));
    slot.id = Some(id.clone());

    let fast = fast_path(&state.solver, &task, &session);
    let (tx, rx) = mpsc::channel(CHANNEL);
    let start = json!({
        "id": id,
        "board": task.board.to_string(),
        "goal": task.goal.to_string(),
        "width": task.board.width(),
        "height": task.board.height(),
        "algorithm": task.options.algorithm.name(),
        "heuristic": task.options.heuristic.name(),
        "weight": task.options.weight,
        "pace": pace,
        "max_nodes": max_nodes,
        "max_seconds": searching.as_secs_f64(),
        "max_memory_mib": config.stream_memory >> 20,
        "engine": if fast { "fast" } else { "generic" },
    });
    // The channel is empty: this cannot fail.
    let _ = tx.try_send(event("start", &start));
    let solver = state.solver.clone();
    let thread_session = Arc::clone(&session);
    let streams = Arc::clone(&state.streams);
    let spawned = std::thread::Builder::new().name("npuzzle-search".into()).spawn(move || {
        let _slot = slot;
        crate::priority::lower_this_thread();
        let gate = &streams.gate;
        run(&solver, task, Stream { session: thread_session, tx, searching, gate, fast });
    });
    if spawned.is_err() {
        // The slot went with the closure; the session is forgotten with it.
        return Err(AppError::busy());
    }
    let body = EventStream { rx, session };
    Ok(Sse::new(body).keep_alive(KeepAlive::new().interval(KEEP_ALIVE)).into_response())
}

/// The SSE body: the events the search thread sends; dropping it (the client went away)
/// stops the search.
struct EventStream {
    rx: mpsc::Receiver<Event>,
    session: Arc<Session>,
}

impl futures_core::Stream for EventStream {
    type Item = Result<Event, std::convert::Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.rx.poll_recv(cx).map(|e| e.map(Ok))
    }
}

impl Drop for EventStream {
    fn drop(&mut self) {
        self.session.stop();
    }
}

fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default().event(name).json_data(data).unwrap_or_else(|_| Event::default().event(name))
}

/// What the search thread needs besides the task.
struct Stream<'g> {
    session: Arc<Session>,
    tx: mpsc::Sender<Event>,
    searching: Duration,
    gate: &'g Gate,
    /// Whether the search runs on the fast engines, sampled ([`fast_path`]).
    fast: bool,
}

/// Runs the search on this thread and sends its events, the last being `done`.
fn run(solver: &Solver, task: Task, stream: Stream) {
    let Stream { session, tx, searching, gate, fast } = stream;
    let now = Instant::now();
    // What the solver's plan runs first (it watches `auto` as IDA* on boards of up to 16
    // cells): the deepening searches have bounds to show.
    let nodes = if fast { Nodes::Sampled } else { Nodes::Every };
    let deepening = solver.plan(&task.goal, &task.options, nodes).is_ok_and(|p| {
        p.steps
            .first()
            .is_some_and(|s| matches!(s.labels().0, Algorithm::IdaStar | Algorithm::Iddfs))
    });
    // The generic engines report bounds for IDA* and IDDFS only; the fast A* and BFS report
    // their f layers and depths too, which the page does not show.
    let bounds = !fast || deepening;
    let mut watcher = StreamWatcher {
        turn: Turn::new(gate, &session.cancel),
        fast,
        bounds,
        asked: 0,
        last_sample: 0,
        last_sent: 0,
        warming: 0,
        session: &session,
        tx: &tx,
        searching,
        started: now,
        waited: Duration::ZERO,
        due: now,
        last_frame: None,
        last_lists: None,
        last_stats: (now, 0),
        expanded: 0,
        generated: 0,
        frontier: 0,
        closed: 0,
        skipped: 0,
        recent: VecDeque::with_capacity(SHOWN + 1),
        path: Vec::new(),
        path_known: false,
        deepening,
        out_of_time: false,
        gone: false,
    };
    if watcher.needs_turn() && !watcher.turn.try_hold() {
        // Every turn is taken: say so, wait for one (or for the client to give up).
        let ahead = gate.waiting();
        watcher.send(event("state", &json!({"state": "queued", "expanded": 0, "ahead": ahead})));
        let began = Instant::now();
        if watcher.turn.hold() {
            watcher.send(event("state", &json!({"state": "running", "expanded": 0})));
        }
        watcher.waited += began.elapsed();
    }
    let request = Request::new(&task.board, &task.goal, &task.options);
    let result = solver.solve_with(&request, &mut watcher);
    watcher.turn.release();
    if watcher.gone {
        return;
    }
    if !watcher.fast {
        watcher.last_frame();
    } else if let Ok(solution) = &result {
        // The fast engines report counts only every 1024 nodes: the last stats are exact.
        watcher.expanded = solution.stats.expanded;
        watcher.generated = solution.stats.generated;
        watcher.session.expanded.store(watcher.expanded, Ordering::Relaxed);
    }
    watcher.stats(Instant::now());
    let record = match result {
        Ok(mut solution) => {
            if watcher.out_of_time {
                solution.reason = Some(Reason::Limit(Limit::Time(searching)));
            }
            if let Some(message) = limit_message(&solution, &task) {
                watcher.send(event("limit", &json!({ "message": message })));
            }
            solution
                .replay(&task.board, &task.goal)
                .map_err(|e| format!("bug: {e}"))
                .map(|()| Record::new(&task.board, &task.goal, &solution))
        }
        Err(err) => Err(err.to_string()),
    };
    match record {
        Ok(record) => watcher.send(event("done", &record)),
        Err(message) => watcher.send(event("error", &json!({ "error": message }))),
    };
}

/// Whether the search runs on the solver's fast engines, sampled (see the module's docs):
/// when it starts at full speed and the solver's plan for it starts with a step that shows
/// nodes (the solver watches `auto` as IDA* on boards of up to 16 cells, the optimal search a
/// teacher shows).
fn fast_path(solver: &Solver, task: &Task, session: &Session) -> bool {
    if session.interval().is_some() {
        return false;
    }
    // Which engine can show what is the solver's to say.
    solver.shows_nodes(&Request::new(&task.board, &task.goal, &task.options))
}

/// "BFS stopped at 1,000,000 nodes: try A* with linear conflict", for a search a server cap
/// stopped (not one the client stopped).
fn limit_message(solution: &Solution, task: &Task) -> Option<String> {
    let Some(Reason::Limit(limit)) = &solution.reason else { return None };
    let name = match solution.algorithm.name() {
        "bfs" => "BFS".to_string(),
        "dfs" => "DFS".to_string(),
        "iddfs" => "IDDFS".to_string(),
        "dijkstra" => "Dijkstra".to_string(),
        "greedy" => "Greedy best-first".to_string(),
        "astar" => "A*".to_string(),
        "wastar" => format!("Weighted A* (w = {})", task.options.weight),
        "idastar" => "IDA*".to_string(),
        other => other.to_string(),
    };
    let at = match limit {
        Limit::Nodes(n) => format!("{name} stopped at {} nodes", thousands(*n)),
        Limit::Memory(bytes) => format!("{name} stopped at {} MiB of memory", bytes >> 20),
        Limit::Time(t) => format!("{name} stopped after {} s of searching", t.as_secs()),
        Limit::Cancelled => return None,
    };
    let heuristic = solution.heuristic.map(|h| h.name());
    let advice = match solution.algorithm.name() {
        "bfs" | "dijkstra" | "iddfs" | "dfs" => "try A* with linear conflict",
        "greedy" | "wastar" => "try a stronger heuristic, or a larger weight",
        "astar" if heuristic != Some("linear-conflict") => "try linear conflict, or IDA*",
        "astar" => "try IDA*, which needs almost no memory",
        _ if heuristic != Some("linear-conflict") => "try linear conflict",
        _ => "try weighted A* for a fast answer that is not proven shortest",
    };
    Some(format!("{at}: {advice}"))
}
