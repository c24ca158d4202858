//! The Bkgo 0.6 front end over real TCP: one test per point of `BKGO.md`, asserting
//! exact lines. Each test starts its own server on free ports.

mod common;

use common::{Client, PATIENCE, TestServer, small_receive_buffer};
use goserver::console::{Console, Outcome};
use goserver::secret::Secret;
use goserver::server::Protocol;
use goserver::settings::{BkgoSettings, Settings};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const VERSION: &str = env!("CARGO_PKG_VERSION");
const RULES: &str = "Tromp-Taylor area scoring, positional superko, suicide forbidden";
const GREETING: &str = "BKGO-Server-version-0.6";
const ROOM_MESSAGES: &str = "one of Place: <x>, <y>; Pass; Message: <text>; NewBoard; SendingBoard; SetName: <room name>; Quitting: <your ID>";

// ----- helpers -----

/// Settings for a room with a `size` board.
fn settings(size: usize) -> Settings {
    Settings {
        bkgo: BkgoSettings {
            size,
            ..BkgoSettings::default()
        },
        ..Settings::default()
    }
}

/// A server serving Bkgo alone, with a `size` board.
fn room(size: usize) -> TestServer {
    TestServer::serving(settings(size), &[Protocol::Bkgo])
}

fn bkgo(server: &TestServer) -> SocketAddr {
    server.addr_of(Protocol::Bkgo)
}

/// A client past the greeting and the version line: it may make its request.
fn hello(server: &TestServer) -> Client {
    let mut client = Client::connect(bkgo(server));
    client.expect(GREETING);
    client.send("BKGO-Client-version-1.0");
    client.expect("OK");
    client
}

/// A client that sent `join` and has `GimmeGoPlayer`.
fn joining(server: &TestServer) -> Client {
    let mut client = hello(server);
    client.ask("join", "GimmeGoPlayer");
    client
}

/// The lines of an SGF stream up to `EOF` (after `Board:`), its date left out
/// (`DT[]`): a record's date is the day the game started.
fn sgf(client: &mut Client) -> Vec<String> {
    let mut lines = Vec::new();
    loop {
        let line = client.recv();
        if line == "EOF" {
            return lines;
        }
        lines.push(without_date(&line));
    }
}

fn without_date(line: &str) -> String {
    match (
        line.find("DT["),
        line.find("DT[").and_then(|s| line[s..].find(']')),
    ) {
        (Some(start), Some(length)) => format!("{}DT[{}", &line[..start], &line[start + length..]),
        _ => line.to_string(),
    }
}

/// The first SGF line of a game on a `size` board between `black` and `white`, with
/// the rest of the first node (`RE`, setup) and the moves after it.
fn sgf_head(size: usize, black: &str, white: &str) -> String {
    format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[goserver:{VERSION}]SZ[{size}]KM[0]RU[{RULES}]PB[{black}]PW[{white}]DT[]"
    )
}

/// The board a client receives: `Board:`, the SGF, `EOF`.
fn expect_board(client: &mut Client, expected: &[String]) {
    client.expect("Board:");
    assert_eq!(sgf(client), expected);
}

/// What a joiner receives after `Player:`: its ID, the players in join order, the
/// seats and the board.
fn expect_welcome(
    client: &mut Client,
    id: u64,
    players: &[&str],
    seats: (&str, &str),
    board: &[String],
) {
    client.expect(&format!("ID: {id}"));
    client.expect("ClearPlayers");
    for player in players {
        client.expect(&format!("AddPlayer: {player}"));
    }
    client.expect(&seat_line("BlackPlayer:", seats.0));
    client.expect(&seat_line("WhitePlayer:", seats.1));
    expect_board(client, board);
}

fn seat_line(seat: &str, name: &str) -> String {
    if name.is_empty() {
        seat.to_string()
    } else {
        format!("{seat} {name}")
    }
}

/// Ann (black) and Bob (white) in an empty room with a `size` board; both have read
/// everything so far.
fn two_players(server: &TestServer, size: usize) -> (Client, Client) {
    let mut ann = joining(server);
    ann.send("Player: Ann");
    expect_welcome(
        &mut ann,
        1,
        &["Ann"],
        ("Ann", ""),
        &[format!("{})", sgf_head(size, "Ann", ""))],
    );
    let mut bob = joining(server);
    bob.send("Player: Bob");
    expect_welcome(
        &mut bob,
        2,
        &["Ann", "Bob"],
        ("Ann", "Bob"),
        &[format!("{})", sgf_head(size, "Ann", "Bob"))],
    );
    ann.expect("AnnouncePlayer: Bob");
    ann.expect("AddPlayer: Bob");
    ann.expect("WhitePlayer: Bob");
    (ann, bob)
}

/// A watcher `name` (the room's `id`th member) joins a room where `players` are;
/// everyone in `others` hears of it. Its welcome is read but not checked.
fn watcher(server: &TestServer, name: &str, others: &mut [&mut Client]) -> Client {
    let mut client = joining(server);
    client.send(&format!("Player: {name}"));
    client.expect_prefix("ID: ");
    loop {
        if client.recv() == "Board:" {
            sgf(&mut client);
            break;
        }
    }
    for other in others.iter_mut() {
        other.expect(&format!("AnnouncePlayer: {name}"));
        other.expect(&format!("AddPlayer: {name}"));
    }
    client
}

/// Every client in `clients` receives `line`.
fn all(clients: &mut [&mut Client], line: &str) {
    for client in clients.iter_mut() {
        client.expect(line);
    }
}

/// `Dialog: <reason>` and `ServerRejectedNonFatal`.
fn expect_refusal(client: &mut Client, reason: &str) {
    client.expect(&format!("Dialog: {reason}"));
    client.expect("ServerRejectedNonFatal");
}

/// `Dialog: <reason>`, `ServerRejectedFatal`, and the connection closes.
fn expect_dropped(client: &mut Client, reason: &str) {
    client.expect(&format!("Dialog: {reason}"));
    client.expect("ServerRejectedFatal");
    client.expect_closed();
}

/// A `status` request's one line (the connection then closes).
fn status(server: &TestServer) -> String {
    let mut client = hello(server);
    client.send("status");
    let line = client.recv();
    client.expect_closed();
    line
}

