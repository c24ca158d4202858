//! A Spectrangle game between the checker's clients, refereed by the project's own
//! engine: the board, every placement's points, each player's hand as the server deals
//! it, and the scores at the end. Lenient about what other cases check (LOBBY updates,
//! whether every player is told every tile), so that one defect fails the case named
//! for it.

use super::super::case::{Failure, Step};
use super::super::probe::{Probe, ensure};
use super::client::{SYNC_LINE, SpClient};
use crate::engine::spectrangle::{
    Board, FIELDS, Location, OrientedTile, Placement, Rotation, Spelling, Tile,
};
use crate::frontend::spectrangle::protocol::{Command, ServerMessage};

/// Tiles in a hand.
pub const HAND: usize = 4;

/// Tiles in the set.
pub const SET: usize = 36;

/// Turns a game may take before the checker gives up on its end (a server that lets
/// players swap for ever).
const MAX_TURNS: usize = 300;

/// A player of the table: its client and its hand as the server dealt it.
pub struct Seat {
    /// The client.
    pub client: SpClient,
    /// Its tiles, in the order they were dealt.
    pub hand: Vec<Tile>,
}

/// How a move ended the game, if it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scores {
    /// `SCORE` as each player heard it: name and points, in the order sent.
    pub sent: Vec<(String, u32)>,
}

/// A game in play between clients of a case, and the engine that referees it.
pub struct Table {
    /// The players in turn order (as START listed them).
    pub seats: Vec<Seat>,
    /// The board as the rules build it.
    pub board: Board,
    /// Each player's points as the rules count them, by seat.
    pub points: Vec<u32>,
    /// Whose turn it is (a seat).
    pub turn: usize,
    /// Tiles in the bag (the set less those on the board and in hands).
    pub bag: usize,
    /// Whether the server tells every player every tile (hands are public).
    pub public: bool,
    /// Turns in a row without a placement.
    pub idle: usize,
}

/// Whether `player` belongs to an earlier case of the run (its name does not end in
/// this case's tag).
fn stray(probe: &Probe, player: &str) -> bool {
    !player.ends_with(&probe.name(""))
}

/// Connects `names.len()` clients and joins them, in order, into one lobby: each must
/// be answered with a LOBBY that lists it and those before it.
///
/// # Errors
///
/// A join fails, or a LOBBY lists players other than the case's.
pub fn gather(probe: &mut Probe, names: &[&str]) -> Step<Vec<SpClient>> {
    let mut clients: Vec<SpClient> = Vec::new();
    for base in names {
        let name = probe.name(base);
        let mut client = SpClient::connect(probe, &name)?;
        let mut players = client.join(None)?;
        // A server shared by every case may still hold a player of an earlier case
        // that is leaving: step out, give it a moment, and join again, for as long as
        // an answer may take (a busy server is slow to see the leaver go).
        let patience = std::time::Instant::now() + probe.answer();
        while players.iter().any(|p| stray(probe, p)) && std::time::Instant::now() < patience {
            probe.note(&format!(
                "{} found a player of an earlier case in its lobby: it leaves and joins again",
                client.who()
            ));
            client.send(&Command::Exit)?;
            std::thread::sleep(probe.quiet());
            players = client.join(None)?;
        }
        let mut expected: Vec<String> = clients.iter().map(|c| c.name.clone()).collect();
        expected.push(name.clone());
        let mut sorted = players.clone();
        sorted.sort();
        expected.sort();
        ensure(
            sorted == expected,
            format!(
                "{}: LOBBY listing the players in the lobby: {}",
                client.who(),
                expected.join(" ")
            ),
            format!("LOBBY {}", players.join(" ")),
        )?;
        clients.push(client);
    }
    Ok(clients)
}

impl Table {
    /// Gathers one lobby of players named `names`, makes them all READY, and reads the
    /// START and the deal.
    ///
    /// # Errors
    ///
    /// Any step of it fails.
    pub fn start(probe: &mut Probe, names: &[&str]) -> Step<Table> {
        let clients = gather(probe, names)?;
        Table::ready(probe, clients)
    }

