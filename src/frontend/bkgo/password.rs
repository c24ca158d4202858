//! The remote shutdown's gate: judges a password, and answers wrong ones no faster
//! than one a second for the whole server, so guessing cannot be sped up by opening
//! many connections.
//!
//! It does not shut anything down (the connection thread triggers the server's one
//! shutdown) and never logs or shows a password.

use crate::secret::Secret;
use crate::shutdown::Shutdown;
use parking_lot::Mutex;
use std::time::{Duration, Instant};

/// The shortest time between two answers to wrong passwords, server-wide.
pub const WRONG_ANSWER_INTERVAL: Duration = Duration::from_secs(1);

/// What a password opens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The right password: shut the server down.
    Right,
    /// Wrong, or remote shutdown is off; the answer may go out now.
    Wrong,
}

/// The password (if remote shutdown is on) and the shared pace of wrong answers.
pub struct PasswordGate {
    password: Option<Secret>,
    /// When the latest wrong answer went out (or is due to).
    last_wrong_answer: Mutex<Option<Instant>>,
}

impl PasswordGate {
    /// A gate for `password`; `None` refuses every password (remote shutdown off).
    pub fn new(password: Option<Secret>) -> PasswordGate {
        PasswordGate {
            password,
            last_wrong_answer: Mutex::new(None),
        }
    }

    /// Judges `guess`. A wrong one returns only when its answer may go out: at once
    /// for the first, else [`WRONG_ANSWER_INTERVAL`] after the previous wrong answer
    /// of any connection. Returns early when the server shuts down.
    pub fn judge(&self, guess: &str, shutdown: &Shutdown) -> Verdict {
        if self.password.as_ref().is_some_and(|p| p.matches(guess)) {
            return Verdict::Right;
        }
        let due = {
            let mut last = self.last_wrong_answer.lock();
            let due = next_wrong_answer(*last, Instant::now());
            *last = Some(due);
            due
        };
        let wait = due.saturating_duration_since(Instant::now());
        if !wait.is_zero() {
            // Nothing is ever sent on the shutdown signal: this sleeps `wait`, or
            // less if the server shuts down meanwhile.
            let _ = shutdown.signal().recv_timeout(wait);
        }
        Verdict::Wrong
    }
}

/// When a wrong answer asked for at `now` may go out, given when the previous one
/// went out (or is due to): at once for the first, else one interval after it.
fn next_wrong_answer(previous: Option<Instant>, now: Instant) -> Instant {
    match previous.and_then(|p| p.checked_add(WRONG_ANSWER_INTERVAL)) {
        Some(earliest) if earliest > now => earliest,
        _ => now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_answers_are_spaced_a_second_apart() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        // (previous answer, asked at, answered at), in milliseconds from `start`.
        let table = [
            (None, 0, 0),
            (Some(0), 10, 1000),
            (Some(1000), 20, 2000),
            (Some(0), 1500, 1500),
            (Some(2000), 2000, 3000),
        ];
        for (previous, asked, answered) in table {
            assert_eq!(
                next_wrong_answer(previous.map(at), at(asked)),
                at(answered),
                "{previous:?} {asked}"
            );
        }
    }

    #[test]
    fn only_the_password_opens_and_off_means_never() {
        let shutdown = Shutdown::new();
        let gate = PasswordGate::new(Secret::from_first_line("s3cret"));
        assert_eq!(gate.judge("s3cret", &shutdown), Verdict::Right);
        // The first wrong answer is due at once (the table above says when the
        // next ones are).
        let asked = Instant::now();
        assert_eq!(gate.judge("guess", &shutdown), Verdict::Wrong);
        let due = gate.last_wrong_answer.lock().expect("recorded");
        assert!(due >= asked && due <= Instant::now());
        assert_eq!(PasswordGate::new(None).judge("", &shutdown), Verdict::Wrong);
        // A shutdown wakes a waiting guess.
        shutdown.trigger();
        assert_eq!(gate.judge("again", &shutdown), Verdict::Wrong);
    }
}
