//! Tests of `Game`: the deal, turn order, every refusal, play, swap, skip, forced skip
//! and both ways a game ends, on fresh and on arranged games.

use super::*;
use crate::engine::spectrangle::testing::{letters, loc, oriented, spelling, tile};
use crate::engine::spectrangle::{EndReason, IllegalPlacement, Rotation};

/// Tiles from their letters as dealt.
fn tiles(texts: &[&str]) -> Vec<Tile> {
    texts.iter().map(|t| tile(t)).collect()
}

/// A board with `tiles` put on it as given, without any check.
fn board(placed: &[(&str, u8)]) -> Board {
    let mut board = Board::new();
    for &(text, at) in placed {
        board.put(oriented(text), loc(at));
    }
    board
}

/// Everything a refused move must leave untouched.
#[derive(Debug, PartialEq)]
struct Snapshot {
    board: Board,
    hands: Vec<Vec<Tile>>,
    bag: Vec<Tile>,
    to_move: usize,
    scores: Vec<u32>,
    turns: usize,
}

/// The state of `game` that moves change.
fn snapshot(game: &Game) -> Snapshot {
    Snapshot {
        board: game.board().clone(),
        hands: (0..game.players()).map(|p| game.hand(p).to_vec()).collect(),
        bag: game.bag().to_vec(),
        to_move: game.to_move(),
        scores: game.scores().to_vec(),
        turns: game.history().len(),
    }
}

#[test]
fn player_counts() {
    for players in [0, 1, 5, usize::MAX] {
        assert_eq!(
            Game::new(players, 1).err(),
            Some(PlayerCountError { players })
        );
    }
    for players in 2..=4 {
        assert_eq!(Game::new(players, 1).unwrap().players(), players);
    }
}

#[test]
fn the_deal() {
    for players in 2..=4 {
        let game = Game::new(players, 7).unwrap();
        // The bag as shuffled by the seed; tiles are drawn from its end.
        let mut shuffled = Tile::ALL.to_vec();
        Rng::new(7).shuffle(&mut shuffled);
        let drawn: Vec<Tile> = shuffled.iter().rev().take(4 * players).copied().collect();
        assert_eq!(
            game.deal().iter().map(|d| d.tile).collect::<Vec<_>>(),
            drawn
        );
        let owners: Vec<usize> = game.deal().iter().map(|d| d.player).collect();
        let expected: Vec<usize> = (0..players).flat_map(|p| [p; 4]).collect();
        assert_eq!(owners, expected);
        for p in 0..players {
            assert_eq!(game.hand(p), &drawn[4 * p..4 * p + 4]);
        }
        assert_eq!(game.bag_len(), 36 - 4 * players);
        assert_eq!(game.bag(), &shuffled[..36 - 4 * players]);
        assert_eq!(game.to_move(), 0);
        assert_eq!(game.scores(), vec![0; players]);
        assert!(!game.is_over() && game.history().is_empty());
        assert_eq!(game.hand(players), &[] as &[Tile]);
    }
    let deal = |seed| Game::new(3, seed).unwrap().deal().to_vec();
    assert_eq!(deal(42), deal(42));
    assert_ne!(deal(42), deal(43));
}

#[test]
fn refusals_of_a_play() {
    let mut game = Game::new(2, 3).unwrap();
    let hand = game.hand(0).to_vec();
    let held = hand[0];
    let not_held = *Tile::ALL.iter().find(|t| !hand.contains(t)).unwrap();
    let before = snapshot(&game);
    let at = |t: Tile| Spelling {
        letters: t.letters(),
        rotation: Rotation::ZERO,
    };
    let cases = [
        (1, at(held), 12, MoveError::NotYourTurn { to_move: 0 }),
        (7, at(held), 12, MoveError::NotYourTurn { to_move: 0 }),
        (
            0,
            spelling("GBR0"),
            12,
            MoveError::NoSuchTile {
                letters: letters("GBR"),
                hand: hand.clone(),
            },
        ),
        (
            0,
            at(not_held),
            12,
            MoveError::NotHeld {
                tile: not_held,
                hand: hand.clone(),
            },
        ),
        (
            0,
            at(held),
            11,
            MoveError::Illegal(IllegalPlacement::FirstOnBonus { location: loc(11) }),
        ),
    ];
    for (player, spelled, location, expected) in cases {
        assert_eq!(
            game.check(player, spelled, loc(location)).err(),
            Some(expected.clone())
        );
        assert_eq!(game.play(player, spelled, loc(location)), Err(expected));
        assert_eq!(snapshot(&game), before);
    }
}

