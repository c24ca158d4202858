//! A GO! game between two of the checker's clients, refereed by the project's own
//! rules engine: after every move the board each client receives must be the board the
//! engine has. The helpers here are lenient about what other cases check (a missing
//! acknowledgement of the final pass, a REQUEST_CONFIG repeated), so that one defect of
//! a server fails the case named for it and no other.

use super::super::case::{BoardDiff, Failure, Step};
use super::super::probe::{Probe, ensure};
use super::client::{GoClient, Joined, Refusal};
use crate::engine::go::{Colour, Game, IllegalMove, Move, Point, Rules};
use crate::engine::rng::Rng;
use crate::frontend::go::protocol::{
    ClientCommand, ColourChoice, GameId, GameState, Progress, ServerMessage,
};

/// How many times a case's first client handshakes again when the server joined it
/// to a game an earlier case left waiting (a server shared by every case).
const STRAY_RETRIES: usize = 3;

/// Connects a client named `base` (made unique to the case) that leads a new game.
/// When the server joins it to a game left waiting by an earlier case instead, that
/// client is kept busy (it stays connected until the case ends) and another tries.
///
/// # Errors
///
/// The handshake fails, or no client gets to lead within a few tries.
pub fn lead(probe: &mut Probe, base: &str) -> Step<(GoClient, Joined)> {
    let name = probe.name(base);
    for _ in 0..=STRAY_RETRIES {
        let mut client = GoClient::connect(probe, &name)?;
        let joined = client.handshake()?;
        if joined.leader {
            return Ok((client, joined));
        }
        probe.note(&format!(
            "{} joined game {}, which an earlier case left waiting: it stays there, and another client leads",
            client.who(),
            joined.game_id
        ));
        probe.keep(client.into_wire());
    }
    Err(Failure::new(
        "a client that handshakes on a server with no waiting game leads a new game (ACKNOWLEDGE_HANDSHAKE+<id>+1)",
        format!(
            "{} clients in a row joined waiting games instead",
            STRAY_RETRIES + 1
        ),
    ))
}

/// Connects a client named `base` and handshakes it into `leader`'s game, as partner.
/// A server that sends the partner ACKNOWLEDGE_CONFIG without its ACKNOWLEDGE_HANDSHAKE
/// is let through (handshake.2 is the case that fails it), so that one defect does not
/// fail every case that plays.
///
/// # Errors
///
/// The handshake fails, or the client is not joined to that game as its partner.
pub fn join(probe: &mut Probe, base: &str, leader: Joined) -> Step<GoClient> {
    let name = probe.name(base);
    let mut client = GoClient::connect(probe, &name)?;
    client.send(&ClientCommand::Handshake { name })?;
    let first =
        client.next("ACKNOWLEDGE_HANDSHAKE+<game id>+0 (the partner of the waiting game)")?;
    if matches!(first, ServerMessage::AcknowledgeConfig { .. }) {
        probe.note(&format!(
            "{} got ACKNOWLEDGE_CONFIG without ACKNOWLEDGE_HANDSHAKE: this case goes on (handshake.2 fails it)",
            client.who()
        ));
        client.put_back(first);
        return Ok(client);
    }
    client.put_back(first);
    let joined = client.acknowledged()?;
    ensure(
        joined
            == Joined {
                game_id: leader.game_id,
                leader: false,
            },
        format!(
            "{}: ACKNOWLEDGE_HANDSHAKE+{}+0 (the second client joins the game waiting for a partner)",
            client.who(),
            leader.game_id
        ),
        format!(
            "ACKNOWLEDGE_HANDSHAKE+{}+{}",
            joined.game_id,
            u8::from(joined.leader)
        ),
    )?;
    Ok(client)
}

/// The fields of an `ACKNOWLEDGE_CONFIG`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The name the server granted.
    pub name: String,
    /// The client's colour.
    pub colour: Colour,
    /// The board size.
    pub size: usize,
    /// The state sent with it.
    pub state: GameState,
    /// The opponent's name.
    pub opponent: String,
}

