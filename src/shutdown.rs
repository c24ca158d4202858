//! The one shutdown trigger. SIGINT/SIGTERM, the console's `shutdown` and Ctrl-C or
//! Ctrl-D at the prompt all call [`Shutdown::trigger`]; everyone else notices.
//!
//! The signal is a channel that is only ever dropped: when the trigger drops the one
//! sender, every receiver (each game loop's `select!`, the flusher) wakes up at once.

use crossbeam_channel::{Receiver, Sender, bounded};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A cloneable handle on the server's shutdown.
#[derive(Clone)]
pub struct Shutdown {
    inner: Arc<Inner>,
}

struct Inner {
    triggered: AtomicBool,
    /// Dropped by `trigger`; never used to send.
    sender: Mutex<Option<Sender<()>>>,
    signal: Receiver<()>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

impl Shutdown {
    /// A shutdown that has not been triggered.
    pub fn new() -> Shutdown {
        let (sender, signal) = bounded(0);
        Shutdown {
            inner: Arc::new(Inner {
                triggered: AtomicBool::new(false),
                sender: Mutex::new(Some(sender)),
                signal,
            }),
        }
    }

    /// Starts the shutdown. Calling it again does nothing.
    pub fn trigger(&self) {
        if !self.inner.triggered.swap(true, Ordering::SeqCst) {
            log::info!("shutting down");
        }
        self.inner.sender.lock().take();
    }

    /// Whether the shutdown has started.
    pub fn is_triggered(&self) -> bool {
        self.inner.triggered.load(Ordering::SeqCst)
    }

    /// A receiver that becomes ready (disconnected) when the shutdown starts; for
    /// `select!`.
    pub fn signal(&self) -> Receiver<()> {
        self.inner.signal.clone()
    }

    /// Blocks until the shutdown starts.
    pub fn wait(&self) {
        // Nothing is ever sent: this returns when the sender is dropped.
        let _ = self.inner.signal.recv();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trigger_wakes_every_waiter_once_and_for_all() {
        let shutdown = Shutdown::new();
        let waiter = {
            let shutdown = shutdown.clone();
            std::thread::spawn(move || shutdown.wait())
        };
        assert!(!shutdown.is_triggered());
        shutdown.trigger();
        shutdown.trigger();
        assert!(waiter.join().is_ok());
        assert!(shutdown.is_triggered());
        assert!(shutdown.signal().recv().is_err());
    }
}
