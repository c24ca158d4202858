//! The Spectrangle front end end to end over real TCP: every point of SPECTRANGLE.md,
//! asserting the exact lines each client receives.
//!
//! Games are played by a referee written here (`Watch`): it follows every broadcast
//! line, keeps its own board, hands and bag, plays a legal move when asked, and knows
//! from the rules when SCORE must come and with which points.

mod common;
mod spectrangle_support;

use common::{Client, TestServer};
use goserver::engine::spectrangle::Tile;
use goserver::server::Protocol;
use goserver::settings::Settings;
use spectrangle_support::Watch;
use std::time::Duration;

fn server() -> TestServer {
    server_with(Settings::default())
}

fn server_with(settings: Settings) -> TestServer {
    TestServer::serving(
        Settings {
            seed: Some(2026),
            ..settings
        },
        &[Protocol::Spectrangle],
    )
}

fn client(server: &TestServer) -> Client {
    Client::connect(server.addr_of(Protocol::Spectrangle))
}

/// A client that has joined as `name`; `lobby` is the LOBBY line it gets.
fn joined(server: &TestServer, name: &str, lobby: &str) -> Client {
    let mut c = client(server);
    c.ask(&format!("JOIN {name}"), lobby);
    c
}

/// Players `names` (already joined, in join order) say READY; each gets START and the
/// deal, the same for all. Returns one referee per client, in join order.
fn ready_all(clients: &mut [Client]) -> Vec<Watch> {
    for c in clients.iter_mut() {
        c.send("READY");
    }
    let n = clients.len();
    let watches: Vec<Watch> = clients.iter_mut().map(|c| Watch::start(c, n)).collect();
    for w in &watches[1..] {
        assert_eq!(w.order, watches[0].order);
        assert_eq!(w.hands, watches[0].hands);
    }
    watches
}

/// Plays the game of `clients` (named `names`, join order) to its SCORE, every client
/// checking every line. Returns the SCORE line and how many turns were swaps or skips.
fn play_to_the_end(
    clients: &mut [Client],
    names: &[String],
    watches: &mut [Watch],
) -> (String, usize) {
    let mut turn = 0;
    let mut idle = 0;
    while !watches[0].is_over() {
        assert!(turn < 2000, "the game does not end");
        let mover = watches[0].to_move().to_string();
        let index = names.iter().position(|n| *n == mover).expect("a player");
        let (command, update) = watches[0].choose(turn, turn % 2 == 1);
        clients[index].send(&command);
        for (c, w) in clients.iter_mut().zip(watches.iter_mut()) {
            assert_eq!(w.follow_turn(c), update, "after {command}");
        }
        idle += usize::from(command.starts_with("MOVE_S"));
        turn += 1;
    }
    let score = watches[0].score();
    for c in clients.iter_mut() {
        c.expect(&score);
    }
    (score, idle)
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|n| (*n).to_string()).collect()
}

#[test]
fn a_whole_game_of_three_from_join_to_score() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let mut bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let cat = joined(&server, "Cat", "LOBBY Ann Bob Cat");
    ann.expect("LOBBY Ann Bob Cat");
    bob.expect("LOBBY Ann Bob Cat");
    let mut clients = [ann, bob, cat];
    let mut watches = ready_all(&mut clients);
    let (score, _) = play_to_the_end(&mut clients, &names(&["Ann", "Bob", "Cat"]), &mut watches);
    assert!(score.starts_with("SCORE "), "{score}");
    // Its result (ARENA.md): the seats in turn order with SCORE's points, the places.
    let results = server.server.results.recent(1);
    let result = &results[0];
    let scored: Vec<String> = result
        .players
        .iter()
        .map(|p| format!("{},{}", p.name, p.score))
        .collect();
    assert_eq!(format!("SCORE {}", scored.join(" ")), score);
    assert_eq!(
        result.players.iter().map(|p| p.colour).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let mut by_score = result.players.clone();
    by_score.sort_by(|a, b| b.score.0.total_cmp(&a.score.0));
    let places: Vec<String> = by_score.iter().map(|p| p.name.clone()).collect();
    assert_eq!(result.places.as_ref(), Some(&places));
    let shared_first = by_score[0].score == by_score[1].score;
    assert_eq!(
        result.winner,
        (!shared_first).then(|| places[0].clone()),
        "{score}"
    );
    assert_eq!(
        (result.ending.name(), result.size, result.rated),
        ("score", None, true)
    );
    assert!(result.moves > 0);

    // After SCORE nobody is in a lobby: a move is ERROR 7, JOIN (same name) works.
    let [ann, _, _] = &mut clients;
    ann.ask(
        "MOVE_SKIP",
        "ERROR 7 You are not in a lobby, so MOVE_SKIP is not possible: send JOIN <name> first",
    );
    ann.ask("JOIN Ann", "LOBBY Ann");
}

