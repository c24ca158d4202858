//! The one shutdown trigger. SIGINT/SIGTERM, the console's `shutdown` and Ctrl-C or
//! Ctrl-D at the prompt all call [`Shutdown::trigger`]; everyone else notices.
//!
//! The signal is a channel that is only ever dropped: when the trigger drops its
//! senders, every receiver (each game loop's `select!`, the flusher) wakes up at once.
//! It is spread over [`SIGNAL_SHARDS`] channels, each with one sender, so that hundreds
//! of game loops do not all wait on one channel's lock.

use crossbeam_channel::{Receiver, Sender, bounded};
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A cloneable handle on the server's shutdown.
#[derive(Clone)]
pub struct Shutdown {
    inner: Arc<Inner>,
}

struct Inner {
    triggered: AtomicBool,
    /// Dropped by `trigger`; never used to send. One per shard of the signal.
    senders: Mutex<Vec<Sender<()>>>,
    /// The signal's shards (see [`Shutdown::signal_for`]).
    signals: Vec<Receiver<()>>,
}

/// How many channels the signal is spread over: a game loop waits on it every time
/// round, and hundreds of loops waiting on one channel would queue at its lock.
pub const SIGNAL_SHARDS: usize = 16;

impl Default for Shutdown {
    fn default() -> Self {
        Shutdown::new()
    }
}

impl Shutdown {
    /// A shutdown that has not been triggered.
    pub fn new() -> Shutdown {
        let (senders, signals) = (0..SIGNAL_SHARDS).map(|_| bounded(0)).unzip();
        Shutdown {
            inner: Arc::new(Inner {
                triggered: AtomicBool::new(false),
                senders: Mutex::new(senders),
                signals,
            }),
        }
    }

    /// Starts the shutdown. Calling it again does nothing.
    pub fn trigger(&self) {
        if !self.inner.triggered.swap(true, Ordering::SeqCst) {
            log::info!("shutting down");
        }
        self.inner.senders.lock().clear();
    }

    /// Whether the shutdown has started.
    pub fn is_triggered(&self) -> bool {
        self.inner.triggered.load(Ordering::SeqCst)
    }

    /// A receiver that becomes ready (disconnected) when the shutdown starts; for
    /// `select!`.
    pub fn signal(&self) -> Receiver<()> {
        self.signal_for(0)
    }

    /// [`Shutdown::signal`] for a loop that waits on it every time round (a game
    /// loop): `key` (its game's number) spreads such loops over the signal's channels.
    pub fn signal_for(&self, key: u64) -> Receiver<()> {
        let shard = usize::try_from(key).unwrap_or(0) % SIGNAL_SHARDS;
        self.inner.signals[shard].clone()
    }

    /// Blocks until the shutdown starts.
    pub fn wait(&self) {
        // Nothing is ever sent: this returns when the senders are dropped.
        let _ = self.inner.signals[0].recv();
    }
}

/// Joins `thread` if it ends by `deadline`; else leaves it behind (it ends with the
/// process) and says so in the log, naming it `what`. Returns whether it ended. Every
/// step of the shutdown joins this way, so that one stuck thread cannot keep the
/// server from stopping on time.
pub fn join_by<T>(thread: JoinHandle<T>, deadline: Instant, what: &str) -> bool {
    while !thread.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    if thread.is_finished() {
        let _ = thread.join();
        true
    } else {
        log::warn!("{what} did not stop in time: left behind");
        false
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
        assert!((0..40).all(|key| shutdown.signal_for(key).recv().is_err()));
    }

    #[test]
    fn a_thread_that_does_not_stop_is_left_behind_at_the_deadline() {
        let quick = std::thread::spawn(|| ());
        assert!(join_by(
            quick,
            Instant::now() + Duration::from_secs(20),
            "quick"
        ));
        let (_keep, stuck) = bounded::<()>(0);
        let stuck = std::thread::spawn(move || {
            let _ = stuck.recv_timeout(Duration::from_secs(5));
        });
        let began = Instant::now();
        assert!(!join_by(stuck, began + Duration::from_millis(50), "stuck"));
        assert!(began.elapsed() < Duration::from_secs(4));
    }
}
