//! The program under test: a server already running (every case shares it), or one the
//! checker starts itself with `--server-cmd`, fresh for each case and stopped after it,
//! the best isolation (a case cannot inherit another's games or crash); or, the other
//! way round, a client (`--client-cmd`), started for each case against a port the
//! checker listens on, where the checker plays the server's side.
//!
//! A started server runs in a process group of its own, so that stopping it stops what
//! it started too (a shell script that runs `java`). It is ready when its port is in
//! the kernel's table of listening sockets: connecting to find out would take a seat
//! on a server that pairs raw connections (some student servers do, and one of them
//! accepts only two). Its output is kept, the last
//! [`OUTPUT_LINES`] lines, for the report of a case it fails. Every wait is bounded:
//! for the port (`--start-timeout`), and for the stop ([`STOP_GRACE`], then a kill).

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The last lines of a started server's output kept for reports.
pub const OUTPUT_LINES: usize = 40;

/// How long a stopped server has to exit after SIGTERM before it is killed.
pub const STOP_GRACE: Duration = Duration::from_secs(2);

/// How often the port of a starting server is tried.
const PORT_POLL: Duration = Duration::from_millis(50);

/// Where the checker finds the server.
#[derive(Clone, Debug)]
pub enum Target {
    /// A server already running at this address: every case shares it.
    Running(SocketAddr),
    /// A command that starts a server on the port put in place of `{port}`.
    Command {
        /// The command, run by `sh -c`.
        template: String,
        /// How long it has to accept connections on its port.
        start_timeout: Duration,
    },
    /// A command that starts a client of the port put in place of `{port}`, where the
    /// checker listens: the exam of a client.
    Client {
        /// The command, run by `sh -c`.
        template: String,
        /// How long it has to connect.
        start_timeout: Duration,
    },
}

impl Target {
    /// The address `text` (`HOST:PORT`) names.
    ///
    /// # Errors
    ///
    /// It names no address, or its host cannot be resolved.
    pub fn resolve(text: &str) -> Result<SocketAddr, String> {
        text.to_socket_addrs()
            .map_err(|e| {
                format!("cannot resolve '{text}': {e} (give HOST:PORT, e.g. localhost:8000)")
            })?
            .next()
            .ok_or_else(|| format!("'{text}' names no address"))
    }

    /// Whether each case gets a program of its own.
    pub fn is_fresh_per_case(&self) -> bool {
        matches!(self, Target::Command { .. } | Target::Client { .. })
    }

    /// Whether the program under test is a client (the checker plays the server).
    pub fn is_client(&self) -> bool {
        matches!(self, Target::Client { .. })
    }

    /// A server for the next case: the running one, or a new one started on a free port
    /// and accepting connections.
    ///
    /// # Errors
    ///
    /// The command cannot be started, exits before it listens, or does not listen
    /// within the start timeout: what happened, with its last output.
    pub fn start(&self) -> Result<Served, String> {
        match self {
            Target::Running(addr) => Ok(Served {
                addr: *addr,
                process: None,
                client: None,
            }),
            Target::Client {
                template,
                start_timeout,
            } => {
                let listener = TcpListener::bind("127.0.0.1:0")
                    .map_err(|e| format!("cannot listen on a free port: {e}"))?;
                let addr = listener
                    .local_addr()
                    .map_err(|e| format!("cannot read the port listened on: {e}"))?;
                let command = template.replace("{port}", &addr.port().to_string());
                let process = Arc::new(Mutex::new(Process::spawn(&command)?));
                let client = ClientSide {
                    listener: Arc::new(listener),
                    process: Arc::clone(&process),
                    start_timeout: *start_timeout,
                };
                Ok(Served {
                    addr,
                    process: Some(process),
                    client: Some(client),
                })
            }
            Target::Command {
                template,
                start_timeout,
            } => {
                let port = free_port()?;
                let command = template.replace("{port}", &port.to_string());
                let process = Arc::new(Mutex::new(Process::spawn(&command)?));
                let addr = SocketAddr::from(([127, 0, 0, 1], port));
                let mut served = Served {
                    addr,
                    process: Some(process),
                    client: None,
                };
                served.wait_listening(*start_timeout, &command)?;
                Ok(served)
            }
        }
    }
}

