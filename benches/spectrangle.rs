//! Speed of the Spectrangle rules engine: one `Board::check`, and "can any tile of this
//! 4-tile hand be placed anywhere" (`Board::can_place_any`) on a half-full board and on
//! an almost empty one. Plain `Instant`, no framework: `cargo bench --bench spectrangle`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use goserver::engine::rng::Rng;
use goserver::engine::spectrangle::{Board, Location, OrientedTile, Rotation, Tile};

/// Random boards per case of the hand search.
const BOARDS: usize = 30;

/// A board with `count` tiles placed by random legal placements, and the tiles left.
fn random_board(count: usize, rng: &mut Rng) -> (Board, Vec<Tile>) {
    loop {
        let mut board = Board::new();
        let mut tiles = Tile::ALL.to_vec();
        rng.shuffle(&mut tiles);
        let mut left = Vec::new();
        while let Some(tile) = tiles.pop() {
            if board.placed() == count {
                left.push(tile);
                continue;
            }
            let options: Vec<OrientedTile> = Rotation::ALL
                .iter()
                .map(|&r| OrientedTile::new(tile, r))
                .collect();
            let legal: Vec<(OrientedTile, Location)> = Location::all()
                .flat_map(|l| options.iter().map(move |&o| (o, l)))
                .filter(|&(o, l)| board.check(o, l).is_ok())
                .collect();
            if legal.is_empty() {
                left.push(tile);
            } else {
                let (o, l) = legal[rng.below(legal.len())];
                let _ = board.place(o, l);
            }
        }
        if board.placed() == count {
            return (board, left);
        }
    }
}

/// Many random 4-tile hands from `left`.
fn hands(left: &[Tile], rng: &mut Rng) -> Vec<[Tile; 4]> {
    (0..1000)
        .map(|_| {
            let mut pool = left.to_vec();
            rng.shuffle(&mut pool);
            [pool[0], pool[1], pool[2], pool[3]]
        })
        .collect()
}

/// Nanoseconds per call of `can_place_any` over `hands`, repeated for a fifth of a second.
fn time_hands(board: &Board, hands: &[[Tile; 4]]) -> (f64, usize) {
    let (mut calls, mut yes) = (0usize, 0usize);
    let started = Instant::now();
    while started.elapsed() < Duration::from_millis(200) {
        for hand in hands {
            yes += usize::from(black_box(board).can_place_any(black_box(hand)));
        }
        calls += hands.len();
    }
    black_box(yes);
    (started.elapsed().as_nanos() as f64 / calls as f64, calls)
}

/// Prints one row of the table.
fn row(case: &str, ns: f64, calls: usize) {
    println!("{case:<58} {calls:>12} {ns:>10.1}");
}

fn main() {
    let mut rng = Rng::new(0x5eed);
    println!("{:<58} {:>12} {:>10}", "case", "calls", "ns/call");

    // One check: every field x every rotation of every tile left, on half-full boards.
    let boards: Vec<(Board, Vec<Tile>)> = (0..20).map(|_| random_board(18, &mut rng)).collect();
    let mut probes = Vec::new();
    for (board, left) in &boards {
        for &tile in left {
            for &r in &Rotation::ALL {
                for l in Location::all() {
                    probes.push((board, OrientedTile::new(tile, r), l));
                }
            }
        }
    }
    let (mut checks, mut legal) = (0usize, 0usize);
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(1) {
        for &(board, tile, l) in &probes {
            legal += usize::from(black_box(board).check(tile, l).is_ok());
        }
        checks += probes.len();
    }
    black_box(legal);
    row(
        "Board::check, half-full board (18 tiles)",
        started.elapsed().as_nanos() as f64 / checks as f64,
        checks,
    );

    // Random hands, then hands that fit nowhere: the worst case, as the search must
    // try every candidate field before it can say no.
    for (label, placed) in [
        ("half-full board (18 tiles)", 18),
        ("almost empty board (2 tiles)", 2),
    ] {
        let (mut total_ns, mut total_calls) = (0.0, 0);
        let (mut stuck_ns, mut stuck_calls, mut stuck_boards) = (0.0, 0, 0);
        for _ in 0..BOARDS {
            let (board, left) = random_board(placed, &mut rng);
            let all = hands(&left, &mut rng);
            let (ns, calls) = time_hands(&board, &all);
            total_ns += ns * calls as f64;
            total_calls += calls;
            // Stuck hands are rare on random boards, so build them: four tiles (repeats
            // allowed) from those that fit nowhere on this board.
            let misfits: Vec<Tile> = left
                .iter()
                .copied()
                .filter(|&t| !board.can_place_any(&[t]))
                .collect();
            let stuck: Vec<[Tile; 4]> = if misfits.is_empty() {
                Vec::new()
            } else {
                (0..1000)
                    .map(|_| [(); 4].map(|()| misfits[rng.below(misfits.len())]))
                    .collect()
            };
            if !stuck.is_empty() {
                let (ns, calls) = time_hands(&board, &stuck);
                stuck_ns += ns * calls as f64;
                stuck_calls += calls;
                stuck_boards += 1;
            }
        }
        row(
            &format!("can_place_any, 4-tile hand, {label}"),
            total_ns / total_calls as f64,
            total_calls,
        );
        if stuck_calls > 0 {
            row(
                &format!("  hands that fit nowhere ({stuck_boards} of {BOARDS} boards had some)"),
                stuck_ns / stuck_calls as f64,
                stuck_calls,
            );
        }
    }
    println!("boards: random legal placements; hands: 4 random tiles not on the board;");
    println!("Board::check is timed over every field x rotation x tile left (legal or not).");
}
