//! Runs a suite's cases one after another against the target, each on a thread of its
//! own with a deadline, and says after each whether the server is still alive.
//!
//! A case's steps each wait at most the answer timeout, so a case ends on its own; the
//! deadline ([`case_deadline`]) is the net under that: a case past it has its sockets
//! shut down (which wakes any wait) and fails, and the run goes on. After each case a
//! fresh client must get an answer (the suite's `alive` check). Against a shared
//! server, a case after which none comes fails, and the rest are `gone`; with a server
//! started for each case, the next case starts a new one.

use super::case::{Case, Failure, Section, Step, Verdict};
use super::log::{Entry, WireLog};
use super::probe::{Probe, Shot, Sockets, Timing};
use super::target::{Served, Target, describe_exit};
use std::net::Shutdown;
use std::panic::AssertUnwindSafe;
use std::time::{Duration, Instant};

/// A protocol's suite: its cases, its sections in the document's order, and how to
/// tell that a server is alive.
pub struct Suite {
    /// The protocol's name in reports: `GO!`, `Spectrangle`.
    pub protocol: &'static str,
    /// Its name on the command line: `go`, `spectrangle`.
    pub name: &'static str,
    /// The sections, in the document's order.
    pub sections: Vec<Section>,
    /// Every case, section by section.
    pub cases: Vec<Case>,
    /// Whether a fresh client gets an answer; leaves nothing behind on the server.
    pub alive: fn(&mut Probe) -> Step<()>,
}

/// What became of one case.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The case.
    pub case: Case,
    /// Its verdict.
    pub verdict: Verdict,
    /// Its wire log.
    pub log: Vec<Entry>,
    /// The boards it showed.
    pub shots: Vec<Shot>,
    /// How long it ran.
    pub elapsed: Duration,
    /// The last lines a server started for the case printed, when the case failed.
    pub server_output: Vec<String>,
    /// Whether the server still answered a fresh client after the case.
    pub alive: bool,
    /// Whether the case's own steps did not fail, and only what came after them did
    /// (the server exited during the case, or a fresh client got no answer after it).
    pub failed_only_after: bool,
}

/// Hears of each case as it finishes, to show progress.
pub trait Progress {
    /// The run starts: `total` cases.
    fn start(&mut self, total: usize);
    /// Case number `index` (from 0) of `total` has finished.
    fn finished(&mut self, index: usize, total: usize, outcome: &Outcome);
}

/// The deadline of one case: thirty answer timeouts, at least 30 s.
pub fn case_deadline(timing: Timing) -> Duration {
    (timing.answer * 30).max(Duration::from_secs(30))
}

/// How long an overrun case's thread has to end once its sockets are shut down.
const OVERRUN_GRACE: Duration = Duration::from_secs(2);

/// Runs `cases` of `suite` against `target`, in order; tells `progress` of each.
pub fn run(
    suite: &Suite,
    cases: &[Case],
    target: &Target,
    timing: Timing,
    progress: &mut dyn Progress,
) -> Vec<Outcome> {
    progress.start(cases.len());
    let run = run_token();
    let mut gone = false;
    let mut outcomes = Vec::with_capacity(cases.len());
    for (index, case) in cases.iter().enumerate() {
        let outcome = if gone {
            Outcome {
                case: case.clone(),
                verdict: Verdict::Gone,
                log: Vec::new(),
                shots: Vec::new(),
                elapsed: Duration::ZERO,
                server_output: Vec::new(),
                alive: false,
                failed_only_after: false,
            }
        } else {
            let tag = format!("{}{run}", index + 1);
            let outcome = run_one(suite, case, &tag, target, timing);
            gone = !target.is_fresh_per_case() && !outcome.alive;
            outcome
        };
        progress.finished(index, cases.len(), &outcome);
        outcomes.push(outcome);
    }
    outcomes
}

/// What the alive check expects, in a failure.
const ALIVE_EXPECTED: &str = "after the case, a fresh client gets an answer";

