//! The turns streamed searches take on the cores.
//!
//! Up to [`Config::streams`](crate::Config::streams) searches may stream at once, far more
//! than there are cores. Run all at once, 50 searches at full speed on 2 cores kept the
//! async threads waiting for a core: `/healthz` took up to 1.4 s although the solver threads
//! run at a lower priority (the runtime's threads spent 2 of 9 s in the run queue, measured
//! from `/proc/<pid>/task/<tid>/schedstat`). So a search computes only while it holds one
//! of a few turns (as many as the cores by default); the others wait in a first-come queue.
//! A search gives its turn back whenever it waits anyway (for its pace, a pause, or a slow
//! client), and after [`QUANTUM`] of computing when another search is waiting, then queues
//! again at the back: every search progresses, and only the turns' worth of threads compete
//! with the async ones. Searches paced slowly (see [`crate::search::SLOW_PACE`]) compute
//! their few nodes without a turn.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The most a search computes in one turn while another waits.
pub const QUANTUM: Duration = Duration::from_millis(50);
/// How often a waiting search looks whether it was cancelled.
const POLL: Duration = Duration::from_millis(20);

/// The turns, and the queue of searches waiting for one.
#[derive(Debug)]
pub struct Gate {
    turns: usize,
    state: Mutex<Queue>,
    wake: Condvar,
    /// How many wait, read without the lock at every check of a running search.
    waiting: AtomicUsize,
}

#[derive(Debug, Default)]
struct Queue {
    /// Turns taken.
    taken: usize,
    /// Tickets of the searches waiting, first come first.
    tickets: VecDeque<u64>,
    next: u64,
}

impl Gate {
    /// A gate with `turns` turns (at least 1).
    pub fn new(turns: usize) -> Gate {
        Gate {
            turns: turns.max(1),
            state: Mutex::default(),
            wake: Condvar::new(),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Searches waiting for a turn now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Searches holding a turn now.
    pub fn computing(&self) -> usize {
        self.lock().taken
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a turn if one is free and nobody waits.
    fn try_take(&self) -> bool {
        let mut q = self.lock();
        if q.taken < self.turns && q.tickets.is_empty() {
            q.taken += 1;
            true
        } else {
            false
        }
    }

    /// Waits for a turn, behind those already waiting; false if `cancel` was set first.
    fn take(&self, cancel: &AtomicBool) -> bool {
        let mut q = self.lock();
        if q.taken < self.turns && q.tickets.is_empty() {
            q.taken += 1;
            return true;
        }
        let ticket = q.next;
        q.next += 1;
        q.tickets.push_back(ticket);
        self.waiting.fetch_add(1, Ordering::Relaxed);
        let taken = loop {
            if q.tickets.front() == Some(&ticket) && q.taken < self.turns {
                q.tickets.pop_front();
                q.taken += 1;
                break true;
            }
            if cancel.load(Ordering::Relaxed) {
                q.tickets.retain(|&t| t != ticket);
                break false;
            }
            q = self.wake.wait_timeout(q, POLL).unwrap_or_else(|p| p.into_inner()).0;
        };
        self.waiting.fetch_sub(1, Ordering::Relaxed);
        drop(q);
        // The next in line may find a turn free too (or the head left the queue).
        self.wake.notify_all();
        taken
    }

    fn give_back(&self) {
        let mut q = self.lock();
        q.taken = q.taken.saturating_sub(1);
        drop(q);
        self.wake.notify_all();
    }
}

/// One search's place at the gate: whether it holds a turn, and since when. Dropping it
/// gives the turn back.
pub struct Turn<'a> {
    gate: &'a Gate,
    cancel: &'a AtomicBool,
    since: Option<Instant>,
}

impl<'a> Turn<'a> {
    /// A search that holds no turn yet.
    pub fn new(gate: &'a Gate, cancel: &'a AtomicBool) -> Turn<'a> {
        Turn { gate, cancel, since: None }
    }

    /// Takes a turn without waiting, if one is free and nobody waits; whether it holds one.
    pub fn try_hold(&mut self) -> bool {
        if self.since.is_none() && self.gate.try_take() {
            self.since = Some(Instant::now());
        }
        self.since.is_some()
    }

    /// Holds a turn, waiting for one if need be; false if the search was cancelled first.
    pub fn hold(&mut self) -> bool {
        if self.since.is_none() {
            if !self.gate.take(self.cancel) {
                return false;
            }
            self.since = Some(Instant::now());
        }
        true
    }

    /// Gives the turn back (before a wait).
    pub fn release(&mut self) {
        if self.since.take().is_some() {
            self.gate.give_back();
        }
    }

    /// Gives the turn back if it holds one; whether it did.
    pub fn try_release(&mut self) -> bool {
        let held = self.since.is_some();
        self.release();
        held
    }

    /// Holds a turn (waiting for one if it has none), and after [`QUANTUM`] with a turn while
    /// others wait, gives it back and queues again. False if the search was cancelled while
    /// it waited.
    pub fn share(&mut self) -> bool {
        if self.since.is_none() {
            return self.hold();
        }
        if self.gate.waiting() == 0 {
            return true;
        }
        match self.since {
            Some(since) if since.elapsed() >= QUANTUM => {
                self.release();
                self.hold()
            }
            _ => true,
        }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::mpsc;

    #[test]
    fn turns_are_bounded_first_come_and_cancellable() {
        let gate = Arc::new(Gate::new(1));
        let never = AtomicBool::new(false);
        let mut first = Turn::new(&gate, &never);
        assert!(first.hold());
        assert!(!Turn::new(&gate, &never).try_hold());
        // Two searches queue, in order; the first gives its turn back, the second comes in.
        let (tx, rx) = mpsc::channel();
        let spawn = |name: u8, tx: mpsc::Sender<u8>| {
            let gate = Arc::clone(&gate);
            std::thread::spawn(move || {
                let never = AtomicBool::new(false);
                let mut turn = Turn::new(&gate, &never);
                assert!(turn.hold());
                tx.send(name).unwrap();
                std::thread::sleep(Duration::from_millis(5));
            })
        };
        let a = spawn(1, tx.clone());
        while gate.waiting() < 1 {
            std::thread::yield_now();
        }
        let b = spawn(2, tx);
        while gate.waiting() < 2 {
            std::thread::yield_now();
        }
        assert_eq!(gate.computing(), 1);
        first.release();
        assert_eq!(rx.recv().unwrap(), 1);
        assert_eq!(rx.recv().unwrap(), 2);
        a.join().unwrap();
        b.join().unwrap();
        assert_eq!((gate.computing(), gate.waiting()), (0, 0));
        // A cancelled search leaves the queue without a turn.
        let mut holder = Turn::new(&gate, &never);
        assert!(holder.hold());
        let cancel = AtomicBool::new(true);
        assert!(!Turn::new(&gate, &cancel).hold());
        assert_eq!((gate.computing(), gate.waiting()), (1, 0));
        drop(holder);
        assert_eq!(gate.computing(), 0);
    }
}
