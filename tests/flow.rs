//! The GO! flow end to end over real TCP: both players' views of every step.

mod common;

use common::*;
use goserver::settings::Settings;
use std::time::Duration;

#[test]
fn a_whole_game_with_a_capture_then_two_passes_and_no_rematch() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 5);
    ann.send("MOVE+1+Ann+1");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+1;1+PLAYING;2;{}", board(5, &[(1, '1')])),
    );
    bob.send("MOVE+1+Bob+0");
    both(
        &mut ann,
        &mut bob,
        &format!(
            "ACKNOWLEDGE_MOVE+1+0;2+PLAYING;1;{}",
            board(5, &[(0, '2'), (1, '1')])
        ),
    );
    // Black at 5 takes white's last liberty: the stone at 0 is captured.
    ann.send("MOVE+1+Ann+5");
    let after_capture = board(5, &[(1, '1'), (5, '1')]);
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+5;1+PLAYING;2;{after_capture}"),
    );
    bob.send("MOVE+1+Bob+-1");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;{after_capture}"),
    );
    // The draft protocol's PASS is the same move.
    ann.send("PASS+1+Ann");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+-1;1+FINISHED;2;{after_capture}"),
    );
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+25;0+Both players passed. Area score: black 25, white 0 (komi 0): Ann wins",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    ann.send("SET_REMATCH+1");
    // Lines of one client are handled in order: this refusal proves the yes is in.
    ann.ask(
        "SET_REMATCH+1",
        "UNKNOWN_COMMAND+You already answered the rematch request",
    );
    bob.send("SET_REMATCH+0");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+0");
    // Out of the game, both may be matched again.
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
    ann.expect(&request_config(2));
}

#[test]
fn rematch_yes_yes_restarts_with_the_same_id_size_and_colours() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    ann.send("MOVE+1+Ann+4");
    let centre = board(3, &[(4, '1')]);
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;{centre}"),
    );
    bob.send("MOVE+1+Bob+-1");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;{centre}"),
    );
    ann.send("MOVE+1+Ann+-1");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+-1;1+FINISHED;2;{centre}"),
    );
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+9;0+Both players passed. Area score: black 9, white 0 (komi 0): Ann wins",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    ann.send("SET_REMATCH+1");
    bob.send("SET_REMATCH+1");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+1");
    expect_configs(&mut ann, "Ann", 1, &mut bob, "Bob", 3);
    ann.send("MOVE+1+Ann+0");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+0;1+PLAYING;2;{}", board(3, &[(0, '1')])),
    );
}

