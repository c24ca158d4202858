//! The board: which oriented tile lies on each field, whether a tile may go on a field
//! and what it would score, and whether any tile of a hand fits anywhere.
//!
//! Not here: turns, hands and the bag ([`Game`](super::Game)), geometry
//! ([`Location`]), the drawing for the console (`render.rs`).

use std::fmt;

use super::location::FIELDS;
use super::{Colour, IllegalPlacement, Location, OrientedTile, Tile};

/// A tile on a field: a possible move, or one that was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The tile, turned as it lies.
    pub tile: OrientedTile,
    /// The field.
    pub location: Location,
}

/// E.g. `RRY0 at 12`.
impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}", self.tile, self.location)
    }
}

/// The 36 fields and the tiles placed on them.
///
/// Paired query and act: [`check`](Board::check) gives the verdict and the points,
/// [`place`](Board::place) gives the same verdict and, when legal, places the tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The tile on each field, by location.
    fields: [Option<OrientedTile>; FIELDS],
    /// How many fields hold a tile.
    placed: usize,
    /// The empty fields next to a placed tile, one bit per location: after the first
    /// tile, only these can take one, so searches look nowhere else.
    frontier: u64,
}

impl Default for Board {
    fn default() -> Board {
        Board::new()
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Board {
        Board {
            fields: [None; FIELDS],
            placed: 0,
            frontier: 0,
        }
    }

    /// The tile on `location`, if any.
    pub fn get(&self, location: Location) -> Option<OrientedTile> {
        self.fields[location.index()]
    }

    /// How many tiles are on the board.
    pub fn placed(&self) -> usize {
        self.placed
    }

    /// Whether no tile has been placed yet.
    pub fn is_empty(&self) -> bool {
        self.placed == 0
    }

    /// Every placed tile with its field, by location.
    pub fn placements(&self) -> impl Iterator<Item = Placement> + '_ {
        Location::all()
            .filter_map(|location| self.get(location).map(|tile| Placement { tile, location }))
    }

    /// The points `tile` would score on `location`: value × matching edges (at least
    /// 1) × the field's bonus; the first tile of the game scores its value.
    ///
    /// # Errors
    /// The first rule broken, checked in this order: the field is taken; the first tile
    /// is on a bonus field; a later tile touches no placed tile; an edge does not match
    /// its neighbour's (edges checked in edge order, see [`Location::sides`]).
    pub fn check(&self, tile: OrientedTile, location: Location) -> Result<u32, IllegalPlacement> {
        if let Some(there) = self.get(location) {
            return Err(IllegalPlacement::Occupied { location, there });
        }
        if self.is_empty() {
            if location.is_bonus() {
                return Err(IllegalPlacement::FirstOnBonus { location });
            }
            return Ok(tile.tile().value());
        }
        let colours = tile.colours();
        let mut touching = 0;
        for (edge, neighbour) in location.neighbours().into_iter().enumerate() {
            let Some(neighbour) = neighbour else { continue };
            let Some(neighbour_tile) = self.get(neighbour) else {
                continue;
            };
            touching += 1;
            // Touching fields meet with the same edge number (see `location`).
            let (ours, theirs) = (colours[edge], neighbour_tile.colours()[edge]);
            if !ours.matches(theirs) {
                return Err(IllegalPlacement::Mismatch {
                    placement: Placement { tile, location },
                    side: location.sides()[edge],
                    colour: ours,
                    neighbour: Placement {
                        tile: neighbour_tile,
                        location: neighbour,
                    },
                    neighbour_colour: theirs,
                });
            }
        }
        if touching == 0 {
            return Err(IllegalPlacement::NotTouching { location });
        }
        Ok(tile.tile().value() * touching * location.bonus())
    }

    /// Places `tile` on `location` if [`check`](Self::check) allows it; returns its points.
    ///
    /// # Errors
    /// As [`check`](Self::check); on error the board is unchanged.
    pub fn place(
        &mut self,
        tile: OrientedTile,
        location: Location,
    ) -> Result<u32, IllegalPlacement> {
        let points = self.check(tile, location)?;
        self.put(tile, location);
        Ok(points)
    }

    /// One legal placement of any tile of `tiles` in any rotation, or `None` if none
    /// fits anywhere. Deterministic: the lowest field first, then the hand's order,
    /// then rotations 0 to 2. On the empty board: the first tile at field 0.
    pub fn find_placement(&self, tiles: &[Tile]) -> Option<Placement> {
        if self.is_empty() {
            // Any tile fits anywhere but on a bonus field, and field 0 has no bonus.
            let location = Location::all().find(|l| !l.is_bonus())?;
            let tile = tiles.first()?.dealt();
            return Some(Placement { tile, location });
        }
        let mut frontier = self.frontier;
        while frontier != 0 {
            let index = frontier.trailing_zeros();
            frontier &= frontier - 1;
            let Some(location) = Location::new(index) else {
                continue;
            };
            let wanted = self.wanted(location);
            for &tile in tiles {
                for &rotation in tile.distinct_rotations() {
                    let tile = OrientedTile::new(tile, rotation);
                    if fits(tile.colours(), wanted) {
                        return Some(Placement { tile, location });
                    }
                }
            }
        }
        None
    }

    /// Whether any tile of `tiles` fits anywhere in any rotation.
    pub fn can_place_any(&self, tiles: &[Tile]) -> bool {
        self.find_placement(tiles).is_some()
    }

    /// For each edge of `location` (by edge number), the colour of the neighbouring
    /// tile's edge that touches it, or `None` where no tile touches.
    fn wanted(&self, location: Location) -> [Option<Colour>; 3] {
        let mut wanted = [None; 3];
        for (edge, neighbour) in location.neighbours().into_iter().enumerate() {
            wanted[edge] = neighbour
                .and_then(|n| self.get(n))
                .map(|neighbour_tile| neighbour_tile.colours()[edge]);
        }
        wanted
    }

    /// Puts `tile` on `location` without any check (for `place`, and for tests that
    /// build positions no game could reach).
    pub(super) fn put(&mut self, tile: OrientedTile, location: Location) {
        if self.fields[location.index()].replace(tile).is_none() {
            self.placed += 1;
        }
        self.frontier &= !(1 << location.index());
        for neighbour in location.neighbours().into_iter().flatten() {
            if self.get(neighbour).is_none() {
                self.frontier |= 1 << neighbour.index();
            }
        }
    }
}

/// Whether a tile with these edge colours fits a field whose neighbours show `wanted`,
/// given that at least one neighbour is placed.
fn fits(colours: [Colour; 3], wanted: [Option<Colour>; 3]) -> bool {
    colours
        .into_iter()
        .zip(wanted)
        .all(|(ours, theirs)| theirs.is_none_or(|theirs| ours.matches(theirs)))
}

#[cfg(test)]
#[path = "board_tests.rs"]
mod tests;
