//! Server-sent events: the overview's stream (`/events`), a game's (`/events/<front>/
//! <id>`), the standings' and the report cards', each served by the viewer's own connection thread until the viewer leaves
//! or the server stops.
//!
//! The thread waits for a wake-up from the live board (`live::Watch`), then writes the
//! latest snapshot through the connection's outbox, which never blocks: a viewer that
//! stops reading fills its (bounded) socket buffer and then its outbox, and after 5 s
//! without progress the outbox closes the connection, as for any client. No game loop
//! ever waits for a viewer: it only dropped a wake-up into a one-slot channel.

use super::http::{SECURITY_HEADERS, reason};
use crate::cards::Cards;
use crate::live::{Front, GameKey, Live, Snapshot};
use crate::net::Connection;
use crate::results::Results;

use crate::shutdown::Shutdown;
use crossbeam_channel::{after, select};
use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a stream with nothing to say sends a comment, so that proxies keep it.
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How often a waiting stream looks whether its viewer has closed the connection.
pub const PEER_CHECK: Duration = Duration::from_secs(1);

/// How often a report cards' stream looks whether a card changed.
pub const CARDS_CHECK: Duration = Duration::from_secs(1);

/// How soon a browser reconnects when its stream breaks.
const RETRY_MS: u32 = 1000;

/// The least time between two sends of a stream: changes that come faster (a bot
/// game, sixty-four of them) are sent as the latest state, 25 times a second at the
/// most. A page cannot show more, and a viewer then costs its game nothing per move.
pub const FRAME: Duration = Duration::from_millis(40);

/// One viewer's stream.
pub struct Stream<'a> {
    conn: &'a Connection,
    live: &'a Live,
    shutdown: &'a Shutdown,
    /// When the last change was taken: the next one waits until a [`FRAME`] later.
    last_change: Cell<Option<Instant>>,
    /// How long a cards' stream has sent nothing (its keep-alive is due at
    /// [`KEEP_ALIVE`]).
    quiet: Cell<Duration>,
}

