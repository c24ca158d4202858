//! Server messages: every line the server sends, as a type with one formatting function.

use super::GameId;
use crate::engine::go::Colour;
use crate::frontend::quote::one_line;
use std::fmt;

/// Whether a game is still being played, as the `State` type spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameStatus {
    /// `PLAYING`.
    Playing,
    /// `FINISHED`.
    Finished,
}

/// The protocol's `State`: `<status>;<colour to move>;<board digits>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameState {
    pub status: GameStatus,
    pub to_move: Colour,
    /// One digit per point in index order: 0 empty, 1 black, 2 white.
    pub board: String,
}

impl fmt::Display for GameState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.status {
            GameStatus::Playing => "PLAYING",
            GameStatus::Finished => "FINISHED",
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
            status: GameStatus::Playing,
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
        }
    }
}