/// Reads an `ACKNOWLEDGE_CONFIG` from `client`.
///
/// # Errors
///
/// Anything else, or nothing.
pub fn config(client: &mut GoClient) -> Step<Config> {
    client.expect(
        "ACKNOWLEDGE_CONFIG+<your name>+<colour>+<size>+<state>+<opponent>",
        |m| match m {
            ServerMessage::AcknowledgeConfig {
                name,
                colour,
                size,
                state,
                opponent,
            } => Some(Config {
                name,
                colour,
                size,
                state,
                opponent,
            }),
            _ => None,
        },
    )
}

/// How a game ended, as one client heard it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The game id sent.
    pub game_id: GameId,
    /// The winner's name; `None` when the field was empty.
    pub winner: Option<String>,
    /// Black's score as sent.
    pub black: String,
    /// White's score as sent.
    pub white: String,
    /// The message.
    pub message: String,
}

/// Reads a `GAME_FINISHED` from `client`.
///
/// # Errors
///
/// Anything else, or nothing.
pub fn finished(client: &mut GoClient) -> Step<Finished> {
    client.expect(
        "GAME_FINISHED+<game id>+<winner>+<black>;<white>+<message>",
        |m| match m {
            ServerMessage::GameFinished {
                game_id,
                winner,
                black_score,
                white_score,
                message,
            } => Some(Finished {
                game_id,
                winner,
                black: black_score,
                white: white_score,
                message,
            }),
            _ => None,
        },
    )
}

/// The end of a game by two passes, as both players heard it.
#[derive(Clone, Debug)]
pub struct Ending {
    /// The state acknowledging the final pass, for black and for white (`None`: the
    /// server sent `GAME_FINISHED` without acknowledging it).
    pub final_state: [Option<GameState>; 2],
    /// `GAME_FINISHED`, for black and for white.
    pub finished: [Finished; 2],
}

/// A game in play between two clients of a case, and the engine that referees it.
pub struct Match {
    /// The game's id.
    pub id: GameId,
    /// The board size the server confirmed.
    pub size: usize,
    /// The client playing black.
    pub black: GoClient,
    /// The client playing white.
    pub white: GoClient,
    /// The leader's colour (the leader is the client that connected first).
    pub leader: Colour,
    /// What each player's ACKNOWLEDGE_CONFIG said: black's, white's.
    pub configs: [Config; 2],
    /// The referee.
    pub engine: Game,
}

impl Match {
    /// Starts a game: a leader (`Ann`) asks for `colour` and `size`, and a partner
    /// (`Bob`) joins. The game goes by what the server confirmed, whatever was asked.
    ///
    /// # Errors
    ///
    /// A handshake or the configuration fails, or the two confirmations do not make one
    /// game (the same colour twice, a board of the wrong length).
    pub fn start(probe: &mut Probe, size: usize, colour: ColourChoice) -> Step<Match> {
        let (mut leader, joined) = lead(probe, "Ann")?;
        leader.send(&ClientCommand::SetConfig {
            game_id: joined.game_id,
            colour,
            size: u32::try_from(size).unwrap_or(u32::MAX),
        })?;
        let partner = join(probe, "Bob", joined)?;
        Match::configured(probe, leader, partner, joined.game_id)
    }

