//! `npuzzle serve`: the web game on a local address, until Ctrl-C.

use std::process::{Command, ExitCode, Stdio};

use std::sync::Arc;

use anyhow::Context;
use npuzzle_core::{Goal, Size};
use npuzzle_solver::heuristic::pdb::Store;
use npuzzle_web::Config;

use crate::args::ServeArgs;

/// Runs `npuzzle serve`.
pub fn run(args: &ServeArgs) -> anyhow::Result<ExitCode> {
    let mut config = Config::default();
    if let Some(workers) = args.workers {
        config.workers = workers;
    }
    if let Some(bytes) = args.max_memory {
        config.max_memory = bytes;
    }
    if let Some(timeout) = args.timeout {
        config.timeout = timeout;
    }
    config.solver = solver();
    let store = config.solver.store().cloned();
    let build = !args.no_build;
    let open = args.open;
    npuzzle_web::run(args.addr, config, |addr| {
        let url = if addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", addr.port())
        } else {
            format!("http://{addr}/")
        };
        println!("npuzzle: serving the game at {url} (Ctrl-C to stop)");
        if let Some(store) = store.as_ref().filter(|_| build) {
            build_in_background(store);
        }
        if open {
            open_browser(&url);
        }
    })
    .with_context(|| format!("serve on {}", args.addr))?;
    Ok(ExitCode::SUCCESS)
}

/// The solver of a long-running front end (`serve`, `play`): it owns the databases of the
/// cache, loaded now; requests are answered with what its store holds, never with a build
/// (see [`build_in_background`]).
pub fn solver() -> npuzzle_solver::Solver {
    let store = Arc::new(
        Store::new(Some(crate::cmd::pdb::cache())).with_report(Arc::new(crate::cmd::pdb::Logged)),
    );
    let held = store.load_cached();
    if held > 0 {
        crate::stdio::complain(format_args!(
            "loaded {held} pattern database(s) from {}",
            crate::cmd::pdb::cache_dir().display()
        ));
    }
    npuzzle_solver::Solver::new().with_store(store)
}

/// Builds, in the background at low priority and one after the other, what `store` lacks of
/// the 4x4's 7-8 table (about a minute and 783 MB) and Korf & Felner's 5x5 tables (about 70
/// CPU-seconds and 181 MB); the store holds each once built.
pub fn build_in_background(store: &Arc<Store>) {
    const FOUR: &str = "the 4x4's 7-8 pattern database (about a minute, 783 MB)";
    const FIVE: &str = "Korf & Felner's 5x5 tables (about 70 CPU-seconds, 181 MB)";
    let four = Goal::BlankFirst
        .board(Size::square(4).expect("4x4 is a size"))
        .ok()
        .and_then(|goal| store.build_in_background(&goal, None));
    let building_four = four.is_some();
    let building_five = store.build_twentyfour_in_background(four, None).is_some();
    let (what, then) = match (building_four, building_five) {
        (true, true) => (
            format!("{FOUR}, then {FIVE},"),
            "4x4 hints are exact and fast, and 5x5 answers shorter, once they are ready",
        ),
        (true, false) => (FOUR.to_string(), "4x4 hints are exact and fast once it is ready"),
        (false, true) => (FIVE.to_string(), "5x5 answers are shorter once they are ready"),
        (false, false) => return,
    };
    crate::stdio::complain(format_args!(
        "building {what} in the background (--no-build turns this off); {then}"
    ));
}

/// Opens `url` in the desktop's browser; only warns when there is none.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") {
        Command::new("open").arg(url).spawn()
    } else if cfg!(windows) {
        Command::new("cmd").args(["/C", "start", "", url]).spawn()
    } else {
        Command::new("xdg-open").arg(url).stdout(Stdio::null()).stderr(Stdio::null()).spawn()
    };
    if let Err(err) = opener {
        crate::stdio::complain(format_args!(
            "warning: could not open a browser ({err}); open {url} yourself"
        ));
    }
}
