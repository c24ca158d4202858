//! Reads lines from a byte stream, with a bound on their length.

use super::Overlong;
use std::io::{self, Read};

/// What one call to [`LineReader::next_line`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A complete line, without its `\n` or a trailing `\r`.
    Line(String),
    /// A line longer than the limit: its bytes were discarded (see
    /// [`super::Overlong`] for when this is reported).
    TooLong,
    /// A line that is not valid UTF-8.
    NotUtf8,
}

/// Why no more lines will come.
#[derive(Debug)]
pub enum ReadError {
    /// The peer closed (or reset) the connection, or we shut it down.
    Closed,
    /// No byte arrived within the read timeout.
    TimedOut,
    /// The peer sent more than `limit` bytes without a newline.
    Flood { limit: usize },
    /// Any other socket error.
    Io(io::Error),
}

/// Splits a byte stream into lines. Holds at most `max_line_bytes` (and a line's `\r`)
/// plus one read chunk.
pub struct LineReader<R> {
    source: R,
    /// Bytes read but not yet returned as a line.
    buffer: Vec<u8>,
    /// How much of `buffer` is known to hold no `\n`.
    scanned: usize,
    /// Bytes thrown away of the current over-long line (0 when not discarding).
    discarded: usize,
    /// Whether the current over-long line has been reported already.
    reported: bool,
    /// The bytes of the last line that was not UTF-8 (see [`LineReader::not_text`]).
    not_text: Vec<u8>,
    /// Whether the last line returned ended in `\r\n` (see [`LineReader::ended_in_cr`]).
    ended_in_cr: bool,
    limits: super::LineLimits,
}

const CHUNK: usize = 1024;

impl<R: Read> LineReader<R> {
    /// Wraps `source`.
    pub fn new(source: R, limits: super::LineLimits) -> Self {
        LineReader {
            source,
            buffer: Vec::new(),
            scanned: 0,
            discarded: 0,
            reported: false,
            not_text: Vec::new(),
            ended_in_cr: false,
            limits,
        }
    }

    /// The source read from (to set its deadline, say).
    pub fn source_mut(&mut self) -> &mut R {
        &mut self.source
    }

    /// The bytes of the last line returned as [`Incoming::NotUtf8`], for a front end
    /// that recognises a binary message in them.
    pub fn not_text(&self) -> &[u8] {
        &self.not_text
    }

    /// Whether the last line returned ended in `\r\n` rather than `\n` alone: the `\r`
    /// is taken off the line, and a checker that reports a server's line ends asks here.
    pub fn ended_in_cr(&self) -> bool {
        self.ended_in_cr
    }

    /// The start of a line whose `\n` has not arrived yet: what was read after the
    /// last complete line (nothing while an over-long line is being thrown away).
    pub fn unfinished(&self) -> &[u8] {
        if self.discarded > 0 {
            &[]
        } else {
            &self.buffer
        }
    }

