//! Playing: the deal, each player's move checked in order (turn, then the rules), and
//! the move clock.

use super::{Phase, Table, deadline_in};
use crate::cards::Mistake;
use crate::engine::spectrangle::{Game, MoveError};
use crate::front::Front;
use crate::frontend::card;
use crate::frontend::spectrangle::protocol::{Command, ErrorCode, ServerMessage};
use crate::net::{CloseReason, Connection, Incoming};
use crate::results::Ending;
use std::sync::atomic::Ordering;

/// Turns in a row a player may let the clock run out before it is disconnected.
const TIMEOUTS_BEFORE_DISCONNECT: u32 = 3;

impl Table {
    /// Every member is ready: the turn order is drawn, the bag shuffled and dealt.
    pub(super) fn start(&mut self) {
        self.rng.shuffle(&mut self.seats);
        let game = match Game::new(self.seats.len(), self.rng.next_u64()) {
            Ok(game) => game,
            Err(e) => {
                // The registry starts lobbies of 2 to 4 only; should that ever break,
                // the lobby goes on waiting rather than crash.
                log::error!("spectrangle {}: cannot start: {e}", self.id);
                return;
            }
        };
        self.phase = Phase::Playing;
        self.started_at = Some(std::time::SystemTime::now());
        self.timeouts = vec![0; self.seats.len()];
        let players: Vec<String> = self.seats.iter().map(|s| s.name.to_string()).collect();
        log::info!("spectrangle {} started: {}", self.id, players.join(", "));
        self.announce(&ServerMessage::Start { players });
        for dealt in game.deal() {
            let message = ServerMessage::Tile {
                player: self.name_of(dealt.player),
                tile: dealt.tile,
            };
            self.announce(&message);
        }
        self.game = Some(game);
        self.deadline = self.move_deadline();
        self.turn_began = std::time::Instant::now();
    }

    /// A MOVE_PLAY, MOVE_SWAP or MOVE_SKIP from `from`: the turn (ERROR 5), then the
    /// rules (ERROR 6); accepted, every player hears UPDATE (and TILE for a draw).
    pub(super) fn play(&mut self, from: &Connection, line: &Incoming, command: Command) {
        let Some(player) = self.seats.iter().position(|s| s.is(from.id)) else {
            return;
        };
        let Some(to_move) = self.game.as_ref().map(Game::to_move) else {
            return;
        };
        let max_bytes = self.context.settings.lines.max_line_bytes;
        let refuse = |mistake: Mistake, message: &ServerMessage| {
            let line = card::offending(line, max_bytes);
            card::refuse(from, Front::Spectrangle, mistake, line, message);
        };
        if to_move != player {
            let message = format!(
                "Not your turn: it is {}'s turn; wait for their UPDATE",
                self.name_of(to_move)
            );
            return refuse(
                Mistake::NotYourTurn,
                &ServerMessage::error(ErrorCode::NotYourTurn, message),
            );
        }
        match self.take_turn(player, command) {
            Ok(()) => from.accepted(),
            Err(refusal) => refuse(Mistake::from(&refusal), &refusal_message(&refusal)),
        }
    }

    /// Plays `command` for `player`, whose turn it is (a client's move, the bot's
    /// choice): accepted by the rules, every player hears UPDATE (and TILE for a
    /// draw), and the game goes on to its next turn or its end.
    ///
    /// # Errors
    ///
    /// The rules' refusal; nothing was sent.
    pub(super) fn take_turn(&mut self, player: usize, command: Command) -> Result<(), MoveError> {
        let name = self.name_of(player);
        let Some(game) = self.game.as_mut() else {
            return Err(MoveError::GameOver);
        };
        let (update, drawn) = match command {
            Command::Play { spelling, location } => {
                game.play(player, spelling, location).map(|report| {
                    let played = ServerMessage::Played {
                        player: name.clone(),
                        tile: report.tile,
                        location: report.location,
                    };
                    let drawn = report.drawn.map(|tile| ServerMessage::Tile {
                        player: name.clone(),
                        tile,
                    });
                    (played, drawn)
                })
            }
            Command::Swap { letters } => game.swap(player, letters).map(|report| {
                let swapped = ServerMessage::Swapped {
                    player: name.clone(),
                    returned: report.returned,
                };
                let drawn = ServerMessage::Tile {
                    player: name.clone(),
                    tile: report.drawn,
                };
                (swapped, Some(drawn))
            }),
            Command::Skip => game.skip(player).map(|()| {
                let skipped = ServerMessage::Skipped {
                    player: name.clone(),
                };
                (skipped, None)
            }),
            // Only moves reach a table as moves.
            _ => return Ok(()),
        }?;
        self.timeouts[player] = 0;
        // On the mover's card before anyone hears of the move.
        if let Some(card) = self.seats[player].conn().and_then(|conn| card::of(conn)) {
            card.moved(self.turn_began.elapsed());
        }
        self.announce(&update);
        if let Some(drawn) = drawn {
            self.announce(&drawn);
        }
        self.context.counters.moves.fetch_add(1, Ordering::Relaxed);
        self.after_turn();
        Ok(())
    }

    /// The clock ran out: the server skips the player to move (`UPDATE <name>`); a
    /// player skipped this way three turns in a row is disconnected.
    pub(super) fn on_deadline(&mut self) {
        self.deadline = None;
        let Some(Ok(player)) = self.game.as_mut().map(Game::forced_skip) else {
            return;
        };
        let name = self.name_of(player);
        log::info!("spectrangle {}: {name} did not move in time", self.id);
        if let Some(card) = self.seats[player].conn().and_then(|c| card::of(c)) {
            card.late();
        }
        self.announce(&ServerMessage::Skipped { player: name });
        self.timeouts[player] += 1;
        if self.timeouts[player] >= TIMEOUTS_BEFORE_DISCONNECT {
            // Its reader reports the disconnect, which ends the game like any other.
            if let Some(conn) = self.seats[player].conn() {
                conn.close(CloseReason::MissedTurns(TIMEOUTS_BEFORE_DISCONNECT));
            }
        }
        self.after_turn();
    }

    /// After each turn: the end of the game, or the next player's clock.
    fn after_turn(&mut self) {
        match self.game.as_ref().and_then(Game::end) {
            Some(reason) => self.end(&format!("The game is over: {reason}"), Ending::Score, None),
            None => {
                self.deadline = self.move_deadline();
                self.turn_began = std::time::Instant::now();
            }
        }
    }

    fn move_deadline(&self) -> Option<std::time::Instant> {
        deadline_in(self.context.settings.move_timeout)
    }

    /// The name of player `player` (turn order).
    pub(super) fn name_of(&self, player: usize) -> String {
        self.seats
            .get(player)
            .map_or_else(String::new, |s| s.name.to_string())
    }
}

/// The ERROR 6 line for a move the rules refuse.
fn refusal_message(refusal: &MoveError) -> ServerMessage {
    ServerMessage::error(ErrorCode::InvalidMove, refusal)
}
