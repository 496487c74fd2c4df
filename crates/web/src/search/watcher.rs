//! The watcher of a streamed search: it paces and pauses the search, picks the nodes to
//! draw, keeps the statistics and sends the events.

use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use axum::response::sse::Event;
use npuzzle_core::{Board, Move};
use npuzzle_search::{Bound, Expand, Flow, Generate, Observer, Progress};
use npuzzle_solver::{Nodes, Sampler, Watcher};
use serde::Serialize;
use serde_json::json;
use tokio::sync::mpsc;

use super::session::{Session, lock};
use super::{FRAME, POLL, SHOWN, SLOW_PACE, STATS_EVERY, event};
use crate::gate::Turn;

/// A board with its costs, as the `soonest` and `recent` lists show it.
#[derive(Serialize)]
pub(super) struct Shown {
    pub(super) board: String,
    pub(super) g: u32,
    pub(super) h: u32,
    pub(super) f: u32,
}

/// The observer of a streamed search.
pub(super) struct StreamWatcher<'a> {
    /// Its turn on the cores: held while it computes.
    pub(super) turn: Turn<'a>,
    /// The search runs on the fast engines and the watcher sees the nodes it asks for
    /// ([`Solver::solve_sampled`]); otherwise on the generic ones, every node.
    pub(super) fast: bool,
    /// Whether `bound` events are shown (IDA* and IDDFS; the fast A* and BFS report their
    /// f layers and depths too, which the generic ones do not).
    pub(super) bounds: bool,
    /// Fast: the expansions before the node the engine last asked about.
    pub(super) asked: u64,
    /// Fast: the number of the last node sampled, and of the last sent in an event.
    pub(super) last_sample: u64,
    pub(super) last_sent: u64,
    /// Fast: nodes still to sample, one by one, before the next frame (the last few
    /// expanded before a frame, for `recent`).
    pub(super) warming: usize,
    pub(super) session: &'a Session,
    pub(super) tx: &'a mpsc::Sender<Event>,
    /// The searching time allowed.
    pub(super) searching: Duration,
    pub(super) started: Instant,
    /// Time spent waiting: for the pace, a pause, or room in the channel.
    pub(super) waited: Duration,
    /// When the next node is due, when paced.
    pub(super) due: Instant,
    pub(super) last_frame: Option<Instant>,
    /// When the lists were last sent.
    pub(super) last_lists: Option<Instant>,
    pub(super) last_stats: (Instant, u64),
    pub(super) expanded: u64,
    pub(super) generated: u64,
    pub(super) frontier: usize,
    pub(super) closed: usize,
    pub(super) skipped: u64,
    /// The last expanded boards with g and h, newest last.
    pub(super) recent: VecDeque<(Board, u32, u32)>,
    /// IDDFS and IDA*: the current path, the boards from the start to the node last
    /// expanded (see [`StreamWatcher::follow`]); empty for the other searches.
    pub(super) path: Vec<Board>,
    /// Whether `path` is known from the start: always on the generic engines, which show
    /// every node; on the fast ones only from an iteration's root sampled node after node.
    pub(super) path_known: bool,
    /// Whether the search is IDDFS or IDA*, whose current path is shown.
    pub(super) deepening: bool,
    pub(super) out_of_time: bool,
    /// The client went away: nothing more is sent.
    pub(super) gone: bool,
}