#[test]
fn before_join_only_join_and_the_extension_commands_are_accepted() {
    let server = server();
    let mut c = client(&server);
    for (line, answer) in [
        (
            "HELLO",
            "ERROR 1 Unknown command 'HELLO': expected one of JOIN, READY, MOVE_PLAY, MOVE_SWAP, MOVE_SKIP, EXIT, EXTENSIONS, ENABLE_EXTENSION, CHAT, LOBBIES",
        ),
        (
            "join Ann",
            "ERROR 1 Unknown command 'join': commands are upper case, did you mean JOIN?",
        ),
        ("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby"),
        (
            "LOBBIES",
            "ERROR 9 LOBBIES needs the multilobby extension: send ENABLE_EXTENSION multilobby first",
        ),
        (
            "CHAT aGk=",
            "ERROR 9 CHAT needs the chat extension: send ENABLE_EXTENSION chat first",
        ),
        (
            "READY",
            "ERROR 7 You are not in a lobby, so READY is not possible: send JOIN <name> first",
        ),
        (
            "MOVE_PLAY XYZ9 3",
            "ERROR 7 You are not in a lobby, so MOVE_PLAY is not possible: send JOIN <name> first",
        ),
        (
            "EXIT",
            "ERROR 7 You are not in a lobby, so EXIT is not possible: send JOIN <name> first",
        ),
        (
            "JOIN",
            "ERROR 2 JOIN takes 1 to 2 arguments (JOIN <name> [lobby]), got 0 arguments",
        ),
        (
            "JOIN Bob Smith Jr",
            "ERROR 2 JOIN takes 1 to 2 arguments (JOIN <name> [lobby]), got 3 arguments",
        ),
        (
            "JOIN Bob:Smith",
            "ERROR 3 Invalid name: ':' may not be in a name; a name is 1 to 32 letters, digits, _ or -",
        ),
        (
            "ENABLE_EXTENSION chat teleport",
            "ERROR 9 Unsupported extension 'teleport': this server has chat and multilobby; none of this line was enabled",
        ),
        // None of that line was enabled: chat is still off.
        (
            "CHAT aGk=",
            "ERROR 9 CHAT needs the chat extension: send ENABLE_EXTENSION chat first",
        ),
    ] {
        c.ask(line, answer);
    }
    c.ask(
        &format!("JOIN {}", "n".repeat(100)),
        "ERROR 3 Invalid name: a name has at most 32 characters, got 100; a name is 1 to 32 letters, digits, _ or -",
    );
    // Blank lines are ignored; invalid UTF-8 is ERROR 1; a 100 KB line is ERROR 2 and
    // the connection goes on.
    c.send("   ");
    c.send_raw(b"\xff\xfe\n");
    c.expect("ERROR 1 The line is not valid UTF-8 text");
    c.send(&"x".repeat(100_000));
    c.expect("ERROR 2 Line too long: at most 4096 bytes per line; it was discarded");
    c.send(&"y".repeat(5000));
    c.expect("ERROR 2 Line too long: at most 4096 bytes per line; it was discarded");
    c.ask("JOIN Ann", "LOBBY Ann");
}

