//! What a GO! game loop receives, and who it seats: the vocabulary shared by the
//! connection threads, the registry and the game loops.

use super::protocol::{ClientCommand, GameId, ParseError};
use super::questions::Questions;
use super::summary::GameView;
use crate::engine::bot::Level;
use crate::frontend::Departure;
use crate::net::{Connection, Incoming, Ticket};
use crossbeam_channel::Sender;
use std::fmt;
use std::sync::Arc;

/// A client with its granted name, as a game seats it.
#[derive(Clone)]
pub struct Player {
    /// Where the game sends its lines (and its id tells its lines apart).
    pub conn: Arc<Connection>,
    /// The name granted at its handshake.
    pub name: String,
    /// What it has been asked and not answered yet (shared with its registry entry).
    pub questions: Arc<Questions>,
}

/// What a game loop receives.
pub enum GameEvent {
    /// The registry seats a player here (as leader if the game is empty).
    Join(Player),
    /// The registry seats the practice bot here as the partner, under this granted
    /// name, playing at this level.
    SeatBot(String, Level),
    /// A line from a seated player: a command, or why it is not one. Its ticket is
    /// dropped once it has been answered: the client's next line is read then.
    Line {
        from: Arc<Connection>,
        /// The line as it came (the example on its sender's card, if refused).
        line: Incoming,
        command: Result<ClientCommand, ParseError>,
        ticket: Ticket,
    },
    /// A seated player is gone (handed over after its last line was answered).
    Left {
        from: Arc<Connection>,
        how: Departure,
    },
    /// The operator kicks a seated player: it loses (and is told so), then its
    /// connection is closed.
    Kick(Arc<Connection>),
    /// The console asks for a view of the game.
    Inspect(Sender<GameView>),
    /// Unit tests only: a bug in the loop, to check that it ends this game alone.
    #[cfg(test)]
    Panic,
}

/// Why the practice bot cannot take a seat in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotRefused {
    /// No game has this id.
    NoSuchGame(GameId),
    /// The game has ended; how, if it is still known.
    Ended { game: GameId, result: String },
    /// Both seats are taken (or a partner is on its way to the free one).
    Full { game: GameId, players: String },
    /// The server is shutting down.
    ShuttingDown,
}

impl fmt::Display for BotRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let only = "the practice bot only takes the free seat of a game waiting for a partner";
        match self {
            BotRefused::NoSuchGame(game) => {
                write!(f, "no game {game}: type 'games' to list them")
            }
            BotRefused::Ended { game, result } => {
                write!(f, "game {game} has ended ({result}): {only}")
            }
            BotRefused::Full { game, players } => {
                write!(f, "game {game} already has two players ({players}): {only}")
            }
            BotRefused::ShuttingDown => write!(f, "the server is shutting down"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_refusals_are_one_line_reasons() {
        let table = [
            (
                BotRefused::NoSuchGame(GameId(7)),
                "no game 7: type 'games' to list them",
            ),
            (
                BotRefused::Ended {
                    game: GameId(2),
                    result: "Ann exited: Bob wins".into(),
                },
                "game 2 has ended (Ann exited: Bob wins): the practice bot only takes the free seat of a game waiting for a partner",
            ),
            (
                BotRefused::Full {
                    game: GameId(3),
                    players: "Ann vs Bob".into(),
                },
                "game 3 already has two players (Ann vs Bob): the practice bot only takes the free seat of a game waiting for a partner",
            ),
            (BotRefused::ShuttingDown, "the server is shutting down"),
        ];
        for (refused, text) in table {
            assert_eq!(refused.to_string(), text);
        }
    }
}
