//! A fixed row of counters that takes its memory at the first count, four bytes a
//! counter. Most clients never make a mistake, and ten thousand clients holding games
//! (each card kept alive by its connection) should cost a few hundred bytes each, not
//! kilobytes: `make bench` holds 10,000 clients under 300 MB.
//!
//! A counter stops at `u32::MAX` (4,294,967,295) rather than wrap: a client making a
//! million mistakes a day would take eleven years to reach it.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// `N` counters, all zero until the first is counted.
pub struct Counters<const N: usize> {
    slots: OnceLock<Box<[AtomicU32; N]>>,
}

impl<const N: usize> Default for Counters<N> {
    fn default() -> Self {
        Counters {
            slots: OnceLock::new(),
        }
    }
}

impl<const N: usize> Counters<N> {
    /// Adds `n` to counter `index` (stopping at `u32::MAX`); returns what it held
    /// before.
    pub fn add(&self, index: usize, n: u64) -> u64 {
        let slots = self
            .slots
            .get_or_init(|| Box::new(std::array::from_fn(|_| AtomicU32::new(0))));
        let n = u32::try_from(n).unwrap_or(u32::MAX);
        let before = slots[index].fetch_update(Ordering::Relaxed, Ordering::Relaxed, |held| {
            Some(held.saturating_add(n))
        });
        // The closure always returns Some: both arms hold the value before.
        u64::from(before.unwrap_or_else(|held| held))
    }

    /// Counter `index` as it is now.
    pub fn get(&self, index: usize) -> u64 {
        self.slots
            .get()
            .map_or(0, |slots| u64::from(slots[index].load(Ordering::Relaxed)))
    }

    /// Every counter as it is now.
    pub fn all(&self) -> [u64; N] {
        std::array::from_fn(|index| self.get(index))
    }

    /// Adds `other`'s counts to these (no memory taken if `other` counted nothing).
    pub fn absorb(&self, other: &Counters<N>) {
        for (index, count) in other.all().into_iter().enumerate() {
            if count > 0 {
                self.add(index, count);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_take_memory_only_when_counted_and_absorb_adds() {
        let mine: Counters<4> = Counters::default();
        let theirs: Counters<4> = Counters::default();
        mine.absorb(&theirs);
        assert!(
            mine.slots.get().is_none(),
            "nothing counted, nothing allocated"
        );
        assert_eq!(mine.all(), [0; 4]);
        assert_eq!(theirs.add(2, 5), 0);
        assert_eq!(theirs.add(2, 1), 5);
        mine.add(0, 1);
        mine.absorb(&theirs);
        assert_eq!(mine.all(), [1, 0, 6, 0]);
        mine.add(3, u64::MAX);
        mine.add(3, 1);
        assert_eq!(
            mine.get(3),
            u64::from(u32::MAX),
            "a counter stops, never wraps"
        );
    }
}