#[test]
fn a_taken_name_is_error_4_and_free_again_once_its_holder_leaves() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let mut other = client(&server);
    other.ask(
        "JOIN Ann",
        "ERROR 4 The name Ann is taken by another player: choose another name",
    );
    ann.send("EXIT");
    // Ann's EXIT is handled before her next line: she may JOIN again at once.
    ann.ask("JOIN Ann", "LOBBY Ann");
    ann.send("EXIT");
    ann.ask(
        "EXIT",
        "ERROR 7 You are not in a lobby, so EXIT is not possible: send JOIN <name> first",
    );
    other.ask("JOIN Ann", "LOBBY Ann");
}

#[test]
fn only_a_client_that_never_joins_is_timed_out_and_exit_keeps_the_connection() {
    let server = server_with(Settings {
        handshake_timeout: Some(Duration::from_secs(1)),
        ..Settings::default()
    });
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    ann.send("EXIT");
    let mut silent = client(&server);
    silent.expect("ERROR 0 No JOIN within 1 s: closing the connection");
    silent.expect_closed();
    // Closing is the client's once it has joined: still served after the timeout.
    std::thread::sleep(Duration::from_millis(1500));
    ann.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
    ann.ask("JOIN Ann", "LOBBY Ann");
}

#[test]
fn in_a_lobby_moves_are_error_8_and_join_or_a_second_ready_change_nothing() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    for (line, answer) in [
        (
            "JOIN Ann",
            "ERROR 0 You are already in lobby default: send EXIT first to join another",
        ),
        // The state comes before the arguments.
        (
            "MOVE_PLAY XYZ9 3",
            "ERROR 8 Your lobby default has not started a game yet: send READY and wait for START",
        ),
        (
            "MOVE_SKIP",
            "ERROR 8 Your lobby default has not started a game yet: send READY and wait for START",
        ),
        (
            "READY now",
            "ERROR 2 READY takes no arguments (READY), got 1 argument",
        ),
    ] {
        ann.ask(line, answer);
    }
    // READY alone has no answer, and again is harmless: the next answer is EXTENSIONS'.
    ann.send("READY");
    ann.send("READY");
    ann.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
    let mut bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    bob.send("EXIT");
    ann.expect("LOBBY Ann");
    bob.ask(
        "READY",
        "ERROR 7 You are not in a lobby, so READY is not possible: send JOIN <name> first",
    );
}

#[test]
fn a_lobby_starts_when_its_only_unready_player_leaves() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let mut bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut cat = joined(&server, "Cat", "LOBBY Ann Bob Cat");
    ann.expect("LOBBY Ann Bob Cat");
    bob.expect("LOBBY Ann Bob Cat");
    ann.send("READY");
    bob.send("READY");
    // Bob's READY is in before Cat leaves: his next line's answer proves it.
    bob.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
    ann.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
    cat.send("EXIT");
    for c in [&mut ann, &mut bob] {
        c.expect("LOBBY Ann Bob");
        let watch = Watch::start(c, 2);
        assert_eq!(watch.hands.len(), 2);
    }
}

#[test]
fn a_fifth_player_opens_the_next_default_lobby() {
    let server = server();
    let mut four = Vec::new();
    let mut names = Vec::new();
    for name in ["A1", "A2", "A3", "A4"] {
        names.push(name);
        let lobby = format!("LOBBY {}", names.join(" "));
        let c = joined(&server, name, &lobby);
        for earlier in &mut four {
            let earlier: &mut Client = earlier;
            earlier.expect(&lobby);
        }
        four.push(c);
    }
    let mut fifth = joined(&server, "A5", "LOBBY A5");
    fifth.send("ENABLE_EXTENSION multilobby");
    fifth.ask("LOBBIES", "ACTIVE_LOBBIES default,A1,A2,A3,A4 default-2,A5");
}

