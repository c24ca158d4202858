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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

/// The most cards kept; past it, the idlest card that no connected client holds is
/// forgotten.
pub const CARDS_KEPT: usize = 2_000;

/// A card's key: its front end and name.
type Key = (Front, Box<str>);

/// How many of the idlest cards one scan lists for forgetting (see [`Kept`]): a
/// client naming itself past the bound pays for a scan of every card once in this
/// many times, not each time (a scan of 2,000 cards takes tens of microseconds, and
/// it is on the way to the client's ACKNOWLEDGE_HANDSHAKE).
const IDLEST_LISTED: usize = 64;

/// Every card of the server.
pub struct Cards {
    kept_cards: Mutex<Kept>,
    kept: usize,
    forgotten: AtomicU64,
}

/// The cards, and the next to forget.
#[derive(Default)]
struct Kept {
    cards: HashMap<Key, Arc<Card>>,
    /// The idlest cards nobody held at the last scan, idlest last, each with the
    /// moment it was last seen then. One is forgotten per new card past the bound, if
    /// it is still unheld and unseen since (a card seen since is no longer among the
    /// idlest; one held then and let go since waits for the next scan).
    idlest: Vec<Listed>,
}

/// A card listed for forgetting: its key, when it was last seen at the scan, and the
/// card itself (a weak pointer: listing it holds nothing).
struct Listed {
    key: Key,
    last_seen_ms: u64,
    card: Weak<Card>,
}

impl Kept {
    /// Forgets the idlest card nobody holds; false when every card is held.
    fn forget_idlest(&mut self) -> bool {
        if self.forget_listed() {
            return true;
        }
        self.list_idlest();
        self.forget_listed()
    }

    /// Forgets the first listed card that is still as it was at the scan.
    fn forget_listed(&mut self) -> bool {
        while let Some(listed) = self.idlest.pop() {
            let unchanged = self.cards.get(&listed.key).is_some_and(|card| {
                std::ptr::eq(Arc::as_ptr(card), listed.card.as_ptr())
                    && Arc::strong_count(card) == 1
                    && card.last_seen_ms() == listed.last_seen_ms
            });
            if unchanged {
                self.cards.remove(&listed.key);
                return true;
            }
        }
        false
    }

    /// Lists the [`IDLEST_LISTED`] idlest cards that nobody holds, idlest last.
    fn list_idlest(&mut self) {
        let mut unheld: Vec<(u64, &Key, &Arc<Card>)> = self
            .cards
            .iter()
            .filter(|(_, card)| Arc::strong_count(card) == 1)
            .map(|(key, card)| (card.last_seen_ms(), key, card))
            .collect();
        if unheld.len() > IDLEST_LISTED {
            unheld.select_nth_unstable_by_key(IDLEST_LISTED, |(seen, _, _)| *seen);
            unheld.truncate(IDLEST_LISTED);
        }
        unheld.sort_unstable_by_key(|(seen, _, _)| std::cmp::Reverse(*seen));
        self.idlest = unheld
            .into_iter()
            .map(|(last_seen_ms, key, card)| Listed {
                key: key.clone(),
                last_seen_ms,
                card: Arc::downgrade(card),
            })
            .collect();
    }
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
            kept_cards: Mutex::new(Kept::default()),
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
        let mut kept = self.kept_cards.lock();
        if let Some(card) = kept.cards.get(&(front, name.into())) {
            return Arc::clone(card);
        }
        if kept.cards.len() >= self.kept && kept.forget_idlest() {
            self.forgotten.fetch_add(1, Ordering::Relaxed);
        }
        let card = Arc::new(Card::new(front, name));
        kept.cards.insert((front, name.into()), Arc::clone(&card));
        card
    }

    /// The card of `name` in `front`, if there is one.
    pub fn find(&self, front: Front, name: &str) -> Option<Arc<Card>> {
        self.kept_cards
            .lock()
            .cards
            .get(&(front, name.into()))
            .cloned()
    }

    /// Every card as a row of the lists (without its examples): the worst first (see
    /// [`CardView::badness`]), then by front end and name.
    pub fn rows(&self) -> Vec<CardView> {
        let cards: Vec<Arc<Card>> = self.kept_cards.lock().cards.values().cloned().collect();
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
        self.kept_cards.lock().cards.len()
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
        let kept = self.kept_cards.lock();
        let cards = &kept.cards;
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

    /// Cards kept to three: a, b and c, named in that order, a few milliseconds apart.
    fn three_named_in_turn() -> Cards {
        let cards = Cards::keeping(3);
        for name in ["a", "b", "c"] {
            cards.named(Front::Go, name);
            std::thread::sleep(std::time::Duration::from_millis(3));
        }
        cards
    }

    #[test]
    fn past_the_bound_the_idlest_card_is_forgotten() {
        let cards = three_named_in_turn();
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
    fn a_card_seen_since_the_scan_is_not_forgotten_before_an_idler_one() {
        let cards = three_named_in_turn();
        // The scan lists a, b and c; a, the idlest, is forgotten.
        cards.named(Front::Go, "d");
        assert!(cards.find(Front::Go, "a").is_none());
        std::thread::sleep(std::time::Duration::from_millis(3));
        cards.named(Front::Go, "b").connected();
        cards.named(Front::Go, "e");
        assert!(cards.find(Front::Go, "c").is_none(), "c was the idlest now");
        assert!(cards.find(Front::Go, "b").is_some(), "b was seen since");
        // A card listed, forgotten and named again is a new card, never the listed one.
        cards.named(Front::Go, "c");
        assert_eq!((cards.len(), cards.forgotten()), (3, 3));
    }

    #[test]
    fn many_names_past_the_bound_keep_it_exactly() {
        let cards = Cards::keeping(100);
        for n in 0..1_000 {
            cards.named(Front::Go, &format!("n{n}"));
            assert_eq!(cards.len(), (n + 1).min(100));
        }
        assert_eq!(cards.forgotten(), 900);
        assert!(
            cards.find(Front::Go, "n999").is_some(),
            "the newest is kept"
        );
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