impl<'a> Stream<'a> {
    /// A stream on `conn` of what `live` shows, until `shutdown`.
    pub fn new(conn: &'a Connection, live: &'a Live, shutdown: &'a Shutdown) -> Stream<'a> {
        Stream {
            conn,
            live,
            shutdown,
            last_change: Cell::new(None),
            quiet: Cell::new(Duration::ZERO),
        }
    }

    /// The stream's response head. For a HEAD request, that is all.
    pub fn head(&self) {
        let head = format!(
            "HTTP/1.1 200 {}\r\nContent-Type: text/event-stream\r\n{SECURITY_HEADERS}Connection: close\r\n\r\n",
            reason(200)
        );
        let _ = self.conn.send_bytes(head.as_bytes());
    }

    /// The overview's stream: one `game` event per game shown, then one per change of
    /// any game, and `gone` when one leaves the board.
    pub fn overview(&self) {
        // Watch first: a change between the list and the watch is not lost.
        let watch = self.live.watch(None);
        let mut version = self.live.version();
        self.head();
        self.send(&format!("retry: {RETRY_MS}\n\n"));
        for game in self.live.games() {
            self.game_event(&game);
        }
        while self.next(watch.changes()) {
            match self.live.changes_since(version) {
                Some(changes) => {
                    version = changes.version;
                    for game in &changes.changed {
                        self.game_event(game);
                    }
                    for key in changes.gone {
                        self.event("gone", &gone_json(key));
                    }
                }
                // Too far behind to be told what left: the whole list again.
                None => {
                    version = self.live.version();
                    for game in self.live.games() {
                        self.game_event(&game);
                    }
                }
            }
        }
    }

    /// A game's stream: its state at once, then after each change; a finished game's
    /// final state, then nothing but keep-alives until the viewer leaves or the game
    /// leaves the board (pushed out by newer finished games): then `gone`, as the
    /// overview's stream says it, and the stream ends, its place free again.
    pub fn game(&self, key: GameKey) {
        let watch = self.live.watch(Some(key));
        self.head();
        self.send(&format!("retry: {RETRY_MS}\n\n"));
        let mut shown: Option<Arc<Snapshot>> = None;
        loop {
            match self.live.game(key) {
                Some(latest) => {
                    if shown.as_ref().is_none_or(|s| !Arc::ptr_eq(s, &latest)) {
                        self.event("state", &latest.state_json());
                        shown = Some(latest);
                    }
                }
                None => {
                    self.event("gone", &gone_json(key));
                    return;
                }
            }
            if !self.next(watch.changes()) {
                return;
            }
        }
    }

    /// The standings page's stream: one `standings` event now (every table, the
    /// crosstable, the newest results), and one after each game that ends. A result
    /// is recorded before its game publishes its end, so the wake-up of any change
    /// is enough: the stream sends only when the results changed.
    pub fn standings(&self, results: &Results, cache: &super::standings::Cache) {
        let watch = self.live.watch(None);
        self.head();
        self.send(&format!("retry: {RETRY_MS}\n\n"));
        let mut shown = None;
        loop {
            let version = results.version();
            if shown != Some(version) {
                // Written once for every viewer of this version.
                let written = cache.get(results);
                self.event("standings", &written.page);
                shown = Some(written.version);
            }
            if !self.next(watch.changes()) {
                return;
            }
        }
    }

    /// The report cards' stream: one `clients` event now (every card's row, the worst
    /// first), and another whenever a card changed, looked at every [`CARDS_CHECK`]
    /// (recording into a card never wakes anyone: it only counts).
    pub fn clients(&self, cards: &Cards, cache: &super::cards::Cache) {
        self.head();
        self.send(&format!("retry: {RETRY_MS}\n\n"));
        let mut shown = None;
        loop {
            let (fingerprint, json) = cache.list(cards);
            if shown != Some(fingerprint) {
                self.event("clients", &json);
                shown = Some(fingerprint);
            }
            if !self.tick() {
                return;
            }
        }
    }

    /// One card's stream: a `card` event now (the whole card) and after each change;
    /// `gone` if the card is forgotten (past the bound of cards), then the end.
    pub fn client(&self, cards: &Cards, front: Front, name: &str) {
        self.head();
        self.send(&format!("retry: {RETRY_MS}\n\n"));
        let mut shown = None;
        loop {
            let Some(card) = cards.find(front, name) else {
                let gone = serde_json::json!({ "front": front, "name": name });
                self.event("gone", &gone.to_string());
                return;
            };
            let changes = card.changes();
            let view = (shown != Some(changes)).then(|| card.view());
            // Not held while the stream waits: a card that only viewers look at is
            // one nobody holds, and may be forgotten.
            drop(card);
            if let Some(view) = view {
                self.event("card", &super::cards::card_json(&view));
                shown = Some(changes);
            }
            if !self.tick() {
                return;
            }
        }
    }

    /// Waits [`CARDS_CHECK`], sending a keep-alive when due; false once the stream
    /// must end (the viewer is gone, the server stops).
    fn tick(&self) -> bool {
        let stop = self.shutdown.signal();
        select! {
            recv(stop) -> _ => return false,
            recv(after(CARDS_CHECK)) -> _ => {}
        }
        if self.conn.is_closed() || self.conn.peer_has_left() {
            return false;
        }
        let quiet = self.quiet.get() + CARDS_CHECK;
        if quiet >= KEEP_ALIVE {
            self.send(": keep-alive\n\n");
            self.quiet.set(Duration::ZERO);
        } else {
            self.quiet.set(quiet);
        }
        true
    }

    /// Waits for the next change, sending keep-alives meanwhile; when changes come
    /// faster than one a [`FRAME`], also for the rest of the frame since the last one
    /// (changes meanwhile join it). False once the stream must end (the viewer is
    /// gone, the server stops). Nobody reads a stream's socket, so a viewer that
    /// closed its page is looked for every [`PEER_CHECK`]: its slot of
    /// `--max-web-clients` is free again at once, not at the next write.
    fn next(&self, changes: &crossbeam_channel::Receiver<()>) -> bool {
        let stop = self.shutdown.signal();
        let mut quiet = Duration::ZERO;
        loop {
            if self.conn.is_closed() {
                return false;
            }
            select! {
                recv(changes) -> change => {
                    if change.is_err() {
                        return false;
                    }
                    break;
                }
                recv(stop) -> _ => return false,
                // Only a quiet stream looks: a busy one learns it from its writes.
                recv(after(PEER_CHECK)) -> _ => {
                    if self.conn.peer_has_left() {
                        return false;
                    }
                    quiet += PEER_CHECK;
                    if quiet >= KEEP_ALIVE {
                        self.send(": keep-alive\n\n");
                        quiet = Duration::ZERO;
                    }
                }
            }
        }
        if let Some(last) = self.last_change.get() {
            let rest = (last + FRAME).saturating_duration_since(Instant::now());
            if !rest.is_zero() {
                select! {
                    recv(stop) -> _ => return false,
                    recv(after(rest)) -> _ => {}
                }
            }
        }
        self.last_change.set(Some(Instant::now()));
        !self.conn.is_closed()
    }

    fn game_event(&self, game: &Snapshot) {
        self.event("game", &game.summary_json());
    }

    /// One named event with one line of JSON.
    fn event(&self, name: &str, json: &str) {
        self.send(&format!("event: {name}\ndata: {json}\n\n"));
    }

    fn send(&self, text: &str) {
        // A closed connection ends the stream at the next wake-up.
        let _ = self.conn.send_bytes(text.as_bytes());
    }
}

/// `{"front": "go", "id": 3}`.
fn gone_json(key: GameKey) -> String {
    format!(r#"{{"front":"{}","id":{}}}"#, key.front.name(), key.id)
}
