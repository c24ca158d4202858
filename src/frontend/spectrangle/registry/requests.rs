//! A client's line: checked in the order SPECTRANGLE.md fixes (extension, state,
//! arguments), then carried out here (JOIN, READY, EXIT, the extensions, LOBBIES),
//! handed with its ticket to the client's table (a move, a chat line), or refused with
//! its error code, counted on the client's card. The steps that change a lobby are in
//! `lobbies` and `leaving`.

use super::Registry;
use crate::cards::Mistake;
use crate::front::Front;
use crate::frontend::spectrangle::event::{Extensions, TableEvent};
use crate::frontend::spectrangle::protocol::{
    ArgumentError, Command, ErrorCode, Extension, Keyword, LobbyName, Request, ServerMessage,
    Unrecognized,
};
use crate::frontend::{Departure, card};
use crate::net::{Awaited, ConnId, Connection, Incoming, Ticket};
use std::sync::Arc;

/// A refusal: the code, the kind of mistake on the client's card, and what was wrong.
pub(super) type Refusal = (ErrorCode, Mistake, String);

impl Registry {
    /// Handles one line of a client on its own thread: answers it, or hands it to the
    /// client's table. Returns what the answer is awaited by: the client's next line
    /// is handed over only once it has come (see `net::handoff`).
    pub fn dispatch(
        &self,
        conn: &Arc<Connection>,
        line: Incoming,
        parsed: Result<Option<Request>, Unrecognized>,
    ) -> Awaited {
        let (ticket, awaited) = crate::net::ticket();
        self.answer(conn, line, parsed, ticket);
        awaited
    }

    /// Answers one line of a client, or hands it with its ticket to the client's
    /// table; the ticket is dropped once the line has been answered.
    pub(super) fn answer(
        &self,
        conn: &Arc<Connection>,
        line: Incoming,
        parsed: Result<Option<Request>, Unrecognized>,
        ticket: Ticket,
    ) {
        let answer = match parsed {
            Ok(None) => return,
            Err(unrecognized) => Err((
                ErrorCode::Unrecognized,
                unrecognized.mistake(),
                unrecognized.to_string(),
            )),
            Ok(Some(request)) => self.request(conn, &line, request, ticket),
        };
        let message = match answer {
            Ok(None) => return,
            Ok(Some(message)) => message,
            Err((code, mistake, message)) => {
                let refusal = ServerMessage::error(code, message);
                let max_bytes = self.context.settings.lines.max_line_bytes;
                card::mistake(
                    conn,
                    Front::Spectrangle,
                    mistake,
                    card::offending(&line, max_bytes),
                    &refusal.to_string(),
                );
                refusal
            }
        };
        let _ = conn.send(&message);
    }

    /// Refuses `error` (a line too long) with its code.
    pub fn refuse(&self, conn: &Arc<Connection>, error: &ArgumentError) {
        let max_bytes = self.context.settings.lines.max_line_bytes;
        card::refuse(
            conn,
            Front::Spectrangle,
            error.mistake(),
            card::offending(&Incoming::TooLong, max_bytes),
            &ServerMessage::error(error.code(), error),
        );
    }

