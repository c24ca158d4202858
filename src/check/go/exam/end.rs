//! The exam's endings: no move after GAME_FINISHED, the rematch question answered, a
//! rematch played, the opponent leaving, the server closing.

use super::super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::{CLIENT_EXIT_WAIT, Probe};
use super::super::super::wire::Heard;
use super::host::{Host, Start};
use crate::engine::go::{Colour, Move};
use crate::frontend::go::protocol::{self, ClientCommand, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "end",
    title: "The end of a game, and rematch",
};

const FINISHED: &str = "GAME_FINISHED: Sent when a game is finished in any way. If someone disconnects or exits, the winner is the other person.";
const REMATCH: &str = "When the game is finished the server asks the players if they want to play a rematch, if both respond with yes the game is restarted with the same config.";
const SET_REMATCH: &str = "SET_REMATCH+$REMATCH: Sent as a response to `REQUEST_REMATCH`. 1 if you would like a rematch, 0 if you would not.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "After GAME_FINISHED it sends no move",
                FINISHED,
                no_move_after_the_end,
            ),
            (
                Kind::Required,
                "It answers REQUEST_REMATCH with SET_REMATCH+1 or SET_REMATCH+0, and nothing else",
                SET_REMATCH,
                answers_rematch,
            ),
            (
                Kind::Required,
                "After ACKNOWLEDGE_REMATCH+1 it plays the new game from its ACKNOWLEDGE_CONFIG",
                REMATCH,
                plays_rematch,
            ),
            (
                Kind::Required,
                "A rematch with the colours swapped: as white now, it waits for black",
                "This new game is commenced with a new `ACKNOWLEDGE_CONFIG` command.",
                swapped_rematch,
            ),
            (
                Kind::Required,
                "A draw (an empty winner) is taken: it answers the rematch question",
                "`$WINNER`: **String**. Username of the winning player.",
                draw,
            ),
            (
                Kind::Required,
                "A game ended by the move clock is taken: it answers the rematch question",
                FINISHED,
                move_clock,
            ),
            (
                Kind::Required,
                "When the opponent left (GAME_FINISHED, no rematch question) it sends no move and no SET_REMATCH",
                FINISHED,
                opponent_left,
            ),
            (
                Kind::Choice,
                "After ACKNOWLEDGE_REMATCH+0, what it does",
                "If one of the players responds negative the other player is notified.",
                after_no,
            ),
            (
                Kind::Choice,
                "When the server closes the connection in a game, what it does",
                "The protocol is started when a player opens a socket connection to the server.",
                server_closes,
            ),
        ],
    )
}

/// A game of a few moves on 5x5, ended by the server (GAME_FINISHED with `message`,
/// and REQUEST_REMATCH if `ask`) right after the client's own move, when it is not the
/// client's turn.
fn ended(probe: &mut Probe, message: &str, ask: bool) -> Step<Host> {
    let mut host = Host::start(probe, &Start::black(5))?;
    // `play` returns right after the client's third move: the opponent's turn.
    host.play(3)?;
    host.finish(message, ask)?;
    Ok(host)
}

fn no_move_after_the_end(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe, "The exam ends the game here", false)?;
    let quiet = probe.quiet();
    host.nothing_for(quiet, "the game is finished")?;
    Ok(Finding::Pass)
}

fn answers_rematch(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe, "The exam ends the game here", true)?;
    host.rematch_answer()?;
    // "And nothing else": no second answer, no move, until the server says more.
    let quiet = probe.quiet();
    host.nothing_for(quiet, "it has answered; the server speaks next")?;
    Ok(Finding::Pass)
}

/// The client's answer to the rematch question; when yes, ACKNOWLEDGE_REMATCH+1 and a
/// new game begun with the client as `colour`. `None` when it declined.
fn rematch(probe: &mut Probe, colour: Colour) -> Step<Option<Host>> {
    let mut host = ended(probe, "The exam ends the game here", true)?;
    if !host.rematch_answer()? {
        host.send(&ServerMessage::AcknowledgeRematch { rematch: false })?;
        return Ok(None);
    }
    host.send(&ServerMessage::AcknowledgeRematch { rematch: true })?;
    host.game.restart();
    host.colour = colour;
    host.acknowledge_config()?;
    Ok(Some(host))
}

