//! The exam's endings: whole games to SCORE, no move after it, a new JOIN and the game
//! after it, the server closing.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::{CLIENT_EXIT_WAIT, Probe};
use super::super::super::wire::Heard;
use super::host::{Deal, Host, Move, read_move};
use std::time::Duration;

/// The section.
pub const SECTION: Section = Section {
    slug: "end",
    title: "The end of a game",
};

const SCORE: &str = "SCORE <playerName>,<points> <playerName>,<points> ... This indicates that the game has finished.";
const END: &str = "The game ends when the bag is empty and nobody can place a tile.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "A whole game of two, to SCORE: every move legal, MOVE_SWAP only while the bag has tiles, MOVE_SKIP only when nothing fits",
                END,
                whole_game_of_two,
            ),
            (
                Kind::Required,
                "A whole game of four, to SCORE",
                END,
                whole_game_of_four,
            ),
            (
                Kind::Required,
                "After SCORE (the game ended by another player leaving) it sends no move",
                SCORE,
                no_move_after_score,
            ),
            (
                Kind::Choice,
                "After SCORE, what it does",
                SCORE,
                after_score,
            ),
            (
                Kind::Required,
                "A JOIN after SCORE leads to a new game: it plays it from START, on an empty board with its new hand",
                "JOIN <playerName> [lobbyName] The player indicates he wants to join a lobby.",
                next_game,
            ),
            (
                Kind::Choice,
                "When the server closes the connection in a game, what it does",
                "EXIT The player indicates he leaves the lobby/game.",
                server_closes,
            ),
        ],
    )
}

/// A whole game dealt as `deal`, to SCORE; notes how the client's turns went.
fn whole_game(probe: &mut Probe, deal: &Deal) -> Step<Finding> {
    let mut host = Host::start(probe, deal)?;
    host.play_to_end()?;
    let count = |f: fn(&(Move, usize)) -> bool| host.made.iter().filter(|m| f(m)).count();
    probe.note(&format!(
        "the client placed {} tiles, swapped {}, skipped {} ({} with the bag empty); scores {}",
        count(|(m, _)| matches!(m, Move::Play(_))),
        count(|(m, _)| matches!(m, Move::Swap(_))),
        count(|(m, _)| *m == Move::Skip),
        count(|(m, bag)| *m == Move::Skip && *bag == 0),
        host.players
            .iter()
            .zip(&host.points)
            .map(|(n, p)| format!("{n} {p}"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    host.show(probe, "at the end");
    Ok(Finding::Pass)
}

fn whole_game_of_two(probe: &mut Probe) -> Step<Finding> {
    // With this deal goserver play skips once with the bag empty.
    whole_game(probe, &Deal::new(2, 1).seed(21))
}

fn whole_game_of_four(probe: &mut Probe) -> Step<Finding> {
    // With this deal goserver play skips once with the bag empty.
    whole_game(probe, &Deal::new(4, 2).seed(19))
}

/// A game of two in which the client has made three moves, ended by SCORE at the
/// other player's turn (it left).
fn ended(probe: &mut Probe) -> Step<Host> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(33))?;
    // `play` returns right after the client's move: the other player's turn.
    host.play(3)?;
    host.score()?;
    Ok(host)
}

/// What came after SCORE: `Ok` with what it was when no move, `Err` with a move's line.
fn after(host: &mut Host, wait: Duration) -> Result<Heard, String> {
    let heard = host.wire.hear(wait);
    match &heard {
        Heard::Line(line) if read_move(line, "").is_ok() => Err(line.clone()),
        Heard::Line(line) if line.starts_with("MOVE") => Err(line.clone()),
        _ => Ok(heard),
    }
}

fn no_move_after_score(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe)?;
    match after(&mut host, probe.answer()) {
        Err(line) => Err(Failure::new(
            "no move after SCORE: nothing, a new JOIN, EXIT or a close",
            line,
        )),
        Ok(_) => Ok(Finding::Pass),
    }
}

fn after_score(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe)?;
    let server = match after(&mut host, probe.answer()) {
        Err(line) => format!("a move ({line})"),
        Ok(Heard::Line(line)) => match line.split_whitespace().next() {
            Some("JOIN") => "a new JOIN".to_string(),
            Some("EXIT") => "EXIT".to_string(),
            _ => format!("sent {line}"),
        },
        Ok(Heard::Closed) => match probe.client_exit_within(CLIENT_EXIT_WAIT) {
            Some(status) => format!("closed the connection and exited ({status})"),
            None => "closed the connection".to_string(),
        },
        Ok(_) => "nothing".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "a new JOIN".to_string(),
    })
}

fn next_game(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe)?;
    let line = match after(&mut host, probe.answer()) {
        Err(line) => {
            return Err(Failure::new(
                "no move after SCORE: nothing, a new JOIN, EXIT or a close",
                line,
            ));
        }
        Ok(Heard::Line(line)) if line.split_whitespace().next() == Some("JOIN") => line,
        Ok(other) => {
            return Ok(Finding::Open {
                server: format!("no new JOIN ({})", other.describe()),
                goserver: "joins again, and plays the new game".to_string(),
            });
        }
    };
    let name = line
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    host.name = name;
    // The new game: the client second this time, new tiles, an empty board.
    host.redeal(&Deal::new(2, 1).seed(34))?;
    let lobby = [host.opponents(), vec![host.name.clone()]].concat();
    host.lobby(&lobby)?;
    host.ready()?;
    host.start_game()?;
    host.play(3)?;
    host.show(probe, "after three moves of the client's in the new game");
    Ok(Finding::Pass)
}

fn server_closes(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(35))?;
    host.client_moves()?;
    host.wire.disconnect();
    let server = match probe.client_exit_within(CLIENT_EXIT_WAIT) {
        Some(status) => format!("exits ({status})"),
        None => format!("still runs {} s later", CLIENT_EXIT_WAIT.as_secs()),
    };
    Ok(Finding::Open {
        server,
        goserver: "exits (status 1)".to_string(),
    })
}
