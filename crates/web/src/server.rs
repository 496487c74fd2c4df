//! Running the app on a socket: the runtime, the connection loop, request logs, and a clean
//! shutdown.
//!
//! The loop is hyper's own rather than `axum::serve`, which has no read timeouts and no
//! connection cap: one client that opened a connection and sent half a request line kept it
//! forever, and 1,100 such clients under the common 1,024-descriptor limit made the server
//! unreachable (`accept error: Too many open files`). Here every connection must send its
//! request head within [`Config::header_timeout`] (an idle keep-alive connection too), a body
//! must arrive within [`Config::body_timeout`] (see [`crate::AppJson`]), and at most
//! [`Config::max_connections`] are open at once, below the descriptor limit: one more is
//! answered 503 at once and closed. hyper's own answers to requests it cannot parse (400,
//! 414, 431) get the API's JSON error body on their way out ([`crate::parse_error`]).

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use crate::parse_error::JsonParseErrors;
use crate::{AppState, Config, app};

/// Serves `state` on `listener` until `shutdown` completes, then cancels the solves still
/// running and waits for the open requests to end (each is bounded by the solve limits).
///
/// Solves run on the runtime's blocking threads: a runtime built with
/// `max_blocking_threads(config.workers)`, as [`run`] builds it, keeps the memory they hold
/// to one allocator arena per worker.
///
/// # Errors
/// Never for a failed `accept` (a descriptor shortage passes; it is logged and retried);
/// the signature keeps room for errors of setting up.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let router = app(Arc::clone(&state));
    let open = Arc::new(Semaphore::new(state.config.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, _peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of descriptors, or a connection reset before it was taken: wait a
                    // moment rather than spin.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(state.config.header_timeout)
            .serve_connection(TokioIo::new(JsonParseErrors::new(stream)), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away or times out is not an error of the server.
            if let Err(err) = connection.await {
                tracing::debug!(%err, "connection ended");
            }
            drop(permit);
        });
    }
    drop(listener);
    tracing::info!("shutting down: cancelling running solves");
    state.pool.cancel_all();
    state.streams.stop_all();
    graceful.shutdown().await;
    Ok(())
}

/// Answers a connection over the cap with a 503 and closes it, giving up on a client that
/// does not take the answer within a second.
async fn refuse(mut stream: TcpStream) {
    let body = format!(
        "{{\"error\":\"too many connections are open; retry in {} s\"}}",
        crate::RETRY_AFTER_SECS
    );
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: {}\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        crate::RETRY_AFTER_SECS,
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), stream.write_all(answer.as_bytes())).await;
}

/// The most connections to keep open: the descriptor limit less room for everything else
/// the server opens (the listener, standard streams, database files, a log), at least 16.
pub(crate) fn default_max_connections() -> usize {
    let limit = descriptor_limit().unwrap_or(1024);
    limit.saturating_sub(64).clamp(16, 16_384)
}

/// The soft limit on open descriptors (Linux: from `/proc/self/limits`).
fn descriptor_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line.strip_prefix("Max open files")?.split_whitespace().next()?;
    soft.parse().ok()
}

/// Binds `addr`, calls `ready` with the bound address (to print the URL), and serves until
/// Ctrl-C (or SIGTERM). Logs requests to stderr with `tracing` (`RUST_LOG` overrides the
/// default `info`).
///
/// # Errors
/// When the runtime cannot start or the address cannot be bound.
pub fn run(addr: SocketAddr, config: Config, ready: impl FnOnce(SocketAddr)) -> io::Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Fails only when a subscriber is already set (an embedding program's): keep that one.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(io::stderr)
        .with_ansi(io::IsTerminal::is_terminal(&io::stderr()))
        .try_init();
    // Solves run on tokio's blocking threads; capping them at the worker count keeps one
    // malloc arena per worker. Uncapped, a solve that starts while the previous one's thread
    // is still returning gets a new thread and a new arena, and the memory freed in the old
    // ones stays with the process: 200 BFS requests took the server to 892 MiB with two
    // workers capped at 256 MiB each (the same searches peak at 136 MiB alone).
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .max_blocking_threads(config.workers.max(1))
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|err| io::Error::new(err.kind(), format!("cannot listen on {addr}: {err}")))?;
        let local = listener.local_addr()?;
        ready(local);
        tracing::info!(%local, workers = config.workers, "serving");
        let state = AppState::new(config);
        // The 8-puzzle's exact table takes a moment to build: build it now, not during the
        // first player's hint.
        let solver = state.solver.clone();
        tokio::task::spawn_blocking(move || {
            let size = npuzzle_core::Size::square(3).ok();
            if let Some(goal) = size.and_then(|s| npuzzle_core::Goal::BlankLast.board(s).ok()) {
                solver.exact_table(&goal);
            }
        });
        serve(listener, state, shutdown_signal()).await
    })
}

/// Ctrl-C, or SIGTERM on Unix.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No signal handling here: run until killed.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sig) => {
                sig.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
}
