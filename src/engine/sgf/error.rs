//! Why an SGF text is refused: one variant per reason, each shown as one line (no
//! newline, no `+`) that tells a student what was wrong and what was expected.

use std::fmt;

use sgf_parse::{LexerError, SgfParseError};

use super::notation::{colour_letter, letter, move_text};
use crate::engine::go::{BoardSizeError, IllegalMove, Move, PlayedMove, SetupError};

/// How many characters of a client's text a message quotes.
const QUOTED_CHARS: usize = 32;

/// Every reason [`read`](super::read) or [`SgfGame::replay`](super::SgfGame::replay)
/// refuses a record. Nodes are counted from 1 (the first node) along the main line;
/// moves are counted from 1 over the move nodes, passes included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfError {
    /// The text is longer than the caller's limit; it was not parsed.
    TooLarge {
        /// The text's length in bytes.
        bytes: usize,
        /// The longest text accepted, in bytes.
        limit: usize,
    },
    /// sgf-parse could not read the text (it reports no position).
    Syntax(SgfParseError),
    /// Text before the first `(`: a record starts with its game tree.
    TextBeforeGameTree {
        /// The text, shortened and made printable.
        text: String,
    },
    /// Text after the last `)`: a record ends with its game tree.
    TextAfterGameTree {
        /// The text, shortened and made printable.
        text: String,
    },
    /// The thread that parses could not be started (out of threads or memory).
    ReaderUnavailable,
    /// The parsing thread panicked: a bug in sgf-parse or in this module.
    ReaderFailed,
    /// The first game tree is another game (`GM` other than 1).
    NotGo {
        /// The `GM` number.
        game: i64,
    },
    /// `FF` other than 4.
    UnsupportedFormat {
        /// The `FF` number.
        version: i64,
    },
    /// A property this reader uses has a value it cannot read.
    BadValue {
        /// The node holding it.
        node: usize,
        /// The property.
        property: &'static str,
        /// The property as sent, shortened and made printable.
        text: String,
    },
    /// A property this reader uses appears twice in one node.
    RepeatedProperty {
        /// The node holding it.
        node: usize,
        /// The property.
        property: &'static str,
    },
    /// A node holds both a `B` and a `W` move.
    TwoMoves {
        /// The node.
        node: usize,
    },
    /// `FF`, `GM` or `SZ` after the first node.
    RootProperty {
        /// The node holding it.
        node: usize,
        /// The property.
        property: &'static str,
    },
    /// A setup property (`AB`, `AW`, `AE`, `PL`) after the first node.
    LateSetup {
        /// The node holding it.
        node: usize,
        /// The property.
        property: &'static str,
    },
    /// The first node holds setup properties and a move.
    SetupAndMove {
        /// The first setup property.
        setup: &'static str,
        /// The move property.
        mv: &'static str,
    },
    /// `SZ[columns:rows]` with two different numbers.
    Rectangular {
        /// Columns asked for.
        columns: u8,
        /// Rows asked for.
        rows: u8,
    },
    /// `SZ` outside the sizes played here.
    SizeOutOfRange {
        /// The size asked for.
        size: usize,
        /// The smallest size played.
        smallest: usize,
        /// The largest size played.
        largest: usize,
    },
    /// No `SZ`, and the default 19 is not played here.
    NoSize {
        /// The smallest size played.
        smallest: usize,
        /// The largest size played.
        largest: usize,
    },
    /// A point off the board.
    OffBoard {
        /// The node holding it.
        node: usize,
        /// The property holding it.
        property: &'static str,
        /// The point's two letters as sent.
        point: String,
        /// The board size.
        size: usize,
    },
    /// The engine refuses the setup position.
    Setup(SetupError),
    /// The engine refuses the board size (only for a hand-made [`SgfGame`](super::SgfGame)).
    Size(BoardSizeError),
    /// A move by the colour that is not to move: moves must alternate.
    OutOfTurn {
        /// The move's number.
        number: usize,
        /// The move.
        played: PlayedMove,
        /// The board size.
        size: usize,
    },
    /// The engine refuses a move.
    Illegal {
        /// The move's number.
        number: usize,
        /// The move.
        played: PlayedMove,
        /// The board size.
        size: usize,
        /// The engine's reason.
        reason: IllegalMove,
    },
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::TooLarge { bytes, limit } => {
                write!(f, "SGF too large: {bytes} bytes, at most {limit} are read")
            }
            SgfError::Syntax(error) => write!(f, "SGF syntax: {}", syntax(*error)),
            SgfError::TextBeforeGameTree { text } => write!(
                f,
                "SGF syntax: text before the game tree ({text}): a record starts with '(;', like (;FF[4]GM[1]SZ[9])"
            ),
            SgfError::TextAfterGameTree { text } => write!(
                f,
                "SGF syntax: text after the game tree ({text}): a record ends with the ')' that closes its game tree, and a move is a node inside it, like (;SZ[9];B[dd];W[ee])"
            ),
            SgfError::ReaderUnavailable => {
                write!(
                    f,
                    "The server could not start its SGF reader just now: try again"
                )
            }
            SgfError::ReaderFailed => write!(
                f,
                "The SGF reader failed on this text (a server bug): please report it with the SGF"
            ),
            SgfError::NotGo { game } => {
                write!(f, "GM[{game}] is not Go: a Go record has GM[1] (or no GM)")
            }
            SgfError::UnsupportedFormat { version } => write!(
                f,
                "FF[{version}] is not read here: send an FF[4] record (FF[4], or no FF)"
            ),
            SgfError::BadValue {
                node,
                property,
                text,
            } => write!(
                f,
                "Node {node}: {text} is not valid: expected {}",
                expected(property)
            ),
            SgfError::RepeatedProperty { node, property } => write!(
                f,
                "Node {node} has {property} twice: a property appears once per node"
            ),
            SgfError::TwoMoves { node } => {
                write!(f, "Node {node} has both B and W: one move per node")
            }
            SgfError::RootProperty { node, property } => {
                write!(f, "Node {node}: {property} belongs in the first node only")
            }
            SgfError::LateSetup { node, property } => write!(
                f,
                "Node {node}: {property} (setup) is read in the first node only: play later stones as B or W moves"
            ),
            SgfError::SetupAndMove { setup, mv } => write!(
                f,
                "The first node has both setup ({setup}) and a move ({mv}): put the move in a node of its own"
            ),
            SgfError::Rectangular { columns, rows } => write!(
                f,
                "SZ[{columns}:{rows}]: only square boards are played here: write SZ[n]"
            ),
            SgfError::SizeOutOfRange {
                size,
                smallest,
                largest,
            } => write!(
                f,
                "SZ[{size}]: the board size must be from {smallest} to {largest} here"
            ),
            SgfError::NoSize { smallest, largest } => write!(
                f,
                "No SZ in the first node means 19x19, which is not played here: add SZ[n] with n from {smallest} to {largest}"
            ),
            SgfError::OffBoard {
                node,
                property,
                point,
                size,
            } => {
                let last = letter(u8::try_from(size.saturating_sub(1)).unwrap_or(u8::MAX));
                write!(
                    f,
                    "Node {node}: {property}[{point}] is off the {size}x{size} board: coordinates go from a to {last}"
                )
            }
            SgfError::Setup(error) => write!(f, "First node: {error}"),
            SgfError::Size(error) => write!(f, "SGF {error}"),
            SgfError::OutOfTurn {
                number,
                played,
                size,
            } => {
                let mover = played.colour;
                let other = mover.opponent();
                let (mover_letter, other_letter) = (colour_letter(mover), colour_letter(other));
                if *number == 1 {
                    write!(
                        f,
                        "Move 1 ({}): {other} moves first here: start with {other_letter}, or write PL[{mover_letter}] in the first node",
                        describe(*played, *size)
                    )
                } else {
                    write!(
                        f,
                        "Move {number} ({}): {mover} moves twice in a row, but moves alternate: write a pass {other_letter}[] between",
                        describe(*played, *size)
                    )
                }
            }
            SgfError::Illegal {
                number,
                played,
                size,
                reason,
            } => write!(
                f,
                "Move {number} ({}): {}",
                describe(*played, *size),
                illegal(*reason)
            ),
        }
    }
}

