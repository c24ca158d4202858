//! Skips and swaps: when they are refused, and what they announce when allowed.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::table::Table;
use crate::frontend::spectrangle::protocol::{Command, ErrorCode};

/// The section.
pub const SECTION: Section = Section {
    slug: "turns",
    title: "Skips and swaps",
};

const SWAP: &str = "MOVE_SWAP <tile> The player swaps a tile from his inventory with a tile in the bag. This command is only valid when it's the players turn and the player is not able to make a valid move.";
const SKIP: &str = "MOVE_SKIP The player skips his turn. This command is only valid when it's the players turn and the player is not able to make a valid move.";

/// How many games a case plays, at most, to meet a hand in which nothing fits.
const GAMES_TO_TRY: usize = 8;

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "MOVE_SKIP while a tile fits is refused: ERROR 6",
                SKIP,
                skip_refused,
            ),
            (
                Kind::Required,
                "MOVE_SWAP while a tile fits is refused: ERROR 6",
                SWAP,
                swap_refused,
            ),
            (
                Kind::Required,
                "MOVE_SWAP when nothing fits: UPDATE with the tile, then TILE with a new one",
                "UPDATE [...] When the player swapped a tile, only the playerName and tile arguments will be present. TILE [...] In case the player swapped a tile, this command will be sent in combination with an UPDATE command.",
                swap_allowed,
            ),
            (
                Kind::Required,
                "MOVE_SKIP when nothing fits: UPDATE with the name alone",
                "UPDATE [...] When the player skipped his turn, tile and location will not be present.",
                skip_allowed,
            ),
        ],
    )
}

fn skip_refused(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    // On the empty board every tile fits.
    let turn = table.turn;
    table.seats[turn].client.send(&Command::Skip)?;
    table.seats[turn].client.refused(
        ErrorCode::InvalidMove,
        "a tile of the hand fits on the empty board",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn swap_refused(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let turn = table.turn;
    let tile = table.seats[turn].hand[0];
    table.seats[turn].client.send(&Command::Swap {
        letters: tile.letters(),
    })?;
    table.seats[turn].client.refused(
        ErrorCode::InvalidMove,
        "a tile of the hand fits on the empty board",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

/// Plays whole games until the player to move can place nothing and `ready(table)`
/// holds; then `act` plays that turn. Says so when no game met such a hand.
fn when_nothing_fits(
    probe: &mut Probe,
    what: &str,
    ready: fn(&Table) -> bool,
    act: fn(&mut Table) -> Step<()>,
) -> Step<Finding> {
    for game in 0..GAMES_TO_TRY {
        let (ann, bob) = (format!("Ann{game}"), format!("Bob{game}"));
        let mut table = Table::start(probe, &[&ann, &bob])?;
        // The first tile in the top corner leaves one field to play, which the next
        // hand often cannot fill.
        table.corner_opening()?;
        let mut done = false;
        let ended = table.play_to_end(|table| {
            if !done && table.best_placement().is_none() && ready(table) {
                act(table)?;
                done = true;
            }
            Ok(())
        });
        // A move made by `act` may have ended the game: what follows is not this case's.
        if done {
            return Ok(Finding::Pass);
        }
        ended?;
        probe.note(&format!(
            "game {}: no player met a hand in which nothing fits",
            game + 1
        ));
        for mut seat in table.seats {
            seat.client.wire().disconnect();
        }
    }
    Ok(Finding::Measured {
        summary: format!(
            "not seen: in {GAMES_TO_TRY} games no player met a hand in which nothing fits ({what})"
        ),
    })
}

fn swap_allowed(probe: &mut Probe) -> Step<Finding> {
    when_nothing_fits(
        probe,
        "with tiles in the bag",
        |t| t.bag > 0,
        |t| {
            let tile = t.seats[t.turn]
                .hand
                .first()
                .copied()
                .ok_or_else(|| Failure::new("a hand", "empty"))?;
            t.swap(tile)
        },
    )
}

fn skip_allowed(probe: &mut Probe) -> Step<Finding> {
    when_nothing_fits(probe, "", |_| true, Table::skip)
}
