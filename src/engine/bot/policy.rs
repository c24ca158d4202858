//! The playout policy: the next move of a random game, by the classic Monte-Carlo
//! heuristics (MoGo's, as michi and Pachi use them) or, for the weakest level, by
//! chance alone.
//!
//! Owns the order of the heuristics and their odds: answer an atari next to the last
//! move (capture the stone that just moved, save one's own chain or counter-capture),
//! then play a 3x3 shape next to the last two moves, then a random move that does not
//! fill one's own eye and is not a self-atari of several stones. Each heuristic is
//! skipped now and then, so that playouts stay varied. Knows nothing of the tree: the
//! search asks it for one move at a time.

use super::patterns::Patterns;
use super::position::{EMPTY, Loc, PASS, Position};
use crate::engine::rng::Rng;

/// Percent of moves that try the atari answers first.
const ATARI_PERCENT: usize = 90;
/// Percent of moves that try the 3x3 shapes (when no atari answer was played).
const SHAPE_PERCENT: usize = 95;
/// Percent of suggested moves (atari answers, shapes) refused when they are a
/// self-atari of several stones.
const REFUSE_SUGGESTED_SELF_ATARI: usize = 90;
/// Percent of random moves refused when they are a self-atari of several stones:
/// lower than for suggestions, so that a playout still finds the nakade that kills.
const REFUSE_RANDOM_SELF_ATARI: usize = 50;
/// Suggestions kept at most (the atari answers near one move, or its 16 neighbours).
const MAX_SUGGESTIONS: usize = 24;

/// How the playouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PlayoutStyle {
    /// Uniformly random moves that do not fill one's own eye.
    Random,
    /// The heuristics first, then a random move that is not a bad self-atari.
    Heuristic,
}

/// A short list of suggested points, without repeats.
struct Suggestions {
    /// The points; only the first `len` count.
    points: [Loc; MAX_SUGGESTIONS],
    /// How many there are.
    len: usize,
}

impl Suggestions {
    fn new() -> Suggestions {
        Suggestions {
            points: [PASS; MAX_SUGGESTIONS],
            len: 0,
        }
    }

    /// Adds `loc` unless it is there already or the list is full.
    fn add(&mut self, loc: Loc) {
        if self.len < MAX_SUGGESTIONS && !self.points[..self.len].contains(&loc) {
            self.points[self.len] = loc;
            self.len += 1;
        }
    }

    /// Whether there is any.
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Draws suggestions in random order until one is legal and, but for the odds,
    /// not a bad self-atari; removes each refused one. `None` if none is left.
    fn draw(&mut self, pos: &Position, rng: &mut Rng) -> Option<Loc> {
        while self.len > 0 {
            let i = rng.below(self.len);
            let loc = self.points[i];
            self.len -= 1;
            self.points[i] = self.points[self.len];
            if pos.is_legal(loc)
                && !(pos.is_bad_self_atari(loc) && rng.below(100) < REFUSE_SUGGESTED_SELF_ATARI)
            {
                return Some(loc);
            }
        }
        None
    }
}

/// The next move of a playout for the side to move in `pos`: a point where it may
/// play, or `PASS` when it has none but its own eyes (or only bad self-ataris, with
/// the odds against them).
pub(super) fn next_move(
    pos: &Position,
    patterns: &Patterns,
    style: PlayoutStyle,
    rng: &mut Rng,
) -> Loc {
    if style == PlayoutStyle::Heuristic && pos.last() != PASS {
        if rng.below(100) < ATARI_PERCENT {
            let mut answers = Suggestions::new();
            atari_answers(pos, pos.last(), &mut answers);
            if let Some(loc) = answers.draw(pos, rng) {
                return loc;
            }
        }
        if rng.below(100) < SHAPE_PERCENT {
            let mut shapes = Suggestions::new();
            for near in [pos.last(), pos.last2()] {
                if near != PASS {
                    shape_moves(pos, patterns, near, &mut shapes);
                }
            }
            if !shapes.is_empty()
                && let Some(loc) = shapes.draw(pos, rng)
            {
                return loc;
            }
        }
    }
    random_move(pos, style, rng)
}

/// The answers to ataris around the opponent's move at `last`: capture the chain of
/// `last` or any other opponent chain next to it in atari; for each own chain next
/// to it in atari, capture an opponent chain in atari that touches it, or extend at
/// its liberty if that leaves it at least two liberties.
fn atari_answers(pos: &Position, last: Loc, out: &mut Suggestions) {
    let own = pos.to_move().number();
    let other = pos.to_move().opponent().number();
    if pos.cell(last) == other
        && let Some(liberty) = pos.atari_liberty(last)
    {
        out.add(liberty);
    }
    let mut saved = [PASS; 4];
    let mut checked = 0;
    for q in pos.neighbours(last) {
        let cell = pos.cell(q);
        if cell == other {
            if let Some(liberty) = pos.atari_liberty(q) {
                out.add(liberty);
            }
        } else if cell == own
            && let Some(liberty) = pos.atari_liberty(q)
        {
            let head = pos.head(q);
            if saved[..checked].contains(&head) {
                continue;
            }
            saved[checked] = head;
            checked += 1;
            counter_captures(pos, q, out);
            if pos.is_legal(liberty) && pos.liberties_after(liberty).0 >= 2 {
                out.add(liberty);
            }
        }
    }
}

