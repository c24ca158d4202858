//! Tests of the bot's choices: passing, legality under every rule set and board size,
//! budgets, and strength against a random player.

use std::time::{Duration, Instant};

use super::*;
use crate::engine::go::{Board, KoRule, Komi, Point, Rules};

/// Every ko rule.
const ALL_KO: [KoRule; 3] = [KoRule::Positional, KoRule::Situational, KoRule::Simple];
/// Both suicide rules.
const ALL_SUICIDE: [SuicideRule; 2] = [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed];

/// A game from a diagram with `to_move` to play, after a pass by the other player if
/// `after_pass`.
fn game(diagram: &str, komi_halves: i32, to_move: Colour, after_pass: bool) -> Game {
    let board = Board::from_diagram(diagram).unwrap_or_else(|e| panic!("{e}: {diagram}"));
    let rules = Rules {
        komi: Komi::from_halves(komi_halves),
        ..Rules::default()
    };
    if after_pass {
        let mut game = Game::from_board(board, rules, to_move.opponent());
        game.play(to_move.opponent(), Move::Pass).expect("a pass");
        game
    } else {
        Game::from_board(board, rules, to_move)
    }
}

/// A uniformly random legal move: any legal point, own eyes included; a pass only
/// when no point is legal.
fn random_move(game: &Game, colour: Colour, rng: &mut Rng) -> Move {
    let legal: Vec<Move> = game
        .board()
        .points()
        .map(Move::Play)
        .filter(|&mv| game.check(colour, mv).is_ok())
        .collect();
    legal
        .get(rng.below(legal.len()))
        .copied()
        .unwrap_or(Move::Pass)
}

/// Black's and white's territories are walled off by column 2, which is empty (dame):
/// 10 points each on the board.
const WALLED: &str = "
    . X . O .
    X X . O O
    . X . O .
    X X . O O
    . X . O .";

#[test]
fn passing_decisions() {
    use Colour::{Black, White};
    // (what, diagram, komi halves, bot, opponent just passed, passes)
    let table = [
        (
            "white leads by komi after black's pass",
            WALLED,
            1,
            White,
            true,
            true,
        ),
        (
            "black trails by komi after white's pass",
            WALLED,
            1,
            Black,
            true,
            false,
        ),
        ("a draw is no lead", WALLED, 0, Black, true, false),
        (
            "a draw is no lead for white either",
            WALLED,
            0,
            White,
            true,
            false,
        ),
        (
            "white leads, but black has not passed",
            WALLED,
            1,
            White,
            false,
            false,
        ),
        (
            "black leads by a big negative komi",
            WALLED,
            -30,
            Black,
            true,
            true,
        ),
        // Black owns the whole board: passing wins, and filling an eye is no candidate.
        (
            "only its own eyes left",
            ". X X\nX X X\nX X .",
            0,
            Black,
            false,
            true,
        ),
        // The same for white, which trails by the whole board and cannot move.
        (
            "no legal move at all",
            ". X X\nX X X\nX X .",
            0,
            White,
            false,
            true,
        ),
        // White has just passed and leads on the board, but black can capture.
        (
            "black trails but can capture",
            ". O X . .\nO O X . .\nX X O O O\n. . . . .\n. . . . .",
            0,
            Black,
            true,
            false,
        ),
    ];
    for (what, diagram, komi, colour, after_pass, want_pass) in table {
        let game = game(diagram, komi, colour, after_pass);
        let mut bot = Bot::new(1);
        let mv = bot
            .choose(&game, colour, Budget::playouts(400))
            .expect("bot to move");
        assert_eq!(mv == Move::Pass, want_pass, "{what}: {mv:?}");
        assert_eq!(game.check(colour, mv), Ok(()), "{what}");
    }
}

#[test]
fn passing_without_a_search() {
    // Passing wins: no candidate is looked at.
    let mut bot = Bot::new(1);
    let leading = game(WALLED, 1, Colour::White, true);
    assert_eq!(
        bot.choose(&leading, Colour::White, Budget::playouts(100)),
        Ok(Move::Pass)
    );
    assert_eq!(bot.summary(), Summary::default());
    // Only eyes: no candidate at all.
    let eyes = game(". X X\nX X X\nX X .", 0, Colour::Black, false);
    assert_eq!(
        bot.choose(&eyes, Colour::Black, Budget::playouts(100)),
        Ok(Move::Pass)
    );
    assert_eq!(bot.summary(), Summary::default());
}

#[test]
fn trailing_after_a_pass_it_takes_the_dame() {
    // Black trails by half a point: any point of the empty column 2 wins the game
    // back (black gets three of its five points if both fill it).
    let game = game(WALLED, 1, Colour::Black, true);
    let mut bot = Bot::new(7);
    let mv = bot
        .choose(&game, Colour::Black, Budget::playouts(2000))
        .expect("black to move");
    let Move::Play(p) = mv else {
        panic!("black passed and lost")
    };
    assert_eq!(p.col(), 2, "{p:?}");
    assert!(
        bot.summary().value.is_some_and(|v| v > 0.5),
        "{:?}",
        bot.summary()
    );
}

#[test]
fn no_move_when_no_move_is_legal() {
    let mut over = game(WALLED, 0, Colour::Black, true);
    over.play(Colour::Black, Move::Pass).expect("second pass");
    let mut bot = Bot::new(1);
    assert_eq!(
        bot.choose(&over, Colour::White, Budget::playouts(10)),
        Err(IllegalMove::GameOver)
    );
    let fresh = Game::new(9, Rules::default()).expect("9x9");
    assert_eq!(
        bot.choose(&fresh, Colour::White, Budget::playouts(10)),
        Err(IllegalMove::NotYourTurn {
            to_move: Colour::Black
        })
    );
}

