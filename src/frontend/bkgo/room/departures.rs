//! A member leaves the room: its connection ended, it sent `Quitting:`, it sent
//! garbage, or the operator kicked it. The others hear `GoodbyePlayer:` and the seat
//! that changed hands; a seated player who goes mid-game has left a game, on its card.

use super::Room;
use super::broadcast::send_all;
use crate::frontend::Departure;
use crate::frontend::bkgo::event::QUIT;
use crate::frontend::bkgo::protocol::{ParseError, PlayerId, Refusal, ServerMessage};
use crate::frontend::card;
use crate::net::{CloseReason, ConnId, Connection};
use std::sync::Arc;

impl Room {
    /// Removes the member on `conn_id`, if it is one: the others get `GoodbyePlayer:`
    /// and the seat line of a seat that changed hands or became empty.
    pub(super) fn remove(&mut self, conn_id: ConnId) -> Option<String> {
        let id = self.members.by_conn(conn_id)?.id;
        self.remove_member(id)
    }

    /// Removes member `id` (a client, or the bot), as [`Room::remove`] does.
    pub(super) fn remove_member(&mut self, id: PlayerId) -> Option<String> {
        // A seated client that goes in the middle of a game (however it goes) has left
        // a game, on its card.
        if self.members.seat_of(id).is_some() && self.game_in_play() {
            let card = self
                .members
                .iter()
                .find(|m| m.id == id)
                .and_then(|m| m.conn.client())
                .and_then(|conn| card::of(conn));
            if let Some(card) = card {
                card.left_a_game();
            }
        }
        let (member, change) = self.members.leave(id)?;
        let mut news = vec![ServerMessage::GoodbyePlayer(member.name.clone())];
        if let Some(change) = change {
            if change.holder.is_some() {
                self.seat_taken(change.colour);
            }
            news.push(ServerMessage::Seat {
                colour: change.colour,
                player: change.holder,
            });
        }
        self.broadcast(&news);
        Some(member.name)
    }

    /// A member's connection ended (it closed it, or the server did).
    pub(super) fn depart(&mut self, from: ConnId, how: &Departure) {
        if let Some(name) = self.remove(from) {
            log::info!("bkgo room: {}", how.describe(&name));
        }
    }

    /// `Quitting:` with the member's own ID removes it and closes its connection.
    pub(super) fn quit(&mut self, conn: &Arc<Connection>, id: PlayerId, given: PlayerId) {
        if given != id {
            self.refuse(conn, &Refusal::NotYourId { given, yours: id });
            return;
        }
        conn.accepted();
        if let Some(name) = self.remove(conn.id) {
            log::info!("bkgo room: {name} quit");
        }
        conn.close(QUIT);
    }

    /// Garbage from a member: it is told why, then dropped.
    pub(super) fn garbage(&mut self, from: ConnId, error: &ParseError) {
        let Some(conn) = self
            .members
            .by_conn(from)
            .and_then(|m| m.conn.client())
            .map(Arc::clone)
        else {
            return;
        };
        let dialog = ServerMessage::Dialog(error.to_string());
        self.count_mistake(&conn, error.mistake(), &dialog);
        send_all(&conn, &[dialog.clone(), ServerMessage::RejectedFatal]);
        conn.close(CloseReason::Because(format!("it sent garbage: {error}")));
        if let Some(name) = self.remove(from) {
            log::info!("bkgo room: {name} was dropped for garbage: {error}");
        }
    }

    /// The operator kicks a client: a member is told, removed, then closed.
    pub(super) fn kick(&mut self, conn: &Arc<Connection>) {
        if self.members.by_conn(conn.id).is_some() {
            send_all(
                conn,
                &[
                    ServerMessage::Dialog("You were kicked out of the room by the operator".into()),
                    ServerMessage::RejectedFatal,
                ],
            );
            self.remove(conn.id);
        }
        conn.close(CloseReason::Kicked);
    }

    /// The operator kicks both seated players (black first), the practice bot too;
    /// their seats go to the longest-waiting watchers. Returns their names.
    pub(super) fn kick_seated(&mut self) -> Vec<String> {
        let seated: Vec<(PlayerId, String, Option<Arc<Connection>>)> = self
            .members
            .seated()
            .map(|(_, m)| (m.id, m.name.clone(), m.conn.client().map(Arc::clone)))
            .collect();
        for (id, name, conn) in &seated {
            match conn {
                Some(conn) => {
                    log::info!("bkgo room: operator kicked {name}");
                    self.kick(conn);
                }
                None => self.bot_leaves(*id, "the operator kicked it"),
            }
        }
        seated.into_iter().map(|(_, name, _)| name).collect()
    }
}
