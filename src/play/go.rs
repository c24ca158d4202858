//! `goserver play go`: a correct GO! client. It speaks the protocol exactly as the
//! document says, through the same protocol module as the server (it formats
//! [`ClientCommand`]s and parses [`ServerMessage`]s), and keeps its own copy of the game
//! on the rules engine, so that its moves are legal on the board the server last sent.
//!
//! The moves come from GoBot (the practice bot) or, with `--human`, from the keyboard.
//! Nothing waits without a bound: every line from the server within the patience
//! given, every write within `link::WRITE_WAIT`, a person's move within the patience
//! too. A refused move is reported and another chosen; the end of the connection ends
//! the run with a line that says why.

use super::human;
use super::link::{Heard, Link};
use super::{Outcome, PlayOptions, Say};
use crate::engine::bot::{Bot, Budget};
use crate::engine::go::{Colour, Game, Move, Point, Rules, Setup};
use crate::frontend::go::protocol::{
    ClientCommand, ColourChoice, GameId, GameState, Progress, ServerMessage,
};
use crossbeam_channel::{Receiver, after, select};
use std::time::{Duration, Instant};

/// How long the client waits for REQUEST_REMATCH after a GAME_FINISHED (the document
/// asks it "when the game is finished", at once; a game that ended by a departure asks
/// nothing). Then it identifies again for the next game, or leaves after the last.
const QUESTION_WAIT: Duration = Duration::from_secs(5);

/// Refused moves in a row after which the client passes, and after which it gives up.
const REFUSALS_BEFORE_PASSING: usize = 3;
const REFUSALS_BEFORE_GIVING_UP: usize = 12;

/// Where the client is in the protocol's flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// HANDSHAKE sent, no answer yet.
    Greeting,
    /// In a game that has not started (waiting for the partner or the configuration).
    Gathering,
    /// A game is on.
    Playing,
    /// The game ended; the rematch question may come.
    Ended,
}

/// One game as the client sees it.
struct Table {
    id: GameId,
    /// The name the server granted (the one every MOVE must carry).
    name: String,
    colour: Colour,
    opponent: String,
    game: Game,
    /// Moves the server refused in this turn.
    refused: Vec<Move>,
    refusals_in_a_row: usize,
    /// A MOVE of the client's waits for its answer (ACKNOWLEDGE_MOVE, or a refusal).
    move_pending: bool,
}

/// The client: its options, its connection, its bot, where it is.
struct Client<'a> {
    options: &'a PlayOptions,
    link: Link,
    say: &'a Say,
    bot: Bot,
    keyboard: Option<Receiver<String>>,
    stage: Stage,
    game_id: Option<GameId>,
    table: Option<Table>,
    games_played: u32,
}

/// Plays `options.games` games on the GO! server at `options.address`.
pub fn play(options: &PlayOptions, link: Link, say: &Say) -> Outcome {
    let keyboard = options.human.then(super::keyboard);
    let mut client = Client {
        options,
        link,
        say,
        bot: Bot::new(options.seed(), options.level),
        keyboard,
        stage: Stage::Greeting,
        game_id: None,
        table: None,
        games_played: 0,
    };
    client.run()
}

