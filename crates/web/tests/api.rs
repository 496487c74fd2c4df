//! The HTTP API through `app()` and `oneshot`, with no socket: every answer is checked
//! against the contract, and every solution is replayed to the goal.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use npuzzle_core::{Board, Moves};
use npuzzle_web::{AppState, Config, app};
use serde_json::{Value, json};
use tower::ServiceExt;

/// Adversarial clients on a real socket.
mod hostile;

fn state() -> Arc<AppState> {
    AppState::new(Config::default())
}

async fn send(
    state: &Arc<AppState>,
    request: Request<Body>,
) -> (StatusCode, header::HeaderMap, Value) {
    let response = app(Arc::clone(state)).oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
    (status, headers, value)
}

fn post(body: impl Into<Body>) -> Request<Body> {
    Request::post("/api/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .body(body.into())
        .unwrap()
}

async fn solve(state: &Arc<AppState>, body: Value) -> (StatusCode, Value) {
    let (status, _, value) = send(state, post(body.to_string())).await;
    (status, value)
}

/// Replays `moves` from `board` and checks it ends at `goal`, and that `tiles` names the
/// tiles those moves slide.
fn assert_solves(record: &Value) {
    let board: Board = record["board"].as_str().unwrap().parse().unwrap();
    let goal: Board = record["goal"].as_str().unwrap().parse().unwrap();
    let moves: Moves = record["moves"].as_str().unwrap().parse().unwrap();
    let mut end = board.clone();
    end.apply_all(&moves).unwrap();
    assert_eq!(end, goal, "{record}");
    let tiles: Vec<u16> = serde_json::from_value(record["tiles"].clone()).unwrap();
    assert_eq!(tiles, board.tiles_moved(&moves).unwrap());
    assert_eq!(record["length"], json!(moves.len()));
}

#[tokio::test]
async fn solve_answers_the_cli_json_record() {
    let state = state();
    let (status, record) = solve(&state, json!({"board": "8 6 7/2 5 4/3 0 1"})).await;
    assert_eq!(status, StatusCode::OK);
    let keys: Vec<&str> = record.as_object().unwrap().keys().map(String::as_str).collect();
    for key in [
        "status",
        "board",
        "goal",
        "width",
        "height",
        "algorithm",
        "heuristic",
        "optimal",
        "length",
        "moves",
        "tiles",
        "expanded",
        "generated",
        "max_frontier",
        "seconds",
        "error",
    ] {
        assert!(keys.contains(&key), "missing {key} in {record}");
    }
    assert_eq!(record["status"], "solved");
    assert_eq!(record["board"], "8 6 7/2 5 4/3 0 1");
    assert_eq!(record["goal"], "1 2 3/4 5 6/7 8 0");
    assert_eq!((record["width"].clone(), record["height"].clone()), (json!(3), json!(3)));
    assert_eq!(record["optimal"], true);
    assert_eq!(record["length"], 31);
    assert_eq!(record["error"], Value::Null);
    assert_solves(&record);
}

#[tokio::test]
async fn solve_takes_algorithm_heuristic_and_goal() {
    let state = state();
    let (status, record) = solve(
        &state,
        json!({"board": "2 6 4/0 7 1/8 5 3", "goal": "snail", "algorithm": "astar", "heuristic": "manhattan"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["algorithm"], "astar");
    assert_eq!(record["heuristic"], "manhattan");
    assert_eq!((record["length"].clone(), record["optimal"].clone()), (json!(19), json!(true)));
    assert_solves(&record);
    // Any explicit goal: an unsolvable board towards it is an answer.
    let (status, record) =
        solve(&state, json!({"board": "1 2 3/4 5 6/8 0 7", "goal": "1 2 3/4 5 6/8 7 0"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["algorithm"], "table");
    assert_eq!(record["length"], 1);
    assert_solves(&record);
    // Clients sending many explicit goals cannot grow the server's tables: they depend on
    // the goal's blank cell only.
    let before = state.solver.table_count();
    for seed in 0..12u64 {
        let (_, _, scrambled) = send(
            &state,
            Request::get(format!("/api/scramble?size=3x3&seed={seed}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
        let mut goal: Vec<&str> = scrambled["board"].as_str().unwrap().split([' ', '/']).collect();
        goal.retain(|t| *t != "0");
        goal.push("0");
        let goal = goal.chunks(3).map(|r| r.join(" ")).collect::<Vec<_>>().join("/");
        let (status, record) =
            solve(&state, json!({"board": "1 2 3/4 5 6/7 8 0", "goal": goal})).await;
        assert_eq!(status, StatusCode::OK, "{record}");
    }
    assert!(state.solver.table_count() <= before + 1, "{} tables", state.solver.table_count());
    // A large board gets the reduction solver, labelled not optimal.
    let (status, _, board) =
        send(&state, Request::get("/api/scramble?size=9x7&seed=3").body(Body::empty()).unwrap())
            .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let (status, record) = solve(&state, json!({"board": board["board"]})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["optimal"], false);
    assert_solves(&record);
}

#[tokio::test]
async fn unsolvable_is_an_answer_not_an_error() {
    let (status, record) = solve(&state(), json!({"board": "2 1 3/4 5 6/7 8 0"})).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["status"], "unsolvable");
    assert_eq!(record["length"], Value::Null);
    assert!(record["error"].is_string());
}

#[tokio::test]
async fn hint_gives_the_next_optimal_move_and_distance() {
    let state = state();
    let (status, hint) = solve(&state, json!({"board": "8 6 7/2 5 4/3 0 1", "mode": "hint"})).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["status"], "solved");
    assert_eq!(hint["distance"], 31);
    assert_eq!(hint["optimal"], true);
    // Every legal move with the distance after it: the hinted one leads to 30.
    let moves = hint["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{hint}");
    let best = moves.iter().find(|m| m["move"] == hint["move"]).unwrap();
    assert_eq!((best["distance"].clone(), best["exact"].clone()), (json!(30), json!(true)));
    assert!(moves.iter().all(|m| m["distance"].as_u64().unwrap() >= 30));
    // The move is legal and leads to a board at distance 30.
    let mut board: Board = "8 6 7/2 5 4/3 0 1".parse().unwrap();
    let letter: Moves = hint["move"].as_str().unwrap().parse().unwrap();
    assert_eq!(hint["tile"], json!(board.tile_for_move(letter.as_slice()[0]).unwrap()));
    board.apply_all(&letter).unwrap();
    let (_, next) = solve(&state, json!({"board": board.to_string(), "mode": "hint"})).await;
    assert_eq!(next["distance"], 30);
    // At the goal there is no move and the distance is 0.
    let (_, done) = solve(&state, json!({"board": "1 2 3/4 5 6/7 8 0", "mode": "hint"})).await;
    assert_eq!((done["move"].clone(), done["distance"].clone()), (Value::Null, json!(0)));
    // A 4x4 a few moves from the goal: optimal; a large board: labelled not optimal.
    let (_, near) =
        solve(&state, json!({"board": "1 2 3 4/5 6 7 8/9 10 0 11/13 14 15 12", "mode": "hint"}))
            .await;
    assert_eq!((near["distance"].clone(), near["optimal"].clone()), (json!(2), json!(true)));
    assert_eq!(near["lower_bound"], json!(2), "{near}");
    assert_eq!(near["move"], "L");
    // One solve on 4x4: the hinted move's distance is exact, the others' lower bounds (a move
    // changes the distance by one, so at least 1 here; the true distances are 3).
    for m in near["moves"].as_array().unwrap() {
        let hinted = m["move"] == "L";
        assert_eq!(m["exact"], json!(hinted), "{near}");
        assert_eq!(m["distance"], if hinted { json!(1) } else { json!(3) }, "{near}");
    }
    let (_, _, scrambled) =
        send(&state, Request::get("/api/scramble?size=8x8&seed=1").body(Body::empty()).unwrap())
            .await;
    let (_, big) = solve(&state, json!({"board": scrambled["board"], "mode": "hint"})).await;
    assert_eq!(big["status"], "solved");
    assert_eq!(big["optimal"], false);
    assert!(big["distance"].as_u64().unwrap() > 0);
    // How far from the optimum the hint may be: a proven bound below its length.
    let bound = big["lower_bound"].as_u64().expect("a lower bound");
    assert!(bound > 0 && bound <= big["distance"].as_u64().unwrap(), "{big}");
}

#[tokio::test]
async fn hints_along_the_path_of_a_recent_hint_answer_from_it() {
    let state = state();
    let (_, _, scrambled) =
        send(&state, Request::get("/api/scramble?size=6x5&seed=3").body(Body::empty()).unwrap())
            .await;
    let board: Board = scrambled["board"].as_str().unwrap().parse().unwrap();
    let ask =
        |board: &Board| json!({"board": board.to_string(), "mode": "hint", "timeout_ms": 1500});
    let (status, first) = solve(&state, ask(&board)).await;
    assert_eq!((status, first["status"].clone()), (StatusCode::OK, json!("solved")), "{first}");
    let distance = first["distance"].as_u64().unwrap();
    let bound = first["lower_bound"].as_u64().unwrap();
    assert!(!first["note"].as_str().unwrap().contains("no new search"), "{first}");
    // The player follows three hints: each is the next move of the same path, one shorter.
    let mut at = board.clone();
    let mut hint = first.clone();
    for k in 1..=3u64 {
        let step: Moves = hint["move"].as_str().unwrap().parse().unwrap();
        at.apply(step.as_slice()[0]).unwrap();
        let (status, next) = solve(&state, ask(&at)).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        assert_eq!(next["distance"], json!(distance - k), "{next}");
        assert_eq!(
            (next["optimal"].clone(), next["algorithm"].clone()),
            (first["optimal"].clone(), first["algorithm"].clone())
        );
        let note = next["note"].as_str().unwrap();
        let back = if k == 1 { "1 move back".to_string() } else { format!("{k} moves back") };
        assert!(note.ends_with(&format!("a hint found {back} (no new search)")), "{note}");
        let lower = next["lower_bound"].as_u64().unwrap();
        assert!(lower >= bound - k && lower <= distance - k, "{next}");
        hint = next;
    }
    // Off the path (a move back is not on it: the path has no loops), a new search.
    let off = board
        .moved(
            board
                .legal_moves()
                .find(|&m| {
                    Some(m.letter()) != first["move"].as_str().and_then(|s| s.chars().next())
                })
                .unwrap(),
        )
        .unwrap();
    let (_, fresh) = solve(&state, ask(&off)).await;
    assert_eq!(fresh["status"], "solved", "{fresh}");
    assert!(!fresh["note"].as_str().unwrap_or_default().contains("no new search"), "{fresh}");
}

#[tokio::test]
async fn scramble_is_seeded_solvable_and_sized() {
    let state = state();
    let get = |uri: &str| Request::get(uri).body(Body::empty()).unwrap();
    let (status, _, a) = send(&state, get("/api/scramble?size=5x3&seed=42")).await;
    assert_eq!(status, StatusCode::OK);
    let (_, _, b) = send(&state, get("/api/scramble?size=5x3&seed=42")).await;
    assert_eq!(a, b);
    assert_eq!(a["size"], "5x3");
    assert_eq!(a["seed"], 42);
    assert_eq!(a["solvable"], true);
    let board: Board = a["board"].as_str().unwrap().parse().unwrap();
    assert_eq!((board.width(), board.height()), (5, 3));
    let goal = npuzzle_core::Goal::BlankLast.board(board.size()).unwrap();
    assert!(board.is_solvable(&goal));
    // Without a seed: one from the clock, reported.
    let (status, _, c) = send(&state, get("/api/scramble?size=3x3")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(c["seed"].is_u64());
    for bad in [
        "/api/scramble?size=1x9",
        "/api/scramble?size=big",
        "/api/scramble?size=3x3&seed=-1",
        "/api/scramble?size=3x3&colour=red",
    ] {
        let (status, _, e) = send(&state, get(bad)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {e}");
        assert!(e["error"].is_string(), "{bad}: {e}");
    }
    let (_, _, e) = send(&state, get("/api/scramble?size=3x3&seed=-1")).await;
    assert_eq!(e["error"], "invalid query: seed: expected a whole number of at least 0", "{e}");
    let (_, _, e) = send(&state, get("/api/scramble?size=3x3&seed=99999999999999999999")).await;
    assert_eq!(e["error"], "invalid query: seed: the number is too large", "{e}");
}

#[tokio::test]
async fn bad_input_is_400_json_never_500() {
    let state = state();
    let cases: Vec<(&str, String)> = vec![
        ("malformed JSON", "{\"board\": ".into()),
        ("not an object", "[1,2,3]".into()),
        ("missing board", "{}".into()),
        ("unknown field", json!({"board": "1 2/3 0", "colour": 1}).to_string()),
        ("invalid board", json!({"board": "1 2 3/4 5 6/7 8 8"}).to_string()),
        ("not a board", json!({"board": "hello"}).to_string()),
        (
            "goal of another size",
            json!({"board": "8 6 7/2 5 4/3 0 1", "goal": "0 1/2 3"}).to_string(),
        ),
        ("unknown goal", json!({"board": "8 6 7/2 5 4/3 0 1", "goal": "sideways"}).to_string()),
        (
            "unknown algorithm",
            json!({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "quantum"}).to_string(),
        ),
        (
            "unknown heuristic",
            json!({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "vibes"}).to_string(),
        ),
        ("weight below 1", json!({"board": "8 6 7/2 5 4/3 0 1", "weight": 0.5}).to_string()),
        ("zero nodes", json!({"board": "8 6 7/2 5 4/3 0 1", "max_nodes": 0}).to_string()),
        ("negative timeout", "{\"board\": \"1 2/3 0\", \"timeout_ms\": -5}".into()),
        (
            "table too large",
            json!({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", "algorithm": "table"})
                .to_string(),
        ),
        ("unknown mode", json!({"board": "1 2/3 0", "mode": "cheat"}).to_string()),
    ];
    for (what, body) in cases {
        let (status, headers, value) = send(&state, post(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{what}: {value}");
        assert_eq!(headers[header::CONTENT_TYPE], "application/json", "{what}");
        let error = value["error"].as_str().unwrap_or_else(|| panic!("{what}: {value}"));
        assert!(!error.is_empty() && !error.contains('\n'), "{what}: {error}");
        assert_eq!(value.as_object().unwrap().len(), 1, "{what}: {value}");
    }
}

#[tokio::test]
async fn a_body_over_64_kib_is_413_json() {
    let state = state();
    let board = "1 ".repeat(40_000);
    let (status, _, value) = send(&state, post(json!({"board": board}).to_string())).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{value}");
    assert!(value["error"].as_str().unwrap().contains("64 KiB"), "{value}");
    // Just under the limit is read (and rejected for what it is, not its size).
    let board = "1 ".repeat(30_000);
    let (status, _, value) = send(&state, post(json!({"board": board}).to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
}

#[tokio::test]
async fn limits_are_capped_by_the_server_and_reached_as_answers() {
    // The request asks for many nodes; the server allows 1,000.
    let state = AppState::new(Config { max_nodes: Some(1_000), ..Config::default() });
    let hard = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";
    let (status, record) =
        solve(&state, json!({"board": hard, "algorithm": "bfs", "max_nodes": 1_000_000_000u64}))
            .await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["status"], "limit");
    assert!(record["expanded"].as_u64().unwrap() <= 1_100, "{record}");
    assert!(record["error"].is_string());
    assert_eq!(record["length"], Value::Null);
    // A request's own smaller limits apply too: time.
    let state = AppState::new(Config::default());
    let (status, record) = solve(
        &state,
        json!({"board": hard, "algorithm": "idastar", "heuristic": "hamming", "timeout_ms": 50}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(record["status"], "limit");
    assert!(record["seconds"].as_f64().unwrap() < 5.0, "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_pool_answers_503_with_retry_after() {
    // One worker, no queue: while a long solve runs, the next request is refused at once.
    let state = AppState::new(Config { workers: 1, queue: 0, ..Config::default() });
    let hard = json!({"board": "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1", "algorithm": "idastar", "heuristic": "hamming", "timeout_ms": 5_000});
    let long = {
        let state = Arc::clone(&state);
        tokio::spawn(async move { solve(&state, hard).await })
    };
    while state.pool.load().running == 0 {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (status, headers, value) =
        send(&state, post(json!({"board": "1 2/3 0"}).to_string())).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{value}");
    assert_eq!(headers[header::RETRY_AFTER], "1");
    assert!(value["error"].as_str().unwrap().contains("busy"));
    // /healthz does not wait for the pool.
    let (status, _, health) =
        send(&state, Request::get("/healthz").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(health["pool"]["running"], 1);
    // The client of the long solve goes away: its solve is cancelled and the worker frees.
    long.abort();
    let freed = tokio::time::timeout(Duration::from_secs(2), async {
        while state.pool.load().admitted > 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    assert!(freed.is_ok(), "the abandoned solve kept running");
    let (status, _) = solve(&state, json!({"board": "1 2/3 0"})).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn page_health_and_unknown_paths() {
    let state = state();
    let response = app(Arc::clone(&state))
        .oneshot(Request::get("/").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
    let etag = response.headers()[header::ETAG].clone();
    let html = String::from_utf8(response.into_body().collect().await.unwrap().to_bytes().to_vec())
        .unwrap();
    assert!(html.contains("id=\"board\""));
    for module in ["app.js", "puzzle.js", "game.js", "pictures.js", "api.js", "style.css"] {
        let response = app(Arc::clone(&state))
            .oneshot(Request::get(format!("/assets/{module}")).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{module}");
    }
    let cached = app(Arc::clone(&state))
        .oneshot(Request::get("/").header(header::IF_NONE_MATCH, etag).body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(cached.status(), StatusCode::NOT_MODIFIED);
    let (status, _, health) =
        send(&state, Request::get("/healthz").body(Body::empty()).unwrap()).await;
    assert_eq!((status, health["status"].clone()), (StatusCode::OK, json!("ok")));
    let (status, _, value) = send(&state, Request::get("/nope").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(value["error"].is_string());
    let (status, _, value) =
        send(&state, Request::get("/assets/../Cargo.toml").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{value}");
    let (status, _, value) =
        send(&state, Request::get("/api/solve").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert!(value["error"].is_string());
}

// ---- GET /api/search: Server-Sent Events ----------------------------------------------------

/// Reads a Server-Sent Events body event by event.
struct Events {
    body: Body,
    buffer: String,
}

impl Events {
    async fn open(state: &Arc<AppState>, query: &str) -> Events {
        let request = Request::get(format!("/api/search?{query}")).body(Body::empty()).unwrap();
        let response = app(Arc::clone(state)).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "text/event-stream");
        Events { body: response.into_body(), buffer: String::new() }
    }

    /// The next event (name and JSON data), or `None` when the stream ends or nothing comes
    /// within `wait`. Keep-alive comments are skipped.
    async fn next_within(&mut self, wait: Duration) -> Option<(String, Value)> {
        // One deadline for the whole wait: keep-alive comments come every few milliseconds.
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut name, mut data) = (String::from("message"), String::new());
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("event: ") {
                        name = v.to_string();
                    } else if let Some(v) = line.strip_prefix("data: ") {
                        data.push_str(v);
                    }
                }
                if data.is_empty() {
                    continue;
                }
                return Some((name, serde_json::from_str(&data).unwrap()));
            }
            let frame = tokio::time::timeout_at(deadline, self.body.frame()).await.ok()??.unwrap();
            if let Ok(bytes) = frame.into_data() {
                self.buffer.push_str(std::str::from_utf8(&bytes).unwrap());
            }
        }
    }

    async fn next(&mut self) -> Option<(String, Value)> {
        self.next_within(Duration::from_secs(30)).await
    }

    /// Every event until the stream ends.
    async fn all(mut self) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        while let Some(e) = self.next().await {
            out.push(e);
        }
        out
    }
}

async fn control(state: &Arc<AppState>, id: &str, action: &str) -> (StatusCode, Value) {
    let request = Request::post(format!("/api/search/{id}/{action}")).body(Body::empty()).unwrap();
    let (status, _, value) = send(state, request).await;
    (status, value)
}

/// Everything but the clock.
fn without_seconds(mut record: Value) -> Value {
    record.as_object_mut().unwrap().remove("seconds");
    record
}

const HARD_3X3: &str = "8 6 7/2 5 4/3 0 1";
/// `npuzzle scramble --size 4x4 --seed 11`: BFS cannot solve it within a stream's caps.
const HARD_4X4: &str = "4 5 14 15/2 10 1 9/3 13 0 8/11 6 12 7";

fn query(board: &str, rest: &str) -> String {
    format!("board={}&{rest}", board.replace(' ', "%20"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_streams_start_expansions_stats_and_the_solve_record_last() {
    let state = state();
    for algorithm in ["bfs", "greedy", "wastar", "idastar"] {
        let q = query(HARD_3X3, &format!("algorithm={algorithm}&heuristic=manhattan"));
        let events = Events::open(&state, &q).await.all().await;
        let (first, start) = &events[0];
        assert_eq!(first, "start");
        assert!(start["id"].as_str().is_some_and(|id| id.len() == 16), "{start}");
        assert_eq!(start["board"], HARD_3X3);
        assert_eq!(start["algorithm"], algorithm);
        let (last, done) = events.last().unwrap();
        assert_eq!(last, "done");
        assert_solves(done);
        // The same object /api/solve answers for the same request, the clock aside (and,
        // for BFS and IDA*, `generated`: the packed engines /api/solve runs count every
        // successor, the generic ones every node queued).
        let (status, solved) = solve(
            &state,
            json!({"board": HARD_3X3, "algorithm": algorithm, "heuristic": "manhattan"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        let (mut done, mut solved) = (without_seconds(done.clone()), without_seconds(solved));
        if algorithm == "bfs" || algorithm == "idastar" {
            done.as_object_mut().unwrap().remove("generated");
            solved.as_object_mut().unwrap().remove("generated");
        }
        assert_eq!(done, solved, "{algorithm}");
        // Expansions: counted from 1, rising, with g + h = f and the lists shown.
        let expands: Vec<&Value> =
            events.iter().filter(|(n, _)| n == "expand").map(|(_, v)| v).collect();
        assert_eq!(expands[0]["n"], 1);
        assert_eq!(expands[0]["board"], HARD_3X3);
        let mut previous = 0;
        for e in &expands {
            let n = e["n"].as_u64().unwrap();
            assert!(n > previous);
            previous = n;
            assert_eq!(e["f"].as_u64(), Some(e["g"].as_u64().unwrap() + e["h"].as_u64().unwrap()));
            e["board"].as_str().unwrap().parse::<Board>().unwrap();
            for key in ["open", "closed", "skipped"] {
                assert!(e[key].is_u64(), "{key} in {e}");
            }
            // The last event, sent after the search, has no open list to show.
            assert!(e["soonest"].as_array().map_or(0, Vec::len) <= 5);
            assert!(e["recent"].as_array().unwrap().len() <= 5);
        }
        // Expansions skipped at full speed are counted: shown + skipped = all before the end.
        let shown: u64 = expands.iter().map(|e| 1 + e["skipped"].as_u64().unwrap()).sum();
        assert!(shown <= done["expanded"].as_u64().unwrap() + 1);
        let stats = events.iter().rev().find(|(n, _)| n == "stats").unwrap();
        for key in ["expanded", "generated", "frontier", "elapsed", "searching", "nodes_per_second"]
        {
            assert!(stats.1[key].is_number(), "{key} in {}", stats.1);
        }
        let bounds: Vec<u64> = events
            .iter()
            .filter(|(n, _)| n == "bound")
            .map(|(_, v)| v["bound"].as_u64().unwrap())
            .collect();
        if algorithm == "idastar" {
            assert!(bounds.windows(2).all(|w| w[0] < w[1]) && bounds.last() == Some(&31));
        } else {
            assert!(bounds.is_empty());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_speed_search_on_4x4_runs_the_solvers_engine_and_shows_samples() {
    let state = state();
    // A* with Manhattan on a hard 4x4 board, up to a million nodes: several frames.
    let board = HARD_4X4;
    let q = query(board, "algorithm=astar&heuristic=manhattan&max_nodes=1000000");
    let events = Events::open(&state, &q).await.all().await;
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done");
    // The very answer /api/solve gives under the same caps, counts included: the same
    // engine ran.
    let (_, solved) = solve(
        &state,
        json!({"board": board, "algorithm": "astar", "heuristic": "manhattan",
               "max_nodes": 1_000_000, "max_memory_mib": 96}),
    )
    .await;
    assert_eq!(without_seconds(done.clone()), without_seconds(solved));
    let expands: Vec<&Value> =
        events.iter().filter(|(n, _)| n == "expand").map(|(_, v)| v).collect();
    assert!(expands.len() >= 2, "{} frames", expands.len());
    assert_eq!(expands[0]["n"], 1);
    assert_eq!(expands[0]["board"], board);
    let mut previous = 0;
    for e in &expands {
        let n = e["n"].as_u64().unwrap();
        assert_eq!(e["skipped"].as_u64().unwrap(), n - previous - 1, "{e}");
        previous = n;
        assert_eq!(e["f"].as_u64(), Some(e["g"].as_u64().unwrap() + e["h"].as_u64().unwrap()));
        let shown: Board = e["board"].as_str().unwrap().parse().unwrap();
        // The last expanded before it: five, each a real board, the newest first.
        if n > 6 {
            let recent = e["recent"].as_array().unwrap();
            assert_eq!(recent.len(), 5, "{e}");
            for r in recent {
                assert_ne!(r["board"].as_str().unwrap().parse::<Board>().unwrap(), shown);
            }
            for best in e["soonest"].as_array().unwrap() {
                assert!(best["f"].as_u64() >= e["f"].as_u64(), "{e}");
            }
        }
    }
    assert!(previous <= done["expanded"].as_u64().unwrap());
    assert!(events.iter().all(|(n, _)| n != "bound"), "A* shows no bounds");
    // The last stats are the search's own counts.
    let stats = &events.iter().rev().find(|(n, _)| n == "stats").unwrap().1;
    assert_eq!(stats["expanded"], done["expanded"]);
    assert_eq!(stats["generated"], done["generated"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_speed_ida_star_with_a_database_on_4x4_runs_to_done_with_samples() {
    use npuzzle_solver::heuristic::pdb::{Database, Partition};
    use npuzzle_solver::{Databases, Solver};
    // The solver holds a 6-6-3 database for the blank-first goal: through the goal's frame
    // it serves the page's blank-last goal too.
    let goal =
        npuzzle_core::Goal::BlankFirst.board(npuzzle_core::Size::square(4).unwrap()).unwrap();
    let partition = Partition::parse("6-6-3", &goal).unwrap();
    let db = Database::build(&goal, &partition, 2, &|_| {}, None).unwrap();
    let solver = Solver::new().with_databases(Databases { pdb: Some(db), ..Databases::default() });
    let state = AppState::new(Config { solver, ..Config::default() });
    // The visualizer's IDA* with the heuristic left to the solver, at full speed: linear
    // conflict alone would hit the stream's cap of a million nodes on this board.
    let events = Events::open(&state, &query(HARD_4X4, "algorithm=idastar")).await.all().await;
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{done}");
    assert_solves(done);
    assert_eq!(done["status"], "solved");
    assert_eq!(done["optimal"], true);
    assert_eq!(
        (done["algorithm"].as_str(), done["heuristic"].as_str()),
        (Some("idastar"), Some("pdb"))
    );
    let length = done["length"].as_u64().unwrap();
    // Samples of the search, in the page's own numbering and orientation: boards of the
    // same tiles, each at most the optimum from the goal by its bound.
    let expands: Vec<&Value> =
        events.iter().filter(|(n, _)| n == "expand").map(|(_, v)| v).collect();
    assert!(!expands.is_empty(), "no samples");
    let start: Board = HARD_4X4.parse().unwrap();
    for e in &expands {
        let shown: Board = e["board"].as_str().unwrap().parse().unwrap();
        let mut tiles = shown.tiles().to_vec();
        tiles.sort_unstable();
        assert_eq!(tiles, (0..16).collect::<Vec<u16>>());
        assert!(npuzzle_core::Parity::of(&shown, &start).solvable(), "{e}");
        let g = e["g"].as_u64().unwrap();
        assert!(g + e["h"].as_u64().unwrap() <= length, "{e}");
        // g moves from the start: no tile is further than that from its start cell.
        let at = |b: &Board, t: u16| b.tiles().iter().position(|&x| x == t).unwrap();
        let moved: u64 = (1..16)
            .map(|t| {
                let (a, b) = (at(&start, t), at(&shown, t));
                ((a % 4).abs_diff(b % 4) + (a / 4).abs_diff(b / 4)) as u64
            })
            .sum();
        assert!(moved <= g, "{moved} > {g}: {e}");
    }
    // The start is shown at once, then a sample each frame (`search::FRAME`) while the
    // search runs: one that ends within two frames (this board takes about that on a quick
    // machine) shows the start alone.
    let seconds = done["seconds"].as_f64().unwrap_or(0.0);
    if seconds > 2.0 * npuzzle_web::search::FRAME.as_secs_f64() {
        assert!(expands.len() >= 2, "{} samples in {seconds} s", expands.len());
    }
    // Its bounds: rising, the last the optimum.
    let bounds: Vec<u64> = events
        .iter()
        .filter(|(n, _)| n == "bound")
        .map(|(_, v)| v["bound"].as_u64().unwrap())
        .collect();
    assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
    assert_eq!(bounds.last(), Some(&length), "{bounds:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_search_shows_every_node_with_the_open_list_and_the_last_closed() {
    let state = state();
    // 25 a second: slow enough that every event carries the lists (see search::FRAME).
    let q = query(HARD_3X3, "algorithm=astar&heuristic=manhattan&pace=25");
    let mut events = Events::open(&state, &q).await;
    assert_eq!(events.next().await.unwrap().0, "start");
    let mut expands = Vec::new();
    let mut times = Vec::new();
    while expands.len() < 12 {
        let (name, e) = events.next().await.unwrap();
        if name == "expand" {
            times.push(std::time::Instant::now());
            expands.push(e);
        }
    }
    // Every node is shown at 25 a second: 11 intervals take at least 11/25 s (less a tick).
    let span = times[11] - times[0];
    assert!(span >= Duration::from_millis(420), "{span:?}");
    for (i, e) in expands.iter().enumerate() {
        assert_eq!(e["n"], json!(i + 1));
        assert_eq!(e["skipped"], 0);
    }
    // The start's other successors are on the open list when the second node is expanded
    // (the blank is at the bottom middle: three moves, one of them expanded second).
    assert_eq!(expands[0]["soonest"], json!([]));
    let second = &expands[1];
    assert_eq!(second["soonest"].as_array().unwrap().len(), 2, "{second}");
    assert_eq!(second["recent"][0]["board"], HARD_3X3);
    // The open list's best is what A* expands next: its f is the least.
    for e in &expands[1..] {
        if let Some(best) = e["soonest"].as_array().unwrap().first() {
            for other in e["soonest"].as_array().unwrap() {
                assert!(best["f"].as_u64() <= other["f"].as_u64(), "{e}");
            }
        }
    }
    // The last closed, newest first, begins with the node expanded just before.
    for w in expands.windows(2) {
        assert_eq!(w[1]["recent"][0]["board"], w[0]["board"]);
    }
}

/// Waits until no search streams, for at most 5 s; the time it took.
async fn until_no_stream(state: &Arc<AppState>) -> Duration {
    let begin = std::time::Instant::now();
    while state.streams.running() > 0 {
        assert!(begin.elapsed() < Duration::from_secs(5), "the search did not stop");
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    begin.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closing_the_stream_stops_the_search() {
    let state = state();
    // Full speed, and paced: both stop when the client goes.
    for rest in ["algorithm=bfs", "algorithm=bfs&pace=5"] {
        let mut events = Events::open(&state, &query(HARD_4X4, rest)).await;
        let (_, start) = events.next().await.unwrap();
        let id = start["id"].as_str().unwrap().to_string();
        let _ = events.next().await.unwrap();
        let (status, running) = control(&state, &id, "resume").await;
        assert_eq!(status, StatusCode::OK);
        let before = running["expanded"].as_u64().unwrap();
        assert!(before >= 1, "{rest}: {running}");
        assert_eq!(state.streams.running(), 1);
        drop(events);
        until_no_stream(&state).await;
        // The search is gone: its id no longer answers.
        assert_eq!(control(&state, &id, "pause").await.0, StatusCode::NOT_FOUND);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pause_step_resume_and_stop_act_on_a_running_search() {
    let state = state();
    let mut events = Events::open(&state, &query(HARD_4X4, "algorithm=bfs")).await;
    let (_, start) = events.next().await.unwrap();
    let id = start["id"].as_str().unwrap().to_string();
    let (status, answer) = control(&state, &id, "pause").await;
    assert_eq!((status, answer["state"].as_str()), (StatusCode::OK, Some("paused")));
    // Up to the pause: the node it waits on is shown, then the state.
    let mut last_n = 0;
    loop {
        let (name, e) = events.next().await.unwrap();
        match name.as_str() {
            "expand" => last_n = e["n"].as_u64().unwrap(),
            "state" => {
                assert_eq!(e["state"], "paused");
                assert_eq!(e["expanded"].as_u64(), Some(last_n));
                break;
            }
            _ => {}
        }
    }
    // Paused: nothing more comes.
    assert!(events.next_within(Duration::from_millis(300)).await.is_none());
    assert_eq!(control(&state, &id, "pause").await.1["expanded"].as_u64(), Some(last_n));
    // Each step expands one node and shows the next.
    for _ in 0..3 {
        assert_eq!(control(&state, &id, "step").await.1["state"], "paused");
        let (mut name, mut e) = events.next().await.unwrap();
        while name == "stats" {
            (name, e) = events.next().await.unwrap();
        }
        assert_eq!(name, "expand");
        last_n += 1;
        assert_eq!(e["n"].as_u64(), Some(last_n));
    }
    // Resume: it runs again and the count rises.
    assert_eq!(control(&state, &id, "resume").await.1["state"], "running");
    let mut resumed = false;
    loop {
        let (name, e) = events.next().await.unwrap();
        if name == "state" {
            assert_eq!(e["state"], "running");
            resumed = true;
        }
        if name == "expand" && e["n"].as_u64().unwrap() > last_n + 100 {
            break;
        }
    }
    assert!(resumed);
    // Stop: the last event is the record of a search that was cancelled.
    assert_eq!(control(&state, &id, "stop").await.0, StatusCode::OK);
    let rest = events.all().await;
    let (last, done) = rest.last().unwrap();
    assert_eq!(last, "done");
    assert_eq!(done["status"], "limit");
    assert!(done["error"].as_str().unwrap().contains("cancel"), "{done}");
    assert!(rest.iter().all(|(n, _)| n != "limit"), "a stop asked for is no cap");
    until_no_stream(&state).await;
    assert_eq!(control(&state, &id, "bogus").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn searches_beyond_the_turns_wait_in_line_and_say_so() {
    let state = AppState::new(Config { stream_workers: 1, ..Config::default() });
    // One turn: a paused search gives it back, so the first holds it by running (BFS on a
    // hard 4x4 runs for a while at full speed).
    let mut first = Events::open(&state, &query(HARD_4X4, "algorithm=bfs")).await;
    let id = first.next().await.unwrap().1["id"].as_str().unwrap().to_string();
    assert_eq!(first.next().await.unwrap().0, "expand");
    let mut second = Events::open(&state, &query(HARD_3X3, "algorithm=astar")).await;
    assert_eq!(second.next().await.unwrap().0, "start");
    let (name, queued) = second.next().await.unwrap();
    assert_eq!((name.as_str(), &queued["state"]), ("state", &json!("queued")), "{queued}");
    assert_eq!(queued["ahead"], 0);
    // After a quantum the first gives its turn to the one waiting: the second runs.
    let rest = second.all().await;
    assert_eq!(rest[0].0, "state");
    assert_eq!(rest[0].1["state"], "running");
    assert_eq!(rest.last().unwrap().0, "done");
    assert_solves(&rest.last().unwrap().1);
    assert!(rest.iter().all(|(n, e)| n != "state" || e["state"] != "queued"), "queued once");
    let _ = control(&state, &id, "stop").await;
    drop(first);
    until_no_stream(&state).await;
    assert_eq!(state.streams.computing(), (0, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_that_hits_a_cap_says_so_with_advice() {
    let config = Config { stream_nodes: 20_000, ..Config::default() };
    let state = AppState::new(config);
    let events = Events::open(&state, &query(HARD_4X4, "algorithm=bfs")).await.all().await;
    let names: Vec<&str> = events.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(&names[names.len() - 2..], ["limit", "done"]);
    let message = &events[events.len() - 2].1["message"];
    assert_eq!(message, "BFS stopped at 20,000 nodes: try A* with linear conflict");
    let done = &events[events.len() - 1].1;
    assert_eq!(done["status"], "limit");
    assert_eq!(done["expanded"], 20_000);
    // A client's own lower cap is honoured too.
    let q = query(HARD_4X4, "algorithm=astar&heuristic=manhattan&max_nodes=500");
    let events = Events::open(&state, &q).await.all().await;
    let message = events.iter().find(|(n, _)| n == "limit").unwrap().1["message"].clone();
    assert_eq!(message, "A* stopped at 500 nodes: try linear conflict, or IDA*");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_beyond_the_cap_are_answered_503_and_bad_queries_400() {
    let state = AppState::new(Config { streams: 2, ..Config::default() });
    let q = query(HARD_4X4, "algorithm=bfs&pace=1");
    let first = Events::open(&state, &q).await;
    let _second = Events::open(&state, &q).await;
    let request = Request::get(format!("/api/search?{q}")).body(Body::empty()).unwrap();
    let (status, headers, body) = send(&state, request).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(headers[header::RETRY_AFTER], "1");
    assert!(body["error"].as_str().unwrap().contains("busy"));
    let health = send(&state, Request::get("/healthz").body(Body::empty()).unwrap()).await.2;
    // Paced slowly, they compute without a turn.
    assert_eq!(health["streams"], json!({"running": 2, "max": 2, "computing": 0, "waiting": 0}));
    // A stream that ends frees its place.
    drop(first);
    let begin = std::time::Instant::now();
    while state.streams.running() > 1 {
        assert!(begin.elapsed() < Duration::from_secs(5));
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let _third = Events::open(&state, &q).await;
    for bad in [
        query(HARD_3X3, "pace=-1"),
        query(HARD_3X3, "pace=abc"),
        query(HARD_3X3, "algorithm=quantum"),
        query("1 2 3/4 5 6/7 8 8", ""),
        query(HARD_3X3, "max_nodes=0"),
        query(HARD_3X3, "colour=blue"),
    ] {
        let request = Request::get(format!("/api/search?{bad}")).body(Body::empty()).unwrap();
        let (status, _, body) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body["error"].is_string());
    }
}

/// Honest labels through the web API: every algorithm with every heuristic on a 3x3, a 3x4
/// and a 4x4 board answers with the algorithm and heuristic asked for, or with a note that
/// says what ran instead and why (this server's solver holds no database: `pdb` says so).
#[tokio::test]
async fn every_algorithm_and_heuristic_is_what_ran_or_a_note_says_why() {
    let state = state();
    let boards =
        ["7 5 3/1 2 8/4 0 6", "1 2 3 4/5 6 0 8/9 10 7 11", "5 1 2 3/9 6 7 4/13 10 11 8/14 0 15 12"];
    let algorithms = npuzzle_solver::Algorithm::NAMES;
    let heuristics = npuzzle_solver::Heuristic::NAMES;
    let mut answered = 0;
    for board in boards {
        for &a in algorithms {
            for &h in heuristics {
                let body =
                    json!({"board": board, "algorithm": a, "heuristic": h, "max_nodes": 300_000});
                let (status, r) = solve(&state, body).await;
                let at = format!("{board} -a {a} --heuristic {h}");
                if status == StatusCode::BAD_REQUEST {
                    // The table engine refuses boards of more than 9 cells, as documented.
                    assert_eq!(a, "table", "{at}: {r}");
                    continue;
                }
                assert_eq!(status, StatusCode::OK, "{at}: {r}");
                answered += 1;
                let note = r["note"].as_str().unwrap_or("");
                if r["status"] == "solved" {
                    assert_solves(&r);
                    if a != "auto" {
                        assert!(r["algorithm"] == a || !note.is_empty(), "{at}: {r}");
                    }
                }
                if h != "auto" && r["status"] != "unsolvable" {
                    assert!(r["heuristic"] == h || !note.is_empty(), "{at}: {r}");
                }
                let informed = ["greedy", "astar", "wastar", "idastar"].contains(&a);
                if informed && h == "walking-distance" {
                    assert_eq!(r["heuristic"], h, "{at}: {r}");
                }
            }
        }
    }
    assert!(answered >= 3 * 10 * 6, "{answered}");
}

/// The page's one list of names (`names.js`, which every select, lane title and race row is
/// built from) names exactly the library's algorithms and heuristics, so no name the page
/// sends is refused and no engine is missing from it.
#[tokio::test]
async fn the_pages_names_are_the_librarys() {
    let state = state();
    let request = Request::get("/assets/names.js").body(Body::empty()).unwrap();
    let (status, _, body) = send(&state, request).await;
    assert_eq!(status, StatusCode::OK);
    let text = body.as_str().expect("names.js as text");
    let ids = |section: &str| -> Vec<String> {
        let start = text.find(&format!("export const {section} = [")).expect(section);
        let end = start + text[start..].find("];").expect("the end of the list");
        text[start..end]
            .split("id: \"")
            .skip(1)
            .map(|rest| rest[..rest.find('"').unwrap()].to_string())
            .collect()
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let library = |names: &[&str]| sorted(names.iter().map(|s| s.to_string()).collect());
    assert_eq!(sorted(ids("ALGORITHMS")), library(npuzzle_solver::Algorithm::NAMES));
    assert_eq!(sorted(ids("HEURISTICS")), library(npuzzle_solver::Heuristic::NAMES));
}

/// The board `path` leads to from `start`.
fn walked(start: &str, path: &str) -> String {
    let mut board: Board = start.parse().unwrap();
    board.apply_all(&path.parse::<Moves>().unwrap()).unwrap();
    board.to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ida_star_and_iddfs_stream_their_current_path_at_every_node() {
    let state = state();
    // `auto` is watched as IDA* on a 3x3.
    for algorithm in ["idastar", "iddfs", "auto"] {
        // Paced: the generic engine, every node sent.
        let q = query(
            HARD_3X3,
            &format!("algorithm={algorithm}&heuristic=manhattan&pace=1000000&max_nodes=3000"),
        );
        let events = Events::open(&state, &q).await.all().await;
        assert_eq!(events[0].1["engine"], "generic", "{}", events[0].1);
        let mut previous: Option<String> = None;
        let mut iterations = 0;
        let mut deepest = 0;
        for (name, data) in &events {
            if name == "bound" {
                iterations += 1;
                previous = None;
                continue;
            }
            if name != "expand" {
                continue;
            }
            let path = data["path"].as_str().unwrap_or_else(|| panic!("no path: {data}"));
            assert_eq!(walked(HARD_3X3, path), data["board"], "{algorithm}: {data}");
            assert_eq!(json!(path.len()), data["g"], "{data}");
            // Depth first: each node hangs from a node of the path before it.
            if let Some(before) = &previous {
                assert!(
                    path.len() <= before.len() + 1
                        && path[..path.len() - 1] == before[..path.len() - 1],
                    "{algorithm}: {before} then {path}"
                );
            } else {
                assert_eq!(path, "", "an iteration starts at the start: {data}");
            }
            deepest = deepest.max(path.len());
            previous = Some(path.to_string());
        }
        assert!(iterations >= 2, "{algorithm}: {iterations} iterations");
        assert!(deepest >= 10, "{algorithm}: deepest path {deepest}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fast_stream_sends_a_path_only_where_it_is_known() {
    let state = state();
    let q = query(HARD_3X3, "algorithm=idastar&heuristic=manhattan");
    let events = Events::open(&state, &q).await.all().await;
    assert_eq!(events[0].1["engine"], "fast", "{}", events[0].1);
    for (_, data) in events.iter().filter(|(n, _)| n == "expand") {
        if let Some(path) = data["path"].as_str() {
            assert_eq!(walked(HARD_3X3, path), data["board"], "{data}");
        }
    }
    // `auto`, watched as IDA*, lists its bounds at full speed too.
    let q = query(HARD_3X3, "algorithm=auto&heuristic=manhattan");
    let events = Events::open(&state, &q).await.all().await;
    let bounds: Vec<&Value> =
        events.iter().filter(|(n, _)| n == "bound").map(|(_, d)| &d["bound"]).collect();
    assert_eq!(bounds.first(), Some(&&json!(21)), "{bounds:?}");
    assert_eq!(bounds.last(), Some(&&json!(31)), "{bounds:?}");
    // A search with no path to show sends none, and says which engine it runs on.
    let q = query(HARD_3X3, "algorithm=greedy&heuristic=manhattan");
    let events = Events::open(&state, &q).await.all().await;
    assert_eq!(events[0].1["engine"], "generic");
    assert!(events.iter().all(|(_, d)| d.get("path").is_none()));
}

async fn stop_solve(state: &Arc<AppState>, id: &str) -> (StatusCode, Value) {
    let request = Request::post(format!("/api/solve/{id}/stop")).body(Body::empty()).unwrap();
    let (status, _, value) = send(state, request).await;
    (status, value)
}

async fn solve_progress(state: &Arc<AppState>, id: &str) -> (StatusCode, Value) {
    let request = Request::get(format!("/api/solve/{id}")).body(Body::empty()).unwrap();
    let (status, _, value) = send(state, request).await;
    (status, value)
}

/// A solve given an `id` stops on `POST /api/solve/{id}/stop` and answers its own request
/// with the best solution found so far, and `GET /api/solve/{id}` says what it has found and
/// proved until then: an 8x8, whose near-optimal engine has a path within half a second and
/// goes on improving it for several seconds more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_solve_stops_on_request_with_its_best_answer_so_far() {
    // Two workers whatever the machine: the second request of the same name runs beside it.
    let state = AppState::new(Config { workers: 2, ..Config::default() });
    let goal = npuzzle_core::Goal::BlankLast.board(npuzzle_core::Size::square(8).unwrap()).unwrap();
    let board = npuzzle_core::Scrambler::new(3).solvable(&goal).to_string();
    let running = {
        let state = Arc::clone(&state);
        let body = json!({"board": board, "id": "stop-me", "timeout_ms": 10_000});
        tokio::spawn(async move { solve(&state, body).await })
    };
    // Until the solve runs under its name.
    let started = std::time::Instant::now();
    while state.running.is_empty() {
        assert!(started.elapsed() < Duration::from_secs(10), "the solve never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A second solve of the same name while it runs: refused.
    let (status, value) = solve(&state, json!({"board": board, "id": "stop-me"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"].as_str().unwrap().contains("running already"), "{value}");
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!running.is_finished(), "the 8x8 solve ended within 1 s: nothing to stop");
    // What it has found and proved so far: a path, and a bound below it.
    let (status, progress) = solve_progress(&state, "stop-me").await;
    assert_eq!(status, StatusCode::OK, "{progress}");
    assert_eq!(progress["running"], true, "{progress}");
    let best = progress["best"].as_u64().expect("a path within 1 s");
    let bound = progress["lower_bound"].as_u64().expect("a proven bound");
    assert!(0 < bound && bound < best, "{progress}");
    assert!(progress["seconds"].as_f64().unwrap() >= 1.0, "{progress}");
    let (status, value) = stop_solve(&state, "stop-me").await;
    assert_eq!((status, value), (StatusCode::OK, json!({"stopped": true})));
    let (status, record) = running.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["status"], "solved", "{record}");
    assert_eq!(record["algorithm"], "near", "{record}");
    assert_solves(&record);
    assert!(record["seconds"].as_f64().unwrap() < 8.0, "{record}");
    // The answer is at least as short as the best heard before the stop, and its bound at
    // least as high.
    assert!(record["length"].as_u64().unwrap() <= best, "{record} after {progress}");
    assert!(record["lower_bound"].as_u64().unwrap() >= bound, "{record} after {progress}");
    let (status, value) = solve_progress(&state, "stop-me").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{value}");
    let (status, value) = solve_progress(&state, "no%20spaces").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    // Its name is free again; a name nobody runs is 404, a malformed one 400.
    assert!(state.running.is_empty());
    let (status, value) = stop_solve(&state, "stop-me").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{value}");
    let (status, value) = stop_solve(&state, "no%20spaces").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    let long = "x".repeat(65);
    let (status, value) = solve(&state, json!({"board": "1 2 3/4 5 6/7 0 8", "id": long})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    // A named solve (or hint) that ends by itself answers as any other.
    let (status, record) =
        solve(&state, json!({"board": "8 6 7/2 5 4/3 0 1", "id": "quick"})).await;
    assert_eq!((status, record["length"].clone()), (StatusCode::OK, json!(31)));
    let hint = json!({"board": "1 2 3/4 5 6/7 0 8", "id": "h", "mode": "hint"});
    let (status, value) = solve(&state, hint).await;
    assert_eq!((status, value["move"].clone()), (StatusCode::OK, json!("L")), "{value}");
    assert!(state.running.is_empty());
}

/// A hint on a big board is a near-optimal solve of seconds: named, it tells what it has found
/// and proved so far while it runs (the page shows it), and stops on request with the first
/// move of its best path so far.
#[tokio::test]
async fn a_named_hint_shows_its_progress_and_stops_with_its_best_move_so_far() {
    let state = AppState::new(Config { workers: 2, ..Config::default() });
    let goal = npuzzle_core::Goal::BlankLast.board(npuzzle_core::Size::square(8).unwrap()).unwrap();
    let board = npuzzle_core::Scrambler::new(3).solvable(&goal).to_string();
    let running = {
        let state = Arc::clone(&state);
        let body = json!({"board": board, "id": "hint-me", "mode": "hint", "timeout_ms": 10_000});
        tokio::spawn(async move { solve(&state, body).await })
    };
    let started = std::time::Instant::now();
    while state.running.is_empty() {
        assert!(started.elapsed() < Duration::from_secs(10), "the hint never started");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // Its first path comes in a few tenths of a second, later on a loaded machine (a fixed
    // second once went by without one while another build ran): watch for it.
    let progress = loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!running.is_finished(), "the 8x8 hint ended before it was watched");
        let (status, progress) = solve_progress(&state, "hint-me").await;
        assert_eq!(status, StatusCode::OK, "{progress}");
        if progress["best"].as_u64().is_some() {
            break progress;
        }
        assert!(started.elapsed() < Duration::from_secs(6), "no path within 6 s: {progress}");
    };
    let best = progress["best"].as_u64().unwrap();
    let bound = progress["lower_bound"].as_u64().expect("a proven bound");
    assert!(0 < bound && bound < best, "{progress}");
    let (status, value) = stop_solve(&state, "hint-me").await;
    assert_eq!((status, value), (StatusCode::OK, json!({"stopped": true})));
    let (status, answer) = running.await.unwrap();
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(
        (answer["status"].clone(), answer["optimal"].clone()),
        (json!("solved"), json!(false))
    );
    assert!(answer["seconds"].as_f64().unwrap() < 8.0, "{answer}");
    // The first move of a path no longer than the best heard before the stop, whose bound is
    // no lower: the move is legal, and the distance after it is that path less one.
    let distance = answer["distance"].as_u64().unwrap();
    assert!(distance <= best, "{answer} after {progress}");
    assert!(answer["lower_bound"].as_u64().unwrap() >= bound, "{answer} after {progress}");
    let step = answer["move"].as_str().unwrap();
    let after = answer["moves"].as_array().unwrap().iter().find(|m| m["move"] == step);
    assert!(after.is_some(), "{answer}");
    assert!(state.running.is_empty());
}