#[test]
fn an_unanswered_rematch_times_out_as_no() {
    let server = TestServer::with(Settings {
        rematch_timeout: Some(Duration::from_millis(300)),
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1++0;0+Both players passed. Area score: black 0, white 0 (komi 0): a draw",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    ann.send("SET_REMATCH+1");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+0");
}

#[test]
fn fractional_komi_is_sent_with_one_decimal() {
    let server = TestServer::with(Settings {
        rules: goserver::engine::go::Rules {
            komi: goserver::engine::go::Komi::from_halves(13),
            ..Default::default()
        },
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Bob+0;6.5+Both players passed. Area score: black 0, white 6.5 (komi 6.5): Bob wins",
    );
}

#[test]
fn config_may_come_after_the_partner_arrives_and_white_is_honoured() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let mut bob = partner(&server, 1, "Bob");
    // Nothing can be played before the configuration.
    bob.ask(
        "MOVE+1+Bob+0",
        "INVALID_MOVE+Game 1 has not started yet: waiting for the leader's SET_CONFIG",
    );
    // Only the leader configures; nothing starts.
    bob.ask(
        "SET_CONFIG+1+1+9",
        "UNKNOWN_COMMAND+Only the leader of game 1, Ann, sends SET_CONFIG",
    );
    // A bad size: the reason, and the request again.
    ann.send("SET_CONFIG+1+2+30");
    ann.expect("UNKNOWN_COMMAND+SET_CONFIG: board size must be from 2 to 19, got 30");
    ann.expect(REQUEST_CONFIG_1);
    // The spec example's short form is rejected with the full form spelled out.
    ann.send("SET_CONFIG+2+9");
    ann.expect("UNKNOWN_COMMAND+Expected 4 fields joined by plus signs (SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size), got 3");
    ann.expect(REQUEST_CONFIG_1);
    ann.send("SET_CONFIG+7+2+9");
    ann.expect("UNKNOWN_COMMAND+SET_CONFIG: wrong game id: you are in game 1, got 7");
    ann.expect(REQUEST_CONFIG_1);
    ann.send("SET_CONFIG+1+2+9");
    expect_configs(&mut ann, "Ann", 2, &mut bob, "Bob", 9);
    ann.ask(
        "SET_CONFIG+1+1+9",
        "UNKNOWN_COMMAND+Game 1 is already configured (9x9)",
    );
}

#[test]
fn without_config_in_time_the_defaults_apply() {
    let server = TestServer::with(Settings {
        config_timeout: Some(Duration::from_millis(300)),
        ..Settings::default()
    });
    let mut ann = leader(&server, 1, "Ann");
    let mut bob = partner(&server, 1, "Bob");
    let state = format!("PLAYING;1;{}", empty(9));
    let ann_config = ann.recv();
    let bob_config = bob.recv();
    let (ann_colour, bob_colour) = if ann_config.contains("+Ann+1+") {
        (1, 2)
    } else {
        (2, 1)
    };
    assert_eq!(
        ann_config,
        format!("ACKNOWLEDGE_CONFIG+Ann+{ann_colour}+9+{state}+Bob")
    );
    assert_eq!(
        bob_config,
        format!("ACKNOWLEDGE_CONFIG+Bob+{bob_colour}+9+{state}+Ann")
    );
    // Ann's answer to her REQUEST_CONFIG comes after the defaults: taken quietly (it
    // may have crossed the clock on the wire). A second one answers nothing.
    ann.send("SET_CONFIG+1+1+5");
    ann.ask(
        "SET_CONFIG+1+1+5",
        "UNKNOWN_COMMAND+Game 1 is already configured (9x9: no SET_CONFIG came in time, so the defaults apply)",
    );
}

#[test]
fn names_in_use_are_granted_with_a_suffix() {
    let server = TestServer::start();
    let (mut first, mut second) = start_named(&server, 1, 3, "Bob", "Bob_2x");
    let (mut third, mut fourth) = {
        let mut a = server.connect();
        a.send("HANDSHAKE+Bob");
        a.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
        a.expect(&request_config(2));
        a.send("SET_CONFIG+2+1+3");
        let mut b = server.connect();
        b.send("HANDSHAKE+Bob");
        b.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
        let state = format!("PLAYING;1;{}", empty(3));
        a.expect(&format!("ACKNOWLEDGE_CONFIG+Bob_2+1+3+{state}+Bob_3"));
        b.expect(&format!("ACKNOWLEDGE_CONFIG+Bob_3+2+3+{state}+Bob_2"));
        (a, b)
    };
    // The granted name is the one MOVE must carry.
    third.ask(
        "MOVE+2+Bob+0",
        "INVALID_MOVE+MOVE: wrong player name: you are Bob_2, got Bob",
    );
    third.send("MOVE+2+Bob_2+0");
    both(
        &mut third,
        &mut fourth,
        &format!("ACKNOWLEDGE_MOVE+2+0;1+PLAYING;2;{}", board(3, &[(0, '1')])),
    );
    first.send("MOVE+1+Bob+4");
    both(
        &mut first,
        &mut second,
        &format!("ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;{}", board(3, &[(4, '1')])),
    );
}

#[test]
fn exit_ends_the_game_for_the_other_player_and_closes_the_exiting_connection() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    ann.send("MOVE+1+Ann+4");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+4;1+PLAYING;2;{}", board(3, &[(4, '1')])),
    );
    bob.ask(
        "EXIT+1+Ann",
        "UNKNOWN_COMMAND+EXIT: wrong player name: you are Bob, got Ann",
    );
    bob.ask(
        "EXIT+2+Bob",
        "UNKNOWN_COMMAND+EXIT: wrong game id: you are in game 1, got 2",
    );
    bob.send("EXIT+1+Bob");
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+9;0+Bob exited: Ann wins",
    );
    bob.expect_closed();
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
}

#[test]
fn a_disconnect_is_an_exit() {
    let server = TestServer::start();
    let (mut ann, bob) = start_game(&server, 1, 3);
    drop(bob);
    ann.expect("GAME_FINISHED+1+Ann+0;0+Bob disconnected: Ann wins");
}

