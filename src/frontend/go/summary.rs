//! What GO! games publish for the operator console: a summary after every event, a
//! detailed view on request, and the front end's counters.

use super::protocol::GameId;
use crate::engine::go::{Colour, PlayedMove};
use std::fmt;
use std::time::{Instant, SystemTime};

/// Where a game is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// A leader, no partner yet.
    WaitingForPartner,
    /// Both players, no configuration yet.
    WaitingForConfig,
    /// Moves are being played.
    Playing,
    /// Ended by two passes; both were asked about a rematch.
    RematchPending,
    /// Over.
    Finished,
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameStatus::WaitingForPartner => "waiting for partner",
            GameStatus::WaitingForConfig => "waiting for config",
            GameStatus::Playing => "playing",
            GameStatus::RematchPending => "rematch pending",
            GameStatus::Finished => "finished",
        })
    }
}

/// A game at a glance (the console's `games` row).
#[derive(Clone, Debug)]
pub struct GameSummary {
    pub id: GameId,
    pub status: GameStatus,
    /// Names, leader first, with colours once assigned.
    pub players: Vec<(String, Option<Colour>)>,
    /// Board size once configured.
    pub size: Option<usize>,
    /// Moves played in the current game, passes included.
    pub moves: usize,
    /// Whose turn it is while playing.
    pub to_move: Option<Colour>,
    /// Since when the player to move has been waited for, while playing.
    pub turn_since: Option<SystemTime>,
    /// When the game was opened.
    pub opened: Instant,
    /// How it ended, once it has.
    pub result: Option<String>,
    /// The SGF record of the last round that ended, kept for the console.
    pub record: Option<String>,
}

impl GameSummary {
    /// A game just opened, with nobody seated yet.
    pub fn new(id: GameId) -> GameSummary {
        GameSummary {
            id,
            status: GameStatus::WaitingForPartner,
            players: Vec::new(),
            size: None,
            moves: 0,
            to_move: None,
            turn_since: None,
            opened: Instant::now(),
            result: None,
            record: None,
        }
    }
}

/// A game in detail (the console's `board` and `sgf`).
#[derive(Clone, Debug)]
pub struct GameView {
    pub summary: GameSummary,
    /// The board drawn with coordinates, last move marked, once configured.
    pub board: Option<String>,
    /// The last move of the current round, if any.
    pub last_move: Option<PlayedMove>,
    /// Stones captured by black and by white.
    pub captures: (usize, usize),
    /// Area score so far (black, white), as the protocol writes it.
    pub score: Option<(String, String)>,
    /// The game record so far.
    pub sgf: Option<String>,
}
