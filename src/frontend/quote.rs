//! Client text quoted back in an error message: short, printable and on one line, so
//! that a reason stays readable and the client's text cannot break the protocol's
//! line. Pure; shared by every front end's protocol module.

/// The most characters of client text a reason quotes.
pub const MAX_QUOTE_CHARS: usize = 40;

/// `text` as a reason quotes it: control characters (a tab, a bell, ...) become
/// blanks, and text longer than [`MAX_QUOTE_CHARS`] ends in `...`.
pub fn clip(text: &str) -> String {
    let mut clipped: String = text
        .chars()
        .take(MAX_QUOTE_CHARS)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if text.chars().count() > MAX_QUOTE_CHARS {
        clipped.push_str("...");
    }
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_short_and_on_one_line() {
        assert_eq!(clip("short"), "short");
        assert_eq!(clip("a\tb\u{7}c\nd"), "a b c d");
        assert_eq!(clip(&"x".repeat(50)), format!("{}...", "x".repeat(40)));
        assert_eq!(clip(&"é".repeat(40)), "é".repeat(40));
    }
}
