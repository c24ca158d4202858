//! Shared helpers for the integration tests: an in-process server on port 0 and a
//! line-oriented test client that asserts exact lines.
#![allow(dead_code)]

use goserver::frontend::FrontEnd;
use goserver::results::Results;
use goserver::server::{Protocol, Server};
use goserver::settings::Settings;
use goserver::shutdown::Shutdown;
use goserver::web::Web;
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// Generous: tests must pass on a slow, busy machine.
pub const PATIENCE: Duration = Duration::from_secs(20);

/// A server running on 127.0.0.1 with free ports, stopped when dropped.
pub struct TestServer {
    /// The first front end's address (GO!'s, for `start` and `with`).
    pub addr: SocketAddr,
    /// Every front end served, and its address.
    pub addrs: Vec<(Protocol, SocketAddr)>,
    pub server: Arc<Server>,
    thread: Option<JoinHandle<()>>,
    web: Option<SocketAddr>,
    web_board: Option<Arc<Web>>,
}

impl TestServer {
    /// GO! alone, default settings.
    pub fn start() -> TestServer {
        TestServer::with(Settings::default())
    }

    /// GO! alone.
    pub fn with(settings: Settings) -> TestServer {
        TestServer::serving(settings, &[Protocol::Go])
    }

    /// Each of `protocols` on a port of its own, and the web board on another.
    pub fn with_web(settings: Settings, protocols: &[Protocol]) -> TestServer {
        TestServer::build(settings, protocols, Results::in_memory(), true)
    }

    /// The web board's address (a server started by [`TestServer::with_web`]).
    pub fn web(&self) -> SocketAddr {
        self.web.expect("the web board is served")
    }

    /// Each of `protocols` on a port of its own.
    pub fn serving(settings: Settings, protocols: &[Protocol]) -> TestServer {
        TestServer::build(settings, protocols, Results::in_memory(), false)
    }

    /// Each of `protocols` on a port of its own, recording into `results`, with the
    /// web board if `web`.
    pub fn build(
        settings: Settings,
        protocols: &[Protocol],
        results: Arc<Results>,
        web: bool,
    ) -> TestServer {
        let listeners: Vec<(Protocol, TcpListener)> = protocols
            .iter()
            .map(|&p| (p, TcpListener::bind("127.0.0.1:0").expect("bind port 0")))
            .collect();
        let addrs: Vec<(Protocol, SocketAddr)> = listeners
            .iter()
            .map(|(p, l)| (*p, l.local_addr().expect("local addr")))
            .collect();
        let server = Server::with_results(settings, Shutdown::new(), results);
        let running = server.start(listeners).expect("the server starts");
        let (web, web_addr) = if web {
            let listener = TcpListener::bind("127.0.0.1:0").expect("bind port 0");
            let addr = listener.local_addr().expect("local addr");
            let web = Web::start(&server, listener).expect("the web board starts");
            (Some(web), Some(addr))
        } else {
            (None, None)
        };
        let web_board = web.clone();
        let thread = std::thread::spawn(move || {
            running.until_shutdown(|deadline| {
                if let Some(web) = &web {
                    web.stop(deadline);
                }
            });
        });
        TestServer {
            addr: addrs[0].1,
            addrs,
            server,
            thread: Some(thread),
            web: web_addr,
            web_board,
        }
    }

    /// The web connections open now: each holds one of `--max-web-clients` places
    /// until the server has seen it end (a moment after the client has).
    pub fn web_clients(&self) -> usize {
        self.web_board
            .as_ref()
            .expect("the web board is served")
            .clients()
    }

