//! The network layer: lines, limits and timeouts. Shared by every front end; knows
//! nothing of Go, Spectrangle or any protocol, nor of what the front ends keep per
//! client (its report card): it imports std, `crossbeam-channel`, `parking_lot`,
//! `libc`, `log` and, of this crate, only the two small base modules `shutdown` and
//! `workers`.
//!
//! - [`listener`]: the accept loop: one named OS thread per connection, a cap on how
//!   many are open, a clean stop.
//! - [`connections`]: opens connections (unique ids, the shared flusher).
//! - [`connection`]: the shared handle on one client: its outbox, pacer, counters.
//! - [`attachments`]: what a front end attaches to a connection (one value per type),
//!   which this layer keeps and never reads.
//! - [`reader`]: the read loop of a connection thread; a front end says what a line
//!   means and how long a read may wait.
//! - [`line_reader`]: reads `\n`-terminated lines with a length bound.
//! - [`outbox`]: writes that never block the caller, with a bound on what may queue
//!   up and on how long a client may leave its output unread.
//! - [`flusher`]: the one thread that retries output a slow client has not taken yet.
//! - [`pacer`]: slows down a client stuck in a loop of rejected lines.
//! - [`handoff`]: the one ordered, bounded path from a client's lines to the thread
//!   that answers them.
//! - [`close`]: why the server closed a connection.
//! - [`deadline`]: a socket read bounded by one deadline for all it reads.

pub mod attachments;
pub mod close;
pub mod connection;
pub mod connections;
pub mod deadline;
pub mod flusher;
pub mod handoff;
pub mod line_reader;
pub mod listener;
pub mod outbox;
pub mod pacer;
pub mod reader;

pub use attachments::Attachments;
pub use close::CloseReason;
pub(crate) use connection::OutputHold;
pub use connection::{ConnId, Connection, Message};
pub use connections::Connections;
pub use deadline::DeadlineReader;
pub use handoff::{Awaited, Brake, Depth, Inbox, Refused, Ticket, inbox, ticket};
pub use line_reader::{Incoming, LineReader, ReadError};
pub use listener::{AcceptLimits, AcceptThread, accept_loop};
pub use outbox::{Outbox, OutboxLimits};
pub use reader::{Handled, IDLE_READ_BOUND, Lines, identify_wait, read_lines};

use std::time::Duration;

/// Bounds on what one client may send.
#[derive(Clone, Copy, Debug)]
pub struct LineLimits {
    /// A longer line is answered as too long and discarded.
    pub max_line_bytes: usize,
    /// What becomes of a line longer than that.
    pub overlong: Overlong,
}

/// What becomes of a line longer than [`LineLimits::max_line_bytes`]. Either way only
/// the bound is ever held in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlong {
    /// Reported when its newline arrives; a client that sends more than `flood_bytes`
    /// without one is disconnected (GO!'s hard bound).
    ReportAtNewline { flood_bytes: usize },
    /// Reported once, as soon as it passes the bound; the rest of it, however long, is
    /// thrown away up to its newline (Spectrangle: an error and the connection goes
    /// on; Bkgo: garbage at once).
    ReportAtOnce,
}

impl Default for LineLimits {
    fn default() -> Self {
        LineLimits {
            max_line_bytes: 4096,
            overlong: Overlong::ReportAtNewline {
                flood_bytes: 64 * 1024,
            },
        }
    }
}

impl LineLimits {
    /// These bounds, with an over-long line reported at once (see [`Overlong`]).
    pub fn reporting_at_once(self) -> LineLimits {
        LineLimits {
            overlong: Overlong::ReportAtOnce,
            ..self
        }
    }
}

/// How long a client may leave its output unread before it is disconnected.
pub const OUTPUT_STALL_TIMEOUT: Duration = Duration::from_secs(5);
