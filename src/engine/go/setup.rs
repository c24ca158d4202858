//! Setup positions: stones put on the board before the first move (as an SGF record's
//! `AB`, `AW` and `PL` do), and why a setup is refused.
//!
//! A setup is a position, not a sequence of moves: nothing is captured, so a chain
//! without liberties is refused rather than removed. [`Game::from_setup`](super::Game::from_setup)
//! starts a game from one.

use std::fmt;

use super::{Board, BoardSizeError, Colour, Point};

/// How many stones a refusal names before it says "and N more".
const NAMED_STONES: usize = 8;

/// The stones on the board before the first move, and who moves first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The black stones, in any order.
    pub black: Vec<Point>,
    /// The white stones, in any order.
    pub white: Vec<Point>,
    /// The colour that plays the first move.
    pub to_move: Colour,
}

impl Setup {
    /// The same setup with each colour's points in index order (row by row, from the
    /// top-left), the order [`Game::setup`](super::Game::setup) gives them back in.
    pub fn sorted(mut self) -> Setup {
        for points in [&mut self.black, &mut self.white] {
            points.sort_by_key(|p| (p.row(), p.col()));
        }
        self
    }

    /// The board of this setup on a `size` x `size` board.
    ///
    /// # Errors
    /// The first problem found, in this order: the size; then, black stones first, a
    /// stone off the board or on a point given before; then, in index order, a chain
    /// without liberties.
    pub(crate) fn board(&self, size: usize) -> Result<Board, SetupError> {
        let mut board = Board::new(size).map_err(SetupError::Size)?;
        let board_size = size as u8;
        let stones = self
            .black
            .iter()
            .map(|&p| (p, Colour::Black))
            .chain(self.white.iter().map(|&p| (p, Colour::White)));
        for (point, colour) in stones {
            if !point.is_on_board(size) {
                return Err(SetupError::OffBoard {
                    point,
                    size: board_size,
                    colour,
                });
            }
            if let Some(first) = board.get(point) {
                return Err(SetupError::Twice {
                    point,
                    size: board_size,
                    first,
                    second: colour,
                });
            }
            board.put(point, colour);
        }
        for point in board.points() {
            if let (Some(colour), Some(stones)) =
                (board.get(point), board.chain_without_liberties(point))
            {
                return Err(SetupError::NoLiberties {
                    colour,
                    stones,
                    size: board_size,
                });
            }
        }
        Ok(board)
    }
}

