//! Speed of the practice bot on one core: playouts and playout moves per second on an
//! empty 9x9 and 19x19 board (through `Bot::choose` with a playout budget, so the
//! search's own bookkeeping is included), then one `choose` with the server's default
//! 300 ms deadline. Plain `Instant`, no framework: `cargo bench --bench bot`.

use std::time::{Duration, Instant};

use goserver::engine::bot::{Bot, Budget};
use goserver::engine::go::{Colour, Game, Rules};

fn main() {
    println!(
        "{:<8} {:>12} {:>16} {:>14}",
        "board", "playouts/s", "playout moves/s", "moves/playout"
    );
    for size in [9, 19] {
        let game = Game::new(size, Rules::default()).expect("valid size");
        let mut bot = Bot::new(1);
        let (mut playouts, mut moves) = (0u64, 0u64);
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(4) {
            bot.choose(&game, Colour::Black, Budget::playouts(1000))
                .expect("black to move");
            playouts += u64::from(bot.summary().playouts);
            moves += bot.summary().playout_moves;
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{:<8} {:>12.0} {:>16.0} {:>14.1}",
            format!("{size}x{size}"),
            playouts as f64 / secs,
            moves as f64 / secs,
            moves as f64 / playouts as f64
        );
    }
    println!();
    println!(
        "{:<8} {:>14} {:>10} {:>12}",
        "board", "300 ms choose", "playouts", "candidates"
    );
    for size in [9, 19, 25] {
        let game = Game::new(size, Rules::default()).expect("valid size");
        let mut bot = Bot::new(2);
        let started = Instant::now();
        bot.choose(
            &game,
            Colour::Black,
            Budget::until(started + Duration::from_millis(300)),
        )
        .expect("black to move");
        let took = started.elapsed();
        let summary = bot.summary();
        println!(
            "{:<8} {:>11.1} ms {:>10} {:>12}",
            format!("{size}x{size}"),
            took.as_secs_f64() * 1000.0,
            summary.playouts,
            summary.candidates
        );
    }
    println!("playouts: random legal moves that do not fill one's own eye, simple ko;");
    println!("playout moves include passes; an empty board, black to move.");
}
