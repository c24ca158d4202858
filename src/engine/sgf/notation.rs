//! SGF notation for Go: a point is two letters, column then row, counted from the
//! top-left corner, `a` to `z` then `A` to `Z` (FF[4]); a colour is `B` or `W`.
//!
//! Converting points read by sgf-parse back to the engine's points (and deciding
//! what is off the board) is here too; reading whole properties is not.

use crate::engine::go::{Colour, Move, PlayedMove, Point, Score};

/// The largest board on which `tt` is a pass (FF[3], still read by FF[4] programs).
const OLD_PASS_MAX_SIZE: usize = 19;

/// The SGF letter for row or column `n`: `a` to `z`, then `A` to `Z`, `?` beyond.
pub(super) fn letter(n: u8) -> char {
    match n {
        0..=25 => char::from(b'a' + n),
        26..=51 => char::from(b'A' + (n - 26)),
        _ => '?',
    }
}

/// The two letters of `point`: column, then row.
pub(super) fn point_text(point: Point) -> String {
    format!("{}{}", letter(point.col()), letter(point.row()))
}

/// `B` for black, `W` for white: the property of a move, and the value of `PL`.
pub(super) fn colour_letter(colour: Colour) -> char {
    match colour {
        Colour::Black => 'B',
        Colour::White => 'W',
    }
}

/// A record's result (`RE`) for a game scored on the board: `B+3.5`, `W+1`, or `0`
/// for a draw.
pub fn score_result(score: &Score) -> String {
    match score.winner() {
        Some(colour) => win_result(colour, &score.margin().to_string()),
        None => "0".to_string(),
    }
}

/// A record's result (`RE`) for a win by `how`: `B+R` (resign), `W+T` (time), ...
pub fn win_result(winner: Colour, how: &str) -> String {
    format!("{}+{how}", colour_letter(winner))
}

/// A move as it is written in a record: `B[dd]`, or `W[]` for a pass.
pub(super) fn move_text(played: PlayedMove) -> String {
    let value = match played.mv {
        Move::Play(point) => point_text(point),
        Move::Pass => String::new(),
    };
    format!("{}[{value}]", colour_letter(played.colour))
}

/// The engine's point for a point read by sgf-parse, if it lies on a `size` board.
pub(super) fn board_point(point: sgf_parse::go::Point, size: usize) -> Option<Point> {
    let on_board = usize::from(point.x) < size && usize::from(point.y) < size;
    on_board.then(|| Point::new(point.y, point.x))
}

/// The two letters of a point read by sgf-parse, for messages.
pub(super) fn sgf_point_text(point: sgf_parse::go::Point) -> String {
    format!("{}{}", letter(point.x), letter(point.y))
}

/// Whether `point` is `tt`, which means a pass on boards up to 19x19.
pub(super) fn is_old_pass(point: sgf_parse::go::Point, size: usize) -> bool {
    size <= OLD_PASS_MAX_SIZE && point.x == 19 && point.y == 19
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters() {
        let cases = [
            (0, 'a'),
            (8, 'i'),
            (25, 'z'),
            (26, 'A'),
            (51, 'Z'),
            (52, '?'),
        ];
        for (n, want) in cases {
            assert_eq!(letter(n), want, "{n}");
        }
        assert_eq!(letter(255), '?');
        assert_eq!(point_text(Point::new(2, 3)), "dc");
        assert_eq!(point_text(Point::new(24, 0)), "ay");
    }

    #[test]
    fn moves() {
        let black = PlayedMove {
            colour: Colour::Black,
            mv: Move::Play(Point::new(3, 2)),
        };
        let white_pass = PlayedMove {
            colour: Colour::White,
            mv: Move::Pass,
        };
        assert_eq!(move_text(black), "B[cd]");
        assert_eq!(move_text(white_pass), "W[]");
    }

    #[test]
    fn points_read_back() {
        let p = |x, y| sgf_parse::go::Point { x, y };
        assert_eq!(board_point(p(3, 2), 9), Some(Point::new(2, 3)));
        assert_eq!(board_point(p(8, 8), 9), Some(Point::new(8, 8)));
        assert_eq!(board_point(p(9, 0), 9), None);
        assert_eq!(board_point(p(0, 9), 9), None);
        assert_eq!(board_point(p(51, 51), 25), None);
        assert_eq!(sgf_point_text(p(19, 27)), "tB");
        assert!(is_old_pass(p(19, 19), 19));
        assert!(is_old_pass(p(19, 19), 2));
        assert!(!is_old_pass(p(19, 19), 20));
        assert!(!is_old_pass(p(19, 18), 19));
    }
}
