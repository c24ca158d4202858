//! The result of a game: Tromp-Taylor area points plus komi.

use super::rules::format_halves;
use super::{Colour, Komi};

/// An area score (Tromp-Taylor): each player's stones on the board plus the empty
/// regions that border only that player's stones. Komi is kept apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Black's stones and territory.
    pub black_points: u32,
    /// White's stones and territory, without komi.
    pub white_points: u32,
    /// Komi, added to white.
    pub komi: Komi,
}

impl Score {
    /// Black's score in half points.
    pub fn black_halves(&self) -> i64 {
        2 * i64::from(self.black_points)
    }

    /// White's score in half points, komi included.
    pub fn white_halves(&self) -> i64 {
        2 * i64::from(self.white_points) + i64::from(self.komi.halves())
    }

    /// The player with the higher score; `None` for a draw.
    pub fn winner(&self) -> Option<Colour> {
        match self.black_halves().cmp(&self.white_halves()) {
            std::cmp::Ordering::Greater => Some(Colour::Black),
            std::cmp::Ordering::Less => Some(Colour::White),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// How far the winner is ahead (zero for a draw), as a [`Komi`] shows half points.
    pub fn margin(&self) -> Komi {
        let halves = (self.black_halves() - self.white_halves()).abs();
        Komi::from_halves(i32::try_from(halves).unwrap_or(i32::MAX))
    }

    /// Black's score as the protocol shows it: `"40"`, or `"40.5"` for a half point.
    pub fn black_text(&self) -> String {
        format_halves(self.black_halves())
    }

    /// White's score with komi as the protocol shows it: `"40"`, `"40.5"`, `"-3"`.
    pub fn white_text(&self) -> String {
        format_halves(self.white_halves())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Board, Game, Rules};
    use super::*;

    /// Scores `diagram` with komi given in halves: (black, white text, winner).
    fn score(diagram: &str, komi_halves: i32) -> Score {
        let board = Board::from_diagram(diagram).expect(diagram);
        let (black_points, white_points) = board.area();
        Score {
            black_points,
            white_points,
            komi: Komi::from_halves(komi_halves),
        }
    }

    #[test]
    fn area_scores() {
        // (diagram, komi halves, black text, white text, winner)
        let table: &[(&str, i32, &str, &str, Option<Colour>)] = &[
            (". . .\n. . .\n. . .", 0, "0", "0", None),
            (". . .\n. X .\n. . .", 0, "9", "0", Some(Colour::Black)),
            (". . .\n. X .\n. . .", 13, "9", "6.5", Some(Colour::Black)),
            (". . .\n. O .\n. . .", -4, "0", "7", Some(Colour::White)),
            // Each side walls off its own column; the middle column is dame.
            ("X . O\nX . O\nX . O", 0, "3", "3", None),
            ("X . O\nX . O\nX . O", 1, "3", "3.5", Some(Colour::White)),
            ("X . O\nX . O\nX . O", -1, "3", "2.5", Some(Colour::Black)),
            // Seki-like: the shared liberties touch both colours and count for nobody;
            // the single-colour regions count for their owners.
            (
                ". X O . O\nX X O O O\nO O X X X\nO . X . .\nO O X . .",
                0,
                "13",
                "11",
                Some(Colour::Black),
            ),
            // Territory in the corners.
            (
                "X X . O O\nX X . O O\n. X . O .\nX X . O O\n. X . O .",
                0,
                "10",
                "10",
                None,
            ),
            (
                "X X . O O\nX X . O O\n. X . O .\nX X . O O\n. X . O .",
                1,
                "10",
                "10.5",
                Some(Colour::White),
            ),
            (
                "X X . O O\nX X . O O\n. X . O .\nX X . O O\n. X . O .",
                -6,
                "10",
                "7",
                Some(Colour::Black),
            ),
        ];
        for &(diagram, komi, black, white, winner) in table {
            let s = score(diagram, komi);
            assert_eq!(s.black_text(), black, "{diagram}");
            assert_eq!(s.white_text(), white, "{diagram}");
            assert_eq!(s.winner(), winner, "{diagram}");
        }
        assert_eq!(score(". . .\n. X .\n. . .", 13).margin().to_string(), "2.5");
        assert_eq!(score("X . O\nX . O\nX . O", 0).margin().to_string(), "0");
    }

    #[test]
    fn fresh_game_score() {
        let game = Game::new(
            9,
            Rules {
                komi: Komi::from_halves(13),
                ..Rules::default()
            },
        )
        .expect("valid");
        let s = game.score();
        assert_eq!((s.black_points, s.white_points), (0, 0));
        assert_eq!(s.white_text(), "6.5");
        assert_eq!(s.winner(), Some(Colour::White));
    }
}
