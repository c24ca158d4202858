//! The Spectrangle practice bot: a player for the table loop, for a student alone in
//! the lab.
//!
//! [`SpectrangleBot::choose`] picks a [`Choice`] (a placement, a swap or a skip) for a
//! player of a [`Game`] within a [`Budget`] (a deadline, a number of simulated games,
//! or both), and [`Choice::apply`] makes it. Pure: no I/O, no threads, no clock but
//! the budget's deadline.
//!
//! The bot knows what every player at the table knows: the board, the scores, every
//! hand (each `TILE` line goes to every player) and how many tiles the bag holds. It
//! never reads the bag's order (the engine does not show it): its simulations draw
//! from the tiles seen nowhere else, shuffled anew for every guess.
//!
//! How it chooses:
//!
//! 1. The candidates are what the rules allow: every legal placement; only when it can
//!    place nothing, a swap of each of its tiles (while the bag has tiles) and a skip.
//!    A single candidate is returned at once.
//! 2. Each placement's prior is its points minus the most any other player could
//!    score right after it with the hand it holds: a bonus field opened to a tile
//!    another player holds costs what that tile would score there. The best eight go
//!    on.
//! 3. The race (`search`): rounds of simulated games, each on a new guess at the bag.
//!    In a round every candidate still in the race is played, then four turns of every
//!    player, each making the placement worth most in points minus the next player's
//!    best reply (`policy`), and the bot's margin over the best other player is
//!    recorded; candidates clearly behind the leader drop out. The leader is played:
//!    the best mean margin, with the prior counted as a few rounds, so a budget too
//!    small for simulations leaves the choice to the prior.
//!
//! The choice is checked with the engine before it is returned; the bot's copy of the
//! rules is also compared with the engine's by the tests.
//!
//! - `position`: the bot's fast copy of the rules and of a position (edge colours,
//!   hands as bit masks, a guessed bag).
//! - `policy`: how the simulated players play.
//! - `search`: the race, its statistics and its constants (`Tuning`).
//! - [`sparring`]: a random and a greedy player and a game loop, for tests and
//!   benchmarks.
//!
//! Strength, from `cargo bench --bench spectrangle_bot` (1,000 two-player games a row,
//! first alone; a tie for first is not first):
//!
//! | opponent | simulated games a turn | bot first | ms a turn |
//! | --- | ---: | ---: | ---: |
//! | random | 24 | 99.6 % | 0.07 |
//! | greedy (always the highest-scoring placement) | 0 | 94.8 % | 0.002 |
//! | greedy | 24 | 96.7 % | 0.08 |
//! | greedy | 400 | 99.0 % | 0.7 |
//! | the bot without simulations | 400 | 90.3 % | 0.7 |
//!
//! Among two greedy players it finishes first alone in 60.7 % of games, among three
//! in 40.5 % (400 simulated games a turn). With the server's 300 ms deadline a turn
//! took 2.0 ms on average (7.9 ms at most): the race ends when one candidate is left
//! or after 3,200 simulated games.

mod policy;
mod position;
mod search;
pub mod sparring;

use std::fmt;
use std::time::Instant;

use crate::engine::rng::Rng;
use crate::engine::spectrangle::{Game, MoveError, Placement, Tile, Turn};

use super::Budget;
use position::Position;
use search::{Candidate, Tuning};

/// What a player does on its turn, in the terms of the engine's calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Place a tile: `Game::play(player, placement.tile.into(), placement.location)`.
    Place(Placement),
    /// Give this tile back to the bag for another: `Game::swap(player, tile.letters())`.
    Swap(Tile),
    /// Let the turn pass: `Game::skip(player)`.
    Skip,
}

