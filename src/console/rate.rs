//! Moves per second over the last minute: a small thread samples the front ends' move
//! counters once a second into a ring of 60 slots.

use crate::server::Server;
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How many one-second samples are kept.
const SLOTS: usize = 60;

/// Samples of (when, moves so far), oldest first.
type Samples = Arc<Mutex<VecDeque<(Instant, u64)>>>;

/// The move rate, fed by a sampler thread until shutdown.
pub struct MoveRate {
    samples: Samples,
}

impl MoveRate {
    /// Starts the sampler thread (`console-rate`), which ends at shutdown.
    pub fn start(server: &Arc<Server>) -> MoveRate {
        let samples: Samples = Arc::default();
        let stop = server.shutdown.signal();
        let server = Arc::clone(server);
        let ring = Arc::clone(&samples);
        let sample = move || {
            let moves: u64 = server.front_ends().iter().map(|f| f.moves_played()).sum();
            // The lock only guards the ring; a panic under it is not reachable.
            let mut ring = ring.lock();
            if ring.len() > SLOTS {
                ring.pop_front();
            }
            ring.push_back((Instant::now(), moves));
        };
        sample();
        let spawned = thread::Builder::new()
            .name("console-rate".into())
            .spawn(move || {
                // Nothing is ever sent: a timeout is a tick, a disconnect is shutdown.
                while let Err(crossbeam_channel::RecvTimeoutError::Timeout) =
                    stop.recv_timeout(Duration::from_secs(1))
                {
                    sample();
                }
            });
        if let Err(e) = spawned {
            log::warn!("cannot start the move-rate sampler: {e}");
        }
        MoveRate { samples }
    }

    /// Moves per second between the oldest and newest samples (at most a minute
    /// apart), and that span; `None` before two samples exist.
    pub fn per_second(&self) -> (Option<f64>, Duration) {
        let ring = self.samples.lock();
        rate(ring.front().copied(), ring.back().copied())
    }
}

fn rate(oldest: Option<(Instant, u64)>, newest: Option<(Instant, u64)>) -> (Option<f64>, Duration) {
    let (Some((t0, m0)), Some((t1, m1))) = (oldest, newest) else {
        return (None, Duration::ZERO);
    };
    let span = t1.saturating_duration_since(t0);
    if span.is_zero() {
        return (None, span);
    }
    #[allow(clippy::cast_precision_loss)]
    let moves = m1.saturating_sub(m0) as f64;
    (Some(moves / span.as_secs_f64()), span)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_over_the_sampled_span() {
        let t0 = Instant::now();
        let t1 = t0 + Duration::from_secs(60);
        assert_eq!(
            rate(Some((t0, 10)), Some((t1, 40))),
            (Some(0.5), Duration::from_secs(60))
        );
        assert_eq!(rate(Some((t0, 1)), Some((t0, 1))).0, None);
        assert_eq!(rate(None, None).0, None);
    }
}
