//! `games`: G games, C at once, latency MOVE -> own ACKNOWLEDGE_MOVE.

use crate::io::{Io, latency_fields, run};
use crate::players::new_players;
use mio::Poll;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

pub(crate) fn games_mode(
    addr: SocketAddr,
    games: u64,
    concurrent: usize,
    moves: u32,
    size: usize,
    timeout: u64,
    prefix: &str,
) {
    let concurrent = concurrent.max(1);
    let each = games.div_ceil(concurrent as u64).max(1);
    let total_games = each * concurrent as u64;
    let mut poll = Poll::new().expect("poll");
    let mut io = Io::default();
    let mut b = new_players(concurrent * 2, prefix, each, size, moves, false);
    let start = Instant::now();
    for i in 0..concurrent * 2 {
        if io.connect(&poll, addr).is_err() {
            b.errors.connect_failures += 1;
            b.players[i].done = true;
            b.done_clients += 1;
            io.conns.push(None);
        }
    }
    let ok = run(
        &mut poll,
        &mut io,
        &mut b,
        start + Duration::from_secs(timeout),
    );
    let secs = start.elapsed().as_secs_f64();
    let finished = b.finished_reports / 2;
    let moves_done = b.hist.len();
    let errors = b.errors.total() + if ok { 0 } else { 1 };
    println!(
        "games: {finished}/{total_games} games ({concurrent} at once, {moves} stones + 2 passes each, {size}x{size}) in {secs:.3}s; \
         {moves_done} moves = {:.0} moves/s, {:.1} games/s; errors {errors} {}{}",
        moves_done as f64 / secs,
        finished as f64 / secs,
        b.errors.breakdown(),
        if ok { "" } else { " TIMED OUT" }
    );
    println!(
        "RESULT mode=games concurrent={concurrent} games={finished} {} ops_per_s={:.1} games_per_s={:.2} secs={secs:.3} \
         errors={errors} {} timed_out={}",
        latency_fields(&b.hist),
        moves_done as f64 / secs,
        finished as f64 / secs,
        b.errors.fields(),
        !ok
    );
}
