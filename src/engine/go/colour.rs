//! The colours of the stones, numbered as the protocol numbers them.

use std::fmt;

/// The colour of a stone or of a player.
///
/// Only two colours exist today; the protocol reserves the digits 3 to 9 for more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first; digit 1 in the protocol.
    Black,
    /// Moves second; digit 2 in the protocol.
    White,
}

impl Colour {
    /// The protocol's digit for this colour: 1 for black, 2 for white.
    pub fn number(self) -> u8 {
        match self {
            Colour::Black => 1,
            Colour::White => 2,
        }
    }

    /// The colour with the protocol digit `n`, or `None` if no colour has that digit.
    pub fn from_number(n: u8) -> Option<Colour> {
        match n {
            1 => Some(Colour::Black),
            2 => Some(Colour::White),
            _ => None,
        }
    }

    /// The other player's colour.
    pub fn opponent(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    pub(crate) fn slot(self) -> usize {
        match self {
            Colour::Black => 0,
            Colour::White => 1,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Black => "black",
            Colour::White => "white",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip() {
        for c in [Colour::Black, Colour::White] {
            assert_eq!(Colour::from_number(c.number()), Some(c));
            assert_eq!(c.opponent().opponent(), c);
            assert_ne!(c.opponent(), c);
        }
        assert_eq!(Colour::Black.number(), 1);
        assert_eq!(Colour::White.number(), 2);
        for n in [0, 3, 9, 255] {
            assert_eq!(Colour::from_number(n), None);
        }
        assert_eq!(Colour::Black.to_string(), "black");
        assert_eq!(Colour::White.to_string(), "white");
    }
}
