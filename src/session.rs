//! One client's connection thread: reads its lines, answers what needs no game,
//! forwards the rest to its game loop, and reports when the client is gone.
//!
//! Every blocking read has a bound: a client that is not in a game must send
//! HANDSHAKE within the handshake timeout; a client in a game wakes the thread at
//! least every [`IDLE_READ_BOUND`], and can always be woken by closing its socket
//! (kick, shutdown, output stalled).

use crate::game::{Departure, EXIT_REASON, GameEvent};
use crate::net::{Connection, Incoming, LineReader, ReadError};
use crate::protocol::{self, ClientCommand, ParseError, ServerMessage};
use crate::server::Server;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The longest a read waits while the client sits in a game.
pub const IDLE_READ_BOUND: Duration = Duration::from_secs(60);

/// Serves one client until it disconnects or is disconnected.
pub fn serve(stream: TcpStream, peer: SocketAddr, server: &Server) {
    let conn = match server.new_connection(stream, peer) {
        Ok(conn) => conn,
        Err(e) => {
            log::warn!("{peer}: cannot set up the connection: {e}");
            return;
        }
    };
    log::info!("{} connected", conn.label());
    let why = read_lines(&conn, server);
    let how = match conn.close_reason() {
        Some(reason) if reason == EXIT_REASON => Departure::Exited,
        Some(reason) => Departure::Dropped(reason),
        None => Departure::Disconnected,
    };
    conn.close(&why);
    log::info!(
        "{} disconnected: {}",
        conn.label(),
        conn.close_reason().unwrap_or(why)
    );
    if let Some(inbox) = server.lobby.disconnect(conn.id) {
        // The game may have ended meanwhile; then there is nobody left to tell.
        let _ = inbox.send(GameEvent::Left { from: conn, how });
    }
}

/// Reads and handles lines until the connection ends; returns why it ended.
fn read_lines(conn: &Arc<Connection>, server: &Server) -> String {
    let settings = &server.settings;
    let stream = conn.stream();
    let mut reader = LineReader::new(stream, settings.lines);
    let mut identify_by: Option<Instant> = None;
    // The read timeout in force, so the socket option is set only when it changes.
    let mut read_timeout = None;
    loop {
        if let Some(pause) = conn.pace() {
            thread::sleep(pause);
        }
        let wait = if server.lobby.route(conn.id).is_some() {
            identify_by = None;
            IDLE_READ_BOUND
        } else {
            let timeout = settings.handshake_timeout;
            let deadline = *identify_by
                .get_or_insert_with(|| Instant::now() + timeout.unwrap_or(IDLE_READ_BOUND));
            match deadline.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() => left,
                _ if timeout.is_none() => {
                    identify_by = None;
                    continue;
                }
                _ => return handshake_timed_out(conn, timeout),
            }
        };
        if read_timeout != Some(wait) {
            if let Err(e) = stream.set_read_timeout(Some(wait)) {
                return format!("socket error: {e}");
            }
            read_timeout = Some(wait);
        }
        match reader.next_line() {
            Ok(Incoming::Line(line)) => {
                conn.received(&line);
                handle(protocol::parse(&line), conn, server);
            }
            Ok(Incoming::TooLong) => {
                conn.received("<line too long>");
                let max_bytes = settings.lines.max_line_bytes;
                handle(Err(ParseError::LineTooLong { max_bytes }), conn, server);
            }
            Ok(Incoming::NotUtf8) => {
                conn.received("<not UTF-8>");
                handle(Err(ParseError::NotUtf8), conn, server);
            }
            Err(ReadError::TimedOut) => {}
            Err(ReadError::Closed) => return "connection closed".into(),
            Err(ReadError::Flood) => {
                let reason = format!(
                    "it sent more than {} bytes without a newline",
                    settings.lines.flood_bytes
                );
                conn.close(&reason);
                return reason;
            }
            Err(ReadError::Io(e)) => return format!("socket error: {e}"),
        }
    }
}

fn handshake_timed_out(conn: &Connection, timeout: Option<Duration>) -> String {
    let seconds = timeout.map_or(0, |t| t.as_secs());
    let _ = conn.send(&ServerMessage::UnknownCommand {
        reason: format!("No HANDSHAKE within {seconds} s: closing the connection"),
    });
    let reason = format!("no HANDSHAKE within {seconds} s");
    conn.close(&reason);
    reason
}

/// Has a parsed line (or why it is not a command) handled: by the client's game if
/// it sits in one, else by the lobby.
fn handle(command: Result<ClientCommand, ParseError>, conn: &Arc<Connection>, server: &Server) {
    let command = match server.lobby.route(conn.id) {
        Some(inbox) => match inbox.send(GameEvent::Line {
            from: Arc::clone(conn),
            command,
        }) {
            Ok(()) => return,
            // The game ended between the lookup and the send: the lobby answers.
            Err(crossbeam_channel::SendError(GameEvent::Line { command, .. })) => command,
            Err(_) => return,
        },
        None => command,
    };
    server.lobby.answer_unseated(conn, command);
}
