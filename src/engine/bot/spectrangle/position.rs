//! The bot's own copy of a Spectrangle position, small and fast enough to play
//! thousands of games per move: edge colours per field, the hands as bit masks, and a
//! bag whose order the bot invents.
//!
//! Built from what every player of the table knows ([`Position::new`]): the board, all
//! hands (every `TILE` line goes to every player), the scores, the idle turns and how
//! many tiles the bag holds. The bag's order is never read: the tiles in it are the ones
//! seen nowhere else, and [`Position::shuffle_bag`] puts them in an order of the bot's
//! own choosing, one guess per simulated game.
//!
//! The rules are the engine's (`Board::check`, `Game::play`, `swap`, `skip` and the end
//! of the game), written again on small integers; the tests compare the two on random
//! games. What to play is not decided here: see `policy` and `search`.

use std::sync::LazyLock;

use crate::engine::rng::Rng;
use crate::engine::spectrangle::{
    Colour, FIELDS, Game, HAND_SIZE, Location, MAX_PLAYERS, OrientedTile, Placement, Rotation, Tile,
};

/// Tiles in the set.
pub(super) const TILES: usize = 36;

/// The colour number of a field's edge with no tile across it (colours are 0 to 5,
/// their order in [`Colour::ALL`], white last).
const NO_COLOUR: u8 = 6;

/// The colour number of white.
const WHITE: u8 = 5;

/// Patterns of the colours around a field: each of the three edges shows one of six
/// colours or none.
const PATTERNS: usize = 7 * 7 * 7;

/// No neighbour across an edge (off the board).
const OFF_BOARD: u8 = u8::MAX;

/// A set of tile-rotations, bit `3 × tile + rotation` (a uniform tile only at rotation 0).
type Shapes = u128;

/// Tables derived once from the engine's tiles and fields.
struct Tables {
    /// The edge colours of tile-rotation `3 × tile + rotation`, by edge number.
    colours: [[u8; 3]; 3 * TILES],
    /// For each pattern of colours around a field, the tile-rotations that match it.
    fits: [Shapes; PATTERNS],
    /// Each tile's distinct rotations.
    shapes: [Shapes; TILES],
    /// Each tile's value.
    values: [u8; TILES],
    /// Each field's neighbours by edge number, `OFF_BOARD` where there is none.
    neighbours: [[u8; 3]; FIELDS],
    /// Each field's bonus.
    bonus: [u8; FIELDS],
    /// The fields a first tile may take: those without a bonus.
    first_fields: u64,
}

/// The tables, built on first use.
static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);

impl Tables {
    /// Derives the tables from the engine's tiles, rotations and fields.
    fn new() -> Tables {
        let number = |c: Colour| Colour::ALL.iter().position(|&x| x == c).unwrap_or(0) as u8;
        let mut colours = [[NO_COLOUR; 3]; 3 * TILES];
        let mut shapes = [0; TILES];
        let mut values = [0; TILES];
        for tile in Tile::ALL {
            let t = tile.index();
            values[t] = tile.value() as u8;
            for &rotation in tile.distinct_rotations() {
                let shape = 3 * t + usize::from(rotation.digit());
                colours[shape] = OrientedTile::new(tile, rotation).colours().map(number);
                shapes[t] |= 1 << shape;
            }
        }
        let mut fits = [0; PATTERNS];
        for (pattern, fit) in fits.iter_mut().enumerate() {
            let wanted = [pattern / 49, pattern / 7 % 7, pattern % 7].map(|w| w as u8);
            for (shape, ours) in colours.iter().enumerate() {
                let matches = (0..3).all(|e| {
                    wanted[e] == NO_COLOUR
                        || ours[e] == wanted[e]
                        || ours[e] == WHITE
                        || wanted[e] == WHITE
                });
                if ours[0] != NO_COLOUR && matches {
                    *fit |= 1 << shape;
                }
            }
        }
        let mut neighbours = [[OFF_BOARD; 3]; FIELDS];
        let mut bonus = [1; FIELDS];
        let mut first_fields = 0;
        for location in Location::all() {
            let l = location.index();
            neighbours[l] = location
                .neighbours()
                .map(|n| n.map_or(OFF_BOARD, |n| n.index() as u8));
            bonus[l] = location.bonus() as u8;
            if !location.is_bonus() {
                first_fields |= 1 << l;
            }
        }
        Tables {
            colours,
            fits,
            shapes,
            values,
            neighbours,
            bonus,
            first_fields,
        }
    }
}

