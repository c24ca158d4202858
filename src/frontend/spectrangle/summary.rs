//! What Spectrangle tables publish for the operator console: a summary after every
//! event, a detailed view on request, and the front end's counters.

use crate::engine::spectrangle::Tile;
use std::fmt;
use std::time::Instant;

/// A table's number; the console writes it `s1`, `s2`, ... so that it names no GO!
/// game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableId(pub u32);

impl TableId {
    /// The id the console wrote (`s3`), if it is one.
    pub fn parse(text: &str) -> Option<TableId> {
        let number = text.strip_prefix('s')?;
        if !number.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        number.parse::<u32>().ok().filter(|&n| n > 0).map(TableId)
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

/// Where a table is in its life.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableStatus {
    /// A lobby, waiting for its players to be ready.
    Lobby { name: String },
    /// The game is being played.
    Playing,
    /// Over.
    Finished,
}

impl fmt::Display for TableStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableStatus::Lobby { name } => write!(f, "lobby {name}"),
            TableStatus::Playing => f.write_str("playing"),
            TableStatus::Finished => f.write_str("finished"),
        }
    }
}

/// A table at a glance (the console's `games` row).
#[derive(Clone, Debug)]
pub struct TableSummary {
    pub id: TableId,
    pub status: TableStatus,
    /// Names in join order (lobby) or turn order (game), each with `ready` or its
    /// points.
    pub players: Vec<String>,
    /// Turns played so far.
    pub moves: usize,
    /// Whose turn it is while playing.
    pub to_move: Option<String>,
    /// Since when the player to move has been waited for, while playing.
    pub turn_since: Option<std::time::SystemTime>,
    /// When the lobby was opened.
    pub opened: Instant,
    /// How the game ended, once it has.
    pub result: Option<String>,
    /// The game's record (protocol lines), kept for the console once it has ended.
    pub record: Option<String>,
}

impl TableSummary {
    /// A lobby just opened, with nobody in it yet.
    pub fn new(id: TableId, lobby: String) -> TableSummary {
        TableSummary {
            id,
            status: TableStatus::Lobby { name: lobby },
            players: Vec::new(),
            moves: 0,
            to_move: None,
            turn_since: None,
            opened: Instant::now(),
            result: None,
            record: None,
        }
    }
}

/// A table in detail (the console's `board` and `sgf`).
#[derive(Clone, Debug)]
pub struct TableView {
    pub summary: TableSummary,
    /// The board drawn (the triangle, tiles, bonus fields), once the game started.
    pub board: Option<String>,
    /// Each player's hand, in turn order.
    pub hands: Vec<(String, Vec<Tile>)>,
    /// Tiles left in the bag.
    pub bag: usize,
    /// The record so far: the protocol lines of the game.
    pub record: String,
}
