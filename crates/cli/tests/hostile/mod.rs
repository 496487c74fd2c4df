//! What an adversarial user does to the command line (issue 18): special files where files
//! are expected, closed streams, signals, absurd numbers. Each test is named after what
//! broke.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::{npuzzle, npuzzle_in, peak_memory, scratch_file};

/// One of the two hardest 3x3 boards (31 moves).
const HARD: &str = "8 6 7/2 5 4/3 0 1";

/// A FIFO in this test binary's scratch directory (made anew).
fn fifo(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_file(&path);
    let made = Command::new("mkfifo").arg(&path).status().expect("mkfifo runs");
    assert!(made.success());
    path
}

/// Runs the binary with stdout closed (`>&-`), returning its status and stderr.
fn with_stdout_closed(args: &[&str], cache: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" >&-")
        .arg(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_CACHE", cache)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn bench_of_dev_zero_or_an_endless_fifo_grew_until_killed() {
    // It read the whole file: /dev/zero grew past 2 GB until the kernel killed it.
    let (code, stderr, peak) = peak_memory(&["bench", "/dev/zero"], None);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("/dev/zero is larger than 64 MiB"), "{stderr}");
    assert!(peak <= 200 << 20, "peak {} MiB", peak >> 20);
    // A FIFO that a writer feeds forever.
    let path = fifo("bench-endless.fifo");
    let mut writer = Command::new("sh")
        .arg("-c")
        .arg("exec yes '1 2/3 0' > \"$0\"")
        .arg(&path)
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    let (code, stderr, peak) = peak_memory(&["bench", path.to_str().unwrap()], None);
    let _ = writer.kill();
    let _ = writer.wait();
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is larger than 64 MiB"), "{stderr}");
    assert!(peak <= 200 << 20, "peak {} MiB", peak >> 20);
}

#[test]
fn bench_called_an_unsolvable_instance_a_wrong_length() {
    let file = scratch_file("bench-unsolvable.txt", "1 2 3/4 5 6/8 7 0\n1 2 3/4 5 6/7 0 8 | 1\n");
    let run = npuzzle(&["bench", file.to_str().unwrap()]);
    run.assert_fails(3, "1 instance(s) cannot reach the goal (unsolvable)");
    assert!(!run.stderr.contains("another length"), "{}", run.stderr);
    assert!(run.stdout.contains("(cannot reach the goal)"), "{}", run.stdout);
    assert!(run.stdout.contains("total: 2 instances, 1 as expected"), "{}", run.stdout);
}

#[test]
fn bench_reported_a_limit_without_naming_it_or_what_helps() {
    let file = scratch_file("bench-limit.txt", "8 6 7/2 5 4/3 0 1 | 31\n");
    let run = npuzzle(&["bench", file.to_str().unwrap(), "--algorithm", "bfs", "--max-nodes", "5"]);
    run.assert_fails(
        4,
        "1 instance(s) stopped at a limit; the first: #1: node limit of 5 reached; raise \
         --max-nodes (it was 5)",
    );
    assert!(run.stdout.contains("(node limit of 5 reached)"), "{}", run.stdout);
}

#[test]
fn pdb_list_and_bench_with_a_closed_stdout_exited_0() {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("closed-stdout-cache");
    for args in [
        &["pdb", "list"][..],
        &["pdb", "verify"],
        &["bench", "korf100", "--limit", "1", "--heuristic", "manhattan"],
        &["man"],
    ] {
        let (code, stderr) = with_stdout_closed(args, &cache);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr, "npuzzle: standard output is closed: the results would be lost\n");
    }
}

#[test]
fn pdb_build_exited_0_when_it_could_not_save() {
    // A cache "directory" under a regular file: nothing can be created there.
    let file = scratch_file("not-a-directory", "");
    let cache = file.join("cache");
    let run = npuzzle_in(&cache, &["pdb", "build", "--size", "3x3", "--partition", "4-4"]);
    run.assert_fails(2, "could not save the pattern database");
    assert!(!run.stderr.contains("built the"), "{}", run.stderr);
    // A solve that needs a database there only warns, and solves without it.
    let solve = npuzzle_in(&cache, &["solve", "--heuristic", "pdb", "1 2 3 4/5 6 7 8/9 10 0 11"]);
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    assert!(solve.stderr.starts_with("npuzzle: warning: "), "{}", solve.stderr);
}

