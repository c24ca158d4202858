//! Points of the board and the two ways of naming them: protocol index and vertex.

/// Column letters as Go players write them: `I` is skipped so it is not read as `J` or `1`.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point of the board, by row and column, counted from the top-left corner.
///
/// A `Point` is not tied to a board size: it may lie off a given board, which
/// [`Game::play`](super::Game::play) reports as an error rather than a panic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Point {
    /// Row, 0 is the top row.
    row: u8,
    /// Column, 0 is the left column.
    col: u8,
}

impl Point {
    /// The point at `row` (0 is the top row) and `col` (0 is the left column).
    pub fn new(row: u8, col: u8) -> Point {
        Point { row, col }
    }

    /// The row, 0 being the top row.
    pub fn row(self) -> u8 {
        self.row
    }

    /// The column, 0 being the left column.
    pub fn col(self) -> u8 {
        self.col
    }

    /// The point with protocol index `index` (`row * size + col`) on a board of `size`.
    ///
    /// `None` when `index` is negative or not below `size * size`.
    pub fn from_index(index: i64, size: usize) -> Option<Point> {
        let size = i64::try_from(size).ok()?;
        if size == 0 || index < 0 || index >= size.checked_mul(size)? {
            return None;
        }
        let row = u8::try_from(index / size).ok()?;
        let col = u8::try_from(index % size).ok()?;
        Some(Point { row, col })
    }

    /// The protocol index of this point on a board of `size`: `row * size + col`.
    pub fn index(self, size: usize) -> usize {
        usize::from(self.row) * size + usize::from(self.col)
    }

    /// Whether this point lies on a board of `size`.
    pub fn is_on_board(self, size: usize) -> bool {
        usize::from(self.row) < size && usize::from(self.col) < size
    }

    /// The point as a Go player names it on a board of `size`, e.g. `"A9"` for the
    /// top-left point of a 9x9 board: column letter (skipping `I`), then the row
    /// counted from the bottom.
    ///
    /// A point off the board is named `"row R column C"` instead.
    pub fn vertex(self, size: usize) -> String {
        match COLUMN_LETTERS.get(usize::from(self.col)) {
            Some(&letter) if self.is_on_board(size) => {
                format!("{}{}", char::from(letter), size - usize::from(self.row))
            }
            _ => format!("row {} column {}", self.row, self.col),
        }
    }
}

impl Point {
    /// The point a Go player names `text` (`"D4"`, `"d4"`: column letter, `I` skipped,
    /// then the row counted from the bottom) on a board of `size`; the inverse of
    /// [`Point::vertex`]. `None` for anything else, or a point off the board.
    pub fn from_vertex(text: &str, size: usize) -> Option<Point> {
        let mut chars = text.trim().chars();
        let letter = chars.next()?.to_ascii_uppercase();
        let col = COLUMN_LETTERS
            .iter()
            .position(|&b| char::from(b) == letter)?;
        let from_bottom: usize = chars.as_str().parse().ok()?;
        if col >= size || from_bottom == 0 || from_bottom > size {
            return None;
        }
        Some(Point::new(
            u8::try_from(size - from_bottom).ok()?,
            u8::try_from(col).ok()?,
        ))
    }
}

/// The column letter for column `col` (0-based, `I` skipped), or `'?'` beyond `Z`.
pub(crate) fn column_letter(col: usize) -> char {
    COLUMN_LETTERS.get(col).map_or('?', |&b| char::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertex_names() {
        let cases = [
            (0, 0, 9, "A9"),
            (8, 0, 9, "A1"),
            (8, 8, 9, "J1"),
            (0, 7, 9, "H9"),
            (0, 8, 19, "J19"),
            (18, 18, 19, "T1"),
            (4, 4, 9, "E5"),
            (0, 24, 25, "Z25"),
            (1, 1, 2, "B1"),
        ];
        for (row, col, size, name) in cases {
            assert_eq!(
                Point::new(row, col).vertex(size),
                name,
                "{row},{col} on {size}"
            );
        }
        assert_eq!(Point::new(9, 0).vertex(9), "row 9 column 0");
        assert_eq!(Point::new(0, 30).vertex(40), "row 0 column 30");
        assert!(!Point::new(255, 255).vertex(0).is_empty());
    }

    #[test]
    fn vertices_are_read_back() {
        for size in [2, 5, 9, 19, 25] {
            for row in 0..size as u8 {
                for col in 0..size as u8 {
                    let point = Point::new(row, col);
                    assert_eq!(Point::from_vertex(&point.vertex(size), size), Some(point));
                }
            }
        }
        for wrong in ["", "A", "I5", "A0", "A10", "K1", "5A", "A-1"] {
            assert_eq!(Point::from_vertex(wrong, 9), None, "{wrong}");
        }
        assert_eq!(Point::from_vertex("d4", 5), Some(Point::new(1, 3)));
    }

    #[test]
    fn indexes() {
        assert_eq!(Point::from_index(0, 9), Some(Point::new(0, 0)));
        assert_eq!(Point::from_index(80, 9), Some(Point::new(8, 8)));
        assert_eq!(Point::from_index(12, 9), Some(Point::new(1, 3)));
        assert_eq!(Point::from_index(81, 9), None);
        assert_eq!(Point::from_index(-1, 9), None);
        assert_eq!(Point::from_index(i64::MIN, 9), None);
        assert_eq!(Point::from_index(i64::MAX, 9), None);
        assert_eq!(Point::from_index(0, 0), None);
        assert_eq!(Point::from_index(5, usize::MAX), None);
        for size in [2, 9, 19, 25] {
            for i in 0..size * size {
                let p = Point::from_index(i as i64, size).expect("in range");
                assert_eq!(p.index(size), i);
            }
        }
        assert_eq!(column_letter(8), 'J');
        assert_eq!(column_letter(25), '?');
    }
}
