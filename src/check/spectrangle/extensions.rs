//! Chat and the extensions: EXTENSIONS, ENABLE_EXTENSION, chat, multilobby. The
//! extensions are optional: a server without one is told so ("open"), and its cases
//! are required of a server that offers it.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::client::SpClient;
use super::join::heard_past;
use crate::frontend::spectrangle::protocol::{Command, ErrorCode, Extension, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "extensions",
    title: "Chat and the extensions",
};

const EXTENSIONS: &str = "Extensions: `EXTENSIONS` (allowed before JOIN) → `AVAILABLE_EXTENSIONS <name> ...`; `ENABLE_EXTENSION <name> ...` (error 9 if unsupported).";
const CHAT: &str = "`chat`: `CHAT <base64>` → `CHAT_MESSAGE <playerName> <base64>`.";
const MULTILOBBY: &str = "`multilobby`: `JOIN name lobby` creates the lobby if missing (full lobby → ERROR); `LOBBIES` → `ACTIVE_LOBBIES <lobby>,<player>,[player] ...`; lobby names `[A-Za-z0-9_.-]`.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Choice,
                "EXTENSIONS: the extensions the server has",
                EXTENSIONS,
                available,
            ),
            (
                Kind::Required,
                "ENABLE_EXTENSION of an extension nobody has is refused: ERROR 9",
                "9: Unsupported extension",
                unknown_extension,
            ),
            (
                Kind::Required,
                "CHAT reaches every player of the lobby who enabled chat, the sender too",
                CHAT,
                chat,
            ),
            (
                Kind::Required,
                "JOIN with a lobby name, multilobby enabled, joins that lobby",
                MULTILOBBY,
                named_lobby,
            ),
            (
                Kind::Required,
                "LOBBIES lists the lobbies not yet playing, with their players",
                MULTILOBBY,
                lobbies,
            ),
            (
                Kind::Choice,
                "CHAT from a client that has not enabled chat",
                CHAT,
                chat_not_enabled,
            ),
        ],
    )
}

/// The extensions the server lists; `None` when it does not answer EXTENSIONS with a
/// list.
fn offered(probe: &mut Probe) -> Step<Option<Vec<String>>> {
    let name = probe.name("ext");
    let mut client = SpClient::connect(probe, &name)?;
    client.send(&Command::Extensions)?;
    Ok(
        match client.next("AVAILABLE_EXTENSIONS <name> ..., or an ERROR")? {
            ServerMessage::AvailableExtensions { names } => Some(names),
            _ => None,
        },
    )
}

/// Whether the server offers `extension`: when not, the open finding that says so.
fn needs(probe: &mut Probe, extension: Extension) -> Step<Result<(), Finding>> {
    let offered = offered(probe)?;
    if offered
        .as_ref()
        .is_some_and(|names| names.iter().any(|n| n == extension.name()))
    {
        Ok(Ok(()))
    } else {
        Ok(Err(Finding::Open {
            server: format!("no {} extension", extension.name()),
            goserver: format!("has the {} extension", extension.name()),
        }))
    }
}

fn available(probe: &mut Probe) -> Step<Finding> {
    let server = match offered(probe)? {
        Some(names) => format!("AVAILABLE_EXTENSIONS {}", names.join(" ")),
        None => "no extensions (EXTENSIONS is refused)".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "AVAILABLE_EXTENSIONS chat multilobby".to_string(),
    })
}

fn unknown_extension(probe: &mut Probe) -> Step<Finding> {
    if offered(probe)?.is_none() {
        return Ok(Finding::Open {
            server: "no extensions".to_string(),
            goserver: "AVAILABLE_EXTENSIONS chat multilobby".to_string(),
        });
    }
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line("ENABLE_EXTENSION teleport")?;
    client.refused(
        ErrorCode::UnsupportedExtension,
        "no server has an extension 'teleport'",
    )?;
    Ok(Finding::Pass)
}

