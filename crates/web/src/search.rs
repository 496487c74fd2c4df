//! `GET /api/search`: a search streamed as Server-Sent Events, node by node, and the control
//! requests that pause, step, resume and stop it.
//!
//! The search runs on its own thread (not the solve pool's: a stream that is paused or paced
//! at one node a second holds its thread for minutes). A search that starts at full speed
//! on a board of at most 4x4 with A*, Dijkstra, BFS, IDDFS or IDA* (or `auto`, watched as
//! IDA*) runs on the solver's fast engines through [`Solver::solve_sampled`], the very search
//! `/api/solve` runs (same answer, same counts, a few percent slower): the engine asks the
//! watcher about every 1024 expansions whether it wants the node at hand, and the watcher
//! says yes when a frame is due (and for the few nodes before it, shown as `recent`), or at
//! every node while the search is paused or paced (a pause, a step or a new pace then acts
//! node by node, as on the generic engines). Every other search (paced from the start,
//! larger boards, DFS, greedy, weighted A*) runs on the generic engines through
//! [`Solver::solve_watched`], whose observer here does four things at every node: it blocks
//! while the search is paused or ahead of its pace, it decides whether this node is drawn
//! (every node when paced; at full speed at most [`FRAME`] apart, with the number skipped),
//! it keeps the statistics, and it stops the search when the client has gone, asked it to
//! stop, or the search used up its share of time.
//!
//! # Events, in order
//! - `start`: `{"id", "board", "goal", "width", "height", "algorithm", "heuristic", "weight",
//!   "pace", "max_nodes", "max_seconds", "max_memory_mib"}`. The `id` names the stream in
//!   control requests.
//! - `expand`: a node about to be expanded: `{"n", "board", "g", "h", "f", "open",
//!   "closed", "skipped", "elapsed", "soonest", "recent"}`. `n` counts expansions from 1; `open` and
//!   `closed` are the list sizes the search reports (see `npuzzle_search::Expand`);
//!   `skipped` is how many expansions since the previous `expand` event were not sent (0
//!   when paced); `soonest` lists the open list's best few (`{"board", "g", "h", "f"}`, the
//!   next to be expanded first; empty for IDDFS and IDA*, which keep no open list) and
//!   `recent` the last few expanded before this one, newest first. When paced faster than
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

use std::collections::{HashMap, VecDeque};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use npuzzle_core::Board;
use npuzzle_search::{Bound, Expand, Flow, Generate, Observer, Progress};
use npuzzle_solver::{
    Algorithm, Limit, Reason, Record, Sampler, Solution, Solver, Status, thousands,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio::sync::mpsc;

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

/// The streams running now, by id, and how many there may be.
#[derive(Debug)]
pub struct Streams {
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    running: AtomicUsize,
    next: AtomicU64,
    /// The turns their searches take on the cores.
    gate: Gate,
}

impl Default for Streams {
    /// As many turns as cores.
    fn default() -> Streams {
        Streams::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }
}

impl Streams {
    /// No streams yet; their searches compute `turns` at a time (see [`crate::gate`]).
    pub fn new(turns: usize) -> Streams {
        Streams {
            sessions: Mutex::default(),
            running: AtomicUsize::new(0),
            next: AtomicU64::new(0),
            gate: Gate::new(turns),
        }
    }

    /// Searches computing now, and searches waiting for their turn.
    pub fn computing(&self) -> (usize, usize) {
        (self.gate.computing(), self.gate.waiting())
    }

    /// Searches streaming now (their threads included, until they have stopped).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// A slot for a new stream, or `None` when `max` are running.
    fn admit(self: &Arc<Streams>, max: usize) -> Option<Slot> {
        let admitted = self
            .running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1))
            .is_ok();
        admitted.then(|| Slot { streams: Arc::clone(self), id: None })
    }

    fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.sessions).get(id).cloned()
    }

    /// Stops every search: for a shutdown.
    pub fn stop_all(&self) {
        for session in lock(&self.sessions).values() {
            session.stop();
        }
    }

    /// An id nobody can guess from another: the clock and a counter, mixed.
    fn new_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let mut x = (nanos as u64) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // splitmix64's finaliser.
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("{:016x}", x ^ (x >> 31))
    }
}

