//! The board drawn as text for the operator console ([`Board::render`]).

use super::{Board, Location, ROWS};

/// Characters between two slanted edges: room for `RRY0x4`.
const CELL: usize = 6;

/// What one field shows: its tile, or its number when empty; `x2` to `x4` after it on a
/// bonus field.
fn label(board: &Board, location: Location) -> String {
    let mut text = match board.get(location) {
        Some(tile) => tile.to_string(),
        None => location.to_string(),
    };
    if location.is_bonus() {
        text.push_str(&format!("x{}", location.bonus()));
    }
    format!("{text:^CELL$}")
}

impl Board {
    /// The triangle as text, one line per row, no trailing newline.
    ///
    /// Legend: `/` and `\` are the slanted edges, so a field between `/` and `\` points
    /// up and one between `\` and `/` points down; fields in one vertical line are
    /// stacked as on the board (an up field's bottom neighbour is right below it). An
    /// empty field shows its location (0 to 35), a placed one its tile as dealt with the
    /// digit of its rotation (`RRY0`, as in `UPDATE`); `x2`, `x3` or `x4` after it marks
    /// a bonus field. The first rows of a board with `RRY0` at 0 and `GGR2` at 2:
    ///
    /// ```text
    ///                                    / RRY0 \
    ///                             /  1   \GGR2x3/  3   \
    ///                      /  4   \  5   /  6   \  7   /  8   \
    /// ```
    pub fn render(&self) -> String {
        let mut lines = Vec::new();
        for row in 0..ROWS {
            let fields: Vec<Location> = Location::all().filter(|l| l.row() == row).collect();
            // Each field takes a slash and a cell; row r starts 5 - r fields to the right,
            // so that fields with the same column are stacked.
            let mut line = " ".repeat(usize::from(ROWS - 1 - row) * (CELL + 1));
            for &location in &fields {
                line.push(if location.points_up() { '/' } else { '\\' });
                line.push_str(&label(self, location));
            }
            // The last field of a row points up: close it with its right edge.
            line.push('\\');
            lines.push(line);
        }
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::testing::{loc, oriented};

    #[test]
    fn empty_board() {
        let expected = [
            r"                                   /  0   \",
            r"                            /  1   \ 2x3  /  3   \",
            r"                     /  4   \  5   /  6   \  7   /  8   \",
            r"              /  9   \ 10x2 / 11x4 \  12  / 13x4 \ 14x2 /  15  \",
            r"       /  16  \  17  /  18  \  19  / 20x4 \  21  /  22  \  23  /  24  \",
            r"/  25  \ 26x3 /  27  \  28  /  29  \ 30x2 /  31  \  32  /  33  \ 34x3 /  35  \",
        ]
        .join("\n");
        assert_eq!(Board::new().render(), expected);
    }

    #[test]
    fn placed_tiles() {
        let mut board = Board::new();
        board.put(oriented("RRY0"), loc(0));
        board.put(oriented("GGR2"), loc(2));
        board.put(oriented("WWW0"), loc(35));
        let text = board.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], r"                                   / RRY0 \");
        assert_eq!(
            lines[1],
            r"                            /  1   \GGR2x3/  3   \"
        );
        assert!(lines[5].ends_with(r"\ 34x3 / WWW0 \"), "{}", lines[5]);
        assert_eq!(lines.len(), 6);
        assert!(!text.ends_with('\n') && !text.contains('+'));
        assert!(lines.iter().all(|l| l.len() <= 80 && !l.ends_with(' ')));
    }
}
