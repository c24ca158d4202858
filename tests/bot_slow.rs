//! A slow practice bot (`--bot-think-ms 5000 --bot-level 5`, which uses all of it) does
//! not delay the moves of other games: its thinking runs on its own thread, never on a
//! game loop, the lobby or the console. In a test program of its own, so that no other test's bot competes for the
//! cores while it measures. Twenty games are paired, played and ended while it
//! thinks: within 0.4 s beside two CPU-bound loops, so 5 s is generous.

mod common;

use common::*;
use goserver::engine::bot::Level;
use goserver::settings::Settings;
use std::thread;
use std::time::{Duration, Instant};

#[test]
fn a_slow_bot_does_not_delay_twenty_other_games() {
    let think = Duration::from_millis(5000);
    let server = TestServer::with(Settings {
        bot_think: think,
        bot_level: Level::STRONGEST,
        ..Settings::default()
    });
    // The bot plays black on 19x19 and starts thinking at once.
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+2+19");
    assert!(server.go().seat_bot("1", None).is_ok());
    ann.expect(&format!(
        "ACKNOWLEDGE_CONFIG+Ann+2+19+PLAYING;1;{}+GoBot-L5",
        empty(19)
    ));
    let thinking_since = Instant::now();
    // Ann's side notes when the bot's move arrives, whatever the others do.
    let bot_move = thread::spawn(move || {
        let reply = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+");
        (reply, Instant::now())
    });
    // Twenty games of two clients each, one after the other as the lobby pairs
    // them, then played side by side: four moves, two passes, no rematch.
    let pairs: Vec<(Client, Client)> = (2..=21)
        .map(|id| start_named(&server, id, 5, &format!("B{id}"), &format!("W{id}")))
        .collect();
    let games: Vec<_> = pairs
        .into_iter()
        .zip(2u32..)
        .map(|((mut black, mut white), id)| {
            thread::spawn(move || {
                let mut stones = Vec::new();
                let mut slowest = Duration::ZERO;
                for (n, index) in [6usize, 8, 16, 18].into_iter().enumerate() {
                    let (colour, mover, name) = if n % 2 == 0 {
                        ('1', &mut black, format!("B{id}"))
                    } else {
                        ('2', &mut white, format!("W{id}"))
                    };
                    stones.push((index, colour));
                    let sent = Instant::now();
                    mover.send(&format!("MOVE+{id}+{name}+{index}"));
                    let next = if colour == '1' { 2 } else { 1 };
                    let line = format!(
                        "ACKNOWLEDGE_MOVE+{id}+{index};{colour}+PLAYING;{next};{}",
                        board(5, &stones)
                    );
                    both(&mut black, &mut white, &line);
                    slowest = slowest.max(sent.elapsed());
                }
                let now = board(5, &stones);
                black.send(&format!("PASS+{id}+B{id}"));
                both(
                    &mut black,
                    &mut white,
                    &format!("ACKNOWLEDGE_MOVE+{id}+-1;1+PLAYING;2;{now}"),
                );
                white.send(&format!("PASS+{id}+W{id}"));
                both(
                    &mut black,
                    &mut white,
                    &format!("ACKNOWLEDGE_MOVE+{id}+-1;2+FINISHED;1;{now}"),
                );
                let finished = black.expect_prefix(&format!("GAME_FINISHED+{id}+"));
                white.expect(&finished);
                both(&mut black, &mut white, "REQUEST_REMATCH");
                black.send("SET_REMATCH+0");
                both(&mut black, &mut white, "ACKNOWLEDGE_REMATCH+0");
                (Instant::now(), slowest)
            })
        })
        .collect();
    let ends: Vec<(Instant, Duration)> = games
        .into_iter()
        .map(|g| g.join().expect("a game thread"))
        .collect();
    let (reply, answered) = bot_move.join().expect("Ann's thread");
    assert!(reply.contains(";1+PLAYING;2;"), "{reply}");
    let last_end = ends.iter().map(|(end, _)| *end).max().expect("20 games");
    let slowest = ends.iter().map(|(_, slowest)| *slowest).max();
    println!(
        "20 games finished {:?} after the bot started thinking (slowest move {:?}); \
         the bot answered after {:?}",
        last_end - thinking_since,
        slowest.unwrap_or_default(),
        answered - thinking_since
    );
    for (end, _) in ends {
        assert!(end < answered, "a game finished only after the bot's move");
    }
}