    /// Both players' ACKNOWLEDGE_CONFIG, checked to make one game.
    ///
    /// # Errors
    ///
    /// See [`Match::start`].
    pub fn configured(
        probe: &mut Probe,
        mut leader: GoClient,
        mut partner: GoClient,
        id: GameId,
    ) -> Step<Match> {
        let mine = config(&mut leader)?;
        let theirs = config(&mut partner)?;
        leader.name = mine.name.clone();
        partner.name = theirs.name.clone();
        ensure(
            mine.colour != theirs.colour,
            "one player black (1), the other white (2)",
            format!("both {}", mine.colour.number()),
        )?;
        ensure(
            mine.size == theirs.size,
            "the same board size for both players",
            format!("{} and {}", mine.size, theirs.size),
        )?;
        let size = mine.size;
        ensure(
            (crate::engine::go::MIN_SIZE..=crate::engine::go::MAX_SIZE).contains(&size),
            "a board size the checker can referee (2 to 25)",
            size.to_string(),
        )?;
        for config in [&mine, &theirs] {
            ensure(
                config.state.board == "0".repeat(size * size),
                format!(
                    "an empty board of {size}x{size} = {} digits in the state",
                    size * size
                ),
                config.state.to_string(),
            )?;
            ensure(
                config.state.status == Progress::Playing,
                "the state PLAYING in ACKNOWLEDGE_CONFIG",
                config.state.to_string(),
            )?;
        }
        ensure(
            mine.state.to_move == theirs.state.to_move,
            "the same colour to move in both ACKNOWLEDGE_CONFIG",
            format!("{} and {}", mine.state, theirs.state),
        )?;
        // The referee follows the server on who moves first (black, by convention).
        let engine = Game::new(size, Rules::default())
            .map(|game| match mine.state.to_move {
                Colour::Black => game,
                Colour::White => {
                    Game::from_board(game.board().clone(), Rules::default(), Colour::White)
                }
            })
            .map_err(|e| Failure::new("a board size the checker can referee", e.to_string()))?;
        let leader_colour = mine.colour;
        let (black, white, configs) = match leader_colour {
            Colour::Black => (leader, partner, [mine, theirs]),
            Colour::White => (partner, leader, [theirs, mine]),
        };
        probe.note(&format!(
            "game {id}: {} ({}) plays black, {} ({}) white, on {size}x{size}",
            black.name,
            black.who(),
            white.name,
            white.who()
        ));
        Ok(Match {
            id,
            size,
            black,
            white,
            leader: leader_colour,
            configs,
            engine,
        })
    }

    /// The client playing `colour`.
    pub fn client(&mut self, colour: Colour) -> &mut GoClient {
        match colour {
            Colour::Black => &mut self.black,
            Colour::White => &mut self.white,
        }
    }

    /// The colour to move.
    pub fn to_move(&self) -> Colour {
        self.engine.to_move()
    }

    /// `index` as a point of this board (none for a pass or off the board).
    pub fn point(&self, index: i64) -> Option<Point> {
        Point::from_index(index, self.size)
    }

    /// `MOVE+<id>+<name>+<index>` for `colour`.
    pub fn move_command(&mut self, colour: Colour, index: i64) -> ClientCommand {
        ClientCommand::Move {
            game_id: self.id,
            player: self.client(colour).name.clone(),
            index,
        }
    }

    /// Plays a legal move (a stone at `index`, or `-1` to pass) for the player to move,
    /// and checks that both players are sent the board the engine has.
    ///
    /// # Errors
    ///
    /// The move is not acknowledged to both as the rules say.
    pub fn play(&mut self, index: i64) -> Step<()> {
        let colour = self.to_move();
        let command = self.move_command(colour, index);
        self.client(colour).send(&command)?;
        self.acknowledged(colour, index)
    }

    /// Plays each of `moves` in turn.
    ///
    /// # Errors
    ///
    /// See [`Match::play`].
    pub fn play_all(&mut self, moves: &[i64]) -> Step<()> {
        moves.iter().try_for_each(|&index| self.play(index))
    }

    /// The engine plays `colour`'s move at `index` (sent already); then both players
    /// must receive its acknowledgement, the mover first.
    fn acknowledged(&mut self, colour: Colour, index: i64) -> Step<()> {
        self.referee(colour, index)?;
        let expected = ServerMessage::AcknowledgeMove {
            game_id: self.id,
            index,
            colour,
            state: self.state(Progress::Playing),
        };
        for who in [colour, colour.opponent()] {
            let message = self.client(who).next(&expected.to_string())?;
            self.compare(&message, &expected, colour, index)?;
        }
        Ok(())
    }

