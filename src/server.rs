//! The server: wires the front ends to their listeners and runs until shutdown.
//!
//! [`Server::serve`] starts the flusher and one accept loop per front end (each
//! connection gets its own thread, see `net::listener`), waits for the shutdown
//! trigger, then lets every game of every front end finish, closes every connection
//! and waits for their threads, within a bound.

use crate::cards::Cards;
use crate::frontend::bkgo::BkgoFrontEnd;
use crate::frontend::go::GoFrontEnd;
use crate::frontend::spectrangle::SpectrangleFrontEnd;
use crate::frontend::{Context, FrontEnd};
use crate::live::Live;
use crate::net::listener::CONNECTION_STACK_BYTES;
use crate::net::{AcceptLimits, AcceptThread, Connections};
use crate::results::Results;
use crate::settings::Settings;
use crate::shutdown::Shutdown;
use crate::workers::Workers;
use std::io;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// How long shutdown waits for game loops and connection threads to end.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

/// Stack size of a game loop's thread.
pub const GAME_STACK_BYTES: usize = 256 * 1024;

/// Threads kept waiting for the next connection (and for the next game): enough for
/// a lab's bursts, few enough to cost little memory.
pub const IDLE_CONNECTION_THREADS: usize = 1024;
pub const IDLE_GAME_THREADS: usize = 256;

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
    /// Opens every connection (unique ids, the one flusher).
    pub(crate) connections: Arc<Connections>,
    /// The threads connections are served on.
    pub(crate) connection_threads: Arc<Workers>,
    /// The threads game loops run on.
    game_threads: Arc<Workers>,
    /// What the game loops publish for the web board.
    pub live: Arc<Live>,
    /// Every finished game, and the standings.
    pub results: Arc<Results>,
    /// Every client's report card.
    pub cards: Arc<Cards>,
    /// Where the web board listens, once it does (for the console's `help`).
    pub web_address: OnceLock<std::net::SocketAddr>,
    /// The front ends being served, in the order of their listeners (GO! first);
    /// set once by [`Server::serve`].
    front_ends: OnceLock<Vec<Arc<dyn FrontEnd>>>,
}

impl Server {
    /// A server with these settings, stopped by `shutdown`, keeping its results in
    /// memory.
    pub fn new(settings: Settings, shutdown: Shutdown) -> Arc<Server> {
        Server::with_results(settings, shutdown, Results::in_memory())
    }

    /// A server with these settings, stopped by `shutdown`, recording into `results`
    /// (opened from `--results` by the caller, who reports a file that cannot be).
    pub fn with_results(
        settings: Settings,
        shutdown: Shutdown,
        results: Arc<Results>,
    ) -> Arc<Server> {
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
            live: Live::new(),
            results,
            cards: Arc::default(),
            web_address: OnceLock::new(),
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
    /// As [`Server::start`].
    pub fn serve(self: &Arc<Self>, listeners: Vec<(Protocol, TcpListener)>) -> io::Result<()> {
        self.start(listeners)?.until_shutdown(|_| {});
        Ok(())
    }

    /// Starts serving each listener's protocol (one `listening on` line each, in
    /// their order) and returns; [`Running::until_shutdown`] waits for the end.
    ///
    /// # Errors
    ///
    /// When a listener's address cannot be read, a helper thread cannot start, or
    /// the server is started twice.
    pub fn start(self: &Arc<Self>, listeners: Vec<(Protocol, TcpListener)>) -> io::Result<Running> {
        let context = Context {
            settings: Arc::clone(&self.settings),
            shutdown: self.shutdown.clone(),
            connections: Arc::clone(&self.connections),
            game_threads: Arc::clone(&self.game_threads),
            counters: Arc::default(),
            live: Arc::clone(&self.live),
            results: Arc::clone(&self.results),
            cards: Arc::clone(&self.cards),
        };

        let mut served = Vec::new();
        for (protocol, listener) in listeners {
            let front_end: Arc<dyn FrontEnd> = match protocol {
                Protocol::Go => Arc::new(GoFrontEnd::new(context.for_another_front_end())?),
                Protocol::Spectrangle => {
                    Arc::new(SpectrangleFrontEnd::new(context.for_another_front_end()))
                }
                Protocol::Bkgo => Arc::new(BkgoFrontEnd::new(context.for_another_front_end())?),
            };
            let address = listener.local_addr()?;
            log::info!("listening on {address} ({protocol})");
            served.push((front_end, listener));
        }
        let front_ends = served.iter().map(|(f, _)| Arc::clone(f)).collect();
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
        let mut accepting = Vec::new();
        for (front_end, listener) in served {
            accepting.push(self.start_accepting(front_end, listener)?);
        }
        Ok(Running {
            server: Arc::clone(self),
            flusher,
            accepting,
        })
    }

    /// Runs `front_end`'s accept loop on a thread of its own (`accept-<name>`).
    fn start_accepting(
        &self,
        front_end: Arc<dyn FrontEnd>,
        listener: TcpListener,
    ) -> io::Result<AcceptThread> {
        let limits = AcceptLimits {
            max_clients: self.settings.max_clients,
            refusal: front_end.refusal(self.settings.max_clients),
        };
        AcceptThread::spawn(
            &format!("accept-{}", front_end.name()),
            listener,
            limits,
            Arc::clone(&self.open_connections),
            Arc::clone(&self.connection_threads),
            move |stream, peer| front_end.serve(stream, peer),
        )
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

/// A server that has started: its accept loops and its flusher.
pub struct Running {
    server: Arc<Server>,
    flusher: thread::JoinHandle<()>,
    accepting: Vec<AcceptThread>,
}

impl Running {
    /// Waits for the shutdown trigger; then stops accepting, calls `also_stop` with
    /// the deadline (whatever else serves clients: the web board), lets every game
    /// finish, closes every connection, and returns, within [`SHUTDOWN_GRACE`].
    pub fn until_shutdown(self, also_stop: impl FnOnce(Instant)) {
        let server = self.server;
        server.shutdown.wait();
        let deadline = Instant::now() + SHUTDOWN_GRACE;
        for accepting in self.accepting {
            accepting.stop(deadline);
        }
        log::info!("no longer accepting connections");
        also_stop(deadline);
        // The flusher stopped on the signal; `finish` drains what it left itself.
        crate::shutdown::join_by(self.flusher, deadline, "the flusher");
        server.finish(deadline);
        log::info!("stopped");
    }
}
