//! Client text put back on a server line: on one line, so that it cannot break the
//! protocol's line, and, quoted in an error message, short and printable so that the
//! reason stays readable. Pure; shared by every front end's protocol module.

/// The most characters of client text a reason quotes.
pub const MAX_QUOTE_CHARS: usize = 40;

/// `text` as a reason quotes it: control characters shown escaped as Rust writes
/// them (`\r`, `\t`, `\u{7}`), so the student sees what was really sent, and text
/// longer than [`MAX_QUOTE_CHARS`] characters cut short with `...`.
pub fn clip(text: &str) -> String {
    let mut clipped = String::new();
    for (count, c) in text.chars().enumerate() {
        if count == MAX_QUOTE_CHARS {
            clipped.push_str("...");
            break;
        }
        if c.is_control() {
            clipped.extend(c.escape_default());
        } else {
            clipped.push(c);
        }
    }
    clipped
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
    }

    #[test]
    fn one_line_keeps_every_character_on_the_line() {
        assert_eq!(one_line("a\tb\u{7}c\r\nd é"), "a b c  d é");
    }
}
