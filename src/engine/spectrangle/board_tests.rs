//! Hand-computed tests of the board: rotations on both field kinds, every refusal,
//! scores on bonus fields, and the placement search.

use super::*;
use crate::engine::spectrangle::Rotation;
use crate::engine::spectrangle::Side::{self, Bottom, Left, Right, Top};
use crate::engine::spectrangle::testing::{loc, oriented, tile};

/// A board with `tiles` put on it as given, without any check.
fn board(tiles: &[(&str, u8)]) -> Board {
    let mut board = Board::new();
    for &(text, at) in tiles {
        board.put(oriented(text), loc(at));
    }
    board
}

/// The colour `tile` shows on `side` when it lies on `location`.
fn colour_on(tile: OrientedTile, location: Location, side: Side) -> Colour {
    let edge = location.sides().iter().position(|&s| s == side).unwrap();
    tile.colours()[edge]
}

#[test]
fn each_rotation_on_both_field_kinds() {
    use Colour::{Blue as B, Green as G, Red as R};
    // GRB: at rotation 0 the letters go counter-clockwise from the horizontal edge
    // (up: bottom, right, left; down: top, left, right); each rotation turns the tile
    // 120 degrees counter-clockwise, so on an up field the bottom colour moves right.
    // (tile, field, [(side, colour)])
    let cases = [
        ("GRB0", 6, [(Bottom, G), (Right, R), (Left, B)]),
        ("GRB1", 6, [(Bottom, B), (Right, G), (Left, R)]),
        ("GRB2", 6, [(Bottom, R), (Right, B), (Left, G)]),
        ("GRB0", 12, [(Top, G), (Left, R), (Right, B)]),
        ("GRB1", 12, [(Top, B), (Left, G), (Right, R)]),
        ("GRB2", 12, [(Top, R), (Left, B), (Right, G)]),
    ];
    for (text, at, expected) in cases {
        for (side, colour) in expected {
            assert_eq!(
                colour_on(oriented(text), loc(at), side),
                colour,
                "{text} at {at}, {side}"
            );
        }
    }
}

#[test]
fn rotations_are_seen_by_the_neighbours() {
    // GRB1 on the up field 6 shows R on its left: the down field 5 to its left must
    // show R on its right. RRY1 is Y R R (top, left, right): right R. Fits.
    let b = board(&[("GRB1", 6)]);
    assert_eq!(b.check(oriented("RRY1"), loc(5)), Ok(5));
    // RRY0 is R R Y: right Y against R.
    assert_eq!(
        b.check(oriented("RRY0"), loc(5)),
        Err(IllegalPlacement::Mismatch {
            placement: Placement {
                tile: oriented("RRY0"),
                location: loc(5)
            },
            side: Right,
            colour: Colour::Yellow,
            neighbour: Placement {
                tile: oriented("GRB1"),
                location: loc(6)
            },
            neighbour_colour: Colour::Red,
        })
    );
}

#[test]
fn occupied() {
    let b = board(&[("RRY2", 12)]);
    assert_eq!(
        b.check(oriented("BBB0"), loc(12)),
        Err(IllegalPlacement::Occupied {
            location: loc(12),
            there: oriented("RRY2")
        })
    );
}

#[test]
fn the_first_tile() {
    let empty = Board::new();
    for at in [2, 10, 11, 13, 14, 20, 26, 30, 34] {
        assert_eq!(
            empty.check(oriented("RRY0"), loc(at)),
            Err(IllegalPlacement::FirstOnBonus { location: loc(at) }),
            "{at}"
        );
    }
    // Anywhere else it scores its face value, whatever the rotation.
    let cases = [
        ("RRY0", 12, 5),
        ("RRY2", 0, 5),
        ("WWW0", 35, 1),
        ("RRR0", 25, 6),
    ];
    for (text, at, points) in cases {
        assert_eq!(
            empty.check(oriented(text), loc(at)),
            Ok(points),
            "{text} at {at}"
        );
    }
    // After the first tile, bonus fields are open.
    let b = board(&[("WWW0", 12)]);
    assert_eq!(b.check(oriented("RRY0"), loc(11)), Ok(5 * 4));
}

