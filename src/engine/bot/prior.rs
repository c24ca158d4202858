//! The moves of a new node of the tree and the priors they start from: what the
//! heuristics think of each move before any simulation has tried it.
//!
//! Owns the list of moves considered in a position (every legal point that does not
//! fill one's own eye, and passing) and the weight of each hint, in pretend
//! simulations, as michi sets them: every move starts even (10 simulations at one
//! half); captures, escapes from atari, ataris that start a working ladder, 3x3
//! shapes and closeness to the last move (in common-fate-graph distance, where a
//! chain counts as one point) add wins; a bad self-atari, running out into a working
//! ladder and a first- or second-line move in an empty area add losses, a third-line
//! move there adds wins.
//!
//! A pass that ends the game is valued exactly by the area score. Any other pass
//! starts as a sure loss while a sensible move is left (one that is not a bad
//! self-atari): under area scoring such a move costs nothing, and a bot that passes
//! a lost game away gives up its chances and its stones. With only bad self-ataris
//! left (a seki, say), the pass starts even with the moves.

use std::collections::VecDeque;

use super::area::AreaCounter;
use super::ladder;
use super::patterns::Patterns;
use super::position::{BLACK, EMPTY, Loc, PASS, Position, WALL, WHITE};
use super::reward::reward;
use super::tree::Edge;
use crate::engine::go::Komi;

/// Every move starts as this many simulations at one half.
const EVEN: f32 = 10.0;
/// Wins for capturing one stone.
const CAPTURE_ONE: f32 = 15.0;
/// Wins for capturing more than one stone, or saving a chain of more than one.
const CAPTURE_MANY: f32 = 30.0;
/// Wins for saving one stone from atari.
const ESCAPE_ONE: f32 = 10.0;
/// Wins for a 3x3 shape.
const SHAPE: f32 = 10.0;
/// Wins by common-fate-graph distance to the last move: 1, 2, 3.
const NEAR_LAST: [f32; 3] = [24.0, 22.0, 8.0];
/// Losses for a self-atari of more than one stone, or for running out into a working
/// ladder.
const SELF_ATARI: f32 = 10.0;
/// Losses (first and second line) or wins (third line) far from every stone.
const EMPTY_AREA: f32 = 10.0;
/// How far (in Manhattan distance) an area must be empty for [`EMPTY_AREA`].
const EMPTY_AREA_REACH: i32 = 3;
/// Boards smaller than this have no opening lines to speak of: no empty-area prior.
const EMPTY_AREA_MIN_SIZE: usize = 7;
/// The pretend simulations of a pass that does not end the game while a sensible move
/// is left, all of them losses.
const PASS_LOSSES: f32 = 30.0;
/// The weight of the exact value of a pass that ends the game.
const TERMINAL_WEIGHT: f32 = 1000.0;

/// Scratch space for making the edges of new nodes.
#[derive(Clone, Debug, Default)]
pub(super) struct Priors {
    /// Per cell, the common-fate-graph distance from the last move (`u8::MAX`: far).
    distance: Vec<u8>,
    /// The breadth-first queue of the distance count.
    queue: VecDeque<Loc>,
    /// Per cell, the hint wins and pretend simulations added so far.
    bonus: Vec<(f32, f32)>,
    /// The exact score of a pass that ends the game.
    area: AreaCounter,
}

impl Priors {
    /// The edges of a new node at `pos`: every legal point that does not fill the
    /// mover's own eye, then the pass. With `hints`, each starts from the heuristics'
    /// priors; without, every move starts even (and the pass as always).
    pub(super) fn edges(
        &mut self,
        pos: &Position,
        patterns: &Patterns,
        hints: bool,
        komi: Komi,
        out: &mut Vec<Edge>,
    ) {
        out.clear();
        let colour = pos.to_move();
        if hints {
            self.bonus.clear();
            self.bonus.resize(pos.cells_len(), (0.0, 0.0));
            self.atari_hints(pos);
            self.distances(pos);
        }
        let mut sensible = false;
        for &loc in pos.empties() {
            if pos.is_eye(loc, colour) || !pos.is_legal(loc) {
                continue;
            }
            let bad_self_atari = pos.is_bad_self_atari(loc);
            sensible |= !bad_self_atari;
            let (mut wins, mut weight) = (EVEN / 2.0, EVEN);
            if hints {
                let (w, n) = self.hints(pos, patterns, loc, bad_self_atari);
                wins += w;
                weight += n;
            }
            out.push(Edge::new(loc, weight, wins / weight));
        }
        out.push(self.pass_edge(pos, komi, sensible));
    }

