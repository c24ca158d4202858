//! A client's way out of its table: EXIT, or its connection ended. Its name is free
//! again and the table is told; a lobby left with nobody closes, a lobby left with only
//! ready players starts.

use super::Registry;
use super::lobbies::start_if_ready;
use crate::frontend::Departure;
use crate::frontend::spectrangle::event::TableEvent;
use crate::net::{ConnId, Ticket};

impl Registry {
    /// A client leaves its table: its name is free again, the table is told; a lobby
    /// left with nobody closes, a lobby left with only ready players starts.
    /// False when the client sat at no table (any more). `reached`, for a client that
    /// leaves by its own line (EXIT), is dropped once the table has handled the
    /// departure: whatever the table said to the client before comes before the answer
    /// to its next line.
    pub(super) fn leave(&self, conn: ConnId, how: Departure, reached: Option<Ticket>) -> bool {
        let mut state = self.state.lock();
        let Some(client) = state.clients.get_mut(&conn) else {
            return false;
        };
        let Some(id) = client.table.take() else {
            return false;
        };
        if let Some(name) = client.name.take() {
            state.names.remove(&name);
        }
        let Some(table) = state.tables.get_mut(&id) else {
            return true;
        };
        table.members.retain(|member| *member != conn);
        table.ready.remove(&conn);
        let _ = table.inbox.post(TableEvent::Left { conn, how });
        if let Some(reached) = reached {
            let _ = table.inbox.post(TableEvent::Reached(reached));
        }
        if table.lobby.is_some() {
            if table.members.is_empty() {
                // No client left (a bot plays for nobody): dropping the inbox ends the
                // lobby's loop.
                if let Some(table) = state.tables.remove(&id) {
                    for bot in table.bots {
                        state.names.remove(&bot);
                    }
                }
            } else {
                start_if_ready(table);
            }
        }
        true
    }
}
