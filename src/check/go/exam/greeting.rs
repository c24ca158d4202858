//! The exam's greeting: the client's HANDSHAKE, its configuration as leader, its
//! silence as partner, the name and game id the server hands it.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::{Probe, ensure};
use super::host::{Host, Start, greeted, handshake_answered, set_config};
use crate::engine::go::Colour;
use crate::frontend::go::protocol::{GameId, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "greeting",
    title: "Handshake and configuration",
};

const IDENTIFY: &str = "The first step is for the player to identify himself to the server and providing a player name.";
const CONFIG: &str = "If the game acknowledges the player it will answer and if it is the first player it sends a request for the configuration. The client responds accordingly.";
const NAME: &str = "`$PLAYER_NAME$`: **String**. Username granted to you by the server, this is the username you are obliged to use.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "The first line is a HANDSHAKE with a name",
                IDENTIFY,
                first_line,
            ),
            (
                Kind::Required,
                "As leader it answers REQUEST_CONFIG with a SET_CONFIG for the game id it was given",
                CONFIG,
                answers_config,
            ),
            (
                Kind::Required,
                "Its SET_CONFIG asks for a board size from 2 to 25",
                "`$BOARD_SIZE`: **Int**. Preferred board dimensions. Give `n` for an `n * n` board.",
                sensible_size,
            ),
            (
                Kind::Required,
                "As leader it does not move before ACKNOWLEDGE_CONFIG",
                "If both players are identified and the configuration is set the server sends out initial game status",
                waits_for_config,
            ),
            (
                Kind::Required,
                "As partner (ACKNOWLEDGE_HANDSHAKE+<id>+0) it sends no SET_CONFIG",
                CONFIG,
                partner_no_config,
            ),
            (
                Kind::Required,
                "A granted name other than the one asked (a suffix) is the name its MOVEs carry",
                NAME,
                granted_name,
            ),
            (
                Kind::Required,
                "A game id other than 1 is the one its lines carry",
                "`$GAME_ID`: **int**. Game id provided by the server on the initial handshake.",
                other_game_id,
            ),
            (
                Kind::Required,
                "A REQUEST_CONFIG sent again after UNKNOWN_COMMAND is answered again",
                CONFIG,
                config_again,
            ),
            (
                Kind::Required,
                "A long REQUEST_CONFIG text, with any characters but +, is answered with SET_CONFIG",
                "`$REQUEST_CONFIG_MESSAGE$`: **String**. String containing the message to be displayed requesting the config message.",
                long_request,
            ),
            (
                Kind::Required,
                "After its HANDSHAKE it waits for ACKNOWLEDGE_HANDSHAKE",
                IDENTIFY,
                waits_for_acknowledgement,
            ),
            (
                Kind::Choice,
                "The colour it asks for as leader",
                "`$PREFERRED_COLOR`: **Int**. integer representation of the color you'd like to play with. (0=random, 1=black, 2=white, 3-9=implemented later)",
                colour_asked,
            ),
        ],
    )
}

fn first_line(probe: &mut Probe) -> Step<Finding> {
    let (_wire, name) = greeted(probe)?;
    ensure(!name.is_empty(), "a name in HANDSHAKE", "an empty name")?;
    Ok(Finding::Pass)
}

fn answers_config(probe: &mut Probe) -> Step<Finding> {
    let start = Start {
        id: GameId(7),
        ..Start::black(9)
    };
    let (mut wire, _) = greeted(probe)?;
    handshake_answered(&mut wire, &start)?;
    Ok(Finding::Pass)
}

fn sensible_size(probe: &mut Probe) -> Step<Finding> {
    let (mut wire, _) = greeted(probe)?;
    let config = handshake_answered(&mut wire, &Start::black(9))?;
    let size = config.map_or(0, |(_, size)| size);
    ensure(
        (2..=25).contains(&size),
        "a board size from 2 to 25",
        size.to_string(),
    )?;
    Ok(Finding::Pass)
}

fn waits_for_config(probe: &mut Probe) -> Step<Finding> {
    let (mut wire, asked) = greeted(probe)?;
    handshake_answered(&mut wire, &Start::black(5))?;
    let quiet = probe.quiet();
    if let super::super::super::wire::Heard::Line(line) = wire.hear(quiet) {
        return Err(Failure::new(
            "nothing until ACKNOWLEDGE_CONFIG (no partner yet)",
            line,
        ));
    }
    // Then the game starts: its first line is a move.
    let mut host = Host::seated(wire, asked, None, &Start::black(5))?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn partner_no_config(probe: &mut Probe) -> Step<Finding> {
    let start = Start {
        leader: false,
        ..Start::black(5)
    };
    let mut host = Host::start(probe, &start)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn granted_name(probe: &mut Probe) -> Step<Finding> {
    let start = Start {
        grant: Some("{}_2"),
        ..Start::black(5)
    };
    let mut host = Host::start(probe, &start)?;
    host.play(3)?;
    Ok(Finding::Pass)
}

fn other_game_id(probe: &mut Probe) -> Step<Finding> {
    let start = Start {
        id: GameId(4711),
        ..Start::black(5)
    };
    let mut host = Host::start(probe, &start)?;
    host.play(3)?;
    Ok(Finding::Pass)
}

fn config_again(probe: &mut Probe) -> Step<Finding> {
    let start = Start::black(5);
    let (mut wire, _) = greeted(probe)?;
    handshake_answered(&mut wire, &start)?;
    wire.send(
        &ServerMessage::UnknownCommand {
            reason: "SET_CONFIG: please send it again".into(),
        }
        .to_string(),
    )?;
    wire.send(
        &ServerMessage::RequestConfig {
            message: start.request.clone(),
        }
        .to_string(),
    )?;
    set_config(&mut wire, start.id)?;
    Ok(Finding::Pass)
}

fn long_request(probe: &mut Probe) -> Step<Finding> {
    let printable: String = (b' '..=b'~')
        .filter(|&b| b != b'+')
        .map(char::from)
        .collect();
    let start = Start {
        request: printable.repeat(24),
        ..Start::black(9)
    };
    let (mut wire, _) = greeted(probe)?;
    handshake_answered(&mut wire, &start)?;
    Ok(Finding::Pass)
}

fn colour_asked(probe: &mut Probe) -> Step<Finding> {
    let (mut wire, _) = greeted(probe)?;
    let config = handshake_answered(&mut wire, &Start::black(9))?;
    let server = match config.map(|(colour, _)| colour) {
        Some(0) => "random (0)".to_string(),
        Some(1) => format!("{} (1)", Colour::Black),
        Some(2) => format!("{} (2)", Colour::White),
        Some(other) => format!("{other}"),
        None => "none".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "random (0)".to_string(),
    })
}

fn waits_for_acknowledgement(probe: &mut Probe) -> Step<Finding> {
    let (mut wire, asked) = greeted(probe)?;
    let quiet = probe.quiet();
    if let super::super::super::wire::Heard::Line(line) = wire.hear(quiet) {
        return Err(Failure::new(
            "nothing until ACKNOWLEDGE_HANDSHAKE answers its HANDSHAKE",
            line,
        ));
    }
    let start = Start::black(5);
    let config = handshake_answered(&mut wire, &start)?;
    let mut host = Host::seated(wire, asked, config, &start)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}
