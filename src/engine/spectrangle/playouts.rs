//! Random playouts, checked after every action against an independent model of the
//! rules written here from the rules text: its own geometry (row and column), its own
//! tile values, and edge colours found by turning a tile step by step, never the
//! engine's tables.
//!
//! Thousands of games with 2, 3 and 4 players pick random legal actions: placements,
//! swaps and skips when forced, forced skips now and then, and refused attempts.

use super::{
    Colour, EndReason, Game, Letters, Location, MoveError, Rotation, Spelling, Tile, Turn,
};
use std::collections::HashMap;

use crate::engine::rng::Rng;

/// The set as the protocol lists it, with values, typed again for the model.
const MODEL_SET: &str = "RRR 6 BBB 6 GGG 6 YYY 6 PPP 6 RRY 5 RRP 5 BBR 5 BBP 5 GGR 5 GGB 5 \
    YYG 5 YYB 5 PPY 5 PPG 5 RRB 4 RRG 4 BBG 4 BBY 4 GGY 4 GGP 4 YYR 4 YYP 4 PPR 4 PPB 4 \
    YBP 3 RGY 3 BGP 3 GRB 3 BRP 2 YPR 2 YPG 2 GRP 1 BYG 1 RYB 1 WWW 1";

/// The value of every tile, by its letters read from every start, from `MODEL_SET`.
fn model_values() -> HashMap<[char; 3], u32> {
    let words: Vec<&str> = MODEL_SET.split_whitespace().collect();
    let mut values = HashMap::new();
    for pair in words.chunks(2) {
        let letters: Vec<char> = pair[0].chars().collect();
        let value = pair[1].parse().unwrap();
        for shift in 0..3 {
            let turned = [0, 1, 2].map(|i| letters[(i + shift) % 3]);
            values.insert(turned, value);
        }
    }
    values
}

/// (row, column) of a location, the column running from −row to row.
fn model_position(index: usize) -> (i32, i32) {
    let mut row = 0;
    while (row + 1) * (row + 1) <= index {
        row += 1;
    }
    let index_in_row = (index - row * row) as i32;
    (row as i32, index_in_row - row as i32)
}

/// The location at (row, column), if on the board.
fn model_index(row: i32, col: i32) -> Option<usize> {
    ((0..6).contains(&row) && (-row..=row).contains(&col)).then(|| (row * row + row + col) as usize)
}

/// The bonus of a field, from the rules text.
fn model_bonus(index: usize) -> u32 {
    let bonus = [
        (10, 2),
        (14, 2),
        (30, 2),
        (2, 3),
        (26, 3),
        (34, 3),
        (11, 4),
        (13, 4),
        (20, 4),
    ];
    bonus.iter().find(|b| b.0 == index).map_or(1, |b| b.1)
}

/// The colours on a field's three sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sides {
    left: char,
    right: char,
    /// Bottom of a field pointing up, top of one pointing down.
    horizontal: char,
}

/// The sides of a tile written `letters` with digit `rotation` on a field pointing up
/// or down: lay it down at rotation 0, then turn it 120° counter-clockwise `rotation`
/// times.
fn model_sides(letters: [char; 3], rotation: u8, up: bool) -> Sides {
    // Rotation 0: counter-clockwise from the horizontal edge.
    let mut sides = if up {
        Sides {
            horizontal: letters[0],
            right: letters[1],
            left: letters[2],
        }
    } else {
        Sides {
            horizontal: letters[0],
            left: letters[1],
            right: letters[2],
        }
    };
    for _ in 0..rotation {
        sides = if up {
            // Turning counter-clockwise: the bottom goes right, the right goes left.
            Sides {
                right: sides.horizontal,
                left: sides.right,
                horizontal: sides.left,
            }
        } else {
            // The top goes left, the left goes right.
            Sides {
                left: sides.horizontal,
                right: sides.left,
                horizontal: sides.right,
            }
        };
    }
    sides
}

/// A neighbour, this tile's colour towards it, and how to read the neighbour's
/// touching colour from its sides.
type Touching = (Option<usize>, char, fn(Sides) -> char);

/// A tile as the model knows it: letters as dealt and a rotation digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ModelTile {
    letters: [char; 3],
    rotation: u8,
}

/// The model's board.
struct Model {
    fields: [Option<ModelTile>; 36],
    /// Tile values by letters, in every reading.
    values: HashMap<[char; 3], u32>,
}

