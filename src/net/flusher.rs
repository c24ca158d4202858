//! The one thread that retries output slow clients have not taken yet.
//!
//! Output normally leaves in the caller's own `send`; only a client whose kernel
//! buffers are full ends up here, so this list is almost always empty.

use crossbeam_channel::{Receiver, RecvTimeoutError};
use parking_lot::Mutex;
use std::sync::Weak;
use std::time::{Duration, Instant};

/// How often queued output is retried.
const RETRY_EVERY: Duration = Duration::from_millis(50);

/// How often queued output is retried while the server drains it at shutdown.
const DRAIN_EVERY: Duration = Duration::from_millis(10);

/// What a retry of queued output found.
#[derive(Debug, PartialEq, Eq)]
pub enum FlushState {
    /// Nothing left to send (or the connection is closed): stop watching it.
    Done,
    /// Some output is still queued: retry later.
    Pending,
}

/// Output that could not all be sent at once (an outbox).
pub trait Retry: Send + Sync {
    /// Sends what the kernel takes now; says whether anything is left.
    fn retry(&self, now: Instant) -> FlushState;
}

/// Outboxes with queued output.
#[derive(Default)]
pub struct Flusher {
    watched: Mutex<Vec<Weak<dyn Retry>>>,
}

impl Flusher {
    /// Adds an outbox to retry until its queue is empty.
    pub fn watch(&self, outbox: Weak<dyn Retry>) {
        self.watched.lock().push(outbox);
    }

    /// Retries every watched outbox each `RETRY_EVERY` (50 ms) until `stop` fires (a message
    /// or every sender dropped).
    pub fn run(&self, stop: &Receiver<()>) {
        loop {
            match stop.recv_timeout(RETRY_EVERY) {
                Err(RecvTimeoutError::Timeout) => self.retry_all(),
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Retries every watched outbox until none has output left or `until` passes:
    /// the last lines of a shutdown reach a slow client before its socket closes.
    /// Call it once [`Self::run`] has returned (two retriers would split the list).
    pub fn drain(&self, until: Instant) {
        loop {
            self.retry_all();
            if self.watched.lock().is_empty() || Instant::now() >= until {
                return;
            }
            std::thread::sleep(DRAIN_EVERY);
        }
    }

    fn retry_all(&self) {
        // Take the list so no lock is held while flushing (an outbox may re-register).
        let watched = std::mem::take(&mut *self.watched.lock());
        let now = Instant::now();
        let still_pending: Vec<Weak<dyn Retry>> = watched
            .into_iter()
            .filter(|weak| {
                weak.upgrade()
                    .is_some_and(|outbox| outbox.retry(now) == FlushState::Pending)
            })
            .collect();
        self.watched.lock().extend(still_pending);
    }
}