    /// Every client of `clients` (one lobby) sends READY; reads START and the deal.
    ///
    /// # Errors
    ///
    /// START does not list the lobby, or the deal is not four tiles of the set each.
    pub fn ready(probe: &mut Probe, mut clients: Vec<SpClient>) -> Step<Table> {
        for client in &mut clients {
            client.send(&Command::Ready)?;
        }
        let mut order: Option<Vec<String>> = None;
        for client in &mut clients {
            let started =
                client.expect("START <the lobby's players, in turn order>", |m| match m {
                    ServerMessage::Start { players } => Some(players),
                    _ => None,
                })?;
            match &order {
                None => order = Some(started),
                Some(first) => ensure(
                    *first == started,
                    format!(
                        "{}: START {} (as the others were told)",
                        client.who(),
                        first.join(" ")
                    ),
                    format!("START {}", started.join(" ")),
                )?,
            }
        }
        let order = order.unwrap_or_default();
        let mut names: Vec<String> = clients.iter().map(|c| c.name.clone()).collect();
        names.sort();
        let mut listed = order.clone();
        listed.sort();
        ensure(
            names == listed,
            format!(
                "START listing exactly the lobby's players: {}",
                names.join(" ")
            ),
            format!("START {}", order.join(" ")),
        )?;
        // Seats in turn order.
        let mut seats = Vec::new();
        for name in &order {
            let at = clients.iter().position(|c| &c.name == name).unwrap_or(0);
            seats.push(Seat {
                client: clients.remove(at),
                hand: Vec::new(),
            });
        }
        let mut table = Table {
            bag: SET,
            points: vec![0; seats.len()],
            seats,
            board: Board::new(),
            turn: 0,
            public: false,
            idle: 0,
        };
        table.deal(probe)?;
        Ok(table)
    }

    /// Reads the deal: each player's own four tiles, and the others' when the server
    /// tells everyone.
    fn deal(&mut self, probe: &mut Probe) -> Step<()> {
        let players = self.seats.len();
        let names: Vec<String> = self.names();
        let mut hands: Vec<Vec<Tile>> = vec![Vec::new(); players];
        // Whatever each client is told of the others' tiles, for the comparison.
        let mut told: Vec<Vec<Vec<Tile>>> = vec![vec![Vec::new(); players]; players];
        for seat in 0..players {
            while told[seat][seat].len() < HAND {
                let (player, tile) = self.seats[seat].client.expect(
                    &format!(
                        "TILE {} <tile> (four tiles dealt to each player)",
                        names[seat]
                    ),
                    |m| match m {
                        ServerMessage::Tile { player, tile } => Some((player, tile)),
                        _ => None,
                    },
                )?;
                let owner = names.iter().position(|n| *n == player).ok_or_else(|| {
                    Failure::new(
                        "TILE for a player of this game",
                        format!("TILE {player} {tile}"),
                    )
                })?;
                if owner != seat {
                    self.public = true;
                }
                told[seat][owner].push(tile);
            }
            hands[seat] = told[seat][seat].clone();
        }
        if self.public {
            for (seat, told) in told.iter_mut().enumerate() {
                for owner in 0..players {
                    while told[owner].len() < HAND {
                        let tile = self.seats[seat].client.expect(
                            &format!(
                                "TILE {} <tile> (the deal, told to every player)",
                                names[owner]
                            ),
                            |m| match m {
                                ServerMessage::Tile { player, tile } if player == names[owner] => {
                                    Some(tile)
                                }
                                _ => None,
                            },
                        )?;
                        told[owner].push(tile);
                    }
                }
            }
            for (seat, told) in told.iter().enumerate() {
                ensure(
                    *told == hands,
                    format!(
                        "{}: the same deal as every player is told",
                        self.seats[seat].client.who()
                    ),
                    "another deal".to_string(),
                )?;
            }
        }
        let mut seen = [false; SET];
        for tile in hands.iter().flatten() {
            ensure(
                !seen[tile.index()],
                "each tile of the set dealt once",
                format!("{tile} dealt twice"),
            )?;
            seen[tile.index()] = true;
        }
        for (seat, hand) in hands.into_iter().enumerate() {
            self.seats[seat].hand = hand;
        }
        self.bag = SET - HAND * players;
        probe.note(&format!(
            "turn order {}; hands {}",
            self.names().join(", "),
            self.seats
                .iter()
                .map(|s| format!("{}: {}", s.client.name, hand_text(&s.hand)))
                .collect::<Vec<_>>()
                .join("; ")
        ));
        Ok(())
    }

    /// The players' names in turn order.
    pub fn names(&self) -> Vec<String> {
        self.seats.iter().map(|s| s.client.name.clone()).collect()
    }

    /// The seat to move.
    pub fn mover(&mut self) -> &mut Seat {
        &mut self.seats[self.turn]
    }