impl Choice {
    /// Makes this choice in `game` for `player`; returns the turn as the history
    /// records it.
    ///
    /// # Errors
    /// The engine's refusal ([`Game::play`], [`Game::swap`], [`Game::skip`]); then
    /// nothing changes.
    pub fn apply(self, game: &mut Game, player: usize) -> Result<Turn, MoveError> {
        Ok(match self {
            Choice::Place(placement) => {
                Turn::Played(game.play(player, placement.tile.into(), placement.location)?)
            }
            Choice::Swap(tile) => Turn::Swapped(game.swap(player, tile.letters())?),
            Choice::Skip => {
                game.skip(player)?;
                Turn::Skipped {
                    player,
                    forced: false,
                }
            }
        })
    }

    /// Whether `game` accepts this choice from `player` now.
    ///
    /// # Errors
    /// The engine's refusal, as [`apply`](Self::apply) would give it.
    pub fn check(self, game: &Game, player: usize) -> Result<(), MoveError> {
        match self {
            Choice::Place(placement) => game
                .check(player, placement.tile.into(), placement.location)
                .map(|_| ()),
            // The engine has no query for these: try them on a copy.
            Choice::Swap(_) | Choice::Skip => self.apply(&mut game.clone(), player).map(|_| ()),
        }
    }
}

/// E.g. `RRY0 at 12`, `swap RRY0`, `skip`.
impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choice::Place(placement) => write!(f, "{placement}"),
            Choice::Swap(tile) => write!(f, "swap {tile}"),
            Choice::Skip => f.write_str("skip"),
        }
    }
}

/// What one call of [`SpectrangleBot::choose`] did, for logs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Legal placements of the hand (distinct tile, rotation and field).
    pub placements: usize,
    /// Candidate turns raced in simulated games (0 when the choice needed no search).
    pub candidates: usize,
    /// Simulated games played.
    pub playouts: u32,
    /// The points the chosen placement scores now (0 for a swap or skip).
    pub points: u32,
    /// The chosen turn's mean margin in the simulated games, four rounds on: the
    /// bot's score minus the best other score; `None` without simulations.
    pub margin: Option<f64>,
}

/// E.g. `42 placements, 8 raced in 1600 games, 12 points now, margin +23.5`.
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} placements, {} raced in {} games, {} points now",
            self.placements, self.candidates, self.playouts, self.points
        )?;
        match self.margin {
            Some(margin) => write!(f, ", margin {margin:+.1}"),
            None => Ok(()),
        }
    }
}

/// A Spectrangle player that chooses by simulated games.
///
/// Deterministic for a given seed, sequence of positions and playout budget (a
/// deadline makes the number of simulated games, so the choice, depend on the
/// machine's speed).
#[derive(Clone, Debug)]
pub struct SpectrangleBot {
    /// The source of every random choice.
    rng: Rng,
    /// What the latest search did.
    summary: Summary,
    /// The constants of the search.
    pub(crate) tuning: Tuning,
}

impl SpectrangleBot {
    /// A bot whose random choices all follow from `seed`.
    pub fn new(seed: u64) -> SpectrangleBot {
        SpectrangleBot {
            rng: Rng::new(seed),
            summary: Summary::default(),
            tuning: Tuning::default(),
        }
    }

    /// What the latest [`choose`](Self::choose) did.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// Chooses the turn of `player` in `game` within `budget`: always one the engine
    /// accepts now ([`Choice::check`]).
    ///
    /// A player that can place must, so the candidates are placements when there are
    /// any, else swapping each tile (while the bag has tiles) and skipping. A single
    /// candidate is returned at once; otherwise the best by points minus the best
    /// reply of another player are raced in simulated games (see the module doc). Without
    /// budget for a single round of simulations, the best by that first measure is
    /// played. The race also stops by itself when one candidate is left or after
    /// 3,200 simulated games, so a generous deadline is seldom used up.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] or [`MoveError::NotYourTurn`]: `player` may not move.
    pub fn choose(
        &mut self,
        game: &Game,
        player: usize,
        budget: Budget,
    ) -> Result<Choice, MoveError> {
        let started = Instant::now();
        if game.is_over() {
            return Err(MoveError::GameOver);
        }
        if game.to_move() != player {
            return Err(MoveError::NotYourTurn {
                to_move: game.to_move(),
            });
        }
        self.summary = Summary::default();
        let position = Position::new(game);
        let (candidates, placements) = candidates(&position, player, self.tuning.candidates);
        self.summary.placements = placements;
        let chosen = match candidates.as_slice() {
            [] => None,
            &[(only, _)] => Some(only),
            _ => {
                self.summary.candidates = candidates.len();
                let outcome = search::race(
                    &position,
                    player,
                    candidates,
                    budget,
                    started,
                    &self.tuning,
                    &mut self.rng,
                );
                outcome.map(|outcome| {
                    self.summary.playouts = outcome.playouts;
                    self.summary.margin = outcome.margin;
                    outcome.candidate
                })
            }
        };
        if let Some(Candidate::Place(place)) = chosen {
            self.summary.points = u32::from(place.points);
        }
        // The bot's position is its own copy of the rules: the engine has the last word.
        let choice = chosen
            .and_then(choice)
            .filter(|choice| choice.check(game, player).is_ok());
        Ok(choice.unwrap_or_else(|| fallback(game, player)))
    }
}

