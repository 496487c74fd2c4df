//! The sessions of streamed searches: the streams running now, each one's place, and the
//! control state (pause, step, pace, stop) that requests set and the search thread reads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::AppError;
use crate::gate::Gate;

/// The streams running now, by id, and how many there may be.
#[derive(Debug)]
pub struct Streams {
    pub(super) sessions: Mutex<HashMap<String, Arc<Session>>>,
    pub(super) running: AtomicUsize,
    pub(super) next: AtomicU64,
    /// The turns their searches take on the cores.
    pub(super) gate: Gate,
}

impl Default for Streams {
    /// As many turns as cores.
    fn default() -> Streams {
        Streams::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
    }
}

impl Streams {
    /// No streams yet; their searches compute `turns` at a time (see [`crate::gate`]).
    pub fn new(turns: usize) -> Streams {
        Streams {
            sessions: Mutex::default(),
            running: AtomicUsize::new(0),
            next: AtomicU64::new(0),
            gate: Gate::new(turns),
        }
    }

    /// Searches computing now, and searches waiting for their turn.
    pub fn computing(&self) -> (usize, usize) {
        (self.gate.computing(), self.gate.waiting())
    }

    /// Searches streaming now (their threads included, until they have stopped).
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// A slot for a new stream, or `None` when `max` are running.
    pub(super) fn admit(self: &Arc<Streams>, max: usize) -> Option<Slot> {
        let admitted = self
            .running
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1))
            .is_ok();
        admitted.then(|| Slot { streams: Arc::clone(self), id: None })
    }

    pub(super) fn get(&self, id: &str) -> Option<Arc<Session>> {
        lock(&self.sessions).get(id).cloned()
    }

    /// Stops every search: for a shutdown.
    pub fn stop_all(&self) {
        for session in lock(&self.sessions).values() {
            session.stop();
        }
    }

    /// An id nobody can guess from another: the clock and a counter, mixed.
    pub(super) fn new_id(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let mut x = (nanos as u64) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // splitmix64's finaliser.
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        format!("{:016x}", x ^ (x >> 31))
    }
}

/// A running stream's place: freed (and its id forgotten) when its search thread ends.
pub(super) struct Slot {
    pub(super) streams: Arc<Streams>,
    pub(super) id: Option<String>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Some(id) = &self.id {
            lock(&self.streams.sessions).remove(id);
        }
        self.streams.running.fetch_sub(1, Ordering::AcqRel);
    }
}

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What control requests set, read by the search thread.
#[derive(Debug, Default)]
pub(super) struct Control {
    pub(super) paused: bool,
    /// Nodes a paused search may still expand.
    pub(super) steps: u64,
    /// Whether the search has told the client it is paused.
    pub(super) told_paused: bool,
}

/// One stream's shared state: its control and its cancel flag.
#[derive(Debug, Default)]
pub(super) struct Session {
    pub(super) cancel: Arc<AtomicBool>,
    /// A copy of `control.paused`, read at every node without the lock.
    pub(super) paused: AtomicBool,
    pub(super) control: Mutex<Control>,
    pub(super) wake: Condvar,
    pub(super) expanded: AtomicU64,
    /// Nanoseconds per node when paced; 0 at full speed.
    pub(super) interval: AtomicU64,
}

impl Session {
    pub(super) fn stop(&self) {
        self.cancel.store(true, Ordering::Relaxed);
        let _guard = lock(&self.control);
        self.wake.notify_all();
    }

    pub(super) fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    pub(super) fn set_pace(&self, pace: Option<f64>) {
        let nanos = pace.map_or(0, |p| (1e9 / p).round() as u64).max(u64::from(pace.is_some()));
        self.interval.store(nanos, Ordering::Relaxed);
        let _guard = lock(&self.control);
        self.wake.notify_all();
    }

    pub(super) fn interval(&self) -> Option<Duration> {
        match self.interval.load(Ordering::Relaxed) {
            0 => None,
            nanos => Some(Duration::from_nanos(nanos)),
        }
    }
}

/// Reads a `pace`: absent or 0 is full speed, otherwise 1 to 1,000,000 nodes a second.
pub(super) fn pace(value: Option<f64>) -> Result<Option<f64>, AppError> {
    match value {
        None | Some(0.0) => Ok(None),
        Some(p) if p.is_finite() && (1.0..=1e6).contains(&p) => Ok(Some(p)),
        Some(p) => Err(AppError::bad_request(format!(
            "pace must be 0 (full speed) or from 1 to 1,000,000 nodes per second, got {p}"
        ))),
    }
}