    /// The best placement of the player to move by points (the lowest field on a
    /// tie), if any tile of its hand fits anywhere.
    pub fn best_placement(&self) -> Option<Placement> {
        let hand = &self.seats[self.turn].hand;
        let mut best: Option<(u32, Placement)> = None;
        for location in Location::all() {
            for &tile in hand {
                for &rotation in tile.distinct_rotations() {
                    let oriented = OrientedTile::new(tile, rotation);
                    if let Ok(points) = self.board.check(oriented, location)
                        && best.is_none_or(|(most, _)| points > most)
                    {
                        best = Some((
                            points,
                            Placement {
                                tile: oriented,
                                location,
                            },
                        ));
                    }
                }
            }
        }
        best.map(|(_, placement)| placement)
    }

    /// The first tile of the game in the top corner (field 0), whose one neighbour is
    /// field 2: turned so that the edge toward field 2 has a colour that no tile of the
    /// next player's hand has (when hands are public), so that nothing of that hand
    /// fits. Cases that need a hand in which nothing fits open with it.
    ///
    /// # Errors
    ///
    /// The placement is not announced as the rules say.
    pub fn corner_opening(&mut self) -> Step<()> {
        let corner = Location::new(0u8).ok_or_else(|| Failure::new("field 0", "none"))?;
        let edge = corner
            .neighbours()
            .iter()
            .position(Option::is_some)
            .unwrap_or(0);
        let next = &self.seats[(self.turn + 1) % self.seats.len()].hand;
        let fits_next = |colour: crate::engine::spectrangle::Colour| {
            next.iter()
                .any(|tile| tile.letters().colours().iter().any(|c| c.matches(colour)))
        };
        let mut choice: Option<(bool, OrientedTile)> = None;
        for &tile in &self.seats[self.turn].hand {
            for &rotation in tile.distinct_rotations() {
                let oriented = OrientedTile::new(tile, rotation);
                let blocks = self.public && !fits_next(oriented.colours()[edge]);
                if choice.is_none_or(|(blocked, _)| blocks && !blocked) {
                    choice = Some((blocks, oriented));
                }
            }
        }
        let (_, tile) = choice.ok_or_else(|| Failure::new("a hand with tiles", "an empty hand"))?;
        self.play(Placement {
            tile,
            location: corner,
        })
    }

    /// Whether the player at `seat` can place a tile.
    pub fn can_place(&self, seat: usize) -> bool {
        self.board.can_place_any(&self.seats[seat].hand)
    }

    /// Whether the rules say the game is over: the bag is empty and nobody can place.
    pub fn is_over(&self) -> bool {
        self.bag == 0 && (0..self.seats.len()).all(|seat| !self.can_place(seat))
    }

    /// The player to move places `placement` (as dealt, turned by its rotation), which
    /// the rules allow; every player must hear the UPDATE, and the new tile drawn.
    ///
    /// # Errors
    ///
    /// The move is not announced as the rules say.
    pub fn play(&mut self, placement: Placement) -> Step<()> {
        let turn = self.turn;
        let points = self.board.place(placement.tile, placement.location).map_err(|e| {
            Failure::new(
                "a legal placement from the checker (this is the checker's fault: please report it)",
                format!("its own engine refuses {placement}: {e}"),
            )
        })?;
        let spelling = Spelling::from(placement.tile);
        self.seats[turn].client.send(&Command::Play {
            spelling,
            location: placement.location,
        })?;
        self.points[turn] += points;
        let name = self.seats[turn].client.name.clone();
        let expected = ServerMessage::Played {
            player: name.clone(),
            tile: placement.tile,
            location: placement.location,
        };
        let tile = placement.tile.tile();
        if let Some(at) = self.seats[turn].hand.iter().position(|t| *t == tile) {
            self.seats[turn].hand.remove(at);
        }
        self.announced(&expected, &format!("{name} placed {placement}"))?;
        self.draw(turn)?;
        self.idle = 0;
        self.next_turn();
        Ok(())
    }

    /// Every player reads `expected` (an UPDATE), the mover first.
    fn announced(&mut self, expected: &ServerMessage, what: &str) -> Step<()> {
        let players = self.seats.len();
        for offset in 0..players {
            let seat = (self.turn + offset) % players;
            let client = &mut self.seats[seat].client;
            let got = client.next(&format!("{expected} ({what})"))?;
            if got != *expected {
                return Err(Failure::new(
                    format!("{}: {expected} ({what})", client.who()),
                    got.to_string(),
                ));
            }
        }
        Ok(())
    }