/// A fresh directory under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("goserver-bkgo-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The files in `dir`, sorted by name.
fn files(dir: &PathBuf) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// The files in `dir` once there are `count` of them: the room hands its records to
/// a writer thread, so a record lands a moment after the room announced the end.
fn files_once(dir: &PathBuf, count: usize) -> Vec<PathBuf> {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let found = files(dir);
        if found.len() >= count || std::time::Instant::now() > deadline {
            return found;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Runs a console command against the server.
fn console(console: &Console, command: &str) -> String {
    match console.execute(command) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// Repeats a console command until its answer satisfies `wanted` (the console reads
/// what the room publishes after each event, which may lag a moment).
fn console_until(console: &Console, command: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer = self::console(console, command);
        if wanted(&answer) || Instant::now() > deadline {
            return answer;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

// ----- connecting and requests -----

#[test]
fn the_server_speaks_first_and_accepts_any_client_version() {
    let server = room(9);
    for version in [
        "BKGO-Client-version-0.6",
        "BKGO-Client-version-",
        "BKGO-Client-version-9 beta\r",
    ] {
        let mut client = Client::connect(bkgo(&server));
        client.expect(GREETING);
        client.send(version);
        client.expect("OK");
        client.ask("join", "GimmeGoPlayer");
    }
}

#[test]
fn a_client_beyond_max_clients_is_refused_in_bkgo_terms() {
    let mut settings = settings(9);
    settings.max_clients = 1;
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    let mut first = Client::connect(bkgo(&server));
    first.expect(GREETING);
    let mut second = Client::connect(bkgo(&server));
    second.expect(GREETING);
    expect_dropped(
        &mut second,
        "The server is full (1 clients connected): try again later",
    );
    first.ask("BKGO-Client-version-1", "OK");
}

#[test]
fn status_answers_one_line_then_closes() {
    let server = room(5);
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 0, Players: 0"
    );
    let (mut ann, mut bob) = two_players(&server, 5);
    ann.send("Place: 2, 2");
    all(&mut [&mut ann, &mut bob], "Place: 2, 2");
    bob.send("Pass");
    all(&mut [&mut ann, &mut bob], "Pass");
    // Passes count as moves; one black stone owns the whole 5x5 board (area score).
    assert_eq!(
        status(&server),
        "Moves made: 2, Black score: 25, White score: 0, Players: 2"
    );
    // SetName names the room: status shows it after the four numbers.
    ann.send("SetName: Lab 3");
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob], "Place: 0, 0");
    assert_eq!(
        status(&server),
        "Moves made: 3, Black score: 25, White score: 0, Players: 2, Name: Lab 3"
    );
}

#[test]
fn komi_is_in_white_s_score() {
    let mut settings = settings(5);
    settings.rules.komi = goserver::engine::go::Komi::from_halves(13);
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 6.5, Players: 0"
    );
}

// ----- joining: IDs, the roster, seats and watchers -----

#[test]
fn joiners_get_id_roster_seats_and_board_and_the_room_hears_of_them() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    ann.send("Place: 2, 3");
    all(&mut [&mut ann, &mut bob], "Place: 2, 3");
    // A third joiner watches; the board it gets holds the game so far.
    let mut cat = joining(&server);
    cat.send("Player: Cat");
    expect_welcome(
        &mut cat,
        3,
        &["Ann", "Bob", "Cat"],
        ("Ann", "Bob"),
        &[sgf_head(9, "Ann", "Bob"), ";B[cd])".to_string()],
    );
    // The others hear of it; no seat changed, so no seat line.
    for client in [&mut ann, &mut bob] {
        client.expect("AnnouncePlayer: Cat");
        client.expect("AddPlayer: Cat");
    }
    bob.send("Message: hi Cat");
    all(&mut [&mut ann, &mut bob, &mut cat], "Message: Bob: hi Cat");
}

#[test]
fn taken_names_get_a_suffix_within_the_room() {
    let server = room(9);
    let mut first = joining(&server);
    first.send("Player: Ann");
    first.expect("ID: 1");
    let mut second = joining(&server);
    second.send("Player: Ann");
    expect_welcome(
        &mut second,
        2,
        &["Ann", "Ann_2"],
        ("Ann", "Ann_2"),
        &[format!("{})", sgf_head(9, "Ann", "Ann_2"))],
    );
    let mut third = joining(&server);
    third.send("Player:   Ann  ");
    third.expect("ID: 3");
    third.expect("ClearPlayers");
    for name in ["Ann", "Ann_2", "Ann_3"] {
        third.expect(&format!("AddPlayer: {name}"));
    }
}

#[test]
fn a_name_that_breaks_the_rules_is_refused_and_player_may_come_again() {
    let server = room(9);
    let mut ann = joining(&server);
    let table = [
        (
            "Player:",
            "Player: the name must not be empty: send Player: <a name of 1 to 32 characters>",
        ),
        (
            "Player: abcdefghijklmnopqrstuvwxyz0123456789",
            "Player: the name may have at most 32 characters, got 36: send Player: <a name of 1 to 32 characters>",
        ),
        (
            "Player: a\u{7}b",
            "Player: the name must not contain control characters: send Player: <a name of 1 to 32 characters>",
        ),
        (
            "Player: a+b",
            "Player: the name must not contain a plus sign: send Player: <a name of 1 to 32 characters>",
        ),
    ];
    for (line, reason) in table {
        ann.send(line);
        expect_refusal(&mut ann, reason);
    }
    ann.send("Player: Ann");
    ann.expect("ID: 1");
}

#[test]
fn a_binary_java_object_instead_of_player_is_refused_and_player_may_follow() {
    let server = room(9);
    let refusal = "Binary Java objects are not supported: send your name as a line of text, Player: <your name>";
    // A serialized object's first bytes: the stream magic, a class description.
    let object = b"\xac\xed\x00\x05sr\x00\x08GoPlayer\x12\x34\x56\x78";
    // Ended by a newline...
    let mut ann = joining(&server);
    ann.send_raw(&[&object[..], b"\n"].concat());
    expect_refusal(&mut ann, refusal);
    ann.send("Player: Ann");
    ann.expect("ID: 1");
    // ... or not (ObjectOutputStream sends none): answered once the client pauses.
    let mut bob = joining(&server);
    bob.send_raw(object);
    expect_refusal(&mut bob, refusal);
    bob.send("Player: Bob");
    bob.expect("ID: 2");
    // An object holds newline bytes (in lengths, hashes): what follows one is still the
    // object, dropped, not garbage.
    let mut cat = joining(&server);
    let with_newlines = b"\xac\xed\x00\x05sr\x00\x0abkgo.GoPlayer\x12\x34\x0a\x56\x02\x00\x01L\x00\x04namet\x00\x12Ljava/lang/String;xpt\x00\x03Cat";
    cat.send_raw(with_newlines);
    expect_refusal(&mut cat, refusal);
    cat.send("Player: Cat");
    cat.expect("ID: 3");
    // A client that sends its Player: line in the same write as the object is joined:
    // the lines after the object are read, not dropped with it.
    let mut dan = joining(&server);
    dan.send_raw(&[&object[..], b"\nPlayer: Dan\n"].concat());
    expect_refusal(&mut dan, refusal);
    dan.expect("ID: 4");
    let mut eve = joining(&server);
    eve.send_raw(&[&with_newlines[..], b"\nPlayer: Eve\n"].concat());
    expect_refusal(&mut eve, refusal);
    eve.expect("ID: 5");
}

