//! The rules of Spectrangle, and nothing else: no I/O, no wire format, no clocks.
//!
//! - [`Colour`], [`Tile`] ([`Letters`]), [`Rotation`], [`OrientedTile`], [`Spelling`]:
//!   the tiles, and how a client's `RYR1` resolves to the dealt `RRY0`.
//! - [`Location`], [`Side`]: the 36 triangular fields, their neighbours and bonuses.
//! - [`Board`]: the tiles placed; [`Board::check`] asks, [`Board::place`] acts, with
//!   the same verdict ([`IllegalPlacement`]); [`Board::render`] draws it for the console.
//! - [`Game`]: hands, bag, turns, play/swap/skip, scores and the end
//!   ([`MoveError`], [`PlayReport`], [`SwapReport`], [`Turn`], [`EndReason`]).
//!
//! The engine is deterministic for a seed (the bag is shuffled with
//! [`crate::engine::rng::Rng`]) and never panics on any input: every refusal is a value.
//! Parsing `RYR1` from a line and naming players belong to the protocol and the server.

mod board;
mod colour;
mod error;
mod game;
mod location;
mod orientation;
mod render;
mod tile;

#[cfg(test)]
mod playouts;
#[cfg(test)]
mod testing;

pub use board::{Board, Placement};
pub use colour::Colour;
pub use error::{IllegalPlacement, MoveError, PlayerCountError};
pub use game::{
    Dealt, EndReason, Game, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PlayReport, SwapReport, Turn,
};
pub use location::{FIELDS, Location, ROWS, Side};
pub use orientation::{OrientedTile, Rotation, Spelling};
pub use tile::{Letters, Tile};
