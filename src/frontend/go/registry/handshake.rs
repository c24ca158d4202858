//! Answering a HANDSHAKE: the name granted (`Bob`, or `Bob_2` when taken), the client
//! seated (`matchmaking`), its report card named, and the answer sent:
//! ACKNOWLEDGE_HANDSHAKE, and REQUEST_CONFIG to the leader of a new game, whose loop
//! then starts.
//!
//! The answer must reach the client before anything the game says to it, yet no lock
//! is held across socket I/O. So, under the registry's lock, the client's output is
//! held (`Connection::hold_output`) before the game can hear of the player; the lock
//! is released; then [`Registry::announce`] sends the answer through the hold and drops
//! it. The lock order is fixed: the registry first, the output second.

use super::matchmaking::Seated;
use super::{Registry, RegistryState};
use crate::cards::Mistake;
use crate::front::Front;
use crate::frontend::go::event::Player;
use crate::frontend::go::protocol::{GameId, ServerMessage};
use crate::frontend::{card, names};
use crate::net::{Connection, OutputHold};
use std::sync::Arc;

/// Why a HANDSHAKE was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum HandshakeRefused {
    /// The client already sits in a game.
    AlreadyInGame { game: GameId, name: String },
    /// The client already waits in the arena.
    AlreadyWaiting { name: String },
    /// The server is shutting down.
    ShuttingDown,
    /// The connection is closed (a line it sent before its EXIT, or before it went):
    /// there is nobody to seat.
    Gone,
}

impl std::fmt::Display for HandshakeRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeRefused::AlreadyInGame { game, name } => write!(
                f,
                "You are already {name} in game {game}: HANDSHAKE is accepted only when you are not in a game"
            ),
            HandshakeRefused::AlreadyWaiting { name } => write!(
                f,
                "You are already {name}, waiting in the arena: the next round pairs you (ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG)"
            ),
            HandshakeRefused::ShuttingDown => write!(f, "The server is shutting down"),
            HandshakeRefused::Gone => write!(f, "The connection is closed"),
        }
    }
}

impl HandshakeRefused {
    /// The kind of mistake it is on the client's card; `None` when it is not the
    /// client's doing.
    pub fn mistake(&self) -> Option<Mistake> {
        match self {
            HandshakeRefused::AlreadyInGame { .. } | HandshakeRefused::AlreadyWaiting { .. } => {
                Some(Mistake::SecondHandshake)
            }
            HandshakeRefused::ShuttingDown | HandshakeRefused::Gone => None,
        }
    }
}

impl Registry {
    /// Grants `wanted` (or `wanted_2`, `wanted_3`, ... if it is taken) and seats the
    /// client: in the oldest waiting game, or as the leader of a new one; then tells
    /// it where (see `Registry::announce`).
    ///
    /// # Errors
    ///
    /// When the client already sits in a game, or the server is stopping.
    pub fn handshake(&self, conn: &Arc<Connection>, wanted: &str) -> Result<(), HandshakeRefused> {
        let output;
        let (player, seated) = {
            let mut state = self.state.lock();
            // Under the lock: a shutdown is either seen here or sees this client seated.
            if self.context.shutdown.is_triggered() {
                return Err(HandshakeRefused::ShuttingDown);
            }
            // Under the lock, so a disconnect is either wholly before (then nothing is
            // seated) or wholly after (then its Left reaches the game seated here).
            let Some(entry) = state.clients.get(&conn.id) else {
                return Err(HandshakeRefused::Gone);
            };
            if conn.is_closed() {
                return Err(HandshakeRefused::Gone);
            }
            if let (Some(game), Some(name)) = (entry.route.game(), &entry.name) {
                return Err(HandshakeRefused::AlreadyInGame {
                    game,
                    name: name.clone(),
                });
            }
            if let (true, Some(name)) = (entry.route.is_waiting(), &entry.name) {
                return Err(HandshakeRefused::AlreadyWaiting { name: name.clone() });
            }
            let questions = Arc::clone(&entry.questions);
            // A HANDSHAKE moves the client on: no earlier question is waited for.
            questions.forget();
            let name = grant_name(&mut state, conn, wanted);
            conn.set_name(&name);
            let player = Player {
                conn: Arc::clone(conn),
                name,
                questions,
            };
            output = conn.hold_output();
            let seated = self.seat_locked(&mut state, player.clone());
            (player, seated)
        };
        // Before the answer: whoever sees ACKNOWLEDGE_HANDSHAKE finds the card, and
        // the client's next line (read on this thread only after this) counts there.
        card::named(&self.context.cards, conn, Front::Go, &player.name);
        self.announce(output, &player, seated);
        Ok(())
    }

    /// Tells a player where [`Registry::seat_locked`] seated it: ACKNOWLEDGE_HANDSHAKE,
    /// and REQUEST_CONFIG to the leader of a new game, whose loop is then started.
    /// `output` was taken before the game could hear of the player, so these lines
    /// come before anything the game sends it.
    pub(super) fn announce(
        &self,
        mut output: OutputHold<'_>,
        player: &Player,
        seated: Option<Seated>,
    ) {
        let Some(Seated { game, new_game }) = seated else {
            return;
        };
        let is_leader = new_game.is_some();
        let _ = output.send(&ServerMessage::AcknowledgeHandshake {
            game_id: game,
            is_leader,
        });
        if is_leader {
            let max = self.context.settings.max_board_size;
            player.questions.ask_config();
            let _ = output.send(&ServerMessage::request_config(game, max));
        }
        drop(output);
        player.conn.accepted();
        if let Some(new_game) = new_game {
            self.start_loop(new_game);
        }
    }
}

/// Grants `wanted` if no other client holds it, else the first free `wanted_N`.
fn grant_name(state: &mut RegistryState, conn: &Connection, wanted: &str) -> String {
    let previous = state.clients.get_mut(&conn.id).and_then(|e| e.name.take());
    if let Some(previous) = previous {
        state.taken_names.remove(&previous);
    }
    let granted = names::grant(wanted, |name| state.taken_names.contains(name));
    state.taken_names.insert(granted.clone());
    if let Some(entry) = state.clients.get_mut(&conn.id) {
        entry.name = Some(granted.clone());
    }
    granted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontend::Context;
    use crate::settings::Settings;
    use crate::shutdown::Shutdown;

    #[test]
    fn a_handshake_during_shutdown_is_refused_with_a_reason() {
        let shutdown = Shutdown::new();
        let registry = Registry::new(Context::standalone(Settings::default(), shutdown.clone()));
        let (_client, conn) = registry.context.connections.loopback();
        registry.connect(&conn);
        shutdown.trigger();
        let refused = registry.handshake(&conn, "Ann").expect_err("refused");
        assert_eq!(refused, HandshakeRefused::ShuttingDown);
        assert_eq!(refused.to_string(), "The server is shutting down");
        assert_eq!(registry.games().0.len(), 0, "no game was opened");
    }
}