/// A free port on the loopback interface, as the system hands one out.
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("cannot find a free port: {e}"))
}

/// The program a case runs against.
pub struct Served {
    /// Where the server listens (the checker's own port, when it examines a client).
    pub addr: SocketAddr,
    process: Option<Arc<Mutex<Process>>>,
    /// The client under test and where it connects, when the checker examines one.
    pub client: Option<ClientSide>,
}

/// The checker's side of a client under test: the port it connects to, its process.
#[derive(Clone)]
pub struct ClientSide {
    /// Where the client connects.
    pub listener: Arc<TcpListener>,
    process: Arc<Mutex<Process>>,
    /// How long it has to connect.
    pub start_timeout: Duration,
}

impl ClientSide {
    /// How the client's process ended, if it has.
    pub fn exit_status(&self) -> Option<ExitStatus> {
        self.process.lock().child.try_wait().ok().flatten()
    }

    /// The last lines the client printed.
    pub fn output(&self) -> Vec<String> {
        self.process.lock().output.lock().iter().cloned().collect()
    }
}

impl Served {
    /// Waits until the port listens, the process exits, or `timeout`.
    fn wait_listening(&mut self, timeout: Duration, command: &str) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        loop {
            if listening(self.addr) {
                return Ok(());
            }
            if let Some(status) = self.exit_status() {
                return Err(format!(
                    "the server command exited ({}) before it listened on port {}: {command}{}",
                    describe_exit(status),
                    self.addr.port(),
                    self.output_suffix()
                ));
            }
            if Instant::now() >= deadline {
                let output = self.output_suffix();
                self.stop();
                return Err(format!(
                    "the server command did not listen on port {} within {} s: {command}{output}",
                    self.addr.port(),
                    timeout.as_secs_f64()
                ));
            }
            std::thread::sleep(PORT_POLL);
        }
    }

    /// How the started process ended, if it has (`None` for a running server, or one
    /// the checker did not start).
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.process
            .as_ref()
            .and_then(|p| p.lock().child.try_wait().ok().flatten())
    }

    /// Whether the checker started this server.
    pub fn is_started(&self) -> bool {
        self.process.is_some()
    }

    /// The last lines the started server printed (none for a running server).
    pub fn output(&self) -> Vec<String> {
        self.process
            .as_ref()
            .map(|p| p.lock().output.lock().iter().cloned().collect())
            .unwrap_or_default()
    }

    fn output_suffix(&self) -> String {
        let output = self.output();
        if output.is_empty() {
            String::new()
        } else {
            format!("; its last output: {}", output.join(" | "))
        }
    }

    /// Stops a started server: SIGTERM to its process group, then SIGKILL after
    /// [`STOP_GRACE`]. Nothing for a running server.
    pub fn stop(&mut self) {
        // The output stays for the report.
        if let Some(process) = &self.process {
            process.lock().stop();
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Whether a socket listens on `addr`'s port: read from the kernel's tables
/// (`/proc/net/tcp`, `/proc/net/tcp6`) without connecting; where they cannot be read
/// (not Linux), by a connection.
fn listening(addr: SocketAddr) -> bool {
    let tables: Vec<String> = ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .collect();
    if tables.is_empty() {
        return TcpStream::connect_timeout(&addr, PORT_POLL).is_ok();
    }
    tables.iter().any(|table| listens_in(table, addr.port()))
}

/// Whether `table` (the text of `/proc/net/tcp`) has a socket listening on `port`:
/// its local address ends in `:<port in hex>` and its state is `0A` (LISTEN).
fn listens_in(table: &str, port: u16) -> bool {
    let port = format!(":{port:04X}");
    table.lines().skip(1).any(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        matches!(fields.as_slice(), [_, local, _, state, ..] if local.ends_with(&port) && *state == "0A")
    })
}

/// `status 1`, `signal 9`.
pub fn describe_exit(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(signal)) => format!("signal {signal}"),
        (None, None) => "unknown status".to_string(),
    }
}