/// A running stream's place: freed (and its id forgotten) when its search thread ends.
struct Slot {
    streams: Arc<Streams>,
    id: Option<String>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(id) = &self.id {
            lock(&self.streams.sessions).remove(id);
        }
        self.streams.running.fetch_sub(1, Ordering::AcqRel);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What control requests set, read by the search thread.
#[derive(Debug, Default)]
struct Control {
    paused: bool,
    /// Nodes a paused search may still expand.
    steps: u64,
    /// Whether the search has told the client it is paused.
    told_paused: bool,
}

/// One stream's shared state: its control and its cancel flag.
#[derive(Debug, Default)]
struct Session {
    cancel: Arc<AtomicBool>,
    /// A copy of `control.paused`, read at every node without the lock.
    paused: AtomicBool,
    control: Mutex<Control>,
    wake: Condvar,
    expanded: AtomicU64,
    /// Nanoseconds per node when paced; 0 at full speed.
    interval: AtomicU64,
}

impl Session {
    fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _guard = lock(&self.control);
        self.wake.notify_all();
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    fn set_pace(&self, pace: Option<f64>) {
        let nanos = pace.map_or(0, |p| (1e9 / p).round() as u64).max(u64::from(pace.is_some()));
        self.interval.store(nanos, Ordering::Relaxed);
        let _guard = lock(&self.control);
        self.wake.notify_all();
    }

    fn interval(&self) -> Option<Duration> {
        match self.interval.load(Ordering::Relaxed) {
            0 => None,
            nanos => Some(Duration::from_nanos(nanos)),
        }
    }
}

/// Reads a `pace`: absent or 0 is full speed, otherwise 1 to 1,000,000 nodes a second.
fn pace(value: Option<f64>) -> Result<Option<f64>, AppError> {
    match value {
        None | Some(0.0) => Ok(None),
        Some(p) if p.is_finite() && (1.0..=1e6).contains(&p) => Ok(Some(p)),
        Some(p) => Err(AppError::bad_request(format!(
            "pace must be 0 (full speed) or from 1 to 1,000,000 nodes per second, got {p}"
        ))),
    }
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
        run(&solver, task, Stream { session: thread_session, tx, searching, gate });
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
}

/// Runs the search on this thread and sends its events, the last being `done`.
fn run(solver: &Solver, mut task: Task, stream: Stream) {
    let Stream { session, tx, searching, gate } = stream;
    let now = Instant::now();
    let fast = fast_path(&mut task, &session);
    // The generic engines report bounds for IDA* and IDDFS only; the fast A* and BFS report
    // their f layers and depths too, which the page does not show.
    let bounds = !fast || matches!(task.options.algorithm, Algorithm::IdaStar | Algorithm::Iddfs);
    let mut watcher = Watcher {
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
    let result = if watcher.fast {
        solver.solve_sampled(&task.board, &task.goal, &task.options, &mut watcher)
    } else {
        solver.solve_watched(&task.board, &task.goal, &task.options, &mut watcher)
    };
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
            replay_check(&task, &solution).map(|()| Record::new(&task.board, &task.goal, &solution))
        }
        Err(err) => Err(err.to_string()),
    };
    match record {
        Ok(record) => watcher.send(event("done", &record)),
        Err(message) => watcher.send(event("error", &json!({ "error": message }))),
    };
}

/// Whether the search runs on the solver's fast engines, sampled (see the module's docs):
/// when it starts at full speed on a board of at most 4x4 with an algorithm a packed engine
/// runs (`auto` is IDA*, as [`Solver::solve_watched`] watches it).
fn fast_path(task: &mut Task, session: &Session) -> bool {
    if session.interval().is_some() {
        return false;
    }
    // The visualizer's `auto` is IDA*, the optimal search a teacher shows on these boards.
    if task.options.algorithm == Algorithm::Auto
        && task.board.width() <= 4
        && task.board.height() <= 4
    {
        task.options.algorithm = Algorithm::IdaStar;
    }
    // Which engine can show what is the solver's to say.
    Solver::samples_nodes(task.board.size(), &task.options)
}

