//! A lab of correct GO! clients: whatever the timing of their lines, none is refused and
//! none gets a mistake on its report card. The answers that cross the end of their
//! question (a rematch answer after the other's "no", a SET_CONFIG answering a repeated
//! REQUEST_CONFIG, a leader's SET_CONFIG after it was moved to another game) are taken
//! quietly, first one at a time (forced), then as they come in a busy lab.

mod common;

use common::{PATIENCE, TestServer, leader, partner, request_config};
use goserver::front::Front;
use goserver::settings::Settings;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The mistakes on `name`'s GO! card, by kind; none when it has no card.
fn mistakes(server: &TestServer, name: &str) -> Vec<(String, u64)> {
    server
        .server
        .cards
        .find(Front::Go, name)
        .map(|card| {
            card.view()
                .mistakes
                .iter()
                .map(|k| (k.kind.name().to_string(), k.count))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_rematch_answer_after_the_other_s_no_is_taken_quietly() {
    let server = TestServer::start();
    let (mut ann, mut bob) = common::start_game(&server, 1, 2);
    common::both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    for client in [&mut ann, &mut bob] {
        client.expect("GAME_FINISHED+1++0;0+Both players passed. Area score: black 0, white 0 (komi 0): a draw");
        client.expect("REQUEST_REMATCH");
    }
    bob.send("SET_REMATCH+0");
    common::both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+0");
    // Ann's answer comes after the question ended (forced here: it crossed Bob's "no").
    ann.send("SET_REMATCH+1");
    // No reply to it: the next line Ann hears answers her next line.
    ann.ask("HANDSHAKE+Ann", "ACKNOWLEDGE_HANDSHAKE+2+1");
    ann.expect(&request_config(2));
    // Only one answer per question: a second one is refused.
    bob.ask(
        "SET_REMATCH+0",
        "UNKNOWN_COMMAND+You are not in a game, so SET_REMATCH is not possible: send HANDSHAKE with your name first",
    );
    assert_eq!(mistakes(&server, "Ann"), vec![]);
    assert_eq!(
        mistakes(&server, "Bob"),
        vec![("not-in-game".to_string(), 1)]
    );
}

#[test]
fn a_rematch_answer_after_the_rematch_clock_is_taken_quietly() {
    let server = TestServer::with(Settings {
        rematch_timeout: Some(Duration::from_millis(200)),
        ..Settings::default()
    });
    let (mut ann, mut bob) = common::start_game(&server, 1, 2);
    common::both_pass_on_empty_board(&mut ann, &mut bob, 1, 2);
    for client in [&mut ann, &mut bob] {
        client.expect_prefix("GAME_FINISHED+1++0;0+");
        client.expect("REQUEST_REMATCH");
    }
    common::both(&mut ann, &mut bob, "ACKNOWLEDGE_REMATCH+0");
    ann.send("SET_REMATCH+1");
    bob.send("SET_REMATCH+0");
    ann.ask("HANDSHAKE+Ann", "ACKNOWLEDGE_HANDSHAKE+2+1");
    bob.ask("HANDSHAKE+Bob", "ACKNOWLEDGE_HANDSHAKE+2+0");
    assert_eq!(mistakes(&server, "Ann"), vec![]);
    assert_eq!(mistakes(&server, "Bob"), vec![]);
}

#[test]
fn a_set_config_that_answers_a_repeated_request_config_is_taken_quietly() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    // A garbage line and the configuration at once: the server answers the garbage
    // with the reason and REQUEST_CONFIG again, which the SET_CONFIG already answered.
    ann.send("HELLO");
    ann.send("SET_CONFIG+1+1+5");
    ann.expect_prefix("UNKNOWN_COMMAND+Unknown command 'HELLO'");
    ann.expect(&request_config(1));
    // Ann answers the repeated REQUEST_CONFIG, as a correct client does: no reply.
    ann.send("SET_CONFIG+1+1+5");
    let mut bob = partner(&server, 1, "Bob");
    let state = format!("PLAYING;1;{}", common::empty(5));
    ann.expect(&format!("ACKNOWLEDGE_CONFIG+Ann+1+5+{state}+Bob"));
    bob.expect(&format!("ACKNOWLEDGE_CONFIG+Bob+2+5+{state}+Ann"));
    // A third SET_CONFIG answers no question.
    ann.ask(
        "SET_CONFIG+1+1+5",
        "UNKNOWN_COMMAND+Game 1 is already configured (5x5)",
    );
    assert_eq!(
        mistakes(&server, "Ann"),
        vec![
            ("unknown-command".to_string(), 1),
            ("already-configured".to_string(), 1)
        ]
    );
}

#[test]
fn a_leader_s_set_config_after_it_was_moved_to_another_game_is_taken_quietly() {
    let server = TestServer::start();
    let mut ann = leader(&server, 1, "Ann");
    let bob = partner(&server, 1, "Bob");
    let mut cat = server.connect();
    cat.send("HANDSHAKE+Cat");
    cat.expect("ACKNOWLEDGE_HANDSHAKE+2+1");
    cat.expect(&request_config(2));
    // Bob leaves before the start: Ann joins Cat's waiting game, and her answer to game
    // 1's REQUEST_CONFIG reaches game 2, where she is not the leader.
    drop(bob);
    ann.expect("ACKNOWLEDGE_HANDSHAKE+2+0");
    ann.send("SET_CONFIG+1+1+5");
    cat.send("SET_CONFIG+2+2+3");
    let state = format!("PLAYING;1;{}", common::empty(3));
    cat.expect(&format!("ACKNOWLEDGE_CONFIG+Cat+2+3+{state}+Ann"));
    ann.expect(&format!("ACKNOWLEDGE_CONFIG+Ann+1+3+{state}+Cat"));
    // A second one answers no question.
    ann.ask(
        "SET_CONFIG+2+1+5",
        "UNKNOWN_COMMAND+Only the leader of game 2, Cat, sends SET_CONFIG",
    );
    assert_eq!(
        mistakes(&server, "Ann"),
        vec![("not-leader".to_string(), 1)]
    );
}

/// Two correct clients answer each rematch question at the same moment, in every
/// combination, fifty times: no answer is ever refused, and both cards stay clean.
#[test]
fn rematch_answers_sent_at_once_are_never_refused() {
    let server = TestServer::start();
    // Game by game: both yes, Ann no, Bob no, both no; again and again.
    let mut ann = Player::connect(&server, "Ann", |game| game.is_multiple_of(2));
    let mut bob = Player::connect(&server, "Bob", |game| game % 4 < 2);
    let mut games = 0;
    while games < 50 {
        // Each plays until its game ends and the rematch question is settled.
        let (a, b) = std::thread::scope(|scope| {
            let a = scope.spawn(|| ann.one_game());
            let b = scope.spawn(|| bob.one_game());
            (join(a), join(b))
        });
        assert_eq!(a, b, "both saw the same answer to the rematch question");
        games += 1;
    }
    assert_eq!(ann.refused, Vec::<String>::new());
    assert_eq!(bob.refused, Vec::<String>::new());
    assert_eq!(mistakes(&server, "Ann"), vec![]);
    assert_eq!(mistakes(&server, "Bob"), vec![]);
}

/// A lab of sixteen correct clients, each playing six games with whoever it is paired
/// with, answering every rematch question at once (yes or no by its own plan), then
/// identifying again after a "no": every card is clean at the end.
#[test]
fn a_busy_lab_of_correct_clients_leaves_clean_report_cards() {
    const CLIENTS: usize = 16;
    const GAMES: u32 = 6;
    let server = TestServer::with(Settings {
        // The odd one out at the end meets the practice bot.
        bot_after: Some(Duration::from_millis(500)),
        bot_think: Duration::from_millis(20),
        seed: Some(7),
        ..Settings::default()
    });
    let refused: Vec<(String, Vec<String>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..CLIENTS)
            .map(|n| {
                let server = &server;
                scope.spawn(move || {
                    let name = format!("Lab{n}");
                    // Its last game ends with a "no": it leaves nobody in a game.
                    let plan =
                        move |game: u32| game + 1 < GAMES && !(game + n as u32).is_multiple_of(3);
                    let mut player = Player::connect(server, &name, plan);
                    let deadline = Instant::now() + PATIENCE * 6;
                    while player.games < GAMES || !player.free {
                        assert!(Instant::now() < deadline, "{name} is stuck");
                        player.one_game();
                    }
                    (name, player.refused)
                })
            })
            .collect();
        handles.into_iter().map(join).collect()
    });
    for (name, lines) in &refused {
        assert_eq!(lines, &Vec::<String>::new(), "{name} was refused");
        assert_eq!(mistakes(&server, name), vec![], "{name}'s card");
    }
}

fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    match handle.join() {
        Ok(value) => value,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A correct GO! client, driven by what the server sends: it leads or joins, configures
/// 5x5 when asked, plays two stones and passes, and answers REQUEST_REMATCH at once with
/// its plan's answer for that game.
struct Player {
    name: String,
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    /// Its answer to the rematch question after game `n` (counted from 0).
    plan: Box<dyn Fn(u32) -> bool + Send>,
    games: u32,
    /// Every UNKNOWN_COMMAND or INVALID_MOVE it got (a correct client gets none).
    refused: Vec<String>,
    /// Its game, colour, stones placed this round, and whether it must HANDSHAKE
    /// before playing again.
    game: u32,
    colour: char,
    placed: u32,
    free: bool,
}

impl Player {
    fn connect(
        server: &TestServer,
        name: &str,
        plan: impl Fn(u32) -> bool + Send + 'static,
    ) -> Player {
        let stream = TcpStream::connect(server.addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        Player {
            name: name.to_string(),
            stream,
            reader,
            plan: Box::new(plan),
            games: 0,
            refused: Vec::new(),
            game: 0,
            colour: '0',
            placed: 0,
            free: true,
        }
    }

    fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }

    fn recv(&mut self) -> String {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => panic!("{}: the server closed the connection", self.name),
            Ok(_) => line.trim_end().to_string(),
            Err(e) => panic!("{}: no line within {PATIENCE:?}: {e}", self.name),
        }
    }

    /// Plays until a game ends and its rematch question is settled; returns the
    /// settlement (true: a rematch).
    fn one_game(&mut self) -> bool {
        if self.free {
            let name = self.name.clone();
            self.send(&format!("HANDSHAKE+{name}"));
            self.free = false;
        }
        loop {
            let line = self.recv();
            let fields: Vec<&str> = line.split('+').collect();
            match fields.as_slice() {
                ["ACKNOWLEDGE_HANDSHAKE", game, _] => self.game = game.parse().expect("a game id"),
                ["REQUEST_CONFIG", _] => {
                    let game = self.game;
                    self.send(&format!("SET_CONFIG+{game}+0+5"));
                }
                ["ACKNOWLEDGE_CONFIG", _, colour, _, state, _] => {
                    self.colour = colour.chars().next().unwrap_or('0');
                    self.placed = 0;
                    self.maybe_move(state);
                }
                ["ACKNOWLEDGE_MOVE", _, _, state] => self.maybe_move(state),
                ["GAME_FINISHED", ..] => {}
                ["REQUEST_REMATCH"] => {
                    let yes = (self.plan)(self.games);
                    self.send(&format!("SET_REMATCH+{}", u8::from(yes)));
                }
                ["ACKNOWLEDGE_REMATCH", answer] => {
                    self.games += 1;
                    let again = *answer == "1";
                    self.free = !again;
                    return again;
                }
                ["UNKNOWN_COMMAND" | "INVALID_MOVE", ..] => self.refused.push(line.clone()),
                _ => panic!("{}: a line no GO! client expects: {line}", self.name),
            }
        }
    }

    /// On its turn: a stone on the first empty point with an empty neighbour (never
    /// suicide, and no capture on a board this empty), twice, then passes.
    fn maybe_move(&mut self, state: &str) {
        let parts: Vec<&str> = state.split(';').collect();
        let [status, to_move, board] = parts.as_slice() else {
            panic!("{}: a state of three parts: {state}", self.name);
        };
        if *status != "PLAYING" || !to_move.starts_with(self.colour) {
            return;
        }
        let cells: Vec<char> = board.chars().collect();
        let size = 5;
        let empty_neighbour = |i: usize| {
            let (row, col) = (i / size, i % size);
            [
                (row > 0).then(|| i - size),
                (row + 1 < size).then(|| i + size),
                (col > 0).then(|| i - 1),
                (col + 1 < size).then(|| i + 1),
            ]
            .into_iter()
            .flatten()
            .any(|n| cells[n] == '0')
        };
        let index = if self.placed < 2 {
            self.placed += 1;
            (0..cells.len())
                .find(|&i| cells[i] == '0' && empty_neighbour(i))
                .map_or(-1, |i| i as i64)
        } else {
            -1
        };
        let (game, name) = (self.game, self.name.clone());
        self.send(&format!("MOVE+{game}+{name}+{index}"));
    }
}