impl StreamWatcher<'_> {
    /// Sends `event`, waiting for room while the client reads; false when the client has
    /// gone or the search was stopped meanwhile.
    pub(super) fn send(&mut self, event: Event) -> bool {
        let mut event = event;
        let began = Instant::now();
        let mut released = false;
        loop {
            match self.tx.try_send(event) {
                Ok(()) => break,
                Err(mpsc::error::TrySendError::Closed(_)) => {
                    self.gone = true;
                    break;
                }
                Err(mpsc::error::TrySendError::Full(back)) => {
                    if self.session.cancelled() {
                        break;
                    }
                    event = back;
                    if !released {
                        // The client reads slowly: let another search compute meanwhile.
                        released = self.turn.try_release();
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
        }
        if released && self.needs_turn() {
            self.turn.hold();
        }
        self.waited += began.elapsed();
        !self.gone
    }

    pub(super) fn stats(&mut self, now: Instant) {
        let (then, before) = self.last_stats;
        let span = now.duration_since(then).as_secs_f64();
        let rate = if span > 0.0 { (self.expanded - before) as f64 / span } else { 0.0 };
        self.last_stats = (now, self.expanded);
        let elapsed = now.duration_since(self.started);
        let data = json!({
            "expanded": self.expanded,
            "generated": self.generated,
            "frontier": self.frontier,
            "elapsed": elapsed.as_secs_f64(),
            "searching": elapsed.saturating_sub(self.waited).as_secs_f64(),
            "nodes_per_second": rate.round(),
        });
        self.send(event("stats", &data));
    }

    pub(super) fn frame(&mut self, e: &Expand<'_, Board, u32>) {
        // The lists are most of an event's bytes and nobody reads them faster than a screen
        // draws: at a fast pace they come at most every FRAME (a paused search, and one at
        // full speed, whose frames are that far apart already, always show them; so does a
        // pace of at most one node a FRAME, even when a loaded machine sends two events
        // closer together as the pacing catches up).
        let now = Instant::now();
        let lists = self.session.paused.load(Ordering::Relaxed)
            || self.session.interval().is_none_or(|every| every >= FRAME)
            || self.last_lists.is_none_or(|t| now.duration_since(t) >= FRAME);
        let mut data = self.frame_data(e);
        if lists {
            self.last_lists = Some(now);
            let mut soonest = Vec::new();
            if let Some(frontier) = e.frontier() {
                frontier.soonest(SHOWN, &mut |b, g, h| {
                    soonest.push(Shown { board: b.to_string(), g, h, f: g + h });
                });
            }
            let recent: Vec<Shown> = self
                .recent
                .iter()
                .rev()
                .map(|(b, g, h)| Shown { board: b.to_string(), g: *g, h: *h, f: g + h })
                .collect();
            data["soonest"] = json!(soonest);
            data["recent"] = json!(recent);
        }
        self.skipped = 0;
        self.send(event("expand", &data));
    }

    pub(super) fn frame_data(&self, e: &Expand<'_, Board, u32>) -> serde_json::Value {
        let mut data = json!({
            "n": self.expanded,
            "board": e.node().to_string(),
            "g": e.g(),
            "h": e.h(),
            "f": e.f(),
            "open": e.open(),
            "closed": e.closed(),
            "skipped": self.skipped,
            "elapsed": self.started.elapsed().as_secs_f64(),
        });
        if let Some(path) = self.path_moves() {
            data["path"] = json!(path);
        }
        data
    }

    /// IDDFS and IDA*: keeps the current path as the depth-first search goes, from the node
    /// about to be expanded (the searches expand in depth-first order, so the node at depth
    /// `g` hangs from the last one expanded at depth `g - 1`, which the generic engines also
    /// name as its parent). Called at every node the watcher sees; `consecutive` says
    /// whether it saw the one before (a fast search is seen only in glimpses, and its path
    /// is known again only from an iteration's root).
    pub(super) fn follow(&mut self, e: &Expand<'_, Board, u32>, consecutive: bool) {
        if !self.deepening {
            return;
        }
        let depth = e.g() as usize;
        if depth == 0 {
            self.path.clear();
            self.path.push(e.node().clone());
            self.path_known = true;
            return;
        }
        self.path.truncate(depth);
        let parent = self.path.last();
        let hangs = consecutive
            && self.path_known
            && self.path.len() == depth
            && e.parent().is_none_or(|p| Some(p) == parent)
            && parent.is_some_and(|p| step(p, e.node()).is_some());
        if hangs {
            self.path.push(e.node().clone());
        } else {
            self.path.clear();
            self.path_known = false;
        }
    }

    /// The current path as moves from the start (tile directions, `RRDLU...`), when known.
    pub(super) fn path_moves(&self) -> Option<String> {
        if !self.deepening || !self.path_known || self.path.is_empty() {
            return None;
        }
        self.path.windows(2).map(|w| step(&w[0], &w[1]).map(Move::letter)).collect()
    }

    /// At full speed, the last node expanded when its frame was skipped, so the page ends on
    /// it. The open list is gone with the search: `soonest` is absent.
    pub(super) fn last_frame(&mut self) {
        if self.skipped == 0 {
            return;
        }
        let Some((board, g, h)) = self.recent.back() else { return };
        let recent: Vec<Shown> = self
            .recent
            .iter()
            .rev()
            .skip(1)
            .map(|(b, g, h)| Shown { board: b.to_string(), g: *g, h: *h, f: g + h })
            .collect();
        let data = json!({
            "n": self.expanded,
            "board": board.to_string(),
            "g": g,
            "h": h,
            "f": g + h,
            "open": self.frontier,
            "closed": self.closed,
            "skipped": self.skipped - 1,
            "elapsed": self.started.elapsed().as_secs_f64(),
            "recent": recent,
        });
        let mut data = data;
        if let Some(path) = self.path_moves() {
            data["path"] = json!(path);
        }
        self.skipped = 0;
        self.send(event("expand", &data));
    }

    /// Blocks while paused (after showing the node it waits on) or ahead of the pace; false
    /// when the search must stop.
    pub(super) fn wait_turn(
        &mut self,
        e: &Expand<'_, Board, u32>,
        interval: Option<Duration>,
    ) -> bool {
        let mut shown = false;
        if let Some(interval) = interval {
            // Paced: every node is shown once its time has come.
            let began = Instant::now();
            let mut control = lock(&self.session.control);
            loop {
                if self.session.cancelled() {
                    return false;
                }
                let now = Instant::now();
                if control.paused || now >= self.due {
                    break;
                }
                let wait = (self.due - now).min(POLL);
                self.turn.release();
                control = self
                    .session
                    .wake
                    .wait_timeout(control, wait)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            let paused = control.paused;
            drop(control);
            if self.needs_turn() && !self.turn.hold() {
                return false;
            }
            self.waited += began.elapsed();
            self.due = self.due.max(Instant::now() - interval) + interval;
            if !paused {
                self.frame(e);
                shown = true;
            }
        }
        if self.session.paused.load(Ordering::Relaxed) {
            if !shown {
                self.frame(e);
            }
            self.stats(Instant::now());
            let began = Instant::now();
            let mut control = lock(&self.session.control);
            loop {
                if self.session.cancelled() {
                    return false;
                }
                if !control.paused {
                    control.told_paused = false;
                    drop(control);
                    self.send(event(
                        "state",
                        &json!({"state": "running", "expanded": self.expanded}),
                    ));
                    break;
                }
                if !control.told_paused {
                    control.told_paused = true;
                    let expanded = self.expanded;
                    drop(control);
                    self.send(event("state", &json!({"state": "paused", "expanded": expanded})));
                    control = lock(&self.session.control);
                    continue;
                }
                if control.steps > 0 {
                    control.steps -= 1;
                    drop(control);
                    break;
                }
                self.turn.release();
                control = self
                    .session
                    .wake
                    .wait_timeout(control, POLL)
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
            }
            if self.needs_turn() && !self.turn.hold() {
                return false;
            }
            self.waited += began.elapsed();
            // After a pause, the pace starts afresh.
            self.due = Instant::now();
        }
        true
    }
}

impl StreamWatcher<'_> {
    /// Sends the stats when they are due, and stops a search past its time or whose
    /// client is gone.
    pub(super) fn tick(&mut self) -> Flow {
        let now = Instant::now();
        if now.duration_since(self.last_stats.0) >= STATS_EVERY {
            self.stats(now);
            if now.duration_since(self.started).saturating_sub(self.waited) > self.searching {
                self.out_of_time = true;
                return Flow::Stop;
            }
        }
        if self.gone { Flow::Stop } else { Flow::Continue }
    }

    /// Whether the search computes enough to need a turn: it runs at full speed or at a pace
    /// faster than [`SLOW_PACE`] allows (a slower one computes a node now and then, and
    /// waiting in line would only break its pace).
    pub(super) fn needs_turn(&self) -> bool {
        !self.session.paused.load(Ordering::Relaxed)
            && self.session.interval().is_none_or(|every| every < SLOW_PACE)
    }

    /// At a node or check: takes turns as [`StreamWatcher::needs_turn`] says (giving the turn up
    /// after a quantum when others wait); false when cancelled while waiting.
    pub(super) fn take_turns(&mut self) -> bool {
        if self.needs_turn() {
            self.turn.share()
        } else {
            self.turn.release();
            true
        }
    }

    /// Whether the search must show its nodes one by one: paused, or paced.
    pub(super) fn node_by_node(&self) -> bool {
        self.session.paused.load(Ordering::Relaxed) || self.session.interval().is_some()
    }

    /// A node of a fast search, the `n`th expanded, that this watcher asked for.
    pub(super) fn sampled(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        let n = self.asked + 1;
        let consecutive = n == self.last_sample + 1;
        if !consecutive {
            // Only consecutive nodes are the last few expanded.
            self.recent.clear();
        }
        self.follow(e, consecutive);
        self.last_sample = n;
        self.frontier = e.open();
        self.closed = e.closed();
        self.expanded = n;
        self.session.expanded.store(n, Ordering::Relaxed);
        let interval = self.session.interval();
        if interval.is_some() || self.session.paused.load(Ordering::Relaxed) {
            self.warming = 0;
            self.skipped = n - self.last_sent - 1;
            self.last_sent = n;
            if !self.wait_turn(e, interval) || self.gone {
                return Flow::Stop;
            }
        } else if self.warming > 1 {
            self.warming -= 1;
        } else {
            self.warming = 0;
            self.skipped = n - self.last_sent - 1;
            self.last_sent = n;
            self.last_frame = Some(Instant::now());
            self.frame(e);
        }
        if self.recent.len() == SHOWN {
            self.recent.pop_front();
        }
        self.recent.push_back((e.node().clone(), e.g(), e.h()));
        if self.gone { Flow::Stop } else { Flow::Continue }
    }
}

/// The solver shows a search at full speed sampled, and any other node by node.
impl Watcher for StreamWatcher<'_> {
    fn nodes(&self) -> Nodes {
        if self.fast { Nodes::Sampled } else { Nodes::Every }
    }
}

impl Sampler for StreamWatcher<'_> {
    fn wants(&mut self, expanded: u64) -> bool {
        self.asked = expanded;
        if self.warming > 0 || self.node_by_node() {
            return true;
        }
        match self.last_frame {
            // The start is shown at once.
            None => {
                self.warming = 1;
                true
            }
            Some(t) if t.elapsed() >= FRAME => {
                // A frame is due: see the few nodes before it, one by one, then show it.
                self.warming = SHOWN + 1;
                true
            }
            Some(_) => false,
        }
    }
}

