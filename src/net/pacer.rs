//! Slows down a client stuck in a loop of rejected lines, without dropping it; and
//! counts how many times in a row it had the same line refused (its report card shows
//! the longest such run).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

/// Rejected lines in a row that are answered at full speed.
pub const FREE_REJECTIONS: u32 = 20;
/// The pace after that: about 100 lines a second.
pub const PACED_DELAY: Duration = Duration::from_millis(10);

/// Counts a client's rejected lines in a row. Written by whoever answers the client
/// (its reader thread, its game), read by its reader thread before each line.
#[derive(Debug, Default)]
pub struct Pacer {
    rejected_in_a_row: AtomicU32,
    /// A hash of the last refused line, and how many times in a row it was refused
    /// (0 after an accepted line). Only the one thread answering the client's line in
    /// flight touches them, so the pair needs no lock.
    last_refused: AtomicU64,
    same_refused: AtomicU64,
}

impl Pacer {
    /// Records that a line of this client was rejected.
    pub fn rejected(&self) {
        self.rejected_in_a_row.fetch_add(1, Ordering::Relaxed);
    }

    /// Records that a line of this client was accepted: full speed again.
    pub fn accepted(&self) {
        self.rejected_in_a_row.store(0, Ordering::Relaxed);
        self.same_refused.store(0, Ordering::Relaxed);
    }

    /// Records that the line whose hash is `line` was refused; returns how many times
    /// in a row this same line has been refused now (1 the first time). `None`: a
    /// line that cannot be told from another (too long, not text) is no run and ends
    /// one.
    pub fn refused_line(&self, line: Option<u64>) -> u64 {
        let Some(line) = line else {
            self.same_refused.store(0, Ordering::Relaxed);
            return 1;
        };
        let run = self.same_refused.load(Ordering::Relaxed);
        let run = if run > 0 && self.last_refused.load(Ordering::Relaxed) == line {
            run + 1
        } else {
            self.last_refused.store(line, Ordering::Relaxed);
            1
        };
        self.same_refused.store(run, Ordering::Relaxed);
        run
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

    #[test]
    fn counts_the_same_refused_line_in_a_row() {
        let pacer = Pacer::default();
        assert_eq!(pacer.refused_line(Some(7)), 1);
        assert_eq!(pacer.refused_line(Some(7)), 2);
        assert_eq!(pacer.refused_line(Some(7)), 3);
        assert_eq!(pacer.refused_line(Some(8)), 1);
        assert_eq!(pacer.refused_line(Some(8)), 2);
        pacer.accepted();
        assert_eq!(pacer.refused_line(Some(8)), 1);
        assert_eq!(pacer.refused_line(Some(8)), 2);
        assert_eq!(pacer.refused_line(None), 1, "a line not kept is no run");
        assert_eq!(pacer.refused_line(None), 1);
        assert_eq!(pacer.refused_line(Some(8)), 1, "and it ended the run");
    }
}
