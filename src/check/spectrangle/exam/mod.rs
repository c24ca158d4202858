//! The exam of a Spectrangle *client* (`goserver check spectrangle --client-cmd 'CMD
//! {port}'`): the checker plays the server's side.

use super::super::case::Step;
use super::super::probe::Probe;
use super::super::run::Suite;

/// The exam of a Spectrangle client.
pub fn suite() -> Suite {
    Suite {
        protocol: "Spectrangle client (--client-cmd)",
        name: "spectrangle",
        sections: Vec::new(),
        cases: Vec::new(),
        alive: no_check,
    }
}

/// A client is started afresh for every case: nothing to check after one.
fn no_check(_: &mut Probe) -> Step<()> {
    Ok(())
}
