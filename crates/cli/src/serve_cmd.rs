//! `npuzzle serve`: the web game on a local address, until Ctrl-C.

use std::process::{Command, ExitCode, Stdio};

use anyhow::Context;
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
    let open = args.open;
    npuzzle_web::run(args.addr, config, |addr| {
        let url = if addr.ip().is_unspecified() {
            format!("http://127.0.0.1:{}/", addr.port())
        } else {
            format!("http://{addr}/")
        };
        println!("npuzzle: serving the game at {url} (Ctrl-C to stop)");
        if open {
            open_browser(&url);
        }
    })
    .with_context(|| format!("serve on {}", args.addr))?;
    Ok(ExitCode::SUCCESS)
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
