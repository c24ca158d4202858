//! How long a client takes to move once told it is its turn: a histogram of fixed
//! size, counted with atomics (a game loop records a move without a lock), read as
//! p50, p99 and the exact maximum.

use super::counters::Counters;
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Buckets per doubling: a time is known to within 2^(1/4), about 19%.
const STEPS_PER_DOUBLING: u32 = 4;

/// Doublings covered from 1 µs: 2^38 µs is three days, longer than any turn.
const DOUBLINGS: u32 = 38;

const BUCKETS: usize = (STEPS_PER_DOUBLING * DOUBLINGS) as usize + 1;

/// Move times of one client.
pub struct MoveTimes {
    /// Taken at the first move: a client that never moves costs no histogram.
    buckets: Counters<BUCKETS>,
    max_micros: AtomicU64,
}

/// What a card shows of its move times, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct TimesSummary {
    /// Moves timed.
    pub count: u64,
    /// Half of them were quicker (to about 19%; `None` before the first).
    pub p50_ms: Option<f64>,
    /// 99 in 100 were quicker.
    pub p99_ms: Option<f64>,
    /// The slowest, exactly.
    pub max_ms: Option<f64>,
}

impl Default for MoveTimes {
    fn default() -> Self {
        MoveTimes {
            buckets: Counters::default(),
            max_micros: AtomicU64::new(0),
        }
    }
}

impl MoveTimes {
    /// Counts one move that took `took`.
    pub fn record(&self, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.buckets.add(bucket(micros), 1);
        self.max_micros.fetch_max(micros, Ordering::Relaxed);
    }

    /// Adds `other`'s moves to these (a client's moves before it had a name).
    pub fn absorb(&self, other: &MoveTimes) {
        self.buckets.absorb(&other.buckets);
        self.max_micros
            .fetch_max(other.max_micros.load(Ordering::Relaxed), Ordering::Relaxed);
    }

    /// p50, p99 and the maximum, as they are now.
    pub fn summary(&self) -> TimesSummary {
        let counts = self.buckets.all();
        let count: u64 = counts.iter().sum();
        if count == 0 {
            return TimesSummary::default();
        }
        let max = self.max_micros.load(Ordering::Relaxed);
        // Each quantile is its bucket's upper edge, never above the exact maximum.
        let quantile = |q: f64| {
            let rank = ((q * count as f64).ceil() as u64).clamp(1, count);
            let mut seen = 0;
            for (index, n) in counts.iter().enumerate() {
                seen += n;
                if seen >= rank {
                    return millis(upper_edge(index).min(max));
                }
            }
            millis(max)
        };
        TimesSummary {
            count,
            p50_ms: Some(quantile(0.5)),
            p99_ms: Some(quantile(0.99)),
            max_ms: Some(millis(max)),
        }
    }
}

/// The bucket of a time of `micros`: 0 for under a microsecond, then
/// [`STEPS_PER_DOUBLING`] per doubling.
fn bucket(micros: u64) -> usize {
    if micros == 0 {
        return 0;
    }
    let doublings = 63 - micros.leading_zeros();
    // The next two bits below the leading one say where in its doubling it falls.
    let within = if doublings >= 2 {
        (micros >> (doublings - 2)) & 0b11
    } else {
        (micros << (2 - doublings)) & 0b11
    };
    let index = doublings * STEPS_PER_DOUBLING + within as u32 + 1;
    (index as usize).min(BUCKETS - 1)
}

/// The largest time (in µs) that falls in bucket `index`.
fn upper_edge(index: usize) -> u64 {
    if index == 0 {
        return 0;
    }
    let index = index as u32 - 1;
    let (doublings, within) = (
        index / STEPS_PER_DOUBLING,
        u64::from(index % STEPS_PER_DOUBLING),
    );
    let base = 1u64 << doublings;
    // The doubling split in four equal steps (rounded up: the first doublings have
    // fewer than four whole microseconds).
    base + (base * (within + 1)).div_ceil(4) - 1
}

fn millis(micros: u64) -> f64 {
    // Whole tenths of a millisecond: enough for a human, stable in tests.
    (micros as f64 / 100.0).round() / 10.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_time_falls_in_a_bucket_whose_edge_is_at_least_it() {
        for micros in [1, 2, 3, 4, 5, 7, 8, 100, 999, 1000, 1_000_000, 30_000_000] {
            let b = bucket(micros);
            assert!(upper_edge(b) >= micros, "{micros} in {b}");
            assert!(b == 0 || upper_edge(b - 1) < micros, "{micros} in {b}");
        }
    }

    #[test]
    fn quantiles_are_within_a_fifth_and_the_maximum_is_exact() {
        let times = MoveTimes::default();
        assert_eq!(times.summary(), TimesSummary::default());
        for ms in 1..=100 {
            times.record(Duration::from_millis(ms));
        }
        times.record(Duration::from_micros(2_345_678));
        let summary = times.summary();
        assert_eq!(summary.count, 101);
        let p50 = summary.p50_ms.unwrap_or_default();
        assert!((50.0..=60.0).contains(&p50), "{p50}");
        let p99 = summary.p99_ms.unwrap_or_default();
        assert!((99.0..=120.0).contains(&p99), "{p99}");
        assert_eq!(summary.max_ms, Some(2345.7));
        let other = MoveTimes::default();
        other.record(Duration::from_secs(5));
        times.absorb(&other);
        assert_eq!(times.summary().count, 102);
        assert_eq!(times.summary().max_ms, Some(5000.0));
    }
}