#[test]
fn not_touching() {
    let b = board(&[("RRY0", 12)]);
    for at in [0, 5, 7, 22, 35] {
        assert_eq!(
            b.check(oriented("RRY0"), loc(at)),
            Err(IllegalPlacement::NotTouching { location: loc(at) }),
            "{at}"
        );
    }
}

#[test]
fn a_mismatch_on_each_side() {
    use Colour::{Blue as B, Red as R, Yellow as Y};
    // RRY0 lies R R Y: on the down field 12 top R, left R, right Y; on the up field 6
    // bottom R, right R, left Y. A blue neighbour on one side refuses it there.
    // (neighbour field, new field, side of the new tile, its colour)
    let cases = [
        (6, 12, Top, R),
        (11, 12, Left, R),
        (13, 12, Right, Y),
        (12, 6, Bottom, R),
        (7, 6, Right, R),
        (5, 6, Left, Y),
    ];
    for (neighbour, at, side, colour) in cases {
        let b = board(&[("BBB0", neighbour)]);
        let refusal = b.check(oriented("RRY0"), loc(at));
        assert_eq!(
            refusal,
            Err(IllegalPlacement::Mismatch {
                placement: Placement {
                    tile: oriented("RRY0"),
                    location: loc(at)
                },
                side,
                colour,
                neighbour: Placement {
                    tile: oriented("BBB0"),
                    location: loc(neighbour)
                },
                neighbour_colour: B,
            }),
            "{neighbour} {at}"
        );
        assert_eq!(
            refusal.unwrap_err().to_string(),
            format!(
                "RRY0 at {at}: its {side} edge is {colour} but the {} edge of BBB0 at \
                 {neighbour} is B: touching edges must have the same colour, or one of \
                 them white (W)",
                side.facing()
            )
        );
    }
}

#[test]
fn the_first_mismatch_in_edge_order_is_named() {
    // Field 12: top 6, left 11, right 13, all blue; RRY0 mismatches all three.
    let b = board(&[("BBB0", 6), ("BBB0", 11), ("BBB0", 13)]);
    let Err(IllegalPlacement::Mismatch { side, .. }) = b.check(oriented("RRY0"), loc(12)) else {
        panic!("expected a mismatch");
    };
    assert_eq!(side, Top);
    // One edge matching is not enough: every touching edge must.
    let b = board(&[("RRR0", 6), ("BBB0", 13)]);
    let Err(IllegalPlacement::Mismatch { side, .. }) = b.check(oriented("RRY0"), loc(12)) else {
        panic!("expected a mismatch");
    };
    assert_eq!(side, Right);
}

#[test]
fn white_matches_anything_on_either_side() {
    // White neighbours accept every tile in every rotation, and a white tile fits
    // between any colours.
    let b = board(&[("WWW0", 6), ("WWW0", 11), ("WWW0", 13)]);
    for text in ["RRY0", "RRY1", "RRY2", "GRB1", "PPP0"] {
        let value = oriented(text).tile().value();
        assert_eq!(b.check(oriented(text), loc(12)), Ok(value * 3), "{text}");
    }
    let b = board(&[("RRR0", 6), ("BBB0", 11), ("GGG0", 13)]);
    assert_eq!(b.check(oriented("WWW0"), loc(12)), Ok(3));
}

