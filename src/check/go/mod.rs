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
pub mod exam;
pub mod exit;
pub mod handshake;
pub mod moves;
pub mod play;
pub mod robustness;
pub mod rules;

use super::case::{Failure, Section, Step};
use super::probe::Probe;
use super::run::Suite;
use super::wire::Heard;
use crate::frontend::go::protocol::{ClientCommand, ServerMessage};
use client::GoClient;
use std::time::Duration;

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

/// Whether a fresh client gets an answer to a HANDSHAKE. A case may leave a game
/// waiting for a partner on a server that does not notice its leader has gone; the
/// fresh client then joins that game, and a server that tells the leader, not the
/// partner, says nothing to it. So when the first fresh client hears nothing within the
/// quiet window, a second one, which leads a game of its own, asks too: the server is
/// alive if either is answered. Each then leaves the game it was given with EXIT and
/// waits (briefly) for the server to close it, so that the next case does not find it
/// waiting.
///
/// # Errors
///
/// Neither client is answered within the answer timeout.
pub fn alive(probe: &mut Probe) -> Step<()> {
    let quiet = probe.quiet();
    let name = probe.name("alive");
    let mut first = GoClient::connect(probe, &name)?;
    first.send(&ClientCommand::Handshake { name: name.clone() })?;
    let heard = first.hear(quiet);
    if let Heard::Line(line) = &heard {
        leave(&mut first, &name, line, quiet)?;
        first.close();
        return Ok(());
    }
    if heard == Heard::Closed {
        return Err(Failure::new(
            "an answer to HANDSHAKE",
            Heard::Closed.describe(),
        ));
    }
    probe.note("no answer yet: a second fresh client asks too (the first may have joined a game left waiting)");
    let second_name = probe.name("alive2");
    let mut second = GoClient::connect(probe, &second_name)?;
    second.send(&ClientCommand::Handshake {
        name: second_name.clone(),
    })?;
    // Either answer will do, however late within the answer timeout: the first may
    // only have been slow.
    let deadline = std::time::Instant::now() + probe.answer();
    let step = quiet.min(Duration::from_millis(50));
    let answered = loop {
        if let Heard::Line(line) = first.hear(step) {
            leave(&mut first, &name, &line, quiet)?;
            break Ok(());
        }
        if let Heard::Line(line) = second.hear(step) {
            leave(&mut second, &second_name, &line, quiet)?;
            break Ok(());
        }
        if std::time::Instant::now() >= deadline {
            break Err(Failure::new(
                "an answer to HANDSHAKE (from either fresh client)",
                format!("nothing within {} ms", probe.answer().as_millis()),
            ));
        }
    };
    second.close();
    first.close();
    answered
}

/// Leaves the game that `line`, the answer to `name`'s HANDSHAKE, gave (if it gave
/// one) with EXIT, and waits up to `quiet` for the server to close the connection.
fn leave(client: &mut GoClient, name: &str, line: &str, quiet: Duration) -> Step<()> {
    if let Ok(ServerMessage::AcknowledgeHandshake { game_id, .. }) = ServerMessage::parse(line) {
        client.send(&ClientCommand::Exit {
            game_id,
            player: name.to_string(),
        })?;
        client.wire().closed_within(quiet);
    }
    Ok(())
}
