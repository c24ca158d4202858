//! One Bkgo client's connection thread: the greeting, the version line, the one
//! request (`status`; `shutdown` and its password; `join` and its `Player:`), then, in
//! the room, every line handed to the room loop in the order it came. An SGF stream
//! (`SendingBoard` ... `EOF`) is gathered and replayed here, so the room gets it as one
//! event and never spends its time parsing.
//!
//! Before joining, garbage is answered here (`Dialog:` and `ServerRejectedFatal`) and
//! the connection closes; in the room, the room answers it, in order with the rest.
//! Until it has joined, a client is held to the handshake timeout from connecting.

use super::BkgoFrontEnd;
use super::event::RoomEvent;
use super::password::Verdict;
use super::protocol::{
    self, ClientMessage, END_OF_SGF, Expecting, ParseError, Refusal, ServerMessage,
};
use super::upload::Upload;
use crate::cards::{Mistake, Offending};
use crate::front::Front;
use crate::frontend::{Departure, card, names};
use crate::net::{self, Connection, Handled, IDLE_READ_BOUND, Incoming};
use std::borrow::Cow;
use std::net::{SocketAddr, TcpStream};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a client waiting for `Player:` may leave a started line unfinished before
/// a Java object in it is answered: `ObjectOutputStream` sends no line end.
pub const JAVA_OBJECT_PAUSE: Duration = Duration::from_millis(500);

/// Serves one client until it disconnects or is disconnected.
pub fn serve(stream: TcpStream, peer: SocketAddr, front: &BkgoFrontEnd) {
    let conn = match front.context.connections.open(stream, peer) {
        Ok(conn) => conn,
        Err(e) => {
            log::warn!("{peer}: cannot set up the connection: {e}");
            return;
        }
    };
    front.register(&conn);
    log::info!("{} connected (Bkgo)", conn.label());
    let _ = conn.send(&ServerMessage::Greeting);
    let mut session = Session {
        front,
        expecting: Expecting::Version,
        connected: Instant::now(),
        upload: None,
        object_until: None,
    };
    // An over-long line is garbage at once (BKGO.md), however long it goes on.
    let limits = front.context.settings.lines.reporting_at_once();
    let why = net::read_lines(&conn, limits, &mut session);
    card::farewell(&front.context.cards, &conn);
    let reason = conn.close_reason();
    log::info!(
        "{} disconnected: {}",
        conn.label(),
        reason.as_ref().map_or(why, ToString::to_string)
    );
    if session.expecting == Expecting::Room {
        // Every line it sent was answered before this (see `net::handoff`). During
        // shutdown the room may be gone: then nobody is left to tell.
        let how = Departure::of_closed(reason);
        let _ = front.room.hand_over(RoomEvent::Left { from: conn.id, how });
    }
    front.unregister(conn.id);
}

/// The Bkgo side of one connection's read loop.
struct Session<'a> {
    front: &'a BkgoFrontEnd,
    /// What the client may send now.
    expecting: Expecting,
    /// When it connected: its handshake timeout runs from here until it joins.
    connected: Instant,
    /// The SGF stream it is sending, between `SendingBoard` and `EOF`.
    upload: Option<Upload>,
    /// After a Java object instead of `Player:`: until when what follows is taken for
    /// the rest of the object (it may hold newline bytes) and dropped, unless it is a
    /// `Player:` line. Every piece of it pushes this on by [`JAVA_OBJECT_PAUSE`].
    object_until: Option<Instant>,
}

