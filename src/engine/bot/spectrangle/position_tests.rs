//! The bot's position against the engine: on random games with 2 to 4 players, the
//! same legal placements with the same points, the same "can place" for every player,
//! the same state after every placement, swap and skip, and the same end.

use super::*;
use crate::engine::bot::spectrangle::sparring::legal_placements;
use crate::engine::spectrangle::Placement;

/// The engine's placements of `player`, as sorted (tile, rotation, field, points).
fn engine_places(game: &Game, player: usize) -> Vec<(u8, u8, u8, u16)> {
    let mut places: Vec<_> = legal_placements(game, player)
        .into_iter()
        .map(|(p, points)| {
            (
                p.tile.tile().index() as u8,
                p.tile.rotation().digit(),
                p.location.index() as u8,
                points as u16,
            )
        })
        .collect();
    places.sort_unstable();
    places
}

/// The bot's placements of `player`, as sorted (tile, rotation, field, points).
fn bot_places(position: &Position, player: usize) -> Vec<(u8, u8, u8, u16)> {
    let mut places: Vec<_> = position
        .places(player)
        .into_iter()
        .map(|p| (p.tile, p.rotation, p.location, p.points))
        .collect();
    places.sort_unstable();
    places
}

/// `position` with its bag in set order, to compare with one built from a game.
fn sorted(mut position: Position) -> Position {
    position.bag.tiles_mut().sort_unstable();
    position
}

/// Random games per number of players: fewer in a debug build, where the engine's
/// own search for every placement is slow.
const GAMES: u64 = if cfg!(debug_assertions) { 20 } else { 150 };

#[test]
fn follows_the_engine_through_random_games() {
    let mut compared = 0;
    for players in 2..=4 {
        for seed in 0..GAMES {
            let mut game = Game::new(players, seed).unwrap();
            let mut rng = Rng::new(seed);
            let mut position = Position::new(&game);
            while !game.is_over() {
                assert_eq!(
                    sorted(position.clone()),
                    Position::new(&game),
                    "seed {seed}"
                );
                assert_eq!(position.bag().len(), game.bag_len());
                for p in 0..players {
                    assert_eq!(position.can_place(p), game.can_place(p), "seed {seed}");
                }
                let me = game.to_move();
                let legal = engine_places(&game, me);
                assert_eq!(bot_places(&position, me), legal, "seed {seed}");
                compared += legal.len();
                let legal = legal_placements(&game, me);
                if let Some(&(placement, points)) = legal.get(rng.below(legal.len())) {
                    let report = game
                        .play(me, placement.tile.into(), placement.location)
                        .unwrap();
                    // The bot draws what the engine drew.
                    if let Some(drawn) = report.drawn {
                        position.put_on_top(drawn.index() as u8);
                    }
                    position.play(Place {
                        tile: placement.tile.tile().index() as u8,
                        rotation: placement.tile.rotation().digit(),
                        location: placement.location.index() as u8,
                        points: points as u16,
                    });
                } else if game.bag_len() > 0 && rng.coin() {
                    let hand = game.hand(me);
                    let tile = hand[rng.below(hand.len())];
                    let report = game.swap(me, tile.letters()).unwrap();
                    position.put_on_top(report.drawn.index() as u8);
                    position.swap(tile.index() as u8, &mut rng);
                } else {
                    game.skip(me).unwrap();
                    position.skip();
                }
                assert_eq!(position.is_over(), game.is_over(), "seed {seed}");
            }
            assert_eq!(sorted(position), Position::new(&game), "seed {seed}");
        }
    }
    assert!(
        compared > 1000 * GAMES as usize,
        "{compared} placements compared"
    );
}

/// The most `next` could score after `player` places `place`, by playing it on a copy.
fn reply_by_playing(position: &Position, place: Place, next: usize) -> u32 {
    let mut after = position.clone();
    after.play(place);
    after.best_points(next)
}

#[test]
fn replies_are_what_the_next_player_could_score() {
    let mut compared = 0;
    for players in 2..=4 {
        for seed in 0..GAMES / 2 {
            let mut game = Game::new(players, seed).unwrap();
            let mut rng = Rng::new(seed);
            while !game.is_over() {
                let position = Position::new(&game);
                let me = game.to_move();
                let next = (me + 1) % players;
                let mut seen = 0;
                position.for_each_place_with_reply(me, next, |place, reply| {
                    assert_eq!(
                        reply,
                        reply_by_playing(&position, place, next),
                        "seed {seed} {place:?}"
                    );
                    seen += 1;
                });
                assert_eq!(seen, position.places(me).len());
                compared += seen;
                let legal = legal_placements(&game, me);
                match legal.get(rng.below(legal.len())) {
                    Some(&(Placement { tile, location }, _)) => {
                        game.play(me, tile.into(), location).unwrap();
                    }
                    None if game.bag_len() > 0 => {
                        game.swap(me, game.hand(me)[0].letters()).unwrap();
                    }
                    None => game.skip(me).unwrap(),
                }
            }
        }
    }
    assert!(
        compared > 400 * GAMES as usize,
        "{compared} replies compared"
    );
}

#[test]
fn the_set_lists_tiles_by_value_highest_first() {
    // `best_value` relies on it.
    let values: Vec<u32> = Tile::ALL.iter().map(|t| t.value()).collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    let tables = &*TABLES;
    assert_eq!(best_value(tables, 0), 0);
    assert_eq!(best_value(tables, tables.shapes[35] | tables.shapes[20]), 4);
    assert_eq!(best_value(tables, tables.shapes[35]), 1);
}
