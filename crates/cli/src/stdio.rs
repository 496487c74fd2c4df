//! Standard streams that fail honestly: a closed or full stdout is an error (never a silent
//! success), and a stderr that cannot be written never panics the program.

use std::fmt;
use std::io::{self, Write};

/// Writes `npuzzle: {message}` and a newline to stderr.
///
/// `eprintln!` panics when stderr cannot be written (a full disk, `2>/dev/full`); a message
/// that cannot be shown is dropped instead, and the exit status still tells what happened.
pub fn complain(message: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "npuzzle: {message}");
}

/// Writes a line to stderr as it is (no `npuzzle: ` prefix), ignoring failures: see
/// [`complain`].
pub fn note(message: fmt::Arguments<'_>) {
    let _ = writeln!(io::stderr().lock(), "{message}");
}

/// Fails when standard output is closed (`npuzzle solve ... >&-`), so that results nobody
/// can read do not end in a successful exit.
///
/// The Rust runtime reopens a closed standard descriptor on `/dev/null` for reading and
/// writing before `main`, after which every write succeeds; that is what is detected here (on
/// Linux, through `/proc`). A shell's `>/dev/null` opens it write-only, which stays allowed:
/// discarding the output is then what the user asked for.
///
/// # Errors
/// When stdout is closed.
pub fn check_stdout() -> anyhow::Result<()> {
    if stdout_was_closed() {
        anyhow::bail!("standard output is closed: the results would be lost");
    }
    Ok(())
}

#[cfg(target_os = "linux")]
fn stdout_was_closed() -> bool {
    let is_null = std::fs::read_link("/proc/self/fd/1").is_ok_and(|p| p.as_os_str() == "/dev/null");
    if !is_null {
        return false;
    }
    // `flags:` is octal; the access mode is its low two bits (O_RDWR = 2).
    let flags = std::fs::read_to_string("/proc/self/fdinfo/1").ok().and_then(|info| {
        let line = info.lines().find_map(|l| l.strip_prefix("flags:"))?;
        u32::from_str_radix(line.trim(), 8).ok()
    });
    flags.is_some_and(|f| f & 3 == 2)
}

#[cfg(not(target_os = "linux"))]
fn stdout_was_closed() -> bool {
    false
}

/// Writes `bytes` to stdout and flushes.
///
/// # Errors
/// When stdout cannot be written.
pub fn print_bytes(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)?;
    out.flush()
}
