//! The exam's board sizes: the client plays legal moves on every size a course's
//! server may choose, up to 25x25 (the document sets no bound).

use super::super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::Probe;
use super::host::{Host, Start};
use super::turns::show;

/// The section.
pub const SECTION: Section = Section {
    slug: "sizes",
    title: "Board sizes",
};

const SIZE: &str = "`$SIZE`: **int**. Board size. `n` for an `n * n` board.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (Kind::Required, "On 5x5: twelve legal moves", SIZE, five),
            (
                Kind::Required,
                "On 9x9, as white: twelve legal moves",
                SIZE,
                nine,
            ),
            (
                Kind::Required,
                "On 13x13: twelve legal moves",
                SIZE,
                thirteen,
            ),
            (
                Kind::Required,
                "On 19x19: twelve legal moves",
                SIZE,
                nineteen,
            ),
            (
                Kind::Required,
                "On 25x25: twelve legal moves",
                SIZE,
                twenty_five,
            ),
        ],
    )
}

/// Twelve moves of the client's on a `size` board, as `start` begins it.
fn twelve(probe: &mut Probe, start: &Start) -> Step<Finding> {
    let mut host = Host::start(probe, start)?;
    host.play(12)?;
    show(probe, &host, "after twelve moves of the client's");
    Ok(Finding::Pass)
}

fn five(probe: &mut Probe) -> Step<Finding> {
    twelve(probe, &Start::black(5))
}

fn nine(probe: &mut Probe) -> Step<Finding> {
    twelve(probe, &Start::white(9))
}

fn thirteen(probe: &mut Probe) -> Step<Finding> {
    twelve(probe, &Start::black(13))
}

fn nineteen(probe: &mut Probe) -> Step<Finding> {
    twelve(probe, &Start::black(19))
}

fn twenty_five(probe: &mut Probe) -> Step<Finding> {
    twelve(probe, &Start::black(25))
}
