//! What a case runs with: the server's address, the waits, the case's wire log, its
//! clients' names, and the boards it shows. Cases know the server only through this.

use super::log::WireLog;
use super::step::{Failure, Step};
use super::target::{ClientSide, describe_exit};
use super::wire::Wire;
use parking_lot::Mutex;
use serde::Serialize;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// How long a case waits.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// For an answer (`--answer-timeout`): past it, the step fails.
    pub answer: Duration,
    /// To conclude that nothing more comes (a line that must not be sent): a tenth of
    /// the answer timeout, from 200 ms to 1 s.
    pub quiet: Duration,
    /// After connecting, before a client's first line (`--connect-pause`; none by
    /// default).
    pub connect_pause: Duration,
}

impl Timing {
    /// The waits for an answer timeout of `answer`, no pause after connecting.
    pub fn new(answer: Duration) -> Timing {
        Timing {
            answer,
            quiet: (answer / 10).clamp(Duration::from_millis(200), Duration::from_secs(1)),
            connect_pause: Duration::ZERO,
        }
    }
}

/// A board a case shows in its report: the last position agreed on, say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shot {
    /// What it is, e.g. `after 40 moves`.
    pub caption: String,
    /// One text row per board row.
    pub rows: Vec<String>,
}

/// The sockets of a case's clients, so that the runner can shut them down (and wake any
/// wait) when a case overruns its deadline.
pub type Sockets = Arc<Mutex<Vec<TcpStream>>>;

/// A case's view of the server under test.
pub struct Probe {
    /// Where the server listens.
    pub addr: SocketAddr,
    /// How long to wait.
    pub timing: Timing,
    /// The case's wire log.
    pub log: WireLog,
    /// Makes names unique to the case (a server shared by every case still holds the
    /// last case's names for a moment).
    tag: String,
    sockets: Sockets,
    shots: Vec<Shot>,
    clients: usize,
    /// Labels the clients in the log instead of `A`, `B`, ... (the check after a
    /// case: `alive`).
    label: Option<&'static str>,
    /// Connections kept open until the case ends, by no client of the case's.
    kept: Vec<Wire>,
    /// The client under test, when the checker examines one and plays the server.
    client: Option<ClientSide>,
}

/// How long a client the exam closed on has to exit before it says the client keeps
/// running (both exams' cases of a server that closes the connection).
pub const CLIENT_EXIT_WAIT: Duration = Duration::from_secs(10);

impl Probe {
    /// A probe of the server at `addr` for the case numbered `tag` in the run.
    pub fn new(addr: SocketAddr, timing: Timing, tag: String, sockets: Sockets) -> Probe {
        Probe {
            addr,
            timing,
            log: WireLog::new(),
            tag,
            sockets,
            shots: Vec::new(),
            clients: 0,
            label: None,
            kept: Vec::new(),
            client: None,
        }
    }

    /// This probe examines the client `client` (the checker plays the server).
    #[must_use]
    pub fn examining(mut self, client: Option<ClientSide>) -> Probe {
        self.client = client;
        self
    }