#[test]
fn a_client_that_does_not_join_in_time_is_told_and_closed() {
    let mut settings = settings(9);
    settings.handshake_timeout = Some(Duration::from_secs(5));
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    let mut slow = joining(&server);
    let mut silent = Client::connect(bkgo(&server));
    silent.expect(GREETING);
    // A member is never timed out.
    let joined = Instant::now();
    let mut ann = joining(&server);
    ann.send("Player: Ann");
    ann.expect("ID: 1");
    expect_dropped(
        &mut slow,
        "Timed out: expected Player: <your name> within 5 s of connecting, closing the connection",
    );
    expect_dropped(
        &mut silent,
        "Timed out: expected BKGO-Client-version-<your version> within 5 s of connecting, closing the connection",
    );
    std::thread::sleep((joined + Duration::from_secs(6)).saturating_duration_since(Instant::now()));
    ann.send("Message: still here");
    while ann.recv() != "Message: Ann: still here" {}
}

// ----- seats -----

#[test]
fn a_freed_seat_goes_to_the_longest_waiting_watcher() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    let mut dan = watcher(&server, "Dan", &mut [&mut ann, &mut bob, &mut cat]);
    // Ann (black) quits with her ID: Cat, who waited longest, takes black.
    ann.send("Quitting: 1");
    ann.expect_closed();
    for client in [&mut bob, &mut cat, &mut dan] {
        client.expect("GoodbyePlayer: Ann");
        client.expect("BlackPlayer: Cat");
    }
    // Bob (white) disconnects: Dan takes white.
    drop(bob);
    for client in [&mut cat, &mut dan] {
        client.expect("GoodbyePlayer: Bob");
        client.expect("WhitePlayer: Dan");
    }
    // A watcher-less room: the seat stays empty until someone joins.
    drop(cat);
    dan.expect("GoodbyePlayer: Cat");
    dan.expect("BlackPlayer:");
    let mut eve = joining(&server);
    eve.send("Player: Eve");
    expect_welcome(
        &mut eve,
        5,
        &["Dan", "Eve"],
        ("Eve", "Dan"),
        &[format!("{})", sgf_head(9, "Eve", "Dan"))],
    );
    dan.expect("AnnouncePlayer: Eve");
    dan.expect("AddPlayer: Eve");
    dan.expect("BlackPlayer: Eve");
}

#[test]
fn quitting_with_another_id_is_refused() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    ann.send("Quitting: 2");
    expect_refusal(
        &mut ann,
        "Quitting: 2 is not your ID: yours is 1, send Quitting: 1",
    );
    ann.send("Quitting: 99");
    expect_refusal(
        &mut ann,
        "Quitting: 99 is not your ID: yours is 1, send Quitting: 1",
    );
    // Nothing changed: Bob still plays white against Ann.
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob], "Place: 0, 0");
}

// ----- playing -----

#[test]
fn moves_are_broadcast_and_refusals_go_to_the_sender_only() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    ann.send("Place: 3, 4");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 3, 4");
    // Out of turn, by a watcher, on a stone, off the board: refused, nothing else.
    ann.send("Place: 4, 4");
    expect_refusal(&mut ann, "Not your turn: white (Bob) is to move");
    ann.send("Pass");
    expect_refusal(&mut ann, "Not your turn: white (Bob) is to move");
    cat.send("Place: 5, 5");
    expect_refusal(
        &mut cat,
        "You are watching: only the seated black and white players may send Place",
    );
    cat.send("Pass");
    expect_refusal(
        &mut cat,
        "You are watching: only the seated black and white players may send Pass",
    );
    bob.send("Place: 3, 4");
    expect_refusal(&mut bob, "Place: 3, 4 is not empty");
    let off = "is off the board: x and y go from 0 to 8 on this 9x9 board";
    for (line, shown) in [
        ("Place: 9, 0", "9, 0"),
        ("Place: -1, 3", "-1, 3"),
        ("Place: 0, 9", "0, 9"),
    ] {
        bob.send(line);
        expect_refusal(&mut bob, &format!("Place: {shown} {off}"));
    }
    // The others saw none of it: their next line is Bob's move.
    bob.send("Place: 4, 4");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 4, 4");
}

#[test]
fn the_default_board_is_19x19_and_19_is_off_it() {
    let server = TestServer::serving(Settings::default(), &[Protocol::Bkgo]);
    let mut ann = joining(&server);
    ann.send("Player: Ann");
    expect_welcome(
        &mut ann,
        1,
        &["Ann"],
        ("Ann", ""),
        &[format!("{})", sgf_head(19, "Ann", ""))],
    );
    ann.send("Place: 19, 0");
    expect_refusal(
        &mut ann,
        "Place: 19, 0 is off the board: x and y go from 0 to 18 on this 19x19 board",
    );
    ann.send("Place: 18, 18");
    ann.expect("Place: 18, 18");
}

#[test]
fn suicide_and_ko_are_refused_with_the_engine_s_verdict() {
    let server = room(5);
    let (mut ann, mut bob) = two_players(&server, 5);
    // Black: (1,0) (0,1) (2,1) (1,2); white: (2,0) (3,1) (2,2). (1,1) is then a
    // black eye whose stone (2,1) white can take.
    let points = ["1, 0", "2, 0", "0, 1", "3, 1", "2, 1", "2, 2", "1, 2"];
    for (i, point) in points.iter().enumerate() {
        let mover = if i % 2 == 0 { &mut ann } else { &mut bob };
        mover.send(&format!("Place: {point}"));
        all(&mut [&mut ann, &mut bob], &format!("Place: {point}"));
    }
    // White at (0,0) would have no liberty: suicide.
    bob.send("Place: 0, 0");
    expect_refusal(
        &mut bob,
        "Place: 0, 0 is suicide: the stone would have no liberties",
    );
    // White takes at (1,1), capturing (2,1); black may not retake at once.
    bob.send("Place: 1, 1");
    all(&mut [&mut ann, &mut bob], "Place: 1, 1");
    ann.send("Place: 2, 1");
    expect_refusal(
        &mut ann,
        "Place: 2, 1 retakes a ko at once: black must play elsewhere first",
    );
    // Elsewhere first, then the retake is legal.
    ann.send("Place: 4, 4");
    all(&mut [&mut ann, &mut bob], "Place: 4, 4");
    bob.send("Place: 4, 0");
    all(&mut [&mut ann, &mut bob], "Place: 4, 0");
    ann.send("Place: 2, 1");
    all(&mut [&mut ann, &mut bob], "Place: 2, 1");
}

