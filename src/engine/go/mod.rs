//! The rules of Go, and nothing else: no I/O, no wire format, no clocks.
//!
//! - [`Colour`], [`Point`], [`Move`]: the vocabulary.
//! - [`Rules`] ([`KoRule`], [`SuicideRule`], [`Komi`]): the variants a game is played under.
//! - [`Board`]: stones and chains with an incremental Zobrist hash; its `Display` is a
//!   diagram that [`Board::from_diagram`] reads back, and [`Board::render`] draws a
//!   labelled picture for the operator console.
//! - [`Game`]: turn order, history, captures, passes, superko; [`Game::check`] asks,
//!   [`Game::play`] acts, both with the same verdict ([`IllegalMove`]).
//! - [`Setup`]: stones on the board before the first move; [`Game::from_setup`] starts
//!   a game from one or refuses it ([`SetupError`]).
//! - [`Score`]: Tromp-Taylor area scoring with komi.
//!
//! The engine is deterministic (the Zobrist table comes from a fixed seed) and never
//! panics on any input: every refusal is a value.

mod board;
mod colour;
mod diagram;
mod error;
mod game;
mod point;
mod rules;
mod score;
mod setup;
mod zobrist;

pub use board::Board;
pub use colour::Colour;
pub use error::{BoardSizeError, IllegalMove};
pub use game::{Game, Move, MoveReport, PlayedMove};
pub use point::Point;
pub use rules::{KoRule, Komi, Rules, SuicideRule};
pub use score::Score;
pub use setup::{Setup, SetupError};

/// The smallest board size.
pub const MIN_SIZE: usize = 2;
/// The largest board size.
pub const MAX_SIZE: usize = 25;
/// Cells in the largest board with its border of off-board points: the board's cells
/// and the Zobrist table are indexed by these.
pub(crate) const MAX_LOCS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 2);
