//! The exam's lobby: the client's JOIN, its READY once a LOBBY lists it, LOBBY
//! updates before the game starts, and a refused name.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::Probe;
use super::super::super::wire::Heard;
use super::host::{Deal, Host, joined};
use crate::frontend::spectrangle::protocol::{ErrorCode, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "join",
    title: "Joining a lobby",
};

const JOIN: &str = "JOIN <playerName> [lobbyName] The player indicates he wants to join a lobby. playerName: The display name of the player. Allowed characters: [A-Za-z0-9_-]";
const READY: &str = "READY The player indicates he is ready to start the game.";
const LOBBY: &str = "LOBBY [playerName] ... The server confirms the client has succesfully entered the lobby, and lists the other players that are in the lobby. Note this command can be sent every time a client enters or leaves the lobby.";
const START: &str = "START <playerName> ... The game has started with the players listed. Players take turns in the order listed. Note a game should only be started when all players in the lobby have sent the READY command.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "The first line is a JOIN with a name of letters, digits, _ and -",
                JOIN,
                first_line,
            ),
            (
                Kind::Required,
                "Once a LOBBY lists it (after a player who was there first) it sends READY",
                READY,
                ready_after_lobby,
            ),
            (
                Kind::Required,
                "After READY it sends nothing until START (the others are not ready yet)",
                START,
                waits_for_start,
            ),
            (
                Kind::Required,
                "LOBBY updates before START (players come and go) are taken: it plays the game START lists, in START's order",
                LOBBY,
                lobby_changes,
            ),
            (
                Kind::Choice,
                "After ERROR 4 (name taken) for its JOIN, what it does",
                "4: Player name already taken.",
                name_taken,
            ),
        ],
    )
}

fn first_line(probe: &mut Probe) -> Step<Finding> {
    joined(probe)?;
    Ok(Finding::Pass)
}

fn ready_after_lobby(probe: &mut Probe) -> Step<Finding> {
    let (wire, name) = joined(probe)?;
    let mut host = Host::seated(wire, name, &Deal::new(2, 0), probe.quiet())?;
    let lobby = [host.opponents(), vec![host.name.clone()]].concat();
    host.lobby(&lobby)?;
    host.ready()?;
    Ok(Finding::Pass)
}

fn waits_for_start(probe: &mut Probe) -> Step<Finding> {
    let (wire, name) = joined(probe)?;
    let mut host = Host::seated(wire, name, &Deal::new(2, 0), probe.quiet())?;
    let lobby = [host.opponents(), vec![host.name.clone()]].concat();
    host.lobby(&lobby)?;
    host.ready()?;
    let quiet = probe.quiet();
    host.nothing_for(
        quiet,
        "the game has not started: the other player is not ready",
    )?;
    host.start_game()?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn lobby_changes(probe: &mut Probe) -> Step<Finding> {
    let (wire, name) = joined(probe)?;
    let mut host = Host::seated(wire, name, &Deal::new(3, 0).seed(4), probe.quiet())?;
    let me = host.name.clone();
    let others = host.opponents();
    // Someone who leaves before the game: neither the client nor a player of it.
    let leaver = ["Zed", "Zoe"]
        .into_iter()
        .find(|n| *n != me)
        .unwrap_or("Zed")
        .to_string();
    host.lobby(&[leaver.clone(), me.clone()])?;
    host.ready()?;
    host.lobby(&[leaver.clone(), me.clone(), others[0].clone()])?;
    host.lobby(&[me.clone(), others[0].clone()])?;
    host.lobby(&[me.clone(), others[0].clone(), others[1].clone()])?;
    host.send(&ServerMessage::Start {
        players: host.players.clone(),
    })?;
    host.deal_out()?;
    host.after_deal()?;
    // A READY again for each LOBBY is harmless (sent before START reached it).
    let expected = format!("its move as {me}, first in START");
    let mut readies = 0;
    let (mv, line) = loop {
        let line = match host.wire.hear(probe.answer()) {
            Heard::Line(line) => line,
            other => return Err(Failure::new(expected.clone(), other.describe())),
        };
        if line.trim() == "READY" && readies < 3 {
            readies += 1;
            continue;
        }
        break (super::host::read_move(&line, &expected)?, line);
    };
    host.judge(mv, &line)?;
    host.make(mv)?;
    host.play(3)?;
    host.show(
        probe,
        "after four moves of the client's, with three players",
    );
    Ok(Finding::Pass)
}

fn name_taken(probe: &mut Probe) -> Step<Finding> {
    let (mut wire, name) = joined(probe)?;
    wire.send(
        &ServerMessage::error(
            ErrorCode::NameTaken,
            format!("The exam says {name} is taken"),
        )
        .to_string(),
    )?;
    let server = match wire.hear(probe.answer()) {
        Heard::Line(line) => {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[..] {
                ["JOIN", again, ..] if again == name => "the same JOIN again".to_string(),
                ["JOIN", ..] => "a JOIN with another name".to_string(),
                ["EXIT"] => "EXIT".to_string(),
                _ => format!("sent {line}"),
            }
        }
        Heard::Closed => match probe.client_exit_within(std::time::Duration::from_secs(5)) {
            Some(status) => format!("closed the connection and exited ({status})"),
            None => "closed the connection".to_string(),
        },
        _ => "nothing (it waits)".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "nothing (it waits)".to_string(),
    })
}
