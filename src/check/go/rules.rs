//! The rules of play, judged by the project's own engine: captures, suicide, ko, and
//! random games whose every board must be the engine's.
//!
//! Positions are written as (row, column) from the top-left corner and use only the top
//! and left edges, so they mean the same on any board the server confirms (5x5 is
//! asked for).

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::client::Refusal;
use super::play::{Match, random_move};
use crate::engine::go::{Colour, IllegalMove, Point};
use crate::engine::rng::Rng;
use crate::frontend::go::protocol::ColourChoice;

/// The section.
pub const SECTION: Section = Section {
    slug: "rules",
    title: "Rules of play",
};

/// What the document says of the rules.
const GAMESTATE: &str = "The server is responsible for maintaining a valid gamestate, so it handles things like removing captured stones, calculating the scores and making sure the game flow is maintained.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "A stone without liberties is captured",
                GAMESTATE,
                single_capture,
            ),
            (
                Kind::Required,
                "A group of three stones is captured",
                GAMESTATE,
                group_capture,
            ),
            (
                Kind::Required,
                "Stones in the corner and on the edge are captured",
                GAMESTATE,
                corner_and_edge,
            ),
            (
                Kind::Required,
                "One move captures two groups",
                GAMESTATE,
                two_groups_at_once,
            ),
            (
                Kind::Required,
                "A move without liberties that captures is legal (not suicide)",
                GAMESTATE,
                capture_is_not_suicide,
            ),
            (
                Kind::Required,
                "A point emptied by a capture can be played again",
                GAMESTATE,
                replay_a_captured_point,
            ),
            (
                Kind::Required,
                "Suicide of a single stone is refused",
                GAMESTATE,
                single_stone_suicide,
            ),
            (
                Kind::Required,
                "Ko: the immediate recapture is refused",
                GAMESTATE,
                ko_recapture_refused,
            ),
            (
                Kind::Required,
                "Ko: after a move elsewhere the recapture is allowed",
                GAMESTATE,
                ko_after_a_threat,
            ),
            (
                Kind::Required,
                "A random game of 60 moves on 9x9: every board as the rules say",
                GAMESTATE,
                random_9x9,
            ),
            (
                Kind::Required,
                "A random game of 120 moves on 5x5, full of captures",
                GAMESTATE,
                random_5x5,
            ),
            (
                Kind::Required,
                "A random game of 150 moves on 19x19",
                GAMESTATE,
                random_19x19,
            ),
            (
                Kind::Choice,
                "Suicide of a group of stones",
                GAMESTATE,
                multi_stone_suicide,
            ),
            (
                Kind::Choice,
                "Superko: a move that repeats an earlier whole-board position",
                GAMESTATE,
                superko,
            ),
        ],
    )
}

/// A point by (row, column), or a pass.
#[derive(Clone, Copy, Debug)]
enum At {
    Stone(u8, u8),
    Pass,
}

use At::{Pass, Stone};

/// The protocol index of `at` on `game`'s board.
fn index(game: &Match, at: At) -> i64 {
    match at {
        Stone(row, col) => i64::try_from(Point::new(row, col).index(game.size)).unwrap_or(-2),
        Pass => -1,
    }
}

/// A 5x5 game (any larger board the server gives works the same) with `moves` played,
/// black first.
fn position(probe: &mut Probe, moves: &[At]) -> Step<Match> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    if game.size < 5 {
        return Err(Failure::new(
            "a board of 5x5 or more for the rules cases (5x5 was asked for)",
            format!("{0}x{0}", game.size),
        ));
    }
    for &at in moves {
        let index = index(&game, at);
        game.play(index)?;
    }
    Ok(game)
}

/// Shows the board and passes.
fn agreed(probe: &mut Probe, game: &Match, caption: &str) -> Step<Finding> {
    probe.show(caption, game.rows());
    Ok(Finding::Pass)
}

fn single_capture(probe: &mut Probe) -> Step<Finding> {
    let game = position(
        probe,
        &[
            Stone(1, 2),
            Stone(2, 2),
            Stone(2, 1),
            Stone(4, 4),
            Stone(2, 3),
            Stone(0, 4),
            Stone(3, 2),
        ],
    )?;
    agreed(
        probe,
        &game,
        "black's move at (3, 2) took the white stone at (2, 2)",
    )
}

fn group_capture(probe: &mut Probe) -> Step<Finding> {
    let game = position(
        probe,
        &[
            Stone(1, 1),
            Stone(2, 1),
            Stone(1, 2),
            Stone(2, 2),
            Stone(1, 3),
            Stone(2, 3),
            Stone(2, 0),
            Stone(0, 0),
            Stone(2, 4),
            Stone(4, 4),
            Stone(3, 1),
            Stone(4, 0),
            Stone(3, 2),
            Stone(0, 4),
            Stone(3, 3),
        ],
    )?;
    agreed(
        probe,
        &game,
        "black's move at (3, 3) took three white stones",
    )
}