/// A placement in the bot's terms, with the points it scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Place {
    /// The tile, by set index.
    pub(super) tile: u8,
    /// The rotation digit (0 for a uniform tile).
    pub(super) rotation: u8,
    /// The field, by protocol number.
    pub(super) location: u8,
    /// The points it scores.
    pub(super) points: u16,
}

impl Place {
    /// The engine's placement for this one (`None` only for numbers out of range,
    /// which the bot never makes).
    pub(super) fn placement(self) -> Option<Placement> {
        let tile = *Tile::ALL.get(usize::from(self.tile))?;
        let rotation = Rotation::new(self.rotation)?;
        Some(Placement {
            tile: OrientedTile::new(tile, rotation),
            location: Location::new(self.location)?,
        })
    }
}

/// A hand of at most four tiles.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Hand {
    /// The tiles, by set index; the first `len` count.
    tiles: [u8; HAND_SIZE],
    /// How many tiles the hand holds.
    len: u8,
}

/// Hands are equal when they hold the same tiles in the same order (slots past `len`
/// keep old tiles and do not count).
impl PartialEq for Hand {
    fn eq(&self, other: &Hand) -> bool {
        self.tiles() == other.tiles()
    }
}

impl Eq for Hand {}

impl Hand {
    /// The tiles held.
    pub(super) fn tiles(&self) -> &[u8] {
        &self.tiles[..usize::from(self.len)]
    }

    /// Adds a tile (ignored when the hand is full, which the rules never allow).
    fn push(&mut self, tile: u8) {
        if let Some(slot) = self.tiles.get_mut(usize::from(self.len)) {
            *slot = tile;
            self.len += 1;
        }
    }

    /// Removes one copy of `tile`; whether it was there.
    fn remove(&mut self, tile: u8) -> bool {
        let Some(at) = self.tiles().iter().position(|&t| t == tile) else {
            return false;
        };
        self.len -= 1;
        self.tiles.copy_within(at + 1..=usize::from(self.len), at);
        true
    }

    /// Every distinct tile-rotation of the hand.
    fn shapes(&self, tables: &Tables) -> Shapes {
        self.tiles()
            .iter()
            .fold(0, |all, &t| all | tables.shapes[usize::from(t)])
    }
}

/// The tiles of a bag in order, the next to be drawn last: a fixed array, so that
/// copying a position (once per simulated game) allocates nothing.
#[derive(Clone, Copy, Debug)]
struct Bag {
    /// The tiles, by set index; the first `len` count.
    tiles: [u8; TILES],
    /// How many tiles the bag holds.
    len: u8,
}

impl Default for Bag {
    fn default() -> Bag {
        Bag {
            tiles: [0; TILES],
            len: 0,
        }
    }
}

/// Bags are equal when they hold the same tiles in the same order.
impl PartialEq for Bag {
    fn eq(&self, other: &Bag) -> bool {
        self.tiles() == other.tiles()
    }
}

impl Eq for Bag {}

impl Bag {
    /// The tiles in order.
    fn tiles(&self) -> &[u8] {
        &self.tiles[..usize::from(self.len)]
    }

    /// The tiles in order, to shuffle them.
    fn tiles_mut(&mut self) -> &mut [u8] {
        &mut self.tiles[..usize::from(self.len)]
    }

    /// How many tiles the bag holds.
    fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Takes the next tile.
    fn pop(&mut self) -> Option<u8> {
        self.len = self.len.checked_sub(1)?;
        Some(self.tiles[usize::from(self.len)])
    }

    /// Puts `tile` in at position `at` (at most `len`); ignored when the bag is full,
    /// which 36 tiles in all never allow.
    fn insert(&mut self, at: usize, tile: u8) {
        let len = self.len();
        if len < TILES && at <= len {
            self.tiles.copy_within(at..len, at + 1);
            self.tiles[at] = tile;
            self.len += 1;
        }
    }
}

