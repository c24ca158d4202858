//! Every line the room sends goes out here: to one member, to all, to all but one,
//! and refusals (counted on the sender's card first). Sending never blocks: each
//! connection's outbox is bounded and non-blocking, and a member that stops reading is
//! dropped by the net layer and leaves like any other. What holds a fast sender back
//! while a member is behind is the brake ([`Brake`](crate::net::Brake)): the tickets
//! of the lines the room answered wait in it ([`Room::answered`]).

use super::Room;
use crate::cards::Mistake;
use crate::front::Front;
use crate::frontend::bkgo::protocol::{Refusal, ServerMessage};
use crate::frontend::card;
use crate::net::{ConnId, Connection, Ticket};

impl Room {
    /// A line has been answered: its ticket goes, unless a member is behind on what
    /// the room sent it (then the sender waits, see `net::handoff::Brake`).
    pub(super) fn answered(&mut self, ticket: Ticket) {
        let clients = self.members.iter().filter_map(|m| m.conn.client());
        self.brake.answered(ticket, clients.map(AsRef::as_ref));
    }

    /// Sends `messages` to every member, each line formatted once.
    pub(super) fn broadcast(&self, messages: &[ServerMessage]) {
        self.broadcast_to(messages, |_| true);
    }

    /// Sends `messages` to every member but the one on `except`.
    pub(super) fn broadcast_except(&self, except: ConnId, messages: &[ServerMessage]) {
        self.broadcast_to(messages, |conn| conn != except);
    }

    pub(super) fn broadcast_to(&self, messages: &[ServerMessage], to: impl Fn(ConnId) -> bool) {
        let lines: Vec<String> = messages.iter().map(ToString::to_string).collect();
        let clients = self.members.iter().filter_map(|m| m.conn.client());
        for conn in clients.filter(|conn| to(conn.id)) {
            for line in &lines {
                // A closed connection is reported by its reader thread as a Left event.
                let _ = conn.send_line(line, false);
            }
        }
    }

    /// Refuses a member's message without dropping it; the line is a mistake on its
    /// card.
    pub(super) fn refuse(&self, conn: &Connection, refusal: &Refusal) {
        let dialog = ServerMessage::Dialog(refusal.to_string());
        // On the card before the client hears it (see `card::refuse`).
        self.count_mistake(conn, refusal.mistake(), &dialog);
        send_all(conn, &[dialog.clone(), ServerMessage::RejectedNonFatal]);
    }

    /// The line being answered, a mistake of `kind` answered with `dialog`.
    pub(super) fn count_mistake(&self, conn: &Connection, kind: Mistake, dialog: &ServerMessage) {
        let Some(line) = &self.answering else { return };
        let max_bytes = self.parts.settings.lines.max_line_bytes;
        card::mistake(
            conn,
            Front::Bkgo,
            kind,
            card::offending(line, max_bytes),
            &dialog.to_string(),
        );
    }
}

/// Sends `messages` to one client, in order.
pub(super) fn send_all(conn: &Connection, messages: &[ServerMessage]) {
    for message in messages {
        // A closed connection is reported by its reader thread as a Left event.
        let _ = conn.send(message);
    }
}
