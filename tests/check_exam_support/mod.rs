//! Broken GO! clients for the tests of the exam of a client (`goserver check go
//! --client-cmd`): the project's own client, `goserver play`, behind a line proxy that
//! changes, drops or adds lines (one defect each, the kind students' clients have);
//! the exam run on a command; and what a run left running.
//!
//! The checker listens on a new port for every case and puts it in place of `{port}`
//! in the client command. The command that [`Front::command`] makes writes that port
//! to a file, then starts `goserver play` against the front, a port of the test's
//! own; the front, for each connection, reads the file, connects to the checker there
//! and relays line by line through the defect. The file is written before `goserver
//! play` starts, so it names the case's port by the time the connection arrives.
//! Every command also appends its process id to a file: the process group the checker
//! made for it, which [`left_running`] looks for after the run.
#![allow(dead_code)]

use crossbeam_channel::{Receiver, Sender, bounded};
use goserver::check::case::{Case, Verdict};
use goserver::check::go::exam;
use goserver::check::probe::Timing;
use goserver::check::run::{Outcome, Progress, run};
use goserver::check::target::Target;
use parking_lot::Mutex;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The answer timeout the tests run with: long enough for a busy machine when the
/// client is well (`goserver play --think 30` answers in a few milliseconds), short
/// enough that a defect's silence costs a few seconds. The quiet window follows from
/// it: half a second.
pub const ANSWER: Duration = Duration::from_secs(5);

/// How long `goserver play` has to connect: it does at once; the bound is for a busy
/// machine.
pub const START: Duration = Duration::from_secs(10);

/// The longest line the proxy relays; the exam's longest is a few KiB.
const MAX_LINE: u64 = 64 * 1024;

/// Lines waiting for a socket's writer. The proxy is a test's: a few lines are in
/// flight at a time, and a full queue makes the reader wait, as TCP would.
const QUEUE: usize = 64;

/// What the proxy has seen of one connection's game, for defects that depend on it.
/// The proxy fills in the facts; `mark` and `count` are the defect's own.
#[derive(Debug, Default)]
pub struct Seen {
    /// The name the client asked for in its HANDSHAKE.
    pub asked: String,
    /// The game id from ACKNOWLEDGE_HANDSHAKE.
    pub game_id: String,
    /// The name granted in ACKNOWLEDGE_CONFIG.
    pub name: String,
    /// The client's colour (`1`, `2`) from ACKNOWLEDGE_CONFIG.
    pub colour: String,
    /// The board size from ACKNOWLEDGE_CONFIG.
    pub size: usize,
    /// The point of the opponent's last move in this game, if it was not a pass.
    pub opponent_point: Option<i64>,
    /// The opponent's last move in this game was a pass.
    pub opponent_passed: bool,
    /// The last MOVE the checker got (after the defect).
    pub last_move: Option<String>,
    /// The defect's own mark.
    pub mark: bool,
    /// The defect's own count.
    pub count: usize,
}

impl Seen {
    /// Takes in the facts of a line of the checker's (the server's side).
    fn note_checker(&mut self, line: &str) {
        let fields: Vec<&str> = line.split('+').collect();
        match fields.as_slice() {
            ["ACKNOWLEDGE_HANDSHAKE", id, _] => self.game_id = (*id).to_string(),
            ["ACKNOWLEDGE_CONFIG", name, colour, size, _, _] => {
                self.name = (*name).to_string();
                self.colour = (*colour).to_string();
                self.size = size.parse().unwrap_or(0);
                self.opponent_point = None;
                self.opponent_passed = false;
            }
            ["ACKNOWLEDGE_MOVE", _, mv, _] => {
                let (index, colour) = mv.split_once(';').unwrap_or_default();
                if colour != self.colour {
                    let index: i64 = index.parse().unwrap_or(-1);
                    self.opponent_passed = index == -1;
                    self.opponent_point = (index >= 0).then_some(index);
                }
            }
            _ => {}
        }
    }

    /// Takes in the facts of a line of the client's, before its defect.
    fn note_client(&mut self, line: &str) {
        if let Some(name) = line.strip_prefix("HANDSHAKE+") {
            self.asked = name.to_string();
        }
    }

    /// A MOVE of this game's, for the client, on `index`.
    pub fn move_line(&self, index: i64) -> String {
        format!("MOVE+{}+{}+{index}", self.game_id, self.name)
    }
}

/// A line the proxy sends, and to whom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// To the checker (as the client).
    Checker(String),
    /// To the client (as the server).
    Client(String),
}

/// One defect: what the proxy sends for each line of the client's and each line of the
/// checker's (lines without their line ends).
#[derive(Clone, Copy)]
pub struct Defect {
    /// What it is, for messages.
    pub name: &'static str,
    /// A line of the client's.
    pub from_client: fn(&mut Seen, &str) -> Vec<Out>,
    /// A line of the checker's.
    pub from_checker: fn(&mut Seen, &str) -> Vec<Out>,
}

