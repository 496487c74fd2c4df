//! Keeping `--max-memory` true for the whole process: the searches count what they store,
//! this module shares the limit out between them and makes sure that what they free goes
//! back to the system.

use crate::stdio;

/// What the solver's tables may take besides the searches: they are built on first use and
/// kept (about 16 MB for every 4x4 goal, 3 MB for 3x3).
const TABLE_RESERVE: usize = 20 << 20;

/// The memory each of `threads` searches may use so that the whole process stays within
/// `max_memory`: what is left after what the process holds now (the program, the input) and
/// the solver's tables, shared out. Never below 1 MiB, so a tiny limit still stops a
/// search at once with a memory limit rather than refusing it.
pub fn search_memory(max_memory: usize, threads: usize) -> usize {
    let held = stdio::resident_bytes().unwrap_or(0) + TABLE_RESERVE;
    (max_memory.saturating_sub(held) / threads.max(1)).max(1 << 20)
}

/// Makes the C allocator give freed search memory back to the system at once.
///
/// glibc serves a large allocation with its own mapping, returned to the system when freed,
/// but after the first such free it raises that threshold (up to 32 MiB), so the next
/// searches' tables come from the heap, where freed memory stays with the process. A batch
/// then holds the memory of searches that are over: 16 DFS searches of 4x4 boards under
/// `--max-memory 128` peaked at 164 MB resident (165 MB with `--threads 2`); with the
/// threshold fixed at 128 KiB they peak at 107 MB, and the time is the same within the
/// noise (measured with `/usr/bin/time -f %M` on `scramble -n 16 --seed 5`).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[expect(unsafe_code, reason = "one call to glibc's mallopt, measured above")]
pub fn return_freed_memory() {
    /// `M_MMAP_THRESHOLD` of glibc's `<malloc.h>`.
    const M_MMAP_THRESHOLD: i32 = -3;
    /// Allocations from this size on get their own mapping: glibc's default before it adapts.
    const THRESHOLD: i32 = 128 * 1024;
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: `mallopt` takes two integers and only changes the allocator's tuning; glibc
    // documents it as callable at any time, and it is called before any other thread exists.
    let _ = unsafe { mallopt(M_MMAP_THRESHOLD, THRESHOLD) };
}

/// Elsewhere the system allocator is left as it is.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_freed_memory() {}
