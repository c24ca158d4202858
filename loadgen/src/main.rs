//! `loadgen`: load generator and benchmarks for goserver (issues 6 and 12).
//!
//! Modes:
//! - `echo`: the first floor. Starts an in-process thread-per-connection line echo
//!   server (same 128 KiB stacks as the real server) on 127.0.0.1:0 and drives it with
//!   pairs of connections that take turns, exactly like the two players of a game: one
//!   line outstanding per pair, lines the size of a MOVE.
//! - `relay`: the second floor, the skeleton of the server's design: a reader thread
//!   per connection hands each line over a channel to one relay thread per pair, which
//!   answers both connections. Same clients, flags and sizes as `echo`.
//! - `games`: G games, C at once, two clients each, real GO! protocol; latency is
//!   MOVE -> own ACKNOWLEDGE_MOVE.
//! - `pairing`: G games, C forming at once, against a running goserver; latency is
//!   the leader's connect -> both players hold ACKNOWLEDGE_CONFIG.
//! - `hold`: N clients in N/2 configured games, each game plays one move, then the
//!   server's memory is read from /proc and the clients are held and closed.
//! - `viewers`, `watch`: web board viewers: their delay after a move, and what they
//!   cost a `games` run (threads, like `flood`).
//! - `flood`: clients flooding valid lines in one front end while a neighbour plays:
//!   the neighbour's latency and the server's memory over the flood (threads, not mio:
//!   a flooder's blocked write is the brake being measured).
//! - `gnugo-match`: the practice bot's strength: GNU Go plays it through the GO!
//!   protocol (a GTP-to-GO! bridge, blocking, one game at a time); not a load test.
//!
//! All clients live in ONE thread with non-blocking sockets (mio), so 10,000 clients
//! cost 10,000 file descriptors and no threads. Every mode ends with one line
//! `RESULT key=value ...` that scripts/bench.sh parses.

mod echo;
mod flood;
mod floor;
mod games;
mod gnugo;
mod hold;
mod io;
mod pairing;
mod players;
mod relay;
mod spectrangle_referee;
mod viewers;

use clap::{Parser, Subcommand};
use std::net::{SocketAddr, TcpListener};

#[derive(Parser)]
#[command(name = "loadgen", about = "Load generator and benchmarks for goserver")]
struct Cli {
    #[command(subcommand)]
    mode: Mode,
}