    /// The pass: exact when it ends the game; else a sure loss while a sensible move
    /// is left, and even with the moves when none is.
    fn pass_edge(&mut self, pos: &Position, komi: Komi, sensible: bool) -> Edge {
        if pos.passes() >= 1 {
            let (black, white) = self.area.area(pos);
            let points = pos.size() * pos.size();
            let value = reward(black, white, komi, pos.to_move(), points) as f32;
            let mut edge = Edge::new(PASS, TERMINAL_WEIGHT, value);
            edge.terminal = true;
            edge
        } else if sensible {
            Edge::new(PASS, PASS_LOSSES, 0.0)
        } else {
            Edge::new(PASS, EVEN, 0.5)
        }
    }

    /// The hints about `loc` but the atari ones: (wins, pretend simulations).
    fn hints(
        &self,
        pos: &Position,
        patterns: &Patterns,
        loc: Loc,
        bad_self_atari: bool,
    ) -> (f32, f32) {
        let (mut wins, mut weight) = self.bonus[usize::from(loc)];
        let mut add = |w: f32, n: f32| {
            wins += w;
            weight += n;
        };
        if let Some(&near) =
            NEAR_LAST.get(usize::from(self.distance[usize::from(loc)]).wrapping_sub(1))
        {
            add(near, near);
        }
        if patterns.matches(pos.neighbourhood(loc)) {
            add(SHAPE, SHAPE);
        }
        if bad_self_atari {
            add(0.0, SELF_ATARI);
        }
        if pos.size() >= EMPTY_AREA_MIN_SIZE && pos.line(loc) <= 2 && is_empty_area(pos, loc) {
            if pos.line(loc) <= 1 {
                add(0.0, EMPTY_AREA);
            } else {
                add(EMPTY_AREA, EMPTY_AREA);
            }
        }
        (wins, weight)
    }

    /// Adds the atari hints of the whole board to `bonus`: the capture of every
    /// opponent chain in atari and the atari that catches an opponent chain of two
    /// liberties in a ladder; for every own chain in atari, the captures that save it
    /// and the extension that leaves it two liberties or more, unless a ladder
    /// catches it anyway (then the extension counts as a loss).
    fn atari_hints(&mut self, pos: &Position) {
        let own = pos.to_move().number();
        for &head in &chain_heads(pos) {
            let stones = pos.chain_stones(head);
            let weight = if stones > 1 {
                CAPTURE_MANY
            } else {
                CAPTURE_ONE
            };
            let Some(liberty) = pos.atari_liberty(head) else {
                if pos.cell(head) != own {
                    let mut libs = [PASS; 3];
                    if pos.liberties(head, &mut libs) == 2 {
                        for atari in [libs[0], libs[1]] {
                            if ladder::atari_catches(pos, head, atari) {
                                self.add_bonus(atari, weight);
                            }
                        }
                    }
                }
                continue;
            };
            if pos.cell(head) != own {
                self.add_bonus(liberty, weight);
                continue;
            }
            // Saving it: counter-captures, or running out if that gains liberties.
            let save = if stones > 1 { CAPTURE_MANY } else { ESCAPE_ONE };
            let other = own ^ 3;
            for stone in pos.stones_of(head) {
                for q in pos.neighbours(stone) {
                    if pos.cell(q) == other
                        && let Some(capture) = pos.atari_liberty(q)
                    {
                        self.add_bonus(capture, save);
                    }
                }
            }
            if pos.is_legal(liberty) && pos.liberties_after(liberty).0 >= 2 {
                if ladder::is_caught(pos, head) {
                    self.bonus[usize::from(liberty)].1 += SELF_ATARI;
                } else {
                    self.add_bonus(liberty, save);
                }
            }
        }
    }

