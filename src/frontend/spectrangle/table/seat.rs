//! Who sits at a table: a client, with its connection, or the practice bot, which the
//! table plays itself (no connection, no lines to send it).

use crate::engine::bot::SpectrangleBot;
use crate::frontend::spectrangle::event::Member;
use crate::frontend::spectrangle::protocol::{Extension, PlayerName};
use crate::net::{ConnId, Connection};
use std::sync::Arc;

/// A seat at the table: player `i` of the game sits in seat `i`.
pub(super) struct Seat {
    /// The name it joined (or was granted) with.
    pub(super) name: PlayerName,
    pub(super) who: Who,
}

/// Who fills a seat.
pub(super) enum Who {
    /// A client: where its lines go, and whether it takes chat.
    Client(Member),
    /// The practice bot, and its search (boxed: it is large).
    Bot(Box<SpectrangleBot>),
}

impl Seat {
    /// A client's seat.
    pub(super) fn client(member: Member) -> Seat {
        Seat {
            name: member.name.clone(),
            who: Who::Client(member),
        }
    }

    /// The bot's seat, its random choices all following from `seed`.
    pub(super) fn bot(name: PlayerName, seed: u64) -> Seat {
        Seat {
            name,
            who: Who::Bot(Box::new(SpectrangleBot::new(seed))),
        }
    }

    /// The client's connection; `None` for the bot.
    pub(super) fn conn(&self) -> Option<&Arc<Connection>> {
        match &self.who {
            Who::Client(member) => Some(&member.conn),
            Who::Bot(_) => None,
        }
    }

    /// Whether the client on connection `id` sits here.
    pub(super) fn is(&self, id: ConnId) -> bool {
        self.conn().is_some_and(|conn| conn.id == id)
    }

    /// Whether chat lines go to this seat (a client that enabled chat).
    pub(super) fn takes_chat(&self) -> bool {
        match &self.who {
            Who::Client(member) => member.extensions.has(Extension::Chat),
            Who::Bot(_) => false,
        }
    }

    /// Whether the bot sits here.
    pub(super) fn is_bot(&self) -> bool {
        matches!(self.who, Who::Bot(_))
    }
}
