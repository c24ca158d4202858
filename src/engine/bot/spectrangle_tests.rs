//! Tests of the Spectrangle bot: legality in games of 2 to 4 players, every error,
//! swaps and skips, budgets, determinism, a position where points now would open a
//! bonus field, and strength against a random and a greedy player.

use std::time::{Duration, Instant};

use super::sparring::{
    GreedyPlayer, Player, RandomPlayer, is_sole_winner, legal_placements, play_out,
};
use super::*;
use crate::cpu_clock::thread_cpu_time;
use crate::engine::spectrangle::{
    Board, Colour, Letters, Location, OrientedTile, Placement, Rotation,
};

/// The set tile written `text` as dealt, e.g. `RRY`.
fn tile(text: &str) -> Tile {
    let colours: Vec<Colour> = text
        .chars()
        .map(|c| Colour::from_letter(c).unwrap())
        .collect();
    Tile::find(Letters::new([colours[0], colours[1], colours[2]])).unwrap()
}

/// `text` as dealt with rotation digit `rotation`, e.g. `("RRY", 1)`.
fn oriented(text: &str, rotation: u8) -> OrientedTile {
    OrientedTile::new(tile(text), Rotation::new(rotation).unwrap())
}

/// The field numbered `index`.
fn loc(index: u8) -> Location {
    Location::new(index).unwrap()
}

/// The bot with a fixed number of simulated games per turn, as a player that checks
/// each of its turns with the engine before the game makes it.
fn bot_player(seed: u64, playouts: u32) -> impl Player {
    tuned_player(seed, playouts, Tuning::default())
}

/// The bot with `tuning`, as [`bot_player`].
fn tuned_player(seed: u64, playouts: u32, tuning: Tuning) -> impl Player {
    let mut bot = SpectrangleBot::new(seed);
    bot.tuning = tuning;
    move |game: &Game, player: usize| {
        let choice = bot.choose(game, player, Budget::playouts(playouts))?;
        assert!(bot.summary().playouts <= playouts, "{:?}", bot.summary());
        assert_eq!(choice.check(game, player), Ok(()), "{choice}");
        Ok(choice)
    }
}

/// Plays `games` two-player games of the bot (`playouts` per turn; first seat in even
/// games, second in odd ones) against `opponent(seed)`. Returns (sole wins, ties for
/// first, the bot's mean margin).
fn match_up(
    games: u64,
    playouts: u32,
    opponent: impl FnMut(u64) -> Box<dyn Player>,
) -> (u32, u32, f64) {
    tuned_match_up(0..games, playouts, Tuning::default(), opponent)
}

/// As [`match_up`], the games of `seeds`, the bot with `tuning`.
fn tuned_match_up(
    seeds: std::ops::Range<u64>,
    playouts: u32,
    tuning: Tuning,
    mut opponent: impl FnMut(u64) -> Box<dyn Player>,
) -> (u32, u32, f64) {
    let (mut wins, mut ties, mut margin) = (0, 0, 0i64);
    let games = seeds.end - seeds.start;
    for seed in seeds {
        let mut game = Game::new(2, seed).unwrap();
        let mut bot = tuned_player(seed, playouts, tuning);
        let mut other = opponent(seed);
        let me = (seed % 2) as usize;
        let mut seats: [&mut dyn Player; 2] = if me == 0 {
            [&mut bot, other.as_mut()]
        } else {
            [other.as_mut(), &mut bot]
        };
        play_out(&mut game, &mut seats).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let scores = game.scores();
        if is_sole_winner(&game, me) {
            wins += 1;
        } else if scores[0] == scores[1] {
            ties += 1;
        }
        margin += i64::from(scores[me]) - i64::from(scores[1 - me]);
    }
    (wins, ties, margin as f64 / games as f64)
}