/// Replays a solution, as `/api/solve` does.
fn replay_check(task: &Task, solution: &Solution) -> Result<(), String> {
    if solution.status != Status::Solved {
        return Ok(());
    }
    let mut end = task.board.clone();
    match end.apply_all(&solution.moves) {
        Ok(()) if end == task.goal => Ok(()),
        _ => Err("bug: the solver's moves do not reach the goal".into()),
    }
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

/// A board with its costs, as the `soonest` and `recent` lists show it.
#[derive(Serialize)]
struct Shown {
    board: String,
    g: u32,
    h: u32,
    f: u32,
}

/// The observer of a streamed search.
struct Watcher<'a> {
    /// Its turn on the cores: held while it computes.
    turn: Turn<'a>,
    /// The search runs on the fast engines and the watcher sees the nodes it asks for
    /// ([`Solver::solve_sampled`]); otherwise on the generic ones, every node.
    fast: bool,
    /// Whether `bound` events are shown (IDA* and IDDFS; the fast A* and BFS report their
    /// f layers and depths too, which the generic ones do not).
    bounds: bool,
    /// Fast: the expansions before the node the engine last asked about.
    asked: u64,
    /// Fast: the number of the last node sampled, and of the last sent in an event.
    last_sample: u64,
    last_sent: u64,
    /// Fast: nodes still to sample, one by one, before the next frame (the last few
    /// expanded before a frame, for `recent`).
    warming: usize,
    session: &'a Session,
    tx: &'a mpsc::Sender<Event>,
    /// The searching time allowed.
    searching: Duration,
    started: Instant,
    /// Time spent waiting: for the pace, a pause, or room in the channel.
    waited: Duration,
    /// When the next node is due, when paced.
    due: Instant,
    last_frame: Option<Instant>,
    /// When the lists were last sent.
    last_lists: Option<Instant>,
    last_stats: (Instant, u64),
    expanded: u64,
    generated: u64,
    frontier: usize,
    closed: usize,
    skipped: u64,
    /// The last expanded boards with g and h, newest last.
    recent: VecDeque<(Board, u32, u32)>,
    out_of_time: bool,
    /// The client went away: nothing more is sent.
    gone: bool,
}

