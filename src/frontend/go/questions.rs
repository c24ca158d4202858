//! The questions the server has asked one GO! client and that it has not answered yet:
//! REQUEST_CONFIG (answered by SET_CONFIG) and REQUEST_REMATCH (answered by
//! SET_REMATCH).
//!
//! An answer can cross the end of its question on the wire: Bob's "no" ends the rematch
//! question for both players while Ann's "yes" is on its way; a leader's garbage line
//! earns a second REQUEST_CONFIG, which its SET_CONFIG, already sent, has answered
//! before it arrives; the config clock applies the defaults just as the SET_CONFIG
//! comes; a leader whose partner left is moved to another game while its SET_CONFIG
//! for the first is on its way. Each of those answers came from a correct client, so
//! it is taken quietly (no reply, no mistake on its card) instead of being refused.
//!
//! What is owed is counted here, per client, so that the game that asked, a later game
//! and the registry all see the same count. Each REQUEST_CONFIG is answered by one
//! SET_CONFIG line, well-formed or not (a refused one earns a fresh REQUEST_CONFIG);
//! each REQUEST_REMATCH by one valid SET_REMATCH. An answer that was never asked for
//! is still refused as before.

use parking_lot::Mutex;

/// One client's unanswered questions. Shared by its registry entry and the game it
/// sits in; the lock is held for one field's update.
#[derive(Debug, Default)]
pub struct Questions {
    owed: Mutex<Owed>,
}

#[derive(Debug, Default)]
struct Owed {
    /// How many REQUEST_CONFIG it was sent and has not answered.
    configs: u32,
    /// It was sent REQUEST_REMATCH and has not answered.
    rematch: bool,
}

impl Questions {
    /// A client that has been asked nothing.
    pub fn new() -> Questions {
        Questions::default()
    }

    /// It is sent REQUEST_CONFIG.
    pub fn ask_config(&self) {
        let mut owed = self.owed.lock();
        owed.configs = owed.configs.saturating_add(1);
    }

    /// It sends a SET_CONFIG: true when that answers a REQUEST_CONFIG it was sent (one
    /// fewer is owed then).
    pub fn answer_config(&self) -> bool {
        let mut owed = self.owed.lock();
        let answers = owed.configs > 0;
        owed.configs = owed.configs.saturating_sub(1);
        answers
    }

    /// It is sent REQUEST_REMATCH.
    pub fn ask_rematch(&self) {
        self.owed.lock().rematch = true;
    }

    /// It sends SET_REMATCH: true when that answers a REQUEST_REMATCH it was sent.
    pub fn answer_rematch(&self) -> bool {
        std::mem::take(&mut self.owed.lock().rematch)
    }

    /// Its HANDSHAKE has been accepted: it has moved on, and whatever it was asked
    /// before is no longer waited for. (Its lines are handled in order, so every
    /// answer it sent before the HANDSHAKE has been counted already.)
    pub fn forget(&self) {
        *self.owed.lock() = Owed::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_answer_is_counted_against_a_question_once() {
        let questions = Questions::new();
        assert!(!questions.answer_rematch(), "nothing was asked");
        questions.ask_rematch();
        assert!(questions.answer_rematch());
        assert!(!questions.answer_rematch(), "one question, one answer");

        assert!(!questions.answer_config());
        questions.ask_config();
        questions.ask_config();
        assert!(questions.answer_config());
        assert!(questions.answer_config());
        assert!(!questions.answer_config(), "two asked, two answered");
    }

    #[test]
    fn a_handshake_forgets_every_question() {
        let questions = Questions::new();
        questions.ask_config();
        questions.ask_rematch();
        questions.forget();
        assert!(!questions.answer_config());
        assert!(!questions.answer_rematch());
    }
}