#[test]
fn two_passes_end_the_game_with_the_area_score_and_a_record() {
    let dir = temp_dir("two-passes");
    let mut settings = settings(5);
    settings.records = Some(dir.clone());
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    let (mut ann, mut bob) = two_players(&server, 5);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    ann.send("Place: 2, 2");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 2, 2");
    bob.send("Pass");
    all(&mut [&mut ann, &mut bob, &mut cat], "Pass");
    ann.send("Pass");
    all(&mut [&mut ann, &mut bob, &mut cat], "Pass");
    all(
        &mut [&mut ann, &mut bob, &mut cat],
        "Dialog: Game over: both players passed. Area score: black 25, white 0 (komi 0): Ann (black) wins by 25",
    );
    // The result was recorded before the room heard the end (ARENA.md).
    let results = server.server.results.recent(10);
    assert_eq!(results.len(), 1);
    let result = serde_json::to_value(&*results[0]).expect("JSON");
    assert_eq!(
        (&result["front"], &result["game"], &result["players"]),
        (
            &serde_json::json!("bkgo"),
            &serde_json::json!(1),
            &serde_json::json!([{"name": "Ann", "colour": 1, "score": 25}, {"name": "Bob", "colour": 2, "score": 0}])
        )
    );
    assert_eq!(
        (
            &result["winner"],
            &result["ending"],
            &result["moves"],
            &result["size"],
            &result["rated"]
        ),
        (
            &serde_json::json!("Ann"),
            &serde_json::json!("passes"),
            &serde_json::json!(3),
            &serde_json::json!(5),
            &serde_json::json!(true)
        )
    );
    // The board stays; nothing more can be played on it.
    bob.send("Place: 0, 0");

    expect_refusal(
        &mut bob,
        "The game is over: a seated player may send NewBoard to start a new one",
    );
    ann.send("Pass");
    expect_refusal(
        &mut ann,
        "The game is over: a seated player may send NewBoard to start a new one",
    );
    // The record is written by the room's writer thread.
    let written = files_once(&dir, 1);

    assert_eq!(written.len(), 1, "{written:?}");
    let name = written[0]
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    assert!(
        name.starts_with("bkgo-") && name.ends_with("-1.sgf"),
        "{name}"
    );
    let text = std::fs::read_to_string(&written[0]).expect("the record");
    let lines: Vec<String> = text.lines().map(without_date).collect();
    assert_eq!(
        lines,
        [
            format!("{}RE[B+25]", sgf_head(5, "Ann", "Bob")),
            ";B[cc]".to_string(),
            ";W[]".to_string(),
            ";B[])".to_string()
        ]
    );
    // A joiner gets the finished board with its result.
    let mut dan = joining(&server);
    dan.send("Player: Dan");
    expect_welcome(
        &mut dan,
        4,
        &["Ann", "Bob", "Cat", "Dan"],
        ("Ann", "Bob"),
        &lines,
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_board_from_a_seated_player_starts_again_and_resends_the_room() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 0, 0");
    cat.send("NewBoard");
    expect_refusal(
        &mut cat,
        "You are watching: only a seated player may send NewBoard",
    );
    bob.send("NewBoard");
    for client in [&mut ann, &mut bob, &mut cat] {
        client.expect("ClearPlayers");
        for name in ["Ann", "Bob", "Cat"] {
            client.expect(&format!("AddPlayer: {name}"));
        }
        client.expect("BlackPlayer: Ann");
        client.expect("WhitePlayer: Bob");
        expect_board(client, &[format!("{})", sgf_head(9, "Ann", "Bob"))]);
    }
    // Black moves first again; the move count starts again.
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 0, 0");
    assert_eq!(
        status(&server),
        "Moves made: 1, Black score: 81, White score: 0, Players: 3"
    );
}

// ----- SendingBoard -----

/// Sends an SGF stream: `SendingBoard`, `lines`, `EOF`.
fn send_board(client: &mut Client, lines: &[&str]) {
    client.send("SendingBoard");
    for line in lines {
        client.send(line);
    }
    client.send("EOF");
}

#[test]
fn a_seated_player_loads_an_sgf_before_the_first_move() {
    let mut settings = settings(9);
    settings.max_board_size = 13;
    let server = TestServer::serving(settings, &[Protocol::Bkgo]);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    // Setup stones, whose turn, moves; another legal size.
    send_board(
        &mut bob,
        &[
            "(;FF[4]GM[1]SZ[13]",
            "AB[aa][bb]AW[cc]PL[W]",
            ";W[dd]",
            ";B[])",
        ],
    );
    let board = [
        format!("{}AB[aa][bb]AW[cc]PL[W]", sgf_head(13, "Ann", "Bob")),
        ";W[dd]".to_string(),
        ";B[])".to_string(),
    ];
    for client in [&mut ann, &mut bob, &mut cat] {
        expect_board(client, &board);
    }
    assert_eq!(
        status(&server),
        "Moves made: 2, Black score: 2, White score: 2, Players: 3"
    );
    // A loaded SGF's moves are not moves played here: another may replace it.
    send_board(&mut ann, &["(;SZ[9])"]);
    for client in [&mut ann, &mut bob, &mut cat] {
        expect_board(client, &[format!("{})", sgf_head(9, "Ann", "Bob"))]);
    }
    // After the first Place, no more.
    ann.send("Place: 4, 4");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 4, 4");
    send_board(&mut bob, &["(;SZ[9])"]);
    expect_refusal(
        &mut bob,
        "SendingBoard is accepted only before the first Place or Pass of a game: send NewBoard first",
    );
    // A watcher never.
    send_board(&mut cat, &["(;SZ[9])"]);
    expect_refusal(
        &mut cat,
        "You are watching: only a seated player may send SendingBoard",
    );
    // NewBoard goes back to the room's size.
    bob.send("NewBoard");
    for client in [&mut ann, &mut bob, &mut cat] {
        for _ in 0..6 {
            client.recv();
        }
        expect_board(client, &[format!("{})", sgf_head(9, "Ann", "Bob"))]);
    }
}

#[test]
fn a_loaded_sgf_that_ends_in_two_passes_ends_the_game_with_its_result() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    send_board(&mut ann, &["(;FF[4]SZ[9];B[aa];W[];B[])"]);
    let board = [
        sgf_head(9, "Ann", "Bob"),
        ";B[aa]".to_string(),
        ";W[]".to_string(),
        ";B[])".to_string(),
    ];
    for client in [&mut ann, &mut bob] {
        expect_board(client, &board);
        client.expect(
            "Dialog: Game over: the loaded board ends with two passes. Area score: black 81, white 0 (komi 0): Ann (black) wins by 81",
        );
    }
    bob.send("Pass");
    expect_refusal(
        &mut bob,
        "The game is over: a seated player may send NewBoard to start a new one",
    );
}

