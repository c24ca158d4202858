//! Randomized games checked move by move against a naive reference implementation
//! (flood fill, board copies, a set of whole-board strings for superko) and against
//! the engine's own consistency check.

use std::collections::HashSet;

use goserver::engine::go::{
    Colour, Game, IllegalMove, KoRule, Komi, Move, Point, Rules, SuicideRule,
};

/// xorshift64*: a small deterministic generator, so every run plays the same games.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The rules written out naively: a grid of digits, copied on every move.
struct Reference {
    size: usize,
    rules: Rules,
    cells: Vec<u8>,
    to_move: Colour,
    ko: Option<(usize, Colour)>,
    seen: HashSet<(Vec<u8>, u8)>,
}

/// The reference's verdict, by variant only.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Legal,
    OffBoard,
    Occupied,
    Suicide,
    Ko,
    Superko,
}

impl Reference {
    fn new(size: usize, rules: Rules) -> Reference {
        let mut r = Reference {
            size,
            rules,
            cells: vec![0; size * size],
            to_move: Colour::Black,
            ko: None,
            seen: HashSet::new(),
        };
        r.seen.insert(r.key(&r.cells.clone(), Colour::Black));
        r
    }

    fn key(&self, cells: &[u8], to_move: Colour) -> (Vec<u8>, u8) {
        let side = if self.rules.ko == KoRule::Situational {
            to_move.number()
        } else {
            0
        };
        (cells.to_vec(), side)
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (r, c, n) = (i / self.size, i % self.size, self.size);
        let mut out = Vec::new();
        if r > 0 {
            out.push(i - n);
        }
        if r + 1 < n {
            out.push(i + n);
        }
        if c > 0 {
            out.push(i - 1);
        }
        if c + 1 < n {
            out.push(i + 1);
        }
        out
    }

    /// The chain through `i` and its number of liberties.
    fn chain(&self, cells: &[u8], i: usize) -> (Vec<usize>, usize) {
        let colour = cells[i];
        let mut chain = vec![i];
        let mut libs = HashSet::new();
        let mut k = 0;
        while k < chain.len() {
            for q in self.neighbours(chain[k]) {
                if cells[q] == 0 {
                    libs.insert(q);
                } else if cells[q] == colour && !chain.contains(&q) {
                    chain.push(q);
                }
            }
            k += 1;
        }
        (chain, libs.len())
    }

    /// The verdict and, if legal, the board after and the stones removed.
    fn try_play(
        &self,
        colour: Colour,
        p: Point,
    ) -> (Verdict, Vec<u8>, usize, Option<(usize, Colour)>) {
        let n = self.size;
        if usize::from(p.row()) >= n || usize::from(p.col()) >= n {
            return (Verdict::OffBoard, vec![], 0, None);
        }
        let i = p.index(n);
        if self.cells[i] != 0 {
            return (Verdict::Occupied, vec![], 0, None);
        }
        let mut cells = self.cells.clone();
        cells[i] = colour.number();
        let mut removed = Vec::new();
        for q in self.neighbours(i) {
            if cells[q] == colour.opponent().number() {
                let (chain, libs) = self.chain(&cells, q);
                if libs == 0 {
                    for s in chain {
                        cells[s] = 0;
                        removed.push(s);
                    }
                }
            }
        }
        let (own, libs) = self.chain(&cells, i);
        let mut ko = None;
        if libs == 0 {
            if own.len() == 1 || self.rules.suicide == SuicideRule::Forbidden {
                return (Verdict::Suicide, vec![], 0, None);
            }
            for s in &own {
                cells[*s] = 0;
            }
            removed.extend(own.iter().copied());
        } else if removed.len() == 1 && own.len() == 1 && libs == 1 {
            ko = Some((removed[0], colour.opponent()));
        }
        if self.ko == Some((i, colour)) {
            return (Verdict::Ko, vec![], 0, None);
        }
        if self.rules.ko != KoRule::Simple
            && self.seen.contains(&self.key(&cells, colour.opponent()))
        {
            return (Verdict::Superko, vec![], 0, None);
        }
        (Verdict::Legal, cells, removed.len(), ko)
    }
}

