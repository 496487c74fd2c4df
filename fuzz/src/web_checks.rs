//! What must hold for any body of `POST /api/solve`: the server's boundary (JSON, then
//! [`Task::new`]) never panics, and a request it accepts is one the solver can take within the
//! server's caps. Shared by the `web_request` fuzz target and by the regression test that
//! replays every input that ever failed (`crates/web/tests/fuzz_regressions.rs`).

use npuzzle_web::{Config, SolveRequest, Task};

/// A request body: refused with a 4xx, or turned into a task whose goal fits its board and
/// whose limits are within the server's caps.
pub fn web_request(data: &[u8]) {
    let Ok(request) = serde_json::from_slice::<SolveRequest>(data) else { return };
    let config = Config { max_nodes: Some(1_000_000), ..Config::default() };
    match Task::new(&request, &config) {
        Err(err) => {
            assert!(err.status().is_client_error(), "{}: {}", err.status(), err.message());
            assert!(!err.message().is_empty());
            assert!(!err.message().contains('\n'), "one line: {:?}", err.message());
        }
        Ok(task) => {
            assert_eq!(task.goal.size(), task.board.size(), "the goal fits the board");
            let limits = &task.options.limits;
            assert!(limits.max_nodes.is_some_and(|n| n <= 1_000_000), "{limits:?}");
            assert!(limits.timeout.is_some_and(|t| t <= config.timeout), "{limits:?}");
            assert!(limits.max_memory.is_some_and(|m| m <= config.max_memory), "{limits:?}");
            assert!(task.options.weight.is_finite() && task.options.weight >= 1.0);
        }
    }
}
