//! The six colours a tile edge can have, and when two touching edges match.

use std::fmt;

/// The colour of one edge of a tile: five colours and the white joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Red, `R`.
    Red,
    /// Green, `G`.
    Green,
    /// Blue, `B`.
    Blue,
    /// Yellow, `Y`.
    Yellow,
    /// Purple, `P`.
    Purple,
    /// White, `W`: the joker, it matches every colour.
    White,
}

impl Colour {
    /// Every colour, in the order of the protocol's colour list.
    pub const ALL: [Colour; 6] = [
        Colour::Red,
        Colour::Green,
        Colour::Blue,
        Colour::Yellow,
        Colour::Purple,
        Colour::White,
    ];

    /// The protocol's letter for this colour: one of `R G B Y P W`.
    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Green => 'G',
            Colour::Blue => 'B',
            Colour::Yellow => 'Y',
            Colour::Purple => 'P',
            Colour::White => 'W',
        }
    }

    /// The colour with the protocol letter `letter` (upper case only), or `None`.
    pub fn from_letter(letter: char) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.letter() == letter)
    }

    /// Whether an edge of this colour may touch an edge of colour `other`: the same
    /// colour, or white on either side.
    pub fn matches(self, other: Colour) -> bool {
        self == other || self == Colour::White || other == Colour::White
    }
}

/// The protocol letter, e.g. `R`.
impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        let letters: String = Colour::ALL.iter().map(|c| c.letter()).collect();
        assert_eq!(letters, "RGBYPW");
        for c in Colour::ALL {
            assert_eq!(Colour::from_letter(c.letter()), Some(c));
            assert_eq!(c.to_string(), c.letter().to_string());
        }
        for bad in ['r', 'w', 'X', '0', ' ', 'é'] {
            assert_eq!(Colour::from_letter(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn white_matches_everything() {
        use Colour::*;
        let cases = [
            (Red, Red, true),
            (Red, Green, false),
            (Purple, Yellow, false),
            (White, Blue, true),
            (Blue, White, true),
            (White, White, true),
        ];
        for (a, b, expected) in cases {
            assert_eq!(a.matches(b), expected, "{a} {b}");
        }
    }
}
