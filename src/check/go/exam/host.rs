//! The checker as a GO! server, for the exam of a client: it accepts the client's
//! connection, answers its HANDSHAKE, configures the game, plays the opponent's moves
//! on the project's rules engine, and judges every line the client sends against the
//! document (the right game id and name, a legal move on the board the server last
//! sent). Lines are formatted and parsed with the protocol module the server uses.

use super::super::super::case::{Failure, Step};
use super::super::super::probe::Probe;
use super::super::super::wire::{Heard, Wire};
use crate::engine::go::{Colour, Game, Move, Point, Rules};
use crate::frontend::go::protocol::{
    self, ClientCommand, GameId, GameState, Progress, ServerMessage,
};
use std::time::{Duration, Instant};

/// How a case starts its game.
#[derive(Clone, Debug)]
pub struct Start {
    /// The game id the server hands out.
    pub id: GameId,
    /// Whether the client leads (is asked for its configuration).
    pub leader: bool,
    /// The client's colour in ACKNOWLEDGE_CONFIG.
    pub colour: Colour,
    /// The board size.
    pub size: usize,
    /// The name granted, if not the one asked for (`Some("{}_2")` grants a suffix:
    /// `{}` is the asked name).
    pub grant: Option<&'static str>,
    /// The REQUEST_CONFIG text.
    pub request: String,
}

impl Start {
    /// Game 1, the client leading, black on 9x9.
    pub fn black(size: usize) -> Start {
        Start {
            id: GameId(1),
            leader: true,
            colour: Colour::Black,
            size,
            grant: None,
            request: "Please send SET_CONFIG, game id, colour, size".to_string(),
        }
    }

    /// The same, white.
    pub fn white(size: usize) -> Start {
        Start {
            colour: Colour::White,
            ..Start::black(size)
        }
    }
}

/// The game the checker hosts for the client under test.
pub struct Host {
    /// The connection.
    pub wire: Wire,
    /// The game id.
    pub id: GameId,
    /// The name the client asked for in its HANDSHAKE.
    pub asked: String,
    /// The name granted in ACKNOWLEDGE_CONFIG: the one its lines must carry.
    pub name: String,
    /// The client's colour.
    pub colour: Colour,
    /// The game, refereed by the rules engine.
    pub game: Game,
    /// The client's SET_CONFIG, when it led: colour asked (0, 1, 2) and size.
    pub config: Option<(u8, u32)>,
    /// How long each of the client's moves took, from the line that gave it the turn.
    pub move_times: Vec<Duration>,
    /// When the client was given the turn.
    turn_given: Instant,
    /// Lines end in CR LF instead of LF (the wire case that checks a client takes both).
    pub crlf: bool,
}

/// The client's first line, which must be a HANDSHAKE: its connection and the name.
///
/// # Errors
///
/// It did not connect, sent nothing, or something else first.
pub fn greeted(probe: &mut Probe) -> Step<(Wire, String)> {
    let mut wire = probe.accept()?;
    let line = wire.line("HANDSHAKE+<name>, the client's first line")?;
    match protocol::parse(&line) {
        Ok(ClientCommand::Handshake { name }) => Ok((wire, name)),
        _ => Err(Failure::new(
            "HANDSHAKE+<name>, the client's first line",
            line,
        )),
    }
}

/// The client's next line as a command (its parse error as the failure's `got`).
///
/// # Errors
///
/// No line, or one that is no GO! command.
pub fn command(wire: &mut Wire, expected: &str) -> Step<ClientCommand> {
    let line = wire.line(expected)?;
    protocol::parse(&line).map_err(|why| Failure::new(expected, format!("{line} ({why})")))
}

impl Host {
    /// Greets the client, leads or seats it as `start` says, takes its SET_CONFIG when
    /// it leads, and sends ACKNOWLEDGE_CONFIG with an empty board, black to move.
    ///
    /// # Errors
    ///
    /// A line of the client's is not what the document says it sends.
    pub fn start(probe: &mut Probe, start: &Start) -> Step<Host> {
        let (mut wire, asked) = greeted(probe)?;
        let config = handshake_answered(&mut wire, start)?;
        Host::seated(wire, asked, config, start)
    }

