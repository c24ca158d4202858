//! The GO! suite: cases in the sections of the protocol document
//! (`docs/go-protocol.md`), from the handshake to robustness.
//!
//! - [`client`]: a GO! client that speaks through the protocol module's own types.
//! - [`play`]: a game between two clients, refereed by the rules engine.
//! - one module per section: [`handshake`], [`config`], [`moves`], [`rules`],
//!   [`ending`], [`exit`], [`robustness`].

pub mod client;
pub mod config;
pub mod ending;
pub mod exit;
pub mod handshake;
pub mod moves;
pub mod play;
pub mod robustness;
pub mod rules;

use super::case::{Section, Step};
use super::probe::Probe;
use super::run::Suite;
use crate::frontend::go::protocol::{ClientCommand, ServerMessage};
use client::GoClient;

/// The sections, in the order of the protocol document.
pub const SECTIONS: [Section; 7] = [
    handshake::SECTION,
    config::SECTION,
    moves::SECTION,
    rules::SECTION,
    ending::SECTION,
    exit::SECTION,
    robustness::SECTION,
];

/// The GO! suite.
pub fn suite() -> Suite {
    Suite {
        protocol: "GO!",
        name: "go",
        sections: SECTIONS.to_vec(),
        cases: [
            handshake::cases(),
            config::cases(),
            moves::cases(),
            rules::cases(),
            ending::cases(),
            exit::cases(),
            robustness::cases(),
        ]
        .concat(),
        alive,
    }
}

/// Whether a fresh client gets an answer to a HANDSHAKE. It then leaves the game it
/// was given with EXIT and waits (briefly) for the server to close it, so that the next
/// case does not find it waiting.
///
/// # Errors
///
/// No answer within the answer timeout.
pub fn alive(probe: &mut Probe) -> Step<()> {
    let name = probe.name("alive");
    let mut client = GoClient::connect(probe, &name)?;
    client.send(&ClientCommand::Handshake { name: name.clone() })?;
    let line = client.wire().line("an answer to HANDSHAKE")?;
    if let Ok(ServerMessage::AcknowledgeHandshake { game_id, .. }) = ServerMessage::parse(&line) {
        client.send(&ClientCommand::Exit {
            game_id,
            player: name,
        })?;
        let quiet = probe.quiet();
        client.wire().closed_within(quiet);
    }
    client.close();
    Ok(())
}
