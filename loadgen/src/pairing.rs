//! `pairing`: how long a running goserver takes to seat two players in a configured
//! game, per game, from the leader's connect to both players holding
//! ACKNOWLEDGE_CONFIG, with C games forming at once.
//!
//! One game: a client connects and sends HANDSHAKE; the server makes it the leader of
//! a new game (ACKNOWLEDGE_HANDSHAKE+id+1, REQUEST_CONFIG). Only then does a second
//! client connect and send HANDSHAKE (ACKNOWLEDGE_HANDSHAKE+id+0). With both in, the
//! leader sends SET_CONFIG and both receive ACKNOWLEDGE_CONFIG: the game is timed.
//! Then the leader sends EXIT (its partner wins and gets GAME_FINISHED), the partner
//! sends EXIT on that, and a slot opens a new game only once the server has closed
//! both connections, so the server's client count stays flat.
//!
//! The server seats a HANDSHAKE in the OLDEST waiting game, so with many games forming
//! at once a client may land in another game than the one it was opened for. Roles
//! and pairs are therefore taken from ACKNOWLEDGE_HANDSHAKE, never assumed: every
//! leader has one more client opened after its REQUEST_CONFIG, and since a new game is
//! opened only when none is waiting, each game started by a slot ends up with exactly
//! two clients.

use crate::io::{Behaviour, Io, latency_fields, new_histogram, record, run};
use crate::players::Errors;
use hdrhistogram::Histogram;
use mio::Poll;
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// How long a game's clients wait, from the leader's EXIT, for the server to close
/// both; then they close themselves, each counted as an unanswered EXIT.
const EXIT_GRACE: Duration = Duration::from_secs(1);

/// Where one client is in its game.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Connecting, or HANDSHAKE sent.
    Arriving,
    /// Seated in game `game` (as leader or partner), not configured yet.
    Seated { game: u32 },
    /// Holds ACKNOWLEDGE_CONFIG for `game`.
    Configured { game: u32 },
    /// Sent EXIT; waits for the server to close it.
    Exiting { game: u32 },
    /// Closed, by the server or by us.
    Gone,
}

/// One connection.
struct Client {
    /// When `connect` was called: a game's clock starts at its leader's.
    opened: Instant,
    stage: Stage,
    /// The name the server granted (from ACKNOWLEDGE_CONFIG), for EXIT.
    granted: String,
}

/// One game being formed or torn down, by the server's game id.
#[derive(Default)]
struct Forming {
    leader: Option<usize>,
    partner: Option<usize>,
    /// The leader has its REQUEST_CONFIG.
    requested: bool,
    config_sent: bool,
    /// Clients holding ACKNOWLEDGE_CONFIG.
    configured: u8,
    /// Clients closed.
    gone: u8,
}

struct Pairing {
    addr: SocketAddr,
    prefix: String,
    size: usize,
    /// Games to time in all, and at once.
    games: u64,
    concurrent: u64,
    /// Games begun (a slot opened a client for them) and ended (both clients closed).
    begun: u64,
    ended: u64,
    /// Clients to open for leaders that have their REQUEST_CONFIG.
    partners_due: usize,
    clients: Vec<Client>,
    forming: HashMap<u32, Forming>,
    hist: Histogram<u64>,
    errors: Errors,
    /// Games whose leader sent EXIT, oldest first, with when it did.
    exiting: VecDeque<(Instant, u32)>,
    /// Clients the server had not closed [`EXIT_GRACE`] after their leader's EXIT.
    exit_unanswered: u64,
    shown: u32,
}

impl Pairing {
    fn open(&mut self, poll: &Poll, io: &mut Io) {
        let opened = Instant::now();
        let stage = match io.connect(poll, self.addr) {
            Ok(_) => Stage::Arriving,
            Err(e) => {
                if self.errors.connect_failures < 5 {
                    eprintln!("loadgen: connect: {e}");
                }
                self.errors.connect_failures += 1;
                io.conns.push(None);
                Stage::Gone
            }
        };
        self.clients.push(Client {
            opened,
            stage,
            granted: String::new(),
        });
    }

