//! The server: wires the front ends to their listeners and runs until shutdown.
//!
//! [`Server::serve`] starts the flusher and one accept loop per front end (each
//! connection gets its own thread, see `net::listener`), waits for the shutdown
//! trigger, then lets every game of every front end finish, closes every connection
//! and waits for their threads, within a bound.

use crate::frontend::bkgo::BkgoFrontEnd;
use crate::frontend::go::GoFrontEnd;
use crate::frontend::spectrangle::SpectrangleFrontEnd;
use crate::frontend::{Context, FrontEnd};
use crate::net::listener::CONNECTION_STACK_BYTES;
use crate::net::{AcceptLimits, Connections, accept_loop};
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use crate::workers::Workers;
use std::io;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// How long shutdown waits for game loops and connection threads to end.
const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

/// Stack size of a game loop's thread.
const GAME_STACK_BYTES: usize = 256 * 1024;

/// Threads kept waiting for the next connection (and for the next game): enough for
/// a lab's bursts, few enough to cost little memory.
const IDLE_CONNECTION_THREADS: usize = 1024;
const IDLE_GAME_THREADS: usize = 256;

/// The protocols the server speaks, one front end each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// GO!, the `+`-delimited Go protocol.
    Go,
    /// Spectrangle, the tile game.
    Spectrangle,
    /// Bkgo 0.6: one shared Go room with watchers and chat.
    Bkgo,
}

/// The protocol's name, as the `listening on` lines write it.
impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::Go => "GO!",
            Protocol::Spectrangle => "Spectrangle",
            Protocol::Bkgo => "Bkgo",
        })
    }
}

/// The running server's shared parts.
pub struct Server {
    /// Read-only settings.
    pub settings: Arc<Settings>,
    /// The shutdown trigger.
    pub shutdown: Shutdown,
    /// When the server started.
    pub started: Instant,
    /// Connections open now, every front end's (connection threads alive).
    pub open_connections: Arc<AtomicUsize>,
    connections: Arc<Connections>,
    /// The threads connections are served on.
    connection_threads: Arc<Workers>,
    /// The threads game loops run on.
    game_threads: Arc<Workers>,
    /// The front ends being served, in the order of their listeners (GO! first);
    /// set once by [`Server::serve`].
    front_ends: OnceLock<Vec<Arc<dyn FrontEnd>>>,
}

impl Server {
    /// A server with these settings, stopped by `shutdown`.
    pub fn new(settings: Settings, shutdown: Shutdown) -> Arc<Server> {
        let connections = Arc::new(Connections::new(settings.output));
        Arc::new(Server {
            settings: Arc::new(settings),
            shutdown,
            started: Instant::now(),
            open_connections: Arc::new(AtomicUsize::new(0)),
            connections,
            connection_threads: Arc::new(Workers::new(
                "conn",
                CONNECTION_STACK_BYTES,
                IDLE_CONNECTION_THREADS,
            )),
            game_threads: Arc::new(Workers::new("game", GAME_STACK_BYTES, IDLE_GAME_THREADS)),
            front_ends: OnceLock::new(),
        })
    }

    /// The front ends being served (none before [`Server::serve`] starts).
    pub fn front_ends(&self) -> &[Arc<dyn FrontEnd>] {
        self.front_ends.get().map_or(&[], Vec::as_slice)
    }

    /// Serves GO! alone on `listener` until the shutdown (what the GO! tests use).
    ///
    /// # Errors
    ///
    /// As [`Server::serve`].
    pub fn run(self: &Arc<Self>, listener: &TcpListener) -> io::Result<()> {
        self.serve(vec![(Protocol::Go, listener.try_clone()?)])
    }