/// The candidate turns of `player` with their priors, best first (at most `limit`
/// placements), and the number of legal placements.
///
/// A placement's prior is its points minus the most any other player could score
/// right after it with the hand it holds. The next player moves first, but with three
/// or four players one who comes later may hold the tile for the field left open: the
/// worst case of all of them won 60.7 % of games among two greedy players against
/// 57.5 % for the next player's alone (1,000 games, 400 simulated games a turn).
fn candidates(position: &Position, player: usize, limit: usize) -> (Vec<(Candidate, i64)>, usize) {
    let mut places: Vec<(Candidate, i64)> = Vec::new();
    let others = (1..position.players()).map(|i| (player + i) % position.players());
    for (nth, other) in others.enumerate() {
        // The placements come in the same order for every other player.
        let mut i = 0;
        position.for_each_place_with_reply(player, other, |place, reply| {
            let prior = i64::from(place.points) - i64::from(reply);
            match places.get_mut(i) {
                Some(entry) if nth > 0 => entry.1 = entry.1.min(prior),
                _ => places.push((Candidate::Place(place), prior)),
            }
            i += 1;
        });
    }
    let placements = places.len();
    if !places.is_empty() {
        // Stable: equal priors keep the order of the hand, the rotations and fields.
        places.sort_by_key(|&(_, prior)| std::cmp::Reverse(prior));
        places.truncate(limit.max(1));
        return (places, placements);
    }
    // Stuck: swap a tile (the lower its value, the likelier it is useless) or skip.
    let mut stuck = vec![(Candidate::Skip, -100)];
    if !position.bag().is_empty() {
        let mut tiles = position.hand(player).to_vec();
        tiles.sort_unstable();
        tiles.dedup();
        stuck.extend(
            tiles
                .into_iter()
                .map(|t| (Candidate::Swap(t), -i64::from(Position::value(t)))),
        );
    }
    stuck.sort_by_key(|&(_, prior)| std::cmp::Reverse(prior));
    (stuck, 0)
}

/// The engine's terms for a candidate.
fn choice(candidate: Candidate) -> Option<Choice> {
    Some(match candidate {
        Candidate::Place(place) => Choice::Place(place.placement()?),
        Candidate::Swap(tile) => Choice::Swap(*Tile::ALL.get(usize::from(tile))?),
        Candidate::Skip => Choice::Skip,
    })
}

/// A legal turn found by the engine alone, should the bot's own choice ever be refused:
/// a placement if there is one, else a swap of the first tile while the bag has tiles,
/// else a skip.
fn fallback(game: &Game, player: usize) -> Choice {
    if let Some(placement) = game.legal_placement(player) {
        return Choice::Place(placement);
    }
    match game.hand(player).first() {
        Some(&tile) if game.bag_len() > 0 => Choice::Swap(tile),
        _ => Choice::Skip,
    }
}

#[cfg(test)]
#[path = "spectrangle_tests.rs"]
mod tests;