    fn unexpected(&mut self, id: usize, line: &str) {
        self.errors.unexpected += 1;
        if self.shown < 10 {
            self.shown += 1;
            eprintln!("loadgen: client {id}: unexpected line: {line}");
        }
    }

    /// The leader configures once both players are seated and it has been asked.
    fn configure_when_ready(&mut self, game: u32, io: &mut Io) {
        let Some(forming) = self.forming.get_mut(&game) else {
            return;
        };
        if let (Some(leader), Some(_), true, false) = (
            forming.leader,
            forming.partner,
            forming.requested,
            forming.config_sent,
        ) {
            forming.config_sent = true;
            let line = format!("SET_CONFIG+{game}+1+{}\n", self.size);
            io.send(leader, line.as_bytes());
        }
    }

    fn exit(&mut self, id: usize, game: u32, io: &mut Io) {
        let client = &mut self.clients[id];
        client.stage = Stage::Exiting { game };
        let line = format!("EXIT+{game}+{}\n", client.granted);
        io.send(id, line.as_bytes());
    }

    /// Marks a client closed; its game ends when both of its clients are.
    fn gone(&mut self, id: usize, io: &mut Io) {
        let stage = std::mem::replace(&mut self.clients[id].stage, Stage::Gone);
        io.close(id);
        let game = match stage {
            Stage::Seated { game } | Stage::Configured { game } | Stage::Exiting { game } => game,
            Stage::Arriving | Stage::Gone => return,
        };
        let Some(forming) = self.forming.get_mut(&game) else {
            return;
        };
        forming.gone += 1;
        // A client lost before its EXIT takes its partner with it: the game cannot go
        // on. After an EXIT the partner is still owed its GAME_FINISHED.
        let other = if forming.leader == Some(id) {
            forming.partner
        } else {
            forming.leader
        };
        if forming.gone == 2 {
            self.forming.remove(&game);
            self.ended += 1;
        } else if !matches!(stage, Stage::Exiting { .. })
            && let Some(other) = other
        {
            self.gone(other, io);
        }
    }
}

