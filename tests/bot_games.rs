//! The practice bot over real TCP, in whole games against a scripted client that plays
//! random legal moves: its strength on 9x9, and legal play to the end on every board
//! size and rule option, seated by `--bot-after` (the `bot_after` setting) or by the
//! console's `bot` (the front end's `seat_bot`).
//!
//! The bot's budget is a number of playouts (the think time is far beyond it), so its
//! play, and these results, do not depend on the speed of the machine.

mod bot_support;
mod common;

use bot_support::{Policy, RoundEnd, Scripted};
use common::*;
use goserver::engine::go::{Colour, KoRule, Komi, Rules, SuicideRule};
use goserver::settings::Settings;
use std::thread;
use std::time::{Duration, Instant};

/// A think time no search reaches: the playout budget is what stops the bot.
const UNREACHED: Duration = Duration::from_secs(60);

/// The bot's granted name in the `n`th game that seats one at the same time (from 1).
fn bot_name(n: usize) -> String {
    if n == 1 {
        "GoBot-L3".to_string()
    } else {
        format!("GoBot-L3_{n}")
    }
}

/// The protocol's colour field for `colour`.
fn number(colour: Colour) -> u8 {
    colour.number()
}

/// A client named `name` leads game `id` as `colour` on a `size` board, the bot takes
/// the other seat (by the console when `by_console`, else by the server's
/// `bot_after` clock) as the `nth` bot of the server; both have the configuration.
#[allow(clippy::too_many_arguments)]
fn seat_against_bot(
    server: &TestServer,
    settings: &Settings,
    id: u32,
    name: &str,
    colour: Colour,
    size: usize,
    nth: usize,
    by_console: bool,
    seed: u64,
    policy: Policy,
) -> Scripted {
    let mut client = leader(server, id, name);
    client.send(&format!("SET_CONFIG+{id}+{}+{size}", number(colour)));
    let bot = bot_name(nth);
    if by_console {
        assert_eq!(
            server.go().seat_bot(&id.to_string(), None),
            Ok(format!(
                "the practice bot {bot} takes the free seat of game {id}"
            ))
        );
    }
    let mut scripted = Scripted::new(
        client,
        name,
        id,
        colour,
        &bot,
        size,
        settings.rules,
        settings.moves_per_point,
        seed,
        policy,
    );
    scripted.expect_config();
    scripted
}

/// Playouts per move of the bot against the random player: the bot's own strength
/// test (`bot::search`) wins at least 95 of 100 with as many.
const VERSUS_RANDOM_PLAYOUTS: u32 = 64;

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes in a debug build: run with --release"
)]
fn the_bot_beats_a_uniformly_random_player_in_95_of_100_games_on_9x9() {
    let settings = Settings {
        bot_think: UNREACHED,
        bot_playouts: Some(VERSUS_RANDOM_PLAYOUTS),
        seed: Some(2024),
        ..Settings::default()
    };
    let server = TestServer::with(settings.clone());
    let started = Instant::now();
    // Four games of 25 rounds each (a rematch starts the next round), two with the
    // client as black and two as white, played side by side.
    let games: Vec<Scripted> = (1..=4)
        .map(|id| {
            let colour = if id % 2 == 1 {
                Colour::Black
            } else {
                Colour::White
            };
            let name = format!("Random{id}");
            seat_against_bot(
                &server,
                &settings,
                id,
                &name,
                colour,
                9,
                id as usize,
                true,
                u64::from(id),
                Policy::Uniform,
            )
        })
        .collect();
    let players: Vec<_> = games
        .into_iter()
        .map(|mut game| thread::spawn(move || rounds(&mut game, 25)))
        .collect();
    let ends: Vec<(Colour, RoundEnd)> = players
        .into_iter()
        .flat_map(|p| p.join().expect("the client thread ends cleanly"))
        .collect();
    let wins = ends
        .iter()
        .filter(|(client, end)| end.winner == Some(client.opponent()))
        .count();
    let by_passes = ends.iter().filter(|(_, end)| end.by_passes).count();
    let moves: usize = ends.iter().map(|(_, end)| end.moves).sum();
    println!(
        "the bot won {wins} of {} games on 9x9 against a uniformly random player \
         ({VERSUS_RANDOM_PLAYOUTS} playouts a move; {by_passes} ended by two passes, {} by \
         the move limit; {moves} moves in {:?})",
        ends.len(),
        ends.len() - by_passes,
        started.elapsed()
    );
    assert_eq!(ends.len(), 100);
    assert!(wins >= 95, "the bot won only {wins} of 100");
}

/// Plays `n` rounds, a rematch between each two; returns the client's colour and how
/// each round ended.
fn rounds(game: &mut Scripted, n: usize) -> Vec<(Colour, RoundEnd)> {
    let mut ends = Vec::new();
    for round in 0..n {
        ends.push((game.colour, game.play_round()));
        if round + 1 < n {
            // The bot has said yes already: the client's yes starts the next round.
            game.client.send("SET_REMATCH+1");
            game.client.expect("ACKNOWLEDGE_REMATCH+1");
            game.expect_config();
        } else {
            game.client.send("SET_REMATCH+0");
            game.client.expect("ACKNOWLEDGE_REMATCH+0");
        }
    }
    ends
}

/// Every rule set the server can be started with.
fn every_rule_set() -> Vec<Rules> {
    let mut all = Vec::new();
    for ko in [KoRule::Positional, KoRule::Situational, KoRule::Simple] {
        for suicide in [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed] {
            for komi in [0, 13] {
                all.push(Rules {
                    ko,
                    suicide,
                    komi: Komi::from_halves(komi),
                });
            }
        }
    }
    all
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "minutes in a debug build: run with --release"
)]
fn bots_finish_games_on_every_size_and_rule_set() {
    let started = Instant::now();
    let mut seated_by = [0usize; 2];
    for (i, rules) in every_rule_set().into_iter().enumerate() {
        // Every other rule set, the server's clock seats the bots; else the console.
        let by_console = i % 2 == 1;
        let settings = Settings {
            rules,
            bot_after: (!by_console).then_some(Duration::from_millis(100)),
            bot_think: UNREACHED,
            bot_playouts: Some(8),
            seed: Some(i as u64),
            ..Settings::default()
        };
        let server = TestServer::with(settings.clone());
        let games: Vec<Scripted> = [5, 9, 13, 19]
            .into_iter()
            .enumerate()
            .map(|(k, size)| {
                let colour = if (i + k) % 2 == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                let id = k as u32 + 1;
                seat_against_bot(
                    &server,
                    &settings,
                    id,
                    ["Ann", "Bea", "Cid", "Dan"][k],
                    colour,
                    size,
                    k + 1,
                    by_console,
                    (i * 10 + k) as u64,
                    Policy::Polite,
                )
            })
            .collect();
        seated_by[usize::from(by_console)] += games.len();
        let players: Vec<_> = games
            .into_iter()
            .map(|mut game| {
                thread::spawn(move || {
                    let end = game.play_round();
                    game.client.send("SET_REMATCH+0");
                    game.client.expect("ACKNOWLEDGE_REMATCH+0");
                    (game.size, end)
                })
            })
            .collect();
        for player in players {
            let (size, end) = player.join().expect("the client thread ends cleanly");
            println!("{rules:?} {size}x{size}: {end:?}");
            assert!(end.by_passes, "{rules:?} {size}x{size}: {end:?}");
        }
    }
    println!(
        "48 games ended by two passes, {} bots seated by the clock and {} by the console, in {:?}",
        seated_by[0],
        seated_by[1],
        started.elapsed()
    );
    assert_eq!(seated_by, [24, 24]);
}
