//! A Spectrangle game followed from the lines one player receives (START, TILE,
//! UPDATE), with the server's own rules engine for the board: it knows whose turn it
//! is and plays a legal move for them (a placement, else a swap while the bag lasts,
//! else a skip). What the flood benchmark needs to keep a game going; the tests have a
//! fuller referee of their own.

use goserver::engine::spectrangle::{Board, Colour, Letters, Location, Rotation, Spelling, Tile};
use std::collections::HashMap;

/// One game, as far as the lines read so far tell.
pub(crate) struct Referee {
    order: Vec<String>,
    hands: HashMap<String, Vec<Tile>>,
    board: Board,
    turn: usize,
    idle_turns: usize,
}

/// The tile a protocol word names (`RRY0`: letters, then a digit that is ignored).
fn tile(word: &str) -> Option<Tile> {
    let mut letters = word.chars().take(3).map(Colour::from_letter);
    let letters = [letters.next()??, letters.next()??, letters.next()??];
    Tile::find(Letters::new(letters))
}

impl Referee {
    /// Reads START and the deal through `next`; `None` when they are not there. A
    /// game may start with fewer than all of `players`: a lobby starts once everyone
    /// in it is ready, and a flooder's JOIN may still wait behind its own chat.
    pub(crate) fn start(
        next: &mut impl FnMut() -> Option<String>,
        players: &[&str],
    ) -> Option<Referee> {
        let start = next()?;
        let order: Vec<String> = start
            .strip_prefix("START ")?
            .split(' ')
            .map(str::to_string)
            .collect();
        if order.len() < 2 || order.iter().any(|name| !players.contains(&name.as_str())) {
            return None;
        }
        let mut hands: HashMap<String, Vec<Tile>> = HashMap::new();
        for name in &order {
            for _ in 0..4 {
                let line = next()?;
                let word = line.strip_prefix(&format!("TILE {name} "))?;
                hands.entry(name.clone()).or_default().push(tile(word)?);
            }
        }
        Some(Referee {
            order,
            hands,
            board: Board::new(),
            turn: 0,
            idle_turns: 0,
        })
    }

    pub(crate) fn to_move(&self) -> &str {
        &self.order[self.turn]
    }

    fn bag(&self) -> usize {
        36 - self.board.placed() - self.hands.values().map(Vec::len).sum::<usize>()
    }

    /// Whether the rules end the game now.
    pub(crate) fn is_over(&self) -> bool {
        let stuck = self.bag() == 0
            && self
                .order
                .iter()
                .all(|n| !self.board.can_place_any(&self.hands[n]));
        stuck || self.idle_turns >= 3 * self.order.len()
    }

    /// The move of the player to move, and the UPDATE everyone will get for it.
    pub(crate) fn choose(&self) -> (String, String) {
        let name = self.to_move();
        if let Some(p) = self.board.find_placement(&self.hands[name]) {
            let spelled = format!("{}{}", p.tile.tile().letters(), p.tile.rotation().digit());
            return (
                format!("MOVE_PLAY {spelled} {}", p.location),
                format!("UPDATE {name} {} {}", p.tile, p.location),
            );
        }
        if self.bag() > 0 {
            let returned = self.hands[name][0];
            return (
                format!("MOVE_SWAP {returned}"),
                format!("UPDATE {name} {returned}"),
            );
        }
        ("MOVE_SKIP".into(), format!("UPDATE {name}"))
    }

    /// Follows one turn (UPDATE, and TILE when the player drew); returns the UPDATE,
    /// or `None` when the lines are not what the rules say.
    pub(crate) fn follow_turn(
        &mut self,
        next: &mut impl FnMut() -> Option<String>,
    ) -> Option<String> {
        let name = self.to_move().to_string();
        let update = next()?;
        let words: Vec<&str> = update.split(' ').collect();
        if words.get(..2)? != ["UPDATE", name.as_str()] {
            return None;
        }
        let bag_before = self.bag();
        let drew = match words[2..] {
            [placed, location] => {
                let spelling = Spelling {
                    letters: tile(placed)?.letters(),
                    rotation: Rotation::new(placed.as_bytes().get(3)?.checked_sub(b'0')?)?,
                };
                let oriented = spelling.resolve()?;
                let location = Location::new(location.parse::<u8>().ok()?)?;
                let hand = self.hands.get_mut(&name)?;
                let held = hand.iter().position(|t| *t == oriented.tile())?;
                hand.remove(held);
                self.board.place(oriented, location).ok()?;
                self.idle_turns = 0;
                bag_before > 0
            }
            [returned] => {
                let hand = self.hands.get_mut(&name)?;
                let held = hand.iter().position(|t| Some(*t) == tile(returned))?;
                hand.remove(held);
                self.idle_turns += 1;
                true
            }
            [] => {
                self.idle_turns += 1;
                false
            }
            _ => return None,
        };
        if drew {
            let line = next()?;
            let word = line.strip_prefix(&format!("TILE {name} "))?;
            self.hands.get_mut(&name)?.push(tile(word)?);
        }
        self.turn = (self.turn + 1) % self.order.len();
        Some(update)
    }
}
