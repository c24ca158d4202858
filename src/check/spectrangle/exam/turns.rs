//! The exam's turns: who moves when, every MOVE_PLAY one of its own tiles on a legal
//! field with matching edges, in games of two, three and four players, after the
//! others' swaps and skips, and after a refusal.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::measure::spread;
use super::super::super::probe::Probe;
use super::super::super::wire::Heard;
use super::host::{Deal, Host, Move, describe, field, read_move, set_tile};
use crate::engine::spectrangle::Placement;
use crate::frontend::spectrangle::protocol::ErrorCode;

/// The section.
pub const SECTION: Section = Section {
    slug: "turns",
    title: "Moves and turns",
};

const ORDER: &str = "START <playerName> ... The game has started with the players listed. Players take turns in the order listed.";
const PLAY: &str = "MOVE_PLAY <tile> <location> The player places a tile on the board.";
const FIT: &str = "Every later tile must share at least one edge with a placed tile, and every edge it shares must match in colour; white matches anything.";
const HANDS: &str = "Each holds 4 tiles, visible to all; the bag holds the rest.";
const UPDATE: &str = "UPDATE <playerName> [tile] [location] This indicates the player has finished his turn. [...] When the player skipped his turn, tile and location will not be present. When the player swapped a tile, only the playerName and tile arguments will be present.";
const ERROR: &str = "ERROR <errorCode> <errorMessage> This is sent to the client when the client has sent an invalid command to the server.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "First in START, it moves once the deal is out: its first tile on a field without a bonus",
                "The first tile may go on any field except a bonus field and scores its face value.",
                moves_first,
            ),
            (
                Kind::Required,
                "Second in START, it waits for the first player's UPDATE, then places a tile next to it",
                ORDER,
                moves_second,
            ),
            (
                Kind::Required,
                "Its MOVE_PLAY names a tile of its own hand (the other player holds the tiles worth more)",
                HANDS,
                own_tile,
            ),
            (
                Kind::Required,
                "Every edge it shares matches: the only fit is one tile, turned one way, on one field",
                FIT,
                only_fit,
            ),
            (
                Kind::Required,
                "Ten moves in a game of two, each legal on the board the server sent",
                PLAY,
                two_players,
            ),
            (
                Kind::Required,
                "A game of three, second in START: five moves, each on its turn only",
                ORDER,
                three_players,
            ),
            (
                Kind::Required,
                "A game of four, last in START: five legal moves",
                ORDER,
                four_players,
            ),
            (
                Kind::Required,
                "After another player's swap (UPDATE <name> <tile>, then TILE) it moves",
                UPDATE,
                after_a_swap,
            ),
            (
                Kind::Required,
                "After another player's skip (UPDATE <name>) it moves",
                UPDATE,
                after_a_skip,
            ),
            (
                Kind::Required,
                "After ERROR 6 (invalid move) for its move it moves again: a legal move",
                ERROR,
                after_error_6,
            ),
            (
                Kind::Choice,
                "After ERROR 6 for two moves in a row, what it sends",
                ERROR,
                refused_twice,
            ),
            (
                Kind::Choice,
                "After ERROR 5 (not your turn) for its move on its turn, what it sends",
                "5: Not your turn.",
                after_error_5,
            ),
            (
                Kind::Measure,
                "Among the placements that fit, which it picks",
                "Score of a placement: tile value × matching edges (1–3) × field bonus",
                which_placement,
            ),
            (
                Kind::Measure,
                "How long it takes to move: p50 and p99 over a whole game of three",
                PLAY,
                move_times,
            ),
        ],
    )
}

fn moves_first(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0))?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn moves_second(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 1).seed(2))?;
    let mv = host.opponent_choice();
    host.opponent(mv)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn own_tile(probe: &mut Probe) -> Step<Finding> {
    let deal = Deal::new(2, 0)
        .hand(0, &["GRP", "BYG", "RYB", "YPR"])
        .hand(1, &["RRR", "BBB", "GGG", "YYY"]);
    let mut host = Host::start(probe, &deal)?;
    host.play(3)?;
    host.show(probe, "after three moves of the client's");
    Ok(Finding::Pass)
}

fn only_fit(probe: &mut Probe) -> Step<Finding> {
    // GRB0 on field 6 shows G below (field 12), R to the right (7), B to the left (5);
    // of the client's tiles only PPG has one of those colours, and only turned once
    // (PPG1) does it put G on top: PPG1 on 12 is its one placement.
    let deal = Deal::new(2, 1)
        .hand(0, &["GRB"])
        .hand(1, &["YYP", "PPY", "YYY", "PPG"]);
    let mut host = Host::start(probe, &deal)?;
    let opening = Placement {
        tile: set_tile("GRB")?.dealt(),
        location: field(6)?,
    };
    host.opponent(Move::Play(opening))?;
    host.client_moves()?;
    host.show(probe, "after its one placement");
    Ok(Finding::Pass)
}