/// The captures of opponent chains in atari that touch the chain at `loc`.
fn counter_captures(pos: &Position, loc: Loc, out: &mut Suggestions) {
    let other = pos.cell(loc) ^ 3;
    for stone in pos.stones_of(loc) {
        for q in pos.neighbours(stone) {
            if pos.cell(q) == other
                && let Some(liberty) = pos.atari_liberty(q)
            {
                out.add(liberty);
            }
        }
    }
}

/// The empty points around `near` (its eight neighbours) whose surroundings match
/// a shape.
fn shape_moves(pos: &Position, patterns: &Patterns, near: Loc, out: &mut Suggestions) {
    let around = pos.neighbours(near).into_iter().chain(pos.diagonals(near));
    for q in around {
        if pos.cell(q) == EMPTY && patterns.matches(pos.neighbourhood(q)) {
            out.add(q);
        }
    }
}

/// A random legal move that does not fill one's own eye (with the heuristic style,
/// not a bad self-atari either, but for the odds); `PASS` if there is none.
///
/// Scans the empty points from a random one on: cheaper than drawing again after each
/// refusal, at the price of favouring the points after a run of refused ones.
fn random_move(pos: &Position, style: PlayoutStyle, rng: &mut Rng) -> Loc {
    let empties = pos.empties();
    let colour = pos.to_move();
    let start = rng.below(empties.len());
    let (after, before) = empties.split_at(start);
    for &loc in before.iter().chain(after) {
        if pos.is_eye(loc, colour) || !pos.is_legal(loc) {
            continue;
        }
        if style == PlayoutStyle::Heuristic
            && pos.is_bad_self_atari(loc)
            && rng.below(100) < REFUSE_RANDOM_SELF_ATARI
        {
            continue;
        }
        return loc;
    }
    PASS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Board, Colour, Point};

    fn position(diagram: &str, to_move: Colour, last: (u8, u8)) -> Position {
        let board = Board::from_diagram(diagram).expect("diagram");
        Position::from_board(&board, to_move, [Some(Point::new(last.0, last.1)), None], 0)
    }

    /// The suggestions for the side to move, as (row, col), sorted.
    fn answers(pos: &Position) -> Vec<(u8, u8)> {
        let mut out = Suggestions::new();
        atari_answers(pos, pos.last(), &mut out);
        let mut points: Vec<(u8, u8)> = out.points[..out.len]
            .iter()
            .map(|&l| {
                let p = pos.point(l);
                (p.row(), p.col())
            })
            .collect();
        points.sort_unstable();
        points
    }

    #[test]
    fn atari_answers_capture_and_escape() {
        // White has just played (1, 2), putting itself in atari: black takes it.
        let capture = "
            . . . . .
            . X O X .
            . . X . .
            . . . . .
            . . . . .";
        assert_eq!(answers(&position(capture, Colour::Black, (1, 2))), [(0, 2)]);
        // White's (2, 1) puts black's stone in atari: black extends to three liberties.
        let escape = "
            . . . . .
            . . O . .
            . O X O .
            . . . . .
            . . . . .";
        assert_eq!(answers(&position(escape, Colour::Black, (2, 1))), [(3, 2)]);
        // On the edge, extending from the atari leaves one liberty: no answer.
        let hopeless = "
            . . . . .
            . . . . .
            . . . . .
            O O . . .
            O X . O .";
        let pos = position(hopeless, Colour::Black, (3, 1));
        assert_eq!(answers(&pos), Vec::<(u8, u8)>::new());
    }

    #[test]
    fn a_counter_capture_saves_a_chain() {
        // White's (2, 2) puts black's (1, 2) in atari; the white stone at (0, 2) that
        // touches it is in atari too. Black may take it or extend.
        let diagram = "
            . X O . .
            . O X . .
            . . O . .
            . . . . .
            . . . . .";
        let pos = position(diagram, Colour::Black, (2, 2));
        assert_eq!(answers(&pos), [(0, 3), (1, 3)]);
    }

    #[test]
    fn random_moves_never_fill_own_eyes_and_pass_at_the_end() {
        let diagram = "
            . X . X .
            X X X X X
            X X . X X
            X X X X X
            . X . X .";
        let pos = position(diagram, Colour::Black, (2, 1));
        let patterns = Patterns::new();
        let mut rng = Rng::new(1);
        for style in [PlayoutStyle::Random, PlayoutStyle::Heuristic] {
            for _ in 0..20 {
                assert_eq!(next_move(&pos, &patterns, style, &mut rng), PASS);
            }
        }
        // White has no legal move at all (every point is suicide).
        let white = position(diagram, Colour::White, (2, 1));
        assert_eq!(
            next_move(&white, &patterns, PlayoutStyle::Heuristic, &mut rng),
            PASS
        );
    }
}
