//! How a tile lies on a field: [`Rotation`], the [`OrientedTile`] that the board holds,
//! and the client's [`Spelling`] (letters plus digit) that resolves to one.
//!
//! Edges are numbered counter-clockwise from the horizontal one: on a field pointing up
//! edge 0 is the bottom, 1 the right, 2 the left; on a field pointing down edge 0 is the
//! top, 1 the left, 2 the right. At rotation k, edge i carries letter (i − k) mod 3.
//! Reading the text `RYR1` is the protocol's job, not this module's.

use std::fmt;

use super::{Colour, Letters, Tile};

/// How far a tile is turned counter-clockwise, in steps of 120°: 0, 1 or 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rotation(u8);

impl Rotation {
    /// Not turned: the letters start at the horizontal edge.
    pub const ZERO: Rotation = Rotation(0);

    /// The three rotations, 0 to 2.
    pub const ALL: [Rotation; 3] = [Rotation(0), Rotation(1), Rotation(2)];

    /// The rotation with digit `digit`, or `None` unless it is 0, 1 or 2.
    pub fn new(digit: u8) -> Option<Rotation> {
        (digit < 3).then_some(Rotation(digit))
    }

    /// The digit, 0 to 2.
    pub fn digit(self) -> u8 {
        self.0
    }
}

/// The digit, e.g. `1`.
impl fmt::Display for Rotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The colour on each edge (by edge number) of `letters` turned by `rotation`.
fn edge_colours(letters: Letters, rotation: Rotation) -> [Colour; 3] {
    // Edge i carries letter (i - k) mod 3, i.e. the letters read from 3 - k places on.
    letters.turned(3 - usize::from(rotation.0 % 3)).colours()
}

/// A set tile turned to a rotation: what a field of the board holds.
///
/// Two values are equal exactly when they put the same colours on the same edges: a
/// uniform tile (`RRR`, `WWW`) always has rotation 0. `Display` is the wire spelling as
/// dealt with the placed rotation's digit (`RRY0`), as `UPDATE` sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrientedTile {
    /// Which tile of the set.
    tile: Tile,
    /// How far it is turned (always 0 for a uniform tile).
    rotation: Rotation,
}

impl OrientedTile {
    /// `tile` turned by `rotation` (any rotation of a uniform tile becomes 0).
    pub fn new(tile: Tile, rotation: Rotation) -> OrientedTile {
        let rotation = if tile.is_uniform() {
            Rotation::ZERO
        } else {
            rotation
        };
        OrientedTile { tile, rotation }
    }

    /// The tile of the set.
    pub fn tile(self) -> Tile {
        self.tile
    }

    /// The rotation.
    pub fn rotation(self) -> Rotation {
        self.rotation
    }

    /// The colour on each edge, by edge number (see the module doc): index 0 is the
    /// horizontal edge, then counter-clockwise.
    pub fn colours(self) -> [Colour; 3] {
        edge_colours(self.tile.letters(), self.rotation)
    }
}

/// The tile as dealt with the digit of its rotation, e.g. `RRY0`.
impl fmt::Display for OrientedTile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.tile.letters(), self.rotation)
    }
}

/// A tile as a client writes it: three letters and a rotation digit, e.g. `RYR1`.
///
/// The letters need not be the tile as dealt, nor any tile at all: [`Spelling::resolve`]
/// says which set tile, turned how, it describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spelling {
    /// The letters as written.
    pub letters: Letters,
    /// The digit as written.
    pub rotation: Rotation,
}

impl Spelling {
    /// The colour on each edge, by edge number, of these letters at this rotation.
    pub fn colours(self) -> [Colour; 3] {
        edge_colours(self.letters, self.rotation)
    }

