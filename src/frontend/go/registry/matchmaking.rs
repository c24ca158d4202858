//! Matchmaking: seating a player in the oldest game waiting for a partner, or in a new
//! game it leads; seating it again when its game broke up before the start; and the
//! game loops' way back to the registry, the [`Matchmaker`] trait, implemented here.
//!
//! A player is seated under the registry's lock ([`Registry::seat_locked`]) and told
//! where after it is released (`handshake`'s `announce`). It does not grant names or
//! answer lines (`handshake`, `unseated`), nor pair the arena's players (`arena`).

use super::games::NewGame;
use super::{Registry, RegistryState, is_connected, set_game};
use crate::engine::bot::Level;
use crate::frontend::go::event::{BotRefused, GameEvent, Player};
use crate::frontend::go::protocol::{ClientCommand, GameId, ParseError};
use crate::frontend::go::session;
use crate::frontend::go::table::Matchmaker;
use crate::net::{ConnId, Connection, Incoming, Ticket};
use std::sync::Arc;

/// Where a player was seated under the lock, to tell it after the lock is released.
pub(super) struct Seated {
    pub(super) game: GameId,
    /// The game's loop to start, when the player opened it (and leads it).
    pub(super) new_game: Option<NewGame>,
}

impl Registry {
    /// Seats a player: joins the oldest waiting game, or (when none waits) opens a
    /// new game with it as leader. Returns where, with the new game's loop to start
    /// if one was opened. A player whose connection is gone is seated nowhere: its
    /// disconnect has been (or is being) told to the game it left.
    /// During shutdown nobody is seated: every connection is about to be closed.
    pub(super) fn seat_locked(&self, state: &mut RegistryState, player: Player) -> Option<Seated> {
        let conn_id = player.conn.id;
        if !is_connected(state, &player.conn) || self.context.shutdown.is_triggered() {
            return None;
        }
        // In the arena nobody leads: the player waits for a round to pair it.
        if state.arena.is_some() {
            super::arena::wait(state, player);
            return None;
        }
        if let Some(id) = join_oldest_waiting(state, &player) {
            set_game(state, conn_id, Some(id));
            return Some(Seated {
                game: id,
                new_game: None,
            });
        }
        let new_game = self.open_game(state, [GameEvent::Join(player)], None);
        let id = new_game.id;
        state.waiting.push_back(id);
        set_game(state, conn_id, Some(id));
        Some(Seated {
            game: id,
            new_game: Some(new_game),
        })
    }
}

impl Matchmaker for Registry {
    /// Seats again a player (who keeps its name) whose game broke up before it
    /// started, e.g. because its leader left: like a handshake, it joins the oldest
    /// waiting game, or leads a new one when none waits. Nobody is stranded.
    fn reseat(&self, player: Player) {
        let output;
        let seated = {
            let mut state = self.state.lock();
            output = player.conn.hold_output();
            self.seat_locked(&mut state, player.clone())
        };
        self.announce(output, &player, seated);
    }

    /// A leader whose partner left before the start: if another game waits for a
    /// partner, the leader joins it (its own game ends: returns true); else its game
    /// goes back to the head of the queue (returns false).
    fn requeue(&self, id: GameId, leader: &Player) -> bool {
        let output;
        let joined = {
            let mut state = self.state.lock();
            state.waiting.retain(|g| *g != id);
            // The partner that left may have been the bot.
            super::bot::free_bot(&mut state, id);
            if !is_connected(&state, &leader.conn) {
                // The leader is gone too: this game ends, and nobody waits in it.
                return true;
            }
            if state.arena.is_some() {
                // In the arena the player waits for the next round; this game ends.
                set_game(&mut state, leader.conn.id, None);
                super::arena::wait(&mut state, leader.clone());
                return true;
            }
            output = leader.conn.hold_output();
            // During shutdown the leader stays where it is: every game is ending.
            let joined = if self.context.shutdown.is_triggered() {
                None
            } else {
                join_oldest_waiting(&mut state, leader)
            };
            if joined.is_none() {
                state.waiting.push_front(id);
            }
            set_game(&mut state, leader.conn.id, Some(joined.unwrap_or(id)));
            joined
        };
        let Some(other) = joined else {
            return false;
        };
        let seated = Seated {
            game: other,
            new_game: None,
        };
        self.announce(output, leader, Some(seated));
        true
    }

    /// Frees `conn`'s seat in game `id` (if it still sits there), e.g. a partner who
    /// left before the start.
    fn unseat(&self, id: GameId, conn: ConnId) {
        let mut state = self.state.lock();
        if state.clients.get(&conn).and_then(|c| c.route.game()) == Some(id) {
            set_game(&mut state, conn, None);
        }
    }

    /// Takes a game that has not started off the waiting queue (its partner has
    /// arrived, or it is ending).
    fn stop_waiting(&self, id: GameId) {
        self.state.lock().waiting.retain(|g| *g != id);
    }

    /// See `bot`.
    fn seat_bot(&self, id: GameId, level: Level) -> Result<String, BotRefused> {
        Registry::seat_bot(self, id, level)
    }

    /// Removes an ended game (see `games`): nobody sits in it any more, and its
    /// summary is kept for the console. No route leads to it any more: its players'
    /// next lines go where they are now.
    fn close_game(&self, id: GameId) -> Vec<Arc<Connection>> {
        self.remove_game(id)
    }

    /// A line that reached a game after it ended: it goes on the way of any line
    /// (see the module doc of `registry`), to where its client is now: the game it
    /// sits in now, or `unseated` (never back into the ended game). Its ticket goes
    /// with it: the client still waits for this line's answer.
    fn redispatch(
        &self,
        from: &Arc<Connection>,
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
        ticket: Ticket,
    ) {
        match self.route(from.id) {
            Some(route) => {
                session::deliver(self, &route, from, line, command, ticket);
            }
            // Gone meanwhile: nobody to answer.
            None => drop(ticket),
        }
    }
}

/// Sends `player` to the oldest waiting game whose loop still runs, taking that game
/// off the queue; returns it.
fn join_oldest_waiting(state: &mut RegistryState, player: &Player) -> Option<GameId> {
    while let Some(game) = state.waiting.pop_front() {
        let sent = state
            .games
            .get(&game)
            .is_some_and(|entry| entry.inbox.post(GameEvent::Join(player.clone())).is_ok());
        if sent {
            return Some(game);
        }
    }
    None
}
