//! Tiles and the bag: the deal, the draw after a placement, every tile once.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::table::Table;

/// The section.
pub const SECTION: Section = Section {
    slug: "tiles",
    title: "Tiles and the bag",
};

const TILE: &str = "TILE <playerName> <tile> A tile has been given to a player.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "Each player is dealt four tiles of the set, none twice",
                "2 to 4 players. Each holds 4 tiles, visible to all; the bag holds the rest.",
                deal,
            ),
            (
                Kind::Required,
                "A placement is followed by TILE: the mover draws from the bag",
                "After placing, the player draws back to 4 while the bag lasts.",
                draw_after_placement,
            ),
            (
                Kind::Required,
                "A whole game: no tile is dealt while it is on the board or in a hand",
                TILE,
                whole_game_tiles,
            ),
            (
                Kind::Choice,
                "Every player is told every player's tiles (hands are public)",
                "2 to 4 players. Each holds 4 tiles, visible to all; the bag holds the rest.",
                public_hands,
            ),
        ],
    )
}

fn deal(probe: &mut Probe) -> Step<Finding> {
    // `Table::start` checks every tile of the deal, and that none is dealt twice.
    Table::start(probe, &["Ann", "Bob"])?;
    Ok(Finding::Pass)
}

fn draw_after_placement(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    // Each placement reads the mover's TILE (the bag is full).
    table.auto_move()?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn whole_game_tiles(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    // Each draw is checked against the board and every hand known.
    table.play_to_end(|_| Ok(()))?;
    probe.show("the board at the end", table.rows());
    Ok(Finding::Pass)
}

fn public_hands(probe: &mut Probe) -> Step<Finding> {
    let table = Table::start(probe, &["Ann", "Bob"])?;
    Ok(Finding::Open {
        server: if table.public {
            "yes"
        } else {
            "no: each hears its own"
        }
        .to_string(),
        goserver: "yes".to_string(),
    })
}
