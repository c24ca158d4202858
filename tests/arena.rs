//! The GO! arena over real TCP (ARENA.md): nobody leads, rounds pair the waiting
//! players least-met first, a second meeting swaps the colours, SET_CONFIG is the
//! arena's, a client arriving mid-round waits for the next round; the results, the
//! crosstable and the standings say so, and survive a restart with the same
//! `--results` file.

mod common;

use common::{PATIENCE, TestServer, empty};
use goserver::console::{Console, Outcome};
use goserver::results::Results;
use goserver::server::Protocol;
use goserver::settings::{ArenaSettings, Settings};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

const SIZE: usize = 5;

fn arena_settings(round: Duration) -> Settings {
    Settings {
        arena: Some(ArenaSettings {
            size: SIZE,
            round,
            move_clock: None,
        }),
        seed: Some(11),
        ..Settings::default()
    }
}

fn temp_file(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("goserver-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

fn console(server: &TestServer, command: &str) -> String {
    match Console::new(&server.server).execute(command) {
        Outcome::Answer(text) | Outcome::Shutdown(text) => text,
    }
}

/// One arena game as a player saw it.
#[derive(Debug, Clone)]
struct Played {
    game: u64,
    black: String,
    white: String,
}

/// A student's arena client: HANDSHAKE, then whatever game the arena gives; black
/// plays the corner stone, then both pass (black wins the whole board); no rematch;
/// HANDSHAKE again, until `done`. Returns the games it played.
///
/// Once `done` (the arena paused first, so that no new pairs come), a player in a game
/// plays it to its ACKNOWLEDGE_REMATCH, so that every game the results count was seen
/// by its players; a player waiting for a round asks, with a second HANDSHAKE, whether
/// it still waits (a round may have just paired it: then it plays that game too).
fn arena_player(addr: SocketAddr, name: String, done: Arc<AtomicBool>) -> Vec<Played> {
    let stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let mut reader = BufReader::new(stream);
    let mut send = |line: String| {
        let _ = writer.write_all(format!("{line}\n").as_bytes());
    };
    let mut played = Vec::new();
    let mut game: u64 = 0;
    let mut colour = 0;
    let mut moved = false;
    let mut opponent = String::new();
    let mut idle_since = Instant::now();
    // Between ACKNOWLEDGE_HANDSHAKE and ACKNOWLEDGE_REMATCH.
    let mut in_game = false;
    // Whether it asked if it still waits (once `done`).
    let mut asked = false;
    let still_waiting = format!("UNKNOWN_COMMAND+You are already {name}, waiting in the arena");
    let already = format!("UNKNOWN_COMMAND+You are already {name}");
    send(format!("HANDSHAKE+{name}"));
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return played,
            Ok(_) => idle_since = Instant::now(),
            Err(_) => {
                assert!(
                    idle_since.elapsed() < PATIENCE,
                    "{name}: nothing for {PATIENCE:?} (in a game: {in_game})"
                );
                // Waiting for a round; after the end nobody pairs the last ones.
                if done.load(Ordering::SeqCst) && !in_game && !asked {
                    send(format!("HANDSHAKE+{name}"));
                    asked = true;
                }
                continue;
            }
        }
        let line = line.trim_end().to_string();
        if line.starts_with(&still_waiting) {
            // Asked once `done`, answered while it waited: the arena, paused, pairs it
            // no more.
            return played;
        }
        if line.starts_with(&already) {
            // Asked once `done`, answered in the game a round had just given it.
            continue;
        }
        let fields: Vec<&str> = line.split('+').collect();
        match fields[0] {
            "ACKNOWLEDGE_HANDSHAKE" => {
                assert_eq!(fields.len(), 3, "{line}");
                assert_eq!(fields[2], "0", "nobody leads in the arena: {line}");
                game = fields[1].parse().expect("a game id");
                in_game = true;
            }
            "ACKNOWLEDGE_CONFIG" => {
                assert_eq!(fields[1], name);
                colour = fields[2].parse().expect("a colour");
                assert_eq!(fields[3], SIZE.to_string());
                assert_eq!(fields[4], format!("PLAYING;1;{}", empty(SIZE)));
                opponent = fields[5].to_string();
                moved = false;
                if colour == 1 {
                    send(format!("MOVE+{game}+{name}+0"));
                    moved = true;
                }
            }
            "ACKNOWLEDGE_MOVE" => {
                let state = fields[3];
                if state.starts_with(&format!("PLAYING;{colour}")) {
                    if colour == 1 && !moved {
                        send(format!("MOVE+{game}+{name}+0"));
                        moved = true;
                    } else {
                        send(format!("PASS+{game}+{name}"));
                    }
                }
            }
            "GAME_FINISHED" => {
                let (black, white) = if colour == 1 {
                    (name.clone(), opponent.clone())
                } else {
                    (opponent.clone(), name.clone())
                };
                assert_eq!(fields[2], black, "black wins the whole board: {line}");
                played.push(Played { game, black, white });
            }
            "REQUEST_REMATCH" => send("SET_REMATCH+0".to_string()),
            // Both answer no; the first no ends the game, so the second may come
            // after it, when the player sits in no game.
            "UNKNOWN_COMMAND" if line.contains("so SET_REMATCH is not possible") => {}

            "ACKNOWLEDGE_REMATCH" => {
                in_game = false;
                if done.load(Ordering::SeqCst) {
                    return played;
                }
                send(format!("HANDSHAKE+{name}"));
            }
            _ => panic!("{name}: unexpected line {line:?}"),
        }
    }
}

