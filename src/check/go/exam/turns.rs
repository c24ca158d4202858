//! The exam's turns: who moves first, every MOVE on the board the server last sent,
//! the opponent's pass, a refused move, captures of the client's own stones.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::measure::spread;
use super::super::super::probe::Probe;
use super::host::{Host, Start, describe};
use crate::engine::go::Move;
use crate::frontend::go::protocol::ServerMessage;

/// The section.
pub const SECTION: Section = Section {
    slug: "turns",
    title: "Moves and turns",
};

const ACTIVE: &str = "After this the currently active player can send a move to the server which can acknowledge the move and broadcast a new status.";
const MOVE: &str =
    "MOVE+$GAME_ID+$PLAYER_NAME+$TILE_INDEX: Place a stone on a tile. `-1` for passing.";
const JUDGE: &str = "The server is responsible for maintaining a valid gamestate, so it handles things like removing captured stones, calculating the scores and making sure the game flow is maintained.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "As black it moves first",
                ACTIVE,
                black_first,
            ),
            (
                Kind::Required,
                "As white it waits for black's move",
                ACTIVE,
                white_waits,
            ),
            (
                Kind::Required,
                "Thirty moves on 9x9: each carries the game id and its name, each is legal on the board the server last sent",
                MOVE,
                thirty_moves,
            ),
            (
                Kind::Required,
                "After the opponent passes it still moves",
                MOVE,
                after_a_pass,
            ),
            (
                Kind::Required,
                "After INVALID_MOVE it moves again, within the answer time",
                "INVALID_MOVE: Sent when an invalid move is sent to the server.",
                after_invalid_move,
            ),
            (
                Kind::Required,
                "After UNKNOWN_COMMAND it goes on: it moves again",
                "UNKNOWN_COMMAND: Returned when a command is not recognized or invalid.",
                after_unknown_command,
            ),
            (
                Kind::Required,
                "Its stones captured, its next moves stay legal on the board the server sent",
                JUDGE,
                captured,
            ),
            (
                Kind::Required,
                "A whole game on 5x5: it plays until two passes end it",
                "This is continued until the game is finished after which the server broadcasts the finished game status and the winner.",
                whole_game,
            ),
            (
                Kind::Choice,
                "After two INVALID_MOVE for the same move, what it sends",
                "INVALID_MOVE: Sent when an invalid move is sent to the server.",
                refused_twice,
            ),
            (
                Kind::Measure,
                "How long it takes to move: p50 and p99 over 40 moves on 9x9",
                ACTIVE,
                move_times,
            ),
        ],
    )
}

fn black_first(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn white_waits(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::white(9))?;
    let quiet = probe.quiet();
    host.nothing_for(quiet, "black is to move, and black is the server's")?;
    let mv = host.opponent_choice();
    host.opponent(mv)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn thirty_moves(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    host.play(30)?;
    show(probe, &host, "after thirty moves of the client's");
    Ok(Finding::Pass)
}

fn after_a_pass(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::white(9))?;
    host.opponent(Move::Pass)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn after_invalid_move(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    let first = host.next_move()?;
    host.send(&ServerMessage::InvalidMove {
        reason: format!(
            "The exam refuses {} once, to see that the client moves again",
            describe(first, 9)
        ),
    })?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn after_unknown_command(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    host.next_move()?;
    host.send(&ServerMessage::UnknownCommand {
        reason: "The exam says this once, to see that the client goes on".into(),
    })?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn captured(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    let mut captures = 0;
    for _ in 0..20 {
        if host.game.is_over() {
            break;
        }
        if host.game.to_move() == host.colour {
            host.client_moves()?;
        } else {
            let mv = host.opponent_choice();
            let before = host.game.captures(host.colour.opponent());
            host.opponent(mv)?;
            if host.game.captures(host.colour.opponent()) > before {
                captures += 1;
            }
        }
    }
    probe.note(&format!(
        "the opponent captured the client's stones {captures} times"
    ));
    show(probe, &host, "at the end");
    Ok(Finding::Pass)
}

fn whole_game(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    // The opponent passes once the client has passed, or after 40 of its moves.
    let mut opponent_moves = 0;
    while !host.game.is_over() {
        if host.game.to_move() == host.colour {
            host.client_moves()?;
        } else {
            let client_passed = host.game.last_move().is_some_and(|m| m.mv == Move::Pass);
            let mv = if client_passed || opponent_moves >= 40 {
                Move::Pass
            } else {
                host.opponent_choice()
            };
            opponent_moves += 1;
            host.opponent(mv)?;
        }
        if host.game.moves().len() > 200 {
            return Err(Failure::new(
                "a pass within 100 of its moves, once the opponent passes",
                "it never passed",
            ));
        }
    }
    show(probe, &host, "when two passes ended it");
    Ok(Finding::Pass)
}

fn refused_twice(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    let first = host.next_move()?;
    let refuse = |host: &mut Host, mv: Move| {
        host.send(&ServerMessage::InvalidMove {
            reason: format!("The exam refuses {}", describe(mv, 9)),
        })
    };
    refuse(&mut host, first)?;
    let second = host.next_move()?;
    refuse(&mut host, second)?;
    let third = host.next_move()?;
    let server = if third == second || third == first {
        format!("the refused move again ({})", describe(third, 9))
    } else {
        "another move".to_string()
    };
    Ok(Finding::Open {
        server,
        goserver: "another move".to_string(),
    })
}

fn move_times(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(9))?;
    host.play(40)?;
    Ok(Finding::Measured {
        summary: format!(
            "{} moves: {}",
            host.move_times.len(),
            spread(&host.move_times)
        ),
    })
}

/// Shows the game's board in the case's report.
pub fn show(probe: &mut Probe, host: &Host, caption: &str) {
    let rows = host
        .game
        .board()
        .to_string()
        .lines()
        .map(str::to_string)
        .collect();
    probe.show(caption, rows);
}
