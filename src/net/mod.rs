//! The network layer: lines, limits and timeouts. Shared by every front end; knows
//! nothing of Go, Spectrangle or any protocol.
//!
//! - [`listener`]: the accept loop: one named OS thread per connection, a cap on how
//!   many are open, a clean stop.
//! - [`connections`]: opens connections (unique ids, the shared flusher).
//! - [`connection`]: the shared handle on one client: its outbox, pacer, counters.
//! - [`reader`]: the read loop of a connection thread; a front end says what a line
//!   means and how long a read may wait.
//! - [`line_reader`]: reads `\n`-terminated lines with a length bound.
//! - [`outbox`]: writes that never block the caller, with a bound on what may queue
//!   up and on how long a client may leave its output unread.
//! - [`flusher`]: the one thread that retries output a slow client has not taken yet.
//! - [`pacer`]: slows down a client stuck in a loop of rejected lines.

pub mod connection;
pub mod connections;
pub mod flusher;
pub mod line_reader;
pub mod listener;
pub mod outbox;
pub mod pacer;
pub mod reader;

pub use connection::{ConnId, Connection, Message};
pub use connections::Connections;
pub use line_reader::{Incoming, LineReader, ReadError};
pub use listener::{AcceptLimits, accept_loop};
pub use outbox::{Outbox, OutboxLimits};
pub use reader::{IDLE_READ_BOUND, Lines, identify_wait, read_lines};

use std::time::Duration;

/// Bounds on what one client may send.
#[derive(Clone, Copy, Debug)]
pub struct LineLimits {
    /// A longer line is answered as too long and discarded.
    pub max_line_bytes: usize,
    /// A client that sends this many bytes without a newline is disconnected.
    pub flood_bytes: usize,
}

impl Default for LineLimits {
    fn default() -> Self {
        LineLimits {
            max_line_bytes: 4096,
            flood_bytes: 64 * 1024,
        }
    }
}

/// How long a client may leave its output unread before it is disconnected.
pub const OUTPUT_STALL_TIMEOUT: Duration = Duration::from_secs(5);
