//! A game for 2 to 4 players: the bag, the hands, whose turn it is, placing, swapping
//! and skipping, the scores, and when the game ends.
//!
//! Players are numbers 0 to n − 1 in turn order; their names, clocks and connections are
//! the server's business. The game is deterministic for a seed: the bag is shuffled with
//! `Rng::new(seed)`, and the same generator later chooses where a swapped tile goes back.

use std::fmt;

use super::{
    Board, Letters, Location, MoveError, OrientedTile, Placement, PlayerCountError, Spelling, Tile,
};
use crate::engine::rng::Rng;

/// Tiles in a full hand.
pub const HAND_SIZE: usize = 4;

/// The fewest players in a game.
pub const MIN_PLAYERS: usize = 2;

/// The most players in a game.
pub const MAX_PLAYERS: usize = 4;

/// One tile of the opening deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dealt {
    /// Who gets it.
    pub player: usize,
    /// The tile.
    pub tile: Tile,
}

/// What an accepted placement did: everything `UPDATE` and `TILE` announce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayReport {
    /// Who placed.
    pub player: usize,
    /// The tile as dealt, turned as it lies (`RRY0` even when the client wrote `RYR1`).
    pub tile: OrientedTile,
    /// The field.
    pub location: Location,
    /// The points scored.
    pub points: u32,
    /// The tile drawn from the bag afterwards; `None` when the bag was empty.
    pub drawn: Option<Tile>,
}

/// What an accepted swap did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwapReport {
    /// Who swapped.
    pub player: usize,
    /// The tile that went back into the bag.
    pub returned: Tile,
    /// The tile drawn instead (drawn before the returned one went in, so never the same).
    pub drawn: Tile,
}

/// One turn of the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A tile was placed.
    Played(PlayReport),
    /// A tile was swapped with the bag.
    Swapped(SwapReport),
    /// The player skipped: by choice (`forced` false), or the server skipped it.
    Skipped {
        /// Who was skipped.
        player: usize,
        /// Whether the server skipped the player (a move timeout).
        forced: bool,
    },
}

impl Turn {
    /// The player whose turn it was.
    pub fn player(&self) -> usize {
        match *self {
            Turn::Played(report) => report.player,
            Turn::Swapped(report) => report.player,
            Turn::Skipped { player, .. } => player,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The bag is empty and no player can place a tile of its hand.
    NobodyCanPlace,
    /// Three rounds in a row (3 × players turns) passed without a placement.
    ThreeIdleRounds,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::NobodyCanPlace => "the bag is empty and nobody can place a tile",
            EndReason::ThreeIdleRounds => "three rounds in a row passed without a placement",
        })
    }
}

/// One game of Spectrangle.
///
/// Paired query and act: [`check`](Game::check) gives the verdict on a placement,
/// [`play`](Game::play) the same verdict and, when legal, makes it. Every refusal is a
/// [`MoveError`] and leaves the game unchanged.
#[derive(Clone, Debug)]
pub struct Game {
    /// The board.
    board: Board,
    /// Each player's tiles, in the order received (a drawn tile goes to the end).
    hands: Vec<Vec<Tile>>,
    /// The tiles not yet drawn; the next tile drawn is the last one.
    bag: Vec<Tile>,
    /// Chooses where a swapped tile goes back into the bag.
    rng: Rng,
    /// The opening deal, in the order the tiles were drawn.
    deal: Vec<Dealt>,
    /// The player whose turn it is.
    to_move: usize,
    /// Each player's points so far.
    scores: Vec<u32>,
    /// Every turn so far.
    history: Vec<Turn>,
    /// Turns in a row without a placement.
    idle_turns: usize,
    /// Why the game ended, once it has.
    end: Option<EndReason>,
}

