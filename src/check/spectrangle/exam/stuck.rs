//! The exam's hands in which nothing fits: a swap or a skip then, and only then; the
//! tile a swap draws; white, which matches every colour.

use super::super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::Probe;
use super::host::{Deal, Host, Move, describe, field, set_tile};
use crate::engine::spectrangle::Placement;

/// The section.
pub const SECTION: Section = Section {
    slug: "stuck",
    title: "When nothing fits",
};

const SWAP: &str = "MOVE_SWAP <tile> The player swaps a tile from his inventory with a tile in the bag. This command is only valid when it's the players turn and the player is not able to make a valid move.";
const RULE: &str = "A player who can place a tile must; one who cannot either skips, or swaps one tile with the bag and ends the turn.";

/// A hand with no red and no white: nothing of it fits next to RRR0.
const NO_RED: [&str; 4] = ["GGB", "YYG", "BBP", "PPG"];

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "When none of its tiles fits anywhere and the bag has tiles, it swaps a tile it holds, or skips",
                SWAP,
                nothing_fits,
            ),
            (
                Kind::Choice,
                "When nothing fits and the bag has tiles: MOVE_SWAP or MOVE_SKIP",
                RULE,
                swap_or_skip,
            ),
            (
                Kind::Required,
                "After its swap it holds the tile drawn (UPDATE, then TILE): its next turn places that tile, the only one that fits",
                "TILE <playerName> <tile> A tile has been given to a player. [...] In case the player swapped a tile, this command will be sent in combination with an UPDATE command.",
                plays_the_tile_drawn,
            ),
            (
                Kind::Required,
                "White matches every colour: when only its WWW fits, it places it",
                "Every later tile must share at least one edge with a placed tile, and every edge it shares must match in colour; white matches anything.",
                white_fits,
            ),
        ],
    )
}

/// A game of two in which the other player opens with RRR0 in the top corner (whose
/// one neighbour wants red) and the client holds `hand`; the opening is made.
fn after_red_corner(probe: &mut Probe, deal: Deal) -> Step<Host> {
    let mut host = Host::start(probe, &deal)?;
    let opening = Placement {
        tile: set_tile("RRR")?.dealt(),
        location: field(0)?,
    };
    host.opponent(Move::Play(opening))?;
    Ok(host)
}

fn nothing_fits(probe: &mut Probe) -> Step<Finding> {
    let deal = Deal::new(2, 1).hand(0, &["RRR"]).hand(1, &NO_RED);
    let mut host = after_red_corner(probe, deal)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn swap_or_skip(probe: &mut Probe) -> Step<Finding> {
    let deal = Deal::new(2, 1).hand(0, &["RRR"]).hand(1, &NO_RED).seed(3);
    let mut host = after_red_corner(probe, deal)?;
    let server = match host.client_moves()? {
        Move::Swap(_) => "MOVE_SWAP".to_string(),
        Move::Skip => "MOVE_SKIP".to_string(),
        other => describe(other),
    };
    Ok(Finding::Open {
        server,
        goserver: "MOVE_SWAP".to_string(),
    })
}

fn plays_the_tile_drawn(probe: &mut Probe) -> Step<Finding> {
    // The other player's tiles after the opening have no red and no white either, so
    // it swaps too; the client's swap draws RRY, which fits below the corner.
    let deal = Deal::new(2, 1)
        .hand(0, &["RRR", "YYP", "PPY", "YYY"])
        .hand(1, &NO_RED)
        .draws(&["BBG", "RRY", "GGY"]);
    let mut host = after_red_corner(probe, deal)?;
    match host.client_moves()? {
        Move::Swap(_) => {}
        Move::Skip => {
            return Ok(Finding::Open {
                server: "it skipped (no tile drawn to play)".to_string(),
                goserver: "swaps, and places the tile drawn".to_string(),
            });
        }
        Move::Play(_) => {}
    }
    let mv = host.opponent_choice();
    host.opponent(mv)?;
    host.client_moves()?;
    host.show(probe, "after the tile drawn is placed");
    Ok(Finding::Pass)
}

fn white_fits(probe: &mut Probe) -> Step<Finding> {
    let deal = Deal::new(2, 1)
        .hand(0, &["RRR"])
        .hand(1, &["WWW", "GGB", "YYG", "BBP"]);
    let mut host = after_red_corner(probe, deal)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}
