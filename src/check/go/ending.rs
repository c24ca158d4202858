//! The end of a game by two passes, the result, and the rematch.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::client::GoClient;
use super::handshake::answer_or_silence;
use super::play::{Ending, Finished, Match, config, slot};
use crate::engine::go::{Colour, Game, Rules};
use crate::frontend::go::protocol::{ClientCommand, ColourChoice, Progress, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "ending",
    title: "The end of a game, and rematch",
};

const FINISHED_AND_WINNER: &str = "This is continued until the game is finished after which the server broadcasts the finished game status and the winner.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "Two passes end the game: the second pass is acknowledged to both",
                "After this the currently active player can send a move to the server which can acknowledge the move and broadcast a new status. This is continued until the game is finished after which the server broadcasts the finished game status and the winner.",
                final_pass_acknowledged,
            ),
            (
                Kind::Required,
                "GAME_FINISHED goes to both players, with the game's id and one result",
                "GAME_FINISHED: Sent when a game is finished in any way.",
                game_finished_to_both,
            ),
            (
                Kind::Required,
                "The winner is the player with the higher score the server sent",
                FINISHED_AND_WINNER,
                winner_has_the_higher_score,
            ),
            (
                Kind::Required,
                "A clear win: black, who holds the whole board, wins",
                "The server is responsible for maintaining a valid gamestate, so it handles things like removing captured stones, calculating the scores and making sure the game flow is maintained.",
                clear_win,
            ),
            (
                Kind::Required,
                "A pass, a move, a pass: passes that are not consecutive do not end the game",
                "REQUEST_REMATCH: Sent to both players after the game is finished by 2 passes",
                passes_apart,
            ),
            (
                Kind::Required,
                "REQUEST_REMATCH goes to both players after two passes",
                "REQUEST_REMATCH: Sent to both players after the game is finished by 2 passes",
                rematch_requested,
            ),
            (
                Kind::Required,
                "Both say yes: ACKNOWLEDGE_REMATCH+1, then ACKNOWLEDGE_CONFIG with the same size and colours",
                "When the game is finished the server asks the players if they want to play a rematch, if both respond with yes the game is restarted with the same config.",
                both_say_yes,
            ),
            (
                Kind::Required,
                "The rematch is played from an empty board",
                "This new game is commenced with a new `ACKNOWLEDGE_CONFIG` command.",
                rematch_is_played,
            ),
            (
                Kind::Required,
                "One says no: the other is told ACKNOWLEDGE_REMATCH+0",
                "If one of the players responds negative the other player is notified.",
                one_says_no,
            ),
            (
                Kind::Required,
                "A move after GAME_FINISHED is refused",
                FINISHED_AND_WINNER,
                move_after_the_end,
            ),
            (
                Kind::Choice,
                "The score: Tromp-Taylor area scoring, and komi",
                "`$SCORE`: **String**. `$POINTS_BLACK;$POINTS_WHITE`",
                area_score,
            ),
            (
                Kind::Choice,
                "A draw: both pass at once on an empty board",
                "`$WINNER`: **String**. Username of the winning player.",
                draw,
            ),
            (
                Kind::Choice,
                "The status in the acknowledgement of the final pass",
                "`$STATUS`: **String**. Status of the game. Can be `PLAYING`, `FINISHED`.",
                final_status,
            ),
            (
                Kind::Choice,
                "The one who said no to a rematch is told too",
                "If one of the players responds negative the other player is notified.",
                the_one_who_said_no,
            ),
            (
                Kind::Choice,
                "After a declined rematch, a client sends HANDSHAKE again",
                "The protocol is started when a player opens a socket connection to the server.",
                handshake_again,
            ),
        ],
    )
}

/// A 5x5 game with a few moves (black ahead), ended by two passes.
fn ended(probe: &mut Probe) -> Step<(Match, Ending)> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, 6, 13, 7, 11])?;
    let ending = game.end_by_passes()?;
    Ok((game, ending))
}

/// [`ended`], and both players have read REQUEST_REMATCH: the question is open on the
/// server, so an answer sent now answers it, whatever the machine's speed.
fn asked(probe: &mut Probe) -> Step<Match> {
    let (mut game, _ending) = ended(probe)?;
    request_rematch(&mut game.black)?;
    request_rematch(&mut game.white)?;
    Ok(game)
}

fn final_pass_acknowledged(probe: &mut Probe) -> Step<Finding> {
    let (_game, ending) = ended(probe)?;
    for (colour, state) in [Colour::Black, Colour::White]
        .into_iter()
        .zip(&ending.final_state)
    {
        ensure(
            state.is_some(),
            format!("{colour}: ACKNOWLEDGE_MOVE of the final pass, then GAME_FINISHED"),
            "GAME_FINISHED without the acknowledgement of the final pass",
        )?;
    }
    Ok(Finding::Pass)
}

