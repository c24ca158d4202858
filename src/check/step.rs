//! A step of a case and why it failed: what was expected, what arrived, and for a
//! rules case the two boards. The wire and the probe fail steps; the case turns the
//! last step into its verdict.

use serde::Serialize;

/// Two boards side by side: what the rules engine expected and what the server sent,
/// after the move that split them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardDiff {
    /// The move after which they differ, e.g. `black's move at 12 (C3)`.
    pub after: String,
    /// The expected board, one text row per board row.
    pub expected: Vec<String>,
    /// The board the server sent.
    pub got: Vec<String>,
}

/// Why a step failed: what the document (or goserver's engine) expected, and what came.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// What was expected, in words and lines.
    pub expected: String,
    /// What arrived (a line, nothing, a closed connection...).
    pub got: String,
    /// For a rules case: the boards that differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub boards: Option<BoardDiff>,
}

impl Failure {
    /// A failure without boards.
    pub fn new(expected: impl Into<String>, got: impl Into<String>) -> Failure {
        Failure {
            expected: expected.into(),
            got: got.into(),
            boards: None,
        }
    }
}

/// A step of a case: its value, or why the case failed there.
pub type Step<T> = Result<T, Failure>;
