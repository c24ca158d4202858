//! Front ends: one per protocol the server speaks, each on its own port, side by side.
//!
//! A front end owns its protocol module (pure parse and format), its matchmaking and
//! its game loops. What front ends share is below them (the net layer, the rules
//! engines) or above them (the server's wiring, the console), and they meet only
//! through the [`FrontEnd`] trait: no front end reaches into another.
//!
//! - [`go`]: GO!, the `+`-delimited Go protocol (two players per game).
//! - [`spectrangle`]: Spectrangle, the tile game for 2 to 4 players.
//! - [`bkgo`]: Bkgo 0.6, one shared Go room per server (two seated, the rest watch).
//! - [`names`]: the player-name rules the Go front ends share, and GoBot's name.
//! - [`quote`]: client text quoted back in error messages.
//! - [`thinker`]: GoBot's helper thread, one per seat it takes (GO!, Bkgo).

pub mod bkgo;
pub mod card;
pub mod go;
pub mod names;
pub mod quote;
pub mod spectrangle;
pub mod thinker;

use crate::cards::Cards;
use crate::engine::bot::Level;
use crate::live::Live;
use crate::results::{Ending, Results};

use crate::net::{CloseReason, Connection, Connections, Depth, Inbox, Refused};
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use crate::workers::Workers;
use crossbeam_channel::Sender;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// What the console's `arena` asks of the GO! arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArenaAction {
    /// Show the arena.
    Show,
    /// Stop making new pairs; games on the board finish.
    Pause,
    /// Make pairs again.
    Resume,
}

/// How a player left its game or lobby.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Departure {
    /// It said so (GO!'s and Spectrangle's EXIT).
    Exited,
    /// It closed its connection.
    Disconnected,
    /// The operator kicked it.
    Kicked,
    /// The server closed its connection, for this reason (output stalled, ...).
    Dropped(String),
    /// The server closed its connection because it missed its turns.
    TimedOut(String),
    /// It failed inside the server (the practice bot's thread stopped).
    Failed(String),
}

impl Departure {
    /// How a connection that the server closed for `reason` (if it did) ended.
    pub fn of_closed(reason: Option<CloseReason>) -> Departure {
        match reason {
            None => Departure::Disconnected,
            Some(CloseReason::LeftWith(_)) => Departure::Exited,
            Some(CloseReason::Kicked) => Departure::Kicked,
            Some(reason @ CloseReason::MissedTurns(_)) => Departure::TimedOut(reason.to_string()),
            Some(reason) => Departure::Dropped(reason.to_string()),
        }
    }

    /// How a game that this departure ended is filed among the results.
    pub fn ending(&self) -> Ending {
        match self {
            Departure::Exited => Ending::Exit,
            Departure::Disconnected | Departure::Dropped(_) => Ending::Disconnect,
            Departure::Kicked => Ending::Kick,
            Departure::TimedOut(_) => Ending::Timeout,
            Departure::Failed(_) => Ending::Error,
        }
    }

    /// `Ann exited`, `Ann disconnected`, ...: for messages and logs.
    pub fn describe(&self, name: &str) -> String {
        match self {
            Departure::Exited => format!("{name} exited"),
            Departure::Disconnected => format!("{name} disconnected"),
            Departure::Kicked => format!("{name} was kicked by operator"),
            Departure::Dropped(reason)
            | Departure::TimedOut(reason)
            | Departure::Failed(reason) => {
                format!("{name} was disconnected: {reason}")
            }
        }
    }
}

/// What a front end and its game loops share: the settings, the one shutdown, the
/// connection factory every connection comes from, the threads game loops run on, and
/// the front end's own counters. The server makes one for each front end.
#[derive(Clone)]
pub struct Context {
    /// Read-only settings.
    pub settings: Arc<Settings>,
    /// The server's shutdown: every game ends when it fires.
    pub shutdown: Shutdown,
    /// Opens connections (unique ids, the shared flusher).
    pub connections: Arc<Connections>,
    /// Threads for game loops, one game at a time each.
    pub game_threads: Arc<Workers>,
    /// This front end's counters, for the console's `stats`.
    pub counters: Arc<Counters>,
    /// Where game loops publish their games for the web board.
    pub live: Arc<Live>,
    /// Where game loops record each finished game (ARENA.md), before its players hear
    /// the end.
    pub results: Arc<Results>,
    /// Every client's report card.
    pub cards: Arc<Cards>,
}

