//! Speed of the rules engine: random legal playouts on 9x9 and 19x19 (positional
//! superko, the default) and the cost of one `Game::check`. Plain `Instant`, no
//! framework: `cargo bench --bench engine`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use goserver::engine::go::{Colour, Game, Move, Point, Rules};

/// xorshift64*: deterministic and cheap.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }
}

/// Whether `p` is a one-point eye of `colour` (random players do not fill those).
fn is_own_eye(game: &Game, p: Point, colour: Colour) -> bool {
    let (r, c, n) = (p.row(), p.col(), game.size() as u8);
    let around = [
        (r.wrapping_sub(1), c),
        (r + 1, c),
        (r, c.wrapping_sub(1)),
        (r, c + 1),
    ];
    around
        .iter()
        .all(|&(r, c)| r >= n || c >= n || game.board().get(Point::new(r, c)) == Some(colour))
}

/// Plays one random game to the end; returns the number of stones played.
fn playout(game: &mut Game, rng: &mut Rng, empties: &mut Vec<Point>) -> usize {
    game.restart();
    let size = game.size();
    let mut stones = 0;
    while !game.is_over() && game.moves().len() < 3 * size * size {
        let colour = game.to_move();
        empties.clear();
        empties.extend(
            (0..size * size)
                .filter_map(|i| Point::from_index(i as i64, size))
                .filter(|&p| game.board().get(p).is_none()),
        );
        let mut mv = Move::Pass;
        while !empties.is_empty() {
            let p = empties.swap_remove(rng.below(empties.len()));
            if !is_own_eye(game, p, colour) && game.check(colour, Move::Play(p)).is_ok() {
                mv = Move::Play(p);
                break;
            }
        }
        if game.play(colour, mv).is_ok() && mv != Move::Pass {
            stones += 1;
        }
    }
    stones
}

/// Times `play` alone over a recorded random game, replayed many times.
fn replay_cost(size: usize, rng: &mut Rng) -> (f64, usize) {
    let mut game = Game::new(size, Rules::default()).expect("valid size");
    let mut empties = Vec::new();
    playout(&mut game, rng, &mut empties);
    let record: Vec<_> = game.moves().to_vec();
    let mut total = Duration::ZERO;
    let mut moves = 0;
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(2) {
        game.restart();
        let t = Instant::now();
        for m in &record {
            let _ = black_box(game.play(m.colour, m.mv));
        }
        total += t.elapsed();
        moves += record.len();
    }
    (total.as_nanos() as f64 / moves as f64, record.len())
}

fn main() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    println!(
        "{:<8} {:>12} {:>14} {:>12} {:>16} {:>14}",
        "board", "playouts/s", "moves/s", "moves/game", "ns/move (play)", "ns/check"
    );
    for size in [9, 19] {
        let mut game = Game::new(size, Rules::default()).expect("valid size");
        let mut empties = Vec::new();
        let (mut playouts, mut moves) = (0usize, 0usize);
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(4) {
            playout(&mut game, &mut rng, &mut empties);
            moves += game.moves().len();
            playouts += 1;
        }
        let secs = started.elapsed().as_secs_f64();
        let (ns_per_move, _) = replay_cost(size, &mut rng);

        // One `check` on a mid-game position, over every point in turn.
        let mut mid = Game::new(size, Rules::default()).expect("valid size");
        playout(&mut mid, &mut rng, &mut empties);
        let record = mid.moves()[..mid.moves().len() / 2].to_vec();
        mid.restart();
        for m in &record {
            let _ = mid.play(m.colour, m.mv);
        }
        let colour = mid.to_move();
        let points: Vec<Point> = (0..size * size)
            .filter_map(|i| Point::from_index(i as i64, size))
            .collect();
        let (mut checks, mut legal) = (0usize, 0usize);
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(1) {
            for &p in &points {
                legal += usize::from(black_box(&mid).check(colour, Move::Play(p)).is_ok());
            }
            checks += points.len();
        }
        let ns_per_check = t.elapsed().as_nanos() as f64 / checks as f64;
        black_box(legal);
        println!(
            "{:<8} {:>12.0} {:>14.0} {:>12.0} {:>16.1} {:>14.1}",
            format!("{size}x{size}"),
            playouts as f64 / secs,
            moves as f64 / secs,
            moves as f64 / playouts as f64,
            ns_per_move,
            ns_per_check
        );
    }
    println!("playouts: random legal moves, no filling of one-point eyes, positional superko;");
    println!("moves/s includes move generation (check on random empty points);");
    println!(
        "ns/move (play) times Game::play alone (validation + apply + superko) on replayed games."
    );
}
