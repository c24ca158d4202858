//! Where one client's lines go: the inbox of the game it sits in, if any.
//!
//! Read for every line by the client's own thread; the registry seats and frees the
//! client under its own lock. It has a small lock of its own so that a line costs no
//! turn at the registry's lock, which every client shares. The lock is held only to read
//! or change the place, never across the hand-over itself, which may wait (see
//! `net::handoff`): the registry, which sets routes under its lock, must never wait for a
//! client.
//!
//! Order needs nothing more here: a client's next line is read only once its last one
//! has been answered (`net::handoff`), and a line that reaches a game just after it
//! ended is handed on by that game to where the client is now.

use super::event::GameEvent;
use super::protocol::GameId;
use crate::net::{Inbox, Refused};
use parking_lot::Mutex;
use std::time::Instant;

/// One client's way to its game.
#[derive(Debug)]
pub struct Route {
    place: Mutex<Place>,
}

/// Where the client is: in a game, waiting in the arena, or free since when.
#[derive(Debug)]
struct Place {
    /// The game it sits in, and that game's inbox.
    game: Option<(GameId, Inbox<GameEvent>)>,
    /// When it last left a game (or connected): its handshake timeout runs from here.
    free_since: Instant,
    /// It has left a game since it connected: its handshake clock, if it runs out,
    /// is no mistake of a client that never identified itself.
    after_a_game: bool,
    /// It waits in the arena for a round to pair it: it has identified itself, so no
    /// handshake timeout runs.
    waiting: bool,
}

impl Route {
    /// The route of a client that just connected: in no game.
    pub fn new() -> Route {
        Route {
            place: Mutex::new(Place {
                game: None,
                free_since: Instant::now(),
                after_a_game: false,
                waiting: false,
            }),
        }
    }

    /// The game the client sits in.
    pub fn game(&self) -> Option<GameId> {
        self.place.lock().game.as_ref().map(|(id, _)| *id)
    }

    /// When the client left its last game (or connected), if it sits in none now and
    /// does not wait in the arena.
    pub fn free_since(&self) -> Option<Instant> {
        let place = self.place.lock();
        (place.game.is_none() && !place.waiting).then_some(place.free_since)
    }

    /// Whether the client has left a game since it connected.
    pub fn after_a_game(&self) -> bool {
        self.place.lock().after_a_game
    }

    /// Whether the client waits in the arena for a round to pair it.
    pub fn is_waiting(&self) -> bool {
        self.place.lock().waiting
    }

    /// Marks the client as waiting in the arena (or no longer); the registry calls this
    /// under its own lock.
    pub(super) fn set_waiting(&self, waiting: bool) {
        let mut place = self.place.lock();
        if !waiting && place.waiting {
            place.free_since = Instant::now();
        }
        place.waiting = waiting;
    }

    /// Seats the client in a game (`Some`) or frees it (`None`); the registry calls this
    /// under its own lock.
    pub(super) fn set(&self, game: Option<(GameId, Inbox<GameEvent>)>) {
        let mut place = self.place.lock();
        if game.is_none() && place.game.is_some() {
            place.free_since = Instant::now();
            place.after_a_game = true;
        }
        if game.is_some() {
            place.waiting = false;
        }
        place.game = game;
    }

    /// The inbox of the game the client sits in.
    fn inbox(&self) -> Option<Inbox<GameEvent>> {
        self.place
            .lock()
            .game
            .as_ref()
            .map(|(_, inbox)| inbox.clone())
    }

    /// Hands `event` (a line of the client) to the game it sits in, waiting while that
    /// game's inbox is full: for the client's own thread, and for an ended game
    /// handing a late line on.
    ///
    /// # Errors
    ///
    /// [`Refused::Gone`] with the event, to be answered elsewhere, when the client sits
    /// in no game or its game's loop has ended; [`Refused::Full`] when the game took
    /// nothing within the bound of a wait (it is stuck; logged).
    pub fn hand_over(&self, event: GameEvent) -> Result<(), Refused<GameEvent>> {
        // The place's lock is released before the hand-over, which may wait.
        match self.inbox() {
            Some(inbox) => inbox.hand_over(event),
            None => Err(Refused::Gone(event)),
        }
    }

    /// Puts `event` (the operator's) into the client's game without waiting.
    ///
    /// # Errors
    ///
    /// The event, when the client sits in no game or the inbox refused it.
    pub fn post(&self, event: GameEvent) -> Result<(), GameEvent> {
        match self.inbox() {
            Some(inbox) => inbox.post(event).map_err(Refused::into_inner),
            None => Err(event),
        }
    }
}

impl Default for Route {
    fn default() -> Self {
        Route::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::{Depth, inbox};

    fn seat_bot(name: &str) -> GameEvent {
        GameEvent::SeatBot(name.into(), crate::engine::bot::Level::DEFAULT)
    }

    #[test]
    fn a_seated_client_s_events_reach_its_game_and_a_free_one_s_come_back() {
        let route = Route::new();
        assert!(route.free_since().is_some());
        let depth = Depth::new(4);
        let shutdown = crate::shutdown::Shutdown::new();
        let (game, events) = inbox(&depth, &shutdown);
        route.set(Some((GameId(1), game)));
        assert_eq!(route.game(), Some(GameId(1)));
        assert!(route.free_since().is_none());
        assert!(route.hand_over(seat_bot("a")).is_ok());
        assert!(route.post(seat_bot("b")).is_ok());
        assert_eq!(events.len(), 2);
        assert!(!route.after_a_game());
        route.set(None);
        assert_eq!(route.game(), None);
        assert!(route.free_since().is_some());
        assert!(route.after_a_game());
        assert!(matches!(
            route.hand_over(seat_bot("c")),
            Err(Refused::Gone(GameEvent::SeatBot(name, _))) if name == "c"
        ));
        // A game whose loop has ended gives the event back too.
        let (ended, gone) = inbox(&depth, &shutdown);
        drop(gone);
        route.set(Some((GameId(2), ended)));
        assert!(route.hand_over(seat_bot("d")).is_err());
    }
}
