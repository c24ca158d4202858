//! Ladders: whether a chain in atari can run away, or is caught by ataris one after
//! the other until it dies. Playouts play ladders badly (the attacker's one good
//! move at each step is one random move among many), so the priors of a new node ask
//! here instead: running out into a working ladder starts as a loss, starting one
//! against the opponent as a capture.
//!
//! Owns the reading, on copies of the [`Position`]: the defender runs out at its
//! liberty (or counter-captures, which counts as escaping); with three liberties or
//! more it is free, with one it is dead; with two the attacker tries an atari at
//! each, and the ladder works if one of them leaves no escape. The reading is bounded
//! in moves; a ladder longer than that counts as escaping.

use super::position::{LIBERTY_CAP, Loc, PASS, Position};

/// The most moves one reading plays (a ladder across a 25x25 board and its failed
/// side branches fit).
const MAX_MOVES: usize = 200;

/// Whether the chain at `chain`, in atari, of the side to move in `pos`, is caught:
/// running out at its liberty cannot save it (and no capture of an attacking stone
/// gives it liberties).
pub(super) fn is_caught(pos: &Position, chain: Loc) -> bool {
    let mut budget = MAX_MOVES;
    !escapes(pos, chain, &mut budget)
}

/// Whether the opponent's chain at `chain`, with exactly two liberties, is caught in
/// a ladder when the side to move plays an atari at `atari` (one of the two).
pub(super) fn atari_catches(pos: &Position, chain: Loc, atari: Loc) -> bool {
    if !pos.is_legal(atari) || pos.is_bad_self_atari(atari) {
        return false;
    }
    let mut after = pos.clone();
    after.play(atari);
    if after.atari_liberty(chain).is_none() {
        return false;
    }
    let mut budget = MAX_MOVES;
    !escapes(&after, chain, &mut budget)
}

/// Whether the chain at `chain`, in atari, of the side to move in `pos`, escapes;
/// `budget` counts down the moves played (at 0 it escapes).
fn escapes(pos: &Position, chain: Loc, budget: &mut usize) -> bool {
    if *budget == 0 {
        return true;
    }
    let Some(liberty) = pos.atari_liberty(chain) else {
        return true;
    };
    if captures_an_attacker(pos, chain) {
        return true;
    }
    if !pos.is_legal(liberty) {
        return false;
    }
    let mut ran = pos.clone();
    ran.play(liberty);
    *budget -= 1;
    let mut libs = [PASS; LIBERTY_CAP];
    match ran.liberties(chain, &mut libs) {
        0 | 1 => false,
        2 => libs[..2].iter().all(|&atari| {
            // The attacker's atari at `atari`: does the defender escape again?
            if !ran.is_legal(atari) || *budget == 0 {
                return true;
            }
            let mut chased = ran.clone();
            chased.play(atari);
            *budget -= 1;
            // An atari that is itself in atari is taken at once: no ladder there.
            chased.atari_liberty(atari).is_some() || escapes(&chased, chain, budget)
        }),
        _ => true,
    }
}

/// Whether an opponent chain touching the chain at `chain` is in atari (the side to
/// move could take it and gain a liberty).
fn captures_an_attacker(pos: &Position, chain: Loc) -> bool {
    let other = pos.cell(chain) ^ 3;
    pos.stones_of(chain).any(|stone| {
        pos.neighbours(stone)
            .into_iter()
            .any(|q| pos.cell(q) == other && pos.atari_liberty(q).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Board, Colour, Point};

    fn position(diagram: &str, to_move: Colour) -> Position {
        let board = Board::from_diagram(diagram).expect("diagram");
        Position::from_board(&board, to_move, [None, None], 0)
    }

    #[test]
    fn a_ladder_towards_the_edge_works() {
        // Black's stone at (2, 2) is in atari; running out at (3, 2) leaves two
        // liberties, and white chases it to the left edge, where it dies.
        let ladder = "
            . . . . . . .
            . . O . . . .
            . O X O . . .
            . . . O . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let pos = position(ladder, Colour::Black);
        let stone = pos.loc(Point::new(2, 2));
        assert_eq!(pos.atari_liberty(stone), Some(pos.loc(Point::new(3, 2))));
        assert!(is_caught(&pos, stone));
        // Without the white stone at (3, 3), running out gains three liberties.
        let free = ladder.replacen(". . . O . . .", ". . . . . . .", 1);
        let pos = position(&free, Colour::Black);
        assert!(!is_caught(&pos, pos.loc(Point::new(2, 2))));
    }

    #[test]
    fn a_chain_with_a_counter_capture_is_not_caught() {
        // Black's (2, 2) is in atari, but white's (1, 2) is in atari too.
        let diagram = "
            . . X . .
            . X O . .
            . O X O .
            . . . O .
            . . . . .";
        let pos = position(diagram, Colour::Black);
        assert!(!is_caught(&pos, pos.loc(Point::new(2, 2))));
    }

    #[test]
    fn starting_a_ladder() {
        // White's stone at (2, 2) has two liberties; an atari at either drives it
        // into the ladder of the first test (or its mirror image).
        let diagram = "
            . . . . . . .
            . . X . . . .
            . X O . . . .
            . . . X . . .
            . . . . . . .
            . . . . . . .
            . . . . . . .";
        let pos = position(diagram, Colour::Black);
        let stone = pos.loc(Point::new(2, 2));
        assert!(atari_catches(&pos, stone, pos.loc(Point::new(2, 3))));
        assert!(atari_catches(&pos, stone, pos.loc(Point::new(3, 2))));
        // Not an atari at all: a point that is not a liberty.
        assert!(!atari_catches(&pos, stone, pos.loc(Point::new(5, 5))));
    }
}