impl Model {
    /// The points of `tile` on `index`, or `None` if the rules forbid it.
    fn points(&self, tile: ModelTile, index: usize) -> Option<u32> {
        if self.fields[index].is_some() {
            return None;
        }
        let value = || self.values[&tile.letters];
        if self.fields.iter().all(Option::is_none) {
            return (model_bonus(index) == 1).then(value);
        }
        let (row, col) = model_position(index);
        let up = (row + col) % 2 == 0;
        let mine = model_sides(tile.letters, tile.rotation, up);
        let vertical = if up { row + 1 } else { row - 1 };
        let touching: [Touching; 3] = [
            (model_index(row, col - 1), mine.left, |s| s.right),
            (model_index(row, col + 1), mine.right, |s| s.left),
            (model_index(vertical, col), mine.horizontal, |s| {
                s.horizontal
            }),
        ];
        let mut matching = 0;
        for (neighbour, colour, theirs) in touching {
            let Some(neighbour) = neighbour else { continue };
            let Some(placed) = self.fields[neighbour] else {
                continue;
            };
            let (r, c) = model_position(neighbour);
            let other = theirs(model_sides(
                placed.letters,
                placed.rotation,
                (r + c) % 2 == 0,
            ));
            if !(colour == other || colour == 'W' || other == 'W') {
                return None;
            }
            matching += 1;
        }
        (matching > 0).then(|| value() * matching * model_bonus(index))
    }

    /// Every legal (tile, rotation, location, points) for a hand.
    fn legal(&self, hand: &[Tile]) -> Vec<(Tile, u8, usize, u32)> {
        let mut legal = Vec::new();
        for &tile in hand {
            let letters = chars(tile.letters());
            for rotation in 0..3 {
                for index in 0..36 {
                    let model = ModelTile { letters, rotation };
                    if let Some(points) = self.points(model, index) {
                        legal.push((tile, rotation, index, points));
                    }
                }
            }
        }
        legal
    }
}

/// The three letters as characters.
fn chars(letters: Letters) -> [char; 3] {
    letters.colours().map(Colour::letter)
}

/// Whether two tiles show the same colour on every side of both kinds of field.
fn same_picture(a: ModelTile, b: ModelTile) -> bool {
    [true, false]
        .iter()
        .all(|&up| model_sides(a.letters, a.rotation, up) == model_sides(b.letters, b.rotation, up))
}

/// How a client might write `tile` at `rotation`: its letters read from a random start
/// with a digit that keeps the picture (checked against the model by the caller).
fn client_spelling(tile: Tile, rotation: u8, rng: &mut Rng) -> Spelling {
    let shift = rng.below(3);
    Spelling {
        letters: tile.letters().turned(shift),
        rotation: Rotation::ALL[(usize::from(rotation) + shift) % 3],
    }
}

/// The model tile of a spelling.
fn model_of(spelling: Spelling) -> ModelTile {
    ModelTile {
        letters: chars(spelling.letters),
        rotation: spelling.rotation.digit(),
    }
}

/// Every tile is in exactly one place: on the board, in a hand, or in the bag.
fn check_accounting(game: &Game) {
    let mut seen = [0; 36];
    let on_board = game.board().placements().map(|p| p.tile.tile());
    let in_hands = (0..game.players()).flat_map(|p| game.hand(p).iter().copied());
    for tile in on_board.chain(in_hands).chain(game.bag().iter().copied()) {
        seen[tile.index()] += 1;
    }
    assert_eq!(seen, [1; 36], "tiles lost or doubled");
}

/// What a game left behind, to compare two runs.
#[derive(Debug, PartialEq, Eq)]
struct Transcript {
    history: Vec<Turn>,
    scores: Vec<u32>,
    end: Option<EndReason>,
}

