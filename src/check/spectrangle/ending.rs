//! The end: SCORE, the points of every placement with its bonus, leaving a game.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::join::heard;
use super::table::{Scores, Table};
use crate::frontend::spectrangle::protocol::{Command, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "ending",
    title: "The end",
};

const SCORE: &str = "SCORE <playerName>,<points> <playerName>,<points> ... This indicates that the game has finished.";
const POINTS: &str = "Score of a placement: tile value × matching edges (1–3) × field bonus; the first tile counts its value once (times 1).";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "A whole game of two ends with the same SCORE to both, each player once",
                SCORE,
                game_of_two,
            ),
            (
                Kind::Required,
                "The points: each placement's value × matching edges × the field's bonus",
                POINTS,
                points_of_two,
            ),
            (
                Kind::Required,
                "A whole game of three, and its points",
                POINTS,
                points_of_three,
            ),
            (
                Kind::Choice,
                "Tiles left in a hand at the end",
                "Open question: whether tiles left in hand are subtracted at the end (no source says).",
                tiles_left,
            ),
            (
                Kind::Choice,
                "A player leaves a game with EXIT",
                "EXIT The player indicates he leaves the lobby/game.",
                exit_in_game,
            ),
            (
                Kind::Choice,
                "A player disconnects in a game",
                "EXIT The player indicates he leaves the lobby/game.",
                disconnect_in_game,
            ),
            (
                Kind::Choice,
                "After SCORE, a player sends JOIN again",
                "JOIN <playerName> [lobbyName] The player indicates he wants to join a lobby.",
                join_after_score,
            ),
        ],
    )
}

/// A whole game of `names`, played to its end by each player's best move.
fn whole_game(probe: &mut Probe, names: &[&str]) -> Step<(Table, Scores)> {
    let mut table = Table::start(probe, names)?;
    let scores = table.play_to_end(|_| Ok(()))?;
    probe.show("the board at the end", table.rows());
    Ok((table, scores))
}

/// How the server's scores relate to the rules' sums: equal, or equal once the tiles
/// left in each hand are taken off (a choice the rules leave open).
fn compare(table: &Table, scores: &Scores) -> Step<&'static str> {
    let sums = table.expected_points();
    let less_hands: Vec<(String, u32)> = table
        .seats
        .iter()
        .zip(&table.points)
        .map(|(seat, points)| {
            let left: u32 = seat.hand.iter().map(|t| t.value()).sum();
            (seat.client.name.clone(), points.saturating_sub(left))
        })
        .collect();
    let by_name = |scores: &[(String, u32)]| {
        let mut sorted = scores.to_vec();
        sorted.sort();
        sorted
    };
    let sent = by_name(&scores.sent);
    if sent == by_name(&sums) {
        Ok("not subtracted")
    } else if sent == by_name(&less_hands) {
        Ok("subtracted from the points")
    } else {
        Err(Failure::new(
            format!(
                "{} (each placement's value × matching edges × bonus, summed)",
                ServerMessage::Score { scores: sums }
            ),
            ServerMessage::Score {
                scores: scores.sent.clone(),
            }
            .to_string(),
        ))
    }
}

fn game_of_two(probe: &mut Probe) -> Step<Finding> {
    // `Table::scores` checks that both hear the same SCORE, listing each player once.
    whole_game(probe, &["Ann", "Bob"])?;
    Ok(Finding::Pass)
}

fn points_of_two(probe: &mut Probe) -> Step<Finding> {
    let (table, scores) = whole_game(probe, &["Ann", "Bob"])?;
    compare(&table, &scores)?;
    Ok(Finding::Pass)
}

fn points_of_three(probe: &mut Probe) -> Step<Finding> {
    let (table, scores) = whole_game(probe, &["Ann", "Bob", "Cat"])?;
    compare(&table, &scores)?;
    Ok(Finding::Pass)
}

/// Whole games played for one that ends with a tile in a hand: the deal is the
/// server's, and now and then a game ends with every hand empty.
const GAMES_FOR_A_TILE_LEFT: usize = 4;

fn tiles_left(probe: &mut Probe) -> Step<Finding> {
    let pairs = [
        ["Ann", "Bob"],
        ["Cat", "Dan"],
        ["Eve", "Fay"],
        ["Gus", "Hal"],
    ];
    let mut game = whole_game(probe, &pairs[0])?;
    for names in pairs.iter().take(GAMES_FOR_A_TILE_LEFT).skip(1) {
        if game.0.seats.iter().any(|s| !s.hand.is_empty()) {
            break;
        }
        game = whole_game(probe, names)?;
    }
    let (table, scores) = game;
    let left: usize = table.seats.iter().map(|s| s.hand.len()).sum();
    let server = match compare(&table, &scores) {
        Ok(_) if left == 0 => "not seen: no tile was left in a hand".to_string(),
        Ok(how) => how.to_string(),
        Err(failure) => format!("neither ({})", failure.got),
    };
    Ok(Finding::Open {
        server,
        goserver: "not subtracted".to_string(),
    })
}

fn leave(probe: &mut Probe, by_exit: bool) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob", "Cat"])?;
    table.auto_move()?;
    let leaver = table.turn;
    if by_exit {
        table.seats[leaver].client.send(&Command::Exit)?;
    } else {
        table.seats[leaver].client.wire().disconnect();
    }
    let answer = probe.answer();
    let other = (leaver + 1) % table.seats.len();
    let told = heard(&mut table.seats[other].client, answer);
    let server = if told.starts_with("told SCORE") {
        "the game ends: SCORE to the others".to_string()
    } else if told.starts_with("told UPDATE") {
        "the game goes on without the leaver".to_string()
    } else {
        format!("the others: {told}")
    };
    Ok(Finding::Open {
        server,
        goserver: "the game ends: SCORE to the others".to_string(),
    })
}

fn exit_in_game(probe: &mut Probe) -> Step<Finding> {
    leave(probe, true)
}

fn disconnect_in_game(probe: &mut Probe) -> Step<Finding> {
    leave(probe, false)
}

fn join_after_score(probe: &mut Probe) -> Step<Finding> {
    let (mut table, _scores) = whole_game(probe, &["Ann", "Bob"])?;
    let client = &mut table.seats[0].client;
    client.send_line(&format!("JOIN {}", client.name))?;
    let answer = probe.answer();
    let told = heard(client, answer);
    let server = if told.starts_with("told LOBBY") {
        "LOBBY: in a lobby again".to_string()
    } else {
        told
    };
    Ok(Finding::Open {
        server,
        goserver: "LOBBY: in a lobby again".to_string(),
    })
}