#[test]
fn in_a_game_every_bad_move_gets_its_code_and_changes_nothing() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut clients = [ann, bob];
    let watches = ready_all(&mut clients);
    let w = &watches[0];
    let first = w.to_move().to_string();
    let (mover, waiter) = if first == "Ann" { (0, 1) } else { (1, 0) };
    let second = w.order[1].clone();
    let held = w.hands[&first][0];
    let not_held = Tile::ALL
        .into_iter()
        .find(|t| w.hands.values().all(|h| !h.contains(t)))
        .expect("a tile nobody holds");
    let hand: Vec<String> = w.hands[&first].iter().map(ToString::to_string).collect();
    let hand = hand.join(", ");
    let not_a_tile = |got: &str| {
        format!(
            "ERROR 2 '{got}' is not a tile: expected three letters of R, G, B, Y, P, W and a rotation digit 0, 1 or 2, e.g. RRY0"
        )
    };
    let not_a_location = |got: &str| {
        format!("ERROR 2 '{got}' is not a location: expected a whole number from 0 to 35")
    };
    let table = [
        ("JOIN Zed".to_string(), "ERROR 0 You are playing a game: JOIN is possible after its SCORE, or after EXIT".to_string()),
        ("READY".to_string(), "ERROR 0 Your game has already started: READY is for lobbies".to_string()),
        ("MOVE_PLAY XYZ9 3".to_string(), not_a_tile("XYZ9")),
        ("MOVE_PLAY RGB3 3".to_string(), not_a_tile("RGB3")),
        ("MOVE_PLAY rry0 3".to_string(), not_a_tile("rry0")),
        (format!("MOVE_PLAY {held} -1"), not_a_location("-1")),
        (format!("MOVE_PLAY {held} 36"), not_a_location("36")),
        (format!("MOVE_PLAY {held} 1e3"), not_a_location("1e3")),
        (
            format!("MOVE_PLAY {held}"),
            "ERROR 2 MOVE_PLAY takes 2 arguments (MOVE_PLAY <tile> <location>), got 1 argument".to_string(),
        ),
        (
            format!("MOVE_PLAY {held} 3 4"),
            "ERROR 2 MOVE_PLAY takes 2 arguments (MOVE_PLAY <tile> <location>), got 3 arguments".to_string(),
        ),
        (
            format!("MOVE_PLAY {not_held} 3"),
            format!(
                "ERROR 6 You do not hold {} in any rotation: choose one of your tiles, {hand}",
                not_held.letters()
            ),
        ),
        (
            "MOVE_PLAY GBR0 3".to_string(),
            format!(
                "ERROR 6 GBR is not a tile of the set in any rotation (its mirror image GRB is; tiles cannot be flipped): choose one of your tiles, {hand}"
            ),
        ),
        (
            format!("MOVE_PLAY {held} 10"),
            "ERROR 6 Field 10 is a bonus field (x2) and the first tile may not go on one: choose a field without a bonus".to_string(),
        ),
    ];
    // Sent in one write, the lines are answered in the order they were sent, whether
    // the registry answers them (JOIN, READY, bad arguments) or the table (the moves it
    // judges, ERROR 6). (First, before pacing slows a client after 20 refusals.)
    // Each move the table judges is followed by a line the registry answers.
    let (judged, checked): (Vec<_>, Vec<_>) = table
        .iter()
        .partition(|(_, answer)| answer.starts_with("ERROR 6"));
    let mut batch = Vec::new();
    for (i, pair) in checked.iter().enumerate() {
        batch.extend(judged.get(i));
        batch.push(*pair);
    }
    let text: String = batch.iter().map(|(line, _)| format!("{line}\n")).collect();
    clients[mover].send_raw(text.as_bytes());
    for (_, answer) in &batch {
        clients[mover].expect(answer);
    }
    // One at a time, each gets the same answer.
    for (line, answer) in &table {
        clients[mover].ask(line, answer);
    }
    clients[waiter].ask(
        &format!("MOVE_PLAY {held} 3"),
        &format!("ERROR 5 Not your turn: it is {first}'s turn; wait for their UPDATE"),
    );
    let placement = w
        .board
        .find_placement(&w.hands[&first])
        .expect("the first tile fits somewhere");
    for line in ["MOVE_SKIP", &format!("MOVE_SWAP {held}")] {
        clients[mover].ask(
            line,
            &format!(
                "ERROR 6 You can still place a tile, for example {placement}, so you must place one instead of swapping or skipping"
            ),
        );
    }
    // Nothing changed: the first legal move is still the first move of the game.
    let (command, update) = w.choose(0, false);
    clients[mover].send(&command);
    for c in &mut clients {
        c.expect(&update);
        c.expect_prefix(&format!("TILE {first} "));
    }
    assert_eq!(w.order[1], second);
}

