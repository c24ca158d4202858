//! The bot's move choice: which moves are candidates, when to pass without thinking,
//! and the loop of playouts within the budget.
//!
//! Owns the decision for one position of a real [`Game`]; the statistics live in
//! [`Root`], the random games in [`Playout`], their value in [`reward`]. No I/O, no
//! threads, no clock but the deadline in the [`Budget`].

use std::time::Instant;

use crate::engine::go::{Colour, Game, IllegalMove, Move, PlayedMove, SuicideRule};
use crate::engine::rng::Rng;

use super::budget::Budget;
use super::eye::is_eye;
use super::playout::Playout;
use super::reward::reward;
use super::root::Root;

/// A Go player that chooses its moves by Monte-Carlo playouts.
///
/// Deterministic for a given seed, position sequence and playout budget (a deadline
/// makes the number of playouts, so the choice, depend on the machine's speed).
#[derive(Clone, Debug)]
pub struct Bot {
    /// The source of every random choice.
    rng: Rng,
    /// What the latest search did.
    summary: Summary,
}

/// What one call of [`Bot::choose`] did, for logs and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Playouts run.
    pub playouts: u32,
    /// Moves played in those playouts, passes included.
    pub playout_moves: u64,
    /// Candidate moves considered, passing included (0 when the bot answered without
    /// searching).
    pub candidates: usize,
    /// The estimated reward of the chosen move for the bot, from 0 (sure loss) to 1
    /// (sure win by the whole board); `None` without a search.
    pub value: Option<f64>,
}

impl Bot {
    /// A bot whose random choices all follow from `seed`.
    pub fn new(seed: u64) -> Bot {
        Bot {
            rng: Rng::new(seed),
            summary: Summary::default(),
        }
    }

    /// What the latest [`choose`](Self::choose) did.
    pub fn summary(&self) -> Summary {
        self.summary
    }

    /// Chooses a move for `colour` in `game` within `budget`: always one that
    /// `game.check(colour, mv)` accepts.
    ///
    /// Passes without searching when the opponent has just passed and `colour` leads on
    /// the area score of the board, komi included (passing ends the game with its win),
    /// and when it has no candidate but passing (no legal move that does not fill its
    /// own eye). Otherwise runs playouts, trying every candidate and passing, and plays
    /// the one tried most: it passes only if passing looked best. Without time for a
    /// single playout, it plays a random candidate.
    ///
    /// # Errors
    /// [`IllegalMove::GameOver`] or [`IllegalMove::NotYourTurn`]: no move is legal.
    pub fn choose(
        &mut self,
        game: &Game,
        colour: Colour,
        budget: Budget,
    ) -> Result<Move, IllegalMove> {
        let started = Instant::now();
        // Passing is legal whenever any move is, so this asks "may `colour` move at all?".
        game.check(colour, Move::Pass)?;
        self.summary = Summary::default();
        if passing_wins(game, colour) {
            return Ok(Move::Pass);
        }
        let mut candidates = candidates(game, colour);
        if candidates.is_empty() {
            return Ok(Move::Pass);
        }
        self.rng.shuffle(&mut candidates);
        candidates.push(Move::Pass);
        let mut root = Root::new(candidates);
        let mut playout = Playout::new(game.board());
        let multi_suicide = game.rules().suicide == SuicideRule::MultiStoneAllowed;
        let points = game.size() * game.size();
        // After a pass of ours, an opponent that would not lose on the board passes too
        // and ends the game, as this bot does; otherwise it plays on.
        let passes_after_ours = if game.score().winner() == Some(colour) {
            1
        } else {
            2
        };
        while let Some(mv) = root.select() {
            let left = budget.playouts_left(root.playouts(), started, Instant::now());
            if left == 0 || root.is_settled(left) {
                break;
            }
            playout.reset(game.board());
            playout.play(colour, mv, multi_suicide);
            let after = if mv == Move::Pass {
                passes_after_ours
            } else {
                0
            };
            let moves = playout.finish(colour.opponent(), after, &mut self.rng);
            let (black, white) = playout.area();
            let value = reward(black, white, game.rules().komi, colour, points);
            root.record(mv, value, |p| playout.first_at(p) == Some(colour));
            self.summary.playout_moves += 1 + moves as u64;
        }
        self.summary.playouts = root.playouts();
        self.summary.candidates = root.len();
        self.summary.value = root.best_value();
        let choice = root.best().unwrap_or(Move::Pass);
        // The playouts use lighter rules than the game: the game has the last word.
        Ok(if game.check(colour, choice).is_ok() {
            choice
        } else {
            Move::Pass
        })
    }
}

/// Whether passing now ends the game with `colour`'s win: the opponent has just passed
/// and `colour` leads on the current board's area score, komi included.
fn passing_wins(game: &Game, colour: Colour) -> bool {
    let opponent_passed = game.last_move()
        == Some(PlayedMove {
            colour: colour.opponent(),
            mv: Move::Pass,
        });
    opponent_passed && game.score().winner() == Some(colour)
}

/// Every move the game allows `colour` except filling its own eyes, in board order.
fn candidates(game: &Game, colour: Colour) -> Vec<Move> {
    let board = game.board();
    board
        .points()
        .filter(|&p| board.get(p).is_none() && !is_eye(board, colour, p))
        .map(Move::Play)
        .filter(|&mv| game.check(colour, mv).is_ok())
        .collect()
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
