//! Moves: MOVE and its acknowledgement, turns, and the refusals of malformed moves.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::Probe;
use super::client::GoClient;
use super::handshake::answer_or_silence;
use super::play::Match;
use crate::frontend::go::protocol::{ClientCommand, ColourChoice, GameId, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "moves",
    title: "Moves",
};

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "Black's first move is acknowledged to both players with the new state",
                "After this the currently active player can send a move to the server which can acknowledge the move and broadcast a new status.",
                first_move,
            ),
            (
                Kind::Required,
                "Moves alternate, each acknowledged to both with the colour to move next",
                "`$CURRENT_PLAYER`: **Int**. Color of the player who should make the next move.",
                moves_alternate,
            ),
            (
                Kind::Required,
                "A move out of turn is refused and changes nothing",
                "After this the currently active player can send a move to the server which can acknowledge the move and broadcast a new status.",
                out_of_turn,
            ),
            (
                Kind::Required,
                "A move on an occupied point is refused",
                "The server is responsible for maintaining a valid gamestate, so it handles things like removing captured stones, calculating the scores and making sure the game flow is maintained.",
                occupied,
            ),
            (
                Kind::Required,
                "A refused move leaves the turn with the mover",
                "After this the currently active player can send a move to the server which can acknowledge the move and broadcast a new status.",
                turn_stays_after_a_refusal,
            ),
            (
                Kind::Required,
                "A move off the board (index size * size) is refused",
                "The index is one dimensional so for an `n * n` board placing a tile on row `i` column `j` the index is `i * n + j`.",
                off_the_board,
            ),
            (
                Kind::Required,
                "A negative index other than -1 is refused",
                "`$TILE_INDEX`: **int**. Tile you want to place your stone on. [...] `-1` for passing.",
                negative_index,
            ),
            (
                Kind::Required,
                "The first and last points (0 and size * size - 1) are on the board",
                "The index is one dimensional so for an `n * n` board placing a tile on row `i` column `j` the index is `i * n + j`.",
                corners,
            ),
            (
                Kind::Required,
                "A pass (-1) is acknowledged to both, with index -1",
                "`$TILE_INDEX`: **int**. Tile you want to place your stone on. [...] `-1` for passing.",
                pass,
            ),
            (
                Kind::Required,
                "A move with another game's id is refused",
                "`$GAME_ID`: **int**. Game id provided by the server on the initial handshake.",
                wrong_game_id,
            ),
            (
                Kind::Required,
                "A move that names the opponent is refused",
                "`$PLAYER_NAME`: **String**. Username as set in the initial handshake.",
                opponent_s_name,
            ),
            (
                Kind::Required,
                "A move whose index is not a number is refused",
                "UNKNOWN_COMMAND: Returned when a command is not recognized or invalid.",
                index_not_a_number,
            ),
            (
                Kind::Required,
                "A MOVE with too few fields is refused",
                "The order of the parameters is strictly defined in the command and it is assumed this order is followed.",
                too_few_fields,
            ),
            (
                Kind::Required,
                "Two games at once: each player hears only its own game",
                "ACKNOWLEDGE_MOVE: `$GAME_ID`: **Int** Game id provided by the server in the initial handshake.",
                two_games_apart,
            ),
            (
                Kind::Choice,
                "The draft protocol's PASS+<game id>+<name>",
                "`-1` for passing.",
                draft_pass,
            ),
            (
                Kind::Choice,
                "A keyword in lower case (move)",
                "Commands have a set String representation which will be provided in a later section.",
                lower_case,
            ),
            (
                Kind::Choice,
                "A line that ends in \\r\\n, as Windows clients send it",
                "Every command has to be sent on a new line.",
                crlf,
            ),
            (
                Kind::Choice,
                "Blanks around the fields (MOVE + <id> + <name> + <index>)",
                "The protocol uses a simple structure of `commands` and `parameters` delimited by a `+` sign and terminated by a new line.",
                blanks_around_fields,
            ),
            (
                Kind::Required,
                "A line whose keyword is no command is refused with UNKNOWN_COMMAND",
                "UNKNOWN_COMMAND: Returned when a command is not recognized or invalid.",
                unknown_keyword,
            ),
        ],
    )
}

fn first_move(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play(12)?;
    Ok(Finding::Pass)
}

fn moves_alternate(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, 7, 11, 13, 17, 6])?;
    probe.show("after six moves", game.rows());
    Ok(Finding::Pass)
}

fn out_of_turn(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let waiting = game.to_move().opponent();
    let command = game.move_command(waiting, 12);
    game.client(waiting).send(&command)?;
    game.client(waiting).refusal(&format!(
        "{waiting} moved, but {} is to move",
        waiting.opponent()
    ))?;
    // The board has no stone of the refused move, and the other player heard nothing
    // of it: its next line is this move's acknowledgement.
    game.play(6)?;
    Ok(Finding::Pass)
}

fn occupied(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play(12)?;
    game.refused(12)?;
    Ok(Finding::Pass)
}

fn turn_stays_after_a_refusal(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play(12)?;
    game.refused(12)?;
    game.play(13)?;
    Ok(Finding::Pass)
}

fn off_the_board(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let points = points(&game);
    game.refused(points)?;
    game.play(points - 1)?;
    Ok(Finding::Pass)
}

/// The number of points of the game's board (the first index off it).
fn points(game: &Match) -> i64 {
    i64::try_from(game.size * game.size).unwrap_or(i64::MAX)
}

fn negative_index(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.refused(-2)?;
    game.play(0)?;
    Ok(Finding::Pass)
}