impl Context {
    /// The same shared parts, with counters of its own: for another front end.
    pub fn for_another_front_end(&self) -> Context {
        Context {
            counters: Arc::default(),
            ..self.clone()
        }
    }

    /// A context for a front end tested without a server: threads of its own.
    #[cfg(test)]
    pub fn standalone(settings: Settings, shutdown: Shutdown) -> Context {
        Context {
            connections: Arc::new(Connections::new(settings.output)),
            settings: Arc::new(settings),
            shutdown,
            game_threads: Arc::new(Workers::new("test-game", 256 * 1024, 4)),
            counters: Arc::default(),
            live: Live::new(),
            results: Results::in_memory(),
            cards: Arc::default(),
        }
    }

    /// The last step of a front end's shutdown: lets queued output reach its clients
    /// (until `deadline`), then closes `open`.
    pub fn close_all(&self, open: impl IntoIterator<Item = Arc<Connection>>, deadline: Instant) {
        self.connections.drain(deadline);
        for conn in open {
            conn.close(CloseReason::ShuttingDown);
        }
    }
}

/// `timeout` from now; none when there is no timeout (or it is beyond any clock).
pub fn deadline_in(timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| Instant::now().checked_add(t))
}

/// How long ago `since` was: how long a player has been waited for (nothing for a
/// time ahead, after the clock was set back).
pub fn waited(since: std::time::SystemTime) -> Duration {
    since.elapsed().unwrap_or_default()
}

/// How many finished games of a front end the console can still list.
pub const FINISHED_KEPT: usize = 200;

/// How long the console waits for a game loop to answer a question: a loop answers
/// between two events, and no event takes long.
pub const QUERY_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a game loop did not answer a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// The loop has ended.
    Gone,
    /// It did not answer within [`QUERY_TIMEOUT`].
    TooSlow,
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::Gone => f.write_str("has ended"),
            Unanswered::TooSlow => write!(
                f,
                "did not answer within {} s: try again",
                QUERY_TIMEOUT.as_secs()
            ),
        }
    }
}

/// Asks the game loop behind `inbox` a question for the console: `question` puts the
/// reply channel into the loop's event, which waits its turn in the inbox like any
/// line, and the answer is awaited at most [`QUERY_TIMEOUT`] in all, so the console
/// never hangs on a game.
///
/// # Errors
///
/// [`Unanswered`]: the loop has ended, or is too slow.
pub fn ask<E, T>(inbox: &Inbox<E>, question: impl FnOnce(Sender<T>) -> E) -> Result<T, Unanswered> {
    let asked = Instant::now();
    let (reply, answer) = crossbeam_channel::bounded(1);
    inbox
        .post_within(question(reply), QUERY_TIMEOUT)
        .map_err(|refused| match refused {
            Refused::Gone(_) => Unanswered::Gone,
            Refused::Full(_) => Unanswered::TooSlow,
        })?;
    let left = QUERY_TIMEOUT.saturating_sub(asked.elapsed());
    answer.recv_timeout(left).map_err(|e| match e {
        crossbeam_channel::RecvTimeoutError::Timeout => Unanswered::TooSlow,
        crossbeam_channel::RecvTimeoutError::Disconnected => Unanswered::Gone,
    })
}

/// Live counters of a front end, for the console's `stats`.
#[derive(Debug, Default)]
pub struct Counters {
    /// Moves (passes, placements, swaps, skips) accepted since start.
    pub moves: AtomicU64,
    /// Games that have ended since start.
    pub games_finished: AtomicU64,
}

/// A game as the console's `games` table shows it, whatever its protocol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// How the console names the game (`1`, `s1`, `bkgo`): unique in the server.
    pub id: String,
    /// Whether the game is still going (not finished).
    pub live: bool,
    /// Where the game is in its life (`playing`, `waiting for partner`, ...).
    pub status: String,
    /// Who plays, as one cell.
    pub players: String,
    /// The board size, or `-`.
    pub size: String,
    /// Moves (placements, passes, ...) so far.
    pub moves: usize,
    /// Who is to move, or `-`.
    pub turn: String,
    /// How long the player to move has been waited for, while the game is playing.
    pub waited: Option<Duration>,
    /// How long ago the game was opened.
    pub age: Duration,
    /// How it ended, or `-`.
    pub result: String,
}

