//! Seating in lobbies: a JOIN seats its client in the lobby it names (multilobby),
//! else in the oldest default lobby with room, else in a new default lobby; READY
//! marks a member ready; a lobby whose members are all ready (two or more) starts its
//! game. Each change is an event put in the lobby's inbox under the registry's lock, so
//! its table tells the members in the order the changes were decided.

use super::requests::Refusal;
use super::tables::{NewTable, TableEntry};
use super::{Registry, State};
use crate::cards::Mistake;
use crate::engine::spectrangle::MAX_PLAYERS;
use crate::front::Front;
use crate::frontend::card;
use crate::frontend::spectrangle::event::{Extensions, Member, TableEvent};
use crate::frontend::spectrangle::protocol::{ErrorCode, LobbyName, PlayerName};
use crate::frontend::spectrangle::summary::{TableId, TableSummary};
use crate::net::{ConnId, Connection, Ticket};
use parking_lot::Mutex;
use std::collections::HashSet;
use std::sync::Arc;

/// The name of the first default lobby; the next ones are `default-2`, `default-3`, ...
const DEFAULT_LOBBY: &str = "default";

impl Registry {
    /// Seats `conn` as `name`: in the lobby it names (multilobby), else in the oldest
    /// default lobby with room, else in a new default lobby.
    pub(super) fn join(
        &self,
        conn: &Arc<Connection>,
        name: PlayerName,
        lobby: Option<LobbyName>,
        extensions: &Arc<Extensions>,
        ticket: Ticket,
    ) -> Result<(), Refusal> {
        let new_table = {
            let mut state = self.state.lock();
            if state.names.contains(&name) {
                return Err((
                    ErrorCode::NameTaken,
                    Mistake::NameTaken,
                    format!("The name {name} is taken by another player: choose another name"),
                ));
            }
            let found = match &lobby {
                Some(wanted) => state
                    .tables
                    .iter()
                    .find(|(_, t)| t.lobby.as_ref() == Some(wanted))
                    .map(|(id, t)| (*id, t.seated())),
                None => state
                    .tables
                    .iter()
                    .find(|(_, t)| t.default && t.is_open_lobby())
                    .map(|(id, t)| (*id, t.seated())),
            };
            if let (Some((_, members)), Some(wanted)) = (found, &lobby)
                && members >= MAX_PLAYERS
            {
                return Err((
                    ErrorCode::Generic,
                    Mistake::LobbyFull,
                    format!(
                        "Lobby {wanted} is full ({MAX_PLAYERS} players): join another lobby, or wait until its game starts"
                    ),
                ));
            }
            let (id, new_table) = match found {
                Some((id, _)) => (id, None),
                None => {
                    let (id, new_table) = self.open_lobby(&mut state, lobby);
                    (id, Some(new_table))
                }
            };
            let member = Member {
                conn: Arc::clone(conn),
                name: name.clone(),
                extensions: Arc::clone(extensions),
            };
            state.names.insert(name.clone());
            if let Some(client) = state.clients.get_mut(&conn.id) {
                client.name = Some(name.clone());
                client.table = Some(id);
                client.unidentified_since = None;
            }
            conn.set_name(name.as_str());
            // Before the table can answer (LOBBY): whoever sees that line finds the
            // card. The card registry's lock is a leaf: nothing under it takes ours.
            card::named(&self.context.cards, conn, Front::Spectrangle, name.as_str());
            if let Some(table) = state.tables.get_mut(&id) {
                table.members.push(conn.id);
                // The table's LOBBY line comes before the answer to the client's next
                // line: the ticket travels with the event.
                let _ = table.inbox.post(TableEvent::Joined { member, ticket });
            }
            new_table
        };
        if let Some(new_table) = new_table {
            self.start_thread(new_table);
        }
        Ok(())
    }

    /// Opens a lobby named `name`, or the lowest free default name when `None`.
    fn open_lobby(&self, state: &mut State, name: Option<LobbyName>) -> (TableId, NewTable) {
        // A lobby named like a default one (`JOIN Ann default-2` with multilobby) is
        // one: plain JOINs go there too.
        let default = name.as_ref().is_none_or(|n| is_default_name(n.as_str()));
        let name = name.unwrap_or_else(|| free_default_name(state));
        let id = TableId(state.next_id);
        state.next_id += 1;
        let (inbox, events) = crate::net::inbox(&self.depth, &self.context.shutdown);
        let summary = Arc::new(Mutex::new(TableSummary::new(id, name.to_string())));
        state.tables.insert(
            id,
            TableEntry {
                inbox,
                summary: Arc::clone(&summary),
                lobby: Some(name),
                default,
                members: Vec::new(),
                ready: HashSet::new(),
                bots: Vec::new(),
            },
        );
        let new_table = NewTable {
            id,
            events,
            summary,
        };
        (id, new_table)
    }

    /// READY: marks the member ready, and starts the game when every member of a
    /// lobby of two or more is.
    /// False when the client's table has gone since its state was checked.
    /// `ticket` goes behind the events: a START the READY triggered comes before the
    /// answer to the client's next line.
    pub(super) fn ready(&self, conn: ConnId, ticket: Ticket) -> bool {
        let mut state = self.state.lock();
        let Some(id) = state.clients.get(&conn).and_then(|c| c.table) else {
            return false;
        };
        let Some(table) = state.tables.get_mut(&id) else {
            return false;
        };
        if table.ready.insert(conn) {
            let _ = table.inbox.post(TableEvent::Ready(conn));
            start_if_ready(table);
        }
        let _ = table.inbox.post(TableEvent::Reached(ticket));
        true
    }
}

/// Starts a lobby of two or more members who are all ready (a bot always is): it stops
/// being a lobby (no more joins) and its table deals.
pub(super) fn start_if_ready(table: &mut TableEntry) {
    let all_ready = table.members.iter().all(|m| table.ready.contains(m));
    if table.lobby.is_some() && table.seated() >= 2 && all_ready {
        table.lobby = None;
        let _ = table.inbox.post(TableEvent::Start);
    }
}

/// Whether `name` is a default lobby's name: `default`, or `default-<n>` for n ≥ 2.
fn is_default_name(name: &str) -> bool {
    match name.strip_prefix(DEFAULT_LOBBY) {
        Some("") => true,
        Some(rest) => rest
            .strip_prefix('-')
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n >= 2 && !rest.starts_with("-0")),
        None => false,
    }
}

/// The lowest default lobby name (`default`, `default-2`, ...) no open lobby has.
fn free_default_name(state: &State) -> LobbyName {
    let taken = |name: &str| {
        state
            .tables
            .values()
            .any(|t| t.lobby.as_ref().is_some_and(|l| l.as_str() == name))
    };
    let name = std::iter::once(DEFAULT_LOBBY.to_string())
        .chain((2u32..).map(|n| format!("{DEFAULT_LOBBY}-{n}")))
        .find(|name| !taken(name))
        .unwrap_or_else(|| format!("{DEFAULT_LOBBY}-{}", state.next_id));
    LobbyName::server_given(name)
}
