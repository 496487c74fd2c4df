//! One way to watch any solve: a [`Request`] and a [`Watcher`], for
//! [`Solver::solve_with`](crate::Solver::solve_with).
//!
//! A watcher is an [`Observer`] of boards that also says how much of the search it wants to
//! see ([`Watcher::nodes`]):
//!
//! - [`Nodes::None`]: bounds and progress only, from every engine, the databases' included
//!   (what a progress bar or a Ctrl-C handler needs; nothing per node is paid);
//! - [`Nodes::Sampled`]: those, and the nodes it asks for ([`Sampler::wants`]) from the
//!   engines that can show them at full speed (the packed engines and the IDA* over pattern
//!   databases), on the same route and to the same answer as an unwatched solve;
//! - [`Nodes::Every`]: every node, on the generic searches of `npuzzle-search` (for teaching;
//!   slower).
//!
//! Engines that search on several threads (the IDA* over pattern databases with
//! `threads > 1`, the 24-puzzle's search) report from those threads; the solver relays their
//! bounds and progress to the watcher on the caller's thread, and stops them when the watcher
//! says [`Flow::Stop`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use npuzzle_core::Board;
use npuzzle_search::{Bound, Flow, Observer, Progress};

use crate::options::Options;
use crate::sample::Sampler;

/// What a solve is asked: a board, its goal and the options.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// The board to solve.
    pub board: &'a Board,
    /// The goal to reach.
    pub goal: &'a Board,
    /// How.
    pub options: &'a Options,
}

impl<'a> Request<'a> {
    /// A request for `board` towards `goal` as `options` ask.
    pub fn new(board: &'a Board, goal: &'a Board, options: &'a Options) -> Request<'a> {
        Request { board, goal, options }
    }
}

/// How many of a search's nodes a [`Watcher`] wants to see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Nodes {
    /// None: bounds and progress only.
    #[default]
    None,
    /// The nodes [`Sampler::wants`] asks for, from the fast engines.
    Sampled,
    /// Every node, on the generic searches.
    Every,
}

/// The one watcher of [`Solver::solve_with`](crate::Solver::solve_with): bounds (each a
/// proven lower bound), progress, the nodes it asks for, and the end; [`Flow::Stop`] from any
/// event stops the search as cancelled, with the best bound proved so far.
pub trait Watcher: Sampler {
    /// How many nodes to show (none by default).
    fn nodes(&self) -> Nodes {
        Nodes::None
    }
}

impl<W: Watcher + ?Sized> Watcher for &mut W {
    fn nodes(&self) -> Nodes {
        (**self).nodes()
    }
}

/// Watches nothing.
impl Watcher for () {}

/// What the threads of an engine report to [`relay`].
pub(crate) enum Relayed {
    /// A proven lower bound.
    Bound(u32),
    /// Expansions and generations so far.
    Progress(u64, u64),
    /// The length of the best solution found so far (an anytime engine: the near-optimal
    /// one); the observer hears it with every progress event from then on.
    Best(u64),
}

/// The longest the observer of [`relay`] goes without a progress event while the work runs.
const HEARTBEAT: Duration = Duration::from_millis(250);

