//! Seating the practice bot: it takes the free seat of a game waiting for a partner
//! (when the leader has waited `--bot-after`, or at the console's `bot <game>`), under
//! a name from the same registry as the clients'. The bot then plays inside the game's
//! loop (`table::bot`); the registry only keeps its name while it sits there.

use super::{Registry, RegistryState};
use crate::engine::bot::Level;
use crate::frontend::go::event::{BotRefused, GameEvent};
use crate::frontend::go::protocol::GameId;
use crate::frontend::go::report;
use crate::frontend::names;

impl Registry {
    /// Seats the practice bot of `level` in game `id` if it waits for a partner; see
    /// [`Matchmaker::seat_bot`](crate::frontend::go::table::Matchmaker::seat_bot).
    ///
    /// # Errors
    ///
    /// Why not: no such game, ended, both seats taken, shutting down.
    pub fn seat_bot(&self, id: GameId, level: Level) -> Result<String, BotRefused> {
        if self.context.shutdown.is_triggered() {
            return Err(BotRefused::ShuttingDown);
        }
        let mut state = self.state.lock();
        let Some(entry) = state.games.get(&id) else {
            return Err(match state.finished.iter().rev().find(|g| g.id == id) {
                Some(g) => BotRefused::Ended {
                    game: id,
                    result: g.result.clone().unwrap_or_else(|| g.status.to_string()),
                },
                None => BotRefused::NoSuchGame(id),
            });
        };
        // Only a game on the queue has a free seat: whoever takes it off the queue
        // (a client's handshake or the bot) is the one seated there.
        if !state.waiting.contains(&id) {
            let players = report::players_of(&entry.summary.lock());
            return Err(BotRefused::Full { game: id, players });
        }
        let inbox = entry.inbox.clone();
        let name = names::grant(&names::bot_name(level), |name| {
            state.taken_names.contains(name)
        });
        if inbox.post(GameEvent::SeatBot(name.clone(), level)).is_err() {
            // Its loop has just ended; it is about to leave the registry.
            return Err(BotRefused::Ended {
                game: id,
                result: "just now".into(),
            });
        }
        state.waiting.retain(|g| *g != id);
        state.taken_names.insert(name.clone());
        state.bots.insert(id, name.clone());
        Ok(name)
    }

    /// The practice bots seated in games: name and game.
    pub fn bots(&self) -> Vec<(String, GameId)> {
        let state = self.state.lock();
        let mut bots: Vec<(String, GameId)> = state
            .bots
            .iter()
            .map(|(game, name)| (name.clone(), *game))
            .collect();
        bots.sort_by_key(|(_, game)| *game);
        bots
    }
}

/// Frees the name of the bot seated in game `id`, if any.
pub(super) fn free_bot(state: &mut RegistryState, id: GameId) {
    if let Some(name) = state.bots.remove(&id) {
        state.taken_names.remove(&name);
    }
}
