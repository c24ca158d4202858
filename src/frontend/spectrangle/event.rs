//! What a Spectrangle table (a lobby, then its game) receives, and who it seats: the
//! vocabulary shared by the connection threads, the lobbies registry and the tables.

use super::protocol::{Command, Extension, LobbyName, PlayerName};
use super::summary::{TableId, TableView};
use crate::engine::spectrangle::MAX_PLAYERS;
use crate::frontend::Departure;
use crate::net::{ConnId, Connection, Incoming, Ticket};
use crossbeam_channel::Sender;
use std::fmt;
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
        /// The line as it came (the example on its sender's card, if refused).
        line: Incoming,
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
    /// The practice bot joins the lobby under this granted name, ready.
    SeatBot(PlayerName),
    /// Unit tests only: a bug in the loop, to check that it ends this table alone.
    #[cfg(test)]
    Panic,
}

/// Why the practice bot cannot take a seat at a table (the console's `bot s3`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotRefused {
    /// No table has this id.
    NoSuchTable(TableId),
    /// Its game has ended.
    Ended(TableId),
    /// Its game has started: the bot joins lobbies only.
    Playing(TableId),
    /// The lobby (named) has four players.
    Full(TableId, LobbyName),
    /// The server is shutting down.
    ShuttingDown,
}

impl fmt::Display for BotRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotRefused::NoSuchTable(id) => write!(f, "no game {id}: type 'games' to list them"),
            BotRefused::Ended(id) => write!(
                f,
                "game {id} has ended: the practice bot joins a lobby waiting for players"
            ),
            BotRefused::Playing(id) => write!(
                f,
                "game {id} is being played: the practice bot joins a lobby waiting for players"
            ),
            BotRefused::Full(id, lobby) => write!(
                f,
                "lobby {lobby} ({id}) is full: {MAX_PLAYERS} players already"
            ),
            BotRefused::ShuttingDown => f.write_str("the server is shutting down"),
        }
    }
}