    /// Plays the move on the engine.
    fn referee(&mut self, colour: Colour, index: i64) -> Step<()> {
        let mv = match index {
            -1 => Move::Pass,
            _ => Move::Play(self.point(index).unwrap_or(Point::new(u8::MAX, u8::MAX))),
        };
        self.engine.play(colour, mv).map(|_| ()).map_err(|illegal| {
            Failure::new(
                "a legal move from the checker (this is the checker's fault: please report it)",
                format!("its own engine refuses {colour}'s move at {index}: {illegal}"),
            )
        })
    }

    /// The state the engine has, with `status`.
    pub fn state(&self, status: Progress) -> GameState {
        GameState {
            status,
            to_move: self.engine.to_move(),
            board: self.engine.board().to_protocol_string(),
        }
    }

    /// Checks one acknowledgement against the expected one: a different board is shown
    /// side by side with the engine's.
    fn compare(
        &self,
        got: &ServerMessage,
        expected: &ServerMessage,
        colour: Colour,
        index: i64,
    ) -> Step<()> {
        let (
            ServerMessage::AcknowledgeMove {
                game_id,
                index: got_index,
                colour: got_colour,
                state,
            },
            ServerMessage::AcknowledgeMove {
                state: want_state, ..
            },
        ) = (got, expected)
        else {
            return Err(Failure::new(expected.to_string(), got.to_string()));
        };
        if *game_id != self.id || *got_index != index || *got_colour != colour {
            return Err(Failure::new(expected.to_string(), got.to_string()));
        }
        if state.board != want_state.board {
            return Err(Failure {
                expected: expected.to_string(),
                got: got.to_string(),
                boards: Some(BoardDiff {
                    after: self.describe_move(colour, index),
                    expected: rows(&want_state.board, self.size),
                    got: rows(&state.board, self.size),
                }),
            });
        }
        if state.to_move != want_state.to_move || state.status != want_state.status {
            return Err(Failure::new(expected.to_string(), got.to_string()));
        }
        Ok(())
    }

    /// `black's move at 12 (C3)`, `white's pass`.
    pub fn describe_move(&self, colour: Colour, index: i64) -> String {
        match self.point(index) {
            _ if index == -1 => format!("{colour}'s pass"),
            Some(point) => format!("{colour}'s move at {index} ({})", point.vertex(self.size)),
            None => format!("{colour}'s move at {index}"),
        }
    }

    /// Sends a move the rules forbid (the engine says why) for the player to move, and
    /// expects it refused; nothing changes.
    ///
    /// # Errors
    ///
    /// The move is acknowledged, or anything but a refusal comes.
    pub fn refused(&mut self, index: i64) -> Step<(Refusal, IllegalMove)> {
        let colour = self.to_move();
        let illegal = self.illegal(colour, index)?;
        let command = self.move_command(colour, index);
        self.client(colour).send(&command)?;
        let why = format!(
            "{} breaks a rule: {illegal}",
            self.describe_move(colour, index)
        );
        let refusal = self.client(colour).refusal(&why)?;
        Ok((refusal, illegal))
    }

    /// Why the engine forbids `colour`'s move at `index`.
    fn illegal(&self, colour: Colour, index: i64) -> Step<IllegalMove> {
        let mv = match self.point(index) {
            Some(point) => Move::Play(point),
            None => Move::Play(Point::new(u8::MAX, u8::MAX)),
        };
        match self.engine.check(colour, mv) {
            Err(illegal) => Ok(illegal),
            Ok(()) => Err(Failure::new(
                "an illegal move from the checker (this is the checker's fault: please report it)",
                format!("{} is legal", self.describe_move(colour, index)),
            )),
        }
    }

