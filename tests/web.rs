//! The web board over real HTTP on port 0, after real games of all three front ends:
//! each route's status, content type and JSON (WEB.md), the event streams, escaping,
//! the refusals (404, 405, 414, 431, 503), and a viewer that never reads.

mod common;

use common::*;
use goserver::net::OutboxLimits;
use goserver::server::Protocol;
use goserver::settings::Settings;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// An HTTP response as the tests read it.
#[derive(Debug)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Sends `raw` on a fresh connection and reads one response (its body by its length,
/// none for a HEAD request).
fn request(addr: SocketAddr, raw: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    stream.write_all(raw).expect("send");
    read_answer(&mut BufReader::new(stream), raw.starts_with(b"HEAD "))
}

fn read_answer(reader: &mut BufReader<TcpStream>, head_only: bool) -> Answer {
    let mut line = String::new();
    reader.read_line(&mut line).expect("a status line");
    let status = line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a status line: {line:?}"));
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line).expect("a header line");
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let (name, value) = header.split_once(": ").expect("name: value");
        headers.push((name.to_string(), value.to_string()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; if head_only { 0 } else { length }];
    reader.read_exact(&mut body).expect("the body");
    Answer {
        status,
        headers,
        body: String::from_utf8(body).expect("UTF-8"),
    }
}

