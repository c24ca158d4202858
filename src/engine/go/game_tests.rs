//! Table-driven tests of `Game`, with board diagrams as input and expected output.

use super::*;
use crate::engine::go::{Komi, MAX_SIZE};

/// Every rule combination except komi.
const ALL_KO: [KoRule; 3] = [KoRule::Positional, KoRule::Situational, KoRule::Simple];
/// Both suicide rules.
const ALL_SUICIDE: [SuicideRule; 2] = [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed];

/// Every (ko, suicide) combination.
fn all_rules() -> Vec<Rules> {
    ALL_KO
        .iter()
        .flat_map(|&ko| {
            ALL_SUICIDE.iter().map(move |&suicide| Rules {
                ko,
                suicide,
                komi: Komi::default(),
            })
        })
        .collect()
}

/// A game from a diagram with `to_move` to play.
fn game(diagram: &str, to_move: Colour, rules: Rules) -> Game {
    let board = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("{e}: {diagram}"));
    Game::from_board(board, rules, to_move)
}

/// Plays and checks that `check` agreed with `play` and that the game is consistent.
fn play(game: &mut Game, colour: Colour, mv: Move) -> Result<MoveReport, IllegalMove> {
    let verdict = game.check(colour, mv);
    let before = game.board().to_string();
    let result = game.play(colour, mv);
    assert_eq!(
        verdict,
        result.as_ref().map(|_| ()).map_err(|e| *e),
        "check and play disagree"
    );
    if result.is_err() {
        assert_eq!(
            game.board().to_string(),
            before,
            "a refused move changed the board"
        );
    }
    game.debug_check().unwrap_or_else(|e| panic!("{e}"));
    result
}