/// A started server process.
struct Process {
    child: Child,
    output: Arc<Mutex<VecDeque<String>>>,
    readers: Vec<JoinHandle<()>>,
    stopped: bool,
}

impl Process {
    fn spawn(command: &str) -> Result<Process, String> {
        use std::os::unix::process::CommandExt;
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Its own process group: a stop reaches what it starts.
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot run the server command '{command}': {e}"))?;
        let output: Arc<Mutex<VecDeque<String>>> = Arc::default();
        let mut readers = Vec::new();
        if let Some(stdout) = child.stdout.take() {
            readers.push(keep_tail(stdout, &output));
        }
        if let Some(stderr) = child.stderr.take() {
            readers.push(keep_tail(stderr, &output));
        }
        Ok(Process {
            child,
            output,
            readers,
            stopped: false,
        })
    }

    fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        let group = i32::try_from(self.child.id()).unwrap_or(0);
        if group > 0 {
            // SAFETY: kill only sends a signal to the process group the checker made.
            unsafe {
                libc::kill(-group, libc::SIGTERM);
            }
        }
        let deadline = Instant::now() + STOP_GRACE;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if group > 0 {
            // SAFETY: as above; the group may be gone, which kill reports harmlessly.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The pipes close with the group; their readers end.
        for reader in self.readers.drain(..) {
            let _ = reader.join();
        }
    }
}

/// Reads `pipe` to its end on a thread of its own, keeping the last [`OUTPUT_LINES`]
/// lines (each cut to 300 characters).
fn keep_tail(
    pipe: impl Read + Send + 'static,
    tail: &Arc<Mutex<VecDeque<String>>>,
) -> JoinHandle<()> {
    let tail = Arc::clone(tail);
    std::thread::spawn(move || {
        let mut reader = BufReader::new(pipe);
        let mut line = Vec::new();
        // Lines are read with a bound: a server printing without newlines is cut.
        while let Ok(n) = read_bounded_line(&mut reader, &mut line, 4096) {
            if n == 0 {
                break;
            }
            let text = super::log::shown(String::from_utf8_lossy(&line).trim_end());
            let mut kept = tail.lock();
            if kept.len() == OUTPUT_LINES {
                kept.pop_front();
            }
            kept.push_back(text);
        }
    })
}

/// Reads up to a newline or `limit` bytes into `line`; returns the bytes consumed.
fn read_bounded_line(
    reader: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<usize> {
    line.clear();
    let mut consumed = 0;
    loop {
        let available = reader.fill_buf()?;
        if available.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        let room = limit.saturating_sub(line.len());
        line.extend_from_slice(&available[..take.min(room)]);
        reader.consume(take);
        consumed += take;
        if done || line.len() >= limit {
            return Ok(consumed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listening_port_is_read_from_the_kernel_s_table() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n   0: 00000000:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1\n   1: 0100007F:1F41 0100007F:9C40 01 00000000:00000000 00:00000000 00000000     0        0 2 1\n";
        assert!(listens_in(table, 8000));
        // Port 8001 has a connection, not a listener.
        assert!(!listens_in(table, 8001));
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        assert!(listening(listener.local_addr().expect("addr")));
    }

    #[test]
    fn a_command_that_exits_at_once_is_reported_with_its_output() {
        let target = Target::Command {
            template: "echo 'no such class' >&2; exit 3".to_string(),
            start_timeout: Duration::from_secs(5),
        };
        let error = target.start().err().expect("it never listens");
        assert!(
            error.contains("exited (status 3) before it listened"),
            "{error}"
        );
        assert!(error.contains("its last output: no such class"), "{error}");
    }

    #[test]
    fn a_command_that_never_listens_is_stopped_after_the_start_timeout() {
        let target = Target::Command {
            template: "sleep 30".to_string(),
            start_timeout: Duration::from_millis(300),
        };
        let started = Instant::now();
        let error = target.start().err().expect("it never listens");
        assert!(error.contains("did not listen on port"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
