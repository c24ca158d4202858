//! Which front end a game belongs to: the one name the web's paths, the JSON of the
//! live board and of results, and the console use for GO!, Spectrangle and Bkgo.

use serde::{Deserialize, Serialize};

/// A front end, as paths, JSON and results name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Front {
    /// GO!.
    Go,
    /// Spectrangle.
    Spectrangle,
    /// The Bkgo room.
    Bkgo,
}

impl Front {
    /// Every front end, as the paths name them.
    pub const ALL: [Front; 3] = [Front::Go, Front::Spectrangle, Front::Bkgo];

    /// The front end a path names (`go`, `spectrangle`, `bkgo`).
    pub fn parse(text: &str) -> Option<Front> {
        Front::ALL.into_iter().find(|f| f.name() == text)
    }

    /// Its name in paths and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Front::Go => "go",
            Front::Spectrangle => "spectrangle",
            Front::Bkgo => "bkgo",
        }
    }
}
