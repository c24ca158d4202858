//! Report cards: for every client name in each front end, what it did over the life of
//! the server (docs/report.md): its connections, games and moves, every kind of mistake
//! with its first examples, the longest run of one refused line, moves not made in
//! time, games left, and how long it takes to move.
//!
//! The front ends record into a card as they answer (`frontend::card` holds the glue);
//! the console and the web read the cards. Bounded: at most [`CARDS_KEPT`] cards (the
//! idlest is forgotten first, and `stats` counts them), a fixed number of kinds, three
//! examples per kind, each cut to a couple of hundred characters. Recording never
//! waits for a reader: a card's counts are atomics, and the registry's lock is taken
//! only when a client names itself.
//!
//! - [`mistake`]: the kinds of mistake.
//! - [`card`]: one card, and what the views see of it.
//! - [`times`]: the move-time histogram.
//! - [`counters`]: a row of counters that takes memory only when counted.

pub mod card;
pub mod counters;
pub mod mistake;
pub mod times;

pub use card::{Card, CardView, Example, Offending, Outcome, Run};
pub use mistake::Mistake;

use crate::front::Front;
use crate::results::GameResult;
use parking_lot::Mutex;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most cards kept; past it, the idlest card that no connected client holds is
/// forgotten.
pub const CARDS_KEPT: usize = 2_000;

/// A card's key: its front end and name.
type Key = (Front, Box<str>);

/// Every card of the server.
pub struct Cards {
    cards: Mutex<HashMap<Key, Arc<Card>>>,
    kept: usize,
    forgotten: AtomicU64,
}

impl Default for Cards {
    fn default() -> Self {
        Cards::keeping(CARDS_KEPT)
    }
}

impl Cards {
    /// A registry that keeps at most `kept` cards.
    pub fn keeping(kept: usize) -> Cards {
        Cards {
            cards: Mutex::new(HashMap::new()),
            kept: kept.max(1),
            forgotten: AtomicU64::new(0),
        }
    }

    /// The card of `name` in `front`, made if it has none. When the bound is reached
    /// already, the idlest card that nobody holds is forgotten: a connected client's
    /// card stays, so that its game's result and its next connection find it (past
    /// the bound only while more clients than that are connected, which
    /// `--max-clients` bounds).
    pub fn named(&self, front: Front, name: &str) -> Arc<Card> {
        let mut cards = self.cards.lock();
        if let Some(card) = cards.get(&(front, name.into())) {
            return Arc::clone(card);
        }
        if cards.len() >= self.kept {
            let idlest = cards
                .iter()
                .filter(|(_, card)| Arc::strong_count(card) == 1)
                .min_by_key(|(_, card)| card.last_seen_ms())
                .map(|(key, _)| key.clone());
            if let Some(key) = idlest {
                cards.remove(&key);
                self.forgotten.fetch_add(1, Ordering::Relaxed);
            }
        }
        let card = Arc::new(Card::new(front, name));
        cards.insert((front, name.into()), Arc::clone(&card));
        card
    }

    /// The card of `name` in `front`, if there is one.
    pub fn find(&self, front: Front, name: &str) -> Option<Arc<Card>> {
        self.cards.lock().get(&(front, name.into())).cloned()
    }

    /// Every card as a row of the lists (without its examples): the worst first (see
    /// [`CardView::badness`]), then by front end and name.
    pub fn rows(&self) -> Vec<CardView> {
        let cards: Vec<Arc<Card>> = self.cards.lock().values().cloned().collect();
        let mut views: Vec<CardView> = cards.iter().map(|c| c.row()).collect();
        views.sort_by(|a, b| {
            b.badness()
                .cmp(&a.badness())
                .then(a.front.cmp(&b.front))
                .then(a.name.cmp(&b.name))
        });
        views
    }

    /// Every card of `name`, in any front end, whole.
    pub fn named_anywhere(&self, name: &str) -> Vec<CardView> {
        Front::ALL
            .iter()
            .filter_map(|&front| self.find(front, name))
            .map(|card| card.view())
            .collect()
    }

