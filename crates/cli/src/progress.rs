//! The progress line on stderr: for work that takes more than about a second, the current
//! search's bound, the best length found so far (the near-optimal engine's), nodes, nodes per
//! second and time, and `k/n boards` in a batch.
//!
//! On a terminal it is one line redrawn in place (indicatif), shown once the run has lasted a
//! second and cleared at the end. Elsewhere it is off unless asked for (`--progress`), and
//! then printed as plain `npuzzle: progress: ...` lines, one a second, as a log would have
//! them. Nothing of it ever reaches stdout.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use npuzzle_core::Board;
use npuzzle_search::{Begin, Bound, Flow, Observer};
use npuzzle_solver::thousands;

/// How long a run goes before the progress line appears.
const SHOW_AFTER: Duration = Duration::from_secs(1);
/// How often the line is redrawn from a search (the engines report every 1024 nodes).
const REDRAW_EVERY: Duration = Duration::from_millis(100);
/// How often a plain progress line is printed when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(1);

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Nowhere.
    Off,
    /// A line redrawn in place on the terminal.
    Terminal,
    /// Plain lines, one a second (stderr is not a terminal and --progress was given).
    Lines,
}

impl Mode {
    /// The mode for a run: off with `quiet`; on a terminal stderr, a redrawn line; elsewhere
    /// plain lines only when `asked`.
    pub fn choose(quiet: bool, asked: bool) -> Mode {
        use std::io::IsTerminal;
        match (quiet, std::io::stderr().is_terminal(), asked) {
            (true, _, _) => Mode::Off,
            (false, true, _) => Mode::Terminal,
            (false, false, true) => Mode::Lines,
            (false, false, false) => Mode::Off,
        }
    }
}

/// The progress of a run: cheap to clone, shared by the threads that solve.
#[derive(Clone)]
pub struct Progress {
    inner: Option<Arc<Inner>>,
}

struct Inner {
    mode: Mode,
    bar: ProgressBar,
    shown: AtomicBool,
    started: Instant,
    total: usize,
    threads: usize,
    done: AtomicUsize,
    /// When the last plain line was printed.
    last_line: Mutex<Instant>,
}

impl Progress {
    /// Progress for `total` boards solved `threads` at a time, shown as `mode` says.
    pub fn new(mode: Mode, total: usize, threads: usize) -> Progress {
        if mode == Mode::Off {
            return Progress { inner: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        let now = Instant::now();
        Progress {
            inner: Some(Arc::new(Inner {
                mode,
                bar,
                shown: AtomicBool::new(false),
                started: now,
                total,
                threads,
                done: AtomicUsize::new(0),
                last_line: Mutex::new(now),
            })),
        }
    }

    /// An observer for one search, that reports to this line.
    pub fn watcher(&self) -> Watcher {
        let now = Instant::now();
        Watcher { progress: self.clone(), bound: None, best: None, started: now, last: now }
    }

    /// One more board is done.
    pub fn board_done(&self) {
        if let Some(inner) = &self.inner {
            inner.done.fetch_add(1, Ordering::Relaxed);
            if inner.threads > 1 || inner.total > 1 {
                self.show(None);
            }
        }
    }

    /// Runs `f` (which prints) with the progress line out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.inner {
            Some(inner) if inner.mode == Mode::Terminal => inner.bar.suspend(f),
            _ => f(),
        }
    }

    /// Clears the line for good.
    pub fn finish(&self) {
        if let Some(inner) = &self.inner {
            inner.bar.finish_and_clear();
        }
    }

    /// Shows the line with the batch's count and, when one search runs at a time, what
    /// `search` says about it.
    fn show(&self, search: Option<String>) {
        let Some(inner) = &self.inner else { return };
        let elapsed = inner.started.elapsed();
        if elapsed < SHOW_AFTER {
            return;
        }
        let done = inner.done.load(Ordering::Relaxed);
        let mut message = String::new();
        if inner.total > 1 {
            message.push_str(&format!("{done}/{} boards", inner.total));
        }
        match search {
            Some(search) if inner.threads == 1 => {
                if !message.is_empty() {
                    message.push_str(": ");
                }
                message.push_str(&search);
            }
            _ => message.push_str(&format!(", {:.1} s", elapsed.as_secs_f64())),
        }
        match inner.mode {
            Mode::Off => {}
            Mode::Terminal => {
                if !inner.shown.swap(true, Ordering::Relaxed) {
                    inner.bar.set_draw_target(ProgressDrawTarget::stderr());
                    inner.bar.enable_steady_tick(Duration::from_millis(120));
                }
                inner.bar.set_message(message);
            }
            Mode::Lines => {
                let Ok(mut last) = inner.last_line.lock() else { return };
                if last.elapsed() >= LINE_EVERY {
                    *last = Instant::now();
                    crate::stdio::complain(format_args!("progress: {message}"));
                }
            }
        }
    }
}

/// Watches one search for the progress line: its bound (IDA*'s iteration, A*'s f layer), the
/// best length found so far (the near-optimal engine's) and its node count. A no-op when
/// progress is off.
pub struct Watcher {
    progress: Progress,
    bound: Option<u32>,
    best: Option<u64>,
    started: Instant,
    last: Instant,
}

impl Watcher {
    fn report(&mut self, expanded: u64) {
        let now = Instant::now();
        if now.duration_since(self.last) < REDRAW_EVERY {
            return;
        }
        self.last = now;
        let secs = now.duration_since(self.started).as_secs_f64();
        let rate = if secs > 0.0 { expanded as f64 / secs } else { 0.0 };
        let best = self.best.map(|b| format!("best {b}, ")).unwrap_or_default();
        let bound = self.bound.map(|b| format!("bound {b}, ")).unwrap_or_default();
        // The near-optimal engine counts its nodes only at the end.
        let nodes = if expanded > 0 {
            format!("{} nodes, {}/s, ", thousands(expanded), per_second(rate))
        } else {
            String::new()
        };
        self.progress.show(Some(format!("{best}{bound}{nodes}{secs:.1} s")));
    }
}

/// `3.4M`, `850k`, `12`: a rate for people.
fn per_second(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.1}M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.0}k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

impl Observer<Board, u32> for Watcher {
    fn begin(&mut self, _: &Begin<'_, Board, u32>) -> Flow {
        self.started = Instant::now();
        Flow::Continue
    }

    fn bound(&mut self, event: &Bound<u32>) -> Flow {
        if self.progress.inner.is_some() {
            self.bound = Some(event.bound());
            // A new bound is worth showing at once.
            self.last = self.started;
            self.report(event.expanded());
        }
        Flow::Continue
    }

    fn progress(&mut self, event: &npuzzle_search::Progress) -> Flow {
        if self.progress.inner.is_some() {
            if event.best() != self.best {
                self.best = event.best();
                // A shorter answer is worth showing at once.
                self.last = self.started;
            }
            self.report(event.expanded());
        }
        Flow::Continue
    }
}

/// Wants no node: bounds and progress only.
impl npuzzle_solver::Sampler for Watcher {
    fn wants(&mut self, _: u64) -> bool {
        false
    }

    fn samples(&self) -> bool {
        false
    }
}

/// The line's watcher serves [`npuzzle_solver::Solver::hint_with`] too.
impl npuzzle_solver::Watcher for Watcher {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_as_people_write_them() {
        assert_eq!(per_second(3_412_000.0), "3.4M");
        assert_eq!(per_second(850_400.0), "850k");
        assert_eq!(per_second(12.0), "12");
    }
}