fn corner_and_edge(probe: &mut Probe) -> Step<Finding> {
    let game = position(
        probe,
        &[
            Stone(0, 1),
            Stone(0, 0),
            Stone(1, 0),
            Stone(0, 2),
            Stone(0, 3),
            Stone(4, 4),
            Stone(1, 2),
        ],
    )?;
    agreed(
        probe,
        &game,
        "black took the corner stone, then the edge stone",
    )
}

fn two_groups_at_once(probe: &mut Probe) -> Step<Finding> {
    let game = position(
        probe,
        &[
            Stone(0, 2),
            Stone(0, 1),
            Stone(1, 1),
            Stone(1, 0),
            Stone(2, 0),
            Stone(4, 4),
            Stone(0, 0),
        ],
    )?;
    agreed(
        probe,
        &game,
        "black's move in the corner took two white stones apart",
    )
}

fn capture_is_not_suicide(probe: &mut Probe) -> Step<Finding> {
    let game = position(
        probe,
        &[
            Stone(0, 2),
            Stone(0, 1),
            Stone(1, 1),
            Stone(1, 0),
            Stone(0, 0),
        ],
    )?;
    agreed(
        probe,
        &game,
        "black's corner stone had no liberty until it took (0, 1)",
    )
}

fn replay_a_captured_point(probe: &mut Probe) -> Step<Finding> {
    let mut game = position(
        probe,
        &[
            Stone(1, 2),
            Stone(2, 2),
            Stone(2, 1),
            Stone(4, 4),
            Stone(2, 3),
            Stone(0, 4),
            Stone(3, 2),
        ],
    )?;
    let elsewhere = index(&game, Stone(4, 0));
    let captured = index(&game, Stone(2, 2));
    game.play_all(&[elsewhere, captured])?;
    agreed(
        probe,
        &game,
        "black played again where the white stone was taken",
    )
}

fn single_stone_suicide(probe: &mut Probe) -> Step<Finding> {
    let mut game = position(probe, &[Stone(0, 1), Stone(2, 2), Stone(1, 0)])?;
    let corner = index(&game, Stone(0, 0));
    expect_refused(&mut game, corner, |i| {
        matches!(i, IllegalMove::Suicide { .. })
    })?;
    let elsewhere = index(&game, Stone(3, 3));
    game.play(elsewhere)?;
    agreed(
        probe,
        &game,
        "white's stone in the corner would have had no liberty",
    )
}

/// The classic ko: black has just taken at (1, 1) with its stone at (1, 2).
const KO: [At; 9] = [
    Stone(0, 1),
    Stone(1, 1),
    Stone(1, 0),
    Stone(0, 2),
    Stone(2, 1),
    Stone(1, 3),
    Stone(3, 0),
    Stone(2, 2),
    Stone(1, 2),
];

fn ko_recapture_refused(probe: &mut Probe) -> Step<Finding> {
    let mut game = position(probe, &KO)?;
    let retake = index(&game, Stone(1, 1));
    expect_refused(&mut game, retake, |i| matches!(i, IllegalMove::Ko { .. }))?;
    agreed(probe, &game, "white may not retake at (1, 1) at once")
}

fn ko_after_a_threat(probe: &mut Probe) -> Step<Finding> {
    let mut game = position(probe, &KO)?;
    let threat = index(&game, Stone(3, 3));
    let answer = index(&game, Stone(3, 1));
    let retake = index(&game, Stone(1, 1));
    game.play_all(&[threat, answer, retake])?;
    agreed(probe, &game, "white retook the ko after a move elsewhere")
}

/// Sends the player to move's move at `index`, which the engine forbids for the reason
/// `why` matches, and expects it refused.
fn expect_refused(
    game: &mut Match,
    index: i64,
    why: impl Fn(&IllegalMove) -> bool,
) -> Step<Refusal> {
    let (refusal, illegal) = game.refused(index)?;
    if !why(&illegal) {
        return Err(Failure::new(
            "a position the checker built for this rule (this is the checker's fault: please report it)",
            format!("its engine refuses the move for another reason: {illegal}"),
        ));
    }
    Ok(refusal)
}

fn random_9x9(probe: &mut Probe) -> Step<Finding> {
    random_game(probe, 9, 60, 9)
}

fn random_5x5(probe: &mut Probe) -> Step<Finding> {
    random_game(probe, 5, 120, 5)
}