    /// The game of a client greeted already (its HANDSHAKE answered, and its
    /// SET_CONFIG `config` taken if it leads): ACKNOWLEDGE_CONFIG is sent.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn seated(
        wire: Wire,
        asked: String,
        config: Option<(u8, u32)>,
        start: &Start,
    ) -> Step<Host> {
        Host::seated_with(wire, asked, config, start, false)
    }

    /// [`Host::seated`], with lines ending in CR LF when `crlf`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn seated_with(
        wire: Wire,
        asked: String,
        config: Option<(u8, u32)>,
        start: &Start,
        crlf: bool,
    ) -> Step<Host> {
        let mut host = Host::seated_silently(wire, asked, config, start)?;
        host.crlf = crlf;
        host.acknowledge_config()?;
        Ok(host)
    }

    /// The game of a client greeted already, whose ACKNOWLEDGE_CONFIG the case sent
    /// itself.
    ///
    /// # Errors
    ///
    /// The board size is one the engine cannot play.
    pub fn seated_silently(
        wire: Wire,
        asked: String,
        config: Option<(u8, u32)>,
        start: &Start,
    ) -> Step<Host> {
        let name = match start.grant {
            Some(pattern) => pattern.replace("{}", &asked),
            None => asked.clone(),
        };
        let game = Game::new(start.size, Rules::default())
            .map_err(|e| Failure::new("a board the checker can play", e.to_string()))?;
        Ok(Host {
            wire,
            id: start.id,
            asked,
            name,
            colour: start.colour,
            game,
            config,
            move_times: Vec::new(),
            turn_given: Instant::now(),
            crlf: false,
        })
    }

    /// ACKNOWLEDGE_CONFIG for the game as it stands (a new round after a rematch too).
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn acknowledge_config(&mut self) -> Step<()> {
        let message = ServerMessage::AcknowledgeConfig {
            name: self.name.clone(),
            colour: self.colour,
            size: self.game.size(),
            state: self.state(),
            opponent: "Referee".to_string(),
        };
        self.send(&message)?;
        self.turn_given = Instant::now();
        Ok(())
    }

    /// Sends `message`.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn send(&mut self, message: &ServerMessage) -> Step<()> {
        let line = message.to_string();
        if self.crlf {
            self.wire
                .send_bytes(format!("{line}\r\n").as_bytes(), &format!("{line}\\r"))
        } else {
            self.wire.send(&line)
        }
    }

    /// The protocol's State of the game now.
    pub fn state(&self) -> GameState {
        GameState {
            status: if self.game.is_over() {
                Progress::Finished
            } else {
                Progress::Playing
            },
            to_move: self.game.to_move(),
            board: self.game.board().to_protocol_string(),
        }
    }

    /// The client's next line, which must be its MOVE (or the draft's PASS) for this
    /// game, under its granted name: the move, not yet played.
    ///
    /// # Errors
    ///
    /// Any other line, another game's id or another name, a point off the board.
    pub fn next_move(&mut self) -> Step<Move> {
        let expected = format!(
            "MOVE+{}+{}+<index> (its move, as {})",
            self.id, self.name, self.colour
        );
        let command = command(&mut self.wire, &expected)?;
        self.move_times.push(self.turn_given.elapsed());
        let (game_id, player, index) = match command {
            ClientCommand::Move {
                game_id,
                player,
                index,
            } => (game_id, player, index),
            ClientCommand::Pass { game_id, player } => (game_id, player, -1),
            other => return Err(Failure::new(expected, other.to_string())),
        };
        if game_id != self.id {
            return Err(Failure::new(
                format!("the game id it was given, {}", self.id),
                format!("MOVE for game {game_id}"),
            ));
        }
        if player != self.name {
            return Err(Failure::new(
                format!("the name the server granted, {}", self.name),
                format!("MOVE for {player}"),
            ));
        }
        let size = self.game.size();
        if index == -1 {
            return Ok(Move::Pass);
        }
        Point::from_index(index, size)
            .map(Move::Play)
            .ok_or_else(|| {
                Failure::new(
                    format!("a tile index from 0 to {} or -1", size * size - 1),
                    index.to_string(),
                )
            })
    }

    /// The client's move, which must be legal on the board the server last sent:
    /// played, and acknowledged (ACKNOWLEDGE_MOVE).
    ///
    /// # Errors
    ///
    /// See [`Host::next_move`]; or an illegal move.
    pub fn client_moves(&mut self) -> Step<Move> {
        let mv = self.next_move()?;
        let board = self.game.board().to_protocol_string();
        self.game.play(self.colour, mv).map_err(|why| {
            Failure::new(
                "a legal move on the board the server last sent",
                format!(
                    "{} ({why}); the board was {board}",
                    describe(mv, self.game.size())
                ),
            )
        })?;
        self.acknowledge_played(mv, self.colour)?;
        Ok(mv)
    }

    /// The opponent plays `mv` (which the engine allows), acknowledged to the client.
    ///
    /// # Errors
    ///
    /// The engine refuses it (a case's mistake), or the write failed.
    pub fn opponent(&mut self, mv: Move) -> Step<()> {
        let colour = self.colour.opponent();
        self.game.play(colour, mv).map_err(|why| {
            Failure::new(
                "a move the checker's opponent may play (the checker's fault: please report it)",
                why.to_string(),
            )
        })?;
        self.acknowledge_played(mv, colour)
    }

    /// The opponent's move: a capture of the client's stones when one is possible, else
    /// the first legal point from the far corner, else a pass.
    pub fn opponent_choice(&self) -> Move {
        let colour = self.colour.opponent();
        let size = self.game.size();
        let points: Vec<Move> = (0..size * size)
            .rev()
            .filter_map(|i| Point::from_index(i64::try_from(i).ok()?, size))
            .map(Move::Play)
            .filter(|&mv| self.game.check(colour, mv).is_ok())
            .collect();
        let captures = points.iter().copied().find(|&mv| {
            let mut trial = self.game.clone();
            trial
                .play(colour, mv)
                .is_ok_and(|report| !report.captured.is_empty())
        });
        captures.or(points.first().copied()).unwrap_or(Move::Pass)
    }

    /// Plays until the client has made `moves` moves (or the game ends): the client
    /// moves on its turns, the opponent ([`Host::opponent_choice`]) on the others.
    ///
    /// # Errors
    ///
    /// A move of the client's is not as the document says.
    pub fn play(&mut self, moves: usize) -> Step<()> {
        let mut made = 0;
        while made < moves && !self.game.is_over() {
            if self.game.to_move() == self.colour {
                self.client_moves()?;
                made += 1;
            } else {
                let mv = self.opponent_choice();
                self.opponent(mv)?;
            }
        }
        Ok(())
    }

    /// ACKNOWLEDGE_MOVE of `mv` by `colour` (played already), with the state after it.
    ///
    /// # Errors
    ///
    /// The write failed.
    pub fn acknowledge_played(&mut self, mv: Move, colour: Colour) -> Step<()> {
        let size = self.game.size();
        let index = match mv {
            Move::Pass => -1,
            Move::Play(point) => i64::try_from(point.index(size)).unwrap_or(-1),
        };
        let message = ServerMessage::AcknowledgeMove {
            game_id: self.id,
            index,
            colour,
            state: self.state(),
        };
        self.send(&message)?;
        if self.game.to_move() == self.colour {
            self.turn_given = Instant::now();
        }
        Ok(())
    }

    /// GAME_FINISHED with the engine's area score (`message` its reason), then, if
    /// `ask`, REQUEST_REMATCH.
    ///
    /// # Errors
    ///
    /// A write failed.
    pub fn finish(&mut self, message: &str, ask: bool) -> Step<()> {
        let score = self.game.score();
        let winner = score.winner().map(|c| {
            if c == self.colour {
                self.name.clone()
            } else {
                "Referee".to_string()
            }
        });
        self.send(&ServerMessage::GameFinished {
            game_id: self.id,
            winner,
            black_score: score.black_text(),
            white_score: score.white_text(),
            message: message.to_string(),
        })?;
        if ask {
            self.send(&ServerMessage::RequestRematch)?;
        }
        Ok(())
    }

    /// The client's answer to REQUEST_REMATCH: true for `SET_REMATCH+1`.
    ///
    /// # Errors
    ///
    /// Any other line (a MOVE, a `SET_REMATCH+2`), or none.
    pub fn rematch_answer(&mut self) -> Step<bool> {
        let expected = "SET_REMATCH+1 or SET_REMATCH+0, its answer to REQUEST_REMATCH";
        match command(&mut self.wire, expected)? {
            ClientCommand::SetRematch { rematch } => Ok(rematch),
            other => Err(Failure::new(expected, other.to_string())),
        }
    }

    /// Nothing from the client for `wait` (a line it must not send).
    ///
    /// # Errors
    ///
    /// A line came: `why` says why none may.
    pub fn nothing_for(&mut self, wait: Duration, why: &str) -> Step<()> {
        match self.wire.hear(wait) {
            Heard::Line(line) => Err(Failure::new(format!("nothing ({why})"), line)),
            _ => Ok(()),
        }
    }
}

