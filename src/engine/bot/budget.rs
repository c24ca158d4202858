//! How long the bot may think: a deadline, a number of playouts, or both.
//!
//! Owns the limits and the arithmetic on them (is there time for one more playout, how
//! many more are likely); knows nothing of Go. The only clock is the deadline the
//! caller passes in: tests give a playout count instead, so they are deterministic.

use std::time::{Duration, Instant};

/// A limit on one search. Always bounded: every constructor sets a deadline or a
/// number of playouts, and the search stops at whichever comes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Answer by this instant.
    deadline: Option<Instant>,
    /// Run at most this many playouts.
    playouts: Option<u32>,
}

impl Budget {
    /// Think until `deadline` (a move is returned by then).
    pub fn until(deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            playouts: None,
        }
    }

    /// Run at most `playouts` playouts, however long they take.
    pub fn playouts(playouts: u32) -> Budget {
        Budget {
            deadline: None,
            playouts: Some(playouts),
        }
    }

    /// The same budget, also stopping at `deadline`.
    pub fn with_deadline(self, deadline: Instant) -> Budget {
        Budget {
            deadline: Some(deadline),
            ..self
        }
    }

    /// The same budget, also stopping after `playouts` playouts.
    pub fn with_playouts(self, playouts: u32) -> Budget {
        Budget {
            playouts: Some(playouts),
            ..self
        }
    }

    /// Whether the budget has a deadline (else only a number of playouts).
    pub(super) fn has_deadline(&self) -> bool {
        self.deadline.is_some()
    }

    /// The part of this budget a level uses, from `now` on: `share` of the time left
    /// until the deadline and of the playouts (at least one), and at most
    /// `max_playouts` playouts.
    pub(super) fn share(self, share: f64, max_playouts: Option<u32>, now: Instant) -> Budget {
        let deadline = self
            .deadline
            .map(|deadline| now + deadline.saturating_duration_since(now).mul_f64(share));
        let scaled = self.playouts.map(|playouts| {
            let part = (f64::from(playouts) * share).ceil() as u32;
            part.clamp(playouts.min(1), playouts)
        });
        let playouts = match (scaled, max_playouts) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget { deadline, playouts }
    }

    /// How many more playouts fit, `done` having been run since `started`, at `now`.
    ///
    /// Against a deadline the next playouts are assumed to take as long as the past
    /// ones did on average, so a search never starts a playout it cannot finish in time;
    /// the first one is always allowed if the deadline is still ahead.
    pub(super) fn playouts_left(&self, done: u32, started: Instant, now: Instant) -> u64 {
        let by_count = self
            .playouts
            .map_or(u64::MAX, |max| u64::from(max.saturating_sub(done)));
        let by_clock = self.deadline.map_or(u64::MAX, |deadline| {
            let remaining = deadline.saturating_duration_since(now);
            if remaining.is_zero() {
                return 0;
            }
            let spent = now.saturating_duration_since(started);
            let each = spent.checked_div(done).unwrap_or(Duration::ZERO);
            if each.is_zero() {
                // No measure yet (or too fast to measure): allow one more.
                return 1;
            }
            u64::try_from(remaining.as_nanos() / each.as_nanos()).unwrap_or(u64::MAX)
        });
        by_count.min(by_clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_of_the_budget() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let half = Budget::until(t0 + ms(100)).share(0.5, None, t0);
        assert_eq!(half, Budget::until(t0 + ms(50)));
        let capped = Budget::until(t0 + ms(100)).share(0.5, Some(7), t0);
        assert_eq!(capped, Budget::until(t0 + ms(50)).with_playouts(7));
        assert_eq!(
            Budget::playouts(1000).share(0.05, Some(200), t0),
            Budget::playouts(50)
        );
        assert_eq!(
            Budget::playouts(10000).share(0.05, Some(200), t0),
            Budget::playouts(200)
        );
        // A share of a few playouts still runs one; none stays none.
        assert_eq!(
            Budget::playouts(3).share(0.05, None, t0),
            Budget::playouts(1)
        );
        assert_eq!(
            Budget::playouts(0).share(0.5, None, t0),
            Budget::playouts(0)
        );
        // A deadline already past stays past.
        let late = Budget::until(t0).share(0.5, None, t0 + ms(10));
        assert_eq!(late.playouts_left(0, t0, t0 + ms(10)), 0);
    }

    #[test]
    fn playouts_left() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        // (budget, done, elapsed since t0, expected playouts left)
        let table = [
            (Budget::playouts(10), 0, ms(0), 10),
            (Budget::playouts(10), 7, ms(50), 3),
            (Budget::playouts(10), 12, ms(50), 0),
            (Budget::playouts(0), 0, ms(0), 0),
            // 10 playouts in 10 ms: 1 ms each, 90 ms left.
            (Budget::until(t0 + ms(100)), 10, ms(10), 90),
            (Budget::until(t0 + ms(100)), 0, ms(0), 1),
            (Budget::until(t0 + ms(100)), 0, ms(99), 1),
            (Budget::until(t0 + ms(100)), 5, ms(100), 0),
            (Budget::until(t0 + ms(100)), 5, ms(300), 0),
            // The tighter of the two limits wins.
            (
                Budget::until(t0 + ms(100)).with_playouts(20),
                10,
                ms(10),
                10,
            ),
            (
                Budget::playouts(1000).with_deadline(t0 + ms(100)),
                10,
                ms(10),
                90,
            ),
        ];
        for (budget, done, elapsed, left) in table {
            assert_eq!(
                budget.playouts_left(done, t0, t0 + elapsed),
                left,
                "{budget:?} after {done} playouts in {elapsed:?}"
            );
        }
    }
}
