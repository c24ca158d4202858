//! Slows down a client stuck in a loop of rejected lines, without dropping it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Rejected lines in a row that are answered at full speed.
const FREE_REJECTIONS: u32 = 20;
/// The pace after that: about 100 lines a second.
const PACED_DELAY: Duration = Duration::from_millis(10);

/// Counts a client's rejected lines in a row. Written by whoever answers the client
/// (its reader thread, its game), read by its reader thread before each line.
#[derive(Debug, Default)]
pub struct Pacer {
    rejected_in_a_row: AtomicU32,
}

impl Pacer {
    /// Records that a line of this client was rejected.
    pub fn rejected(&self) {
        self.rejected_in_a_row.fetch_add(1, Ordering::Relaxed);
    }

    /// Records that a line of this client was accepted: full speed again.
    pub fn accepted(&self) {
        self.rejected_in_a_row.store(0, Ordering::Relaxed);
    }

    /// How long the reader should wait before taking the next line.
    pub fn delay(&self) -> Option<Duration> {
        (self.rejected_in_a_row.load(Ordering::Relaxed) >= FREE_REJECTIONS).then_some(PACED_DELAY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paces_after_a_burst_and_recovers_on_an_accepted_line() {
        let pacer = Pacer::default();
        for _ in 0..FREE_REJECTIONS - 1 {
            pacer.rejected();
        }
        assert_eq!(pacer.delay(), None);
        pacer.rejected();
        assert_eq!(pacer.delay(), Some(PACED_DELAY));
        pacer.accepted();
        assert_eq!(pacer.delay(), None);
    }
}
