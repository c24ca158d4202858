//! A Go record as read from SGF: the board size, the setup position and the moves,
//! and its replay on the rules engine, which judges every move.

use super::SgfError;
use crate::engine::go::{Game, IllegalMove, PlayedMove, Rules, Setup};

/// The main line of an SGF record, read but not yet judged by the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfGame {
    /// Side length of the board (`SZ`, 19 when absent).
    pub size: usize,
    /// The first node's `AB`, `AW` and `PL` (or white's first move, which stands for
    /// `PL[W]`), each colour's points in index order; `None` when there is none of them
    /// (black moves first on an empty board).
    pub setup: Option<Setup>,
    /// Every `B` and `W` node of the main line, in order, passes included.
    pub moves: Vec<PlayedMove>,
}

impl SgfGame {
    /// Plays the record on the engine under `rules`: the setup position (or the empty
    /// board), then every move in turn.
    ///
    /// # Errors
    /// [`SgfError::Setup`] when the engine refuses the setup position,
    /// [`SgfError::Size`] for a size the engine cannot play, [`SgfError::OutOfTurn`]
    /// for a move by the colour not to move, and [`SgfError::Illegal`] with the
    /// engine's reason for any other illegal move.
    pub fn replay(&self, rules: Rules) -> Result<Game, SgfError> {
        let mut game = match &self.setup {
            Some(setup) => Game::from_setup(self.size, rules, setup).map_err(SgfError::Setup)?,
            None => Game::new(self.size, rules).map_err(SgfError::Size)?,
        };
        for (index, &played) in self.moves.iter().enumerate() {
            let number = index + 1;
            let size = self.size;
            game.play(played.colour, played.mv)
                .map_err(|reason| match reason {
                    IllegalMove::NotYourTurn { .. } => SgfError::OutOfTurn {
                        number,
                        played,
                        size,
                    },
                    reason => SgfError::Illegal {
                        number,
                        played,
                        size,
                        reason,
                    },
                })?;
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{BoardSizeError, Colour, Move, Point, SetupError};

    fn black(row: u8, col: u8) -> PlayedMove {
        PlayedMove {
            colour: Colour::Black,
            mv: Move::Play(Point::new(row, col)),
        }
    }

    fn white(row: u8, col: u8) -> PlayedMove {
        PlayedMove {
            colour: Colour::White,
            mv: Move::Play(Point::new(row, col)),
        }
    }

    fn pass(colour: Colour) -> PlayedMove {
        PlayedMove {
            colour,
            mv: Move::Pass,
        }
    }

    #[test]
    fn replays_setup_and_moves() {
        let record = SgfGame {
            size: 3,
            setup: Some(Setup {
                black: vec![Point::new(0, 1)],
                white: vec![Point::new(0, 0)],
                to_move: Colour::Black,
            }),
            moves: vec![black(1, 0), pass(Colour::White)],
        };
        let game = record.replay(Rules::default()).expect("legal");
        assert_eq!(game.board().to_string(), ". X .\nX . .\n. . .");
        assert_eq!(game.captures(Colour::Black), 1);
        assert_eq!(game.to_move(), Colour::Black);
        assert_eq!(game.moves(), record.moves.as_slice());
        assert_eq!(game.setup(), record.setup.as_ref());
    }

    #[test]
    fn refusals_name_the_move() {
        let occupied = SgfGame {
            size: 9,
            setup: None,
            moves: vec![black(2, 2), white(2, 2)],
        };
        let twice = SgfGame {
            size: 9,
            setup: None,
            moves: vec![black(2, 2), pass(Colour::White), pass(Colour::White)],
        };
        let white_first = SgfGame {
            size: 9,
            setup: None,
            moves: vec![white(2, 2)],
        };
        let after_the_end = SgfGame {
            size: 9,
            setup: None,
            moves: vec![pass(Colour::Black), pass(Colour::White), black(0, 0)],
        };
        let bad_setup = SgfGame {
            size: 2,
            setup: Some(Setup {
                black: vec![Point::new(0, 0), Point::new(1, 1)],
                white: vec![Point::new(0, 1), Point::new(1, 0)],
                to_move: Colour::Black,
            }),
            moves: vec![],
        };
        let bad_size = SgfGame {
            size: 26,
            setup: None,
            moves: vec![],
        };
        let cases = [
            (
                occupied,
                SgfError::Illegal {
                    number: 2,
                    played: white(2, 2),
                    size: 9,
                    reason: IllegalMove::Occupied {
                        point: Point::new(2, 2),
                        size: 9,
                    },
                },
                "Move 2 (W[cc] at C7): that point is not empty",
            ),
            (
                twice,
                SgfError::OutOfTurn {
                    number: 3,
                    played: pass(Colour::White),
                    size: 9,
                },
                "Move 3 (W[]): white moves twice in a row, but moves alternate: write a pass B[] between",
            ),
            (
                white_first,
                SgfError::OutOfTurn {
                    number: 1,
                    played: white(2, 2),
                    size: 9,
                },
                "Move 1 (W[cc] at C7): black moves first here: start with B, or write PL[W] in the first node",
            ),
            (
                after_the_end,
                SgfError::Illegal {
                    number: 3,
                    played: black(0, 0),
                    size: 9,
                    reason: IllegalMove::GameOver,
                },
                "Move 3 (B[aa] at A9): the game already ended with two passes in a row: no move may follow them",
            ),
            (
                bad_setup,
                SgfError::Setup(SetupError::NoLiberties {
                    colour: Colour::Black,
                    stones: vec![Point::new(0, 0)],
                    size: 2,
                }),
                "First node: Setup chain without liberties: black A2 (a setup captures nothing: leave every chain a liberty)",
            ),
            (
                bad_size,
                SgfError::Size(BoardSizeError { size: 26 }),
                "SGF board size 26 is out of range 2..=25",
            ),
        ];
        for (record, error, text) in cases {
            let got = record.replay(Rules::default()).expect_err(text);
            assert_eq!(got, error);
            assert_eq!(got.to_string(), text);
        }
    }
}
