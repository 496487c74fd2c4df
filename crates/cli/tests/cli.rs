//! The `npuzzle` binary, driven as scripts drive it: arguments in, text and exit status out.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use npuzzle_core::{Board, Goal, Moves};
use serde_json::Value;

/// `npuzzle play` in a pseudo-terminal.
mod play;

/// What an adversarial user does: special files, closed streams, signals, absurd numbers.
mod hostile;

/// What one run of the binary did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json_lines(&self) -> Vec<Value> {
        self.stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
            .collect()
    }

    /// Checks the contract for a failing run: a status and `npuzzle: ` reasons on stderr.
    fn assert_fails(&self, code: i32, reason: &str) {
        assert_eq!(self.code, code, "stdout: {}\nstderr: {}", self.stdout, self.stderr);
        assert!(self.stderr.contains(reason), "{reason:?} not in stderr: {}", self.stderr);
        assert!(
            self.stderr.lines().all(|l| l.starts_with("npuzzle: ")),
            "stderr is not npuzzle: lines: {}",
            self.stderr
        );
    }
}

fn npuzzle_with_stdin(args: &[&str], stdin: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        // Pattern databases built by these tests stay out of the user's cache.
        .env("NPUZZLE_CACHE", test_cache())
        .stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(text) = stdin {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        pipe.write_all(text.as_bytes()).expect("stdin is written");
    }
    let out = child.wait_with_output().expect("the binary runs");
    let run = Run {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    };
    assert!(!run.stderr.contains("panicked"), "{args:?} panicked: {}", run.stderr);
    run
}

/// The cache directory of this test run, under the target's temporary directory. The tests
/// share it, so no one of them can remove it; the first to ask removes those of earlier runs
/// whose processes are gone (each holds a 12 MB table; in the system's temporary directory
/// they had piled up to 1.6 GB).
fn test_cache() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
        #[cfg(target_os = "linux")]
        for entry in std::fs::read_dir(&root).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let pid = name.to_str().and_then(|n| n.strip_prefix("cli-cache-"));
            if pid.is_some_and(|p| !std::path::Path::new("/proc").join(p).exists()) {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
        root.join(format!("cli-cache-{}", std::process::id()))
    })
    .clone()
}

fn npuzzle(args: &[&str]) -> Run {
    npuzzle_with_stdin(args, None)
}

/// A file in this test binary's scratch directory.
fn scratch_file(name: &str, contents: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).expect("scratch file is written");
    path
}

/// Replays `moves` on `board` and checks that they reach `goal`.
fn assert_replays(board: &str, goal: &str, moves: &str) {
    let mut b: Board = board.parse().expect("board");
    let goal: Board = goal.parse().expect("goal");
    let moves: Moves = moves.parse().expect("moves");
    b.apply_all(&moves).expect("every move is legal");
    assert_eq!(b, goal, "{moves} does not take {board} to the goal");
}

const BLANK_LAST_3: &str = "1 2 3/4 5 6/7 8 0";
/// 31 moves from the goal: one of the two hardest 3x3 boards.
const HARD_3: &str = "8 6 7/2 5 4/3 0 1";
const UNSOLVABLE_3: &str = "1 2 3/4 5 6/8 7 0";
/// Korf's first 15-puzzle instance (goal blank-first).
const KORF_1: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

