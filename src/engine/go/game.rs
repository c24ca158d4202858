//! A game: the board plus whose turn it is, the move history, captures, the end by
//! two passes, and superko over every earlier position.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::Prediction;
use super::{
    Board, BoardSizeError, Colour, IllegalMove, KoRule, Point, Rules, Score, Setup, SetupError,
    SuicideRule, zobrist,
};

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Move {
    /// A stone at this point.
    Play(Point),
    /// No stone; two passes in a row end the game.
    Pass,
}

/// What an accepted move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// Every stone the move removed: the opponent stones it captured, or after a
    /// multi-stone suicide the mover's own stones.
    pub captured: Vec<Point>,
    /// True when this move was the second pass in a row, which ends the game.
    pub game_over: bool,
}

/// One move of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// Who played it.
    pub colour: Colour,
    /// What was played.
    pub mv: Move,
}

/// A hasher for keys that are already Zobrist hashes: uniformly random, so they are
/// used as they are.
#[derive(Default)]
struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of position hashes.
type PositionSet = HashSet<u64, BuildHasherDefault<ZobristHasher>>;

/// One game of Go under fixed [`Rules`]. Black moves first.
#[derive(Clone, Debug)]
pub struct Game {
    /// The rules, fixed for the game.
    rules: Rules,
    /// The current board.
    board: Board,
    /// Whose turn it is.
    to_move: Colour,
    /// Every move so far, passes included.
    moves: Vec<PlayedMove>,
    /// Passes in a row at the end of `moves`; 2 ends the game.
    passes: u8,
    /// Stones captured so far, by black and by white.
    captures: [usize; 2],
    /// The key of every position so far (see [`Game::key`]); empty under simple ko.
    seen: PositionSet,
    /// The key of every position so far, in order, starting with the empty board
    /// (or the setup position).
    history: Vec<u64>,
    /// The setup position the game started from, if any (for records).
    setup: Option<Setup>,
}

impl Game {
    /// A new game on an empty `size` x `size` board, black to move.
    ///
    /// # Errors
    /// [`BoardSizeError`] unless `MIN_SIZE <= size <= MAX_SIZE`.
    pub fn new(size: usize, rules: Rules) -> Result<Game, BoardSizeError> {
        Ok(Game::from_board(Board::new(size)?, rules, Colour::Black))
    }

    /// A game starting from `board` with `to_move` to play (for tests from diagrams).
    pub(crate) fn from_board(board: Board, rules: Rules, to_move: Colour) -> Game {
        let mut game = Game {
            rules,
            board,
            to_move,
            moves: Vec::new(),
            passes: 0,
            captures: [0; 2],
            seen: PositionSet::default(),
            history: Vec::new(),
            setup: None,
        };
        game.remember(game.key(game.board.hash(), to_move));
        game
    }

    /// A new game from a setup position: `setup`'s stones on a `size` x `size` board,
    /// its colour to move. The setup position is the first position of the superko
    /// history, and [`setup`](Self::setup) keeps it for records.
    ///
    /// # Errors
    /// [`SetupError`] for a size out of range, a stone off the board, a point given
    /// twice, or a chain without liberties (a setup captures nothing).
    pub fn from_setup(size: usize, rules: Rules, setup: &Setup) -> Result<Game, SetupError> {
        let board = setup.board(size)?;
        let mut game = Game::from_board(board, rules, setup.to_move);
        game.setup = Some(setup.clone().sorted());
        Ok(game)
    }