#[test]
fn a_play_places_scores_and_draws() {
    // RRY0 at 12 shows R on top; the client writes RGG0, which is GGR1 (R G G:
    // bottom R) on the up field 6 above it.
    let mut game = Game::arranged(
        board(&[("RRY0", 12)]),
        vec![tiles(&["BBB", "GGR", "WWW", "PPP"]), tiles(&["YYY"])],
        tiles(&["RRR", "GRB"]),
    );
    assert_eq!(
        game.check(0, spelling("RGG0"), loc(6)),
        Ok((
            Placement {
                tile: oriented("GGR1"),
                location: loc(6)
            },
            5
        ))
    );
    let report = game.play(0, spelling("RGG0"), loc(6)).unwrap();
    assert_eq!(
        report,
        PlayReport {
            player: 0,
            tile: oriented("GGR1"),
            location: loc(6),
            points: 5,
            drawn: Some(tile("GRB")),
        }
    );
    assert_eq!(report.tile.to_string(), "GGR1");
    assert_eq!(game.hand(0), tiles(&["BBB", "WWW", "PPP", "GRB"]));
    assert_eq!(game.bag(), tiles(&["RRR"]));
    assert_eq!(game.board().get(loc(6)), Some(oriented("GGR1")));
    assert_eq!(game.scores(), [5, 0]);
    assert_eq!(game.to_move(), 1);
    assert_eq!(game.history(), [Turn::Played(report)]);
    assert_eq!(game.placements().count(), 1);
    assert_eq!(game.idle_turns(), 0);
    // Now it is player 1's turn.
    assert_eq!(
        game.play(0, spelling("WWW0"), loc(7)),
        Err(MoveError::NotYourTurn { to_move: 1 })
    );
}

#[test]
fn swapping() {
    // BBB0 on the top corner: field 2 wants blue on top. Player 0 holds no blue.
    let stuck = || {
        Game::arranged(
            board(&[("BBB0", 0)]),
            vec![tiles(&["RRR", "GGY"]), tiles(&["BBR"])],
            tiles(&["PPP", "YYY"]),
        )
    };
    let mut game = stuck();
    assert!(!game.can_place(0));
    assert_eq!(game.legal_placement(0), None);
    let report = game.swap(0, letters("YGG")).unwrap();
    assert_eq!(
        report,
        SwapReport {
            player: 0,
            returned: tile("GGY"),
            drawn: tile("YYY"),
        }
    );
    assert_eq!(game.hand(0), tiles(&["RRR", "YYY"]));
    let mut bag = game.bag().to_vec();
    bag.sort();
    assert_eq!(bag, {
        let mut expected = tiles(&["PPP", "GGY"]);
        expected.sort();
        expected
    });
    assert_eq!(game.to_move(), 1);
    assert_eq!(game.idle_turns(), 1);
    assert_eq!(game.history(), [Turn::Swapped(report)]);

    // Refusals, in order: the tile first, then whether the player could place.
    let mut game = stuck();
    let before = snapshot(&game);
    let hand = tiles(&["RRR", "GGY"]);
    let cases = [
        (1, "RRR", MoveError::NotYourTurn { to_move: 0 }),
        (
            0,
            "GBR",
            MoveError::NoSuchTile {
                letters: letters("GBR"),
                hand: hand.clone(),
            },
        ),
        (
            0,
            "BBR",
            MoveError::NotHeld {
                tile: tile("BBR"),
                hand,
            },
        ),
    ];
    for (player, text, expected) in cases {
        assert_eq!(game.swap(player, letters(text)), Err(expected));
        assert_eq!(snapshot(&game), before);
    }
    let mut game = Game::arranged(
        board(&[("BBB0", 0)]),
        vec![tiles(&["RRR", "BBR"]), tiles(&["GGG"])],
        tiles(&["PPP"]),
    );
    let must = MoveError::MustPlace {
        example: Placement {
            tile: oriented("BBR0"),
            location: loc(2),
        },
    };
    assert_eq!(game.swap(0, letters("RRR")), Err(must.clone()));
    assert_eq!(game.skip(0), Err(must));

    // An empty bag: no swap, but a skip.
    let mut game = Game::arranged(
        board(&[("BBB0", 0)]),
        vec![tiles(&["RRR"]), tiles(&["BBR"])],
        Vec::new(),
    );
    assert_eq!(game.swap(0, letters("RRR")), Err(MoveError::BagEmpty));
    assert_eq!(game.skip(0), Ok(()));
    assert_eq!(
        game.history(),
        [Turn::Skipped {
            player: 0,
            forced: false
        }]
    );
    // Player 1 can still place: the game goes on.
    assert!(!game.is_over());
}