    /// Waits for the client under test to connect (within its start timeout): the
    /// checker's end of that connection, labelled `S` (the server it plays) in the log,
    /// `S2`, ... for later connections.
    ///
    /// # Errors
    ///
    /// No client is examined, it did not connect in time, or it exited first.
    pub fn accept(&mut self) -> Step<Wire> {
        let Some(client) = self.client.clone() else {
            return Err(Failure::new(
                "a client under test (--client-cmd)",
                "this case examines a client, and no --client-cmd was given",
            ));
        };
        let expected = format!(
            "the client to connect within {} s",
            client.start_timeout.as_secs_f64()
        );
        let deadline = std::time::Instant::now() + client.start_timeout;
        let listener = &client.listener;
        listener
            .set_nonblocking(true)
            .map_err(|e| Failure::new(expected.clone(), e.to_string()))?;
        loop {
            match listener.accept() {
                Ok((stream, _)) => {
                    stream
                        .set_nonblocking(false)
                        .map_err(|e| Failure::new(expected.clone(), e.to_string()))?;
                    let who = match self.clients {
                        0 => "S".to_string(),
                        n => format!("S{}", n + 1),
                    };
                    self.clients += 1;
                    let wire = Wire::accepted(stream, &who, &self.log, self.timing.answer)?;
                    if let Ok(handle) = wire.handle() {
                        self.sockets.lock().push(handle);
                    }
                    return Ok(wire);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(Failure::new(expected, e.to_string())),
            }
            if let Some(status) = client.exit_status() {
                let output = client.output();
                let said = if output.is_empty() {
                    String::new()
                } else {
                    format!("; its last output: {}", output.join(" | "))
                };
                return Err(Failure::new(
                    expected,
                    format!(
                        "it exited ({}) without connecting{said}",
                        describe_exit(status)
                    ),
                ));
            }
            if std::time::Instant::now() >= deadline {
                return Err(Failure::new(expected, "no connection came"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// How the client under test has ended, if it has within `wait`: `status 0`,
    /// `signal 9`; `None` while it runs.
    pub fn client_exit_within(&self, wait: Duration) -> Option<String> {
        let client = self.client.as_ref()?;
        let deadline = std::time::Instant::now() + wait;
        loop {
            if let Some(status) = client.exit_status() {
                return Some(describe_exit(status));
            }
            if std::time::Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Labels this probe's clients `label` in the log (`label`, `label2`, ...), so that
    /// they stand apart from the case's own `A`, `B`, ...
    #[must_use]
    pub fn labelled(mut self, label: &'static str) -> Probe {
        self.label = Some(label);
        self
    }

    /// Keeps `wire` open until the case ends (a client that joined a stray game).
    pub fn keep(&mut self, wire: Wire) {
        self.kept.push(wire);
    }

    /// Connects the case's next client, labelled `A`, `B`, ... in the log.
    ///
    /// # Errors
    ///
    /// The server does not accept the connection within the answer timeout.
    pub fn connect(&mut self) -> Step<Wire> {
        let wire = self.connect_at_once()?;
        if !self.timing.connect_pause.is_zero() {
            std::thread::sleep(self.timing.connect_pause);
        }
        Ok(wire)
    }

    /// [`Probe::connect`] without `--connect-pause`: for the case that checks a line
    /// sent the moment the connection opens.
    ///
    /// # Errors
    ///
    /// The server does not accept the connection within the answer timeout.
    pub fn connect_at_once(&mut self) -> Step<Wire> {
        let who = match self.label {
            Some(label) if self.clients == 0 => label.to_string(),
            Some(label) => format!("{label}{}", self.clients + 1),
            None => label(self.clients),
        };
        self.clients += 1;
        let wire = Wire::connect(self.addr, &who, &self.log, self.timing.answer)?;
        if let Ok(handle) = wire.handle() {
            self.sockets.lock().push(handle);
        }
        Ok(wire)
    }

    /// `base` made unique to this case: `Ann-7`.
    pub fn name(&self, base: &str) -> String {
        format!("{base}-{}", self.tag)
    }

    /// A note in the wire log.
    pub fn note(&self, text: &str) {
        self.log.note(text);
    }

    /// Shows a board in the case's report.
    pub fn show(&mut self, caption: impl Into<String>, rows: Vec<String>) {
        self.shots.push(Shot {
            caption: caption.into(),
            rows,
        });
    }

    /// The boards shown.
    pub fn shots(&self) -> &[Shot] {
        &self.shots
    }

    /// The answer timeout.
    pub fn answer(&self) -> Duration {
        self.timing.answer
    }

    /// The quiet window (see [`Timing::quiet`]).
    pub fn quiet(&self) -> Duration {
        self.timing.quiet
    }
}

/// `A` to `Z`, then `A2`, `B2`, ...
fn label(n: usize) -> String {
    let letter = char::from(b'A' + u8::try_from(n % 26).unwrap_or(0));
    match n / 26 {
        0 => letter.to_string(),
        round => format!("{letter}{}", round + 1),
    }
}

/// A failure for a step whose expectation `check` did not hold.
///
/// # Errors
///
/// Always when `holds` is false.
pub fn ensure(holds: bool, expected: impl Into<String>, got: impl Into<String>) -> Step<()> {
    if holds {
        Ok(())
    } else {
        Err(Failure::new(expected, got))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_lettered_and_waits_follow_the_answer_timeout() {
        let labels: Vec<String> = [0, 1, 25, 26, 27].into_iter().map(label).collect();
        assert_eq!(labels, ["A", "B", "Z", "A2", "B2"]);
        assert_eq!(
            Timing::new(Duration::from_secs(5)).quiet,
            Duration::from_millis(500)
        );
        assert_eq!(
            Timing::new(Duration::from_secs(1)).quiet,
            Duration::from_millis(200)
        );
        assert_eq!(
            Timing::new(Duration::from_secs(60)).quiet,
            Duration::from_secs(1)
        );
    }
}