fn game_finished_to_both(probe: &mut Probe) -> Step<Finding> {
    let (game, ending) = ended(probe)?;
    let [black, white] = &ending.finished;
    for finished in [black, white] {
        ensure(
            finished.game_id == game.id,
            format!("GAME_FINISHED+{}+... (this game's id)", game.id),
            format!("GAME_FINISHED+{}+...", finished.game_id),
        )?;
    }
    ensure(
        (&black.winner, &black.black, &black.white) == (&white.winner, &white.black, &white.white),
        "the same winner and score to both players",
        format!("{} to black, {} to white", result(black), result(white)),
    )?;
    Ok(Finding::Pass)
}

/// `winner Ann, 6;1`: a result as reports show it.
fn result(finished: &Finished) -> String {
    format!(
        "winner '{}', {};{}",
        finished.winner.as_deref().unwrap_or(""),
        finished.black,
        finished.white
    )
}

fn winner_has_the_higher_score(probe: &mut Probe) -> Step<Finding> {
    let (game, ending) = ended(probe)?;
    let finished = &ending.finished[0];
    let (black, white) = points(finished)?;
    let expected = match black.partial_cmp(&white) {
        Some(std::cmp::Ordering::Greater) => Some(&game.black.name),
        Some(std::cmp::Ordering::Less) => Some(&game.white.name),
        _ => None,
    };
    if let Some(expected) = expected {
        ensure(
            finished.winner.as_ref() == Some(expected),
            format!(
                "the winner {expected}, whose score is the higher of {};{}",
                finished.black, finished.white
            ),
            format!("the winner '{}'", finished.winner.as_deref().unwrap_or("")),
        )?;
    }
    Ok(Finding::Pass)
}

/// The two scores of a GAME_FINISHED as numbers.
fn points(finished: &Finished) -> Step<(f64, f64)> {
    let parse = |text: &str| {
        text.parse::<f64>()
            .map_err(|_| Failure::new("a score that is a number", text.to_string()))
    };
    Ok((parse(&finished.black)?, parse(&finished.white)?))
}

fn clear_win(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    // Black places four stones while white passes in between: black's area is the whole
    // board, and so is its territory; white has nothing.
    game.play_all(&[6, -1, 8, -1, 16, -1, 18])?;
    let ending = game.end_by_passes()?;
    for finished in &ending.finished {
        ensure(
            finished.winner.as_ref() == Some(&game.black.name),
            format!("the winner {} (black holds every point)", game.black.name),
            result(finished),
        )?;
    }
    probe.show("black's board", game.rows());
    Ok(Finding::Pass)
}

fn passes_apart(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    // Each `play` expects the state PLAYING.
    game.play_all(&[-1, 12, -1, 6, -1, 18])?;
    Ok(Finding::Pass)
}

/// Reads REQUEST_REMATCH from `client`.
fn request_rematch(client: &mut GoClient) -> Step<()> {
    client.expect("REQUEST_REMATCH", |m| {
        matches!(m, ServerMessage::RequestRematch).then_some(())
    })
}

/// Reads ACKNOWLEDGE_REMATCH from `client`: its answer.
fn rematch_answer(client: &mut GoClient, expected: bool) -> Step<bool> {
    client.expect(
        &format!("ACKNOWLEDGE_REMATCH+{}", u8::from(expected)),
        |m| match m {
            ServerMessage::AcknowledgeRematch { rematch } if rematch == expected => Some(rematch),
            _ => None,
        },
    )
}

fn rematch_requested(probe: &mut Probe) -> Step<Finding> {
    let (mut game, _ending) = ended(probe)?;
    request_rematch(&mut game.black)?;
    request_rematch(&mut game.white)?;
    Ok(Finding::Pass)
}

/// Both players answer yes; both hear ACKNOWLEDGE_REMATCH+1 and ACKNOWLEDGE_CONFIG, the
/// same size and colours as before; the engine starts again.
fn rematch(game: &mut Match) -> Step<()> {
    for colour in [Colour::Black, Colour::White] {
        game.client(colour)
            .send(&ClientCommand::SetRematch { rematch: true })?;
    }
    let size = game.size;
    for colour in [Colour::Black, Colour::White] {
        let client = game.client(colour);
        rematch_answer(client, true)?;
        let again = config(client)?;
        ensure(
            again.size == size && again.colour == colour,
            format!(
                "ACKNOWLEDGE_CONFIG with the same config: {size}x{size}, {colour} ({})",
                colour.number()
            ),
            format!(
                "{0}x{0}, {1} ({2})",
                again.size,
                again.colour,
                again.colour.number()
            ),
        )?;
        ensure(
            again.state.board == "0".repeat(size * size) && again.state.status == Progress::Playing,
            "an empty board, PLAYING, in the new ACKNOWLEDGE_CONFIG",
            again.state.to_string(),
        )?;
        game.configs[slot(colour)] = again;
    }
    game.engine = Game::new(size, Rules::default())
        .map_err(|e| Failure::new("a board the checker can referee", e.to_string()))?;
    Ok(())
}

