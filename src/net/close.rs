//! Why the server closed a connection: recorded once, by whoever closed it, and read
//! by the connection's own thread to tell its game how the client left.

use std::fmt;
use std::time::Duration;

/// Why the server closed a connection. Its `Display` is the reason the logs show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CloseReason {
    /// The client asked to leave with this command (GO!'s and Spectrangle's `EXIT`,
    /// Bkgo's `Quitting`).
    LeftWith(&'static str),
    /// The operator kicked it.
    Kicked,
    /// The server is shutting down.
    ShuttingDown,
    /// It left a line of its output unread this long.
    OutputStalled(Duration),
    /// Its unread output passed the outbox's bound.
    OutputQueueFull,
    /// Writing to its socket failed.
    WriteFailed(String),
    /// A line of it was not answered within this long: its game is stuck.
    NotAnswered(Duration),
    /// It let the move clock run out this many turns in a row (Spectrangle).
    MissedTurns(u32),
    /// A reason of the front end's or the read loop's own, in words (garbage, no
    /// HANDSHAKE in time, a flood without a newline, ...).
    Because(String),
}

impl fmt::Display for CloseReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CloseReason::LeftWith(command) => write!(f, "it sent {command}"),
            CloseReason::Kicked => f.write_str("kicked by operator"),
            CloseReason::ShuttingDown => f.write_str("server shutting down"),
            CloseReason::OutputStalled(stall) if stall.subsec_millis() == 0 => {
                write!(f, "it did not read its output for {} s", stall.as_secs())
            }
            CloseReason::OutputStalled(stall) => {
                write!(f, "it did not read its output for {} ms", stall.as_millis())
            }
            CloseReason::OutputQueueFull => f.write_str("it did not read its output (queue full)"),
            CloseReason::WriteFailed(error) => write!(f, "write failed: {error}"),
            CloseReason::NotAnswered(wait) => write!(
                f,
                "its game did not answer its line within {} s",
                wait.as_secs()
            ),
            CloseReason::MissedTurns(turns) => {
                write!(f, "it did not move in time {turns} turns in a row")
            }
            CloseReason::Because(reason) => f.write_str(reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_as_the_logs_show_it() {
        let table = [
            (CloseReason::LeftWith("EXIT"), "it sent EXIT"),
            (CloseReason::Kicked, "kicked by operator"),
            (CloseReason::ShuttingDown, "server shutting down"),
            (
                CloseReason::OutputStalled(Duration::from_secs(5)),
                "it did not read its output for 5 s",
            ),
            (
                CloseReason::OutputStalled(Duration::from_millis(200)),
                "it did not read its output for 200 ms",
            ),
            (
                CloseReason::OutputQueueFull,
                "it did not read its output (queue full)",
            ),
            (
                CloseReason::NotAnswered(Duration::from_secs(30)),
                "its game did not answer its line within 30 s",
            ),
            (
                CloseReason::Because("no JOIN within 1 s".into()),
                "no JOIN within 1 s",
            ),
        ];
        for (reason, text) in table {
            assert_eq!(reason.to_string(), text);
        }
    }
}