impl Watcher<'_> {
    /// Sends `event`, waiting for room while the client reads; false when the client has
    /// gone or the search was stopped meanwhile.
    fn send(&mut self, event: Event) -> bool {
        let mut event = event;
        let began = Instant::now();
        let mut released = false;
        loop {
            match self.tx.try_send(event) {
                Ok(()) => break,
                Err(mpsc::error::TrySendError::Closed(_)) => {
                    self.gone = true;
                    break;
                }
                Err(mpsc::error::TrySendError::Full(back)) => {
                    if self.session.cancelled() {
                        break;
                    }
                    event = back;
                    if !released {
                        // The client reads slowly: let another search compute meanwhile.
                        released = self.turn.try_release();
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
        if released && self.needs_turn() {
            self.turn.hold();
        }
        self.waited += began.elapsed();
        !self.gone
    }

    fn stats(&mut self, now: Instant) {
        let (then, before) = self.last_stats;
        let span = now.duration_since(then).as_secs_f64();
        let rate = if span > 0.0 { (self.expanded - before) as f64 / span } else { 0.0 };
        self.last_stats = (now, self.expanded);
        let elapsed = now.duration_since(self.started);
        let data = json!({
            "expanded": self.expanded,
            "generated": self.generated,
            "frontier": self.frontier,
            "elapsed": elapsed.as_secs_f64(),
            "searching": elapsed.saturating_sub(self.waited).as_secs_f64(),
            "nodes_per_second": rate.round(),
        });
        self.send(event("stats", &data));
    }

    fn frame(&mut self, e: &Expand<'_, Board, u32>) {
        // The lists are most of an event's bytes and nobody reads them faster than a screen
        // draws: at a fast pace they come at most every FRAME (a paused search, and one at
        // full speed, whose frames are that far apart already, always show them; so does a
        // pace of at most one node a FRAME, even when a loaded machine sends two events
        // closer together as the pacing catches up).
        let now = Instant::now();
        let lists = self.session.paused.load(Ordering::Relaxed)
            || self.session.interval().is_none_or(|every| every >= FRAME)
            || self.last_lists.is_none_or(|t| now.duration_since(t) >= FRAME);
        let mut data = self.frame_data(e);
        if lists {
            self.last_lists = Some(now);
            let mut soonest = Vec::new();
            if let Some(frontier) = e.frontier() {
                frontier.soonest(SHOWN, &mut |b, g, h| {
                    soonest.push(Shown { board: b.to_string(), g, h, f: g + h });
                });
            }
            let recent: Vec<Shown> = self
                .recent
                .iter()
                .rev()
                .map(|(b, g, h)| Shown { board: b.to_string(), g: *g, h: *h, f: g + h })
                .collect();
            data["soonest"] = json!(soonest);
            data["recent"] = json!(recent);
        }
        self.skipped = 0;
        self.send(event("expand", &data));
    }

    fn frame_data(&self, e: &Expand<'_, Board, u32>) -> serde_json::Value {
        json!({
            "n": self.expanded,
            "board": e.node().to_string(),
            "g": e.g(),
            "h": e.h(),
            "f": e.f(),
            "open": e.open(),
            "closed": e.closed(),
            "skipped": self.skipped,
            "elapsed": self.started.elapsed().as_secs_f64(),
        })
    }

    /// At full speed, the last node expanded when its frame was skipped, so the page ends on
    /// it. The open list is gone with the search: `soonest` is absent.
    fn last_frame(&mut self) {
        if self.skipped == 0 {
            return;
        }
        let Some((board, g, h)) = self.recent.back() else { return };
        let recent: Vec<Shown> = self
            .recent
            .iter()
            .rev()
            .skip(1)
            .map(|(b, g, h)| Shown { board: b.to_string(), g: *g, h: *h, f: g + h })
            .collect();
        let data = json!({
            "n": self.expanded,
            "board": board.to_string(),
            "g": g,
            "h": h,
            "f": g + h,
            "open": self.frontier,
            "closed": self.closed,
            "skipped": self.skipped - 1,
            "elapsed": self.started.elapsed().as_secs_f64(),
            "recent": recent,
        });
        self.skipped = 0;
        self.send(event("expand", &data));
    }

    /// Blocks while paused (after showing the node it waits on) or ahead of the pace; false
    /// when the search must stop.
    fn wait_turn(&mut self, e: &Expand<'_, Board, u32>, interval: Option<Duration>) -> bool {
        let mut shown = false;
        if let Some(interval) = interval {
            // Paced: every node is shown once its time has come.
            let began = Instant::now();
            let mut control = lock(&self.session.control);
            loop {
                if self.session.cancelled() {
                    return false;
                }
                let now = Instant::now();
                if control.paused || now >= self.due {
                    break;
                }
                let wait = (self.due - now).min(POLL);
                self.turn.release();
                control = self
                    .session
                    .wake
                    .wait_timeout(control, wait)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            let paused = control.paused;
            drop(control);
            if self.needs_turn() && !self.turn.hold() {
                return false;
            }
            self.waited += began.elapsed();
            self.due = self.due.max(Instant::now() - interval) + interval;
            if !paused {
                self.frame(e);
                shown = true;
            }
        }
        if self.session.paused.load(Ordering::Relaxed) {
            if !shown {
                self.frame(e);
            }
            self.stats(Instant::now());
            let began = Instant::now();
            let mut control = lock(&self.session.control);
            loop {
                if self.session.cancelled() {
                    return false;
                }
                if !control.paused {
                    control.told_paused = false;
                    drop(control);
                    self.send(event(
                        "state",
                        &json!({"state": "running", "expanded": self.expanded}),
                    ));
                    break;
                }
                if !control.told_paused {
                    control.told_paused = true;
                    let expanded = self.expanded;
                    drop(control);
                    self.send(event("state", &json!({"state": "paused", "expanded": expanded})));
                    control = lock(&self.session.control);
                    continue;
                }
                if control.steps > 0 {
                    control.steps -= 1;
                    drop(control);
                    break;
                }
                self.turn.release();
                control = self
                    .session
                    .wake
                    .wait_timeout(control, POLL)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            if self.needs_turn() && !self.turn.hold() {
                return false;
            }
            self.waited += began.elapsed();
            // After a pause, the pace starts afresh.
            self.due = Instant::now();
        }
        true
    }
}

impl Watcher<'_> {
    /// Sends the stats when they are due, and stops a search past its time or whose
    /// client is gone.
    fn tick(&mut self) -> Flow {
        let now = Instant::now();
        if now.duration_since(self.last_stats.0) >= STATS_EVERY {
            self.stats(now);
            if now.duration_since(self.started).saturating_sub(self.waited) > self.searching {
                self.out_of_time = true;
                return Flow::Stop;
            }
        }
        if self.gone { Flow::Stop } else { Flow::Continue }
    }

    /// Whether the search computes enough to need a turn: it runs at full speed or at a pace
    /// faster than [`SLOW_PACE`] allows (a slower one computes a node now and then, and
    /// waiting in line would only break its pace).
    fn needs_turn(&self) -> bool {
        !self.session.paused.load(Ordering::Relaxed)
            && self.session.interval().is_none_or(|every| every < SLOW_PACE)
    }

    /// At a node or check: takes turns as [`Watcher::needs_turn`] says (giving the turn up
    /// after a quantum when others wait); false when cancelled while waiting.
    fn take_turns(&mut self) -> bool {
        if self.needs_turn() {
            self.turn.share()
        } else {
            self.turn.release();
            true
        }
    }

    /// Whether the search must show its nodes one by one: paused, or paced.
    fn node_by_node(&self) -> bool {
        self.session.paused.load(Ordering::Relaxed) || self.session.interval().is_some()
    }

    /// A node of a fast search, the `n`th expanded, that this watcher asked for.
    fn sampled(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        let n = self.asked + 1;
        if n != self.last_sample + 1 {
            // Only consecutive nodes are the last few expanded.
            self.recent.clear();
        }
        self.last_sample = n;
        self.frontier = e.open();
        self.closed = e.closed();
        self.expanded = n;
        self.session.expanded.store(n, Ordering::Relaxed);
        let interval = self.session.interval();
        if interval.is_some() || self.session.paused.load(Ordering::Relaxed) {
            self.warming = 0;
            self.skipped = n - self.last_sent - 1;
            self.last_sent = n;
            if !self.wait_turn(e, interval) || self.gone {
                return Flow::Stop;
            }
        } else if self.warming > 1 {
            self.warming -= 1;
        } else {
            self.warming = 0;
            self.skipped = n - self.last_sent - 1;
            self.last_sent = n;
            self.last_frame = Some(Instant::now());
            self.frame(e);
        }
        if self.recent.len() == SHOWN {
            self.recent.pop_front();
        }
        self.recent.push_back((e.node().clone(), e.g(), e.h()));
        if self.gone { Flow::Stop } else { Flow::Continue }
    }
}

impl Sampler for Watcher<'_> {
    fn wants(&mut self, expanded: u64) -> bool {
        self.asked = expanded;
        if self.warming > 0 || self.node_by_node() {
            return true;
        }
        match self.last_frame {
            // The start is shown at once.
            None => {
                self.warming = 1;
                true
            }
            Some(t) if t.elapsed() >= FRAME => {
                // A frame is due: see the few nodes before it, one by one, then show it.
                self.warming = SHOWN + 1;
                true
            }
            Some(_) => false,
        }
    }
}

impl Observer<Board, u32> for Watcher<'_> {
    fn progress(&mut self, e: &Progress) -> Flow {
        if !self.fast {
            return Flow::Continue;
        }
        if self.session.cancelled() || !self.take_turns() {
            return Flow::Stop;
        }
        if !self.node_by_node() {
            self.expanded = e.expanded();
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
        }
        self.generated = e.generated();
        self.frontier = usize::try_from(e.frontier()).unwrap_or(usize::MAX);
        self.tick()
    }

    fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        if self.session.cancelled() {
            return Flow::Stop;
        }
        if self.fast {
            return self.sampled(e);
        }
        if !self.take_turns() {
            return Flow::Stop;
        }
        self.frontier = e.open();
        self.closed = e.closed();
        let interval = self.session.interval();
        if interval.is_some() || self.session.paused.load(Ordering::Relaxed) {
            // Counted before the wait: the node shown is the one about to be expanded.
            self.expanded += 1;
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
            if !self.wait_turn(e, interval) || self.gone {
                return Flow::Stop;
            }
        } else {
            self.expanded += 1;
            // Stored before the frame goes out: a client that reads it and asks at once
            // sees at least this count.
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
            let now = Instant::now();
            if self.last_frame.is_none_or(|t| now.duration_since(t) >= FRAME) {
                self.last_frame = Some(now);
                self.frame(e);
            } else {
                self.skipped += 1;
            }
        }
        self.session.expanded.store(self.expanded, Ordering::Relaxed);
        if self.recent.len() == SHOWN {
            self.recent.pop_front();
        }
        self.recent.push_back((e.node().clone(), e.g(), e.h()));
        self.tick()
    }

    fn generate(&mut self, _: &Generate<'_, Board, u32>) -> Flow {
        self.generated += 1;
        Flow::Continue
    }

    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        if !self.bounds {
            return Flow::Continue;
        }
        let data = json!({ "bound": e.bound(), "expanded": e.expanded() });
        if self.send(event("bound", &data)) { Flow::Continue } else { Flow::Stop }
    }
}
