//! The web game of `npuzzle serve`: an HTTP API over the solver and the page that plays.
//!
//! [`app`] builds the whole [`axum::Router`] from an [`AppState`], so tests drive it with
//! `tower::ServiceExt::oneshot` and no socket; [`serve`] runs it on a listener until a
//! shutdown signal, and [`run`] is the blocking entry point the `npuzzle` binary calls.
//! The board conventions (text form, goals, move letters) are those of `npuzzle-core`.
//!
//! # The API
//! - `GET /`: the page. Its HTML, CSS and ES modules live in `crates/web/assets/` and are
//!   embedded in the binary; `GET /assets/{name}` serves the others.
//! - `POST /api/solve` with `{"board": "8 6 7/2 5 4/3 0 1"}` and optionally `goal`,
//!   `algorithm`, `heuristic`, `weight`, `optimal`, `max_nodes`, `timeout_ms`,
//!   `max_memory_mib` (each limit capped by the server's [`Config`]) answers the object
//!   `npuzzle solve --format json` prints: `status` (`solved`, `unsolvable`, `limit`),
//!   `board`, `goal`, `width`, `height`, `algorithm`, `heuristic`, `optimal`, `length`,
//!   `moves`, `tiles`, `expanded`, `generated`, `max_frontier`, `seconds`, `error`, and
//!   `note` when there is one. With `"mode": "hint"` it answers only the next move:
//!   `move` (its letter), `tile`, `distance`, `optimal`, `lower_bound` and `note`, and every
//!   legal move with the distance after it; along the path of a recent hint on a board of
//!   more than 16 cells, the rest of that path at once (see [`hint`]). A solve or hint given
//!   an `id` (a name of the client's, 1 to 64 letters, digits, `-` or `_`) can be stopped
//!   with `POST /api/solve/{id}/stop`: its request then answers with the best solution found
//!   so far, or that solution's first move (a solve whose client goes away is cancelled and
//!   answers nobody); while it runs,
//!   `GET /api/solve/{id}` answers what it has found and proved so far
//!   (`{"running", "seconds", "lower_bound", "best", "expanded"}`: the best length yet and
//!   the lower bound), 404 once it has ended.
//! - `GET /api/scramble?size=4x4&seed=7&goal=blank-last`: a uniformly random solvable board,
//!   `{"board", "size", "goal", "seed", "solvable"}`; the seed defaults to the clock.
//! - `GET /api/search?board=...&algorithm=...&heuristic=...&weight=...&pace=...`: the search
//!   streamed as Server-Sent Events, node by node, ending with the object `/api/solve`
//!   answers; `POST /api/search/{id}/pause|resume|step|stop` and `.../pace/{n}` control it
//!   (see [`search`]).
//! - `GET /healthz`: `{"status": "ok", "pool": {...}, "streams": {"running", "max",
//!   "computing", "waiting"}}` (streams open, the most that may be, and their searches
//!   holding a turn on the cores or waiting for one: see [`gate`]), answered on the async
//!   threads even while every solver worker is busy.
//!
//! Errors are `{"error": "one line"}`: 400 for bad input (malformed JSON, unknown fields, an
//! invalid board, a goal of another size, an unknown algorithm), 413 for a body over
//! [`MAX_BODY_BYTES`], 404 for an unknown path, 405 for a wrong method, and 503 with
//! `Retry-After` when the solver pool is full. Requests that are not HTTP/1.1 get the same
//! shape (with `connection: close`): 400 for a garbage request line or header, 414 for a
//! target over 65,534 bytes, 431 for a head too large. Nothing a client sends causes a 500.
//!
//! Solves run on a bounded pool of blocking threads (see [`pool`]), each under node, time
//! and memory limits capped by [`Config`]; a client that goes away cancels its solve.
//! Streamed searches run on threads of their own, as many as [`Config::streams`], of which
//! at most [`Config::stream_workers`] compute at once, taking turns ([`gate`]). Every
//! solver thread lowers its own priority ([`priority`]) so the request threads stay quick.
//!
//! # The page's testing contract
//! Tests and users' scripts drive the page through these, as a person would; they are kept
//! stable:
//!
//! - The game's board is the element `#board`. It carries `data-board` with the current
//!   position in the standard notation (`8 6 7/2 5 4/3 0 1`, rows by `/`, `0` the blank),
//!   updated after every move (at the start of a move's slide animation), and `data-size`
//!   (`WxH`) and `data-solved` (`true` when the position is the goal).
//! - Tiles are `<button>` elements inside the board, one per tile, each with `data-tile`
//!   (its number) and an accessible name that contains its number (`aria-label="Tile 5"`,
//!   plus its row and column), whether it shows a number or a piece of a picture.
//!   Activating a tile in the blank's row or column slides it and every tile between it and
//!   the blank.
//! - Every control is a `<button>` (or a labelled input) with visible text or an
//!   `aria-label`: **Randomize**, **Reset**, **Undo**, **Redo**, **Hint**, **Solve**,
//!   **Play**/**Pause** (one button whose text says what it will do), **Step back**,
//!   **Step forward**, **Next picture**, **Numbers** (a checkbox: numbers on picture tiles),
//!   **Copy position**, **Share link**, and the labelled inputs **Size**, **Width**,
//!   **Height**, **Tiles show** (numbers or a picture), **Algorithm**, **Heuristic**,
//!   **Speed**, **Position** (with **Load**; pasting a position anywhere outside a text field
//!   loads it too), **Keys move** (tile or blank) and **Your picture** (a file input;
//!   dropping an image on the board does the same).
//! - `#status` is a live region with the last message (a hint's "optimal distance N", a
//!   solve's result, an error); `#moves` and `#timer` show the move count and the time.
//! - The hint highlights its tile with the class `hint` and `data-hint` on the board.
//! - The URL's fragment `#board=8,6,7/2,5,4/3,0,1&picture=1` (or `picture=numbers`) restores
//!   a position, its size and the picture choice; the Share link button puts the current
//!   one in the address bar and on the clipboard.
//! - Views: the page is built as views selected by the tabs in `<nav>` (`data-view`); the
//!   game is `data-view="play"`, the search visualizer `data-view="search"`.
//! - The visualizer's controls: **Watch one** / **Race two** (radio buttons), **Board** (the
//!   game's board, random, or typed into **Board to search**), **Algorithm**, **Heuristic**,
//!   **Weight** (and **Algorithm B**, **Heuristic B**, **Weight B** when racing), **Speed**,
//!   **Solution only**, and the buttons **Start**, **Pause** (its text becomes **Resume**),
//!   **Step** and **Stop**. Each search is drawn in a lane, `#lane-a` and `#lane-b`, whose
//!   `data-state` is `ready`, `running`, `paused`, `solved`, `stopped` or `failed`; inside
//!   it, `[data-field=expanded]` carries the count in `data-value`, `[data-field=board]`
//!   the board being expanded in `data-board`, and `[data-field=message]` a cap's message;
//!   for IDDFS and IDA* the lane's `data-path` holds the moves from the start to the node
//!   drawn (when the stream knows them; once solved, the solution). The race's results are
//!   the table `#race-results`, one row per lane (search, moves, optimal, nodes, time,
//!   engine), the winner's with class `winner`.
//!
//! # Example
//! ```
//! use npuzzle_web::{AppState, Config, app};
//! use tower::ServiceExt;
//! # tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(async {
//! let app = app(AppState::new(Config::default()));
//! let request = axum::http::Request::get("/healthz").body(axum::body::Body::empty())?;
//! let response = app.oneshot(request).await?;
//! assert_eq!(response.status(), 200);
//! # Ok::<(), Box<dyn std::error::Error>>(()) })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod assets;
mod error;
pub mod gate;
pub mod hint;
mod parse_error;
pub mod pool;
pub mod priority;
mod scramble;
pub mod search;
mod server;
mod solve;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use npuzzle_solver::Solver;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use error::{AppError, AppJson, AppPath, AppQuery, RETRY_AFTER_SECS};
pub use hint::{HintAnswer, MoveAnswer, Trails};
pub use npuzzle_solver::Record;
pub use pool::{Pool, PoolLoad};
pub use scramble::{ScrambleQuery, Scrambled};
pub use search::{SearchQuery, Streams};
pub use server::{run, serve};
pub use solve::{Mode, Running, SolveRequest, Task};

