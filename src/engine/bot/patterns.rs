//! 3x3 shape patterns: the classic Monte-Carlo Go shapes (hane, cut, edge moves)
//! that make a move worth playing in reply to the last move, as MoGo introduced them
//! (Gelly, Wang, Munos and Teytaud, 2006).
//!
//! Owns the shapes and the table built from them: every 3x3 neighbourhood (eight
//! cells of two bits, as [`Position::neighbourhood`](super::position::Position)
//! writes them) that matches a shape in any rotation, reflection or colour. Knows
//! nothing of legality: the policy asks whether a legal point's surroundings match.

use super::position::{BLACK, EMPTY, WALL, WHITE};

/// The shapes, centred on the empty point to play. `X` and `O` are stones of the two
/// colours (either colour may be to move: every shape also matches with the colours
/// swapped), `.` an empty point, `#` off the board, `x` anything but `X`, `o`
/// anything but `O`, `?` anything.
const SHAPES: [[&str; 3]; 13] = [
    // Hane: reaching round the opponent's stone.
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "x.?"],
    // A diagonal attachment next to one's own stone.
    [".O.", "X..", "..."],
    // Cuts.
    ["XO?", "O.o", "?o?"],
    ["XO?", "O.X", "???"],
    ["?X?", "O.O", "ooo"],
    ["OX?", "o.O", "???"],
    // On the edge: chasing, blocking, the descent, the cut.
    ["X.?", "O.?", "###"],
    ["OX?", "X.O", "###"],
    ["?X?", "x.O", "###"],
    ["?XO", "x.x", "###"],
    ["?OX", "X.O", "###"],
];

/// Every matching neighbourhood, one bit per 16-bit code.
#[derive(Clone, Debug)]
pub(super) struct Patterns {
    /// Bit `code` is set when the neighbourhood `code` matches a shape.
    bits: Vec<u64>,
}

impl Patterns {
    /// The table of every shape in [`SHAPES`], in every orientation and colour.
    pub(super) fn new() -> Patterns {
        let mut patterns = Patterns {
            bits: vec![0; (1 << 16) / 64],
        };
        for shape in SHAPES {
            let grid: Vec<u8> = shape.iter().flat_map(|row| row.bytes()).collect();
            for turned in orientations(&grid) {
                for coloured in [turned.clone(), swap_colours(&turned)] {
                    patterns.add(&coloured);
                }
            }
        }
        patterns
    }

    /// Whether the neighbourhood `code` matches a shape.
    #[inline]
    pub(super) fn matches(&self, code: u16) -> bool {
        let code = usize::from(code);
        self.bits[code / 64] >> (code % 64) & 1 == 1
    }

    /// Sets the bit of every neighbourhood that `grid` (nine symbols, row by row)
    /// matches.
    fn add(&mut self, grid: &[u8]) {
        // The eight neighbours in the order of the code: the centre is left out.
        let cells: Vec<u8> = grid
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != 4)
            .map(|(_, &symbol)| symbol)
            .collect();
        self.expand(&cells, 0, 0);
    }

    /// Sets the bits of every code that agrees with `cells` from the `i`th on,
    /// `code` holding the first `i` cells' choices.
    fn expand(&mut self, cells: &[u8], i: usize, code: u16) {
        let Some(&symbol) = cells.get(i) else {
            let code = usize::from(code);
            self.bits[code / 64] |= 1 << (code % 64);
            return;
        };
        for value in values(symbol) {
            self.expand(cells, i + 1, code | u16::from(*value) << (2 * i));
        }
    }
}

/// The cell contents a symbol stands for.
fn values(symbol: u8) -> &'static [u8] {
    match symbol {
        b'X' => &[BLACK],
        b'O' => &[WHITE],
        b'.' => &[EMPTY],
        b'#' => &[WALL],
        b'x' => &[EMPTY, WHITE, WALL],
        b'o' => &[EMPTY, BLACK, WALL],
        _ => &[EMPTY, BLACK, WHITE, WALL],
    }
}

/// The eight rotations and reflections of a 3x3 grid.
fn orientations(grid: &[u8]) -> Vec<Vec<u8>> {
    let rotate = |g: &[u8]| -> Vec<u8> { (0..9).map(|i| g[(2 - i % 3) * 3 + i / 3]).collect() };
    let mirror = |g: &[u8]| -> Vec<u8> { (0..9).map(|i| g[i / 3 * 3 + 2 - i % 3]).collect() };
    let mut all = Vec::with_capacity(8);
    let mut g = grid.to_vec();
    for _ in 0..4 {
        all.push(mirror(&g));
        g = rotate(&g);
        all.push(g.clone());
    }
    all
}

/// The grid with the colours exchanged.
fn swap_colours(grid: &[u8]) -> Vec<u8> {
    grid.iter()
        .map(|&s| match s {
            b'X' => b'O',
            b'O' => b'X',
            b'x' => b'o',
            b'o' => b'x',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bot::position::Position;
    use crate::engine::go::{Board, Colour, Point};

    /// Whether the neighbourhood of the point at `row`, `col` of a diagram matches.
    fn matches_at(diagram: &str, row: u8, col: u8) -> bool {
        let board = Board::from_diagram(diagram).expect("diagram");
        let pos = Position::from_board(&board, Colour::Black, [None, None], 0);
        Patterns::new().matches(pos.neighbourhood(pos.loc(Point::new(row, col))))
    }

    #[test]
    fn shapes_match_in_every_orientation_and_colour() {
        // A hane: white at the centre's north, black either side of it.
        let hane = ". . . . .\n. X O X .\n. . . . .\n. . . . .\n. . . . .";
        assert!(matches_at(hane, 2, 2));
        // Turned a quarter and with the colours swapped.
        let turned = ". . . . .\n. X . . .\n. O . . .\n. X . . .\n. . . . .";
        let swapped = turned.replace('X', "x").replace('O', "X").replace('x', "O");
        assert!(matches_at(turned, 2, 2));
        assert!(matches_at(&swapped, 2, 2));
        // An empty neighbourhood matches nothing.
        let empty = ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . .";
        assert!(!matches_at(empty, 2, 2));
        // The descent to the edge under one's own stone, next to the opponent's.
        let edge = ". . . . .\n. . . . .\n. . . . .\n. . X O .\n. . . . .";
        assert!(matches_at(edge, 4, 2));
        // A lone stone is no shape.
        let lone = ". . . . .\n. . . . .\n. . X . .\n. . . . .\n. . . . .";
        assert!(!matches_at(lone, 3, 2));
    }

    #[test]
    fn orientations_are_the_eight_symmetries() {
        let grid: Vec<u8> = (b'a'..=b'i').collect();
        let mut all = orientations(&grid);
        all.sort();
        all.dedup();
        assert_eq!(all.len(), 8);
        assert!(all.contains(&grid));
        assert!(all.iter().all(|g| g[4] == b'e'), "the centre stays");
    }
}
