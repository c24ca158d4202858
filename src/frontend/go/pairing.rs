//! The arena's pairing rule (ARENA.md), pure: of the players waiting at a round, the
//! pairs that have met least often are made first; ties go to the pair with the
//! longest-waiting player, then to the closest ratings; an odd player waits for the
//! next round. Partners are then swapped between two pairs only where that makes fewer
//! repeat meetings (see `fewer_repeats`); among rounds with as few, the rule's own
//! pairs stand. Then the colours: a pair that has met before swaps its last colours;
//! otherwise the player with fewer blacks than whites so far takes black; a tie is a
//! coin from the server's seeded randomness.

use crate::engine::rng::Rng;
use crate::results::Meetings;
use std::cmp::Ordering;

/// A player waiting for a round.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// Its granted name.
    pub name: String,
    /// When it started waiting, in arrival order (smaller waited longer).
    pub arrival: u64,
    /// Its GO! rating now.
    pub rating: f64,
}

/// A game of a round: who has black, who has white (indexes into the waiting list).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub black: usize,
    pub white: usize,
}

/// Pairs the players `waiting` (at most one is left over: the one of an odd number
/// that the rule reaches last). Returns the pairings, in the order they were made.
pub fn pair(waiting: &[Waiting], meetings: &Meetings, rng: &mut Rng) -> Vec<Pairing> {
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for a in 0..waiting.len() {
        for b in a + 1..waiting.len() {
            candidates.push((a, b));
        }
    }
    let key = |&(a, b): &(usize, usize)| {
        let (first, second) = (&waiting[a], &waiting[b]);
        (
            meetings.times_met(&first.name, &second.name),
            first.arrival.min(second.arrival),
            (first.rating - second.rating).abs(),
            first.arrival.max(second.arrival),
        )
    };
    candidates.sort_by(|x, y| {
        let (kx, ky) = (key(x), key(y));
        kx.0.cmp(&ky.0)
            .then(kx.1.cmp(&ky.1))
            .then(kx.2.partial_cmp(&ky.2).unwrap_or(Ordering::Equal))
            .then(kx.3.cmp(&ky.3))
    });
    let mut taken = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for (a, b) in candidates {
        if taken[a] || taken[b] {
            continue;
        }
        taken[a] = true;
        taken[b] = true;
        pairs.push((a, b));
    }
    fewer_repeats(&mut pairs, |a, b| {
        let times = u64::from(meetings.times_met(&waiting[a].name, &waiting[b].name));
        times * times
    });
    pairs
        .into_iter()
        .map(|(a, b)| {
            if takes_black(&waiting[a].name, &waiting[b].name, meetings, rng) {
                Pairing { black: a, white: b }
            } else {
                Pairing { black: b, white: a }
            }
        })
        .collect()
}

/// Swaps partners between two pairs while that lowers the round's repeat meetings (a
/// pair's meetings squared, so a third meeting weighs more than two second ones). The
/// greedy rule alone can leave its last two players a pair that has met, when a swap
/// gives everyone a new opponent; where no swap saves a repeat, the rule's pairs
/// (longest waiting, closest ratings) stand as they are.
fn fewer_repeats(pairs: &mut [(usize, usize)], cost: impl Fn(usize, usize) -> u64) {
    let total = |x: (usize, usize), y: (usize, usize)| cost(x.0, x.1) + cost(y.0, y.1);
    let lower = |new: u64, old: u64| new < old;
    // Each swap lowers the cost, which cannot fall forever: this ends.
    let mut swapped = true;
    while swapped {
        swapped = false;
        for i in 0..pairs.len() {
            for j in i + 1..pairs.len() {
                let ((a, b), (c, d)) = (pairs[i], pairs[j]);
                let now = total((a, b), (c, d));
                for (x, y) in [((a, c), (b, d)), ((a, d), (b, c))] {
                    if lower(total(x, y), now) {
                        pairs[i] = x;
                        pairs[j] = y;
                        swapped = true;
                        break;
                    }
                }
            }
        }
    }
}