    /// Counts `weight` pretend wins for `loc`.
    fn add_bonus(&mut self, loc: Loc, weight: f32) {
        let bonus = &mut self.bonus[usize::from(loc)];
        bonus.0 += weight;
        bonus.1 += weight;
    }

    /// Fills `distance` with the common-fate-graph distance of every point from the
    /// last move: a step to a neighbour costs one, except within a chain, which is
    /// one point. Everything is far when the last move was a pass.
    fn distances(&mut self, pos: &Position) {
        self.distance.clear();
        self.distance.resize(pos.cells_len(), u8::MAX);
        let last = pos.last();
        if last == PASS {
            return;
        }
        self.distance[usize::from(last)] = 0;
        self.queue.clear();
        self.queue.push_back(last);
        while let Some(s) = self.queue.pop_front() {
            let d = self.distance[usize::from(s)];
            if usize::from(d) >= NEAR_LAST.len() {
                continue;
            }
            let cell = pos.cell(s);
            for q in pos.neighbours(s) {
                let qc = pos.cell(q);
                if qc == WALL {
                    continue;
                }
                // Within a chain the distance does not grow: those go to the front.
                let same_chain = matches!(cell, BLACK | WHITE) && qc == cell;
                let dq = if same_chain { d } else { d + 1 };
                if dq < self.distance[usize::from(q)] {
                    self.distance[usize::from(q)] = dq;
                    if same_chain {
                        self.queue.push_front(q);
                    } else {
                        self.queue.push_back(q);
                    }
                }
            }
        }
    }
}

/// One stone of every chain on the board: its head.
fn chain_heads(pos: &Position) -> Vec<Loc> {
    let mut heads: Vec<Loc> = pos
        .points()
        .filter(|&l| matches!(pos.cell(l), BLACK | WHITE) && pos.head(l) == l)
        .collect();
    heads.sort_unstable();
    heads
}

