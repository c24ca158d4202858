//! The practice bot: a Go player inside the server, for a student alone in the lab.
//!
//! [`Bot::choose`] picks a move for a position of a [`Game`](crate::engine::go::Game)
//! within a [`Budget`] (a deadline, a number of simulations, or both) by Monte-Carlo
//! tree search: simulations walk down a tree of positions by each move's estimate
//! (its mean reward blended with RAVE, started from the heuristics' priors), then
//! finish the game by a playout of the classic heuristics (answer ataris, 3x3
//! shapes, no bad self-atari), scored by area as the game will be. The tree is kept
//! from one move to the next. A [`Level`] (1 to 5) sets how much of the budget is
//! used and how carefully. Pure: no I/O, no threads, no clock but the deadline; the
//! game loop calls it on a thread of its own.
//!
//! - `level`: the levels and what each means ([`Level`]).
//! - `budget`: how long to think ([`Budget`]).
//! - `search`: passing, the simulation loop, the tree kept between moves ([`Bot`],
//!   [`Summary`]).
//! - `tree`: nodes and edges, selection by RAVE, updates, subtrees.
//! - `prior`: the moves of a new node and the priors they start from.
//! - `ladder`: reading ladders, for the priors.
//! - `policy`: the playouts' next move.
//! - `patterns`: the 3x3 shapes.
//! - `position`: the search's own board (simple ko, liberties, eyes, self-atari).
//! - `area`: the area score of a finished simulation.
//! - `reward`: what a finished simulation is worth to a player.
//!
//! Never an illegal move: the root's moves are checked against `Game::check`, and the
//! choice is checked again before it is returned.

mod area;
mod budget;
mod ladder;
mod level;
mod patterns;
mod policy;
mod position;
mod prior;
mod reward;
mod search;
pub mod spectrangle;
mod tree;

pub use budget::Budget;
pub use level::{Level, LevelError};
pub use search::{Bot, Summary};
pub use spectrangle::SpectrangleBot;
