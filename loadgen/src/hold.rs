//! `hold`: N clients in N/2 live games, then the server's memory from /proc.

use crate::io::{Behaviour, Io, run};
use crate::players::{Players, new_players};
use mio::Poll;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Wraps `Players` for the hold ramp: opens connections at a bounded rate and stops
/// once every client's game is live.
pub(crate) struct Ramp {
    pub(crate) players: Players,
    pub(crate) addr: SocketAddr,
    pub(crate) opened: usize,
    pub(crate) max_pending: usize,
}

impl Behaviour for Ramp {
    fn on_connect(&mut self, id: usize, io: &mut Io) {
        self.players.on_connect(id, io)
    }
    fn on_line(&mut self, id: usize, line: &str, io: &mut Io) {
        self.players.on_line(id, line, io)
    }
    fn on_close(&mut self, id: usize, io: &mut Io) {
        self.players.on_close(id, io)
    }
    fn tick(&mut self, poll: &Poll, io: &mut Io) -> bool {
        let n = self.players.players.len();
        // Pending = opened, not yet configured, not failed. Open in pairs.
        while self.opened < n {
            let settled = self.players.configured_clients + self.players.done_clients;
            if self.opened.saturating_sub(settled) >= self.max_pending {
                break;
            }
            match io.connect(poll, self.addr) {
                Ok(_) => {}
                Err(e) => {
                    if self.players.errors.connect_failures < 5 {
                        eprintln!("loadgen: connect: {e}");
                    }
                    self.players.errors.connect_failures += 1;
                    self.players.players[self.opened].done = true;
                    self.players.done_clients += 1;
                    io.conns.push(None);
                }
            }
            self.opened += 1;
        }
        self.players.live_clients + self.players.done_clients >= n
    }
}

pub(crate) fn proc_status(pid: u32) -> (Option<u64>, Option<u64>, Option<u64>) {
    let Ok(text) = std::fs::read_to_string(format!("/proc/{pid}/status")) else {
        return (None, None, None);
    };
    let field = |key: &str| {
        text.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    (field("VmRSS:"), field("VmHWM:"), field("Threads:"))
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn hold(
    addr: SocketAddr,
    clients: usize,
    server_pid: Option<u32>,
    hold_secs: u64,
    max_pending: usize,
    size: usize,
    timeout: u64,
    prefix: &str,
) {
    let clients = clients + clients % 2;
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    let before = server_pid.map(proc_status);
    let mut ramp = Ramp {
        players: new_players(clients, prefix, 1, size, 1, true),
        addr,
        opened: 0,
        max_pending: max_pending.max(2),
    };
    let start = Instant::now();
    let ok = run(
        &mut poll,
        &mut io,
        &mut ramp,
        start + Duration::from_secs(timeout),
    );
    let ramp_secs = start.elapsed().as_secs_f64();
    let live = ramp.players.live_clients;
    let open_now = io.open();
    let during = server_pid.map(proc_status);
    let (fds, maps) = server_pid.map_or((None, None), |pid| {
        let fds = std::fs::read_dir(format!("/proc/{pid}/fd"))
            .ok()
            .map(|d| d.count());
        let maps = std::fs::read_to_string(format!("/proc/{pid}/maps"))
            .ok()
            .map(|m| m.lines().count());
        (fds, maps)
    });
    let opt = |v: Option<usize>| v.map_or("na".to_string(), |x| x.to_string());
    println!(
        "hold: server open fds {} (RLIMIT_NOFILE {}), memory mappings {} (vm.max_map_count {})",
        opt(fds),
        server_pid.map_or("na".to_string(), |pid| std::fs::read_to_string(format!(
            "/proc/{pid}/limits"
        ))
        .ok()
        .and_then(|l| l
            .lines()
            .find(|l| l.starts_with("Max open files"))
            .map(|l| l.split_whitespace().nth(3).unwrap_or("?").to_string()))
        .unwrap_or_default()),
        opt(maps),
        std::fs::read_to_string("/proc/sys/vm/max_map_count")
            .unwrap_or_default()
            .trim()
    );
    println!(
        "hold: {live}/{clients} clients live ({} games) after {ramp_secs:.2}s, {open_now} connections open{}",
        live / 2,
        if ok { "" } else { " RAMP TIMED OUT" }
    );
    // Hold: keep polling so that any disconnect is noticed.
    struct Idle<'a>(&'a mut Players);
    impl Behaviour for Idle<'_> {
        fn on_connect(&mut self, _: usize, _: &mut Io) {}
        fn on_line(&mut self, id: usize, line: &str, _: &mut Io) {
            self.0.unexpected(id, line);
        }
        fn on_close(&mut self, id: usize, io: &mut Io) {
            self.0.on_close(id, io);
        }
        fn tick(&mut self, _: &Poll, _: &mut Io) -> bool {
            false
        }
    }
    run(
        &mut poll,
        &mut io,
        &mut Idle(&mut ramp.players),
        Instant::now() + Duration::from_secs(hold_secs),
    );
    let after_hold = server_pid.map(proc_status);
    let still_open = io.open();
    for c in io.conns.iter_mut() {
        *c = None;
    }
    let p = &ramp.players;
    let errors = p.errors.total() + (clients - live) as u64;
    let fmt = |v: Option<(Option<u64>, Option<u64>, Option<u64>)>, i: usize| {
        v.and_then(|t| [t.0, t.1, t.2][i])
            .map_or("na".to_string(), |x| x.to_string())
    };
    println!(
        "hold: server VmRSS before {} kB, with all live {} kB, after {hold_secs}s hold {} kB (VmHWM {} kB); threads {}; \
         {still_open} still open after hold; errors {errors} {} (not live {})",
        fmt(before, 0),
        fmt(during, 0),
        fmt(after_hold, 0),
        fmt(after_hold, 1),
        fmt(during, 2),
        p.errors.breakdown(),
        clients - live
    );
    println!(
        "RESULT mode=hold clients={clients} live={live} games={} ramp_secs={ramp_secs:.2} still_open={still_open} \
         fds={} maps={} rss_before_kb={} rss_kb={} rss_after_hold_kb={} hwm_kb={} threads={} errors={errors} {} \
         timed_out={}",
        live / 2,
        opt(fds),
        opt(maps),
        fmt(before, 0),
        fmt(during, 0),
        fmt(after_hold, 0),
        fmt(after_hold, 1),
        fmt(during, 2),
        p.errors.fields(),
        !ok
    );
}
