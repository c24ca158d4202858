//! The GO! front end: the `+`-delimited Go protocol, two players per game.
//!
//! - [`protocol`]: GO! lines to typed commands, typed messages to lines (pure).
//! - [`session`]: one client's connection thread, and the one way of its lines: to
//!   its game through its route, or to the registry when it sits in none.
//! - [`registry`]: names, waiting games, who sits where (one mutex); with `--arena`,
//!   the arena's waiting list and rounds.
//! - [`pairing`]: the arena's pairing rule (pure).
//! - [`route`]: where one client's lines go, with a lock of its own.
//! - [`questions`]: what a client was asked and has not answered (an answer that
//!   crosses the end of its question is taken quietly).
//! - [`table`]: one thread per game: the whole GO! flow.
//! - [`event`]: what a game loop receives, and who it seats.
//! - [`summary`]: what games publish for the console; [`report`]: how it reads there.
//!
//! [`GoFrontEnd`] is what the server and the console see of it.

pub mod event;
pub mod pairing;
pub mod protocol;
pub mod questions;
pub mod registry;
pub mod report;
pub mod route;
pub mod session;
pub mod summary;
pub mod table;

use super::{
    ArenaAction, BotRow, ClientRow, Context, FrontEnd, GameRow, QueueRow, Record, Tally,
    Unanswered, ask,
};
use crate::engine::bot::Level;
use crate::net::Connection;
use event::GameEvent;
use parking_lot::Mutex;
use protocol::{GameId, ServerMessage};
use registry::Registry;
use std::collections::HashMap;
use std::io;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Instant;
use summary::{GameStatus, GameSummary, GameView};

/// The net layer sends anything that is a `Message`. The impl lives here, where the
/// front end joins its layers, so that `protocol` (pure) need not know `net`.
impl crate::net::Message for ServerMessage {
    fn is_rejection(&self) -> bool {
        ServerMessage::is_rejection(self)
    }
}

/// The GO! front end: its registry, and through it its games.
pub struct GoFrontEnd {
    registry: Arc<Registry>,
    context: Context,
    /// The arena's thread (`--arena`), waited for at shutdown.
    arena_rounds: Mutex<Option<JoinHandle<()>>>,
}

impl GoFrontEnd {
    /// A GO! front end with no clients yet (and, with `--arena`, the arena's thread
    /// running).
    ///
    /// # Errors
    ///
    /// When the arena's thread cannot be started.
    pub fn new(context: Context) -> io::Result<GoFrontEnd> {
        let registry = Registry::new(context.clone());
        let arena_rounds = registry::arena::start_rounds(&registry)?;
        Ok(GoFrontEnd {
            registry,
            context,
            arena_rounds: Mutex::new(arena_rounds),
        })
    }

    /// The game id the console wrote: a positive number.
    fn game_id(id: &str) -> Option<GameId> {
        id.parse::<u32>().ok().filter(|&n| n > 0).map(GameId)
    }

    /// Why game `id` cannot be asked: it has ended, or never existed.
    fn not_live(&self, id: GameId) -> String {
        match self.finished(id) {
            Some(g) => format!(
                "game {id} has ended ({}): only live games can be shown",
                g.result.clone().unwrap_or_else(|| g.status.to_string())
            ),
            None => format!("no game {id}: type 'games' to list them"),
        }
    }

    /// The summary kept for finished game `id`, if it is still kept.
    fn finished(&self, id: GameId) -> Option<GameSummary> {
        let (_, finished) = self.registry.games();
        finished.into_iter().rev().find(|g| g.id == id)
    }

    /// Asks game `id`'s loop for a view.
    fn inspect(&self, id: GameId) -> Result<GameView, String> {
        let inbox = self
            .registry
            .game_inbox(id)
            .ok_or_else(|| self.not_live(id))?;
        ask(&inbox, GameEvent::Inspect).map_err(|e| match e {
            Unanswered::Gone => self.not_live(id),
            Unanswered::TooSlow => format!("game {id} {e}"),
        })
    }
}