#[test]
fn exit_in_a_game_ends_it_for_everyone_with_the_points_so_far() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let mut bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let cat = joined(&server, "Cat", "LOBBY Ann Bob Cat");
    ann.expect("LOBBY Ann Bob Cat");
    bob.expect("LOBBY Ann Bob Cat");
    let mut clients = [ann, bob, cat];
    let mut watches = ready_all(&mut clients);
    // One placement, so somebody has points.
    let mover = watches[0].to_move().to_string();
    let index = ["Ann", "Bob", "Cat"]
        .iter()
        .position(|n| *n == mover)
        .expect("a player");
    let (command, update) = watches[0].choose(0, false);
    clients[index].send(&command);
    for (c, w) in clients.iter_mut().zip(watches.iter_mut()) {
        assert_eq!(w.follow_turn(c), update);
    }
    let score = watches[0].score();
    let [ann, bob, cat] = &mut clients;
    cat.send("EXIT");
    ann.expect(&score);
    bob.expect(&score);
    // Cat hears nothing more of that game, keeps its connection and may JOIN again.
    cat.ask("JOIN Cat", "LOBBY Cat");
    // A disconnect in a game is an exit too.
    let dan = joined(&server, "Dan", "LOBBY Cat Dan");
    cat.expect("LOBBY Cat Dan");
    let mut pair = [std::mem::replace(cat, client(&server)), dan];
    let watches = ready_all(&mut pair);
    let [cat, dan] = &mut pair;
    drop(std::mem::replace(dan, client(&server)));
    cat.expect(&watches[0].score());
}

