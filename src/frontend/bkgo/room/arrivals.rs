//! A client enters the room: it gets its ID, the player list, the seats and the
//! board, and the others hear of it (and of the seat it took). Who sits where is
//! `members`' bookkeeping; this file is what the room says about it.

use super::broadcast::send_all;
use super::{Occupant, Room};
use crate::engine::go::Colour;
use crate::front::Front;
use crate::frontend::bkgo::protocol::ServerMessage;
use crate::frontend::card;
use crate::net::Connection;
use std::sync::Arc;
use std::time::Instant;

impl Room {
    /// A client enters: it gets its ID, the player list, the seats and the board;
    /// the others hear of it, and of the seat it took.
    pub(super) fn join(&mut self, conn: Arc<Connection>, wanted: &str) {
        if self.members.by_conn(conn.id).is_some() {
            return;
        }
        let (member, seat) =
            self.members
                .join(Some(conn.id), wanted, Occupant::Client(Arc::clone(&conn)));
        let (id, name) = (member.id, member.name.clone());
        conn.set_name(&name);
        conn.accepted();
        card::named(&self.parts.cards, &conn, Front::Bkgo, &name);
        if let Some(colour) = seat {
            self.seat_taken(colour);
        }
        let role = seat.map_or("watching".to_string(), |c| format!("playing {c}"));
        log::info!(
            "bkgo room: {} joined as {name} (ID {id}), {role}",
            conn.peer
        );
        let mut lines = vec![ServerMessage::Id(id)];
        lines.extend(self.roster_and_board());
        send_all(&conn, &lines);
        let mut news = vec![
            ServerMessage::AnnouncePlayer(name.clone()),
            ServerMessage::AddPlayer(name.clone()),
        ];
        if let Some(colour) = seat {
            news.push(ServerMessage::Seat {
                colour,
                player: Some(name),
            });
        }
        self.broadcast_except(conn.id, &news);
    }

    /// Someone sat in the `colour` seat: if it is that colour's turn, it was told so
    /// just now (its card's move time starts). The other player's clock goes on.
    pub(super) fn seat_taken(&mut self, colour: Colour) {
        if self.game.to_move() == colour {
            self.turn_began = Instant::now();
        }
    }
}