impl Behaviour for Pairing {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        let line = format!("HANDSHAKE+{}{id}\n", self.prefix);
        io.send(id, line.as_bytes());
    }

    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        let mut fields = line.split('+');
        let command = fields.next().unwrap_or("");
        match (command, self.clients[id].stage) {
            ("ACKNOWLEDGE_HANDSHAKE", Stage::Arriving) => {
                let Some(game) = fields.next().and_then(|g| g.parse().ok()) else {
                    return self.unexpected(id, line);
                };
                let forming = self.forming.entry(game).or_default();
                match fields.next() {
                    Some("1") if forming.leader.is_none() => forming.leader = Some(id),
                    Some("0") if forming.partner.is_none() => forming.partner = Some(id),
                    _ => return self.unexpected(id, line),
                }
                self.clients[id].stage = Stage::Seated { game };
                self.configure_when_ready(game, io);
            }
            ("REQUEST_CONFIG", Stage::Seated { game }) => {
                let Some(forming) = self.forming.get_mut(&game) else {
                    return self.unexpected(id, line);
                };
                if forming.leader != Some(id) || forming.requested {
                    return self.unexpected(id, line);
                }
                forming.requested = true;
                self.partners_due += 1;
                self.configure_when_ready(game, io);
            }
            ("ACKNOWLEDGE_CONFIG", Stage::Seated { game }) => {
                self.clients[id].granted = fields.next().unwrap_or("").to_string();
                self.clients[id].stage = Stage::Configured { game };
                let Some(forming) = self.forming.get_mut(&game) else {
                    return self.unexpected(id, line);
                };
                forming.configured += 1;
                if forming.configured == 2 {
                    let Some(leader) = forming.leader else {
                        return self.unexpected(id, line);
                    };
                    record(&mut self.hist, self.clients[leader].opened);
                    // The leader leaves first; the partner follows on GAME_FINISHED,
                    // so the two EXITs never meet in the game's inbox.
                    self.exiting.push_back((Instant::now(), game));
                    self.exit(leader, game, io);
                }
            }
            ("GAME_FINISHED", Stage::Configured { game }) => self.exit(id, game, io),
            // The server may tell the leaver too.
            ("GAME_FINISHED", Stage::Exiting { .. }) => {}
            _ => self.unexpected(id, line),
        }
    }

    fn on_close(&mut self, id: usize, io: &mut Io) {
        let stage = self.clients[id].stage;
        if !matches!(stage, Stage::Exiting { .. } | Stage::Gone) {
            self.errors.disconnects += 1;
            if self.errors.disconnects <= 5 {
                eprintln!("loadgen: client {id} closed by the server before its EXIT");
            }
        }
        self.gone(id, io);
    }

    fn tick(&mut self, poll: &Poll, io: &mut Io) -> bool {
        // Oldest first: stop at the first game still within its grace.
        while let Some(&(since, game)) = self.exiting.front() {
            let seats = match self.forming.get(&game) {
                Some(_) if since.elapsed() <= EXIT_GRACE => break,
                Some(forming) => [forming.leader, forming.partner],
                None => [None, None],
            };
            self.exiting.pop_front();
            let open: Vec<usize> = (seats.into_iter().flatten())
                .filter(|&id| self.clients[id].stage != Stage::Gone)
                .collect();
            self.exit_unanswered += open.len() as u64;
            for id in open {
                self.gone(id, io);
            }
        }
        while self.partners_due > 0 {
            self.partners_due -= 1;
            self.open(poll, io);
        }
        while self.begun < self.games && self.begun - self.ended < self.concurrent {
            self.begun += 1;
            self.open(poll, io);
        }
        self.ended >= self.games
    }
}

/// The `pairing` mode: times `games` pairings, `concurrent` at once, against the
/// server at `addr`, and prints the summary and the `RESULT mode=pairing ...` line.
pub(crate) fn pairing(
    addr: SocketAddr,
    games: u64,
    concurrent: u64,
    size: usize,
    timeout: u64,
    prefix: &str,
) {
    let concurrent = concurrent.max(1);
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    let mut b = Pairing {
        addr,
        prefix: prefix.to_string(),
        size,
        games,
        concurrent,
        begun: 0,
        ended: 0,
        partners_due: 0,
        clients: Vec::new(),
        forming: HashMap::new(),
        exiting: VecDeque::new(),
        hist: new_histogram(),
        errors: Errors::default(),
        exit_unanswered: 0,
        shown: 0,
    };
    let start = Instant::now();
    let ok = run(
        &mut poll,
        &mut io,
        &mut b,
        start + Duration::from_secs(timeout),
    );
    let secs = start.elapsed().as_secs_f64();
    let timed = b.hist.len();
    let errors = b.errors.total() + if ok { 0 } else { 1 };
    println!(
        "pairing: {timed}/{games} games paired and configured ({concurrent} at once, {} clients) in {secs:.3}s \
         = {:.0} games/s; EXIT unanswered {}; errors {errors} {}{}",
        b.clients.len(),
        timed as f64 / secs,
        b.exit_unanswered,
        b.errors.breakdown(),
        if ok { "" } else { " TIMED OUT" }
    );
    println!(
        "RESULT mode=pairing concurrent={concurrent} games={timed} {} ops_per_s={:.1} secs={secs:.3} \
         exit_unanswered={} errors={errors} {} timed_out={}",
        latency_fields(&b.hist),
        timed as f64 / secs,
        b.exit_unanswered,
        b.errors.fields(),
        !ok
    );
}