/// A position of a game, as the bot simulates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Position {
    /// The edge colours of the tile on each field, `NO_COLOUR` on empty fields.
    edges: [[u8; 3]; FIELDS],
    /// Empty fields next to a placed tile (after the first tile only these can take one).
    frontier: u64,
    /// Tiles on the board.
    placed: u8,
    /// The players' hands; the first `players` count.
    hands: [Hand; MAX_PLAYERS],
    /// The number of players.
    players: u8,
    /// Each player's points.
    scores: [u32; MAX_PLAYERS],
    /// The player to move.
    to_move: u8,
    /// Turns in a row without a placement.
    idle: u8,
    /// The bag: its tiles in the real game, in an order the bot made up; the next tile
    /// drawn is the last.
    bag: Bag,
    /// Whether the game is over.
    over: bool,
}

impl Position {
    /// The position of `game` as every player sees it; the bag's tiles are the ones on
    /// no field and in no hand, in set order until [`shuffle_bag`](Self::shuffle_bag).
    pub(super) fn new(game: &Game) -> Position {
        let mut edges = [[NO_COLOUR; 3]; FIELDS];
        let mut seen = [false; TILES];
        let mut placed = 0;
        let tables = &*TABLES;
        for placement in game.board().placements() {
            let tile = placement.tile.tile().index();
            let shape = 3 * tile + usize::from(placement.tile.rotation().digit());
            edges[placement.location.index()] = tables.colours[shape];
            seen[tile] = true;
            placed += 1;
        }
        let mut hands = [Hand::default(); MAX_PLAYERS];
        let mut scores = [0; MAX_PLAYERS];
        let players = game.players().min(MAX_PLAYERS);
        for player in 0..players {
            for tile in game.hand(player) {
                hands[player].push(tile.index() as u8);
                seen[tile.index()] = true;
            }
            scores[player] = game.scores()[player];
        }
        // In a real game the tiles seen nowhere are exactly the bag's; a game arranged
        // for a test may have left some out: then the bag holds the first of them.
        let mut bag = Bag::default();
        for tile in (0..TILES as u8)
            .filter(|&t| !seen[usize::from(t)])
            .take(game.bag_len())
        {
            bag.insert(bag.len(), tile);
        }
        let mut position = Position {
            edges,
            frontier: 0,
            placed,
            hands,
            players: players as u8,
            scores,
            to_move: game.to_move() as u8,
            idle: game.idle_turns().min(usize::from(u8::MAX)) as u8,
            bag,
            over: game.is_over(),
        };
        for l in 0..FIELDS {
            if position.edges[l][0] != NO_COLOUR {
                position.add_to_frontier(l);
            }
        }
        position
    }

    /// Moves `tile` to the top of the bag, to be drawn next (for tests that follow a
    /// real game).
    #[cfg(test)]
    fn put_on_top(&mut self, tile: u8) {
        if let Some(at) = self.bag.tiles().iter().position(|&t| t == tile) {
            self.bag.tiles_mut()[at..].rotate_left(1);
        }
    }

    /// Puts the bag's tiles in a random order: one guess at the real bag.
    pub(super) fn shuffle_bag(&mut self, rng: &mut Rng) {
        self.bag.tiles_mut().sort_unstable();
        rng.shuffle(self.bag.tiles_mut());
    }

    /// The number of players.
    pub(super) fn players(&self) -> usize {
        usize::from(self.players)
    }

    /// The player to move.
    pub(super) fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    /// Each player's points.
    pub(super) fn scores(&self) -> &[u32] {
        &self.scores[..self.players()]
    }

    /// `player`'s hand.
    pub(super) fn hand(&self, player: usize) -> &[u8] {
        self.hands.get(player).map_or(&[], Hand::tiles)
    }

    /// The tiles in the bag (in the order guessed, the next drawn last).
    pub(super) fn bag(&self) -> &[u8] {
        self.bag.tiles()
    }

    /// Whether the game is over.
    pub(super) fn is_over(&self) -> bool {
        self.over
    }

    /// A tile's value.
    pub(super) fn value(tile: u8) -> u32 {
        u32::from(TABLES.values[usize::from(tile) % TILES])
    }

