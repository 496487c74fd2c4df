//! What an adversarial client does to a real socket (issue 18): half-sent heads, dripped
//! bodies, lying lengths, more connections than descriptors. Each test is named after what
//! broke, and fails (rather than hangs) when the server holds on.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use npuzzle_web::{AppState, Config, serve};
use serde_json::json;

use super::{post, send, state};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// Longer than any answer here may take: only a server that holds on reaches it.
const PATIENCE: Duration = Duration::from_secs(20);

/// A server with `config` on a free local port; its address.
async fn server(config: Config) -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, AppState::new(config), std::future::pending()));
    addr
}

/// Everything the server sends until it closes the connection, or `None` when it has not
/// closed it within [`PATIENCE`].
async fn until_closed(stream: &mut TcpStream) -> Option<String> {
    let mut answer = Vec::new();
    let read = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer)).await;
    read.ok().map(|_| String::from_utf8_lossy(&answer).into_owned())
}

/// `GET /healthz` on a new connection: the status line, or `None` when none comes.
async fn healthz(addr: std::net::SocketAddr) -> Option<String> {
    let mut stream = TcpStream::connect(addr).await.ok()?;
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .ok()?;
    let answer = until_closed(&mut stream).await?;
    answer.lines().next().map(str::to_string)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_head_or_an_idle_connection_was_kept_open_forever() {
    let config = Config { header_timeout: Duration::from_secs(1), ..Config::default() };
    let addr = server(config).await;
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let mut idle = TcpStream::connect(addr).await.unwrap();
    assert!(until_closed(&mut half).await.is_some(), "a half-sent head is still open");
    assert!(until_closed(&mut idle).await.is_some(), "an idle connection is still open");
    // An answered connection kept alive is closed too once it has been idle that long.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let answer = until_closed(&mut kept).await.expect("closed after its answer went idle");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_dripped_a_byte_at_a_time_held_its_connection() {
    let config = Config { body_timeout: Duration::from_secs(1), ..Config::default() };
    let addr = server(config).await;
    let stream = TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    writer
        .write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 400\r\n\r\n{")
        .await
        .unwrap();
    let drip = tokio::spawn(async move {
        for _ in 0..300 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if writer.write_all(b" ").await.is_err() {
                break;
            }
        }
    });
    let mut answer = Vec::new();
    let read = tokio::time::timeout(PATIENCE, reader.read_to_end(&mut answer)).await;
    drip.abort();
    assert!(read.is_ok(), "the dripping connection is still open");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains(r#"{"error":"the request body did not arrive within 1 s"}"#),
        "{answer}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_length_over_the_cap_waited_for_a_body_that_never_came() {
    // Bodies may take a minute here: only the declared length can answer in time.
    let config = Config { body_timeout: Duration::from_secs(60), ..Config::default() };
    let addr = server(config).await;
    let mut stream = TcpStream::connect(addr).await.unwrap();
    stream
        .write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n{}")
        .await
        .unwrap();
    let mut answer = vec![0; 4096];
    let n = tokio::time::timeout(PATIENCE, stream.read(&mut answer))
        .await
        .expect("an answer before the body")
        .unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains(r#"{"error":"the request body is over 64 KiB"}"#), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_idle_clients_than_descriptors_made_healthz_unreachable() {
    let config =
        Config { max_connections: 8, header_timeout: Duration::from_secs(60), ..Config::default() };
    let addr = server(config).await;
    let mut idle = Vec::new();
    for _ in 0..8 {
        let mut stream = TcpStream::connect(addr).await.unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
        idle.push(stream);
    }
    // Give the server the time to take them all (they are accepted in order).
    tokio::time::sleep(Duration::from_millis(300)).await;
    // One more is told at once, in the API's error shape, and closed.
    let mut extra = TcpStream::connect(addr).await.unwrap();
    let answer = until_closed(&mut extra).await.expect("an answer and a close");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("retry-after: 1"), "{answer}");
    assert!(answer.ends_with(r#"{"error":"too many connections are open; retry in 1 s"}"#));
    // A place freed is a place taken.
    drop(idle.pop());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(healthz(addr).await.as_deref(), Some("HTTP/1.1 200 OK"));
    drop(idle);
}

#[tokio::test]
async fn a_weight_of_a_million_was_taken_where_the_cli_caps_it_at_100() {
    let state = state();
    let body = json!({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "wastar", "weight": 1e6});
    let (status, _, value) = send(&state, post(body.to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    // The command line's words: `"1e6" is not a weight: expected a number from 1 to 100`.
    assert_eq!(value["error"], "1000000 is not a weight: expected a number from 1 to 100");
    let query = "/api/search?board=8%206%207/2%205%204/3%200%201&algorithm=wastar&weight=101";
    let (status, _, value) = send(&state, Request::get(query).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
    assert!(value["error"].as_str().unwrap().contains("from 1 to 100"), "{value}");
}

#[tokio::test]
async fn a_path_that_is_not_utf8_was_answered_in_plain_text() {
    let state = state();
    for request in [
        Request::get("/assets/%FF").body(Body::empty()).unwrap(),
        Request::post("/api/search/%FF/stop").body(Body::empty()).unwrap(),
        Request::post("/api/search/%FF/pace/10").body(Body::empty()).unwrap(),
        Request::post("/api/solve/%FF/stop").body(Body::empty()).unwrap(),
        Request::get("/api/solve/%FF").body(Body::empty()).unwrap(),
    ] {
        let (status, headers, value) = send(&state, request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
        assert_eq!(headers[header::CONTENT_TYPE], "application/json");
        assert!(value["error"].as_str().unwrap().starts_with("invalid path: "), "{value}");
    }
}

#[tokio::test]
async fn mode_hint_in_capitals_was_refused() {
    let state = state();
    for mode in ["HINT", "Hint", " hint "] {
        let body = json!({"board": "1 2 3/4 5 6/7 0 8", "mode": mode});
        let (status, _, value) = send(&state, post(body.to_string())).await;
        assert_eq!(status, StatusCode::OK, "{mode}: {value}");
        assert_eq!(value["move"], "L", "{mode}: {value}");
    }
    let body = json!({"board": "1 2 3/4 5 6/7 0 8", "mode": "hunt"});
    let (status, _, value) = send(&state, post(body.to_string())).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{value}");
}

/// Sends `request` on a new connection; the answer's status line, its `content-type` and
/// its body, once the server has closed the connection.
async fn raw(addr: std::net::SocketAddr, request: &[u8]) -> (String, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // A server that answers before the whole request is in may reset the rest: ignore it.
    let _ = stream.write_all(request).await;
    let answer = until_closed(&mut stream).await.expect("an answer and a close");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    let content_type = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type: ").map(str::to_string))
        .unwrap_or_default();
    (status, content_type, body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_are_not_http_were_answered_with_an_empty_body() {
    let addr = server(Config::default()).await;
    let long_target = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    // More headers than hyper takes (100): a head too large, read whole (a head over the
    // read buffer would be cut, and the unread rest reset the connection).
    let headers: String = (0..120).map(|i| format!("X-H{i}: {i}\r\n")).collect();
    let big_head = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{headers}\r\n");
    let cases: [(&[u8], &str); 5] = [
        (b"HELLO THERE\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        (b"GET /healthz HTTP/1.1\r\nBad Header Line\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        (long_target.as_bytes(), "HTTP/1.1 414 URI Too Long"),
        (big_head.as_bytes(), "HTTP/1.1 431 Request Header Fields Too Large"),
    ];
    for (request, expected) in cases {
        let (status, content_type, body) = raw(addr, request).await;
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]);
        assert_eq!(status, expected, "{shown}");
        assert_eq!(content_type, "application/json", "{shown}");
        let value: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
        assert!(value["error"].as_str().is_some_and(|e| !e.is_empty()), "{shown}: {body:?}");
    }
    // Pipelined after a good request, on the same connection: the answer to each.
    let (status, _, rest) =
        raw(addr, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nHELLO THERE\r\n\r\n").await;
    assert_eq!(status, "HTTP/1.1 200 OK");
    let second = rest.split_once("HTTP/1.1 ").map(|(_, s)| s).unwrap_or_default();
    assert!(second.starts_with("400 Bad Request"), "{rest}");
    assert!(second.to_ascii_lowercase().contains("content-type: application/json"), "{rest}");
    assert!(second.ends_with("\"}"), "{rest}");
    // The app's own answers pass unchanged, on the same wrapped connections.
    let (status, content_type, body) =
        raw(addr, b"GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    assert_eq!(status, "HTTP/1.1 404 Not Found");
    assert_eq!(content_type, "application/json");
    assert!(body.contains("\"error\""), "{body}");
    assert_eq!(healthz(addr).await.as_deref(), Some("HTTP/1.1 200 OK"));
}