/// A two-player game arranged for a test, player 0 to move: `placed` (tile as dealt,
/// rotation, field) placed in order, each legal; the hands; in the bag every other
/// tile (in set order, which the bot never sees) if `bag`, else nothing.
fn arranged(placed: &[(&str, u8, u8)], hands: [&[&str]; 2], bag: bool) -> Game {
    let mut board = Board::new();
    for &(text, rotation, at) in placed {
        board
            .place(oriented(text, rotation), loc(at))
            .unwrap_or_else(|e| panic!("{text}{rotation} at {at}: {e}"));
    }
    let hands: Vec<Vec<Tile>> = hands
        .iter()
        .map(|hand| hand.iter().map(|t| tile(t)).collect())
        .collect();
    let used: Vec<Tile> = board
        .placements()
        .map(|p| p.tile.tile())
        .chain(hands.iter().flatten().copied())
        .collect();
    let rest = Tile::ALL.into_iter().filter(|t| !used.contains(t));
    Game::arranged(board, hands, if bag { rest.collect() } else { Vec::new() })
}

/// The most points `player` could score in `game`, 0 if it cannot place.
fn best_points(game: &Game, player: usize) -> u32 {
    legal_placements(game, player)
        .iter()
        .map(|&(_, points)| points)
        .max()
        .unwrap_or(0)
}

/// The points of `placement` for player 0 of `game`, and the most the opponent could
/// score right after it.
fn points_and_reply(game: &Game, placement: Placement) -> (u32, u32) {
    let mut after = game.clone();
    let report = after
        .play(0, placement.tile.into(), placement.location)
        .unwrap();
    (report.points, best_points(&after, 1))
}

#[test]
fn refuses_when_it_may_not_move() {
    let mut bot = SpectrangleBot::new(1);
    let fresh = Game::new(3, 1).unwrap();
    assert_eq!(
        bot.choose(&fresh, 2, Budget::playouts(10)),
        Err(MoveError::NotYourTurn { to_move: 0 })
    );
    let mut over = Game::new(2, 1).unwrap();
    let (mut a, mut b) = (GreedyPlayer::new(1), GreedyPlayer::new(2));
    play_out(&mut over, &mut [&mut a, &mut b]).unwrap();
    for player in 0..2 {
        assert_eq!(
            bot.choose(&over, player, Budget::playouts(10)),
            Err(MoveError::GameOver)
        );
    }
}

/// `RRR` at the top corner: the only empty field next to it is 2 (x3), whose top edge
/// must be red (or white).
const CORNER: &[(&str, u8, u8)] = &[("RRR", 0, 0)];

#[test]
fn a_single_placement_is_played_at_once() {
    // Only RGY has red, and only one rotation puts it on top.
    let game = arranged(
        CORNER,
        [&["BBB", "GGG", "YYY", "RGY"], &["PPP", "BBR", "GGR", "YYB"]],
        true,
    );
    let mut bot = SpectrangleBot::new(1);
    let choice = bot.choose(&game, 0, Budget::playouts(1000)).unwrap();
    assert_eq!(choice, Choice::Place(legal_placements(&game, 0)[0].0));
    assert_eq!(choice.to_string(), "RGY0 at 2");
    let summary = bot.summary();
    assert_eq!(
        (
            summary.placements,
            summary.candidates,
            summary.playouts,
            summary.points
        ),
        (1, 0, 0, 9),
        "{summary:?}"
    );
    assert_eq!(summary.margin, None);
}