    /// The player at `seat` draws a tile if the bag has one: its client hears TILE (and
    /// every other client too, when tiles are public).
    fn draw(&mut self, seat: usize) -> Step<()> {
        if self.bag == 0 {
            return Ok(());
        }
        let name = self.seats[seat].client.name.clone();
        let expected = format!("TILE {name} <a tile from the bag>");
        let tile = self.seats[seat].client.expect(&expected, |m| match m {
            ServerMessage::Tile { player, tile } if player == name => Some(tile),
            _ => None,
        })?;
        ensure(
            !self.is_out(tile),
            format!("{expected}: a tile neither on the board nor in a hand"),
            format!("TILE {name} {tile}"),
        )?;
        if self.public {
            for other in (0..self.seats.len()).filter(|&s| s != seat) {
                let client = &mut self.seats[other].client;
                let same = client.expect(
                    &format!("TILE {name} {tile} (tiles are told to every player)"),
                    |m| match m {
                        ServerMessage::Tile { player, tile: told }
                            if player == name && told == tile =>
                        {
                            Some(())
                        }
                        _ => None,
                    },
                );
                same?;
            }
        }
        self.seats[seat].hand.push(tile);
        self.bag -= 1;
        Ok(())
    }

    /// Whether `tile` is on the board or in a hand already.
    fn is_out(&self, tile: Tile) -> bool {
        self.seats.iter().any(|s| s.hand.contains(&tile))
            || self.board.placements().any(|p| p.tile.tile() == tile)
    }

    fn next_turn(&mut self) {
        self.turn = (self.turn + 1) % self.seats.len();
    }

    /// The player to move swaps `tile` with the bag (the rules allow it only when
    /// nothing fits): everyone hears UPDATE with the tile, and the mover its new one.
    ///
    /// # Errors
    ///
    /// The swap is not announced as the rules say.
    pub fn swap(&mut self, tile: Tile) -> Step<()> {
        let turn = self.turn;
        self.seats[turn].client.send(&Command::Swap {
            letters: tile.letters(),
        })?;
        let name = self.seats[turn].client.name.clone();
        let expected = ServerMessage::Swapped {
            player: name.clone(),
            returned: tile,
        };
        self.announced(&expected, &format!("{name} swapped {tile}"))?;
        if let Some(at) = self.seats[turn].hand.iter().position(|t| *t == tile) {
            self.seats[turn].hand.remove(at);
        }
        // The tile went back into the bag, and one comes out.
        self.bag += 1;
        self.draw(turn)?;
        self.idle += 1;
        self.next_turn();
        Ok(())
    }

    /// The player to move skips (the rules allow it only when nothing fits).
    ///
    /// # Errors
    ///
    /// The skip is not announced as the rules say.
    pub fn skip(&mut self) -> Step<()> {
        let turn = self.turn;
        self.seats[turn].client.send(&Command::Skip)?;
        let name = self.seats[turn].client.name.clone();
        let expected = ServerMessage::Skipped {
            player: name.clone(),
        };
        self.announced(&expected, &format!("{name} skipped"))?;
        self.idle += 1;
        self.next_turn();
        Ok(())
    }

    /// What the player to move does in a whole game: its best placement, else a swap of
    /// its first tile while the bag has tiles, else a skip.
    ///
    /// # Errors
    ///
    /// The move is not announced as the rules say.
    pub fn auto_move(&mut self) -> Step<Turn> {
        if let Some(placement) = self.best_placement() {
            self.play(placement)?;
            Ok(Turn::Placed)
        } else if self.bag > 0 {
            let tile = self.seats[self.turn].hand.first().copied().ok_or_else(|| {
                Failure::new("a hand with tiles", "an empty hand while the bag has tiles")
            })?;
            self.swap(tile)?;
            Ok(Turn::Swapped)
        } else {
            self.skip()?;
            Ok(Turn::Skipped)
        }
    }

    /// Plays the game to its end with [`Table::auto_move`], calling `each` before every
    /// move; then every player must hear SCORE.
    ///
    /// # Errors
    ///
    /// A move or the end is not as the rules say.
    pub fn play_to_end(&mut self, mut each: impl FnMut(&mut Table) -> Step<()>) -> Step<Scores> {
        for _ in 0..MAX_TURNS {
            each(self)?;
            self.auto_move()?;
            if self.is_over() {
                return self.scores();
            }
            // goserver (and others) also end a game after three whole rounds without a
            // placement; a SCORE then is no surprise.
            if self.idle >= 3 * self.seats.len()
                && let Some(heard) = self.ended_early()?
            {
                return self.read_scores(Some(heard));
            }
        }
        Err(Failure::new(
            format!("the game to end within {MAX_TURNS} turns"),
            "it went on".to_string(),
        ))
    }

