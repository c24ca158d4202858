//! The GO! arena's side of matchmaking (`--arena`, ARENA.md): nobody leads. A
//! HANDSHAKE puts the client on the arena's waiting list, unanswered; every
//! `--arena-round` seconds a thread of its own (`arena`) pairs the waiting players
//! (least met first, see `pairing`) and opens a game for each pair, configured by the
//! arena, whose players then get `ACKNOWLEDGE_HANDSHAKE+<id>+0` and, from the game,
//! ACKNOWLEDGE_CONFIG: every client sees a normal non-leader's flow. A player left
//! waiting `--bot-after` seconds meets the practice bot.
//!
//! The list lives in the registry's state, under its one lock: a disconnect, a kick
//! and a round see the same list. Who met whom comes from the results
//! (`results::Meetings`), read before the lock is taken.

use super::games::NewGame;
use super::{Registry, RegistryState, set_game};
use crate::engine::bot::Level;
use crate::engine::go::Colour;
use crate::engine::rng::Rng;
use crate::frontend::ArenaAction;
use crate::frontend::go::event::{GameEvent, Player};
use crate::frontend::go::pairing::{self, Waiting};
use crate::frontend::go::protocol::{GameId, ServerMessage};
use crate::frontend::go::summary::GameSummary;
use crate::frontend::go::table::Arranged;
use crate::frontend::names;
use crate::net::{ConnId, Connection};
use crate::results::Meetings;
use crate::settings::{ArenaSettings, Settings};
use crossbeam_channel::{Receiver, Sender, at, bounded, select};
use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// The arena's state: who waits, the rounds.
pub struct Arena {
    settings: ArenaSettings,
    /// Colours of first meetings with equal balances.
    rng: Rng,
    /// The players waiting, in arrival order.
    waiting: Vec<Waiter>,
    /// Counts arrivals: a waiter's place in the order.
    arrivals: u64,
    /// No new pairs while paused (`arena pause`).
    paused: bool,
    /// Rounds held so far.
    round: u32,
    next_round_at: Instant,
    /// The games of the latest round that made any: id, black, white.
    this_round: Vec<(GameId, String, String)>,
    /// Wakes the arena's thread when a player starts waiting (for `--bot-after`).
    poke: Sender<()>,
    poked: Receiver<()>,
}

/// A player on the waiting list.
struct Waiter {
    player: Player,
    arrival: u64,
    since: Instant,
}

/// The opponent of a game the arena opens.
enum Opponent {
    Client(Player),
    /// The practice bot, under its granted name.
    Bot(String, Level),
}

impl Arena {
    /// An arena with nobody waiting; its first round comes one round from now.
    pub fn new(settings: ArenaSettings, rng: Rng) -> Arena {
        let (poke, poked) = bounded(1);
        Arena {
            settings,
            rng,
            waiting: Vec::new(),
            arrivals: 0,
            paused: false,
            round: 0,
            next_round_at: Instant::now() + settings.round,
            this_round: Vec::new(),
            poke,
            poked,
        }
    }

    /// Takes a player that left off the list.
    pub fn leave(&mut self, conn: ConnId) {
        self.waiting.retain(|w| w.player.conn.id != conn);
    }
}

/// Puts `player` on the waiting list: it gets no answer until a round pairs it, and no
/// handshake timeout runs meanwhile.
pub(super) fn wait(state: &mut RegistryState, player: Player) {
    let Some(arena) = state.arena.as_mut() else {
        return;
    };
    if let Some(entry) = state.clients.get(&player.conn.id) {
        entry.route.set_waiting(true);
    }
    if arena
        .waiting
        .iter()
        .any(|w| w.player.conn.id == player.conn.id)
    {
        return;
    }
    log::info!("arena: {} waits for the next round", player.name);
    player.conn.accepted();

    arena.arrivals += 1;
    arena.waiting.push(Waiter {
        player,
        arrival: arena.arrivals,
        since: Instant::now(),
    });
    let _ = arena.poke.try_send(());
}

