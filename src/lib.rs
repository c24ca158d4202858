//! goserver: a game server for teaching labs, speaking the course's line protocols.
//!
//! Students' clients connect over TCP; a teaching assistant watches and steers through
//! the console. The design is blocking and thread-per-connection. Front ends, one per
//! protocol and each on its own port, stand side by side over the same layers; each
//! layer knows only the ones below it:
//!
//! ```text
//!                              ┌─ go (GO!) ──────┐    rules engines (pure): go, spectrangle
//! console ─┐                   │                 ├──> bot (plays GO!), sgf, records
//!          ├─> server ─> frontend ─ spectrangle ─┤
//! main ────┘                   │                 │    net (lines, limits, timeouts)
//!                              └─ bkgo (Bkgo) ───┘    workers, rng, shutdown
//! ```
//!
//! | module | owns | does not |
//! | --- | --- | --- |
//! | [`go`] | the rules of Go: legality, captures, ko, scoring | any I/O, any wire format |
//! | [`spectrangle`] | the rules of Spectrangle: tiles, the board, placing, scoring | any I/O, any wire format |
//! | [`bot`] | the practice bot's move choice (Monte-Carlo playouts within a budget) | when or where it plays |
//! | [`sgf`] | writing a game's SGF record, reading the SGF a client sends | files, sockets |
//! | [`records`] | saving a finished game's record in `--records` | its format |
//! | [`net`] | the listener, the read loop, line bounds, non-blocking bounded output, pacing | any protocol |
//! | [`frontend`] | one module per protocol: its wire format, matchmaking, game loops | another front end's clients |
//! | [`server`] | wiring: a listener and an accept loop per front end, orderly shutdown | protocol details |
//! | [`console`] | the operator's commands, over every front end | blocking a game |
//! | [`shutdown`] | the one shutdown trigger | |
//! | [`rng`] | seeded random numbers (`--seed`) | |
//! | [`workers`] | pooled OS threads for connections and game loops | |
//! | [`secret`] | a password read at start: hidden, compared in constant time | who may try it |
//! | [`settings`], [`cli`], [`logging`] | configuration and logs | |

pub mod cli;
pub mod console;
pub mod engine;
pub mod frontend;
pub mod logging;
pub mod net;
pub mod records;
pub mod secret;
pub mod server;
pub mod settings;
pub mod shutdown;
pub mod workers;
