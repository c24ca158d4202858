//! `goserver check spectrangle --client-cmd`: the exam of a Spectrangle client, run on
//! the project's own client (`goserver play spectrangle`), and on that client behind a
//! broker that plants one defect at a time in its lines.
//!
//! - goserver play passes every required case; every choice is goserver's own.
//! - Each defect fails exactly the cases named for it.
//!
//! The broker listens on a port of its own; the client under test connects to it with
//! the exam's port in its name (`--name p{port}`), and the broker connects on to the
//! exam, passing lines both ways and changing the client's as the defect says.

use goserver::check::case::{Case, Verdict};
use goserver::check::probe::Timing;
use goserver::check::run::{Outcome, Progress, run};
use goserver::check::spectrangle::exam;
use goserver::check::target::Target;
use goserver::engine::spectrangle::Tile;
use goserver::frontend::spectrangle::protocol::ServerMessage;
use parking_lot::Mutex;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

/// The exam's answer timeout for goserver play: its answers take milliseconds; five
/// seconds leave room for a busy machine.
const ANSWER: Duration = Duration::from_secs(5);

/// The answer timeout behind the broker: a defect is caught in the quiet window (a
/// tenth of it, so one second), which the broker's extra hop must not outlast even on
/// a busy machine.
const DEFECT_ANSWER: Duration = Duration::from_secs(10);

/// How long a started client has to connect.
const START: Duration = Duration::from_secs(30);

struct Quiet;

impl Progress for Quiet {
    fn start(&mut self, _: usize) {}
    fn finished(&mut self, _: usize, _: usize, _: &Outcome) {}
}

/// Runs the exam's cases that `keep` keeps on the client `template` starts.
fn examine(template: &str, answer: Duration, keep: impl Fn(&Case) -> bool) -> Vec<Outcome> {
    let suite = exam::suite();
    let cases: Vec<Case> = suite.cases.iter().filter(|c| keep(c)).cloned().collect();
    let target = Target::Client {
        template: template.to_string(),
        start_timeout: START,
    };
    run(&suite, &cases, &target, Timing::new(answer), &mut Quiet)
}

/// `goserver play spectrangle` on `port` (a placeholder or a number), two games.
/// SpectraBot's seed is fixed and its deadline far off, so that it stops at its own
/// cap of simulated games: the same moves on a quiet machine and a busy one.
fn play_command(port: &str, extra: &str) -> String {
    format!(
        "'{}' play spectrangle 127.0.0.1:{port} --games 2 --seed 1 --think 60000{extra}",
        env!("CARGO_BIN_EXE_goserver")
    )
}

/// Each case's id, verdict and detail, for messages.
fn listing(outcomes: &[Outcome]) -> String {
    outcomes
        .iter()
        .map(|o| {
            format!(
                "\n  {} {}: {}",
                o.case.id,
                o.verdict.word(),
                o.verdict.detail()
            )
        })
        .collect()
}

#[test]
fn goserver_play_passes_the_exam_with_goserver_s_own_choices() {
    let outcomes = examine(&play_command("{port}", ""), ANSWER, |_| true);
    assert!(outcomes.len() >= 25, "{} cases", outcomes.len());
    let wrong: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| {
            matches!(
                o.verdict,
                Verdict::Fail(_) | Verdict::Gone | Verdict::Open { same: false, .. }
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "the exam and goserver play disagree:{}",
        listing(&outcomes)
    );
}

/// What the broker knows of one client's game, from the lines it passes.
#[derive(Default)]
struct Seen {
    /// The client's name (its JOIN).
    me: String,
    /// The players of the game, in START's order.
    players: Vec<String>,
    /// TILE lines since START.
    tiles: usize,
    /// The client's hand.
    hand: Vec<Tile>,
    /// The last UPDATE was another player's swap.
    after_swap: bool,
}

impl Seen {
    /// Follows a line from the exam.
    fn observe(&mut self, line: &str) {
        match ServerMessage::parse(line) {
            Ok(ServerMessage::Start { players }) => {
                self.players = players;
                self.tiles = 0;
                self.hand.clear();
            }
            Ok(ServerMessage::Tile { player, tile }) => {
                self.tiles += 1;
                if player == self.me {
                    self.hand.push(tile);
                }
            }
            Ok(ServerMessage::Played { player, tile, .. }) => {
                self.after_swap = false;
                if player == self.me {
                    self.take(tile.tile());
                }
            }
            Ok(ServerMessage::Swapped { player, returned }) => {
                self.after_swap = player != self.me;
                if player == self.me {
                    self.take(returned);
                }
            }
            Ok(ServerMessage::Skipped { .. }) => self.after_swap = false,
            _ => {}
        }
    }

    fn take(&mut self, tile: Tile) {
        if let Some(at) = self.hand.iter().position(|t| *t == tile) {
            self.hand.remove(at);
        }
    }
}

/// A defect the broker plants.
#[derive(Clone, Copy)]
struct Defect {
    /// A line of the client's: the lines the exam gets instead.
    upstream: fn(&Seen, &str) -> Vec<String>,
    /// A line of the exam's (the client gets it as it is, and `Seen` has taken it):
    /// lines the exam gets as if the client had sent them.
    downstream: fn(&Seen, &str) -> Vec<String>,
}

fn same(_: &Seen, line: &str) -> Vec<String> {
    vec![line.to_string()]
}

fn nothing(_: &Seen, _: &str) -> Vec<String> {
    Vec::new()
}

/// In games of three or four, MOVE_PLAY names a tile the client does not hold.
const TILE_NOT_HELD: Defect = Defect {
    upstream: |seen, line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words[..] {
            ["MOVE_PLAY", _, location] if seen.players.len() >= 3 => {
                let other = Tile::ALL
                    .into_iter()
                    .find(|t| !seen.hand.contains(t))
                    .map(|t| t.to_string())
                    .unwrap_or_default();
                vec![format!("MOVE_PLAY {other} {location}")]
            }
            _ => vec![line.to_string()],
        }
    },
    downstream: nothing,
};

