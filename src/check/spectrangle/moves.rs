//! Moves and scoring: MOVE_PLAY, its refusals by the rules, turned tiles.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::join::heard;
use super::table::{Table, find_placement};
use crate::engine::spectrangle::{
    IllegalPlacement, Location, OrientedTile, Placement, Spelling, Tile,
};
use crate::frontend::spectrangle::protocol::{Command, ErrorCode};

/// The section.
pub const SECTION: Section = Section {
    slug: "moves",
    title: "Moves and scoring",
};

const LATER_TILES: &str = "Every later tile must share at least one edge with a placed tile, and every edge it shares must match in colour; white matches anything.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "The first tile, on a field without bonus: UPDATE to every player",
                "UPDATE <playerName> [tile] [location] This indicates the player has finished his turn. When the player made a moved, this will be specified by the tile and location arguments.",
                first_tile,
            ),
            (
                Kind::Required,
                "The first tile on a bonus field is refused: ERROR 6",
                "The first tile may go on any field except a bonus field and scores its face value.",
                first_on_bonus,
            ),
            (
                Kind::Required,
                "A move out of turn is refused: ERROR 5",
                "5: Not your turn.",
                out_of_turn,
            ),
            (
                Kind::Required,
                "A tile the player does not hold is refused: ERROR 6",
                "The tile argument always indicates a tile that is to be removed from the player's inventory.",
                not_held,
            ),
            (
                Kind::Required,
                "A tile that touches no placed tile is refused: ERROR 6",
                LATER_TILES,
                not_touching,
            ),
            (
                Kind::Required,
                "A tile whose touching edge does not match is refused: ERROR 6",
                LATER_TILES,
                mismatch,
            ),
            (
                Kind::Required,
                "A tile on a taken field is refused: ERROR 6",
                LATER_TILES,
                occupied,
            ),
            (
                Kind::Required,
                "A location of 36 is refused: ERROR 2",
                "location An integer between 0 and 35.",
                location_36,
            ),
            (
                Kind::Required,
                "A tile with the digit 3 is refused: ERROR 2",
                "A tile is always represented by 3 letters and one digit (eg. PPY1). [...] The digit is either 0, 1 or 2, depending on the rotation.",
                digit_3,
            ),
            (
                Kind::Required,
                "A tile turned by its digit lies turned: UPDATE says how",
                "The rotation is also defined counterclockwise. The digit is either 0, 1 or 2, depending on the rotation.",
                turned_tile,
            ),
            (
                Kind::Choice,
                "MOVE, the protocol example's name for MOVE_PLAY",
                "MOVE_PLAY <tile> <location> The player places a tile on the board.",
                move_alias,
            ),
        ],
    )
}

/// Two players, their game started.
fn two(probe: &mut Probe) -> Step<Table> {
    Table::start(probe, &["Ann", "Bob"])
}

/// The player to move sends MOVE_PLAY for `placement`; it must be refused with `code`.
fn refused(table: &mut Table, placement: Placement, code: ErrorCode, why: &str) -> Step<()> {
    let seat = table.turn;
    refused_from(table, seat, placement, code, why)
}

/// The player at `seat` sends MOVE_PLAY for `placement`; it must be refused with `code`.
fn refused_from(
    table: &mut Table,
    seat: usize,
    placement: Placement,
    code: ErrorCode,
    why: &str,
) -> Step<()> {
    let client = &mut table.seats[seat].client;
    client.send(&Command::Play {
        spelling: Spelling::from(placement.tile),
        location: placement.location,
    })?;
    client.refused(code, &format!("{placement}: {why}"))?;
    Ok(())
}

/// Plays turns (the best move each) until `find` finds a placement in the hand of the
/// player to move, at most ten turns.
fn until(
    table: &mut Table,
    what: &str,
    find: impl Fn(&Table) -> Option<Placement>,
) -> Step<Placement> {
    for _ in 0..10 {
        if let Some(placement) = find(table) {
            return Ok(placement);
        }
        table.auto_move()?;
    }
    Err(Failure::new(
        format!("a hand with {what} within ten turns (the checker looks for one to send)"),
        "none came: the case could not be played; run it again".to_string(),
    ))
}