#[test]
fn a_bad_sgf_is_refused_with_a_reason_and_the_board_stays() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let refused = "SendingBoard refused, the board is unchanged:";
    let big_line = format!("C[{}]", "x".repeat(3990));
    // A megabyte in lines of 4 KB, ending with a good record: too large as a whole.
    let mut megabyte: Vec<&str> = std::iter::repeat_n(big_line.as_str(), 256).collect();
    megabyte.push("(;SZ[9])");
    let table: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["(;FF[4]SZ[9]", "AB[aa"],
            format!("{refused} SGF syntax: "),
        ),
        (
            vec!["(;FF[4]SZ[20])"],
            format!("{refused} SZ[20]: the board size must be from 2 to 19 here"),
        ),
        (
            vec!["(;FF[4]SZ[9]AB[aa]AW[ab][ba])"],
            format!(
                "{refused} First node: Setup chain without liberties: black A9 (a setup captures nothing: leave every chain a liberty)"
            ),
        ),
        (
            vec!["(;SZ[9];B[aa];B[bb])"],
            format!(
                "{refused} Move 2 (B[bb] at B8): black moves twice in a row, but moves alternate: write a pass W[] between"
            ),
        ),
        (
            megabyte,
            format!(
                "{refused} SGF too large: {} bytes, at most 65536 are read",
                256 * (big_line.len() + 1) + "(;SZ[9])".len() + 1
            ),
        ),
    ];
    for (lines, reason) in table {
        send_board(&mut ann, &lines);
        let dialog = ann.recv();
        assert!(
            dialog.starts_with(&format!("Dialog: {reason}")),
            "{dialog:?} should start with {reason:?}"
        );
        ann.expect("ServerRejectedNonFatal");
    }
    // The board and the room are unharmed: the game goes on from the empty board.
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob], "Place: 0, 0");
    assert_eq!(
        status(&server),
        "Moves made: 1, Black score: 81, White score: 0, Players: 2"
    );
}

#[test]
fn every_position_of_a_random_game_reads_back_from_the_room_s_sgf() {
    use goserver::engine::go::{Colour, Game, Move, Point, Rules};
    use goserver::engine::sgf::{ReadLimits, load};
    let size = 7;
    let server = room(size);
    let (mut ann, mut bob) = two_players(&server, size);
    let front_end = server.front_end(Protocol::Bkgo);
    let mut game = Game::new(size, Rules::default()).expect("7x7");
    // xorshift64*: the same game on every run.
    let mut state: u64 = 0x0dd_ba11_5eed;
    let mut below = |n: usize| {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    };
    for turn in 0..3 * size * size {
        let colour = game.to_move();
        let point = (0..4 * size * size)
            .map(|_| Point::new(below(size) as u8, below(size) as u8))
            .find(|&p| game.check(colour, Move::Play(p)).is_ok());
        let (line, mv) = match point {
            Some(p) if turn % 13 != 12 => {
                (format!("Place: {}, {}", p.col(), p.row()), Move::Play(p))
            }
            _ => ("Pass".to_string(), Move::Pass),
        };
        game.play(colour, mv).expect("a checked move");
        let mover = if colour == Colour::Black {
            &mut ann
        } else {
            &mut bob
        };
        mover.send(&line);
        all(&mut [&mut ann, &mut bob], &line);
        // The room's SGF (what Board: sends), read back, is the same position.
        let record = front_end.record("bkgo").expect("the room's record");
        let read = load(&record.text, &ReadLimits::default(), Rules::default())
            .unwrap_or_else(|e| panic!("{e}\n{}", record.text));
        assert_eq!(
            read.board().to_string(),
            game.board().to_string(),
            "move {turn}"
        );
        assert_eq!(read.to_move(), game.to_move(), "move {turn}");
        assert_eq!(read.moves(), game.moves(), "move {turn}");
        if game.is_over() {
            ann.recv();
            bob.recv();
            break;
        }
    }
    assert!(game.captures(Colour::Black) + game.captures(Colour::White) > 0);
}

// ----- chat, names -----

#[test]
fn chat_reaches_everyone_with_the_sender_s_name() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    cat.send("Message: good move: really, Ann");
    all(
        &mut [&mut ann, &mut bob, &mut cat],
        "Message: Cat: good move: really, Ann",
    );
    ann.send("Message:");
    all(&mut [&mut ann, &mut bob, &mut cat], "Message: Ann: ");
}

#[test]
fn set_name_is_for_seated_players_only() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    cat.send("SetName: Cat's room");
    expect_refusal(
        &mut cat,
        "You are watching: only a seated player may send SetName",
    );
    // Any text is accepted silently (it is no player name): status and the console
    // show it; an empty one unnames the room.
    let long = "Room 101, the big one at the end of the corridor, second floor";
    bob.send(&format!("SetName: {long}"));
    bob.send("Message: named");
    all(&mut [&mut ann, &mut bob, &mut cat], "Message: Bob: named");
    assert_eq!(
        status(&server),
        format!("Moves made: 0, Black score: 0, White score: 0, Players: 3, Name: {long}")
    );
    bob.send("SetName:");
    bob.send("Message: unnamed");
    all(&mut [&mut ann, &mut bob, &mut cat], "Message: Bob: unnamed");
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 0, Players: 3"
    );
}

// ----- garbage -----

#[test]
fn garbage_before_joining_is_told_why_then_closed() {
    let server = room(9);
    let version = "BKGO-Client-version-<your version>";
    // (lines before, the garbage, the reason)
    let table: Vec<(Vec<&str>, Vec<u8>, String)> = vec![
        (
            vec![],
            b"hello".to_vec(),
            format!("Unknown message 'hello': expected {version}"),
        ),
        (
            vec![],
            b"".to_vec(),
            format!("Empty line: expected {version}"),
        ),
        (
            vec![],
            b"BKGO-Client-version-\xff".to_vec(),
            "The line is not valid UTF-8 text".into(),
        ),
        (
            vec![],
            vec![b'x'; 4097],
            "Line too long: at most 4096 bytes per line".into(),
        ),
        (
            vec!["BKGO-Client-version-1"],
            b"JOIN".to_vec(),
            "Unknown message 'JOIN': messages are case sensitive, did you mean join?".into(),
        ),
        (
            vec!["BKGO-Client-version-1"],
            b"Player: Ann".to_vec(),
            "Player is not expected now: expected one of join, status, shutdown".into(),
        ),
        (
            vec!["BKGO-Client-version-1", "join"],
            b"Place: 1, 1".to_vec(),
            "Place is not expected now: expected Player: <your name>".into(),
        ),
        (
            vec!["BKGO-Client-version-1", "join"],
            b"Player: \xff\xfe".to_vec(),
            "The line is not valid UTF-8 text".into(),
        ),
        (
            vec!["BKGO-Client-version-1", "shutdown"],
            b"Password: \xff".to_vec(),
            "The line is not valid UTF-8 text".into(),
        ),
        (
            vec!["BKGO-Client-version-1", "shutdown"],
            b"hunter2".to_vec(),
            "Expected Password: <password> after GimmePassword (the line is not shown)".into(),
        ),
    ];
    for (before, garbage, reason) in table {
        let mut client = Client::connect(bkgo(&server));
        client.expect(GREETING);
        for line in before {
            client.send(line);
            client.recv();
        }
        client.send_raw(&[&garbage[..], b"\n"].concat());
        expect_dropped(&mut client, &reason);
    }
    // The room was never touched.
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 0, Players: 0"
    );
}

