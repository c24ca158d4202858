//! What a Spectrangle table (a lobby, then its game) receives, and who it seats: the
//! vocabulary shared by the connection threads, the lobbies registry and the tables.

use super::protocol::{Command, Extension, PlayerName};
use super::summary::TableView;
use crate::frontend::Departure;
use crate::net::{ConnId, Connection};
use crossbeam_channel::{Receiver, Sender, bounded};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The longest a connection thread waits for its table to handle one of its lines (a
/// table handles an event in microseconds, sends included, as they never block; the
/// slowest is the last move of a game with `--records`, which writes the record before
/// SCORE so that the file is there when SCORE is read; this only bounds a table that
/// is stuck).
pub const HANDLED_WAIT: Duration = Duration::from_secs(5);

/// Travels with an event a client's line sent to its table, and is dropped once the
/// table has handled it (or thrown the event away). The client's connection thread
/// waits for that ([`Awaited::wait`]) before it reads the client's next line: the
/// table answers some lines (moves, chat, the LOBBY after a JOIN) and the registry the
/// others, and this keeps the answers in the order the client sent the lines.
#[derive(Debug)]
pub struct Handled {
    _dropped_when_handled: Sender<()>,
}

/// The connection thread's side of a [`Handled`].
pub struct Awaited(Receiver<()>);

/// A [`Handled`] for an event, and what waits for it.
pub fn handled() -> (Handled, Awaited) {
    let (sender, receiver) = bounded(0);
    (
        Handled {
            _dropped_when_handled: sender,
        },
        Awaited(receiver),
    )
}

impl Awaited {
    /// Waits until the event was handled (its [`Handled`] dropped), at most
    /// [`HANDLED_WAIT`].
    pub fn wait(self) {
        // Nothing is ever sent: the channel disconnects when the table drops its side.
        let _ = self.0.recv_timeout(HANDLED_WAIT);
    }
}

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
    /// Its connection.
    pub conn: Arc<Connection>,
    /// The name it joined with.
    pub name: PlayerName,
    /// What it has enabled.
    pub extensions: Arc<Extensions>,
}

/// What a table receives, in the order the registry decided it.
pub enum TableEvent {
    /// A client joined the lobby.
    Joined { member: Member, handled: Handled },
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
        handled: Handled,
    },
    /// A chat line (base64) from a member with chat enabled.
    Chat {
        from: ConnId,
        text: String,
        handled: Handled,
    },
    /// The console asks for a view of the table.
    Inspect(Sender<TableView>),
    /// Handled once every event before it is: sent after the events of a READY (the
    /// START it may trigger included) or an EXIT, so their sender waits for them.
    Reached(Handled),
}
