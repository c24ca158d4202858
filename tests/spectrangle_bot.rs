//! The Spectrangle practice bot over real TCP: a lone player who is ready gets it after
//! `--spectrangle-bot-after`, the console seats it in a lobby, and it refuses what it
//! cannot join. Every game is followed line by line by the tests' referee (`Watch`),
//! which checks each of the bot's turns against the rules.

mod common;
mod spectrangle_support;

use common::{Client, PATIENCE, TestServer};
use goserver::console::{Console, Outcome};
use goserver::server::Protocol;
use goserver::settings::Settings;
use spectrangle_support::Watch;
use std::time::{Duration, Instant};

fn server(settings: Settings) -> TestServer {
    TestServer::serving(
        Settings {
            seed: Some(5),
            bot_playouts: Some(24),
            ..settings
        },
        &[Protocol::Spectrangle],
    )
}

fn console(server: &TestServer, line: &str) -> String {
    match Console::new(&server.server).execute(line) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// Plays `ann`'s game against the bot to its SCORE: the referee follows every turn,
/// Ann plays hers. Returns the SCORE line.
fn play_to_the_end(ann: &mut Client) -> String {
    let mut watch = Watch::start(ann, 2);
    assert!(
        watch.order.contains(&"SpectraBot".to_string()),
        "{:?}",
        watch.order
    );
    let mut turn = 0;
    while !watch.is_over() {
        assert!(turn < 500, "the game does not end");
        if watch.to_move() == "Ann" {
            let (command, update) = watch.choose(turn, false);
            ann.send(&command);
            assert_eq!(watch.follow_turn(ann), update);
        } else {
            // The bot's turn: whatever it played, the referee checks it is legal.
            let update = watch.follow_turn(ann);
            assert!(update.starts_with("UPDATE SpectraBot"), "{update}");
        }
        turn += 1;
    }
    let score = watch.score();
    ann.expect(&score);
    score
}

#[test]
fn a_lone_player_who_is_ready_gets_the_bot_and_plays_to_score() {
    let server = server(Settings {
        spectrangle_bot_after: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    let mut ann = Client::connect(server.addr_of(Protocol::Spectrangle));
    ann.ask("JOIN Ann", "LOBBY Ann");
    let ready = Instant::now();
    ann.send("READY");
    ann.expect("LOBBY Ann SpectraBot");
    assert!(ready.elapsed() >= Duration::from_millis(900), "too soon");
    let score = play_to_the_end(&mut ann);
    assert!(score.contains("SpectraBot,"), "{score}");
    // The players are free again: Ann may join anew, and the bot's name is free.
    ann.ask("JOIN Ann", "LOBBY Ann");
}

#[test]
fn a_player_who_is_not_ready_is_not_joined_by_the_bot() {
    let server = server(Settings {
        spectrangle_bot_after: Some(Duration::from_millis(300)),
        ..Settings::default()
    });
    let mut ann = Client::connect(server.addr_of(Protocol::Spectrangle));
    ann.ask("JOIN Ann", "LOBBY Ann");
    std::thread::sleep(Duration::from_millis(900));
    // Nothing came: EXTENSIONS is answered next, not a LOBBY line.
    ann.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
}

#[test]
fn the_console_seats_the_bot_in_a_lobby_and_says_why_not_elsewhere() {
    let server = server(Settings::default());
    let spectrangle = server.addr_of(Protocol::Spectrangle);
    assert_eq!(
        console(&server, "bot s9"),
        "no game s9: type 'games' to list them"
    );
    let mut ann = Client::connect(spectrangle);
    ann.ask("JOIN Ann", "LOBBY Ann");
    assert_eq!(
        console(&server, "bot s1"),
        "the practice bot SpectraBot joins the lobby of game s1, ready"
    );
    ann.expect("LOBBY Ann SpectraBot");
    // A second bot: the name is granted like any name.
    assert_eq!(
        console(&server, "bot s1"),
        "the practice bot SpectraBot_2 joins the lobby of game s1, ready"
    );
    ann.expect("LOBBY Ann SpectraBot SpectraBot_2");
    let players = console(&server, "players");
    assert!(players.contains("SpectraBot_2"), "{players}");
    assert_eq!(
        console(&server, "bot s1"),
        "the practice bot SpectraBot_3 joins the lobby of game s1, ready"
    );
    ann.expect("LOBBY Ann SpectraBot SpectraBot_2 SpectraBot_3");
    assert_eq!(
        console(&server, "bot s1"),
        "lobby default (s1) is full: 4 players already"
    );
    // Ann is ready: the game of four starts; the table is no lobby any more.
    ann.send("READY");
    ann.expect_prefix("START ");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer = console(&server, "bot s1");
        if answer == "game s1 is being played: the practice bot joins a lobby waiting for players"
            || Instant::now() > deadline
        {
            assert_eq!(
                answer,
                "game s1 is being played: the practice bot joins a lobby waiting for players"
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Ann leaves: the game ends (its SCORE is the bots' business), the table is gone.
    ann.send("EXIT");
    let deadline = Instant::now() + PATIENCE;
    let answer = loop {
        let answer = console(&server, "bot s1");
        if answer.contains("has ended") || Instant::now() > deadline {
            break answer;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(
        answer,
        "game s1 has ended: the practice bot joins a lobby waiting for players"
    );
}

#[test]
fn a_lobby_whose_clients_all_leave_closes_and_frees_the_bot_s_name() {
    let server = server(Settings::default());
    let spectrangle = server.addr_of(Protocol::Spectrangle);
    let mut ann = Client::connect(spectrangle);
    ann.ask("JOIN Ann", "LOBBY Ann");
    console(&server, "bot s1");
    ann.expect("LOBBY Ann SpectraBot");
    // EXIT has no answer: EXTENSIONS, answered after it, says it has been handled
    // (the lobby closed) before Bob comes.
    ann.send("EXIT");
    ann.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
    // A new lobby: the bot's name is free again.
    let mut bob = Client::connect(spectrangle);
    bob.ask("JOIN Bob", "LOBBY Bob");
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer = console(&server, "bot s2");
        if answer.contains("SpectraBot ") || Instant::now() > deadline {
            assert_eq!(
                answer,
                "the practice bot SpectraBot joins the lobby of game s2, ready"
            );
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    bob.expect("LOBBY Bob SpectraBot");
}
