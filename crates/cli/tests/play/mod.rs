//! `npuzzle play`, driven in a real pseudo-terminal: tmux runs the binary, the test sends
//! keys (and mouse clicks, as the escape sequences a terminal would send) and reads the
//! screen back with `capture-pane`.
//!
//! Each test runs its own tmux server (`-L`), so it never touches a user's sessions, and
//! kills it when done. tmux must be installed (`scripts/test` installs it when missing).

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long to wait for the screen to show something before the test fails: only a hang
/// or a broken screen gets anywhere near it.
const PATIENCE: Duration = Duration::from_secs(30);

/// One tmux server with one window running a command.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Runs `script` with `sh -c` in a `cols` x `rows` window, with `$0` set to the binary
    /// under test. When the script ends, the window says `exit status N` and stays open, so
    /// the test can read the screen and the terminal's modes after the game.
    fn start(name: &str, cols: u16, rows: u16, script: &str) -> Tmux {
        let version = Command::new("tmux").arg("-V").output();
        assert!(
            version.is_ok_and(|o| o.status.success()),
            "these tests need tmux: apt-get install tmux (scripts/test does it)"
        );
        let tmux = Tmux { socket: format!("npuzzle-test-{}-{name}", std::process::id()) };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let script = format!("{script}; echo \"exit status $?\"; exec sleep 600");
        let binary = env!("CARGO_BIN_EXE_npuzzle");
        tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            &cols,
            "-y",
            &rows,
            "sh",
            "-c",
            &script,
            binary,
        ]);
        tmux
    }

    /// Waits for the game to end, checks its status and that the terminal is back to
    /// normal: main screen, no mouse reporting, a visible cursor.
    #[track_caller]
    fn assert_quit_cleanly(&self) {
        let screen = self.wait_text("exit status");
        assert!(screen.contains("exit status 0"), "{screen}");
        assert!(!screen.contains("puzzle ·"), "the game's screen is gone:\n{screen}");
        assert_eq!(self.format("#{alternate_on} #{mouse_any_flag} #{cursor_flag}"), "0 0 1");
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("tmux runs");
        assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("utf-8 from tmux")
    }

    /// The screen as text, one string per line.
    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p"])
    }

    /// The screen with its colours and attributes as escape sequences.
    fn screen_with_colours(&self) -> String {
        self.run(&["capture-pane", "-p", "-e"])
    }

    /// The game's process id: the game is the only child of the window's shell.
    fn game_pid(&self) -> String {
        let shell = self.format("#{pane_pid}");
        let child = Command::new("pgrep").args(["-P", &shell]).output().expect("pgrep runs");
        let pid = String::from_utf8(child.stdout).expect("utf-8").trim().to_string();
        assert!(!pid.is_empty(), "the game runs under the shell {shell}");
        pid
    }

    /// A tmux format (`#{...}`) about the pane.
    fn format(&self, format: &str) -> String {
        self.run(&["display-message", "-p", format]).trim().to_string()
    }

    fn keys(&self, keys: &[&str]) {
        for key in keys {
            self.run(&["send-keys", key]);
        }
    }

    /// Sends bytes as typed (for mouse reports).
    fn literal(&self, text: &str) {
        self.run(&["send-keys", "-l", text]);
    }

    /// A left click at the zero-based cell (`col`, `row`), as an SGR mouse report.
    fn click(&self, col: u16, row: u16) {
        self.literal(&format!("\x1b[<0;{};{}M", col + 1, row + 1));
        self.literal(&format!("\x1b[<0;{};{}m", col + 1, row + 1));
    }

    /// Waits until the screen satisfies `ok`, and returns it.
    #[track_caller]
    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return screen;
            }
            assert!(Instant::now() < deadline, "waited for {what}; the screen is:\n{screen}");
            sleep(Duration::from_millis(50));
        }
    }

    #[track_caller]
    fn wait_text(&self, text: &str) -> String {
        self.wait_for(text, |s| s.contains(text))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // tmux leaves its socket file behind; remove it too.
        let path = Command::new("tmux")
            .args(["-L", &self.socket, "display-message", "-p", "#{socket_path}"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        let _ = Command::new("tmux").args(["-L", &self.socket, "kill-server"]).output();
        if let Ok(path) = path {
            if !path.is_empty() {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// The panel's line for `label` (`Moves`, `Distance`...), trimmed.
fn panel_value(screen: &str, label: &str) -> Option<String> {
    let line = screen.lines().find(|l| l.contains(&format!("│ {label} ")))?;
    let after = line.split(&format!("│ {label} ")).nth(1)?;
    Some(after.trim_end_matches([' ', '│']).trim().to_string())
}

#[test]
fn play_in_a_terminal_keys_mouse_hint_solve_resize_and_quit() {
    let script = "env -u NO_COLOR \"$0\" play --no-build --seed 1 '1 2 3/4 5 6/0 7 8'";
    let tmux = Tmux::start("keys", 80, 24, script);
    let screen = tmux.wait_text("8-puzzle");
    assert_eq!(tmux.format("#{alternate_on} #{mouse_any_flag}"), "1 1", "{screen}");
    assert_eq!(panel_value(&screen, "Moves").as_deref(), Some("0"));
    // The exact distance arrives from the solver thread.
    tmux.wait_for("distance 2", |s| panel_value(s, "To goal").as_deref() == Some("2"));

    // Colours: tiles are filled with the palette's blue or green.
    let colours = tmux.screen_with_colours();
    assert!(colours.contains("48;5;29") || colours.contains("48;5;25"), "{colours}");

    // The 7 slides left; then the hint names the 8.
    tmux.keys(&["Left"]);
    tmux.wait_for("one move", |s| panel_value(s, "Moves").as_deref() == Some("1"));
    tmux.keys(&["h"]);
    tmux.wait_text("Hint: slide 8 ←");
    tmux.keys(&["u"]);
    tmux.wait_for("undone", |s| panel_value(s, "Moves").as_deref() == Some("0"));

    // A click on the 8 (bottom right) slides the 7 and the 8 left at once. At 80x24 the
    // 3x3 board has 11x5 tiles two columns apart, the first at column 7, row 3 (see
    // layout.rs): the 8's tile spans columns 33-43 and rows 15-19.
    tmux.click(38, 17);
    let screen = tmux.wait_text("Solved!");
    assert_eq!(panel_value(&screen, "Moves").as_deref(), Some("2"), "{screen}");
    assert!(screen.contains("2 moves in"), "{screen}");
    // The card: two moves, the optimum.
    tmux.wait_text("optimal!");

    // Undo both, then let the solver play its solution back.
    tmux.keys(&["u", "s"]);
    let screen = tmux.wait_text("the solver finished");
    assert!(screen.contains("with the solver"), "{screen}");
    assert_eq!(panel_value(&screen, "Moves").as_deref(), Some("2"), "{screen}");

    // Larger: big tiles, and everything redrawn to the new size.
    tmux.keys(&["u"]);
    tmux.run(&["resize-window", "-x", "120", "-y", "40"]);
    let screen = tmux.wait_for("a 120x40 screen", |s| {
        s.lines().nth(39).is_some_and(|l| l.starts_with(" ←↑↓→ move"))
            && s.lines().nth(1).is_some_and(|l| l.trim_end().chars().count() == 120)
    });
    assert!(screen.contains("█"), "big digits on big tiles:\n{screen}");
    // Smaller than the panel needs: the board alone, with a status line for the distance.
    tmux.run(&["resize-window", "-x", "50", "-y", "16"]);
    tmux.wait_for("a 50x16 screen without the panel", |s| {
        s.lines().nth(15).is_some_and(|l| l.starts_with(" ←↑↓→"))
            && !s.contains("Moves")
            && s.lines().nth(14).is_some_and(|l| l.trim_end().ends_with("to goal 1"))
    });

    // q quits, and the terminal is back to normal.
    tmux.keys(&["q"]);
    tmux.assert_quit_cleanly();
}

#[test]
fn no_color_is_monochrome_and_ctrl_c_restores_the_terminal() {
    let tmux = Tmux::start("mono", 80, 24, "NO_COLOR=1 \"$0\" play --no-build --size 4x4 --seed 5");
    tmux.wait_text("15-puzzle");
    // Bold and reverse video, but no colour: no SGR parameter 30-38, 40-48, 90-97 or
    // 100-107 (39 and 49 are the terminal's own defaults).
    let colours = tmux.screen_with_colours();
    let coloured: Vec<&str> = colours
        .split("\x1b[")
        .skip(1)
        .filter_map(|sgr| sgr.split_once('m').map(|(params, _)| params))
        .filter(|params| {
            params
                .split(';')
                .any(|p| matches!(p.parse::<u32>(), Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)))
        })
        .collect();
    assert!(coloured.is_empty(), "colours with NO_COLOR: {coloured:?}");
    assert!(colours.contains("\x1b[1m") || colours.contains(";1m"), "bold is still used");
    tmux.keys(&["C-c"]);
    tmux.assert_quit_cleanly();
}

#[test]
fn sigterm_during_a_playback_restores_the_terminal() {
    // A 5x5 board: the solver answers at once with a long solution to play back.
    let tmux = Tmux::start("term", 100, 30, "\"$0\" play --no-build --size 5x5 --seed 2");
    tmux.wait_text("24-puzzle");
    tmux.keys(&["s"]);
    tmux.wait_text("Solution:");
    let pid = tmux.game_pid();
    let killed = Command::new("kill").args(["-TERM", &pid]).status().expect("kill runs");
    assert!(killed.success(), "kill -TERM {pid:?}");
    tmux.assert_quit_cleanly();
}

#[test]
fn play_refuses_what_it_cannot_play_with_one_line() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        (out.status.code(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (code, err) = run(&["play", "2 1 3/4 5 6/7 8 0"]);
    assert_eq!(code, Some(3), "{err}");
    assert!(err.starts_with("npuzzle: this board cannot reach the goal"), "{err}");
    let (code, err) = run(&["play", "--size", "4x4", "1 2 3/4 5 6/7 8 0"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, "npuzzle: the board is 3x3 but --size says 4x4\n");
    let (code, err) = run(&["play", "--goal", "1 2/3 0", "--size", "3x3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("goal is 2x2 but the board is 3x3"), "{err}");
    let (code, err) = run(&["play", "--size", "3x3"]);
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err, "npuzzle: npuzzle play needs a terminal (stdin and stdout are not both one)\n");
}

#[test]
fn the_game_ends_when_its_terminal_goes_away() {
    // A terminal closed under the game (an ssh drop, a closed window): the game must not
    // stay behind spinning. Killing the tmux server closes the pseudo-terminal; the game,
    // busy with a playback, must exit by itself.
    let tmux = Tmux::start("hangup", 100, 30, "\"$0\" play --no-build --size 5x5 --seed 3");
    tmux.wait_text("24-puzzle");
    tmux.keys(&["s"]);
    tmux.wait_text("Solution:");
    let pid = tmux.game_pid();
    tmux.run(&["kill-server"]);
    let deadline = Instant::now() + PATIENCE;
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // A zombie has exited; only its parent has not collected it yet.
        if state.split(") ").nth(1).is_some_and(|rest| rest.starts_with('Z')) {
            break;
        }
        assert!(Instant::now() < deadline, "npuzzle play (pid {pid}) outlived its terminal");
        sleep(Duration::from_millis(50));
    }
}

/// The lines of a screen, without the spaces that pad them to the terminal's width.
fn lines(screen: &str) -> Vec<&str> {
    screen.lines().map(str::trim_end).collect()
}

#[test]
fn at_40x12_the_card_the_transport_and_the_replays_fit() {
    // The regressions: at 40x12 the title collided, the key line, the hint and the list of
    // keys were cut; and + meant the speed during a playback but the size after it.
    let tmux = Tmux::start("small", 40, 12, "\"$0\" play --no-build --seed 1 '1 2 3/4 5 6/0 7 8'");
    let screen = tmux.wait_for("the exact distance", |s| s.contains("to goal 2"));
    let l = lines(&screen);
    assert_eq!(l[0], " npuzzle               0 moves · 0:00.0", "{screen}");
    assert_eq!(l[11], " u undo  h hint  s solve  n new  ? keys", "{screen}");
    tmux.keys(&["h"]);
    let screen = tmux.wait_text("hint: slide 7 ←");
    assert!(screen.contains("←7"), "an arrow on the hinted tile:\n{screen}");

    // Four moves where two would do: the card says so, over the board.
    tmux.keys(&["Left", "Right", "Left", "Left"]);
    let screen = tmux.wait_text("+2 over optimal (2)");
    assert!(screen.contains("★ Solved!") && screen.contains("4 moves in"), "{screen}");
    assert!(screen.contains("TPS · with hints"), "{screen}");
    assert_eq!(lines(&screen)[11], " m your replay  o optimal  n new  ? keys", "{screen}");

    // The optimal solution on the transport, slowly: < before it sets the speed.
    tmux.keys(&["<", "<", "<", "o", "Space"]);
    let screen = tmux.wait_text("Optimal · ");
    assert!(screen.contains("· 1/s"), "{screen}");
    let screen = tmux.wait_text(" ‖ ");
    let l = lines(&screen);
    assert!(l[10].starts_with(" ‖ ") && l[10].contains("/2 · 1/s ─"), "{screen}");
    assert_eq!(l[11], " space play  ,. step  <> speed  Esc stop", "{screen}");
    // + during a playback is not the speed and deals no board: it says so.
    tmux.keys(&["+"]);
    tmux.wait_text("+ - change the board's size");
    tmux.keys(&["Space"]);
    let screen = tmux.wait_text("the solver's solution, replayed");
    assert!(screen.contains("★ Solved!"), "the card is back:\n{screen}");
    assert!(lines(&screen)[0].contains("4 moves"), "the same game:\n{screen}");

    // Your own solve, at its real speed; Esc stops it and the card comes back.
    tmux.keys(&["m"]);
    tmux.wait_text("Your solve · ");
    tmux.keys(&["Escape"]);
    tmux.wait_text("★ Solved!");
    tmux.keys(&["q"]);
    tmux.assert_quit_cleanly();
}
