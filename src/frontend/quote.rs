//! Client text put back on a server line: on one line, so that it cannot break the
//! protocol's line, and, quoted in an error message, short and printable so that the
//! reason stays readable. Pure; shared by every front end's protocol module.

/// The most characters of client text a reason quotes.
pub const MAX_QUOTE_CHARS: usize = 40;

/// `text` as a reason quotes it: control characters shown escaped as Rust writes
/// them (`\r`, `\t`, `\u{7}`), so a stray carriage return or tab is visible, and a
/// quote longer than [`MAX_QUOTE_CHARS`] characters (escapes counted) cut short with
/// `...`.
pub fn clip(text: &str) -> String {
    let mut clipped = String::new();
    let mut shown = 0;
    for c in text.chars() {
        let piece = escaped_char(c);
        shown += piece.chars().count();
        if shown > MAX_QUOTE_CHARS {
            clipped.push_str("...");
            break;
        }
        clipped.push_str(&piece);
    }
    clipped
}

/// `text` whole, with its control characters escaped as [`clip`] shows them: for a
/// person at a terminal, where an escape sequence a client sent must not run.
pub fn escaped(text: &str) -> String {
    text.chars().map(escaped_char).collect()
}

/// A character as quoted: itself, or escaped if it is a control character.
fn escaped_char(c: char) -> String {
    if c.is_control() {
        c.escape_default().collect()
    } else {
        c.to_string()
    }
}

/// `text` as one printable line: control characters (a tab, a bell, a line break)
/// become blanks.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_short_and_on_one_line() {
        assert_eq!(clip("short"), "short");
        assert_eq!(clip("a\tb\u{7}c\rd"), "a\\tb\\u{7}c\\rd");
        assert_eq!(clip(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
        assert_eq!(clip(&"é".repeat(40)), "é".repeat(40));
        // Escapes count towards the bound: nine bells are 45 characters escaped.
        assert_eq!(
            clip(&"\u{7}".repeat(9)),
            format!("{}...", "\\u{7}".repeat(8))
        );
    }

    #[test]
    fn escaped_text_is_whole_and_runs_no_terminal_sequence() {
        let line = format!("MOVE{}[2J{}", '\u{1b}', "x".repeat(50));
        assert_eq!(
            escaped(&line),
            format!("MOVE\\u{{1b}}[2J{}", "x".repeat(50))
        );
    }

    #[test]
    fn one_line_keeps_every_character_on_the_line() {
        assert_eq!(one_line("a\tb\u{7}c\r\nd é"), "a b c  d é");
    }
}
