//! A scripted GO! client for the practice bot's tests: it keeps the game on its own
//! copy of the rules engine, plays random legal moves, and checks every line the
//! server sends against that copy: each move of the bot must be an ACKNOWLEDGE_MOVE
//! the engine accepts, with exactly the state that follows from it.
#![allow(dead_code)]

use crate::common::{Client, empty};
use goserver::engine::go::{Colour, Game, Move, Point, Rules};
use goserver::engine::rng::Rng;

/// How the scripted client chooses its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Any legal point, uniformly, own eyes included; a pass only when no point is
    /// legal (the bot's strength test).
    Uniform,
    /// Any legal point that does not fill one of its own one-point eyes; a pass when
    /// there is none, or when the bot has just passed (so games end by two passes).
    Polite,
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundEnd {
    /// The winner by area score, `None` for a draw.
    pub winner: Option<Colour>,
    /// Moves played, passes included.
    pub moves: usize,
    /// True when two passes ended it (else the move limit did).
    pub by_passes: bool,
}

/// One client seated opposite the bot, and its copy of the game.
pub struct Scripted {
    pub client: Client,
    pub name: String,
    pub id: u32,
    pub colour: Colour,
    /// The bot's granted name.
    pub bot: String,
    pub size: usize,
    pub game: Game,
    /// The server's move limit (moves per point times points).
    pub move_limit: usize,
    rng: Rng,
    policy: Policy,
}