impl FrontEnd for GoFrontEnd {
    fn name(&self) -> &'static str {
        "go"
    }

    fn refusal(&self, max_clients: usize) -> String {
        ServerMessage::UnknownCommand {
            reason: format!(
                "The server is full ({max_clients} clients connected): try again later"
            ),
        }
        .to_string()
    }

    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        session::serve(stream, peer, &self.registry, &self.context);
    }

    fn games(&self, now: Instant) -> Vec<GameRow> {
        let (live, finished) = self.registry.games();
        live.iter()
            .chain(&finished)
            .map(|g| report::row(g, now))
            .collect()
    }

    fn clients(&self) -> Vec<ClientRow> {
        let (live, _) = self.registry.games();
        let status: HashMap<GameId, GameStatus> = live.iter().map(|g| (g.id, g.status)).collect();
        self.registry
            .clients()
            .into_iter()
            .map(|(conn, name, game)| ClientRow {
                state: report::player_state(
                    name.as_deref(),
                    game.and_then(|g| status.get(&g).copied()),
                ),
                conn,
                name,
                game: game.map(|g| g.to_string()),
            })
            .collect()
    }

    fn bots(&self) -> Vec<BotRow> {
        let (live, _) = self.registry.games();
        self.registry
            .bots()
            .into_iter()
            .map(|(name, game)| {
                let status = live.iter().find(|g| g.id == game).map(|g| g.status);
                BotRow {
                    state: report::player_state(Some(&name), status),
                    name,
                    game: game.to_string(),
                }
            })
            .collect()
    }

    fn owns(&self, id: &str) -> bool {
        Self::game_id(id).is_some()
    }

    fn board(&self, id: &str) -> Result<String, String> {
        let id = Self::game_id(id).ok_or_else(|| format!("no game {id}"))?;
        self.inspect(id).map(|view| report::board(&view))
    }

    fn record(&self, id: &str) -> Result<Record, String> {
        let id = Self::game_id(id).ok_or_else(|| format!("no game {id}"))?;
        match self.inspect(id) {
            Ok(view) => match view.sgf {
                Some(text) => Ok(Record {
                    text,
                    moves: view.summary.moves,
                }),
                None => Err(format!(
                    "game {id} has no record yet ({})",
                    view.summary.status
                )),
            },
            // A finished game keeps the record of its last round.
            Err(e) => self
                .finished(id)
                .and_then(|g| {
                    Some(Record {
                        text: g.record?,
                        moves: g.moves,
                    })
                })
                .ok_or(e),
        }
    }

    fn kick(&self, conn: &Arc<Connection>) {
        self.registry.kick(conn);
    }

    fn kick_game(&self, id: &str) -> String {
        let Some(id) = Self::game_id(id) else {
            return format!("no game {id}");
        };
        if self.registry.game_inbox(id).is_none() {
            return format!("game {id} is not live: nobody to kick");
        }
        let seated: Vec<(Arc<Connection>, String)> = self
            .registry
            .clients()
            .into_iter()
            .filter(|(_, _, game)| *game == Some(id))
            .map(|(conn, name, _)| (conn, name.unwrap_or_else(|| "-".into())))
            .collect();
        if seated.is_empty() {
            return format!("game {id} has nobody seated to kick");
        }
        for (conn, _) in &seated {
            self.registry.kick(conn);
            log::info!("operator kicked {} (game {id})", conn.label());
        }
        let names: Vec<&str> = seated.iter().map(|(_, n)| n.as_str()).collect();
        format!("kicked {} from game {id}", names.join(" and "))
    }

    fn seat_bot(&self, id: &str, level: Option<Level>) -> Result<String, String> {
        let id = Self::game_id(id).ok_or_else(|| format!("no game {id}"))?;
        let level = level.unwrap_or(self.registry.context.settings.bot_level);
        match self.registry.seat_bot(id, level) {
            Ok(name) => Ok(format!(
                "the practice bot {name} takes the free seat of game {id}"
            )),
            Err(refused) => Err(refused.to_string()),
        }
    }

    fn tally(&self) -> Tally {
        let (live, _) = self.registry.games();
        let counters = &self.context.counters;
        Tally {
            waiting: live.iter().filter(|g| report::is_waiting(g.status)).count(),
            playing: live.iter().filter(|g| report::is_playing(g.status)).count(),
            finished: counters.games_finished.load(Ordering::Relaxed),
        }
    }

    fn queues(&self) -> Vec<QueueRow> {
        vec![QueueRow {
            what: "GO! game inboxes",
            depth: Arc::clone(&self.registry.depth),
        }]
    }

    fn moves_played(&self) -> u64 {
        self.context.counters.moves.load(Ordering::Relaxed)
    }

    fn arena(&self, action: ArenaAction) -> Option<String> {
        self.registry.arena(action)
    }

    fn finish(&self, deadline: Instant) {
        // The arena's thread ends on the shutdown signal, between two rounds.
        if let Some(rounds) = self.arena_rounds.lock().take() {
            crate::shutdown::join_by(rounds, deadline, "the arena's rounds");
        }
        for game in self.registry.take_loops() {
            game.wait_until(deadline);
        }
        self.context
            .close_all(self.registry.connections(), deadline);
    }
}