    /// Calls `each` with every legal placement of `player`'s hand and the most points
    /// `next` could score with its hand right after it (0 when `next` could not place).
    ///
    /// A placement changes what fits only on its own field and the empty fields next
    /// to it, so the best reply elsewhere is worked out once for all placements.
    pub(super) fn for_each_place_with_reply(
        &self,
        player: usize,
        next: usize,
        mut each: impl FnMut(Place, u32),
    ) {
        let tables = &*TABLES;
        let mine = self.hands.get(player).map_or(0, |h| h.shapes(tables));
        let theirs = self.hands.get(next).map_or(0, |h| h.shapes(tables));
        if mine == 0 {
            return;
        }
        // The best reply on each frontier field now, the five best in decreasing order:
        // a placement rules out at most four fields (its own and three neighbours).
        let mut top = [(0u32, OFF_BOARD); 5];
        let mut frontier = self.frontier;
        while frontier != 0 {
            let f = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let (pattern, touching) = self.around(tables, f);
            let best = best_value(tables, tables.fits[pattern] & theirs)
                * u32::from(touching)
                * u32::from(tables.bonus[f]);
            if best > top[4].0 {
                top[4] = (best, f as u8);
                top.sort_unstable_by_key(|&(best, _)| std::cmp::Reverse(best));
            }
        }
        let mut fields = self.fields();
        while fields != 0 {
            let l = fields.trailing_zeros() as usize;
            fields &= fields - 1;
            let (pattern, touching) = self.around(tables, l);
            let mut fitting = if self.placed == 0 {
                mine
            } else {
                tables.fits[pattern] & mine
            };
            if fitting == 0 {
                continue;
            }
            let near = tables.neighbours[l];
            let elsewhere = top
                .iter()
                .find(|&&(_, f)| f != l as u8 && !near.contains(&f))
                .map_or(0, |&(best, _)| best);
            let factor = u32::from(touching.max(1)) * u32::from(tables.bonus[l]);
            // The best reply on each empty neighbour, by the colour this tile puts on
            // the edge they share: tiles and rotations repeat colours, so each is
            // worked out once.
            let mut replies = [[u32::MAX; 6]; 3];
            while fitting != 0 {
                let shape = fitting.trailing_zeros() as usize;
                fitting &= fitting - 1;
                let colours = tables.colours[shape];
                let mut reply = elsewhere;
                for (edge, &n) in near.iter().enumerate() {
                    let n = usize::from(n);
                    if self.edges.get(n).is_none_or(|e| e[0] != NO_COLOUR) {
                        continue;
                    }
                    let colour = colours[edge];
                    let cached = &mut replies[edge][usize::from(colour) % 6];
                    if *cached == u32::MAX {
                        let (pattern, touching) = self.around_with(tables, n, edge, colour);
                        *cached = best_value(tables, tables.fits[pattern] & theirs)
                            * u32::from(touching)
                            * u32::from(tables.bonus[n]);
                    }
                    reply = reply.max(*cached);
                }
                let tile = shape / 3;
                let place = Place {
                    tile: tile as u8,
                    rotation: (shape % 3) as u8,
                    location: l as u8,
                    points: (u32::from(tables.values[tile]) * factor) as u16,
                };
                each(place, reply);
            }
        }
    }

    /// Every legal placement of `player`'s hand (for tests).
    #[cfg(test)]
    pub(super) fn places(&self, player: usize) -> Vec<Place> {
        let mut places = Vec::new();
        self.for_each_place_with_reply(player, player, |place, _| places.push(place));
        places
    }

    /// Whether `player` can place any tile of its hand.
    pub(super) fn can_place(&self, player: usize) -> bool {
        let tables = &*TABLES;
        let Some(hand) = self.hands.get(player) else {
            return false;
        };
        let shapes = hand.shapes(tables);
        if shapes == 0 {
            return false;
        }
        if self.placed == 0 {
            return true;
        }
        let mut fields = self.frontier;
        while fields != 0 {
            let l = fields.trailing_zeros() as usize;
            fields &= fields - 1;
            if tables.fits[self.around(tables, l).0] & shapes != 0 {
                return true;
            }
        }
        false
    }

    /// The best points `player` could score now, 0 if it cannot place (for tests).
    #[cfg(test)]
    pub(super) fn best_points(&self, player: usize) -> u32 {
        let places = self.places(player);
        places
            .iter()
            .map(|p| u32::from(p.points))
            .max()
            .unwrap_or(0)
    }

