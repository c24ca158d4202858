//! The kinds of mistake a report card counts: one name for each way a client's line
//! (or its silence) can be refused, whatever the front end. Each front end says which
//! kind each of its refusals is; the card only counts them.

use crate::engine::go::IllegalMove;
use crate::engine::spectrangle::{IllegalPlacement, MoveError};
use serde::Serialize;

/// A kind of mistake. Its `name` is what the card, the JSON, the CSV and the console
/// show (docs/report.md lists them all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(into = "&'static str")]
pub enum Mistake {
    // ----- the line itself -----
    /// An empty line.
    EmptyLine,
    /// A keyword the protocol does not have.
    UnknownCommand,
    /// A keyword in the wrong case (`move` for `MOVE`).
    WrongCase,
    /// The wrong number of fields or arguments for its keyword.
    FieldCount,
    /// A field that must be a number is not one, or is out of range.
    NotANumber,
    /// A value the command does not allow (a colour of 3, a tile that does not exist).
    BadValue,
    /// A line longer than the server reads (discarded unread).
    LineTooLong,
    /// A line that is not UTF-8 text.
    NotUtf8,
    /// A message only a server sends (Bkgo), or a binary object instead of a line.
    NotAClientMessage,
    // ----- who the client is -----
    /// A name the rules refuse (empty, too long, with a separator).
    BadName,
    /// A name another client holds (Spectrangle's error 4).
    NameTaken,
    /// A command before the client named itself (HANDSHAKE, JOIN, `Player:`).
    BeforeHandshake,
    /// Naming itself again while in a game or a lobby.
    SecondHandshake,
    /// Silent: no name within `--handshake-timeout`, and closed.
    NoHandshakeInTime,
    /// A game id that is not the client's game (GO!).
    WrongGameId,
    /// A command that names another player (GO!'s MOVE and EXIT; Bkgo's `Quitting:`).
    WrongName,
    // ----- where the client is -----
    /// SET_CONFIG from the player who does not lead (GO!).
    NotLeader,
    /// SET_CONFIG for a game that is configured already (GO!).
    AlreadyConfigured,
    /// A board size the server does not play (GO!).
    BadBoardSize,
    /// SET_CONFIG in the arena, which sets every game (GO!).
    ArenaSetsTheGame,
    /// A command while the client waits for the arena's next round (GO!).
    WaitingForRound,
    /// A command that needs a game (or a lobby), from a client in none (GO!'s MOVE
    /// after its game, Spectrangle's error 7).
    NotInGame,
    /// A command the client's state does not allow (JOIN while seated, READY in a
    /// game, a Bkgo message out of its place).
    WrongState,
    /// JOIN to a lobby that is full (Spectrangle).
    LobbyFull,
    /// An extension's command before ENABLE_EXTENSION, or one the server lacks
    /// (Spectrangle's 9).
    ExtensionOff,
    // ----- moves -----
    /// A move before the game started.
    NotStarted,
    /// A move after the game ended.
    AfterTheEnd,
    /// A move when another player is to move.
    NotYourTurn,
    /// A move from a watcher, or a seated player's command from a watcher (Bkgo).
    Watcher,
    /// A point off the board.
    OffBoard,
    /// A point (or a Spectrangle field) that is taken.
    PointTaken,
    /// A stone that would have no liberties.
    Suicide,
    /// A move that repeats a position (ko, superko).
    Ko,
    /// A Spectrangle tile that does not exist.
    NoSuchTile,
    /// A Spectrangle tile the player does not hold.
    TileNotHeld,
    /// A Spectrangle tile whose edges do not match its neighbours'.
    EdgesDoNotMatch,
    /// A Spectrangle tile that touches no tile on the board.
    NotTouching,
    /// A first Spectrangle tile on a bonus field.
    FirstOnBonus,
    /// A swap or a skip while a tile can be placed (Spectrangle).
    MustPlace,
    /// A swap when the bag is empty (Spectrangle).
    BagEmpty,
    // ----- around the game -----
    /// SET_REMATCH when no rematch was asked (GO!).
    RematchNotAsked,
    /// SET_REMATCH a second time (GO!).
    RematchTwice,
    /// `SendingBoard` after the game's first move (Bkgo).
    BoardAfterFirstMove,
    /// An SGF record that cannot be loaded (Bkgo).
    BadSgf,
    /// Anything else the server refused.
    Other,
}

impl Mistake {
    /// Every kind, in the order cards list them.
    pub const ALL: [Mistake; 45] = [
        Mistake::EmptyLine,
        Mistake::UnknownCommand,
        Mistake::WrongCase,
        Mistake::FieldCount,
        Mistake::NotANumber,
        Mistake::BadValue,
        Mistake::LineTooLong,
        Mistake::NotUtf8,
        Mistake::NotAClientMessage,
        Mistake::BadName,
        Mistake::NameTaken,
        Mistake::BeforeHandshake,
        Mistake::SecondHandshake,
        Mistake::NoHandshakeInTime,
        Mistake::WrongGameId,
        Mistake::WrongName,
        Mistake::NotLeader,
        Mistake::AlreadyConfigured,
        Mistake::BadBoardSize,
        Mistake::ArenaSetsTheGame,
        Mistake::WaitingForRound,
        Mistake::NotInGame,
        Mistake::WrongState,
        Mistake::LobbyFull,
        Mistake::ExtensionOff,
        Mistake::NotStarted,
        Mistake::AfterTheEnd,
        Mistake::NotYourTurn,
        Mistake::Watcher,
        Mistake::OffBoard,
        Mistake::PointTaken,
        Mistake::Suicide,
        Mistake::Ko,
        Mistake::NoSuchTile,
        Mistake::TileNotHeld,
        Mistake::EdgesDoNotMatch,
        Mistake::NotTouching,
        Mistake::FirstOnBonus,
        Mistake::MustPlace,
        Mistake::BagEmpty,
        Mistake::RematchNotAsked,
        Mistake::RematchTwice,
        Mistake::BoardAfterFirstMove,
        Mistake::BadSgf,
        Mistake::Other,
    ];

