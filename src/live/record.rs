//! The record of a Go game in play, published for the web: its moves as the loop
//! plays them, in a log that the loop appends to and any thread reads, without a lock
//! and without waiting (one writer, many readers). The web writes the game's SGF
//! from it, so no request ever asks a game loop for anything.

use crate::engine::go::{Colour, Game, Move, Point, Rules, Setup};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

/// The moves of one game, as its loop plays them. The loop stores a move, then the
/// new length (release); a reader loads the length (acquire), then the moves below it:
/// it sees every move of the length it read, and no move is ever changed once stored.
///
/// The room for the move limit is taken a segment at a time, as the game reaches it:
/// a game of 19x19 may last 700 moves, but 5,000 games that have played a few cost a
/// few hundred bytes each, not three kilobytes.
#[derive(Debug)]
pub struct MoveLog {
    segments: Box<[OnceLock<Box<Segment>>]>,
    capacity: usize,
    len: AtomicUsize,
}

/// Moves a segment holds.
const SEGMENT_MOVES: usize = 64;

type Segment = [AtomicU32; SEGMENT_MOVES];

/// A move as the log stores it: the colour in the top bit, below it 0 for a pass or
/// the point's index plus one.
const WHITE_BIT: u32 = 1 << 31;

impl MoveLog {
    /// An empty log with room for `capacity` moves (a game's move limit).
    pub fn with_capacity(capacity: usize) -> MoveLog {
        MoveLog {
            segments: (0..capacity.div_ceil(SEGMENT_MOVES))
                .map(|_| OnceLock::new())
                .collect(),
            capacity,
            len: AtomicUsize::new(0),
        }
    }

    /// Appends `colour`'s `mv` on a `size` board; only the game's loop appends. A move
    /// past the capacity is not kept (returns false): the game ends at its limit first.
    pub fn push(&self, colour: Colour, mv: Move, size: usize) -> bool {
        let len = self.len.load(Ordering::Relaxed);
        if len >= self.capacity {
            return false;
        }
        let Some(segment) = self.segments.get(len / SEGMENT_MOVES) else {
            return false;
        };
        let segment = segment.get_or_init(|| Box::new(std::array::from_fn(|_| AtomicU32::new(0))));
        let point = match mv {
            Move::Pass => 0,
            Move::Play(point) => u32::try_from(point.index(size) + 1).unwrap_or(0),
        };
        let colour = match colour {
            Colour::Black => 0,
            Colour::White => WHITE_BIT,
        };
        segment[len % SEGMENT_MOVES].store(colour | point, Ordering::Relaxed);
        self.len.store(len + 1, Ordering::Release);
        true
    }

    /// Every move stored so far, on a `size` board.
    pub fn moves(&self, size: usize) -> Vec<(Colour, Move)> {
        let len = self.len.load(Ordering::Acquire).min(self.capacity);
        // Every segment below `len` was made before `len` was stored.
        (0..len)
            .map_while(|index| {
                let segment = self.segments.get(index / SEGMENT_MOVES)?.get()?;
                Some(segment[index % SEGMENT_MOVES].load(Ordering::Relaxed))
            })
            .map(|stored| {
                let colour = if stored & WHITE_BIT == 0 {
                    Colour::Black
                } else {
                    Colour::White
                };
                let mv = match stored & !WHITE_BIT {
                    0 => Move::Pass,
                    n => Point::from_index(i64::from(n) - 1, size).map_or(Move::Pass, Move::Play),
                };
                (colour, mv)
            })
            .collect()
    }

    /// How many moves are stored.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Whether no move is stored yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// What the web needs to write the record of a Go game without asking its loop: the
/// game's start, rules and starting position, its moves as they are played, and, once
/// it has ended, the record its loop wrote.
#[derive(Debug)]
pub struct GoRecord {
    /// The board size.
    pub size: usize,
    /// The rules it is played under.
    pub rules: Rules,
    /// The position it started from (a loaded SGF), if any.
    pub setup: Option<Setup>,
    /// When it started (the record's date).
    pub started: SystemTime,
    /// Its moves.
    pub log: MoveLog,
    /// The whole record, written by the loop when the game ended (set once).
    pub finished: OnceLock<Arc<str>>,
}

impl GoRecord {
    /// The record of a game that starts as `game` is now (its moves, if it was loaded
    /// with some, are in the log already), with room for `capacity` moves in all.
    pub fn start(game: &Game, started: SystemTime, capacity: usize) -> Arc<GoRecord> {
        let log = MoveLog::with_capacity(capacity.max(game.moves().len()));
        for played in game.moves() {
            log.push(played.colour, played.mv, game.size());
        }
        Arc::new(GoRecord {
            size: game.size(),
            rules: game.rules(),
            setup: game.setup().cloned(),
            started,
            log,
            finished: OnceLock::new(),
        })
    }

    /// The game its moves make, replayed from the start; `None` if the log and the
    /// rules disagree (a bug).
    pub fn replay(&self) -> Option<Game> {
        let mut game = match &self.setup {
            Some(setup) => Game::from_setup(self.size, self.rules, setup).ok()?,
            None => Game::new(self.size, self.rules).ok()?,
        };
        for (colour, mv) in self.log.moves(self.size) {
            game.play(colour, mv).ok()?;
        }
        Some(game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_on_another_thread_sees_every_move_up_to_the_length_it_read() {
        let log = Arc::new(MoveLog::with_capacity(400));
        let size = 19;
        let writer = {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for i in 0..361usize {
                    let colour = if i % 2 == 0 {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let point = Point::new((i / 19) as u8, (i % 19) as u8);
                    assert!(log.push(colour, Move::Play(point), size));
                }
                assert!(log.push(Colour::Black, Move::Pass, size));
            })
        };
        // Whatever length a reader sees, the moves below it are the ones written.
        loop {
            let moves = log.moves(size);
            for (i, (colour, mv)) in moves.iter().enumerate().take(361) {
                assert_eq!(
                    *colour,
                    if i % 2 == 0 {
                        Colour::Black
                    } else {
                        Colour::White
                    }
                );
                assert_eq!(*mv, Move::Play(Point::new((i / 19) as u8, (i % 19) as u8)));
            }
            if moves.len() == 362 {
                assert_eq!(moves[361], (Colour::Black, Move::Pass));
                break;
            }
        }
        assert!(writer.join().is_ok());
        let full = MoveLog::with_capacity(1);
        assert!(full.push(Colour::Black, Move::Pass, 9));
        assert!(!full.push(Colour::White, Move::Pass, 9));
        assert_eq!(full.len(), 1);
        // Room is taken a segment at a time, as the game reaches it.
        let long = MoveLog::with_capacity(700);
        for _ in 0..SEGMENT_MOVES + 1 {
            assert!(long.push(Colour::Black, Move::Pass, 19));
        }
        let made = long.segments.iter().filter(|s| s.get().is_some()).count();
        assert_eq!((long.segments.len(), made), (11, 2));
        assert_eq!(long.moves(19).len(), SEGMENT_MOVES + 1);
    }
}
