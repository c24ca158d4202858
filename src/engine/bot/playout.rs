//! A playout: one game played from a position to its end by random moves, as fast as
//! the rules engine's [`Board`] allows.
//!
//! Owns the playout policy (uniformly random among the legal moves that do not fill
//! one's own eye; pass when there is none) and the record of who played first where
//! (for "all moves as first" statistics). Does not judge the result: the final board's
//! area goes back to the search.
//!
//! Playouts use cheaper rules than the game: simple ko only (the board's ko point, no
//! history), and no suicide. The search checks its final choice against the real game.

use crate::engine::go::{Board, Colour, Move, Point};
use crate::engine::rng::Rng;

use super::eye::is_eye;

/// A reusable playout: the board being played and the bookkeeping beside it.
#[derive(Clone, Debug)]
pub(super) struct Playout {
    /// The board of the playout in progress.
    board: Board,
    /// Every empty point of `board`, in no particular order.
    empties: Vec<Point>,
    /// Per point index, the colour of the first stone played there in this playout.
    first: Vec<Option<Colour>>,
}

impl Playout {
    /// A playout ready to start from `board`.
    pub(super) fn new(board: &Board) -> Playout {
        let mut playout = Playout {
            board: board.clone(),
            empties: Vec::new(),
            first: Vec::new(),
        };
        playout.reset(board);
        playout
    }

    /// Starts again from `board`, forgetting the previous playout.
    pub(super) fn reset(&mut self, board: &Board) {
        self.board.clone_from(board);
        self.empties.clear();
        self.empties
            .extend(board.points().filter(|&p| board.get(p).is_none()));
        self.first.clear();
        self.first.resize(board.size() * board.size(), None);
    }

    /// Plays `mv` for `colour`, with multi-stone suicide allowed if `multi_suicide`.
    ///
    /// Returns false, changing nothing, when the board refuses the stone (never for a
    /// move the real game has accepted: the board's checks are a subset of the game's).
    pub(super) fn play(&mut self, colour: Colour, mv: Move, multi_suicide: bool) -> bool {
        let Move::Play(p) = mv else {
            self.board.pass();
            return true;
        };
        let Some(slot) = self.empties.iter().position(|&e| e == p) else {
            return false;
        };
        match self.board.predict(colour, p, multi_suicide) {
            Ok(prediction) => {
                self.empties.swap_remove(slot);
                self.empties.extend(self.board.apply(prediction));
                self.remember(colour, p);
                true
            }
            Err(_) => false,
        }
    }

    /// Plays random moves, `to_move` first, until two passes in a row (counting the
    /// `passes` already made) or a cap of three moves per point, whichever comes first.
    /// Returns the number of moves played, passes included.
    pub(super) fn finish(&mut self, mut to_move: Colour, mut passes: u8, rng: &mut Rng) -> usize {
        // Simple ko allows long cycles (triple ko); the cap ends them.
        let cap = 3 * self.first.len();
        let mut moves = 0;
        while passes < 2 && moves < cap {
            if self.random_move(to_move, rng) {
                passes = 0;
            } else {
                self.board.pass();
                passes += 1;
            }
            to_move = to_move.opponent();
            moves += 1;
        }
        moves
    }

    /// The area score of the board, without komi: (black, white).
    pub(super) fn area(&self) -> (u32, u32) {
        self.board.area()
    }

    /// Who played first at `p` in this playout, if anyone did.
    pub(super) fn first_at(&self, p: Point) -> Option<Colour> {
        self.first
            .get(p.index(self.board.size()))
            .copied()
            .flatten()
    }

    /// Plays a uniformly random legal move for `colour` that does not fill its own
    /// eye; false if there is none.
    fn random_move(&mut self, colour: Colour, rng: &mut Rng) -> bool {
        // Draw from the untried points at the front; move each refused one behind them.
        let mut untried = self.empties.len();
        while untried > 0 {
            let slot = rng.below(untried);
            let p = self.empties[slot];
            if !is_eye(&self.board, colour, p)
                && let Ok(prediction) = self.board.predict(colour, p, false)
            {
                self.empties.swap_remove(slot);
                self.empties.extend(self.board.apply(prediction));
                self.remember(colour, p);
                return true;
            }
            untried -= 1;
            self.empties.swap(slot, untried);
        }
        false
    }

    /// Notes that `colour` played at `p`, unless someone played there before.
    fn remember(&mut self, colour: Colour, p: Point) {
        if let Some(first) = self.first.get_mut(p.index(self.board.size())) {
            first.get_or_insert(colour);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs one playout from `diagram` with `to_move` first; also returns its length.
    fn run(diagram: &str, to_move: Colour, seed: u64) -> (Playout, usize) {
        let board = Board::from_diagram(diagram).expect(diagram);
        let mut playout = Playout::new(&board);
        let moves = playout.finish(to_move, 0, &mut Rng::new(seed));
        (playout, moves)
    }

    #[test]
    fn playouts_end_when_neither_side_has_a_move_but_its_eyes() {
        // 2x2 is left out: its playouts often cycle through kos until the cap.
        for size in [3, 4, 5, 9, 19, 25] {
            let empty = vec![". ".repeat(size); size].join("\n");
            for seed in 0..5 {
                let (playout, moves) = run(&empty, Colour::Black, seed);
                let board = &playout.board;
                board.debug_check().expect("consistent");
                assert!(moves < 3 * size * size, "{size}x{size} hit the cap");
                for p in board.points().filter(|&p| board.get(p).is_none()) {
                    for colour in [Colour::Black, Colour::White] {
                        assert!(
                            is_eye(board, colour, p) || board.predict(colour, p, false).is_err(),
                            "{colour} could still play {p:?} on\n{board}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn playouts_on_2x2_end_by_passes_or_the_cap() {
        for seed in 0..20 {
            let (playout, moves) = run(". .\n. .", Colour::Black, seed);
            playout.board.debug_check().expect("consistent");
            assert!(moves <= 12, "{moves} moves");
        }
    }

    #[test]
    fn the_empty_list_tracks_the_board() {
        let diagram = ". . . . .\n. X O . .\n. . . . .\n. . . . .\n. . . . .";
        let (playout, _) = run(diagram, Colour::White, 3);
        let mut listed = playout.empties.clone();
        listed.sort_by_key(|p| p.index(5));
        let mut actual: Vec<Point> = playout
            .board
            .points()
            .filter(|&p| playout.board.get(p).is_none())
            .collect();
        actual.sort_by_key(|p| p.index(5));
        assert_eq!(listed, actual);
    }

    #[test]
    fn first_stones_are_remembered() {
        let board = Board::from_diagram(". . .\n. . .\n. . .").expect("3x3");
        let mut playout = Playout::new(&board);
        let centre = Point::new(1, 1);
        assert!(playout.play(Colour::White, Move::Play(centre), false));
        assert!(!playout.play(Colour::Black, Move::Play(centre), false));
        assert!(playout.play(Colour::Black, Move::Pass, false));
        assert_eq!(playout.first_at(centre), Some(Colour::White));
        assert_eq!(playout.first_at(Point::new(0, 0)), None);
        assert_eq!(playout.first_at(Point::new(3, 0)), None);
        playout.reset(&board);
        assert_eq!(playout.first_at(centre), None);
        assert_eq!(playout.empties.len(), 9);
    }
}
