//! The Spectrangle suite.

use super::case::{Section, Step};
use super::probe::Probe;
use super::run::Suite;

/// The sections, in the order of the protocol document.
pub const SECTIONS: [Section; 0] = [];

/// The Spectrangle suite.
pub fn suite() -> Suite {
    Suite {
        protocol: "Spectrangle",
        name: "spectrangle",
        sections: SECTIONS.to_vec(),
        cases: Vec::new(),
        alive,
    }
}

/// Whether a fresh client gets an answer.
///
/// # Errors
///
/// No answer within the answer timeout.
pub fn alive(probe: &mut Probe) -> Step<()> {
    let _ = probe;
    Ok(())
}
