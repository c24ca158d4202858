//! `goserver play`: the project's own client finishes games against goserver, as a
//! correct client: every game it was asked for, exit status 0, and a clean report card.

mod common;

use common::{PATIENCE, TestServer};
use goserver::front::Front;
use goserver::server::Protocol;
use goserver::settings::Settings;
use std::process::{Command, Output};
use std::time::Duration;

/// Runs `goserver play` with `args`; its output.
fn play(args: &[&str]) -> std::thread::JoinHandle<Output> {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    std::thread::spawn(move || {
        Command::new(env!("CARGO_BIN_EXE_goserver"))
            .arg("play")
            .args(&args)
            .output()
            .expect("goserver play runs")
    })
}

fn finished(handle: std::thread::JoinHandle<Output>) -> String {
    let output = handle.join().expect("the client's thread");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    assert!(
        output.status.success(),
        "exit {:?}\n{stdout}\n{stderr}",
        output.status.code()
    );
    assert_eq!(
        stderr, "",
        "a correct client against a correct server reports no problem"
    );
    stdout
}

fn mistakes(server: &TestServer, front: Front, name: &str) -> u64 {
    server
        .server
        .cards
        .find(front, name)
        .map_or(u64::MAX, |card| card.view().mistakes_total)
}

#[test]
fn two_go_clients_play_their_games_and_rematches_against_goserver() {
    let server = TestServer::start();
    let address = server.addr.to_string();
    let common = ["--think", "20", "--size", "5", "--seed", "4"];
    let ann = play(
        &[
            &[
                "go", &address, "--name", "Ann", "--games", "3", "--colour", "black",
            ][..],
            &common,
        ]
        .concat(),
    );
    // Bob connects once Ann leads game 1, so that she is the leader who asks for black.
    let deadline = std::time::Instant::now() + PATIENCE;
    while !server
        .go()
        .clients()
        .iter()
        .any(|c| c.name.as_deref() == Some("Ann"))
    {
        assert!(std::time::Instant::now() < deadline, "Ann never led game 1");
        std::thread::sleep(Duration::from_millis(10));
    }
    let bob = play(
        &[
            &["go", &address, "--name", "Bob", "--games", "3"][..],
            &common,
        ]
        .concat(),
    );
    let (ann, bob) = (finished(ann), finished(bob));
    for (out, name) in [(&ann, "Ann"), (&bob, "Bob")] {
        assert!(out.contains("game 3 of 3: "), "{name}:\n{out}");
        assert_eq!(mistakes(&server, Front::Go, name), 0, "{name}'s card");
    }
    assert!(
        ann.contains("game 1: Ann plays black on 5x5 against Bob"),
        "{ann}"
    );
    assert_eq!(
        server.server.results.recent(10).len(),
        3,
        "three games filed"
    );
}

#[test]
fn a_go_client_alone_meets_the_practice_bot_and_a_declined_rematch_matches_it_anew() {
    let server = TestServer::with(Settings {
        bot_after: Some(Duration::from_millis(200)),
        bot_think: Duration::from_millis(20),
        seed: Some(2),
        ..Settings::default()
    });
    let address = server.addr.to_string();
    let out = finished(play(&[
        "go",
        &address,
        "--name",
        "Cat",
        "--games",
        "2",
        "--size",
        "5",
        "--think",
        "20",
        "--patience",
        "20",
    ]));
    assert!(out.contains("against GoBot"), "{out}");
    assert!(out.contains("game 2 of 2: "), "{out}");
    assert_eq!(mistakes(&server, Front::Go, "Cat"), 0);
}

#[test]
fn two_spectrangle_clients_play_their_games_against_goserver() {
    let server = TestServer::serving(
        Settings {
            seed: Some(6),
            ..Settings::default()
        },
        &[Protocol::Spectrangle],
    );
    let address = server.addr.to_string();
    // Fixed seeds: the same moves on every run (SpectraBot stops at its own cap of
    // simulated games long before the deadline).
    let common = ["--games", "2", "--think", "60000"];
    let dan = play(
        &[
            &["spectrangle", &address, "--name", "Dan", "--seed", "9"][..],
            &common,
        ]
        .concat(),
    );
    let eve = play(
        &[
            &["spectrangle", &address, "--name", "Eve", "--seed", "109"][..],
            &common,
        ]
        .concat(),
    );
    let (dan, eve) = (finished(dan), finished(eve));
    for (out, name) in [(&dan, "Dan"), (&eve, "Eve")] {
        assert!(out.contains("game 2 of 2: "), "{name}:\n{out}");
        assert_eq!(
            mistakes(&server, Front::Spectrangle, name),
            0,
            "{name}'s card"
        );
    }
}

#[test]
fn a_server_that_is_not_there_is_exit_status_2_and_one_that_closes_is_1() {
    let nobody = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = nobody.local_addr().expect("addr").to_string();
    drop(nobody);
    let output = Command::new(env!("CARGO_BIN_EXE_goserver"))
        .args(["play", "go", &address])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .starts_with(&format!("goserver play: cannot connect to {address}"))
    );

    // A server that accepts, reads the HANDSHAKE and hangs up.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = listener.local_addr().expect("addr").to_string();
    let closer = std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("a client");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(&stream), &mut line);
        line
    });
    let output = Command::new(env!("CARGO_BIN_EXE_goserver"))
        .args(["play", "go", &address, "--name", "Ann"])
        .output()
        .expect("runs");
    assert_eq!(
        closer.join().expect("the server's thread"),
        "HANDSHAKE+Ann\n"
    );
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the server closed the connection"),
        "{stderr}"
    );
    assert!(stderr.contains("after 0 of 1 games"), "{stderr}");
}
