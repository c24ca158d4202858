//! A person at the keyboard (`goserver play --human`): the board drawn in the terminal,
//! moves read as Go players write them (`D4`, `pass`). Pure: text in, text out.

use crate::engine::go::{Board, Move, Point};

/// What a person typed, read as a move on a board of `size`.
///
/// # Errors
///
/// What was expected, in a line to show them.
pub fn read_move(text: &str, size: usize) -> Result<Move, String> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    Point::from_vertex(text, size).map(Move::Play).ok_or_else(|| {
        let last = Point::new(0, u8::try_from(size.saturating_sub(1)).unwrap_or(0)).vertex(size);
        format!(
            "'{text}' is no point of this {size}x{size} board: type a column letter A to {} (no I) and a row 1 to {size}, e.g. {}, or pass",
            last.chars().next().unwrap_or('A'),
            Point::new(0, 0).vertex(size)
        )
    })
}

/// The board as the terminal shows it: the picture the console's `board` command
/// draws (`X` black, `O` white, `.` empty, coordinates around it), the last move
/// marked.
pub fn show(board: &Board, last: Option<Point>) -> String {
    board.render(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_as_go_players_write_them() {
        assert_eq!(read_move("pass", 9), Ok(Move::Pass));
        assert_eq!(read_move(" PASS ", 9), Ok(Move::Pass));
        assert_eq!(read_move("A9", 9), Ok(Move::Play(Point::new(0, 0))));
        assert_eq!(read_move("j1", 9), Ok(Move::Play(Point::new(8, 8))));
        assert_eq!(read_move("D4", 5), Ok(Move::Play(Point::new(1, 3))));
        let refused = read_move("I5", 9).expect_err("no I column");
        assert!(
            refused.starts_with(
                "'I5' is no point of this 9x9 board: type a column letter A to J (no I)"
            ),
            "{refused}"
        );
        assert!(read_move("A10", 9).is_err());
        assert!(read_move("", 9).is_err());
    }
}