impl Observer<Board, u32> for StreamWatcher<'_> {
    fn progress(&mut self, e: &Progress) -> Flow {
        if !self.fast {
            return Flow::Continue;
        }
        if self.session.cancelled() || !self.take_turns() {
            return Flow::Stop;
        }
        if !self.node_by_node() {
            self.expanded = e.expanded();
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
        }
        self.generated = e.generated();
        self.frontier = usize::try_from(e.frontier()).unwrap_or(usize::MAX);
        self.tick()
    }

    fn expand(&mut self, e: &Expand<'_, Board, u32>) -> Flow {
        if self.session.cancelled() {
            return Flow::Stop;
        }
        if self.fast {
            return self.sampled(e);
        }
        if !self.take_turns() {
            return Flow::Stop;
        }
        self.follow(e, true);
        self.frontier = e.open();
        self.closed = e.closed();
        let interval = self.session.interval();
        if interval.is_some() || self.session.paused.load(Ordering::Relaxed) {
            // Counted before the wait: the node shown is the one about to be expanded.
            self.expanded += 1;
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
            if !self.wait_turn(e, interval) || self.gone {
                return Flow::Stop;
            }
        } else {
            self.expanded += 1;
            // Stored before the frame goes out: a client that reads it and asks at once
            // sees at least this count.
            self.session.expanded.store(self.expanded, Ordering::Relaxed);
            let now = Instant::now();
            if self.last_frame.is_none_or(|t| now.duration_since(t) >= FRAME) {
                self.last_frame = Some(now);
                self.frame(e);
            } else {
                self.skipped += 1;
            }
        }
        self.session.expanded.store(self.expanded, Ordering::Relaxed);
        if self.recent.len() == SHOWN {
            self.recent.pop_front();
        }
        self.recent.push_back((e.node().clone(), e.g(), e.h()));
        self.tick()
    }

    fn generate(&mut self, _: &Generate<'_, Board, u32>) -> Flow {
        self.generated += 1;
        Flow::Continue
    }

    fn bound(&mut self, e: &Bound<u32>) -> Flow {
        if !self.bounds {
            return Flow::Continue;
        }
        let data = json!({ "bound": e.bound(), "expanded": e.expanded() });
        if self.send(event("bound", &data)) { Flow::Continue } else { Flow::Stop }
    }
}

/// The move that takes `from` to `to`, when they are one move apart.
fn step(from: &Board, to: &Board) -> Option<Move> {
    let (fx, fy) = from.blank_xy();
    let (tx, ty) = to.blank_xy();
    let m = Move::from_blank_delta(tx as isize - fx as isize, ty as isize - fy as isize)?;
    from.moved(m).filter(|b| b == to).map(|_| m)
}
