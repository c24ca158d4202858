//! Errors: the codes of refused lines, and that an error ends nothing.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::client::SpClient;
use super::join::heard;
use super::table::{Table, gather};
use crate::frontend::spectrangle::protocol::{ErrorCode, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "errors",
    title: "Errors",
};

const ERROR: &str = "ERROR <errorCode> <errorMessage> This is sent to the client when the client has sent an invalid command to the server.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "An unknown command is refused: ERROR 1",
                "1: Unrecognized command.",
                unknown_command,
            ),
            (
                Kind::Required,
                "READY with an argument is refused: ERROR 2",
                "2: Invalid arguments.",
                ready_with_argument,
            ),
            (
                Kind::Required,
                "MOVE_PLAY with one argument is refused: ERROR 2",
                "2: Invalid arguments.",
                play_one_argument,
            ),
            (
                Kind::Required,
                "An ERROR has a message after its code",
                "errorMessage A textual representation of the error, intended to be displayed to the user.",
                error_has_message,
            ),
            (
                Kind::Required,
                "A refused move ends nothing: the player then moves",
                ERROR,
                error_ends_nothing,
            ),
            (Kind::Choice, "A command in lower case", ERROR, lower_case),
            (Kind::Choice, "A line of blanks", ERROR, blank_line),
        ],
    )
}

fn unknown_command(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line("HELLO world")?;
    client.refused(ErrorCode::Unrecognized, "HELLO is no command")?;
    Ok(Finding::Pass)
}

fn ready_with_argument(probe: &mut Probe) -> Step<Finding> {
    let mut clients = gather(probe, &["Ann", "Bob"])?;
    clients[0].send_line("READY now")?;
    clients[0].refused(ErrorCode::InvalidArguments, "READY takes no argument")?;
    Ok(Finding::Pass)
}

fn play_one_argument(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let turn = table.turn;
    let tile = table.seats[turn].hand[0];
    table.seats[turn]
        .client
        .send_line(&format!("MOVE_PLAY {tile}"))?;
    table.seats[turn].client.refused(
        ErrorCode::InvalidArguments,
        "MOVE_PLAY takes a tile and a location",
    )?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn error_has_message(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line("HELLO")?;
    let message = client.expect("ERROR <code> <message>", |m| match m {
        ServerMessage::Error { message, .. } => Some(message),
        _ => None,
    })?;
    ensure(
        !message.trim().is_empty(),
        "ERROR <code> followed by a message for the user",
        "an ERROR with no message",
    )?;
    Ok(Finding::Pass)
}

fn error_ends_nothing(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let turn = table.turn;
    table.seats[turn].client.send_line("HELLO")?;
    table.seats[turn]
        .client
        .refused(ErrorCode::Unrecognized, "HELLO is no command")?;
    table.auto_move()?;
    table.auto_move()?;
    Ok(Finding::Pass)
}

fn lower_case(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line(&format!("join {name}"))?;
    let answer = probe.answer();
    let told = heard(&mut client, answer);
    let server = if told.starts_with("told LOBBY") {
        "accepted".to_string()
    } else {
        told
    };
    Ok(Finding::Open {
        server,
        goserver: "ERROR 1".to_string(),
    })
}

/// The blank line, then a JOIN, whose LOBBY answer is its own: whatever comes before
/// that LOBBY answered the blank line. No quiet window decides.
fn blank_line(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    client.send_line("   ")?;
    client.send_line(&format!("JOIN {name}"))?;
    let answer = probe.answer();
    let server = match heard(&mut client, answer) {
        told if told.starts_with("told LOBBY") => "no answer".to_string(),
        other => other,
    };
    Ok(Finding::Open {
        server,
        goserver: "no answer".to_string(),
    })
}
