//! Why a move or a board size is refused.

use std::fmt;

use super::{Colour, Point};

/// Every reason a move is refused.
///
/// `Display` gives one student-friendly line without `+` or newline, naming the point
/// both by its protocol index ("tile") and as a vertex, e.g. `Tile 12 (D8) is not empty`.
/// Variants about a point carry the board `size` so they can name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The game has ended (two consecutive passes); no move is accepted.
    GameOver,
    /// The other player is to move.
    NotYourTurn {
        /// The colour whose turn it is.
        to_move: Colour,
    },
    /// The point is not on the board.
    OffBoard {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// The point already holds a stone.
    Occupied {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// The stone would leave its own group without liberties, and the rules forbid it.
    Suicide {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
    },
    /// The move would immediately retake a ko.
    Ko {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
        /// The player who may not retake yet.
        colour: Colour,
    },
    /// The move would repeat an earlier position (positional or situational superko).
    Superko {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
    },
}

/// `Tile 12 (D8)` for a point on the board, `row 9 column 0` for one off it.
fn tile(point: Point, size: u8) -> String {
    let size = usize::from(size);
    if point.is_on_board(size) {
        format!("tile {} ({})", point.index(size), point.vertex(size))
    } else {
        point.vertex(size)
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => write!(f, "The game is over"),
            IllegalMove::NotYourTurn { to_move } => {
                write!(f, "Not your turn: {to_move} is to move")
            }
            IllegalMove::OffBoard { point, size } => {
                let last = usize::from(size) * usize::from(size);
                write!(
                    f,
                    "Off the board: {} is not on the {size}x{size} board (tiles are 0 to {})",
                    tile(point, size),
                    last.saturating_sub(1)
                )
            }
            IllegalMove::Occupied { point, size } => {
                let mut text = tile(point, size);
                text[..1].make_ascii_uppercase();
                write!(f, "{text} is not empty")
            }
            IllegalMove::Suicide { point, size } => {
                write!(
                    f,
                    "Suicide: the stone at {} would have no liberties",
                    tile(point, size)
                )
            }
            IllegalMove::Ko {
                point,
                size,
                colour,
            } => {
                write!(
                    f,
                    "Ko: {colour} cannot retake at {} immediately",
                    tile(point, size)
                )
            }
            IllegalMove::Superko { point, size } => {
                write!(
                    f,
                    "Superko: the move at {} would repeat an earlier position",
                    tile(point, size)
                )
            }
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A board size outside `MIN_SIZE..=MAX_SIZE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSizeError {
    /// The size that was asked for.
    pub size: usize,
}

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board size {} is out of range {}..={}",
            self.size,
            super::MIN_SIZE,
            super::MAX_SIZE
        )
    }
}

impl std::error::Error for BoardSizeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages() {
        let p = Point::new(1, 3);
        let cases = [
            (IllegalMove::GameOver, "The game is over"),
            (
                IllegalMove::NotYourTurn {
                    to_move: Colour::White,
                },
                "Not your turn: white is to move",
            ),
            (
                IllegalMove::Occupied { point: p, size: 9 },
                "Tile 12 (D8) is not empty",
            ),
            (
                IllegalMove::Suicide {
                    point: Point::new(6, 2),
                    size: 9,
                },
                "Suicide: the stone at tile 56 (C3) would have no liberties",
            ),
            (
                IllegalMove::Ko {
                    point: Point::new(4, 4),
                    size: 9,
                    colour: Colour::Black,
                },
                "Ko: black cannot retake at tile 40 (E5) immediately",
            ),
            (
                IllegalMove::Superko {
                    point: Point::new(4, 4),
                    size: 9,
                },
                "Superko: the move at tile 40 (E5) would repeat an earlier position",
            ),
            (
                IllegalMove::OffBoard {
                    point: Point::new(9, 0),
                    size: 9,
                },
                "Off the board: row 9 column 0 is not on the 9x9 board (tiles are 0 to 80)",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
            assert!(!text.contains('+') && !text.contains('\n'));
        }
        assert_eq!(
            BoardSizeError { size: 30 }.to_string(),
            "board size 30 is out of range 2..=25"
        );
    }
}