impl net::Lines for Session<'_> {
    fn next_wait(&mut self, conn: &Arc<Connection>) -> Result<Duration, String> {
        if self.expecting == Expecting::Room {
            return Ok(IDLE_READ_BOUND);
        }
        let timeout = self.front.context.settings.handshake_timeout;
        let left = net::identify_wait(Some(self.connected), timeout).map_err(|seconds| {
            let text = format!(
                "Timed out: expected {} within {seconds} s of connecting, closing the connection",
                self.expecting
            );
            counted(conn, Mistake::NoHandshakeInTime, Offending::Silence, &text);
            fatal(conn, &text);
            format!("it did not join within {seconds} s")
        })?;
        if self.expecting == Expecting::Player {
            if self
                .object_until
                .is_some_and(|until| Instant::now() >= until)
            {
                self.object_until = None;
            }
            // Wake up soon enough to answer a Java object that has no line end.
            return Ok(left.min(JAVA_OBJECT_PAUSE));
        }
        Ok(left)
    }

    fn line(&mut self, conn: &Arc<Connection>, line: Incoming) -> Handled {
        if self.upload.is_some() {
            return self.sgf_line(conn, line);
        }
        let max_bytes = self.front.context.settings.lines.max_line_bytes;
        let message = match &line {
            // A line that may hold a password is refused without quoting it.
            Incoming::Line(text) => match self.hidden_as(text) {
                Some(shown) => protocol::parse(text, self.expecting).map_err(|e| e.hiding(shown)),
                None => protocol::parse(text, self.expecting),
            },
            Incoming::TooLong => Err(ParseError::LineTooLong { max_bytes }),
            Incoming::NotUtf8 => Err(ParseError::NotUtf8),
        };
        if message.is_err() && self.rest_of_object() {
            return ControlFlow::Continue(None);
        }
        match (self.expecting, message) {
            (Expecting::Room, Ok(ClientMessage::SendingBoard)) => {
                self.upload = Some(Upload::new());
                ControlFlow::Continue(None)
            }
            // In the room, the room answers, in order with everything else.
            (Expecting::Room, message) => {
                let line = self.hidden(line);
                self.to_room(|ticket| RoomEvent::Line {
                    from: conn.id,
                    line,
                    message,
                    ticket,
                })
            }
            (_, Ok(message)) => self.request(conn, message),
            (_, Err(error)) => {
                let text = error.to_string();
                let line = self.hidden(line);
                counted(
                    conn,
                    error.mistake(),
                    card::offending(&line, max_bytes),
                    &text,
                );
                fatal(conn, &text);
                ControlFlow::Break(format!("it sent garbage: {error}"))
            }
        }
    }

    fn logged<'a>(&self, line: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(self.hidden_as(line).unwrap_or(line))
    }

    fn binary_line(&mut self, conn: &Arc<Connection>, bytes: &[u8]) -> Option<Handled> {
        self.java_object(conn, bytes)
    }

    fn unfinished_line(&mut self, conn: &Arc<Connection>, bytes: &[u8]) -> Option<Handled> {
        self.java_object(conn, bytes)
    }
}

