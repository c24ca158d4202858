//! Tests of the bot's choices: passing, legality under every rule set and board size
//! at every level, budgets, the tree kept between moves, and strength: against a
//! random player, and level 3 against level 1.
//!
//! Budgets are numbers of simulations, never deadlines (but in the deadline test), so
//! that the results do not depend on the speed of the machine.

use std::time::{Duration, Instant};

use super::*;
use crate::cpu_clock::thread_cpu_time;
use crate::engine::go::{Board, KoRule, Komi, Point, Rules, SuicideRule};

/// The level that uses the whole budget: a test's playouts are what it runs.
const FULL: Level = Level::STRONGEST;

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
        let mut bot = Bot::new(1, Level::STRONGEST);
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
    let mut bot = Bot::new(1, FULL);
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
    let mut bot = Bot::new(7, FULL);
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
    let mut bot = Bot::new(1, FULL);
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
    // Level 4 uses 65% of the budget: 3250 simulations.
    let mut bot = Bot::new(3, Level::new(4).expect("a level"));
    let mv = bot
        .choose(&game, Colour::Black, Budget::playouts(5000))
        .expect("black to move");
    assert_eq!(mv, Move::Play(Point::new(2, 2)));
    let summary = bot.summary();
    println!("clear choice: {summary:?}");
    // The pass ends the game: its value is exact from the start and it is never
    // tried. The centre is settled once it has more than half of the budget.
    assert_eq!(summary.candidates, 2);
    assert_eq!(summary.playouts, 1626, "{summary:?}");
    // Black wins by half a point of the 25: 0.9 + 0.1 * (0.5 + 1 / 100), the priors'
    // pretend simulations blended in.
    let value = summary.value.expect("a search");
    assert!((value - 0.951).abs() < 0.01, "{value}");
    // Level 5 uses its whole budget, for the tree it keeps.
    let mut bot = Bot::new(3, FULL);
    let mv = bot
        .choose(&game, Colour::Black, Budget::playouts(5000))
        .expect("black to move");
    assert_eq!(mv, Move::Play(Point::new(2, 2)));
    assert_eq!(bot.summary().playouts, 5000);
}

#[test]
fn the_same_seed_plays_the_same_moves() {
    let game = Game::new(9, Rules::default()).expect("9x9");
    for level in Level::ALL {
        let choose = |seed| {
            let mut bot = Bot::new(seed, level);
            (0..3)
                .map(|_| bot.choose(&game, Colour::Black, Budget::playouts(200)))
                .collect::<Vec<_>>()
        };
        assert_eq!(choose(5), choose(5), "level {level}");
    }
}

/// Plays a game between two bots to its end (or `cap` moves), checking every move
/// against the rules; returns the game.
fn bot_game(rules: Rules, size: usize, bots: &mut [Bot; 2], playouts: u32, cap: usize) -> Game {
    let mut game = Game::new(size, rules).expect("size");
    while !game.is_over() && game.moves().len() < cap {
        let colour = game.to_move();
        let bot = &mut bots[usize::from(colour == Colour::White)];
        let mv = bot
            .choose(&game, colour, Budget::playouts(playouts))
            .expect("bot to move");
        assert_eq!(
            game.check(colour, mv),
            Ok(()),
            "{size}x{size} {rules:?}, level {}",
            bot.level()
        );
        game.play(colour, mv).expect("legal");
    }
    game.debug_check().expect("consistent");
    game
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes in a debug build: run with --release"
)]
fn every_level_plays_legally_to_the_end_on_every_size_and_rule_set() {
    let started = Instant::now();
    for size in [2, 3, 4, 5, 7, 9, 13, 19, 25] {
        // Boards up to 13x13 are played to the end, or to the server's limit of 10
        // moves per point; 19x19 and 25x25 for 150 moves, which is enough to see
        // captures and kos.
        let cap = if size <= 13 { 10 * size * size } else { 150 };
        let mut ended = 0;
        let mut games = 0;
        // On 2x2 under simple ko, whoever is behind may take back and forth for ever
        // (the rules allow it): only the move limit ends those games.
        let mut endless = 0;
        for ko in ALL_KO {
            for suicide in ALL_SUICIDE {
                for komi in [0, 13] {
                    let rules = Rules {
                        ko,
                        suicide,
                        komi: Komi::from_halves(komi),
                    };
                    // Each level meets the next one, black and white in turn.
                    for (i, level) in Level::ALL.into_iter().enumerate() {
                        let other = Level::ALL[(i + 1) % Level::ALL.len()];
                        let seed = (size * 100 + games) as u64;
                        let mut bots = [Bot::new(seed, level), Bot::new(seed + 1, other)];
                        if games % 2 == 1 {
                            bots.swap(0, 1);
                        }
                        let game = bot_game(rules, size, &mut bots, 8, cap);
                        ended += usize::from(game.is_over());
                        endless += usize::from(size == 2 && ko == KoRule::Simple);
                        games += 1;
                    }
                }
            }
        }
        println!("{size}x{size}: {ended} of {games} games ended by two passes");
        if size <= 13 {
            assert!(
                ended + endless >= games,
                "{size}x{size}: {ended} of {games}"
            );
        }
    }
    println!("every level, size and rule set in {:?}", started.elapsed());
}