    /// Whether the game ended after rounds without placements: the player to move
    /// sends the sync line, and a SCORE before its ERROR says so (the seat and the
    /// scores it heard). The last move was handled before the sync line, so the
    /// answer does not depend on how fast the server is.
    fn ended_early(&mut self) -> Step<Option<HeardScores>> {
        let seat = self.turn;
        let client = &mut self.seats[seat].client;
        match client.sync()?.as_slice() {
            [] => Ok(None),
            [ServerMessage::Score { scores }] => Ok(Some((seat, scores.clone()))),
            [first, ..] => Err(Failure::new(
                format!(
                    "{}: SCORE (after rounds without a placement), or nothing, before the ERROR that answers {SYNC_LINE}",
                    client.who()
                ),
                first.to_string(),
            )),
        }
    }

    /// Every player reads SCORE; each lists every player once.
    ///
    /// # Errors
    ///
    /// A player hears anything else, or a SCORE that does not list the players.
    pub fn scores(&mut self) -> Step<Scores> {
        self.read_scores(None)
    }

    /// [`Table::scores`], one of them read already.
    fn read_scores(&mut self, heard: Option<HeardScores>) -> Step<Scores> {
        let mut names = self.names();
        names.sort();
        let mut first: Option<Vec<(String, u32)>> = None;
        for seat in 0..self.seats.len() {
            let client = &mut self.seats[seat].client;
            let scores = match &heard {
                Some((at, scores)) if *at == seat => scores.clone(),
                _ => client.expect(
                    "SCORE <name>,<points> ... (the game is over)",
                    |m| match m {
                        ServerMessage::Score { scores } => Some(scores),
                        _ => None,
                    },
                )?,
            };
            let mut listed: Vec<String> = scores.iter().map(|(n, _)| n.clone()).collect();
            listed.sort();
            ensure(
                listed == names,
                format!("SCORE listing each player once: {}", names.join(" ")),
                ServerMessage::Score {
                    scores: scores.clone(),
                }
                .to_string(),
            )?;
            match &first {
                None => first = Some(scores),
                Some(first) => ensure(
                    *first == scores,
                    "the same SCORE to every player",
                    ServerMessage::Score { scores }.to_string(),
                )?,
            }
        }
        Ok(Scores {
            sent: first.unwrap_or_default(),
        })
    }

    /// The points the rules give each player, by name.
    pub fn expected_points(&self) -> Vec<(String, u32)> {
        self.seats
            .iter()
            .zip(&self.points)
            .map(|(s, p)| (s.client.name.clone(), *p))
            .collect()
    }

    /// The board as the report shows it: each field's tile, or its number.
    pub fn rows(&self) -> Vec<String> {
        (0..6u8)
            .map(|row| {
                let first = usize::from(row) * usize::from(row);
                let fields: Vec<String> = (first..first + 2 * usize::from(row) + 1)
                    .filter_map(Location::new)
                    .map(|location| match self.board.get(location) {
                        Some(tile) => tile.to_string(),
                        None => format!("{:>4}", location.index()),
                    })
                    .collect();
                format!(
                    "{}{}",
                    " ".repeat(5 * (5 - usize::from(row))),
                    fields.join(" ")
                )
            })
            .collect()
    }
}

/// A SCORE one seat heard already: the seat, and the scores.
type HeardScores = (usize, Vec<(String, u32)>);

/// What a player did with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Placed a tile.
    Placed,
    /// Swapped one.
    Swapped,
    /// Skipped.
    Skipped,
}

/// `RRY0 GGB0 ...`.
pub fn hand_text(hand: &[Tile]) -> String {
    hand.iter()
        .map(Tile::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A placement the rules refuse for the player to move, found on the board as it is,
/// that `refuse` picks among every tile in every rotation on every field: the first
/// it returns true for.
pub fn find_placement(
    table: &Table,
    tiles: &[Tile],
    mut refuse: impl FnMut(&Board, OrientedTile, Location) -> bool,
) -> Option<Placement> {
    for index in 0..FIELDS {
        let location = Location::new(index)?;
        for &tile in tiles {
            for rotation in Rotation::ALL {
                let oriented = OrientedTile::new(tile, rotation);
                if refuse(&table.board, oriented, location) {
                    return Some(Placement {
                        tile: oriented,
                        location,
                    });
                }
            }
        }
    }
    None
}
