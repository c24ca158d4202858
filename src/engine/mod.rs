//! The pure engines: the rules of each game, the practice bots, game records and
//! seeded random numbers. Nothing here does I/O, knows a wire format or a clock of the
//! server's: each is a library the front ends call, unit-tested on its own.
//!
//! - [`go`]: the rules of Go: legality, captures, ko, scoring.
//! - [`spectrangle`]: the rules of Spectrangle: tiles, the board, placing, scoring.
//! - [`bot`]: the practice bot's move choice (Monte-Carlo playouts within a budget).
//! - [`sgf`]: writing a Go game's SGF record, reading the SGF a client sends.
//! - [`rng`]: seeded random numbers (`--seed`), for every random choice.

pub mod bot;
pub mod go;
pub mod rng;
pub mod sgf;
pub mod spectrangle;