/// What a SET_CONFIG gets in the arena: UNKNOWN_COMMAND saying the arena sets the game.
pub fn sets_the_game(settings: &Settings) -> String {
    let size = settings.arena.map_or(0, |arena| arena.size);
    format!(
        "The arena sets the game ({size}x{size}, komi {}): SET_CONFIG is not accepted",
        settings.rules.komi
    )
}

/// Starts the arena's thread when the arena is on; it ends at the shutdown.
///
/// # Errors
///
/// When the thread cannot be started.
pub fn start_rounds(registry: &Arc<Registry>) -> io::Result<Option<JoinHandle<()>>> {
    let Some(poked) = registry
        .state
        .lock()
        .arena
        .as_ref()
        .map(|a| a.poked.clone())
    else {
        return Ok(None);
    };
    let registry = Arc::clone(registry);
    if let Some(arena) = &registry.context.settings.arena {
        log::info!(
            "arena: pairs the waiting players every {} s on {n}x{n}; {}",
            arena.round.as_secs(),
            match arena.move_clock {
                Some(clock) => format!(
                    "{} s a move (--move-timeout; 0 turns the clock off)",
                    clock.as_secs()
                ),
                None => "no move clock (--move-timeout 0)".to_string(),
            },
            n = arena.size
        );
    }
    let stop = registry.context.shutdown.signal();
    thread::Builder::new()
        .name("arena".into())
        .spawn(move || {
            loop {
                let wake = registry.next_wake();
                select! {
                    recv(stop) -> _ => return,
                    recv(poked) -> _ => {}
                    recv(at(wake)) -> _ => registry.arena_tick(),
                }
            }
        })
        .map(Some)
}

impl Registry {
    /// When the arena's thread next has something to do: the next round, or the
    /// first waiting player due to meet the bot.
    fn next_wake(&self) -> Instant {
        let state = self.state.lock();
        let Some(arena) = &state.arena else {
            return Instant::now() + Duration::from_secs(3600);
        };
        let bot_due = self
            .context
            .settings
            .bot_after
            .and_then(|after| arena.waiting.iter().map(|w| w.since + after).min());
        match bot_due {
            Some(due) if !arena.paused => due.min(arena.next_round_at),
            _ => arena.next_round_at,
        }
    }