/// Answers the client's HANDSHAKE as `start` says: ACKNOWLEDGE_HANDSHAKE, and to a
/// leader REQUEST_CONFIG, whose SET_CONFIG must name the game; returns that config.
///
/// # Errors
///
/// The SET_CONFIG is missing or names another game.
pub fn handshake_answered(wire: &mut Wire, start: &Start) -> Step<Option<(u8, u32)>> {
    wire.send(
        &ServerMessage::AcknowledgeHandshake {
            game_id: start.id,
            is_leader: start.leader,
        }
        .to_string(),
    )?;
    if !start.leader {
        return Ok(None);
    }
    wire.send(
        &ServerMessage::RequestConfig {
            message: start.request.clone(),
        }
        .to_string(),
    )?;
    set_config(wire, start.id).map(Some)
}

/// The leader's SET_CONFIG for game `id`: the colour (0, 1, 2) and size it asked.
///
/// # Errors
///
/// Any other line, or another game's id.
pub fn set_config(wire: &mut Wire, id: GameId) -> Step<(u8, u32)> {
    let expected = format!("SET_CONFIG+{id}+<colour>+<size>, its answer to REQUEST_CONFIG");
    match command(wire, &expected)? {
        ClientCommand::SetConfig {
            game_id,
            colour,
            size,
        } if game_id == id => Ok((colour.number(), size)),
        other => Err(Failure::new(expected, other.to_string())),
    }
}

/// A move as reports show it: `D4 (tile 15)`, `pass`.
pub fn describe(mv: Move, size: usize) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Play(point) => format!("{} (tile {})", point.vertex(size), point.index(size)),
    }
}
