//! Strength and speed of the Spectrangle practice bot: the share of two-player games
//! it finishes first alone (a tie for first is not first) against a random player, a
//! greedy one (always the highest-scoring placement) and itself without simulations,
//! with the time per move; then its speed at the server's default 300 ms.
//! Plain `Instant`, no framework: `cargo bench --bench spectrangle_bot` (`GAMES=n` for
//! another number of games per row than 1,000).
//!
//! Budgets are counts of simulated games, so the win rates are the same on every
//! machine; only the times depend on it.

use std::time::{Duration, Instant};

use goserver::engine::bot::Budget;
use goserver::engine::bot::spectrangle::sparring::{
    GreedyPlayer, Player, RandomPlayer, is_sole_winner, play_out,
};
use goserver::engine::bot::spectrangle::{Choice, SpectrangleBot};
use goserver::engine::spectrangle::{Game, MoveError};

/// The bot with a fixed budget, timing its own turns.
struct Timed {
    /// The bot.
    bot: SpectrangleBot,
    /// Its budget per turn.
    playouts: u32,
    /// Turns chosen.
    turns: u32,
    /// Time spent choosing them.
    spent: Duration,
}

impl Player for Timed {
    fn choose(&mut self, game: &Game, player: usize) -> Result<Choice, MoveError> {
        let started = Instant::now();
        let choice = self
            .bot
            .choose(game, player, Budget::playouts(self.playouts));
        self.spent += started.elapsed();
        self.turns += 1;
        choice
    }
}

/// One row of the table: the bot with `playouts` against `opponent(seed)` in `games`
/// two-player games, first seat in even games and second in odd ones.
fn row(label: &str, games: u64, playouts: u32, opponent: impl Fn(u64) -> Box<dyn Player>) {
    let (mut wins, mut ties, mut margin) = (0u64, 0u64, 0i64);
    let (mut turns, mut spent) = (0u32, Duration::ZERO);
    for seed in 0..games {
        let mut game = Game::new(2, seed).expect("two players");
        let mut bot = Timed {
            bot: SpectrangleBot::new(seed),
            playouts,
            turns: 0,
            spent: Duration::ZERO,
        };
        let mut other = opponent(seed);
        let me = (seed % 2) as usize;
        let result = if me == 0 {
            play_out(&mut game, &mut [&mut bot, other.as_mut()])
        } else {
            play_out(&mut game, &mut [other.as_mut(), &mut bot])
        };
        if let Err(e) = result {
            panic!("seed {seed}: an illegal turn: {e}");
        }
        let scores = game.scores();
        if is_sole_winner(&game, me) {
            wins += 1;
        } else if scores[0] == scores[1] {
            ties += 1;
        }
        margin += i64::from(scores[me]) - i64::from(scores[1 - me]);
        turns += bot.turns;
        spent += bot.spent;
    }
    println!(
        "{label:<34} {playouts:>8} {:>7.1}% {wins:>6} {ties:>5} {:>6} {:>+8.1} {:>10.3}",
        100.0 * wins as f64 / games as f64,
        games - wins - ties,
        margin as f64 / games as f64,
        spent.as_secs_f64() * 1000.0 / f64::from(turns.max(1)),
    );
}

/// The bot with `playouts` among `players - 1` greedy players in `games` games, in
/// every seat in turn: how often it finishes first alone (equal players: 1 in
/// `players`).
fn multi(players: usize, games: u64, playouts: u32) {
    let (mut wins, mut turns, mut spent) = (0u64, 0u32, Duration::ZERO);
    for seed in 0..games {
        let mut game = Game::new(players, seed).expect("2 to 4 players");
        let mut bot = Timed {
            bot: SpectrangleBot::new(seed),
            playouts,
            turns: 0,
            spent: Duration::ZERO,
        };
        let me = (seed % players as u64) as usize;
        let mut greedy: Vec<GreedyPlayer> = (1..players as u64)
            .map(|i| GreedyPlayer::new(seed ^ (i << 32)))
            .collect();
        let mut seats: Vec<&mut dyn Player> =
            greedy.iter_mut().map(|g| g as &mut dyn Player).collect();
        seats.insert(me, &mut bot);
        if let Err(e) = play_out(&mut game, &mut seats) {
            panic!("{players} players, seed {seed}: an illegal turn: {e}");
        }
        wins += u64::from(is_sole_winner(&game, me));
        turns += bot.turns;
        spent += bot.spent;
    }
    println!(
        "{:<34} {playouts:>8} {:>7.1}% {wins:>6} {:>5} {:>6} {:>8} {:>10.3}",
        format!("{} greedy players ({players} seats)", players - 1),
        100.0 * wins as f64 / games as f64,
        "",
        games - wins,
        "",
        spent.as_secs_f64() * 1000.0 / f64::from(turns.max(1)),
    );
}