/// Whether no stone lies within [`EMPTY_AREA_REACH`] (Manhattan distance) of `loc`.
fn is_empty_area(pos: &Position, loc: Loc) -> bool {
    let p = pos.point(loc);
    let n = pos.size() as i32;
    let (row, col) = (i32::from(p.row()), i32::from(p.col()));
    for dr in -EMPTY_AREA_REACH..=EMPTY_AREA_REACH {
        let reach = EMPTY_AREA_REACH - dr.abs();
        for dc in -reach..=reach {
            let (r, c) = (row + dr, col + dc);
            if (0..n).contains(&r) && (0..n).contains(&c) {
                let q = pos.loc(crate::engine::go::Point::new(r as u8, c as u8));
                if pos.cell(q) != EMPTY {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Board, Colour, Point};

    fn position(diagram: &str, to_move: Colour, last: Option<(u8, u8)>, passes: u8) -> Position {
        let board = Board::from_diagram(diagram).expect("diagram");
        let last = last.map(|(r, c)| Point::new(r, c));
        Position::from_board(&board, to_move, [last, None], passes)
    }

    /// The edges of a position, by (row, col) (passes as (99, 99)).
    fn edges(pos: &Position, hints: bool) -> Vec<((u8, u8), Edge)> {
        let mut out = Vec::new();
        Priors::default().edges(pos, &Patterns::new(), hints, Komi::from_halves(0), &mut out);
        out.into_iter()
            .map(|e| {
                let at = if e.mv == PASS {
                    (99, 99)
                } else {
                    let p = pos.point(e.mv);
                    (p.row(), p.col())
                };
                (at, e)
            })
            .collect()
    }

    fn mean_at(edges: &[((u8, u8), Edge)], at: (u8, u8)) -> f32 {
        edges
            .iter()
            .find(|(p, _)| *p == at)
            .map(|(_, e)| e.mean)
            .unwrap_or_else(|| panic!("no edge at {at:?}"))
    }

    #[test]
    fn captures_and_escapes_start_high_self_ataris_low() {
        // White's (1, 2) is in atari: taking it at (0, 2) starts high; (5, 5), on the
        // second line far from every stone, starts low.
        let diagram = "
            . . . . . . .
            . X O X . . .
            . . X . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let pos = position(diagram, Colour::Black, Some((1, 3)), 0);
        let edges = edges(&pos, true);
        let capture = mean_at(&edges, (0, 2));
        let elsewhere = mean_at(&edges, (5, 5));
        assert!(capture > 0.7, "{capture}");
        assert!(elsewhere <= 0.5, "{elsewhere}");
        // No eyes and no occupied points among the moves; the pass is last.
        assert!(edges.iter().all(|(p, _)| *p != (1, 1)));
        assert_eq!(edges.last().map(|(p, _)| *p), Some((99, 99)));
        assert!(!edges.last().is_some_and(|(_, e)| e.terminal));
        // Without hints, every move is even.
        let plain = edges_plain(&pos);
        assert!(
            plain
                .iter()
                .filter(|(p, _)| *p != (99, 99))
                .all(|(_, e)| e.mean == 0.5)
        );
    }

    fn edges_plain(pos: &Position) -> Vec<((u8, u8), Edge)> {
        edges(pos, false)
    }

    #[test]
    fn ladders_in_the_priors() {
        let bonus = |pos: &Position, at: (u8, u8)| {
            let mut priors = Priors::default();
            priors.bonus.resize(pos.cells_len(), (0.0, 0.0));
            priors.atari_hints(pos);
            priors.bonus[usize::from(pos.loc(Point::new(at.0, at.1)))]
        };
        // Black's stone at (2, 2) is in atari in a working ladder: running out at
        // (3, 2) gains two liberties, but counts as losses.
        let caught = "
            . . . . . . .
            . . O . . . .
            . O X O . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let pos = position(caught, Colour::Black, None, 0);
        assert_eq!(bonus(&pos, (3, 2)), (0.0, SELF_ATARI));
        // Without the white stone at (3, 3) the ladder is no ladder: an escape.
        let free = caught.replacen(". . . O . . .", ". . . . . . .", 1);
        let pos = position(&free, Colour::Black, None, 0);
        assert_eq!(bonus(&pos, (3, 2)), (ESCAPE_ONE, ESCAPE_ONE));
        // White's stone at (2, 2) has two liberties, and an atari at either starts a
        // working ladder: both count as captures.
        let chased = "
            . . . . . . .
            . . X . . . .
            . X O . . . .
            . . . X . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let pos = position(chased, Colour::Black, None, 0);
        for at in [(2, 3), (3, 2)] {
            assert_eq!(bonus(&pos, at), (CAPTURE_ONE, CAPTURE_ONE), "{at:?}");
        }
    }

    #[test]
    fn a_pass_after_a_pass_is_valued_exactly() {
        // Black owns the left, white the right, the middle column is dame: after
        // white's pass, black's pass ends the game at 10 points each, a draw.
        let diagram = ". X . O .\nX X . O O\n. X . O .\nX X . O O\n. X . O .";
        let pos = position(diagram, Colour::Black, None, 1);
        let edges = edges(&pos, true);
        let (_, pass) = edges.last().expect("a pass");
        assert!(pass.terminal);
        assert_eq!(pass.mv, PASS);
        // A draw: 0.5 for the result, a margin of 0.
        assert!((pass.mean - 0.5).abs() < 1e-6, "{}", pass.mean);
    }

    #[test]
    fn distances_contract_chains() {
        let diagram = "
            . . . . .
            . X X X .
            . . . . .
            . . . . .
            . . . . .";
        let pos = position(diagram, Colour::White, Some((1, 1)), 0);
        let mut priors = Priors::default();
        priors.distances(&pos);
        let d = |r, c| priors.distance[usize::from(pos.loc(Point::new(r, c)))];
        assert_eq!(d(1, 1), 0);
        assert_eq!(d(1, 3), 0, "the same chain");
        assert_eq!(d(1, 4), 1, "next to the chain's far end");
        assert_eq!(d(2, 4), 2);
        assert_eq!(d(4, 4), u8::MAX, "beyond 3");
    }
}