#[test]
fn text_output_has_summary_moves_and_compact_form() {
    let run = npuzzle(&["solve", HARD_3]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines[0], format!("board: {HARD_3}  goal: {BLANK_LAST_3}"));
    let summary = lines[1];
    assert!(summary.starts_with("solved: 31 moves (optimal) — algorithm "), "{summary}");
    for part in ["heuristic", "expanded", "generated", " s"] {
        assert!(summary.contains(part), "{part:?} missing from {summary}");
    }
    let moves = lines[2].strip_prefix("moves: ").expect("a moves line");
    assert_eq!(moves.len(), 31);
    assert_replays(HARD_3, BLANK_LAST_3, moves);
    if let Some(compact) = lines.iter().find_map(|l| l.strip_prefix("compact: ")) {
        assert_eq!(compact.parse::<Moves>().unwrap().to_string(), moves);
    }
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn moves_format_prints_one_line_per_board() {
    let boards = ["1 2 3/4 5 6/0 7 8", HARD_3, BLANK_LAST_3];
    let run = npuzzle(&["solve", "--format", "moves", boards[0], boards[1], boards[2]]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "LL");
    assert_eq!(lines[2], "", "the goal itself needs no moves");
    for (board, moves) in boards.iter().zip(&lines) {
        assert_replays(board, BLANK_LAST_3, moves);
    }
}

#[test]
fn json_has_every_design_field_and_its_moves_replay() {
    let boards = [HARD_3, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "5 1 2/0 3 4"];
    let run = npuzzle(&["solve", "--format", "json", boards[0], boards[1], boards[2]]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let records = run.json_lines();
    assert_eq!(records.len(), 3);
    for (board, r) in boards.iter().zip(&records) {
        for field in [
            "status",
            "board",
            "goal",
            "width",
            "height",
            "algorithm",
            "heuristic",
            "optimal",
            "length",
            "moves",
            "tiles",
            "expanded",
            "generated",
            "max_frontier",
            "seconds",
            "error",
        ] {
            assert!(r.get(field).is_some(), "{field} missing from {r}");
        }
        assert_eq!(r["status"], "solved");
        assert_eq!(r["error"], Value::Null);
        assert!(r["algorithm"].is_string());
        assert!(r["heuristic"].is_string() || r["heuristic"].is_null());
        assert!(r["seconds"].as_f64().is_some_and(|s| s >= 0.0));
        assert!(r["expanded"].is_u64() && r["generated"].is_u64() && r["max_frontier"].is_u64());
        let b: Board = board.parse().unwrap();
        assert_eq!(r["board"], b.to_string());
        assert_eq!(r["width"], b.width());
        assert_eq!(r["height"], b.height());
        let goal = Goal::BlankLast.board(b.size()).unwrap();
        assert_eq!(r["goal"], goal.to_string());
        let moves = r["moves"].as_str().unwrap();
        assert_eq!(r["length"], moves.len());
        assert_replays(board, &goal.to_string(), moves);
        let tiles: Vec<u64> =
            r["tiles"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).collect();
        let want: Vec<u64> =
            b.tiles_moved(&moves.parse().unwrap()).unwrap().into_iter().map(u64::from).collect();
        assert_eq!(tiles, want);
    }
    assert_eq!(records[0]["length"], 31);
    assert_eq!(records[0]["optimal"], true);
    assert_eq!(records[1]["moves"], "L");
    assert_eq!(records[1]["tiles"], serde_json::json!([15]));
}

#[test]
fn steps_show_every_position_as_a_grid() {
    let run = npuzzle(&["solve", "--steps", "1 2 3/4 5 6/0 7 8"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = "\nstart:\n1 2 3\n4 5 6\n. 7 8\n\
                \nmove 1: tile 7 slides left (L)\n1 2 3\n4 5 6\n7 . 8\n\
                \nmove 2: tile 8 slides left (L)\n1 2 3\n4 5 6\n7 8 .\n";
    assert!(run.stdout.ends_with(want), "{}", run.stdout);
}

#[test]
fn invalid_boards_exit_2_with_the_reason() {
    for (board, reason) in [
        ("", "empty board"),
        ("# nothing", "empty board"),
        ("1 2 3/4 5 6/7 8 8", "tile 8 appears twice"),
        ("1 2 3/4 5/6 7 8 0", "row 2 has 2 cells, expected 3"),
        ("1 2 3/4 5 6/7 8 9", "tile 9 is out of range"),
        ("1 2 x/4 5 6/7 8 0", "is not a number"),
        ("1 2 99999999999999999999999999/4 5 6/7 8 0", "too large"),
        ("0", "out of range"),
    ] {
        npuzzle(&["solve", board]).assert_fails(2, reason);
    }
    let run = npuzzle(&["solve", "--goal", "1 2/3 0", HARD_3]);
    run.assert_fails(2, "goal is 2x2 but the board is 3x3");
    // A word that is neither a board nor a file says both.
    npuzzle(&["solve", "boards.txt"])
        .assert_fails(2, "\"boards.txt\" is not a number (and there is no file named boards.txt)");
}

#[test]
fn bad_flags_exit_2_with_one_line() {
    for (args, reason) in [
        (
            &["solve", "--algorithm", "quantum", HARD_3][..],
            "invalid value 'quantum' for --algorithm",
        ),
        (&["solve", "--heuristic", "psychic", HARD_3], "invalid value 'psychic' for --heuristic"),
        (&["solve", "--goal", "nonsense", HARD_3], "invalid goal"),
        (&["solve", "--max-nodes", "99999999999999999999999", HARD_3], "too large"),
        (&["solve", "--max-nodes", "-5", HARD_3], "--max-nodes"),
        (&["solve", "--max-memory", "0", HARD_3], "--max-memory"),
        (&["solve", "--max-memory", "99999999999999999", HARD_3], "--max-memory"),
        (&["solve", "--timeout", "0", HARD_3], "--timeout"),
        (&["solve", "--timeout", "1e300", HARD_3], "too long"),
        (&["solve", "--timeout", "nan", HARD_3], "--timeout"),
        (&["solve", "--threads", "0", HARD_3], "--threads"),
        (&["solve", "--threads", "99999999999999999999", HARD_3], "--threads"),
        (&["solve", "--weight", "0.5", HARD_3], "--weight"),
        (&["solve", "--format", "xml", HARD_3], "--format"),
        (&["solve", "--bogus", HARD_3], "--bogus"),
        (&["frobnicate"], "frobnicate"),
        (&[], "missing command"),
        (&["scramble", "--size", "1x1"], "out of range"),
        (&["scramble", "--size", "99999999999999999999999x3"], "out of range"),
        (&["scramble", "--size", "3x3", "--count", "1000001"], "--count"),
        (&["scramble", "--size", "3x3", "--count", "99999999999999999999999"], "--count"),
        (&["scramble", "--size", "3x3", "--walk", "99999999999"], "--walk"),
        (&["scramble", "--size", "3x3", "--count", "1000000", "--walk", "1000000"], "--walk"),
        (&["scramble", "--size", "3x3", "--walk", "3", "--unsolvable"], "--unsolvable"),
        (&["scramble", "--size", "3x3", "--seed", "-1"], "--seed"),
        (&["scramble", "--size", "3x3", "--goal", "1 2/3 0"], "goal is 2x2"),
    ] {
        let run = npuzzle(args);
        run.assert_fails(2, reason);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
    }
    let help = npuzzle(&["solve", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("[default: 1024]") && help.stdout.contains("[default: 60]"));
}

#[test]
fn unreadable_and_oversized_input_exit_2() {
    npuzzle(&["solve", "--input", "/nonexistent/boards.txt"])
        .assert_fails(2, "cannot read /nonexistent/boards.txt");
    let dir = env!("CARGO_TARGET_TMPDIR");
    npuzzle(&["solve", "--input", dir]).assert_fails(2, "cannot read");
    // A sparse file: the size check must refuse it before reading it.
    let big = PathBuf::from(dir).join("huge-input.txt");
    std::fs::File::create(&big).unwrap().set_len(65 << 20).unwrap();
    npuzzle(&["solve", "--input", big.to_str().unwrap()]).assert_fails(2, "larger than 64 MiB");
    let binary = PathBuf::from(dir).join("binary-input.txt");
    std::fs::write(&binary, b"1 2 3\xff").unwrap();
    npuzzle(&["solve", "--input", binary.to_str().unwrap()]).assert_fails(2, "not UTF-8");
    let bad_line = scratch_file("bad-line.txt", "1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/7 8 8\n");
    npuzzle(&["solve", "--input", bad_line.to_str().unwrap()])
        .assert_fails(2, "line 2: tile 8 appears twice");
    // No boards, and stdin (here empty, not a terminal) holds none.
    npuzzle(&["solve"]).assert_fails(2, "no boards in the input");
}

#[test]
fn unsolvable_board_exits_3_naming_the_parity() {
    let run = npuzzle(&["solve", UNSOLVABLE_3]);
    run.assert_fails(3, "unsolvable");
    assert!(run.stderr.contains("permutation"), "{}", run.stderr);
    let json = npuzzle(&["solve", "--format", "json", UNSOLVABLE_3]);
    assert_eq!(json.code, 3);
    let r = &json.json_lines()[0];
    assert_eq!(r["status"], "unsolvable");
    assert!(r["error"].as_str().unwrap().contains("permutation"));
    assert_eq!(r["moves"], "");
}

#[test]
fn node_limit_exits_4() {
    let run =
        npuzzle(&["solve", "--algorithm", "bfs", "--max-nodes", "10", "--format", "json", HARD_3]);
    run.assert_fails(4, "limit");
    let r = &run.json_lines()[0];
    assert_eq!(r["status"], "limit");
    assert!(r["error"].is_string());
    assert_eq!(r["optimal"], false);
}

#[test]
fn bfs_of_a_random_4x4_stops_at_the_memory_limit_and_suggests_another_algorithm() {
    let run = npuzzle(&[
        "solve",
        "--algorithm",
        "bfs",
        "--max-memory",
        "64",
        "--goal",
        "blank-first",
        KORF_1,
    ]);
    run.assert_fails(4, "limit");
    assert!(run.stderr.contains("--algorithm"), "no suggestion: {}", run.stderr);
}

#[test]
fn several_boards_exit_with_the_highest_status_and_the_rest_are_solved() {
    let run =
        npuzzle(&["solve", "--format", "json", "1 2 3/4 5 6/7 0 8", "1 1 2/3 4 5/6 7 8", HARD_3]);
    run.assert_fails(2, "board 2: invalid input: tile 1 appears twice");
    let r = run.json_lines();
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["status"], "solved");
    assert_eq!(r[1]["status"], "invalid");
    assert_eq!(r[1]["error"], "tile 1 appears twice");
    assert_eq!(r[2]["status"], "solved");

    let run = npuzzle(&["solve", "--format", "moves", "1 1", UNSOLVABLE_3, BLANK_LAST_3]);
    run.assert_fails(3, "board 2: unsolvable");
    assert_eq!(run.stdout, "\n\n\n");

    let run = npuzzle(&[
        "solve",
        "--algorithm",
        "bfs",
        "--max-nodes",
        "10",
        HARD_3,
        UNSOLVABLE_3,
        "1 2 3/4 5 6/7 0 8",
    ]);
    run.assert_fails(4, "board 1: limit reached");
    assert!(run.stderr.contains("board 2: unsolvable"));
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
}

#[test]
fn instance_file_with_goal_lines_and_lengths() {
    let path = scratch_file(
        "instances.txt",
        "# some boards\n\
         1 2 3/4 5 6/0 7 8 | 2\n\
         # goal: snail\n\
         1 2 3/8 0 4/7 6 5 | 0\n\
         1 2 3/8 4 0/7 6 5 | 1\n\
         \n\
         # goal: blank-first\n\
         1 0 2/3 4 5/6 7 8 | 1\n\
         1 4 2/3 0 5/6 7 8\n",
    );
    let run = npuzzle(&["solve", "--format", "json", "--input", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json_lines();
    let goals = [BLANK_LAST_3, "1 2 3/8 0 4/7 6 5", "1 2 3/8 0 4/7 6 5", "0 1 2/3 4 5/6 7 8"];
    let goals = [goals[0], goals[1], goals[2], goals[3], goals[3]];
    assert_eq!(r.len(), goals.len());
    for (record, goal) in r.iter().zip(goals) {
        assert_eq!(record["goal"], goal);
        assert_replays(record["board"].as_str().unwrap(), goal, record["moves"].as_str().unwrap());
        if record["expected_length"].is_u64() {
            assert_eq!(record["length"], record["expected_length"]);
        }
    }
    assert_eq!(r[0]["line"], 2);
    assert_eq!(r[0]["expected_length"], 2);
    assert_eq!(r[4]["line"], 9);
    assert!(r[4].get("expected_length").is_none());
    assert_eq!(r[4]["length"], 2);

    // The same file on stdin, as `--input -`, in text form: each board names its line.
    let text = std::fs::read_to_string(&path).unwrap();
    let run = npuzzle_with_stdin(&["solve", "--input", "-"], Some(&text));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("board: 1 2 3/4 5 6/0 7 8  goal: 1 2 3/4 5 6/7 8 0  (line 2, optimal 2)")
    );
    // And piped with no --input at all.
    let piped = npuzzle_with_stdin(&["solve", "--format", "moves"], Some(&text));
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert_eq!(piped.stdout.lines().count(), 5);
}

#[test]
fn forty_two_style_file_with_snail_goal() {
    let path =
        scratch_file("puzzle42.txt", "# This puzzle is solvable\n3\n 1 2 3\n 8 4 0\n 7 6 5\n");
    let run = npuzzle(&[
        "solve",
        "--goal",
        "snail",
        "--format",
        "json",
        "--input",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["goal"], "1 2 3/8 0 4/7 6 5");
    assert_eq!(r["moves"], "R");
    assert_eq!(r["tiles"], serde_json::json!([4]));
}

#[test]
fn threads_give_the_same_output_in_input_order() {
    let scramble = npuzzle(&["scramble", "--size", "3x3", "--count", "12", "--seed", "99"]);
    assert_eq!(scramble.code, 0, "{}", scramble.stderr);
    let solve = |threads: &str| {
        let run = npuzzle_with_stdin(
            &["solve", "--input", "-", "--format", "json", "--threads", threads],
            Some(&scramble.stdout),
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json_lines()
            .into_iter()
            .map(|mut r| {
                r.as_object_mut().unwrap().remove("seconds");
                r
            })
            .collect::<Vec<_>>()
    };
    let one = solve("1");
    assert_eq!(one.len(), 12);
    let boards: Vec<&str> = scramble.stdout.lines().collect();
    for (r, board) in one.iter().zip(&boards) {
        assert_eq!(r["board"], *board);
    }
    assert_eq!(solve("2"), one);
    assert_eq!(solve("3"), one);
}

#[test]
fn scramble_is_reproducible_with_a_seed() {
    let args = ["scramble", "--size", "4x4", "--count", "5", "--seed", "12345"];
    let a = npuzzle(&args);
    let b = npuzzle(&args);
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(a.stdout, b.stdout);
    assert!(a.stderr.is_empty(), "a given seed is not printed: {}", a.stderr);
    let goal = Goal::BlankLast.board("4x4".parse().unwrap()).unwrap();
    let boards: Vec<Board> = a.stdout.lines().map(|l| l.parse().unwrap()).collect();
    assert_eq!(boards.len(), 5);
    assert!(boards.iter().all(|b| b.is_solvable(&goal) && b.width() == 4));
    let other = npuzzle(&["scramble", "--size", "4x4", "--count", "5", "--seed", "12346"]);
    assert_ne!(other.stdout, a.stdout);

    // Without --seed, the seed is printed so that the run can be repeated.
    let clock = npuzzle(&["scramble", "--size", "5x3", "--count", "3"]);
    assert_eq!(clock.code, 0);
    let seed = clock.stderr.trim().strip_prefix("# seed: ").expect("the seed on stderr");
    let again = npuzzle(&["scramble", "--size", "5x3", "--count", "3", "--seed", seed]);
    assert_eq!(again.stdout, clock.stdout);

    let json =
        npuzzle(&["scramble", "--size", "3x2", "--count", "2", "--seed", "7", "--format", "json"]);
    for r in json.json_lines() {
        assert_eq!(r["size"], "3x2");
        assert_eq!(r["goal"], "blank-last");
        assert_eq!(r["seed"], 7);
        assert_eq!(r["walk"], Value::Null);
        assert_eq!(r["solvable"], true);
        assert!(r["board"].as_str().unwrap().parse::<Board>().is_ok());
    }
}

#[test]
fn scramble_output_round_trips_into_solve() {
    // A non-default goal: the output starts with a `# goal:` line that solve obeys.
    let scramble =
        npuzzle(&["scramble", "--size", "3x3", "--count", "4", "--seed", "3", "--goal", "snail"]);
    assert!(scramble.stdout.starts_with("# goal: snail\n"), "{}", scramble.stdout);
    let run =
        npuzzle_with_stdin(&["solve", "--input", "-", "--format", "json"], Some(&scramble.stdout));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json_lines();
    assert_eq!(r.len(), 4);
    for record in &r {
        assert_eq!(record["goal"], "1 2 3/8 0 4/7 6 5");
        assert_replays(
            record["board"].as_str().unwrap(),
            "1 2 3/8 0 4/7 6 5",
            record["moves"].as_str().unwrap(),
        );
    }

    // Random walks stay within their length of the goal.
    let walk =
        npuzzle(&["scramble", "--size", "4x4", "--count", "3", "--seed", "1", "--walk", "12"]);
    let run =
        npuzzle_with_stdin(&["solve", "--input", "-", "--format", "json"], Some(&walk.stdout));
    assert_eq!(run.code, 0, "{}", run.stderr);
    for r in run.json_lines() {
        assert!(r["length"].as_u64().unwrap() <= 12, "{r}");
        assert_eq!(r["optimal"], true);
    }

    // Unsolvable scrambles are refused by solve.
    let bad =
        npuzzle(&["scramble", "--size", "3x3", "--count", "3", "--seed", "1", "--unsolvable"]);
    let run = npuzzle_with_stdin(&["solve", "--input", "-"], Some(&bad.stdout));
    run.assert_fails(3, "unsolvable");
    assert_eq!(run.stderr.lines().count(), 3, "{}", run.stderr);
}

/// A `npuzzle serve` on a free loopback port, with `extra` arguments and the cache in
/// `cache`: the child (stderr still piped) and the `host:port` its first line of stdout names.
#[cfg(unix)]
fn start_serve(extra: &[&str], cache: &std::path::Path) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .args(extra)
        .env("NPUZZLE_CACHE", cache)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line).expect("a line");
    let host = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .trim_end_matches('/')
        .to_string();
    assert!(host.starts_with("127.0.0.1:") && !host.ends_with(":0"), "{line}");
    (child, host)
}

/// Asks the server at `host` for `GET /healthz` and checks it is well.
#[cfg(unix)]
fn assert_healthy(host: &str) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(host).expect("the server listens");
    stream.set_read_timeout(Some(std::time::Duration::from_secs(10))).expect("timeout");
    write!(stream, "GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        .expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");
}

/// Sends `child` Ctrl-C and checks that it exits 0 within 10 s.
#[cfg(unix)]
fn interrupt_and_wait(child: &mut std::process::Child) {
    use std::time::{Duration, Instant};
    let interrupted = Command::new("kill").args(["-INT", &child.id().to_string()]).status();
    assert!(interrupted.is_ok_and(|s| s.success()));
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        assert!(Instant::now() < deadline, "serve did not stop within 10 s of Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0));
}

/// `npuzzle serve`: prints its URL, answers, logs the request, and exits 0 on Ctrl-C.
#[cfg(unix)]
#[test]
fn serve_prints_its_url_answers_and_stops_cleanly_on_ctrl_c() {
    use std::io::Read;
    let (mut child, host) = start_serve(&["--no-build"], &test_cache());
    assert_healthy(&host);
    interrupt_and_wait(&mut child);
    let mut log = String::new();
    child.stderr.take().expect("piped").read_to_string(&mut log).expect("the log");
    assert!(log.contains("/healthz") && log.contains("status=200"), "no request log: {log}");
    assert!(!log.contains('\u{1b}'), "colour codes in a log that is not a terminal: {log}");
    assert!(!log.contains("building"), "a build despite --no-build: {log}");
}

/// `npuzzle serve` without `--no-build` on an empty cache says that it builds the 4x4's 7-8
/// table and then Korf & Felner's 5x5 tables in the background, answers meanwhile, and
/// stops at once on Ctrl-C, leaving no file behind.
#[cfg(unix)]
#[test]
fn serve_builds_the_4x4_and_5x5_tables_in_the_background() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-serve-build-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (mut child, host) = start_serve(&[], &dir);
    let mut stderr = BufReader::new(child.stderr.take().expect("piped"));
    // The first line that speaks of building (the server's own log may come first).
    let mut said = String::new();
    for _ in 0..20 {
        said.clear();
        stderr.read_line(&mut said).expect("a line");
        if said.contains("building") {
            break;
        }
    }
    assert!(
        said.contains("building the 4x4's 7-8 pattern database")
            && said.contains("then Korf & Felner's 5x5 tables")
            && said.contains("in the background (--no-build turns this off)"),
        "{said}"
    );
    assert_healthy(&host);
    interrupt_and_wait(&mut child);
    // Nothing was saved: a build cut short leaves no file, torn or whole.
    let files: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(files.iter().all(|f| !f.to_string_lossy().ends_with(".pdb")), "{files:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn serve_refuses_a_bad_or_busy_address() {
    npuzzle(&["serve", "--addr", "localhost"]).assert_fails(2, "invalid socket address");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let addr = taken.local_addr().expect("its address").to_string();
    npuzzle(&["serve", "--addr", &addr]).assert_fails(2, "cannot listen on");
}

/// Runs with the cache in `dir`.
fn npuzzle_in(dir: &std::path::Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .env("NPUZZLE_CACHE", dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn pdb_build_list_verify_and_a_damaged_file() {
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-pdb-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let empty = npuzzle_in(&dir, &["pdb", "list"]);
    assert_eq!(empty.code, 0);
    assert!(empty.stdout.contains("no pattern databases"), "{}", empty.stdout);
    let built = npuzzle_in(&dir, &["pdb", "build", "--size", "3x3", "--partition", "4-4"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    // Built in the goal's frame: blank-last's half-turn is blank-first, which serves both.
    assert!(built.stderr.contains("npuzzle: built the 4-4 pattern database"), "{}", built.stderr);
    assert!(
        built.stderr.contains("serves blank-last through the board's symmetry"),
        "{}",
        built.stderr
    );
    let again = npuzzle_in(&dir, &["pdb", "build", "--size", "3x3", "--partition", "4-4"]);
    assert!(again.stdout.contains("already built and sound"), "{}", again.stdout);
    let list = npuzzle_in(&dir, &["pdb", "list"]);
    assert!(list.stdout.contains("3x3-blank-first-4-4-"), "{}", list.stdout);
    assert!(list.stdout.contains(" MB of 1073.7 MB"), "{}", list.stdout);
    assert!(list.stdout.contains("partition 1,2,3,4/5,6,7,8"), "{}", list.stdout);
    assert_eq!(npuzzle_in(&dir, &["pdb", "verify"]).code, 0);
    // Damage the file: verify says so and exits 1; the next solve rebuilds it with a warning.
    let file = std::fs::read_dir(&dir).unwrap().next().unwrap().unwrap().path();
    let mut bytes = std::fs::read(&file).unwrap();
    let n = bytes.len();
    bytes[n - 7] ^= 0x20;
    std::fs::write(&file, &bytes).unwrap();
    let verify = npuzzle_in(&dir, &["pdb", "verify"]);
    assert_eq!(verify.code, 1);
    assert!(verify.stdout.contains("damaged: checksum mismatch"), "{}", verify.stdout);
    let rebuilt = npuzzle_in(&dir, &["pdb", "build", "--size", "3x3", "--partition", "4-4"]);
    assert_eq!(rebuilt.code, 0);
    assert!(
        rebuilt.stderr.contains("checksum mismatch: the file is damaged; rebuilding it"),
        "{}",
        rebuilt.stderr
    );
    assert_eq!(npuzzle_in(&dir, &["pdb", "verify"]).code, 0);
    for bad in [&["pdb", "build", "--partition", "7-7"][..], &["pdb", "build", "--size", "6x6"]] {
        let run = npuzzle_in(&dir, bad);
        run.assert_fails(2, "npuzzle: ");
    }
    // The 24-puzzle's catalogue is refused on another size or a goal it does not serve,
    // before anything is built, and says which partition was asked for.
    for bad in [
        &["pdb", "build", "--partition", "catalogue", "--size", "4x4"][..],
        &["pdb", "build", "--partition", "Catalogue", "--goal", "snail"],
    ] {
        let run = npuzzle_in(&dir, bad);
        run.assert_fails(2, "npuzzle: --partition catalogue: ");
    }
    // The blank-last solve uses the blank-first file: nothing new is built.
    let solved = npuzzle_in(&dir, &["solve", "--heuristic", "pdb", "8 6 7/2 5 4/3 0 1"]);
    assert!(solved.stdout.contains("31 moves (optimal)"), "{}", solved.stdout);
    assert!(!solved.stderr.contains("built"), "{}", solved.stderr);
    let clean = npuzzle_in(&dir, &["pdb", "clean"]);
    assert!(clean.stdout.starts_with("removed 1 file(s)"), "{}", clean.stdout);
    assert!(npuzzle_in(&dir, &["pdb", "list"]).stdout.contains("no pattern databases"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_reports_every_instance_and_fails_on_a_wrong_length() {
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-bench-{}", std::process::id()));
    let good = scratch_file(
        "bench-good.txt",
        "# goal: blank-first\n1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15 | 3\n4 1 2 3 0 5 6 7 8 9 10 11 12 13 14 15 | 1\n",
    );
    let run = npuzzle_in(&dir, &["bench", good.to_str().unwrap(), "--heuristic", "pdb"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("total: 2 instances, 2 as expected"), "{}", run.stdout);
    assert!(run.stderr.contains("for full speed, build the 7-8 database"), "{}", run.stderr);
    let json =
        npuzzle_in(&dir, &["bench", good.to_str().unwrap(), "--format", "json", "--threads", "2"]);
    let lines = json.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["length"], 3);
    assert_eq!(lines[1]["length"], 1);
    assert_eq!(lines[0]["heuristic"], "pdb");
    assert_eq!(lines[2]["summary"], true);
    assert_eq!(lines[2]["mismatches"], 0);
    if cfg!(target_os = "linux") {
        assert!(lines[2]["cpu_seconds"].is_number(), "{}", lines[2]);
    }
    let wrong = scratch_file(
        "bench-wrong.txt",
        "# goal: blank-first\n1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15 | 5\n",
    );
    let run = npuzzle_in(&dir, &["bench", wrong.to_str().unwrap()]);
    run.assert_fails(1, "solved with another length than expected");
    assert!(run.stdout.contains("DIFFERS"));
    let korf = npuzzle_in(&dir, &["bench", "korf100", "--limit", "2", "--heuristic", "pdb"]);
    assert_eq!(korf.code, 0, "{}", korf.stderr);
    assert!(korf.stdout.contains("total: 2 instances, 2 as expected"), "{}", korf.stdout);
    let dual = npuzzle_in(&dir, &["bench", "korf100", "--limit", "2", "--dual", "--threads", "2"]);
    assert_eq!(dual.code, 0, "{}", dual.stderr);
    assert!(dual.stdout.contains("2 as expected"), "{}", dual.stdout);
    assert!(dual.stdout.contains("dual lookups, 2 threads"), "{}", dual.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_across_gives_one_threads_lengths_in_file_order() {
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-across-{}", std::process::id()));
    let korf = |extra: &[&str]| {
        let mut args = vec!["bench", "korf100", "--limit", "4", "--heuristic", "pdb"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--format", "json"]);
        let run = npuzzle_in(&dir, &args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.json_lines()
    };
    let one = korf(&[]);
    let across = korf(&["--threads", "2", "--across"]);
    assert_eq!(one.len(), 5);
    assert_eq!(across.len(), 5);
    for (a, b) in one[..4].iter().zip(&across[..4]) {
        assert_eq!((&a["index"], &a["length"]), (&b["index"], &b["length"]));
        // One thread per instance: the same search, node for node.
        assert_eq!(a["generated"], b["generated"]);
    }
    assert_eq!(across[4]["across"], true);
    assert!(across[4]["instances_per_second"].as_f64().is_some_and(|r| r > 0.0), "{}", across[4]);
    let text =
        npuzzle_in(&dir, &["bench", "korf100", "--limit", "3", "--threads", "2", "--across"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains("across: 2 instances at a time"), "{}", text.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the binary with the given stdout and stderr, returning the exit status and what was
/// captured of stderr (when it is piped).
fn npuzzle_to(args: &[&str], stdout: Stdio, stderr: Stdio) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .output()
        .expect("the binary runs");
    (out.status.code().expect("exited, not killed"), String::from_utf8_lossy(&out.stderr).into())
}

/// `/dev/full`, where every write fails with "no space left on device".
fn dev_full() -> Stdio {
    std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full opens").into()
}

#[test]
fn usage_errors_keep_clap_suggestions_in_one_line() {
    for (args, line) in [
        (
            &["solve", "--algoritm", "astar", HARD_3][..],
            "npuzzle: unexpected argument '--algoritm' (did you mean '--algorithm'?) (see --help)",
        ),
        (
            &["solve", "--format", "jsno", HARD_3],
            "npuzzle: invalid value 'jsno' for --format: expected text, moves, compact or json (see \
             --help)",
        ),
        (
            &["solve", "-a", "quantum", HARD_3],
            "npuzzle: invalid value 'quantum' for --algorithm: expected auto, bfs, dfs, iddfs, \
             dijkstra, greedy, astar, wastar, idastar, table, reduction or near (see --help)",
        ),
        (
            &["solve", "--heuristic", "psychic", HARD_3],
            "npuzzle: invalid value 'psychic' for --heuristic: expected auto, hamming, manhattan, \
             linear-conflict, walking-distance or pdb (see --help)",
        ),
        (&["solv", HARD_3], "npuzzle: unknown command 'solv' (did you mean 'solve'?) (see --help)"),
        (
            &["scramble", "--format", "yaml"],
            "npuzzle: invalid value 'yaml' for --format: expected text or json (see --help)",
        ),
        (
            &["completions", "tcsh"],
            "npuzzle: invalid value 'tcsh' for <SHELL>: expected bash, elvish, fish, powershell or \
             zsh (see --help)",
        ),
    ] {
        let run = npuzzle(args);
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr, format!("{line}\n"), "{args:?}");
    }
}

#[test]
fn values_are_read_in_any_case() {
    let run = npuzzle(&[
        "solve",
        "-f",
        "JSON",
        "-a",
        "IDAStar",
        "--heuristic",
        "Manhattan",
        "-g",
        "SNAIL",
        "1 2 3/8 4 0/7 6 5",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(
        (r["algorithm"].as_str(), r["heuristic"].as_str()),
        (Some("idastar"), Some("manhattan"))
    );
    assert_eq!(r["moves"], "R");
    let scramble = npuzzle(&["scramble", "-s", "3X3", "-f", "Json", "--seed", "1"]);
    assert_eq!(scramble.code, 0, "{}", scramble.stderr);
    assert_eq!(scramble.json_lines()[0]["size"], "3x3");
    assert_eq!(npuzzle(&["completions", "BASH"]).code, 0);
}

#[test]
fn a_file_or_stdin_error_is_said_once_and_names_the_wrong_line() {
    let run = npuzzle_with_stdin(&["solve"], Some("bad\n"));
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr, "npuzzle: stdin: line 1: \"bad\" is not a number\n");
    // A 42-style file: the row that is short, on its own line.
    let path =
        scratch_file("short-row-42.txt", "# This puzzle is solvable\n3\n 8 6 7\n 2 5\n 3 0 1\n");
    let run = npuzzle(&["solve", "--input", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        format!("npuzzle: {}: line 4: row 2 has 2 cells, expected 3\n", path.display())
    );
    // A grid: the second copy of a tile.
    let run = npuzzle_with_stdin(&["solve"], Some("1 2 3\n4 5 6\n7 5 0\n"));
    assert_eq!(run.stderr, "npuzzle: stdin: line 3: tile 5 appears twice\n");
    let run = npuzzle_with_stdin(&["solve"], Some("3\n1 2 3\n4 5 6\n"));
    assert_eq!(run.stderr, "npuzzle: stdin: line 1: the size line says 3 rows, found 2\n");
    // Goal comments: the reason is said once too.
    let run = npuzzle_with_stdin(&["solve"], Some("# goal: x\n1 2/3 0\n"));
    assert_eq!(
        run.stderr,
        "npuzzle: stdin: line 1: invalid goal \"x\": expected blank-last, blank-first, snail or \
         a board (\"x\" is not a number)\n"
    );
}

#[test]
fn messages_name_the_right_numbers() {
    // More numbers than any board holds is not a "65537x1" board.
    let many = "1 ".repeat(65_537);
    let run = npuzzle_with_stdin(&["solve"], Some(&many));
    assert_eq!(
        run.stderr,
        "npuzzle: stdin: line 1: more than 65536 tiles: the largest board is 256x256\n"
    );
    // Rows of one cell separated by '/' are not a 42-style size line saying "1x1".
    let run = npuzzle(&["solve", "1/2/0"]);
    run.assert_fails(2, "size 1x3 is out of range: each side must be 2 to 256");
    npuzzle(&["solve", "1 2/3"]).assert_fails(2, "row 2 has 1 cell, expected 2");
    // Moves are counted from 1.
    let run = npuzzle(&["check", "1 2 3/4 5 6/7 8 0", "RRR"]);
    assert_eq!(
        run.stderr,
        "npuzzle: wrong: move 3 (R) is illegal: no tile can slide right into the blank\n"
    );
    let run = npuzzle(&["check", "1 2 3/4 5 6/7 8 0", "RRX"]);
    assert_eq!(
        run.stderr,
        "npuzzle: invalid MOVES: invalid move 'X' at character 3: expected U, D, L or R\n"
    );
}

#[test]
fn goal_comments_in_any_case_or_inside_a_board_apply_and_a_goal_that_does_not_fit_rejects_the_file()
{
    let snail = "1 2 3/8 0 4/7 6 5";
    for text in [
        "# Goal: snail\n3\n1 2 3\n8 4 0\n7 6 5\n",
        "3\n# goal: snail\n1 2 3\n8 4 0\n7 6 5\n",
        "1 2 3\n8 4 0\n# GOAL: snail\n7 6 5\n",
        "#goal:snail\n1 2 3/8 4 0/7 6 5\n",
    ] {
        let run = npuzzle_with_stdin(&["solve", "-f", "json"], Some(text));
        assert_eq!(run.code, 0, "{text:?}: {}", run.stderr);
        let r = &run.json_lines()[0];
        assert_eq!(r["goal"], snail, "{text:?}");
        assert_eq!(r["moves"], "R", "{text:?}");
    }
    // A goal line whose board does not fit rejects the file: no board is solved.
    let run = npuzzle_with_stdin(
        &["solve", "-f", "moves"],
        Some("1 2 3/4 5 6/7 0 8\n# goal: 1 2/3 0\n1 2/0 3\n1 2 3/4 5 6/7 0 8\n"),
    );
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(
        run.stderr,
        "npuzzle: stdin: line 4: the goal set on line 2 is 2x2 but the board is 3x3\n"
    );
    // So does a --goal board that does not fit a board of the file.
    let run = npuzzle_with_stdin(&["solve", "-g", "1 2/3 0"], Some("1 2/0 3\n1 2 3/4 5 6/7 0 8\n"));
    assert_eq!(run.code, 2);
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "npuzzle: stdin: line 2: goal is 2x2 but the board is 3x3\n");
}

#[test]
fn blanks_written_as_dot_or_underscore_and_digit_strings_are_boards() {
    for board in
        ["8 6 7/2 5 4/3 . 1", "8 6 7/2 5 4/3 _ 1", "867254301", "867/254/3.1", "8,6,7,2,5,4,3,.,1"]
    {
        let run = npuzzle(&["solve", "-f", "json", board]);
        assert_eq!(run.code, 0, "{board}: {}", run.stderr);
        assert_eq!(run.json_lines()[0]["board"], HARD_3, "{board}");
    }
    // What --steps prints reads back.
    let run = npuzzle(&["solve", "--steps", "1 2 3/4 5 6/0 7 8"]);
    let grid = run.stdout.split("\n\n").find(|b| b.starts_with("move 1:")).unwrap();
    let grid = grid.split_once('\n').unwrap().1;
    assert_eq!(grid, "1 2 3\n4 5 6\n7 . 8");
    let again = npuzzle_with_stdin(&["solve", "-f", "moves"], Some(grid));
    assert_eq!(again.stdout, "L\n", "{}", again.stderr);
    npuzzle(&["solve", "123450"]).assert_fails(
        2,
        "6 digits in a digit string: write 4 or 9 digits (2x2 or 3x3), rows as 123/450, or \
         separate the tiles with spaces",
    );
}

#[test]
fn grids_separated_by_blank_lines_are_several_boards() {
    let text =
        "1 2 3\n4 5 6\n0 7 8\n\n8 6 7\n2 5 4\n3 . 1\n\n# This puzzle is solvable\n2\n1 2\n0 3\n";
    let run = npuzzle_with_stdin(&["solve", "-f", "json"], Some(text));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json_lines();
    let boards: Vec<&str> = r.iter().map(|r| r["board"].as_str().unwrap()).collect();
    assert_eq!(boards, ["1 2 3/4 5 6/0 7 8", HARD_3, "1 2/0 3"]);
    let lines: Vec<u64> = r.iter().map(|r| r["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 5, 10]);
    assert_eq!(r[1]["length"], 31);
}

#[test]
fn solve_reads_a_file_or_stdin_named_as_a_board_argument() {
    let path = scratch_file("two-boards.txt", "1 2 3/4 5 6/7 0 8\n1 2 3/4 5 6/0 7 8\n");
    let run = npuzzle(&["solve", "-f", "moves", "1 2/0 3", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "L\nL\nLL\n");
    let run =
        npuzzle_with_stdin(&["solve", "-f", "moves", "-", "1 2/0 3"], Some("1 2 3/4 5 6/7 0 8\n"));
    assert_eq!(run.stdout, "L\nL\n", "{}", run.stderr);
    let run = npuzzle_with_stdin(&["solve", "-", "--input", "-"], Some("1 2/0 3\n"));
    assert_eq!(run.stderr, "npuzzle: stdin is named twice: it can be read only once\n");
}

#[test]
fn a_byte_order_mark_and_cr_only_line_ends_are_read() {
    let path = scratch_file("bom.txt", "\u{feff}# goal: snail\r\n3\r\n1 2 3\r\n8 4 0\r\n7 6 5\r\n");
    let run = npuzzle(&["solve", "-f", "moves", path.to_str().unwrap()]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "R\n"), "{}", run.stderr);
    // Classic Mac OS line ends: a lone CR.
    let run =
        npuzzle_with_stdin(&["solve", "-f", "json"], Some("1 2 3\r4 5 6\r0 7 8\r\r1 2/0 3\r"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = run.json_lines();
    assert_eq!(r.len(), 2);
    assert_eq!((r[0]["moves"].as_str(), r[1]["line"].as_u64()), (Some("LL"), Some(5)));
}

#[test]
fn completions_list_the_subcommands_and_the_algorithm_and_heuristic_names() {
    for shell in ["bash", "zsh", "fish"] {
        let run = npuzzle(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        for word in
            ["solve", "scramble", "check", "--algorithm", "idastar", "linear-conflict", "snail"]
        {
            let word = if shell == "fish" { word.trim_start_matches("--") } else { word };
            if word == "snail" {
                continue;
            }
            assert!(run.stdout.contains(word), "{shell} completions lack {word}");
        }
    }
    let man = npuzzle(&["man"]);
    assert_eq!(man.code, 0);
    assert!(man.stdout.starts_with(".ie \\n(.g .ds Aq"), "{}", &man.stdout[..80]);
    assert!(man.stdout.contains(".TH npuzzle 1"));
    assert!(man.stdout.contains("solve"));
}

#[test]
fn short_options_and_scramble_defaults_to_4x4() {
    let path = scratch_file("short-options.txt", "1 2 3/8 4 0/7 6 5\n");
    let run = npuzzle(&[
        "solve",
        "-i",
        path.to_str().unwrap(),
        "-g",
        "snail",
        "-f",
        "moves",
        "-a",
        "astar",
    ]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "R\n"), "{}", run.stderr);
    let run = npuzzle(&["scramble", "-s", "3x2", "-n", "3", "--seed", "5"]);
    assert_eq!(run.stdout.lines().count(), 3);
    assert!(run.stdout.lines().all(|l| l.parse::<Board>().unwrap().size().to_string() == "3x2"));
    let run = npuzzle(&["scramble", "--seed", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim().parse::<Board>().unwrap().size().to_string(), "4x4");
}

#[test]
fn check_says_whether_moves_reach_the_goal_in_words() {
    let run = npuzzle(&["check", HARD_3, "DDLURRULLDRRDLLURURDDLUURDDLLUU", "--optimal"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "board: 8 6 7/2 5 4/3 0 1  goal: 1 2 3/4 5 6/7 8 0\n\
         ok: 31 moves reach the goal (21 in the multi-tile metric)\n\
         optimal: 31 moves (gap 0)\n"
    );
    assert_eq!(run.stderr, "");
    // Compact, lower case, spaces: the same moves.
    let run = npuzzle(&["check", HARD_3, "d2lur2ul2dr2dl2 urur d2lu2rd2l2u2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);

    // A longer path to the goal: fine without --optimal, a gap with it.
    let run = npuzzle(&["check", "1 2 3/4 5 6/7 0 8", "LRL"]);
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout.lines().nth(1),
        Some("ok: 3 moves reach the goal (3 in the multi-tile metric)")
    );
    let run = npuzzle(&["check", "1 2 3/4 5 6/7 0 8", "LRL", "--optimal"]);
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.lines().nth(2), Some("optimal: 1 move (gap 2)"));
    assert_eq!(run.stderr, "npuzzle: not optimal: 3 moves, the optimum is 1 (gap 2)\n");

    // Wrong: an illegal move, or another end position.
    let run = npuzzle(&["check", "1 2 3/4 5 6/0 7 8", "LLL"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.lines().nth(1),
        Some("wrong: move 3 (L) is illegal: no tile can slide left into the blank")
    );
    let run = npuzzle(&["check", "1 2 3/4 5 6/0 7 8", "L"]);
    assert_eq!(run.code, 1);
    assert_eq!(
        run.stdout.lines().nth(1),
        Some("wrong: the 1 move ends at 1 2 3/4 5 6/7 0 8, not at the goal")
    );
    assert_eq!(
        run.stderr,
        "npuzzle: wrong: the 1 move ends at 1 2 3/4 5 6/7 0 8, not at the goal\n"
    );

    // Unsolvable: no move list can be right, and --optimal says why.
    let run = npuzzle(&["check", UNSOLVABLE_3, "", "--optimal"]);
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains(
            "optimal: none: the board cannot reach the goal (the tile permutation is odd"
        )
    );
}

#[test]
fn check_reads_every_move_notation() {
    let b = "1 2 3/4 5 6/0 7 8";
    for (moves, extra) in [
        ("LL", None),
        ("L2", None),
        ("RR", Some("--blank")),
        ("r2", Some("--blank")),
        ("7 8", None),
        ("7,8", None),
    ] {
        let mut args = vec!["check", b, moves];
        args.extend(extra);
        let run = npuzzle(&args);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    }
    let run = npuzzle(&["check", b, "7 1"]);
    assert_eq!(run.stderr, "npuzzle: wrong: move 2: tile 1 is not next to the blank\n");
    let run = npuzzle(&["check", b, "7 8", "--blank"]);
    assert_eq!(
        run.stderr,
        "npuzzle: invalid MOVES: --blank applies to move letters, and these are tile numbers\n"
    );
    // Moves from stdin, as another solver prints them.
    let solved = npuzzle(&["solve", "-f", "moves", HARD_3]);
    let run = npuzzle_with_stdin(&["check", HARD_3, "-"], Some(&solved.stdout));
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The board from a 42-style file, with its goal comment.
    let path = scratch_file("check42.txt", "# goal: snail\n3\n1 2 3\n8 4 0\n7 6 5\n");
    let run = npuzzle(&["check", path.to_str().unwrap(), "R"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("board: 1 2 3/8 4 0/7 6 5  goal: 1 2 3/8 0 4/7 6 5\n"));
    let two = scratch_file("check-two.txt", "1 2/0 3\n1 2/3 0\n");
    npuzzle(&["check", two.to_str().unwrap(), "L"])
        .assert_fails(2, "holds several boards (a second one on line 2); give one");
}

#[test]
fn check_json_and_the_compact_limit() {
    let run = npuzzle(&["check", "1 2 3/4 5 6/0 7 8", "RR", "--blank", "--optimal", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(
        *r,
        serde_json::json!({
            "board": "1 2 3/4 5 6/0 7 8", "goal": BLANK_LAST_3, "reaches_goal": true, "length": 2,
            "multi_tile_length": 1, "moves": "LL", "end": BLANK_LAST_3, "error": null,
            "optimal_length": 2, "gap": 0, "optimal": true
        })
    );
    // The longest run a compact count names reads back; one more is refused with the limit.
    let run = npuzzle(&["check", "1 2/3 0", "R1048576R"]);
    assert_eq!(
        run.stderr,
        "npuzzle: wrong: move 2 (R) is illegal: no tile can slide right into the blank\n"
    );
    let run = npuzzle(&["check", "1 2/3 0", "R1048577"]);
    assert_eq!(
        run.stderr,
        "npuzzle: invalid MOVES: invalid repeat count at character 2: expected 1 to 1048576\n"
    );
    assert_eq!(run.code, 2);
}

#[test]
fn absurd_timeouts_and_weights_are_refused_not_panicked_on() {
    let run = npuzzle(&["solve", "--timeout", "1e19", HARD_3]);
    assert_eq!(
        run.stderr,
        "npuzzle: invalid value '1e19' for --timeout: 1e19 seconds is too long: at most 31536000 \
         (a year) (see --help)\n"
    );
    let run = npuzzle(&["solve", "--weight", "1e15", HARD_3]);
    assert_eq!(
        run.stderr,
        "npuzzle: invalid value '1e15' for --weight: \"1e15\" is not a weight: expected a number \
         from 1 to 100 (see --help)\n"
    );
    assert_eq!(run.code, 2);
    let run = npuzzle(&["solve", "--timeout", "31536000", "-f", "moves", "1 2 3/4 5 6/7 0 8"]);
    assert_eq!((run.code, run.stdout.as_str()), (0, "L\n"), "{}", run.stderr);
}

#[test]
fn a_full_stderr_never_panics() {
    for args in [
        &["scramble", "-s", "3x3"][..],
        &["solve", "--bogus"],
        &["check", "1 2/3 0", "X"],
        &["check", "1 2/0 3", "LL"],
    ] {
        let (code, _) = npuzzle_to(args, Stdio::null(), dev_full());
        assert!(code == 0 || code == 1 || code == 2, "{args:?} exited {code}");
    }
}

#[test]
fn a_full_stdout_is_an_error_and_a_closed_stdout_is_not_success() {
    let (code, stderr) =
        npuzzle_to(&["scramble", "-n", "3", "--seed", "1"], dev_full(), Stdio::piped());
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("npuzzle: ") && stderr.contains("No space left on device"),
        "{stderr}"
    );
    // `>&-`: the runtime reopens a closed stdout on /dev/null, so the check must see it.
    for args in [
        &["scramble", "-n", "3"][..],
        &["solve", HARD_3],
        &["check", HARD_3, ""],
        &["completions", "bash"],
    ] {
        let out = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" >&-")
            .arg(env!("CARGO_BIN_EXE_npuzzle"))
            .args(args)
            .output()
            .expect("sh runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "npuzzle: standard output is closed: the results would be lost\n"
        );
    }
    // Discarding the output on purpose is allowed.
    let (code, _) = npuzzle_to(&["scramble", "--seed", "1"], Stdio::null(), Stdio::piped());
    assert_eq!(code, 0);
}

#[test]
fn a_reader_that_closes_the_pipe_during_a_long_json_line_is_not_an_error() {
    use std::io::Read;
    let big = npuzzle(&["scramble", "-s", "20x20", "--seed", "1"]).stdout;
    for (args, stdin) in [
        (&["scramble", "-s", "100x100", "-n", "20", "-f", "json", "--seed", "1"][..], None),
        (&["solve", "-f", "json"], Some(big.as_str())),
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.unwrap_or_default().as_bytes()).unwrap();
        drop(input);
        let mut first = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        // The read end is closed now, with the rest of a line over 8 KiB unwritten.
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// A 4x4 board whose optimum (70) takes IDA* + linear conflict many seconds to prove, while
/// the near-optimal engine answers 86 moves in 0.4 s and 70 in 1 s (weighted A*: 90 at once).
const SLOW_4: &str = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0";

#[test]
fn a_timeout_only_limits_and_improving_is_asked_for_separately() {
    // With a side beyond 64, `auto` answers with the reduction solver.
    let big = npuzzle(&["scramble", "-s", "65x16", "--seed", "4"]).stdout;
    let run = npuzzle(&["solve", "--timeout", "30", "-f", "json", big.trim()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["algorithm"], "reduction");
    // `auto` runs a fixed number of the anytime mode's beams on boards up to 50x50: the
    // same answer with or without a timeout, never the whole timeout.
    let plain = npuzzle(&["solve", "-f", "json", big.trim()]);
    let p = &plain.json_lines()[0];
    assert_eq!(
        (&r["moves"], &r["note"]),
        (&p["moves"], &p["note"]),
        "a timeout changed the answer"
    );
    assert!(r["seconds"].as_f64().unwrap() < 15.0, "a timeout alone was spent: {r}");
    let run = npuzzle(&["solve", "--improve", "0.5", "-f", "json", big.trim()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert!(r["note"].as_str().unwrap().contains("the anytime mode "), "{r}");
    assert_replays(big.trim(), r["goal"].as_str().unwrap(), r["moves"].as_str().unwrap());
}

/// Whether `note` is one of `auto`'s on a 4x4 after its optimal attempt gave up (`attempt`
/// is what the note says of it) and the near-optimal engine had until `until` seconds: the
/// engine's answer, or weighted A*'s, or the reduction solver's.
fn after_the_attempt(note: &str, attempt: &str, until: &str) -> bool {
    let gave_up = format!("{attempt}; the near-optimal engine found no answer within {until} s");
    note.starts_with(&format!("{attempt}, so auto used the near-optimal engine (beam"))
        || note == format!("{gave_up}, so auto used weighted A* (w = 2)")
        || note.starts_with(&format!(
            "{gave_up}, so auto turned to the reduction solver; the reduction solver placed rows"
        ))
}

#[test]
fn auto_under_a_tight_timeout_still_answers_with_its_lower_bound() {
    // Linear conflict (no pattern database): IDA* needs far more than 1.6 s on this board.
    let run = npuzzle(&[
        "solve",
        SLOW_4,
        "--heuristic",
        "linear-conflict",
        "--timeout",
        "2",
        "-f",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!((r["status"].as_str(), r["optimal"].as_bool()), (Some("solved"), Some(false)));
    let bound = r["lower_bound"].as_u64().expect("a lower bound");
    let length = r["length"].as_u64().unwrap();
    assert!(bound >= 50 && bound <= length && bound % 2 == length % 2, "{r}");
    // Then the near-optimal engine until 1.9 s, or (a loaded machine) weighted A*, or the
    // reduction solver.
    let note = r["note"].as_str().unwrap();
    let attempt = "not proven optimal: IDA* + linear-conflict found no proven optimum within 1.6 s";
    assert!(after_the_attempt(note, attempt, "1.9"), "{note}");
    assert_replays(SLOW_4, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", r["moves"].as_str().unwrap());
    // With the pattern database auto uses by default: proven optimal in time, or a fast
    // answer that says so; never a limit. The database first (what the command line builds
    // on demand; its build would otherwise take the whole 0.5 s when this test runs before
    // the others that build it).
    let build = ["pdb", "build", "--size", "4x4", "--goal", "blank-first", "--partition", "6-6-3"];
    assert_eq!(npuzzle(&build).code, 0);
    let run = npuzzle(&["solve", SLOW_4, "--timeout", "0.5", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["status"], "solved");
    if r["optimal"] == false {
        let note = r["note"].as_str().unwrap();
        // The near-optimal engine until 0.475 s; when it has no answer by then (with an
        // empty cache the database's build takes the time), weighted A*, in milliseconds,
        // or on a loaded machine the reduction solver.
        let attempt = "not proven optimal: IDA* + pdb found no proven optimum within 0.4 s";
        assert!(after_the_attempt(note, attempt, "0.47"), "{note}");
        assert!(r["lower_bound"].as_u64().unwrap() <= r["length"].as_u64().unwrap());
    }
    assert_replays(SLOW_4, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", r["moves"].as_str().unwrap());
    // However little time the earlier steps leave (here none: loading the database takes
    // longer than the timeout), the reduction solver answers; it takes microseconds.
    let run = npuzzle(&["solve", SLOW_4, "--timeout", "0.001", "-f", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(
        (r["status"].as_str(), r["algorithm"].as_str()),
        (Some("solved"), Some("reduction"))
    );
    let note = r["note"].as_str().unwrap();
    assert!(
        note.contains(", so auto turned to the reduction solver; the reduction solver"),
        "{note}"
    );
    assert_replays(SLOW_4, "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", r["moves"].as_str().unwrap());
}

#[test]
fn auto_answers_5x5_with_the_near_optimal_engine_and_its_lower_bound() {
    // Korf & Taylor's first 24-puzzle instance (optimum 95).
    let korf24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    let run = npuzzle(&["solve", "-g", "blank-first", "-f", "json", korf24]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!((r["algorithm"].as_str(), r["optimal"].as_bool()), (Some("near"), Some(false)));
    let (length, bound) = (r["length"].as_u64().unwrap(), r["lower_bound"].as_u64().unwrap());
    assert!((70..=95).contains(&bound) && length >= 95, "{r}");
    let note = r["note"].as_str().unwrap();
    assert!(
        note.starts_with(&format!(
            "not proven optimal: near-optimal engine (beam searches ranked by Manhattan \
             distance, linear conflicts and squared distances, then beams and IDA* over windows \
             of the path; linear conflict proves the bound): the optimum is at least {bound} moves, so this answer is at most {} \
             moves",
            length - bound
        )),
        "{note}"
    );
    assert_replays(korf24, r["goal"].as_str().unwrap(), r["moves"].as_str().unwrap());
}

#[test]
fn auto_gives_boards_up_to_64x64_a_short_near_optimal_solve() {
    // 24x24 and 32x9: the near-optimal engine for about half a second (a second on 32x32),
    // then the reduction solver, the shorter answer kept: never longer than the reduction
    // solver's own, and never the engine's long plain solve.
    for size in ["24x24", "32x9"] {
        let board = npuzzle(&["scramble", "-s", size, "--seed", "3"]).stdout;
        let run = npuzzle(&["solve", "-f", "json", board.trim()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let r = &run.json_lines()[0];
        assert_replays(board.trim(), r["goal"].as_str().unwrap(), r["moves"].as_str().unwrap());
        assert!(r["seconds"].as_f64().unwrap() < 10.0, "{size}: {r}");
        let reduction = npuzzle(&["solve", "-a", "reduction", "-f", "json", board.trim()]);
        let plain = reduction.json_lines()[0]["length"].as_u64().unwrap();
        let length = r["length"].as_u64().unwrap();
        assert!(length <= plain, "{size}: {length} against the reduction solver's {plain}");
        // Whichever answered, the labels and the note name it.
        let note = r["note"].as_str().unwrap();
        match r["algorithm"].as_str() {
            Some("near") => assert!(note.contains("near-optimal engine"), "{note}"),
            Some("reduction") => assert!(note.contains("near-optimal engine's answer"), "{note}"),
            other => panic!("{size}: {other:?} answered"),
        }
    }
}

#[test]
fn an_optimal_5x5_solve_stops_building_its_tables_at_the_time_limit() {
    // With an empty cache the 6-6-6-6 tables take about a minute to build: a one-second limit
    // stops the build, answers "limit" and says how to build them once.
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-korf24-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let korf24 = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    let run = npuzzle_in(
        &dir,
        &["solve", "--optimal", "--timeout", "1", "-g", "blank-first", "-f", "json", korf24],
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["status"], "limit");
    assert_eq!(r["moves"], "");
    assert!(r["lower_bound"].as_u64().unwrap() >= 70, "{r}");
    assert!(
        run.stderr.contains(
            "the 6-6-6-6 tables were not built within the time limit: build them once with \
             `npuzzle pdb build --partition korf-felner`"
        ),
        "{}",
        run.stderr
    );
    let left: Vec<_> = std::fs::read_dir(&dir).map(|d| d.flatten().collect()).unwrap_or_default();
    assert!(left.iter().all(|e| !e.file_name().to_string_lossy().ends_with(".pdb")), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_limit_names_its_lower_bound_and_a_change_that_helps_with_the_options_given() {
    // Linear conflict: IDA* left to pick its heuristic would take a pattern database.
    let run = npuzzle(&[
        "solve",
        "-a",
        "idastar",
        "--heuristic",
        "linear-conflict",
        "--max-nodes",
        "1000",
        "-f",
        "json",
        SLOW_4,
    ]);
    assert_eq!(run.code, 4);
    let r = &run.json_lines()[0];
    let bound = r["lower_bound"].as_u64().expect("a lower bound");
    assert_eq!(r["error"], format!("node limit of 1,000 reached (lower bound {bound})"));
    assert_eq!(
        run.stderr,
        format!(
            "npuzzle: limit reached: node limit of 1,000 reached (lower bound {bound}); raise \
             --max-nodes (it was 1000), or use the default --algorithm auto (fast, not proven \
             optimal)\n"
        )
    );
    let run = npuzzle(&["solve", "--optimal", "--timeout", "0.3", SLOW_4]);
    assert_eq!(run.code, 4);
    assert!(run.stdout.contains("limit: time limit of 0.3 s reached after "), "{}", run.stdout);
    assert!(
        run.stderr.ends_with(
            "; raise --timeout (it was 0.3 s), or drop --optimal for a fast answer not proven \
             optimal\n"
        ),
        "{}",
        run.stderr
    );
    // --improve's limit, shorter than the timeout, is the one named (a 64x64 board gets no
    // answer within 10 ms).
    let board = npuzzle(&["scramble", "--size", "64x64", "--seed", "1"]).stdout;
    let run = npuzzle_with_stdin(&["solve", "-a", "near", "--improve", "0.01"], Some(&board));
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(run.stderr.contains("time limit of 0.01 s reached"), "{}", run.stderr);
    assert!(run.stderr.contains("; raise --improve (it was 0.01 s), or "), "{}", run.stderr);
    let run = npuzzle(&[
        "solve",
        "-a",
        "bfs",
        "--max-memory",
        "64",
        "--threads",
        "2",
        "-g",
        "blank-first",
        KORF_1,
        KORF_1,
    ]);
    assert_eq!(run.code, 4);
    assert!(
        run.stderr.contains(
            "; raise --max-memory (it was 64 MiB, split across --threads 2: 32 MiB each), or use \
             an informed search: --algorithm idastar (optimal, little memory) or the default auto\n"
        ),
        "{}",
        run.stderr
    );
}

#[test]
fn an_unsolvable_board_names_the_goal_it_can_reach() {
    let run = npuzzle(&["solve", UNSOLVABLE_3]);
    assert_eq!(run.code, 3);
    let reason = "unsolvable towards blank-last: the tile permutation is odd but the blank is an \
                  even number of moves from its goal cell; solvable towards snail: use --goal snail";
    assert_eq!(run.stderr, format!("npuzzle: {reason}\n"));
    assert!(run.stdout.ends_with(&format!("\n{reason}\n")), "{}", run.stdout);
    // Korf's instances are meant for blank-first.
    let run = npuzzle(&["solve", "-f", "json", KORF_1]);
    assert_eq!(run.code, 3);
    let error = run.json_lines()[0]["error"].as_str().unwrap().to_string();
    assert!(error.ends_with("; solvable towards blank-first: use --goal blank-first"), "{error}");
    // A goal set by the file is changed in the file.
    let run = npuzzle_with_stdin(
        &["solve"],
        Some("# goal: blank-last\n14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3\n"),
    );
    assert!(
        run.stderr.ends_with("; solvable towards blank-first: change the file's '# goal:' line\n"),
        "{}",
        run.stderr
    );
}

/// Runs the binary under a pseudo-terminal (util-linux `script`), returning what the
/// terminal showed (stdout and stderr together) and the exit status.
fn on_a_terminal(args: &[&str]) -> (i32, String) {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_npuzzle"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &quoted.join(" "), "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux script runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Progress and bounds come from the IDA* over a pattern database too, and a search stopped
/// by its limit answers the last bound it proved.
#[test]
fn progress_shows_with_a_database_on_a_terminal() {
    // One of the 15-puzzle's hardest positions (80 moves, Brüngger et al. 1999): the 6-6-3
    // database needs tens of seconds for it, so the 1.5 s limit always stops the search.
    let hard = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1";
    // The database first (a second or two; other tests may have built it already): built
    // within the search's 1.5 s, it would race the search for the time.
    let built =
        npuzzle_in(&test_cache(), &["pdb", "build", "--size", "4x4", "--partition", "6-6-3"]);
    assert_eq!(built.code, 0, "{}", built.stderr);
    let args = ["solve", "--heuristic", "pdb", "-a", "idastar", "--timeout", "1.5", hard];
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_npuzzle"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', "'\\''")))
        .collect();
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &quoted.join(" "), "/dev/null"])
        .env("NPUZZLE_CACHE", test_cache())
        .stdin(Stdio::null())
        .output()
        .expect("util-linux script runs");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{screen}");
    assert!(screen.contains("nodes, ") && screen.contains("/s, "), "no progress line: {screen}");
    // The walk-up of bounds from the database's estimate (Manhattan alone gives 60 here).
    assert!(screen.contains("bound 6") || screen.contains("bound 7"), "{screen}");
    assert!(screen.contains("heuristic pdb"), "{screen}");
    let bound = screen
        .split("lower bound ")
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse::<u32>().ok());
    assert!(bound.is_some_and(|b| (60..=80).contains(&b)), "{screen}");
}

#[test]
fn progress_shows_on_a_terminal_and_not_in_a_pipe() {
    // Linear conflict: left to the solver, IDA* would take a cached database and finish.
    let args =
        ["solve", "-a", "idastar", "--heuristic", "linear-conflict", "--timeout", "2.5", SLOW_4];
    let (code, screen) = on_a_terminal(&args);
    assert_eq!(code, 4, "{screen}");
    assert!(screen.contains("nodes, ") && screen.contains("/s, "), "no progress line: {screen}");
    assert!(screen.contains("bound "), "{screen}");
    // In a pipe: nothing of it, on stdout or stderr.
    let run = npuzzle(&args);
    assert_eq!(run.code, 4);
    assert!(!run.stderr.contains("/s, ") && !run.stdout.contains("/s, "), "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    // Unless asked for: then plain lines, one a second.
    let mut asked = args.to_vec();
    asked.push("--progress");
    let run = npuzzle(&asked);
    assert!(
        run.stderr.lines().any(|l| l.starts_with("npuzzle: progress: bound ")),
        "{}",
        run.stderr
    );
    // --quiet keeps the terminal clean of it.
    let mut quiet = args.to_vec();
    quiet.push("--quiet");
    let (_, screen) = on_a_terminal(&quiet);
    assert!(!screen.contains("/s, "), "{screen}");
}

/// The near-optimal engine's progress line says the best answer so far and the bound it
/// proved, as they improve: an 8x8, whose engine has a path within half a second and goes on
/// improving it for seconds.
#[test]
fn the_progress_line_shows_the_near_engines_best_answer_so_far() {
    let scramble = npuzzle(&["scramble", "--size", "8x8", "--seed", "3"]);
    assert_eq!(scramble.code, 0, "{}", scramble.stderr);
    let board = scramble.stdout.trim();
    let run = npuzzle(&[
        "solve",
        "-a",
        "near",
        "--timeout",
        "4",
        "--progress",
        "-f",
        "json",
        "--",
        board,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = &run.json_lines()[0];
    let (last, best, bound) = last_best_and_bound(&run.stderr);
    assert!(record["length"].as_u64().unwrap() <= best, "{last}: {record}");
    assert!(record["lower_bound"].as_u64().unwrap() >= bound, "{last}: {record}");
    // The engine counts its nodes only at the end: no "0 nodes" on the line.
    assert!(!last.contains("nodes"), "{last}");
}

/// The last plain progress line with a best length ("npuzzle: progress: best 515, bound 341,
/// 1.0 s"), its best length and its bound, checked to be in that form with the bound below.
fn last_best_and_bound(stderr: &str) -> (&str, u64, u64) {
    let last = stderr
        .lines()
        .rfind(|l| l.starts_with("npuzzle: progress: best "))
        .unwrap_or_else(|| panic!("no best answer so far: {stderr}"));
    let numbers: Vec<u64> = last
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .take(2)
        .map(|w| w.parse().unwrap())
        .collect();
    let (best, bound) = (numbers[0], numbers[1]);
    assert!(last.contains(&format!("best {best}, bound {bound}, ")), "{last}");
    assert!(bound < best, "{last}");
    (last, best, bound)
}

/// On an 8x8 a hint is a near-optimal solve of seconds: `--progress` shows its best path so
/// far and its bound, as `solve`'s line does; the hint's distance is no longer.
#[test]
fn a_hints_progress_line_shows_its_best_path_so_far() {
    let scramble = npuzzle(&["scramble", "--size", "8x8", "--seed", "3"]);
    assert_eq!(scramble.code, 0, "{}", scramble.stderr);
    let board = scramble.stdout.trim();
    let run = npuzzle(&["hint", "--timeout", "4", "--progress", "-f", "json", "--", board]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = &run.json_lines()[0];
    let (last, best, _) = last_best_and_bound(&run.stderr);
    assert!(record["distance"].as_u64().unwrap() <= best, "{last}: {record}");
    assert_eq!(record["exact"], false, "{record}");
    // Without --progress (stderr is not a terminal here): no line; -q with it: a usage error.
    let quiet = npuzzle(&["hint", "--timeout", "2", "--", board]);
    assert_eq!((quiet.code, quiet.stderr.as_str()), (0, ""));
    let both = npuzzle(&["hint", "-q", "--progress", "1 2 3/4 5 6/7 0 8"]);
    assert_eq!(both.code, 2, "{}", both.stderr);
}

/// Runs the binary with `args`, sends it SIGINT (Ctrl-C) after `millis`, and returns its exit
/// status, stdout and stderr.
fn interrupted_after(args: &[&str], millis: u64) -> (Option<i32>, String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    std::thread::sleep(std::time::Duration::from_millis(millis));
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code(), text(out.stdout), text(out.stderr))
}

#[test]
fn ctrl_c_cancels_the_search_and_the_batch_and_says_how_far_it_got() {
    let file = scratch_file(
        "cancel-batch.txt",
        &format!("1 2 3/4 5 6/7 0 8\n1 2/0 3\n{SLOW_4}\n{SLOW_4}\n"),
    );
    // Linear conflict: left to the solver, IDA* would take a cached database and finish.
    // 1.5 s: long enough for the first two boards, far from the 60 s the third needs at least.
    let args = ["solve", "-a", "idastar", "--heuristic", "linear-conflict", "-f", "json", "-i"];
    let mut args = args.to_vec();
    args.push(file.to_str().unwrap());
    let (code, stdout, stderr) = interrupted_after(&args, 1500);
    assert_eq!(code, Some(4), "{stderr}");
    let records: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 3, "{stdout}");
    assert_eq!(
        (records[0]["status"].as_str(), records[1]["status"].as_str()),
        (Some("solved"), Some("solved"))
    );
    let cancelled = &records[2];
    assert_eq!(cancelled["status"], "limit");
    let bound = cancelled["lower_bound"].as_u64().expect("a lower bound");
    assert!(bound >= 50, "{cancelled}");
    let error = cancelled["error"].as_str().unwrap();
    assert!(
        error.starts_with("search cancelled after ")
            && error.ends_with(&format!(" (lower bound {bound})")),
        "{error}"
    );
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.last(), Some(&"npuzzle: cancelled: 2 of 4 boards done"), "{stderr}");
    assert!(
        lines[0].starts_with("npuzzle: line 3: limit reached: search cancelled after "),
        "{stderr}"
    );
}

/// An anytime search (`--improve`) stopped by Ctrl-C answers with its best answer so far,
/// which replays, and says why the status is 4.
#[test]
fn ctrl_c_ends_an_anytime_search_with_its_best_answer_and_says_so() {
    let board = npuzzle(&["scramble", "--size", "6x6", "--seed", "7"]).stdout;
    // Its first answer comes within milliseconds; the anytime rounds would go on for 60 s.
    let args = ["solve", "--improve", "60", "-f", "json", "--", board.trim()];
    let (code, stdout, stderr) = interrupted_after(&args, 2000);
    assert_eq!(code, Some(4), "{stderr}");
    let record: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        (record["status"].as_str(), record["algorithm"].as_str()),
        (Some("solved"), Some("near"))
    );
    assert!(record["seconds"].as_f64().unwrap() < 30.0, "{record}");
    let goal = record["goal"].as_str().unwrap();
    assert_replays(board.trim(), goal, record["moves"].as_str().unwrap());
    assert_eq!(
        stderr.lines().last(),
        Some("npuzzle: cancelled: the answer given is the best found before the interrupt"),
        "{stderr}"
    );
}

#[test]
fn a_batch_summary_counts_statuses_and_a_length_mismatch_fails_the_run() {
    let file = scratch_file(
        "summary.txt",
        &format!("1 2 3/4 5 6/7 0 8 | 1\n1 2 3/4 5 6/0 7 8 | 3\n{UNSOLVABLE_3}\n1 1\n"),
    );
    // One bad line rejects the file: nothing is solved, so there is nothing to sum up.
    let run = npuzzle(&["solve", "--summary", "-f", "moves", "-i", file.to_str().unwrap()]);
    run.assert_fails(2, "summary.txt: line 4: 2 tiles in one row");
    assert_eq!((run.stdout.as_str(), run.stderr.lines().count()), ("", 1));
    let file =
        scratch_file("summary-ok.txt", "1 2 3/4 5 6/7 0 8 | 1\n1 2 3/4 5 6/0 7 8 | 3\n1 2/0 3\n");
    let run = npuzzle(&["solve", "--summary", "-f", "moves", "-i", file.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines[0],
        "npuzzle: warning: line 2: found an optimal solution of 2 moves but the input says the \
         optimum is 3: one of them is wrong"
    );
    assert!(
        lines[1].starts_with(
            "npuzzle: summary: 3 boards: 3 solved (3 optimal); mean length 1.3; 4 nodes expanded; "
        ),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        "npuzzle: summary: 1 answer contradicts the file's optimal length (line 2)"
    );
    // Without --summary, in a pipe: the warning only, and the same exit status.
    let run = npuzzle(&["solve", "-f", "moves", "-i", file.to_str().unwrap()]);
    assert_eq!((run.code, run.stderr.lines().count()), (1, 1), "{}", run.stderr);
    let run = npuzzle(&["solve", "-q", "-f", "moves", "-i", file.to_str().unwrap()]);
    assert_eq!(run.code, 1);
}

#[test]
fn hint_lists_every_move_with_the_distance_after_it() {
    let run = npuzzle(&["hint", "1 2 3/4 5 6/7 0 8"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "board: 1 2 3/4 5 6/7 0 8  goal: 1 2 3/4 5 6/7 8 0\n\
         distance: 1 move (optimal)\n\
         best: L (tile 8 slides left)\n\
         after each move (exact distances):\n\
         \x20 D  tile 5 slides down   2\n\
         \x20 L  tile 8 slides left   0  best\n\
         \x20 R  tile 7 slides right  2\n"
    );
    let run = npuzzle(&["hint", "--blank", "1 2 3/4 5 6/7 0 8"]);
    assert!(
        run.stdout.contains("best: R (blank moves right (tile 8 slides left))\n"),
        "{}",
        run.stdout
    );
    let run = npuzzle(&["hint", "-f", "json", HARD_3]);
    let r = &run.json_lines()[0];
    assert_eq!((r["distance"].as_u64(), r["exact"].as_bool()), (Some(31), Some(true)));
    for m in r["moves"].as_array().unwrap() {
        let d = m["distance"].as_u64().unwrap();
        assert!(d == 30 || d == 32, "{m}");
        assert_eq!(m["exact"], true);
    }
    let best = r["best"].as_str().unwrap();
    let after: Vec<&Value> =
        r["moves"].as_array().unwrap().iter().filter(|m| m["move"] == best).collect();
    assert_eq!(after[0]["distance"], 30);
    // Unsolvable: the reason, exit 3.
    let run = npuzzle(&["hint", UNSOLVABLE_3]);
    assert_eq!(run.code, 3);
    assert!(run.stderr.contains("solvable towards snail: use --goal snail"), "{}", run.stderr);
    // Larger boards: a labelled estimate.
    let big = npuzzle(&["scramble", "-s", "7x7", "--seed", "2"]).stdout;
    let run = npuzzle(&["hint", big.trim()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("(a solution found, not proven optimal; lower bound "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "after each move (estimates where not exact: linear-conflict lower bounds):\n"
        )
    );
    assert!(run.stdout.contains(" (estimate)"));
}

#[test]
fn moves_in_compact_and_blank_notations_and_the_multi_tile_metric() {
    let run = npuzzle(&["solve", "-f", "compact", HARD_3, "1 2 3/4 5 6/0 7 8"]);
    assert_eq!(run.stdout, "D2LUR2UL2DR2DL2URURD2LU2RD2L2U2\nL2\n");
    let run = npuzzle(&["solve", "-f", "moves", "--blank", "1 2 3/4 5 6/0 7 8"]);
    assert_eq!(run.stdout, "RR\n");
    let run = npuzzle(&["solve", "-f", "compact", "--blank", "1 2 3/4 5 6/0 7 8"]);
    assert_eq!(run.stdout, "R2\n");
    let run = npuzzle(&["solve", "--blank", "1 2 3/4 5 6/0 7 8"]);
    assert!(run.stdout.ends_with("moves (blank directions): RR\ncompact (blank directions): R2\nmulti-tile metric: 1 move\n"), "{}", run.stdout);
    let run = npuzzle(&["solve", "-f", "json", HARD_3]);
    let r = &run.json_lines()[0];
    assert_eq!(r["compact"], "D2LUR2UL2DR2DL2URURD2LU2RD2L2U2");
    assert_eq!(r["multi_tile_length"], 21);
    assert_eq!(r["moves"], "DDLURRULLDRRDLLURURDDLUURDDLLUU", "JSON keeps tile directions");
    let run = npuzzle(&["solve", HARD_3]);
    assert!(
        run.stdout
            .contains("\ncompact: D2LUR2UL2DR2DL2URURD2LU2RD2L2U2\nmulti-tile metric: 21 moves\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_full_stderr_never_panics_a_solve() {
    for args in [
        &["solve", UNSOLVABLE_3][..],
        &["solve", "-a", "bfs", "--max-nodes", "5", HARD_3],
        &["solve", "1 1"],
        &["hint", UNSOLVABLE_3],
    ] {
        let (code, _) = npuzzle_to(args, Stdio::null(), dev_full());
        assert!((2..=4).contains(&code), "{args:?} exited {code}");
    }
}

#[test]
fn the_table_and_the_reduction_solver_honour_the_node_and_memory_limits() {
    let run = npuzzle(&["solve", "--max-nodes", "10", "-f", "json", HARD_3]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!((r["algorithm"].as_str(), r["lower_bound"].as_u64()), (Some("table"), Some(31)));
    assert_eq!(r["error"], "node limit of 10 reached (lower bound 31)");
    let big = npuzzle(&["scramble", "-s", "20x20", "--seed", "1"]).stdout;
    let run =
        npuzzle(&["solve", "-a", "reduction", "--max-nodes", "100", "-f", "json", big.trim()]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert_eq!(run.json_lines()[0]["error"], "node limit of 100 reached (lower bound 5132)");
    // `auto` gives that board to the near-optimal engine, which says the bound it proved
    // (Manhattan distance and linear conflicts: above the reduction solver's Manhattan).
    let run = npuzzle(&["solve", "--max-nodes", "100", "-f", "json", big.trim()]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["algorithm"], "near");
    let bound = r["lower_bound"].as_u64().unwrap();
    assert!(bound > 5132, "{r}");
    assert_eq!(r["error"], format!("node limit of 100 reached (lower bound {bound})"));
    let huge = npuzzle(&["scramble", "-s", "256x256", "--seed", "1"]).stdout;
    let run = npuzzle_with_stdin(&["solve", "--max-memory", "64", "-f", "json"], Some(&huge));
    assert_eq!(run.code, 4, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert!(
        r["error"].as_str().unwrap().starts_with("memory limit of 64 MiB reached"),
        "{}",
        r["error"]
    );
    assert!(run.stderr.contains("raise --max-memory (it was 64 MiB)"), "{}", run.stderr);
}

#[test]
fn the_anytime_mode_stops_as_soon_as_its_answer_meets_the_lower_bound() {
    let run = npuzzle(&["solve", "-a", "reduction", "--improve", "3", "-f", "json", "1 2/0 3"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert_eq!(r["length"], 1);
    // As long as its proven lower bound: optimal, with nothing to excuse.
    assert_eq!(r["optimal"], true);
    assert!(r.get("note").is_none_or(serde_json::Value::is_null), "{r}");
}

/// Runs the binary under `/usr/bin/time` and returns its exit status, its stderr (without
/// time's line) and its peak resident memory in bytes.
fn peak_memory(args: &[&str], stdin: Option<&str>) -> (i32, String, u64) {
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "peak-kb %M", env!("CARGO_BIN_EXE_npuzzle")])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("/usr/bin/time runs (scripts/test installs it)");
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.unwrap_or_default().as_bytes()).unwrap();
    drop(pipe);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let (rest, peak) = stderr.trim_end().rsplit_once("peak-kb ").expect("time's report");
    (out.status.code().unwrap_or(-1), rest.to_string(), peak.parse::<u64>().unwrap() * 1024)
}

#[test]
fn the_memory_limit_holds_for_the_whole_process() {
    let mib = |n: u64| n << 20;
    // Breadth-first search of a random 15-puzzle: it runs into any limit.
    let (code, stderr, peak) = peak_memory(
        &["solve", "-a", "bfs", "--max-memory", "64", "-g", "blank-first", KORF_1],
        None,
    );
    assert_eq!(code, 4, "{stderr}");
    assert!(
        stderr.starts_with("npuzzle: limit reached: memory limit of 64 MiB reached after "),
        "{stderr}"
    );
    assert!(peak <= mib(64), "peak {peak} bytes over 64 MiB");
    // Depth-first search of a batch on two threads: the searches' freed memory goes back.
    let boards = npuzzle(&["scramble", "-n", "6", "--seed", "5"]).stdout;
    let (code, stderr, peak) = peak_memory(
        &["solve", "-a", "dfs", "--threads", "2", "--max-memory", "128", "-q", "-f", "moves"],
        Some(&boards),
    );
    assert!(code == 0 || code == 4, "{stderr}");
    assert!(peak <= mib(128), "peak {peak} bytes over 128 MiB");
    // And the limit is not far from what the process may really use: A* solves this board
    // in 256 MiB (it stopped at a quarter of that when the count was three times too high).
    let (code, stderr, peak) = peak_memory(
        &["solve", "-a", "astar", "--max-memory", "256", "-g", "blank-first", KORF_1],
        None,
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(peak <= mib(256));
}

#[test]
fn a_memory_hungry_search_stops_within_its_time_limit() {
    // Breadth-first search grows its closed set by rehashing, which no check interrupts: it
    // must not start a rehash it cannot finish in time (3 s became 4.8 s).
    let run = npuzzle(&[
        "solve",
        "-a",
        "bfs",
        "--timeout",
        "2",
        "-g",
        "blank-first",
        "-f",
        "json",
        KORF_1,
    ]);
    assert_eq!(run.code, 4, "{}", run.stderr);
    let r = &run.json_lines()[0];
    assert!(r["error"].as_str().unwrap().starts_with("time limit of 2 s reached"), "{r}");
    let seconds = r["seconds"].as_f64().unwrap();
    assert!(seconds <= 2.5, "a 2 s limit took {seconds} s");
}

#[test]
fn a_long_batch_streams_instead_of_being_held() {
    // 4 MiB of 2x2 boards (half a million): holding them as jobs took 36 times the text
    // (a 64 MiB file reached 2.3 GB); streamed, the process holds the text and little else.
    let text = "1 2/3 0\n".repeat((4 << 20) / 8);
    let (code, stderr, peak) = peak_memory(&["solve", "-q", "-f", "moves"], Some(&text));
    assert_eq!(code, 0, "{stderr}");
    assert!(peak <= 40 << 20, "peak {} MiB for a 4 MiB batch", peak >> 20);
}

#[test]
fn bench_only_runs_the_chosen_instances_under_their_file_numbers() {
    let file = scratch_file(
        "bench-only.txt",
        "# goal: blank-first\n1 2 0/3 4 5/6 7 8 | 2\n1 0 2/3 4 5/6 7 8 | 1\n3 1 2/0 4 5/6 7 8 | 1\n",
    );
    let run = npuzzle(&["bench", file.to_str().unwrap(), "--only", "3,1", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.json_lines();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["index"], 1);
    assert_eq!(lines[0]["length"], 2);
    assert_eq!(lines[1]["index"], 3);
    assert_eq!(lines[2]["instances"], 2);
    let run = npuzzle(&["bench", file.to_str().unwrap(), "--only", "4"]);
    run.assert_fails(2, "has 3 instances, not 4");
    let run = npuzzle(&["bench", file.to_str().unwrap(), "--only", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

/// Honest labels through the command line: every algorithm with every heuristic on a 3x3, a
/// 3x4 and a 4x4 board answers with the algorithm and heuristic asked for, or with a note
/// that says what ran instead and why.
#[test]
fn every_algorithm_and_heuristic_is_what_ran_or_a_note_says_why() {
    let boards =
        "7 5 3/1 2 8/4 0 6\n1 2 3 4/5 6 0 8/9 10 7 11\n5 1 2 3/9 6 7 4/13 10 11 8/14 0 15 12\n";
    let algorithms = npuzzle_solver::Algorithm::NAMES;
    let heuristics = npuzzle_solver::Heuristic::NAMES;
    for &a in algorithms {
        for &h in heuristics {
            let args = ["solve", "-f", "json", "-a", a, "--heuristic", h, "--max-nodes", "300000"];
            let run = npuzzle_with_stdin(&args, Some(boards));
            let at = format!("-a {a} --heuristic {h}");
            let records = run.json_lines();
            assert_eq!(records.len(), 3, "{at}: {}", run.stderr);
            for r in records {
                let board = r["board"].as_str().unwrap_or_default().to_string();
                if r["status"] == "invalid" {
                    // The table engine refuses boards of more than 9 cells, as documented.
                    assert_eq!(a, "table", "{at} {board}: {r}");
                    assert!(r["error"].as_str().unwrap().contains("at most 9 cells"), "{r}");
                    continue;
                }
                let note = r["note"].as_str().unwrap_or("");
                if r["status"] == "solved" {
                    assert_replays(
                        &board,
                        r["goal"].as_str().unwrap(),
                        r["moves"].as_str().unwrap(),
                    );
                    if a != "auto" {
                        assert!(r["algorithm"] == a || !note.is_empty(), "{at} {board}: {r}");
                    }
                }
                if h != "auto" && r["status"] != "unsolvable" {
                    assert!(r["heuristic"] == h || !note.is_empty(), "{at} {board}: {r}");
                }
                let informed = ["greedy", "astar", "wastar", "idastar"].contains(&a);
                if informed && (h == "walking-distance" || h == "pdb") {
                    assert_eq!(r["heuristic"], h, "{at} {board}: {r}");
                }
            }
        }
    }
}

/// A 5x5 answered without Korf & Felner's tables (an empty cache) says once how to build
/// them, in `solve` and in `bench`; not with `solve --quiet`, not for a 4x4, and not for a 5x5 whose goal they cannot serve
/// (its blank not in a corner).
#[test]
fn a_5x5_without_korf_and_felners_tables_says_how_to_build_them() {
    let dir = std::env::temp_dir().join(format!("npuzzle-cli-kf-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let board = "3 19 24 9 8/11 7 12 2 4/17 23 20 18 6/16 5 1 14 21/0 15 10 13 22";
    let advice = "npuzzle: note: 5x5 answers come out shorter (and more often optimal) with \
                  Korf & Felner's tables; build them once (about half a minute, 181 MB): \
                  npuzzle pdb build --partition korf-felner";
    let two = format!("{board}\n{board}\n");
    let input = dir.join("boards.txt");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&input, two).unwrap();
    let run = npuzzle_in(&dir, &["solve", "--timeout", "2", "--input", input.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().filter(|l| *l == advice).count(), 1, "{}", run.stderr);
    // And `bench`, where people measure the engine.
    let run = npuzzle_in(&dir, &["bench", input.to_str().unwrap(), "--timeout", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stderr.lines().filter(|l| *l == advice).count(), 1, "{}", run.stderr);
    let quiet = npuzzle_in(&dir, &["solve", "-q", "--timeout", "2", board]);
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    assert!(!quiet.stderr.contains("korf-felner"), "{}", quiet.stderr);
    // The blank in the middle of the goal: the tables serve only goals with a corner blank.
    let centre = "1 2 3 4 5/6 7 8 9 10/11 12 0 13 14/15 16 17 18 19/20 21 22 23 24";
    let run = npuzzle_in(&dir, &["solve", "--timeout", "2", "--goal", centre, board]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("korf-felner"), "{}", run.stderr);
    let run =
        npuzzle_in(&dir, &["solve", "--timeout", "2", "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"]);
    assert!(!run.stderr.contains("korf-felner"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
