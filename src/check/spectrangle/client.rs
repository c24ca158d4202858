//! A Spectrangle client of the checker: it sends typed commands, formatted by the
//! protocol module that the server uses, and reads the server's lines with that
//! module's parser.

use super::super::case::{Failure, Step};
use super::super::probe::Probe;
use super::super::wire::{Heard, Wire};
use crate::frontend::spectrangle::protocol::{Command, ErrorCode, PlayerName, ServerMessage};
use std::time::Duration;

/// The line the checker sends to learn how far the server has got with a client:
/// no command of the protocol, so every server must answer it with ERROR (which "is
/// sent to the client when the client has sent an invalid command"), and, since a
/// client's lines are answered in order, only after it has handled the lines before.
/// What comes before that ERROR is what those lines caused: no quiet window decides.
pub const SYNC_LINE: &str = "CHECKER_SYNC";

/// One Spectrangle client of a case.
pub struct SpClient {
    wire: Wire,
    /// The name it joins with.
    pub name: String,
}

impl SpClient {
    /// Connects a client that will call itself `name`.
    ///
    /// # Errors
    ///
    /// The server does not accept the connection.
    pub fn connect(probe: &mut Probe, name: &str) -> Step<SpClient> {
        Ok(SpClient {
            wire: probe.connect()?,
            name: name.to_string(),
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

    /// Sends `command`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send(&mut self, command: &Command) -> Step<()> {
        self.wire.send(&command.to_string())
    }

    /// Sends a line as it is.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send_line(&mut self, line: &str) -> Step<()> {
        self.wire.send(line)
    }

    /// The next message, read with the protocol's parser. A `LOBBY` update (which the
    /// protocol says "can be sent" whenever the lobby changes) is skipped unless
    /// `expected` is one.
    ///
    /// # Errors
    ///
    /// No line within the answer timeout, or a line that is no Spectrangle message.
    pub fn next(&mut self, expected: &str) -> Step<ServerMessage> {
        loop {
            let line = self.wire.line(expected)?;
            let message = ServerMessage::parse(&line).map_err(|why| {
                Failure::new(
                    format!("{}: {expected}", self.who()),
                    format!(
                        "{} (not a Spectrangle message: {why})",
                        super::super::log::shown(&line)
                    ),
                )
            })?;
            if matches!(message, ServerMessage::Lobby { .. }) && !expected.starts_with("LOBBY") {
                continue;
            }
            return Ok(message);
        }
    }

    /// The next message, which `pick` takes apart; anything else fails the step.
    ///
    /// # Errors
    ///
    /// See [`SpClient::next`]; or a message `pick` does not take.
    pub fn expect<T>(
        &mut self,
        expected: &str,
        pick: impl FnOnce(ServerMessage) -> Option<T>,
    ) -> Step<T> {
        let message = self.next(expected)?;
        let line = message.to_string();
        pick(message).ok_or_else(|| Failure::new(format!("{}: {expected}", self.who()), line))
    }

    /// Sends `JOIN <name>` (and a lobby, if given) and reads the `LOBBY` it is
    /// answered with; returns its players.
    ///
    /// # Errors
    ///
    /// A refusal, anything else, or a LOBBY that does not list the player.
    pub fn join(&mut self, lobby: Option<&str>) -> Step<Vec<String>> {
        let name = PlayerName::parse(&self.name)
            .map_err(|e| Failure::new("a valid name from the checker", e.to_string()))?;
        self.send(&Command::Join {
            name,
            lobby: lobby.map(str::to_string),
        })?;
        let me = self.name.clone();
        self.expect(&format!("LOBBY ... listing {me}"), |m| match m {
            ServerMessage::Lobby { players } if players.contains(&me) => Some(players),
            _ => None,
        })
    }

    /// Reads an `ERROR`: its code must be `code`, or 0 (which the protocol allows for a
    /// server that does not tell errors apart). `why` says why the line is refused.
    ///
    /// # Errors
    ///
    /// Anything but an ERROR, or an ERROR with another code.
    pub fn refused(&mut self, code: ErrorCode, why: &str) -> Step<ErrorCode> {
        let expected = format!("ERROR {code} <message> (or ERROR 0): {why}");
        let message = self.next(&expected)?;
        match message {
            ServerMessage::Error { code: got, .. } if got == code || got == ErrorCode::Generic => {
                Ok(got)
            }
            other => Err(Failure::new(
                format!("{}: {expected}", self.who()),
                other.to_string(),
            )),
        }
    }

    /// Sends [`SYNC_LINE`] and reads up to the ERROR that answers it: the messages
    /// that came before it (LOBBY updates skipped), which the client's earlier lines
    /// (or other clients' lines handled before) caused.
    ///
    /// # Errors
    ///
    /// No ERROR within the answer timeout (nor any other line), or a line that is no
    /// Spectrangle message.
    pub fn sync(&mut self) -> Step<Vec<ServerMessage>> {
        self.send_line(SYNC_LINE)?;
        let mut before = Vec::new();
        // A bound on what may come first, so a flooding server cannot keep it reading.
        for _ in 0..64 {
            match self.next(&format!(
                "ERROR <code> <message>: {SYNC_LINE} is no command"
            ))? {
                ServerMessage::Error { .. } => return Ok(before),
                other => before.push(other),
            }
        }
        Err(Failure::new(
            format!("{}: ERROR in answer to {SYNC_LINE}", self.who()),
            format!(
                "64 other messages first, the last: {}",
                before.last().map_or(String::new(), ToString::to_string)
            ),
        ))
    }

    /// What comes within `wait`.
    pub fn hear(&mut self, wait: Duration) -> Heard {
        self.wire.hear(wait)
    }

    /// Expects nothing for `quiet` (a LOBBY update aside); `why` says why nothing may
    /// come.
    ///
    /// # Errors
    ///
    /// A line came.
    pub fn nothing_for(&mut self, quiet: Duration, why: &str) -> Step<()> {
        loop {
            match self.wire.hear(quiet) {
                Heard::Line(line) if line.starts_with("LOBBY") => continue,
                Heard::Silent(_) | Heard::Closed => return Ok(()),
                other => {
                    return Err(Failure::new(
                        format!("{}: nothing ({why})", self.who()),
                        other.describe(),
                    ));
                }
            }
        }
    }
}