impl std::error::Error for SgfError {}

/// A move for a message: `W[dd] at D6`, or `W[]` for a pass.
fn describe(played: PlayedMove, size: usize) -> String {
    match played.mv {
        Move::Play(point) => format!("{} at {}", move_text(played), point.vertex(size)),
        Move::Pass => move_text(played),
    }
}

/// Why the engine refuses a move, in a record's terms: the move is named already (as
/// `W[dd] at D6`), so the protocol's tile numbers are left out.
fn illegal(reason: IllegalMove) -> String {
    match reason {
        IllegalMove::Occupied { .. } => "that point is not empty".into(),
        IllegalMove::Suicide { .. } => {
            "suicide: the stone would have no liberties, and the rules here forbid it".into()
        }
        IllegalMove::Ko { colour, .. } => {
            format!("ko: {colour} cannot retake at once, play elsewhere first")
        }
        IllegalMove::Superko { .. } => {
            "superko: it repeats an earlier position of this game".into()
        }
        IllegalMove::GameOver => {
            "the game already ended with two passes in a row: no move may follow them".into()
        }
        // A move off the board is refused as a bad value before it is played, and one
        // out of turn as `OutOfTurn`.
        other => other.to_string(),
    }
}

/// What a property's value should look like.
fn expected(property: &str) -> String {
    match property {
        "B" | "W" => format!("a point like {property}[dd], or {property}[] to pass"),
        "AB" | "AW" | "AE" => {
            format!("points like {property}[dd][de], or a rectangle like {property}[aa:cc]")
        }
        "PL" => "PL[B] or PL[W]".to_string(),
        "SZ" => "one number, like SZ[9]".to_string(),
        "FF" => "FF[4]".to_string(),
        "GM" => "GM[1]".to_string(),
        _ => "a value this property allows".to_string(),
    }
}

