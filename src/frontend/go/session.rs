//! One GO! client's connection thread: reads its lines, has them handled (by its game
//! if it sits in one, else by the registry), and reports when the client is gone.
//!
//! A line goes one way ([`deliver`]): through the client's route into the inbox of the
//! game it sits in, or, when it sits in none, to the registry, which answers it on this
//! thread (`registry::unseated`).
//!
//! Every blocking read has a bound: a client that is not in a game must send
//! HANDSHAKE within the handshake timeout of leaving one (or of connecting); a client
//! in a game wakes the thread at least once per handshake timeout (at most every
//! [`net::IDLE_READ_BOUND`]) to notice its game has ended; and any read is woken at once by
//! closing the socket (kick, shutdown, output stalled).

use super::event::GameEvent;
use super::protocol::{self, ClientCommand, ParseError, ServerMessage};
use super::registry::Registry;
use super::route::Route;
use crate::cards::{Mistake, Offending};
use crate::front::Front;
use crate::frontend::{Context, Departure, card};
use crate::net::{self, Awaited, CloseReason, Connection, Incoming, Refused, Ticket};
use std::net::{SocketAddr, TcpStream};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

/// Serves one client until it disconnects or is disconnected.
pub fn serve(stream: TcpStream, peer: SocketAddr, registry: &Registry, context: &Context) {
    let conn = match context.connections.open(stream, peer) {
        Ok(conn) => conn,
        Err(e) => {
            log::warn!("{peer}: cannot set up the connection: {e}");
            return;
        }
    };
    let route = registry.connect(&conn);
    log::info!("{} connected", conn.label());
    let settings = &context.settings;
    let mut session = Session {
        registry,
        route: &route,
        handshake_timeout: settings.handshake_timeout,
    };
    let why = net::read_lines(&conn, settings.lines, &mut session);
    card::farewell(&context.cards, &conn);
    let reason = conn.close_reason();
    log::info!(
        "{} disconnected: {}",
        conn.label(),
        reason.as_ref().map_or(why, ToString::to_string)
    );
    let how = Departure::of_closed(reason);
    // Every line it sent was answered before this (see `net::handoff`): its
    // departure comes after them. A client that only closed its sending side still
    // gets those answers: the socket closes when the last holder lets go of it.
    if let Some(inbox) = registry.disconnect(conn.id) {
        // The game may have ended meanwhile; then there is nobody left to tell.
        let _ = inbox.hand_over(GameEvent::Left { from: conn, how });
    }
}

/// The GO! side of one connection's read loop.
struct Session<'a> {
    registry: &'a Registry,
    /// Where this client's lines go.
    route: &'a Route,
    handshake_timeout: Option<Duration>,
}

impl net::Lines for Session<'_> {
    fn next_wait(&mut self, conn: &Arc<Connection>) -> Result<Duration, String> {
        net::identify_wait(self.route.free_since(), self.handshake_timeout).map_err(|seconds| {
            if self.route.after_a_game() {
                // Idle after its game: closed, but it did nothing wrong.
                let _ = conn.send(&ServerMessage::UnknownCommand {
                    reason: format!(
                        "No new HANDSHAKE within {seconds} s after your game: closing the connection"
                    ),
                });
                return format!("no new HANDSHAKE within {seconds} s after its game");
            }
            card::refuse(
                conn,
                Front::Go,
                Mistake::NoHandshakeInTime,
                Offending::Silence,
                &ServerMessage::UnknownCommand {
                    reason: format!("No HANDSHAKE within {seconds} s: closing the connection"),
                },
            );
            format!("no HANDSHAKE within {seconds} s")
        })
    }

    fn line(&mut self, conn: &Arc<Connection>, line: Incoming) -> net::Handled {
        let command = match &line {
            Incoming::Line(text) => protocol::parse(text),
            Incoming::TooLong => Err(ParseError::LineTooLong {
                max_bytes: self.registry.context.settings.lines.max_line_bytes,
            }),
            Incoming::NotUtf8 => Err(ParseError::NotUtf8),
        };
        ControlFlow::Continue(Some(dispatch(
            self.registry,
            self.route,
            conn,
            line,
            command,
        )))
    }
}

/// Has a line of the client on `route` answered (see [`deliver`]). Returns what the
/// answer is awaited by: the client's next line is handed over only once it has come
/// (see `net::handoff`).
pub fn dispatch(
    registry: &Registry,
    route: &Route,
    conn: &Arc<Connection>,
    line: Incoming,
    command: Result<ClientCommand, ParseError>,
) -> Awaited {
    let (ticket, awaited) = net::ticket();
    deliver(registry, route, conn, line, command, ticket);
    awaited
}

/// The way of a line, with its ticket: to the game the client sits in, through its
/// route, or, when it sits in none, answered by the registry. Also the way of a line
/// that reached a game after it ended (`Matchmaker::redispatch`), to where its client
/// is now.
pub fn deliver(
    registry: &Registry,
    route: &Route,
    conn: &Arc<Connection>,
    line: Incoming,
    command: Result<ClientCommand, ParseError>,
    ticket: Ticket,
) {
    if let Ok(ClientCommand::Exit { game_id, player }) = &command {
        registry.exiting(conn, *game_id, player);
    }
    let event = GameEvent::Line {
        from: Arc::clone(conn),
        line,
        command,
        ticket,
    };
    match route.hand_over(event) {
        Ok(()) => {}
        Err(Refused::Gone(GameEvent::Line {
            line,
            command,
            ticket: _answered_here,
            ..
        })) => registry.answer_unseated(conn, &line, command),
        // Its game took nothing for the whole bound (logged): stuck. The line cannot
        // be answered in order any more.
        Err(_) => conn.close(CloseReason::NotAnswered(net::handoff::ANSWER_WAIT)),
    }
}
