//! The live view of every game, for the web board: each game loop publishes a snapshot
//! of its game after a change ([`Live::publish`], never waiting), and the web reads the
//! latest ones and waits for the next change. A layer below the front ends and beside
//! the engines: the front ends publish into it without knowing the web, and the web
//! reads it without reaching into any front end.
//!
//! - [`snapshot`]: one game at one moment, and its JSON.
//! - [`hub`]: the latest snapshot of every game shown, and the viewers waiting.
//! - [`record`]: a Go game's moves as they are played, for its record.

pub mod hub;
pub mod record;
pub mod snapshot;

pub use hub::{Changes, FINISHED_SHOWN, Live, Watch};
pub use record::{GoRecord, MoveLog};
pub use snapshot::{
    Bonus, Colours, Detail, Front, GameKey, GoBoard, Seat, Snapshot, SpectrangleBoard,
    SpectranglePlayer, Status, Summary, colour_digit,
};