#[test]
fn a_partner_whose_leader_leaves_leads_a_new_game() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let mut bob = partner(&server, 1, "Bob");
    ann.send("EXIT+1+Ann");
    ann.expect_closed();
    bob.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
    bob.expect(&request_config(2));
    bob.send("SET_CONFIG+2+2+5");
    let mut cat = partner(&server, 2, "Cat");
    expect_configs(&mut bob, "Bob", 2, &mut cat, "Cat", 5);
}

/// Waits until the console's `games` row of game `id` shows `players`.
fn until_players(server: &TestServer, id: &str, players: &str) {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let rows = server.go().games(std::time::Instant::now());
        if rows.iter().any(|g| g.id == id && g.players == players) {
            return;
        }
        let shown: Vec<String> = rows
            .iter()
            .map(|g| format!("{}: {}", g.id, g.players))
            .collect();
        assert!(
            std::time::Instant::now() < deadline,
            "game {id} never showed {players}: {shown:?}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_leader_whose_partner_leaves_waits_for_the_next_one() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let bob = partner(&server, 1, "Bob");
    // The game publishes its seats after it has answered: first see Bob seated (so
    // that "Ann" alone below is not the view from before he came), then see him gone.
    // The game frees his seat when it handles his departure, which comes after the
    // lobby has seen him go: only then is game 1 waiting for a partner again.
    until_players(&server, "1", "Ann vs Bob");
    drop(bob);
    until_players(&server, "1", "Ann");
    let mut cat = partner(&server, 1, "Cat");
    ann.send("SET_CONFIG+1+1+2");
    expect_configs(&mut ann, "Ann", 1, &mut cat, "Cat", 2);
}

#[test]
fn a_player_who_does_not_move_in_time_loses() {
    let server = TestServer::with(Settings {
        move_timeout: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    // Black never moves: whatever the machine's speed, black is the one out of time.
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Bob+0;0+Ann did not move within 1 s: Bob wins",
    );
    // Both are still here: the server asks them for a rematch, as after two passes.
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    // The move clock no longer runs: a move is refused, not timed.
    ann.ask(
        "MOVE+1+Ann+4",
        "INVALID_MOVE+Game 1 is finished: answer REQUEST_REMATCH with SET_REMATCH, 1 or 0",
    );
    bob.send("SET_REMATCH+1");
    ann.send("SET_REMATCH+1");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+1");
    ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+1+3+");
    bob.expect_prefix("ACKNOWLEDGE_CONFIG+Bob+2+3+");
}

#[test]
fn shutdown_finishes_games_in_progress_and_closes_every_socket() {
    let mut server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    let mut waiting = server.connect();
    waiting.send("HANDSHAKE+Cat");
    waiting.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
    waiting.expect(&request_config(2));
    // Bounded by SHUTDOWN_GRACE (1.5 s) in the server; `stop` returns once `run` has.
    server.stop();
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1++0;0+server shutting down",
    );
    ann.expect_closed();
    bob.expect_closed();
    waiting.expect_closed();
}

#[test]
fn finished_games_are_written_as_sgf_records() {
    let dir = std::env::temp_dir().join(format!("goserver-records-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = TestServer::with(Settings {
        records: Some(dir.clone()),
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 5);
    ann.send("MOVE+1+Ann+7");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+7;1+PLAYING;2;{}", board(5, &[(7, '1')])),
    );
    bob.send("EXIT+1+Bob");
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+25;0+Bob exited: Ann wins",
    );
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("records dir")
        .flatten()
        .collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).expect("record");
    assert!(text.starts_with("(;FF[4]GM[1]"), "{text}");
    for property in [
        "SZ[5]", "KM[0]", "PB[Ann]", "PW[Bob]", "RE[B+R]", "RU[", "DT[", ";B[cb]",
    ] {
        assert!(text.contains(property), "{property} missing in {text}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_partner_whose_leader_leaves_joins_a_game_already_waiting() {
    let server = TestServer::start();
    let ann = leader(&server, 1, "Ann");
    let mut bob = partner(&server, 1, "Bob");
    let mut cat = leader(&server, 2, "Cat");
    drop(ann);
    // Bob is matched anew: Cat's game waits for a partner, so he joins it.
    bob.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
    cat.send("SET_CONFIG+2+1+3");
    expect_configs(&mut cat, "Cat", 1, &mut bob, "Bob", 3);
}

#[test]
fn a_leader_whose_partner_leaves_joins_a_game_already_waiting() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let mut bob = partner(&server, 1, "Bob");
    let mut cat = leader(&server, 2, "Cat");
    bob.send("EXIT+1+Bob");
    bob.expect_closed();
    // Two lone leaders are never left waiting apart: Ann joins Cat's game.
    ann.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
    cat.send("SET_CONFIG+2+2+2");
    expect_configs(&mut cat, "Cat", 2, &mut ann, "Ann", 2);
}