#[test]
fn swaps_when_stuck_and_skips_when_the_bag_is_empty() {
    // No red and no white: nothing fits on field 2.
    let hands: [&[&str]; 2] = [&["BBB", "GGG", "YYY", "PPP"], &["RRY", "BBR", "GGR", "YYB"]];
    let game = arranged(CORNER, hands, true);
    assert!(!game.can_place(0));
    let mut bot = SpectrangleBot::new(1);
    let choice = bot.choose(&game, 0, Budget::playouts(400)).unwrap();
    assert!(
        matches!(choice, Choice::Swap(t) if game.hand(0).contains(&t)),
        "{choice}"
    );
    assert_eq!(choice.check(&game, 0), Ok(()));
    let summary = bot.summary();
    // Four swaps and the skip raced.
    assert_eq!(
        (summary.placements, summary.candidates),
        (0, 5),
        "{summary:?}"
    );
    assert!(
        summary.playouts > 0 && summary.playouts <= 400,
        "{summary:?}"
    );

    let empty_bag = arranged(CORNER, hands, false);
    assert_eq!(
        bot.choose(&empty_bag, 0, Budget::playouts(400)),
        Ok(Choice::Skip)
    );
    assert_eq!(bot.summary().candidates, 0);
    assert_eq!(Choice::Skip.to_string(), "skip");
    assert_eq!(Choice::Swap(tile("PPY")).to_string(), "swap PPY0");
}

/// Three tiles at the upper left; field 10 (x2) lies below BBB at 4, and field 11 (x4)
/// next to 10 is empty.
const TRAP: &str = "                                   /  0   \\
                            /  1   \\ 2x3  /  3   \\
                     / BBB0 \\ BBG0 / PPG0 \\  7   /  8   \\
              /  9   \\ 10x2 / 11x4 \\  12  / 13x4 \\ 14x2 /  15  \\
       /  16  \\  17  /  18  \\  19  / 20x4 \\  21  /  22  \\  23  /  24  \\
/  25  \\ 26x3 /  27  \\  28  /  29  \\ 30x2 /  31  \\  32  /  33  \\ 34x3 /  35  \\";

#[test]
fn points_now_do_not_open_a_bonus_field_to_the_next_player() {
    let game = arranged(
        &[("BBB", 0, 4), ("BBG", 0, 5), ("PPG", 0, 6)],
        [&["RRG", "BGP", "RRP", "GGB"], &["YYY", "GGG", "YYB", "RRY"]],
        true,
    );
    assert_eq!(game.board().render(), TRAP);
    // The greedy player scores 10 with GGB on 10, and leaves green on the edge to
    // 11: GGG scores 6 x 4 = 24 there.
    let greedy = GreedyPlayer::new(1).choose(&game, 0).unwrap();
    assert_eq!(greedy.to_string(), "GGB1 at 10");
    let Choice::Place(greedy) = greedy else {
        unreachable!()
    };
    assert_eq!(points_and_reply(&game, greedy), (10, 24));
    // The bot gives up a few points now and leaves the opponent at most 6, by its first
    // measure and after simulations alike.
    for playouts in [0, 400] {
        let mut bot = SpectrangleBot::new(7);
        let choice = bot.choose(&game, 0, Budget::playouts(playouts)).unwrap();
        let Choice::Place(placement) = choice else {
            panic!("{choice}")
        };
        let (points, reply) = points_and_reply(&game, placement);
        println!(
            "{playouts} playouts: {choice}, {points} points, reply {reply}; {}",
            bot.summary()
        );
        assert!(reply <= 6, "{playouts} playouts: {choice} leaves {reply}");
        assert!(points as i64 - reply as i64 > 10 - 24);
    }
}

