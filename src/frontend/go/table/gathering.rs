//! Gathering: the players arrive, the leader configures, each round starts (and with
//! it the round's times, [`Round`]).

use super::{GameConfig, Occupant, Phase, Seat, Table, deadline_in, random_colour, state_of};
use crate::cards::Mistake;
use crate::engine::go::{self, Colour};
use crate::frontend::go::event::Player;
use crate::frontend::go::protocol::{ColourChoice, GameId, ServerMessage};
use crate::frontend::go::questions::Questions;
use crate::frontend::go::registry::arena;
use crate::live::GoRecord;
use std::time::{Instant, SystemTime};

/// The round in play (a rematch starts the next): which one, when it started, since
/// when the player to move has been waited for, and the rematch answers at its end.
pub(super) struct Round {
    /// 1 for the first round, one more for each rematch; 0 before the start.
    pub(super) number: u32,
    /// When it started: the date of its record and its result.
    pub(super) started: SystemTime,
    /// When the player to move began to be waited for (the round's start, or the last
    /// move), on the wall clock: what the console and the web board show.
    pub(super) turn_since: SystemTime,
    /// The same moment on the monotonic clock: its card's move times.
    pub(super) turn_began: Instant,
    /// The rematch answers by seat, once the round has ended.
    pub(super) rematch: [Option<bool>; 2],
}

impl Round {
    /// Before the first round.
    pub(super) fn new() -> Round {
        let now = SystemTime::now();
        Round {
            number: 0,
            started: now,
            turn_since: now,
            turn_began: Instant::now(),
            rematch: [None, None],
        }
    }

    /// The next round, starting now: one more, its clocks from now, no rematch
    /// answer yet.
    fn next(&self) -> Round {
        let now = SystemTime::now();
        Round {
            number: self.number + 1,
            started: now,
            turn_since: now,
            turn_began: Instant::now(),
            rematch: [None, None],
        }
    }

    /// A move was played: the player to move now is waited for from now.
    pub(super) fn turn_passed(&mut self) {
        self.turn_since = SystemTime::now();
        self.turn_began = Instant::now();
    }
}

impl Table {
    /// Seats a player the registry has matched to this game. The registry has already told
    /// it so (ACKNOWLEDGE_HANDSHAKE, and REQUEST_CONFIG to a leader): its answer to a
    /// HANDSHAKE costs no hand-off to this thread.
    pub(super) fn join(&mut self, player: Player) {
        let is_leader = self.seats.is_empty();
        if self.seats.len() >= 2 || self.phase != Phase::Gathering {
            // Not reached: the registry seats a partner only in a game on its waiting
            // queue, which a game leaves before it starts or its leader departs.
            // Should it happen, the player is matched anew (with a fresh
            // ACKNOWLEDGE_HANDSHAKE) rather than stranded.
            log::warn!("game {}: no free seat for {}", self.id, player.name);
            self.matchmaker.reseat(player);
            return;
        }
        log::info!(
            "game {}: {} joined {}",
            self.id,
            player.name,
            match (self.arranged.is_some(), is_leader) {
                (true, _) => "(paired by the arena)",
                (false, true) => "as leader",
                (false, false) => "as partner",
            }
        );

        self.seats.push(Seat {
            occupant: Occupant::Client(player),
            colour: Colour::Black,
        });
        if self.arranged.is_some() {
            // The arena seats both players (or one and the bot) at once, configured.
            if !is_leader {
                self.partner_seated();
            }
        } else if is_leader {
            self.deadline = deadline_in(self.context.settings.config_timeout);
            self.bot.due = deadline_in(self.context.settings.bot_after);
        } else {
            self.partner_seated();
        }
    }

    /// The second seat is taken (by a client or the bot): no more waiting for a
    /// partner, and the game starts if the leader has configured it.
    pub(super) fn partner_seated(&mut self) {
        self.bot.due = None;
        if self.config.is_some() {
            self.start();
        }
    }

    /// REQUEST_CONFIG again to a leader that still owes its configuration (the first
    /// one came from the registry, with ACKNOWLEDGE_HANDSHAKE).
    pub(super) fn request_config(&self) {
        let max = self.context.settings.max_board_size;
        if let Some(questions) = self.seats.first().and_then(Seat::questions) {
            questions.ask_config();
        }
        self.send(0, &ServerMessage::request_config(self.id, max));
    }

