//! The server: binds the pieces together and runs until shutdown.
//!
//! [`Server::run`] starts the flusher, accepts connections (one thread each, see
//! `session`) until the shutdown trigger, then lets every game finish, closes every
//! connection and waits for their threads, within a bound.

use crate::lobby::Lobby;
use crate::net::flusher::Flusher;
use crate::net::{AcceptLimits, ConnId, Connection, accept_loop};
use crate::protocol::ServerMessage;
use crate::session;
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// How long shutdown waits for game loops and connection threads to end.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

/// The running server's shared parts.
pub struct Server {
    /// Read-only settings.
    pub settings: Arc<Settings>,
    /// Matchmaking and the registry of clients and games.
    pub lobby: Arc<Lobby>,
    /// The shutdown trigger.
    pub shutdown: Shutdown,
    /// When the server started.
    pub started: Instant,
    /// Connections open now (connection threads alive).
    pub open_connections: Arc<AtomicUsize>,
    flusher: Arc<Flusher>,
    next_conn_id: AtomicU64,
}

/// The net layer sends anything that is a `Message`; GO!'s messages are one. The impl
/// lives here, where the layers are wired together, so that neither `protocol` (pure)
/// nor `net` (protocol-agnostic) has to know the other.
impl crate::net::Message for ServerMessage {
    fn is_rejection(&self) -> bool {
        ServerMessage::is_rejection(self)
    }
}

impl Server {
    /// A server with these settings, stopped by `shutdown`.
    pub fn new(settings: Settings, shutdown: Shutdown) -> Arc<Server> {
        let settings = Arc::new(settings);
        Arc::new(Server {
            lobby: Lobby::new(Arc::clone(&settings), shutdown.clone()),
            settings,
            shutdown,
            started: Instant::now(),
            open_connections: Arc::new(AtomicUsize::new(0)),
            flusher: Arc::new(Flusher::default()),
            next_conn_id: AtomicU64::new(1),
        })
    }

    /// Serves on `listener` until the shutdown is triggered, then finishes every game,
    /// closes every connection and returns.
    ///
    /// # Errors
    ///
    /// When the listener's address cannot be read or a helper thread cannot start.
    pub fn run(self: &Arc<Self>, listener: &TcpListener) -> io::Result<()> {
        let address = listener.local_addr()?;
        log::info!("listening on {address}");
        let flusher = {
            let flusher = Arc::clone(&self.flusher);
            let stop = self.shutdown.signal();
            thread::Builder::new()
                .name("flusher".into())
                .spawn(move || flusher.run(&stop))?
        };
        let stopping = Arc::new(AtomicBool::new(false));
        let waker = {
            let shutdown = self.shutdown.clone();
            let stopping = Arc::clone(&stopping);
            thread::Builder::new()
                .name("accept-waker".into())
                .spawn(move || {
                    shutdown.wait();
                    stopping.store(true, Ordering::SeqCst);
                    // One connection to ourselves wakes the blocked accept.
                    let _ =
                        TcpStream::connect_timeout(&wake_address(address), Duration::from_secs(1));
                })?
        };
        let limits = AcceptLimits {
            max_clients: self.settings.max_clients,
            refusal: ServerMessage::UnknownCommand {
                reason: format!(
                    "The server is full ({} clients connected): try again later",
                    self.settings.max_clients
                ),
            }
            .to_string(),
        };
        let server = Arc::clone(self);
        accept_loop(
            listener,
            &limits,
            &stopping,
            Arc::clone(&self.open_connections),
            move |stream, peer| {
                session::serve(stream, peer, &server);
            },
        );
        log::info!("no longer accepting connections");
        self.finish(SHUTDOWN_GRACE);
        let _ = waker.join();
        let _ = flusher.join();
        log::info!("stopped");
        Ok(())
    }

    /// Waits for the game loops (which end themselves on the shutdown signal), then
    /// closes every connection and waits for the connection threads.
    fn finish(&self, grace: Duration) {
        let deadline = Instant::now() + grace;
        for game in self.lobby.take_game_threads() {
            while !game.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(5));
            }
            if game.is_finished() {
                let _ = game.join();
            }
        }
        for conn in self.lobby.connections() {
            conn.close("server shutting down");
        }
        while self.open_connections.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        let left = self.open_connections.load(Ordering::SeqCst);
        if left > 0 {
            log::warn!("{left} connection threads still running at exit");
        }
    }

    /// Registers an accepted stream as a new connection.
    ///
    /// # Errors
    ///
    /// When the socket cannot be set up (the peer is already gone).
    pub fn new_connection(
        &self,
        stream: TcpStream,
        peer: SocketAddr,
    ) -> io::Result<Arc<Connection>> {
        let id = ConnId(self.next_conn_id.fetch_add(1, Ordering::Relaxed));
        let conn = Connection::new(
            id,
            stream,
            peer,
            self.settings.output,
            Arc::clone(&self.flusher),
        )?;
        self.lobby.connect(&conn);
        Ok(conn)
    }
}

/// Where to connect to wake our own accept: the listening address, or loopback when
/// listening on every address.
fn wake_address(listening: SocketAddr) -> SocketAddr {
    let mut address = listening;
    if address.ip().is_unspecified() {
        address.set_ip(match address {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    address
}
