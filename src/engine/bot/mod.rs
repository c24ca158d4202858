//! The practice bot: a Go player inside the server, for a student alone in the lab.
//!
//! [`Bot::choose`] picks a move for a position of a [`Game`](crate::engine::go::Game) within a
//! [`Budget`] (a deadline, a number of playouts, or both) by flat Monte-Carlo search:
//! random games played to the end from each candidate move, scored by area as the game
//! will be. Pure: no I/O, no threads; the game loop calls it on its own thread.
//!
//! - `budget`: how long to think ([`Budget`]).
//! - `search`: the candidates, passing, the playout loop ([`Bot`], [`Summary`]).
//! - `root`: per-candidate statistics (UCB1 with RAVE), when to stop, the final choice.
//! - `playout`: one random game to the end on the engine's board, simple ko only.
//! - `eye`: the one-point eyes a player never fills.
//! - `reward`: what a finished playout is worth to a player.
//!
//! Never an illegal move: candidates are the moves `Game::check` accepts, and the
//! choice is checked again against the real game before it is returned.

mod budget;
mod eye;
mod playout;
mod reward;
mod root;
mod search;
pub mod spectrangle;

pub use budget::Budget;
pub use search::{Bot, Summary};
pub use spectrangle::SpectrangleBot;