/// Two letters that tell this run's names from another's (two checkers on one shared
/// server, or the last run's clients still leaving).
fn run_token() -> String {
    let mut rng = crate::engine::rng::Rng::from_entropy();
    (0..2)
        .map(|_| char::from(b'a' + u8::try_from(rng.below(26)).unwrap_or(0)))
        .collect()
}

/// Runs one case; `tag` makes its clients' names its own (`Ann-7qa`).
fn run_one(suite: &Suite, case: &Case, tag: &str, target: &Target, timing: Timing) -> Outcome {
    let began = Instant::now();
    let tag = tag.to_string();
    let mut served = match target.start() {
        Ok(served) => served,
        Err(why) => {
            let log = WireLog::new();
            log.note(&why);
            return Outcome {
                case: case.clone(),
                verdict: Verdict::Fail(Failure::new("the server to start for the case", why)),
                log: log.entries(),
                shots: Vec::new(),
                elapsed: began.elapsed(),
                server_output: Vec::new(),
                // A server that cannot start for one case may for the next.
                alive: target.is_fresh_per_case(),
                failed_only_after: false,
            };
        }
    };
    let sockets = Sockets::default();
    let probe = Probe::new(served.addr, timing, tag.clone(), sockets.clone())
        .examining(served.client.clone());
    let log = probe.log.clone();
    let (shots, verdict, opened) = run_body(case, probe, &sockets, timing);
    if target.is_client() {
        let verdict = with_unaccepted_connections(verdict, &served, &log);
        // A client's run ends with its case: it is stopped, and its last output kept
        // for a case it failed.
        served.stop();
        let client_output = if verdict.is_failure() {
            served.output()
        } else {
            Vec::new()
        };
        return Outcome {
            case: case.clone(),
            verdict,
            log: log.entries(),
            shots,
            elapsed: began.elapsed(),
            server_output: client_output,
            alive: true,
            failed_only_after: false,
        };
    }
    if !target.is_fresh_per_case() {
        // A shared server hears of the case's clients leaving on threads of its own:
        // let it, before the next case joins where they were.
        std::thread::sleep(settle(opened));
    }
    let body_failed = verdict.is_failure();
    let (verdict, alive) = after_case(suite, verdict, &mut served, &log, timing, &tag);
    let failed_only_after = !body_failed && verdict.is_failure();
    let server_output = if verdict.is_failure() {
        served.stop();
        served.output()
    } else {
        Vec::new()
    };
    Outcome {
        case: case.clone(),
        verdict,
        log: log.entries(),
        shots,
        elapsed: began.elapsed(),
        server_output,
        alive,
        failed_only_after,
    }
}

/// A failed case of a client that opened connections the exam never took (a new
/// connection for each line, say, where the exam's server, like a course's, takes
/// one) says so: otherwise the failure reads as mere silence.
fn with_unaccepted_connections(verdict: Verdict, served: &Served, log: &WireLog) -> Verdict {
    let Verdict::Fail(mut failure) = verdict else {
        return verdict;
    };
    let Some(client) = &served.client else {
        return Verdict::Fail(failure);
    };
    if client.listener.set_nonblocking(true).is_err() {
        return Verdict::Fail(failure);
    }
    // Taken and closed at once: the client learns that nobody will answer there.
    let waiting = std::iter::from_fn(|| client.listener.accept().ok())
        .take(100)
        .count();
    if waiting > 0 {
        let note = format!(
            "the client opened {waiting} more connection{} that the exam's server never took (it takes one per client)",
            if waiting == 1 { "" } else { "s" }
        );
        log.note(&note);
        failure.got = format!("{}; {note}", failure.got);
    }
    Verdict::Fail(failure)
}

/// How long a shared server is given to see `connections` of a case leave: 20 ms and
/// a millisecond each, at most half a second.
fn settle(connections: usize) -> Duration {
    (Duration::from_millis(20)
        + Duration::from_millis(1) * u32::try_from(connections).unwrap_or(u32::MAX))
    .min(Duration::from_millis(500))
}