#[test]
fn scores_on_bonus_fields() {
    // RRY0 (value 5) next to 1, 2 or 3 white tiles on each kind of bonus field.
    // Field 10 (x2, down): top 4, left 9, right 11. Field 2 (x3, down): top 0, left 1,
    // right 3. Field 11 (x4, up): bottom 19, right 12, left 10.
    // Points are 5 x edges x bonus.
    let cases: [(u8, &[u8], u32); 9] = [
        (10, &[4], 10),
        (10, &[4, 9], 20),
        (10, &[4, 9, 11], 30),
        (2, &[0], 15),
        (2, &[0, 1], 30),
        (2, &[0, 1, 3], 45),
        (11, &[19], 20),
        (11, &[19, 12], 40),
        (11, &[19, 12, 10], 60),
    ];
    for (at, neighbours, points) in cases {
        let whites: Vec<(&str, u8)> = neighbours.iter().map(|&n| ("WWW0", n)).collect();
        assert_eq!(
            board(&whites).check(oriented("RRY0"), loc(at)),
            Ok(points),
            "{at} {neighbours:?}"
        );
    }
    // The most a placement can score: RRR on a x4 field against three red edges.
    let b = board(&[("RRR0", 19), ("RRR0", 12), ("RRR0", 10)]);
    assert_eq!(b.check(oriented("RRR0"), loc(11)), Ok(72));
    // Coloured matches count like white ones: GRB1 at 6 shows R on its left, and the
    // down field 5 (x1) with RRY1 shows R on its right.
    assert_eq!(board(&[("GRB1", 6)]).check(oriented("RRY1"), loc(5)), Ok(5));
}

#[test]
fn place_agrees_with_check() {
    let mut b = Board::new();
    assert_eq!(
        b.place(oriented("RRY0"), loc(11)),
        Err(IllegalPlacement::FirstOnBonus { location: loc(11) })
    );
    assert!(b.is_empty());
    assert_eq!(b.place(oriented("RRY0"), loc(12)), Ok(5));
    assert_eq!(b.placed(), 1);
    assert_eq!(b.get(loc(12)), Some(oriented("RRY0")));
    let before = b.clone();
    assert!(b.place(oriented("BBB0"), loc(6)).is_err());
    assert_eq!(b, before, "a refused placement changed the board");
    // RRY0 at 12 shows R on top; GGR1 at 6 shows R G G (bottom, right, left).
    assert_eq!(b.place(oriented("GGR1"), loc(6)), Ok(5));
    assert_eq!(
        b.placements().map(|p| p.to_string()).collect::<Vec<_>>(),
        ["GGR1 at 6", "RRY0 at 12"]
    );
}

#[test]
fn finding_a_placement() {
    let empty = Board::new();
    assert_eq!(empty.find_placement(&[]), None);
    assert_eq!(
        empty.find_placement(&[tile("GRB"), tile("RRR")]),
        Some(Placement {
            tile: oriented("GRB0"),
            location: loc(0)
        })
    );
    // BBB0 on the top corner: only field 2 touches it, and it wants blue on top.
    let b = board(&[("BBB0", 0)]);
    assert!(!b.can_place_any(&[tile("RRR"), tile("RRY"), tile("GGY")]));
    assert_eq!(
        b.find_placement(&[tile("RRR"), tile("BBR"), tile("WWW")]),
        Some(Placement {
            tile: oriented("BBR0"),
            location: loc(2)
        })
    );
    // RRB needs two turns to show B first: RRB1 is B R R.
    assert_eq!(
        b.find_placement(&[tile("RRB")]),
        Some(Placement {
            tile: oriented("RRB1"),
            location: loc(2)
        })
    );
    assert!(b.can_place_any(&[tile("WWW")]));
    assert!(!b.can_place_any(&[]));
}

#[test]
fn the_search_agrees_with_check_everywhere() {
    // Boards built by legal placements from a fixed order of the set; after each
    // placement, the search's verdict for every single tile equals brute force.
    let mut rng = crate::engine::rng::Rng::new(99);
    for _ in 0..50 {
        let mut b = Board::new();
        let mut tiles = Tile::ALL.to_vec();
        rng.shuffle(&mut tiles);
        for &t in &tiles {
            for &single in &Tile::ALL {
                let brute = Location::all().any(|l| {
                    Rotation::ALL
                        .iter()
                        .any(|&r| b.check(OrientedTile::new(single, r), l).is_ok())
                });
                let found = b.find_placement(&[single]);
                assert_eq!(found.is_some(), brute, "{single}\n{}", b.render());
                if let Some(p) = found {
                    assert!(b.check(p.tile, p.location).is_ok());
                }
            }
            if let Some(p) = b.find_placement(&[t]) {
                b.place(p.tile, p.location).unwrap();
            }
        }
    }
}