    /// Waits until exactly `count` web connections are open (see
    /// [`TestServer::web_clients`]); panics after [`PATIENCE`].
    pub fn until_web_clients(&self, count: usize) {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            let open = self.web_clients();
            if open == count {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{open} web connections open, not {count}, after {PATIENCE:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The address `protocol` is served on.
    pub fn addr_of(&self, protocol: Protocol) -> SocketAddr {
        self.addrs
            .iter()
            .find(|(p, _)| *p == protocol)
            .map(|(_, a)| *a)
            .expect("that protocol is served")
    }

    /// The front end of `protocol`.
    pub fn front_end(&self, protocol: Protocol) -> &Arc<dyn FrontEnd> {
        let index = self
            .addrs
            .iter()
            .position(|(p, _)| *p == protocol)
            .expect("that protocol is served");
        &self.server.front_ends()[index]
    }

    pub fn connect(&self) -> Client {
        Client::connect(self.addr)
    }

    /// The GO! front end.
    pub fn go(&self) -> &Arc<dyn FrontEnd> {
        self.front_end(Protocol::Go)
    }

    /// Triggers the graceful shutdown and waits for `run` to return.
    pub fn stop(&mut self) {
        self.server.shutdown.trigger();
        if let Some(thread) = self.thread.take() {
            thread.join().expect("server thread ends cleanly");
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A client that sends lines and expects exact lines back.
pub struct Client {
    pub stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Client {
    pub fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        Client { stream, reader }
    }

    pub fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).expect("send");
    }

    /// The next line; panics on timeout or end of stream.
    pub fn recv(&mut self) -> String {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => panic!("connection closed while waiting for a line"),
            Ok(_) => line.trim_end_matches('\n').to_string(),
            Err(e) => panic!("no line within {PATIENCE:?}: {e}"),
        }
    }

    pub fn expect(&mut self, expected: &str) {
        let got = self.recv();
        assert_eq!(got, expected, "expected {expected:?}, got {got:?}");
    }

    /// The next line starts with `prefix`; returns it.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let got = self.recv();
        assert!(
            got.starts_with(prefix),
            "expected {prefix:?}..., got {got:?}"
        );
        got
    }

    /// The server closes the connection (possibly after `lines` first).
    pub fn expect_closed(&mut self) {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => {}
            Ok(_) => panic!("expected the connection to close, got {line:?}"),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            Err(e) => panic!("expected the connection to close: {e}"),
        }
    }

    /// Sends a line and expects exactly one answer line.
    pub fn ask(&mut self, line: &str, expected: &str) {
        self.send(line);
        self.expect(expected);
    }
}

/// An empty board's protocol string.
pub fn empty(size: usize) -> String {
    "0".repeat(size * size)
}

/// A board string with `stones` (index, digit) on an empty board.
pub fn board(size: usize, stones: &[(usize, char)]) -> String {
    let mut cells: Vec<char> = empty(size).chars().collect();
    for &(index, digit) in stones {
        cells[index] = digit;
    }
    cells.into_iter().collect()
}

pub const REQUEST_CONFIG_1: &str = "REQUEST_CONFIG+Game 1: please send SET_CONFIG, game id 1, colour (0 random, 1 black, 2 white), board size (2 to 19), joined by plus signs";

pub fn request_config(id: u32) -> String {
    REQUEST_CONFIG_1
        .replace("Game 1", &format!("Game {id}"))
        .replace("game id 1", &format!("game id {id}"))
}

/// A client that handshakes as `name` and leads game `id`: it has its
/// ACKNOWLEDGE_HANDSHAKE and REQUEST_CONFIG.
pub fn leader(server: &TestServer, id: u32, name: &str) -> Client {
    let mut client = server.connect();
    client.send(&format!("HANDSHAKE+{name}"));
    client.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{id}+1"));
    client.expect(&request_config(id));
    client
}

/// A client that handshakes as `name` and joins waiting game `id`.
pub fn partner(server: &TestServer, id: u32, name: &str) -> Client {
    let mut client = server.connect();
    client.send(&format!("HANDSHAKE+{name}"));
    client.expect(&format!("ACKNOWLEDGE_HANDSHAKE+{id}+0"));
    client
}

/// Ann leads game `id` as black on a `size` board, Bob joins; both have their
/// ACKNOWLEDGE_CONFIG. Returns (ann, bob).
pub fn start_game(server: &TestServer, id: u32, size: usize) -> (Client, Client) {
    start_named(server, id, size, "Ann", "Bob")
}

pub fn start_named(
    server: &TestServer,
    id: u32,
    size: usize,
    black: &str,
    white: &str,
) -> (Client, Client) {
    let mut ann = leader(server, id, black);
    ann.send(&format!("SET_CONFIG+{id}+1+{size}"));
    let mut bob = partner(server, id, white);
    let state = format!("PLAYING;1;{}", empty(size));
    ann.expect(&format!(
        "ACKNOWLEDGE_CONFIG+{black}+1+{size}+{state}+{white}"
    ));
    bob.expect(&format!(
        "ACKNOWLEDGE_CONFIG+{white}+2+{size}+{state}+{black}"
    ));
    (ann, bob)
}

/// Both clients receive `line`.
pub fn both(a: &mut Client, b: &mut Client, line: &str) {
    a.expect(line);
    b.expect(line);
}

/// On an empty `size` board of game `id`, black (`ann`) then white (`bob`) pass: both
/// see the two ACKNOWLEDGE_MOVE lines, the second one FINISHED.
pub fn both_pass_on_empty_board(ann: &mut Client, bob: &mut Client, id: u32, size: usize) {
    ann.send(&format!("PASS+{id}+Ann"));
    both(
        ann,
        bob,
        &format!("ACKNOWLEDGE_MOVE+{id}+-1;1+PLAYING;2;{}", empty(size)),
    );
    bob.send(&format!("PASS+{id}+Bob"));
    both(
        ann,
        bob,
        &format!("ACKNOWLEDGE_MOVE+{id}+-1;2+FINISHED;1;{}", empty(size)),
    );
}

/// Both players receive their ACKNOWLEDGE_CONFIG for a fresh `size` board: `first`
/// (named `first_name`) plays colour `first_colour`, `second` the other colour.
pub fn expect_configs(
    first: &mut Client,
    first_name: &str,
    first_colour: u8,
    second: &mut Client,
    second_name: &str,
    size: usize,
) {
    let state = format!("PLAYING;1;{}", empty(size));
    let second_colour = 3 - first_colour;
    first.expect(&format!(
        "ACKNOWLEDGE_CONFIG+{first_name}+{first_colour}+{size}+{state}+{second_name}"
    ));
    second.expect(&format!(
        "ACKNOWLEDGE_CONFIG+{second_name}+{second_colour}+{size}+{state}+{first_name}"
    ));
}

/// Shrinks a client socket's receive buffer, so its window fills after a few kilobytes
/// it does not read.
pub fn small_receive_buffer(stream: &TcpStream) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 4096;
    // SAFETY: a valid socket descriptor and a c_int option value of the size given.
    let status = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            std::ptr::from_ref(&size).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    assert_eq!(status, 0, "setsockopt SO_RCVBUF");
}

/// Shrinks a client socket's send buffer, so that little of what it writes waits in
/// its own kernel.
pub fn small_send_buffer(stream: &TcpStream) {
    use std::os::fd::AsRawFd;
    let size: libc::c_int = 16 * 1024;
    // SAFETY: a valid socket descriptor and a c_int option value of the size given.
    let status = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            std::ptr::from_ref(&size).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    assert_eq!(status, 0, "setsockopt SO_SNDBUF");
}