    /// The most cards kept while nobody holds them.
    pub fn kept(&self) -> usize {
        self.kept
    }

    /// Cards kept now.
    pub fn len(&self) -> usize {
        self.cards.lock().len()
    }

    /// Whether no card is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Cards forgotten to keep the bound.
    pub fn forgotten(&self) -> u64 {
        self.forgotten.load(Ordering::Relaxed)
    }

    /// A number that changes whenever any card does, read without any card's lock: a
    /// view sends again only when it moved. It hashes how many cards were forgotten,
    /// how many are kept and the sum of their changes: a card's changes only grow, and
    /// forgetting one, the only way a card goes, counts in the first.
    pub fn fingerprint(&self) -> u64 {
        let cards = self.cards.lock();
        let changes: u64 = cards
            .values()
            .map(|c| c.changes())
            .fold(0, u64::wrapping_add);
        let mut hasher = DefaultHasher::new();
        (self.forgotten(), cards.len(), changes).hash(&mut hasher);
        hasher.finish()
    }

    /// A finished game on the players' cards: the winner won, the others lost; without
    /// a winner, everyone drew (a Spectrangle first place shared counts as a draw too).
    pub fn count_result(&self, result: &GameResult) {
        for player in &result.players {
            let outcome = match &result.winner {
                None => Outcome::Drawn,
                Some(winner) if *winner == player.name => Outcome::Won,
                Some(_) => Outcome::Lost,
            };
            self.named(result.front, &player.name).finished(outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_comes_back_adds_to_the_same_card() {
        let cards = Cards::default();
        let first = cards.named(Front::Go, "Ann");
        first.connected();
        let again = cards.named(Front::Go, "Ann");
        again.connected();
        assert!(Arc::ptr_eq(&first, &again));
        assert_eq!(cards.rows()[0].connections, 2);
        // Another front end, another card.
        cards.named(Front::Spectrangle, "Ann");
        assert_eq!(cards.len(), 2);
    }

    #[test]
    fn past_the_bound_the_idlest_card_is_forgotten() {
        let cards = Cards::keeping(3);
        for name in ["a", "b", "c"] {
            cards.named(Front::Go, name);
            std::thread::sleep(std::time::Duration::from_millis(3));
        }
        cards.named(Front::Go, "a").connected();
        let before = cards.fingerprint();
        cards.named(Front::Go, "d");
        assert_eq!(cards.len(), 3);
        assert_eq!(cards.forgotten(), 1);
        assert!(cards.find(Front::Go, "b").is_none(), "b was the idlest");
        assert!(cards.find(Front::Go, "a").is_some());
        assert_ne!(cards.fingerprint(), before, "a card forgotten and one made");
        // A card a connected client holds is never forgotten: past the bound while
        // they are all held, and the held card is the one its name finds again.
        let held: Vec<Arc<Card>> = ["e", "f", "g", "h"]
            .iter()
            .map(|name| cards.named(Front::Go, name))
            .collect();
        assert_eq!(cards.len(), 4, "a, c and d forgotten, then none free");
        assert!(Arc::ptr_eq(&cards.named(Front::Go, "e"), &held[0]));
        drop(held);
        cards.named(Front::Go, "i");
        assert_eq!(cards.len(), 4, "the idlest of the free ones forgotten");
    }

    #[test]
    fn the_worst_card_comes_first() {
        let cards = Cards::default();
        cards.named(Front::Go, "Good").moved_untimed();
        let bad = cards.named(Front::Go, "Bad");
        bad.mistake(
            Mistake::Ko,
            Offending::Line("MOVE+1+Bad+3"),
            "INVALID_MOVE+ko",
            Run::ONCE,
        );
        let late = cards.named(Front::Go, "Late");
        late.late();
        let names: Vec<String> = cards.rows().into_iter().map(|v| v.name).collect();
        assert_eq!(names, ["Late", "Bad", "Good"]);
    }
}
