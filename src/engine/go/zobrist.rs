//! Zobrist keys for hashing positions, generated at compile time from a fixed seed.
//!
//! The keys are indexed by the board's internal (bordered) location, so the same
//! position on two board sizes hashes differently; a game never changes size.

use super::{Colour, MAX_LOCS};

/// The fixed seed: every build and every run hashes the same position the same way.
const SEED: u64 = 0x676f_7365_7276_6572; // "goserver"

/// One step of splitmix64 (Steele, Lea, Flood), the usual seeder for Zobrist tables.
const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Keys for a black and a white stone on every location, then the side-to-move key.
const fn build() -> ([[u64; MAX_LOCS]; 2], u64) {
    let mut state = SEED;
    let mut keys = [[0; MAX_LOCS]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut loc = 0;
        while loc < MAX_LOCS {
            keys[colour][loc] = splitmix64(&mut state);
            loc += 1;
        }
        colour += 1;
    }
    (keys, splitmix64(&mut state))
}

/// The whole table, computed by the compiler.
static TABLE: ([[u64; MAX_LOCS]; 2], u64) = build();

/// The key of a stone of `colour` on internal location `loc` (`loc < MAX_LOCS`).
#[inline]
pub(crate) fn stone(colour: Colour, loc: usize) -> u64 {
    TABLE.0[colour.slot()][loc]
}

/// The key mixed into a position hash when white is to move (situational superko).
pub(crate) fn white_to_move() -> u64 {
    TABLE.1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_fixed() {
        let mut seen = HashSet::new();
        for c in [Colour::Black, Colour::White] {
            for loc in 0..MAX_LOCS {
                assert!(seen.insert(stone(c, loc)));
            }
        }
        assert!(seen.insert(white_to_move()));
        // The first splitmix64 output for this seed never changes.
        let mut state = SEED;
        assert_eq!(stone(Colour::Black, 0), splitmix64(&mut state));
    }
}
