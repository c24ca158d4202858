//! Seating the practice bot (SpectraBot) in a lobby, ready, at the console's `bot`:
//! it sits there like a member without a connection, under a name from the same
//! registry as the clients', and plays inside the table's loop (`table::bot`).

use super::Registry;
use super::lobbies::start_if_ready;
use crate::engine::spectrangle::MAX_PLAYERS;
use crate::frontend::names;
use crate::frontend::spectrangle::event::{BotRefused, TableEvent};
use crate::frontend::spectrangle::protocol::PlayerName;
use crate::frontend::spectrangle::summary::TableId;

/// The name the Spectrangle practice bot asks for (granted as `SpectraBot_2`, ... when
/// taken).
pub const BOT_NAME: &str = "SpectraBot";

impl Registry {
    /// Seats the practice bot in lobby `id`, ready: the game starts if every client
    /// there is ready too. Returns the name it was granted.
    ///
    /// # Errors
    ///
    /// Why not: no such table, its game has started or ended, the lobby is full, the
    /// server is shutting down.
    pub fn seat_bot(&self, id: TableId) -> Result<String, BotRefused> {
        if self.context.shutdown.is_triggered() {
            return Err(BotRefused::ShuttingDown);
        }
        let mut state = self.state.lock();
        let Some(table) = state.tables.get(&id) else {
            return Err(match state.finished.iter().rev().find(|s| s.id == id) {
                Some(_) => BotRefused::Ended(id),
                None => BotRefused::NoSuchTable(id),
            });
        };
        let Some(lobby) = table.lobby.clone() else {
            return Err(BotRefused::Playing(id));
        };
        if table.seated() >= MAX_PLAYERS {
            return Err(BotRefused::Full(id, lobby));
        }
        let granted = names::grant(BOT_NAME, |name| {
            PlayerName::parse(name).is_ok_and(|name| state.names.contains(&name))
        });
        let name = PlayerName::parse(&granted).map_err(|_| BotRefused::ShuttingDown)?;
        state.names.insert(name.clone());
        let Some(table) = state.tables.get_mut(&id) else {
            return Err(BotRefused::NoSuchTable(id));
        };
        table.bots.push(name.clone());
        let _ = table.inbox.post(TableEvent::SeatBot(name));
        start_if_ready(table);
        Ok(granted)
    }

    /// The practice bots seated at tables: name and table.
    pub fn bots(&self) -> Vec<(String, TableId)> {
        let state = self.state.lock();
        state
            .tables
            .iter()
            .flat_map(|(id, t)| t.bots.iter().map(move |b| (b.to_string(), *id)))
            .collect()
    }
}
