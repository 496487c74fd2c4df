//! The terminal session, in a real pseudo-terminal: a panic on the UI thread must leave the
//! terminal usable (main screen, no mouse reporting, a visible cursor) and the panic
//! message readable.
//!
//! The test runs this very test binary again inside tmux, where an environment variable
//! makes it the child: it takes over the terminal, draws, and panics.

use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use npuzzle_tui::Session;
use ratatui::widgets::Paragraph;

const CHILD: &str = "NPUZZLE_TUI_TEST_PANIC_CHILD";
const PATIENCE: Duration = Duration::from_secs(30);

fn tmux(socket: &str, args: &[&str]) -> String {
    let out = Command::new("tmux")
        .args(["-L", socket])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("tmux runs (apt-get install tmux; scripts/test does it)");
    assert!(out.status.success(), "tmux {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 from tmux")
}

#[test]
fn a_panic_restores_the_terminal_and_its_message_is_readable() {
    if std::env::var_os(CHILD).is_some() {
        let mut session = Session::start().expect("a terminal");
        session
            .terminal
            .draw(|frame| frame.render_widget(Paragraph::new("the game is on"), frame.area()))
            .expect("drawn");
        sleep(Duration::from_millis(300));
        panic!("deliberate panic for the test");
    }
    let socket = format!("npuzzle-tui-test-{}", std::process::id());
    let me = std::env::current_exe().expect("the test binary");
    let script = format!(
        "{CHILD}=1 \"$0\" --exact a_panic_restores_the_terminal_and_its_message_is_readable --nocapture; echo \"exit status $?\"; exec sleep 600"
    );
    let me = me.to_str().expect("a utf-8 path");
    tmux(
        &socket,
        &["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", "sh", "-c", &script, me],
    );
    let deadline = Instant::now() + PATIENCE;
    let screen = loop {
        let screen = tmux(&socket, &["capture-pane", "-p", "-J"]);
        if screen.contains("exit status") {
            break screen;
        }
        assert!(Instant::now() < deadline, "the child did not end:\n{screen}");
        sleep(Duration::from_millis(50));
    };
    let modes = tmux(
        &socket,
        &["display-message", "-p", "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"],
    );
    let path = tmux(&socket, &["display-message", "-p", "#{socket_path}"]);
    let _ = Command::new("tmux").args(["-L", &socket, "kill-server"]).output();
    let _ = std::fs::remove_file(path.trim());
    assert!(screen.contains("deliberate panic for the test"), "{screen}");
    assert!(!screen.contains("the game is on"), "the game's screen is gone:\n{screen}");
    assert!(!screen.contains("exit status 0"), "a panic fails the child:\n{screen}");
    assert_eq!(modes.trim(), "0 0 1", "{screen}");
}
