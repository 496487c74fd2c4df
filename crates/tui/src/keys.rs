//! What a key press means: one [`Action`] per key, whatever the mode.
//!
//! The keymap, and why it looks the way it does:
//! - arrows always move; so do `W A S D` and `H J K L` **with Shift**, because the lowercase
//!   `h` and `s` are the hint and solve keys the game is known by (a lowercase movement
//!   letter gets a one-line reminder instead of a surprise);
//! - `b` or Tab toggles between moving tiles (an arrow names where the tile goes, like the
//!   `U D L R` notation) and moving the blank (an arrow names where the hole goes);
//! - every key means one thing in every mode: `+`/`-` are the board's size and only that,
//!   and the transport of a playback has keys of its own (space, `,` `.` a step back and
//!   forward, `<` `>` slower and faster, as in video players). A `+` meant for the speed once
//!   dealt a new board and threw the solved game away;
//! - the rest are single letters and symbols that no movement key uses.
//!
//! Ctrl-C quits in every mode: in raw mode the terminal sends it as a key, not a signal.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// A direction on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Towards the top.
    Up,
    /// Towards the bottom.
    Down,
    /// Towards the left.
    Left,
    /// Towards the right.
    Right,
}

/// What a key asks for. The mode decides what each action does (see [`crate::App`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Slide a tile (or the blank) this way; in the list of keys, scroll it.
    Move(Direction),
    /// Page Up / Page Down: scroll the list of keys a page.
    Page(Direction),
    /// A lowercase movement letter: remind the player of Shift.
    LowercaseMove(char),
    /// Toggle between moving tiles and moving the blank.
    ToggleBlank,
    /// Take back the last move.
    Undo,
    /// Make the last undone move again.
    Redo,
    /// A new uniformly random solvable board of this size.
    New,
    /// Back to this game's starting position.
    Reset,
    /// `+`: a larger board (never anything else).
    Bigger,
    /// `-`: a smaller board (never anything else).
    Smaller,
    /// Show the next move of an optimal solution.
    Hint,
    /// Solve and play the solution back.
    Solve,
    /// Replay your solve at its real speed (once solved).
    ReplayYours,
    /// Replay the optimal solution from this game's start (once solved).
    ReplayBest,
    /// Pause or resume a playback.
    Pause,
    /// One move of a playback forward.
    StepForward,
    /// One move of a playback back.
    StepBack,
    /// A faster playback.
    Faster,
    /// A slower playback.
    Slower,
    /// Show or hide the list of keys.
    Help,
    /// Leave the current mode (Esc): cancel a solve, stop a playback, close the help. Never
    /// quits: an Esc pressed as a playback ends would end the game too.
    Back,
    /// Quit the game.
    Quit,
}

/// The action of a key press, if it has one. Key releases (which some terminals report) are
/// ignored.
pub fn action(key: KeyEvent) -> Option<Action> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let action = match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        KeyCode::Char('z') if ctrl => Action::Undo,
        KeyCode::Char('y' | 'r') if ctrl => Action::Redo,
        _ if ctrl => return None,
        KeyCode::Up | KeyCode::Char('W' | 'K') => Action::Move(Direction::Up),
        KeyCode::Down | KeyCode::Char('S' | 'J') => Action::Move(Direction::Down),
        KeyCode::Left | KeyCode::Char('A' | 'H') => Action::Move(Direction::Left),
        KeyCode::Right | KeyCode::Char('D' | 'L') => Action::Move(Direction::Right),
        KeyCode::PageUp => Action::Page(Direction::Up),
        KeyCode::PageDown => Action::Page(Direction::Down),
        KeyCode::Char(c @ ('w' | 'a' | 'd' | 'j' | 'k' | 'l')) => Action::LowercaseMove(c),
        KeyCode::Char('b') | KeyCode::Tab | KeyCode::BackTab => Action::ToggleBlank,
        KeyCode::Char('u') | KeyCode::Backspace => Action::Undo,
        KeyCode::Char('y') => Action::Redo,
        KeyCode::Char('n' | 'r') => Action::New,
        KeyCode::Char('0') => Action::Reset,
        KeyCode::Char('+' | '=') => Action::Bigger,
        KeyCode::Char('-' | '_') => Action::Smaller,
        KeyCode::Char('h') => Action::Hint,
        KeyCode::Char('s') => Action::Solve,
        KeyCode::Char('m') => Action::ReplayYours,
        KeyCode::Char('o') => Action::ReplayBest,
        KeyCode::Char(' ' | 'p') => Action::Pause,
        KeyCode::Char('.') => Action::StepForward,
        KeyCode::Char(',') => Action::StepBack,
        KeyCode::Char('>' | ']') => Action::Faster,
        KeyCode::Char('<' | '[') => Action::Slower,
        KeyCode::Char('?') | KeyCode::F(1) => Action::Help,
        KeyCode::Esc => Action::Back,
        KeyCode::Char('q' | 'Q') => Action::Quit,
        _ => return None,
    };
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn arrows_and_shifted_letters_move() {
        for (code, d) in [
            (KeyCode::Up, Direction::Up),
            (KeyCode::Char('W'), Direction::Up),
            (KeyCode::Char('K'), Direction::Up),
            (KeyCode::Down, Direction::Down),
            (KeyCode::Char('S'), Direction::Down),
            (KeyCode::Char('J'), Direction::Down),
            (KeyCode::Left, Direction::Left),
            (KeyCode::Char('A'), Direction::Left),
            (KeyCode::Char('H'), Direction::Left),
            (KeyCode::Right, Direction::Right),
            (KeyCode::Char('D'), Direction::Right),
            (KeyCode::Char('L'), Direction::Right),
        ] {
            assert_eq!(action(key(code)), Some(Action::Move(d)), "{code:?}");
        }
    }

    #[test]
    fn lowercase_h_and_s_are_hint_and_solve() {
        assert_eq!(action(key(KeyCode::Char('h'))), Some(Action::Hint));
        assert_eq!(action(key(KeyCode::Char('s'))), Some(Action::Solve));
        assert_eq!(action(key(KeyCode::Char('a'))), Some(Action::LowercaseMove('a')));
    }

    #[test]
    fn control_keys_are_not_their_letters() {
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        assert_eq!(action(ctrl('c')), Some(Action::Quit));
        assert_eq!(action(ctrl('r')), Some(Action::Redo));
        assert_eq!(action(ctrl('s')), None);
        assert_eq!(action(ctrl('h')), None);
    }

    #[test]
    fn size_and_speed_have_keys_of_their_own() {
        for (c, a) in [
            ('+', Action::Bigger),
            ('=', Action::Bigger),
            ('-', Action::Smaller),
            ('>', Action::Faster),
            (']', Action::Faster),
            ('<', Action::Slower),
            ('[', Action::Slower),
            ('.', Action::StepForward),
            (',', Action::StepBack),
            ('n', Action::New),
            ('r', Action::New),
        ] {
            assert_eq!(action(key(KeyCode::Char(c))), Some(a), "{c}");
        }
    }

    #[test]
    fn releases_are_ignored() {
        let mut k = key(KeyCode::Char('r'));
        k.kind = KeyEventKind::Release;
        assert_eq!(action(k), None);
    }
}