/// The largest request body the server reads: 64 KiB (a 100x100 board in text fits).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// What the server allows: the size of its solver pool and the caps on every solve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Solves running at once (default: the machine's cores).
    pub workers: usize,
    /// Requests that may wait for a worker beyond those running (default 64).
    pub queue: usize,
    /// The longest a request waits for a worker before it is answered 503 (default 10 s).
    pub queue_wait: Duration,
    /// The most nodes one solve may expand (default: no cap beyond time and memory).
    pub max_nodes: Option<u64>,
    /// The longest one solve may run (default 10 s).
    pub timeout: Duration,
    /// The most memory one solve may hold, in bytes (default 256 MiB), so solving holds at
    /// most `workers × max_memory`.
    pub max_memory: usize,
    /// Searches streamed by `GET /api/search` at once (default 64); one more is answered 503.
    pub streams: usize,
    /// The most nodes one streamed search may expand (default 1,000,000).
    pub stream_nodes: u64,
    /// The most time one streamed search may spend searching, waits for its pace, a pause
    /// or its client excluded (default 30 s).
    pub stream_time: Duration,
    /// The longest one stream may stay open, waits included (default 30 min).
    pub stream_wall: Duration,
    /// The most memory one streamed search may hold, in bytes (default 96 MiB), so streams
    /// hold at most `streams × stream_memory`.
    pub stream_memory: usize,
    /// Streamed searches computing at once (default: the machine's cores); the others wait
    /// for their turn (see [`gate`]).
    pub stream_workers: usize,
    /// Connections open at once (default: the descriptor limit less 64); one more is
    /// answered 503 and closed, so that the server never runs out of descriptors.
    pub max_connections: usize,
    /// The longest a connection may take to send a request's head, counted from when the
    /// server starts waiting for it (a new connection, or one kept alive after an answer);
    /// then it is closed (default 10 s).
    pub header_timeout: Duration,
    /// The longest a request body may take to arrive, whole (default 10 s); then it is
    /// answered 408.
    pub body_timeout: Duration,
    /// The solver every request goes through (default: one with no databases); `npuzzle
    /// serve` gives one that owns the cache's pattern databases (see
    /// [`Solver::with_store`]), and `/healthz` reports what its store holds and builds.
    pub solver: Solver,
}

