//! The operator console: the teaching assistant's commands on the server's stdin.
//!
//! - [`commands`]: console lines to typed commands; the one table behind `help` and
//!   completion.
//! - [`report`]: answers formatted as text (pure).
//! - [`interactive`]: `rustyline` when stdin is a terminal (prompt, history,
//!   completion, log lines printed above the prompt).
//! - [`piped`]: plain lines from stdin, answers on stdout, when it is not.
//!
//! The console sees every front end through the `FrontEnd` trait: their games and
//! clients as rows, a board as text. A front end answers from what its games publish,
//! or asks a game loop and waits a bounded time: the console never blocks a game, and
//! a game never blocks it.

pub mod cards;
pub mod commands;
pub mod interactive;
pub mod piped;
pub mod rate;
pub mod report;
pub mod standings;

use crate::frontend::FrontEnd;
use crate::net::Connection;
use crate::server::Server;
use commands::{ArenaAction, Command};
use rate::MoveRate;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// Starts the console on its own thread, named `console`: interactive when stdin is a
/// terminal, else reading plain lines. Returns at once.
///
/// The returned guard restores the terminal's settings when dropped: rustyline puts
/// the terminal in raw mode, and a shutdown by signal ends the process while the
/// prompt is still up.
pub fn start(server: &Arc<Server>) -> TerminalGuard {
    let guard = TerminalGuard::save();
    let console = Console::new(server);
    let spawned = thread::Builder::new()
        .name("console".into())
        .spawn(move || {
            if std::io::stdin().is_terminal() {
                interactive::run(console);
            } else {
                piped::run(&console);
            }
        });
    if let Err(e) = spawned {
        log::error!("cannot start the console: {e}");
    }
    guard
}

/// The terminal settings of stdin as they were before the console started.
pub struct TerminalGuard {
    saved: Option<libc::termios>,
}

impl TerminalGuard {
    fn save() -> TerminalGuard {
        if !std::io::stdin().is_terminal() {
            return TerminalGuard { saved: None };
        }
        // SAFETY: tcgetattr only writes the termios struct it is given; an all-zero
        // termios is a valid value of this plain C struct.
        let mut settings: libc::termios = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::tcgetattr(libc::STDIN_FILENO, &mut settings) } == 0;
        TerminalGuard {
            saved: ok.then_some(settings),
        }
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if let Some(settings) = &self.saved {
            // SAFETY: restores settings read from the same descriptor by tcgetattr.
            unsafe {
                libc::tcsetattr(libc::STDIN_FILENO, libc::TCSANOW, settings);
            }
            crate::logging::redirect(Box::new(std::io::stderr()));
        }
    }
}

/// What the front end does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Print this and read the next line.
    Answer(String),
    /// Print this and stop reading: the server is shutting down.
    Shutdown(String),
}

/// The commands, run against the server.
pub struct Console {
    server: Arc<Server>,
    rate: MoveRate,
}

impl Console {
    /// A console on `server`, with a move-rate sampler thread.
    pub fn new(server: &Arc<Server>) -> Console {
        Console {
            rate: MoveRate::start(server),
            server: Arc::clone(server),
        }
    }

    /// The server's shutdown, for the front ends.
    pub fn shutdown_handle(&self) -> crate::shutdown::Shutdown {
        self.server.shutdown.clone()
    }