/// Positions from games of the bot against a greedy player, one every few turns.
fn positions(count: usize) -> Vec<Game> {
    let mut found = Vec::new();
    for seed in 0.. {
        let mut game = Game::new(2, 1000 + seed).expect("two players");
        let mut bot = SpectrangleBot::new(seed);
        let mut greedy = GreedyPlayer::new(seed);
        let mut turn = 0;
        while !game.is_over() && found.len() < count {
            let player = game.to_move();
            if player == 0 && turn % 5 == 0 {
                found.push(game.clone());
            }
            let choice = if player == 0 {
                bot.choose(&game, player, Budget::playouts(100))
            } else {
                greedy.choose(&game, player)
            }
            .expect("a turn");
            choice.apply(&mut game, player).expect("legal");
            turn += 1;
        }
        if found.len() >= count {
            return found;
        }
    }
    found
}

fn main() {
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    println!("two-player games, {games} per row; margin = bot's score - opponent's, per game");
    println!(
        "{:<34} {:>8} {:>8} {:>6} {:>5} {:>6} {:>8} {:>10}",
        "opponent", "playouts", "first", "wins", "ties", "losses", "margin", "ms/move"
    );
    let random = |seed: u64| -> Box<dyn Player> { Box::new(RandomPlayer::new(seed ^ 0x5eed)) };
    let greedy = |seed: u64| -> Box<dyn Player> { Box::new(GreedyPlayer::new(seed ^ 0x5eed)) };
    // The bot without simulations: points minus the best reply of the other player.
    let shallow = |seed: u64| -> Box<dyn Player> {
        let mut bot = SpectrangleBot::new(seed ^ 0x5eed);
        Box::new(move |game: &Game, player: usize| bot.choose(game, player, Budget::playouts(0)))
    };
    row("random", games, 0, random);
    row("random", games, 24, random);
    row("greedy", games, 0, greedy);
    row("greedy", games, 24, greedy);
    row("greedy", games, 400, greedy);
    row("the bot without simulations", games, 400, shallow);
    row("the bot without simulations", games, 3200, shallow);
    multi(3, games, 400);
    multi(4, games, 400);
    println!("playouts: simulated games per turn at most (0: points minus the best reply of");
    println!("another player, no simulation); 24 is the tests' budget. With 3 or 4 seats, wins");
    println!("are first alone and losses everything else (ties for first included).");
    println!();

    // The server's default: think until a deadline 300 ms away.
    let think = Duration::from_millis(300);
    let positions = positions(30);
    let mut times = Vec::new();
    let (mut playouts, mut raced) = (0u64, 0usize);
    for (i, game) in positions.iter().enumerate() {
        let mut bot = SpectrangleBot::new(i as u64);
        let started = Instant::now();
        bot.choose(game, 0, Budget::until(started + think))
            .expect("the bot's turn");
        times.push(started.elapsed());
        playouts += u64::from(bot.summary().playouts);
        raced += usize::from(bot.summary().candidates > 0);
    }
    times.sort_unstable();
    let total: Duration = times.iter().sum();
    println!(
        "300 ms deadline, {} positions from games against a greedy player ({raced} with more \
         than one candidate):",
        positions.len()
    );
    println!(
        "  time per move: mean {:.1} ms, median {:.1} ms, max {:.1} ms; {:.0} simulated games per move, {:.0} per second",
        total.as_secs_f64() * 1000.0 / times.len() as f64,
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times.last().map_or(0.0, |t| t.as_secs_f64() * 1000.0),
        playouts as f64 / times.len() as f64,
        playouts as f64 / total.as_secs_f64(),
    );
}
