//! One client's connection thread: reads its lines, has them handled (by its game
//! if it sits in one, else by the lobby), and reports when the client is gone.
//!
//! Every blocking read has a bound: a client that is not in a game must send
//! HANDSHAKE within the handshake timeout of leaving one (or of connecting); a client
//! in a game wakes the thread at least once per handshake timeout (at most every
//! [`IDLE_READ_BOUND`]) to notice its game has ended; and any read is woken at once by
//! closing the socket (kick, shutdown, output stalled).

use crate::game::{Departure, EXIT_REASON, GameEvent};
use crate::net::{Connection, Incoming, LineReader, ReadError};
use crate::protocol::{self, ParseError, ServerMessage};
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
    log::info!(
        "{} disconnected: {}",
        conn.label(),
        conn.close_reason().unwrap_or(why)
    );
    // A client that only closed its sending side still gets the answers to the lines
    // it sent: the game handles them before this Left event, and the socket closes
    // when the last holder of the connection lets go of it.
    if let Some(inbox) = server.lobby.disconnect(conn.id) {
        // The game may have ended meanwhile; then there is nobody left to tell.
        let _ = inbox.send(GameEvent::Left { from: conn, how });
    }
}

/// Reads and handles lines until the connection ends; returns why it ended. Every
/// ending but the peer's own end of input closes the connection here.
fn read_lines(conn: &Arc<Connection>, server: &Server) -> String {
    let settings = &server.settings;
    let stream = conn.stream();
    let mut reader = LineReader::new(stream, settings.lines);
    // The read timeout in force, so the socket option is set only when it changes.
    let mut read_timeout = None;
    loop {
        if let Some(pause) = conn.pace() {
            thread::sleep(pause);
        }
        let wait = match (server.lobby.free_since(conn.id), settings.handshake_timeout) {
            (_, None) => IDLE_READ_BOUND,
            // In a game: wake at least once per handshake timeout, so a client left
            // in no game when its game ends is held to the timeout from that end.
            (None, Some(timeout)) => timeout.min(IDLE_READ_BOUND),
            (Some(since), Some(timeout)) => {
                let left = since
                    .checked_add(timeout)
                    .map_or(IDLE_READ_BOUND, |deadline| {
                        deadline.saturating_duration_since(Instant::now())
                    });
                if left.is_zero() {
                    return handshake_timed_out(conn, timeout);
                }
                left.min(IDLE_READ_BOUND)
            }
        };
        if read_timeout != Some(wait) {
            if let Err(e) = stream.set_read_timeout(Some(wait)) {
                return closed(conn, format!("socket error: {e}"));
            }
            read_timeout = Some(wait);
        }
        match reader.next_line() {
            Ok(Incoming::Line(line)) => {
                conn.received(&line);
                server.lobby.dispatch(conn, protocol::parse(&line));
            }
            Ok(Incoming::TooLong) => {
                conn.received("<line too long>");
                let max_bytes = settings.lines.max_line_bytes;
                server
                    .lobby
                    .dispatch(conn, Err(ParseError::LineTooLong { max_bytes }));
            }
            Ok(Incoming::NotUtf8) => {
                conn.received("<not UTF-8>");
                server.lobby.dispatch(conn, Err(ParseError::NotUtf8));
            }
            Err(ReadError::TimedOut) => {}
            Err(ReadError::Closed) => return "connection closed".into(),
            Err(ReadError::Flood) => {
                let reason = format!(
                    "it sent more than {} bytes without a newline",
                    settings.lines.flood_bytes
                );
                return closed(conn, reason);
            }
            Err(ReadError::Io(e)) => return closed(conn, format!("socket error: {e}")),
        }
    }
}

/// Closes the connection for `reason` and returns it.
fn closed(conn: &Connection, reason: String) -> String {
    conn.close(&reason);
    reason
}

fn handshake_timed_out(conn: &Connection, timeout: Duration) -> String {
    let seconds = timeout.as_secs();
    let _ = conn.send(&ServerMessage::UnknownCommand {
        reason: format!("No HANDSHAKE within {seconds} s: closing the connection"),
    });
    closed(conn, format!("no HANDSHAKE within {seconds} s"))
}
