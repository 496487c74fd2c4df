//! Text that must fit: word wrapping and shortening for lines of a known width.
//!
//! Widths are counted in chars: every character the game draws (digits, letters, arrows,
//! box drawing, `≥`, `…`) takes one cell.

/// `text` in lines of at most `width` chars, broken between words; a word longer than a
/// line is cut. At least one line (empty for an empty text).
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let mut word = word.to_string();
        loop {
            let used = line.chars().count();
            let len = word.chars().count();
            let room = if used == 0 { width } else { width.saturating_sub(used + 1) };
            if len <= room {
                if used > 0 {
                    line.push(' ');
                }
                line.push_str(&word);
                break;
            }
            if used > 0 {
                lines.push(std::mem::take(&mut line));
                continue;
            }
            // A word longer than a whole line: cut it.
            let head: String = word.chars().take(width).collect();
            word = word.chars().skip(width).collect();
            lines.push(head);
            if word.is_empty() {
                break;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `text` cut to `width` chars, ending with `…` when something was cut.
pub(crate) fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    if width == 0 {
        return String::new();
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// The width of `text` in cells.
pub(crate) fn width(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_between_words_and_cuts_long_ones() {
        assert_eq!(
            wrap("slide the tiles up to the blank", 12),
            ["slide the", "tiles up to", "the blank"]
        );
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(wrap("a b", 0), ["a", "b"]);
        for width in 1..30 {
            for line in wrap("press + again for a new 5x5 board (this game ends)", width) {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
    }

    #[test]
    fn fit_marks_a_cut() {
        assert_eq!(fit("to goal ≥ 23", 20), "to goal ≥ 23");
        assert_eq!(fit("to goal ≥ 23", 6), "to go…");
        assert_eq!(fit("abc", 0), "");
    }
}
