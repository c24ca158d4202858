//! Who met whom in GO!, and with which colours: the arena's memory, rebuilt from the
//! GO! results at start and kept up to date as games end.

use super::result::GameResult;
use crate::front::Front;
use std::collections::HashMap;

/// Every GO! pair's meetings, and each player's colours.
#[derive(Clone, Debug, Default)]
pub struct Meetings {
    /// The pair (names in order) → how often it met, and who had black last time.
    pairs: HashMap<(String, String), Pair>,
    /// Each player's blacks minus whites.
    balance: HashMap<String, i32>,
}

#[derive(Clone, Debug, Default)]
struct Pair {
    times: u32,
    last_black: String,
}

impl Meetings {
    /// Counts a GO! game, whatever its ending: the pair met, with these colours.
    pub fn record(&mut self, result: &GameResult) {
        if result.front != Front::Go {
            return;
        }
        let [black, white] = result.players.as_slice() else {
            return;
        };
        if black.name == white.name {
            return;
        }
        let pair = self.pairs.entry(key(&black.name, &white.name)).or_default();
        pair.times += 1;
        pair.last_black.clone_from(&black.name);
        *self.balance.entry(black.name.clone()).or_default() += 1;
        *self.balance.entry(white.name.clone()).or_default() -= 1;
    }

    /// How often `a` and `b` have met.
    pub fn times_met(&self, a: &str, b: &str) -> u32 {
        self.pairs.get(&key(a, b)).map_or(0, |p| p.times)
    }

    /// Who had black when `a` and `b` last met.
    pub fn last_black(&self, a: &str, b: &str) -> Option<&str> {
        self.pairs.get(&key(a, b)).map(|p| p.last_black.as_str())
    }

    /// `name`'s blacks minus whites.
    pub fn colour_balance(&self, name: &str) -> i32 {
        self.balance.get(name).copied().unwrap_or(0)
    }
}

fn key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_string(), b.to_string())
    } else {
        (b.to_string(), a.to_string())
    }
}