#[derive(Subcommand)]
enum Mode {
    /// Floor: in-process thread-per-connection echo server + paired ping-pong clients.
    Echo(floor::FloorArgs),
    /// Floor: in-process relay skeleton (reader threads, one relay thread per pair
    /// answering both connections) + the same paired ping-pong clients.
    Relay(floor::FloorArgs),
    /// Real games against a running goserver.
    Games {
        /// Server address.
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: SocketAddr,
        /// Games in total.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Games at once (2 clients each).
        #[arg(long, default_value_t = 1)]
        concurrent: usize,
        /// Stone moves per game before both players pass.
        #[arg(long, default_value_t = 60)]
        moves: u32,
        /// Board size.
        #[arg(long, default_value_t = 19)]
        size: usize,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
        /// Prefix of the client names (names are <prefix><n>).
        #[arg(long, default_value = "g")]
        prefix: String,
    },
    /// Pairing latency against a running goserver: leader's connect -> both players
    /// hold ACKNOWLEDGE_CONFIG, per game.
    Pairing {
        /// Server address.
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: SocketAddr,
        /// Games to time in all.
        #[arg(long, default_value_t = 200)]
        games: u64,
        /// Games forming at once.
        #[arg(long, default_value_t = 1)]
        concurrent: u64,
        /// Board size the leaders ask for.
        #[arg(long, default_value_t = 19)]
        size: usize,
        /// Give up after this many seconds.
        #[arg(long, default_value_t = 60)]
        timeout: u64,
        /// Prefix of the client names (names are <prefix><n>).
        #[arg(long, default_value = "m")]
        prefix: String,
    },
    /// Clients flooding valid lines in one front end while a neighbour plays: the
    /// neighbour's latency and the server's memory (issue 18).
    Flood {
        /// Which front end.
        #[arg(long, value_enum)]
        front: flood::Front,
        /// That front end's address.
        #[arg(long)]
        addr: SocketAddr,
        /// How long to flood.
        #[arg(long, default_value_t = 30)]
        seconds: u64,
        /// Server process id, for its memory from /proc/<pid>/status.
        #[arg(long)]
        server_pid: Option<u32>,
    },
    /// One GO! game moving every 50 ms while V viewers follow its web event stream:
    /// each viewer's delay after each move (issue 20).
    Viewers {
        /// The GO! address.
        #[arg(long)]
        addr: SocketAddr,
        /// The web board's address.
        #[arg(long)]
        web: SocketAddr,
        /// Viewers.
        #[arg(long, default_value_t = 100)]
        viewers: usize,
        /// Moves to play.
        #[arg(long, default_value_t = 100)]
        moves: u64,
    },
    /// V viewers spread over GO! games 1 to G for a while, beside a `games` run.
    Watch {
        /// The web board's address.
        #[arg(long)]
        web: SocketAddr,
        /// Viewers.
        #[arg(long, default_value_t = 100)]
        viewers: usize,
        /// Slots to spread them over: slot k is game k, then k + G, ... (each to its end).
        #[arg(long, default_value_t = 64)]
        games: u32,
        /// How long to watch.
        #[arg(long, default_value_t = 30)]
        seconds: u64,
    },
    /// Print a free loopback TCP port (for scripts).
    FreePort,
    /// GNU Go against the server's practice bot, game after game, through the GO!
    /// protocol; the server must seat its bot (`--bot-after 1`).
    GnugoMatch(gnugo::MatchArgs),
    /// N clients connected at once in N/2 live games.
    Hold {
        #[arg(long, default_value = "127.0.0.1:8000")]
        addr: SocketAddr,
        /// Clients (even).
        #[arg(long, default_value_t = 10_000)]
        clients: usize,
        /// Server process id, for VmRSS / Threads from /proc/<pid>/status.
        #[arg(long)]
        server_pid: Option<u32>,
        /// Seconds to hold everyone once all games are live.
        #[arg(long, default_value_t = 5)]
        hold_secs: u64,
        /// Connections opened but not yet in a configured game, at most.
        #[arg(long, default_value_t = 256)]
        max_pending: usize,
        /// Board size.
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Give up the ramp-up after this many seconds.
        #[arg(long, default_value_t = 120)]
        timeout: u64,
        #[arg(long, default_value = "h")]
        prefix: String,
    },
}

fn main() {
    raise_file_limit();
    let cli = Cli::parse();
    match cli.mode {
        Mode::Echo(args) => echo::echo(&args),
        Mode::Relay(args) => relay::relay(&args),
        Mode::Games {
            addr,
            games,
            concurrent,
            moves,
            size,
            timeout,
            prefix,
        } => games::games_mode(addr, games, concurrent, moves, size, timeout, &prefix),
        Mode::Pairing {
            addr,
            games,
            concurrent,
            size,
            timeout,
            prefix,
        } => pairing::pairing(addr, games, concurrent, size, timeout, &prefix),
        Mode::Flood {
            front,
            addr,
            seconds,
            server_pid,
        } => flood::flood(front, addr, seconds, server_pid),
        Mode::Viewers {
            addr,
            web,
            viewers,
            moves,
        } => viewers::viewers(addr, web, viewers, moves),
        Mode::Watch {
            web,
            viewers,
            games,
            seconds,
        } => viewers::watch(web, viewers, games, seconds),
        Mode::GnugoMatch(args) => gnugo::gnugo_match(&args),
        Mode::FreePort => {
            let l = TcpListener::bind("127.0.0.1:0").expect("bind");
            println!("{}", l.local_addr().expect("address").port());
        }
        Mode::Hold {
            addr,
            clients,
            server_pid,
            hold_secs,
            max_pending,
            size,
            timeout,
            prefix,
        } => hold::hold(
            addr,
            clients,
            server_pid,
            hold_secs,
            max_pending,
            size,
            timeout,
            &prefix,
        ),
    }
}

fn raise_file_limit() {
    // SAFETY: plain getrlimit/setrlimit on a local struct.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
