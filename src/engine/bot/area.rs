//! The area score of a [`Position`]: Tromp-Taylor, every stone counting as alive, as
//! the game will be scored (no dead-stone marking).
//!
//! Owns the scratch space of the count, so that scoring a playout allocates nothing.

use super::position::{BLACK, EMPTY, Loc, Position, WALL, WHITE};

/// A reusable area counter.
#[derive(Clone, Debug, Default)]
pub(super) struct AreaCounter {
    /// Per cell, the number of the count that last visited it.
    seen: Vec<u32>,
    /// The number of the current count.
    count: u32,
    /// Points of the region being filled.
    stack: Vec<Loc>,
}

impl AreaCounter {
    /// The area of `pos` without komi, as (black, white): stones plus the empty
    /// regions that touch only that colour.
    pub(super) fn area(&mut self, pos: &Position) -> (u32, u32) {
        if self.seen.len() != pos.cells_len() {
            self.seen = vec![0; pos.cells_len()];
            self.count = 0;
        }
        self.count = self.count.wrapping_add(1);
        if self.count == 0 {
            // After 2^32 counts the marks would be ambiguous: start them afresh.
            self.seen.fill(0);
            self.count = 1;
        }
        let mut points = [
            pos.stones(crate::engine::go::Colour::Black),
            pos.stones(crate::engine::go::Colour::White),
        ];
        for &start in pos.empties() {
            if self.seen[usize::from(start)] == self.count {
                continue;
            }
            self.seen[usize::from(start)] = self.count;
            self.stack.push(start);
            let (mut region, mut borders) = (0u32, 0u8);
            while let Some(s) = self.stack.pop() {
                region += 1;
                for q in pos.neighbours(s) {
                    match pos.cell(q) {
                        EMPTY if self.seen[usize::from(q)] != self.count => {
                            self.seen[usize::from(q)] = self.count;
                            self.stack.push(q);
                        }
                        EMPTY | WALL => {}
                        c => borders |= c,
                    }
                }
            }
            match borders {
                BLACK => points[0] += region,
                WHITE => points[1] += region,
                _ => {}
            }
        }
        (points[0], points[1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Board, Colour};

    #[test]
    fn area_matches_the_rules_engine() {
        let diagrams = [
            ". X . O .\nX X . O O\n. X . O .\nX X . O O\n. X . O .",
            ". . .\n. . .\n. . .",
            ". X .\nX . O\n. O .",
            "X .\n. O",
        ];
        let mut counter = AreaCounter::default();
        for diagram in diagrams {
            let board = Board::from_diagram(diagram).expect("diagram");
            let pos = Position::from_board(&board, Colour::Black, [None, None], 0);
            assert_eq!(counter.area(&pos), board.area(), "{diagram}");
            assert_eq!(counter.area(&pos), board.area(), "again: {diagram}");
        }
    }
}
