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
    assert_eq!(near["move"], "L");
    let (_, _, scrambled) =
        send(&state, Request::get("/api/scramble?size=8x8&seed=1").body(Body::empty()).unwrap())
            .await;
    let (_, big) = solve(&state, json!({"board": scrambled["board"], "mode": "hint"})).await;
    assert_eq!(big["status"], "solved");
    assert_eq!(big["optimal"], false);
    assert!(big["distance"].as_u64().unwrap() > 0);
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
