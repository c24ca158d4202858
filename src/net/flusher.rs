//! The one thread that retries output slow clients have not taken yet.
//!
//! Output normally leaves in the caller's own `send`; only a client whose kernel
//! buffers are full ends up here, so this list is almost always empty.

use super::outbox::{FlushState, Outbox};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use parking_lot::Mutex;
use std::sync::Weak;
use std::time::{Duration, Instant};

/// How often queued output is retried.
const RETRY_EVERY: Duration = Duration::from_millis(50);

/// Outboxes with queued output.
#[derive(Default)]
pub struct Flusher {
    watched: Mutex<Vec<Weak<Outbox>>>,
}

impl Flusher {
    /// Adds an outbox to retry until its queue is empty.
    pub fn watch(&self, outbox: Weak<Outbox>) {
        self.watched.lock().push(outbox);
    }

    /// Retries every watched outbox each [`RETRY_EVERY`] until `stop` fires (a message
    /// or every sender dropped).
    pub fn run(&self, stop: &Receiver<()>) {
        loop {
            match stop.recv_timeout(RETRY_EVERY) {
                Err(RecvTimeoutError::Timeout) => self.retry_all(),
                Ok(()) | Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    fn retry_all(&self) {
        // Take the list so no lock is held while flushing (an outbox may re-register).
        let watched = std::mem::take(&mut *self.watched.lock());
        let now = Instant::now();
        let still_pending: Vec<Weak<Outbox>> = watched
            .into_iter()
            .filter(|weak| {
                weak.upgrade()
                    .is_some_and(|outbox| outbox.flush(now) == FlushState::Pending)
            })
            .collect();
        self.watched.lock().extend(still_pending);
    }
}