#[test]
fn a_clear_choice_stops_early() {
    // White has just passed and leads by komi; the one dame point at the centre wins
    // the game for black. Black's other empty points are its eyes and white's would be
    // suicide: the candidates are the centre and passing, which loses for sure.
    let diagram = "
        . X X O .
        X X X O O
        . X . O .
        X X O O O
        . X O O .";
    let game = game(diagram, 1, Colour::Black, true);
    let mut bot = Bot::new(3);
    let mv = bot
        .choose(&game, Colour::Black, Budget::playouts(5000))
        .expect("black to move");
    assert_eq!(mv, Move::Play(Point::new(2, 2)));
    let summary = bot.summary();
    println!("clear choice: {summary:?}");
    // The centre is settled once it has more than half of the budget (2501 playouts);
    // passing is tried a few times, while its estimate comes down from the mean of
    // all playouts to the sure loss it is.
    assert_eq!(summary.candidates, 2);
    assert!((2502..2600).contains(&summary.playouts), "{summary:?}");
    // Black wins by half a point of the 25: 0.9 + 0.1 * (0.5 + 1 / 100).
    assert_eq!(summary.value.map(|v| (v * 1e6).round() / 1e6), Some(0.951));
}

#[test]
fn the_same_seed_plays_the_same_moves() {
    let game = Game::new(9, Rules::default()).expect("9x9");
    let choose = |seed| {
        let mut bot = Bot::new(seed);
        (0..3)
            .map(|_| bot.choose(&game, Colour::Black, Budget::playouts(50)))
            .collect::<Vec<_>>()
    };
    assert_eq!(choose(5), choose(5));
}

#[test]
fn legal_to_the_end_on_every_size_and_rule_set() {
    for size in [2, 3, 5, 9, 13, 19, 25] {
        // Boards up to 13x13 are played to the end (the cap is a safety net); 19x19 and
        // 25x25 for 200 moves, which is enough to see captures and kos.
        let cap = if size <= 13 { 4 * size * size } else { 200 };
        let mut ended = 0;
        for ko in ALL_KO {
            for suicide in ALL_SUICIDE {
                for komi in [0, 13] {
                    let rules = Rules {
                        ko,
                        suicide,
                        komi: Komi::from_halves(komi),
                    };
                    let mut game = Game::new(size, rules).expect("size");
                    let mut bots = [Bot::new(size as u64), Bot::new(komi as u64 + 100)];
                    while !game.is_over() && game.moves().len() < cap {
                        let colour = game.to_move();
                        let bot = &mut bots[usize::from(colour == Colour::White)];
                        let mv = bot
                            .choose(&game, colour, Budget::playouts(4))
                            .expect("bot to move");
                        assert_eq!(game.check(colour, mv), Ok(()), "{size}x{size} {rules:?}");
                        game.play(colour, mv).expect("legal");
                    }
                    game.debug_check().expect("consistent");
                    ended += usize::from(game.is_over());
                }
            }
        }
        println!("{size}x{size}: {ended} of 12 games ended by two passes");
        if size <= 13 {
            assert_eq!(ended, 12, "{size}x{size}");
        }
    }
}

#[test]
fn a_deadline_is_kept_on_19x19() {
    let game = Game::new(19, Rules::default()).expect("19x19");
    let mut bot = Bot::new(11);
    let think = Duration::from_millis(5);
    let started = Instant::now();
    let mv = bot
        .choose(&game, Colour::Black, Budget::until(started + think))
        .expect("black to move");
    let took = started.elapsed();
    println!("5 ms deadline: took {took:?}, {:?}", bot.summary());
    assert!(took < 10 * think, "took {took:?}");
    assert_eq!(game.check(Colour::Black, mv), Ok(()));
    // A deadline already past still gives a legal move, without playouts.
    let late = bot
        .choose(&game, Colour::Black, Budget::until(started))
        .expect("black to move");
    assert_eq!(game.check(Colour::Black, late), Ok(()));
    assert_eq!(bot.summary().playouts, 0);
}

/// Playouts per move of the bot against the random player.
const VERSUS_RANDOM_PLAYOUTS: u32 = 64;

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes in a debug build: run with --release"
)]
fn beats_a_random_player_on_9x9() {
    let mut wins = 0;
    let mut rng = Rng::new(2024);
    let started = Instant::now();
    for round in 0..100 {
        let mut game = Game::new(9, Rules::default()).expect("9x9");
        let mut bot = Bot::new(round);
        let bot_colour = if round % 2 == 0 {
            Colour::Black
        } else {
            Colour::White
        };
        // A random player rarely passes, so the game ends by passes or this cap.
        while !game.is_over() && game.moves().len() < 1000 {
            let colour = game.to_move();
            let mv = if colour == bot_colour {
                bot.choose(&game, colour, Budget::playouts(VERSUS_RANDOM_PLAYOUTS))
                    .expect("bot to move")
            } else {
                random_move(&game, colour, &mut rng)
            };
            game.play(colour, mv).expect("legal");
        }
        wins += usize::from(game.score().winner() == Some(bot_colour));
    }
    println!(
        "bot won {wins} of 100 games against a random player on 9x9 ({} playouts a move, {:?})",
        VERSUS_RANDOM_PLAYOUTS,
        started.elapsed()
    );
    assert!(wins >= 95, "won only {wins} of 100");
}