    /// The setup position this game started from, each colour's points in index
    /// order; `None` for a game that started on the empty board.
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }

    /// Side length of the board.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The rules of this game.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The current board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whose turn it is.
    pub fn to_move(&self) -> Colour {
        self.to_move
    }

    /// Whether the game has ended by two consecutive passes.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }

    /// Whether `colour` may play `mv` now: the same verdict as [`play`](Self::play),
    /// without changing anything.
    ///
    /// # Errors
    /// The first rule broken, checked in this order: game over, turn, off board,
    /// occupied, suicide, ko, superko.
    pub fn check(&self, colour: Colour, mv: Move) -> Result<(), IllegalMove> {
        self.judge(colour, mv).map(|_| ())
    }

    /// Plays `mv` for `colour`: places the stone, removes the opponent chains left
    /// without liberties, then (if the rules allow multi-stone suicide) the mover's
    /// own chain if it has none; or passes.
    ///
    /// # Errors
    /// As [`check`](Self::check); on error nothing changes.
    pub fn play(&mut self, colour: Colour, mv: Move) -> Result<MoveReport, IllegalMove> {
        let prediction = self.judge(colour, mv)?;
        let captured = match prediction {
            Some(prediction) => {
                self.passes = 0;
                let removed = self.board.apply(prediction);
                // After a suicide the mover's own point is empty again.
                let suicide = matches!(mv, Move::Play(p) if self.board.get(p).is_none());
                let by = if suicide { colour.opponent() } else { colour };
                self.captures[by.slot()] += removed.len();
                removed
            }
            None => {
                self.passes += 1;
                self.board.pass();
                Vec::new()
            }
        };
        self.moves.push(PlayedMove { colour, mv });
        self.to_move = colour.opponent();
        self.remember(self.key(self.board.hash(), self.to_move));
        Ok(MoveReport {
            captured,
            game_over: self.is_over(),
        })
    }

    /// Every move so far, passes included, oldest first.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The latest move, if any.
    pub fn last_move(&self) -> Option<PlayedMove> {
        self.moves.last().copied()
    }

    /// Stones captured so far by `by` (including stones the opponent lost by suicide).
    pub fn captures(&self, by: Colour) -> usize {
        self.captures[by.slot()]
    }

    /// The Tromp-Taylor area score of the current board, with this game's komi.
    pub fn score(&self) -> Score {
        self.board.score(self.rules.komi)
    }

    /// Empties the board and the history for a new game with the same size and rules.
    /// A setup is forgotten: the new game starts on the empty board, black to move.
    pub fn restart(&mut self) {
        let board = Board::new(self.size()).unwrap_or_else(|_| self.board.clone());
        *self = Game::from_board(board, self.rules, Colour::Black);
    }

    /// The verdict on `mv`: `None` for a legal pass, the prediction for a legal stone.
    fn judge(&self, colour: Colour, mv: Move) -> Result<Option<Prediction>, IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if colour != self.to_move {
            return Err(IllegalMove::NotYourTurn {
                to_move: self.to_move,
            });
        }
        let Move::Play(point) = mv else {
            return Ok(None);
        };
        let multi_suicide = self.rules.suicide == SuicideRule::MultiStoneAllowed;
        let prediction = self.board.predict(colour, point, multi_suicide)?;
        if self.rules.ko != KoRule::Simple
            && self
                .seen
                .contains(&self.key(prediction.hash_after, colour.opponent()))
        {
            return Err(IllegalMove::Superko {
                point,
                size: self.size() as u8,
            });
        }
        Ok(Some(prediction))
    }

    /// The key of a position for superko: the board hash, plus the side to move
    /// under situational superko.
    fn key(&self, board_hash: u64, to_move: Colour) -> u64 {
        match (self.rules.ko, to_move) {
            (KoRule::Situational, Colour::White) => board_hash ^ zobrist::white_to_move(),
            _ => board_hash,
        }
    }

    /// Adds a position key to the history.
    fn remember(&mut self, key: u64) {
        self.history.push(key);
        if self.rules.ko != KoRule::Simple {
            self.seen.insert(key);
        }
    }

    /// Checks the board's invariants and the game's bookkeeping (for tests).
    ///
    /// # Errors
    /// A description of the first broken invariant.
    #[doc(hidden)]
    pub fn debug_check(&self) -> Result<(), String> {
        self.board.debug_check()?;
        if self.history.len() != self.moves.len() + 1 {
            return Err("history and moves differ in length".to_string());
        }
        if self.history.last() != Some(&self.key(self.board.hash(), self.to_move)) {
            return Err("last history entry is not the current position".to_string());
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
