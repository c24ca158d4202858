//! The 36 fields of the triangular board: where each lies, which way it points, who its
//! neighbours are, and its bonus. Geometry only; what lies on a field is the
//! [`Board`](super::Board)'s business.
//!
//! Rows 0 (top) to 5 hold 1, 3, 5, 7, 9 and 11 fields. The protocol numbers a field
//! `row² + rowIndex` (rowIndex 0 at the left). In row r let c = rowIndex − r, so c
//! runs from −r to r and fields with the same c lie in one vertical line:
//!
//! - a field points up when r + c is even (that is, when rowIndex is even); its
//!   neighbours are left (r, c − 1), right (r, c + 1) and bottom (r + 1, c);
//! - a field points down when r + c is odd; its neighbours are left, right and top
//!   (r − 1, c);
//! - neighbours that fall outside the board do not exist.
//!
//! Edges are numbered as in [`orientation`](super::OrientedTile): 0 is the horizontal
//! edge, then counter-clockwise (up: bottom, right, left; down: top, left, right). With
//! this numbering a field and its neighbour across edge e touch with their edge e: an
//! up field's right edge (1) meets a down field's left edge (1), and so on.

use std::fmt;

/// Number of rows.
pub const ROWS: u8 = 6;

/// Number of fields.
pub const FIELDS: usize = 36;

/// A side of a field, as seen on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The slanted edge on the left.
    Left,
    /// The slanted edge on the right.
    Right,
    /// The horizontal edge of a field that points down.
    Top,
    /// The horizontal edge of a field that points up.
    Bottom,
}

impl Side {
    /// The side of the neighbour that touches this side: left meets right, top meets bottom.
    pub fn facing(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
            Side::Top => Side::Bottom,
            Side::Bottom => Side::Top,
        }
    }
}

/// The side in words, e.g. `left`.
impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Left => "left",
            Side::Right => "right",
            Side::Top => "top",
            Side::Bottom => "bottom",
        })
    }
}

/// A field of the board, by its protocol number 0 to 35. Only valid numbers exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Location(u8);

/// The field in row `row` at horizontal position `col` (−row to row), if it exists.
const fn at(row: i32, col: i32) -> Option<Location> {
    if row < 0 || row >= ROWS as i32 || col < -row || col > row {
        return None;
    }
    Some(Location((row * row + row + col) as u8))
}

/// Every field's neighbours by edge number, computed at compile time from the rules in
/// the module doc.
const NEIGHBOURS: [[Option<Location>; 3]; FIELDS] = {
    let mut table = [[None; 3]; FIELDS];
    let mut row = 0;
    while row < ROWS as i32 {
        let mut col = -row;
        while col <= row {
            let points_up = (row + col) % 2 == 0;
            table[(row * row + row + col) as usize] = if points_up {
                // Bottom, right, left.
                [at(row + 1, col), at(row, col + 1), at(row, col - 1)]
            } else {
                // Top, left, right.
                [at(row - 1, col), at(row, col - 1), at(row, col + 1)]
            };
            col += 1;
        }
        row += 1;
    }
    table
};

impl Location {
    /// The field numbered `index`, or `None` unless 0 ≤ `index` ≤ 35. Takes any integer
    /// type, so `-1` and `u64::MAX` are plain `None`s.
    pub fn new<T: TryInto<u8>>(index: T) -> Option<Location> {
        let index: u8 = index.try_into().ok()?;
        (usize::from(index) < FIELDS).then_some(Location(index))
    }

    /// Every field, 0 to 35.
    pub fn all() -> impl Iterator<Item = Location> {
        (0..FIELDS as u8).map(Location)
    }

    /// The protocol number, 0 to 35.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The row, 0 (top, one field) to 5 (bottom, eleven fields).
    pub fn row(self) -> u8 {
        self.0.isqrt()
    }

    /// The position in the row, 0 at the left.
    pub fn index_in_row(self) -> u8 {
        self.0 - self.row() * self.row()
    }

    /// The horizontal position, −row to row: fields with the same column are stacked.
    pub fn column(self) -> i8 {
        // Both fit in 0..=10, so the casts are exact.
        self.index_in_row() as i8 - self.row() as i8
    }

    /// Whether the field points up (a horizontal edge at the bottom) rather than down.
    pub fn points_up(self) -> bool {
        self.index_in_row().is_multiple_of(2)
    }

    /// The field's sides by edge number: bottom, right, left when it points up; top,
    /// left, right when it points down.
    pub fn sides(self) -> [Side; 3] {
        if self.points_up() {
            [Side::Bottom, Side::Right, Side::Left]
        } else {
            [Side::Top, Side::Left, Side::Right]
        }
    }

    /// The neighbours by edge number (see [`sides`](Self::sides)); `None` off the board.
    pub fn neighbours(self) -> [Option<Location>; 3] {
        NEIGHBOURS[self.index() % FIELDS]
    }

    /// The neighbour across `side`; `None` off the board, and for a side this field does
    /// not have (top of an up field, bottom of a down field).
    pub fn neighbour(self, side: Side) -> Option<Location> {
        let edge = self.sides().iter().position(|&s| s == side)?;
        self.neighbours()[edge]
    }

    /// The score multiplier of this field: ×2 at 10, 14, 30; ×3 at 2, 26, 34; ×4 at 11,
    /// 13, 20; ×1 elsewhere.
    pub fn bonus(self) -> u32 {
        match self.0 {
            10 | 14 | 30 => 2,
            2 | 26 | 34 => 3,
            11 | 13 | 20 => 4,
            _ => 1,
        }
    }