impl Client<'_> {
    fn run(&mut self) -> Outcome {
        if let Err(outcome) = self.handshake() {
            return outcome;
        }
        loop {
            let ended = self.stage == Stage::Ended;
            let wait = if ended {
                QUESTION_WAIT
            } else {
                self.options.patience
            };
            let heard = match self.next(wait) {
                Some(heard) => heard,
                None if ended && self.games_played >= self.options.games => return Outcome::Done,
                None if ended => {
                    // No rematch question came: matched anew.
                    if let Err(outcome) = self.handshake() {
                        return outcome;
                    }
                    continue;
                }
                None => {
                    return Outcome::Failed(format!(
                        "the server sent nothing for {} s ({})",
                        wait.as_secs(),
                        self.waiting_for()
                    ));
                }
            };
            let line = match heard {
                Heard::Line(line) => line,
                Heard::Closed(why) if self.games_played >= self.options.games => {
                    self.say
                        .line(&format!("the server closed the connection ({why})"));
                    return Outcome::Done;
                }
                Heard::Closed(why) => {
                    return Outcome::Failed(format!(
                        "the server closed the connection ({why}) after {} of {} games",
                        self.games_played, self.options.games
                    ));
                }
                Heard::TooLong => {
                    self.say
                        .problem("the server sent a line longer than 64 KiB: skipped");
                    continue;
                }
                Heard::NotText => {
                    self.say
                        .problem("the server sent a line that is not UTF-8 text: skipped");
                    continue;
                }
            };
            let message = match ServerMessage::parse(&line) {
                Ok(message) => message,
                Err(why) => {
                    self.say.problem(&format!(
                        "the server sent '{line}', which is no GO! message ({why}): ignored"
                    ));
                    continue;
                }
            };
            match self.handle(message) {
                Ok(true) => {}
                Ok(false) => return Outcome::Done,
                Err(outcome) => return outcome,
            }
        }
    }

    /// What the client waits for, for a message when nothing comes.
    fn waiting_for(&self) -> &'static str {
        match self.stage {
            Stage::Greeting => "waiting for ACKNOWLEDGE_HANDSHAKE",
            Stage::Gathering => "waiting for an opponent and ACKNOWLEDGE_CONFIG",
            Stage::Playing => "waiting for the opponent's move",
            Stage::Ended => "waiting for REQUEST_REMATCH",
        }
    }

    /// The next thing the server sent, within `wait`.
    fn next(&self, wait: Duration) -> Option<Heard> {
        self.link.heard.recv_timeout(wait).ok()
    }

    fn send(&mut self, command: &ClientCommand) -> Result<(), Outcome> {
        self.link
            .send(&command.to_string())
            .map_err(|e| Outcome::Failed(format!("cannot send '{command}': {e}")))
    }

    fn handshake(&mut self) -> Result<(), Outcome> {
        self.stage = Stage::Greeting;
        self.table = None;
        let name = self.options.name.clone();
        self.send(&ClientCommand::Handshake { name })
    }

    /// Handles one message; `Ok(false)` when the run is over.
    fn handle(&mut self, message: ServerMessage) -> Result<bool, Outcome> {
        match message {
            ServerMessage::AcknowledgeHandshake { game_id, is_leader } => {
                self.game_id = Some(game_id);
                self.stage = Stage::Gathering;
                let role = if is_leader { "leads" } else { "joins" };
                self.say
                    .line(&format!("{} {role} game {game_id}", self.options.name));
            }
            ServerMessage::RequestConfig { .. } => {
                // Every REQUEST_CONFIG is answered, a repeated one too.
                let Some(game_id) = self.game_id else {
                    self.say
                        .problem("REQUEST_CONFIG before ACKNOWLEDGE_HANDSHAKE: ignored");
                    return Ok(true);
                };
                let colour = self.options.colour;
                let size = self.options.size;
                self.send(&ClientCommand::SetConfig {
                    game_id,
                    colour,
                    size,
                })?;
            }
            ServerMessage::AcknowledgeConfig {
                name,
                colour,
                size,
                state,
                opponent,
            } => {
                self.start(name, colour, size, &state, opponent)?;
                self.move_if_mine()?;
            }
            ServerMessage::AcknowledgeMove {
                game_id,
                index,
                colour,
                state,
            } => {
                self.moved(game_id, index, colour, &state);
                self.move_if_mine()?;
            }
            ServerMessage::InvalidMove { reason } => {
                self.say
                    .problem(&format!("the server refused the move: {reason}"));
                return self.refused().map(|()| true);
            }
            ServerMessage::UnknownCommand { reason } => {
                self.say
                    .problem(&format!("the server refused a line: {reason}"));
                // A server may refuse a move with UNKNOWN_COMMAND ("not recognized or
                // invalid"): the move was not made, so another is chosen.
                if self.table.as_ref().is_some_and(|t| t.move_pending) {
                    return self.refused().map(|()| true);
                }
            }
            ServerMessage::GameFinished {
                winner,
                black_score,
                white_score,
                message,
                ..
            } => {
                self.games_played += 1;
                self.stage = Stage::Ended;
                let result = match winner {
                    Some(winner) => format!("{winner} wins"),
                    None => "a draw".to_string(),
                };
                self.say.line(&format!(
                    "game {} of {}: {result}, {black_score};{white_score} ({message})",
                    self.games_played, self.options.games
                ));
                if self.games_played < self.options.games && !self.departure(&message) {
                    return Ok(true);
                }
                if self.games_played < self.options.games {
                    // The opponent left: nobody will ask for a rematch.
                    self.handshake()?;
                }
            }
            ServerMessage::RequestRematch => {
                let rematch = self.games_played < self.options.games;
                self.send(&ClientCommand::SetRematch { rematch })?;
                if !rematch {
                    return Ok(false);
                }
            }
            ServerMessage::AcknowledgeRematch { rematch: true } => self.stage = Stage::Gathering,
            ServerMessage::AcknowledgeRematch { rematch: false } => {
                if self.games_played >= self.options.games {
                    return Ok(false);
                }
                self.say.line("no rematch: matched anew");
                self.handshake()?;
            }
        }
        Ok(true)
    }

    /// Whether a GAME_FINISHED's message says a player left (no rematch question then).
    fn departure(&self, message: &str) -> bool {
        let table = self.table.as_ref();
        let opponent = table.map_or("", |t| t.opponent.as_str());
        !opponent.is_empty()
            && message.starts_with(opponent)
            && (message.contains("exited")
                || message.contains("disconnected")
                || message.contains("kicked"))
    }

    fn start(
        &mut self,
        name: String,
        colour: Colour,
        size: usize,
        state: &GameState,
        opponent: String,
    ) -> Result<(), Outcome> {
        let Some(id) = self.game_id else {
            self.say
                .problem("ACKNOWLEDGE_CONFIG before ACKNOWLEDGE_HANDSHAKE: ignored");
            return Ok(());
        };
        let game = position(size, state).ok_or_else(|| {
            Outcome::Failed(format!(
                "the server's game is {size}x{size} with board '{}', which the rules engine cannot play",
                state.board
            ))
        })?;
        self.say.line(&format!(
            "game {id}: {name} plays {colour} on {size}x{size} against {opponent}"
        ));
        self.stage = Stage::Playing;
        self.table = Some(Table {
            id,
            name,
            colour,
            opponent,
            game,
            refused: Vec::new(),
            refusals_in_a_row: 0,
            move_pending: false,
        });
        self.show();
        Ok(())
    }

    /// An ACKNOWLEDGE_MOVE: the move on the client's own board; the server's board
    /// wins if the two disagree.
    fn moved(&mut self, game_id: GameId, index: i64, colour: Colour, state: &GameState) {
        let Some(table) = self.table.as_mut() else {
            return;
        };
        if game_id != table.id {
            self.say.problem(&format!(
                "ACKNOWLEDGE_MOVE for game {game_id}, not ours ({}): ignored",
                table.id
            ));
            return;
        }
        let size = table.game.size();
        let mv = if index == -1 {
            Move::Pass
        } else {
            match Point::from_index(index, size) {
                Some(point) => Move::Play(point),
                None => return,
            }
        };
        if colour == table.colour {
            table.refused.clear();
            table.refusals_in_a_row = 0;
            table.move_pending = false;
        }
        let agreed = table.game.play(colour, mv).is_ok()
            && table.game.board().to_protocol_string() == state.board
            && table.game.to_move() == state.to_move;
        if !agreed && let Some(game) = position(size, state) {
            table.game = game;
        }
        if state.status == Progress::Finished {
            self.stage = Stage::Ended;
        }
        self.show();
    }

    /// Moves if the game is on and it is the client's turn.
    fn move_if_mine(&mut self) -> Result<(), Outcome> {
        let Some(table) = &self.table else {
            return Ok(());
        };
        if self.stage != Stage::Playing || table.game.to_move() != table.colour {
            return Ok(());
        }
        let mv = self.choose()?;
        let Some(table) = &self.table else {
            return Ok(());
        };
        let index = match mv {
            Move::Pass => -1,
            Move::Play(point) => i64::try_from(point.index(table.game.size())).unwrap_or(-1),
        };
        let command = ClientCommand::Move {
            game_id: table.id,
            player: table.name.clone(),
            index,
        };
        if let Some(table) = self.table.as_mut() {
            table.refused.push(mv);
            table.move_pending = true;
        }
        self.send(&command)
    }

    /// The server refused the client's move: another, a pass after a few, and the end
    /// after many.
    fn refused(&mut self) -> Result<(), Outcome> {
        let Some(table) = self.table.as_mut() else {
            return Ok(());
        };
        table.move_pending = false;
        table.refusals_in_a_row += 1;
        if table.refusals_in_a_row >= REFUSALS_BEFORE_GIVING_UP {
            return Err(Outcome::Failed(format!(
                "the server refused {REFUSALS_BEFORE_GIVING_UP} moves in a row, passes too"
            )));
        }
        self.move_if_mine()
    }

    /// The next move: the person's, or GoBot's; never one refused in this turn (after a
    /// few refusals, a pass).
    fn choose(&mut self) -> Result<Move, Outcome> {
        let Some(table) = &self.table else {
            return Ok(Move::Pass);
        };
        if table.refusals_in_a_row >= REFUSALS_BEFORE_PASSING {
            return Ok(Move::Pass);
        }
        if let Some(keyboard) = &self.keyboard {
            return self.ask_person(keyboard.clone());
        }
        let budget = Budget::until(Instant::now() + self.options.think);
        let chosen = self
            .bot
            .choose(&table.game, table.colour, budget)
            .unwrap_or(Move::Pass);
        if !table.refused.contains(&chosen) {
            return Ok(chosen);
        }
        // The server refused what the bot chose: the first other legal point, or a pass.
        let size = table.game.size();
        let other = (0..size * size)
            .filter_map(|i| Point::from_index(i as i64, size).map(Move::Play))
            .find(|&mv| !table.refused.contains(&mv) && table.game.check(table.colour, mv).is_ok());
        Ok(other.unwrap_or(Move::Pass))
    }

    /// Asks the person at the keyboard, within the patience; the server may speak
    /// meanwhile (the opponent left), and is heard first.
    fn ask_person(&mut self, keyboard: Receiver<String>) -> Result<Move, Outcome> {
        let size = self.table.as_ref().map_or(9, |t| t.game.size());
        loop {
            self.say.prompt("your move (e.g. D4, or pass): ");
            let deadline = after(self.options.patience);
            select! {
                recv(keyboard) -> typed => {
                    let Ok(typed) = typed else {
                        return Err(Outcome::Failed("the keyboard's input ended".into()));
                    };
                    match human::read_move(&typed, size) {
                        Ok(mv) => return Ok(mv),
                        Err(why) => self.say.line(&why),
                    }
                }
                recv(deadline) -> _ => {
                    return Err(Outcome::Failed(format!(
                        "no move typed within {} s", self.options.patience.as_secs()
                    )));
                }
            }
        }
    }

    /// The board, for a person.
    fn show(&self) {
        if self.keyboard.is_none() {
            return;
        }
        let Some(table) = &self.table else { return };
        let last = table.game.last_move().and_then(|m| match m.mv {
            Move::Play(point) => Some(point),
            Move::Pass => None,
        });
        self.say.line(&human::show(table.game.board(), last));
    }
}

/// The game on the client's engine as the server's state shows it (the stones, the
/// colour to move); `None` for a size or a board the engine cannot take.
fn position(size: usize, state: &GameState) -> Option<Game> {
    let mut setup = Setup {
        black: Vec::new(),
        white: Vec::new(),
        to_move: state.to_move,
    };
    for (index, digit) in state.board.chars().enumerate() {
        let point = Point::from_index(i64::try_from(index).ok()?, size)?;
        match digit {
            '1' => setup.black.push(point),
            '2' => setup.white.push(point),
            _ => {}
        }
    }
    if setup.black.is_empty() && setup.white.is_empty() {
        let game = Game::new(size, Rules::default()).ok()?;
        return (game.to_move() == state.to_move).then_some(game);
    }
    Game::from_setup(size, Rules::default(), &setup).ok()
}

/// The colour flag's value as the protocol writes it.
pub fn colour_choice(text: &str) -> Result<ColourChoice, String> {
    match text {
        "random" | "0" => Ok(ColourChoice::Random),
        "black" | "1" => Ok(ColourChoice::Black),
        "white" | "2" => Ok(ColourChoice::White),
        _ => Err(format!("'{text}': give black, white or random")),
    }
}
