//! Exit and disconnect: leaving a game, by EXIT or by closing the connection.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::super::wire::Heard;
use super::handshake::answer_or_silence;
use super::play::{Match, finished, join, lead};
use crate::engine::go::Colour;
use crate::frontend::go::protocol::{ClientCommand, ColourChoice, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "exit",
    title: "Exit and disconnect",
};

const OTHER_WINS: &str = "Sent when a game is finished in any way. If someone disconnects or exits, the winner is the other person.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "EXIT by the player who waits: the other player wins",
                OTHER_WINS,
                exit_while_waiting,
            ),
            (
                Kind::Required,
                "EXIT by the player to move: the other player wins",
                OTHER_WINS,
                exit_while_to_move,
            ),
            (
                Kind::Required,
                "A disconnect in a game: the other player wins, told at once",
                OTHER_WINS,
                disconnect,
            ),
            (
                Kind::Required,
                "An EXIT that names the opponent is refused",
                "`$PLAYER_NAME`: String; Username as set in the initial handshake.",
                exit_with_the_opponent_s_name,
            ),
            (
                Kind::Choice,
                "The player who exits: told, and its connection",
                "EXIT: Used to exit the game at any moment.",
                the_one_who_exits,
            ),
            (
                Kind::Choice,
                "The leader leaves before the game starts: its partner",
                "The first player to connect will have control over the game configuration",
                leader_leaves_before_the_start,
            ),
            (
                Kind::Choice,
                "A disconnect while a rematch is asked",
                "If one of the players responds negative the other player is notified.",
                disconnect_during_the_rematch_question,
            ),
        ],
    )
}

/// A 5x5 game with two moves played.
fn playing(probe: &mut Probe) -> Step<Match> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, 6])?;
    Ok(game)
}

/// `leaver` leaves `game` (by `leave`); the other player must be told it won.
fn the_other_wins(
    game: &mut Match,
    leaver: Colour,
    leave: impl FnOnce(&mut Match) -> Step<()>,
) -> Step<()> {
    leave(game)?;
    let winner = game.client(leaver.opponent()).name.clone();
    let told = finished(game.client(leaver.opponent()))?;
    ensure(
        told.winner.as_ref() == Some(&winner) && told.game_id == game.id,
        format!(
            "GAME_FINISHED+{}+{winner}+... (the player who stayed wins)",
            game.id
        ),
        format!(
            "GAME_FINISHED+{}+{}+...",
            told.game_id,
            told.winner.as_deref().unwrap_or("")
        ),
    )
}

/// `colour` sends EXIT.
fn exit(game: &mut Match, colour: Colour) -> Step<()> {
    let command = ClientCommand::Exit {
        game_id: game.id,
        player: game.client(colour).name.clone(),
    };
    game.client(colour).send(&command)
}

fn exit_while_waiting(probe: &mut Probe) -> Step<Finding> {
    let mut game = playing(probe)?;
    // Black is to move; white leaves.
    the_other_wins(&mut game, Colour::White, |game| exit(game, Colour::White))?;
    Ok(Finding::Pass)
}

fn exit_while_to_move(probe: &mut Probe) -> Step<Finding> {
    let mut game = playing(probe)?;
    the_other_wins(&mut game, Colour::Black, |game| exit(game, Colour::Black))?;
    Ok(Finding::Pass)
}

fn disconnect(probe: &mut Probe) -> Step<Finding> {
    let mut game = playing(probe)?;
    the_other_wins(&mut game, Colour::White, |game| {
        game.white.wire().disconnect();
        Ok(())
    })?;
    Ok(Finding::Pass)
}

fn exit_with_the_opponent_s_name(probe: &mut Probe) -> Step<Finding> {
    let mut game = playing(probe)?;
    let command = ClientCommand::Exit {
        game_id: game.id,
        player: game.white.name.clone(),
    };
    game.black.send(&command)?;
    game.black
        .refusal("an EXIT naming the opponent, not the sender")?;
    // Nothing ended: black still moves.
    game.play(18)?;
    Ok(Finding::Pass)
}

fn the_one_who_exits(probe: &mut Probe) -> Step<Finding> {
    let mut game = playing(probe)?;
    exit(&mut game, Colour::White)?;
    let answer = probe.answer();
    let told = match game.white.hear(answer) {
        Heard::Line(line) => match ServerMessage::parse(&line) {
            Ok(ServerMessage::GameFinished { .. }) => "told GAME_FINISHED".to_string(),
            _ => format!("answered {line}"),
        },
        Heard::Closed => "closed without a word".to_string(),
        other => other.describe(),
    };
    let closed = if told == "closed without a word" || game.white.wire().closed_within(answer) {
        "its connection closed by the server"
    } else {
        "its connection left open"
    };
    Ok(Finding::Open {
        server: format!("{told}, {closed}"),
        goserver: "told GAME_FINISHED, its connection closed by the server".to_string(),
    })
}

fn leader_leaves_before_the_start(probe: &mut Probe) -> Step<Finding> {
    let (leader, joined) = lead(probe, "Ann")?;
    let mut partner = join(probe, "Bob", joined)?;
    leader.close();
    let answer = probe.answer();
    let server = match partner.hear(answer) {
        Heard::Line(line) => match ServerMessage::parse(&line) {
            Ok(ServerMessage::AcknowledgeHandshake {
                is_leader: true, ..
            }) => "the partner leads a new game (ACKNOWLEDGE_HANDSHAKE+<id>+1)".to_string(),
            Ok(ServerMessage::AcknowledgeHandshake {
                is_leader: false, ..
            }) => "the partner joins another game (ACKNOWLEDGE_HANDSHAKE+<id>+0)".to_string(),
            Ok(ServerMessage::GameFinished { .. }) => {
                "the partner is told GAME_FINISHED".to_string()
            }
            _ => format!("the partner is told {line}"),
        },
        Heard::Silent(_) => "the partner is told nothing".to_string(),
        other => format!("the partner: {}", other.describe()),
    };
    Ok(Finding::Open {
        server,
        goserver: "the partner leads a new game (ACKNOWLEDGE_HANDSHAKE+<id>+1)".to_string(),
    })
}

fn disconnect_during_the_rematch_question(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play(12)?;
    game.end_by_passes()?;
    // Both have the question before white leaves: it is open on the server.
    for client in [&mut game.black, &mut game.white] {
        client.expect("REQUEST_REMATCH", |m| {
            matches!(m, ServerMessage::RequestRematch).then_some(())
        })?;
    }
    game.white.wire().disconnect();
    let wait = probe.answer();
    let server = match answer_or_silence(&mut game.black, wait)?.as_str() {
        "answered ACKNOWLEDGE_REMATCH+0" => "the other is told ACKNOWLEDGE_REMATCH+0".to_string(),
        "no answer" => format!("the other is told nothing within {} ms", wait.as_millis()),
        other => format!("the other is {other}"),
    };
    Ok(Finding::Open {
        server,
        goserver: "the other is told ACKNOWLEDGE_REMATCH+0".to_string(),
    })
}