/// Passes a line of the client's on.
pub fn on_to_checker(_: &mut Seen, line: &str) -> Vec<Out> {
    vec![Out::Checker(line.to_string())]
}

/// Passes a line of the checker's on.
pub fn on_to_client(_: &mut Seen, line: &str) -> Vec<Out> {
    vec![Out::Client(line.to_string())]
}

impl Defect {
    /// No defect: the proxy is transparent.
    pub const NONE: Defect = Defect {
        name: "none",
        from_client: on_to_checker,
        from_checker: on_to_client,
    };
}

/// A directory of the test's own, removed when dropped: the port file, the process
/// group ids.
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    pub fn new() -> Scratch {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "goserver-check-exam-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).expect("a scratch directory");
        Scratch { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `path` inside the directory, quoted for `sh`.
    pub fn quoted(&self, name: &str) -> String {
        format!("'{}'", self.path.join(name).display())
    }

    /// The shell's words that record the command's process group (its first process,
    /// the group leader the checker made, before any `exec`).
    pub fn record_group(&self) -> String {
        format!("echo $$ >> {}", self.quoted("groups"))
    }

    /// The process groups the commands recorded.
    pub fn groups(&self) -> Vec<i32> {
        std::fs::read_to_string(self.path.join("groups"))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The front: where `goserver play` connects, relayed to each case's checker through
/// a defect. Stops accepting when dropped.
pub struct Front {
    pub addr: SocketAddr,
    pub scratch: Scratch,
    stop: Arc<AtomicBool>,
}

impl Front {
    pub fn start(defect: Defect) -> Front {
        let scratch = Scratch::new();
        let port_file = scratch.path().join("port");
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        listener.set_nonblocking(true).expect("nonblocking");
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        thread::Builder::new()
            .name("exam-front".into())
            .spawn(move || {
                while !stopping.load(Ordering::Relaxed) {
                    match listener.accept() {
                        Ok((client, _)) => {
                            let _ = client.set_nonblocking(false);
                            // A checker gone already: the client's connection closes,
                            // and its case says so.
                            if let Some(checker) = checker_of(&port_file) {
                                relay(client, checker, defect);
                            }
                        }
                        Err(_) => thread::sleep(Duration::from_millis(5)),
                    }
                }
            })
            .expect("the front's thread");
        Front {
            addr,
            scratch,
            stop,
        }
    }

    /// The client command: the case's port to the file, the process group recorded,
    /// then `goserver play` with `args` against the front.
    pub fn command(&self, args: &str) -> String {
        format!(
            "echo {{port}} > {} && {} && exec '{}' play go {} {args}",
            self.scratch.quoted("port"),
            self.scratch.record_group(),
            env!("CARGO_BIN_EXE_goserver"),
            self.addr
        )
    }
}

impl Drop for Front {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// A connection to the checker on the port the file names.
fn checker_of(port_file: &Path) -> Option<TcpStream> {
    let port: u16 = std::fs::read_to_string(port_file)
        .ok()?
        .trim()
        .parse()
        .ok()?;
    TcpStream::connect(("127.0.0.1", port)).ok()
}

/// What a socket's writer is told: a line (with its line end), or to close the socket
/// once everything before has been written.
enum ToWrite {
    Line(Vec<u8>),
    Close,
}

/// Relays between the client and the checker through `defect`: a reader per side
/// (lines through the defect), a writer per side (fed by a bounded queue, so that no
/// lock is held across a write). The end of either side closes the other, once what
/// was read before it has been written.
fn relay(client: TcpStream, checker: TcpStream, defect: Defect) {
    let _ = client.set_nodelay(true);
    let _ = checker.set_nodelay(true);
    let seen = Arc::new(Mutex::new(Seen::default()));
    let (to_client, client_queue) = bounded(QUEUE);
    let (to_checker, checker_queue) = bounded(QUEUE);
    for (stream, queue) in [(&client, client_queue), (&checker, checker_queue)] {
        let stream = stream.try_clone().expect("clone");
        thread::spawn(move || write_all(stream, queue));
    }
    let sides = [
        (client, Side::Client, to_client.clone(), to_checker.clone()),
        (checker, Side::Checker, to_client, to_checker),
    ];
    for (stream, side, to_client, to_checker) in sides {
        let seen = Arc::clone(&seen);
        thread::spawn(move || read_lines(stream, side, defect, &seen, &to_client, &to_checker));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Client,
    Checker,
}

/// Writes what comes on `queue` to `stream`, until told to close or the queue ends.
fn write_all(mut stream: TcpStream, queue: Receiver<ToWrite>) {
    for write in queue {
        match write {
            ToWrite::Line(bytes) => {
                if stream.write_all(&bytes).is_err() {
                    break;
                }
            }
            ToWrite::Close => break,
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Reads `stream`'s lines (a side's), each through the defect, to the writers; at its
/// end, closes the other side.
fn read_lines(
    stream: TcpStream,
    side: Side,
    defect: Defect,
    seen: &Mutex<Seen>,
    to_client: &Sender<ToWrite>,
    to_checker: &Sender<ToWrite>,
) {
    let mut reader = BufReader::new(stream);
    let mut raw = Vec::new();
    loop {
        raw.clear();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut raw) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&raw).to_string();
        let line = text.trim_end_matches(['\n', '\r']);
        // The line's own end goes with the lines sent the same way (the checker's CR
        // LF case); lines sent the other way end in LF.
        let end = &text[line.len()..];
        let outs = {
            let mut seen = seen.lock();
            match side {
                Side::Client => {
                    seen.note_client(line);
                    let outs = (defect.from_client)(&mut seen, line);
                    for out in &outs {
                        if let Out::Checker(sent) = out
                            && sent.starts_with("MOVE+")
                        {
                            seen.last_move = Some(sent.clone());
                        }
                    }
                    outs
                }
                Side::Checker => {
                    seen.note_checker(line);
                    (defect.from_checker)(&mut seen, line)
                }
            }
        };
        for out in outs {
            let (queue, text, same_way) = match out {
                Out::Checker(text) => (to_checker, text, side == Side::Client),
                Out::Client(text) => (to_client, text, side == Side::Checker),
            };
            let end = if same_way && !end.is_empty() {
                end
            } else {
                "\n"
            };
            let _ = queue.send(ToWrite::Line(format!("{text}{end}").into_bytes()));
        }
    }
    let other = match side {
        Side::Client => to_checker,
        Side::Checker => to_client,
    };
    let _ = other.send(ToWrite::Close);
}

/// Hears nothing of a run's progress.
pub struct Quiet;

impl Progress for Quiet {
    fn start(&mut self, _: usize) {}
    fn finished(&mut self, _: usize, _: usize, _: &Outcome) {}
}

/// Runs the exam's cases that `keep` keeps on the client `template` starts.
pub fn exam(template: &str, start_timeout: Duration, keep: impl Fn(&Case) -> bool) -> Vec<Outcome> {
    let suite = exam::suite();
    let cases: Vec<Case> = suite.cases.iter().filter(|c| keep(c)).cloned().collect();
    let target = Target::Client {
        template: template.to_string(),
        start_timeout,
    };
    run(&suite, &cases, &target, Timing::new(ANSWER), &mut Quiet)
}

/// The ids of every case of the exam.
pub fn all_ids() -> BTreeSet<String> {
    exam::suite().cases.iter().map(|c| c.id.clone()).collect()
}

/// What a run found, for assertions: the failed cases, the choices other than
/// goserver's, and a line per case that is either, for messages.
#[derive(Debug)]
pub struct Found {
    pub failed: BTreeSet<String>,
    pub other_choices: BTreeSet<String>,
    pub detail: String,
}

pub fn found(outcomes: &[Outcome]) -> Found {
    let mut failed = BTreeSet::new();
    let mut other_choices = BTreeSet::new();
    let mut detail = String::new();
    for outcome in outcomes {
        match &outcome.verdict {
            Verdict::Fail(_) | Verdict::Gone => failed.insert(outcome.case.id.clone()),
            Verdict::Open { same: false, .. } => other_choices.insert(outcome.case.id.clone()),
            _ => continue,
        };
        detail.push_str(&format!(
            "\n  {} {} ({} ms): {}",
            outcome.case.id,
            outcome.verdict.word(),
            outcome.elapsed.as_millis(),
            outcome.verdict.detail()
        ));
    }
    Found {
        failed,
        other_choices,
        detail,
    }
}

/// `ids` as a set.
pub fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_string()).collect()
}

/// The processes still alive (not zombies) in the process groups `groups`, as
/// `pid (command)`, after waiting up to `wait` for them to go (a SIGKILL'd process
/// takes a moment to leave the kernel's table).
pub fn left_running(groups: &[i32], wait: Duration) -> Vec<String> {
    let deadline = Instant::now() + wait;
    loop {
        let alive = alive_in(groups);
        if alive.is_empty() || Instant::now() >= deadline {
            return alive;
        }
        thread::sleep(Duration::from_millis(50));
    }
}

fn alive_in(groups: &[i32]) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut alive = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let (Some(state), Some(group)) = (fields.first(), fields.get(2)) else {
            continue;
        };
        let group: i32 = group.parse().unwrap_or(0);
        let leader_or_member = groups.contains(&group) || groups.contains(&pid);
        if leader_or_member && *state != "Z" {
            let command = head.split_once('(').map_or("", |(_, c)| c);
            alive.push(format!("{pid} ({command})"));
        }
    }
    alive
}
