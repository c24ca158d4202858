//! Ready and start: READY, START and the deal.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::table::{Table, gather};
use crate::engine::spectrangle::{Location, Spelling, Tile};
use crate::frontend::spectrangle::protocol::{Command, ErrorCode, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "start",
    title: "Ready and start",
};

const START: &str = "START <playerName> ... The game has started with the players listed. Players take turns in the order listed. Note a game should only be started when all players in the lobby have sent the READY command.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "When both players are ready, each hears START with both, and four tiles",
                START,
                two_start,
            ),
            (
                Kind::Required,
                "One of two players ready: no START",
                START,
                one_ready,
            ),
            (
                Kind::Required,
                "Three players: START with the three, four tiles each",
                START,
                three_start,
            ),
            (
                Kind::Required,
                "Four players: START with the four, four tiles each",
                START,
                four_start,
            ),
            (
                Kind::Required,
                "A move in a lobby, before START, is refused: ERROR 8",
                "8: Not in a game.",
                move_in_lobby,
            ),
            (
                Kind::Choice,
                "READY a second time",
                "READY The player indicates he is ready to start the game.",
                ready_twice,
            ),
            (
                Kind::Choice,
                "A player who is not ready leaves a lobby of ready players",
                START,
                unready_leaves,
            ),
        ],
    )
}

fn two_start(probe: &mut Probe) -> Step<Finding> {
    Table::start(probe, &["Ann", "Bob"])?;
    Ok(Finding::Pass)
}

/// Ann's READY has been handled once her sync line is answered: a START would have
/// come before that ERROR.
fn one_ready(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    clients[0].send(&Command::Ready)?;
    let before = clients[0].sync()?;
    match before.first() {
        None => Ok(Finding::Pass),
        Some(first) => Err(Failure::new(
            format!(
                "{}: nothing in answer to READY (Bob has not said READY)",
                clients[0].who()
            ),
            first.to_string(),
        )),
    }
}

fn three_start(probe: &mut Probe) -> Step<Finding> {
    Table::start(probe, &["Ann", "Bob", "Cat"])?;
    Ok(Finding::Pass)
}

fn four_start(probe: &mut Probe) -> Step<Finding> {
    Table::start(probe, &["Ann", "Bob", "Cat", "Dan"])?;
    Ok(Finding::Pass)
}

fn move_in_lobby(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    let tile = Tile::ALL[0].dealt();
    let location = Location::new(4u8).unwrap_or_else(|| Location::all().next().expect("36 fields"));
    clients[0].send(&Command::Play {
        spelling: Spelling::from(tile),
        location,
    })?;
    clients[0].refused(ErrorCode::NotInGame, "the lobby has not started a game")?;
    Ok(Finding::Pass)
}

/// What came before the answer to the sync line answered the two READY (LOBBY
/// updates skipped).
fn ready_twice(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    clients[0].send(&Command::Ready)?;
    clients[0].send(&Command::Ready)?;
    let before = clients[0].sync()?;
    let server = match before.as_slice() {
        [] => "no answer".to_string(),
        [ServerMessage::Error { code, .. }, ..] => format!("ERROR {code}"),
        [first, ..] => format!("told {first}"),
    };
    Ok(Finding::Open {
        server,
        goserver: "no answer".to_string(),
    })
}

/// Ann's and Bob's READY are handled (their sync lines answered) before Cat leaves,
/// so the case is about a lobby of ready players losing its unready one.
fn unready_leaves(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob", "Cat"])?;
    for client in &mut clients[..2] {
        client.send(&Command::Ready)?;
        let before = client.sync()?;
        if let Some(first) = before.first() {
            return Err(Failure::new(
                format!(
                    "{}: nothing in answer to READY (Cat is not ready)",
                    client.who()
                ),
                first.to_string(),
            ));
        }
    }
    clients[2].send(&Command::Exit)?;
    let answer = probe.answer();
    // Skip the LOBBY updates; what matters is whether START comes.
    let mut server = "no START".to_string();
    for _ in 0..4 {
        match clients[0].hear(answer) {
            super::super::wire::Heard::Line(line) if line.starts_with("LOBBY") => continue,
            super::super::wire::Heard::Line(line) if line.starts_with("START") => {
                server = "the two ready players start".to_string();
                break;
            }
            other => {
                if !matches!(other, super::super::wire::Heard::Silent(_)) {
                    server = other.describe();
                }
                break;
            }
        }
    }
    Ok(Finding::Open {
        server,
        goserver: "the two ready players start".to_string(),
    })
}