#[test]
fn a_deadline_is_kept_on_19x19() {
    let game = Game::new(19, Rules::default()).expect("19x19");
    let mut bot = Bot::new(11, FULL);
    let think = Duration::from_millis(5);
    let cpu = thread_cpu_time();
    let started = Instant::now();
    let mv = bot
        .choose(&game, Colour::Black, Budget::until(started + think))
        .expect("black to move");
    let took = started.elapsed();
    let worked = thread_cpu_time() - cpu;
    println!(
        "5 ms deadline: took {took:?} ({worked:?} of CPU), {:?}",
        bot.summary()
    );
    // The whole level has no playout cap: only the deadline ends this search. It
    // stops working right after the deadline (the CPU it used, which a preemption does
    // not inflate), and the move comes back in bounded time even on a busy machine.
    assert!(worked < 10 * think, "worked {worked:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert_eq!(game.check(Colour::Black, mv), Ok(()));
    // A deadline already past still gives a legal move, without playouts.
    let late = bot
        .choose(&game, Colour::Black, Budget::until(started))
        .expect("black to move");
    assert_eq!(game.check(Colour::Black, late), Ok(()));
    assert_eq!(bot.summary().playouts, 0);
}

#[test]
fn the_tree_is_kept_when_the_game_goes_on_along_it() {
    let mut game = Game::new(9, Rules::default()).expect("9x9");
    let mut bot = Bot::new(4, FULL);
    let first = bot
        .choose(&game, Colour::Black, Budget::playouts(3000))
        .expect("black to move");
    assert_eq!(bot.summary().reused, 0, "a new tree");
    game.play(Colour::Black, first).expect("legal");
    // The same bot plays white: the position after its own choice is in its tree.
    let answer = bot
        .choose(&game, Colour::White, Budget::playouts(3000))
        .expect("white to move");
    assert!(bot.summary().reused > 0, "{:?}", bot.summary());
    game.play(Colour::White, answer).expect("legal");
    bot.choose(&game, Colour::Black, Budget::playouts(100))
        .expect("black to move");
    let kept = bot.summary().reused;
    println!("kept {kept} simulations after {first:?} {answer:?}");
    assert!(kept > 0);
    // Asked again about the same position, it goes on from where it was.
    bot.choose(&game, Colour::Black, Budget::playouts(100))
        .expect("black to move");
    assert!(bot.summary().reused >= kept);
    // A new game (a rematch) on another board: a new tree.
    let other = Game::new(7, Rules::default()).expect("7x7");
    bot.choose(&other, Colour::Black, Budget::playouts(100))
        .expect("black to move");
    assert_eq!(bot.summary().reused, 0);
}

#[test]
fn it_captures_dead_stones_before_passing() {
    // A white stone sits dead inside black's area. White has passed; on the board as
    // it is (every stone alive) the stone makes black's side nobody's, and white
    // leads 13 to 6: black must take the stone before it passes.
    let diagram = "
        . . . X O .
        . O . X O .
        . . . X O .
        . . . X O .
        . . . X O .
        . . . X O .";
    let mut game = game(diagram, 0, Colour::Black, true);
    assert_eq!(game.score().winner(), Some(Colour::White));
    let mut bot = Bot::new(9, FULL);
    // White keeps passing; black plays until it passes too.
    while !game.is_over() {
        let colour = game.to_move();
        let mv = if colour == Colour::Black {
            bot.choose(&game, colour, Budget::playouts(2000))
                .expect("black to move")
        } else {
            Move::Pass
        };
        game.play(colour, mv).expect("legal");
        assert!(game.moves().len() < 40, "too long: {:?}", game.moves());
    }
    println!("{}", game.board());
    assert_eq!(game.score().winner(), Some(Colour::Black));
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
        let mut bot = Bot::new(round, Level::DEFAULT);
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
        "level 3 won {wins} of 100 games against a random player on 9x9 ({} playouts a move, {:?})",
        VERSUS_RANDOM_PLAYOUTS,
        started.elapsed()
    );
    assert!(wins >= 95, "won only {wins} of 100");
}