fn get(addr: SocketAddr, path: &str) -> Answer {
    request(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// `GET path` again until the answer satisfies `wanted` (a game loop publishes its
/// snapshot just after the players hear of the change), or the last answer.
fn get_once(addr: SocketAddr, path: &str, wanted: impl Fn(&Answer) -> bool) -> Answer {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let answer = get(addr, path);
        if wanted(&answer) || std::time::Instant::now() > deadline {
            return answer;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// An event stream being read.
struct Events(BufReader<TcpStream>);

impl Events {
    fn open(addr: SocketAddr, path: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        write!(stream, "GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").expect("send");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("status");
        assert_eq!(line.trim_end(), "HTTP/1.1 200 OK");
        let mut content_type = None;
        loop {
            line.clear();
            reader.read_line(&mut line).expect("header");
            if line.trim_end().is_empty() {
                break;
            }
            if let Some(value) = line.trim_end().strip_prefix("Content-Type: ") {
                content_type = Some(value.to_string());
            }
        }
        assert_eq!(content_type.as_deref(), Some("text/event-stream"));
        Events(reader)
    }

    /// The next event: its name and its data, parsed.
    fn next(&mut self) -> (String, Value) {
        let mut name = None;
        let mut data = None;
        let mut line = String::new();
        loop {
            line.clear();
            let read = self.0.read_line(&mut line).expect("an event line");
            assert!(read > 0, "the stream ended");
            let text = line.trim_end();
            if text.is_empty() {
                if let (Some(name), Some(data)) = (name.take(), data.take()) {
                    return (name, data);
                }
                continue;
            }
            if let Some(value) = text.strip_prefix("event: ") {
                name = Some(value.to_string());
            } else if let Some(value) = text.strip_prefix("data: ") {
                data = Some(serde_json::from_str(value).expect("one line of JSON"));
            }
        }
    }

    /// The next event named `name` whose data `wanted` accepts.
    fn until(&mut self, name: &str, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let (event, data) = self.next();
            if event == name && wanted(&data) {
                return data;
            }
        }
    }
}

fn all() -> [Protocol; 3] {
    [Protocol::Go, Protocol::Spectrangle, Protocol::Bkgo]
}

fn settings() -> Settings {
    Settings {
        seed: Some(11),
        ..Settings::default()
    }
}

/// The README's game on 5x5: Ann (black) captures Bob's stones at 0 and 1, Bob passes,
/// Ann passes. Returns the players, the rematch asked.
fn capture_then_two_passes(server: &TestServer) -> (Client, Client) {
    let (mut ann, mut bob) = start_game(server, 1, 5);
    for (mover, index) in [(0, 6), (1, 7), (0, 12), (1, 1), (0, 2), (1, 0), (0, 5)] {
        let (player, other, name) = if mover == 0 {
            (&mut ann, &mut bob, "Ann")
        } else {
            (&mut bob, &mut ann, "Bob")
        };
        player.send(&format!("MOVE+1+{name}+{index}"));
        let ack = player.expect_prefix(&format!("ACKNOWLEDGE_MOVE+1+{index};"));
        other.expect(&ack);
    }
    bob.send("PASS+1+Bob");
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+-1;2");
    ann.send("PASS+1+Ann");
    while bob.recv() != "REQUEST_REMATCH" {}
    while ann.recv() != "REQUEST_REMATCH" {}
    (ann, bob)
}

#[test]
fn each_route_answers_as_web_md_says_after_real_games() {
    let server = TestServer::with_web(settings(), &all());
    let web = server.web();
    let _players = capture_then_two_passes(&server);
    // A Spectrangle table of two that has started.
    let spectrangle = server.addr_of(Protocol::Spectrangle);
    let mut cat = Client::connect(spectrangle);
    cat.ask("JOIN Cat", "LOBBY Cat");
    let mut dan = Client::connect(spectrangle);
    dan.ask("JOIN Dan", "LOBBY Cat Dan");
    cat.expect("LOBBY Cat Dan");
    // A lobby: its seats in the order of arrival, every tile still in the bag.
    let lobby = get_once(web, "/api/game/spectrangle/1", |a| a.body.contains("Dan"));
    let lobby = lobby.json();
    assert_eq!(lobby["status"], "waiting");
    let seats: Vec<(&Value, &Value)> = lobby["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| (&p["name"], &p["colour"]))
        .collect();
    assert_eq!(
        seats,
        [(&json!("Cat"), &json!(1)), (&json!("Dan"), &json!(2))]
    );
    assert_eq!((&lobby["bag"], &lobby["moves"]), (&json!(36), &json!(0)));
    cat.send("READY");
    dan.send("READY");
    cat.expect_prefix("START ");

    let health = get(web, "/healthz");
    assert_eq!((health.status, health.body.as_str()), (200, "ok"));
    assert_eq!(
        health.header("Content-Type"),
        Some("text/plain; charset=utf-8")
    );

    // Each loop publishes just after its players hear of the change, and the Bkgo
    // room once its thread has started: wait for all three.
    get_once(web, "/api/games", |games| {
        games.body.contains(r#""status":"playing""#)
            && games.body.contains(r#""finished""#)
            && games.body.contains(r#""front":"bkgo""#)
    });
    let go = get(web, "/api/game/go/1");

    assert_eq!(go.status, 200);
    assert_eq!(go.header("Content-Type"), Some("application/json"));
    assert_eq!(
        go.json(),
        json!({
            "front": "go", "id": 1, "status": "finished",
            "players": [{"name": "Ann", "colour": 1}, {"name": "Bob", "colour": 2}],
            "size": 5, "moves": 9, "turn": null,
            "result": "Both players passed. Area score: black 6, white 1 (komi 0): Ann wins",
            "board": "0010011200001000000000000", "to_move": 2, "last_move": -1,
            "captures": {"black": 2, "white": 0},
            "score": {"black": 6.0, "white": 1.0}
        })
    );

    let games = get(web, "/api/games").json();
    let listed: Vec<String> = games["games"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| format!("{}/{} {}", g["front"], g["id"], g["status"]))
        .collect();
    // Live games first (the Bkgo room waits, the Spectrangle table plays), then the
    // finished GO! game.
    assert_eq!(listed.len(), 3, "{listed:?}");
    assert_eq!(listed[2], r#""go"/1 "finished""#);
    assert!(listed.contains(&r#""bkgo"/1 "waiting""#.to_string()));
    assert!(listed.contains(&r#""spectrangle"/1 "playing""#.to_string()));

    let table = get(web, "/api/game/spectrangle/1").json();
    assert_eq!(table["status"], "playing");
    assert_eq!(table["size"], Value::Null);
    assert_eq!(table["fields"].as_array().map(Vec::len), Some(36));
    assert!(
        table["fields"]
            .as_array()
            .expect("fields")
            .iter()
            .all(Value::is_null)
    );
    assert_eq!(table["bonus"].as_array().map(Vec::len), Some(9));
    assert_eq!(table["bonus"][0], json!({"field": 2, "factor": 3}));
    assert_eq!(table["bag"], 28);
    for player in table["players"].as_array().expect("players") {
        assert_eq!(player["tiles"], 4);
        assert_eq!(player["hand"].as_array().map(Vec::len), Some(4));
        assert_eq!(player["score"], 0);
    }

    let room = get(web, "/api/game/bkgo/1").json();
    assert_eq!(
        (&room["status"], &room["watchers"], &room["size"]),
        (&json!("waiting"), &json!(0), &json!(19))
    );

    let page = get(web, "/game/go/1");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert_eq!(
        page.header("Content-Security-Policy"),
        Some("default-src 'self'")
    );
    assert!(page.body.contains("<title>GO! game 1: Ann vs Bob</title>"));
    assert!(page.body.contains(r#"id="board""#));
    let overview = get(web, "/");
    assert_eq!(overview.status, 200);
    assert!(overview.body.contains("/static/overview.js"));
    for asset in [
        "/static/board.css",
        "/static/game.js",
        "/static/overview.js",
        "/favicon.svg",
    ] {
        assert_eq!(get(web, asset).status, 200, "{asset}");
    }

    let sgf = get(web, "/game/go/1.sgf");
    assert_eq!(sgf.status, 200);
    assert_eq!(sgf.header("Content-Type"), Some("application/x-go-sgf"));
    assert!(sgf.body.starts_with("(;FF[4]"), "{}", sgf.body);
    assert!(sgf.body.contains("PB[Ann]PW[Bob]"));
    assert_eq!(get(web, "/game/spectrangle/1.sgf").status, 404);

    // HEAD: the same head, no body.
    let head = request(
        web,
        b"HEAD /api/games HTTP/1.1\r\nConnection: close\r\n\r\n",
    );
    assert_eq!(head.status, 200);
}

#[test]
fn a_move_is_an_event_on_its_game_s_stream_and_on_the_overview() {
    let server = TestServer::with_web(settings(), &[Protocol::Go]);
    let web = server.web();
    let (mut ann, mut bob) = start_game(&server, 1, 9);
    let mut game = Events::open(web, "/events/go/1");
    let mut overview = Events::open(web, "/events");
    // The loop publishes just after the players hear of the config: the stream may
    // open on the game still waiting for it.
    let first = game.until("state", |s| s["status"] == "playing");
    assert_eq!(
        (&first["moves"], &first["last_move"]),
        (&json!(0), &Value::Null)
    );
    assert_eq!(first["board"], "0".repeat(81));
    overview.until("game", |g| g["front"] == "go" && g["id"] == 1);

    ann.send("MOVE+1+Ann+40");
    bob.expect_prefix("ACKNOWLEDGE_MOVE+1+40;1");
    let after = game.until("state", |s| s["moves"] == 1);
    assert_eq!(after["last_move"], 40);
    assert_eq!(after["turn"], "Bob");
    assert_eq!(after["to_move"], 2);
    let summary = overview.until("game", |g| g["moves"] == 1);
    assert_eq!(summary["turn"], "Bob");

    // The end: the final state, and the stream stays open.
    ann.send("EXIT+1+Ann");
    let end = game.until("state", |s| s["status"] == "finished");
    assert_eq!(end["result"], "Ann exited: Bob wins");
    overview.until("game", |g| g["status"] == "finished");
}

#[test]
fn a_hostile_name_shows_as_text_and_the_page_runs_nothing_of_it() {
    let server = TestServer::with_web(settings(), &[Protocol::Go]);
    let web = server.web();
    let hostile = "<img src=x onerror=alert(1)>";
    let (_ann, _bob) = start_named(&server, 1, 5, hostile, "Bob");
    let page = get_once(web, "/game/go/1", |page| {
        page.body.contains(" vs Bob</title>")
    });

    assert!(
        page.body
            .contains("<title>GO! game 1: &lt;img src=x onerror=alert(1)&gt; vs Bob</title>"),
        "{}",
        page.body
    );
    assert!(!page.body.contains(hostile));
    assert_eq!(
        page.header("Content-Security-Policy"),
        Some("default-src 'self'")
    );
    // In JSON the name is data, exactly as given.
    assert_eq!(
        get(web, "/api/game/go/1").json()["players"][0]["name"],
        hostile
    );
    // The pages' scripts never write HTML.
    for script in ["/static/game.js", "/static/overview.js"] {
        let text = get(web, script).body;
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
        ] {
            assert!(!text.contains(sink), "{script} uses {sink}");
        }
    }
}

/// GO! and a web board of `places` connections at most (`--max-web-clients`).
fn web_with_places(places: usize) -> TestServer {
    TestServer::with_web(
        Settings {
            max_web_clients: places,
            ..settings()
        },
        &[Protocol::Go],
    )
}

/// Whether the server keeps `stream` open without having sent anything (it was
/// not refused).
fn still_waiting(stream: &TcpStream) -> bool {
    let _ = stream.set_nonblocking(true);
    let mut byte = [0u8; 1];
    let waiting =
        matches!(stream.peek(&mut byte), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock);
    let _ = stream.set_nonblocking(false);
    waiting
}

#[test]
fn refusals_are_404_405_414_431_and_503_as_web_md_says() {
    let server = web_with_places(3);
    let web = server.web();
    // Three places: each request waits until the server has seen the earlier ones'
    // connections end (on a busy machine three may still be closing, and the next
    // request would be refused with 503).
    let request_alone = |raw: &[u8]| {
        server.until_web_clients(0);
        request(web, raw)
    };
    let get_alone = |path: &str| {
        server.until_web_clients(0);
        get(web, path)
    };
    let posted = request_alone(b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
    assert_eq!(posted.status, 405);
    assert_eq!(posted.header("Allow"), Some("GET, HEAD"));
    let deleted = request_alone(b"DELETE /api/games HTTP/1.1\r\n\r\n");
    assert_eq!(deleted.status, 405);

    for path in [
        "/game/chess/1",
        "/game/go/x",
        "/game/go/7",
        "/game/go/1%00",
        "/game/go/../../etc/passwd",
        "/events/go/9",
        "/nothing",
    ] {
        let answer = get_alone(path);
        assert_eq!(answer.status, 404, "{path}");
        assert_eq!(
            answer.header("Content-Type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
    }
    for path in ["/api/game/go/7", "/api/game/spectrangle/x", "/api/nothing"] {
        let answer = get_alone(path);
        assert_eq!(answer.status, 404, "{path}");
        assert!(answer.json()["error"].is_string(), "{path}");
    }
    let long_path = get_alone(&format!("/{}", "a".repeat(10 * 1024)));
    assert_eq!(long_path.status, 414);
    let long_header = request_alone(
        format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "b".repeat(10 * 1024)).as_bytes(),
    );
    assert_eq!(long_header.status, 431);

    // Three connections without a request fill the board; the fourth gets 503. The
    // earlier requests' connections may still be closing on a busy machine: the server
    // has seen them all end first, then has the three in its places.
    server.until_web_clients(0);
    let idle: Vec<TcpStream> = (0..3)
        .map(|_| TcpStream::connect(web).expect("connect"))
        .collect();
    server.until_web_clients(3);
    assert!(
        idle.iter().all(still_waiting),
        "an idle connection was refused"
    );
    let refused = get(web, "/healthz");
    assert_eq!(refused.status, 503);
    drop(idle);
}

#[test]
fn a_viewer_that_never_reads_is_dropped_while_its_game_goes_on() {
    let server = TestServer::with_web(
        Settings {
            output: OutboxLimits {
                stall_timeout: Duration::from_millis(500),
                ..OutboxLimits::default()
            },
            ..settings()
        },
        &[Protocol::Go],
    );
    let web = server.web();
    let (mut ann, mut bob) = start_game(&server, 1, 19);
    let mut viewer = TcpStream::connect(web).expect("connect");
    small_receive_buffer(&viewer);
    write!(viewer, "GET /events/go/1 HTTP/1.1\r\n\r\n").expect("send");
    let deadline = Instant::now() + PATIENCE;
    while server.server.live.viewers() == 0 {
        assert!(Instant::now() < deadline, "the viewer never started");
        std::thread::sleep(Duration::from_millis(5));
    }
    // Each move sends the viewer the whole 19x19 state (moves a frame apart, so none
    // is coalesced); it reads none of them.
    let mut slowest = Duration::ZERO;
    for turn in 0..300usize {
        let (mover, other, name, index) = if turn.is_multiple_of(2) {
            (&mut ann, &mut bob, "Ann", turn / 2)
        } else {
            (&mut bob, &mut ann, "Bob", 19 * 10 + turn / 2)
        };
        let sent = Instant::now();
        mover.send(&format!("MOVE+1+{name}+{index}"));
        let ack = mover.expect_prefix(&format!("ACKNOWLEDGE_MOVE+1+{index};"));
        other.expect(&ack);
        slowest = slowest.max(sent.elapsed());
        if server.server.live.viewers() == 0 {
            break;
        }
        std::thread::sleep(goserver::web::stream::FRAME);
    }
    let deadline = Instant::now() + PATIENCE;
    while server.server.live.viewers() > 0 {
        assert!(Instant::now() < deadline, "the viewer was never dropped");
        std::thread::sleep(Duration::from_millis(10));
    }
    // Generous, for a busy machine: no move was held up by the viewer that never reads.
    assert!(slowest < Duration::from_secs(10), "a move took {slowest:?}");
    drop(viewer);
}

#[test]
fn the_tournament_routes_answer_as_arena_md_says() {
    let server = TestServer::with_web(settings(), &[Protocol::Go]);
    let web = server.web();
    let mut standings = Events::open(web, "/events/standings");
    let first = standings.until("standings", |_| true);
    assert_eq!(
        (&first["standings"], &first["results"]),
        (
            &json!({"go": [], "spectrangle": [], "bkgo": []}),
            &json!([])
        )
    );
    let (mut ann, mut bob) = capture_then_two_passes(&server);

    // The result, as a line of the results file would have it.
    let results = get(web, "/api/results").json();
    let result = &results["results"][0];
    assert_eq!(results["results"].as_array().map(Vec::len), Some(1));
    for time in ["started", "ended"] {
        let text = result[time].as_str().expect("a time");
        assert!(
            text.len() == 20 && text.ends_with('Z') && text.as_bytes()[10] == b'T',
            "{time}: {text}"
        );
    }
    let mut without_times = result.clone();
    if let Some(object) = without_times.as_object_mut() {
        object.remove("started");
        object.remove("ended");
    }
    assert_eq!(
        without_times,
        json!({
            "front": "go", "game": 1,
            "players": [{"name": "Ann", "colour": 1, "score": 6}, {"name": "Bob", "colour": 2, "score": 1}],
            "winner": "Ann", "ending": "passes", "moves": 9, "size": 5, "rated": true
        })
    );
    for bad in ["0", "1001", "-3", "ten", ""] {
        let refused = get(web, &format!("/api/results?limit={bad}"));
        assert_eq!(refused.status, 400, "limit={bad}");
        assert_eq!(refused.header("Content-Type"), Some("application/json"));
        assert_eq!(
            refused.json(),
            json!({"error": format!("limit must be a whole number from 1 to 1000, got '{bad}'")})
        );
    }

    // A rematch the operator kicks Bob from: a result of its own, not rated (no move).
    ann.send("SET_REMATCH+1");
    bob.send("SET_REMATCH+1");
    while ann.recv() != "ACKNOWLEDGE_REMATCH+1" {}
    while !bob.recv().starts_with("ACKNOWLEDGE_CONFIG+") {}
    let said = server.go().kick_game("1");
    assert!(said.starts_with("kicked "), "{said}");
    let kicked = get_once(web, "/api/results?limit=1", |answer| {
        answer.body.contains(r#""ending":"kick""#)
    })
    .json();

    let latest = &kicked["results"][0];
    assert_eq!(
        (
            &latest["game"],
            &latest["ending"],
            &latest["rated"],
            &latest["moves"]
        ),
        (&json!(1), &json!("kick"), &json!(false), &json!(0))
    );
    assert_eq!(
        get(web, "/api/results?limit=5").json()["results"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );

    // The standings count the rated game only; skillratings' Glicko-2 of one win.
    let table = get(web, "/api/standings").json();
    assert_eq!(
        table,
        json!({
            "go": [
                {"rank": 1, "name": "Ann", "rating": 1662, "deviation": 290, "games": 1, "wins": 1, "losses": 0, "draws": 0, "last": "won vs Bob (passes)"},
                {"rank": 2, "name": "Bob", "rating": 1338, "deviation": 290, "games": 1, "wins": 0, "losses": 1, "draws": 0, "last": "lost vs Ann (passes)"}
            ],
            "spectrangle": [], "bkgo": []
        })
    );
    assert_eq!(
        get(web, "/api/crosstable").json(),
        json!({"players": ["Ann", "Bob"], "cells": [
            [{"wins": 0, "losses": 0}, {"wins": 1, "losses": 0}],
            [{"wins": 0, "losses": 1}, {"wins": 0, "losses": 0}]
        ]})
    );
    let page = get(web, "/standings");
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains(r#"<script src="/static/standings.js" defer></script>"#)
    );
    assert_eq!(get(web, "/static/standings.js").status, 200);
    // The page's stream has followed: the standings after the first game.
    let after = standings.until("standings", |s| {
        s["standings"]["go"]
            .as_array()
            .is_some_and(|rows| rows.len() == 2)
    });
    assert_eq!(after["standings"], table);
    assert_eq!(after["crosstable"]["players"], json!(["Ann", "Bob"]));
}

#[test]
fn a_viewer_that_closes_its_page_frees_its_place_long_before_a_keep_alive() {
    // One place: the closed viewer's must be free for the next request.
    let server = web_with_places(1);
    let web = server.web();
    let mut viewer = TcpStream::connect(web).expect("connect");
    write!(viewer, "GET /events HTTP/1.1\r\n\r\n").expect("send");
    let mut head = String::new();
    BufReader::new(viewer.try_clone().expect("clone"))
        .read_line(&mut head)
        .expect("the head");
    assert_eq!(head.trim_end(), "HTTP/1.1 200 OK");
    assert_eq!(server.server.live.viewers(), 1);
    // The page closes while nothing happens on the board: no write tells the server.
    drop(viewer);
    let closed = Instant::now();
    let deadline = closed + goserver::web::stream::KEEP_ALIVE - Duration::from_secs(5);
    while server.server.live.viewers() > 0 {
        assert!(
            Instant::now() < deadline,
            "the viewer was not found gone within {} s",
            closed.elapsed().as_secs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The viewer leaves the board before its connection's place is free.
    server.until_web_clients(0);
    let overview = request(web, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n");
    assert_eq!(overview.status, 200);
}

/// The fronts and ids of `/api/games`, in its order.
fn listed(web: SocketAddr) -> Vec<String> {
    get(web, "/api/games").json()["games"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| format!("{}/{}", g["front"].as_str().unwrap_or("?"), g["id"]))
        .collect()
}

/// Ann (black) and Bob (white) seated in the Bkgo room (their later lines are not
/// read).
fn bkgo_room_of_two(server: &TestServer) -> Vec<Client> {
    let mut seats = Vec::new();
    for name in ["Ann", "Bob"] {
        let mut client = Client::connect(server.addr_of(Protocol::Bkgo));
        client.expect("BKGO-Server-version-0.6");
        client.ask("BKGO-Client-version-1.0", "OK");
        client.ask("join", "GimmeGoPlayer");
        client.send(&format!("Player: {name}"));
        // Its ID: the room has seated it (Ann first, black).
        client.expect_prefix("ID: ");
        seats.push(client);
    }
    seats
}

/// Two passes end the room's game (black's first: Bob's pass waits until the room
/// has Ann's).
fn end_the_room_s_game(web: SocketAddr, seats: &mut [Client]) {
    seats[0].send("Pass");
    get_once(web, "/api/game/bkgo/1", |a| a.body.contains(r#""moves":1"#));
    seats[1].send("Pass");
    room_is(web, "finished");
}

/// Waits until the Bkgo room shows `status` on the web.
fn room_is(web: SocketAddr, status: &str) {
    let wanted = format!(r#""status":"{status}""#);
    let room = get_once(web, "/api/game/bkgo/1", |a| a.body.contains(&wanted));
    assert!(room.body.contains(&wanted), "{}", room.body);
}

/// WEB.md: the Bkgo room starts "when it last became playing", so a NewBoard after a
/// finished game puts it before a GO! game that started in between.
#[test]
fn the_bkgo_room_starts_again_at_a_new_board_after_a_finished_game() {
    let server = TestServer::with_web(settings(), &[Protocol::Go, Protocol::Bkgo]);
    let web = server.web();
    let mut seats = bkgo_room_of_two(&server);
    room_is(web, "playing");
    // A GO! game starts after the room did: it is the newer, listed first.
    let (_ann, _bob) = start_game(&server, 1, 5);
    get_once(web, "/api/game/go/1", |a| {
        a.body.contains(r#""status":"playing""#)
    });
    assert_eq!(listed(web), ["go/1", "bkgo/1"]);
    // The room's game ends; its new board makes it playing again, after the GO! game.
    end_the_room_s_game(web, &mut seats);
    seats[0].send("NewBoard");
    room_is(web, "playing");
    assert_eq!(listed(web), ["bkgo/1", "go/1"]);
}

/// WEB.md: the Bkgo room is always listed, however many games finish after it.
#[test]
fn the_bkgo_room_stays_listed_when_fifty_games_finish_after_it() {
    let server = TestServer::with_web(settings(), &[Protocol::Go, Protocol::Bkgo]);
    let web = server.web();
    // The room's game ends first.
    let mut seats = bkgo_room_of_two(&server);
    room_is(web, "playing");
    end_the_room_s_game(web, &mut seats);
    // Then fifty-one GO! games end before they start: their leader leaves.
    for game in 1..=51u32 {
        let mut leader = server.connect();
        leader.send(&format!("HANDSHAKE+L{game}"));
        leader.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{game}+1"));
        drop(leader);
        get_once(web, &format!("/api/game/go/{game}"), |a| {
            a.body.contains(r#""status":"finished""#)
        });
    }
    // The fifty newest finished games, and the room (finished before them all).
    let games = listed(web);
    assert_eq!(games.len(), 51, "{games:?}");
    assert_eq!(games[50], "bkgo/1");
    assert_eq!(get(web, "/api/game/bkgo/1").status, 200);
}

#[test]
fn record_downloads_never_enter_a_game_and_its_partner_still_joins() {
    let server = TestServer::with_web(settings(), &[Protocol::Go]);
    let web = server.web();
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    ann.expect_prefix("REQUEST_CONFIG");
    get_once(web, "/api/game/go/1", |a| a.status == 200);
    // A hundred browsers ask for the waiting game's record at once, while its partner
    // arrives.
    let mut bob = server.connect();
    let statuses: Vec<u16> = std::thread::scope(|scope| {
        let downloads: Vec<_> = (0..100)
            .map(|_| scope.spawn(|| get(web, "/game/go/1.sgf").status))
            .collect();
        bob.send("HANDSHAKE+Bob");
        bob.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
        downloads
            .into_iter()
            .map(|d| d.join().expect("a download"))
            .collect()
    });
    // Before its configuration a game has no record: each answered from what the game
    // published, none by asking it.
    assert!(statuses.iter().all(|&s| s == 404), "{statuses:?}");
    // The game's inbox held its own events only (Bob's arrival, a line): never a
    // question of the web's.
    let queues = server.go().queues();
    let deepest = queues.iter().map(|q| q.depth.deepest()).max().unwrap_or(0);
    assert!(deepest <= 2, "a game's inbox held {deepest} events");
    // Once it is played, the record the web writes is the console's.
    ann.send("SET_CONFIG+1+1+5");
    ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+1+5");
    ann.send("MOVE+1+Ann+12");
    ann.expect_prefix("ACKNOWLEDGE_MOVE+1+12;1");
    let console = server.go().record("1").expect("the console's record").text;
    let download = get_once(web, "/game/go/1.sgf", |a| a.body.contains(";B[cc]"));
    assert_eq!(download.status, 200);
    assert_eq!(
        download.header("Content-Type"),
        Some("application/x-go-sgf")
    );
    assert_eq!(download.body, console);
}

#[test]
fn a_game_s_stream_says_gone_and_ends_when_its_game_leaves_the_board() {
    let server = web_with_places(2);
    let web = server.web();
    let end_before_start = |game: u32| {
        let mut leader = server.connect();
        leader.send(&format!("HANDSHAKE+L{game}"));
        leader.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{game}+1"));
        drop(leader);
        get_once(web, &format!("/api/game/go/{game}"), |a| {
            a.body.contains(r#""status":"finished""#)
        });
    };
    end_before_start(1);
    let mut stream = Events::open(web, "/events/go/1");
    stream.until("state", |data| data["status"] == "finished");
    // Fifty newer finished games push game 1 off the board.
    for game in 2..=51 {
        end_before_start(game);
    }
    assert_eq!(
        stream.next(),
        (
            "gone".to_string(),
            serde_json::json!({"front": "go", "id": 1})
        )
    );
    // Then the stream ends, and its place is free for another viewer (of two).
    let mut line = String::new();
    assert_eq!(stream.0.read_line(&mut line).ok(), Some(0), "{line:?}");
    // The server gives the place back a moment after the stream ends (and the board's
    // requests above may still be closing).
    server.until_web_clients(0);
    let _second = Events::open(web, "/events");
    assert_eq!(get_once(web, "/healthz", |a| a.status == 200).status, 200);
}

/// A GO! result between `black` and `white`, black winning.
fn result(game: u64, black: &str, white: &str) -> goserver::results::GameResult {
    use goserver::results::{Ending, GameResult, Player, Score, result};
    GameResult {
        front: goserver::front::Front::Go,
        game,
        started: result::now(),
        ended: result::now(),
        players: vec![
            Player {
                name: black.into(),
                colour: 1,
                score: Score(40.0),
            },
            Player {
                name: white.into(),
                colour: 2,
                score: Score(30.0),
            },
        ],
        winner: Some(black.into()),
        places: None,
        ending: Ending::Passes,
        moves: 50,
        size: Some(9),
        rated: true,
    }
}

#[test]
fn the_standings_are_worked_out_once_per_result_for_fifty_viewers() {
    let results = goserver::results::Results::in_memory();
    let names: Vec<String> = (0..40).map(|n| format!("team{n}")).collect();
    for game in 0..1000u64 {
        let (black, white) = (
            &names[game as usize % 40],
            &names[(game as usize * 7 + 3) % 40],
        );
        if black != white {
            results.record(result(game, black, white));
        }
    }
    let server = TestServer::build(
        settings(),
        &[Protocol::Go],
        std::sync::Arc::clone(&results),
        true,
    );
    let web = server.web();
    let mut viewers: Vec<Events> = (0..50)
        .map(|_| Events::open(web, "/events/standings"))
        .collect();
    for viewer in &mut viewers {
        viewer.until("standings", |data| {
            data["standings"]["go"]
                .as_array()
                .is_some_and(|rows| rows.len() == 40)
        });
    }
    for _ in 0..5 {
        assert_eq!(get(web, "/api/standings").status, 200);
        assert_eq!(get(web, "/api/crosstable").status, 200);
    }
    let before = results.builds();
    // One more result, and a change on the board that wakes every viewer.
    results.record(result(5000, "newcomer", "team0"));
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+1");
    for viewer in &mut viewers {
        viewer.until("standings", |data| {
            data["standings"]["go"]
                .as_array()
                .is_some_and(|rows| rows.len() == 41)
        });
    }
    assert_eq!(get(web, "/api/standings").status, 200);
    // Fifty viewers and a request: the tables were worked out once.
    assert_eq!(results.builds(), before + 1);
}

/// Writes `head` to `stream` one byte every 100 ms, over and over, until `stop` or a
/// write fails (the server closed the connection), for at most 20 s.
fn trickle(
    stream: &TcpStream,
    head: &'static [u8],
    stop: Arc<AtomicBool>,
) -> thread::JoinHandle<()> {
    let mut stream = stream.try_clone().expect("clone");
    thread::spawn(move || {
        let until = Instant::now() + Duration::from_secs(20);
        for byte in head.iter().cycle() {
            if stop.load(Ordering::SeqCst) || Instant::now() > until {
                return;
            }
            if stream.write_all(&[*byte]).is_err() {
                return;
            }
            thread::sleep(Duration::from_millis(100));
        }
    })
}

/// Everything the server sends on `stream` until it closes it.
fn read_until_closed(stream: &TcpStream) -> String {
    let mut stream = stream.try_clone().expect("clone");
    stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
    let mut got = Vec::new();
    let mut chunk = [0u8; 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn a_request_head_trickled_byte_by_byte_is_closed_at_its_deadline_while_a_viewer_is_served() {
    let timeout = Duration::from_secs(1);
    let server = TestServer::with_web(
        Settings {
            web_head_timeout: timeout,
            ..settings()
        },
        &[Protocol::Go],
    );
    let web = server.web();
    let slow_head: &'static [u8] = b"GET /api/games HTTP/1.1\r\nHost: lab\r\nX-Slow: ";
    let refusal = "HTTP/1.1 408 Request Timeout\r\n";

    // The first request's head is due a second after the accept, however its bytes
    // trickle in (a timeout per read would wait for ever).
    let stop = Arc::new(AtomicBool::new(false));
    let opened = Instant::now();
    let slow = TcpStream::connect(web).expect("connect");
    let writer = trickle(&slow, slow_head, Arc::clone(&stop));
    // Meanwhile a viewer is served as usual.
    assert_eq!(get(web, "/api/games").status, 200);
    let answer = read_until_closed(&slow);
    let took = opened.elapsed();
    stop.store(true, Ordering::SeqCst);
    let _ = writer.join();
    assert!(answer.starts_with(refusal), "{answer:?}");
    assert!(
        answer.ends_with("the request's head did not arrive whole within 1 s\n"),
        "{answer:?}"
    );
    assert!(
        took >= timeout - Duration::from_millis(50),
        "closed after {took:?}"
    );
    assert!(took < Duration::from_secs(10), "closed after {took:?}");

    // A later request's head is due a second after its first byte: an idle pause
    // before it does not count against it.
    let stop = Arc::new(AtomicBool::new(false));
    let kept = TcpStream::connect(web).expect("connect");
    (&kept)
        .write_all(b"GET /api/games HTTP/1.1\r\nHost: lab\r\n\r\n")
        .expect("send");
    let mut reader = BufReader::new(kept.try_clone().expect("clone"));
    assert_eq!(read_answer(&mut reader, false).status, 200);
    thread::sleep(timeout / 2);
    let began = Instant::now();
    let writer = trickle(&kept, slow_head, Arc::clone(&stop));
    let answer = read_until_closed(&kept);
    let took = began.elapsed();
    stop.store(true, Ordering::SeqCst);
    let _ = writer.join();
    assert!(answer.starts_with(refusal), "{answer:?}");
    assert!(
        took >= timeout - Duration::from_millis(50),
        "closed after {took:?}"
    );
    assert!(took < Duration::from_secs(10), "closed after {took:?}");

    // A connection that sends nothing is closed at its deadline, with nothing said.
    // (The clock starts before the connection, so that it is not later than the
    // server's.)
    let opened = Instant::now();
    let silent = TcpStream::connect(web).expect("connect");
    assert_eq!(read_until_closed(&silent), "");
    assert!(opened.elapsed() >= timeout - Duration::from_millis(50));
    assert_eq!(get(web, "/api/games").status, 200);
}