fn first_tile(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    // `Table::play` checks the UPDATE each player hears.
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn first_on_bonus(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let tile = table.seats[table.turn].hand[0];
    let bonus = Location::all()
        .find(|l| l.is_bonus())
        .ok_or_else(|| Failure::new("a bonus field", "none"))?;
    refused(
        &mut table,
        Placement {
            tile: tile.dealt(),
            location: bonus,
        },
        ErrorCode::InvalidMove,
        "the first tile may not go on a bonus field",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn out_of_turn(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let waiting = (table.turn + 1) % table.seats.len();
    let tile = table.seats[waiting].hand[0];
    let location = Location::all()
        .find(|l| !l.is_bonus())
        .ok_or_else(|| Failure::new("a field", "none"))?;
    refused_from(
        &mut table,
        waiting,
        Placement {
            tile: tile.dealt(),
            location,
        },
        ErrorCode::NotYourTurn,
        "it is the other player's turn",
    )?;
    // Nothing changed: the player to move still moves.
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn not_held(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let held: Vec<Tile> = table.seats.iter().flat_map(|s| s.hand.clone()).collect();
    let tile = Tile::ALL
        .into_iter()
        .find(|t| !held.contains(t))
        .ok_or_else(|| Failure::new("a tile nobody holds", "none"))?;
    let location = Location::all()
        .find(|l| !l.is_bonus())
        .ok_or_else(|| Failure::new("a field", "none"))?;
    refused(
        &mut table,
        Placement {
            tile: tile.dealt(),
            location,
        },
        ErrorCode::InvalidMove,
        "the player does not hold that tile",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

/// A placement of the mover's that the board refuses for the reason `wanted` matches.
fn refused_by(table: &Table, wanted: fn(&IllegalPlacement) -> bool) -> Option<Placement> {
    let hand = table.seats[table.turn].hand.clone();
    find_placement(table, &hand, |board, tile: OrientedTile, location| {
        board
            .check(tile, location)
            .err()
            .is_some_and(|e| wanted(&e))
    })
}

fn not_touching(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    table.auto_move()?;
    let placement = until(&mut table, "a tile for a field that touches nothing", |t| {
        refused_by(t, |e| matches!(e, IllegalPlacement::NotTouching { .. }))
    })?;
    refused(
        &mut table,
        placement,
        ErrorCode::InvalidMove,
        "it touches no placed tile",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn mismatch(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    table.auto_move()?;
    let placement = until(&mut table, "a tile whose edge does not match", |t| {
        refused_by(t, |e| matches!(e, IllegalPlacement::Mismatch { .. }))
    })?;
    let why = table
        .board
        .check(placement.tile, placement.location)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    refused(&mut table, placement, ErrorCode::InvalidMove, &why)?;
    probe.show("the board", table.rows());
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn occupied(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    table.auto_move()?;
    let placement = until(&mut table, "a tile for a taken field", |t| {
        refused_by(t, |e| matches!(e, IllegalPlacement::Occupied { .. }))
    })?;
    refused(
        &mut table,
        placement,
        ErrorCode::InvalidMove,
        "the field holds a tile",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn location_36(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let tile = table.seats[table.turn].hand[0];
    let turn = table.turn;
    let client = &mut table.seats[turn].client;
    client.send_line(&format!("MOVE_PLAY {tile} 36"))?;
    client.refused(ErrorCode::InvalidArguments, "the fields are 0 to 35")?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn digit_3(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let tile = table.seats[table.turn].hand[0];
    let turn = table.turn;
    let client = &mut table.seats[turn].client;
    client.send_line(&format!("MOVE_PLAY {}3 4", tile.letters()))?;
    client.refused(ErrorCode::InvalidArguments, "a rotation digit is 0, 1 or 2")?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn turned_tile(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    table.auto_move()?;
    let placement = until(&mut table, "a turned tile that fits", |t| {
        let hand = t.seats[t.turn].hand.clone();
        find_placement(t, &hand, |board, tile, location| {
            tile.rotation().digit() != 0 && board.check(tile, location).is_ok()
        })
    })?;
    // `Table::play` sends the tile with its digit and checks the UPDATE's tile lies the
    // same way.
    table.play(placement)?;
    probe.show("the board", table.rows());
    Ok(Finding::Pass)
}

fn move_alias(probe: &mut Probe) -> Step<Finding> {
    let mut table = two(probe)?;
    let tile = table.seats[table.turn].hand[0];
    let location = Location::all()
        .find(|l| !l.is_bonus())
        .ok_or_else(|| Failure::new("a field", "none"))?;
    let turn = table.turn;
    let client = &mut table.seats[turn].client;
    client.send_line(&format!("MOVE {tile} {location}"))?;
    let answer = probe.answer();
    let told = heard(client, answer);
    let server = if told.starts_with("told UPDATE") {
        "accepted".to_string()
    } else {
        told
    };
    Ok(Finding::Open {
        server,
        goserver: "accepted".to_string(),
    })
}
