//! The Bkgo room: one shared board per server, advanced by one loop thread
//! (`bkgo-room`). This file holds the room's state (`Room`, owned by the loop alone,
//! with no lock around it) and what the loop is started with ([`RoomParts`]); each job
//! on that state has a file of its own, adding methods to `Room`:
//!
//! - `event_loop`: the loop: a `select!` over the inbox, the shutdown and the timers,
//!   each event handed to its step, a panic restarting the room empty;
//! - `broadcast`: every line the room sends, and the brake on senders while a member is
//!   behind;
//! - `arrivals` and `departures`: a client enters, a member leaves (its connection
//!   ends, `Quitting:`, garbage, a kick);
//! - `members`: who sits where (pure bookkeeping);
//! - `play`: `Place`, `Pass`, `NewBoard`, `SendingBoard`, `SetName`;
//! - `ending`: the end of a game, its record and result, and the events that wait
//!   until its result is on disk;
//! - `bot`: the practice bot: its arrival, its questions and moves, its leaving;
//! - `view`: what `status`, the console and the web board see.
//!
//! Connection threads send the room typed events (`RoomEvent`); the console sends it
//! queries. Every line a member receives once it has joined is sent by the room, so
//! every member sees every broadcast, in the one order in which the room handled its
//! events.
//!
//! A member is a client, or the practice bot (`Occupant`): GoBot takes a free seat
//! opposite a player left alone (`--bkgo-bot-after`, the console's `bot bkgo`) and
//! thinks on a helper thread of its own, whose answers are one more arm of the loop's
//! `select!`; it has no connection, and its moves go through the same steps as a
//! client's accepted `Place` and `Pass`.

mod arrivals;
mod bot;
mod broadcast;
mod departures;
mod ending;
mod event_loop;
mod members;
mod play;
mod view;

pub use event_loop::spawn;

use super::summary::RoomSummary;
use crate::cards::Cards;
use crate::engine::go::Game;
use crate::frontend::Counters;
use crate::frontend::bkgo::protocol::PlayerId;
use crate::frontend::thinker::{Thinker, Turn};
use crate::live::{GoRecord, Live};
use crate::net::{Brake, Connection, Incoming};
use crate::records;
use crate::results::Results;
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use ending::{GameEnd, PendingEnd};
use members::Members;
use parking_lot::Mutex;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Instant, SystemTime};

/// What the room loop is started with, and what a room started again after a panic
/// gets too.
#[derive(Clone)]
pub struct RoomParts {
    /// Read-only settings (rules, records, the room's size).
    pub settings: Arc<Settings>,
    /// An empty game of the room's size: every `NewBoard` starts a copy of it.
    pub empty: Game,
    /// The server's shutdown: the room finishes when it fires.
    pub shutdown: Shutdown,
    /// Where the room publishes its summary for the console.
    pub summary: Arc<Mutex<RoomSummary>>,
    /// Counters for the console's `stats`.
    pub counters: Arc<Counters>,
    /// Where finished games' records go (`--records`), on a thread of their own.
    pub records: Option<Arc<records::Writer>>,
    /// Where the room publishes itself for the web board.
    pub live: Arc<Live>,
    /// Where finished games are recorded, before the room hears the end.
    pub results: Arc<Results>,
    /// Every client's report card.
    pub cards: Arc<Cards>,
}

/// Who a member is: a client on its connection, or the server's practice bot (GoBot),
/// which has no connection and thinks on its helper thread.
enum Occupant {
    /// A client: the room sends it every line.
    Client(Arc<Connection>),
    /// The practice bot: it is sent nothing, and its moves come from its thread.
    Bot(Thinker),
}

impl Occupant {
    /// The client's connection; none for the bot.
    fn client(&self) -> Option<&Arc<Connection>> {
        match self {
            Occupant::Client(conn) => Some(conn),
            Occupant::Bot(_) => None,
        }
    }

