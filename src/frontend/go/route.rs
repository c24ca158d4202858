//! Where one client's lines go: the inbox of the game it sits in, if any.
//!
//! Read for every line by the client's own thread; written by the lobby, under the
//! lobby's lock, when the client is seated or freed. It has a small lock of its own so
//! that a line costs no turn at the lobby's lock, which every client shares.
//!
//! A client's lines are answered in the order it sent them, even across the end of its
//! game: lines already in the game's inbox when it ends are answered by the ending
//! game's thread (where the client is now), so until that thread has answered them
//! all, the client's next lines follow them into the same inbox instead of being
//! answered at once by the client's own thread ([`Route::end_game`],
//! [`Route::release`]). A line is sent under this lock, and the route is released
//! under it only when the inbox is empty, so no line can slip between.

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
    /// The game it sits in (or whose last lines are being answered), and that game's
    /// inbox.
    game: Option<(GameId, Sender<GameEvent>)>,
    /// That game has ended: the client sits in no game, but its lines still go to the
    /// game's inbox until the game has answered the ones sent before.
    draining: bool,
    /// When it last left a game (or connected): its handshake timeout runs from here.
    free_since: Instant,
}

impl Route {
    /// The route of a client that just connected: in no game.
    pub fn new() -> Route {
        Route {
            seat: Mutex::new(Seat {
                game: None,
                draining: false,
                free_since: Instant::now(),
            }),
        }
    }

    /// The game the client sits in (none once that game has ended).
    pub fn game(&self) -> Option<GameId> {
        let seat = self.seat.lock();
        match &seat.game {
            Some((id, _)) if !seat.draining => Some(*id),
            _ => None,
        }
    }

    /// When the client left its last game (or connected), if it sits in none now.
    pub fn free_since(&self) -> Option<Instant> {
        let seat = self.seat.lock();
        (seat.game.is_none() || seat.draining).then_some(seat.free_since)
    }

    /// Whether the client's last game has ended and is still answering its lines.
    pub fn is_draining(&self) -> bool {
        self.seat.lock().draining
    }

    /// Seats the client in a game (`Some`) or frees it (`None`); the lobby calls this
    /// under its own lock.
    pub(super) fn set(&self, game: Option<(GameId, Sender<GameEvent>)>) {
        let mut seat = self.seat.lock();
        if game.is_none() && seat.game.is_some() && !seat.draining {
            seat.free_since = Instant::now();
        }
        seat.game = game;
        seat.draining = false;
    }

    /// Game `game` has ended (the lobby calls this under its own lock): the client is
    /// free, and its lines keep going to the game's inbox until [`Route::release`].
    pub(super) fn end_game(&self, game: GameId) {
        let mut seat = self.seat.lock();
        if matches!(&seat.game, Some((id, _)) if *id == game) && !seat.draining {
            seat.draining = true;
            seat.free_since = Instant::now();
        }
    }

    /// Stops sending the client's lines to ended game `game`, if `inbox_empty` says
    /// the game has answered every line it was sent; returns whether the route no
    /// longer leads there (false: answer what is queued, then ask again).
    pub fn release(&self, game: GameId, inbox_empty: impl Fn() -> bool) -> bool {
        let mut seat = self.seat.lock();
        let ending_here = seat.draining && matches!(&seat.game, Some((id, _)) if *id == game);
        if !ending_here {
            return true;
        }
        if !inbox_empty() {
            return false;
        }
        seat.game = None;
        seat.draining = false;
        true
    }

    /// Puts `event` into the inbox of the client's game (or of its ended game, while
    /// that game answers its last lines); gives it back when the client sits in no
    /// game (or the game's loop has ended).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn after_its_game_ends_a_client_s_lines_follow_those_still_queued_until_released() {
        let route = Route::new();
        let (inbox, events) = crossbeam_channel::unbounded();
        route.set(Some((GameId(1), inbox)));
        assert_eq!(route.game(), Some(GameId(1)));
        assert!(route.free_since().is_none());
        assert!(
            route
                .send(GameEvent::SeatBot("queued before".into()))
                .is_ok()
        );
        route.end_game(GameId(1));
        // Free (a HANDSHAKE is welcome), but its lines still go behind the queued ones.
        assert_eq!(route.game(), None);
        assert!(route.free_since().is_some());
        assert!(route.is_draining());
        assert!(route.send(GameEvent::SeatBot("sent after".into())).is_ok());
        // Not released while the ended game holds anything.
        assert!(!route.release(GameId(1), || events.is_empty()));
        assert_eq!(events.len(), 2);
        while events.try_recv().is_ok() {}
        assert!(route.release(GameId(1), || events.is_empty()));
        assert!(!route.is_draining());
        assert!(
            route
                .send(GameEvent::SeatBot("answered at once".into()))
                .is_err()
        );
        assert!(events.is_empty());
    }

    #[test]
    fn a_client_seated_again_is_not_released_by_its_old_game() {
        let route = Route::new();
        let (old, _old_events) = crossbeam_channel::unbounded();
        let (new, new_events) = crossbeam_channel::unbounded();
        route.set(Some((GameId(1), old)));
        route.end_game(GameId(1));
        // A HANDSHAKE answered from the old game's leftovers seats it in game 2.
        route.set(Some((GameId(2), new)));
        assert!(route.release(GameId(1), || false));
        assert_eq!(route.game(), Some(GameId(2)));
        assert!(route.send(GameEvent::SeatBot("to game 2".into())).is_ok());
        assert_eq!(new_events.len(), 1);
    }
}
