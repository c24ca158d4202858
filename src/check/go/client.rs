//! A GO! client of the checker: it sends typed commands, formatted by the protocol
//! module that the server uses, and reads the server's lines into typed messages with
//! that module's parser, so that the server and the checker cannot drift apart.

use super::super::case::{Failure, Step};
use super::super::probe::Probe;
use super::super::wire::{Heard, Wire};
use crate::frontend::go::protocol::{ClientCommand, GameId, ServerMessage};
use std::time::Duration;

/// What a handshake was answered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The game the client is in.
    pub game_id: GameId,
    /// Whether it leads that game (and owes its configuration).
    pub leader: bool,
}

/// A refusal: the two messages that reject a client's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `INVALID_MOVE+<reason>`
    InvalidMove(String),
    /// `UNKNOWN_COMMAND+<reason>`
    UnknownCommand(String),
}

impl Refusal {
    /// `INVALID_MOVE` or `UNKNOWN_COMMAND`.
    pub fn keyword(&self) -> &'static str {
        match self {
            Refusal::InvalidMove(_) => "INVALID_MOVE",
            Refusal::UnknownCommand(_) => "UNKNOWN_COMMAND",
        }
    }
}

/// One GO! client of a case.
pub struct GoClient {
    wire: Wire,
    /// The name it asked for, then the one the server granted.
    pub name: String,
    /// Whether it leads a game that has no configuration yet: a REQUEST_CONFIG repeated
    /// after a refusal (as goserver does) is then skipped by [`GoClient::next`].
    owes_config: bool,
    /// Whether it has been acknowledged a handshake: a second ACKNOWLEDGE_HANDSHAKE is
    /// then skipped (handshake.2 is the case about whom it goes to).
    joined: bool,
    /// A message read ahead, which the next read returns first.
    ahead: Option<ServerMessage>,
}

impl GoClient {
    /// Connects a client that will call itself `name`.
    ///
    /// # Errors
    ///
    /// The server does not accept the connection.
    pub fn connect(probe: &mut Probe, name: &str) -> Step<GoClient> {
        Ok(GoClient {
            wire: probe.connect()?,
            name: name.to_string(),
            owes_config: false,
            joined: false,
            ahead: None,
        })
    }

    /// Its label in the wire log.
    pub fn who(&self) -> &str {
        self.wire.who()
    }

    /// The connection, for raw bytes and waits.
    pub fn wire(&mut self) -> &mut Wire {
        &mut self.wire
    }

    /// The connection, to keep it open while the case goes on without this client.
    pub fn into_wire(self) -> Wire {
        self.wire
    }

    /// Closes the connection.
    pub fn close(self) {
        self.wire.close();
    }

    /// Sends `command`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send(&mut self, command: &ClientCommand) -> Step<()> {
        self.wire.send(&command.to_string())
    }

    /// Sends a line as it is (a malformed one, say).
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send_line(&mut self, line: &str) -> Step<()> {
        self.wire.send(line)
    }

    /// The next message, read with the protocol's parser. `expected` says what the step
    /// waits for, in a failure. A `REQUEST_REMATCH` is skipped unless `expected` is one:
    /// the case that needs it reads it, and the others answer the question anyway.
    ///
    /// # Errors
    ///
    /// No line within the answer timeout, or a line that is no GO! message.
    pub fn next(&mut self, expected: &str) -> Step<ServerMessage> {
        if let Some(message) = self.ahead.take() {
            return Ok(message);
        }
        loop {
            let line = self.wire.line(expected)?;
            let message = ServerMessage::parse(&line).map_err(|why| {
                Failure::new(
                    format!("{}: {expected}", self.who()),
                    format!(
                        "{} (not a GO! message: {why})",
                        super::super::log::shown(&line)
                    ),
                )
            })?;
            if self.joined
                && matches!(message, ServerMessage::AcknowledgeHandshake { .. })
                && !expected.starts_with("ACKNOWLEDGE_HANDSHAKE")
            {
                continue;
            }
            if self.owes_config
                && matches!(message, ServerMessage::RequestConfig { .. })
                && !expected.starts_with("REQUEST_CONFIG")
            {
                continue;
            }
            if matches!(message, ServerMessage::RequestRematch)
                && !expected.starts_with("REQUEST_REMATCH")
            {
                continue;
            }
            if matches!(message, ServerMessage::AcknowledgeConfig { .. }) {
                self.owes_config = false;
            }
            return Ok(message);
        }
    }

    /// The next message, which `pick` takes apart; anything else fails the step.
    ///
    /// # Errors
    ///
    /// See [`GoClient::next`]; or a message `pick` does not take.
    pub fn expect<T>(
        &mut self,
        expected: &str,
        pick: impl FnOnce(ServerMessage) -> Option<T>,
    ) -> Step<T> {
        let message = self.next(expected)?;
        let line = message.to_string();
        pick(message).ok_or_else(|| Failure::new(format!("{}: {expected}", self.who()), line))
    }

    /// Keeps `message` to be read again by the next [`GoClient::next`].
    pub fn put_back(&mut self, message: ServerMessage) {
        self.ahead = Some(message);
    }

    /// Sends `HANDSHAKE+<name>` and reads `ACKNOWLEDGE_HANDSHAKE`, and a leader's
    /// `REQUEST_CONFIG`.
    ///
    /// # Errors
    ///
    /// Anything else, or nothing, in answer.
    pub fn handshake(&mut self) -> Step<Joined> {
        let name = self.name.clone();
        self.send(&ClientCommand::Handshake { name })?;
        let joined = self.acknowledged()?;
        if joined.leader {
            self.expect("REQUEST_CONFIG+<message> (to the leader)", |m| {
                matches!(m, ServerMessage::RequestConfig { .. }).then_some(())
            })?;
            self.owes_config = true;
        }
        Ok(joined)
    }

    /// Reads the `ACKNOWLEDGE_HANDSHAKE` of a handshake sent.
    ///
    /// # Errors
    ///
    /// Anything else, or nothing, in answer.
    pub fn acknowledged(&mut self) -> Step<Joined> {
        let joined = self.expect(
            "ACKNOWLEDGE_HANDSHAKE+<game id>+<1 if leader, else 0>",
            |m| match m {
                ServerMessage::AcknowledgeHandshake { game_id, is_leader } => Some(Joined {
                    game_id,
                    leader: is_leader,
                }),
                _ => None,
            },
        )?;
        self.joined = true;
        Ok(joined)
    }

    /// Reads a refusal of the line just sent: `INVALID_MOVE` or `UNKNOWN_COMMAND`.
    ///
    /// # Errors
    ///
    /// Anything else, or nothing: `why` says why the line must be refused.
    pub fn refusal(&mut self, why: &str) -> Step<Refusal> {
        self.expect(
            &format!("INVALID_MOVE or UNKNOWN_COMMAND: {why}"),
            |m| match m {
                ServerMessage::InvalidMove { reason } => Some(Refusal::InvalidMove(reason)),
                ServerMessage::UnknownCommand { reason } => Some(Refusal::UnknownCommand(reason)),
                _ => None,
            },
        )
    }

    /// What comes within `wait`, parsed when it is a line.
    pub fn hear(&mut self, wait: Duration) -> Heard {
        self.wire.hear(wait)
    }

    /// Expects nothing for `quiet`; `why` says why nothing may come.
    ///
    /// # Errors
    ///
    /// A line came.
    pub fn nothing_for(&mut self, quiet: Duration, why: &str) -> Step<()> {
        self.wire.nothing_for(quiet, why)
    }
}
