//! Randomized round trips: every position of many random legal games, with and
//! without a setup, under every rule variant, written and read back to the same
//! position (board, colour to move, setup and move list).

use std::time::UNIX_EPOCH;

use super::*;
use crate::engine::go::{
    Colour, Game, KoRule, Komi, Move, Point, Rules, Setup, SetupError, SuicideRule,
};

/// xorshift64*: a small deterministic generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as usize % n
    }

    fn point(&mut self, size: usize) -> Point {
        Point::new(self.below(size) as u8, self.below(size) as u8)
    }

    fn colour(&mut self) -> Colour {
        if self.below(2) == 0 {
            Colour::Black
        } else {
            Colour::White
        }
    }
}

/// Every (ko, suicide) combination, with a komi of 6.5.
fn all_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for ko in [KoRule::Positional, KoRule::Situational, KoRule::Simple] {
        for suicide in [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed] {
            all.push(Rules {
                ko,
                suicide,
                komi: Komi::from_halves(13),
            });
        }
    }
    all
}

/// A random setup the engine accepts: random stones (chains left without liberties
/// are taken off again) and a random colour to move.
fn random_setup(rng: &mut Rng, size: usize, rules: Rules) -> Game {
    let mut setup = Setup {
        black: Vec::new(),
        white: Vec::new(),
        to_move: rng.colour(),
    };
    let stones = rng.below(size * size / 2 + 1);
    for _ in 0..stones {
        let p = rng.point(size);
        if !setup.black.contains(&p) && !setup.white.contains(&p) {
            match rng.colour() {
                Colour::Black => setup.black.push(p),
                Colour::White => setup.white.push(p),
            }
        }
    }
    loop {
        match Game::from_setup(size, rules, &setup) {
            Ok(game) => return game,
            Err(SetupError::NoLiberties { stones, .. }) => {
                setup.black.retain(|p| !stones.contains(p));
                setup.white.retain(|p| !stones.contains(p));
            }
            Err(other) => panic!("random setup refused: {other}"),
        }
    }
}

/// A random legal move: now and then a pass, otherwise the first legal point of a
/// few random tries (a pass when none is found or the game has gone on long enough).
fn random_move(rng: &mut Rng, game: &Game) -> Move {
    let size = game.size();
    if rng.below(40) == 0 || game.moves().len() > 3 * size * size {
        return Move::Pass;
    }
    for _ in 0..4 * size * size {
        let mv = Move::Play(rng.point(size));
        if game.check(game.to_move(), mv).is_ok() {
            return mv;
        }
    }
    Move::Pass
}

/// Writes `game`, reads the text back and replays it: the same position.
fn assert_round_trip(game: &Game) {
    let info = RecordInfo {
        black: "Ann [1]",
        white: "B\\ob",
        result: if game.is_over() { "B+R" } else { "" },
        started: UNIX_EPOCH,
    };
    let text = write(game, &info);
    let limits = ReadLimits {
        max_bytes: 1 << 20,
        ..ReadLimits::default()
    };
    let record = read(&text, &limits).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(record.size, game.size(), "{text}");
    assert_eq!(record.setup.as_ref(), game.setup(), "{text}");
    assert_eq!(record.moves, game.moves(), "{text}");
    let back = record
        .replay(game.rules())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(
        back.board().to_protocol_string(),
        game.board().to_protocol_string(),
        "{text}"
    );
    assert_eq!(back.to_move(), game.to_move(), "{text}");
    assert_eq!(back.is_over(), game.is_over(), "{text}");
    for colour in [Colour::Black, Colour::White] {
        assert_eq!(back.captures(colour), game.captures(colour), "{text}");
    }
}

#[test]
fn every_position_of_random_games_reads_back() {
    let mut rng = Rng(0x5eed_0f5e_ed5f_0001);
    let rules = all_rules();
    let mut positions = 0;
    let mut setups = 0;
    for (size, games) in [(2, 240), (5, 48), (9, 12), (13, 6), (19, 2), (25, 2)] {
        for g in 0..games {
            let rules = rules[g % rules.len()];
            let with_setup = g % 2 == 1;
            let mut game = if with_setup {
                setups += 1;
                random_setup(&mut rng, size, rules)
            } else {
                Game::new(size, rules).expect("valid size")
            };
            assert_round_trip(&game);
            positions += 1;
            while !game.is_over() {
                let mv = random_move(&mut rng, &game);
                game.play(game.to_move(), mv)
                    .expect("a checked move is legal");
                assert_round_trip(&game);
                positions += 1;
            }
        }
    }
    println!("{positions} positions of random games read back, {setups} games from a setup");
    assert!(positions > 10_000, "{positions}");
}