/// What a syntax error of sgf-parse means, and what was expected.
fn syntax(error: SgfParseError) -> &'static str {
    match error {
        SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyValue) => {
            "a value has no closing ']' (write \\] for a ] inside a value)"
        }
        SgfParseError::LexerError(LexerError::MissingPropertyIdentifier) => {
            "text that is no property, or a property name without a value: expected NAME[value], like B[dd]"
        }
        SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyIdentifier) => {
            "a property name holds a character that is not ASCII: names are upper-case letters, like AB"
        }
        SgfParseError::LexerError(LexerError::UnexpectedPropertyIdentifier) => {
            "an unexpected property name: names are upper-case letters, like AB"
        }
        SgfParseError::UnexpectedGameTreeStart => {
            "a '(' where a node was expected: a game tree starts with '(;'"
        }
        SgfParseError::UnexpectedGameTreeEnd => "a ')' that closes no game tree",
        SgfParseError::UnexpectedProperty => {
            "a property outside a node, or GM twice in the first node: properties follow a ';', like (;FF[4]SZ[9];B[dd])"
        }
        SgfParseError::UnexpectedEndOfData => {
            "the text ends inside a game tree, or a game tree has no node: every '(' needs a ';' node and a closing ')'"
        }
        SgfParseError::UnexpectedGameType => "the game tree is not Go: a Go record has GM[1]",
        SgfParseError::InvalidFF4Property => {
            "property names are upper-case letters written just before their '[' (FF[4]): write B[dd], not b[dd] or Black[dd]"
        }
        SgfParseError::InvalidGameType => "GM must be one number: a Go record has GM[1]",
        SgfParseError::NoGameTrees => {
            "no game tree: a record starts with '(;', like (;FF[4]GM[1]SZ[9])"
        }
    }
}

/// A client's text for a message: printable ASCII only (anything else, and `+`,
/// becomes `?`), at most `QUOTED_CHARS` characters.
pub(super) fn quoted(text: &str) -> String {
    let mut shown: String = text
        .chars()
        .take(QUOTED_CHARS)
        .map(|c| {
            if (c.is_ascii_graphic() || c == ' ') && c != '+' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if text.chars().nth(QUOTED_CHARS).is_some() {
        shown.push_str("...");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting() {
        assert_eq!(quoted("SZ[abc]"), "SZ[abc]");
        assert_eq!(quoted("C[a+b\nc\u{e9}]"), "C[a?b?c?]");
        assert_eq!(quoted(&"x".repeat(40)), format!("{}...", "x".repeat(32)));
        assert_eq!(quoted(&"x".repeat(32)), "x".repeat(32));
    }

    #[test]
    fn every_syntax_message_is_one_line() {
        let all = [
            SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyValue),
            SgfParseError::LexerError(LexerError::MissingPropertyIdentifier),
            SgfParseError::LexerError(LexerError::UnexpectedEndOfPropertyIdentifier),
            SgfParseError::LexerError(LexerError::UnexpectedPropertyIdentifier),
            SgfParseError::UnexpectedGameTreeStart,
            SgfParseError::UnexpectedGameTreeEnd,
            SgfParseError::UnexpectedProperty,
            SgfParseError::UnexpectedEndOfData,
            SgfParseError::UnexpectedGameType,
            SgfParseError::InvalidFF4Property,
            SgfParseError::InvalidGameType,
            SgfParseError::NoGameTrees,
        ];
        for error in all {
            let text = SgfError::Syntax(error).to_string();
            assert!(text.starts_with("SGF syntax: "), "{text}");
            assert!(!text.contains('+') && !text.contains('\n'), "{text}");
        }
    }
}
