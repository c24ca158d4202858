//! A small seeded random number generator (SplitMix64) for every random choice the
//! server makes: colours, Spectrangle's bag and turn order, the bot's playouts.
//!
//! Deterministic for a given seed, so `--seed N` makes a whole run repeatable; without
//! a seed, [`Rng::from_entropy`] starts from the standard library's per-process random
//! keys. Not for cryptography (the Bkgo password is compared, never generated).

use std::hash::{BuildHasher, RandomState};
use std::time::SystemTime;

/// A SplitMix64 generator: 64 bits of state, one add and three mixes per number.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator that always produces the same numbers for the same `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// A generator for stream `stream` of `seed`: game 7 of a seeded server gets its own
    /// numbers, independent of game 6's, and the same in every run.
    pub fn derive(seed: u64, stream: u64) -> Rng {
        let mut mixer = Rng::new(seed ^ stream.wrapping_mul(0xa076_1d64_78bd_642f));
        Rng::new(mixer.next_u64())
    }

    /// A generator seeded from the process's random hash keys and the clock.
    pub fn from_entropy() -> Rng {
        Rng::new(RandomState::new().hash_one(SystemTime::now()))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, or 0 when `n` is 0 (so no caller can make it panic).
    pub fn below(&mut self, n: usize) -> usize {
        // Multiply-shift: the high half of a 64x64-bit product is uniform enough in
        // `0..n` for games, and needs no division.
        let wide = u128::from(self.next_u64()) * n as u128;
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// A fair coin.
    pub fn coin(&mut self) -> bool {
        self.next_u64() >> 63 == 1
    }

    /// Shuffles `items` in place (Fisher-Yates): every order equally likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_numbers() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
        assert_ne!(Rng::derive(42, 1).next_u64(), Rng::derive(42, 2).next_u64());
        assert_eq!(Rng::derive(42, 1).next_u64(), Rng::derive(42, 1).next_u64());
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0usize; 5];
        for _ in 0..5000 {
            seen[rng.below(5)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn shuffle_keeps_every_item() {
        let mut rng = Rng::new(3);
        let mut items: Vec<u32> = (0..36).collect();
        rng.shuffle(&mut items);
        assert_ne!(items, (0..36).collect::<Vec<_>>());
        items.sort_unstable();
        assert_eq!(items, (0..36).collect::<Vec<_>>());
    }
}