    /// Whether the field multiplies scores (bonus above 1).
    pub fn is_bonus(self) -> bool {
        self.bonus() > 1
    }
}

/// The protocol number, e.g. `12`.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Side::*;

    fn loc(index: u8) -> Location {
        Location::new(index).unwrap()
    }

    #[test]
    fn numbers() {
        assert_eq!(Location::new(0).map(Location::index), Some(0));
        assert_eq!(Location::new(35u64).map(Location::index), Some(35));
        for bad in [36i64, -1, 255, 256, i64::MAX, i64::MIN] {
            assert_eq!(Location::new(bad), None, "{bad}");
        }
        assert_eq!(Location::new(u128::MAX), None);
        assert_eq!(Location::all().count(), 36);
        assert_eq!(loc(12).to_string(), "12");
    }

    #[test]
    fn rows_and_columns() {
        // (location, row, index in row, column, points up)
        let cases = [
            (0, 0, 0, 0, true),
            (1, 1, 0, -1, true),
            (2, 1, 1, 0, false),
            (3, 1, 2, 1, true),
            (4, 2, 0, -2, true),
            (8, 2, 4, 2, true),
            (9, 3, 0, -3, true),
            (12, 3, 3, 0, false),
            (15, 3, 6, 3, true),
            (16, 4, 0, -4, true),
            (24, 4, 8, 4, true),
            (25, 5, 0, -5, true),
            (30, 5, 5, 0, false),
            (35, 5, 10, 5, true),
        ];
        for (index, row, in_row, column, up) in cases {
            let l = loc(index);
            assert_eq!(
                (l.row(), l.index_in_row(), l.column(), l.points_up()),
                (row, in_row, column, up),
                "{index}"
            );
        }
        let per_row: Vec<usize> = (0..ROWS)
            .map(|r| Location::all().filter(|l| l.row() == r).count())
            .collect();
        assert_eq!(per_row, [1, 3, 5, 7, 9, 11]);
    }

    /// A field's three sides in edge order, each with its neighbour.
    type Around = [(Side, Option<u8>); 3];

    #[test]
    fn neighbours_at_every_edge_of_the_board() {
        let cases: [(u8, Around); 10] = [
            // Top corner: up, only a bottom neighbour.
            (0, [(Bottom, Some(2)), (Right, None), (Left, None)]),
            // Left end of row 1: up.
            (1, [(Bottom, Some(5)), (Right, Some(2)), (Left, None)]),
            // Middle of row 1: down, under the top corner.
            (2, [(Top, Some(0)), (Left, Some(1)), (Right, Some(3))]),
            // Right end of row 1: up.
            (3, [(Bottom, Some(7)), (Right, None), (Left, Some(2))]),
            // Left end of row 3: up.
            (9, [(Bottom, Some(17)), (Right, Some(10)), (Left, None)]),
            // Second of row 3: down.
            (10, [(Top, Some(4)), (Left, Some(9)), (Right, Some(11))]),
            // Right end of row 4: up.
            (24, [(Bottom, Some(34)), (Right, None), (Left, Some(23))]),
            // Bottom row, left corner: up, nothing below.
            (25, [(Bottom, None), (Right, Some(26)), (Left, None)]),
            // Bottom row, down: a top neighbour.
            (26, [(Top, Some(16)), (Left, Some(25)), (Right, Some(27))]),
            // Bottom row, right corner.
            (35, [(Bottom, None), (Right, None), (Left, Some(34))]),
        ];
        for (index, expected) in cases {
            let l = loc(index);
            let sides = l.sides();
            for (edge, (side, neighbour)) in expected.into_iter().enumerate() {
                assert_eq!(sides[edge], side, "{index} edge {edge}");
                assert_eq!(
                    l.neighbours()[edge].map(Location::index),
                    neighbour.map(usize::from),
                    "{index} {side}"
                );
                assert_eq!(l.neighbour(side), l.neighbours()[edge], "{index} {side}");
            }
        }
        // Sides a field does not have.
        assert_eq!(loc(0).neighbour(Top), None);
        assert_eq!(loc(2).neighbour(Bottom), None);
    }

    #[test]
    fn neighbours_are_mutual_and_touch_with_the_same_edge() {
        let mut pairs = 0;
        for l in Location::all() {
            for (edge, n) in l.neighbours().into_iter().enumerate() {
                let Some(n) = n else { continue };
                assert_ne!(l.points_up(), n.points_up(), "{l} {n}");
                assert_eq!(n.neighbours()[edge], Some(l), "{l} {n}");
                assert_eq!(n.sides()[edge], l.sides()[edge].facing(), "{l} {n}");
                pairs += 1;
            }
        }
        // 36 triangles in a triangle of side 6 have 3 * 6 * 5 / 2 = 45 inner edges.
        assert_eq!(pairs, 2 * 45);
    }

    #[test]
    fn bonuses() {
        let bonus: Vec<(usize, u32)> = Location::all()
            .filter(|l| l.is_bonus())
            .map(|l| (l.index(), l.bonus()))
            .collect();
        assert_eq!(
            bonus,
            [
                (2, 3),
                (10, 2),
                (11, 4),
                (13, 4),
                (14, 2),
                (20, 4),
                (26, 3),
                (30, 2),
                (34, 3)
            ]
        );
        assert_eq!(loc(12).bonus(), 1);
        assert!(!loc(0).is_bonus());
    }
}
