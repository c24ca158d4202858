//! Server messages: every line the server sends, as a type with one formatting function.

use super::GameId;
use crate::engine::go::Colour;
use crate::frontend::quote::one_line;
use std::fmt;

/// Whether a game is still being played, as the `State` type spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// `PLAYING`.
    Playing,
    /// `FINISHED`.
    Finished,
}

/// The protocol's `State`: `<status>;<colour to move>;<board digits>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    pub status: Progress,
    pub to_move: Colour,
    /// One digit per point in index order: 0 empty, 1 black, 2 white.
    pub board: String,
}

impl fmt::Display for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.status {
            Progress::Playing => "PLAYING",
            Progress::Finished => "FINISHED",
        };
        write!(f, "{status};{};{}", self.to_move.number(), self.board)
    }
}

/// One line the server sends. Each variant's doc shows its wire syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// `ACKNOWLEDGE_HANDSHAKE+<game id>+<1 if leader else 0>`
    AcknowledgeHandshake { game_id: GameId, is_leader: bool },
    /// `REQUEST_CONFIG+<message>`
    RequestConfig { message: String },
    /// `ACKNOWLEDGE_CONFIG+<your name>+<your colour>+<size>+<state>+<opponent>`
    AcknowledgeConfig {
        name: String,
        colour: Colour,
        size: usize,
        state: GameState,
        opponent: String,
    },
    /// `ACKNOWLEDGE_MOVE+<game id>+<index>;<colour>+<state>`; a pass has index -1.
    AcknowledgeMove {
        game_id: GameId,
        index: i64,
        colour: Colour,
        state: GameState,
    },
    /// `INVALID_MOVE+<reason>`
    InvalidMove { reason: String },
    /// `UNKNOWN_COMMAND+<reason>`
    UnknownCommand { reason: String },
    /// `GAME_FINISHED+<game id>+<winner or empty for a draw>+<black>;<white>+<message>`
    GameFinished {
        game_id: GameId,
        winner: Option<String>,
        black_score: String,
        white_score: String,
        message: String,
    },
    /// `REQUEST_REMATCH`
    RequestRematch,
    /// `ACKNOWLEDGE_REMATCH+<1|0>`
    AcknowledgeRematch { rematch: bool },
}

impl ServerMessage {
    /// The REQUEST_CONFIG that asks the leader of game `game_id` for its SET_CONFIG,
    /// showing the command in full (the short form of the spec's example is refused:
    /// see the README's GO! choices).
    pub fn request_config(game_id: GameId, max_board_size: usize) -> ServerMessage {
        ServerMessage::RequestConfig {
            message: format!(
                "Game {game_id}: please send SET_CONFIG, game id {game_id}, colour (0 random, 1 black, 2 white), board size (2 to {max_board_size}), joined by plus signs"
            ),
        }
    }

    /// True for the two messages that reject what a client sent.
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            ServerMessage::InvalidMove { .. } | ServerMessage::UnknownCommand { .. }
        )
    }
}

impl fmt::Display for ServerMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMessage::AcknowledgeHandshake { game_id, is_leader } => {
                write!(
                    f,
                    "ACKNOWLEDGE_HANDSHAKE+{game_id}+{}",
                    u8::from(*is_leader)
                )
            }
            ServerMessage::RequestConfig { message } => {
                write!(f, "REQUEST_CONFIG+{}", free_text(message))
            }
            ServerMessage::AcknowledgeConfig {
                name,
                colour,
                size,
                state,
                opponent,
            } => write!(
                f,
                "ACKNOWLEDGE_CONFIG+{name}+{}+{size}+{state}+{opponent}",
                colour.number()
            ),
            ServerMessage::AcknowledgeMove {
                game_id,
                index,
                colour,
                state,
            } => write!(
                f,
                "ACKNOWLEDGE_MOVE+{game_id}+{index};{}+{state}",
                colour.number()
            ),
            ServerMessage::InvalidMove { reason } => {
                write!(f, "INVALID_MOVE+{}", free_text(reason))
            }
            ServerMessage::UnknownCommand { reason } => {
                write!(f, "UNKNOWN_COMMAND+{}", free_text(reason))
            }
            ServerMessage::GameFinished {
                game_id,
                winner,
                black_score,
                white_score,
                message,
            } => write!(
                f,
                "GAME_FINISHED+{game_id}+{}+{black_score};{white_score}+{}",
                winner.as_deref().unwrap_or(""),
                free_text(message)
            ),
            ServerMessage::RequestRematch => write!(f, "REQUEST_REMATCH"),
            ServerMessage::AcknowledgeRematch { rematch } => {
                write!(f, "ACKNOWLEDGE_REMATCH+{}", u8::from(*rematch))
            }
        }
    }
}