/// Runs the case's body on a thread of its own, within the case's deadline; returns the
/// boards it showed, its verdict, and how many connections it opened.
fn run_body(
    case: &Case,
    mut probe: Probe,
    sockets: &Sockets,
    timing: Timing,
) -> (Vec<Shot>, Verdict, usize) {
    let (done, result) = crossbeam_channel::bounded(1);
    let body = case.body;
    let log = probe.log.clone();
    let spawned = std::thread::Builder::new()
        .name(format!("check-{}", case.id))
        .spawn(move || {
            let step = std::panic::catch_unwind(AssertUnwindSafe(|| body(&mut probe)));
            let _ = done.send((probe.shots().to_vec(), step));
        });
    if let Err(e) = spawned {
        return (
            Vec::new(),
            Verdict::Fail(Failure::new("a thread for the case", e.to_string())),
            0,
        );
    }
    let deadline = case_deadline(timing);
    let received = match result.recv_timeout(deadline) {
        Ok(received) => Some(received),
        Err(_) => {
            log.note(&format!(
                "the case did not finish within {} s: its connections are shut down",
                deadline.as_secs()
            ));
            for socket in sockets.lock().iter() {
                let _ = socket.shutdown(Shutdown::Both);
            }
            let _ = result.recv_timeout(OVERRUN_GRACE);
            None
        }
    };
    // Whatever the case left open, it leaves now.
    let opened = {
        let mut sockets = sockets.lock();
        for socket in sockets.iter() {
            let _ = socket.shutdown(Shutdown::Both);
        }
        let opened = sockets.len();
        sockets.clear();
        opened
    };
    let (shots, verdict) = match received {
        Some((shots, Ok(step))) => (shots, Verdict::from(step)),
        Some((shots, Err(panic))) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            (
                shots,
                Verdict::Fail(Failure::new(
                    "the case to run",
                    format!("the checker itself failed (a bug, please report it): {why}"),
                )),
            )
        }
        None => (
            Vec::new(),
            Verdict::Fail(Failure::new(
                format!("the case to finish within {} s", deadline.as_secs()),
                "it did not: each wait is bounded, so the server kept it busy".to_string(),
            )),
        ),
    };
    (shots, verdict, opened)
}

/// After the case: did a started server exit during it, and does a fresh client still
/// get an answer? Either turns the verdict into a failure. Returns the verdict and
/// whether the server is alive.
fn after_case(
    suite: &Suite,
    verdict: Verdict,
    served: &mut Served,
    log: &WireLog,
    timing: Timing,
    tag: &str,
) -> (Verdict, bool) {
    if let Some(status) = served.exit_status() {
        let got = format!(
            "the server exited during the case ({})",
            describe_exit(status)
        );
        log.note(&got);
        let failure = Failure::new("the server to keep running", got);
        return (keep_first_failure(verdict, failure), false);
    }
    log.note("after the case: does a fresh client get an answer?");
    let mut probe =
        Probe::new(served.addr, timing, format!("{tag}x"), Sockets::default()).labelled("alive");
    probe.log = log.clone();
    match (suite.alive)(&mut probe) {
        Ok(()) => (verdict, true),
        Err(failure) => {
            let got = match served.exit_status() {
                Some(status) => format!(
                    "{}; the server exited ({})",
                    failure.got,
                    describe_exit(status)
                ),
                None => failure.got,
            };
            let failure = Failure::new(format!("{ALIVE_EXPECTED} ({})", failure.expected), got);
            (keep_first_failure(verdict, failure), false)
        }
    }
}

/// A case that failed already keeps its first failure, with the later one added to
/// what it got; any other verdict becomes `failure`.
fn keep_first_failure(verdict: Verdict, failure: Failure) -> Verdict {
    match verdict {
        Verdict::Fail(mut first) => {
            first.got = format!("{}; then: {}", first.got, failure.got);
            Verdict::Fail(first)
        }
        _ => Verdict::Fail(failure),
    }
}