/// When START does not list it first, it sends MOVE_SKIP as soon as the deal is out.
const OUT_OF_TURN: Defect = Defect {
    upstream: same,
    downstream: |seen, line| {
        let dealt = line.starts_with("TILE") && seen.tiles == 4 * seen.players.len();
        if dealt && seen.players.first() != Some(&seen.me) {
            vec!["MOVE_SKIP".to_string()]
        } else {
            Vec::new()
        }
    },
};

/// Right after another player's swap, it skips even when a tile of its fits.
const SKIPS_AFTER_A_SWAP: Defect = Defect {
    upstream: |seen, line| {
        if line.starts_with("MOVE_PLAY") && seen.after_swap {
            vec!["MOVE_SKIP".to_string()]
        } else {
            vec![line.to_string()]
        }
    },
    downstream: nothing,
};

/// It never says READY.
const NO_READY: Defect = Defect {
    upstream: |_, line| {
        if line.trim() == "READY" {
            Vec::new()
        } else {
            vec![line.to_string()]
        }
    },
    downstream: nothing,
};

/// It answers SCORE with MOVE_SKIP.
const MOVE_AFTER_SCORE: Defect = Defect {
    upstream: same,
    downstream: |_, line| {
        if line.starts_with("SCORE") {
            vec!["MOVE_SKIP".to_string()]
        } else {
            Vec::new()
        }
    },
};

