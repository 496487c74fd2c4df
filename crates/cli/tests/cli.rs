//! The `npuzzle` binary, driven as scripts drive it: arguments in, text and exit status out.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use npuzzle_core::{Board, Goal, Moves};
use serde_json::Value;

/// `npuzzle play` in a pseudo-terminal.
mod play;

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

/// The cache directory of this test run.
fn test_cache() -> PathBuf {
    std::env::temp_dir().join(format!("npuzzle-cli-cache-{}", std::process::id()))
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
    // A file name given where a board goes gets a hint.
    let path = scratch_file("not-a-board.txt", "1 2 3/4 5 6/7 0 8\n");
    npuzzle(&["solve", path.to_str().unwrap()]).assert_fails(2, "use --input FILE");
}

#[test]
fn bad_flags_exit_2_with_one_line() {
    for (args, reason) in [
        (&["solve", "--algorithm", "quantum", HARD_3][..], "unknown algorithm \"quantum\""),
        (&["solve", "--heuristic", "psychic", HARD_3], "unknown heuristic \"psychic\""),
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
        (&["scramble"], "--size is required"),
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

/// `npuzzle serve`: prints its URL, answers, logs the request, and exits 0 on Ctrl-C.
#[cfg(unix)]
#[test]
fn serve_prints_its_url_answers_and_stops_cleanly_on_ctrl_c() {
    use std::io::{BufRead, BufReader, Read};
    use std::net::TcpStream;
    use std::time::{Duration, Instant};

    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["serve", "--addr", "127.0.0.1:0", "--workers", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut line).expect("a line");
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"));
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    assert!(host.starts_with("127.0.0.1:") && !host.ends_with(":0"), "{line}");
    let mut stream = TcpStream::connect(host).expect("the server listens");
    stream.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    write!(stream, "GET /healthz HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
        .expect("sent");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("an answer");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"status\":\"ok\""), "{answer}");

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
    let mut log = String::new();
    child.stderr.take().expect("piped").read_to_string(&mut log).expect("the log");
    assert!(log.contains("/healthz") && log.contains("status=200"), "no request log: {log}");
    assert!(!log.contains('\u{1b}'), "colour codes in a log that is not a terminal: {log}");
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
    assert!(
        built.stderr.starts_with("npuzzle: built the 4-4 pattern database"),
        "{}",
        built.stderr
    );
    let again = npuzzle_in(&dir, &["pdb", "build", "--size", "3x3", "--partition", "4-4"]);
    assert!(again.stdout.contains("already built and sound"), "{}", again.stdout);
    let list = npuzzle_in(&dir, &["pdb", "list"]);
    assert!(list.stdout.contains("3x3-blank-last-4-4-"), "{}", list.stdout);
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
    let _ = std::fs::remove_dir_all(&dir);
}