    /// The bot's helper thread; none for a client.
    fn thinker(&self) -> Option<&Thinker> {
        match self {
            Occupant::Client(_) => None,
            Occupant::Bot(thinker) => Some(thinker),
        }
    }
}

/// What the web board last got of the room: the game's number, its moves, whether it
/// ended, how many members, who holds each seat. Chat changes none of it.
type WebMark = (u32, usize, bool, usize, Option<PlayerId>, Option<PlayerId>);

/// The room's state, owned by its loop.
struct Room {
    /// What the room was started with: settings, shutdown, and where it publishes,
    /// files results and writes records.
    parts: RoomParts,
    /// Who is in the room, and who sits in each seat.
    members: Members<Occupant>,
    /// The tickets of lines answered while a member is behind on its output.
    brake: Brake,
    /// The line being answered, while a member's line is handled (its card's example
    /// if it is refused).
    answering: Option<Incoming>,
    /// The shared board.
    game: Game,
    /// `Place`s and `Pass`es accepted in this game: `SendingBoard` is accepted while
    /// there are none.
    played_here: usize,
    /// The game's number since the server started (in record file names).
    number: u32,
    /// When the game started (the record's date).
    started: SystemTime,
    /// The room's name (`SetName:`).
    name: Option<String>,
    /// When the player to move was told it was its turn (the last move, the start of
    /// the game, or it sat down): its card's move times.
    turn_began: Instant,
    /// Since when the player to move has been waited for, and the game and move then.
    turn_since: (SystemTime, (u32, usize)),
    /// How the game ended, once it has (and the room has been told).
    ending: Option<GameEnd>,
    /// A game's end that waits for its result to be on disk (see `ending`).
    pending_end: Option<PendingEnd>,
    /// The game's record for the web board (the moves as they are played).
    web_record: Arc<GoRecord>,
    /// When the room last became playing (both seats taken, a game not over), for the
    /// web board's order.
    playing_since: Option<SystemTime>,
    /// The status the web board last got.
    web_status: Option<crate::live::Status>,
    /// What the web board last got (see `view`).
    published: Option<WebMark>,
    /// When the practice bot takes the free seat, while a player sits alone (see
    /// `--bkgo-bot-after`).
    bot_due: Option<Instant>,
    /// The position the bot was last asked about, so it is asked once per turn.
    bot_asked: Option<Turn>,
    /// How many times the bot has sat down: each time its random choices come from
    /// the next seed (`--seed`).
    bots_seated: u64,
}

impl Room {
    /// An empty room.
    fn new(parts: RoomParts) -> Room {
        let started = SystemTime::now();
        Room {
            web_record: GoRecord::start(
                &parts.empty,
                started,
                moves_allowed(&parts.settings, &parts.empty),
            ),
            game: parts.empty.clone(),
            members: Members::new(),
            brake: Brake::default(),
            answering: None,
            turn_began: Instant::now(),
            playing_since: None,
            web_status: None,
            published: None,
            played_here: 0,
            number: 1,
            started,
            name: None,
            ending: None,
            pending_end: None,
            turn_since: (started, (1, 0)),
            bot_due: None,
            bot_asked: None,
            bots_seated: 0,
            parts,
        }
    }

    /// An empty room with the same parts, after a panic.
    fn fresh(&self) -> Room {
        Room::new(self.parts.clone())
    }

    /// Whether a game is being played on the board (not over, a move or a loaded
    /// position on it): leaving now is leaving a game.
    fn game_in_play(&self) -> bool {
        !self.game.is_over() && (self.played_here > 0 || self.game.setup().is_some())
    }

    fn count_move(&self) {
        self.parts.counters.moves.fetch_add(1, Ordering::Relaxed);
    }
}

/// The most moves a game of the room may have: the move limit of its board.
fn moves_allowed(settings: &Settings, game: &Game) -> usize {
    settings
        .moves_per_point
        .saturating_mul(game.size() * game.size())
}