fn random_19x19(probe: &mut Probe) -> Step<Finding> {
    random_game(probe, 19, 150, 19)
}

/// Plays `moves` random moves (see `random_move`) on a `size` board (seeded: the same game every run):
/// each legal under every ko rule, never filling a player's own one-point eye, so
/// that stones keep being captured. Every board both players receive must be the
/// engine's.
fn random_game(probe: &mut Probe, size: usize, moves: usize, seed: u64) -> Step<Finding> {
    let mut game = Match::start(probe, size, ColourChoice::Black)?;
    let mut rng = Rng::new(seed);
    let mut captures = 0;
    for _ in 0..moves {
        let Some(index) = random_move(&game, &mut rng) else {
            break;
        };
        let stones_before = stones(&game);
        game.play(index)?;
        captures += (stones_before + 1).saturating_sub(stones(&game));
    }
    probe.show(
        format!(
            "after {} moves, {captures} stones captured",
            game.engine.moves().len()
        ),
        game.rows(),
    );
    Ok(Finding::Pass)
}

/// Stones on the engine's board.
fn stones(game: &Match) -> usize {
    game.engine.board().stone_count(Colour::Black) + game.engine.board().stone_count(Colour::White)
}

fn multi_stone_suicide(probe: &mut Probe) -> Step<Finding> {
    // White's two stones in the corner have one liberty left, at (1, 0): white plays
    // there itself.
    let mut game = position(
        probe,
        &[
            Stone(0, 2),
            Stone(0, 1),
            Stone(1, 1),
            Stone(0, 0),
            Stone(2, 0),
        ],
    )?;
    let last = index(&game, Stone(1, 0));
    let command = game.move_command(Colour::White, last);
    game.white.send(&command)?;
    let server = match game
        .white
        .next("an answer to white's suicide of three stones")?
    {
        crate::frontend::go::protocol::ServerMessage::AcknowledgeMove { state, .. } => {
            let empty = state.board.chars().nth(usize::try_from(last).unwrap_or(0)) == Some('0');
            if empty {
                "allowed: the three white stones are removed".to_string()
            } else {
                format!("allowed, the stones left on the board: {state}")
            }
        }
        crate::frontend::go::protocol::ServerMessage::InvalidMove { .. } => {
            "refused with INVALID_MOVE".to_string()
        }
        crate::frontend::go::protocol::ServerMessage::UnknownCommand { .. } => {
            "refused with UNKNOWN_COMMAND".to_string()
        }
        other => format!("answered {other}"),
    };
    // goserver allows it with --allow-suicide.
    Ok(Finding::Open {
        server,
        goserver: "refused with INVALID_MOVE".to_string(),
    })
}

/// A game in the top-left corner after which black's move at (1, 1) would repeat the
/// position after its own move at (1, 1) four moves before: no immediate ko recapture,
/// a repetition that only superko forbids. Found by a search over random games with the
/// engine (the case's own check with it says so again each run).
const SUPERKO: [At; 10] = [
    Stone(0, 0),
    Stone(2, 0),
    Stone(0, 2),
    Stone(2, 1),
    Stone(1, 1),
    Stone(1, 2),
    Stone(1, 0),
    Stone(0, 1),
    Stone(0, 0),
    Pass,
];

fn superko(probe: &mut Probe) -> Step<Finding> {
    let mut game = position(probe, &SUPERKO)?;
    let repeat = index(&game, Stone(1, 1));
    let illegal = game
        .engine
        .check(
            Colour::Black,
            crate::engine::go::Move::Play(Point::new(1, 1)),
        )
        .err();
    if !matches!(illegal, Some(IllegalMove::Superko { .. })) {
        return Err(Failure::new(
            "a position the checker built for superko (this is the checker's fault: please report it)",
            format!("its engine says {illegal:?}"),
        ));
    }
    let command = game.move_command(Colour::Black, repeat);
    game.black.send(&command)?;
    let server = match game
        .black
        .next("an answer to black's move that repeats a position")?
    {
        crate::frontend::go::protocol::ServerMessage::AcknowledgeMove { .. } => {
            "allowed (a rule of simple ko only)".to_string()
        }
        crate::frontend::go::protocol::ServerMessage::InvalidMove { .. } => {
            "refused with INVALID_MOVE (superko)".to_string()
        }
        crate::frontend::go::protocol::ServerMessage::UnknownCommand { .. } => {
            "refused with UNKNOWN_COMMAND".to_string()
        }
        other => format!("answered {other}"),
    };
    probe.show(
        "black's move at (1, 1) would repeat an earlier position",
        game.rows(),
    );
    Ok(Finding::Open {
        server,
        goserver: "refused with INVALID_MOVE (superko)".to_string(),
    })
}