#[test]
fn pdb_build_korf_felner_of_another_size_or_goal_built_the_5x5_tables() {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("korf-felner-refused");
    let run = npuzzle_in(&cache, &["pdb", "build", "--partition", "korf-felner", "--size", "4x4"]);
    run.assert_fails(2, "the tables are for the 5x5 board (the 24-puzzle), not 4x4");
    let run =
        npuzzle_in(&cache, &["pdb", "build", "--partition", "korf-felner", "--goal", "snail"]);
    run.assert_fails(2, "--goal snail has it elsewhere");
    assert!(!cache.exists(), "nothing was to be built");
}

/// Runs the binary with the cache in `cache`, failing the test (not hanging it) when the run
/// takes longer than `patience`; returns its status, stdout and stderr.
fn within(patience: Duration, cache: &Path, args: &[&str]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_CACHE", cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let start = Instant::now();
    while child.try_wait().expect("the child can be waited for").is_none() {
        if start.elapsed() > patience {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {patience:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("the output is read");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_fifo_named_pdb_in_the_cache_hung_solve_list_and_verify() {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fifo-cache");
    let _ = std::fs::remove_dir_all(&cache);
    std::fs::create_dir_all(&cache).unwrap();
    let made = Command::new("mkfifo").arg(cache.join("stuck.pdb")).status().unwrap();
    assert!(made.success());
    let patience = Duration::from_secs(60);
    let (code, stdout, _) = within(patience, &cache, &["pdb", "list"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("stuck.pdb  0.0 MB  unreadable: not a regular file"), "{stdout}");
    let (code, stdout, _) = within(patience, &cache, &["pdb", "verify"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("stuck.pdb: damaged: not a regular file"), "{stdout}");
    let (code, _, stderr) =
        within(patience, &cache, &["solve", "--heuristic", "pdb", "--timeout", "30", HARD]);
    assert_eq!(code, 0, "{stderr}");
}

/// Starts the binary on `args` with an empty cache of its own (never the user's: what a
/// solve finds there decides how long it runs), sends `signal` (`INT`, `TERM`) after
/// `delay`, and returns its status, stdout and stderr.
fn signalled(args: &[&str], signal: &str, delay: Duration) -> (Option<i32>, String, String) {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let cache = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("signalled-{}-{run}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_CACHE", &cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    std::thread::sleep(delay);
    let sent = Command::new("kill").arg(format!("-{signal}")).arg(child.id().to_string()).status();
    assert!(sent.is_ok_and(|s| s.success()));
    let out = child.wait_with_output().expect("the output is read");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A 15-puzzle that takes IDA* without a database far longer than these tests wait.
const SLOW_4: &str = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0";

/// A 5x4 board (`scramble --size 5x4 --seed 3`): `check --optimal` has no database for
/// 20 cells, so its IDA* + linear conflict runs far longer than these tests wait. (On
/// `SLOW_4` it builds the small 4x4 database and proves the optimum in about a second, on
/// an idle machine before the signal came.)
const SLOW_20: &str = "12 17 1 11 13/6 0 2 3 5/10 19 14 15 16/18 9 7 8 4";

#[test]
fn ctrl_c_during_check_optimal_killed_it_silently() {
    // Moves that reach the goal (weighted A* finds them at once): only the optimum is open.
    let moves = npuzzle(&["solve", "-a", "wastar", "-f", "moves", SLOW_20]).stdout;
    let (code, stdout, stderr) = signalled(
        &["check", "--optimal", SLOW_20, moves.trim(), "--timeout", "120"],
        "INT",
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(4), "{stdout}\n{stderr}");
    assert!(stdout.contains("optimal: not proven: search cancelled"), "{stdout}");
    assert!(stderr.contains("npuzzle: limit reached: search cancelled"), "{stderr}");
}

#[test]
fn sigterm_ended_solve_silently_without_a_record() {
    let (code, stdout, stderr) = signalled(
        &[
            "solve",
            "-a",
            "idastar",
            "--heuristic",
            "linear-conflict",
            "-f",
            "json",
            "--timeout",
            "120",
            SLOW_4,
        ],
        "TERM",
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(4), "{stdout}\n{stderr}");
    let record: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one record");
    assert_eq!(record["status"], "limit");
    assert!(record["error"].as_str().unwrap().starts_with("search cancelled"), "{record}");
}

#[test]
fn absurd_numbers_were_reported_saturated_or_in_rust_words() {
    npuzzle(&["scramble", "--size", "99999999999999999999x2"])
        .assert_fails(2, "size 99999999999999999999x2 is out of range: each side must be 2 to 256");
    let file = scratch_file("huge-length.txt", "1 2 3/4 5 6/7 0 8 | 99999999999\n");
    npuzzle(&["solve", "--input", file.to_str().unwrap()]).assert_fails(
        2,
        "line 1: solution length 99999999999 after '|' is out of range (at most 4294967295)",
    );
    let run = npuzzle(&["scramble", "--seed", "-1"]);
    run.assert_fails(2, "invalid value '-1' for --seed: a seed is a whole number from 0 to ");
    assert!(!run.stderr.contains("invalid digit"), "{}", run.stderr);
}

#[test]
fn a_directory_or_device_as_board_was_parsed_as_a_board() {
    let dir = env!("CARGO_TARGET_TMPDIR");
    for args in [&["check", dir, "R"][..], &["hint", dir], &["play", dir]] {
        let run = npuzzle(args);
        run.assert_fails(2, &format!("cannot read {dir}"));
        assert!(!run.stderr.contains("is not a number"), "{args:?}: {}", run.stderr);
    }
    npuzzle(&["check", "/dev/zero", "R"]).assert_fails(2, "/dev/zero is larger than 64 MiB");
}

#[test]
fn play_did_not_read_a_board_file() {
    let file = scratch_file("play-board.txt", "# goal: blank-first\n1 0 2/3 4 5/6 7 8\n");
    // Read (and its goal taken): only the missing terminal stops it here.
    npuzzle(&["play", file.to_str().unwrap()]).assert_fails(2, "npuzzle play needs a terminal");
    let unsolvable = scratch_file("play-unsolvable.txt", "1 2 3/4 5 6/8 7 0\n");
    let run = npuzzle(&["play", unsolvable.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.stderr);
}

#[test]
fn tiny_boards_on_two_threads_ran_slower_than_on_one_and_still_print_in_order() {
    // Thousands of microsecond solves, with a few slower boards among them: the threads take
    // the fast ones many at a time, and every answer still comes out in input order.
    let mut text = String::new();
    for i in 0..6000 {
        text.push_str(match i % 1000 {
            0 => "8 6 7/2 5 4/3 0 1\n",
            n if n % 3 == 0 => "1 2/0 3\n",
            n if n % 3 == 1 => "0 1/3 2\n",
            _ => "1 2 3/4 5 6/7 0 8\n",
        });
    }
    let one =
        super::npuzzle_with_stdin(&["solve", "-q", "-f", "moves", "--threads", "1"], Some(&text));
    let two =
        super::npuzzle_with_stdin(&["solve", "-q", "-f", "moves", "--threads", "2"], Some(&text));
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(two.code, 0, "{}", two.stderr);
    assert_eq!(one.stdout.lines().count(), 6000);
    assert_eq!(one.stdout, two.stdout, "the order differs on two threads");
}

#[test]
fn an_unreadable_cache_directory_printed_its_reason_twice() {
    let file = scratch_file("cache-is-a-file", "");
    // A board that needs a database (`scramble --size 4x4 --walk 60 --seed 3`, 40 moves):
    // one a quick IDA* over linear conflict answers looks in no cache.
    let run = npuzzle_in(&file, &["solve", "7 2 6 8/1 0 4 11/13 3 15 12/9 10 14 5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.matches("Not a directory").count(), 1, "{}", run.stderr);
}
