//! Solver threads yield to the threads that serve requests.
//!
//! Searches are CPU-bound and may outnumber the cores many times over (64 streams and the
//! solve pool on 2 cores), while the async runtime's few threads answer `/healthz`, the page
//! and every event. At equal priority the kernel shares the cores evenly among all of them,
//! so the runtime got 2 of 52 shares and a health check waited up to 1.6 s with 50 streams
//! at full speed. Each solver thread therefore lowers its own scheduling priority (a nice
//! value of [`SOLVER_NICE`]) when it starts; the runtime's threads keep theirs. On Linux a
//! nice value is per thread; elsewhere this does nothing.

/// The nice value solver threads take: well below the runtime's, not at the very bottom,
/// so solves still progress when other programs are busy.
pub const SOLVER_NICE: i32 = 10;

/// Lowers the calling thread's priority to [`SOLVER_NICE`] (never raises it); returns
/// whether it did.
#[cfg(target_os = "linux")]
pub fn lower_this_thread() -> bool {
    // SAFETY: `gettid` and `setpriority` take plain integers and touch no memory of ours;
    // `PRIO_PROCESS` with a thread id names that one thread on Linux (setpriority(2), NOTES).
    #[expect(unsafe_code, reason = "two system calls with integer arguments; no Rust API")]
    let done = unsafe {
        let tid = libc::gettid();
        let now = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
        now >= SOLVER_NICE
            || libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, SOLVER_NICE) == 0
    };
    done
}

/// Does nothing off Linux.
#[cfg(not(target_os = "linux"))]
pub fn lower_this_thread() -> bool {
    false
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The calling thread's nice value, field 19 of `/proc/thread-self/stat` (proc(5)).
    fn nice() -> i32 {
        let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        let after_name = &stat[stat.rfind(')').unwrap() + 2..];
        after_name.split(' ').nth(16).unwrap().parse().unwrap()
    }

    #[test]
    fn a_lowered_thread_yields_and_the_others_keep_their_priority() {
        let mine = nice();
        let lowered = std::thread::spawn(|| (lower_this_thread(), nice())).join().unwrap();
        assert_eq!(lowered, (true, mine.max(SOLVER_NICE)));
        assert_eq!(nice(), mine);
    }
}
