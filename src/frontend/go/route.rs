//! Where one client's lines go: the inbox of the game it sits in, if any.
//!
//! Read for every line by the client's own thread. The lobby seats and frees the
//! client under its own lock; an ended game releases it (below). It has a small lock of
//! its own so that a line costs no turn at the lobby's lock, which every client shares.
//!
//! A client's lines are answered in the order it sent them, even across the end of its
//! game: lines already in the game's inbox when it ends are answered by the ending
//! game's thread, where the client is now (handed to its new game if it has one). So,
//! until that thread has answered them all, the client's next lines follow them into
//! the same inbox instead of going to the lobby or to its new game directly
//! ([`Route::end_game`], [`Route::release`]). A line is sent under this lock, and the
//! route is released under it only when the inbox is empty, so no line can slip
//! between.

use super::event::GameEvent;
use super::protocol::GameId;
use crossbeam_channel::Sender;
use parking_lot::Mutex;
use std::time::Instant;

/// A game and its inbox.
type Inbox = (GameId, Sender<GameEvent>);

/// One client's way to its game.
#[derive(Debug)]
pub struct Route {
    seat: Mutex<Seat>,
}

#[derive(Debug)]
struct Seat {
    /// The game it sits in, and that game's inbox.
    game: Option<Inbox>,
    /// Its last game, ended, while that game still answers the lines it was sent: the
    /// client's lines go there first.
    ending: Option<Inbox>,
    /// When it last left a game (or connected): its handshake timeout runs from here.
    free_since: Instant,
}

impl Route {
    /// The route of a client that just connected: in no game.
    pub fn new() -> Route {
        Route {
            seat: Mutex::new(Seat {
                game: None,
                ending: None,
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
    /// under its own lock. While its last game still answers its earlier lines, its
    /// lines keep going there, and that game hands them on to this one.
    pub(super) fn set(&self, game: Option<Inbox>) {
        let mut seat = self.seat.lock();
        if game.is_none() && seat.game.is_some() {
            seat.free_since = Instant::now();
        }
        seat.game = game;
    }

    /// Game `game` has ended (the lobby calls this under its own lock): the client is
    /// free, and its lines keep going to the game's inbox until [`Route::release`].
    pub(super) fn end_game(&self, game: GameId) {
        let mut seat = self.seat.lock();
        if !matches!(&seat.game, Some((id, _)) if *id == game) {
            return;
        }
        let ended = seat.game.take();
        seat.free_since = Instant::now();
        // Should its earlier game still be answering (a game that ended within
        // microseconds of starting), the lines keep going there: that one is first.
        if seat.ending.is_none() {
            seat.ending = ended;
        }
    }

    /// Stops sending the client's lines to ended game `game`, if `inbox_empty` says
    /// the game has answered every line it was sent; returns whether the route no
    /// longer leads there (false: answer what is queued, then ask again). Called by
    /// the ended game's thread.
    pub(super) fn release(&self, game: GameId, inbox_empty: impl Fn() -> bool) -> bool {
        let mut seat = self.seat.lock();
        if !matches!(&seat.ending, Some((id, _)) if *id == game) {
            return true;
        }
        if !inbox_empty() {
            return false;
        }
        seat.ending = None;
        true
    }

    /// Puts `event` into the inbox that comes first: the client's ended game while it
    /// answers the client's earlier lines, else the game it sits in. Gives it back when
    /// there is none (or the game's loop has ended).
    pub fn send(&self, event: GameEvent) -> Result<(), GameEvent> {
        let seat = self.seat.lock();
        match seat.ending.as_ref().or(seat.game.as_ref()) {
            // An unbounded channel: the send does not block.
            Some((_, inbox)) => inbox.send(event).map_err(|e| e.0),
            None => Err(event),
        }
    }

    /// Puts `event` into the inbox of the game the client sits in (for a line its
    /// ended game hands on); gives it back when it sits in none.
    pub fn send_to_game(&self, event: GameEvent) -> Result<(), GameEvent> {
        let seat = self.seat.lock();
        match &seat.game {
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

    fn line(text: &str) -> GameEvent {
        GameEvent::SeatBot(text.into(), crate::engine::bot::Level::DEFAULT)
    }

    #[test]
    fn after_its_game_ends_a_client_s_lines_follow_those_still_queued_until_released() {
        let route = Route::new();
        let (inbox, events) = crossbeam_channel::unbounded();
        route.set(Some((GameId(1), inbox)));
        assert_eq!(route.game(), Some(GameId(1)));
        assert!(route.free_since().is_none());
        assert!(route.send(line("queued before")).is_ok());
        route.end_game(GameId(1));
        // Free (a HANDSHAKE is welcome), but its lines still go behind the queued ones.
        assert_eq!(route.game(), None);
        assert!(route.free_since().is_some());
        assert!(route.send(line("sent after")).is_ok());
        // Not released while the ended game holds anything.
        assert!(!route.release(GameId(1), || events.is_empty()));
        assert_eq!(events.len(), 2);
        while events.try_recv().is_ok() {}
        assert!(route.release(GameId(1), || events.is_empty()));
        assert!(route.send(line("answered at once")).is_err());
        assert!(events.is_empty());
    }

    #[test]
    fn a_client_seated_again_meanwhile_is_reached_through_its_ended_game_until_released() {
        let route = Route::new();
        let (old, old_events) = crossbeam_channel::unbounded();
        let (new, new_events) = crossbeam_channel::unbounded();
        route.set(Some((GameId(1), old)));
        route.end_game(GameId(1));
        // A HANDSHAKE answered from the old game's leftovers seats it in game 2 ...
        route.set(Some((GameId(2), new)));
        assert_eq!(route.game(), Some(GameId(2)));
        // ... but its next line still goes behind the old game's leftovers, which that
        // game hands on to game 2 in order.
        assert!(route.send(line("after the HANDSHAKE")).is_ok());
        assert_eq!((old_events.len(), new_events.len()), (1, 0));
        assert!(route.send_to_game(line("handed on")).is_ok());
        assert_eq!(new_events.len(), 1);
        let _ = old_events.try_recv();
        assert!(route.release(GameId(1), || old_events.is_empty()));
        assert!(route.send(line("straight to game 2")).is_ok());
        assert_eq!(new_events.len(), 2);
    }
}