/// The budget of each move in the games of level 3 against level 1: each level uses
/// its share of it.
const LEVELS_PLAYOUTS: u32 = 300;

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes in a debug build: run with --release"
)]
fn level_3_beats_level_1_in_80_of_100_games() {
    let started = Instant::now();
    let mut wins = 0;
    let mut results = Vec::new();
    for round in 0..100u64 {
        // Half on 5x5 (komi 3), half on 9x9 (komi 7); level 3 black in every other.
        let (size, komi) = if round < 50 { (5, 6) } else { (9, 14) };
        let rules = Rules {
            komi: Komi::from_halves(komi),
            ..Rules::default()
        };
        let strong = Bot::new(round, Level::DEFAULT);
        let weak = Bot::new(round + 1000, Level::WEAKEST);
        let (mut bots, strong_colour) = if round % 2 == 0 {
            ([strong, weak], Colour::Black)
        } else {
            ([weak, strong], Colour::White)
        };
        let game = bot_game(rules, size, &mut bots, LEVELS_PLAYOUTS, 4 * size * size);
        let won = game.score().winner() == Some(strong_colour);
        wins += usize::from(won);
        results.push(won);
    }
    let on = |range: std::ops::Range<usize>| results[range].iter().filter(|&&w| w).count();
    println!(
        "level 3 beat level 1 in {wins} of 100 games ({} of 50 on 5x5, {} of 50 on 9x9; \
         {LEVELS_PLAYOUTS} playouts a move before the levels' shares) in {:?}",
        on(0..50),
        on(50..100),
        started.elapsed()
    );
    assert!(wins >= 80, "level 3 won only {wins} of 100");
}

/// A game from GTP vertices (`pass` passes), black first.
fn replay(size: usize, komi_halves: i32, vertices: &str) -> Game {
    let rules = Rules {
        komi: Komi::from_halves(komi_halves),
        ..Rules::default()
    };
    let mut game = Game::new(size, rules).expect("size");
    for v in vertices.split_whitespace() {
        let mv = if v == "pass" {
            Move::Pass
        } else {
            let col = b"ABCDEFGHJKLMNOPQRST"
                .iter()
                .position(|&c| c == v.as_bytes()[0])
                .expect("column");
            let row = size - v[1..].parse::<usize>().expect("row");
            Move::Play(Point::new(row as u8, col as u8))
        };
        game.play(game.to_move(), mv).expect("legal");
    }
    game
}

/// Not a test but a tool: the search's view of a 9x9 position (komi 7), for
/// diagnosing a move. `MOVES="E5 D4 pass ..." PLAYOUTS=20000 cargo test --release
/// --lib diagnose -- --ignored --nocapture`.
#[test]
#[ignore = "a diagnostic: prints the search's view of a position"]
fn diagnose() {
    let moves = std::env::var("MOVES").unwrap_or_default();
    let playouts: u32 = std::env::var("PLAYOUTS")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(20000);
    let game = replay(9, 14, &moves);
    println!("{}", game.board());
    let mut bot = Bot::new(1, FULL);
    let mv = bot.choose(&game, game.to_move(), Budget::playouts(playouts));
    println!("{mv:?} {:?}", bot.summary());
    println!("{}", bot.root_report(9, 12));
}