#[test]
fn a_game_that_reaches_the_move_limit_is_scored() {
    let server = TestServer::with(Settings {
        moves_per_point: 1,
        ..Settings::default()
    });
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    ann.send("MOVE+1+Ann+0");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_MOVE+1+0;1+PLAYING;2;1000");
    bob.send("PASS+1+Bob");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;1000");
    ann.send("MOVE+1+Ann+1");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_MOVE+1+1;1+PLAYING;2;1100");
    bob.send("PASS+1+Bob");
    // The fourth move on a 2x2 board with one move per point ends the game.
    both(
        &mut ann,
        &mut bob,
        "ACKNOWLEDGE_MOVE+1+-1;2+FINISHED;1;1100",
    );
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Ann+4;0+The move limit of 4 moves was reached. Area score: black 4, white 0 (komi 0): Ann wins",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
}

#[test]
fn a_player_who_leaves_while_a_rematch_is_pending_declines_it() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1++0;0+Both players passed. Area score: black 0, white 0 (komi 0): a draw",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    ann.send("SET_REMATCH+1");
    // Lines of one client are handled in order: this refusal proves the yes is in.
    ann.ask(
        "SET_REMATCH+1",
        "UNKNOWN_COMMAND+You already answered the rematch request",
    );
    drop(bob);
    ann.expect("ACKNOWLEDGE_REMATCH+0");
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
}

#[test]
fn a_kicked_player_whose_game_has_not_started_is_told_too() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let ann_client = server
        .go()
        .clients()
        .into_iter()
        .find(|client| client.name.as_deref() == Some("Ann"))
        .expect("Ann is connected");
    server.go().kick(&ann_client.conn);
    ann.expect("GAME_FINISHED+1++0;0+Ann was kicked by operator");
    ann.expect_closed();
}

#[test]
fn a_handshake_sent_right_after_exit_seats_nobody() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 5);
    let mut wait = leader(&server, 2, "Wait");
    wait.send("SET_CONFIG+2+1+9");
    // Both lines in one packet: the HANDSHAKE reaches the lobby after the EXIT has
    // ended game 1 and closed Ann's connection. It must seat nobody.
    ann.send_raw(b"EXIT+1+Ann\nHANDSHAKE+Ann\n");
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1+Bob+0;0+Ann exited: Bob wins",
    );
    ann.expect_closed();
    // Once the lobby has heard Ann's connection end, the name Ann is free again
    // (unless the HANDSHAKE seated a ghost Ann), and game 2 still waits for a partner.
    let deadline = std::time::Instant::now() + PATIENCE;
    let has_ann = || {
        let clients = server.go().clients();
        clients.iter().any(|c| c.name.as_deref() == Some("Ann"))
    };
    while has_ann() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut cat = partner(&server, 2, "Ann");
    expect_configs(&mut wait, "Wait", 1, &mut cat, "Ann", 9);
}

