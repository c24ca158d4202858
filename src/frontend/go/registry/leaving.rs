//! A client's way out of the registry: its EXIT (its game hears it; here the game it
//! leads stops waiting for a partner), the operator's kick, and its disconnect, which
//! frees its name (an EXIT frees it at once). How its game ends is the game's
//! (`table::ending`).

use super::{Registry, RegistryState};
use crate::frontend::go::event::GameEvent;
use crate::frontend::go::protocol::GameId;
use crate::net::{CloseReason, ConnId, Connection, Inbox};
use std::sync::Arc;

/// The close reason of a client that sent EXIT.
pub const EXIT: CloseReason = CloseReason::LeftWith("EXIT");

impl Registry {
    /// An EXIT that its game will accept (its own game id and name) is about to reach
    /// that game: if the game waits for a partner, nobody more is matched to it. A
    /// partner matched before is seated first and then matched anew when the leader
    /// leaves, with a fresh ACKNOWLEDGE_HANDSHAKE, as the README's GO! choices say.
    pub fn exiting(&self, conn: &Connection, game: GameId, name: &str) {
        let mut state = self.state.lock();
        let Some(entry) = state.clients.get(&conn.id) else {
            return;
        };
        if entry.route.game() == Some(game) && entry.name.as_deref() == Some(name) {
            state.waiting.retain(|g| *g != game);
            release_name(&mut state, conn.id);
        }
    }

    /// Kicks a client: a seated player loses its game (and is told so) before its
    /// connection is closed; any other client is just disconnected. A game it leads
    /// while waiting for a partner is matched to nobody more.
    pub fn kick(&self, conn: &Arc<Connection>) {
        let route = {
            let mut state = self.state.lock();
            let route = state.clients.get(&conn.id).map(|e| Arc::clone(&e.route));
            if let Some(game) = route.as_ref().and_then(|r| r.game()) {
                state.waiting.retain(|g| *g != game);
            }
            route
        };
        let kicked =
            route.is_some_and(|route| route.post(GameEvent::Kick(Arc::clone(conn))).is_ok());
        if !kicked {
            conn.close(CloseReason::Kicked);
        }
    }

    /// Forgets a closed connection and frees its name. Returns its game's inbox, so
    /// the caller can tell the game it left.
    pub fn disconnect(&self, conn: ConnId) -> Option<Inbox<GameEvent>> {
        let mut state = self.state.lock();
        let entry = state.clients.remove(&conn)?;
        if let Some(name) = &entry.name {
            state.taken_names.remove(name);
        }
        if let Some(arena) = state.arena.as_mut() {
            arena.leave(conn);
        }
        let game = entry.route.game()?;
        // A waiting game's one client is its leader: with it gone, nobody is matched
        // to that game any more (the game ends when it hears of the departure).
        state.waiting.retain(|g| *g != game);
        Some(state.games.get(&game)?.inbox.clone())
    }
}

/// Frees the name of a client that has sent EXIT, before its connection is closed: a
/// client that sees the close may take the name at once (its connection thread frees
/// the rest of its entry only a moment later).
pub(super) fn release_name(state: &mut RegistryState, conn: ConnId) {
    let name = state
        .clients
        .get_mut(&conn)
        .and_then(|entry| entry.name.take());
    if let Some(name) = name {
        state.taken_names.remove(&name);
    }
}