    /// How many kinds there are (the length of a card's counts).
    pub const COUNT: usize = Mistake::ALL.len();

    /// Its place in [`Mistake::ALL`], and in a card's counts.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name on cards, in the JSON and the CSV: `not-your-turn`.
    pub fn name(self) -> &'static str {
        match self {
            Mistake::EmptyLine => "empty-line",
            Mistake::UnknownCommand => "unknown-command",
            Mistake::WrongCase => "wrong-case",
            Mistake::FieldCount => "wrong-field-count",
            Mistake::NotANumber => "not-a-number",
            Mistake::BadValue => "bad-value",
            Mistake::LineTooLong => "line-too-long",
            Mistake::NotUtf8 => "not-utf8",
            Mistake::NotAClientMessage => "not-a-client-message",
            Mistake::BadName => "bad-name",
            Mistake::NameTaken => "name-taken",
            Mistake::BeforeHandshake => "before-handshake",
            Mistake::SecondHandshake => "second-handshake",
            Mistake::NoHandshakeInTime => "no-handshake-in-time",
            Mistake::WrongGameId => "wrong-game-id",
            Mistake::WrongName => "wrong-name",
            Mistake::NotLeader => "not-leader",
            Mistake::AlreadyConfigured => "already-configured",
            Mistake::BadBoardSize => "bad-board-size",
            Mistake::ArenaSetsTheGame => "arena-sets-the-game",
            Mistake::WaitingForRound => "waiting-for-round",
            Mistake::NotInGame => "not-in-game",
            Mistake::WrongState => "wrong-state",
            Mistake::LobbyFull => "lobby-full",
            Mistake::ExtensionOff => "extension-off",
            Mistake::NotStarted => "not-started",
            Mistake::AfterTheEnd => "after-the-end",
            Mistake::NotYourTurn => "not-your-turn",
            Mistake::Watcher => "watcher",
            Mistake::OffBoard => "off-board",
            Mistake::PointTaken => "point-taken",
            Mistake::Suicide => "suicide",
            Mistake::Ko => "ko",
            Mistake::NoSuchTile => "no-such-tile",
            Mistake::TileNotHeld => "tile-not-held",
            Mistake::EdgesDoNotMatch => "edges-do-not-match",
            Mistake::NotTouching => "not-touching",
            Mistake::FirstOnBonus => "first-on-bonus",
            Mistake::MustPlace => "must-place",
            Mistake::BagEmpty => "bag-empty",
            Mistake::RematchNotAsked => "rematch-not-asked",
            Mistake::RematchTwice => "rematch-twice",
            Mistake::BoardAfterFirstMove => "board-after-first-move",
            Mistake::BadSgf => "bad-sgf",
            Mistake::Other => "other",
        }
    }
}

/// A move the Go engine refuses (GO!, Bkgo).
impl From<&IllegalMove> for Mistake {
    fn from(illegal: &IllegalMove) -> Mistake {
        match illegal {
            IllegalMove::GameOver => Mistake::AfterTheEnd,
            IllegalMove::NotYourTurn { .. } => Mistake::NotYourTurn,
            IllegalMove::OffBoard { .. } => Mistake::OffBoard,
            IllegalMove::Occupied { .. } => Mistake::PointTaken,
            IllegalMove::Suicide { .. } => Mistake::Suicide,
            IllegalMove::Ko { .. } | IllegalMove::Superko { .. } => Mistake::Ko,
        }
    }
}

/// A Spectrangle move the rules refuse.
impl From<&MoveError> for Mistake {
    fn from(refused: &MoveError) -> Mistake {
        match refused {
            MoveError::GameOver => Mistake::AfterTheEnd,
            MoveError::NotYourTurn { .. } => Mistake::NotYourTurn,
            MoveError::NoSuchTile { .. } => Mistake::NoSuchTile,
            MoveError::NotHeld { .. } => Mistake::TileNotHeld,
            MoveError::Illegal(IllegalPlacement::Occupied { .. }) => Mistake::PointTaken,
            MoveError::Illegal(IllegalPlacement::FirstOnBonus { .. }) => Mistake::FirstOnBonus,
            MoveError::Illegal(IllegalPlacement::NotTouching { .. }) => Mistake::NotTouching,
            MoveError::Illegal(IllegalPlacement::Mismatch { .. }) => Mistake::EdgesDoNotMatch,
            MoveError::MustPlace { .. } => Mistake::MustPlace,
            MoveError::BagEmpty => Mistake::BagEmpty,
        }
    }
}

impl From<Mistake> for &'static str {
    fn from(mistake: Mistake) -> &'static str {
        mistake.name()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_kind_has_its_own_place_and_name() {
        let kinds = Mistake::ALL;
        for (place, kind) in kinds.iter().enumerate() {
            assert_eq!(kind.index(), place, "{kind:?}");
        }
        let names: HashSet<&str> = kinds.iter().map(|k| k.name()).collect();
        assert_eq!(names.len(), Mistake::COUNT);
        assert!(names.iter().all(|n| {
            n.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
        }));
    }
}
