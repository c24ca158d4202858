//! The exam of a GO! *client* (`goserver check go --client-cmd 'CMD {port}'`): the
//! other half of Autobahn|Testsuite, its fuzzingserver. For each case the checker
//! listens on a free port, starts the client, plays the server's side of a scripted
//! situation with the rules engine as the judge ([`host`]), and judges the client's
//! lines against the document (docs/go-protocol.md). A client meets here the
//! situations it otherwise meets only by chance on tournament day: an INVALID_MOVE,
//! its stones captured, the opponent's pass, a rematch, the opponent leaving, a 25x25
//! board, a slow server.
//!
//! - [`host`]: the checker as a server: greeting, configuration, moves, the end.
//! - one module per section: [`greeting`], [`turns`], [`sizes`], [`end`], [`wire`].

pub mod end;
pub mod greeting;
pub mod host;
pub mod sizes;
pub mod turns;
pub mod wire;

use super::super::case::{Section, Step};
use super::super::probe::Probe;
use super::super::run::Suite;

/// The sections.
pub const SECTIONS: [Section; 5] = [
    greeting::SECTION,
    turns::SECTION,
    sizes::SECTION,
    end::SECTION,
    wire::SECTION,
];

/// The exam of a GO! client.
pub fn suite() -> Suite {
    Suite {
        protocol: "GO! client (--client-cmd)",
        name: "go",
        sections: SECTIONS.to_vec(),
        cases: [
            greeting::cases(),
            turns::cases(),
            sizes::cases(),
            end::cases(),
            wire::cases(),
        ]
        .concat(),
        alive: no_check,
    }
}

/// A client is started afresh for every case: nothing to check after one.
fn no_check(_: &mut Probe) -> Step<()> {
    Ok(())
}
