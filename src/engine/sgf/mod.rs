//! SGF (`FF[4]`) records of Go games: writing a game's record, and reading the records
//! clients send. Shared by every front end that speaks SGF (GO! records, Bkgo boards).
//!
//! | file | owns |
//! | --- | --- |
//! | `write` | [`write()`]: the text of a game's record ([`RecordInfo`]: players, result, date) |
//! | `read` | [`read`]: a client's text to an [`SgfGame`], through sgf-parse; [`load`]: read and replay |
//! | `record` | [`SgfGame`]: size, setup, moves; [`SgfGame::replay`] on the rules engine |
//! | `error` | [`SgfError`]: every refusal, one line a student can act on |
//! | `notation` | points and colours as SGF writes them (`dd`, `B`) |
//! | `date` | the record's date (`DT`) |
//!
//! It does not judge moves (the engine does, in [`SgfGame::replay`]), save files, or
//! know any wire protocol: a front end decides when a record is written or read.
//! [`read`] parses on a short-lived thread of its own (see there why).

mod date;
mod error;
mod notation;
mod read;
mod record;
mod write;

pub use error::SgfError;
pub use notation::{score_result, win_result};
pub use read::{ReadLimits, load, read};
pub use record::SgfGame;
pub use write::{RecordInfo, write};

#[cfg(test)]
mod round_trip_tests;
