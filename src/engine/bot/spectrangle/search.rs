//! The race between the candidate turns of one decision: each round guesses the bag
//! once and, on that same guess, plays every candidate still in the race followed by
//! a few turns of every player; candidates clearly behind the leader drop out, and the
//! search stops when one is left or the budget is spent.
//!
//! Owns the statistics (each candidate's mean margin, and the margin between every two
//! candidates on the rounds both played), when a candidate drops out, and the final
//! choice. The simulated players' policy is `policy`'s; the rules are
//! `position`'s; the budget's arithmetic is [`Budget`]'s.
//!
//! Playing every candidate on the same guessed bag with the same tie-breaks ("common
//! random numbers") makes the difference between two candidates much less noisy than
//! either's own result: most of the luck of the draw is shared.

use std::time::Instant;

use crate::engine::bot::Budget;
use crate::engine::rng::Rng;

use super::policy;
use super::position::{Place, Position};

/// The constants of the race. One set is in play ([`Tuning::default`]); the tests
/// try others (the `experiment` test), and the values below are the ones that won most
/// there, or as much as any with less work.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Tuning {
    /// Candidates raced at most: the best by their prior. Racing 16 won no more games
    /// than 8 (50.7 % against 8, 1,000 games at 400 simulated games a turn).
    pub(crate) candidates: usize,
    /// Rounds every candidate plays before any can drop out.
    pub(crate) min_rounds: u32,
    /// How sure the race must be that a candidate is behind the leader before it drops
    /// out: its mean margin below the leader's by this many standard errors of their
    /// paired differences. Dropping a candidate that was in fact as good costs little
    /// (it was close), so the bar is moderate; 1.5 and 4 did no better.
    pub(crate) drop_z: f64,
    /// The prior counts as this many rounds of evidence, so that a few noisy rounds
    /// do not overturn it: with 8 the bot won fewer games against a greedy player at
    /// 16 simulated games a turn than with none at all.
    pub(crate) prior_weight: f64,
    /// How far a simulated game goes: this many turns of every player after the
    /// candidate, then its margin counts. Shorter than the whole game, because the
    /// simulated players are cruder than real ones and the far future mostly adds
    /// noise. Against the bot playing whole games (two players, 400 simulated games a
    /// turn each), 10 turns after the candidate won 54 % of 2,000 games, 7 turns 55 %
    /// of 1,000, 4 turns 50 % and 2 turns 36 %; the bot as it is (8 turns) won 52 %
    /// of 1,000 and lost 47 % (ties are neither).
    pub(crate) horizon_rounds: usize,
    /// Rounds at most, whatever the budget allows (3,200 simulated games with 8
    /// candidates): more hardly change the choice (3,200 simulated games a turn won
    /// 51 % against 400, 1,000 games), and the player would wait for nothing.
    pub(crate) max_rounds: u32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            candidates: 8,
            min_rounds: 8,
            drop_z: 2.5,
            prior_weight: 16.0,
            horizon_rounds: 4,
            max_rounds: 400,
        }
    }
}

/// A turn the bot might take, in its own terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Candidate {
    /// Place a tile.
    Place(Place),
    /// Return this tile to the bag for another.
    Swap(u8),
    /// Let the turn pass.
    Skip,
}

/// One candidate and the evidence about it.
#[derive(Clone, Debug)]
struct Entry {
    /// The turn.
    candidate: Candidate,
    /// Its value before any simulation (higher is better): breaks ties.
    prior: i64,
    /// Whether it is still in the race.
    alive: bool,
    /// Rounds played.
    rounds: u32,
    /// Sum of its margins.
    total: f64,
}

/// The paired statistics of two candidates over the rounds both played.
#[derive(Clone, Copy, Debug, Default)]
struct Pair {
    /// Rounds both played.
    rounds: u32,
    /// Sum of (first's margin − second's margin).
    sum: f64,
    /// Sum of its squares.
    squares: f64,
}

/// What a race found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Outcome {
    /// The chosen candidate.
    pub(super) candidate: Candidate,
    /// Its mean margin over the simulated games, `None` without any.
    pub(super) margin: Option<f64>,
    /// Simulated games played.
    pub(super) playouts: u32,
}

