//! Configuration: the leader's SET_CONFIG and the ACKNOWLEDGE_CONFIG that starts a game.

use super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::probe::{Probe, ensure};
use super::handshake::answer_or_silence;
use super::play::{Match, config, join, lead};
use crate::engine::go::Colour;
use crate::frontend::go::protocol::{ClientCommand, ColourChoice, GameId, ServerMessage};

/// The section.
pub const SECTION: Section = Section {
    slug: "config",
    title: "Configuration",
};

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "Both players get ACKNOWLEDGE_CONFIG: own name, own colour, the size, an empty board, the opponent",
                "Sent to both players after 2 players have connected and identified themselves and the leader has provided the configuration.",
                both_get_the_configuration,
            ),
            (
                Kind::Required,
                "The leader may configure after its partner has joined",
                "If both players are identified and the configuration is set the server sends out initial game status (e.g. who you are playing, whose turn it is and the current board layout).",
                configure_after_the_partner_joined,
            ),
            (
                Kind::Required,
                "Colour 0 (random) gives the two players different colours",
                "`$PREFERRED_COLOR`: **Int**. integer representation of the color you'd like to play with. (0=random, 1=black, 2=white, 3-9=implemented later)",
                random_colour,
            ),
            (
                Kind::Required,
                "SET_CONFIG from the partner, not the leader, is refused and changes nothing",
                "The first player to connect will have control over the game configuration (e.g. board size, preferred color, number of players).",
                partner_cannot_configure,
            ),
            (
                Kind::Required,
                "SET_CONFIG with another game's id is refused",
                "`$GAME_ID`: **Int**. Game id provided by the server in the initial handshake.",
                wrong_game_id,
            ),
            (
                Kind::Required,
                "SET_CONFIG whose colour is not a number is refused",
                "UNKNOWN_COMMAND: Returned when a command is not recognized or invalid.",
                colour_not_a_number,
            ),
            (
                Kind::Required,
                "A board size of 0 is refused",
                "`$BOARD_SIZE`: **Int**. Preferred board dimensions. Give `n` for an `n * n` board.",
                size_zero,
            ),
            (
                Kind::Choice,
                "The leader asks for white",
                "Set the game configuration and the color you'd like to play with.",
                leader_asks_for_white,
            ),
            (
                Kind::Choice,
                "The leader asks for black",
                "Set the game configuration and the color you'd like to play with.",
                leader_asks_for_black,
            ),
            (
                Kind::Choice,
                "A 19x19 board",
                "`$BOARD_SIZE`: **Int**. Preferred board dimensions. Give `n` for an `n * n` board.",
                size_19,
            ),
            (
                Kind::Choice,
                "A 5x5 board",
                "`$BOARD_SIZE`: **Int**. Preferred board dimensions. Give `n` for an `n * n` board.",
                size_5,
            ),
            (
                Kind::Choice,
                "A 25x25 board",
                "`$BOARD_SIZE`: **Int**. Preferred board dimensions. Give `n` for an `n * n` board.",
                size_25,
            ),
            (
                Kind::Choice,
                "Who moves first",
                "`$CURRENT_PLAYER`: **Int**. Color of the player who should make the next move.",
                who_moves_first,
            ),
            (
                Kind::Choice,
                "The short SET_CONFIG of the document's own REQUEST_CONFIG example (no game id)",
                "REQUEST_CONFIG+Please provide a preferred configuration using the SET_CONFIG+$PREFERRED_COLOR+$BOARD_SIZE",
                short_form,
            ),
            (
                Kind::Choice,
                "Colour 3 (\"3-9=implemented later\")",
                "`$PREFERRED_COLOR`: **Int**. integer representation of the color you'd like to play with. (0=random, 1=black, 2=white, 3-9=implemented later)",
                colour_three,
            ),
            (
                Kind::Choice,
                "A second SET_CONFIG once the game has started",
                "Set the game configuration and the color you'd like to play with.",
                second_set_config,
            ),
        ],
    )
}

fn both_get_the_configuration(probe: &mut Probe) -> Step<Finding> {
    // `Match::configured` checks colours, sizes, the empty board and PLAYING.
    let game = Match::start(probe, 9, ColourChoice::Black)?;
    let [black, white] = &game.configs;
    ensure(
        black.opponent == white.name && white.opponent == black.name,
        "each player's ACKNOWLEDGE_CONFIG names the other as opponent",
        format!(
            "black ({}) was told '{}', white ({}) was told '{}'",
            black.name, black.opponent, white.name, white.opponent
        ),
    )?;
    Ok(Finding::Pass)
}

fn configure_after_the_partner_joined(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    let partner = join(probe, "Bob", joined)?;
    leader.send(&ClientCommand::SetConfig {
        game_id: joined.game_id,
        colour: ColourChoice::Black,
        size: 9,
    })?;
    Match::configured(probe, leader, partner, joined.game_id)?;
    Ok(Finding::Pass)
}

fn random_colour(probe: &mut Probe) -> Step<Finding> {
    // `Match::configured` checks that the colours differ.
    Match::start(probe, 9, ColourChoice::Random)?;
    Ok(Finding::Pass)
}

