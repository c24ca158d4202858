//! Shorthands for tests: tiles, spellings and fields from text.

use super::{Colour, Letters, Location, OrientedTile, Rotation, Spelling, Tile};

/// Letters from text like `GBR`.
pub(super) fn letters(text: &str) -> Letters {
    let colours: Vec<Colour> = text
        .chars()
        .map(|c| Colour::from_letter(c).unwrap())
        .collect();
    Letters::new([colours[0], colours[1], colours[2]])
}

/// A spelling from text like `RYR1`.
pub(super) fn spelling(text: &str) -> Spelling {
    let digit = text[3..].parse().unwrap();
    Spelling {
        letters: letters(&text[..3]),
        rotation: Rotation::new(digit).unwrap(),
    }
}

/// The set tile written exactly `text` as dealt, e.g. `RRY`.
pub(super) fn tile(text: &str) -> Tile {
    let tile = Tile::find(letters(text)).unwrap();
    assert_eq!(tile.letters().to_string(), text, "not as dealt");
    tile
}

/// The oriented tile written exactly `text`, as dealt with its digit, e.g. `RRY2`.
pub(super) fn oriented(text: &str) -> OrientedTile {
    let oriented = spelling(text).resolve().unwrap();
    assert_eq!(oriented.to_string(), text, "not as dealt");
    oriented
}

/// The field numbered `index`.
pub(super) fn loc(index: u8) -> Location {
    Location::new(index).unwrap()
}