#[test]
fn garbage_in_the_room_drops_its_sender_and_the_room_hears_goodbye() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let place = "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15";
    // (the garbage, the reason)
    let table: Vec<(Vec<u8>, String)> = vec![
        (b"Place: a, b".to_vec(), format!("{place}, got 'a, b'")),
        (b"Place: 3 4".to_vec(), format!("{place}, got '3 4'")),
        (
            b"Place: 1, 2, 3".to_vec(),
            format!("{place}, got '1, 2, 3'"),
        ),
        (
            b"Place 3, 4".to_vec(),
            "Place takes arguments after a colon: send Place: <x>, <y>".into(),
        ),
        (
            b"Pass: 1".to_vec(),
            "Pass takes no arguments: send Pass alone".into(),
        ),
        (
            b"Quitting: me".to_vec(),
            "Quitting needs your ID number (from your ID: line), as in Quitting: 7, got 'me'"
                .into(),
        ),
        (
            b"hello".to_vec(),
            format!("Unknown message 'hello': expected {ROOM_MESSAGES}"),
        ),
        (
            b"pass".to_vec(),
            "Unknown message 'pass': messages are case sensitive, did you mean Pass?".into(),
        ),
        (
            b"".to_vec(),
            format!("Empty line: expected {ROOM_MESSAGES}"),
        ),
        (
            b"Player: Ann".to_vec(),
            format!("Player is not expected now: expected {ROOM_MESSAGES}"),
        ),
        (
            b"Password: s3cret".to_vec(),
            format!("Password is not expected now: expected {ROOM_MESSAGES}"),
        ),
        (
            b"EOF".to_vec(),
            format!("EOF is not expected now: expected {ROOM_MESSAGES}"),
        ),
        (
            b"Dialog: hi".to_vec(),
            format!("Dialog is a message the server sends, not a client: expected {ROOM_MESSAGES}"),
        ),
        (
            b"Message: \xff".to_vec(),
            "The line is not valid UTF-8 text".into(),
        ),
        (
            vec![b'y'; 5000],
            "Line too long: at most 4096 bytes per line".into(),
        ),
        // 100 KB: garbage as soon as it passes the bound, not a silent cut.
        (
            vec![b'z'; 100_000],
            "Line too long: at most 4096 bytes per line".into(),
        ),
    ];
    for (i, (garbage, reason)) in table.into_iter().enumerate() {
        let name = format!("Eve{i}");
        let mut eve = watcher(&server, &name, &mut [&mut ann, &mut bob]);
        eve.send_raw(&[&garbage[..], b"\n"].concat());
        expect_dropped(&mut eve, &reason);
        all(&mut [&mut ann, &mut bob], &format!("GoodbyePlayer: {name}"));
    }
    // A seated player that sends garbage loses its seat like any departure.
    bob.send("Place: x, 1");
    expect_dropped(&mut bob, &format!("{place}, got 'x, 1'"));
    ann.expect("GoodbyePlayer: Bob");
    ann.expect("WhitePlayer:");
    // Nothing else changed: the room goes on.
    ann.send("Place: 1, 1");
    ann.expect("Place: 1, 1");
}

#[test]
fn garbage_inside_an_sgf_stream_is_garbage_too() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    ann.send("SendingBoard");
    ann.send("(;SZ[9]");
    ann.send_raw(b"C[\xff]\n");
    expect_dropped(&mut ann, "The line is not valid UTF-8 text");
    bob.expect("GoodbyePlayer: Ann");
    bob.expect("BlackPlayer:");
}

#[test]
fn lines_sent_before_garbage_are_answered_first() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    // In one write: a move, then garbage. The room answers in order.
    ann.send_raw(b"Place: 2, 2\nPlace: a, b\n");
    ann.expect("Place: 2, 2");
    expect_dropped(
        &mut ann,
        "Place needs two whole numbers joined by a comma, x then y, as in Place: 3, 15, got 'a, b'",
    );
    bob.expect("Place: 2, 2");
    bob.expect("GoodbyePlayer: Ann");
    bob.expect("BlackPlayer:");
}

// ----- remote shutdown -----

fn with_password(password: &str) -> Settings {
    let mut settings = settings(9);
    settings.bkgo.password = Secret::from_first_line(password);
    settings
}

/// A client that asked for `shutdown` and sent `Password: <guess>`.
fn guess(server: &TestServer, password: &str) -> Client {
    let mut client = hello(server);
    client.ask("shutdown", "GimmePassword");
    client.send(&format!("Password: {password}"));
    client
}

#[test]
fn a_wrong_password_is_refused_without_a_reason() {
    let server = TestServer::serving(with_password("s3cret"), &[Protocol::Bkgo]);
    for wrong in ["S3cret", "", "s3cret s3cret"] {
        let mut client = guess(&server, wrong);
        client.expect("ServerRejectedFatal");
        client.expect_closed();
    }
    // The server still serves.
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 0, Players: 0"
    );
}

#[test]
fn without_a_password_file_remote_shutdown_is_off_but_looks_the_same() {
    let server = room(9);
    let mut client = guess(&server, "");
    client.expect("ServerRejectedFatal");
    client.expect_closed();
    let mut client = guess(&server, "s3cret");
    client.expect("ServerRejectedFatal");
    client.expect_closed();
    assert_eq!(
        status(&server),
        "Moves made: 0, Black score: 0, White score: 0, Players: 0"
    );
}

#[test]
fn wrong_passwords_are_answered_at_most_one_a_second_for_the_whole_server() {
    let server = TestServer::serving(with_password("s3cret"), &[Protocol::Bkgo]);
    // Four guessers on four connections at once: the answers come a second apart.
    let mut guessers: Vec<Client> = (0..4)
        .map(|_| {
            let mut client = hello(&server);
            client.ask("shutdown", "GimmePassword");
            client
        })
        .collect();
    let started = Instant::now();
    for client in &mut guessers {
        client.send("Password: guess");
    }
    for client in &mut guessers {
        client.expect("ServerRejectedFatal");
        client.expect_closed();
    }
    let elapsed = started.elapsed();
    assert!(
        elapsed >= Duration::from_secs(3),
        "4 wrong answers within {elapsed:?}"
    );
}

