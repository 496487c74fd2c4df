//! Taking over the terminal and always giving it back.
//!
//! The game puts the terminal in raw mode, on the alternate screen, with mouse reporting on.
//! A [`Session`] undoes all of that when it is dropped (a normal quit, an error), and a panic
//! hook undoes it before a panic message is printed. Signals (SIGINT from `kill`, SIGTERM,
//! SIGHUP) set a flag that the event loop checks, so they too end in a normal quit. Ctrl-C
//! typed at the keyboard is a key in raw mode and quits the same way.

use std::io::{self, Stdout, Write};
use std::panic::{self, PanicHookInfo};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::thread::{self, ThreadId};

use crossterm::cursor::Show;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

type Hook = Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static>;

/// The terminal, taken over for the game.
pub struct Session {
    /// The ratatui terminal to draw on.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Set by SIGINT, SIGTERM and SIGHUP.
    pub stop: Arc<AtomicBool>,
    signals: Vec<signal_hook::SigId>,
    previous_hook: Arc<Hook>,
}

impl Session {
    /// Enters raw mode, the alternate screen and mouse capture, and installs the panic hook
    /// and the signal flag.
    ///
    /// # Errors
    /// When the terminal refuses; whatever was already set up is undone.
    pub fn start() -> io::Result<Session> {
        let terminal = Terminal::new(CrosstermBackend::new(io::stdout()))?;
        let stop = Arc::new(AtomicBool::new(false));
        let mut signals = Vec::new();
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            match signal_hook::flag::register(signal, Arc::clone(&stop)) {
                Ok(id) => signals.push(id),
                Err(err) => {
                    for id in signals {
                        signal_hook::low_level::unregister(id);
                    }
                    return Err(err);
                }
            }
        }
        let previous_hook: Arc<Hook> = Arc::new(panic::take_hook());
        let ui_thread = thread::current().id();
        let chained = Arc::clone(&previous_hook);
        panic::set_hook(Box::new(move |info| on_panic(ui_thread, &chained, info)));
        let mut session = Session { terminal, stop, signals, previous_hook };
        // From here on, Drop restores whatever part of this succeeded.
        enable_raw_mode()?;
        execute!(session.terminal.backend_mut(), EnterAlternateScreen, EnableMouseCapture)?;
        session.terminal.clear()?;
        Ok(session)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        restore();
        for id in self.signals.drain(..) {
            signal_hook::low_level::unregister(id);
        }
        // Put the original panic hook back; not while unwinding from a panic, where
        // changing the hook is itself a panic (and the process is ending anyway).
        if !thread::panicking() {
            let previous = Arc::clone(&self.previous_hook);
            let _ = panic::take_hook();
            panic::set_hook(Box::new(move |info| previous(info)));
        }
    }
}

/// A panic on the UI thread restores the terminal first, so the message is readable and
/// the shell usable. A panic on a solver thread is caught there and shown in the game as
/// an error; printing it now would scribble over the screen, so it is not printed.
fn on_panic(ui_thread: ThreadId, previous: &Hook, info: &PanicHookInfo<'_>) {
    if thread::current().id() == ui_thread {
        restore();
        previous(info);
    }
}

/// Leaves raw mode, the alternate screen and mouse capture, and shows the cursor. Errors are
/// ignored: this runs while things are already going wrong, and each step is worth trying.
pub fn restore() {
    let _ = disable_raw_mode();
    let mut out = io::stdout();
    let _ = execute!(out, DisableMouseCapture, LeaveAlternateScreen, Show);
    let _ = out.flush();
}

/// What the terminal has for the event loop after a wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// Something to read (or, where this cannot be known, maybe).
    Ready,
    /// Nothing within the wait.
    Idle,
    /// The terminal has gone away (hung up: a closed window, a dropped ssh connection).
    Gone,
}

/// Waits up to `timeout` for input on the terminal (standard input), and tells a terminal
/// that has gone away from one that is merely quiet.
///
/// crossterm cannot be asked this: once the terminal hangs up, every read returns end of
/// file and its event poll spins on it for ever, so a game whose window was closed would
/// stay behind using a core. A hung-up terminal reports `POLLHUP`/`POLLERR` here, and the
/// game quits instead. The game's shell may not pass SIGHUP on (dash does not), so this,
/// not the signal, is what ends it.
///
/// # Errors
/// When the poll itself fails (other than by a signal, which counts as [`Input::Ready`] so
/// that the loop looks at its stop flag at once).
#[cfg(unix)]
pub fn wait_for_input(timeout: std::time::Duration) -> io::Result<Input> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::os::fd::AsFd;

    let stdin = io::stdin();
    let mut fds = [PollFd::from_borrowed_fd(stdin.as_fd(), PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: i64::try_from(timeout.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(timeout.subsec_nanos()),
    };
    match poll(&mut fds, Some(&timeout)) {
        Ok(0) => Ok(Input::Idle),
        Ok(_) => {
            let events = fds[0].revents();
            if events.intersects(PollFlags::HUP | PollFlags::ERR | PollFlags::NVAL) {
                Ok(Input::Gone)
            } else {
                Ok(Input::Ready)
            }
        }
        Err(rustix::io::Errno::INTR) => Ok(Input::Ready),
        Err(err) => Err(err.into()),
    }
}

/// Elsewhere, crossterm's own poll decides (see the Unix version).
///
/// # Errors
/// When crossterm cannot poll the terminal.
#[cfg(not(unix))]
pub fn wait_for_input(timeout: std::time::Duration) -> io::Result<Input> {
    Ok(if crossterm::event::poll(timeout)? { Input::Ready } else { Input::Idle })
}
