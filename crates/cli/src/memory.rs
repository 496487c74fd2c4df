//! Keeping `--max-memory` true for the whole process: the searches count what they store,
//! and this module makes sure that what they free goes back to the system.

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