/// A client that enabled `extensions` and joined `lobby` (the default one if none).
fn joined_with(
    probe: &mut Probe,
    base: &str,
    extensions: &[Extension],
    lobby: Option<&str>,
) -> Step<(SpClient, Vec<String>)> {
    let name = probe.name(base);
    let mut client = SpClient::connect(probe, &name)?;
    if !extensions.is_empty() {
        client.send(&Command::EnableExtensions(extensions.to_vec()))?;
    }
    let players = client.join(lobby)?;
    Ok((client, players))
}

fn chat(probe: &mut Probe) -> Step<Finding> {
    if let Err(open) = needs(probe, Extension::Chat)? {
        return Ok(open);
    }
    let (mut ann, _) = joined_with(probe, "Ann", &[Extension::Chat], None)?;
    let (mut bob, _) = joined_with(probe, "Bob", &[Extension::Chat], None)?;
    // "hello" in base64.
    ann.send(&Command::Chat {
        text: "aGVsbG8=".to_string(),
    })?;
    let expected = ServerMessage::ChatMessage {
        player: ann.name.clone(),
        text: "aGVsbG8=".to_string(),
    };
    for client in [&mut ann, &mut bob] {
        let got = client.next(&expected.to_string())?;
        ensure(
            got == expected,
            format!("{}: {expected}", client.who()),
            got.to_string(),
        )?;
    }
    Ok(Finding::Pass)
}

fn named_lobby(probe: &mut Probe) -> Step<Finding> {
    if let Err(open) = needs(probe, Extension::Multilobby)? {
        return Ok(open);
    }
    let lobby = probe.name("lab");
    let (ann, _) = joined_with(probe, "Ann", &[Extension::Multilobby], Some(&lobby))?;
    let (_bob, players) = joined_with(probe, "Bob", &[Extension::Multilobby], Some(&lobby))?;
    ensure(
        players.contains(&ann.name),
        format!("LOBBY listing {} and Bob: both joined {lobby}", ann.name),
        format!("LOBBY {}", players.join(" ")),
    )?;
    Ok(Finding::Pass)
}

fn lobbies(probe: &mut Probe) -> Step<Finding> {
    if let Err(open) = needs(probe, Extension::Multilobby)? {
        return Ok(open);
    }
    let lobby = probe.name("lab");
    let (ann, _) = joined_with(probe, "Ann", &[Extension::Multilobby], Some(&lobby))?;
    let (mut cat, _) = joined_with(
        probe,
        "Cat",
        &[Extension::Multilobby],
        Some(&probe.name("other")),
    )?;
    cat.send(&Command::Lobbies)?;
    let listed = cat.expect("ACTIVE_LOBBIES <lobby>,<player>... ...", |m| match m {
        ServerMessage::ActiveLobbies { lobbies } => Some(lobbies),
        _ => None,
    })?;
    ensure(
        listed
            .iter()
            .any(|(name, players)| *name == lobby && players == std::slice::from_ref(&ann.name)),
        format!("ACTIVE_LOBBIES with {lobby},{} among them", ann.name),
        ServerMessage::ActiveLobbies {
            lobbies: listed.clone(),
        }
        .to_string(),
    )?;
    Ok(Finding::Pass)
}

fn chat_not_enabled(probe: &mut Probe) -> Step<Finding> {
    if let Err(open) = needs(probe, Extension::Chat)? {
        return Ok(open);
    }
    let (mut ann, _) = joined_with(probe, "Ann", &[], None)?;
    ann.send(&Command::Chat {
        text: "aGVsbG8=".to_string(),
    })?;
    let answer = probe.answer();
    // A LOBBY update (another case's player leaving, say) is not the answer.
    let server = heard_past(&mut ann, answer, |m| {
        matches!(m, ServerMessage::Lobby { .. })
    });
    Ok(Finding::Open {
        server,
        goserver: "ERROR 9".to_string(),
    })
}
