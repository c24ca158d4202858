//! What a finished playout is worth to a player: mostly whether it won, a little by
//! how much.
//!
//! Owns the scale of rewards (0 to 1) and nothing else: the area comes from the
//! playout's board, the komi from the game's rules.

use crate::engine::go::{Colour, Komi};

/// The share of the reward that measures the score margin rather than the result.
///
/// Winning is what counts, but when every line wins (or every line loses) the win rate
/// cannot tell moves apart; a small margin term still prefers taking more and giving
/// away less, so a won game is not thrown into slack moves and a lost one is not
/// prolonged by filling one's own eyes.
const MARGIN_SHARE: f64 = 0.1;

/// The reward in `0.0..=1.0` for `colour` of a finished board whose area is
/// `black_points` and `white_points` (komi not included) on `points` points: 1 for a
/// win, 0.5 for a draw, 0 for a loss, blended with the margin.
pub(super) fn reward(
    black_points: u32,
    white_points: u32,
    komi: Komi,
    colour: Colour,
    points: usize,
) -> f64 {
    // Black's lead in half points: exact, since komi is kept in halves.
    let black_lead =
        2 * i64::from(black_points) - 2 * i64::from(white_points) - i64::from(komi.halves());
    let lead = match colour {
        Colour::Black => black_lead,
        Colour::White => -black_lead,
    };
    let result = match lead.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    };
    // A lead of the whole board (2 * points halves) maps to 1, its opposite to 0.
    let margin = (0.5 + lead as f64 / (4 * points.max(1)) as f64).clamp(0.0, 1.0);
    (1.0 - MARGIN_SHARE) * result + MARGIN_SHARE * margin
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewards() {
        use Colour::{Black, White};
        // (black points, white points, komi halves, colour, points, expected reward)
        let table = [
            // Black owns the whole 3x3 board.
            (9, 0, 0, Black, 9, 1.0),
            (9, 0, 0, White, 9, 0.0),
            // An even split, no komi: a draw with margin 0.
            (40, 41, 0, Black, 81, 0.9 * 0.0 + 0.1 * (0.5 - 2.0 / 324.0)),
            (41, 40, 0, Black, 81, 0.9 + 0.1 * (0.5 + 2.0 / 324.0)),
            (0, 0, 0, Black, 81, 0.45 + 0.05),
            (0, 0, 0, White, 81, 0.45 + 0.05),
            // Komi 6.5 turns black's 3-point lead into a 3.5-point loss.
            (42, 39, 13, Black, 81, 0.1 * (0.5 - 7.0 / 324.0)),
            (42, 39, 13, White, 81, 0.9 + 0.1 * (0.5 + 7.0 / 324.0)),
            // A huge komi clamps the margin, not the result.
            (9, 0, 1000, Black, 9, 0.0),
            (9, 0, 1000, White, 9, 1.0),
            (9, 0, -1000, Black, 9, 1.0),
        ];
        for (black, white, komi, colour, points, want) in table {
            let got = reward(black, white, Komi::from_halves(komi), colour, points);
            assert!(
                (got - want).abs() < 1e-12,
                "{black}:{white} komi {komi} for {colour}: {got}, expected {want}"
            );
        }
    }
}