/// Why a line from a server is not a GO! message: the checker's side of the protocol
/// (`goserver check`), which reads what a student's server sends. The `Display` text
/// names what was expected and what arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageError {
    /// The first field is no server message of the protocol.
    UnknownKeyword { got: String },
    /// The keyword is right, the number of fields is not.
    FieldCount {
        keyword: &'static str,
        expected: &'static str,
        got: usize,
    },
    /// One field does not hold what the protocol says it holds.
    BadField {
        keyword: &'static str,
        field: &'static str,
        expected: &'static str,
        got: String,
    },
}

impl fmt::Display for MessageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MessageError::UnknownKeyword { got } => write!(
                f,
                "'{got}' is no server message of the GO! protocol (ACKNOWLEDGE_HANDSHAKE, REQUEST_CONFIG, ACKNOWLEDGE_CONFIG, ACKNOWLEDGE_MOVE, INVALID_MOVE, UNKNOWN_COMMAND, GAME_FINISHED, REQUEST_REMATCH, ACKNOWLEDGE_REMATCH)"
            ),
            MessageError::FieldCount {
                keyword,
                expected,
                got,
            } => write!(
                f,
                "{keyword} has {expected} fields joined by plus signs, got {got}"
            ),
            MessageError::BadField {
                keyword,
                field,
                expected,
                got,
            } => write!(f, "{keyword}: {field} must be {expected}, got '{got}'"),
        }
    }
}

impl std::error::Error for MessageError {}

impl ServerMessage {
    /// Reads one line a server sent (without its line ending): the inverse of the
    /// `Display` above. Fields are trimmed of blanks, like a client's; free text (the
    /// last field of `REQUEST_CONFIG`, `INVALID_MOVE`, `UNKNOWN_COMMAND` and
    /// `GAME_FINISHED`) is kept whole, plus signs included.
    ///
    /// # Errors
    ///
    /// [`MessageError`]: which message, which field, what was expected.
    pub fn parse(line: &str) -> Result<ServerMessage, MessageError> {
        let fields: Vec<&str> = line.split('+').map(str::trim).collect();
        let keyword = fields[0];
        // Free text is everything after `free` fields, plus signs and blanks kept.
        let text_after = |free: usize| {
            line.splitn(free + 1, '+')
                .nth(free)
                .unwrap_or_default()
                .to_string()
        };
        let count = |keyword: &'static str, expected: &'static str, ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(MessageError::FieldCount {
                    keyword,
                    expected,
                    got: fields.len(),
                })
            }
        };
        match keyword {
            "ACKNOWLEDGE_HANDSHAKE" => {
                count("ACKNOWLEDGE_HANDSHAKE", "3", fields.len() == 3)?;
                Ok(ServerMessage::AcknowledgeHandshake {
                    game_id: game_id("ACKNOWLEDGE_HANDSHAKE", fields[1])?,
                    is_leader: flag("ACKNOWLEDGE_HANDSHAKE", "is-leader", fields[2])?,
                })
            }
            "REQUEST_CONFIG" => {
                count(
                    "REQUEST_CONFIG",
                    "2 (or more: free text)",
                    fields.len() >= 2,
                )?;
                Ok(ServerMessage::RequestConfig {
                    message: text_after(1),
                })
            }
            "ACKNOWLEDGE_CONFIG" => {
                const WORD: &str = "ACKNOWLEDGE_CONFIG";
                count(WORD, "6", fields.len() == 6)?;
                Ok(ServerMessage::AcknowledgeConfig {
                    name: fields[1].to_string(),
                    colour: colour(WORD, "colour", fields[2])?,
                    size: number(WORD, "size", "a board size", fields[3])?,
                    state: GameState::parse(WORD, fields[4])?,
                    opponent: fields[5].to_string(),
                })
            }
            "ACKNOWLEDGE_MOVE" => {
                const WORD: &str = "ACKNOWLEDGE_MOVE";
                count(WORD, "4", fields.len() == 4)?;
                let (index, mover) = fields[2]
                    .split_once(';')
                    .ok_or_else(|| bad(WORD, "the move", "<index>;<colour>", fields[2]))?;
                Ok(ServerMessage::AcknowledgeMove {
                    game_id: game_id(WORD, fields[1])?,
                    index: number(
                        WORD,
                        "the move's index",
                        "a whole number (-1 for a pass)",
                        index,
                    )?,
                    colour: colour(WORD, "the move's colour", mover)?,
                    state: GameState::parse(WORD, fields[3])?,
                })
            }
            "INVALID_MOVE" => {
                count("INVALID_MOVE", "2 (or more: free text)", fields.len() >= 2)?;
                Ok(ServerMessage::InvalidMove {
                    reason: text_after(1),
                })
            }
            "UNKNOWN_COMMAND" => {
                count(
                    "UNKNOWN_COMMAND",
                    "2 (or more: free text)",
                    fields.len() >= 2,
                )?;
                Ok(ServerMessage::UnknownCommand {
                    reason: text_after(1),
                })
            }
            "GAME_FINISHED" => {
                const WORD: &str = "GAME_FINISHED";
                count(WORD, "5 (or more: free text)", fields.len() >= 5)?;
                let (black_score, white_score) = fields[3]
                    .split_once(';')
                    .filter(|(b, w)| is_score(b) && is_score(w))
                    .ok_or_else(|| {
                        bad(
                            WORD,
                            "the score",
                            "<black points>;<white points>",
                            fields[3],
                        )
                    })?;
                Ok(ServerMessage::GameFinished {
                    game_id: game_id(WORD, fields[1])?,
                    winner: Some(fields[2].to_string()).filter(|w| !w.is_empty()),
                    black_score: black_score.to_string(),
                    white_score: white_score.to_string(),
                    message: text_after(4),
                })
            }
            "REQUEST_REMATCH" => {
                count("REQUEST_REMATCH", "1", fields.len() == 1)?;
                Ok(ServerMessage::RequestRematch)
            }
            "ACKNOWLEDGE_REMATCH" => {
                count("ACKNOWLEDGE_REMATCH", "2", fields.len() == 2)?;
                Ok(ServerMessage::AcknowledgeRematch {
                    rematch: flag("ACKNOWLEDGE_REMATCH", "the answer", fields[1])?,
                })
            }
            _ => Err(MessageError::UnknownKeyword {
                got: crate::frontend::quote::clip(keyword),
            }),
        }
    }
}

