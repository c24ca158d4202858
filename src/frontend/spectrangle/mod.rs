//! The Spectrangle front end: the tile game for 2 to 4 players, its blank-separated
//! protocol, lobbies and the extensions `chat` and `multilobby`.
//!
//! - [`protocol`]: lines to typed requests, typed messages to lines (pure).
//! - [`session`]: one client's connection thread.
//! - [`registry`]: names, lobbies (tables waiting for their players), who sits where
//!   (one mutex).
//! - [`table`]: one thread per lobby and the game it becomes.
//! - [`event`]: what a table receives, and who it seats.
//! - [`summary`]: what tables publish for the console; [`report`]: how it reads there.
//!
//! [`SpectrangleFrontEnd`] is what the server and the console see of it. The rules are
//! the pure engine [`crate::engine::spectrangle`].

pub mod event;
pub mod protocol;
pub mod registry;
pub mod report;
pub mod session;
pub mod summary;
pub mod table;

use super::{
    BotRow, ClientRow, Context, FrontEnd, GameRow, QueueRow, Record, Tally, Unanswered, ask,
};
use crate::engine::bot::Level;
use crate::net::{CloseReason, Connection};

use event::TableEvent;
use protocol::{ErrorCode, ServerMessage};
use registry::Registry;
use std::collections::HashMap;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;
use summary::{TableId, TableStatus, TableSummary, TableView};

/// The net layer sends anything that is a `Message`; the impl lives here, where the
/// front end joins its layers, so that `protocol` (pure) need not know `net`.
impl crate::net::Message for ServerMessage {
    fn is_rejection(&self) -> bool {
        ServerMessage::is_rejection(self)
    }
}

/// The Spectrangle front end: its registry, and through it its tables.
pub struct SpectrangleFrontEnd {
    registry: Arc<Registry>,
    context: Context,
}

impl SpectrangleFrontEnd {
    /// A Spectrangle front end with no clients yet.
    pub fn new(context: Context) -> SpectrangleFrontEnd {
        SpectrangleFrontEnd {
            registry: Registry::new(context.clone()),
            context,
        }
    }

    /// Why table `id` cannot be asked: its game has ended, or it never existed.
    fn not_live(&self, id: TableId) -> String {
        match self.finished(id) {
            Some(s) => format!(
                "game {id} has ended ({}): only live games can be shown",
                s.result.unwrap_or_else(|| s.status.to_string())
            ),
            None => format!("no game {id}: type 'games' to list them"),
        }
    }

    fn finished(&self, id: TableId) -> Option<TableSummary> {
        let (_, finished) = self.registry.tables();
        finished.into_iter().rev().find(|s| s.id == id)
    }

    /// Asks table `id`'s loop for a view.
    fn inspect(&self, id: TableId) -> Result<TableView, String> {
        let inbox = self.registry.inbox(id).ok_or_else(|| self.not_live(id))?;
        ask(&inbox, TableEvent::Inspect).map_err(|e| match e {
            Unanswered::Gone => self.not_live(id),
            Unanswered::TooSlow => format!("game {id} {e}"),
        })
    }
}

impl FrontEnd for SpectrangleFrontEnd {
    fn name(&self) -> &'static str {
        "spectrangle"
    }

    fn refusal(&self, max_clients: usize) -> String {
        ServerMessage::error(
            ErrorCode::Generic,
            format!("The server is full ({max_clients} clients connected): try again later"),
        )
        .to_string()
    }

    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        session::serve(stream, peer, &self.registry, &self.context);
    }

    fn games(&self, now: Instant) -> Vec<GameRow> {
        let (live, finished) = self.registry.tables();
        live.iter()
            .chain(&finished)
            .map(|s| report::row(s, now))
            .collect()
    }

    fn clients(&self) -> Vec<ClientRow> {
        let (live, _) = self.registry.tables();
        let status: HashMap<TableId, TableStatus> =
            live.into_iter().map(|s| (s.id, s.status)).collect();
        self.registry
            .clients()
            .into_iter()
            .map(|(conn, name, table)| ClientRow {
                state: report::player_state(table.and_then(|id| status.get(&id))),
                conn,
                name,
                game: table.map(|id| id.to_string()),
            })
            .collect()
    }

    fn owns(&self, id: &str) -> bool {
        TableId::parse(id).is_some()
    }

    fn board(&self, id: &str) -> Result<String, String> {
        let id = TableId::parse(id).ok_or_else(|| format!("no game {id}"))?;
        self.inspect(id).map(|view| report::board(&view))
    }

    fn record(&self, id: &str) -> Result<Record, String> {
        let id = TableId::parse(id).ok_or_else(|| format!("no game {id}"))?;
        match self.inspect(id) {
            Ok(view) if view.record.is_empty() => Err(format!(
                "game {id} has no record yet ({})",
                view.summary.status
            )),
            Ok(view) => Ok(Record {
                text: view.record + "\n",
                moves: view.summary.moves,
            }),
            Err(e) => self
                .finished(id)
                .and_then(|s| {
                    Some(Record {
                        text: s.record?,
                        moves: s.moves,
                    })
                })
                .ok_or(e),
        }
    }

    fn kick(&self, conn: &Arc<Connection>) {
        // Its reader reports the departure: a lobby hears LOBBY, a game ends with SCORE.
        conn.close(CloseReason::Kicked);
    }

    fn kick_game(&self, id: &str) -> String {
        let Some(id) = TableId::parse(id) else {
            return format!("no game {id}");
        };
        let members = self.registry.members(id);
        if members.is_empty() {
            return format!("game {id} is not live: nobody to kick");
        }
        for conn in &members {
            conn.close(CloseReason::Kicked);
            log::info!("operator kicked {} (game {id})", conn.label());
        }
        format!("kicked {} players of game {id}", members.len())
    }

    fn bots(&self) -> Vec<BotRow> {
        let (live, _) = self.registry.tables();
        self.registry
            .bots()
            .into_iter()
            .map(|(name, table)| BotRow {
                state: report::player_state(live.iter().find(|s| s.id == table).map(|s| &s.status)),
                name,
                game: table.to_string(),
            })
            .collect()
    }

    fn seat_bot(&self, id: &str, level: Option<Level>) -> Result<String, String> {
        if level.is_some() {
            return Err(format!(
                "the Spectrangle bot has no levels (they are GoBot's): use 'bot {id}'"
            ));
        }
        let id = TableId::parse(id).ok_or_else(|| format!("no game {id}"))?;
        self.registry
            .seat_bot(id)
            .map(|name| format!("the practice bot {name} joins the lobby of game {id}, ready"))
            .map_err(|refused| refused.to_string())
    }

    fn tally(&self) -> Tally {
        let (live, _) = self.registry.tables();
        let counters = &self.context.counters;
        Tally {
            waiting: live
                .iter()
                .filter(|s| matches!(s.status, TableStatus::Lobby { .. }))
                .count(),
            playing: live
                .iter()
                .filter(|s| s.status == TableStatus::Playing)
                .count(),
            finished: counters.games_finished.load(Ordering::Relaxed),
        }
    }

    fn queues(&self) -> Vec<QueueRow> {
        vec![QueueRow {
            what: "Spectrangle table inboxes",
            depth: Arc::clone(&self.registry.depth),
        }]
    }

    fn moves_played(&self) -> u64 {
        self.context.counters.moves.load(Ordering::Relaxed)
    }

    fn finish(&self, deadline: Instant) {
        for table in self.registry.take_loops() {
            table.wait_until(deadline);
        }
        self.context
            .close_all(self.registry.connections(), deadline);
    }
}
