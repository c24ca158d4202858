//! Text pictures of a board: the plain diagram (`Display` and its inverse
//! [`Board::from_diagram`]) and the labelled picture for the operator console
//! ([`Board::render`]).

use std::fmt;

use super::point::column_letter;
use super::{Board, Colour, Point};

/// The diagram character for a point's contents.
fn symbol(stone: Option<Colour>) -> char {
    match stone {
        None => '.',
        Some(Colour::Black) => 'X',
        Some(Colour::White) => 'O',
    }
}

/// One row per line, points separated by single spaces: `.` empty, `X` black, `O` white.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        for row in 0..size {
            if row > 0 {
                writeln!(f)?;
            }
            for col in 0..size {
                if col > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", symbol(self.get(Point::new(row as u8, col as u8))))?;
            }
        }
        Ok(())
    }
}

impl Board {
    /// Reads a diagram as written by `Display`: one row per line, `.` `X` `O`
    /// separated by spaces. Blank lines and surrounding whitespace are ignored.
    /// Stones are placed as drawn, without captures.
    ///
    /// # Errors
    /// A message naming the problem: an unknown character, ragged rows, a size
    /// out of range, or a chain without liberties.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let mut rows = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let row = line
                .split_whitespace()
                .map(|token| match token {
                    "." => Ok(None),
                    "X" => Ok(Some(Colour::Black)),
                    "O" => Ok(Some(Colour::White)),
                    other => Err(format!(
                        "unexpected {other:?} in row {}: use '.', 'X' or 'O'",
                        rows.len() + 1
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(row);
        }
        Board::from_rows(&rows)
    }

    /// Reads a board written by [`Board::to_protocol_string`] (one digit a point, row
    /// by row: `0` empty, `1` black, `2` white) on a `size` board: its inverse.
    /// Stones are placed as written, without captures.
    ///
    /// # Errors
    /// A message naming the problem: a digit other than 0 to 2, a length that is not
    /// `size * size`, a size out of range, or a chain without liberties.
    pub fn from_protocol_string(digits: &str, size: usize) -> Result<Board, String> {
        if digits.len() != size * size {
            return Err(format!(
                "a {size}x{size} board has {} digits, got {}",
                size * size,
                digits.len()
            ));
        }
        let cells = digits
            .bytes()
            .map(|b| match b {
                b'0' => Ok(None),
                b'1' => Ok(Some(Colour::Black)),
                b'2' => Ok(Some(Colour::White)),
                other => Err(format!("unexpected {:?}: use 0, 1 or 2", char::from(other))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rows: Vec<Vec<Option<Colour>>> = cells.chunks(size.max(1)).map(<[_]>::to_vec).collect();
        Board::from_rows(&rows)
    }

    /// A labelled picture for the operator console: column letters (skipping `I`)
    /// above and below, row numbers as Go players count them (n at the top) on both
    /// sides, and after each row the protocol index of its first point. The last
    /// move, if given, is drawn in parentheses, e.g. `(X)`. No trailing newline.
    ///
    /// ```text
    ///    A B C
    ///  3 . X .  3  [idx 0]
    ///  2 .(O).  2  [idx 3]
    ///  1 . . .  1  [idx 6]
    ///    A B C
    /// ```
    pub fn render(&self, last_move: Option<Point>) -> String {
        let size = self.size();
        let letters: String = (0..size)
            .map(|c| format!(" {}", column_letter(c)))
            .collect();
        let mut lines = vec![format!("  {letters}")];
        for row in 0..size {
            let number = size - row;
            let mut line = format!("{number:>2}");
            for col in 0..size {
                let p = Point::new(row as u8, col as u8);
                let before = if Some(p) == last_move {
                    '('
                } else if col > 0 && Some(Point::new(row as u8, col as u8 - 1)) == last_move {
                    ')'
                } else {
                    ' '
                };
                line.push(before);
                line.push(symbol(self.get(p)));
            }
            let after = if last_move == Some(Point::new(row as u8, size as u8 - 1)) {
                ')'
            } else {
                ' '
            };
            line.push(after);
            line.push_str(&format!(" {number:<2} [idx {}]", row * size));
            lines.push(line);
        }
        lines.push(format!("  {letters}"));
        lines.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_round_trip() {
        let diagrams = [
            ". .\n. .",
            "X O\n. .",
            ". X O\nX . O\n. X O",
            "X X X X .\nO O O O O\n. . . . .\nX . X . X\n. O . O .",
        ];
        for diagram in diagrams {
            let board = Board::from_diagram(diagram).expect(diagram);
            assert_eq!(board.to_string(), diagram);
            board.debug_check().expect("consistent");
        }
        let padded = "\n\n   . X\n\n  O .   \n\n";
        let board = Board::from_diagram(padded).expect("padded");
        assert_eq!(board.to_string(), ". X\nO .");
        assert_eq!(board.to_protocol_string(), "0120");
        assert_eq!(board.stone_count(Colour::Black), 1);
        assert_eq!(board.stone_count(Colour::White), 1);
    }

    #[test]
    fn bad_diagrams() {
        for bad in [
            "",
            ".",
            ". .\n.",
            ". x\n. .",
            ". .\n. . .",
            "X O\nO .",
            ".. ..\n. .",
        ] {
            assert!(Board::from_diagram(bad).is_err(), "{bad:?}");
        }
        let huge = vec![". ".repeat(26); 26].join("\n");
        assert!(Board::from_diagram(&huge).is_err());
    }

    #[test]
    fn render_small_board() {
        let board = Board::from_diagram(". X .\n. O .\n. . .").expect("valid");
        let expected = "   A B C
 3 . X .  3  [idx 0]
 2 .(O).  2  [idx 3]
 1 . . .  1  [idx 6]
   A B C";
        assert_eq!(board.render(Some(Point::new(1, 1))), expected);
        let edge = "   A B C
 3 . X .  3  [idx 0]
 2 . O .  2  [idx 3]
 1 . . .  1  [idx 6]
   A B C";
        assert_eq!(board.render(None), edge);
        let right = board.render(Some(Point::new(0, 2)));
        assert!(right.contains(" 3 . X(.) 3  [idx 0]"), "{right}");
        let left = board.render(Some(Point::new(2, 0)));
        assert!(left.contains(" 1(.). .  1  [idx 6]"), "{left}");
        // Off-board last move: drawn without a mark, no panic.
        assert_eq!(board.render(Some(Point::new(9, 9))), edge);
    }

    #[test]
    fn render_large_board_labels() {
        let board = Board::new(19).expect("valid");
        let text = board.render(None);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 21);
        assert_eq!(lines[0], "   A B C D E F G H J K L M N O P Q R S T");
        assert!(lines[1].starts_with("19 . ."));
        assert!(lines[1].ends_with(".  19 [idx 0]"));
        assert!(lines[19].starts_with(" 1 ."));
        assert!(lines[19].ends_with(".  1  [idx 342]"));
        assert!(!text.ends_with('\n'));
        assert!(!text.contains('+'));
    }
}