    /// Serves each listener's protocol until the shutdown is triggered, then finishes
    /// every game, closes every connection and returns.
    ///
    /// # Errors
    ///
    /// When a listener's address cannot be read, a helper thread cannot start, or
    /// `serve` is called twice.
    pub fn serve(self: &Arc<Self>, listeners: Vec<(Protocol, TcpListener)>) -> io::Result<()> {
        let context = Context {
            settings: Arc::clone(&self.settings),
            shutdown: self.shutdown.clone(),
            connections: Arc::clone(&self.connections),
            game_threads: Arc::clone(&self.game_threads),
            counters: Arc::default(),
        };
        let mut served = Vec::new();
        for (protocol, listener) in listeners {
            let front_end: Arc<dyn FrontEnd> = match protocol {
                Protocol::Go => Arc::new(GoFrontEnd::new(context.for_another_front_end())),
                Protocol::Spectrangle => {
                    Arc::new(SpectrangleFrontEnd::new(context.for_another_front_end()))
                }
                Protocol::Bkgo => Arc::new(BkgoFrontEnd::new(context.for_another_front_end())?),
            };
            let address = listener.local_addr()?;
            log::info!("listening on {address} ({protocol})");
            served.push((front_end, listener, address));
        }
        let front_ends = served.iter().map(|(f, _, _)| Arc::clone(f)).collect();
        if self.front_ends.set(front_ends).is_err() {
            return Err(io::Error::other("the server is already serving"));
        }
        let flusher = {
            let connections = Arc::clone(&self.connections);
            let stop = self.shutdown.signal();
            thread::Builder::new()
                .name("flusher".into())
                .spawn(move || connections.run_flusher(&stop))?
        };
        let stopping = Arc::new(AtomicBool::new(false));
        let mut accepting = Vec::new();
        for (front_end, listener, address) in served {
            let listening = listener.as_raw_fd();
            accepting.push(Accepting {
                thread: self.start_accepting(front_end, listener, &stopping)?,
                address,
                listening,
            });
        }
        self.shutdown.wait();
        stopping.store(true, Ordering::SeqCst);
        for accepting in accepting {
            accepting.stop();
        }
        log::info!("no longer accepting connections");
        // The flusher stopped on the signal; `finish` drains what it left itself.
        let _ = flusher.join();
        self.finish(Instant::now() + SHUTDOWN_GRACE);
        log::info!("stopped");
        Ok(())
    }

    /// Runs `front_end`'s accept loop on a thread of its own (`accept-<name>`).
    fn start_accepting(
        &self,
        front_end: Arc<dyn FrontEnd>,
        listener: TcpListener,
        stopping: &Arc<AtomicBool>,
    ) -> io::Result<thread::JoinHandle<()>> {
        let limits = AcceptLimits {
            max_clients: self.settings.max_clients,
            refusal: front_end.refusal(self.settings.max_clients),
        };
        let open = Arc::clone(&self.open_connections);
        let stopping = Arc::clone(stopping);
        let workers = Arc::clone(&self.connection_threads);
        thread::Builder::new()
            .name(format!("accept-{}", front_end.name()))
            .spawn(move || {
                let serving = Arc::clone(&front_end);
                accept_loop(
                    &listener,
                    &limits,
                    &stopping,
                    open,
                    &workers,
                    move |stream, peer| serving.serve(stream, peer),
                );
            })
    }

    /// Lets every front end finish its games and close its connections, then waits
    /// for the connection threads, until `deadline`.
    fn finish(&self, deadline: Instant) {
        for front_end in self.front_ends() {
            front_end.finish(deadline);
        }
        while self.open_connections.load(Ordering::SeqCst) > 0 && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        let left = self.open_connections.load(Ordering::SeqCst);
        if left > 0 {
            log::warn!("{left} connection threads still running at exit");
        }
    }
}

/// How long shutdown waits for an accept loop to notice it must stop.
const ACCEPT_STOP_WAIT: Duration = Duration::from_secs(2);

/// A running accept loop.
struct Accepting {
    thread: thread::JoinHandle<()>,
    /// The address it listens on.
    address: SocketAddr,
    /// Its listening socket, owned by the thread (kept open as long as it runs).
    listening: RawFd,
}

impl Accepting {
    /// Wakes the accept loop (its `stopping` flag is set) and waits for it, at most
    /// [`ACCEPT_STOP_WAIT`]: one connection to ourselves wakes the blocked `accept`;
    /// should that fail, shutting the listening socket down wakes it on Linux; should
    /// both fail, the loop is left behind (said in the log) and ends with the process.
    fn stop(self) {
        let address = wake_address(self.address);
        if let Err(e) = TcpStream::connect_timeout(&address, Duration::from_secs(1)) {
            log::warn!(
                "cannot wake the accept loop on {address} by connecting ({e}): shutting its socket down"
            );
            // SAFETY: the descriptor is the listener's, which the accept thread keeps
            // open until it returns; shutdown only changes the socket's state.
            unsafe {
                libc::shutdown(self.listening, libc::SHUT_RDWR);
            }
        }
        let deadline = Instant::now() + ACCEPT_STOP_WAIT;
        while !self.thread.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        if self.thread.is_finished() {
            let _ = self.thread.join();
        } else {
            log::warn!(
                "the accept loop on {} did not stop within {} s: left behind",
                self.address,
                ACCEPT_STOP_WAIT.as_secs()
            );
        }
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