fn both_say_yes(probe: &mut Probe) -> Step<Finding> {
    let mut game = asked(probe)?;
    rematch(&mut game)?;
    Ok(Finding::Pass)
}

fn rematch_is_played(probe: &mut Probe) -> Step<Finding> {
    let mut game = asked(probe)?;
    rematch(&mut game)?;
    game.play_all(&[12, 6])?;
    Ok(Finding::Pass)
}

fn one_says_no(probe: &mut Probe) -> Step<Finding> {
    let mut game = asked(probe)?;
    game.white
        .send(&ClientCommand::SetRematch { rematch: false })?;
    rematch_answer(&mut game.black, false)?;
    Ok(Finding::Pass)
}

/// The document obliges nothing here ("the other player is notified"), so the
/// verdict is what came within the answer timeout.
fn the_one_who_said_no(probe: &mut Probe) -> Step<Finding> {
    let mut game = asked(probe)?;
    game.white
        .send(&ClientCommand::SetRematch { rematch: false })?;
    let wait = probe.answer();
    let server = match answer_or_silence(&mut game.white, wait)?.as_str() {
        "answered ACKNOWLEDGE_REMATCH+0" => "told ACKNOWLEDGE_REMATCH+0".to_string(),
        "no answer" => format!("told nothing within {} ms", wait.as_millis()),
        other => other.to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "told ACKNOWLEDGE_REMATCH+0".to_string(),
    })
}

fn move_after_the_end(probe: &mut Probe) -> Step<Finding> {
    let (mut game, _ending) = ended(probe)?;
    let command = game.move_command(Colour::Black, 0);
    game.black.send(&command)?;
    // REQUEST_REMATCH may come first: another case checks it.
    loop {
        match game
            .black
            .next("INVALID_MOVE or UNKNOWN_COMMAND: the game is over")?
        {
            ServerMessage::RequestRematch => continue,
            ServerMessage::InvalidMove { .. } | ServerMessage::UnknownCommand { .. } => {
                return Ok(Finding::Pass);
            }
            other => {
                return Err(Failure::new(
                    "INVALID_MOVE or UNKNOWN_COMMAND: the game is over",
                    other.to_string(),
                ));
            }
        }
    }
}

fn area_score(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    // The game of the README: black's move at 5 takes white's stones at 0 and 1.
    game.play_all(&[6, 7, 12, 1, 2, 0, 5])?;
    let ending = game.end_by_passes()?;
    let area = game.engine.score();
    let finished = &ending.finished[0];
    Ok(Finding::Open {
        server: format!("black {}, white {}", finished.black, finished.white),
        goserver: format!("black {}, white {}", area.black_text(), area.white_text()),
    })
}

fn draw(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let ending = game.end_by_passes()?;
    let finished = &ending.finished[0];
    let winner = match &finished.winner {
        None => "no winner (an empty field)".to_string(),
        Some(name) if *name == game.black.name => "black wins".to_string(),
        Some(name) if *name == game.white.name => "white wins".to_string(),
        Some(name) => format!("the winner '{name}'"),
    };
    Ok(Finding::Open {
        server: format!("{winner}, {};{}", finished.black, finished.white),
        goserver: "no winner (an empty field), 0;0".to_string(),
    })
}

fn final_status(probe: &mut Probe) -> Step<Finding> {
    let (_game, ending) = ended(probe)?;
    let server = match &ending.final_state[0] {
        Some(state) if state.status == Progress::Finished => "FINISHED".to_string(),
        Some(_) => "PLAYING".to_string(),
        None => "no acknowledgement of the final pass".to_string(),
    };
    Ok(Finding::Open {
        server,
        goserver: "FINISHED".to_string(),
    })
}

/// Black HANDSHAKEs only once it has been told of white's "no" (ACKNOWLEDGE_REMATCH+0,
/// which the document obliges): the server has ended the rematch question by then,
/// so the verdict is the server's choice, not the machine's timing.
fn handshake_again(probe: &mut Probe) -> Step<Finding> {
    let mut game = asked(probe)?;
    game.white
        .send(&ClientCommand::SetRematch { rematch: false })?;
    rematch_answer(&mut game.black, false)?;
    let name = game.black.name.clone();
    game.black.send(&ClientCommand::Handshake { name })?;
    let server = match game
        .black
        .next("ACKNOWLEDGE_HANDSHAKE, or a refusal of HANDSHAKE")?
    {
        ServerMessage::AcknowledgeHandshake { .. } => {
            "matched anew (ACKNOWLEDGE_HANDSHAKE)".to_string()
        }
        ServerMessage::UnknownCommand { .. } => "refused with UNKNOWN_COMMAND".to_string(),
        other => format!("answered {other}"),
    };
    Ok(Finding::Open {
        server,
        goserver: "matched anew (ACKNOWLEDGE_HANDSHAKE)".to_string(),
    })
}
