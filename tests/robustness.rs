//! Never lose, never stall: limits, timeouts, pacing, many games at once.

mod common;

use common::*;
use goserver::settings::Settings;
use std::io::Write;
use std::time::{Duration, Instant};

#[test]
fn clients_beyond_the_limit_are_refused_with_a_line() {
    let server = TestServer::with(Settings {
        max_clients: 2,
        ..Settings::default()
    });
    let mut a = server.connect();
    let mut b = server.connect();
    a.ask("HELLO", "UNKNOWN_COMMAND+Unknown command 'HELLO': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT");
    b.ask("HELLO", "UNKNOWN_COMMAND+Unknown command 'HELLO': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT");
    let mut c = server.connect();
    c.expect("UNKNOWN_COMMAND+The server is full (2 clients connected): try again later");
    c.expect_closed();
}

#[test]
fn a_client_that_never_identifies_is_closed() {
    let server = TestServer::with(Settings {
        handshake_timeout: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    let mut c = server.connect();
    c.expect("UNKNOWN_COMMAND+No HANDSHAKE within 1 s: closing the connection");
    c.expect_closed();
}

#[test]
fn a_flood_without_newline_is_cut_off_and_its_game_ends() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    let flood = vec![b'z'; 200_000];
    // The server closes mid-flood; the write may fail then.
    let _ = bob.stream.write_all(&flood);
    ann.expect("GAME_FINISHED+1+Ann+0;0+Bob was disconnected: it sent more than 65536 bytes without a newline: Ann wins");
}

#[test]
fn a_client_in_an_error_loop_is_paced_but_every_line_is_answered() {
    let server = TestServer::start();
    let mut c = server.connect();
    let burst = 120;
    let started = Instant::now();
    c.send_raw("NOPE\n".repeat(burst).as_bytes());
    for _ in 0..burst {
        c.expect("UNKNOWN_COMMAND+Unknown command 'NOPE': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT");
    }
    // About 20 free, then about 100 a second: a lower bound only, never an upper one.
    assert!(
        started.elapsed() >= Duration::from_millis(800),
        "not paced: {:?}",
        started.elapsed()
    );
    c.send("HANDSHAKE+Ann");
    c.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
}

#[test]
fn a_client_that_stops_reading_does_not_stall_its_game_or_others() {
    let server = TestServer::start();
    let (mut ann, bob) = start_game(&server, 1, 9);
    let (mut cat, mut dan) = start_named(&server, 2, 9, "Cat", "Dan");
    // Bob never reads again; Ann and the other game go on at full speed.
    let _silent = bob;
    ann.send("MOVE+1+Ann+40");
    ann.expect(&format!(
        "ACKNOWLEDGE_MOVE+1+40;1+PLAYING;2;{}",
        board(9, &[(40, '1')])
    ));
    for (i, index) in [0usize, 1, 2, 3, 4, 5].iter().enumerate() {
        let (mover, colour) = if i % 2 == 0 {
            (&mut cat, 1)
        } else {
            (&mut dan, 2)
        };
        let name = if colour == 1 { "Cat" } else { "Dan" };
        mover.send(&format!("MOVE+2+{name}+{index}"));
        let line = cat.expect_prefix(&format!("ACKNOWLEDGE_MOVE+2+{index};{colour}+"));
        assert_eq!(dan.recv(), line);
    }
}

#[test]
fn a_hundred_games_at_once_each_to_two_passes() {
    let server = TestServer::start();
    let addr = server.addr;
    let clients: Vec<_> = (0..200)
        .map(|n| std::thread::spawn(move || play_to_two_passes(addr, &format!("p{n}"))))
        .collect();
    let mut games = std::collections::HashMap::new();
    for client in clients {
        let (id, colour) = client.join().expect("client thread");
        games.entry(id).or_insert_with(Vec::new).push(colour);
    }
    assert_eq!(games.len(), 100);
    assert!(
        games
            .values()
            .all(|c| c.len() == 2 && c.contains(&1) && c.contains(&2))
    );
}

/// One client of the hundred-game test: handshake, configure if leader, black plays
/// the centre, white passes, black passes; checks every line; returns (game, colour).
fn play_to_two_passes(addr: std::net::SocketAddr, name: &str) -> (u32, u8) {
    let mut c = Client::connect(addr);
    c.send(&format!("HANDSHAKE+{name}"));
    let ack = c.expect_prefix("ACKNOWLEDGE_HANDSHAKE+");
    let fields: Vec<&str> = ack.split('+').collect();
    let id: u32 = fields[1].parse().expect("game id");
    if fields[2] == "1" {
        c.expect(&request_config(id));
        c.send(&format!("SET_CONFIG+{id}+1+5"));
    }
    let config = c.expect_prefix(&format!("ACKNOWLEDGE_CONFIG+{name}+"));
    let fields: Vec<&str> = config.split('+').collect();
    assert_eq!(fields.len(), 6, "{config}");
    assert_eq!(fields[3], "5");
    assert_eq!(fields[4], format!("PLAYING;1;{}", empty(5)));
    let colour: u8 = fields[2].parse().expect("colour");
    let opponent = fields[5].to_string();
    let (black, centre) = (
        if colour == 1 {
            name.to_string()
        } else {
            opponent
        },
        board(5, &[(12, '1')]),
    );
    if colour == 1 {
        c.send(&format!("MOVE+{id}+{name}+12"));
    }
    c.expect(&format!("ACKNOWLEDGE_MOVE+{id}+12;1+PLAYING;2;{centre}"));
    if colour == 2 {
        c.send(&format!("MOVE+{id}+{name}+-1"));
    }
    c.expect(&format!("ACKNOWLEDGE_MOVE+{id}+-1;2+PLAYING;1;{centre}"));
    if colour == 1 {
        c.send(&format!("PASS+{id}+{name}"));
    }
    c.expect(&format!("ACKNOWLEDGE_MOVE+{id}+-1;1+FINISHED;2;{centre}"));
    c.expect(&format!(
        "GAME_FINISHED+{id}+{black}+25;0+Both players passed. Area score: black 25, white 0 (komi 0): {black} wins"
    ));
    c.expect("REQUEST_REMATCH");
    c.send("SET_REMATCH+0");
    c.expect("ACKNOWLEDGE_REMATCH+0");
    (id, colour)
}

#[test]
fn a_client_that_closes_its_sending_side_still_gets_its_answers() {
    let server = TestServer::start();
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.stream
        .shutdown(std::net::Shutdown::Write)
        .expect("half-close");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    ann.expect(REQUEST_CONFIG_1);
    ann.expect_closed();
}

#[test]
fn after_a_game_the_handshake_timeout_runs_from_its_end() {
    let server = TestServer::with(Settings {
        handshake_timeout: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    bob.send("EXIT+1+Bob");
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+0;0+Bob exited: Ann wins",
    );
    // Within the test's patience (20 s), not after the in-game read bound (60 s); and
    // told what happened: it is idle after its game, not a client that never said hello.
    ann.expect(
        "UNKNOWN_COMMAND+No new HANDSHAKE within 1 s after your game: closing the connection",
    );
    ann.expect_closed();
}

#[test]
fn timeouts_beyond_any_clock_mean_no_timeout() {
    let server = TestServer::with(Settings {
        handshake_timeout: Some(Duration::MAX),
        config_timeout: Some(Duration::MAX),
        move_timeout: Some(Duration::MAX),
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    ann.send("MOVE+1+Ann+0");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_MOVE+1+0;1+PLAYING;2;1000");
}

#[test]
fn a_client_that_floods_without_reading_is_dropped_and_its_partner_wins() {
    let server = TestServer::start();
    let (mut ann, bob) = start_game(&server, 1, 19);
    small_receive_buffer(&bob.stream);
    // Bob sends move after move out of turn and never reads an answer. Each is refused
    // (paced to about 100 a second after the first 20), so the refusals pile up: first
    // in his receive window, then in the server's bounded send buffer, then in his
    // outbox, where 5 s without progress drop him.
    let mut flood = bob.stream.try_clone().expect("clone");
    let flooder = std::thread::spawn(move || {
        use std::io::Write;
        let line = b"MOVE+1+Bob+0\n".repeat(64);
        // Ends when the connection is closed.
        while flood.write_all(&line).is_ok() {}
    });
    // The drop comes some 14 s after the flood begins (refusals filling the buffers,
    // then 5 s without progress), 14 to 15 s beside two CPU-bound loops: Ann waits up
    // to two minutes for the end of the game (the read returns as soon as it comes).
    ann.stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("timeout");
    let finished = ann.recv();
    assert!(
        finished.starts_with("GAME_FINISHED+1+Ann+")
            && finished
                .ends_with("+Bob was disconnected: it did not read its output for 5 s: Ann wins"),
        "{finished}"
    );
    // Bob's connection is closed from this side too: a write into a connection the
    // server has dropped can wait for TCP's retransmission timeouts (13 s more beside
    // two CPU-bound loops, minutes at worst), as nothing reads the other end any more.
    let _ = bob.stream.shutdown(std::net::Shutdown::Both);
    flooder.join().expect("the flood ends with the connection");
    drop(bob);
}