#[test]
fn the_right_password_shuts_the_whole_server_down_and_records_the_game() {
    let dir = temp_dir("remote-shutdown");
    let mut settings = with_password("s3cret");
    settings.records = Some(dir.clone());
    let mut server = TestServer::serving(settings, &[Protocol::Go, Protocol::Bkgo]);
    let (mut ann, mut bob) = two_players(&server, 9);
    ann.send("Place: 4, 4");
    all(&mut [&mut ann, &mut bob], "Place: 4, 4");
    let mut go = server.connect();
    go.ask("HANDSHAKE+Gil", "ACKNOWLEDGE_HANDSHAKE+1+1");
    go.expect_prefix("REQUEST_CONFIG+");
    let mut admin = guess(&server, "s3cret");
    admin.expect("server terminated");
    admin.expect_closed();
    // The room is told and closed; so is the GO! client: the whole server stops.
    for client in [&mut ann, &mut bob] {
        expect_dropped(client, "The server is shutting down: the room is closed");
    }
    go.expect_closed();
    server.stop();
    let written = files(&dir);
    assert_eq!(written.len(), 1, "{written:?}");
    let text = std::fs::read_to_string(&written[0]).expect("the record");
    assert!(
        text.contains("PB[Ann]PW[Bob]") && text.contains("RE[Void]"),
        "{text}"
    );
    assert!(text.ends_with("\n;B[ee])\n"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- the room under load -----

#[test]
fn fifty_clients_chatting_while_two_play_see_every_broadcast_in_one_order() {
    const CLIENTS: usize = 50;
    const MESSAGES: usize = 5;
    const MOVES: usize = 10;
    let server = room(19);
    let mut clients: Vec<Client> = Vec::new();
    for i in 0..CLIENTS {
        let mut client = joining(&server);
        client.send(&format!("Player: c{i}"));
        client.expect(&format!("ID: {}", i + 1));
        clients.push(client);
    }
    clients[0].send("Message: go");
    let threads: Vec<_> = clients
        .into_iter()
        .enumerate()
        .map(|(i, mut client)| {
            std::thread::spawn(move || {
                // Everything before "go" differs by join time; from it on, the room
                // sends every client the same lines.
                while client.recv() != "Message: c0: go" {}
                let seat = match i {
                    0 => Some(0),
                    1 => Some(1),
                    _ => None,
                };
                let mv = |n: usize| format!("Place: {}, {}", n / 2, 2 * (n % 2));
                for m in 0..MESSAGES {
                    client.send(&format!("Message: {m}"));
                }
                client.send("Message: done");
                if seat == Some(0) {
                    client.send(&mv(0));
                }
                let (mut done, mut places, mut seen) = (0, 0, Vec::new());
                while done < CLIENTS || places < 2 * MOVES {
                    let line = client.recv();
                    if line.ends_with(": done") {
                        done += 1;
                    }
                    if line.starts_with("Place: ") {
                        assert_eq!(line, mv(places), "moves in order");
                        places += 1;
                        // The next move is this player's when its colour is to move.
                        if places < 2 * MOVES && seat == Some(places % 2) {
                            client.send(&mv(places));
                        }
                    }
                    seen.push(line);
                }
                seen
            })
        })
        .collect();
    let seen: Vec<Vec<String>> = threads
        .into_iter()
        .map(|t| t.join().expect("a client thread"))
        .collect();
    let expected_lines = CLIENTS * (MESSAGES + 1) + 2 * MOVES;
    assert_eq!(seen[0].len(), expected_lines);
    for (i, lines) in seen.iter().enumerate() {
        assert_eq!(lines, &seen[0], "client {i} saw another order");
    }
}

#[test]
fn a_watcher_that_stops_reading_is_dropped_and_never_slows_the_room() {
    let server = room(9);
    let (mut ann, mut bob) = two_players(&server, 9);
    let cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    small_receive_buffer(&cat.stream);
    // Cat reads nothing from now on. Ann chats on; Ann and Bob get every message at
    // once, until the room drops Cat (its output stalled, or its queue overflowed).
    let text = "z".repeat(3000);
    let mut sent = 0;
    loop {
        ann.send(&format!("Message: {text}"));
        sent += 1;
        let line = ann.recv();
        if line == "GoodbyePlayer: Cat" {
            break;
        }
        assert_eq!(line, format!("Message: Ann: {text}"));
        bob.expect(&line);
        assert!(sent < 1_000_000, "Cat was never dropped");
    }
    // Ann's last message came after the goodbye, for Bob too: one order for all.
    ann.expect(&format!("Message: Ann: {text}"));
    bob.expect("GoodbyePlayer: Cat");
    bob.expect(&format!("Message: Ann: {text}"));
    // The room goes on.
    ann.send("Place: 0, 0");
    all(&mut [&mut ann, &mut bob], "Place: 0, 0");
    drop(cat);
}

// ----- the console -----

#[test]
fn the_console_lists_draws_traces_prints_and_kicks_the_room() {
    let server = TestServer::serving(settings(5), &[Protocol::Go, Protocol::Bkgo]);
    let operator = Console::new(&server.server);
    // An empty room on an untouched board is no game.
    assert_eq!(console(&operator, "games"), "no games");
    let (mut ann, mut bob) = two_players(&server, 5);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    let mut dan = watcher(&server, "Dan", &mut [&mut ann, &mut bob, &mut cat]);
    let _connecting = Client::connect(bkgo(&server));
    ann.send("Place: 1, 2");
    for client in [&mut ann, &mut bob, &mut cat, &mut dan] {
        client.expect("Place: 1, 2");
    }
    bob.send("SetName: Lab 3");
    // games: the room, with its seats, watchers, size, moves and turn.
    let games = console_until(&operator, "games", |a| a.contains("Lab 3"));
    let row = games
        .lines()
        .find(|l| l.starts_with("bkgo"))
        .unwrap_or_else(|| panic!("no bkgo row in\n{games}"));
    let cells: Vec<&str> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    assert_eq!(
        &cells[..7],
        [
            "bkgo",
            "bkgo",
            "playing (Lab 3)",
            "Ann (black) vs Bob (white), 2 watching",
            "5x5",
            "1",
            "Bob (white)"
        ],
        "{games}"
    );
    // players: every client of the room, and the one still connecting.
    let players = console_until(&operator, "players", |a| a.contains("connecting"));
    let states: Vec<(String, String)> = players
        .lines()
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l
                .split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect();
            (cells[0].to_string(), cells[3].to_string())
        })
        .collect();
    let expected: Vec<(String, String)> = [
        ("Ann", "black"),
        ("Bob", "white"),
        ("Cat", "watching"),
        ("Dan", "watching"),
        ("-", "connecting"),
    ]
    .iter()
    .map(|(n, s)| (n.to_string(), s.to_string()))
    .collect();
    assert_eq!(states, expected, "{players}");
    // board: the drawing with seats, watchers and score.
    let board = console(&operator, "board bkgo");
    assert_eq!(
        board,
        "room bkgo: Ann (black) vs Bob (white), 5x5, playing (Lab 3), 1 move\n   \
         A B C D E\n 5 . . . . .  5  [idx 0]\n 4 . . . . .  4  [idx 5]\n 3 .(X). . .  3  [idx 10]\n \
         2 . . . . .  2  [idx 15]\n 1 . . . . .  1  [idx 20]\n   A B C D E\n\
         last move: black B3 (Place: 1, 2), shown in ( )\nto move: Bob (white)\n\
         captures: black 0, white 0\narea score so far: black 25, white 0 (komi included)\n\
         watching: Cat, Dan"
    );
    // sgf: the room's current record.
    let record = console(&operator, "sgf bkgo");
    assert_eq!(
        record.lines().map(without_date).collect::<Vec<_>>(),
        [sgf_head(5, "Ann", "Bob"), ";B[bc])".to_string()]
    );
    // trace: a member by name.
    assert_eq!(
        console(&operator, "trace Cat"),
        "tracing Cat: its lines in (<-) and out (->) are logged"
    );
    // stats: the room counts as a game being played.
    let stats = console(&operator, "stats");
    assert!(
        stats.contains("games: 0 waiting, 1 playing, 0 finished"),
        "{stats}"
    );
    // kick a watcher: the room hears goodbye.
    let kicked = console(&operator, "kick Dan");
    assert!(kicked.starts_with("kicked Dan ("), "{kicked}");
    expect_dropped(&mut dan, "You were kicked out of the room by the operator");
    for client in [&mut ann, &mut bob, &mut cat] {
        client.expect("GoodbyePlayer: Dan");
    }
    // kick the room: everyone seated goes; the watcher takes a seat.
    assert_eq!(
        console(&operator, "kick bkgo"),
        "kicked Ann and Bob from the Bkgo room: the seats go to the longest-waiting watchers"
    );
    expect_dropped(&mut ann, "You were kicked out of the room by the operator");
    // Bob heard Ann go before his own turn came.
    bob.expect("GoodbyePlayer: Ann");
    bob.expect("BlackPlayer: Cat");
    expect_dropped(&mut bob, "You were kicked out of the room by the operator");
    for line in [
        "GoodbyePlayer: Ann",
        "BlackPlayer: Cat",
        "GoodbyePlayer: Bob",
        "WhitePlayer:",
    ] {
        cat.expect(line);
    }
    let games = console_until(&operator, "games", |a| a.contains("waiting for players"));
    assert!(
        games.contains("Cat (black) vs - (white), 0 watching"),
        "{games}"
    );
}

// ----- the binary -----

#[test]
fn the_binary_listens_for_bkgo_after_go_and_spectrangle_and_checks_its_flags() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let binary = env!("CARGO_BIN_EXE_goserver");
    let mut child = Command::new(binary)
        .args(["--port", "0", "--host", "127.0.0.1", "--no-console"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("start goserver");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut listening = Vec::new();
    while listening.len() < 3 {
        let mut line = String::new();
        assert!(
            stderr.read_line(&mut line).expect("a log line") > 0,
            "the log ended"
        );
        if let Some(at) = line.find("listening on ") {
            listening.push(line[at..].trim_end().to_string());
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        listening[0].starts_with("listening on 127.0.0.1:") && listening[0].ends_with(" (GO!)"),
        "{listening:?}"
    );
    assert!(
        listening[1].starts_with("listening on 127.0.0.1:")
            && listening[1].ends_with(" (Spectrangle)"),
        "{listening:?}"
    );
    assert!(
        listening[2].starts_with("listening on 127.0.0.1:") && listening[2].ends_with(" (Bkgo)"),
        "{listening:?}"
    );
    // A password file that cannot be used, or a size beyond the largest board, is a
    // startup error with a clear message.
    let dir = temp_dir("flags");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let empty = dir.join("empty");
    std::fs::write(&empty, "\n").expect("write");
    let missing = dir.join("missing");
    let cases = [
        (
            vec![
                "--bkgo-password-file".to_string(),
                missing.display().to_string(),
            ],
            format!(
                "--bkgo-password-file: cannot read the password file {}: ",
                missing.display()
            ),
        ),
        (
            vec![
                "--bkgo-password-file".to_string(),
                empty.display().to_string(),
            ],
            format!(
                "--bkgo-password-file: the password file {} has an empty first line: write the password on it",
                empty.display()
            ),
        ),
        (
            vec!["--bkgo-size".to_string(), "21".to_string()],
            "--bkgo-size 21 is larger than --max-board-size 19: give a size from 2 to 19"
                .to_string(),
        ),
    ];
    for (flags, message) in cases {
        let output = Command::new(binary)
            .args(["--port", "0", "--host", "127.0.0.1", "--no-console"])
            .args(&flags)
            .output()
            .expect("run goserver");
        assert!(!output.status.success(), "{flags:?}");
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(log.contains(&message), "{flags:?}: {log}");
        assert!(!log.contains("listening on"), "{flags:?}: {log}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn on_a_slow_disk_the_room_answers_chat_and_tells_the_end_once_the_result_is_on_disk() {
    let path =
        std::env::temp_dir().join(format!("goserver-bkgo-slow-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let results = goserver::results::Results::open(&path).expect("a results file");
    // Each sync takes 5 s longer than the disk makes it: long enough that chat answered
    // within 4 s (generous on a busy machine) was not waiting for the disk.
    let slow = Duration::from_secs(5);
    results.slow_disk_for_tests(slow);
    let server = TestServer::build(settings(5), &[Protocol::Bkgo], results, false);
    let (mut ann, mut bob) = two_players(&server, 5);
    let mut cat = watcher(&server, "Cat", &mut [&mut ann, &mut bob]);
    ann.send("Place: 2, 2");
    all(&mut [&mut ann, &mut bob, &mut cat], "Place: 2, 2");
    bob.send("Pass");
    all(&mut [&mut ann, &mut bob, &mut cat], "Pass");
    let ended = Instant::now();
    ann.send("Pass");
    all(&mut [&mut ann, &mut bob, &mut cat], "Pass");
    // While the result goes to the slow disk, the room answers chat at once; a
    // NewBoard waits for the end to be told.
    cat.send("Message: anyone there?");
    all(
        &mut [&mut ann, &mut bob, &mut cat],
        "Message: Cat: anyone there?",
    );
    let chat = ended.elapsed();
    assert!(
        chat < slow - Duration::from_secs(1),
        "chat waited for the disk: answered after {chat:?}"
    );
    bob.send("NewBoard");
    all(
        &mut [&mut ann, &mut bob, &mut cat],
        "Dialog: Game over: both players passed. Area score: black 25, white 0 (komi 0): Ann (black) wins by 25",
    );
    assert!(
        ended.elapsed() >= slow,
        "the end was told before the result was on disk"
    );
    // The result is on disk before anyone heard the end.
    let on_disk = std::fs::read_to_string(&path).expect("the results file");
    assert_eq!(on_disk.lines().count(), 1, "{on_disk}");
    assert!(on_disk.contains(r#""front":"bkgo""#), "{on_disk}");
    // Then the NewBoard, in order.
    all(&mut [&mut ann, &mut bob, &mut cat], "ClearPlayers");
    let _ = std::fs::remove_file(&path);
}