impl GameState {
    /// Reads `<status>;<colour to move>;<board>` from the message `keyword`.
    fn parse(keyword: &'static str, text: &str) -> Result<GameState, MessageError> {
        let parts: Vec<&str> = text.split(';').collect();
        let [status, to_move, board] = parts[..] else {
            return Err(bad(
                keyword,
                "the state",
                "<PLAYING or FINISHED>;<colour to move>;<board>",
                text,
            ));
        };
        let status = match status {
            "PLAYING" => Progress::Playing,
            "FINISHED" => Progress::Finished,
            _ => {
                return Err(bad(
                    keyword,
                    "the state's status",
                    "PLAYING or FINISHED",
                    status,
                ));
            }
        };
        if board.is_empty() || !board.bytes().all(|b| matches!(b, b'0'..=b'2')) {
            return Err(bad(
                keyword,
                "the state's board",
                "one digit per point, 0 empty, 1 black, 2 white",
                board,
            ));
        }
        Ok(GameState {
            status,
            to_move: colour(keyword, "the state's colour to move", to_move)?,
            board: board.to_string(),
        })
    }
}

fn bad(
    keyword: &'static str,
    field: &'static str,
    expected: &'static str,
    got: &str,
) -> MessageError {
    MessageError::BadField {
        keyword,
        field,
        expected,
        got: crate::frontend::quote::clip(got),
    }
}

fn number<T: std::str::FromStr>(
    keyword: &'static str,
    field: &'static str,
    expected: &'static str,
    text: &str,
) -> Result<T, MessageError> {
    text.parse()
        .map_err(|_| bad(keyword, field, expected, text))
}

fn game_id(keyword: &'static str, text: &str) -> Result<GameId, MessageError> {
    number(keyword, "the game id", "a whole number", text).map(GameId)
}

fn flag(keyword: &'static str, field: &'static str, text: &str) -> Result<bool, MessageError> {
    match text {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(bad(keyword, field, "1 or 0", text)),
    }
}

fn colour(keyword: &'static str, field: &'static str, text: &str) -> Result<Colour, MessageError> {
    text.parse::<u8>()
        .ok()
        .and_then(Colour::from_number)
        .ok_or_else(|| bad(keyword, field, "1 (black) or 2 (white)", text))
}

