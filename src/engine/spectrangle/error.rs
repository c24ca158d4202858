//! Why a placement or a move is refused, and why a game cannot be created.
//!
//! Each `Display` is one line without `+` or newline that says what was wrong and what
//! was expected, for a student reading an `ERROR` line. Player numbers count from 0 in
//! turn order; the server knows their names and may say those instead.

use std::fmt;

use super::{Colour, Letters, Location, OrientedTile, Placement, Side, Tile};

/// Every reason the board refuses a tile on a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPlacement {
    /// The field already holds a tile.
    Occupied {
        /// The field asked for.
        location: Location,
        /// The tile on it.
        there: OrientedTile,
    },
    /// The first tile of the game may not go on a bonus field.
    FirstOnBonus {
        /// The bonus field asked for.
        location: Location,
    },
    /// A tile after the first must share an edge with a placed tile.
    NotTouching {
        /// The field asked for.
        location: Location,
    },
    /// An edge of the tile does not match the edge of the placed tile it touches.
    Mismatch {
        /// The tile and field asked for.
        placement: Placement,
        /// The side of the new tile that does not match.
        side: Side,
        /// The new tile's colour on that side.
        colour: Colour,
        /// The placed tile it touches there.
        neighbour: Placement,
        /// The placed tile's colour on the touching side.
        neighbour_colour: Colour,
    },
}

impl fmt::Display for IllegalPlacement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalPlacement::Occupied { location, there } => write!(
                f,
                "Field {location} already holds {there}: choose an empty field"
            ),
            IllegalPlacement::FirstOnBonus { location } => write!(
                f,
                "Field {location} is a bonus field (x{}) and the first tile may not go on one: \
                 choose a field without a bonus",
                location.bonus()
            ),
            IllegalPlacement::NotTouching { location } => write!(
                f,
                "Field {location} touches no placed tile: every tile after the first must \
                 share an edge with a placed tile"
            ),
            IllegalPlacement::Mismatch {
                placement,
                side,
                colour,
                neighbour,
                neighbour_colour,
            } => write!(
                f,
                "{placement}: its {side} edge is {colour} but the {} edge of {neighbour} is \
                 {neighbour_colour}: touching edges must have the same colour, or one of them \
                 white (W)",
                side.facing()
            ),
        }
    }
}

impl std::error::Error for IllegalPlacement {}

/// Every reason a player's move (play, swap, skip) is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The game has ended; no move is accepted.
    GameOver,
    /// Another player is to move.
    NotYourTurn {
        /// The player whose turn it is (0 is the first in turn order).
        to_move: usize,
    },
    /// The letters are no tile of the set in any rotation (`GBR`).
    NoSuchTile {
        /// The letters asked for.
        letters: Letters,
        /// The player's tiles.
        hand: Vec<Tile>,
    },
    /// The tile exists, but the player does not hold it.
    NotHeld {
        /// The tile asked for.
        tile: Tile,
        /// The player's tiles.
        hand: Vec<Tile>,
    },
    /// The board refuses the tile on that field.
    Illegal(IllegalPlacement),
    /// A swap or skip from a player who can place a tile, which the rules require.
    MustPlace {
        /// One placement the player could make.
        example: Placement,
    },
    /// A swap while the bag is empty.
    BagEmpty,
}

/// What a player may choose from: `choose one of your tiles, RRY0, BBG0`.
fn choose_from(hand: &[Tile]) -> String {
    if hand.is_empty() {
        return "you hold no tiles, so you can only skip".to_string();
    }
    let names: Vec<String> = hand.iter().map(Tile::to_string).collect();
    format!("choose one of your tiles, {}", names.join(", "))
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "The game is over: no more moves are accepted"),
            MoveError::NotYourTurn { to_move } => write!(
                f,
                "Not your turn: player {to_move} is to move; wait for your turn"
            ),
            MoveError::NoSuchTile { letters, hand } => {
                write!(f, "{letters} is not a tile of the set in any rotation")?;
                if let Some(mirror) = Tile::find(letters.mirrored()) {
                    write!(
                        f,
                        " (its mirror image {} is; tiles cannot be flipped)",
                        mirror.letters()
                    )?;
                }
                write!(f, ": {}", choose_from(hand))
            }
            MoveError::NotHeld { tile, hand } => write!(
                f,
                "You do not hold {} in any rotation: {}",
                tile.letters(),
                choose_from(hand)
            ),
            MoveError::Illegal(reason) => reason.fmt(f),
            MoveError::MustPlace { example } => write!(
                f,
                "You can still place a tile, for example {example}, so you must place one \
                 instead of swapping or skipping"
            ),
            MoveError::BagEmpty => {
                write!(
                    f,
                    "The bag is empty, so no tile can be swapped: skip instead"
                )
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl From<IllegalPlacement> for MoveError {
    fn from(reason: IllegalPlacement) -> MoveError {
        MoveError::Illegal(reason)
    }
}

/// A game asked for with a number of players outside 2 to 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerCountError {
    /// The number asked for.
    pub players: usize,
}