#[test]
fn players_who_leave_together_before_the_start_are_seated_nowhere() {
    let server = TestServer::start();
    let no_clients_left = || {
        let deadline = std::time::Instant::now() + PATIENCE;
        while !server.go().clients().is_empty() && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    for round in 0..5 {
        let mut lead = server.connect();
        lead.send("HANDSHAKE+Lead");
        let first = lead.expect_prefix("ACKNOWLEDGE_HANDSHAKE+");
        let id = first.split('+').nth(1).expect("a game id").to_string();
        lead.expect(&request_config(id.parse().expect("a number")));
        let part = partner(&server, id.parse().expect("a number"), "Part");
        drop(lead);
        drop(part);
        // Once the lobby has heard both leave (in whichever order, whatever their
        // game did meanwhile), neither sits anywhere: a newcomer leads a game.
        no_clients_left();
        let mut next = server.connect();
        next.send("HANDSHAKE+Next");
        let first = next.expect_prefix("ACKNOWLEDGE_HANDSHAKE+");
        assert!(first.ends_with("+1"), "round {round}: {first}");
        // The next round's leader must not find this one's game still open.
        drop(next);
        no_clients_left();
    }
}

#[test]
fn lines_sent_as_a_game_ends_are_answered_in_order() {
    let server = TestServer::start();
    for round in 0..20u32 {
        let game = 2 * round + 1;
        let (black, white, third) = (
            format!("A{round}"),
            format!("B{round}"),
            format!("C{round}"),
        );
        let (mut a, mut b) = start_named(&server, game, 2, &black, &white);
        a.send(&format!("PASS+{game}+{black}"));
        b.expect_prefix(&format!("ACKNOWLEDGE_MOVE+{game}+-1;1+"));
        b.send(&format!("PASS+{game}+{white}"));
        while b.recv() != "REQUEST_REMATCH" {}
        // In one write: the no that ends game `game`, then the next game's lines. The
        // HANDSHAKE reaches the ending game and is answered from its leftovers; the
        // SET_CONFIG and PASS behind it, wherever they land, must be answered after it
        // and in their order (the PASS is refused: no opponent yet).
        let next = game + 1;
        b.send_raw(
            format!(
                "SET_REMATCH+0\nHANDSHAKE+{white}\nSET_CONFIG+{next}+1+2\nPASS+{next}+{white}\n"
            )
            .as_bytes(),
        );
        b.expect("ACKNOWLEDGE_REMATCH+0");
        b.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{next}+1"));
        b.expect(&request_config(next));
        b.expect(&format!(
            "INVALID_MOVE+Game {next} has not started yet: waiting for an opponent"
        ));
        let mut c = partner(&server, next, &third);
        expect_configs(&mut b, &white, 1, &mut c, &third, 2);
        drop((a, b, c));
    }
}

#[test]
fn a_client_that_pipelines_its_last_lines_and_closes_has_each_answered_before_it_leaves() {
    let server = TestServer::start();
    for round in 0..10u32 {
        // Game `first`: Ann and Bob pass twice; the rematch is asked.
        // Names of their own each round: the last round's clients may still be
        // leaving.
        let first = 2 * round + 1;
        let (a, b, c) = (
            format!("A{round}"),
            format!("B{round}"),
            format!("C{round}"),
        );
        let (mut ann, mut bob) = start_named(&server, first, 2, &a, &b);
        ann.send(&format!("PASS+{first}+{a}"));
        bob.expect_prefix(&format!("ACKNOWLEDGE_MOVE+{first}+-1;1+"));
        bob.send(&format!("PASS+{first}+{b}"));
        while bob.recv() != "REQUEST_REMATCH" {}
        // Game `next`: Cat leads it and takes white, so its partner moves first.
        let next = first + 1;
        let mut cat = leader(&server, next, &c);
        cat.send(&format!("SET_CONFIG+{next}+2+2"));
        // A correct SET_CONFIG has no answer: a second one's refusal says it is in.
        cat.ask(
            &format!("SET_CONFIG+{next}+2+2"),
            &format!("UNKNOWN_COMMAND+Game {next} is already configured (2x2)"),
        );
        // In one write, then Bob's sending side closes: the no that ends game
        // `first`, the HANDSHAKE that seats him in game `next`, and his first move
        // there. His lines reach two games; his departure comes after all of them.
        bob.send_raw(format!("SET_REMATCH+0\nHANDSHAKE+{b}\nMOVE+{next}+{b}+0\n").as_bytes());
        bob.stream
            .shutdown(std::net::Shutdown::Write)
            .expect("half-close");
        while ann.recv() != "REQUEST_REMATCH" {}
        ann.expect("ACKNOWLEDGE_REMATCH+0");
        let end = format!("GAME_FINISHED+{next}+{c}+4;0+{b} disconnected: {c} wins");
        cat.expect(&format!("ACKNOWLEDGE_CONFIG+{c}+2+2+PLAYING;1;0000+{b}"));
        cat.expect(&format!("ACKNOWLEDGE_MOVE+{next}+0;1+PLAYING;2;1000"));
        cat.expect(&end);
        // Bob got the answer to each line, in order, before the game heard he left.
        bob.expect("ACKNOWLEDGE_REMATCH+0");
        bob.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{next}+0"));
        bob.expect(&format!("ACKNOWLEDGE_CONFIG+{b}+1+2+PLAYING;1;0000+{c}"));
        bob.expect(&format!("ACKNOWLEDGE_MOVE+{next}+0;1+PLAYING;2;1000"));
        bob.expect(&end);
        bob.expect_closed();
        drop((ann, cat));
    }
}