/// The broker: a port the client under test connects to; stopped when dropped.
struct Broker {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Broker {
    fn start(defect: Defect) -> Broker {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind the broker");
        let addr = listener.local_addr().expect("the broker's address");
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        thread::spawn(move || {
            for client in listener.incoming() {
                if stopped.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(client) = client {
                    thread::spawn(move || relay(client, defect));
                }
            }
        });
        Broker { addr, stop }
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept.
        let _ = TcpStream::connect(self.addr);
    }
}

/// Writes `lines` to the exam.
fn to_exam(exam: &Mutex<TcpStream>, lines: &[String]) -> bool {
    let mut exam = exam.lock();
    lines
        .iter()
        .all(|line| exam.write_all(format!("{line}\n").as_bytes()).is_ok())
}

/// One client: its JOIN names the exam's port (`JOIN p40123`); then lines both ways.
fn relay(client: TcpStream, defect: Defect) {
    let Ok(reading) = client.try_clone() else {
        return;
    };
    let mut from_client = BufReader::new(reading);
    let mut join = String::new();
    if from_client.read_line(&mut join).unwrap_or(0) == 0 {
        return;
    }
    let name = join
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    let Some(port) = name.strip_prefix('p').and_then(|p| p.parse::<u16>().ok()) else {
        return;
    };
    let Ok(exam) = TcpStream::connect(("127.0.0.1", port)) else {
        return;
    };
    let Ok(exam_reading) = exam.try_clone() else {
        return;
    };
    let seen = Arc::new(Mutex::new(Seen {
        me: name,
        ..Seen::default()
    }));
    let exam = Arc::new(Mutex::new(exam));
    let (up_seen, up_exam) = (Arc::clone(&seen), Arc::clone(&exam));
    let up_client = client.try_clone().ok();
    let up = thread::spawn(move || {
        let mut line = join;
        loop {
            let lines = (defect.upstream)(&up_seen.lock(), line.trim_end());
            if !to_exam(&up_exam, &lines) {
                break;
            }
            line.clear();
            if from_client.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
        }
        let _ = up_exam.lock().shutdown(Shutdown::Both);
        if let Some(client) = up_client {
            let _ = client.shutdown(Shutdown::Both);
        }
    });
    let mut from_exam = BufReader::new(exam_reading);
    let mut to_client = client;
    let mut line = String::new();
    while from_exam.read_line(&mut line).unwrap_or(0) > 0 {
        if to_client.write_all(line.as_bytes()).is_err() {
            break;
        }
        let injected = {
            let mut seen = seen.lock();
            seen.observe(line.trim_end());
            (defect.downstream)(&seen, line.trim_end())
        };
        if !to_exam(&exam, &injected) {
            break;
        }
        line.clear();
    }
    let _ = to_client.shutdown(Shutdown::Both);
    let _ = exam.lock().shutdown(Shutdown::Both);
    let _ = up.join();
}

/// The exam's cases that `keep` keeps, on goserver play behind a broker with `defect`:
/// the ids that failed, and every case's verdict for a message.
fn failing(defect: Defect, keep: impl Fn(&Case) -> bool) -> (BTreeSet<String>, String) {
    let broker = Broker::start(defect);
    let port = broker.addr.port().to_string();
    let outcomes = examine(&play_command(&port, " --name p{port}"), DEFECT_ANSWER, keep);
    let ids = outcomes
        .iter()
        .filter(|o| o.verdict.is_failure())
        .map(|o| o.case.id.clone())
        .collect();
    (ids, listing(&outcomes))
}

/// One defect's run: what it is, the defect, the cases it must fail, and which cases
/// run.
struct Planted {
    name: &'static str,
    defect: Defect,
    fails: &'static [&'static str],
    keep: fn(&Case) -> bool,
}

#[test]
fn each_planted_defect_fails_exactly_the_cases_named_for_it() {
    let every = |_: &Case| true;
    let runs = [
        Planted {
            name: "a tile it does not hold, in games of three and four",
            defect: TILE_NOT_HELD,
            fails: &[
                "join.4", "turns.6", "turns.7", "turns.8", "turns.9", "turns.14", "end.2", "wire.2",
            ],
            keep: every,
        },
        Planted {
            name: "a move before its turn, when START does not list it first",
            defect: OUT_OF_TURN,
            fails: &[
                "turns.2", "turns.4", "turns.6", "turns.7", "turns.8", "turns.9", "stuck.1",
                "stuck.2", "stuck.3", "stuck.4", "end.1", "end.2", "end.5", "wire.6", "wire.7",
            ],
            keep: every,
        },
        Planted {
            name: "MOVE_SKIP after another player's swap, when a tile fits",
            defect: SKIPS_AFTER_A_SWAP,
            // turns.8 and stuck.3 by design; in the others an opponent of the exam
            // swaps (nothing of its fits) before a turn in which the client places.
            fails: &[
                "turns.3", "turns.5", "turns.8", "stuck.3", "end.3", "end.4", "end.5", "wire.2",
            ],
            keep: every,
        },
        Planted {
            name: "a move after SCORE",
            defect: MOVE_AFTER_SCORE,
            fails: &["end.3", "end.5"],
            keep: every,
        },
        // Every case after the lobby waits for READY the whole answer timeout: the
        // lobby's cases show it.
        Planted {
            name: "no READY",
            defect: NO_READY,
            fails: &["join.2", "join.3", "join.4"],
            keep: |c| c.section.slug == "join",
        },
    ];
    let handles: Vec<_> = runs
        .into_iter()
        .map(|planted| {
            thread::spawn(move || {
                let (got, detail) = failing(planted.defect, planted.keep);
                (planted, got, detail)
            })
        })
        .collect();
    let mut wrong = Vec::new();
    for handle in handles {
        let (planted, got, detail) = handle.join().expect("a defect's run");
        let expected: BTreeSet<String> = planted.fails.iter().map(|s| (*s).to_string()).collect();
        if got != expected {
            wrong.push(format!(
                "{}: expected {expected:?} to fail, got {got:?}{detail}",
                planted.name
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