/// A connection as the console's `players` table shows it.
#[derive(Clone)]
pub struct ClientRow {
    /// The connection (the console traces and kicks through it).
    pub conn: Arc<Connection>,
    /// The name the client was granted, once it has one.
    pub name: Option<String>,
    /// What it is doing (`awaiting handshake`, `playing`, ...).
    pub state: String,
    /// The game it is in, as the console names games.
    pub game: Option<String>,
}

/// A practice bot seated in a game, as the console's `players` table shows it (it has
/// no connection: the server plays it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotRow {
    /// The name it was granted.
    pub name: String,
    /// What it is doing (its game's status).
    pub state: String,
    /// The game it sits in, as the console names games.
    pub game: String,
}

/// How deep the inboxes of one kind have been, for `stats` and the tests.
#[derive(Clone, Debug)]
pub struct QueueRow {
    /// Which inboxes: `GO! game inboxes`, ...
    pub what: &'static str,
    /// Their bound and the deepest one of them has been.
    pub depth: Arc<Depth>,
}

/// Counts for the console's `stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games waiting for players.
    pub waiting: usize,
    /// Games being played (or about to be replayed).
    pub playing: usize,
    /// Games ended since the server started.
    pub finished: u64,
}

/// A game record for the console's `sgf` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's text (SGF for Go).
    pub text: String,
    /// Moves it holds.
    pub moves: usize,
}

/// One protocol's front end, as the server and the console see it.
pub trait FrontEnd: Send + Sync {
    /// Its short name in the console and logs: `go`, `spectrangle`, `bkgo`.
    fn name(&self) -> &'static str;

    /// The line (or lines) a client gets when the server is full, before it is closed.
    fn refusal(&self, max_clients: usize) -> String;

    /// Serves one accepted client on the calling thread until it is gone.
    fn serve(&self, stream: TcpStream, peer: SocketAddr);

    /// Live games, then the finished ones still kept.
    fn games(&self, now: Instant) -> Vec<GameRow>;

    /// Every connected client.
    fn clients(&self) -> Vec<ClientRow>;

    /// The practice bots seated in this front end's games (none by default).
    fn bots(&self) -> Vec<BotRow> {
        Vec::new()
    }

    /// Whether `id` is how this front end names a game (live, ended or unknown): the
    /// console asks each front end in turn.
    fn owns(&self, id: &str) -> bool;

    /// The console's drawing of game `id`.
    ///
    /// # Errors
    ///
    /// Why it cannot be drawn (no such game, ended, not answering), one line.
    fn board(&self, id: &str) -> Result<String, String>;

    /// The record of game `id` (live, or kept after its end).
    ///
    /// # Errors
    ///
    /// Why there is none, one line.
    fn record(&self, id: &str) -> Result<Record, String>;

    /// Kicks one client: if it plays, it loses (and is told so); then it is closed.
    fn kick(&self, conn: &Arc<Connection>);

    /// Kicks everyone seated in game `id`; returns the console's answer.
    fn kick_game(&self, id: &str) -> String;

    /// Seats the server's practice bot in game `id`, if this front end has one, at
    /// `level` (`None`: the server's `--bot-level`).
    ///
    /// # Errors
    ///
    /// Why not, one line.
    fn seat_bot(&self, id: &str, _level: Option<Level>) -> Result<String, String> {
        Err(format!(
            "game {id} is a {} game: this front end has no practice bot",
            self.name()
        ))
    }

    /// The console's `arena`: `None` when this front end runs no arena.
    fn arena(&self, _action: ArenaAction) -> Option<String> {
        None
    }

    /// Counts for `stats`.
    fn tally(&self) -> Tally;

    /// Its inboxes' bound and the deepest they have been.
    fn queues(&self) -> Vec<QueueRow>;

    /// Moves accepted since the server started (cheap: sampled every second).
    fn moves_played(&self) -> u64;

    /// At shutdown: lets every game end (they end themselves on the shutdown signal),
    /// waiting at most until `deadline`, then closes every connection.
    fn finish(&self, deadline: Instant);
}
