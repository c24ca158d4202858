//! goserver: a game server for teaching labs, speaking the course's line protocols.
//!
//! Students' clients connect over TCP; a teaching assistant watches and steers through
//! the console. The design is blocking and thread-per-connection. Front ends, one per
//! protocol and each on its own port, stand side by side over the same layers; each
//! layer knows only the ones below it:
//!
//! ```text
//!           main ─> server ─┬─> frontend: go │ spectrangle │ bkgo ──┬─> engine (pure):
//!                           │   (each: protocol, registry, tables)  │   go, spectrangle,
//!   console ───────────────>┤                                       │   bot, sgf, rng
//!   (operator, stdin)       │                                       ├─> net: lines, limits,
//!   web ───────────────────>┤                                       │   hand-off, output
//!   (browsers, read-only)   │                                       └─> live, results, cards:
//!                           └─> shutdown, workers, records              what the games publish
//!
//!   main ─> check (`goserver check`: another server under test) ─> the front ends'
//!           protocol modules (the other side of each line), engine, net's line reader
//! ```
//!
//! | module | owns | does not |
//! | --- | --- | --- |
//! | [`engine`] | the pure engines: the rules of Go and of Spectrangle, the practice bot, SGF records, seeded randomness | any I/O, any wire format, any clock of the server's |
//! | [`net`] | the listener, the read loop, line bounds, the ordered bounded hand-off of each line to its game, non-blocking bounded output, pacing | any protocol |
//! | [`live`] | the latest snapshot of every game, published by the game loops, and the web's viewers waiting for the next | the web itself, any front end |
//! | [`results`] | every finished game's result (ARENA.md), the `--results` file appended and read back, the standings (Glicko-2, Weng-Lin) and GO!'s crosstable | which front end a result came from beyond its name |
//! | [`cards`] | every client's report card: connections, games, moves, each kind of mistake with its first examples, move times (bounded, recorded without waiting) | which line is a mistake: each front end says so |
//! | [`front`] | the one name of each front end (`go`, `spectrangle`, `bkgo`) | |
//! | [`frontend`] | one module per protocol: its wire format, its registry (who is connected, who sits where), its game loops | another front end's clients |
//! | [`server`] | wiring: a listener and an accept loop per front end, orderly shutdown | protocol details |
//! | [`web`] | the live web board: pages, JSON, event streams, over every front end | changing a game, blocking one |
//! | [`console`] | the operator's commands, over every front end | blocking a game |
//! | [`check`] | `goserver check`: the conformance suites run against another server (a student's), their cases, wire logs and reports | serving; no front end knows it |
//! | [`records`] | saving a finished game's record in `--records` | its format |
//! | [`shutdown`] | the one shutdown trigger | |
//! | [`workers`] | pooled OS threads for connections and game loops | |
//! | [`secret`] | a password read at start: hidden, compared in constant time | who may try it |
//! | [`settings`], [`cli`], [`logging`] | configuration and logs (never blocking a thread that logs) | |
//! | [`html`] | text put into HTML pages, escaped (the web board, the checker's report) | |
//!
//! New to the code? Start with the guided tour in `docs/tour.md` in the repository: it
//! follows one client line from the listener to its answer in thirteen stops, naming
//! at each the file and function to open, the classic mistake the design avoids there,
//! and the test that proves it.

pub mod cards;
pub mod check;
pub mod cli;
pub mod console;
#[cfg(test)]
mod cpu_clock;
pub mod engine;
pub mod front;
pub mod frontend;
pub mod html;
pub mod live;
pub mod logging;
pub mod net;
pub mod play;
pub mod records;
pub mod results;
pub mod secret;
pub mod server;
pub mod settings;
pub mod shutdown;
pub mod web;
pub mod workers;
