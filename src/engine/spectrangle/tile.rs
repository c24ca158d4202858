//! The tile set: 36 tiles, each three edge colours and a value, in the protocol's list
//! order. Also [`Letters`], three colours as a client writes them, which may name a
//! set tile turned (`RYR` is the dealt `RRY`) or no tile at all (`GBR`).
//!
//! How a tile lies on a field (its rotation) is not here: see
//! [`OrientedTile`](super::OrientedTile).

use std::fmt;

use super::{Colour, OrientedTile, Rotation};

/// Three edge colours in the order they are written, e.g. `RYR`.
///
/// The order is counter-clockwise around the tile; reading from a different start
/// ([`Letters::turned`]) describes the same tile, reading backwards
/// ([`Letters::mirrored`]) describes its mirror image, which is another tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Letters([Colour; 3]);

impl Letters {
    /// The letters `colours`, in writing order.
    pub const fn new(colours: [Colour; 3]) -> Letters {
        Letters(colours)
    }

    /// The three colours in writing order.
    pub fn colours(self) -> [Colour; 3] {
        self.0
    }

    /// The same letters read from `shift` places later, wrapping around:
    /// `RRY` turned by 1 is `RYR`, by 2 `YRR`, by 3 `RRY` again.
    pub fn turned(self, shift: usize) -> Letters {
        let [a, b, c] = self.0;
        match shift % 3 {
            0 => Letters([a, b, c]),
            1 => Letters([b, c, a]),
            _ => Letters([c, a, b]),
        }
    }

    /// The letters backwards: the mirror image of the tile (`GRB` mirrored is `BRG`).
    pub fn mirrored(self) -> Letters {
        let [a, b, c] = self.0;
        Letters([c, b, a])
    }
}

/// The three letters, e.g. `RYR`.
impl fmt::Display for Letters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.0;
        write!(f, "{a}{b}{c}")
    }
}

/// The set as the protocol lists it: letters as dealt, and value.
const SET: [(&[u8; 3], u32); 36] = [
    (b"RRR", 6),
    (b"BBB", 6),
    (b"GGG", 6),
    (b"YYY", 6),
    (b"PPP", 6),
    (b"RRY", 5),
    (b"RRP", 5),
    (b"BBR", 5),
    (b"BBP", 5),
    (b"GGR", 5),
    (b"GGB", 5),
    (b"YYG", 5),
    (b"YYB", 5),
    (b"PPY", 5),
    (b"PPG", 5),
    (b"RRB", 4),
    (b"RRG", 4),
    (b"BBG", 4),
    (b"BBY", 4),
    (b"GGY", 4),
    (b"GGP", 4),
    (b"YYR", 4),
    (b"YYP", 4),
    (b"PPR", 4),
    (b"PPB", 4),
    (b"YBP", 3),
    (b"RGY", 3),
    (b"BGP", 3),
    (b"GRB", 3),
    (b"BRP", 2),
    (b"YPR", 2),
    (b"YPG", 2),
    (b"GRP", 1),
    (b"BYG", 1),
    (b"RYB", 1),
    (b"WWW", 1),
];

/// The colour of a letter of `SET`. Only ever evaluated at compile time (for
/// `SET_LETTERS`), so a typo in the table is a build error, never a runtime panic.
const fn colour_of(letter: u8) -> Colour {
    match letter {
        b'R' => Colour::Red,
        b'G' => Colour::Green,
        b'B' => Colour::Blue,
        b'Y' => Colour::Yellow,
        b'P' => Colour::Purple,
        b'W' => Colour::White,
        _ => panic!("SET holds a letter that is no colour"),
    }
}

/// The letters of every tile of `SET`, decoded once at compile time.
const SET_LETTERS: [Letters; 36] = {
    let mut letters = [Letters([Colour::White; 3]); 36];
    let mut i = 0;
    while i < 36 {
        let text = SET[i].0;
        letters[i] = Letters([colour_of(text[0]), colour_of(text[1]), colour_of(text[2])]);
        i += 1;
    }
    letters
};

