//! One-point eyes: the points a player never fills, in playouts or at the root.
//!
//! Owns the definition of an eye and nothing else: no search, no randomness.

use crate::engine::go::{Board, Colour, IllegalMove, Point};

/// Whether the empty point `p` is an eye of `colour`: every neighbour on the board is a
/// stone of `colour`, and the opponent may not play there because it would be suicide.
///
/// Filling such a point only takes a liberty from one's own stones. When the opponent
/// could play there (it would capture a chain in atari), the eye is false and filling it
/// may save that chain, so it does not count as an eye.
pub(super) fn is_eye(board: &Board, colour: Colour, p: Point) -> bool {
    neighbours(p, board.size()).all(|q| board.get(q) == Some(colour))
        && matches!(
            board.predict(colour.opponent(), p, false),
            Err(IllegalMove::Suicide { .. })
        )
}

/// The two to four neighbours of `p` on a board of `size`.
fn neighbours(p: Point, size: usize) -> impl Iterator<Item = Point> {
    let (row, col) = (p.row(), p.col());
    // Off-board neighbours wrap to 255 or pass `size` and are filtered out.
    [
        (row.wrapping_sub(1), col),
        (row.wrapping_add(1), col),
        (row, col.wrapping_sub(1)),
        (row, col.wrapping_add(1)),
    ]
    .into_iter()
    .map(|(r, c)| Point::new(r, c))
    .filter(move |q| q.is_on_board(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eyes() {
        use Colour::{Black, White};
        // (diagram, colour, row, col, is an eye)
        let table: &[(&str, Colour, u8, u8, bool)] = &[
            // A corner eye and a side eye of a living black group.
            ("X X X\n. X .\nX X X", Black, 1, 0, true),
            ("X X X\n. X .\nX X X", Black, 1, 2, true),
            ("X X X\n. X .\nX X X", White, 1, 0, false),
            ("X X .\nX . X\n. X X", Black, 1, 1, true),
            ("X X .\nX . X\n. X X", Black, 0, 2, true),
            // An empty neighbour: not an eye yet.
            (". X .\nX . .\n. . .", Black, 0, 0, true),
            (". X .\nX . .\n. . .", Black, 1, 1, false),
            // A white neighbour.
            (". X .\nX . O\n. X .", Black, 1, 1, false),
            // False eye: the black stone at the top is in atari with the eye as its
            // last liberty, so white may play there and capture it.
            (". X O .\nX . X O\nO X O .\n. O . .", Black, 1, 1, false),
            // The same shape once no black stone around it is in atari: a real eye.
            (". X . .\nX . X O\n. X O .\n. O . .", Black, 1, 1, true),
            // 2x2: the corner next to a lone stone is not surrounded; the last liberty
            // of a chain is no eye either, since white may take it and capture.
            ("X .\n. .", Black, 0, 1, false),
            ("X .\nX X", Black, 0, 1, false),
        ];
        for &(diagram, colour, row, col, want) in table {
            let board = Board::from_diagram(diagram).expect(diagram);
            assert_eq!(
                is_eye(&board, colour, Point::new(row, col)),
                want,
                "{colour} at {row},{col} of\n{diagram}"
            );
        }
    }

    #[test]
    fn neighbours_stay_on_the_board() {
        let count = |row, col, size| neighbours(Point::new(row, col), size).count();
        assert_eq!(count(0, 0, 2), 2);
        assert_eq!(count(0, 1, 3), 3);
        assert_eq!(count(1, 1, 3), 4);
        assert_eq!(count(24, 24, 25), 2);
        let around: Vec<Point> = neighbours(Point::new(2, 0), 3).collect();
        assert_eq!(around, [Point::new(1, 0), Point::new(2, 1)]);
    }
}