    pub(super) fn configure(
        &mut self,
        seat: usize,
        game_id: GameId,
        colour: ColourChoice,
        size: u32,
    ) {
        let max = self.context.settings.max_board_size;
        // Whether it answers a REQUEST_CONFIG this client was sent (here, or in the
        // game it led before this one).
        let answers = self.seats[seat]
            .questions()
            .is_some_and(Questions::answer_config);
        let refusal = if self.arranged.is_some() {
            Some((
                Mistake::ArenaSetsTheGame,
                arena::sets_the_game(&self.context.settings),
            ))
        } else if seat != 0 {
            Some((
                Mistake::NotLeader,
                format!(
                    "Only the leader of game {}, {}, sends SET_CONFIG",
                    self.id,
                    self.name(0)
                ),
            ))
        } else if let Some(config) = self.config {
            Some((
                Mistake::AlreadyConfigured,
                format!(
                    "Game {} is already configured ({n}x{n}{})",
                    self.id,
                    if config.defaulted {
                        ": no SET_CONFIG came in time, so the defaults apply"
                    } else {
                        ""
                    },
                    n = config.size
                ),
            ))
        } else if game_id != self.id {
            Some((
                Mistake::WrongGameId,
                format!(
                    "SET_CONFIG: wrong game id: you are in game {}, got {game_id}",
                    self.id
                ),
            ))
        } else if !(go::MIN_SIZE..=max).contains(&(size as usize)) {
            Some((
                Mistake::BadBoardSize,
                format!(
                    "SET_CONFIG: board size must be from {} to {max}, got {size}",
                    go::MIN_SIZE
                ),
            ))
        } else {
            None
        };
        if let Some((mistake, reason)) = refusal {
            if answers && matches!(mistake, Mistake::AlreadyConfigured | Mistake::NotLeader) {
                // It answers a question asked before the game was configured (a second
                // REQUEST_CONFIG after a refused line, crossing its first SET_CONFIG),
                // or before it was moved here from the game it led: taken quietly.
                log::debug!(
                    "game {}: {}'s SET_CONFIG answers an earlier REQUEST_CONFIG: taken quietly",
                    self.id,
                    self.name(seat)
                );
                self.accepted(seat);
            } else {
                self.reject(seat, mistake, reason);
            }
            return;
        }
        let leader_colour = match colour {
            ColourChoice::Black => Colour::Black,
            ColourChoice::White => Colour::White,
            ColourChoice::Random => random_colour(&mut self.rng),
        };
        self.config = Some(GameConfig {
            size: size as usize,
            leader_colour,
            defaulted: false,
        });
        self.accepted(seat);
        log::info!(
            "game {}: configured {size}x{size}, leader plays {leader_colour}",
            self.id
        );
        self.deadline = None;
        if self.seats.len() == 2 {
            self.start();
        }
    }

    /// Both players are here and the configuration is set: colours, then
    /// ACKNOWLEDGE_CONFIG to each.
    pub(super) fn start(&mut self) {
        let Some(config) = self.config else { return };
        let game = match go::Game::new(config.size, self.context.settings.rules) {
            Ok(game) => game,
            Err(e) => {
                log::error!("game {}: cannot start: {e}", self.id);
                self.phase = Phase::Over;
                return;
            }
        };
        self.seats[0].colour = config.leader_colour;
        self.seats[1].colour = config.leader_colour.opponent();
        self.game = Some(game);
        self.matchmaker.stop_waiting(self.id);
        self.begin_round();
        log::info!(
            "game {} started: {} ({}) vs {} ({}), {n}x{n}",
            self.id,
            self.name(0),
            self.seats[0].colour,
            self.name(1),
            self.seats[1].colour,
            n = config.size
        );
    }

    /// Sends ACKNOWLEDGE_CONFIG to both and starts the move clock.
    pub(super) fn begin_round(&mut self) {
        let (Some(game), Some(config)) = (&self.game, self.config) else {
            return;
        };
        for seat in 0..2 {
            self.send(
                seat,
                &ServerMessage::AcknowledgeConfig {
                    name: self.name(seat).to_string(),
                    colour: self.seats[seat].colour,
                    size: config.size,
                    state: state_of(game, false),
                    opponent: self.name(1 - seat).to_string(),
                },
            );
        }
        self.phase = Phase::Playing;
        self.round = self.round.next();
        let limit = self.context.settings.moves_per_point * config.size * config.size;
        self.published.record = Some(GoRecord::start(game, self.round.started, limit));
        self.ended.message = None;
        self.ended.at = None;
        self.deadline = self.move_deadline();
    }

    pub(super) fn move_deadline(&self) -> Option<Instant> {
        deadline_in(self.move_timeout())
    }

    /// How long a player has for each move: the arena's clock in an arena game, else
    /// `--move-timeout`.
    pub(super) fn move_timeout(&self) -> Option<std::time::Duration> {
        match (&self.arranged, &self.context.settings.arena) {
            (Some(_), Some(arena)) => arena.move_clock,
            _ => self.context.settings.move_timeout,
        }
    }
}