/// One tile of the set, e.g. `RRY` worth 5.
///
/// Only the 36 set tiles exist as values of this type: get them from [`Tile::ALL`] or
/// [`Tile::find`]. `Display` is the tile as dealt, with rotation digit 0 (`PPY0`): the
/// spelling of `TILE` lines and of a swap's `UPDATE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The whole set, in the protocol's list order (`RRR` first, `WWW` last).
    pub const ALL: [Tile; 36] = {
        let mut all = [Tile(0); 36];
        let mut i = 0;
        while i < 36 {
            all[i] = Tile(i as u8);
            i += 1;
        }
        all
    };

    /// Position in the protocol's list, 0 (`RRR`) to 35 (`WWW`).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The letters as dealt, exactly as the rules list them (`PPY`, never `YPP`).
    pub fn letters(self) -> Letters {
        SET_LETTERS[self.index() % 36]
    }

    /// The face value, 1 to 6.
    pub fn value(self) -> u32 {
        SET[self.index() % 36].1
    }

    /// The set tile whose letters are `letters` read from any start: `RRY`, `RYR` and
    /// `YRR` all find `RRY`. `None` when no set tile has them: `GBR` is the mirror
    /// image of `GRB`, and tiles cannot be flipped.
    pub fn find(letters: Letters) -> Option<Tile> {
        Tile::ALL
            .into_iter()
            .find(|tile| (0..3).any(|shift| letters.turned(shift) == tile.letters()))
    }

    /// Whether all three edges have one colour (`RRR`, `WWW`): every rotation of such a
    /// tile looks the same.
    pub fn is_uniform(self) -> bool {
        let [a, b, c] = self.letters().colours();
        a == b && b == c
    }

    /// The rotations that give different pictures: only 0 for a uniform tile, else all three.
    pub fn distinct_rotations(self) -> &'static [Rotation] {
        if self.is_uniform() {
            &Rotation::ALL[..1]
        } else {
            &Rotation::ALL
        }
    }

    /// The tile as dealt: rotation 0.
    pub fn dealt(self) -> OrientedTile {
        OrientedTile::new(self, Rotation::ZERO)
    }
}

/// The tile as dealt, e.g. `PPY0`.
impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}0", self.letters())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Letters from a three-letter string (test input is well formed).
    fn letters(text: &str) -> Letters {
        let colours: Vec<Colour> = text
            .chars()
            .map(|c| Colour::from_letter(c).unwrap())
            .collect();
        Letters::new([colours[0], colours[1], colours[2]])
    }

    #[test]
    fn the_set_in_protocol_order() {
        let listed = "RRR BBB GGG YYY PPP RRY RRP BBR BBP GGR GGB YYG YYB PPY PPG \
                      RRB RRG BBG BBY GGY GGP YYR YYP PPR PPB YBP RGY BGP GRB \
                      BRP YPR YPG GRP BYG RYB WWW";
        let spelled: Vec<String> = Tile::ALL.iter().map(|t| t.letters().to_string()).collect();
        assert_eq!(spelled.join(" "), listed);
        let values: Vec<u32> = Tile::ALL.iter().map(|t| t.value()).collect();
        let expected: Vec<u32> = [(6, 5), (5, 10), (4, 10), (3, 4), (2, 3), (1, 4)]
            .iter()
            .flat_map(|&(value, count)| std::iter::repeat_n(value, count))
            .collect();
        assert_eq!(values, expected);
        assert_eq!(
            values.iter().sum::<u32>(),
            5 * 6 + 10 * 5 + 10 * 4 + 12 + 6 + 4
        );
        for (i, tile) in Tile::ALL.iter().enumerate() {
            assert_eq!(tile.index(), i);
        }
        assert_eq!(Tile::ALL[13].to_string(), "PPY0");
        assert_eq!(Tile::ALL[35].to_string(), "WWW0");
    }

    #[test]
    fn find_by_any_rotation() {
        let cases = [
            ("RRY", Some("RRY")),
            ("RYR", Some("RRY")),
            ("YRR", Some("RRY")),
            ("YPP", Some("PPY")),
            ("GRB", Some("GRB")),
            ("RBG", Some("GRB")),
            ("BGR", Some("GRB")),
            ("GBR", None),
            ("BRG", None),
            ("RGG", Some("GGR")),
            ("WWW", Some("WWW")),
            ("RRW", None),
            ("RGP", None),
        ];
        for (asked, found) in cases {
            let got = Tile::find(letters(asked)).map(|t| t.letters().to_string());
            assert_eq!(got.as_deref(), found, "{asked}");
        }
    }

    #[test]
    fn every_tile_is_its_own_rotation_class() {
        for tile in Tile::ALL {
            for shift in 0..3 {
                assert_eq!(Tile::find(tile.letters().turned(shift)), Some(tile));
            }
        }
    }

    #[test]
    fn turning_and_mirroring() {
        let rry = letters("RRY");
        assert_eq!(rry.turned(1).to_string(), "RYR");
        assert_eq!(rry.turned(2).to_string(), "YRR");
        assert_eq!(rry.turned(3), rry);
        assert_eq!(rry.turned(usize::MAX).to_string(), "RRY");
        assert_eq!(letters("GRB").mirrored().to_string(), "BRG");
    }

    #[test]
    fn uniform_tiles() {
        let uniform: Vec<String> = Tile::ALL
            .iter()
            .filter(|t| t.is_uniform())
            .map(|t| t.letters().to_string())
            .collect();
        assert_eq!(uniform, ["RRR", "BBB", "GGG", "YYY", "PPP", "WWW"]);
        assert_eq!(Tile::ALL[0].distinct_rotations().len(), 1);
        assert_eq!(Tile::ALL[5].distinct_rotations().len(), 3);
    }
}