/// Why a setup position is refused.
///
/// `Display` gives one line without `+` or newline that names the point(s).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The board size is out of range.
    Size(BoardSizeError),
    /// A stone lies off the board.
    OffBoard {
        /// The point asked for.
        point: Point,
        /// The board size.
        size: u8,
        /// The stone's colour.
        colour: Colour,
    },
    /// A point is given twice (as the same colour or as both).
    Twice {
        /// The point.
        point: Point,
        /// The board size.
        size: u8,
        /// The colour it was given first.
        first: Colour,
        /// The colour it was given again.
        second: Colour,
    },
    /// A chain has no liberties; a setup captures nothing, so it cannot stand.
    NoLiberties {
        /// The chain's colour.
        colour: Colour,
        /// Every stone of the chain, in index order.
        stones: Vec<Point>,
        /// The board size.
        size: u8,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size(e) => write!(f, "Setup on a bad board: {e}"),
            SetupError::OffBoard {
                point,
                size,
                colour,
            } => write!(
                f,
                "Setup stone off the board: the {colour} stone at {} is not on the {size}x{size} board",
                point.vertex(usize::from(*size))
            ),
            SetupError::Twice {
                point,
                size,
                first,
                second,
            } => {
                let vertex = point.vertex(usize::from(*size));
                if first == second {
                    write!(f, "Setup point {vertex} is given twice as {first}")
                } else {
                    write!(
                        f,
                        "Setup point {vertex} is given twice: as {first} and as {second}"
                    )
                }
            }
            SetupError::NoLiberties {
                colour,
                stones,
                size,
            } => {
                let names: Vec<String> = stones
                    .iter()
                    .take(NAMED_STONES)
                    .map(|p| p.vertex(usize::from(*size)))
                    .collect();
                let more = match stones.len().saturating_sub(NAMED_STONES) {
                    0 => String::new(),
                    n => format!(" and {n} more"),
                };
                write!(
                    f,
                    "Setup chain without liberties: {colour} {}{more} (a setup captures nothing: leave every chain a liberty)",
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for SetupError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Game, IllegalMove, KoRule, Komi, Move, Rules, SuicideRule};

    /// Points from (row, col) pairs.
    fn points(list: &[(u8, u8)]) -> Vec<Point> {
        list.iter().map(|&(r, c)| Point::new(r, c)).collect()
    }

    fn setup(black: &[(u8, u8)], white: &[(u8, u8)], to_move: Colour) -> Setup {
        Setup {
            black: points(black),
            white: points(white),
            to_move,
        }
    }

    #[test]
    fn a_setup_is_the_first_position() {
        let s = setup(&[(1, 1), (0, 2)], &[(2, 0)], Colour::White);
        let game = Game::from_setup(3, Rules::default(), &s).expect("valid setup");
        assert_eq!(game.board().to_string(), ". . X\n. X .\nO . .");
        assert_eq!(game.to_move(), Colour::White);
        assert_eq!(game.moves(), &[]);
        assert_eq!(game.captures(Colour::Black), 0);
        game.debug_check().expect("consistent");
        // Kept sorted in index order for records.
        let kept = game.setup().expect("kept");
        assert_eq!(kept.black, points(&[(0, 2), (1, 1)]));
        assert_eq!(kept.white, points(&[(2, 0)]));
        assert_eq!(kept, &s.clone().sorted());
        // Black may not move first now.
        assert_eq!(
            game.check(Colour::Black, Move::Pass),
            Err(IllegalMove::NotYourTurn {
                to_move: Colour::White
            })
        );
    }

    #[test]
    fn an_empty_setup_can_give_white_the_first_move() {
        let game =
            Game::from_setup(9, Rules::default(), &setup(&[], &[], Colour::White)).expect("valid");
        assert_eq!(game.to_move(), Colour::White);
        assert_eq!(game.board().hash(), 0);
        assert!(game.setup().is_some());
    }

    #[test]
    fn restart_forgets_the_setup() {
        let s = setup(&[(0, 0)], &[(4, 4)], Colour::White);
        let mut game = Game::from_setup(5, Rules::default(), &s).expect("valid");
        game.play(Colour::White, Move::Play(Point::new(2, 2)))
            .expect("legal");
        game.restart();
        assert_eq!(game.setup(), None);
        assert_eq!(game.board().to_protocol_string(), "0".repeat(25));
        assert_eq!(game.to_move(), Colour::Black);
        assert_eq!(game.moves(), &[]);
        game.debug_check().expect("consistent");
    }

    #[test]
    fn refusals() {
        use Colour::{Black, White};
        let cases: &[(usize, Setup, SetupError, &str)] = &[
            (
                1,
                setup(&[], &[], Black),
                SetupError::Size(BoardSizeError { size: 1 }),
                "Setup on a bad board: board size 1 is out of range 2..=25",
            ),
            (
                9,
                setup(&[(0, 0)], &[(9, 0)], Black),
                SetupError::OffBoard {
                    point: Point::new(9, 0),
                    size: 9,
                    colour: White,
                },
                "Setup stone off the board: the white stone at row 9 column 0 is not on the 9x9 board",
            ),
            (
                9,
                setup(&[(2, 2), (2, 2)], &[], Black),
                SetupError::Twice {
                    point: Point::new(2, 2),
                    size: 9,
                    first: Black,
                    second: Black,
                },
                "Setup point C7 is given twice as black",
            ),
            (
                9,
                setup(&[(2, 2)], &[(2, 2)], Black),
                SetupError::Twice {
                    point: Point::new(2, 2),
                    size: 9,
                    first: Black,
                    second: White,
                },
                "Setup point C7 is given twice: as black and as white",
            ),
            (
                3,
                setup(&[(0, 0), (0, 1)], &[(1, 0), (1, 1), (0, 2)], White),
                SetupError::NoLiberties {
                    colour: Black,
                    stones: points(&[(0, 0), (0, 1)]),
                    size: 3,
                },
                "Setup chain without liberties: black A3, B3 (a setup captures nothing: leave every chain a liberty)",
            ),
            (
                2,
                setup(&[(0, 1), (1, 0)], &[(0, 0)], Black),
                SetupError::NoLiberties {
                    colour: White,
                    stones: points(&[(0, 0)]),
                    size: 2,
                },
                "Setup chain without liberties: white A2 (a setup captures nothing: leave every chain a liberty)",
            ),
            (
                3,
                setup(
                    &[
                        (0, 0),
                        (0, 1),
                        (0, 2),
                        (1, 0),
                        (1, 1),
                        (1, 2),
                        (2, 0),
                        (2, 1),
                        (2, 2),
                    ],
                    &[],
                    Black,
                ),
                SetupError::NoLiberties {
                    colour: Black,
                    stones: points(&[
                        (0, 0),
                        (0, 1),
                        (0, 2),
                        (1, 0),
                        (1, 1),
                        (1, 2),
                        (2, 0),
                        (2, 1),
                        (2, 2),
                    ]),
                    size: 3,
                },
                "Setup chain without liberties: black A3, B3, C3, A2, B2, C2, A1, B1 and 1 more (a setup captures nothing: leave every chain a liberty)",
            ),
        ];
        for (size, s, error, text) in cases {
            let got = Game::from_setup(*size, Rules::default(), s).expect_err(text);
            assert_eq!(&got, error);
            assert_eq!(got.to_string(), *text);
            assert!(!text.contains('+') && !text.contains('\n'));
        }
    }

    /// The 2x2 cycle of `superko_cycle_longer_than_ko`, started from its second
    /// position as a setup: only the setup position itself makes the last move a repeat.
    #[test]
    fn superko_remembers_the_setup_position() {
        let start = setup(&[(0, 0)], &[], Colour::White);
        let cycle = [(1, 1), (0, 1), (1, 0), (0, 0), (0, 1)];
        for ko in [KoRule::Positional, KoRule::Situational, KoRule::Simple] {
            let rules = Rules {
                ko,
                suicide: SuicideRule::Forbidden,
                komi: Komi::default(),
            };
            let mut game = Game::from_setup(2, rules, &start).expect("valid");
            for (row, col) in cycle {
                let colour = game.to_move();
                game.play(colour, Move::Play(Point::new(row, col)))
                    .expect("legal");
            }
            assert_eq!(game.board().to_string(), ". O\nO O");
            let result = game.play(Colour::Black, Move::Play(Point::new(0, 0)));
            if ko == KoRule::Simple {
                assert_eq!(result.expect("legal under simple ko").captured.len(), 3);
                assert_eq!(game.board().to_string(), "X .\n. .");
            } else {
                assert_eq!(
                    result.map(|_| ()),
                    Err(IllegalMove::Superko {
                        point: Point::new(0, 0),
                        size: 2
                    })
                );
            }
            game.debug_check().expect("consistent");
        }
    }
}