/// A score as GAME_FINISHED may write it: a number, whole or with decimals.
fn is_score(text: &str) -> bool {
    text.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Makes text safe for a free-text field: a `+` would add a field and a line break
/// would end the line, so both are replaced.
pub fn free_text(text: &str) -> String {
    one_line(text).replace('+', "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> GameState {
        GameState {
            status: Progress::Playing,
            to_move: Colour::White,
            board: "0000011120001200".into(),
        }
    }

    #[test]
    fn formats_every_message_exactly() {
        let table = [
            (
                ServerMessage::AcknowledgeHandshake {
                    game_id: GameId(1),
                    is_leader: true,
                },
                "ACKNOWLEDGE_HANDSHAKE+1+1",
            ),
            (
                ServerMessage::RequestConfig {
                    message: "Send SET_CONFIG".into(),
                },
                "REQUEST_CONFIG+Send SET_CONFIG",
            ),
            (
                ServerMessage::AcknowledgeConfig {
                    name: "Ann".into(),
                    colour: Colour::Black,
                    size: 4,
                    state: state(),
                    opponent: "Bob".into(),
                },
                "ACKNOWLEDGE_CONFIG+Ann+1+4+PLAYING;2;0000011120001200+Bob",
            ),
            (
                ServerMessage::AcknowledgeMove {
                    game_id: GameId(1),
                    index: 30,
                    colour: Colour::Black,
                    state: state(),
                },
                "ACKNOWLEDGE_MOVE+1+30;1+PLAYING;2;0000011120001200",
            ),
            (
                ServerMessage::InvalidMove {
                    reason: "Tile 3 is not empty".into(),
                },
                "INVALID_MOVE+Tile 3 is not empty",
            ),
            (
                ServerMessage::UnknownCommand {
                    reason: "a+b\nc".into(),
                },
                "UNKNOWN_COMMAND+a&b c",
            ),
            (
                ServerMessage::GameFinished {
                    game_id: GameId(2),
                    winner: None,
                    black_score: "40".into(),
                    white_score: "40".into(),
                    message: "Draw".into(),
                },
                "GAME_FINISHED+2++40;40+Draw",
            ),
            (ServerMessage::RequestRematch, "REQUEST_REMATCH"),
            (
                ServerMessage::AcknowledgeRematch { rematch: false },
                "ACKNOWLEDGE_REMATCH+0",
            ),
        ];
        for (message, line) in table {
            assert_eq!(message.to_string(), line);
            // Read back, a line formats as itself (free text was made one line).
            let read = ServerMessage::parse(line).map(|m| m.to_string());
            assert_eq!(read.as_deref(), Ok(line));
        }
    }

    #[test]
    fn a_server_s_lines_that_break_the_protocol_say_how() {
        let table = [
            (
                "HELLO+1",
                "'HELLO' is no server message of the GO! protocol (ACKNOWLEDGE_HANDSHAKE, REQUEST_CONFIG, ACKNOWLEDGE_CONFIG, ACKNOWLEDGE_MOVE, INVALID_MOVE, UNKNOWN_COMMAND, GAME_FINISHED, REQUEST_REMATCH, ACKNOWLEDGE_REMATCH)",
            ),
            (
                "ACKNOWLEDGE_HANDSHAKE+1+true",
                "ACKNOWLEDGE_HANDSHAKE: is-leader must be 1 or 0, got 'true'",
            ),
            (
                "ACKNOWLEDGE_CONFIG+Ann+1+4+PLAYING;2;0000011120001200",
                "ACKNOWLEDGE_CONFIG has 6 fields joined by plus signs, got 5",
            ),
            (
                "ACKNOWLEDGE_MOVE+1+30+PLAYING;2;0000",
                "ACKNOWLEDGE_MOVE: the move must be <index>;<colour>, got '30'",
            ),
            (
                "ACKNOWLEDGE_MOVE+1+30;3+PLAYING;2;0000",
                "ACKNOWLEDGE_MOVE: the move's colour must be 1 (black) or 2 (white), got '3'",
            ),
            (
                "ACKNOWLEDGE_MOVE+1+3;1+PLAYING;2;00x0",
                "ACKNOWLEDGE_MOVE: the state's board must be one digit per point, 0 empty, 1 black, 2 white, got '00x0'",
            ),
            (
                "GAME_FINISHED+1+Ann+6-1+bye",
                "GAME_FINISHED: the score must be <black points>;<white points>, got '6-1'",
            ),
        ];
        for (line, reason) in table {
            let error = ServerMessage::parse(line).expect_err(line);
            assert_eq!(error.to_string(), reason, "{line}");
        }
        // Free text keeps its plus signs; a draw's empty winner is none.
        assert_eq!(
            ServerMessage::parse("GAME_FINISHED+3++0.5;40+a+b"),
            Ok(ServerMessage::GameFinished {
                game_id: GameId(3),
                winner: None,
                black_score: "0.5".into(),
                white_score: "40".into(),
                message: "a+b".into(),
            })
        );
    }
}
