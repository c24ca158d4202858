//! The bot's levels of play, 1 (weakest) to 5 (strongest), and what each one means
//! for the search.
//!
//! Owns the table of levels: how much of the think budget a level uses, the most
//! playouts it runs, how its playouts choose their moves, whether the tree starts new
//! moves from the heuristics' priors, and how the move is picked from the search's
//! counts. The server asks for a level by number (`--bot-level`, the console's `bot`);
//! everything else about levels is here.
//!
//! | level | budget used | simulations | playouts | priors | move played |
//! | --- | --- | --- | --- | --- | --- |
//! | 1 | 5% | at most 200 | random | none | drawn by visits |
//! | 2 | 10% | at most 500 | heuristic | none | drawn by visits squared |
//! | 3 | 35% | no cap | heuristic | yes | the most visited |
//! | 4 | 65% | no cap | heuristic | yes | the most visited |
//! | 5 | 100% | no cap | heuristic | yes | the most visited |
//!
//! Levels 1 to 4 stop searching as soon as more simulations cannot change their
//! choice; level 5 thinks to the end of its budget, growing the tree it keeps for the
//! next move.
//!
//! Measured on 9x9, komi 7, at the server's default 300 ms a move, against GNU Go 3.8
//! through the GO! protocol (`loadgen gnugo-match`, 10 games each): level 1 lost all
//! 10 to GNU Go's level 1, level 2 won 2 (and drew 1) against its level 1, level 3
//! won 8 against its level 10, level 5 won 8; at 1000 ms level 5 won 112 of
//! 120 against level 10 (six series of 20: 16, 19, 20, 20, 19 and 18; 3 lost, 5 drawn).

use std::fmt;
use std::str::FromStr;

use super::policy::PlayoutStyle;

/// A level of play: 1 is beatable by a careful beginner, 5 uses the whole think
/// budget with every heuristic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// A level number out of range, or not a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelError {
    /// What was given, as it was written.
    pub given: String,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the bot's level is a whole number from {} to {}, got '{}'",
            Level::WEAKEST.0,
            Level::STRONGEST.0,
            self.given
        )
    }
}

impl std::error::Error for LevelError {}

/// How a level searches: the knobs [`Level::style`] sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Style {
    /// The share of the budget (its time and its playouts) the level uses.
    pub(super) share: f64,
    /// The most playouts per move, whatever the budget allows.
    pub(super) max_playouts: Option<u32>,
    /// How the playouts choose their moves.
    pub(super) playouts: PlayoutStyle,
    /// Whether new moves in the tree start from the heuristics' priors (captures,
    /// shapes, distance to the last move) rather than from an even guess.
    pub(super) priors: bool,
    /// How the move is picked from the root's counts: 0 plays the most searched move;
    /// above 0 draws a move with weight `visits^(1 / temperature)`, so that a weak
    /// level sometimes plays its second or third idea.
    pub(super) temperature: f64,
    /// Whether the search stops as soon as more simulations cannot change its choice
    /// (saving the machine's time), rather than using all of its budget to grow the
    /// tree it keeps for the next move.
    pub(super) stop_when_settled: bool,
}

impl Level {
    /// Level 1: a handful of purely random playouts, its move drawn from their
    /// counts: fast and loose.
    pub const WEAKEST: Level = Level(1);
    /// Level 3, the server's default: the full search on a third of the budget.
    pub const DEFAULT: Level = Level(3);
    /// Level 5: the full search on the whole budget.
    pub const STRONGEST: Level = Level(5);

    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [Level(1), Level(2), Level(3), Level(4), Level(5)];

    /// The level numbered `number`.
    ///
    /// # Errors
    /// [`LevelError`] unless `1 <= number <= 5`.
    pub fn new(number: u8) -> Result<Level, LevelError> {
        if (Level::WEAKEST.0..=Level::STRONGEST.0).contains(&number) {
            Ok(Level(number))
        } else {
            Err(LevelError {
                given: number.to_string(),
            })
        }
    }

    /// The level's number, 1 to 5.
    pub fn number(self) -> u8 {
        self.0
    }

    /// What the level means for the search.
    pub(super) fn style(self) -> Style {
        let full = Style {
            share: 1.0,
            max_playouts: None,
            playouts: PlayoutStyle::Heuristic,
            priors: true,
            temperature: 0.0,
            stop_when_settled: false,
        };
        match self.0 {
            1 => Style {
                share: 0.05,
                max_playouts: Some(200),
                playouts: PlayoutStyle::Random,
                priors: false,
                temperature: 1.0,
                stop_when_settled: true,
            },
            2 => Style {
                share: 0.1,
                max_playouts: Some(500),
                priors: false,
                temperature: 0.5,
                stop_when_settled: true,
                ..full
            },
            3 => Style {
                share: 0.35,
                stop_when_settled: true,
                ..full
            },
            4 => Style {
                share: 0.65,
                stop_when_settled: true,
                ..full
            },
            _ => full,
        }
    }
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = LevelError;

    /// Reads a level number such as `3` (surrounding blanks ignored).
    fn from_str(text: &str) -> Result<Level, LevelError> {
        let refused = || LevelError {
            given: text.to_string(),
        };
        let number: u8 = text.trim().parse().map_err(|_| refused())?;
        Level::new(number).map_err(|_| refused())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_refuse_with_the_range() {
        assert_eq!("1".parse(), Ok(Level::WEAKEST));
        assert_eq!(" 5 ".parse(), Ok(Level::STRONGEST));
        assert_eq!(Level::default().number(), 3);
        for bad in ["0", "6", "x", "", "-1", "3.5", "300"] {
            let refused = bad.parse::<Level>().expect_err(bad);
            assert_eq!(
                refused.to_string(),
                format!("the bot's level is a whole number from 1 to 5, got '{bad}'")
            );
        }
        assert!(Level::new(0).is_err());
        assert_eq!(Level::new(4).map(Level::number), Ok(4));
        assert_eq!(Level::ALL.map(|l| l.to_string()).join(""), "12345");
    }

    #[test]
    fn stronger_levels_use_more_of_the_budget() {
        let shares: Vec<f64> = Level::ALL.iter().map(|l| l.style().share).collect();
        assert!(shares.windows(2).all(|w| w[0] < w[1]), "{shares:?}");
        assert_eq!(Level::STRONGEST.style().share, 1.0);
        assert_eq!(Level::STRONGEST.style().temperature, 0.0);
        assert!(!Level::STRONGEST.style().stop_when_settled);
        assert!(Level::DEFAULT.style().stop_when_settled);
        assert_eq!(Level::WEAKEST.style().playouts, PlayoutStyle::Random);
    }
}