fn declined() -> Finding {
    Finding::Open {
        server: "it declined the rematch (nothing to play)".to_string(),
        goserver: "plays the rematch (goserver play --games 2 or more)".to_string(),
    }
}

fn plays_rematch(probe: &mut Probe) -> Step<Finding> {
    let Some(mut host) = rematch(probe, Colour::Black)? else {
        return Ok(declined());
    };
    host.play(3)?;
    Ok(Finding::Pass)
}

fn swapped_rematch(probe: &mut Probe) -> Step<Finding> {
    let Some(mut host) = rematch(probe, Colour::White)? else {
        return Ok(declined());
    };
    let quiet = probe.quiet();
    host.nothing_for(quiet, "black, the server's, is to move in the new game")?;
    let mv = host.opponent_choice();
    host.opponent(mv)?;
    host.client_moves()?;
    Ok(Finding::Pass)
}

fn draw(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    host.client_moves()?;
    host.send(&ServerMessage::GameFinished {
        game_id: host.id,
        winner: None,
        black_score: "0".into(),
        white_score: "0".into(),
        message: "A draw, as the exam decides".into(),
    })?;
    host.send(&ServerMessage::RequestRematch)?;
    host.rematch_answer()?;
    Ok(Finding::Pass)
}

fn move_clock(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    host.client_moves()?;
    let message = "Referee did not move within 30 s: the client wins";
    host.finish(message, true)?;
    host.rematch_answer()?;
    Ok(Finding::Pass)
}

fn opponent_left(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    host.client_moves()?;
    let name = host.name.clone();
    host.send(&ServerMessage::GameFinished {
        game_id: host.id,
        winner: Some(name.clone()),
        black_score: "1".into(),
        white_score: "0".into(),
        message: format!("Referee disconnected: {name} wins"),
    })?;
    // It may say nothing, leave, or identify again for another game.
    match host.wire.hear(probe.answer()) {
        Heard::Line(line) => match protocol::parse(&line) {
            Ok(ClientCommand::Handshake { .. } | ClientCommand::Exit { .. }) => Ok(Finding::Pass),
            _ => Err(Failure::new(
                "no MOVE and no SET_REMATCH (nobody asked): nothing, EXIT, a close or a new HANDSHAKE",
                line,
            )),
        },
        _ => Ok(Finding::Pass),
    }
}

fn after_no(probe: &mut Probe) -> Step<Finding> {
    let mut host = ended(probe, "The exam ends the game here", true)?;
    host.rematch_answer()?;
    host.send(&ServerMessage::AcknowledgeRematch { rematch: false })?;
    let server = match host.wire.hear(probe.answer()) {
        Heard::Line(line) => match protocol::parse(&line) {
            Ok(ClientCommand::Handshake { .. }) => "a new HANDSHAKE".to_string(),
            Ok(ClientCommand::Exit { .. }) => "EXIT".to_string(),
            _ => format!("sent {line}"),
        },
        Heard::Closed => match probe.client_exit_within(CLIENT_EXIT_WAIT) {
            Some(status) => format!("closed the connection and exited ({status})"),
            None => "closed the connection".to_string(),
        },
        _ => "nothing".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "a new HANDSHAKE".to_string(),
    })
}

fn server_closes(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::white(5))?;
    host.opponent(Move::Pass)?;
    host.client_moves()?;
    host.wire.disconnect();
    let server = match probe.client_exit_within(CLIENT_EXIT_WAIT) {
        Some(status) => format!("exits ({status})"),
        None => format!("still runs {} s later", CLIENT_EXIT_WAIT.as_secs()),
    };
    Ok(Finding::Open {
        server,
        goserver: "exits (status 1)".to_string(),
    })
}