/// Whether `a` takes black against `b`: the one who had white when they last met;
/// for a first meeting the one with fewer blacks than whites so far; else a coin.
pub fn takes_black(a: &str, b: &str, meetings: &Meetings, rng: &mut Rng) -> bool {
    if let Some(last_black) = meetings.last_black(a, b) {
        return last_black != a;
    }
    match meetings.colour_balance(a).cmp(&meetings.colour_balance(b)) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => rng.coin(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::Front;
    use crate::results::{Ending, GameResult, Player, Score, result};

    fn waiting(names: &[&str]) -> Vec<Waiting> {
        names
            .iter()
            .enumerate()
            .map(|(arrival, name)| Waiting {
                name: (*name).to_string(),
                arrival: arrival as u64,
                rating: 1500.0,
            })
            .collect()
    }

    fn met(meetings: &mut Meetings, black: &str, white: &str) {
        let player = |name: &str, colour| Player {
            name: name.into(),
            colour,
            score: Score(0.0),
        };
        meetings.record(&GameResult {
            front: Front::Go,
            game: 1,
            started: result::now(),
            ended: result::now(),
            players: vec![player(black, 1), player(white, 2)],
            winner: None,
            places: None,
            ending: Ending::Passes,
            moves: 2,
            size: Some(9),
            rated: true,
        });
    }

    fn names(list: &[Waiting], pairings: &[Pairing]) -> Vec<(String, String)> {
        pairings
            .iter()
            .map(|p| (list[p.black].name.clone(), list[p.white].name.clone()))
            .collect()
    }

    #[test]
    fn pairs_that_met_least_are_made_first() {
        let mut meetings = Meetings::default();
        met(&mut meetings, "Ann", "Bob");
        met(&mut meetings, "Cid", "Dan");
        let list = waiting(&["Ann", "Bob", "Cid", "Dan"]);
        let pairings = pair(&list, &meetings, &mut Rng::new(1));
        let mut pairs: Vec<(String, String)> = names(&list, &pairings)
            .into_iter()
            .map(|(a, b)| if a < b { (a, b) } else { (b, a) })
            .collect();
        pairs.sort();
        assert_eq!(
            pairs,
            [
                ("Ann".to_string(), "Cid".to_string()),
                ("Bob".to_string(), "Dan".to_string())
            ]
        );
    }

    #[test]
    fn an_odd_player_waits_and_it_is_the_newest() {
        let list = waiting(&["Ann", "Bob", "Cid"]);
        let pairings = pair(&list, &Meetings::default(), &mut Rng::new(1));
        assert_eq!(pairings.len(), 1);
        let paired: Vec<usize> = vec![pairings[0].black, pairings[0].white];
        assert!(paired.contains(&0) && paired.contains(&1), "{pairings:?}");
    }

    #[test]
    fn among_equals_the_closest_ratings_meet() {
        let mut list = waiting(&["Ann", "Bob", "Cid"]);
        list[1].rating = 1900.0;
        list[2].rating = 1520.0;
        let pairings = pair(&list, &Meetings::default(), &mut Rng::new(1));
        let mut paired = vec![pairings[0].black, pairings[0].white];
        paired.sort_unstable();
        assert_eq!(paired, [0, 2]);
    }

    /// ARENA.md's ties, when nobody has met: the longest waiting player meets the
    /// closest rating, and the rest pair the same way, however far apart they are.
    #[test]
    fn with_no_repeat_to_save_the_rule_s_pairs_stand() {
        let mut list = waiting(&["Ann", "Bob", "Cid", "Dan"]);
        list[1].rating = 1662.0;
        list[2].rating = 1280.0;
        list[3].rating = 1720.0;
        let pairings = pair(&list, &Meetings::default(), &mut Rng::new(1));
        let mut pairs: Vec<[usize; 2]> = pairings
            .iter()
            .map(|p| {
                let mut pair = [p.black, p.white];
                pair.sort_unstable();
                pair
            })
            .collect();
        pairs.sort_unstable();
        assert_eq!(pairs, [[0, 1], [2, 3]]);
    }

    #[test]
    fn a_second_meeting_swaps_the_colours() {
        let mut meetings = Meetings::default();
        met(&mut meetings, "Ann", "Bob");
        for seed in 0..20 {
            let mut rng = Rng::new(seed);
            assert!(takes_black("Bob", "Ann", &meetings, &mut rng));
            assert!(!takes_black("Ann", "Bob", &meetings, &mut rng));
        }
    }

    #[test]
    fn a_first_meeting_gives_black_to_the_one_with_fewer_blacks() {
        let mut meetings = Meetings::default();
        met(&mut meetings, "Ann", "Cid");
        met(&mut meetings, "Dan", "Bob");
        // Ann: +1, Bob: -1.
        assert!(takes_black("Bob", "Ann", &meetings, &mut Rng::new(3)));
        assert!(!takes_black("Ann", "Bob", &meetings, &mut Rng::new(3)));
    }

    #[test]
    fn six_players_meet_everyone_twice_once_with_each_colour() {
        let names_list = ["A", "B", "C", "D", "E", "F"];
        let mut meetings = Meetings::default();
        let mut rng = Rng::new(7);
        let mut rounds = 0;
        let all_met_twice = |m: &Meetings| {
            names_list
                .iter()
                .enumerate()
                .all(|(i, a)| names_list[i + 1..].iter().all(|b| m.times_met(a, b) >= 2))
        };
        let mut blacks = std::collections::HashMap::new();
        while !all_met_twice(&meetings) {
            rounds += 1;
            assert!(rounds <= 30, "still not everyone met twice after 30 rounds");
            let list = waiting(&names_list);
            let pairings = pair(&list, &meetings, &mut rng);
            assert_eq!(pairings.len(), 3, "six players make three games");
            for (black, white) in names(&list, &pairings) {
                blacks
                    .entry((black.clone(), white.clone()))
                    .and_modify(|n| *n += 1)
                    .or_insert(1);
                met(&mut meetings, &black, &white);
            }
        }
        // The fewest rounds a double round robin can take: 15 pairs, 3 games a round.
        assert_eq!(rounds, 10);
        for (i, a) in names_list.iter().enumerate() {
            for b in &names_list[i + 1..] {
                let a_black = blacks.get(&((*a).to_string(), (*b).to_string()));
                let b_black = blacks.get(&((*b).to_string(), (*a).to_string()));
                assert!(
                    a_black.is_some() && b_black.is_some(),
                    "{a} and {b} did not play once with each colour"
                );
            }
        }
    }
}