    /// Runs one console line. Every answer, error included, is text.
    pub fn execute(&self, line: &str) -> Outcome {
        let command = match commands::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Outcome::Answer(String::new()),
            Err(e) => return Outcome::Answer(e.to_string()),
        };
        let answer = match command {
            Command::Help => report::help(self.server.web_address.get().copied()),
            Command::Games => self.games(),
            Command::Players => self.players(),
            Command::Board(id) => match self.front_end_of(&id, "board") {
                Ok(front_end) => front_end.board(&id).unwrap_or_else(|e| e),
                Err(e) => e,
            },
            Command::Kick(target) => self.kick(&target),
            Command::Bot(id, level) => match self.front_end_of(&id, "bot") {
                Ok(front_end) => front_end.seat_bot(&id, level).unwrap_or_else(|e| e),
                Err(e) => e,
            },
            Command::Trace(name) => self.trace(&name, true),
            Command::Untrace(name) => self.trace(&name, false),
            Command::Sgf(id, file) => self.sgf(&id, file.as_deref()),
            Command::Standings(front) => standings::standings(&self.server.results.tables(), front),
            Command::Results(count) => standings::results(&self.server.results.recent(count)),
            Command::Crosstable => standings::crosstable(&self.server.results.crosstable()),
            Command::Arena(action) => self
                .server
                .front_ends()
                .iter()
                .find_map(|f| f.arena(action))
                .map(|answer| match action {
                    // Who met whom, under the arena itself.
                    ArenaAction::Show => format!(
                        "{answer}\n\n{}",
                        standings::crosstable(&self.server.results.crosstable())
                    ),
                    _ => answer,
                })
                .unwrap_or_else(|| {
                    "the arena is off: start the server with --arena to run a GO! tournament"
                        .to_string()
                }),
            Command::Report(None) => cards::cards_table(&self.server.cards.rows()),
            Command::Report(Some(name)) => {
                cards::cards_of(&name, &self.server.cards.named_anywhere(&name))
            }
            Command::Stats => self.stats(),
            Command::Shutdown => {
                self.server.shutdown.trigger();
                return Outcome::Shutdown(
                    "shutting down: finishing games and closing connections".to_string(),
                );
            }
        };
        Outcome::Answer(answer)
    }

    /// Granted names of the connected players, sorted (completion).
    pub fn player_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .server
            .front_ends()
            .iter()
            .flat_map(|f| f.clients())
            .filter_map(|client| client.name)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Ids of the live games (completion).
    pub fn game_ids(&self) -> Vec<String> {
        let now = Instant::now();
        self.server
            .front_ends()
            .iter()
            .flat_map(|f| f.games(now))
            .filter(|g| g.live)
            .map(|g| g.id)
            .collect()
    }

    /// Triggers the server's shutdown (Ctrl-C, Ctrl-D at the prompt).
    pub fn shutdown(&self) {
        self.server.shutdown.trigger();
    }

    /// The front end whose game `id` is, or the answer saying `id` is no game id.
    fn front_end_of(&self, id: &str, command: &str) -> Result<&Arc<dyn FrontEnd>, String> {
        self.server
            .front_ends()
            .iter()
            .find(|f| f.owns(id))
            .ok_or_else(|| {
                let usage = commands::spec(command).map_or(String::new(), |spec| spec.usage());
                format!(
                    "'{id}' is not a game id (such as 1, s1 or bkgo, see 'games'): usage: {usage}"
                )
            })
    }

    fn games(&self) -> String {
        let now = Instant::now();
        let mut live = Vec::new();
        let mut ended = Vec::new();
        for front_end in self.server.front_ends() {
            for game in front_end.games(now) {
                let list = if game.live { &mut live } else { &mut ended };
                list.push((front_end.name(), game));
            }
        }
        live.append(&mut ended);
        report::games(&live)
    }

    fn players(&self) -> String {
        let now = Instant::now();
        let mut rows: Vec<(u64, report::PlayerRow)> = Vec::new();
        for front_end in self.server.front_ends() {
            for client in front_end.clients() {
                let (lines_in, lines_out) = client.conn.line_counts();
                let row = report::PlayerRow {
                    name: client.name,
                    front_end: front_end.name(),
                    peer: report::Peer::Address(client.conn.peer),
                    state: client.state,
                    game: client.game,
                    connected: now.saturating_duration_since(client.conn.connected_at),
                    lines_in,
                    lines_out,
                    traced: client.conn.is_traced(),
                };
                rows.push((client.conn.id.0, row));
            }
            for bot in front_end.bots() {
                let row = report::PlayerRow {
                    name: Some(bot.name),
                    front_end: front_end.name(),
                    peer: report::Peer::Bot,
                    state: bot.state,
                    game: Some(bot.game),
                    connected: Duration::ZERO,
                    lines_in: 0,
                    lines_out: 0,
                    traced: false,
                };
                // After every connection.
                rows.push((u64::MAX, row));
            }
        }
        // In connection order, whatever the front end.
        rows.sort_by_key(|(id, _)| *id);
        let rows: Vec<report::PlayerRow> = rows.into_iter().map(|(_, row)| row).collect();
        report::players(&rows)
    }

    /// The connection of the player granted `name`, and its front end: `Ok(None)` when
    /// nobody has that name, an error when it is in use on several front ends.
    fn find_player(&self, name: &str) -> Result<Option<Found<'_>>, String> {
        let mut found: Vec<Found<'_>> = self
            .server
            .front_ends()
            .iter()
            .flat_map(|f| {
                f.clients()
                    .into_iter()
                    .filter(|c| c.name.as_deref() == Some(name))
                    .map(move |c| (f, c.conn))
            })
            .collect();
        let bot = self
            .server
            .front_ends()
            .iter()
            .flat_map(|f| f.bots())
            .find(|bot| bot.name == name);
        if let (Some(bot), true) = (bot, found.is_empty()) {
            return Err(format!(
                "{name} is the server's practice bot in game {game}: it has no connection ('kick {game}' kicks its opponent)",
                game = bot.game
            ));
        }
        if found.len() > 1 {
            let places: Vec<&str> = found.iter().map(|(f, _)| f.name()).collect();
            return Err(format!(
                "'{name}' is a name on {}: kick by game id instead (see 'players')",
                places.join(" and ")
            ));
        }
        Ok(found.pop())
    }

    fn no_player(name: &str) -> String {
        format!("no player named '{name}': type 'players' to list them")
    }

    fn kick(&self, target: &str) -> String {
        match self.find_player(target) {
            Err(ambiguous) => ambiguous,
            Ok(Some((front_end, conn))) => {
                front_end.kick(&conn);
                log::info!("operator kicked {}", conn.label());
                format!("kicked {target} ({})", conn.peer)
            }
            Ok(None) => match self.server.front_ends().iter().find(|f| f.owns(target)) {
                Some(front_end) => front_end.kick_game(target),
                None => Self::no_player(target),
            },
        }
    }

    fn trace(&self, name: &str, on: bool) -> String {
        let conn = match self.find_player(name) {
            Ok(Some((_, conn))) => conn,
            Ok(None) => return Self::no_player(name),
            Err(e) => return e,
        };
        let was = conn.is_traced();
        conn.set_traced(on);
        match (on, was) {
            (true, false) => format!("tracing {name}: its lines in (<-) and out (->) are logged"),
            (true, true) => format!("{name} is already traced"),
            (false, true) => format!("no longer tracing {name}"),
            (false, false) => format!("{name} was not traced"),
        }
    }

    fn sgf(&self, id: &str, file: Option<&Path>) -> String {
        let record = match self.front_end_of(id, "sgf").and_then(|f| f.record(id)) {
            Ok(record) => record,
            Err(e) => return e,
        };
        match file {
            None => record.text.trim_end().to_string(),
            Some(path) => match std::fs::write(path, &record.text) {
                Ok(()) => format!(
                    "wrote the record of game {id} ({} move{}) to {}",
                    record.moves,
                    if record.moves == 1 { "" } else { "s" },
                    path.display()
                ),
                Err(e) => format!("cannot write {}: {e}", path.display()),
            },
        }
    }

    fn stats(&self) -> String {
        let front_ends = self.server.front_ends();
        let tallies: Vec<_> = front_ends.iter().map(|f| f.tally()).collect();
        let (moves_per_second, rate_window) = self.rate.per_second();
        report::stats(&report::Stats {
            clients: front_ends.iter().map(|f| f.clients().len()).sum(),
            waiting: tallies.iter().map(|t| t.waiting).sum(),
            playing: tallies.iter().map(|t| t.playing).sum(),
            finished: tallies.iter().map(|t| t.finished).sum(),
            moves_per_second,
            rate_window,
            threads: threads(),
            uptime: self.server.started.elapsed(),
            queues: front_ends
                .iter()
                .flat_map(|f| f.queues())
                .map(|q| (q.what, q.depth.deepest(), q.depth.bound()))
                .collect(),
            web_viewers: self.server.live.viewers(),
            cards: (
                self.server.cards.len(),
                self.server.cards.kept(),
                self.server.cards.forgotten(),
            ),
        })
    }
}

/// A connected client and the front end it is connected to.
type Found<'a> = (&'a Arc<dyn FrontEnd>, Arc<Connection>);

/// This process's thread count, from `/proc/self/status` (Linux).
fn threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}
