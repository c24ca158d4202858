//! One GO! client's connection thread: reads its lines, has them handled (by its game
//! if it sits in one, else by the registry), and reports when the client is gone.
//!
//! Every blocking read has a bound: a client that is not in a game must send
//! HANDSHAKE within the handshake timeout of leaving one (or of connecting); a client
//! in a game wakes the thread at least once per handshake timeout (at most every
//! [`net::IDLE_READ_BOUND`]) to notice its game has ended; and any read is woken at once by
//! closing the socket (kick, shutdown, output stalled).

use super::event::GameEvent;
use super::protocol::{self, ParseError, ServerMessage};
use super::registry::Registry;
use super::route::Route;
use crate::cards::{Mistake, Offending};
use crate::front::Front;
use crate::frontend::{Context, Departure, card};
use crate::net::{self, Connection, Incoming};
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
        ControlFlow::Continue(Some(
            self.registry.dispatch_on(self.route, conn, line, command),
        ))
    }
}
