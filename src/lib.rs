//! goserver: a GO! game server for teaching labs.
//!
//! Students' clients connect over TCP and play Go with the `+`-delimited GO! line
//! protocol; a teaching assistant watches and steers through the console. The design
//! is blocking and thread-per-connection, layered so that each layer knows only the
//! ones below it:
//!
//! ```text
//! console ─┐
//!          ├─> lobby (matchmaking) ─> game loop ─> go rules engine (pure)
//! net ─────┘                          │
//!  (listener, connection: line I/O)   └─> protocol (parse / format, pure)
//! ```
//!
//! | module | owns | does not |
//! | --- | --- | --- |
//! | [`go`] | the rules: legality, captures, ko, scoring | any I/O, the wire format |
//! | [`protocol`] | GO! lines to typed commands, typed messages to lines | sockets, game rules |
//! | [`net`] | the listener, line reading, non-blocking bounded output, pacing | Go or GO! |
//! | [`session`] | one client's thread: reads lines, routes them | game state |
//! | [`lobby`] | names, waiting games, who sits where (one mutex) | socket I/O under its lock |
//! | [`game`] | one thread per game: the whole GO! flow, records | blocking on any client |
//! | [`server`] | wiring, accept loop, orderly shutdown | protocol details |
//! | [`console`] | the operator's commands | blocking a game |
//! | [`shutdown`] | the one shutdown trigger | |
//! | [`settings`], [`cli`], [`logging`] | configuration and logs | |

pub mod cli;
pub mod console;
pub mod game;
pub mod go;
pub mod lobby;
pub mod logging;
pub mod net;
pub mod protocol;
pub mod server;
pub mod session;
pub mod settings;
pub mod shutdown;