/// Plays one random game, checking every step.
fn playout(players: usize, seed: u64) -> Transcript {
    let mut game = Game::new(players, seed).unwrap();
    let mut rng = Rng::derive(seed, players as u64);
    let mut model = Model {
        fields: [None; 36],
        values: model_values(),
    };
    let mut tally = vec![0u32; players];
    let mut idle = 0;
    check_accounting(&game);
    // At most 36 placements, with fewer than 3 x players idle turns around each.
    let bound = 37 * 3 * players + 36;
    for turn in 0.. {
        if game.is_over() {
            break;
        }
        assert!(turn < bound, "seed {seed}: no end after {turn} turns");
        let p = game.to_move();
        let hand = game.hand(p).to_vec();
        let bag_before = game.bag().to_vec();
        let legal = model.legal(&hand);
        assert_eq!(
            game.can_place(p),
            !legal.is_empty(),
            "seed {seed} turn {turn}"
        );
        if let Some(example) = game.legal_placement(p) {
            let tile = ModelTile {
                letters: chars(example.tile.tile().letters()),
                rotation: example.tile.rotation().digit(),
            };
            assert!(model.points(tile, example.location.index()).is_some());
        }
        // Someone else trying to move is refused.
        let other = (p + 1 + rng.below(players - 1)) % players;
        assert_eq!(game.skip(other), Err(MoveError::NotYourTurn { to_move: p }));
        // A random attempt with one of the hand's tiles: the engine agrees with the model.
        if !hand.is_empty() {
            let tile = hand[rng.below(hand.len())];
            let rotation = rng.below(3) as u8;
            let index = rng.below(36);
            let spelled = client_spelling(tile, rotation, &mut rng);
            let verdict = game
                .check(p, spelled, Location::new(index).unwrap())
                .map(|(_, points)| points)
                .ok();
            assert_eq!(
                verdict,
                model.points(model_of(spelled), index),
                "{spelled} at {index}"
            );
        }

        if rng.below(25) == 0 {
            assert_eq!(game.forced_skip(), Ok(p));
            idle += 1;
        } else if !legal.is_empty() {
            if rng.below(10) == 0 {
                let refused = if rng.coin() {
                    game.skip(p)
                } else {
                    game.swap(p, hand[0].letters()).map(|_| ())
                };
                assert!(
                    matches!(refused, Err(MoveError::MustPlace { .. })),
                    "{refused:?}"
                );
            }
            let (tile, rotation, index, points) = legal[rng.below(legal.len())];
            let spelled = client_spelling(tile, rotation, &mut rng);
            let chosen = ModelTile {
                letters: chars(tile.letters()),
                rotation,
            };
            assert!(same_picture(model_of(spelled), chosen), "{spelled}");
            let report = game
                .play(p, spelled, Location::new(index).unwrap())
                .unwrap();
            // Announced as dealt, with a digit that gives the same picture.
            let placed = ModelTile {
                letters: chars(report.tile.tile().letters()),
                rotation: report.tile.rotation().digit(),
            };
            assert_eq!(placed.letters, chosen.letters);
            assert!(same_picture(placed, chosen));
            assert_eq!((report.player, report.location.index()), (p, index));
            assert_eq!(report.points, points, "seed {seed}: {spelled} at {index}");
            assert_eq!(report.drawn, bag_before.last().copied());
            let mut expected_hand = hand.clone();
            let at = expected_hand.iter().position(|&t| t == tile).unwrap();
            expected_hand.remove(at);
            expected_hand.extend(report.drawn);
            assert_eq!(game.hand(p), expected_hand);
            model.fields[index] = Some(placed);
            tally[p] += points;
            idle = 0;
        } else if !bag_before.is_empty() && rng.coin() {
            let tile = hand[rng.below(hand.len())];
            let report = game.swap(p, tile.letters().turned(rng.below(3))).unwrap();
            assert_eq!((report.player, report.returned), (p, tile));
            assert_eq!(Some(&report.drawn), bag_before.last());
            assert!(game.bag().contains(&tile) && !game.hand(p).contains(&tile));
            assert_eq!(game.bag_len(), bag_before.len());
            idle += 1;
        } else {
            if bag_before.is_empty() && !hand.is_empty() {
                assert_eq!(game.swap(p, hand[0].letters()), Err(MoveError::BagEmpty));
            }
            assert_eq!(game.skip(p), Ok(()));
            idle += 1;
        }

        // After every action.
        check_accounting(&game);
        for index in 0..36 {
            let engine = game
                .board()
                .get(Location::new(index).unwrap())
                .map(|t| ModelTile {
                    letters: chars(t.tile().letters()),
                    rotation: t.rotation().digit(),
                });
            assert_eq!(engine, model.fields[index], "field {index}");
        }
        assert_eq!(game.scores(), tally);
        for q in 0..players {
            let size = game.hand(q).len();
            assert!(size <= 4 && (game.bag_len() == 0 || size == 4));
        }
        let stuck =
            game.bag_len() == 0 && (0..players).all(|q| model.legal(game.hand(q)).is_empty());
        assert_eq!(
            game.is_over(),
            stuck || idle >= 3 * players,
            "seed {seed} turn {turn}"
        );
    }
    let placed: u32 = game.placements().map(|r| r.points).sum();
    assert_eq!(game.scores().iter().sum::<u32>(), placed);
    Transcript {
        history: game.history().to_vec(),
        scores: game.scores().to_vec(),
        end: game.end(),
    }
}

#[test]
fn random_games_follow_the_rules() {
    let (mut stuck, mut idle, mut turns, mut placements) = (0, 0, 0, 0);
    for players in 2..=4 {
        for seed in 0..1000 {
            let transcript = playout(players, seed);
            turns += transcript.history.len();
            placements += transcript
                .history
                .iter()
                .filter(|t| matches!(t, Turn::Played(_)))
                .count();
            match transcript.end {
                Some(EndReason::NobodyCanPlace) => stuck += 1,
                Some(EndReason::ThreeIdleRounds) => idle += 1,
                None => panic!("{players} players, seed {seed}: not over"),
            }
        }
    }
    // Both endings happen, and the games are long enough to mean something.
    assert!(stuck > 0 && idle > 0, "ends: {stuck} stuck, {idle} idle");
    assert!(
        placements > 3000 * 20,
        "{placements} placements in {turns} turns"
    );
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for players in 2..=4 {
        for seed in [0, 1, 12345, u64::MAX] {
            assert_eq!(playout(players, seed), playout(players, seed));
            let a = Game::new(players, seed).unwrap();
            let b = Game::new(players, seed).unwrap();
            assert_eq!(a.deal(), b.deal());
            assert_eq!(a.bag(), b.bag());
        }
        assert_ne!(playout(players, 1), playout(players, 2));
    }
}
