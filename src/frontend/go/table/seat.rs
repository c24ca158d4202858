//! A seat at a GO! table: who sits there (a client with its connection, or the
//! practice bot with its helper thread) and its colour. The bot never sends or
//! receives lines, so what is sent to a seat goes to its client only.

use crate::engine::go::Colour;
use crate::frontend::go::event::Player;
use crate::frontend::go::questions::Questions;
use crate::frontend::thinker::Thinker;
use crate::net::Connection;
use std::sync::Arc;

/// Who sits in a seat.
pub(super) enum Occupant {
    /// A client, with its connection.
    Client(Player),
    /// The server's practice bot, which thinks on its helper thread.
    Bot { name: String, thinker: Thinker },
}

/// A seated player and its colour once the game starts.
pub(super) struct Seat {
    /// A client or the bot.
    pub(super) occupant: Occupant,
    /// Its colour, once the game starts.
    pub(super) colour: Colour,
}

impl Seat {
    /// The granted name.
    pub(super) fn name(&self) -> &str {
        match &self.occupant {
            Occupant::Client(player) => &player.name,
            Occupant::Bot { name, .. } => name,
        }
    }

    /// The connection of a client; `None` for the bot.
    pub(super) fn conn(&self) -> Option<&Arc<Connection>> {
        match &self.occupant {
            Occupant::Client(player) => Some(&player.conn),
            Occupant::Bot { .. } => None,
        }
    }

    /// What a client has been asked and not answered; `None` for the bot, which is
    /// asked nothing over the wire.
    pub(super) fn questions(&self) -> Option<&Questions> {
        match &self.occupant {
            Occupant::Client(player) => Some(&player.questions),
            Occupant::Bot { .. } => None,
        }
    }
}