/// Races `candidates` (with their priors) for `player` in `position` within `budget`
/// (the search having begun at `started`). Returns `None` only when there are no
/// candidates.
pub(super) fn race(
    position: &Position,
    player: usize,
    candidates: Vec<(Candidate, i64)>,
    budget: Budget,
    started: Instant,
    tuning: &Tuning,
    rng: &mut Rng,
) -> Option<Outcome> {
    let mut entries: Vec<Entry> = candidates
        .into_iter()
        .map(|(candidate, prior)| Entry {
            candidate,
            prior,
            alive: true,
            rounds: 0,
            total: 0.0,
        })
        .collect();
    let k = entries.len();
    let mut pairs = vec![Pair::default(); k * k];
    let mut margins = vec![0.0; k];
    let (mut rounds, mut playouts) = (0u32, 0u32);
    let horizon = tuning.horizon_rounds * position.players();
    while k > 1 && rounds < tuning.max_rounds {
        let alive = entries.iter().filter(|e| e.alive).count();
        if alive <= 1 {
            break;
        }
        // After a round the budget knows the speed: a round that cannot be finished is
        // not begun. During the first it is asked before every game (against a
        // deadline the first games measure the speed), and a round cut short is not
        // counted.
        if rounds > 0 && budget.playouts_left(playouts, started, Instant::now()) < alive as u64 {
            break;
        }
        let mut guess = position.clone();
        guess.shuffle_bag(rng);
        let seed = rng.next_u64();
        let mut complete = true;
        for (entry, margin) in entries.iter().zip(margins.iter_mut()) {
            if !entry.alive {
                continue;
            }
            if budget.playouts_left(playouts, started, Instant::now()) == 0 {
                complete = false;
                break;
            }
            *margin = simulate(
                &guess,
                player,
                entry.candidate,
                horizon,
                &mut Rng::new(seed),
            );
            playouts += 1;
        }
        if !complete {
            break;
        }
        for (entry, &margin) in entries.iter_mut().zip(&margins) {
            if entry.alive {
                entry.rounds += 1;
                entry.total += margin;
            }
        }
        for a in 0..k {
            for b in 0..k {
                if a != b && entries[a].alive && entries[b].alive {
                    let d = margins[a] - margins[b];
                    let pair = &mut pairs[a * k + b];
                    pair.rounds += 1;
                    pair.sum += d;
                    pair.squares += d * d;
                }
            }
        }
        rounds += 1;
        if rounds >= tuning.min_rounds {
            drop_the_beaten(&mut entries, &pairs, tuning);
        }
    }
    let best = leader(&entries, tuning)?;
    let entry = &entries[best];
    Some(Outcome {
        candidate: entry.candidate,
        margin: (entry.rounds > 0).then(|| entry.total / f64::from(entry.rounds)),
        playouts,
    })
}

/// Plays `candidate` for `player` on `guess`, then `turns` more turns (fewer if the
/// game ends); returns `player`'s margin over the best other player then.
fn simulate(
    guess: &Position,
    player: usize,
    candidate: Candidate,
    turns: usize,
    rng: &mut Rng,
) -> f64 {
    let mut game = guess.clone();
    match candidate {
        Candidate::Place(place) => game.play(place),
        Candidate::Swap(tile) => game.swap(tile, rng),
        Candidate::Skip => game.skip(),
    }
    policy::rollout(&mut game, turns, rng);
    margin(game.scores(), player)
}

/// `player`'s score minus the best score of the others.
pub(super) fn margin(scores: &[u32], player: usize) -> f64 {
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != player)
        .map(|(_, &s)| s)
        .max()
        .unwrap_or(0);
    f64::from(scores.get(player).copied().unwrap_or(0)) - f64::from(best_other)
}

/// The candidate still in the race with the best estimate (ties: the higher prior,
/// then the earlier).
///
/// The estimate is the mean margin with the prior counted as `PRIOR_WEIGHT` rounds
/// more: a few noisy rounds do not overturn the prior, many do. Every candidate in the
/// race has played the same rounds, so the part of the margin all share (the points
/// already scored, the luck of the guessed bag) does not bias the comparison.
fn leader(entries: &[Entry], tuning: &Tuning) -> Option<usize> {
    let weight = tuning.prior_weight;
    let estimate = |e: &Entry| (e.total + weight * e.prior as f64) / (f64::from(e.rounds) + weight);
    (0..entries.len())
        .filter(|&i| entries[i].alive)
        .reduce(|best, i| {
            let (a, b) = (&entries[best], &entries[i]);
            let better = match estimate(b).partial_cmp(&estimate(a)) {
                Some(std::cmp::Ordering::Greater) => true,
                Some(std::cmp::Ordering::Equal) => b.prior > a.prior,
                _ => false,
            };
            if better { i } else { best }
        })
}

/// Drops every candidate whose paired margin behind the leader is more than `DROP_Z`
/// standard errors, and every one that has done exactly as well as the leader in
/// every round so far (the same turn in effect, e.g. in a fully known endgame).
fn drop_the_beaten(entries: &mut [Entry], pairs: &[Pair], tuning: &Tuning) {
    let k = entries.len();
    let Some(lead) = leader(entries, tuning) else {
        return;
    };
    for other in 0..k {
        if other == lead || !entries[other].alive {
            continue;
        }
        let pair = pairs[lead * k + other];
        if pair.rounds < tuning.min_rounds {
            continue;
        }
        let n = f64::from(pair.rounds);
        let mean = pair.sum / n;
        let variance = ((pair.squares - pair.sum * mean) / (n - 1.0)).max(0.0);
        let error = (variance / n).sqrt();
        if mean > tuning.drop_z * error || (error == 0.0 && mean >= 0.0) {
            entries[other].alive = false;
        }
    }
}