/// Whether every pair of `names` has met at least twice.
fn all_met_twice(results: &Results, names: &[String]) -> bool {
    let meetings = results.meetings();
    names
        .iter()
        .enumerate()
        .all(|(i, a)| names[i + 1..].iter().all(|b| meetings.times_met(a, b) >= 2))
}

#[test]
fn six_clients_meet_each_other_twice_with_both_colours_and_a_restart_keeps_the_standings() {
    let path = temp_file("double-round-robin");
    let results = Results::open(&path).expect("the results file opens");
    let mut server = TestServer::build(
        arena_settings(Duration::from_millis(150)),
        &[Protocol::Go],
        Arc::clone(&results),
        false,
    );
    let names: Vec<String> = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]
        .iter()
        .map(|n| (*n).to_string())
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = names
        .iter()
        .map(|name| {
            let (addr, name, done) = (server.addr, name.clone(), Arc::clone(&done));
            thread::spawn(move || arena_player(addr, name, done))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !all_met_twice(&results, &names) {
        assert!(
            Instant::now() < deadline,
            "not every pair met twice in 120 s"
        );
        thread::sleep(Duration::from_millis(20));
    }
    // No new pairs from now on: the games on the board finish, and the players that
    // wait for a round are told they still wait.
    assert!(console(&server, "arena pause").starts_with("arena paused"));
    done.store(true, Ordering::SeqCst);
    let mut games: Vec<Played> = Vec::new();
    for player in players {
        games.extend(player.join().expect("a player thread"));
    }
    // Each pair has had each colour once at least (every game seen by both players).
    let mut as_black: HashMap<(String, String), u32> = HashMap::new();
    for game in &games {
        *as_black
            .entry((game.black.clone(), game.white.clone()))
            .or_default() += 1;
    }
    for a in &names {
        for b in names.iter().filter(|b| *b != a) {
            assert!(
                as_black.contains_key(&(a.clone(), b.clone())),
                "{a} never had black against {b}: {as_black:?}"
            );
        }
    }
    // Black always won: the crosstable's wins are the games with black.
    let cross = results.crosstable();
    assert_eq!(cross.players.len(), 6);
    for (row, a) in cross.players.iter().enumerate() {
        for (column, b) in cross.players.iter().enumerate() {
            if row != column {
                let cell = cross.cells[row][column];
                assert!(cell.wins >= 1 && cell.losses >= 1, "{a} vs {b}: {cell:?}");
            }
        }
    }
    let tables = results.tables();
    assert_eq!(tables.go.len(), 6, "{tables:?}");
    assert!(tables.go.iter().all(|row| row.games >= 10), "{tables:?}");
    let shown = console(&server, "crosstable");
    assert!(shown.starts_with("GO! crosstable"), "{shown}");
    let arena = console(&server, "arena");
    assert!(
        arena.starts_with("GO! arena: 5x5, komi 0, a round every 0 s;"),
        "{arena}"
    );
    server.stop();

    // A restart with the same file: the same standings, crosstable and results.
    let again = Results::open(&path).expect("the results file opens again");
    assert_eq!(again.tables(), results.tables());
    assert_eq!(again.crosstable(), results.crosstable());
    assert_eq!(again.recent(1000), results.recent(1000));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn set_config_gets_the_arena_s_unknown_command_and_a_waiting_client_is_no_leader() {
    let server = TestServer::with(arena_settings(Duration::from_millis(400)));
    let refusal =
        "UNKNOWN_COMMAND+The arena sets the game (5x5, komi 0): SET_CONFIG is not accepted";
    let mut ann = server.connect();
    ann.ask("SET_CONFIG+1+1+9", refusal);
    ann.send("HANDSHAKE+Ann");
    // Waiting: no answer to the HANDSHAKE yet; SET_CONFIG and MOVE get reasons.
    ann.ask("SET_CONFIG+1+1+9", refusal);
    ann.ask(
        "MOVE+1+Ann+0",
        "UNKNOWN_COMMAND+You are waiting in the arena for the next round, so MOVE is not possible yet: the round that pairs you sends ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG",
    );
    ann.ask(
        "HANDSHAKE+Ann",
        "UNKNOWN_COMMAND+You are already Ann, waiting in the arena: the next round pairs you (ACKNOWLEDGE_HANDSHAKE, then ACKNOWLEDGE_CONFIG)",
    );
    let mut bob = server.connect();
    bob.send("HANDSHAKE+Bob");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    bob.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    // Colours of a first meeting with equal balances: a coin from --seed.
    let ann_config = ann.recv();
    let bob_config = bob.recv();
    let state = format!("PLAYING;1;{}", empty(SIZE));
    let (ann_colour, bob_colour) = if ann_config.contains("+Ann+1+") {
        (1, 2)
    } else {
        (2, 1)
    };
    assert_eq!(
        ann_config,
        format!("ACKNOWLEDGE_CONFIG+Ann+{ann_colour}+5+{state}+Bob")
    );
    assert_eq!(
        bob_config,
        format!("ACKNOWLEDGE_CONFIG+Bob+{bob_colour}+5+{state}+Ann")
    );
    // In the game too, the arena sets it.
    ann.ask("SET_CONFIG+1+1+9", refusal);
}

#[test]
fn a_client_arriving_mid_round_waits_for_the_next_round() {
    let server = TestServer::with(arena_settings(Duration::from_millis(800)));
    let mut ann = server.connect();
    let mut bob = server.connect();
    ann.send("HANDSHAKE+Ann");
    bob.send("HANDSHAKE+Bob");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    bob.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    // A round has just paired Ann and Bob: Cid arrives in the middle of the next one.
    let mut cid = server.connect();
    cid.send("HANDSHAKE+Cid");
    let shown = wait_for(&server, "arena", |text| text.contains("waiting: Cid ("));
    assert!(shown.contains("latest round: game 1 "), "{shown}");
    // Nothing for Cid before the round: then it is paired with Dan, who came later.
    let mut dan = server.connect();
    dan.send("HANDSHAKE+Dan");
    cid.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
    dan.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
    let _ = cid.expect_prefix("ACKNOWLEDGE_CONFIG+Cid+");
    assert_eq!(
        console(&server, "arena pause"),
        "arena paused: the games on the board finish; no new pairs until 'arena resume'"
    );
    assert_eq!(
        console(&server, "arena pause"),
        "the arena is already paused"
    );
    assert!(
        console(&server, "arena resume").starts_with("arena resumed: the next round pairs in ")
    );
}

#[test]
fn an_arena_game_whose_player_never_moves_ends_by_the_move_clock() {
    let mut settings = arena_settings(Duration::from_millis(300));
    settings.arena = settings.arena.map(|arena| ArenaSettings {
        move_clock: Some(Duration::from_secs(1)),
        ..arena
    });
    let server = TestServer::with(settings);
    let mut ann = server.connect();
    let mut bob = server.connect();
    ann.send("HANDSHAKE+Ann");
    bob.send("HANDSHAKE+Bob");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    bob.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    let ann_config = ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+");
    let _ = bob.expect_prefix("ACKNOWLEDGE_CONFIG+Bob+");
    // Black is to move and never does (a client stopped for good): the clock ends it.
    let (black, white) = if ann_config.starts_with("ACKNOWLEDGE_CONFIG+Ann+1+") {
        ("Ann", "Bob")
    } else {
        ("Bob", "Ann")
    };
    // While it waits, the console says for whom and how long.
    let games = wait_for(&server, "games", |text| text.contains("playing"));
    let header = games.lines().next().unwrap_or_default();
    let row = games
        .lines()
        .find(|l| l.contains("playing"))
        .unwrap_or_default();
    let column = |name: &str| {
        let at = header.find(name).unwrap_or_default();
        row.get(at..)
            .unwrap_or_default()
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(column("TURN"), black, "{games}");
    assert!(column("WAITED").ends_with('s'), "{games}");
    let ending =
        format!("GAME_FINISHED+1+{white}+0;0+{black} did not move within 1 s: {white} wins");
    ann.expect(&ending);
    bob.expect(&ending);
    let results = wait_for(&server, "results", |text| text.contains("timeout"));
    let row = results.lines().nth(1).unwrap_or_default();
    assert!(
        row.contains(&format!(" {white} ")) && row.contains(" timeout "),
        "{results}"
    );
}

/// Repeats a console command until its answer satisfies `wanted`.
fn wait_for(server: &TestServer, command: &str, wanted: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let answer = console(server, command);
        if wanted(&answer) || Instant::now() > deadline {
            return answer;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_player_left_waiting_meets_the_practice_bot() {
    let mut settings = arena_settings(Duration::from_secs(30));
    settings.bot_after = Some(Duration::from_millis(300));
    settings.bot_playouts = Some(50);
    let server = TestServer::with(settings);
    let mut ann = server.connect();
    ann.send("HANDSHAKE+Ann");
    ann.expect("ACKNOWLEDGE_HANDSHAKE+1+0");
    let config = ann.expect_prefix("ACKNOWLEDGE_CONFIG+Ann+");
    assert!(config.ends_with("+GoBot-L3"), "{config}");
}

#[test]
fn without_the_arena_the_console_says_so() {
    let server = TestServer::start();
    assert_eq!(
        console(&server, "arena"),
        "the arena is off: start the server with --arena to run a GO! tournament"
    );
}

/// A `goserver` process, killed when dropped (a failing test leaves none behind).
struct Process(std::process::Child);

impl Process {
    /// `kill -9`, and waits for it.
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The `goserver` binary, started with `args` on free ports; its GO! address is read
/// from its `listening on` line (logged at info, the default level).
fn spawn_server(args: &[&str]) -> (Process, SocketAddr) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_goserver"))
        .args(["--host", "127.0.0.1", "--port", "0", "--no-console"])
        .args([
            "--spectrangle-port",
            "off",
            "--bkgo-port",
            "off",
            "--web-port",
            "off",
        ])
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("goserver starts");
    let stderr = child.stderr.take().expect("its stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on ").nth(1)
                && let Some(addr) = rest.split(' ').next()
            {
                let _ = tx.send(addr.to_string());
            }
        }
    });
    let child = Process(child);
    let addr = rx
        .recv_timeout(PATIENCE)
        .expect("a listening on line")
        .parse()
        .expect("an address");
    (child, addr)
}

#[test]
fn a_kill_9_in_the_middle_of_a_round_loses_no_result_a_client_saw() {
    let path = temp_file("kill-9");
    let shown = path.display().to_string();
    let (mut server, addr) = spawn_server(&[
        "--arena",
        "--arena-size",
        "5",
        "--arena-round",
        "1",
        "--results",
        &shown,
    ]);
    let done = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = ["Ann", "Bob", "Cid", "Dan", "Eve"]
        .iter()
        .map(|name| {
            let (name, done) = ((*name).to_string(), Arc::clone(&done));
            thread::spawn(move || arena_player(addr, name, done))
        })
        .collect();
    // Some games end; then the server dies with games on the board and players waiting.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let lines = std::fs::read_to_string(&path)
            .unwrap_or_default()
            .lines()
            .count();
        if lines >= 6 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "fewer than 6 games ended in 60 s"
        );
        thread::sleep(Duration::from_millis(20));
    }
    server.kill();
    done.store(true, Ordering::SeqCst);
    let mut seen: Vec<Played> = Vec::new();
    for player in players {
        seen.extend(player.join().expect("a player thread"));
    }
    let read = Results::open(&path)
        .expect("the file reads back")
        .recent(1000);
    for game in &seen {
        assert!(
            read.iter().any(|r| r.game == game.game
                && r.players[0].name == game.black
                && r.players[1].name == game.white),
            "game {} ({} vs {}) was seen to end but is not in the file",
            game.game,
            game.black,
            game.white
        );
    }
    assert!(seen.len() >= 6, "{} games seen", seen.len());
    // A restarted server reads the file and goes on from it: the last pair to meet
    // meets again with the colours swapped.
    let last = &read[0];
    let (black, white) = (&last.players[0].name, &last.players[1].name);
    let (mut again, addr) = spawn_server(&["--arena", "--arena-size", "5", "--results", &shown]);
    let mut former_black = common::Client::connect(addr);
    let mut former_white = common::Client::connect(addr);
    former_black.send(&format!("HANDSHAKE+{black}"));
    former_white.send(&format!("HANDSHAKE+{white}"));
    former_black.expect_prefix("ACKNOWLEDGE_HANDSHAKE+1+0");
    former_white.expect_prefix("ACKNOWLEDGE_HANDSHAKE+1+0");
    former_black.expect_prefix(&format!("ACKNOWLEDGE_CONFIG+{black}+2+5+"));
    former_white.expect_prefix(&format!("ACKNOWLEDGE_CONFIG+{white}+1+5+"));
    again.kill();

    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_arena_flags_and_an_unusable_results_file_stop_the_server_with_status_2() {
    let dir = std::env::temp_dir();
    let dir_text = dir.display().to_string();
    for (args, says) in [
        (
            vec!["--arena", "--arena-size", "1"],
            "--arena-size 1 is not a board size the arena can use: give a size from 2 to 19 (--max-board-size)",
        ),
        (
            vec!["--arena-size", "99"],
            "--arena-size 99 is not a board size the arena can use: give a size from 2 to 19 (--max-board-size)",
        ),
        (
            vec!["--arena", "--arena-size", "nine"],
            "invalid value 'nine' for '--arena-size <N>': 'nine' is not a board size: give a whole number, e.g. 9",
        ),
        (
            vec!["--arena", "--max-board-size", "9", "--arena-size", "13"],
            "--arena-size 13 is not a board size the arena can use: give a size from 2 to 9 (--max-board-size)",
        ),
        (
            vec!["--arena", "--arena-round", "0"],
            "invalid value '0' for '--arena-round <S>': '0' is not a time between pairing rounds: give a whole number of seconds, at least 1 (at most 604800, a week)",
        ),
        (
            vec!["--arena", "--arena-round", "1.5"],
            "invalid value '1.5' for '--arena-round <S>': '1.5' is not a time between pairing rounds: give a whole number of seconds, at least 1 (at most 604800, a week)",
        ),
        (
            vec!["--results", dir_text.as_str()],
            "is a directory; give a file to append results to",
        ),
    ] {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_goserver"))
            .args([
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-console",
                "--web-port",
                "off",
            ])
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("goserver runs");
        let text = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {text}");
        assert!(text.contains(says), "{args:?}: {text}");
    }
}