impl Game {
    /// A new game for `players` players: the 36 tiles shuffled with `Rng::new(seed)`,
    /// then four tiles drawn for each player in turn order (player 0's four first, see
    /// [`deal`](Self::deal)). Player 0 moves first.
    ///
    /// # Errors
    /// [`PlayerCountError`] unless 2 ≤ `players` ≤ 4.
    pub fn new(players: usize, seed: u64) -> Result<Game, PlayerCountError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(PlayerCountError { players });
        }
        let mut rng = Rng::new(seed);
        let mut bag = Tile::ALL.to_vec();
        rng.shuffle(&mut bag);
        let mut hands = vec![Vec::with_capacity(HAND_SIZE); players];
        let mut deal = Vec::with_capacity(players * HAND_SIZE);
        for (player, hand) in hands.iter_mut().enumerate() {
            // 36 tiles are more than four hands of four: the bag never runs out here.
            for tile in std::iter::from_fn(|| bag.pop()).take(HAND_SIZE) {
                hand.push(tile);
                deal.push(Dealt { player, tile });
            }
        }
        Ok(Game {
            board: Board::new(),
            hands,
            bag,
            rng,
            deal,
            to_move: 0,
            scores: vec![0; players],
            history: Vec::new(),
            idle_turns: 0,
            end: None,
        })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> usize {
        self.to_move
    }

    /// The opening deal in the order the tiles were drawn: the order of the `TILE` lines.
    pub fn deal(&self) -> &[Dealt] {
        &self.deal
    }

    /// The tiles `player` holds (empty for a player not in the game).
    pub fn hand(&self, player: usize) -> &[Tile] {
        self.hands.get(player).map_or(&[], Vec::as_slice)
    }

    /// How many tiles are left in the bag.
    pub fn bag_len(&self) -> usize {
        self.bag.len()
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Each player's points, in turn order: the sum of its placements (tiles left in a
    /// hand are not subtracted).
    pub fn scores(&self) -> &[u32] {
        &self.scores
    }

    /// Every turn so far, oldest first.
    pub fn history(&self) -> &[Turn] {
        &self.history
    }

    /// Every placement so far, oldest first.
    pub fn placements(&self) -> impl Iterator<Item = &PlayReport> + '_ {
        self.history.iter().filter_map(|turn| match turn {
            Turn::Played(report) => Some(report),
            _ => None,
        })
    }

    /// Turns in a row, up to now, without a placement.
    pub fn idle_turns(&self) -> usize {
        self.idle_turns
    }

    /// Whether `player` could place any tile of its hand anywhere, in any rotation.
    pub fn can_place(&self, player: usize) -> bool {
        self.board.can_place_any(self.hand(player))
    }

    /// One placement `player` could make now, if any (see [`Board::find_placement`]).
    pub fn legal_placement(&self, player: usize) -> Option<Placement> {
        self.board.find_placement(self.hand(player))
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// Why the game ended, once it has.
    pub fn end(&self) -> Option<EndReason> {
        self.end
    }

    /// The placement and its points if `player` may place `spelling` on `location` now.
    ///
    /// # Errors
    /// The first rule broken, in this order: the game is over; it is not `player`'s
    /// turn; the letters are no set tile; `player` does not hold that tile; the board
    /// refuses it ([`MoveError::Illegal`]).
    pub fn check(
        &self,
        player: usize,
        spelling: Spelling,
        location: Location,
    ) -> Result<(Placement, u32), MoveError> {
        self.check_turn(player)?;
        let Some(tile) = spelling.resolve() else {
            return Err(self.no_such_tile(player, spelling.letters));
        };
        self.check_held(player, tile.tile())?;
        let points = self.board.check(tile, location)?;
        Ok((Placement { tile, location }, points))
    }

    /// `player` places `spelling` on `location`: the tile leaves the hand, lies on the
    /// board, scores, and the player draws one tile if the bag is not empty. Then the
    /// turn passes, and the game may end.
    ///
    /// # Errors
    /// As [`check`](Self::check); on error nothing changes.
    pub fn play(
        &mut self,
        player: usize,
        spelling: Spelling,
        location: Location,
    ) -> Result<PlayReport, MoveError> {
        let (placement, points) = self.check(player, spelling, location)?;
        self.board.put(placement.tile, location);
        self.take_from_hand(player, placement.tile.tile());
        let drawn = self.draw(player);
        if let Some(score) = self.scores.get_mut(player) {
            *score += points;
        }
        let report = PlayReport {
            player,
            tile: placement.tile,
            location,
            points,
            drawn,
        };
        self.idle_turns = 0;
        self.end_turn(Turn::Played(report));
        Ok(report)
    }

    /// `player`, who can place none of its tiles, gives back the tile written `letters`
    /// (any rotation) for another. One tile is drawn first, then the returned tile goes
    /// into the bag at a random place, so the player never gets the same tile back.
    ///
    /// # Errors
    /// In this order: the game is over; not `player`'s turn; the letters are no set
    /// tile; `player` does not hold it; `player` could place a tile
    /// ([`MoveError::MustPlace`], with an example); the bag is empty.
    pub fn swap(&mut self, player: usize, letters: Letters) -> Result<SwapReport, MoveError> {
        self.check_turn(player)?;
        let Some(returned) = Tile::find(letters) else {
            return Err(self.no_such_tile(player, letters));
        };
        self.check_held(player, returned)?;
        self.check_stuck(player)?;
        let Some(drawn) = self.bag.pop() else {
            return Err(MoveError::BagEmpty);
        };
        self.take_from_hand(player, returned);
        if let Some(hand) = self.hands.get_mut(player) {
            hand.push(drawn);
        }
        let place = self.rng.below(self.bag.len() + 1);
        self.bag.insert(place, returned);
        let report = SwapReport {
            player,
            returned,
            drawn,
        };
        self.idle_turns += 1;
        self.end_turn(Turn::Swapped(report));
        Ok(report)
    }

    /// `player`, who can place none of its tiles, lets the turn pass.
    ///
    /// # Errors
    /// In this order: the game is over; not `player`'s turn; `player` could place a
    /// tile ([`MoveError::MustPlace`], with an example).
    pub fn skip(&mut self, player: usize) -> Result<(), MoveError> {
        self.check_turn(player)?;
        self.check_stuck(player)?;
        self.idle_turns += 1;
        self.end_turn(Turn::Skipped {
            player,
            forced: false,
        });
        Ok(())
    }

    /// The server skips the player to move (a move timeout), whatever it could do.
    /// Returns that player.
    ///
    /// # Errors
    /// [`MoveError::GameOver`] once the game has ended.
    pub fn forced_skip(&mut self) -> Result<usize, MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        let player = self.to_move;
        self.idle_turns += 1;
        self.end_turn(Turn::Skipped {
            player,
            forced: true,
        });
        Ok(player)
    }

    /// Refuses a move once the game is over or out of turn.
    fn check_turn(&self, player: usize) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if player != self.to_move {
            return Err(MoveError::NotYourTurn {
                to_move: self.to_move,
            });
        }
        Ok(())
    }

    /// Refuses a tile the player does not hold.
    fn check_held(&self, player: usize, tile: Tile) -> Result<(), MoveError> {
        if self.hand(player).contains(&tile) {
            return Ok(());
        }
        Err(MoveError::NotHeld {
            tile,
            hand: self.hand(player).to_vec(),
        })
    }

    /// Refuses a swap or skip from a player who could place a tile.
    fn check_stuck(&self, player: usize) -> Result<(), MoveError> {
        match self.legal_placement(player) {
            Some(example) => Err(MoveError::MustPlace { example }),
            None => Ok(()),
        }
    }

    /// The refusal of letters that are no set tile.
    fn no_such_tile(&self, player: usize, letters: Letters) -> MoveError {
        MoveError::NoSuchTile {
            letters,
            hand: self.hand(player).to_vec(),
        }
    }

    /// Removes one `tile` from `player`'s hand, keeping the order of the others.
    fn take_from_hand(&mut self, player: usize, tile: Tile) {
        if let Some(hand) = self.hands.get_mut(player)
            && let Some(at) = hand.iter().position(|&t| t == tile)
        {
            hand.remove(at);
        }
    }

    /// Draws a tile from the bag into `player`'s hand, if the bag is not empty.
    fn draw(&mut self, player: usize) -> Option<Tile> {
        let tile = self.bag.pop()?;
        if let Some(hand) = self.hands.get_mut(player) {
            hand.push(tile);
        }
        Some(tile)
    }

    /// Records the turn, passes it on, and ends the game if it is over.
    fn end_turn(&mut self, turn: Turn) {
        self.history.push(turn);
        let players = self.players();
        // `new` allows 2 to 4 players, never 0.
        self.to_move = (self.to_move + 1) % players;
        if self.bag.is_empty() && (0..players).all(|p| !self.can_place(p)) {
            self.end = Some(EndReason::NobodyCanPlace);
        } else if self.idle_turns >= 3 * players {
            self.end = Some(EndReason::ThreeIdleRounds);
        }
    }

    /// The game as a player sees it from the wire (`goserver play`): the board, every
    /// hand (hands are public), whose turn it is, the points so far and the turns in a
    /// row without a placement. The bag holds every tile on no field and in no hand, in
    /// an order drawn from `seed`: a player does not know the bag's order, and a bot's
    /// simulations draw from it as from any bag.
    ///
    /// # Errors
    /// [`PlayerCountError`] unless 2 ≤ players ≤ 4.
    pub fn observed(
        board: Board,
        hands: Vec<Vec<Tile>>,
        to_move: usize,
        scores: Vec<u32>,
        idle_turns: usize,
        seed: u64,
    ) -> Result<Game, PlayerCountError> {
        let players = hands.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(PlayerCountError { players });
        }
        let mut bag = Tile::ALL.to_vec();
        for placed in board.placements() {
            if let Some(at) = bag.iter().position(|t| *t == placed.tile.tile()) {
                bag.remove(at);
            }
        }
        for tile in hands.iter().flatten() {
            if let Some(at) = bag.iter().position(|t| t == tile) {
                bag.remove(at);
            }
        }
        let mut rng = Rng::new(seed);
        rng.shuffle(&mut bag);
        let mut scores = scores;
        scores.resize(players, 0);
        Ok(Game {
            board,
            hands,
            bag,
            rng,
            deal: Vec::new(),
            to_move: to_move % players,
            scores,
            history: Vec::new(),
            idle_turns,
            end: None,
        })
    }

    /// A game in a position no deal could give (for tests): player 0 to move.
    #[cfg(test)]
    pub(crate) fn arranged(board: Board, hands: Vec<Vec<Tile>>, bag: Vec<Tile>) -> Game {
        let players = hands.len();
        Game {
            board,
            hands,
            bag,
            rng: Rng::new(0),
            deal: Vec::new(),
            to_move: 0,
            scores: vec![0; players],
            history: Vec::new(),
            idle_turns: 0,
            end: None,
        }
    }

    /// The bag's tiles, the next to be drawn last (for tests).
    #[cfg(test)]
    pub(super) fn bag(&self) -> &[Tile] {
        &self.bag
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
