//! Why a well-formed message is refused without dropping its sender: the client gets
//! `Dialog: <reason>` and `ServerRejectedNonFatal`, and nothing else changes.

use super::PlayerId;
use crate::cards::Mistake;
use crate::engine::go::{Colour, IllegalMove};
use crate::engine::sgf::SgfError;
use crate::frontend::names::NameError;
use std::fmt;

/// Every non-fatal refusal. `Display` is one line: what was wrong, what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// `Place` or `Pass` from a watcher.
    WatcherMove { command: &'static str },
    /// `NewBoard`, `SendingBoard` or `SetName` from a watcher.
    SeatedOnly { command: &'static str },
    /// `Place` or `Pass` from the seated player not to move.
    NotYourTurn {
        /// Who is to move.
        to_move: Colour,
        /// Who sits there, if anyone.
        player: Option<String>,
    },
    /// `Place` or `Pass` after two passes ended the game.
    GameOver,
    /// `Place` off the board.
    OffBoard { x: i64, y: i64, size: usize },
    /// `Place` on the board that the rules forbid (occupied, suicide, ko, superko).
    Illegal {
        x: usize,
        y: usize,
        reason: IllegalMove,
    },
    /// `SendingBoard` after the game's first `Place` or `Pass`.
    BoardAfterFirstMove,
    /// `Quitting:` with another ID than the sender's.
    NotYourId { given: PlayerId, yours: PlayerId },
    /// A `Player:` name that breaks the name rules.
    BadName(NameError),
    /// A binary Java object instead of `Player:`.
    JavaObject,
    /// An SGF stream that cannot be loaded.
    Sgf(SgfError),
}

impl Refusal {
    /// The kind of mistake it is, on the sender's report card.
    pub fn mistake(&self) -> Mistake {
        match self {
            Refusal::WatcherMove { .. } | Refusal::SeatedOnly { .. } => Mistake::Watcher,
            Refusal::NotYourTurn { .. } => Mistake::NotYourTurn,
            Refusal::GameOver => Mistake::AfterTheEnd,
            Refusal::OffBoard { .. } => Mistake::OffBoard,
            Refusal::Illegal { reason, .. } => Mistake::from(reason),
            Refusal::BoardAfterFirstMove => Mistake::BoardAfterFirstMove,
            Refusal::NotYourId { .. } => Mistake::WrongName,
            Refusal::BadName(_) => Mistake::BadName,
            Refusal::JavaObject => Mistake::NotAClientMessage,
            Refusal::Sgf(_) => Mistake::BadSgf,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::WatcherMove { command } => write!(
                f,
                "You are watching: only the seated black and white players may send {command}"
            ),
            Refusal::SeatedOnly { command } => write!(
                f,
                "You are watching: only a seated player may send {command}"
            ),
            Refusal::NotYourTurn { to_move, player } => match player {
                Some(name) => write!(f, "Not your turn: {to_move} ({name}) is to move"),
                None => write!(f, "Not your turn: {to_move} is to move"),
            },
            Refusal::GameOver => write!(
                f,
                "The game is over: a seated player may send NewBoard to start a new one"
            ),
            Refusal::OffBoard { x, y, size } => write!(
                f,
                "Place: {x}, {y} is off the board: x and y go from 0 to {} on this {size}x{size} board",
                size.saturating_sub(1)
            ),
            Refusal::Illegal { x, y, reason } => match reason {
                IllegalMove::Occupied { .. } => write!(f, "Place: {x}, {y} is not empty"),
                IllegalMove::Suicide { .. } => write!(
                    f,
                    "Place: {x}, {y} is suicide: the stone would have no liberties"
                ),
                IllegalMove::Ko { colour, .. } => write!(
                    f,
                    "Place: {x}, {y} retakes a ko at once: {colour} must play elsewhere first"
                ),
                IllegalMove::Superko { .. } => write!(
                    f,
                    "Place: {x}, {y} would repeat an earlier position (superko)"
                ),
                other => write!(f, "Place: {x}, {y} is illegal: {other}"),
            },
            Refusal::BoardAfterFirstMove => write!(
                f,
                "SendingBoard is accepted only before the first Place or Pass of a game: send NewBoard first"
            ),
            Refusal::NotYourId { given, yours } => write!(
                f,
                "Quitting: {given} is not your ID: yours is {yours}, send Quitting: {yours}"
            ),
            Refusal::BadName(broken) => write!(
                f,
                "Player: {broken}: send Player: <a name of 1 to 32 characters>"
            ),
            Refusal::JavaObject => write!(
                f,
                "Binary Java objects are not supported: send your name as a line of text, Player: <your name>"
            ),
            Refusal::Sgf(error) => {
                write!(f, "SendingBoard refused, the board is unchanged: {error}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::Point;

    #[test]
    fn every_refusal_says_what_to_do() {
        let point = Point::new(15, 3);
        let table = [
            (
                Refusal::WatcherMove { command: "Place" },
                "You are watching: only the seated black and white players may send Place",
            ),
            (
                Refusal::SeatedOnly {
                    command: "NewBoard",
                },
                "You are watching: only a seated player may send NewBoard",
            ),
            (
                Refusal::NotYourTurn {
                    to_move: Colour::White,
                    player: Some("Bob".into()),
                },
                "Not your turn: white (Bob) is to move",
            ),
            (
                Refusal::GameOver,
                "The game is over: a seated player may send NewBoard to start a new one",
            ),
            (
                Refusal::OffBoard {
                    x: 19,
                    y: 0,
                    size: 19,
                },
                "Place: 19, 0 is off the board: x and y go from 0 to 18 on this 19x19 board",
            ),
            (
                Refusal::Illegal {
                    x: 3,
                    y: 15,
                    reason: IllegalMove::Occupied { point, size: 19 },
                },
                "Place: 3, 15 is not empty",
            ),
            (
                Refusal::Illegal {
                    x: 3,
                    y: 15,
                    reason: IllegalMove::Suicide { point, size: 19 },
                },
                "Place: 3, 15 is suicide: the stone would have no liberties",
            ),
            (
                Refusal::Illegal {
                    x: 3,
                    y: 15,
                    reason: IllegalMove::Ko {
                        point,
                        size: 19,
                        colour: Colour::Black,
                    },
                },
                "Place: 3, 15 retakes a ko at once: black must play elsewhere first",
            ),
            (
                Refusal::Illegal {
                    x: 3,
                    y: 15,
                    reason: IllegalMove::Superko { point, size: 19 },
                },
                "Place: 3, 15 would repeat an earlier position (superko)",
            ),
            (
                Refusal::NotYourId {
                    given: PlayerId(2),
                    yours: PlayerId(1),
                },
                "Quitting: 2 is not your ID: yours is 1, send Quitting: 1",
            ),
            (
                Refusal::BadName(NameError::Empty),
                "Player: the name must not be empty: send Player: <a name of 1 to 32 characters>",
            ),
            (
                Refusal::Sgf(SgfError::TooLarge {
                    bytes: 70_000,
                    limit: 65_536,
                }),
                "SendingBoard refused, the board is unchanged: SGF too large: 70000 bytes, at most 65536 are read",
            ),
        ];
        for (refusal, text) in table {
            assert_eq!(refusal.to_string(), text);
            assert!(!text.contains('+') && !text.contains('\n'), "{text}");
        }
    }
}