    /// The player to move passes, then the other: the game ends. Reads, for each player,
    /// the acknowledgement of the final pass (if the server sends one) and
    /// `GAME_FINISHED`; what follows (REQUEST_REMATCH) is left unread.
    ///
    /// # Errors
    ///
    /// A pass is not acknowledged as it must be, or GAME_FINISHED does not come.
    pub fn end_by_passes(&mut self) -> Step<Ending> {
        self.play(-1)?;
        let last = self.to_move();
        let command = self.move_command(last, -1);
        self.client(last).send(&command)?;
        self.referee(last, -1)?;
        let board = self.engine.board().to_protocol_string();
        let mut final_state: [Option<GameState>; 2] = [None, None];
        let mut heard = Vec::new();
        for who in [last, last.opponent()] {
            let client = self.client(who);
            let first = client.next("ACKNOWLEDGE_MOVE of the final pass, or GAME_FINISHED")?;
            let ended = match first {
                ServerMessage::AcknowledgeMove {
                    index: -1,
                    colour,
                    state,
                    ..
                } if colour == last => {
                    if state.board != board {
                        return Err(Failure::new(
                            format!("the board {board} after the final pass"),
                            state.to_string(),
                        ));
                    }
                    final_state[slot(who)] = Some(state);
                    finished(self.client(who))?
                }
                ServerMessage::GameFinished {
                    game_id,
                    winner,
                    black_score,
                    white_score,
                    message,
                } => Finished {
                    game_id,
                    winner,
                    black: black_score,
                    white: white_score,
                    message,
                },
                other => {
                    return Err(Failure::new(
                        "ACKNOWLEDGE_MOVE of the final pass, or GAME_FINISHED",
                        other.to_string(),
                    ));
                }
            };
            heard.push((who, ended));
        }
        let mut finished: [Option<Finished>; 2] = [None, None];
        for (who, ended) in heard {
            finished[slot(who)] = Some(ended);
        }
        let [Some(black), Some(white)] = finished else {
            return Err(Failure::new("GAME_FINISHED to both players", "one of them"));
        };
        Ok(Ending {
            final_state,
            finished: [black, white],
        })
    }

    /// The engine's board as rows, for a report.
    pub fn rows(&self) -> Vec<String> {
        rows(&self.engine.board().to_protocol_string(), self.size)
    }
}

/// A random move for the player to move: legal under every ko rule, never filling its
/// own one-point eye; none when there is no such move (the game would end by passes).
pub fn random_move(game: &Match, rng: &mut Rng) -> Option<i64> {
    let colour = game.to_move();
    let size = game.size;
    let candidates: Vec<i64> = (0..size * size)
        .filter_map(|i| {
            let index = i64::try_from(i).ok()?;
            let point = Point::from_index(index, size)?;
            let legal = game.engine.check(colour, Move::Play(point)).is_ok();
            (legal && !own_eye(game, point)).then_some(index)
        })
        .collect();
    match candidates.len() {
        0 => None,
        n => Some(candidates[rng.below(n)]),
    }
}

/// Whether every neighbour of `point` is a stone of the player to move.
fn own_eye(game: &Match, point: Point) -> bool {
    let colour = game.to_move();
    let size = i64::try_from(game.size).unwrap_or(0);
    let (row, col) = (i64::from(point.row()), i64::from(point.col()));
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .all(|(dr, dc)| {
            let (r, c) = (row + dr, col + dc);
            if r < 0 || c < 0 || r >= size || c >= size {
                return true;
            }
            let neighbour = Point::new(u8::try_from(r).unwrap_or(0), u8::try_from(c).unwrap_or(0));
            game.engine.board().get(neighbour) == Some(colour)
        })
}

/// 0 for black, 1 for white.
pub fn slot(colour: Colour) -> usize {
    match colour {
        Colour::Black => 0,
        Colour::White => 1,
    }
}

/// A protocol board string as rows of `. X O` (anything else shown as `?`), `size`
/// points a row; a string of the wrong length shows as it is.
pub fn rows(board: &str, size: usize) -> Vec<String> {
    let symbols: Vec<char> = board
        .chars()
        .map(|c| match c {
            '0' => '.',
            '1' => 'X',
            '2' => 'O',
            _ => '?',
        })
        .collect();
    symbols
        .chunks(size.max(1))
        .map(|row| {
            row.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