#[test]
fn chat_reaches_the_members_who_enabled_it() {
    let server = server();
    let mut ann = client(&server);
    ann.send("ENABLE_EXTENSION chat");
    ann.ask(
        "CHAT aGk=",
        "ERROR 7 You are not in a lobby, so CHAT is not possible: send JOIN <name> first",
    );
    ann.ask("JOIN Ann", "LOBBY Ann");
    let mut bob = client(&server);
    bob.send("ENABLE_EXTENSION chat multilobby");
    bob.ask("JOIN Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut cat = joined(&server, "Cat", "LOBBY Ann Bob Cat");
    ann.expect("LOBBY Ann Bob Cat");
    bob.expect("LOBBY Ann Bob Cat");
    ann.send("CHAT aGVsbG8gd29ybGQ=");
    ann.expect("CHAT_MESSAGE Ann aGVsbG8gd29ybGQ=");
    bob.expect("CHAT_MESSAGE Ann aGVsbG8gd29ybGQ=");
    bob.ask(
        "CHAT hello",
        "ERROR 2 'hello' is not base64: CHAT takes the message encoded in base64, e.g. CHAT aGVsbG8=",
    );
    cat.ask(
        "CHAT aGk=",
        "ERROR 9 CHAT needs the chat extension: send ENABLE_EXTENSION chat first",
    );
    // Cat, without chat, received none of it: its next line is the answer to its own.
    cat.ask("EXTENSIONS", "AVAILABLE_EXTENSIONS chat multilobby");
}

#[test]
fn multilobby_names_lobbies_creates_them_and_refuses_a_full_one() {
    let server = server();
    let multi = |name: &str, lobby: &str, answer: &str| {
        let mut c = client(&server);
        c.send("ENABLE_EXTENSION multilobby");
        c.ask(&format!("JOIN {name} {lobby}"), answer);
        c
    };
    let mut ann = multi("Ann", "room.1", "LOBBY Ann");
    let mut others = Vec::new();
    for (name, lobby) in [("Bob", "LOBBY Ann Bob"), ("Cat", "LOBBY Ann Bob Cat")] {
        others.push(multi(name, "room.1", lobby));
        ann.expect(lobby);
    }
    let _dan = multi("Dan", "room.1", "LOBBY Ann Bob Cat Dan");
    let mut eve = client(&server);
    eve.send("ENABLE_EXTENSION multilobby");
    eve.ask(
        "JOIN Eve room.1",
        "ERROR 0 Lobby room.1 is full (4 players): join another lobby, or wait until its game starts",
    );
    eve.ask(
        "JOIN Eve my/room",
        "ERROR 2 Invalid lobby name: '/' may not be in a name; a lobby name is 1 to 32 letters, digits, _, . or -",
    );
    // Without multilobby the lobby argument is ignored: the default lobby.
    let _fay = joined(&server, "Fay", "LOBBY Fay");
    let mut gus = client(&server);
    gus.ask("JOIN Gus room.1", "LOBBY Fay Gus");
    eve.ask(
        "LOBBIES",
        "ACTIVE_LOBBIES room.1,Ann,Bob,Cat,Dan default,Fay,Gus",
    );
    // A default lobby can be joined by its name.
    eve.ask("JOIN Eve default", "LOBBY Fay Gus Eve");
}

#[test]
fn a_lobby_opened_under_a_default_name_is_a_default_lobby() {
    let server = server();
    let mut ann = client(&server);
    ann.send("ENABLE_EXTENSION multilobby");
    ann.ask("JOIN Ann default", "LOBBY Ann");
    // Without multilobby Bob goes to the default lobby: the one Ann opened.
    let mut bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    ann.ask("LOBBIES", "ACTIVE_LOBBIES default,Ann,Bob");
    bob.send("EXIT");
    ann.expect("LOBBY Ann");
}

#[test]
fn a_player_out_of_time_is_skipped_and_after_three_times_disconnected() {
    let server = server_with(Settings {
        move_timeout: Some(Duration::from_millis(300)),
        ..Settings::default()
    });
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut clients = [ann, bob];
    let watches = ready_all(&mut clients);
    // Nobody moves: the first player is skipped, then the second, then the first...
    let order = watches[0].order.clone();
    for round in 0..3 {
        for name in &order {
            if round == 2 && *name == order[1] {
                break;
            }
            for c in &mut clients {
                c.expect(&format!("UPDATE {name}"));
            }
        }
    }
    // The first player's third miss disconnects it; the other one gets SCORE.
    let first = names(&["Ann", "Bob"])
        .iter()
        .position(|n| *n == order[0])
        .expect("a player");
    clients[1 - first].expect(&format!("SCORE {},0 {},0", order[0], order[1]));
    clients[first].expect_closed();
    // Filed as a timeout: five skipped turns are five moves, and nobody leads.
    let results = server.server.results.recent(1);
    assert_eq!(
        (
            results[0].ending.name(),
            results[0].moves,
            results[0].winner.clone(),
            results[0].rated
        ),
        ("timeout", 5, None, true)
    );
}

#[test]
fn shutdown_ends_every_game_with_score() {
    let mut server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut clients = [ann, bob];
    let watches = ready_all(&mut clients);
    server.stop();
    for c in &mut clients {
        c.expect(&watches[0].score());
        c.expect_closed();
    }
}

#[test]
fn a_kicked_player_ends_its_game() {
    let server = server();
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut clients = [ann, bob];
    let watches = ready_all(&mut clients);
    let front_end = server.front_end(Protocol::Spectrangle);
    let bob_row = front_end
        .clients()
        .into_iter()
        .find(|c| c.name.as_deref() == Some("Bob"))
        .expect("Bob is connected");
    front_end.kick(&bob_row.conn);
    let [ann, bob] = &mut clients;
    ann.expect(&watches[0].score());
    bob.expect_closed();
}

#[test]
fn records_replay_to_the_same_scores() {
    let dir = std::env::temp_dir().join(format!("goserver-spectrangle-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let server = server_with(Settings {
        records: Some(dir.clone()),
        ..Settings::default()
    });
    let mut ann = joined(&server, "Ann", "LOBBY Ann");
    let bob = joined(&server, "Bob", "LOBBY Ann Bob");
    ann.expect("LOBBY Ann Bob");
    let mut clients = [ann, bob];
    let mut watches = ready_all(&mut clients);
    let (score, _) = play_to_the_end(&mut clients, &names(&["Ann", "Bob"]), &mut watches);
    // The record is written before SCORE is sent.
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("records")
        .flatten()
        .collect();
    assert_eq!(files.len(), 1);
    let text = std::fs::read_to_string(files[0].path()).expect("a record");
    // Replayed line by line by a fresh referee, it gives the same scores.
    let mut lines = text.lines();
    let mut watch = Watch::start(&mut lines, 2);
    while !watch.is_over() {
        watch.follow_turn(&mut lines);
    }
    assert_eq!(watch.score(), score);
    assert_eq!(lines.next(), Some(score.as_str()));
    assert_eq!(lines.next(), None);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn twenty_four_games_of_two_to_four_players_at_once_all_reach_score() {
    let server = server();
    let addr = server.addr_of(Protocol::Spectrangle);
    let games: Vec<_> = (0..24)
        .map(|g| {
            std::thread::spawn(move || {
                let players = 2 + g % 3;
                let lobby = format!("room{g}");
                let names: Vec<String> = (0..players).map(|p| format!("g{g}p{p}")).collect();
                let mut clients: Vec<Client> = Vec::new();
                for (p, name) in names.iter().enumerate() {
                    let mut c = Client::connect(addr);
                    c.send("ENABLE_EXTENSION multilobby");
                    let lobby_line = format!("LOBBY {}", names[..=p].join(" "));
                    c.ask(&format!("JOIN {name} {lobby}"), &lobby_line);
                    for earlier in &mut clients {
                        earlier.expect(&lobby_line);
                    }
                    clients.push(c);
                }
                let mut watches = ready_all(&mut clients);
                play_to_the_end(&mut clients, &names, &mut watches)
            })
        })
        .collect();
    let mut idle = 0;
    for game in games {
        let (score, swaps_and_skips) = game.join().expect("the game's thread");
        assert!(score.starts_with("SCORE "), "{score}");
        idle += swaps_and_skips;
    }
    // The games went through swaps and skips too, not only placements.
    assert!(idle > 0);
}

#[test]
fn max_clients_counts_every_front_end() {
    let server = TestServer::serving(
        Settings {
            max_clients: 1,
            ..Settings::default()
        },
        &[Protocol::Go, Protocol::Spectrangle],
    );
    let mut go = Client::connect(server.addr_of(Protocol::Go));
    go.ask("HANDSHAKE+Ann", "ACKNOWLEDGE_HANDSHAKE+1+1");
    let mut refused = client(&server);
    refused.expect("ERROR 0 The server is full (1 clients connected): try again later");
    refused.expect_closed();
}

#[test]
fn a_client_in_an_error_loop_is_paced_but_every_line_is_answered() {
    let server = server();
    let mut c = client(&server);
    let burst = "MOVE_SKIP\n".repeat(200);
    c.send_raw(burst.as_bytes());
    for _ in 0..200 {
        c.expect(
            "ERROR 7 You are not in a lobby, so MOVE_SKIP is not possible: send JOIN <name> first",
        );
    }
    c.ask("JOIN Ann", "LOBBY Ann");
}