impl fmt::Display for PlayerCountError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "A game needs 2 to 4 players, not {}", self.players)
    }
}

impl std::error::Error for PlayerCountError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::testing::{letters, loc, oriented, tile};

    #[test]
    fn placement_messages() {
        let cases = [
            (
                IllegalPlacement::Occupied {
                    location: loc(12),
                    there: oriented("BBG1"),
                },
                "Field 12 already holds BBG1: choose an empty field",
            ),
            (
                IllegalPlacement::FirstOnBonus { location: loc(11) },
                "Field 11 is a bonus field (x4) and the first tile may not go on one: \
                 choose a field without a bonus",
            ),
            (
                IllegalPlacement::NotTouching { location: loc(5) },
                "Field 5 touches no placed tile: every tile after the first must share an \
                 edge with a placed tile",
            ),
            (
                IllegalPlacement::Mismatch {
                    placement: Placement {
                        tile: oriented("RRY0"),
                        location: loc(12),
                    },
                    side: Side::Left,
                    colour: Colour::Yellow,
                    neighbour: Placement {
                        tile: oriented("BBG1"),
                        location: loc(11),
                    },
                    neighbour_colour: Colour::Green,
                },
                "RRY0 at 12: its left edge is Y but the right edge of BBG1 at 11 is G: \
                 touching edges must have the same colour, or one of them white (W)",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
            assert_eq!(MoveError::Illegal(error).to_string(), text);
            assert!(!text.contains('+') && !text.contains('\n'));
        }
    }

    #[test]
    fn move_messages() {
        let hand = vec![tile("RRY"), tile("BBG"), tile("WWW")];
        let cases = [
            (
                MoveError::GameOver,
                "The game is over: no more moves are accepted",
            ),
            (
                MoveError::NotYourTurn { to_move: 2 },
                "Not your turn: player 2 is to move; wait for your turn",
            ),
            (
                MoveError::NoSuchTile {
                    letters: letters("GBR"),
                    hand: hand.clone(),
                },
                "GBR is not a tile of the set in any rotation (its mirror image GRB is; \
                 tiles cannot be flipped): choose one of your tiles, RRY0, BBG0, WWW0",
            ),
            (
                MoveError::NoSuchTile {
                    letters: letters("RRW"),
                    hand: Vec::new(),
                },
                "RRW is not a tile of the set in any rotation: you hold no tiles, so you can \
                 only skip",
            ),
            (
                MoveError::NotHeld {
                    tile: tile("PPY"),
                    hand,
                },
                "You do not hold PPY in any rotation: choose one of your tiles, RRY0, \
                 BBG0, WWW0",
            ),
            (
                MoveError::MustPlace {
                    example: Placement {
                        tile: oriented("RRY2"),
                        location: loc(12),
                    },
                },
                "You can still place a tile, for example RRY2 at 12, so you must place one \
                 instead of swapping or skipping",
            ),
            (
                MoveError::BagEmpty,
                "The bag is empty, so no tile can be swapped: skip instead",
            ),
        ];
        for (error, text) in cases {
            assert_eq!(error.to_string(), text);
            assert!(!text.contains('+') && !text.contains('\n'));
        }
        assert_eq!(
            PlayerCountError { players: 5 }.to_string(),
            "A game needs 2 to 4 players, not 5"
        );
    }
}
