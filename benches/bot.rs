//! Speed of the practice bot on one core: simulations and simulated moves per second
//! on an empty 9x9 and 19x19 board, with level 5's heuristic playouts and level 1's
//! random ones (through `Bot::choose` with a simulation budget, so the tree's own
//! bookkeeping is included), then one `choose` at level 5 with the server's default
//! 300 ms and the strength benchmark's 1000 ms. Plain `Instant`, no framework:
//! `cargo bench --bench bot`.

use std::time::{Duration, Instant};

use goserver::engine::bot::{Bot, Budget, Level};
use goserver::engine::go::{Colour, Game, Rules};

fn main() {
    println!(
        "{:<8} {:<10} {:>14} {:>16} {:>14}",
        "board", "playouts", "simulations/s", "simulated moves/s", "moves/sim"
    );
    for size in [9, 19] {
        for (style, level) in [("heuristic", Level::STRONGEST), ("random", Level::WEAKEST)] {
            let game = Game::new(size, Rules::default()).expect("valid size");
            let (mut simulations, mut moves) = (0u64, 0u64);
            let mut seed = 0;
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(4) {
                // A new bot each time: a kept tree would settle the choice early.
                let mut bot = Bot::new(seed, level);
                seed += 1;
                // Level 1 uses 5% of the budget, at most 200 simulations.
                bot.choose(&game, Colour::Black, Budget::playouts(4000))
                    .expect("black to move");
                simulations += u64::from(bot.summary().playouts);
                moves += bot.summary().playout_moves;
            }
            let secs = started.elapsed().as_secs_f64();
            println!(
                "{:<8} {:<10} {:>14.0} {:>16.0} {:>14.1}",
                format!("{size}x{size}"),
                style,
                simulations as f64 / secs,
                moves as f64 / secs,
                moves as f64 / simulations as f64
            );
        }
    }
    println!();
    println!(
        "{:<8} {:>8} {:>12} {:>12} {:>10} {:>12}",
        "board", "think", "took", "simulations", "nodes", "candidates"
    );
    for size in [9, 19, 25] {
        for think in [300, 1000] {
            let game = Game::new(size, Rules::default()).expect("valid size");
            let mut bot = Bot::new(2, Level::STRONGEST);
            let started = Instant::now();
            bot.choose(
                &game,
                Colour::Black,
                Budget::until(started + Duration::from_millis(think)),
            )
            .expect("black to move");
            let took = started.elapsed();
            let summary = bot.summary();
            println!(
                "{:<8} {:>5} ms {:>9.1} ms {:>12} {:>10} {:>12}",
                format!("{size}x{size}"),
                think,
                took.as_secs_f64() * 1000.0,
                summary.playouts,
                summary.nodes,
                summary.candidates
            );
        }
    }
    println!("a simulation: a walk down the tree and a playout to the end (simple ko);");
    println!("simulated moves include passes; an empty board, black to move.");
}