fn partner_cannot_configure(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    let mut partner = join(probe, "Bob", joined)?;
    partner.send(&ClientCommand::SetConfig {
        game_id: joined.game_id,
        colour: ColourChoice::Black,
        size: 7,
    })?;
    partner.refusal("SET_CONFIG from a player who does not lead the game")?;
    leader.send(&ClientCommand::SetConfig {
        game_id: joined.game_id,
        colour: ColourChoice::White,
        size: 5,
    })?;
    let game = Match::configured(probe, leader, partner, joined.game_id)?;
    ensure(
        game.size != 7,
        "the leader's board (5x5), or any but the partner's 7x7",
        "7x7: the partner's SET_CONFIG was applied",
    )?;
    Ok(Finding::Pass)
}

fn wrong_game_id(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    leader.send(&ClientCommand::SetConfig {
        game_id: GameId(joined.game_id.0.wrapping_add(1000)),
        colour: ColourChoice::Black,
        size: 5,
    })?;
    leader.refusal(&format!(
        "SET_CONFIG for game {} from the leader of game {}",
        joined.game_id.0.wrapping_add(1000),
        joined.game_id
    ))?;
    Ok(Finding::Pass)
}

fn colour_not_a_number(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    leader.send_line(&format!("SET_CONFIG+{}+black+5", joined.game_id))?;
    leader.refusal("the colour 'black' is not a number")?;
    Ok(Finding::Pass)
}

fn size_zero(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    leader.send(&ClientCommand::SetConfig {
        game_id: joined.game_id,
        colour: ColourChoice::Black,
        size: 0,
    })?;
    leader.refusal("a 0x0 board has no points to play")?;
    Ok(Finding::Pass)
}

fn leader_asks_for_white(probe: &mut Probe) -> Step<Finding> {
    leader_asks_for(probe, ColourChoice::White, Colour::White)
}

fn leader_asks_for_black(probe: &mut Probe) -> Step<Finding> {
    leader_asks_for(probe, ColourChoice::Black, Colour::Black)
}

fn leader_asks_for(probe: &mut Probe, choice: ColourChoice, colour: Colour) -> Step<Finding> {
    let game = Match::start(probe, 9, choice)?;
    Ok(Finding::Open {
        server: format!("the leader plays {}", game.leader),
        goserver: format!("the leader plays {colour}"),
    })
}

fn size_19(probe: &mut Probe) -> Step<Finding> {
    size_asked(probe, 19)
}

fn size_5(probe: &mut Probe) -> Step<Finding> {
    size_asked(probe, 5)
}

fn size_asked(probe: &mut Probe, size: usize) -> Step<Finding> {
    let game = Match::start(probe, size, ColourChoice::Black)?;
    Ok(Finding::Open {
        server: format!("{0}x{0}", game.size),
        goserver: format!("{size}x{size}"),
    })
}

fn size_25(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    leader.send(&ClientCommand::SetConfig {
        game_id: joined.game_id,
        colour: ColourChoice::Black,
        size: 25,
    })?;
    let mut partner = join(probe, "Bob", joined)?;
    let server = match leader.next("a refusal, or ACKNOWLEDGE_CONFIG")? {
        ServerMessage::AcknowledgeConfig { size, .. } => {
            format!("accepted, the board is {size}x{size}")
        }
        refused @ (ServerMessage::UnknownCommand { .. } | ServerMessage::InvalidMove { .. }) => {
            // Let the game start, so that the partner is not left waiting.
            leader.send(&ClientCommand::SetConfig {
                game_id: joined.game_id,
                colour: ColourChoice::Black,
                size: 5,
            })?;
            config(&mut partner)?;
            format!("refused ({})", keyword(&refused))
        }
        other => format!("answered {other}"),
    };
    // goserver's largest board is --max-board-size, 19 by default.
    Ok(Finding::Open {
        server,
        goserver: "refused (UNKNOWN_COMMAND)".to_string(),
    })
}

fn who_moves_first(probe: &mut Probe) -> Step<Finding> {
    let game = Match::start(probe, 9, ColourChoice::Black)?;
    Ok(Finding::Open {
        server: format!(
            "{} ({})",
            game.configs[0].state.to_move,
            game.configs[0].state.to_move.number()
        ),
        goserver: "black (1)".to_string(),
    })
}

fn short_form(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, _joined) = lead(probe, "Ann")?;
    leader.send_line("SET_CONFIG+1+9")?;
    let quiet = probe.answer();
    let server = answer_or_silence(&mut leader, quiet)?;
    Ok(Finding::Open {
        server,
        goserver: "refused with UNKNOWN_COMMAND".to_string(),
    })
}

fn colour_three(probe: &mut Probe) -> Step<Finding> {
    let (mut leader, joined) = lead(probe, "Ann")?;
    leader.send_line(&format!("SET_CONFIG+{}+3+9", joined.game_id))?;
    let quiet = probe.answer();
    let server = answer_or_silence(&mut leader, quiet)?;
    Ok(Finding::Open {
        server,
        goserver: "refused with UNKNOWN_COMMAND".to_string(),
    })
}

fn second_set_config(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let id = game.id;
    let leader = game.leader;
    game.client(leader).send(&ClientCommand::SetConfig {
        game_id: id,
        colour: ColourChoice::White,
        size: 5,
    })?;
    let quiet = probe.answer();
    let server = answer_or_silence(game.client(leader), quiet)?;
    Ok(Finding::Open {
        server,
        goserver: "refused with UNKNOWN_COMMAND".to_string(),
    })
}

/// `UNKNOWN_COMMAND` or `INVALID_MOVE`, the keyword of a refusal.
fn keyword(message: &ServerMessage) -> &'static str {
    match message {
        ServerMessage::InvalidMove { .. } => "INVALID_MOVE",
        _ => "UNKNOWN_COMMAND",
    }
}