#[test]
fn a_forced_skip_ignores_what_the_player_could_do() {
    let mut game = Game::new(3, 5).unwrap();
    assert!(game.can_place(0));
    assert_eq!(game.forced_skip(), Ok(0));
    assert_eq!(game.forced_skip(), Ok(1));
    assert_eq!(game.to_move(), 2);
    assert_eq!(game.idle_turns(), 2);
    assert_eq!(
        game.history()[1],
        Turn::Skipped {
            player: 1,
            forced: true
        }
    );
    assert_eq!(game.history()[1].player(), 1);
}

#[test]
fn the_game_ends_when_the_bag_is_empty_and_nobody_can_place() {
    // BBR0 on field 2 (x3) under BBB0: 5 x 1 x 3. Then field 1 wants B on its right and
    // field 3 R on its left; player 1's GGG fits neither, player 0's hand is empty.
    let mut game = Game::arranged(
        board(&[("BBB0", 0)]),
        vec![tiles(&["BBR"]), tiles(&["GGG"])],
        Vec::new(),
    );
    let report = game.play(0, spelling("BBR0"), loc(2)).unwrap();
    assert_eq!((report.points, report.drawn), (15, None));
    assert_eq!(game.hand(0), &[] as &[Tile]);
    assert!(game.is_over());
    assert_eq!(game.end(), Some(EndReason::NobodyCanPlace));
    assert_eq!(game.scores(), [15, 0]);
    assert_eq!(game.skip(1), Err(MoveError::GameOver));
    assert_eq!(game.forced_skip(), Err(MoveError::GameOver));
    assert_eq!(
        game.play(1, spelling("GGG0"), loc(3)),
        Err(MoveError::GameOver)
    );
    assert_eq!(game.swap(1, letters("GGG")), Err(MoveError::GameOver));
}

#[test]
fn three_idle_rounds_end_the_game() {
    let fresh = || {
        Game::arranged(
            board(&[("BBB0", 0)]),
            vec![tiles(&["BBR"]), tiles(&["GGG"])],
            tiles(&["PPP", "YYY"]),
        )
    };
    // 3 x 2 turns in a row without a placement, whoever could have placed.
    let mut game = fresh();
    for turn in 0..6 {
        assert!(!game.is_over(), "over after {turn} turns");
        if turn % 2 == 1 {
            game.skip(1).unwrap();
        } else {
            game.forced_skip().unwrap();
        }
    }
    assert_eq!(game.end(), Some(EndReason::ThreeIdleRounds));
    assert_eq!(
        game.end().unwrap().to_string(),
        "three rounds in a row passed without a placement"
    );

    // A placement starts the count again.
    let mut game = fresh();
    for _ in 0..3 {
        game.forced_skip().unwrap();
    }
    game.skip(1).unwrap();
    assert_eq!(game.idle_turns(), 4);
    game.play(0, spelling("BBR0"), loc(2)).unwrap();
    assert_eq!(game.idle_turns(), 0);
    assert!(!game.is_over());
}

#[test]
fn an_observed_game_bags_every_tile_on_no_field_and_in_no_hand() {
    let placed = board(&[("RRR0", 10), ("GGG0", 2)]);
    let hands = vec![tiles(&["BBB", "PPP"]), tiles(&["YYY", "WWW"])];
    let game = Game::observed(placed.clone(), hands.clone(), 1, vec![12, 4], 0, 7).unwrap();
    assert_eq!(game.board(), &placed);
    assert_eq!(game.hand(0), hands[0].as_slice());
    assert_eq!(game.hand(1), hands[1].as_slice());
    assert_eq!((game.to_move(), game.scores()), (1, &[12, 4][..]));
    assert_eq!(game.bag_len(), Tile::ALL.len() - 2 - 4);
    for gone in tiles(&["RRR", "GGG", "BBB", "PPP", "YYY", "WWW"]) {
        assert!(!game.bag().contains(&gone), "{gone:?} is in the bag");
    }
    assert_eq!(
        Game::observed(placed, vec![hands[0].clone()], 0, vec![0], 0, 7).err(),
        Some(PlayerCountError { players: 1 })
    );
}