fn verdict_of(result: &Result<(), IllegalMove>) -> Verdict {
    match result {
        Ok(()) => Verdict::Legal,
        Err(IllegalMove::OffBoard { .. }) => Verdict::OffBoard,
        Err(IllegalMove::Occupied { .. }) => Verdict::Occupied,
        Err(IllegalMove::Suicide { .. }) => Verdict::Suicide,
        Err(IllegalMove::Ko { .. }) => Verdict::Ko,
        Err(IllegalMove::Superko { .. }) => Verdict::Superko,
        Err(other) => panic!("unexpected {other:?}"),
    }
}

fn protocol(cells: &[u8]) -> String {
    cells.iter().map(|&c| char::from(b'0' + c)).collect()
}

/// Plays one random game, comparing every move with the reference. Returns how many
/// moves of each verdict were seen.
fn random_game(rng: &mut Rng, size: usize, rules: Rules, tally: &mut [usize; 6]) {
    let mut game = Game::new(size, rules).expect("valid size");
    let mut reference = Reference::new(size, rules);
    let mut placed = 0;
    let limit = 3 * size * size + 10;
    let mut attempts = 0;
    while !game.is_over() {
        attempts += 1;
        let colour = game.to_move();
        let mv = if attempts > limit || rng.below(40) == 0 {
            Move::Pass
        } else if rng.below(50) == 0 {
            Move::Play(Point::new(rng.below(256) as u8, rng.below(256) as u8))
        } else {
            Move::Play(Point::new(rng.below(size) as u8, rng.below(size) as u8))
        };
        // A move by the wrong player is always refused and changes nothing.
        let wrong = game.play(colour.opponent(), mv);
        assert_eq!(
            wrong.map(|_| ()),
            Err(IllegalMove::NotYourTurn { to_move: colour })
        );
        let verdict = game.check(colour, mv);
        let before = game.board().to_protocol_string();
        let result = game.play(colour, mv);
        assert_eq!(
            verdict,
            result.as_ref().map(|_| ()).map_err(|e| *e),
            "check and play disagree"
        );
        match mv {
            Move::Pass => {
                assert!(result.is_ok());
                reference.ko = None;
            }
            Move::Play(p) => {
                let (want, cells, removed, ko) = reference.try_play(colour, p);
                let got = verdict_of(&verdict);
                assert_eq!(
                    got,
                    want,
                    "size {size} {rules:?} {colour} at {p:?}\n{}",
                    game.board()
                );
                match result {
                    Ok(report) => {
                        placed += 1;
                        assert_eq!(report.captured.len(), removed);
                        reference.cells = cells;
                        reference.ko = ko;
                    }
                    Err(_) => {
                        assert_eq!(
                            game.board().to_protocol_string(),
                            before,
                            "a refused move changed the board"
                        );
                        tally[got as usize] += 1;
                        continue;
                    }
                }
            }
        }
        tally[0] += 1;
        reference.to_move = colour.opponent();
        let key = reference.key(&reference.cells, reference.to_move);
        reference.seen.insert(key);
        assert_eq!(
            game.board().to_protocol_string(),
            protocol(&reference.cells)
        );
        game.debug_check()
            .unwrap_or_else(|e| panic!("{e}\n{}", game.board()));
        let on_board =
            game.board().stone_count(Colour::Black) + game.board().stone_count(Colour::White);
        let captured = game.captures(Colour::Black) + game.captures(Colour::White);
        assert_eq!(on_board + captured, placed, "stones do not add up");
    }
    assert!(game.check(Colour::Black, Move::Pass).is_err());
    let score = game.score();
    assert!(score.black_points + score.white_points <= (size * size) as u32);
}

#[test]
fn random_games_match_the_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut tally = [0usize; 6];
    let all_rules: Vec<Rules> = [KoRule::Positional, KoRule::Situational, KoRule::Simple]
        .into_iter()
        .flat_map(|ko| {
            [SuicideRule::Forbidden, SuicideRule::MultiStoneAllowed]
                .into_iter()
                .map(move |suicide| Rules {
                    ko,
                    suicide,
                    komi: Komi::from_halves(13),
                })
        })
        .collect();
    for (size, games) in [(2, 900), (3, 900), (5, 600), (9, 120), (19, 12)] {
        for g in 0..games {
            random_game(&mut rng, size, all_rules[g % all_rules.len()], &mut tally);
        }
    }
    println!("legal, off board, occupied, suicide, ko, superko: {tally:?}");
    // Every kind of verdict must actually have been exercised.
    assert!(tally.iter().all(|&n| n > 0), "{tally:?}");
}