    /// The oriented set tile that puts the same colours on the same edges: `RYR1` and
    /// `YRR2` both resolve to `RRY0`, `WWW2` to `WWW0`. `None` when the letters are no
    /// set tile in any rotation (`GBR0`).
    pub fn resolve(self) -> Option<OrientedTile> {
        let tile = Tile::find(self.letters)?;
        let wanted = self.colours();
        tile.distinct_rotations()
            .iter()
            .map(|&rotation| OrientedTile::new(tile, rotation))
            .find(|oriented| oriented.colours() == wanted)
    }
}

/// The tile's letters as dealt with the digit of its rotation (`RRY0` for `RRY0`): the
/// spelling [`Game::play`](super::Game::play) takes to place exactly this tile.
impl From<OrientedTile> for Spelling {
    fn from(tile: OrientedTile) -> Spelling {
        Spelling {
            letters: tile.tile().letters(),
            rotation: tile.rotation(),
        }
    }
}

/// The letters and the digit, e.g. `RYR1`.
impl fmt::Display for Spelling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.letters, self.rotation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::testing::spelling;

    #[test]
    fn rotations() {
        assert_eq!(Rotation::new(0), Some(Rotation::ZERO));
        assert_eq!(Rotation::new(2).map(Rotation::digit), Some(2));
        assert_eq!(Rotation::new(3), None);
        assert_eq!(Rotation::new(255), None);
        assert_eq!(Rotation::ALL[1].to_string(), "1");
    }

    #[test]
    fn edge_colours_by_rotation() {
        // Edge i carries letter (i - k) mod 3: RGB0 is R G B, RGB1 is B R G, RGB2 G B R.
        let cases = [("GRB0", "GRB"), ("GRB1", "BGR"), ("GRB2", "RBG")];
        for (text, edges) in cases {
            let got: String = spelling(text)
                .colours()
                .iter()
                .map(|c| c.letter())
                .collect();
            assert_eq!(got, edges, "{text}");
            let oriented = spelling(text).resolve().unwrap();
            let got: String = oriented.colours().iter().map(|c| c.letter()).collect();
            assert_eq!(got, edges, "{text}");
        }
    }

    #[test]
    fn spellings_resolve_to_the_dealt_tile() {
        let cases = [
            ("RRY0", Some("RRY0")),
            ("RYR1", Some("RRY0")),
            ("YRR2", Some("RRY0")),
            ("RYR0", Some("RRY2")),
            ("YRR0", Some("RRY1")),
            ("RRY1", Some("RRY1")),
            ("YPP0", Some("PPY1")),
            ("GBR0", None),
            ("GBR1", None),
            ("RRW0", None),
            ("WWW2", Some("WWW0")),
            ("RRR1", Some("RRR0")),
            ("BGR2", Some("GRB0")),
            ("BGR1", Some("GRB2")),
            ("RBG2", Some("GRB1")),
        ];
        for (text, expected) in cases {
            let got = spelling(text).resolve().map(|t| t.to_string());
            assert_eq!(got.as_deref(), expected, "{text}");
            if let Some(oriented) = spelling(text).resolve() {
                // Resolution keeps every edge's colour.
                assert_eq!(oriented.colours(), spelling(text).colours(), "{text}");
            }
        }
        assert_eq!(spelling("RYR1").to_string(), "RYR1");
    }

    #[test]
    fn every_oriented_tile_spells_itself() {
        for tile in Tile::ALL {
            for rotation in Rotation::ALL {
                let oriented = OrientedTile::new(tile, rotation);
                let spelled = Spelling::from(oriented);
                assert_eq!(spelled.resolve(), Some(oriented), "{oriented}");
                assert_eq!(spelled.to_string(), oriented.to_string());
            }
        }
    }

    #[test]
    fn uniform_tiles_have_one_orientation() {
        let www = Tile::ALL[35];
        for rotation in Rotation::ALL {
            assert_eq!(OrientedTile::new(www, rotation).rotation(), Rotation::ZERO);
        }
        let rry = Tile::ALL[5];
        assert_eq!(
            OrientedTile::new(rry, Rotation::ALL[2]).rotation(),
            Rotation::ALL[2]
        );
        assert_eq!(rry.dealt().to_string(), "RRY0");
    }
}
