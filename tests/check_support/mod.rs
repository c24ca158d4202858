//! Broken servers for the checker's tests: a proxy in front of a real goserver that
//! changes, drops or adds lines (one defect each, the kind the public student servers
//! of the course have), and fake servers that break the checker's own expectations
//! (silence, megabytes without a newline, garbage, a close mid-case).
#![allow(dead_code)]

use goserver::check::case::Case;
use goserver::check::probe::Timing;
use goserver::check::run::{Outcome, Progress, Suite, run};
use goserver::check::target::Target;
use parking_lot::Mutex;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Duration;

/// What one connection through the proxy has done so far, for defects that depend on it.
#[derive(Default)]
pub struct Conn {
    /// The last board sent to the client in an ACKNOWLEDGE_MOVE.
    pub board: Option<String>,
    /// The client sent SET_REMATCH+0.
    pub said_no: bool,
    /// The client sent CHAT.
    pub chatted: bool,
    /// The client's own colour, from its ACKNOWLEDGE_CONFIG.
    pub colour: Option<char>,
}

/// One defect: how the proxy changes what the client sends (as read, a chunk at a
/// time) and each line the server sends.
#[derive(Clone, Copy)]
pub struct Defect {
    /// What it is, for messages.
    pub name: &'static str,
    /// A chunk from the client: the bytes the server gets.
    pub upstream: fn(&mut Conn, &[u8]) -> Vec<u8>,
    /// A line from the server: the lines the client gets.
    pub downstream: fn(&mut Conn, &str) -> Vec<String>,
    /// A chunk from a client after which the whole server "crashes": it closes every
    /// connection and accepts no more.
    pub crashes_on: fn(&[u8]) -> bool,
}

/// Passes bytes through.
pub fn same_bytes(_: &mut Conn, chunk: &[u8]) -> Vec<u8> {
    chunk.to_vec()
}

/// Passes a line through.
pub fn same_line(_: &mut Conn, line: &str) -> Vec<String> {
    vec![line.to_string()]
}

/// Never crashes.
pub fn never(_: &[u8]) -> bool {
    false
}

impl Defect {
    /// No defect at all: the proxy is transparent.
    pub const NONE: Defect = Defect {
        name: "none",
        upstream: same_bytes,
        downstream: same_line,
        crashes_on: never,
    };
}

/// A proxy on a port of its own in front of `upstream`, with `defect`; stopped when
/// dropped.
pub struct Proxy {
    pub addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Proxy {
    pub fn start(upstream: SocketAddr, defect: Defect) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        listener.set_nonblocking(true).expect("nonblocking");
        let stop = Arc::new(AtomicBool::new(false));
        let crashed = Arc::new(AtomicBool::new(false));
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let stopping = Arc::clone(&stop);
        thread::spawn(move || {
            while !stopping.load(Ordering::Relaxed) && !crashed.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let Ok(server) = TcpStream::connect(upstream) else {
                            continue;
                        };
                        // Lines go on at once, as the server sent them.
                        let _ = client.set_nodelay(true);
                        let _ = server.set_nodelay(true);
                        for stream in [&client, &server] {
                            if let Ok(clone) = stream.try_clone() {
                                open.lock().push(clone);
                            }
                        }
                        pump(
                            client,
                            server,
                            defect,
                            Arc::clone(&crashed),
                            Arc::clone(&open),
                        );
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
            // Stopped or crashed: the listener closes, and so does every connection.
            drop(listener);
            for stream in open.lock().drain(..) {
                let _ = stream.shutdown(Shutdown::Both);
            }
        });
        Proxy { addr, stop }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Two threads: the client's chunks to the server, the server's lines to the client,
/// each through the defect.
fn pump(
    client: TcpStream,
    server: TcpStream,
    defect: Defect,
    crashed: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
) {
    let conn = Arc::new(Mutex::new(Conn::default()));
    let (mut from_client, mut to_server) = (
        client.try_clone().expect("clone"),
        server.try_clone().expect("clone"),
    );
    let up = Arc::clone(&conn);
    thread::spawn(move || {
        let mut chunk = [0u8; 64 * 1024];
        loop {
            let n = match from_client.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if (defect.crashes_on)(&chunk[..n]) {
                crashed.store(true, Ordering::Relaxed);
                for stream in open.lock().drain(..) {
                    let _ = stream.shutdown(Shutdown::Both);
                }
                return;
            }
            let text = String::from_utf8_lossy(&chunk[..n]);
            {
                let mut conn = up.lock();
                conn.said_no |= text.contains("SET_REMATCH+0");
                conn.chatted |= text.contains("CHAT ");
            }
            let bytes = (defect.upstream)(&mut up.lock(), &chunk[..n]);
            if to_server.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = to_server.shutdown(Shutdown::Write);
    });
    let (from_server, mut to_client) = (server, client);
    thread::spawn(move || {
        let mut reader = BufReader::new(from_server);
        let mut line = String::new();
        loop {
            line.clear();
            match reader.read_line(&mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            let text = line.trim_end_matches(['\n', '\r']);
            let lines = (defect.downstream)(&mut conn.lock(), text);
            let mut out = String::new();
            for l in lines {
                out.push_str(&l);
                out.push('\n');
            }
            if to_client.write_all(out.as_bytes()).is_err() {
                break;
            }
        }
        let _ = to_client.shutdown(Shutdown::Both);
    });
}

/// Hears nothing of a run's progress.
pub struct Quiet;

impl Progress for Quiet {
    fn start(&mut self, _: usize) {}
    fn finished(&mut self, _: usize, _: usize, _: &Outcome) {}
}

/// The answer timeout the tests run with: long enough for a busy machine (two dozen
/// check tests share two cores, beside whatever else runs) when the server is well,
/// and short enough that a defect's silence costs a few seconds. The quiet window
/// (how long an answer that may or may not come is waited for) follows from it: half
/// a second.
pub const ANSWER: Duration = Duration::from_secs(5);

/// Runs the cases of `suite` that `keep` keeps against `addr`.
pub fn check(suite: &Suite, addr: SocketAddr, keep: impl Fn(&Case) -> bool) -> Vec<Outcome> {
    let cases: Vec<Case> = suite.cases.iter().filter(|c| keep(c)).cloned().collect();
    run(
        suite,
        &cases,
        &Target::Running(addr),
        Timing::new(ANSWER),
        &mut Quiet,
    )
}

/// The ids of the cases that failed, with what each found, for a message.
pub fn failures(outcomes: &[Outcome]) -> (BTreeSet<String>, String) {
    let mut ids = BTreeSet::new();
    let mut detail = String::new();
    for outcome in outcomes.iter().filter(|o| o.verdict.is_failure()) {
        ids.insert(outcome.case.id.clone());
        detail.push_str(&format!(
            "\n  {}: {}",
            outcome.case.id,
            outcome.verdict.detail()
        ));
    }
    (ids, detail)
}

/// `ids` as a set.
pub fn set(ids: &[&str]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).to_string()).collect()
}
