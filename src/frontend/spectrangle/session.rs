//! One Spectrangle client's connection thread: reads its lines, has the registry
//! handle them, and reports when the client is gone.
//!
//! Every blocking read has a bound: a client that has never joined a lobby must JOIN
//! within the handshake timeout of connecting; after that it may stay as long as it
//! likes (closing is the client's), its thread still waking at least once per
//! [`net::IDLE_READ_BOUND`]; any read is woken at once by closing the socket (kick,
//! shutdown, output stalled).

use super::protocol::{self, ArgumentError, ErrorCode, ServerMessage, Unrecognized};
use super::registry::Registry;
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
    registry.connect(&conn);
    log::info!("{} connected (Spectrangle)", conn.label());
    let settings = &context.settings;
    let mut session = Session {
        registry,
        handshake_timeout: settings.handshake_timeout,
        max_line_bytes: settings.lines.max_line_bytes,
    };
    // An over-long line is one ERROR 2 and the connection goes on (SPECTRANGLE.md).
    let limits = settings.lines.reporting_at_once();
    let why = net::read_lines(&conn, limits, &mut session);
    card::farewell(&context.cards, &conn);
    let reason = conn.close_reason();
    log::info!(
        "{} disconnected: {}",
        conn.label(),
        reason.as_ref().map_or(why, ToString::to_string)
    );
    // Every line it sent was answered before this (see `net::handoff`).
    registry.disconnect(conn.id, Departure::of_closed(reason));
}

/// The Spectrangle side of one connection's read loop.
struct Session<'a> {
    registry: &'a Registry,
    handshake_timeout: Option<Duration>,
    max_line_bytes: usize,
}

impl net::Lines for Session<'_> {
    fn next_wait(&mut self, conn: &Arc<Connection>) -> Result<Duration, String> {
        let since = self.registry.unidentified_since(conn.id);
        // Once joined, no timeout: the read only wakes every `IDLE_READ_BOUND`.
        let timeout = since.and(self.handshake_timeout);
        net::identify_wait(since, timeout).map_err(|seconds| {
            card::refuse(
                conn,
                Front::Spectrangle,
                Mistake::NoHandshakeInTime,
                Offending::Silence,
                &ServerMessage::error(
                    ErrorCode::Generic,
                    format!("No JOIN within {seconds} s: closing the connection"),
                ),
            );
            format!("no JOIN within {seconds} s")
        })
    }

    fn line(&mut self, conn: &Arc<Connection>, line: Incoming) -> net::Handled {
        ControlFlow::Continue(match line {
            Incoming::Line(text) => {
                let parsed = protocol::parse(&text);
                Some(self.registry.dispatch(conn, Incoming::Line(text), parsed))
            }
            Incoming::NotUtf8 => Some(self.registry.dispatch(
                conn,
                Incoming::NotUtf8,
                Err(Unrecognized::NotUtf8),
            )),
            Incoming::TooLong => {
                let max_bytes = self.max_line_bytes;
                self.registry
                    .refuse(conn, &ArgumentError::LineTooLong { max_bytes });
                None
            }
        })
    }
}
