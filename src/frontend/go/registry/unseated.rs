//! The lines of a client that sits in no game, answered by the registry: on the
//! client's own thread, or, for a line that reached a game just after it ended, on that
//! game's thread as it hands its leftovers on (`Matchmaker::redispatch`). HANDSHAKE
//! seats it (`handshake`), EXIT closes its connection,
//! an answer to a question its last game asked is taken quietly (`questions`), and
//! anything else is refused with what to do instead. A client that sits in a game has
//! its lines answered by that game, never here.

use super::Registry;
use super::arena;
use super::leaving::{self, EXIT};
use crate::cards::Mistake;
use crate::front::Front;
use crate::frontend::card;
use crate::frontend::go::protocol::{ClientCommand, ParseError, ServerMessage};
use crate::net::{ConnId, Connection, Incoming};
use std::sync::Arc;

impl Registry {
    /// Answers a line from a client that sits in no game: HANDSHAKE seats it, EXIT
    /// closes its connection, an answer to a question its last game asked is taken
    /// quietly, anything else is refused with what to do instead.
    pub fn answer_unseated(
        &self,
        conn: &Arc<Connection>,
        line: &Incoming,
        command: Result<ClientCommand, ParseError>,
    ) {
        if self.answers_a_question(conn.id, &command) {
            log::debug!(
                "{}: its answer crossed the end of the question: taken quietly",
                conn.label()
            );
            conn.accepted();
            return;
        }
        let (mistake, reason) = match command {
            Err(error) => (error.mistake(), error.to_string()),
            Ok(ClientCommand::SetConfig { .. }) if self.context.settings.arena.is_some() => (
                Mistake::ArenaSetsTheGame,
                arena::sets_the_game(&self.context.settings),
            ),
            Ok(ClientCommand::Handshake { name }) => match self.handshake(conn, &name) {
                Ok(()) => return,
                Err(refused) => match refused.mistake() {
                    Some(mistake) => (mistake, refused.to_string()),
                    // Not the client's doing: said, not counted.
                    None => {
                        let _ = conn.send(&ServerMessage::UnknownCommand {
                            reason: refused.to_string(),
                        });
                        return;
                    }
                },
            },
            Ok(ClientCommand::Exit { .. }) => {
                leaving::release_name(&mut self.state.lock(), conn.id);
                conn.accepted();
                conn.close(EXIT);
                return;
            }
            Ok(other) if self.route(conn.id).is_some_and(|r| r.is_waiting()) => (
                Mistake::WaitingForRound,
                format!(
                    "You are waiting in the arena for the next round, so {} is not possible yet: the round that pairs you sends ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG",
                    other.keyword()
                ),
            ),
            Ok(other) => (
                // After a game the client has a name: it is between games, not early.
                if card::of(conn).is_some() {
                    Mistake::NotInGame
                } else {
                    Mistake::BeforeHandshake
                },
                format!(
                    "You are not in a game, so {} is not possible: send HANDSHAKE with your name first",
                    other.keyword()
                ),
            ),
        };
        let max_bytes = self.context.settings.lines.max_line_bytes;
        card::refuse(
            conn,
            Front::Go,
            mistake,
            card::offending(line, max_bytes),
            &ServerMessage::UnknownCommand { reason },
        );
    }

    /// Whether `command` answers a question the client was asked in a game that has
    /// ended or that it has left since (see `questions`): such an answer is taken
    /// quietly.
    fn answers_a_question(
        &self,
        conn: ConnId,
        command: &Result<ClientCommand, ParseError>,
    ) -> bool {
        let questions = {
            let state = self.state.lock();
            match state.clients.get(&conn) {
                Some(entry) => Arc::clone(&entry.questions),
                None => return false,
            }
        };
        match command {
            Ok(ClientCommand::SetConfig { .. }) => questions.answer_config(),
            Ok(ClientCommand::SetRematch { .. }) => questions.answer_rematch(),
            _ => false,
        }
    }
}
