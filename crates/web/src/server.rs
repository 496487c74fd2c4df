//! Running the app on a socket: the runtime, request logs, and a clean shutdown.

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;

use tokio::net::TcpListener;

use crate::{AppState, Config, app};

/// Serves `state` on `listener` until `shutdown` completes, then cancels the solves still
/// running and waits for the open requests to end (each is bounded by the solve limits).
///
/// Solves run on the runtime's blocking threads: a runtime built with
/// `max_blocking_threads(config.workers)`, as [`run`] builds it, keeps the memory they hold
/// to one allocator arena per worker.
///
/// # Errors
/// When accepting connections fails.
pub async fn serve(
    listener: TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    let router = app(Arc::clone(&state));
    let on_shutdown = async move {
        shutdown.await;
        tracing::info!("shutting down: cancelling running solves");
        state.pool.cancel_all();
        state.streams.stop_all();
    };
    axum::serve(listener, router).with_graceful_shutdown(on_shutdown).await
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