impl Config {
    /// The default time cap of one solve.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default memory cap of one solve.
    pub const DEFAULT_MEMORY: usize = 256 << 20;
}

impl Default for Config {
    fn default() -> Config {
        Config {
            workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 64,
            queue_wait: Duration::from_secs(10),
            max_nodes: None,
            timeout: Config::DEFAULT_TIMEOUT,
            max_memory: Config::DEFAULT_MEMORY,
            streams: 64,
            stream_nodes: 1_000_000,
            stream_time: Duration::from_secs(30),
            stream_wall: Duration::from_secs(30 * 60),
            stream_memory: 96 << 20,
            stream_workers: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_connections: server::default_max_connections(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            solver: Solver::new(),
        }
    }
}

/// What every handler shares: the configuration, the solver and the pool it runs on.
#[derive(Debug)]
pub struct AppState {
    /// The caps.
    pub config: Config,
    /// The solver: its tables are built on first use and kept, bounded whatever clients send.
    pub solver: Solver,
    /// The pool that runs solves.
    pub pool: Pool,
    /// The searches streaming now.
    pub streams: Arc<Streams>,
    /// The paths of recent hints, which answer the hints along them at once.
    pub trails: Trails,
    /// The solves running under a client's id, which `POST /api/solve/{id}/stop` stops.
    pub running: solve::Running,
}

impl AppState {
    /// The state for `config`, with its pool.
    pub fn new(config: Config) -> Arc<AppState> {
        let pool = Pool::new(config.workers, config.queue, config.queue_wait);
        let streams = Arc::new(Streams::new(config.stream_workers));
        let solver = config.solver.clone();
        Arc::new(AppState {
            config,
            solver,
            pool,
            streams,
            trails: Trails::default(),
            running: solve::Running::default(),
        })
    }
}

/// The whole application: API, page and error handling, without a socket.
pub fn app(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/assets/{name}", get(assets::file))
        .route("/api/solve", post(solve::handler))
        .route("/api/solve/{id}", get(solve::progress))
        .route("/api/solve/{id}/stop", post(solve::stop))
        .route("/api/scramble", get(scramble::handler))
        .route("/api/search", get(search::handler))
        .route("/api/search/{id}/{action}", post(search::control))
        .route("/api/search/{id}/pace/{value}", post(search::set_pace))
        .route("/healthz", get(healthz))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::Extension(error::BodyTimeout(state.config.body_timeout)))
        // Request logs: one line per response at `info`, with method, path, status, latency.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|request: &axum::http::Request<axum::body::Body>| {
                    tracing::info_span!("request", method = %request.method(), path = %request.uri().path())
                })
                .on_request(())
                .on_response(DefaultOnResponse::new().level(Level::INFO)),
        )
        .with_state(state)
}

/// `GET /healthz`: never waits for the pool.
async fn healthz(
    axum::extract::State(state): axum::extract::State<Arc<AppState>>,
) -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({
        "status": "ok",
        "pool": state.pool.load(),
        "streams": {
            "running": state.streams.running(),
            "max": state.config.streams,
            "computing": state.streams.computing().0,
            "waiting": state.streams.computing().1,
        },
        "databases": databases(&state.solver),
    }))
}

/// What the solver's store holds and is building, for `/healthz`: `{"held": [{"size": "4x4",
/// "goal": ..., "partition": "7-8", "bytes": ...}], "building": [...]}` (both empty without
/// a store).
fn databases(solver: &Solver) -> serde_json::Value {
    let status = solver.store().map(|s| s.status()).unwrap_or_default();
    let list = |entries: &[npuzzle_solver::heuristic::pdb::store::Entry]| {
        entries
            .iter()
            .map(|e| {
                serde_json::json!({
                    "size": e.goal.size().to_string(),
                    "goal": e.goal.to_string(),
                    "partition": e.partition,
                    "bytes": e.bytes,
                })
            })
            .collect::<Vec<_>>()
    };
    serde_json::json!({ "held": list(&status.held), "building": list(&status.building) })
}

async fn not_found(uri: axum::http::Uri) -> AppError {
    AppError::not_found(format!("no such page: {}", uri.path()))
}

async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> AppError {
    AppError::method_not_allowed(format!("{method} is not allowed on {}", uri.path()))
}
