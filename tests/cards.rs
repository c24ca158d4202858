//! Report cards over real TCP (docs/report.md): scripted clients make known mistakes of
//! every kind, a run of 20 identical refused moves, a stall past `--move-timeout`, a
//! game left mid-play; the exact counts and examples are read back from
//! `/api/client/...`, `/api/clients`, the CSV and the console's `report`.

mod common;

use common::*;
use goserver::console::{Console, Outcome};
use goserver::server::Protocol;
use goserver::settings::{ArenaSettings, Settings};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

/// The body of `GET path` on the web board at `web`, with its status.
fn get(web: SocketAddr, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(web).expect("connect");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    write!(stream, "GET {path} HTTP/1.1\r\nConnection: close\r\n\r\n").expect("send");
    let mut text = String::new();
    stream.read_to_string(&mut text).expect("a response");
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

fn json(web: SocketAddr, path: &str) -> Value {
    let (status, body) = get(web, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {body}"))
}

fn console(server: &TestServer, command: &str) -> String {
    match Console::new(&server.server).execute(command) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// The count of each kind on a card, as `{"kind": count}`.
fn counts(card: &Value) -> Vec<(String, u64)> {
    card["mistakes"]
        .as_array()
        .expect("the card's mistakes")
        .iter()
        .map(|k| {
            (
                k["kind"].as_str().unwrap_or_default().to_string(),
                k["count"].as_u64().unwrap_or_default(),
            )
        })
        .collect()
}

fn owned(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
    pairs.iter().map(|(k, n)| ((*k).to_string(), *n)).collect()
}

/// The card at `path` once it counts exactly `expected`, or the last one read (then
/// the caller's assertions say what differs). For a card that is made or filled after
/// a connection has closed: a client that never named itself has its mistakes put on
/// the card of its address by its farewell, once the server has seen the end of its
/// connection, a moment after the client has.
fn card_once(web: SocketAddr, path: &str, expected: &[(&str, u64)]) -> Value {
    let expected = owned(expected);
    let deadline = Instant::now() + PATIENCE;
    loop {
        let (status, body) = get(web, path);
        let card = if status == 200 {
            serde_json::from_str::<Value>(&body).unwrap_or_default()
        } else {
            Value::Null
        };
        if (card["mistakes"].is_array() && counts(&card) == expected) || Instant::now() > deadline {
            return card;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// A refused line of the leader that still owes its configuration: the refusal, then
/// REQUEST_CONFIG again.
fn refused_owing_config(client: &mut Client, line: &str, refusal: &str) -> String {
    client.send(line);
    let got = client.expect_prefix(refusal);
    client.expect_prefix("REQUEST_CONFIG+");
    got
}

#[test]
fn every_go_mistake_lands_on_its_card_with_its_first_examples() {
    let server = TestServer::with_web(
        Settings {
            seed: Some(3),
            ..Settings::default()
        },
        &[Protocol::Go],
    );
    let web = server.web();
    let mut ann = server.connect();
    // Before the handshake: on a card of its own until Ann names herself.
    ann.ask(
        "MOVE+1+Ann+0",
        "UNKNOWN_COMMAND+You are not in a game, so MOVE is not possible: send HANDSHAKE with your name first",
    );
    ann.send("");
    ann.expect_prefix("UNKNOWN_COMMAND+Empty line");
    ann.send("HANDSHAKE+");
    ann.expect_prefix("UNKNOWN_COMMAND+HANDSHAKE: ");
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    ann.expect_prefix("REQUEST_CONFIG+");
    refused_owing_config(
        &mut ann,
        "HANDSHAKE+Ann",
        "UNKNOWN_COMMAND+You are already Ann",
    );
    refused_owing_config(
        &mut ann,
        "MOVE+1+Ann+0",
        "INVALID_MOVE+Game 1 has not started yet",
    );
    refused_owing_config(
        &mut ann,
        "SET_CONFIG+1+1+99",
        "UNKNOWN_COMMAND+SET_CONFIG: board size",
    );
    refused_owing_config(
        &mut ann,
        "SET_CONFIG+2+1+5",
        "UNKNOWN_COMMAND+SET_CONFIG: wrong game id",
    );
    refused_owing_config(&mut ann, "SET_CONFIG+1+x+5", "UNKNOWN_COMMAND+SET_CONFIG: ");
    refused_owing_config(&mut ann, "SET_CONFIG+1+7+5", "UNKNOWN_COMMAND+SET_CONFIG: ");
    refused_owing_config(
        &mut ann,
        "SET_CONFIG+1+1",
        "UNKNOWN_COMMAND+Expected 4 fields",
    );
    refused_owing_config(
        &mut ann,
        "set_config+1+1+5",
        "UNKNOWN_COMMAND+Unknown command 'set_config'",
    );
    refused_owing_config(&mut ann, "HELLO", "UNKNOWN_COMMAND+Unknown command 'HELLO'");
    refused_owing_config(&mut ann, &"x".repeat(5000), "UNKNOWN_COMMAND+Line too long");
    ann.send_raw(b"\xff\xfe\n");
    ann.expect("UNKNOWN_COMMAND+The line is not valid UTF-8 text");
    ann.expect_prefix("REQUEST_CONFIG+");

    let mut bob = server.connect();
    bob.ask("HANDSHAKE+Bob", "ACKNOWLEDGE_HANDSHAKE+1+0");
    bob.ask(
        "SET_CONFIG+1+1+5",
        "UNKNOWN_COMMAND+Only the leader of game 1, Ann, sends SET_CONFIG",
    );
    ann.send("SET_CONFIG+1+1+5");
    let start = format!("PLAYING;1;{}", empty(5));
    ann.expect(&format!("ACKNOWLEDGE_CONFIG+Ann+1+5+{start}+Bob"));
    bob.expect(&format!("ACKNOWLEDGE_CONFIG+Bob+2+5+{start}+Ann"));
    // Ann was sent REQUEST_CONFIG twelve times (once with her game, then after each
    // of her eleven refused lines) and answered seven of them with a SET_CONFIG line
    // (six refused, then the one that configured the game): her next five SET_CONFIG
    // answer the others and are taken quietly; the sixth answers nothing.
    for _ in 0..5 {
        ann.send("SET_CONFIG+1+1+5");
    }
    ann.ask(
        "SET_CONFIG+1+1+5",
        "UNKNOWN_COMMAND+Game 1 is already configured (5x5)",
    );
    // The same refused move twenty times in a row.
    for _ in 0..20 {
        bob.ask(
            "MOVE+1+Bob+0",
            "INVALID_MOVE+Not your turn: black is to move",
        );
    }
    ann.ask(
        "MOVE+1+Bob+0",
        "INVALID_MOVE+MOVE: wrong player name: you are Ann, got Bob",
    );
    ann.send("MOVE+1+Ann+25");
    ann.expect_prefix("INVALID_MOVE+Tile index 25 is off the board");
    ann.send("SET_REMATCH+1");
    ann.expect_prefix("UNKNOWN_COMMAND+SET_REMATCH answers REQUEST_REMATCH");
    // A ko in the corner: black takes white's stone at 6 with 7; white may not take back.
    for (mover, index) in [
        ("Ann", 1),
        ("Bob", 2),
        ("Ann", 5),
        ("Bob", 8),
        ("Ann", 11),
        ("Bob", 12),
        ("Ann", 20),
        ("Bob", 6),
        ("Ann", 7),
    ] {
        let (me, other) = if mover == "Ann" {
            (&mut ann, &mut bob)
        } else {
            (&mut bob, &mut ann)
        };
        me.send(&format!("MOVE+1+{mover}+{index}"));
        let ack = me.expect_prefix(&format!("ACKNOWLEDGE_MOVE+1+{index};"));
        other.expect(&ack);
    }
    bob.send("MOVE+1+Bob+6");
    bob.expect_prefix("INVALID_MOVE+");
    bob.send("MOVE+1+Bob+0");
    bob.expect_prefix("INVALID_MOVE+");
    bob.send("MOVE+1+Bob+1");
    bob.expect_prefix("INVALID_MOVE+Tile 1 (B5) is not empty");
    bob.send("MOVE+1+Bob+-1");
    let pass = bob.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;2+");
    ann.expect(&pass);
    ann.send("MOVE+1+Ann+-1");
    let pass = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;1+");
    bob.expect(&pass);
    for client in [&mut ann, &mut bob] {
        client.expect_prefix("GAME_FINISHED+1+");
        client.expect("REQUEST_REMATCH");
    }
    ann.send("MOVE+1+Ann+3");
    ann.expect_prefix("INVALID_MOVE+Game 1 is finished");
    ann.send("SET_REMATCH+1");
    ann.ask(
        "SET_REMATCH+1",
        "UNKNOWN_COMMAND+You already answered the rematch request",
    );
    bob.send("SET_REMATCH+0");
    ann.expect("ACKNOWLEDGE_REMATCH+0");
    bob.expect("ACKNOWLEDGE_REMATCH+0");
    ann.ask(
        "MOVE+1+Ann+0",
        "UNKNOWN_COMMAND+You are not in a game, so MOVE is not possible: send HANDSHAKE with your name first",
    );

    let card = json(web, "/api/client/go/Ann");
    assert_eq!(
        counts(&card),
        owned(&[
            ("empty-line", 1),
            ("unknown-command", 1),
            ("wrong-case", 1),
            ("wrong-field-count", 1),
            ("not-a-number", 1),
            ("bad-value", 1),
            ("line-too-long", 1),
            ("not-utf8", 1),
            ("bad-name", 1),
            ("before-handshake", 1),
            ("second-handshake", 1),
            ("wrong-game-id", 1),
            ("wrong-name", 1),
            ("already-configured", 1),
            ("bad-board-size", 1),
            ("not-in-game", 1),
            ("not-started", 1),
            ("after-the-end", 1),
            ("off-board", 1),
            ("rematch-not-asked", 1),
            ("rematch-twice", 1),
        ])
    );
    assert_eq!(card["mistakes_total"], 21);
    assert_eq!(card["connections"], 1);
    assert_eq!(
        (card["games"].as_u64(), card["moves"].as_u64()),
        (Some(1), Some(6))
    );
    assert_eq!(card["move_times"]["count"], 6);
    let examples = card["examples"].as_array().expect("examples");
    let example = |kind: &str| {
        examples
            .iter()
            .find(|e| e["kind"] == kind)
            .unwrap_or_else(|| panic!("an example of {kind}: {examples:?}"))
            .clone()
    };
    assert_eq!(example("before-handshake")["line"], "MOVE+1+Ann+0");
    assert_eq!(
        example("before-handshake")["answer"],
        "UNKNOWN_COMMAND+You are not in a game, so MOVE is not possible: send HANDSHAKE with your name first"
    );
    assert_eq!(
        example("not-utf8")["line"],
        "(a line that is not UTF-8 text)"
    );
    assert_eq!(
        example("line-too-long")["line"],
        "(a line of more than 4096 bytes)"
    );
    assert_eq!(example("wrong-case")["line"], "set_config+1+1+5");

    let card = json(web, "/api/client/go/Bob");
    assert_eq!(
        counts(&card),
        owned(&[
            ("not-leader", 1),
            ("not-your-turn", 20),
            ("point-taken", 1),
            ("suicide", 1),
            ("ko", 1),
        ])
    );
    assert_eq!(card["longest_repeat"], 20);
    assert_eq!(card["repeated_line"], "MOVE+1+Bob+0");
    let turns: Vec<&Value> = card["examples"]
        .as_array()
        .expect("examples")
        .iter()
        .filter(|e| e["kind"] == "not-your-turn")
        .collect();
    assert_eq!(turns.len(), 3, "the first three examples only");
    for example in turns {
        assert_eq!(example["line"], "MOVE+1+Bob+0");
        assert_eq!(
            example["answer"],
            "INVALID_MOVE+Not your turn: black is to move"
        );
    }

    // The list, the worst first: Bob (24 mistakes), then Ann (21).
    let list = json(web, "/api/clients");
    let names: Vec<&str> = list["clients"]
        .as_array()
        .expect("rows")
        .iter()
        .filter_map(|row| row["name"].as_str())
        .collect();
    assert_eq!(names, ["Bob", "Ann"]);
    assert_eq!(list["clients"][0]["mistakes"]["not-your-turn"], 20);
    assert!(list["clients"][0].get("examples").is_none());

    // The CSV: a column per count.
    let (status, csv) = get(web, "/api/clients.csv");
    assert_eq!(status, 200);
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let bob: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).expect(name);
    assert_eq!(bob[column("name")], "Bob");
    assert_eq!(bob[column("not-your-turn")], "20");
    assert_eq!(bob[column("ko")], "1");
    assert_eq!(bob[column("longest_repeat")], "20");

    // The console: a row per client, the worst first; and a whole card.
    let report = console(&server, "report");
    let rows: Vec<&str> = report.lines().collect();
    assert!(rows[0].starts_with("FRONT  NAME  CONNS  W-L-D"), "{report}");
    assert!(rows[1].starts_with("go     Bob "), "{report}");
    assert!(rows[1].contains(" not-your-turn 20 "), "{report}");
    let whole = console(&server, "report Bob");
    assert!(
        whole.contains("\n24 mistakes; the longest run of one refused line: 20 (MOVE+1+Bob+0)\n"),
        "{whole}"
    );
    assert!(whole.contains("\n  not-your-turn 20\n"), "{whole}");
}

#[test]
fn a_stall_past_the_move_clock_a_game_left_and_a_silent_client_are_counted() {
    let server = TestServer::with_web(
        Settings {
            move_timeout: Some(Duration::from_secs(1)),
            handshake_timeout: Some(Duration::from_secs(1)),
            seed: Some(5),
            ..Settings::default()
        },
        &[Protocol::Go],
    );
    let web = server.web();
    // Cid (black) never moves: the clock ends the game.
    let (mut cid, mut dan) = start_named(&server, 1, 5, "Cid", "Dan");
    let ending = "GAME_FINISHED+1+Dan+0;0+Cid did not move within 1 s: Dan wins";
    cid.expect(ending);
    dan.expect(ending);
    // Eve leaves in the middle of her game.
    let (mut eve, mut fay) = start_named(&server, 2, 5, "Eve", "Fay");
    eve.send("MOVE+2+Eve+12");
    let ack = eve.expect_prefix("ACKNOWLEDGE_MOVE+2+12;1+");
    fay.expect(&ack);
    drop(eve);
    fay.expect_prefix("GAME_FINISHED+2+Fay+");
    // A client that never names itself is closed, and kept as its address.
    let mut silent = server.connect();
    silent.expect("UNKNOWN_COMMAND+No HANDSHAKE within 1 s: closing the connection");
    silent.expect_closed();

    let card = json(web, "/api/client/go/Cid");
    assert_eq!(
        (card["late_moves"].as_u64(), card["losses"].as_u64()),
        (Some(1), Some(1))
    );
    let card = json(web, "/api/client/go/Dan");
    assert_eq!(
        (card["wins"].as_u64(), card["late_moves"].as_u64()),
        (Some(1), Some(0))
    );
    let card = json(web, "/api/client/go/Eve");
    assert_eq!(
        (card["games_left"].as_u64(), card["losses"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(card["moves"], 1);
    // The silent client's card is made after its connection closed: wait for its count
    // (the card may show before its mistake is on it).
    let expected = [("no-handshake-in-time", 1)];
    let unnamed = card_once(web, "/api/client/go/%28unnamed%29%20127.0.0.1", &expected);
    assert_eq!(counts(&unnamed), owned(&expected));
    assert_eq!(unnamed["examples"][0]["line"], "(nothing: silence)");
}

#[test]
fn the_arena_s_own_refusals_are_counted() {
    let server = TestServer::with_web(
        Settings {
            arena: Some(ArenaSettings {
                size: 5,
                round: Duration::from_secs(60),
                move_clock: None,
            }),
            ..Settings::default()
        },
        &[Protocol::Go],
    );
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.send("SET_CONFIG+1+1+9");
    ann.expect_prefix("UNKNOWN_COMMAND+The arena sets the game");
    ann.send("MOVE+1+Ann+0");
    ann.expect_prefix("UNKNOWN_COMMAND+You are waiting in the arena");
    let card = json(server.web(), "/api/client/go/Ann");
    assert_eq!(
        counts(&card),
        owned(&[("arena-sets-the-game", 1), ("waiting-for-round", 1)])
    );
}

#[test]
fn hostile_names_and_a_million_lines_stay_bounded_and_escaped() {
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let web = server.web();
    let name = "<script>alert(1)</script>=1+";
    let mut eve = server.connect();
    // '+' ends the name field: the name granted is what comes before it.
    eve.send(&format!("HANDSHAKE+{}", &name[..name.len() - 1]));
    eve.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    eve.expect_prefix("REQUEST_CONFIG+");
    // Hundreds of refused lines, written without reading the answers first (the
    // server paces a client past 20 refusals in a row: 100 lines a second).
    let mut writer = eve.stream.try_clone().expect("clone");
    let sender = thread::spawn(move || {
        let line = "NONSENSE\n".repeat(100);
        for _ in 0..5 {
            if writer.write_all(line.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut reader = BufReader::new(eve.stream.try_clone().expect("clone"));
    let mut answered = 0;
    let mut text = String::new();
    while answered < 500 {
        text.clear();
        if reader.read_line(&mut text).unwrap_or(0) == 0 {
            break;
        }
        if text.starts_with("UNKNOWN_COMMAND+Unknown command 'NONSENSE'") {
            answered += 1;
        }
    }
    let _ = sender.join();
    assert_eq!(answered, 500);
    let path = "/api/client/go/%3Cscript%3Ealert(1)%3C%2Fscript%3E%3D1";
    let card = json(web, path);
    assert_eq!(card["name"], "<script>alert(1)</script>=1");
    assert_eq!(counts(&card), owned(&[("unknown-command", 500)]));
    assert_eq!(card["longest_repeat"], 500);
    assert_eq!(card["examples"].as_array().map(Vec::len), Some(3));
    // The card's page carries the name escaped; the CSV defuses the formula.
    let (status, page) = get(web, &path.replace("/api/client/", "/client/"));
    assert_eq!(status, 200);
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt;=1 (go)"),
        "{page}"
    );
    assert!(!page.contains("<script>alert"), "{page}");
    let (_, csv) = get(web, "/api/clients.csv");
    assert!(csv.contains("go,<script>alert(1)</script>=1,"), "{csv}");
    // A name that begins like a formula gets a quote in front.
    let mut formula = server.connect();
    formula.send("HANDSHAKE+=cmd|'/c calc'!A1");
    formula.expect_prefix("ACKNOWLEDGE_HANDSHAKE+");
    let (_, csv) = get(web, "/api/clients.csv");
    assert!(csv.contains("go,'=cmd|'/c calc'!A1,"), "{csv}");
}

#[test]
fn a_forgotten_card_s_stream_says_gone_and_a_name_without_a_card_is_404() {
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let web = server.web();
    let (status, body) = get(web, "/api/client/go/Nobody");
    assert_eq!(status, 404);
    assert!(body.contains(r#""error":"no report card"#), "{body}");
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    drop(ann);
    let mut stream = TcpStream::connect(web).expect("connect");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    write!(
        stream,
        "GET /events/client/go/Ann HTTP/1.1\r\nHost: test\r\n\r\n"
    )
    .expect("send");
    let mut events = BufReader::new(stream);
    let mut line = String::new();
    let mut next_line = |line: &mut String| {
        line.clear();
        events.read_line(line).unwrap_or(0)
    };
    while next_line(&mut line) > 0 && line.trim_end() != "event: card" {}
    assert_eq!(line.trim_end(), "event: card", "Ann's card first");
    // Two thousand names that come and go: the idlest card that nobody holds, Ann's,
    // is forgotten to keep the bound (idlest by milliseconds: the first names must not
    // come in Ann's).
    thread::sleep(Duration::from_millis(5));
    for n in 0..goserver::cards::CARDS_KEPT {
        let mut client = server.connect();
        client.send(&format!("HANDSHAKE+P{n}"));
        client.expect_prefix("ACKNOWLEDGE_HANDSHAKE+");
    }
    // Bounded: the stream's keep-alives would otherwise keep this loop reading.
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline && next_line(&mut line) > 0 && line.trim_end() != "event: gone"
    {
    }
    assert_eq!(line.trim_end(), "event: gone");
    next_line(&mut line);
    assert_eq!(line.trim_end(), r#"data: {"front":"go","name":"Ann"}"#);
    // Then the stream ends.
    while next_line(&mut line) > 0 {}
    assert_eq!(get(web, "/api/client/go/Ann").0, 404);
    assert!(
        console(&server, "stats").contains(
            "report cards: 2000, bound 2000 (1 forgotten, the idlest not connected first)"
        ),
        "{}",
        console(&server, "stats")
    );
}

#[test]
fn every_spectrangle_mistake_lands_on_its_card() {
    let server = TestServer::with_web(
        Settings {
            seed: Some(1),
            ..Settings::default()
        },
        &[Protocol::Spectrangle],
    );
    let web = server.web();
    let addr = server.addr_of(Protocol::Spectrangle);
    let mut ann = Client::connect(addr);
    ann.ask(
        "READY",
        "ERROR 7 You are not in a lobby, so READY is not possible: send JOIN <name> first",
    );
    ann.send("HELLO");
    ann.expect_prefix("ERROR 1 ");
    ann.send("join Ann");
    ann.expect_prefix("ERROR 1 ");
    ann.send("JOIN");
    ann.expect_prefix("ERROR 2 ");
    ann.ask("JOIN Ann", "LOBBY Ann");
    ann.send("JOIN Ann");
    ann.expect_prefix("ERROR 0 You are already in lobby");
    let mut bob = Client::connect(addr);
    bob.send("JOIN Ann");
    bob.expect_prefix("ERROR 4 ");
    bob.send("JOIN B*b");
    bob.expect_prefix("ERROR 3 ");
    bob.send("JOIN Bob");
    ann.expect("LOBBY Ann Bob");
    bob.expect("LOBBY Ann Bob");
    ann.send("MOVE_PLAY RRR0 4");
    ann.expect_prefix("ERROR 8 ");
    ann.send("CHAT aGk=");
    ann.expect_prefix("ERROR 9 ");
    ann.send("READY");
    bob.send("READY");
    // --seed 1: Bob moves first; the deal as scripts/test-spectrangle.sh shows it.
    for client in [&mut ann, &mut bob] {
        client.expect("START Bob Ann");
        for _ in 0..8 {
            client.expect_prefix("TILE ");
        }
    }
    ann.send("MOVE_PLAY RRR0 4");
    ann.expect_prefix("ERROR 5 ");
    ann.send("READY");
    ann.expect_prefix("ERROR 0 Your game has already started");
    bob.send("MOVE_PLAY QQQ0 0");
    bob.expect_prefix("ERROR 2 ");
    bob.send("MOVE_PLAY GBR0 0");
    bob.expect_prefix("ERROR 6 GBR is not a tile of the set in any rotation");
    bob.send("MOVE_PLAY RRR0 0");
    bob.expect_prefix("ERROR 6 ");
    bob.send("MOVE_SKIP");
    bob.expect_prefix("ERROR 6 ");
    bob.send("MOVE_PLAY GGG0 2");
    bob.expect_prefix("ERROR 6 Field 2 is a bonus field");
    bob.send("MOVE_PLAY GGG0 0");
    for client in [&mut ann, &mut bob] {
        client.expect("UPDATE Bob GGG0 0");
        client.expect_prefix("TILE Bob ");
    }
    ann.send("MOVE_PLAY RRR0 0");
    ann.expect_prefix("ERROR 6 ");
    ann.send("MOVE_PLAY RRR0 35");
    ann.expect_prefix("ERROR 6 ");
    ann.send("MOVE_PLAY RRR0 2");
    ann.expect_prefix("ERROR 6 RRR0 at 2: its top edge is R");
    ann.send("MOVE_PLAY YYG1 2");
    ann.expect("UPDATE Ann YYG1 2");

    let card = json(web, "/api/client/spectrangle/Ann");
    assert_eq!(
        counts(&card),
        owned(&[
            ("unknown-command", 1),
            ("wrong-case", 1),
            ("wrong-field-count", 1),
            ("before-handshake", 1),
            ("second-handshake", 1),
            ("wrong-state", 1),
            ("extension-off", 1),
            ("not-started", 1),
            ("not-your-turn", 1),
            ("point-taken", 1),
            ("edges-do-not-match", 1),
            ("not-touching", 1),
        ])
    );
    assert_eq!(card["moves"], 1);
    let card = json(web, "/api/client/spectrangle/Bob");
    assert_eq!(
        counts(&card),
        owned(&[
            ("bad-value", 1),
            ("bad-name", 1),
            ("name-taken", 1),
            ("no-such-tile", 1),
            ("tile-not-held", 1),
            ("first-on-bonus", 1),
            ("must-place", 1),
        ])
    );
    let examples = card["examples"].as_array().expect("examples");
    let bonus = examples
        .iter()
        .find(|e| e["kind"] == "first-on-bonus")
        .expect("an example");
    assert_eq!(bonus["line"], "MOVE_PLAY GGG0 2");
    assert!(
        bonus["answer"]
            .as_str()
            .unwrap_or_default()
            .starts_with("ERROR 6 Field 2 is a bonus field"),
        "{bonus}"
    );
    assert_eq!(card["moves"], 1);

    // A fifth player for a named lobby of four, who then joins another.
    let mut four = Vec::new();
    for name in ["Cat", "Dan", "Eve", "Fay"] {
        let mut client = Client::connect(addr);
        client.send("ENABLE_EXTENSION multilobby");
        client.send(&format!("JOIN {name} room.1"));
        client.expect_prefix("LOBBY Cat");
        four.push(client);
    }
    let mut gus = Client::connect(addr);
    gus.send("ENABLE_EXTENSION multilobby");
    gus.ask(
        "JOIN Gus room.1",
        "ERROR 0 Lobby room.1 is full (4 players): join another lobby, or wait until its game starts",
    );
    gus.ask("JOIN Gus room.2", "LOBBY Gus");
    let card = json(web, "/api/client/spectrangle/Gus");
    assert_eq!(counts(&card), owned(&[("lobby-full", 1)]));
}

/// A Bkgo client in the room as `name`: past the greeting, the version, `join`,
/// `Player:` and its welcome (read up to the board's `EOF`).
fn bkgo_member(addr: SocketAddr, name: &str, before: &[&str]) -> Client {
    let mut client = Client::connect(addr);
    client.expect("BKGO-Server-version-0.6");
    client.ask("BKGO-Client-version-1.0", "OK");
    client.ask("join", "GimmeGoPlayer");
    for line in before {
        client.send(line);
        client.expect_prefix("Dialog: ");
        client.expect("ServerRejectedNonFatal");
    }
    client.send(&format!("Player: {name}"));
    while client.recv() != "EOF" {}
    client
}

#[test]
fn every_bkgo_mistake_lands_on_its_card_and_no_password_does() {
    let server = TestServer::with_web(
        Settings {
            bkgo: goserver::settings::BkgoSettings {
                size: 5,
                ..Default::default()
            },
            ..Settings::default()
        },
        &[Protocol::Bkgo],
    );
    let web = server.web();
    let addr = server.addr_of(Protocol::Bkgo);
    let mut ann = bkgo_member(addr, "Ann", &["Player: "]);
    let mut bob = bkgo_member(addr, "Bob", &[]);
    for line in ["AnnouncePlayer: Bob", "AddPlayer: Bob", "WhitePlayer: Bob"] {
        ann.expect(line);
    }
    let refused = |client: &mut Client, line: &str, reason: &str| {
        client.send(line);
        client.expect_prefix(&format!("Dialog: {reason}"));
        client.expect("ServerRejectedNonFatal");
    };
    refused(&mut bob, "Place: 1, 1", "Not your turn");
    refused(&mut ann, "Place: 9, 9", "");
    ann.send("Place: 2, 2");
    ann.expect("Place: 2, 2");
    bob.expect("Place: 2, 2");
    refused(&mut bob, "Place: 2, 2", "");
    refused(&mut bob, "Quitting: 1", "");
    let mut cid = bkgo_member(addr, "Cid", &[]);
    for client in [&mut ann, &mut bob] {
        client.expect("AnnouncePlayer: Cid");
        client.expect("AddPlayer: Cid");
    }
    refused(&mut cid, "Pass", "");
    // Ann: an SGF record after the game's first move, then one that cannot be read.
    ann.send("SendingBoard");
    ann.send("(;FF[4]GM[1]SZ[5])");
    ann.send("EOF");
    ann.expect_prefix("Dialog: ");
    ann.expect("ServerRejectedNonFatal");
    // Garbage in the room drops its sender; Bob leaves the game he was playing.
    bob.send("place: 1, 1");
    bob.expect_prefix("Dialog: ");
    bob.expect("ServerRejectedFatal");
    // Cid takes Bob's seat (the longest-waiting watcher), and then sends a password.
    cid.expect("GoodbyePlayer: Bob");
    cid.expect("WhitePlayer: Cid");
    cid.send("Password: hunter2");
    cid.expect_prefix("Dialog: ");
    cid.expect("ServerRejectedFatal");

    // Before joining: a message only a server sends, from a client that never names
    // itself (kept under its address).
    let mut stranger = Client::connect(addr);
    stranger.expect("BKGO-Server-version-0.6");
    stranger.send("ServerRejectedFatal");
    stranger.expect_prefix("Dialog: ");
    stranger.expect("ServerRejectedFatal");
    stranger.expect_closed();
    // An empty line, and a password in the wrong case after a byte-order mark: both
    // drop their senders, and the password is not shown.
    let mut stranger = Client::connect(addr);
    stranger.expect("BKGO-Server-version-0.6");
    stranger.send("");
    stranger.expect("Dialog: Empty line: expected BKGO-Client-version-<your version>");
    stranger.expect("ServerRejectedFatal");
    stranger.expect_closed();
    let mut stranger = Client::connect(addr);
    stranger.expect("BKGO-Server-version-0.6");
    stranger.send("\u{feff}password: hunter2");
    stranger.expect(
        "Dialog: Unknown message 'Password: <not shown>': expected BKGO-Client-version-<your version>",
    );
    stranger.expect("ServerRejectedFatal");
    stranger.expect_closed();
    // Ann, alone in the room now: a new board, then a record that cannot be read.
    ann.send("NewBoard");
    while ann.recv() != "EOF" {}
    ann.send("SendingBoard");
    ann.send("(;FF[4]GM[1]SZ[5];B[zz])");
    ann.send("EOF");
    ann.expect_prefix("Dialog: ");
    ann.expect("ServerRejectedNonFatal");
    let deadline = Instant::now() + PATIENCE;
    while json(web, "/api/client/bkgo/Bob")["games_left"] != 1 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    let card = json(web, "/api/client/bkgo/Ann");
    assert_eq!(
        counts(&card),
        owned(&[
            ("bad-name", 1),
            ("off-board", 1),
            ("board-after-first-move", 1),
            ("bad-sgf", 1),
        ])
    );
    assert_eq!(card["moves"], 1);
    assert_eq!(card["examples"][0]["line"], "Player: ");
    let card = json(web, "/api/client/bkgo/Bob");
    assert_eq!(
        counts(&card),
        owned(&[
            ("wrong-case", 1),
            ("wrong-name", 1),
            ("not-your-turn", 1),
            ("point-taken", 1),
        ])
    );
    assert_eq!(card["games_left"], 1);
    let card = json(web, "/api/client/bkgo/Cid");
    assert_eq!(counts(&card), owned(&[("wrong-state", 1), ("watcher", 1)]));
    let shown = card.to_string();
    assert!(shown.contains("Password: <not shown>"), "{shown}");
    // The three strangers' mistakes reach the card of their address one farewell at a
    // time, each after its connection closed: wait for all three.
    let expected = [
        ("empty-line", 1),
        ("unknown-command", 1),
        ("not-a-client-message", 1),
    ];
    let stranger = card_once(web, "/api/client/bkgo/%28unnamed%29%20127.0.0.1", &expected);
    assert_eq!(counts(&stranger), owned(&expected));
    assert!(!stranger.to_string().contains("hunter2"), "{stranger}");
    let (_, everything) = get(web, "/api/clients.csv");
    let (_, list) = get(web, "/api/clients");
    for text in [shown.as_str(), everything.as_str(), list.as_str()] {
        assert!(!text.contains("hunter2"), "a password on a card: {text}");
    }
}

/// docs/report.md's lesson: the README's two windows make three mistakes, and the
/// console's `report` shows them as the document does (times aside).
#[test]
fn the_lesson_of_docs_report_md_shows_its_three_mistakes() {
    let server = TestServer::with_web(Settings::default(), &[Protocol::Go]);
    let (mut ann, mut bob) = start_game(&server, 1, 5);
    bob.ask(
        "MOVE+1+Bob+7",
        "INVALID_MOVE+Not your turn: black is to move",
    );
    ann.send("MOVE+1+Ann+6");
    let ack = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+6;1");
    bob.expect(&ack);
    bob.send("MOVE+1+Bob+7");
    let ack = bob.expect_prefix("ACKNOWLEDGE_MOVE+1+7;2");
    ann.expect(&ack);
    ann.ask("MOVE+1+Ann+7", "INVALID_MOVE+Tile 7 (C4) is not empty");
    ann.send("MOVE+1+Ann+12");
    let ack = ann.expect_prefix("ACKNOWLEDGE_MOVE+1+12;1");
    bob.expect(&ack);
    bob.ask(
        "move+1+Bob+1",
        "UNKNOWN_COMMAND+Unknown command 'move': commands are upper case, did you mean MOVE?",
    );
    // Everything but the times: each row cut where its move times begin.
    let report = console(&server, "report");
    let times = report.find("MOVE p50").expect("the header");
    let rows: Vec<&str> = report
        .lines()
        .map(|row| row.get(..times).unwrap_or(row).trim_end())
        .collect();
    assert_eq!(
        rows,
        [
            "FRONT  NAME  CONNS  W-L-D  MOVES  MISTAKES  MOST OFTEN     REPEAT  LATE  LEFT",
            "go     Bob   1      0-0-0  1      2         wrong-case 1   1       0     0",
            "go     Ann   1      0-0-0  2      1         point-taken 1  1       0     0",
        ]
    );
    let card = console(&server, "report Bob");
    let lines: Vec<&str> = card.lines().collect();
    assert_eq!(
        lines[0],
        "Bob (go): 1 connection, 0 games (0 won, 0 lost, 0 drawn), 1 move"
    );
    assert!(
        lines[1].starts_with("time to move once told: p50 "),
        "{card}"
    );
    assert!(lines[1].ends_with(" (1 timed)"), "{card}");
    assert_eq!(
        lines[2],
        "moves not made in time: 0; games left mid-play: 0"
    );
    assert_eq!(
        lines[3],
        "2 mistakes; the longest run of one refused line: 1"
    );
    assert_eq!(lines[4], "  wrong-case 1");
    assert!(lines[5].ends_with("Z  sent: move+1+Bob+1"), "{card}");
    assert!(
        lines[6].ends_with("  got:  UNKNOWN_COMMAND+Unknown command 'move': commands are upper case, did you mean MOVE?"),
        "{card}"
    );
    assert_eq!(lines[7], "  not-your-turn 1");
    assert!(lines[8].ends_with("Z  sent: MOVE+1+Bob+7"), "{card}");
    assert!(
        lines[9].ends_with("  got:  INVALID_MOVE+Not your turn: black is to move"),
        "{card}"
    );
    assert_eq!(lines.len(), 10, "{card}");
}
