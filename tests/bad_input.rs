//! Sloppy and hostile input: every line gets a clear answer and changes nothing.

mod common;

use common::*;

const NOT_IN_GAME: &str =
    "You are not in a game, so MOVE is not possible: send HANDSHAKE with your name first";

#[test]
fn malformed_lines_before_the_handshake_are_answered_and_harmless() {
    let server = TestServer::start();
    let mut c = server.connect();
    let table = [
        (
            "",
            "UNKNOWN_COMMAND+Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT",
        ),
        (
            "HELLO",
            "UNKNOWN_COMMAND+Unknown command 'HELLO': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT",
        ),
        (
            "handshake+Ann",
            "UNKNOWN_COMMAND+Unknown command 'handshake': commands are upper case, did you mean HANDSHAKE?",
        ),
        (
            "HANDSHAKE",
            "UNKNOWN_COMMAND+Expected 2 fields joined by plus signs (HANDSHAKE, your name), got 1",
        ),
        (
            "HANDSHAKE+a+b",
            "UNKNOWN_COMMAND+Expected 2 fields joined by plus signs (HANDSHAKE, your name), got 3",
        ),
        (
            "HANDSHAKE+  ",
            "UNKNOWN_COMMAND+HANDSHAKE: the name must not be empty",
        ),
        (
            "HANDSHAKE+abcdefghijklmnopqrstuvwxyz0123456789",
            "UNKNOWN_COMMAND+HANDSHAKE: the name may have at most 32 characters, got 36",
        ),
        ("MOVE+1+Ann+3", &format!("UNKNOWN_COMMAND+{NOT_IN_GAME}")),
        (
            "MOVE+one+Ann+3",
            "UNKNOWN_COMMAND+MOVE: game id must be a whole number, got 'one'",
        ),
        (
            "SET_REMATCH+2",
            "UNKNOWN_COMMAND+SET_REMATCH: the answer must be 1 (yes) or 0 (no), got 2",
        ),
        (
            "SET_REMATCH+1",
            "UNKNOWN_COMMAND+You are not in a game, so SET_REMATCH is not possible: send HANDSHAKE with your name first",
        ),
        (
            "SET_CONFIG+1+1+9",
            "UNKNOWN_COMMAND+You are not in a game, so SET_CONFIG is not possible: send HANDSHAKE with your name first",
        ),
    ];
    for (line, answer) in table {
        c.ask(line, answer);
    }
    // A line over the limit, invalid UTF-8, a CR-LF line: each answered, then normal.
    c.send(&"X".repeat(5000));
    c.expect("UNKNOWN_COMMAND+Line too long: at most 4096 bytes per line");
    c.send_raw(b"\xff\xfe\n");
    c.expect("UNKNOWN_COMMAND+The line is not valid UTF-8 text");
    c.send_raw(b"HANDSHAKE+ Ann \r\n");
    c.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    c.expect(REQUEST_CONFIG_1);
    c.ask("HANDSHAKE+Ann", "UNKNOWN_COMMAND+You are already Ann in game 1: HANDSHAKE is accepted only when you are not in a game");
    // The leader still owes its configuration: every refusal reminds it.
    c.expect(REQUEST_CONFIG_1);
    c.send("MOVE+1+Ann+0");
    c.expect("INVALID_MOVE+Game 1 has not started yet: waiting for an opponent");
    c.expect(REQUEST_CONFIG_1);
}