    /// One wake-up of the arena's thread: a round when one is due, then the bot for
    /// whoever has waited `--bot-after`. Games are opened under the lock; their
    /// players are told, and their loops started, after it is released.
    fn arena_tick(&self) {
        // Read before the registry's lock: the results have a lock of their own.
        let meetings = self.context.results.meetings();
        let ratings: HashMap<String, f64> = self
            .context
            .results
            .tables()
            .go
            .iter()
            .map(|row| (row.name.clone(), row.rating as f64))
            .collect();
        let mut opened = Vec::new();
        {
            let mut state = self.state.lock();
            if self.context.shutdown.is_triggered() {
                return;
            }
            let now = Instant::now();
            let Some(arena) = state.arena.as_mut() else {
                return;
            };
            let round_due = now >= arena.next_round_at;
            if round_due {
                arena.next_round_at = now + arena.settings.round;
            }
            if arena.paused {
                return;
            }
            let pairs = if round_due {
                pair_round(arena, &meetings, &ratings)
            } else {
                Vec::new()
            };
            let due_for_bot = self.context.settings.bot_after.map_or(Vec::new(), |after| {
                let (due, still): (Vec<Waiter>, Vec<Waiter>) = std::mem::take(&mut arena.waiting)
                    .into_iter()
                    .partition(|w| w.since + after <= now);
                arena.waiting = still;
                due
            });
            let mut round_games = Vec::new();
            for (black, white) in pairs {
                let names = (black.name.clone(), white.name.clone());
                if let Some(game) =
                    self.open_arena_game(&mut state, black, Opponent::Client(white), Colour::Black)
                {
                    round_games.push((game.0.id, names.0, names.1));
                    opened.push(game);
                }
            }
            for waiter in due_for_bot {
                let level = self.context.settings.bot_level;
                let bot = names::grant(&names::bot_name(level), |n| state.taken_names.contains(n));
                let Some(arena) = state.arena.as_mut() else {
                    return;
                };
                let first =
                    if pairing::takes_black(&waiter.player.name, &bot, &meetings, &mut arena.rng) {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                let player = waiter.player.name.clone();
                if let Some(game) = self.open_arena_game(
                    &mut state,
                    waiter.player,
                    Opponent::Bot(bot.clone(), level),
                    first,
                ) {
                    log::info!(
                        "arena: {player} waited {} s: game {} against the practice bot {bot}",
                        self.context.settings.bot_after.map_or(0, |d| d.as_secs()),
                        game.0.id
                    );
                    opened.push(game);
                }
            }
            if let Some(arena) = state.arena.as_mut()
                && round_due
                && !round_games.is_empty()
            {
                arena.this_round = round_games;
            }
        }
        for (game, players) in opened {
            for conn in players {
                let _ = conn.send(&ServerMessage::AcknowledgeHandshake {
                    game_id: game.id,
                    is_leader: false,
                });
            }
            self.start_loop(game);
        }
    }

    /// Opens a game the arena arranged: `first` in the first seat with colour
    /// `first_colour`, `second` in the other. Returns it, to start once the lock is
    /// released, with the clients to tell; `None` when the first player has left.
    fn open_arena_game(
        &self,
        state: &mut RegistryState,
        first: Player,
        second: Opponent,
        first_colour: Colour,
    ) -> Option<(NewGame, Vec<Arc<Connection>>)> {
        let size = state.arena.as_ref()?.settings.size;
        // Both arrive before the loop starts, in seat order.
        let mut clients = vec![Arc::clone(&first.conn)];
        let mut arrivals = vec![GameEvent::Join(first)];
        let mut bot = None;
        match second {
            Opponent::Client(player) => {
                clients.push(Arc::clone(&player.conn));
                arrivals.push(GameEvent::Join(player));
            }
            Opponent::Bot(name, level) => {
                arrivals.push(GameEvent::SeatBot(name.clone(), level));
                state.taken_names.insert(name.clone());
                bot = Some(name);
            }
        }
        let arranged = Arranged {
            size,
            first_seat: first_colour,
        };
        let new_game = self.open_game(state, arrivals, Some(arranged));
        if let Some(name) = bot {
            state.bots.insert(new_game.id, name);
        }
        for conn in &clients {
            set_game(state, conn.id, Some(new_game.id));
        }
        Some((new_game, clients))
    }

    /// The console's `arena`: shows the arena, or pauses or resumes its pairing;
    /// `None` when the arena is off.
    pub fn arena(&self, action: ArenaAction) -> Option<String> {
        let mut state = self.state.lock();
        // Every game of an arena server is the arena's: rounds' games, their
        // rematches (colours swapped) and games against the practice bot.
        let on_board: Vec<String> = match action {
            ArenaAction::Show => state
                .games
                .values()
                .map(|entry| on_board(&entry.summary.lock()))
                .collect(),
            ArenaAction::Pause | ArenaAction::Resume => Vec::new(),
        };
        let arena = state.arena.as_mut()?;
        let answer = match action {
            ArenaAction::Pause if arena.paused => "the arena is already paused".to_string(),
            ArenaAction::Pause => {
                arena.paused = true;
                log::info!("arena paused by the operator");
                "arena paused: the games on the board finish; no new pairs until 'arena resume'"
                    .to_string()
            }
            ArenaAction::Resume if !arena.paused => "the arena is not paused".to_string(),
            ArenaAction::Resume => {
                arena.paused = false;
                log::info!("arena resumed by the operator");
                let _ = arena.poke.try_send(());
                format!(
                    "arena resumed: the next round pairs in {} s",
                    arena
                        .next_round_at
                        .saturating_duration_since(Instant::now())
                        .as_secs()
                )
            }
            ArenaAction::Show => describe(arena, &self.context.settings, &on_board),
        };
        Some(answer)
    }
}

/// Pairs the players waiting now; takes the paired off the list. Returns the games to
/// open: (black, white).
fn pair_round(
    arena: &mut Arena,
    meetings: &Meetings,
    ratings: &HashMap<String, f64>,
) -> Vec<(Player, Player)> {
    arena.round += 1;
    let list: Vec<Waiting> = arena
        .waiting
        .iter()
        .map(|w| Waiting {
            name: w.player.name.clone(),
            arrival: w.arrival,
            rating: ratings.get(&w.player.name).copied().unwrap_or(1500.0),
        })
        .collect();
    let pairings = pairing::pair(&list, meetings, &mut arena.rng);
    let mut taken = vec![false; list.len()];
    let mut games = Vec::new();
    for pair in &pairings {
        taken[pair.black] = true;
        taken[pair.white] = true;
        games.push((
            arena.waiting[pair.black].player.clone(),
            arena.waiting[pair.white].player.clone(),
        ));
    }
    let left: Vec<&str> = arena
        .waiting
        .iter()
        .zip(&taken)
        .filter(|(_, taken)| !**taken)
        .map(|(w, _)| w.player.name.as_str())
        .collect();
    if !games.is_empty() || !left.is_empty() {
        log::info!(
            "arena round {}: {} game{}{}{}",
            arena.round,
            games.len(),
            if games.len() == 1 { "" } else { "s" },
            games
                .iter()
                .map(|(b, w)| format!(", {} (black) vs {} (white)", b.name, w.name))
                .collect::<String>(),
            if left.is_empty() {
                String::new()
            } else {
                format!("; waiting: {}", left.join(", "))
            }
        );
    }
    let mut index = 0;
    arena.waiting.retain(|_| {
        let keep = !taken[index];
        index += 1;
        keep
    });
    games
}

/// A game on the board as `arena` lists it: `game 3 Ann (black) vs Bob (white),
/// playing`, with the colours of its current round.
fn on_board(summary: &GameSummary) -> String {
    let seat = |(name, colour): &(String, Option<Colour>)| match colour {
        Some(colour) => format!("{name} ({colour})"),
        None => name.clone(),
    };
    let mut seats: Vec<&(String, Option<Colour>)> = summary.players.iter().collect();
    seats.sort_by_key(|(_, colour)| *colour != Some(Colour::Black));
    let names: Vec<String> = seats.into_iter().map(seat).collect();
    format!(
        "game {} {}, {}",
        summary.id,
        names.join(" vs "),
        summary.status
    )
}

/// The `arena` answer: the game, the rounds, who waits, the latest round's games and
/// every game on the board now.
fn describe(arena: &Arena, settings: &Settings, on_board: &[String]) -> String {
    let now = Instant::now();
    let size = arena.settings.size;
    let mut lines = vec![format!(
        "GO! arena: {size}x{size}, komi {}, a round every {} s; {} round{} so far, the next in {} s{}",
        settings.rules.komi,
        arena.settings.round.as_secs(),
        arena.round,
        if arena.round == 1 { "" } else { "s" },
        arena.next_round_at.saturating_duration_since(now).as_secs(),
        if arena.paused {
            " (paused: no new pairs until 'arena resume')"
        } else {
            ""
        }
    )];
    if arena.waiting.is_empty() {
        lines.push("waiting: nobody".to_string());
    } else {
        let waiting: Vec<String> = arena
            .waiting
            .iter()
            .map(|w| {
                format!(
                    "{} ({} s)",
                    w.player.name,
                    now.duration_since(w.since).as_secs()
                )
            })
            .collect();
        lines.push(format!("waiting: {}", waiting.join(", ")));
    }
    if arena.this_round.is_empty() {
        lines.push("latest round: no games yet".to_string());
    } else {
        let games: Vec<String> = arena
            .this_round
            .iter()
            .map(|(id, black, white)| format!("game {id} {black} (black) vs {white} (white)"))
            .collect();
        lines.push(format!("latest round: {}", games.join(", ")));
    }
    lines.push(if on_board.is_empty() {
        "on the board: no games".to_string()
    } else {
        format!("on the board: {}", on_board.join("; "))
    });
    lines.join("\n")
}