/// The expected outcome of one move.
enum Want {
    /// Legal, leaving this diagram, with this many stones removed.
    Board(&'static str, usize),
    /// Refused for this reason (compared by variant).
    Refused(fn(&IllegalMove) -> bool),
}

/// (what, diagram, mover, row, col, expected) under every rule combination.
#[test]
fn captures_and_suicide() {
    use Colour::{Black, White};
    let table: &[(&str, &str, Colour, u8, u8, Want)] = &[
        (
            "single stone",
            ". X .\nX O X\n. . .",
            Black,
            2,
            1,
            Want::Board(". X .\nX . X\n. X .", 1),
        ),
        (
            "corner",
            "O X .\n. . .\n. . .",
            Black,
            1,
            0,
            Want::Board(". X .\nX . .\n. . .", 1),
        ),
        (
            "two stones on the edge",
            "O O . .\nX X . .\n. . . .\n. . . .",
            Black,
            0,
            2,
            Want::Board(". . X .\nX X . .\n. . . .\n. . . .", 2),
        ),
        (
            "one stone captures two chains",
            "O X . .\n. O X .\n. X . .\n. . . .",
            Black,
            1,
            0,
            Want::Board(". X . .\nX . X .\n. X . .\n. . . .", 2),
        ),
        (
            "capture makes a would-be suicide legal",
            ". O X\nO X .\n. . .",
            Black,
            0,
            0,
            Want::Board("X . X\nO X .\n. . .", 1),
        ),
        (
            "white captures a big chain",
            "X X X O\nX X X O\nX X X O\n. O O .",
            White,
            3,
            0,
            Want::Board(". . . O\n. . . O\n. . . O\nO O O .", 9),
        ),
        (
            "single-stone suicide",
            ". X .\nX . .\n. . .",
            White,
            0,
            0,
            Want::Refused(|e| matches!(e, IllegalMove::Suicide { .. })),
        ),
        (
            "occupied",
            ". X .\nX . .\n. . .",
            White,
            0,
            1,
            Want::Refused(|e| matches!(e, IllegalMove::Occupied { .. })),
        ),
        (
            "off board",
            ". X .\nX . .\n. . .",
            White,
            3,
            0,
            Want::Refused(|e| matches!(e, IllegalMove::OffBoard { .. })),
        ),
        (
            "off board far",
            ". .\n. .",
            White,
            255,
            255,
            Want::Refused(|e| matches!(e, IllegalMove::OffBoard { .. })),
        ),
    ];
    for rules in all_rules() {
        for (what, diagram, colour, row, col, want) in table {
            let mut g = game(diagram, *colour, rules);
            let result = play(&mut g, *colour, Move::Play(Point::new(*row, *col)));
            match (want, result) {
                (Want::Board(after, n), Ok(report)) => {
                    assert_eq!(g.board().to_string(), *after, "{what} {rules:?}");
                    assert_eq!(report.captured.len(), *n, "{what}");
                    assert_eq!(g.captures(*colour), *n, "{what}");
                    assert!(!report.game_over);
                }
                (Want::Refused(is), Err(e)) => assert!(is(&e), "{what}: got {e}"),
                (_, other) => panic!("{what} under {rules:?}: unexpected {other:?}"),
            }
        }
    }
}

#[test]
fn multi_stone_suicide() {
    let diagram = "O . X .\nX X . .\n. . . .\n. . . .";
    let mv = Move::Play(Point::new(0, 1));
    for rules in all_rules() {
        let mut g = game(diagram, Colour::White, rules);
        let result = play(&mut g, Colour::White, mv);
        match rules.suicide {
            SuicideRule::Forbidden => {
                assert!(
                    matches!(result, Err(IllegalMove::Suicide { .. })),
                    "{result:?}"
                );
                assert_eq!(g.board().to_string(), diagram);
            }
            SuicideRule::MultiStoneAllowed => {
                let report = result.expect("multi-stone suicide is allowed");
                assert_eq!(report.captured.len(), 2);
                assert_eq!(g.board().to_string(), ". . X .\nX X . .\n. . . .\n. . . .");
                assert_eq!(g.captures(Colour::Black), 2);
                assert_eq!(g.captures(Colour::White), 0);
                assert_eq!(g.to_move(), Colour::Black);
            }
        }
    }
}

#[test]
fn simple_ko_under_every_rule() {
    let start = ". O X\nO X .\n. . .";
    for rules in all_rules() {
        let mut g = game(start, Colour::Black, rules);
        play(&mut g, Colour::Black, Move::Play(Point::new(0, 0))).expect("take the ko");
        let retake = Move::Play(Point::new(0, 1));
        let err = play(&mut g, Colour::White, retake).expect_err("immediate retake");
        assert_eq!(
            err,
            IllegalMove::Ko {
                point: Point::new(0, 1),
                size: 3,
                colour: Colour::White
            }
        );
        assert_eq!(
            err.to_string(),
            "Ko: white cannot retake at tile 1 (B3) immediately"
        );
        // A ko threat and its answer elsewhere; then the retake is legal under every rule.
        play(&mut g, Colour::White, Move::Play(Point::new(2, 2))).expect("threat");
        play(&mut g, Colour::Black, Move::Play(Point::new(1, 2))).expect("answer");
        let report = play(&mut g, Colour::White, retake).expect("retake after threats");
        assert_eq!(report.captured, vec![Point::new(0, 0)]);
        // Black cannot take back at once either.
        let err = play(&mut g, Colour::Black, Move::Play(Point::new(0, 0))).expect_err("ko");
        assert!(matches!(
            err,
            IllegalMove::Ko {
                colour: Colour::Black,
                ..
            }
        ));
    }
}

#[test]
fn pass_clears_ko_but_superko_remains() {
    let start = ". O X\nO X .\n. . .";
    for rules in all_rules() {
        let mut g = game(start, Colour::Black, rules);
        play(&mut g, Colour::Black, Move::Play(Point::new(0, 0))).expect("take the ko");
        play(&mut g, Colour::White, Move::Pass).expect("pass");
        play(&mut g, Colour::Black, Move::Play(Point::new(2, 2))).expect("elsewhere");
        // White retakes: a new position (black has a stone more), legal everywhere.
        play(&mut g, Colour::White, Move::Play(Point::new(0, 1))).expect("retake");
    }
    // After a pass the immediate-ko point is gone; the retake recreates the starting
    // board with black to move, which both superko rules forbid.
    for rules in all_rules() {
        let mut g = game(start, Colour::Black, rules);
        play(&mut g, Colour::Black, Move::Play(Point::new(0, 0))).expect("take the ko");
        play(&mut g, Colour::White, Move::Pass).expect("pass");
        play(&mut g, Colour::Black, Move::Pass).expect("pass");
        assert!(g.is_over());
        assert_eq!(
            play(&mut g, Colour::White, Move::Play(Point::new(0, 1))),
            Err(IllegalMove::GameOver)
        );
    }
}

/// A cycle of six moves on 2x2 that returns to an earlier position without any
/// simple ko: forbidden by both superko rules, allowed by simple ko.
#[test]
fn superko_cycle_longer_than_ko() {
    let moves = [(0, 0), (1, 1), (0, 1), (1, 0), (0, 0), (0, 1)];
    for rules in all_rules() {
        let mut g = Game::new(2, rules).expect("valid");
        let mut colour = Colour::Black;
        for (row, col) in moves {
            play(&mut g, colour, Move::Play(Point::new(row, col))).expect("legal");
            colour = colour.opponent();
        }
        assert_eq!(g.board().to_string(), ". O\nO O");
        let result = play(&mut g, Colour::Black, Move::Play(Point::new(0, 0)));
        match rules.ko {
            KoRule::Simple => {
                assert_eq!(result.expect("legal under simple ko").captured.len(), 3);
                assert_eq!(g.board().to_string(), "X .\n. .");
            }
            _ => {
                let err = result.expect_err("superko");
                assert_eq!(
                    err,
                    IllegalMove::Superko {
                        point: Point::new(0, 0),
                        size: 2
                    }
                );
                assert_eq!(
                    err.to_string(),
                    "Superko: the move at tile 0 (A2) would repeat an earlier position"
                );
            }
        }
    }
}

/// Black fills a 2x2 board alone (white passing) and the last stone is a multi-stone
/// suicide that empties the board: the empty board was seen with black to move, now
/// white is to move. Positional superko forbids it, situational allows it.
#[test]
fn positional_but_not_situational() {
    for ko in ALL_KO {
        let rules = Rules {
            ko,
            suicide: SuicideRule::MultiStoneAllowed,
            komi: Komi::default(),
        };
        let mut g = Game::new(2, rules).expect("valid");
        for (row, col) in [(0, 0), (0, 1), (1, 0)] {
            play(&mut g, Colour::Black, Move::Play(Point::new(row, col))).expect("legal");
            play(&mut g, Colour::White, Move::Pass).expect("pass");
        }
        let result = play(&mut g, Colour::Black, Move::Play(Point::new(1, 1)));
        if ko == KoRule::Positional {
            assert!(
                matches!(result, Err(IllegalMove::Superko { .. })),
                "{result:?}"
            );
        } else {
            assert_eq!(result.expect("legal").captured.len(), 4);
            assert_eq!(g.board().to_protocol_string(), "0000");
            assert_eq!(g.captures(Colour::White), 4);
            // And now white passing, then black repeating the fill is fine for a while.
            assert_eq!(g.to_move(), Colour::White);
        }
    }
}

#[test]
fn turns_passes_and_game_over() {
    let mut g = Game::new(9, Rules::default()).expect("valid");
    assert_eq!(g.to_move(), Colour::Black);
    assert_eq!(
        play(&mut g, Colour::White, Move::Play(Point::new(4, 4))),
        Err(IllegalMove::NotYourTurn {
            to_move: Colour::Black
        })
    );
    assert_eq!(
        play(&mut g, Colour::White, Move::Pass),
        Err(IllegalMove::NotYourTurn {
            to_move: Colour::Black
        })
    );
    play(&mut g, Colour::Black, Move::Play(Point::new(4, 4))).expect("legal");
    let err = play(&mut g, Colour::White, Move::Play(Point::new(4, 4))).expect_err("occupied");
    assert_eq!(err.to_string(), "Tile 40 (E5) is not empty");
    let report = play(&mut g, Colour::White, Move::Pass).expect("pass");
    assert!(!report.game_over && !g.is_over());
    play(&mut g, Colour::Black, Move::Play(Point::new(0, 0))).expect("legal");
    play(&mut g, Colour::White, Move::Pass).expect("pass");
    let report = play(&mut g, Colour::Black, Move::Pass).expect("pass");
    assert!(report.game_over && g.is_over());
    assert_eq!(g.moves().len(), 5);
    assert_eq!(
        g.last_move(),
        Some(PlayedMove {
            colour: Colour::Black,
            mv: Move::Pass
        })
    );
    for colour in [Colour::Black, Colour::White] {
        for mv in [
            Move::Pass,
            Move::Play(Point::new(1, 1)),
            Move::Play(Point::new(200, 3)),
        ] {
            assert_eq!(play(&mut g, colour, mv), Err(IllegalMove::GameOver));
        }
    }
    assert_eq!(g.score().black_points, 81);
    g.restart();
    assert!(!g.is_over());
    assert_eq!(g.moves().len(), 0);
    assert_eq!(g.last_move(), None);
    assert_eq!(g.board().stone_count(Colour::Black), 0);
    assert_eq!(g.to_move(), Colour::Black);
    assert_eq!(g.size(), 9);
    assert_eq!(g.rules(), Rules::default());
    play(&mut g, Colour::Black, Move::Play(Point::new(4, 4))).expect("legal after restart");
}

#[test]
fn bad_input_never_panics() {
    for size in [2, 3, 9, MAX_SIZE] {
        for rules in all_rules() {
            let mut g = Game::new(size, rules).expect("valid");
            for row in [0u8, 1, 24, 25, 26, 100, 255] {
                for col in [0u8, 1, 24, 25, 255] {
                    for colour in [Colour::Black, Colour::White] {
                        let p = Point::new(row, col);
                        let _ = g.board().get(p);
                        let _ = p.vertex(size);
                        let _ = g.board().render(Some(p));
                        if let Err(e) = play(&mut g, colour, Move::Play(p)) {
                            assert!(!e.to_string().contains('+') && !e.to_string().contains('\n'));
                        }
                    }
                }
            }
        }
    }
    assert!(Game::new(1, Rules::default()).is_err());
    assert!(Game::new(26, Rules::default()).is_err());
}
