//! Where one client's lines go: the inbox of the game it sits in, if any.
//!
//! Read for every line by the client's own thread; written by the lobby, under the
//! lobby's lock, when the client is seated or freed. It has a small lock of its own so
//! that a line costs no turn at the lobby's lock, which every client shares. The
//! lobby's promise still holds: once a game is closed, no line reaches it, because a
//! line is sent under this lock and closing clears the route under the same lock.

use super::event::GameEvent;
use super::protocol::GameId;
use crossbeam_channel::Sender;
use parking_lot::Mutex;
use std::time::Instant;

/// One client's way to its game.
#[derive(Debug)]
pub struct Route {
    seat: Mutex<Seat>,
}

#[derive(Debug)]
struct Seat {
    /// The game it sits in, and that game's inbox.
    game: Option<(GameId, Sender<GameEvent>)>,
    /// When it last left a game (or connected): its handshake timeout runs from here.
    free_since: Instant,
}

impl Route {
    /// The route of a client that just connected: in no game.
    pub fn new() -> Route {
        Route {
            seat: Mutex::new(Seat {
                game: None,
                free_since: Instant::now(),
            }),
        }
    }

    /// The game the client sits in.
    pub fn game(&self) -> Option<GameId> {
        self.seat.lock().game.as_ref().map(|(id, _)| *id)
    }

    /// When the client left its last game (or connected), if it sits in none now.
    pub fn free_since(&self) -> Option<Instant> {
        let seat = self.seat.lock();
        seat.game.is_none().then_some(seat.free_since)
    }

    /// Seats the client in a game (`Some`) or frees it (`None`); the lobby calls this
    /// under its own lock.
    pub(super) fn set(&self, game: Option<(GameId, Sender<GameEvent>)>) {
        let mut seat = self.seat.lock();
        if game.is_none() && seat.game.is_some() {
            seat.free_since = Instant::now();
        }
        seat.game = game;
    }

    /// Puts `event` into the inbox of the client's game; gives it back when the client
    /// sits in no game (or the game's loop has ended).
    pub fn send(&self, event: GameEvent) -> Result<(), GameEvent> {
        let seat = self.seat.lock();
        match &seat.game {
            // An unbounded channel: the send does not block.
            Some((_, inbox)) => inbox.send(event).map_err(|e| e.0),
            None => Err(event),
        }
    }
}

impl Default for Route {
    fn default() -> Self {
        Route::new()
    }
}
