//! What a Spectrangle table (a lobby, then its game) receives, and who it seats: the
//! vocabulary shared by the connection threads, the lobbies registry and the tables.

use super::protocol::{Command, Extension, PlayerName};
use super::summary::TableView;
use crate::frontend::Departure;
use crate::net::{ConnId, Connection, Ticket};
use crossbeam_channel::Sender;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The extensions a client has enabled: set by its connection thread, read by its
/// table when it broadcasts a chat line.
#[derive(Debug, Default)]
pub struct Extensions {
    chat: AtomicBool,
    multilobby: AtomicBool,
}

impl Extensions {
    /// Enables `extension` for this client.
    pub fn enable(&self, extension: Extension) {
        self.flag(extension).store(true, Ordering::Relaxed);
    }

    /// Whether the client enabled `extension`.
    pub fn has(&self, extension: Extension) -> bool {
        self.flag(extension).load(Ordering::Relaxed)
    }

    fn flag(&self, extension: Extension) -> &AtomicBool {
        match extension {
            Extension::Chat => &self.chat,
            Extension::Multilobby => &self.multilobby,
        }
    }
}

/// A client with its name, as a table seats it.
#[derive(Clone)]
pub struct Member {
    /// Where the table sends its lines (and its id tells its moves apart).
    pub conn: Arc<Connection>,
    /// The name it joined with.
    pub name: PlayerName,
    /// What it has enabled.
    pub extensions: Arc<Extensions>,
}

/// What a table receives, in the order the registry decided it. An event made from a
/// client's line carries its [`Ticket`], dropped once the table has handled it: the
/// table answers some lines (moves, chat, the LOBBY after a JOIN) and the registry
/// the others, and the client's next line is read only then (see `net::handoff`).
pub enum TableEvent {
    /// A client joined the lobby.
    Joined { member: Member, ticket: Ticket },
    /// A member said READY.
    Ready(ConnId),
    /// A member left (EXIT, disconnect, kick).
    Left { conn: ConnId, how: Departure },
    /// Every member is ready: the game starts with the members as they are.
    Start,
    /// A move (MOVE_PLAY, MOVE_SWAP or MOVE_SKIP, arguments checked) from a player.
    Move {
        from: Arc<Connection>,
        command: Command,
        ticket: Ticket,
    },
    /// A chat line (base64) from a member with chat enabled.
    Chat {
        from: ConnId,
        text: String,
        ticket: Ticket,
    },
    /// The console asks for a view of the table.
    Inspect(Sender<TableView>),
    /// Handled once every event before it is: sent after the events of a READY (the
    /// START it may trigger included) or an EXIT, so their sender waits for them.
    Reached(Ticket),
}
