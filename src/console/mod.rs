//! The operator console: the teaching assistant's commands on the server's stdin.
//!
//! - [`commands`]: console lines to typed commands; the one table behind `help` and
//!   completion.
//! - [`report`]: answers formatted as text (pure).
//! - [`interactive`]: `rustyline` when stdin is a terminal (prompt, history,
//!   completion, log lines printed above the prompt).
//! - [`piped`]: plain lines from stdin, answers on stdout, when it is not.
//!
//! The console reads the lobby's registry and the summaries games publish; for a
//! board or a record it asks the game loop with `GameEvent::Inspect` and waits at
//! most `INSPECT_TIMEOUT`. It never blocks a game, and a game never blocks it.

pub mod commands;
pub mod interactive;
pub mod piped;
pub mod rate;
pub mod report;

use crate::game::table::INSPECT_TIMEOUT;
use crate::game::{GameEvent, GameStatus, GameSummary, GameView};
use crate::net::Connection;
use crate::protocol::GameId;
use crate::server::Server;
use commands::Command;
use rate::MoveRate;
use std::collections::HashMap;
use std::io::IsTerminal;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::Instant;

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
    /// The server's shutdown, for the front ends.
    pub fn shutdown_handle(&self) -> crate::shutdown::Shutdown {
        self.server.shutdown.clone()
    }

    pub fn new(server: &Arc<Server>) -> Console {
        Console {
            rate: MoveRate::start(&server.lobby, server.shutdown.clone()),
            server: Arc::clone(server),
        }
    }

    /// Runs one console line. Every answer, error included, is text.
    pub fn execute(&self, line: &str) -> Outcome {
        let command = match commands::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Outcome::Answer(String::new()),
            Err(e) => return Outcome::Answer(e.to_string()),
        };
        let answer = match command {
            Command::Help => report::help(),
            Command::Games => {
                let (live, finished) = self.server.lobby.games();
                report::games(&live, &finished, Instant::now())
            }
            Command::Players => self.players(),
            Command::Board(id) => match self.inspect(id) {
                Ok(view) => report::board(&view),
                Err(e) => e,
            },
            Command::Kick(target) => self.kick(&target),
            Command::Trace(name) => self.trace(&name, true),
            Command::Untrace(name) => self.trace(&name, false),
            Command::Sgf(id, file) => self.sgf(id, file.as_deref()),
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
            .lobby
            .clients()
            .into_iter()
            .filter_map(|(_, name, _)| name)
            .collect();
        names.sort();
        names
    }

    /// Ids of the live games (completion).
    pub fn game_ids(&self) -> Vec<String> {
        let (live, _) = self.server.lobby.games();
        live.iter().map(|g| g.id.to_string()).collect()
    }

    /// Triggers the server's shutdown (Ctrl-C, Ctrl-D at the prompt).
    pub fn shutdown(&self) {
        self.server.shutdown.trigger();
    }

    fn players(&self) -> String {
        let (live, _) = self.server.lobby.games();
        let status: HashMap<GameId, GameStatus> = live.iter().map(|g| (g.id, g.status)).collect();
        let now = Instant::now();
        let rows: Vec<report::PlayerRow> = self
            .server
            .lobby
            .clients()
            .into_iter()
            .map(|(conn, name, game)| {
                let (lines_in, lines_out) = conn.line_counts();
                report::PlayerRow {
                    state: report::player_state(
                        name.as_deref(),
                        game.and_then(|g| status.get(&g).copied()),
                    ),
                    name,
                    peer: conn.peer,
                    game,
                    connected: now.saturating_duration_since(conn.connected_at),
                    lines_in,
                    lines_out,
                    traced: conn.is_traced(),
                }
            })
            .collect();
        report::players(&rows)
    }

    /// The connection of the player granted `name`.
    fn find_player(&self, name: &str) -> Option<Arc<Connection>> {
        self.server
            .lobby
            .clients()
            .into_iter()
            .find(|(_, granted, _)| granted.as_deref() == Some(name))
            .map(|(conn, _, _)| conn)
    }

    /// Why game `id` cannot be asked: it has ended, or never existed.
    fn not_live(&self, id: GameId) -> String {
        let (_, finished) = self.server.lobby.games();
        match finished.iter().rev().find(|g| g.id == id) {
            Some(g) => format!(
                "game {id} has ended ({}): only live games can be shown",
                ended_how(g)
            ),
            None => format!("no game {id}: type 'games' to list them"),
        }
    }

    /// The record (and its number of moves) kept for finished game `id`.
    fn finished_record(&self, id: GameId) -> Option<(String, usize)> {
        let (_, finished) = self.server.lobby.games();
        let game = finished.into_iter().rev().find(|g| g.id == id)?;
        Some((game.record?, game.moves))
    }

    /// Asks game `id`'s loop for a view, waiting at most `INSPECT_TIMEOUT`.
    fn inspect(&self, id: GameId) -> Result<GameView, String> {
        let Some(inbox) = self.server.lobby.game_inbox(id) else {
            return Err(self.not_live(id));
        };
        let (reply, answer) = crossbeam_channel::bounded(1);
        if inbox.send(GameEvent::Inspect(reply)).is_err() {
            return Err(self.not_live(id));
        }
        answer.recv_timeout(INSPECT_TIMEOUT).map_err(|e| match e {
            crossbeam_channel::RecvTimeoutError::Timeout => format!(
                "game {id} did not answer within {} s: try again",
                INSPECT_TIMEOUT.as_secs()
            ),
            crossbeam_channel::RecvTimeoutError::Disconnected => self.not_live(id),
        })
    }

    fn kick(&self, target: &str) -> String {
        if let Some(conn) = self.find_player(target) {
            self.server.lobby.kick(&conn);
            log::info!("operator kicked {}", conn.label());
            return format!("kicked {target} ({})", conn.peer);
        }
        let Ok(id) = target.parse::<u32>().map(GameId) else {
            return format!("no player named '{target}': type 'players' to list them");
        };
        if self.server.lobby.game_inbox(id).is_none() {
            return format!("game {id} is not live: nobody to kick");
        }
        let seated: Vec<(Arc<Connection>, String)> = self
            .server
            .lobby
            .clients()
            .into_iter()
            .filter(|(_, _, game)| *game == Some(id))
            .map(|(conn, name, _)| (conn, name.unwrap_or_else(|| "-".into())))
            .collect();
        if seated.is_empty() {
            return format!("game {id} has nobody seated to kick");
        }
        for (conn, _) in &seated {
            self.server.lobby.kick(conn);
            log::info!("operator kicked {} (game {id})", conn.label());
        }
        let names: Vec<&str> = seated.iter().map(|(_, n)| n.as_str()).collect();
        format!("kicked {} from game {id}", names.join(" and "))
    }

    fn trace(&self, name: &str, on: bool) -> String {
        let Some(conn) = self.find_player(name) else {
            return format!("no player named '{name}': type 'players' to list them");
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

    fn sgf(&self, id: GameId, file: Option<&Path>) -> String {
        let (sgf, moves) = match self.inspect(id) {
            Ok(view) => match view.sgf {
                Some(sgf) => (sgf, view.summary.moves),
                None => return format!("game {id} has no record yet ({})", view.summary.status),
            },
            // A finished game keeps the record of its last round.
            Err(e) => match self.finished_record(id) {
                Some(kept) => kept,
                None => return e,
            },
        };
        match file {
            None => sgf.trim_end().to_string(),
            Some(path) => match std::fs::write(path, &sgf) {
                Ok(()) => format!(
                    "wrote the record of game {id} ({moves} moves) to {}",
                    path.display()
                ),
                Err(e) => format!("cannot write {}: {e}", path.display()),
            },
        }
    }

    fn stats(&self) -> String {
        let (live, _) = self.server.lobby.games();
        let count =
            |wanted: &[GameStatus]| live.iter().filter(|g| wanted.contains(&g.status)).count();
        let (moves_per_second, rate_window) = self.rate.per_second();
        report::stats(&report::Stats {
            clients: self.server.lobby.clients().len(),
            waiting: count(&[GameStatus::WaitingForPartner, GameStatus::WaitingForConfig]),
            playing: count(&[GameStatus::Playing, GameStatus::RematchPending]),
            finished: self
                .server
                .lobby
                .counters
                .games_finished
                .load(Ordering::Relaxed),
            moves_per_second,
            rate_window,
            threads: threads(),
            uptime: self.server.started.elapsed(),
        })
    }
}

fn ended_how(g: &GameSummary) -> String {
    g.result.clone().unwrap_or_else(|| g.status.to_string())
}

/// This process's thread count, from `/proc/self/status` (Linux).
fn threads() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
}
