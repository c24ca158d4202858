//! Text put into HTML, escaped: shared by the views that write pages (the web board,
//! the checker's report), so that a client's text shows as text and runs nothing.

/// `text` with the five characters that mean something in HTML escaped.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            c => escaped.push(c),
        }
    }
    escaped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hostile_name_is_text() {
        assert_eq!(
            escape("<img src=x onerror=\"alert('1')\"> & co"),
            "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co"
        );
    }
}