    /// Checks a request in the order SPECTRANGLE.md fixes (extension, state,
    /// arguments) and carries it out. Returns the answer for the client, if any; the
    /// ticket goes with an event the request hands to a table.
    fn request(
        &self,
        conn: &Arc<Connection>,
        line: &Incoming,
        request: Request,
        ticket: Ticket,
    ) -> Result<Option<ServerMessage>, Refusal> {
        let Request { keyword, command } = request;
        let (extensions, place) = self.whereabouts(conn.id);
        self.check_extension(keyword, &extensions)?;
        // Before its JOIN a client has no card: its early mistakes join the named one.
        check_state(keyword, place, card::of(conn).is_some())?;
        let command = command.map_err(|e| (e.code(), e.mistake(), e.to_string()))?;
        match command {
            Command::Join { name, lobby } => {
                let lobby = match lobby {
                    Some(lobby) if extensions.has(Extension::Multilobby) => Some(
                        LobbyName::parse(&lobby)
                            .map_err(|e| (e.code(), e.mistake(), e.to_string()))?,
                    ),
                    // Without multilobby the lobby argument is ignored (the spec says so).
                    _ => None,
                };
                self.join(conn, name, lobby, &extensions, ticket)?;
            }
            Command::Ready => {
                if !self.ready(conn.id, ticket) {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Play { .. } | Command::Swap { .. } | Command::Skip => {
                let sent = self.forward(conn.id, |_| TableEvent::Move {
                    from: Arc::clone(conn),
                    line: line.clone(),
                    command,
                    ticket,
                });
                // The table judges the move and answers; nothing to accept here yet.
                return if sent {
                    Ok(None)
                } else {
                    Err(not_in_lobby(keyword, true))
                };
            }
            Command::Exit => {
                let left = self.leave(conn.id, Departure::Exited, Some(ticket));
                if !left {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Extensions => {
                conn.accepted();
                return Ok(Some(ServerMessage::available_extensions()));
            }
            Command::EnableExtensions(wanted) => {
                for extension in wanted {
                    extensions.enable(extension);
                }
            }
            Command::Chat { text } => {
                let sent = self.forward(conn.id, |from| TableEvent::Chat { from, text, ticket });
                if !sent {
                    return Err(not_in_lobby(keyword, true));
                }
            }
            Command::Lobbies => {
                conn.accepted();
                return Ok(Some(self.active_lobbies()));
            }
        }
        conn.accepted();
        Ok(None)
    }

    /// A client's extensions and where it sits: no table, a lobby, or a game.
    fn whereabouts(&self, conn: ConnId) -> (Arc<Extensions>, Whereabouts) {
        let state = self.state.lock();
        let Some(client) = state.clients.get(&conn) else {
            return (Arc::default(), Whereabouts::Nowhere);
        };
        let place = match client.table.and_then(|id| state.tables.get(&id)) {
            None => Whereabouts::Nowhere,
            Some(table) => match &table.lobby {
                Some(name) => Whereabouts::Lobby(name.to_string()),
                None => Whereabouts::Game,
            },
        };
        (Arc::clone(&client.extensions), place)
    }

    /// CHAT and LOBBIES need their extension enabled, whatever the client's state.
    fn check_extension(&self, keyword: Keyword, extensions: &Extensions) -> Result<(), Refusal> {
        let needs = match keyword {
            Keyword::Chat => Extension::Chat,
            Keyword::Lobbies => Extension::Multilobby,
            _ => return Ok(()),
        };
        if extensions.has(needs) {
            return Ok(());
        }
        Err((
            ErrorCode::UnsupportedExtension,
            Mistake::ExtensionOff,
            format!(
                "{} needs the {} extension: send ENABLE_EXTENSION {} first",
                keyword.word(),
                needs.name(),
                needs.name()
            ),
        ))
    }

    /// Sends the event `make` builds (given the sender's id) to the sender's table.
    /// False when that table has gone (its game ended) since the state was checked.
    pub(super) fn forward(&self, conn: ConnId, make: impl FnOnce(ConnId) -> TableEvent) -> bool {
        let state = self.state.lock();
        state
            .clients
            .get(&conn)
            .and_then(|c| c.table)
            .and_then(|id| state.tables.get(&id))
            .is_some_and(|table| table.inbox.post(make(conn)).is_ok())
    }

    /// `ACTIVE_LOBBIES`: lobbies not yet playing, players in join order.
    fn active_lobbies(&self) -> ServerMessage {
        let state = self.state.lock();
        let lobbies = state
            .tables
            .values()
            .filter_map(|table| {
                let name = table.lobby.as_ref()?;
                let players = table
                    .members
                    .iter()
                    .filter_map(|m| state.clients.get(m)?.name.as_ref())
                    .chain(&table.bots)
                    .map(ToString::to_string)
                    .collect();
                Some((name.to_string(), players))
            })
            .collect();
        ServerMessage::ActiveLobbies { lobbies }
    }
}

/// Where a client sits, as far as the order of error codes cares.
enum Whereabouts {
    Nowhere,
    /// In the lobby of this name.
    Lobby(String),
    Game,
}

/// The state checks of SPECTRANGLE.md: a known keyword in the wrong state is 7 (in no
/// lobby) or 8 (a move in a lobby), except JOIN while seated and READY in a game (0).
/// `named`: whether the client has joined once (else a command before JOIN is a
/// mistake of its own kind on its card).
fn check_state(keyword: Keyword, place: Whereabouts, named: bool) -> Result<(), Refusal> {
    match (keyword, place) {
        (Keyword::Extensions | Keyword::EnableExtension | Keyword::Lobbies, _) => Ok(()),
        (Keyword::Join, Whereabouts::Nowhere) => Ok(()),
        (Keyword::Join, Whereabouts::Lobby(lobby)) => Err((
            ErrorCode::Generic,
            Mistake::SecondHandshake,
            format!("You are already in lobby {lobby}: send EXIT first to join another"),
        )),
        (Keyword::Join, Whereabouts::Game) => Err((
            ErrorCode::Generic,
            Mistake::SecondHandshake,
            "You are playing a game: JOIN is possible after its SCORE, or after EXIT".into(),
        )),
        (Keyword::Ready, Whereabouts::Game) => Err((
            ErrorCode::Generic,
            Mistake::WrongState,
            "Your game has already started: READY is for lobbies".into(),
        )),
        (Keyword::MovePlay | Keyword::MoveSwap | Keyword::MoveSkip, Whereabouts::Lobby(lobby)) => {
            Err((
                ErrorCode::NotInGame,
                Mistake::NotStarted,
                format!(
                    "Your lobby {lobby} has not started a game yet: send READY and wait for START"
                ),
            ))
        }
        (_, Whereabouts::Nowhere) => Err(not_in_lobby(keyword, named)),
        _ => Ok(()),
    }
}

/// Error 7 for `keyword` sent by a client in no lobby. A command that passed the state
/// check can still get it: its game may have ended (SCORE sent) just before.
pub(super) fn not_in_lobby(keyword: Keyword, named: bool) -> Refusal {
    let word = keyword.word();
    (
        ErrorCode::NotInLobby,
        if named {
            Mistake::NotInGame
        } else {
            Mistake::BeforeHandshake
        },
        format!("You are not in a lobby, so {word} is not possible: send JOIN <name> first"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Context;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;

    /// A command that passed the state check can find its table gone (the game ended
    /// meanwhile): each of the steps that act on the table says so, for error 7.
    #[test]
    fn a_client_at_no_table_is_told_its_command_found_no_table() {
        let registry = Registry::new(Context::standalone(Settings::default(), Shutdown::new()));
        let (_client, conn) = registry.context.connections.loopback();
        registry.connect(&conn);

        let (ticket, _awaited) = crate::net::ticket();
        assert!(!registry.ready(conn.id, ticket));
        assert!(!registry.leave(conn.id, Departure::Exited, None));
        let text = "hi".to_string();
        let (ticket, _awaited) = crate::net::ticket();
        assert!(!registry.forward(conn.id, |from| TableEvent::Chat { from, text, ticket }));
        let (code, mistake, message) = not_in_lobby(Keyword::Ready, false);
        assert_eq!(code, ErrorCode::NotInLobby);
        assert_eq!(mistake, Mistake::BeforeHandshake);
        assert_eq!(
            message,
            "You are not in a lobby, so READY is not possible: send JOIN <name> first"
        );
    }
}
