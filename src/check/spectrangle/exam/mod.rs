//! The exam of a Spectrangle *client* (`goserver check spectrangle --client-cmd 'CMD
//! {port}'`): the checker plays the server's side. For each case it listens on a free
//! port, starts the client, takes its JOIN and READY, starts a game with scripted
//! opponents and a bag it controls ([`host`]), and judges every line the client sends
//! against the documents (docs/spectrangle-protocol.md, docs/spectrangle-rules.md): a
//! tile of its own hand, on a field where every shared edge matches, on its turn
//! only, a swap or a skip only when nothing fits. A client meets here what it
//! otherwise meets only by chance: a hand in which nothing fits, a swap's new tile,
//! white edges, an ERROR for its move, three and four players, a slow server.
//!
//! - [`host`]: the checker as a server: lobby, deal, opponents, judge, SCORE.
//! - one module per section: [`join`], [`turns`], [`stuck`], [`end`], [`wire`].
//!
//! The server never sends CHAT_MESSAGE or ACTIVE_LOBBIES unasked (only to a client that
//! enabled the extension), so no case sends them.

pub mod end;
pub mod host;
pub mod join;
pub mod stuck;
pub mod turns;
pub mod wire;

use super::super::case::{Section, Step};
use super::super::probe::Probe;
use super::super::run::Suite;

/// The sections.
pub const SECTIONS: [Section; 5] = [
    join::SECTION,
    turns::SECTION,
    stuck::SECTION,
    end::SECTION,
    wire::SECTION,
];

/// The exam of a Spectrangle client.
pub fn suite() -> Suite {
    Suite {
        protocol: "Spectrangle client (--client-cmd)",
        name: "spectrangle",
        sections: SECTIONS.to_vec(),
        cases: [
            join::cases(),
            turns::cases(),
            stuck::cases(),
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
