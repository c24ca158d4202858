//! Simple opponents for the bot's tests and benchmarks, and a loop that plays a game
//! between any players to its end.
//!
//! Built on the engine's public API only (`Game::check` for every tile, rotation and
//! field), never on the bot's own position code, so a mistake there cannot hide in both
//! the bot and the opponent it is measured against.

use crate::engine::rng::Rng;
use crate::engine::spectrangle::{Game, Location, MoveError, OrientedTile, Placement};

use super::Choice;

/// A player of a game: anything that chooses a turn for `player` in `game`.
pub trait Player {
    /// The turn `player` takes in `game`, which is its turn.
    ///
    /// # Errors
    /// Whatever keeps the player from choosing (e.g. the game is over).
    fn choose(&mut self, game: &Game, player: usize) -> Result<Choice, MoveError>;
}

/// Any closure of the right shape is a player.
impl<F: FnMut(&Game, usize) -> Result<Choice, MoveError>> Player for F {
    fn choose(&mut self, game: &Game, player: usize) -> Result<Choice, MoveError> {
        self(game, player)
    }
}

/// Every placement `player` may make in `game` now, with its points, in the order of
/// the hand, the rotations and the fields (each tile-rotation and field once).
pub fn legal_placements(game: &Game, player: usize) -> Vec<(Placement, u32)> {
    let mut legal = Vec::new();
    for &tile in game.hand(player) {
        for &rotation in tile.distinct_rotations() {
            let spelling = OrientedTile::new(tile, rotation).into();
            for location in Location::all() {
                if let Ok(found) = game.check(player, spelling, location) {
                    legal.push(found);
                }
            }
        }
    }
    legal
}

/// What a player does that cannot place: swap a random tile while the bag has any,
/// else skip.
fn stuck(game: &Game, player: usize, rng: &mut Rng) -> Choice {
    let hand = game.hand(player);
    if game.bag_len() > 0 && !hand.is_empty() {
        Choice::Swap(hand[rng.below(hand.len())])
    } else {
        Choice::Skip
    }
}

/// Places a uniformly random legal placement; when it cannot place, swaps a random
/// tile while the bag has any, else skips.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    /// The source of every choice.
    rng: Rng,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, game: &Game, player: usize) -> Result<Choice, MoveError> {
        let legal = legal_placements(game, player);
        Ok(match legal.get(self.rng.below(legal.len())) {
            Some(&(placement, _)) => Choice::Place(placement),
            None => stuck(game, player, &mut self.rng),
        })
    }
}

/// Always makes the highest-scoring placement (ties broken at random); when it cannot
/// place, swaps a random tile while the bag has any, else skips.
#[derive(Clone, Debug)]
pub struct GreedyPlayer {
    /// Breaks ties.
    rng: Rng,
}

impl GreedyPlayer {
    /// A greedy player whose tie-breaks follow from `seed`.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &Game, player: usize) -> Result<Choice, MoveError> {
        let legal = legal_placements(game, player);
        let Some(top) = legal.iter().map(|&(_, points)| points).max() else {
            return Ok(stuck(game, player, &mut self.rng));
        };
        let best: Vec<Placement> = legal
            .iter()
            .filter(|&&(_, points)| points == top)
            .map(|&(placement, _)| placement)
            .collect();
        Ok(Choice::Place(best[self.rng.below(best.len())]))
    }
}

/// Plays `game` to its end, `players[i]` choosing for player `i`; returns the number of
/// turns played.
///
/// # Errors
/// The first error of a player's `choose`, or the engine's refusal of a choice (an
/// illegal move): the game stops there.
pub fn play_out(game: &mut Game, players: &mut [&mut dyn Player]) -> Result<usize, MoveError> {
    let mut turns = 0;
    while !game.is_over() {
        let player = game.to_move();
        let Some(seat) = players.get_mut(player) else {
            return Err(MoveError::GameOver);
        };
        let choice = seat.choose(game, player)?;
        choice.apply(game, player)?;
        turns += 1;
    }
    Ok(turns)
}

/// Whether `player` alone has the highest score (a tie for first is not first).
pub fn is_sole_winner(game: &Game, player: usize) -> bool {
    let scores = game.scores();
    let mine = scores.get(player).copied().unwrap_or(0);
    scores
        .iter()
        .enumerate()
        .all(|(other, &score)| other == player || score < mine)
}
