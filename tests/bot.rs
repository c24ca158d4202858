//! The practice bot in the GO! flow, over real TCP: how it is seated (`--bot-after`,
//! the console's `bot`, a human arriving at the same moment), its name, what the
//! console shows of it, its rematch, the clocks, and that its thinking holds up
//! nothing: not a kick, an EXIT, the shutdown or the console (other games: see
//! `bot_slow.rs`).
//!
//! A bot whose game ended while it was thinking finishes that think before its thread
//! ends: the tests that keep it thinking for a minute leave such threads behind until
//! this test program exits, which is why the timing test lives in a program of its
//! own.

mod bot_support;
mod common;

use bot_support::{Policy, Scripted};
use common::*;
use goserver::console::{Console, Outcome};
use goserver::engine::bot::Level;
use goserver::engine::go::{Colour, Rules};
use goserver::settings::Settings;
use std::process::Command;
use std::sync::{Arc, Barrier};
use std::thread;
use std::time::{Duration, Instant};

/// A think time far beyond any test: the bot is still thinking whenever it matters.
const FOREVER: Duration = Duration::from_secs(60);

/// Runs a console command against the test server, as the operator would type it.
fn console(server: &TestServer, line: &str) -> String {
    match Console::new(&server.server).execute(line) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// Waits until the `games` row of game `id` shows `players` (the loop publishes
/// after each event, a moment after the lines are sent).
fn until_players(server: &TestServer, id: &str, players: &str) {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let rows = server.go().games(Instant::now());
        if rows.iter().any(|g| g.id == id && g.players == players) {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "game {id} never showed {players}"
        );
        thread::sleep(Duration::from_millis(5));
    }
}

