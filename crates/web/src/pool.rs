//! The bounded pool that runs solves off the async threads.
//!
//! Solving is CPU-bound and can take seconds, so it runs on tokio's blocking threads, never
//! on the threads that serve requests (which keeps `/healthz` and the page answering while
//! every worker is busy). Two semaphores bound it:
//!
//! - `workers`: at most this many solves run at once. Each runs under the server's memory
//!   cap, so the memory solving can take is `workers × max_memory`, whatever clients send.
//! - `admitted`: at most `workers + queue` requests are running or waiting. A request beyond
//!   that, or one that waited `queue_wait` for a worker, is answered 503 at once.
//!
//! Both permits move into the blocking task, so a solve whose client went away still counts
//! until it has actually stopped (its cancel flag is set when the request future is dropped,
//! and the solver checks it within milliseconds).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::sync::Semaphore;

/// Why the pool did not run a job.
#[derive(Debug, PartialEq, Eq)]
pub enum PoolError {
    /// Every worker is busy and the queue is full, or the job waited too long for a worker.
    Busy,
    /// The job panicked (a bug in the solver; the panic hook has logged it).
    Panicked,
}

/// Counts of a pool's work, for `/healthz`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PoolLoad {
    /// Jobs running now.
    pub running: usize,
    /// Jobs admitted: running or waiting for a worker.
    pub admitted: usize,
    /// Most jobs that may run at once.
    pub workers: usize,
    /// Most jobs that may wait for a worker.
    pub queue: usize,
}

/// A bounded pool of blocking solver threads. Cheap to share through an `Arc`.
#[derive(Debug)]
pub struct Pool {
    workers: Arc<Semaphore>,
    admitted: Arc<Semaphore>,
    worker_count: usize,
    queue: usize,
    queue_wait: Duration,
    /// The cancel flags of jobs admitted and not yet finished, so a shutdown can stop them.
    active: Mutex<HashMap<u64, Arc<AtomicBool>>>,
    next_id: AtomicU64,
}

impl Pool {
    /// A pool running at most `workers` jobs (at least 1) with at most `queue` more waiting,
    /// each for at most `queue_wait`.
    pub fn new(workers: usize, queue: usize, queue_wait: Duration) -> Pool {
        let workers = workers.max(1);
        Pool {
            workers: Arc::new(Semaphore::new(workers)),
            admitted: Arc::new(Semaphore::new(workers + queue)),
            worker_count: workers,
            queue,
            queue_wait,
            active: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        }
    }

    /// Runs `job` on a blocking thread when a worker is free, handing it a cancel flag that
    /// is set if the returned future is dropped before the job ends (the client went away)
    /// or the server shuts down.
    ///
    /// # Errors
    /// [`PoolError::Busy`] when the pool is full or no worker came free within the queue
    /// wait; [`PoolError::Panicked`] when the job panicked.
    pub async fn run<T, F>(&self, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce(Arc<AtomicBool>) -> T + Send + 'static,
    {
        let admission =
            Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| PoolError::Busy)?;
        let cancel = Arc::new(AtomicBool::new(false));
        // From here on, dropping this future (client gone) sets the flag.
        let guard = CancelOnDrop::new(self, Arc::clone(&cancel));
        let worker =
            match tokio::time::timeout(self.queue_wait, Arc::clone(&self.workers).acquire_owned())
                .await
            {
                Ok(Ok(worker)) => worker,
                // Timed out, or the semaphore was closed (never done): the queue is stuck.
                Ok(Err(_)) | Err(_) => return Err(PoolError::Busy),
            };
        let flag = Arc::clone(&cancel);
        let handle = tokio::task::spawn_blocking(move || {
            let _permits = (admission, worker);
            // Blocking threads here only solve: they yield to the request threads.
            crate::priority::lower_this_thread();
            job(flag)
        });
        let result = handle.await.map_err(|_| PoolError::Panicked);
        guard.finish();
        result
    }

    /// Asks every admitted job to stop: for a shutdown.
    pub fn cancel_all(&self) {
        for flag in self.active.lock().unwrap_or_else(PoisonError::into_inner).values() {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// What the pool is doing now.
    pub fn load(&self) -> PoolLoad {
        let capacity = self.worker_count + self.queue;
        PoolLoad {
            running: self.worker_count - self.workers.available_permits(),
            admitted: capacity - self.admitted.available_permits(),
            workers: self.worker_count,
            queue: self.queue,
        }
    }
}

/// Sets a job's cancel flag when dropped unless [`CancelOnDrop::finish`] was called first;
/// registers the flag with the pool meanwhile.
struct CancelOnDrop<'a> {
    pool: &'a Pool,
    id: u64,
    cancel: Arc<AtomicBool>,
    armed: bool,
}

impl<'a> CancelOnDrop<'a> {
    fn new(pool: &'a Pool, cancel: Arc<AtomicBool>) -> CancelOnDrop<'a> {
        let id = pool.next_id.fetch_add(1, Ordering::Relaxed);
        pool.active.lock().unwrap_or_else(PoisonError::into_inner).insert(id, Arc::clone(&cancel));
        CancelOnDrop { pool, id, cancel, armed: true }
    }

    fn finish(mut self) {
        self.armed = false;
    }
}

impl Drop for CancelOnDrop<'_> {
    fn drop(&mut self) {
        if self.armed {
            self.cancel.store(true, Ordering::Relaxed);
        }
        self.pool.active.lock().unwrap_or_else(PoisonError::into_inner).remove(&self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// A job that spins until cancelled (or 10 s pass, so a broken test cannot hang).
    fn spin(flag: Arc<AtomicBool>) -> bool {
        let start = Instant::now();
        while !flag.load(Ordering::Relaxed) {
            if start.elapsed() > Duration::from_secs(10) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        true
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn full_pool_answers_busy_and_a_dropped_request_cancels_its_job() {
        let pool = Arc::new(Pool::new(1, 0, Duration::from_secs(5)));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let running = {
            let pool = Arc::clone(&pool);
            tokio::spawn(async move {
                pool.run(move |flag| {
                    started_tx.send(()).ok();
                    let stopped = spin(flag);
                    done_tx.send(stopped).ok();
                })
                .await
            })
        };
        tokio::task::spawn_blocking(move || started_rx.recv()).await.unwrap().unwrap();
        assert_eq!(pool.load().running, 1);
        assert_eq!(pool.run(|_| ()).await, Err(PoolError::Busy));
        // The client goes away: its future is dropped, and the job sees its flag.
        running.abort();
        let stopped = tokio::task::spawn_blocking(move || done_rx.recv()).await.unwrap();
        assert_eq!(stopped, Ok(true));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_waiting_job_runs_when_a_worker_frees_and_a_panic_is_reported() {
        let pool = Pool::new(1, 4, Duration::from_secs(5));
        let (a, b) = tokio::join!(pool.run(|_| 1), pool.run(|_| 2));
        assert_eq!((a, b), (Ok(1), Ok(2)));
        let panicked = pool.run(|_| -> u8 { panic!("solver bug") }).await;
        assert_eq!(panicked, Err(PoolError::Panicked));
        assert_eq!(pool.load().admitted, 0);
    }
}
