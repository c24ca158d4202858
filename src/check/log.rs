//! A case's wire log: every line sent and received by each of its clients, with the
//! milliseconds since the case began, and the checker's notes between them. Shared by
//! the case's clients (a robustness case has several threads); bounded in lines and in
//! the length of each, so a flood or a megabyte line keeps it small.

use parking_lot::Mutex;
use serde::Serialize;
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// The most entries a case keeps; later ones are counted, not kept.
pub const MAX_ENTRIES: usize = 2_000;

/// The most characters of one line a log keeps; the rest is counted.
pub const MAX_TEXT_CHARS: usize = 300;

/// What an entry records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// A line the client sent (`A>` in the text form).
    Sent,
    /// A line the client received (`A<`).
    Received,
    /// Something that happened to the connection, or a remark of the checker's (`#`).
    Note,
}

/// One entry of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// Milliseconds since the case began.
    pub ms: u64,
    /// Which client: `A`, `B`, ... (empty for the checker's own notes).
    pub who: String,
    /// Sent, received, or a note.
    pub direction: Direction,
    /// The line (control characters shown escaped), or the note.
    pub text: String,
}

impl fmt::Display for Entry {
    /// `   12 ms  A> HANDSHAKE+Ann`, `   15 ms  A< ACKNOWLEDGE_HANDSHAKE+1+1`,
    /// `   20 ms  # B: closed by the server`: the notation of the docs' transcripts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:>6} ms  ", self.ms)?;
        match self.direction {
            Direction::Sent => write!(f, "{}> {}", self.who, self.text),
            Direction::Received => write!(f, "{}< {}", self.who, self.text),
            Direction::Note if self.who.is_empty() => write!(f, "# {}", self.text),
            Direction::Note => write!(f, "# {}: {}", self.who, self.text),
        }
    }
}

/// A case's log, shared by its clients.
#[derive(Clone, Debug)]
pub struct WireLog {
    began: Instant,
    inner: Arc<Mutex<Kept>>,
}

#[derive(Debug, Default)]
struct Kept {
    entries: Vec<Entry>,
    dropped: usize,
}

impl WireLog {
    /// An empty log whose clock starts now.
    pub fn new() -> WireLog {
        WireLog {
            began: Instant::now(),
            inner: Arc::default(),
        }
    }

    /// When the case began.
    pub fn began(&self) -> Instant {
        self.began
    }

    /// Records an entry (or counts it, past [`MAX_ENTRIES`]).
    pub fn record(&self, who: &str, direction: Direction, text: &str) {
        let ms = u64::try_from(self.began.elapsed().as_millis()).unwrap_or(u64::MAX);
        let entry = Entry {
            ms,
            who: who.to_string(),
            direction,
            text: shown(text),
        };
        let mut kept = self.inner.lock();
        if kept.entries.len() < MAX_ENTRIES {
            kept.entries.push(entry);
        } else {
            kept.dropped += 1;
        }
    }

    /// A note of the checker's, about no one client.
    pub fn note(&self, text: &str) {
        self.record("", Direction::Note, text);
    }

    /// The entries kept, and a last note for those that were not.
    pub fn entries(&self) -> Vec<Entry> {
        let kept = self.inner.lock();
        let mut entries = kept.entries.clone();
        if kept.dropped > 0 {
            entries.push(Entry {
                ms: entries.last().map_or(0, |e| e.ms),
                who: String::new(),
                direction: Direction::Note,
                text: format!("{} more entries were not kept", kept.dropped),
            });
        }
        entries
    }
}

impl Default for WireLog {
    fn default() -> Self {
        WireLog::new()
    }
}

/// `text` as the log keeps it: control characters escaped (a `\r` stays visible), at
/// most [`MAX_TEXT_CHARS`] characters and the length of the rest.
pub fn shown(text: &str) -> String {
    let mut out = String::new();
    for (chars, (at, c)) in text.char_indices().enumerate() {
        if chars >= MAX_TEXT_CHARS {
            out.push_str(&format!("... ({} more bytes)", text.len() - at));
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_like_the_docs_transcripts_and_stay_bounded() {
        let log = WireLog::new();
        log.record("A", Direction::Sent, "HANDSHAKE+Ann");
        log.record("A", Direction::Received, "ACKNOWLEDGE_HANDSHAKE+1+1\r");
        log.record("B", Direction::Note, "closed by the server");
        log.note("the server is alive");
        let lines: Vec<String> = log
            .entries()
            .iter()
            .map(|e| {
                e.to_string()
                    .split_once("ms  ")
                    .map(|(_, t)| t.to_string())
                    .unwrap_or_default()
            })
            .collect();
        assert_eq!(
            lines,
            [
                "A> HANDSHAKE+Ann",
                "A< ACKNOWLEDGE_HANDSHAKE+1+1\\r",
                "# B: closed by the server",
                "# the server is alive"
            ]
        );
        let long = "x".repeat(1_000_000);
        for _ in 0..MAX_ENTRIES {
            log.record("A", Direction::Received, &long);
        }
        let entries = log.entries();
        assert_eq!(entries.len(), MAX_ENTRIES + 1);
        assert!(entries[4].text.ends_with("... (999700 more bytes)"));
        assert_eq!(entries[MAX_ENTRIES].text, "4 more entries were not kept");
    }
}