#[test]
fn every_move_refusal_names_its_rule() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 3);
    bob.ask(
        "MOVE+1+Bob+4",
        "INVALID_MOVE+Not your turn: black is to move",
    );
    ann.ask(
        "MOVE+2+Ann+4",
        "INVALID_MOVE+MOVE: wrong game id: you are in game 1, got 2",
    );
    ann.ask(
        "MOVE+1+Bob+4",
        "INVALID_MOVE+MOVE: wrong player name: you are Ann, got Bob",
    );
    ann.ask(
        "PASS+2+Ann",
        "INVALID_MOVE+PASS: wrong game id: you are in game 1, got 2",
    );
    ann.ask(
        "MOVE+1+Ann+9",
        "INVALID_MOVE+Tile index 9 is off the board: a 3x3 board has tiles 0 to 8, or -1 to pass",
    );
    ann.ask(
        "MOVE+1+Ann+-2",
        "INVALID_MOVE+Tile index -2 is off the board: a 3x3 board has tiles 0 to 8, or -1 to pass",
    );
    ann.send("MOVE+1+Ann+1");
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+1;1+PLAYING;2;{}", board(3, &[(1, '1')])),
    );
    bob.ask("MOVE+1+Bob+1", "INVALID_MOVE+Tile 1 (B3) is not empty");
    bob.send("PASS+1+Bob");
    both(
        &mut ann,
        &mut bob,
        &format!(
            "ACKNOWLEDGE_MOVE+1+-1;2+PLAYING;1;{}",
            board(3, &[(1, '1')])
        ),
    );
    // A pass sent twice: the second is out of turn.
    bob.ask("PASS+1+Bob", "INVALID_MOVE+Not your turn: black is to move");
    ann.send("MOVE+1+Ann+3");
    let corner_closed = board(3, &[(1, '1'), (3, '1')]);
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+3;1+PLAYING;2;{corner_closed}"),
    );
    bob.ask(
        "MOVE+1+Bob+0",
        "INVALID_MOVE+Suicide: the stone at tile 0 (A3) would have no liberties",
    );
}

#[test]
fn the_immediate_recapture_of_a_ko_is_refused_as_ko() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 4);
    // Black builds the left half of a ko, white the right half.
    let moves = [(1, 5), (4, 2), (9, 7), (15, 10)];
    let mut stones = Vec::new();
    for (black, white) in moves {
        ann.send(&format!("MOVE+1+Ann+{black}"));
        stones.push((black, '1'));
        both(
            &mut ann,
            &mut bob,
            &format!(
                "ACKNOWLEDGE_MOVE+1+{black};1+PLAYING;2;{}",
                board(4, &stones)
            ),
        );
        bob.send(&format!("MOVE+1+Bob+{white}"));
        stones.push((white, '2'));
        both(
            &mut ann,
            &mut bob,
            &format!(
                "ACKNOWLEDGE_MOVE+1+{white};2+PLAYING;1;{}",
                board(4, &stones)
            ),
        );
    }
    // Black takes the white stone at 5; white may not take back at once.
    ann.send("MOVE+1+Ann+6");
    stones.retain(|&(i, _)| i != 5);
    stones.push((6, '1'));
    both(
        &mut ann,
        &mut bob,
        &format!("ACKNOWLEDGE_MOVE+1+6;1+PLAYING;2;{}", board(4, &stones)),
    );
    bob.ask(
        "MOVE+1+Bob+5",
        "INVALID_MOVE+Ko: white cannot retake at tile 5 (B3) immediately",
    );
}

#[test]
fn moves_and_answers_out_of_their_moment_are_refused() {
    let server = TestServer::start();
    let (mut ann, mut bob) = start_game(&server, 1, 2);
    ann.ask("SET_REMATCH+1", "UNKNOWN_COMMAND+SET_REMATCH answers REQUEST_REMATCH, which comes only after a game ends by two passes");
    both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    both(
        &mut ann,
        &mut bob,
        "GAME_FINISHED+1++0;0+Both players passed. Area score: black 0, white 0 (komi 0): a draw",
    );
    both(&mut ann, &mut bob, "REQUEST_REMATCH");
    // A move after GAME_FINISHED.
    ann.ask(
        "MOVE+1+Ann+0",
        "INVALID_MOVE+Game 1 is finished: answer REQUEST_REMATCH with SET_REMATCH, 1 or 0",
    );
    ann.send("SET_REMATCH+1");
    ann.ask(
        "SET_REMATCH+0",
        "UNKNOWN_COMMAND+You already answered the rematch request",
    );
    bob.send("SET_REMATCH+0");
    both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+0");
    // After the game: not in a game any more.
    bob.ask("MOVE+1+Bob+0", &format!("UNKNOWN_COMMAND+{}", NOT_IN_GAME));
}

#[test]
fn a_leader_who_sends_garbage_is_reminded_of_the_config() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    ann.send("SET_CONFIG+1+5+9");
    ann.expect(
        "UNKNOWN_COMMAND+SET_CONFIG: colour must be 0 (random), 1 (black) or 2 (white), got 5",
    );
    ann.expect(REQUEST_CONFIG_1);
}