impl Scripted {
    /// A client `name` in game `id`, playing `colour` on a `size` board against the
    /// bot `bot`, under `rules` and a server limit of `moves_per_point`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        client: Client,
        name: &str,
        id: u32,
        colour: Colour,
        bot: &str,
        size: usize,
        rules: Rules,
        moves_per_point: usize,
        seed: u64,
        policy: Policy,
    ) -> Scripted {
        Scripted {
            client,
            name: name.to_string(),
            id,
            colour,
            bot: bot.to_string(),
            size,
            game: Game::new(size, rules).expect("a valid size"),
            move_limit: moves_per_point * size * size,
            rng: Rng::new(seed),
            policy,
        }
    }

    /// The ACKNOWLEDGE_CONFIG of a new round, exactly; the copy starts afresh.
    pub fn expect_config(&mut self) {
        self.game = Game::new(self.size, self.game.rules()).expect("a valid size");
        self.client.expect(&format!(
            "ACKNOWLEDGE_CONFIG+{}+{}+{n}+PLAYING;1;{}+{}",
            self.name,
            self.colour.number(),
            empty(self.size),
            self.bot,
            n = self.size
        ));
    }

    /// Plays one round to its end: every line checked, GAME_FINISHED and
    /// REQUEST_REMATCH included.
    pub fn play_round(&mut self) -> RoundEnd {
        let mut bot_passed = false;
        loop {
            if self.game.to_move() == self.colour {
                let mv = self.choose(bot_passed);
                let index = index_of(mv, self.size);
                self.client
                    .send(&format!("MOVE+{}+{}+{index}", self.id, self.name));
                self.game
                    .play(self.colour, mv)
                    .expect("our own move is legal");
                let line = self.acknowledgement(mv, self.colour);
                self.client.expect(&line);
            } else {
                let line = self.client.recv();
                let mv = self.bot_move(&line);
                assert_eq!(
                    self.game.check(self.colour.opponent(), mv),
                    Ok(()),
                    "the bot's move {line:?} is illegal"
                );
                self.game.play(self.colour.opponent(), mv).expect("legal");
                assert_eq!(line, self.acknowledgement(mv, self.colour.opponent()));
                bot_passed = mv == Move::Pass;
            }
            if self.game.is_over() || self.game.moves().len() >= self.move_limit {
                return self.expect_end();
            }
        }
    }

    /// The move an ACKNOWLEDGE_MOVE of the bot announces.
    fn bot_move(&self, line: &str) -> Move {
        let fields: Vec<&str> = line.split('+').collect();
        assert_eq!(
            fields.len(),
            4,
            "expected an ACKNOWLEDGE_MOVE, got {line:?}"
        );
        assert_eq!(fields[0], "ACKNOWLEDGE_MOVE", "got {line:?}");
        let (index, colour) = fields[2].split_once(';').expect("index;colour");
        assert_eq!(colour, self.colour.opponent().number().to_string());
        let index: i64 = index.parse().expect("an index");
        if index == -1 {
            Move::Pass
        } else {
            Move::Play(Point::from_index(index, self.size).expect("an index on the board"))
        }
    }

    /// The ACKNOWLEDGE_MOVE the server must send after `mv` by `colour`, which the
    /// copy has just played.
    fn acknowledgement(&self, mv: Move, colour: Colour) -> String {
        let finished = self.game.is_over() || self.game.moves().len() >= self.move_limit;
        format!(
            "ACKNOWLEDGE_MOVE+{}+{};{}+{};{};{}",
            self.id,
            index_of(mv, self.size),
            colour.number(),
            if finished { "FINISHED" } else { "PLAYING" },
            self.game.to_move().number(),
            self.game.board().to_protocol_string()
        )
    }

    /// GAME_FINISHED with the copy's score, then REQUEST_REMATCH.
    fn expect_end(&mut self) -> RoundEnd {
        let score = self.game.score();
        let by_passes = self.game.is_over();
        let why = if by_passes {
            "Both players passed".to_string()
        } else {
            format!("The move limit of {} moves was reached", self.move_limit)
        };
        let name_of = |colour: Colour| {
            if colour == self.colour {
                self.name.clone()
            } else {
                self.bot.clone()
            }
        };
        let (winner, verdict) = match score.winner() {
            Some(colour) => (name_of(colour), format!("{} wins", name_of(colour))),
            None => (String::new(), "a draw".to_string()),
        };
        self.client.expect(&format!(
            "GAME_FINISHED+{}+{winner}+{black};{white}+{why}. Area score: black {black}, white {white} (komi {}): {verdict}",
            self.id,
            self.game.rules().komi,
            black = score.black_text(),
            white = score.white_text(),
        ));
        self.client.expect("REQUEST_REMATCH");
        RoundEnd {
            winner: score.winner(),
            moves: self.game.moves().len(),
            by_passes,
        }
    }

    /// A random move by the policy.
    fn choose(&mut self, bot_passed: bool) -> Move {
        if self.policy == Policy::Polite && bot_passed {
            return Move::Pass;
        }
        let legal: Vec<Move> = (0..self.size * self.size)
            .filter_map(|i| Point::from_index(i as i64, self.size))
            .filter(|&p| self.policy == Policy::Uniform || !self.is_own_eye(p))
            .map(Move::Play)
            .filter(|&mv| self.game.check(self.colour, mv).is_ok())
            .collect();
        legal
            .get(self.rng.below(legal.len()))
            .copied()
            .unwrap_or(Move::Pass)
    }

    /// An empty point whose neighbours on the board are all our stones.
    fn is_own_eye(&self, p: Point) -> bool {
        let board = self.game.board();
        let (row, col) = (i64::from(p.row()), i64::from(p.col()));
        board.get(p).is_none()
            && [(-1, 0), (1, 0), (0, -1), (0, 1)]
                .into_iter()
                .filter_map(|(dr, dc)| {
                    let (r, c) = (row + dr, col + dc);
                    let n = self.size as i64;
                    ((0..n).contains(&r) && (0..n).contains(&c))
                        .then(|| Point::new(r as u8, c as u8))
                })
                .all(|q| board.get(q) == Some(self.colour))
    }
}

/// The protocol index of a move: the point's index, or -1 for a pass.
pub fn index_of(mv: Move, size: usize) -> i64 {
    match mv {
        Move::Pass => -1,
        Move::Play(p) => p.index(size) as i64,
    }
}