#[test]
fn budgets_are_kept() {
    let mut game = Game::new(2, 5).unwrap();
    // A few turns in, so there is something to race.
    let (mut a, mut b) = (GreedyPlayer::new(1), GreedyPlayer::new(2));
    for _ in 0..6 {
        let player = game.to_move();
        let seat: &mut dyn Player = if player == 0 { &mut a } else { &mut b };
        seat.choose(&game, player)
            .unwrap()
            .apply(&mut game, player)
            .unwrap();
    }
    let player = game.to_move();
    let mut bot = SpectrangleBot::new(3);
    for playouts in [0, 1, 7, 8, 100, 1000] {
        let choice = bot
            .choose(&game, player, Budget::playouts(playouts))
            .unwrap();
        assert_eq!(choice.check(&game, player), Ok(()));
        let summary = bot.summary();
        assert!(summary.candidates > 1, "{summary:?}");
        assert!(summary.playouts <= playouts, "{playouts}: {summary:?}");
        // Only whole rounds (a game per candidate still in the race) count: a budget
        // too small for one leaves the first measure to choose.
        if playouts < summary.candidates as u32 {
            assert_eq!(summary.margin, None);
        } else {
            assert!(summary.margin.is_some());
        }
    }
    // A deadline already past still gives a legal turn, without simulations.
    let started = Instant::now();
    let late = bot.choose(&game, player, Budget::until(started)).unwrap();
    assert_eq!(late.check(&game, player), Ok(()));
    assert_eq!(bot.summary().playouts, 0);
    // A short deadline is kept: the work done (this thread's CPU time, which a busy
    // machine does not inflate) stays within a few times the deadline, and the turn
    // comes back in bounded time however busy the machine is.
    let think = Duration::from_millis(20);
    let cpu = thread_cpu_time();
    let started = Instant::now();
    let choice = bot
        .choose(&game, player, Budget::until(started + think))
        .unwrap();
    let took = started.elapsed();
    let worked = thread_cpu_time() - cpu;
    println!(
        "20 ms deadline: took {took:?} ({worked:?} of CPU), {}",
        bot.summary()
    );
    assert!(worked < 10 * think, "worked {worked:?}");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    assert_eq!(choice.check(&game, player), Ok(()));
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let play = |seed| {
        let mut game = Game::new(3, 9).unwrap();
        let (mut a, mut b, mut c) = (
            bot_player(seed, 40),
            bot_player(seed + 1, 40),
            GreedyPlayer::new(seed),
        );
        play_out(&mut game, &mut [&mut a, &mut b, &mut c]).unwrap();
        (game.history().to_vec(), game.scores().to_vec())
    };
    assert_eq!(play(5), play(5));
}

#[test]
fn only_legal_turns_with_2_3_and_4_players() {
    let (mut turns, mut swaps, mut skips) = (0, 0, 0);
    for players in 2..=4 {
        for seed in 0..30u64 {
            let mut game = Game::new(players, seed).unwrap();
            // Bots with and without simulations, among a greedy and a random player,
            // in seats that change with the seed.
            let mut boxes: Vec<Box<dyn Player>> = vec![
                Box::new(bot_player(seed, 24)),
                Box::new(GreedyPlayer::new(seed)),
                Box::new(bot_player(seed + 100, 0)),
                Box::new(RandomPlayer::new(seed)),
            ];
            boxes.truncate(players);
            boxes.rotate_left(seed as usize % players);
            let mut seats: Vec<&mut dyn Player> = boxes
                .iter_mut()
                .map(|s| &mut **s as &mut dyn Player)
                .collect();
            turns += play_out(&mut game, &mut seats)
                .unwrap_or_else(|e| panic!("{players} players, seed {seed}: {e}"));
            assert!(game.is_over());
            for turn in game.history() {
                match turn {
                    Turn::Swapped(_) => swaps += 1,
                    Turn::Skipped { .. } => skips += 1,
                    Turn::Played(_) => {}
                }
            }
        }
    }
    println!("{turns} turns, {swaps} swaps, {skips} skips");
    assert!(swaps > 0 && skips > 0, "{swaps} swaps, {skips} skips");
}

#[test]
fn the_sparring_players() {
    let game = arranged(
        &[("BBB", 0, 4), ("BBG", 0, 5), ("PPG", 0, 6)],
        [&["RRG", "BGP", "RRP", "GGB"], &["YYY", "GGG", "YYB", "RRY"]],
        true,
    );
    let legal = legal_placements(&game, 0);
    let top = best_points(&game, 0);
    for seed in 0..20 {
        let Choice::Place(greedy) = GreedyPlayer::new(seed).choose(&game, 0).unwrap() else {
            panic!("the greedy player can place")
        };
        assert_eq!(points_and_reply(&game, greedy).0, top);
        let random = RandomPlayer::new(seed).choose(&game, 0).unwrap();
        assert!(legal.iter().any(|&(p, _)| Choice::Place(p) == random));
    }
    // A tie for first is not first.
    let mut tied = Game::new(2, 1).unwrap();
    let player = tied.to_move();
    assert!(!is_sole_winner(&tied, player) && !is_sole_winner(&tied, 1 - player));
    let choice = GreedyPlayer::new(1).choose(&tied, player).unwrap();
    choice.apply(&mut tied, player).unwrap();
    assert!(is_sole_winner(&tied, player) && !is_sole_winner(&tied, 1 - player));
}