    /// Throws away the start of the unfinished line (what was read after the last
    /// `\n`): the next byte read starts a line. Complete lines read already are kept.
    pub fn drop_unfinished(&mut self) {
        let complete = self
            .buffer
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |newline| newline + 1);
        self.buffer.truncate(complete);
        self.scanned = 0;
    }

    /// Blocks until the next line (or a line event) arrives.
    ///
    /// # Errors
    ///
    /// [`ReadError`] when the stream ends, times out, floods or fails.
    pub fn next_line(&mut self) -> Result<Incoming, ReadError> {
        loop {
            if let Some(offset) = self.buffer[self.scanned..].iter().position(|&b| b == b'\n') {
                let end = self.scanned + offset;
                let mut line: Vec<u8> = self.buffer.drain(..=end).collect();
                self.scanned = 0;
                line.pop();
                self.ended_in_cr = line.last() == Some(&b'\r');
                if self.ended_in_cr {
                    line.pop();
                }
                if self.discarded > 0 || line.len() > self.limits.max_line_bytes {
                    self.discarded = 0;
                    if std::mem::take(&mut self.reported) {
                        // Its end: reported already, the next line starts here.
                        continue;
                    }
                    return Ok(Incoming::TooLong);
                }
                return Ok(match String::from_utf8(line) {
                    Ok(text) => Incoming::Line(text),
                    Err(e) => {
                        self.not_text = e.into_bytes();
                        Incoming::NotUtf8
                    }
                });
            }
            self.scanned = self.buffer.len();
            // A `\r` at the end may be the line's own ending, its `\n` still to come.
            let pending_cr = usize::from(self.buffer.last() == Some(&b'\r'));
            if self.buffer.len() - pending_cr > self.limits.max_line_bytes {
                self.discarded += self.buffer.len();
                self.buffer.clear();
                self.scanned = 0;
                match self.limits.overlong {
                    Overlong::ReportAtNewline { flood_bytes } if self.discarded > flood_bytes => {
                        return Err(ReadError::Flood { limit: flood_bytes });
                    }
                    Overlong::ReportAtOnce if !self.reported => {
                        self.reported = true;
                        return Ok(Incoming::TooLong);
                    }
                    _ => {}
                }
            }
            let mut chunk = [0u8; CHUNK];
            match self.source.read(&mut chunk) {
                Ok(0) => return Err(ReadError::Closed),
                Ok(n) => self.buffer.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(ReadError::TimedOut);
                }
                // A peer that resets its connection has left, like one that closes it.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted
                    ) =>
                {
                    return Err(ReadError::Closed);
                }
                Err(e) => return Err(ReadError::Io(e)),
            }
            // Once a line is known to be too long, keep only what follows it.
            if self.discarded > 0 {
                self.scanned = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::LineLimits;

    fn reader(bytes: &[u8], max: usize, flood: usize) -> LineReader<&[u8]> {
        LineReader::new(
            bytes,
            LineLimits {
                max_line_bytes: max,
                overlong: Overlong::ReportAtNewline { flood_bytes: flood },
            },
        )
    }

    #[test]
    fn splits_lines_and_strips_carriage_returns() {
        let mut r = reader(b"a+b\r\n\nc\n", 100, 1000);
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("a+b".into())));
        assert!(r.ended_in_cr());
        assert_eq!(r.next_line().ok(), Some(Incoming::Line(String::new())));
        assert!(!r.ended_in_cr());
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("c".into())));
        assert!(!r.ended_in_cr());
        assert!(matches!(r.next_line(), Err(ReadError::Closed)));
    }

    #[test]
    fn a_long_line_is_reported_once_and_the_next_line_survives() {
        let mut bytes = vec![b'x'; 5000];
        bytes.extend_from_slice(b"\nMOVE\n");
        let mut r = reader(&bytes, 100, 100_000);
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("MOVE".into())));
        // Also when the whole line arrives in one read.
        let mut r = reader(b"0123456789\nok\n", 5, 100_000);
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("ok".into())));
    }

    #[test]
    fn reported_at_once_a_long_line_is_one_event_however_long() {
        let limits = LineLimits {
            max_line_bytes: 100,
            overlong: Overlong::ReportAtOnce,
        };
        let mut bytes = vec![b'x'; 100_000];
        bytes.extend_from_slice(b"\nnext\n");
        let mut r = LineReader::new(&bytes[..], limits);
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("next".into())));
        // Before its newline has come, and in one read with it too.
        let mut r = LineReader::new(&[b'y'; 5000][..], limits);
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
        assert!(matches!(r.next_line(), Err(ReadError::Closed)));
        let mut r = LineReader::new(
            &b"0123456789012345\nok\n"[..],
            LineLimits {
                max_line_bytes: 5,
                ..limits
            },
        );
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("ok".into())));
    }

    #[test]
    fn a_flood_without_newline_is_an_error() {
        let bytes = vec![b'x'; 10_000];
        let mut r = reader(&bytes, 100, 2000);
        assert!(matches!(
            r.next_line(),
            Err(ReadError::Flood { limit: 2000 })
        ));
    }

    #[test]
    fn invalid_utf8_is_a_line_event() {
        let mut r = reader(b"\xff\xfe\r\nok\n", 100, 1000);
        assert_eq!(r.next_line().ok(), Some(Incoming::NotUtf8));
        assert_eq!(r.not_text(), b"\xff\xfe");
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("ok".into())));
    }

    #[test]
    fn an_unfinished_line_can_be_seen_and_dropped() {
        let mut r = reader(b"one\n\xac\xed\x00", 100, 1000);
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("one".into())));
        // Read in the same chunk as the first line.
        assert_eq!(r.unfinished(), b"\xac\xed\x00");
        assert!(matches!(r.next_line(), Err(ReadError::Closed)));
        assert_eq!(r.unfinished(), b"\xac\xed\x00");
        r.drop_unfinished();
        assert_eq!(r.unfinished(), b"");
    }

    #[test]
    fn a_line_of_the_longest_length_may_have_its_cr_and_lf_arrive_apart() {
        let limits = LineLimits {
            max_line_bytes: 4,
            overlong: Overlong::ReportAtOnce,
        };
        // Two reads: the line and its `\r`, then the `\n`.
        let mut r = LineReader::new(io::Read::chain(&b"abcd\r"[..], &b"\nabcde\r\n"[..]), limits);
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("abcd".into())));
        assert_eq!(r.next_line().ok(), Some(Incoming::TooLong));
    }

    #[test]
    fn dropping_the_unfinished_line_keeps_the_complete_lines_read_with_it() {
        let mut r = reader(b"\xac\xed\x00\n\x05\nPlayer: Jim\n\xac", 100, 1000);
        assert_eq!(r.next_line().ok(), Some(Incoming::NotUtf8));
        r.drop_unfinished();
        assert_eq!(r.next_line().ok(), Some(Incoming::Line("\u{5}".into())));
        assert_eq!(
            r.next_line().ok(),
            Some(Incoming::Line("Player: Jim".into()))
        );
        assert!(matches!(r.next_line(), Err(ReadError::Closed)));
    }
}
