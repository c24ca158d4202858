//! The exam's wire: what a real server's lines look like on the wire, which a client
//! must take as they come: lines in pieces, lines together, a slow server, scores with
//! decimals, CR LF line ends. Measured: what the client did, and a failure only when it
//! broke (a wrong line, or none).

use super::super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::Probe;
use super::host::{Host, Start, greeted, set_config};
use crate::frontend::go::protocol::ServerMessage;
use std::time::{Duration, Instant};

/// The section.
pub const SECTION: Section = Section {
    slug: "wire",
    title: "Lines as real servers send them",
};

const LINES: &str = "The protocol uses a simple structure of `commands` and `parameters` delimited by a `+` sign and terminated by a new line. Commands are sent over a simple socket connection.";

/// How long the slow server waits before each of its answers.
const SLOW: Duration = Duration::from_secs(2);

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Measure,
                "A line split across TCP segments (ACKNOWLEDGE_CONFIG in three pieces)",
                LINES,
                split_line,
            ),
            (
                Kind::Measure,
                "Two lines in one segment (ACKNOWLEDGE_HANDSHAKE and REQUEST_CONFIG together)",
                LINES,
                two_lines,
            ),
            (
                Kind::Measure,
                "A slow server: every answer 2 s late",
                LINES,
                slow_server,
            ),
            (
                Kind::Measure,
                "Scores written with decimals (45.0;36.5), as the course's servers do",
                "`$SCORE`: **String**. `$POINTS_BLACK;$POINTS_WHITE`",
                decimal_scores,
            ),
            (Kind::Measure, "Lines that end in CR LF", LINES, crlf),
        ],
    )
}

fn split_line(probe: &mut Probe) -> Step<Finding> {
    let start = Start::black(5);
    let (mut wire, asked) = greeted(probe)?;
    let config = super::host::handshake_answered(&mut wire, &start)?;
    let line = format!(
        "{}\n",
        ServerMessage::AcknowledgeConfig {
            name: asked.clone(),
            colour: start.colour,
            size: 5,
            state: crate::frontend::go::protocol::GameState {
                status: crate::frontend::go::protocol::Progress::Playing,
                to_move: crate::engine::go::Colour::Black,
                board: "0".repeat(25),
            },
            opponent: "Referee".into(),
        }
    );
    let bytes = line.as_bytes();
    let thirds = [0, bytes.len() / 3, 2 * bytes.len() / 3, bytes.len()];
    for piece in thirds.windows(2) {
        wire.send_bytes(&bytes[piece[0]..piece[1]], "a third of ACKNOWLEDGE_CONFIG")?;
        std::thread::sleep(Duration::from_millis(100));
    }
    // The game as the client now has it; its first move must be legal on it.
    let mut host = Host::seated_silently(wire, asked, config, &start)?;
    host.client_moves()?;
    Ok(Finding::Measured {
        summary: "took the line in pieces, and moved".to_string(),
    })
}

fn two_lines(probe: &mut Probe) -> Step<Finding> {
    let start = Start::black(5);
    let (mut wire, asked) = greeted(probe)?;
    let config = greeting_in_one_write(&mut wire, &start, "\n", "in one write")?;
    let mut host = Host::seated(wire, asked, Some(config), &start)?;
    host.client_moves()?;
    Ok(Finding::Measured {
        summary: "answered both lines of the segment".to_string(),
    })
}

fn slow_server(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    let began = Instant::now();
    for _ in 0..2 {
        let mv = host.next_move()?;
        std::thread::sleep(SLOW);
        host.game.play(host.colour, mv).map_err(|why| {
            super::super::super::case::Failure::new("a legal move", why.to_string())
        })?;
        host.acknowledge_played(mv, host.colour)?;
        std::thread::sleep(SLOW);
        let reply = host.opponent_choice();
        host.opponent(reply)?;
    }
    host.client_moves()?;
    Ok(Finding::Measured {
        summary: format!(
            "waited for each late answer and moved: three moves in {:.1} s",
            began.elapsed().as_secs_f64()
        ),
    })
}

fn decimal_scores(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Start::black(5))?;
    host.client_moves()?;
    let name = host.name.clone();
    host.send(&ServerMessage::GameFinished {
        game_id: host.id,
        winner: Some(name),
        black_score: "45.0".into(),
        white_score: "36.5".into(),
        message: "Both players passed".into(),
    })?;
    host.send(&ServerMessage::RequestRematch)?;
    host.rematch_answer()?;
    Ok(Finding::Measured {
        summary: "took the scores 45.0;36.5 and answered the rematch question".to_string(),
    })
}

fn crlf(probe: &mut Probe) -> Step<Finding> {
    let start = Start::black(5);
    let (mut wire, asked) = greeted(probe)?;
    let config = greeting_in_one_write(&mut wire, &start, "\r\n", "each ending in CR LF")?;
    let mut host = Host::seated_with(wire, asked, Some(config), &start, true)?;
    host.play(3)?;
    Ok(Finding::Measured {
        summary: "played three moves on lines that end in CR LF".to_string(),
    })
}

/// ACKNOWLEDGE_HANDSHAKE (leader) and REQUEST_CONFIG in one write, each ended by
/// `line_end` (`how` says so in the log); the client's SET_CONFIG that answers them.
fn greeting_in_one_write(
    wire: &mut super::super::super::wire::Wire,
    start: &Start,
    line_end: &str,
    how: &str,
) -> Step<(u8, u32)> {
    let greeting = format!(
        "{}{line_end}{}{line_end}",
        ServerMessage::AcknowledgeHandshake {
            game_id: start.id,
            is_leader: true
        },
        ServerMessage::RequestConfig {
            message: start.request.clone()
        }
    );
    wire.send_bytes(
        greeting.as_bytes(),
        &format!("ACKNOWLEDGE_HANDSHAKE and REQUEST_CONFIG, {how}"),
    )?;
    set_config(wire, start.id)
}