fn two_players(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(5))?;
    host.play(10)?;
    host.show(probe, "after ten moves of the client's");
    Ok(Finding::Pass)
}

fn three_players(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(3, 1).seed(6))?;
    // Before the first player's move (after the last player's), a client that counts
    // only two players would move: wait for it.
    host.watchful = true;
    host.play(5)?;
    host.show(probe, "after five moves of the client's");
    Ok(Finding::Pass)
}

fn four_players(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(4, 3).seed(7))?;
    host.play(5)?;
    host.show(probe, "after five moves of the client's");
    Ok(Finding::Pass)
}

/// A game of three where the first player opens with RRR0 in the top corner and the
/// second can place nothing (no red, no white): `second` is its move. Then the client
/// (third, holding RRY) must place.
fn after_the_second(probe: &mut Probe, swaps: bool) -> Step<Finding> {
    let deal = Deal::new(3, 2)
        .hand(0, &["RRR"])
        .hand(1, &["GGB", "YYG", "BBP", "PPG"])
        .hand(2, &["RRY"]);
    let mut host = Host::start(probe, &deal)?;
    let opening = Placement {
        tile: set_tile("RRR")?.dealt(),
        location: field(0)?,
    };
    host.opponent(Move::Play(opening))?;
    let second = if swaps {
        Move::Swap(set_tile("GGB")?)
    } else {
        Move::Skip
    };
    host.opponent(second)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn after_a_swap(probe: &mut Probe) -> Step<Finding> {
    after_the_second(probe, true)
}

fn after_a_skip(probe: &mut Probe) -> Step<Finding> {
    after_the_second(probe, false)
}

fn after_error_6(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(8))?;
    let (first, _) = host.next_move()?;
    host.refuse(
        ErrorCode::InvalidMove,
        &format!(
            "The exam refuses {} once, to see that the client moves again",
            describe(first)
        ),
    )?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

/// What the client sent after its moves `refused` were refused: classified.
fn answer_after(host: &mut Host, refused: &[Move], wait: std::time::Duration) -> String {
    match host.wire.hear(wait) {
        Heard::Line(line) => match read_move(&line, "a move") {
            Ok(mv) if refused.contains(&mv) => "a refused move again".to_string(),
            Ok(Move::Play(_)) => "another move".to_string(),
            Ok(mv) => format!("{} ({line})", describe(mv)),
            Err(_) => format!("sent {line}"),
        },
        Heard::Closed => "closed the connection".to_string(),
        _ => "nothing within the answer time".to_string(),
    }
}

fn refused_twice(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(9))?;
    let mut refused = Vec::new();
    for _ in 0..2 {
        let (mv, _) = host.next_move()?;
        refused.push(mv);
        host.refuse(
            ErrorCode::InvalidMove,
            &format!("The exam refuses {}", describe(mv)),
        )?;
    }
    let server = answer_after(&mut host, &refused, probe.answer());
    Ok(Finding::Open {
        server,
        goserver: "another move".to_string(),
    })
}

fn after_error_5(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(10))?;
    let (mv, _) = host.next_move()?;
    host.refuse(
        ErrorCode::NotYourTurn,
        "Not your turn (the exam says so on its turn, as a lagging server might)",
    )?;
    let server = answer_after(&mut host, &[mv], probe.answer());
    Ok(Finding::Open {
        server,
        goserver: "another move".to_string(),
    })
}

fn which_placement(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(13))?;
    host.play(2)?;
    // The next turn of the client's in which a tile of its fits.
    for _ in 0..40 {
        if host.is_over() {
            break;
        }
        if host.turn != host.seat {
            let mv = host.opponent_choice();
            host.opponent(mv)?;
            continue;
        }
        let Some(best) = host.best_points() else {
            host.client_moves()?;
            continue;
        };
        let mv = host.client_moves()?;
        let got = host.last_points;
        // Measured, not compared: goserver play's SpectraBot weighs what a placement
        // leaves the next player too, so the most points now is no rule to hold it to.
        let summary = match mv {
            Move::Play(placement) if got == best => {
                format!("the placement worth the most points ({placement}: {got} points)")
            }
            Move::Play(placement) => {
                format!(
                    "a placement worth less than its best ({placement}: {got} of {best} points)"
                )
            }
            other => describe(other),
        };
        return Ok(Finding::Measured { summary });
    }
    Err(Failure::new(
        "a turn of the client's in which a tile of its fits",
        "none came (the checker's deal: please report it)",
    ))
}

fn move_times(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(3, 0).seed(14))?;
    host.play_to_end()?;
    Ok(Finding::Measured {
        summary: format!(
            "{} moves: {}",
            host.move_times.len(),
            spread(&host.move_times)
        ),
    })
}