    /// The player to move places `place` (which must be legal for it: see
    /// [`places`](Self::places)), scores, draws from the bag if it can, and the turn
    /// passes.
    pub(super) fn play(&mut self, place: Place) {
        let tables = &*TABLES;
        let player = self.to_move();
        let l = usize::from(place.location);
        let shape = 3 * usize::from(place.tile) + usize::from(place.rotation);
        self.edges[l] = tables.colours[shape];
        self.placed += 1;
        self.frontier &= !(1 << l);
        self.add_to_frontier(l);
        self.hands[player].remove(place.tile);
        if let Some(tile) = self.bag.pop() {
            self.hands[player].push(tile);
        }
        self.scores[player] += u32::from(place.points);
        self.idle = 0;
        self.end_turn();
    }

    /// The player to move, who cannot place, returns `tile` to the bag for the bag's
    /// last tile; the returned tile goes in at a random place (as the engine does).
    /// Does nothing when the bag is empty or the player does not hold the tile.
    pub(super) fn swap(&mut self, tile: u8, rng: &mut Rng) {
        let player = self.to_move();
        if self.bag.len() == 0 || !self.hands[player].remove(tile) {
            return;
        }
        if let Some(drawn) = self.bag.pop() {
            self.hands[player].push(drawn);
        }
        let at = rng.below(self.bag.len() + 1);
        self.bag.insert(at, tile);
        self.idle += 1;
        self.end_turn();
    }

    /// The player to move, who cannot place, lets the turn pass.
    pub(super) fn skip(&mut self) {
        self.idle += 1;
        self.end_turn();
    }

    /// Passes the turn on and ends the game as `Game::end_turn` does.
    fn end_turn(&mut self) {
        self.to_move = (self.to_move + 1) % self.players.max(1);
        let idle_rounds = usize::from(self.idle) >= 3 * self.players();
        if idle_rounds || (self.bag.len() == 0 && (0..self.players()).all(|p| !self.can_place(p))) {
            self.over = true;
        }
    }

    /// The fields a tile could go on: any field without a bonus on the empty board,
    /// else the frontier.
    fn fields(&self) -> u64 {
        if self.placed == 0 {
            TABLES.first_fields
        } else {
            self.frontier
        }
    }

    /// The pattern of colours around field `l` (an index into `Tables::fits`) and how
    /// many placed tiles touch it.
    fn around(&self, tables: &Tables, l: usize) -> (usize, u8) {
        let mut pattern = 0;
        let mut touching = 0;
        for (edge, &n) in tables.neighbours[l].iter().enumerate() {
            let colour = match self.edges.get(usize::from(n)) {
                Some(edges) => edges[edge],
                None => NO_COLOUR,
            };
            touching += u8::from(colour != NO_COLOUR);
            pattern = pattern * 7 + usize::from(colour);
        }
        (pattern, touching)
    }

    /// As [`around`](Self::around), with `colour` across edge `edge` instead of what the
    /// board shows there.
    fn around_with(&self, tables: &Tables, l: usize, edge: usize, colour: u8) -> (usize, u8) {
        let mut pattern = 0;
        let mut touching = 0;
        for (e, &n) in tables.neighbours[l].iter().enumerate() {
            let colour = if e == edge {
                colour
            } else {
                self.edges
                    .get(usize::from(n))
                    .map_or(NO_COLOUR, |edges| edges[e])
            };
            touching += u8::from(colour != NO_COLOUR);
            pattern = pattern * 7 + usize::from(colour);
        }
        (pattern, touching)
    }

    /// Adds the empty neighbours of field `l` to the frontier.
    fn add_to_frontier(&mut self, l: usize) {
        for &n in &TABLES.neighbours[l] {
            if let Some(edges) = self.edges.get(usize::from(n))
                && edges[0] == NO_COLOUR
            {
                self.frontier |= 1 << n;
            }
        }
    }
}

/// The highest value among the tiles of `shapes`, 0 for none: the value of the first,
/// since the set lists its tiles by value, highest first (checked by the tests).
fn best_value(tables: &Tables, shapes: Shapes) -> u32 {
    if shapes == 0 {
        return 0;
    }
    u32::from(tables.values[shapes.trailing_zeros() as usize / 3])
}

#[cfg(test)]
#[path = "position_tests.rs"]
mod tests;