/// Simulated games per turn in the strength tests: small, so that 1,100 games take
/// seconds; the benchmark measures larger budgets.
const TEST_PLAYOUTS: u32 = 24;

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn beats_a_random_player() {
    let started = Instant::now();
    let (wins, ties, margin) = match_up(100, TEST_PLAYOUTS, |seed| {
        Box::new(RandomPlayer::new(seed ^ 0x5eed))
    });
    println!(
        "first alone in {wins} of 100 games against a random player ({ties} ties for \
         first, mean margin {margin:+.1}; {TEST_PLAYOUTS} playouts a turn, {:?})",
        started.elapsed()
    );
    assert!(wins >= 95, "first alone in only {wins} of 100");
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow in a debug build: run with --release")]
fn beats_a_greedy_player() {
    let started = Instant::now();
    let (wins, ties, margin) = match_up(1000, TEST_PLAYOUTS, |seed| {
        Box::new(GreedyPlayer::new(seed ^ 0x5eed))
    });
    println!(
        "first alone in {wins} of 1000 games against a greedy player ({ties} ties for \
         first, mean margin {margin:+.1}; {TEST_PLAYOUTS} playouts a turn, {:?})",
        started.elapsed()
    );
    assert!(wins >= 550, "first alone in only {wins} of 1000");
}

/// An environment variable as a number, or `default`.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// How the constants of [`Tuning`] were chosen: two-player games of the bot with the
/// tuning from the environment against an opponent, e.g.
/// `GAMES=1000 FIRST_SEED=9000 PLAYOUTS=400 OPP=400 HORIZON_ROUNDS=1000 cargo test
/// --release --lib engine::bot::spectrangle::tests::experiment -- --ignored --nocapture`
/// (whole simulated games against the bot as it is, both at 400 simulated games a turn).
#[test]
#[ignore = "an experiment: GAMES, FIRST_SEED, PLAYOUTS, OPP (greedy, random or a playout \
            count) and the fields of Tuning in capitals"]
fn experiment() {
    let games: u64 = env_or("GAMES", 200);
    let playouts: u32 = env_or("PLAYOUTS", 0);
    let opp = std::env::var("OPP").unwrap_or_else(|_| "greedy".into());
    let defaults = Tuning::default();
    let tuning = Tuning {
        candidates: env_or("CANDIDATES", defaults.candidates),
        min_rounds: env_or("MIN_ROUNDS", defaults.min_rounds),
        drop_z: env_or("DROP_Z", defaults.drop_z),
        prior_weight: env_or("PRIOR_WEIGHT", defaults.prior_weight),
        horizon_rounds: env_or("HORIZON_ROUNDS", defaults.horizon_rounds),
        max_rounds: env_or("MAX_ROUNDS", defaults.max_rounds),
    };
    let started = Instant::now();
    let first: u64 = env_or("FIRST_SEED", 0);
    let (w, t, m) = tuned_match_up(first..first + games, playouts, tuning, |seed| {
        match opp.as_str() {
            "greedy" => Box::new(GreedyPlayer::new(seed ^ 0x5eed)),
            "random" => Box::new(RandomPlayer::new(seed ^ 0x5eed)),
            n => Box::new(bot_player(seed ^ 0x7777, n.parse().unwrap())),
        }
    });
    println!(
        "{playouts} vs {opp}: {w}/{games} sole wins, {t} ties, mean margin {m:.2}, {:.1?}",
        started.elapsed()
    );
}