impl Session<'_> {
    /// What the log and the cards show in place of `line` when it may hold a
    /// password: the line after GimmePassword, or one whose keyword is `Password` in
    /// any case (a `password:` is refused for its case, and still holds one), after
    /// blanks or a byte-order mark.
    fn hidden_as(&self, line: &str) -> Option<&'static str> {
        if self.expecting == Expecting::Password {
            return Some("<the line after GimmePassword, not shown>");
        }
        let start = line.trim_start_matches(|c: char| c == '\u{feff}' || c.is_whitespace());
        start
            .get(.."password".len())
            .is_some_and(|keyword| keyword.eq_ignore_ascii_case("password"))
            .then_some("Password: <not shown>")
    }

    /// `line`, or in its place what the log shows of it when it may hold a password
    /// (`Password: <not shown>`): nothing of a password goes to a card.
    fn hidden(&self, line: Incoming) -> Incoming {
        match line {
            Incoming::Line(text) => match self.hidden_as(&text) {
                Some(shown) => Incoming::Line(shown.to_string()),
                None => Incoming::Line(text),
            },
            other => other,
        }
    }

    /// A binary Java object instead of `Player:` is refused (it is not garbage): the
    /// client may still send `Player:`. What follows the object's first bytes before
    /// a pause is the rest of it, dropped. Anything else binary is left to
    /// [`Self::line`].
    fn java_object(&mut self, conn: &Arc<Connection>, bytes: &[u8]) -> Option<Handled> {
        if self.rest_of_object() {
            return Some(ControlFlow::Continue(None));
        }
        if self.expecting != Expecting::Player || !protocol::is_java_object(bytes) {
            return None;
        }
        log::info!(
            "{} sent a binary Java object instead of Player:",
            conn.label()
        );
        refuse(
            conn,
            &Refusal::JavaObject,
            Offending::Line("(a binary Java object)"),
        );
        self.object_until = Some(Instant::now() + JAVA_OBJECT_PAUSE);
        Some(ControlFlow::Continue(None))
    }

    /// Whether what just arrived is taken for the rest of a Java object (see
    /// `object_until`); if so, the object goes on a while longer.
    fn rest_of_object(&mut self) -> bool {
        let now = Instant::now();
        match self.object_until {
            Some(until) if self.expecting == Expecting::Player && now < until => {
                self.object_until = Some(now + JAVA_OBJECT_PAUSE);
                true
            }
            _ => {
                self.object_until = None;
                false
            }
        }
    }

    /// The one request a client makes before joining, and its answer.
    fn request(&mut self, conn: &Arc<Connection>, message: ClientMessage) -> Handled {
        let context = &self.front.context;
        match message {
            ClientMessage::Version(_) => {
                conn.accepted();
                let _ = conn.send(&ServerMessage::Ok);
                self.expecting = Expecting::Request;
            }
            ClientMessage::Join => {
                conn.accepted();
                let _ = conn.send(&ServerMessage::GimmeGoPlayer);
                self.expecting = Expecting::Player;
            }
            ClientMessage::Shutdown => {
                conn.accepted();
                let _ = conn.send(&ServerMessage::GimmePassword);
                self.expecting = Expecting::Password;
            }
            ClientMessage::Status => {
                conn.accepted();
                match self.front.status() {
                    Ok(status) => {
                        let _ = conn.send(&ServerMessage::Status(status));
                    }
                    Err(why) => fatal(conn, &format!("No status: {why}")),
                }
                return ControlFlow::Break("status answered".into());
            }
            ClientMessage::Password(guess) => {
                return match self.front.gate.judge(&guess, &context.shutdown) {
                    Verdict::Right => {
                        let _ = conn.send(&ServerMessage::Terminated);
                        log::warn!("{}: remote shutdown with the right password", conn.label());
                        context.shutdown.trigger();
                        ControlFlow::Break("remote shutdown".into())
                    }
                    Verdict::Wrong => {
                        // A wrong password is on the card; the password never is.
                        counted(
                            conn,
                            Mistake::Other,
                            Offending::Line("Password: <not shown>"),
                            &ServerMessage::RejectedFatal.to_string(),
                        );
                        let _ = conn.send(&ServerMessage::RejectedFatal);
                        log::warn!("{}: wrong shutdown password", conn.label());
                        ControlFlow::Break("wrong shutdown password".into())
                    }
                };
            }
            ClientMessage::Player(name) => return self.join(conn, name),
            // Parsed before joining, a room message is a ParseError::NotNow; this arm
            // answers it the same way should that ever change.
            other => {
                let error = ParseError::NotNow {
                    command: other.command(),
                    expecting: self.expecting,
                };
                let text = error.to_string();
                counted(
                    conn,
                    error.mistake(),
                    Offending::Line(other.command()),
                    &text,
                );
                fatal(conn, &text);
                return ControlFlow::Break(format!("it sent garbage: {error}"));
            }
        }
        ControlFlow::Continue(None)
    }

    /// `Player: <name>`: a good name enters the room (the room answers); a broken one
    /// is refused, and the client may try again.
    fn join(&mut self, conn: &Arc<Connection>, name: String) -> Handled {
        if let Err(broken) = names::check(&name) {
            let line = format!("Player: {name}");
            refuse(conn, &Refusal::BadName(broken), Offending::Line(&line));
            return ControlFlow::Continue(None);
        }
        if self.front.context.shutdown.is_triggered() {
            fatal(conn, "The server is shutting down");
            return ControlFlow::Break("the room is closed".into());
        }
        self.expecting = Expecting::Room;
        self.to_room(|ticket| RoomEvent::Join {
            conn: Arc::clone(conn),
            name,
            ticket,
        })
    }

    /// A line of the SGF stream being sent: `EOF` ends it, and the stream, read and
    /// replayed, goes to the room.
    fn sgf_line(&mut self, conn: &Arc<Connection>, line: Incoming) -> Handled {
        let error = match line {
            Incoming::Line(text) if text.trim() == END_OF_SGF => {
                let Some(upload) = self.upload.take() else {
                    return ControlFlow::Continue(None);
                };
                let settings = &self.front.context.settings;
                let game = upload
                    .load(settings.rules, settings.max_board_size)
                    .map(Box::new);
                return self.to_room(|ticket| RoomEvent::Board {
                    from: conn.id,
                    game,
                    ticket,
                });
            }
            Incoming::Line(text) => {
                if let Some(upload) = &mut self.upload {
                    upload.push(&text);
                }
                return ControlFlow::Continue(None);
            }
            Incoming::TooLong => ParseError::LineTooLong {
                max_bytes: self.front.context.settings.lines.max_line_bytes,
            },
            Incoming::NotUtf8 => ParseError::NotUtf8,
        };
        // A line that is not one of an SGF text is garbage here too.
        self.upload = None;
        let line = match &error {
            ParseError::NotUtf8 => Incoming::NotUtf8,
            _ => Incoming::TooLong,
        };
        self.to_room(|ticket| RoomEvent::Line {
            from: conn.id,
            line,
            message: Err(error),
            ticket,
        })
    }

    /// Hands the event `make` builds around a ticket to the room; the read loop waits
    /// for the room's answer before the next line (see `net::handoff`). The connection
    /// ends if the room is gone (the server is shutting down).
    fn to_room(&self, make: impl FnOnce(crate::net::Ticket) -> RoomEvent) -> Handled {
        let (ticket, awaited) = crate::net::ticket();
        if self.front.room.hand_over(make(ticket)).is_err() {
            return ControlFlow::Break("the room is closed".into());
        }
        ControlFlow::Continue(Some(awaited))
    }
}

/// Garbage (or the end): `Dialog: <text>`, then `ServerRejectedFatal`; the caller
/// closes the connection.
fn fatal(conn: &Connection, text: &str) {
    let _ = conn.send(&ServerMessage::Dialog(text.to_string()));
    let _ = conn.send(&ServerMessage::RejectedFatal);
}

/// A refusal that keeps the connection: `Dialog: <reason>`, `ServerRejectedNonFatal`;
/// `line` is a mistake on the client's card.
fn refuse(conn: &Connection, refusal: &Refusal, line: Offending<'_>) {
    let dialog = ServerMessage::Dialog(refusal.to_string());
    // On the card before the client hears it (see `card::refuse`).
    card::mistake(
        conn,
        Front::Bkgo,
        refusal.mistake(),
        line,
        &dialog.to_string(),
    );
    let _ = conn.send(&dialog);
    let _ = conn.send(&ServerMessage::RejectedNonFatal);
}

/// `line`, answered with `Dialog: <text>`, as a mistake of `kind` on the client's card.
fn counted(conn: &Connection, kind: Mistake, line: Offending<'_>, text: &str) {
    let dialog = ServerMessage::Dialog(text.to_string());
    card::mistake(conn, Front::Bkgo, kind, line, &dialog.to_string());
}