/// Runs `work` on a thread of its own, handing it a stop flag (raised when `cancel` is, or
/// when `observer` answers [`Flow::Stop`]) and a sink for its reports, which this thread
/// passes on to `observer` as they come (and a progress event at least every [`HEARTBEAT`]);
/// returns what `work` returns.
pub(crate) fn relay<T, O>(
    observer: &mut O,
    cancel: Option<&Arc<AtomicBool>>,
    work: impl FnOnce(Arc<AtomicBool>, &(dyn Fn(Relayed) + Sync)) -> T + Send,
) -> T
where
    T: Send,
    O: Observer<Board, u32> + ?Sized,
{
    let stop = Arc::new(AtomicBool::new(cancel.is_some_and(|c| c.load(Relaxed))));
    let (tx, rx) = mpsc::channel::<Relayed>();
    let started = Instant::now();
    std::thread::scope(|scope| {
        let flag = Arc::clone(&stop);
        let worker = scope.spawn(move || {
            let send = move |r: Relayed| {
                let _ = tx.send(r);
            };
            work(flag, &send)
        });
        let mut last_bound = None;
        let (mut best, mut nodes) = (None::<u64>, (0, 0));
        let mut last_progress = Instant::now();
        let progress = |observer: &mut O, best: Option<u64>, (expanded, generated)| {
            let event = Progress::new(expanded, generated, 0, started);
            let event = best.map_or(event, |b| event.with_best(b));
            if observer.progress(&event) == Flow::Stop {
                stop.store(true, Relaxed);
            }
        };
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(Relayed::Bound(b)) => {
                    if last_bound.is_none_or(|l| b > l) {
                        last_bound = Some(b);
                        if observer.bound(&Bound::new(b, 0)) == Flow::Stop {
                            stop.store(true, Relaxed);
                        }
                    }
                }
                Ok(Relayed::Progress(expanded, generated)) => {
                    nodes = (expanded, generated);
                    progress(observer, best, nodes);
                    last_progress = Instant::now();
                }
                Ok(Relayed::Best(length)) => {
                    if best.is_none_or(|b| length < b) {
                        best = Some(length);
                        progress(observer, best, nodes);
                        last_progress = Instant::now();
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    // An engine that reports seldom (the near-optimal one, between its
                    // answers) still gives the observer a beat to show the time and what
                    // it has heard.
                    if last_progress.elapsed() >= HEARTBEAT {
                        progress(observer, best, nodes);
                        last_progress = Instant::now();
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if cancel.is_some_and(|c| c.load(Relaxed)) {
                stop.store(true, Relaxed);
            }
        }
        match worker.join() {
            Ok(t) => t,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// What a running solve has found and proved so far, as its [`LiveWatcher`] hears it: the
/// best lower bound, the length of the shortest answer (the near-optimal engine has one long
/// before it ends), the nodes expanded and the time since it was made. Shared between the
/// thread that solves and those that show it (a game's panel, a web client's poll, a Python
/// callback); every value only improves.
#[derive(Debug)]
pub struct Live {
    started: Instant,
    bound: AtomicU32,
    best: AtomicU64,
    expanded: AtomicU64,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            started: Instant::now(),
            bound: AtomicU32::new(0),
            best: AtomicU64::new(0),
            expanded: AtomicU64::new(0),
        }
    }
}

impl Live {
    /// Nothing heard yet; the clock starts now.
    pub fn new() -> Live {
        Live::default()
    }

    /// The best lower bound proved so far, if any.
    pub fn bound(&self) -> Option<u32> {
        Some(self.bound.load(Relaxed)).filter(|&b| b > 0)
    }

    /// The length of the shortest answer found so far, if any.
    pub fn best(&self) -> Option<u64> {
        Some(self.best.load(Relaxed)).filter(|&b| b > 0)
    }

    /// The nodes expanded so far, as the engine reports them (the near-optimal engine counts
    /// its nodes only at the end: 0 until then).
    pub fn expanded(&self) -> u64 {
        self.expanded.load(Relaxed)
    }

    /// The time since this was made.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// A watcher that keeps what it hears here.
    pub fn watcher(self: &Arc<Live>) -> LiveWatcher {
        LiveWatcher(Arc::clone(self))
    }
}

/// The [`Watcher`] of a [`Live`]: bounds and progress only ([`Nodes::None`]).
#[derive(Debug, Clone)]
pub struct LiveWatcher(Arc<Live>);

impl Observer<Board, u32> for LiveWatcher {
    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        self.0.bound.fetch_max(e.bound(), Relaxed);
        Flow::Continue
    }

    fn progress(&mut self, e: &Progress) -> Flow {
        self.0.expanded.fetch_max(e.expanded(), Relaxed);
        if let Some(b) = e.best().filter(|&b| b > 0) {
            let shorter = |now: u64| (now == 0 || b < now).then_some(b);
            let _ = self.0.best.fetch_update(Relaxed, Relaxed, shorter);
        }
        Flow::Continue
    }
}

impl Sampler for LiveWatcher {
    fn wants(&mut self, _: u64) -> bool {
        false
    }

    fn samples(&self) -> bool {
        false
    }
}

impl Watcher for LiveWatcher {}
