//! The Spectrangle suite: cases in the sections of the protocol document
//! (`docs/spectrangle-protocol.md`) and of the game's rules
//! (`docs/spectrangle-rules.md`), from joining a lobby to robustness.
//!
//! - [`client`]: a Spectrangle client that speaks through the protocol module's types.
//! - [`table`]: a game between clients, refereed by the rules engine.
//! - one module per section: [`join`], [`start`], [`tiles`], [`moves`], [`turns`],
//!   [`ending`], [`errors`], [`extensions`], [`robustness`].

pub mod client;
pub mod ending;
pub mod errors;
pub mod exam;
pub mod extensions;
pub mod join;
pub mod moves;
pub mod robustness;
pub mod start;
pub mod table;
pub mod tiles;
pub mod turns;

use super::case::{Section, Step};
use super::probe::Probe;
use super::run::Suite;
use super::wire::Heard;
use crate::frontend::spectrangle::protocol::{Command, PlayerName, ServerMessage};
use client::SpClient;

/// The sections, in the order of the protocol document.
pub const SECTIONS: [Section; 9] = [
    join::SECTION,
    start::SECTION,
    tiles::SECTION,
    moves::SECTION,
    turns::SECTION,
    ending::SECTION,
    errors::SECTION,
    extensions::SECTION,
    robustness::SECTION,
];

/// The Spectrangle suite.
pub fn suite() -> Suite {
    Suite {
        protocol: "Spectrangle",
        name: "spectrangle",
        sections: SECTIONS.to_vec(),
        cases: [
            join::cases(),
            start::cases(),
            tiles::cases(),
            moves::cases(),
            turns::cases(),
            ending::cases(),
            errors::cases(),
            extensions::cases(),
            robustness::cases(),
        ]
        .concat(),
        alive,
    }
}

/// Whether a fresh client gets an answer to a JOIN. It then leaves the lobby with EXIT,
/// and sends READY, whose answer (ERROR 7 from goserver) says the EXIT was handled, so
/// that the next case does not find it in the lobby.
///
/// # Errors
///
/// No answer to the JOIN within the answer timeout.
pub fn alive(probe: &mut Probe) -> Step<()> {
    let name = probe.name("alive");
    let mut client = SpClient::connect(probe, &name)?;
    let player = PlayerName::parse(&name)
        .map_err(|e| super::case::Failure::new("a valid name from the checker", e.to_string()))?;
    client.send(&Command::Join {
        name: player,
        lobby: None,
    })?;
    let line = client.wire().line("an answer to JOIN")?;
    if let Ok(ServerMessage::Lobby { .. }) = ServerMessage::parse(&line) {
        client.send(&Command::Exit)?;
        client.send(&Command::Ready)?;
        let quiet = probe.quiet();
        // Read up to the answer to READY (LOBBY lines of others may come first).
        for _ in 0..4 {
            match client.hear(quiet) {
                Heard::Line(line) if line.starts_with("ERROR") => break,
                Heard::Line(_) => continue,
                _ => break,
            }
        }
    }
    client.wire().disconnect();
    Ok(())
}