/// Waits until no bot sits in any game (the lobby closes a game right after its last
/// lines are sent).
fn until_no_bot(server: &TestServer) {
    let deadline = Instant::now() + PATIENCE;
    while !server.go().bots().is_empty() {
        assert!(Instant::now() < deadline, "a bot is still seated");
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn after_the_wait_the_bot_takes_the_free_seat_configured_or_not() {
    let server = TestServer::with(Settings {
        bot_after: Some(Duration::from_millis(200)),
        ..Settings::default()
    });
    // Configured first: the bot's arrival starts the game.
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+1+5");
    ann.expect(&format!(
        "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;{}+GoBot-L3",
        empty(5)
    ));
    // Not configured yet: the bot waits for the configuration like a partner, and
    // the leader has heard nothing of it (as of a client partner).
    let mut bea = leader(&server, 2, "Bea");
    until_players(&server, "2", "Bea vs GoBot-L3_2");
    let row = server.go().games(Instant::now());
    assert_eq!(row[1].status, "waiting for config");
    bea.send("SET_CONFIG+2+2+3");
    bea.expect(&format!(
        "ACKNOWLEDGE_CONFIG+Bea+2+3+PLAYING;1;{}+GoBot-L3_2",
        empty(3)
    ));
    // The bot is black there and moves first: an ACKNOWLEDGE_MOVE like any other.
    let first = bea.expect_prefix("ACKNOWLEDGE_MOVE+2+");
    assert!(first.contains(";1+PLAYING;2;"), "{first}");
}

#[test]
fn the_console_seats_the_bot_or_says_why_not() {
    let server = TestServer::start();
    assert_eq!(
        console(&server, "bot 1"),
        "no game 1: type 'games' to list them"
    );
    assert_eq!(
        console(&server, "bot x"),
        "'x' is not a game id (such as 1, s1 or bkgo, see 'games'): usage: bot <game id> [level]"
    );
    assert_eq!(
        console(&server, "bot"),
        "bot needs a game id: usage: bot <game id> [level]"
    );
    // Two clients in game 1: no free seat.
    let (mut ann, _bob) = start_game(&server, 1, 5);
    until_players(&server, "1", "Ann (black) vs Bob (white)");
    assert_eq!(
        console(&server, "bot 1"),
        "game 1 already has two players (Ann (black) vs Bob (white)): the practice bot only takes the free seat of a game waiting for a partner"
    );
    ann.send("EXIT+1+Ann");
    ann.expect("GAME_FINISHED+1+Bob+0;0+Ann exited: Bob wins");
    ann.expect_closed();
    let deadline = Instant::now() + PATIENCE;
    let ended = loop {
        let answer = console(&server, "bot 1");
        if answer.starts_with("game 1 has ended") || Instant::now() > deadline {
            break answer;
        }
        thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(
        ended,
        "game 1 has ended (Ann exited: Bob wins): the practice bot only takes the free seat of a game waiting for a partner"
    );
    // A game waiting for a partner: the bot sits at once, then the seat is taken.
    let mut cid = leader(&server, 2, "Cid");
    assert_eq!(
        console(&server, "bot 2"),
        "the practice bot GoBot-L3 takes the free seat of game 2"
    );
    assert!(
        console(&server, "bot 2").starts_with("game 2 already has two players ("),
        "the seat is taken"
    );
    cid.send("SET_CONFIG+2+1+2");
    cid.expect(&format!(
        "ACKNOWLEDGE_CONFIG+Cid+1+2+PLAYING;1;{}+GoBot-L3",
        empty(2)
    ));
    // The game has left the waiting queue: the next client leads a game of its own.
    let _dan = leader(&server, 3, "Dan");
    assert!(console(&server, "help").contains("bot <game id>"));
}

#[test]
fn the_level_is_in_the_name_and_the_console_may_ask_for_another() {
    let server = TestServer::with(Settings {
        bot_level: Level::new(2).expect("a level"),
        ..Settings::default()
    });
    let _ann = leader(&server, 1, "Ann");
    assert_eq!(
        console(&server, "bot 1 9"),
        "the bot's level is a whole number from 1 to 5, got '9': usage: bot <game id> [level]"
    );
    assert_eq!(
        console(&server, "bot 1 five"),
        "the bot's level is a whole number from 1 to 5, got 'five': usage: bot <game id> [level]"
    );
    assert_eq!(
        console(&server, "bot 1 5"),
        "the practice bot GoBot-L5 takes the free seat of game 1"
    );
    // Without a level, the server's --bot-level.
    let _bea = leader(&server, 2, "Bea");
    assert_eq!(
        console(&server, "bot 2"),
        "the practice bot GoBot-L2 takes the free seat of game 2"
    );
    // Names are granted per level like any name.
    let _cid = leader(&server, 3, "Cid");
    assert_eq!(
        console(&server, "bot 3 5"),
        "the practice bot GoBot-L5_2 takes the free seat of game 3"
    );
    until_players(&server, "3", "Cid vs GoBot-L5_2");
    let bots: Vec<String> = server.go().bots().into_iter().map(|b| b.name).collect();
    assert_eq!(bots, ["GoBot-L5", "GoBot-L2", "GoBot-L5_2"]);
}

#[test]
fn a_bot_level_out_of_range_is_refused_at_start() {
    for bad in ["0", "6", "x"] {
        let output = Command::new(env!("CARGO_BIN_EXE_goserver"))
            .args(["--port", "0", "--host", "127.0.0.1", "--no-console"])
            .args(["--bot-level", bad])
            .output()
            .expect("run goserver");
        assert_eq!(output.status.code(), Some(2), "--bot-level {bad}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(
            text.contains(&format!(
                "invalid value '{bad}' for '--bot-level <1-5>': the bot's level is a whole number from 1 to 5, got '{bad}'"
            )),
            "{text}"
        );
    }
}

#[test]
fn the_bot_has_a_granted_name_shown_by_games_players_and_the_record() {
    let server = TestServer::start();
    let ann = leader(&server, 1, "Ann");
    assert_eq!(
        console(&server, "bot 1"),
        "the practice bot GoBot-L3 takes the free seat of game 1"
    );
    // While the bot holds GoBot-L3, a client asking for it gets GoBot-L3_2; the next bot
    // gets GoBot-L3_3.
    let mut copycat = leader(&server, 2, "GoBot-L3");
    assert_eq!(
        console(&server, "bot 2"),
        "the practice bot GoBot-L3_3 takes the free seat of game 2"
    );
    copycat.send("SET_CONFIG+2+1+5");
    copycat.expect(&format!(
        "ACKNOWLEDGE_CONFIG+GoBot-L3_2+1+5+PLAYING;1;{}+GoBot-L3_3",
        empty(5)
    ));

    // Ann (white) plays the bot to the end of a 2x2 game: the bot opens.
    let mut ann = ann;
    ann.send("SET_CONFIG+1+2+2");
    let mut game = Scripted::new(
        ann,
        "Ann",
        1,
        Colour::White,
        "GoBot-L3",
        2,
        Rules::default(),
        10,
        1,
        Policy::Polite,
    );
    game.expect_config();
    until_players(&server, "1", "Ann (white) vs GoBot-L3 (black)");
    until_players(&server, "2", "GoBot-L3_2 (black) vs GoBot-L3_3 (white)");
    let players = console(&server, "players");
    let bots: Vec<Vec<&str>> = players
        .lines()
        .filter(|l| l.contains("(bot)"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        bots,
        [
            ["GoBot-L3", "go", "(bot)", "playing", "1", "-", "-", "-"],
            ["GoBot-L3_3", "go", "(bot)", "playing", "2", "-", "-", "-"]
        ],
        "{players}"
    );
    assert_eq!(
        console(&server, "kick GoBot-L3"),
        "GoBot-L3 is the server's practice bot in game 1: it has no connection ('kick 1' kicks its opponent)"
    );
    let end = game.play_round();
    assert!(end.by_passes);
    game.client.send("SET_REMATCH+0");
    game.client.expect("ACKNOWLEDGE_REMATCH+0");
    let record = server.go().record("1").expect("a record");
    assert!(record.text.contains("PB[GoBot-L3]"), "{}", record.text);
    assert!(record.text.contains("PW[Ann]"), "{}", record.text);
    // Its name is free again once its game has ended: Ann may take it.
    let deadline = Instant::now() + PATIENCE;
    while server.go().bots().len() > 1 {
        assert!(
            Instant::now() < deadline,
            "the bot of game 1 is still seated"
        );
        thread::sleep(Duration::from_millis(5));
    }
    game.client.send("HANDSHAKE+GoBot-L3");
    game.client.expect("ACKNOWLEDGE_HANDSHAKE+3+1");
    game.client.expect(&request_config(3));
    assert!(server.go().seat_bot("3", None).is_ok());
    game.client.send("SET_CONFIG+3+1+2");
    game.client.expect(&format!(
        "ACKNOWLEDGE_CONFIG+GoBot-L3+1+2+PLAYING;1;{}+GoBot-L3_4",
        empty(2)
    ));
}

#[test]
fn the_bot_says_yes_to_every_rematch_and_the_client_decides() {
    let server = TestServer::with(Settings {
        bot_playouts: Some(16),
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+1+3");
    assert!(server.go().seat_bot("1", None).is_ok());
    let mut game = Scripted::new(
        ann,
        "Ann",
        1,
        Colour::Black,
        "GoBot-L3",
        3,
        Rules::default(),
        10,
        5,
        Policy::Polite,
    );
    game.expect_config();
    for _ in 0..3 {
        game.play_round();
        // Nothing comes before the client's answer: the bot's yes is silent.
        game.client.send("SET_REMATCH+1");
        game.client.expect("ACKNOWLEDGE_REMATCH+1");
        game.expect_config();
    }
    game.play_round();
    game.client.send("SET_REMATCH+0");
    game.client.expect("ACKNOWLEDGE_REMATCH+0");
    game.client.send("HANDSHAKE+Ann");
    game.client.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
}

#[test]
fn the_clients_move_timeout_holds_and_the_bot_never_runs_out_of_time() {
    let server = TestServer::with(Settings {
        move_timeout: Some(Duration::from_secs(3)),
        bot_think: FOREVER,
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+1+5");
    assert!(server.go().seat_bot("1", None).is_ok());
    ann.expect(&format!(
        "ACKNOWLEDGE_CONFIG+Ann+1+5+PLAYING;1;{}+GoBot-L3",
        empty(5)
    ));
    ann.send("MOVE+1+Ann+12");
    ann.expect(&format!(
        "ACKNOWLEDGE_MOVE+1+12;1+PLAYING;2;{}",
        board(5, &[(12, '1')])
    ));
    // With a 3 s move timeout the bot thinks half of it, not a minute.
    let reply = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+");
    assert!(reply.contains(";2+PLAYING;1;"), "{reply}");
    // Ann lets her clock run out: she loses, as against a client.
    let finished = ann.expect_prefix("GAME_FINISHED+1+GoBot-L3+");
    assert!(
        finished.ends_with("+Ann did not move within 3 s: GoBot-L3 wins"),
        "{finished}"
    );
}

#[test]
fn a_kick_during_the_bots_thinking_ends_the_game_at_once() {
    let server = TestServer::with(Settings {
        bot_think: FOREVER,
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+1+9");
    assert!(server.go().seat_bot("1", None).is_ok());
    ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+1+9+");
    ann.send("MOVE+1+Ann+40");
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+40;1+");
    // The game answers the console while its bot thinks.
    let drawing = server.go().board("1").expect("a board");
    assert!(drawing.contains("to move: GoBot-L3 (white)"), "{drawing}");
    assert_eq!(
        console(&server, "kick Ann").split(' ').next(),
        Some("kicked")
    );
    // Black's one stone has the whole board as its area.
    ann.expect("GAME_FINISHED+1+GoBot-L3+81;0+Ann was kicked by operator: GoBot-L3 wins");
    ann.expect_closed();
    until_no_bot(&server);
}

#[test]
fn an_exit_during_the_bots_thinking_ends_the_game_at_once() {
    let server = TestServer::with(Settings {
        bot_think: FOREVER,
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+2+9");
    assert!(server.go().seat_bot("1", None).is_ok());
    ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+2+9+");
    // The bot is black: it thinks from the start.
    ann.send("EXIT+1+Ann");
    ann.expect("GAME_FINISHED+1+GoBot-L3+0;0+Ann exited: GoBot-L3 wins");
    ann.expect_closed();
    until_no_bot(&server);
    let mut bob = server.connect();
    bob.send("HANDSHAKE+GoBot-L3");
    bob.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
}

#[test]
fn a_shutdown_during_the_bots_thinking_ends_the_game_at_once() {
    let mut server = TestServer::with(Settings {
        bot_think: FOREVER,
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+2+19");
    assert!(server.go().seat_bot("1", None).is_ok());
    ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+2+19+");
    let started = Instant::now();
    server.stop();
    let took = started.elapsed();
    ann.expect("GAME_FINISHED+1++0;0+server shutting down");
    ann.expect_closed();
    // Far less than the bot's minute of thinking: the server did not wait for it.
    assert!(took < FOREVER / 2, "the shutdown took {took:?}");
}

#[test]
fn exactly_one_of_the_bot_and_a_client_arriving_together_is_seated() {
    let mut outcomes = [0usize; 2];
    for round in 0..30 {
        // Half the rounds race the console's `bot`, half the `--bot-after` clock.
        let by_clock = round % 2 == 1;
        let wait = Duration::from_millis(20);
        let server = TestServer::with(Settings {
            bot_after: by_clock.then_some(wait),
            ..Settings::default()
        });
        let mut ann = leader(&server, 1, "Ann");
        let mut bob = server.connect();
        let go = Arc::clone(server.go());
        let barrier = Arc::new(Barrier::new(2));
        let seat = {
            let barrier = Arc::clone(&barrier);
            thread::spawn(move || {
                barrier.wait();
                (!by_clock).then(|| go.seat_bot("1", None))
            })
        };
        barrier.wait();
        if by_clock {
            // Around the moment the clock runs out (the handshake arrived at most a
            // few ms ago): sometimes before, sometimes after.
            thread::sleep(wait - Duration::from_millis(2) + Duration::from_micros(round * 300));
        }
        bob.send("HANDSHAKE+Bob");
        let answer = bob.recv();
        let console = seat.join().expect("the seating thread");
        ann.send("SET_CONFIG+1+1+2");
        let config = ann.recv();
        let state = format!("PLAYING;1;{}", empty(2));
        if answer == "ACKNOWLEDGE_HANDSHAKE+1+0" {
            // Bob is the partner: the bot stays out.
            assert_eq!(config, format!("ACKNOWLEDGE_CONFIG+Ann+1+2+{state}+Bob"));
            if let Some(refused) = console {
                let refused = refused.expect_err("Bob has the seat");
                assert!(refused.starts_with("game 1 already has two players ("));
            }
            assert!(server.go().bots().is_empty());
            outcomes[0] += 1;
        } else {
            // The bot is the partner: Bob leads a game of his own.
            assert_eq!(answer, "ACKNOWLEDGE_HANDSHAKE+2+1");
            bob.expect(&request_config(2));
            assert_eq!(
                config,
                format!("ACKNOWLEDGE_CONFIG+Ann+1+2+{state}+GoBot-L3")
            );
            if let Some(seated) = console {
                assert_eq!(
                    seated,
                    Ok("the practice bot GoBot-L3 takes the free seat of game 1".to_string())
                );
            }
            outcomes[1] += 1;
        }
    }
    println!(
        "of 30 races, {} went to the client and {} to the bot",
        outcomes[0], outcomes[1]
    );
    assert_eq!(outcomes[0] + outcomes[1], 30);
}

#[test]
fn the_same_seed_gives_the_same_colour_and_the_same_game() {
    let play = |seed: u64| {
        let server = TestServer::with(Settings {
            seed: Some(seed),
            config_timeout: Some(Duration::from_millis(100)),
            bot_playouts: Some(32),
            bot_think: FOREVER,
            ..Settings::default()
        });
        let mut ann = leader(&server, 1, "Ann");
        assert!(server.go().seat_bot("1", None).is_ok());
        // No SET_CONFIG: the defaults apply, with a colour drawn from the seed.
        let config = ann.recv();
        let state = format!("PLAYING;1;{}", empty(9));
        let colour = if config == format!("ACKNOWLEDGE_CONFIG+Ann+1+9+{state}+GoBot-L3") {
            Colour::Black
        } else {
            assert_eq!(
                config,
                format!("ACKNOWLEDGE_CONFIG+Ann+2+9+{state}+GoBot-L3")
            );
            Colour::White
        };
        let rules = Rules::default();
        let mut game = Scripted::new(
            ann,
            "Ann",
            1,
            colour,
            "GoBot-L3",
            9,
            rules,
            10,
            3,
            Policy::Polite,
        );
        game.play_round();
        (colour, game.game.moves().to_vec())
    };
    let (colour, moves) = play(42);
    assert_eq!(play(42), (colour, moves.clone()));
    println!("seed 42: Ann played {colour}, {} moves", moves.len());
}
