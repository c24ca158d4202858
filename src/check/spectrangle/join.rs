//! Join and lobbies: JOIN, LOBBY, the name rules, EXIT from a lobby.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::super::wire::Heard;
use super::client::SpClient;
use super::table::gather;
use crate::frontend::spectrangle::protocol::{Command, ErrorCode, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "join",
    title: "Join and lobbies",
};

const LOBBY: &str = "LOBBY [playerName] ... The server confirms the client has succesfully entered the lobby, and lists the other players that are in the lobby. Note this command can be sent every time a client enters or leaves the lobby.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "JOIN is answered with LOBBY, which lists the player",
                LOBBY,
                join_answered,
            ),
            (
                Kind::Required,
                "The second player's LOBBY lists both players",
                LOBBY,
                second_player,
            ),
            (
                Kind::Required,
                "A name with a character outside [A-Za-z0-9_-] is refused: ERROR 3",
                "playerName: The display name of the player. Allowed characters: [A-Za-z0-9_-]",
                bad_name,
            ),
            (
                Kind::Required,
                "A name in use is refused: ERROR 4",
                "4: Player name already taken.",
                name_taken,
            ),
            (
                Kind::Required,
                "A command before JOIN is refused: ERROR 7",
                "7: Not in a lobby.",
                before_join,
            ),
            (
                Kind::Required,
                "JOIN from a player in a lobby is refused",
                "ERROR <errorCode> <errorMessage> This is sent to the client when the client has sent an invalid command to the server.",
                join_twice,
            ),
            (
                Kind::Choice,
                "The first player is told when the second joins",
                LOBBY,
                first_player_told,
            ),
            (
                Kind::Choice,
                "EXIT from a lobby: the others are told",
                LOBBY,
                exit_from_lobby,
            ),
            (
                Kind::Choice,
                "JOIN with a lobby name, multilobby not enabled",
                "Servers that do not support the multilobby extension should ignore the lobbyName argument.",
                lobby_name_ignored,
            ),
            (
                Kind::Choice,
                "A fifth player, when a lobby holds four",
                "2 to 4 players. Each holds 4 tiles, visible to all; the bag holds the rest.",
                fifth_player,
            ),
        ],
    )
}

fn join_answered(probe: &mut Probe) -> Step<Finding> {
    gather(probe, &["Ann"])?;
    Ok(Finding::Pass)
}

fn second_player(probe: &mut Probe) -> Step<Finding> {
    // `gather` checks each LOBBY against the players joined so far.
    gather(probe, &["Ann", "Bob"])?;
    Ok(Finding::Pass)
}

fn bad_name(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann!");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line(&format!("JOIN {name}"))?;
    client.refused(ErrorCode::InvalidName, "'!' is not allowed in a name")?;
    Ok(Finding::Pass)
}

fn name_taken(probe: &mut Probe) -> Step<Finding> {
    let clients = gather(probe, &["Ann"])?;
    let name = clients[0].name.clone();
    let mut second = SpClient::connect(probe, &name)?;
    second.send_line(&format!("JOIN {name}"))?;
    second.refused(
        ErrorCode::NameTaken,
        &format!("{name} is in the lobby already"),
    )?;
    Ok(Finding::Pass)
}

fn before_join(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send(&Command::Ready)?;
    client.refused(
        ErrorCode::NotInLobby,
        "READY from a client that has not joined",
    )?;
    Ok(Finding::Pass)
}

fn join_twice(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann"])?;
    let line = format!("JOIN {}", probe.name("Ann2"));
    clients[0].send_line(&line)?;
    clients[0].expect(
        "ERROR <code> <message>: a JOIN from a player in a lobby",
        |m| matches!(m, ServerMessage::Error { .. }).then_some(()),
    )?;
    Ok(Finding::Pass)
}

/// What `client` hears within `wait`, as an open finding says it.
pub fn heard(client: &mut SpClient, wait: std::time::Duration) -> String {
    heard_past(client, wait, |_| false)
}

/// [`heard`], skipping (a few) lines for which `skip` holds: LOBBY updates that are
/// not what the case asks about.
pub fn heard_past(
    client: &mut SpClient,
    wait: std::time::Duration,
    skip: impl Fn(&ServerMessage) -> bool,
) -> String {
    for _ in 0..8 {
        return match client.hear(wait) {
            Heard::Line(line) => match ServerMessage::parse(&line) {
                Ok(message) if skip(&message) => continue,
                Ok(ServerMessage::Error { code, .. }) => format!("ERROR {code}"),
                Ok(_) => format!("told {line}"),
                Err(_) => format!("told '{line}'"),
            },
            Heard::Silent(_) => "no answer".to_string(),
            other => other.describe(),
        };
    }
    "told only LOBBY updates".to_string()
}

fn first_player_told(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    let both = format!("LOBBY {} {}", clients[0].name, clients[1].name);
    let answer = probe.answer();
    let told = heard(&mut clients[0], answer);
    Ok(Finding::Open {
        server: if told == format!("told {both}") {
            "told: LOBBY with both".to_string()
        } else {
            told
        },
        goserver: "told: LOBBY with both".to_string(),
    })
}

fn exit_from_lobby(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    clients[1].send(&Command::Exit)?;
    let answer = probe.answer();
    let alone = format!("told LOBBY {}", clients[0].name);
    let bob = clients[1].name.clone();
    // Ann's LOBBY with Bob in it, if the server sends one, may come first.
    let told = heard_past(
        &mut clients[0],
        answer,
        |message| matches!(message, ServerMessage::Lobby { players } if players.contains(&bob)),
    );
    Ok(Finding::Open {
        server: if told == alone {
            "told: LOBBY without the leaver".to_string()
        } else {
            told
        },
        goserver: "told: LOBBY without the leaver".to_string(),
    })
}

fn lobby_name_ignored(probe: &mut Probe) -> Step<Finding> {
    let first = probe.name("Ann");
    let second = probe.name("Bob");
    let mut ann = SpClient::connect(probe, &first)?;
    ann.join(Some(&probe.name("room1")))?;
    let mut bob = SpClient::connect(probe, &second)?;
    let players = bob.join(Some(&probe.name("room2")))?;
    let server = if players.contains(&first) {
        "ignored: both in one lobby".to_string()
    } else {
        "used: each in a lobby of its own".to_string()
    };
    Ok(Finding::Open {
        server,
        goserver: "ignored: both in one lobby".to_string(),
    })
}

fn fifth_player(probe: &mut Probe) -> Step<Finding> {
    let four = gather(probe, &["Ann", "Bob", "Cat", "Dan"])?;
    let name = probe.name("Eve");
    let mut fifth = SpClient::connect(probe, &name)?;
    let players = fifth.join(None)?;
    ensure(four.len() == 4, "four players", four.len().to_string())?;
    let server = if players == [name.clone()] {
        "a lobby of its own".to_string()
    } else {
        format!("a lobby with {} players", players.len())
    };
    Ok(Finding::Open {
        server,
        goserver: "a lobby of its own".to_string(),
    })
}