fn corners(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let points = points(&game);
    let side = i64::try_from(game.size).unwrap_or(0);
    game.play_all(&[0, points - 1, side - 1, points - side])?;
    probe.show("the four corners", game.rows());
    Ok(Finding::Pass)
}

fn pass(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, -1, 6])?;
    Ok(Finding::Pass)
}

fn wrong_game_id(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let colour = game.to_move();
    let other_id = GameId(game.id.0.wrapping_add(1000));
    let player = game.client(colour).name.clone();
    game.client(colour).send(&ClientCommand::Move {
        game_id: other_id,
        player,
        index: 12,
    })?;
    game.client(colour).refusal(&format!(
        "a MOVE for game {other_id}, which this player is not in"
    ))?;
    game.play(12)?;
    Ok(Finding::Pass)
}

fn opponent_s_name(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let colour = game.to_move();
    let player = game.client(colour.opponent()).name.clone();
    let game_id = game.id;
    game.client(colour).send(&ClientCommand::Move {
        game_id,
        player,
        index: 12,
    })?;
    game.client(colour)
        .refusal("a MOVE that names the opponent, not the sender")?;
    game.play(12)?;
    Ok(Finding::Pass)
}

fn index_not_a_number(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("MOVE+{}+{}+C3", game.id, game.black.name);
    game.black.send_line(&line)?;
    game.black.refusal("the index 'C3' is not a number")?;
    game.play(12)?;
    Ok(Finding::Pass)
}

fn too_few_fields(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("MOVE+{}+12", game.id);
    game.black.send_line(&line)?;
    game.black
        .refusal("MOVE has 4 fields: MOVE, game id, name, index")?;
    game.play(12)?;
    Ok(Finding::Pass)
}

fn two_games_apart(probe: &mut Probe) -> Step<Finding> {
    let mut first = Match::start(probe, 5, ColourChoice::Black)?;
    let mut second = Match::start(probe, 5, ColourChoice::Black)?;
    super::super::probe::ensure(
        first.id != second.id,
        "two games at once with different ids",
        format!("both have id {}", first.id),
    )?;
    // Each `play` checks that both players of that game hear its move next.
    first.play(12)?;
    second.play(6)?;
    first.play(7)?;
    second.play(18)?;
    first.play(-1)?;
    second.play(0)?;
    Ok(Finding::Pass)
}

/// Lines that are no command at all, before HANDSHAKE and in a game. The document
/// answers a command that is "not recognized" with UNKNOWN_COMMAND, and keeps
/// INVALID_MOVE for "an invalid move": a line whose keyword is no command is no move, so
/// here (unlike the refusals of commands it knows, where either will do) only
/// UNKNOWN_COMMAND is right. The keyword is no near miss of one (`move` is `moves.16`).
fn unknown_keyword(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Cat");
    let mut stranger = GoClient::connect(probe, &name)?;
    stranger.send_line(&format!("FOO+{name}"))?;
    not_recognized(&mut stranger, "FOO is no command (sent before HANDSHAKE)")?;
    stranger.close();
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("FOO+{}+{}+12", game.id, game.black.name);
    game.black.send_line(&line)?;
    not_recognized(
        &mut game.black,
        "FOO is no command, though its fields are a MOVE's",
    )?;
    game.black.send_line("#!?")?;
    not_recognized(&mut game.black, "'#!?' is no command at all")?;
    // Neither changed the game: black is still to move, at 12.
    game.play(12)?;
    Ok(Finding::Pass)
}

/// Reads the UNKNOWN_COMMAND that answers a line that is no command; `why` says why it
/// is none.
fn not_recognized(client: &mut GoClient, why: &str) -> Step<()> {
    client.expect(&format!("UNKNOWN_COMMAND+<message>: {why}"), |m| {
        matches!(m, ServerMessage::UnknownCommand { .. }).then_some(())
    })
}

fn draft_pass(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("PASS+{}+{}", game.id, game.black.name);
    game.black.send_line(&line)?;
    let server = match game.black.next("an answer to PASS")? {
        ServerMessage::AcknowledgeMove { index: -1, .. } => "accepted as a pass".to_string(),
        ServerMessage::UnknownCommand { .. } => "refused with UNKNOWN_COMMAND".to_string(),
        ServerMessage::InvalidMove { .. } => "refused with INVALID_MOVE".to_string(),
        other => format!("answered {other}"),
    };
    Ok(Finding::Open {
        server,
        goserver: "accepted as a pass".to_string(),
    })
}

fn lower_case(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("move+{}+{}+12", game.id, game.black.name);
    move_variant(probe, &mut game, &line, "refused with UNKNOWN_COMMAND")
}

fn crlf(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("MOVE+{}+{}+12\r", game.id, game.black.name);
    move_variant(probe, &mut game, &line, "accepted")
}

fn blanks_around_fields(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let line = format!("MOVE + {} + {} + 12", game.id, game.black.name);
    move_variant(probe, &mut game, &line, "accepted")
}

/// Black sends `line`, a way of writing its move at 12: accepted or refused?
fn move_variant(probe: &mut Probe, game: &mut Match, line: &str, goserver: &str) -> Step<Finding> {
    game.black.send_line(line)?;
    let answer = probe.answer();
    let server = match answer_or_silence(&mut game.black, answer)? {
        answered if answered.starts_with("answered ACKNOWLEDGE_MOVE") => "accepted".to_string(),
        other => other,
    };
    Ok(Finding::Open {
        server,
        goserver: goserver.to_string(),
    })
}
