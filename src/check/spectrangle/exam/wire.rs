//! The exam's wire: what a real server's lines look like on the wire, which a client
//! must take as they come: lines in pieces, lines together, a slow server, CR LF line
//! ends, a long LOBBY, a tile spelled in another rotation, runs of blanks. Measured:
//! what the client did, and a failure only when it broke (a wrong line, or none).

use super::super::super::case::{Case, Finding, Kind, Section, Step, numbered};
use super::super::super::probe::Probe;
use super::host::{Deal, Host, joined};
use crate::frontend::spectrangle::protocol::ServerMessage;
use std::time::{Duration, Instant};

/// The section.
pub const SECTION: Section = Section {
    slug: "wire",
    title: "Lines as real servers send them",
};

const LINES: &str = "Values between angle brackets ( < > ) indicate a required argument. [...] An ellipsis (...) indicates the possible repetition of the (group of) arguments since the last whitespace.";

/// How long the slow server waits before each of its answers.
const SLOW: Duration = Duration::from_secs(2);

/// Names in the long LOBBY besides the game's.
const CROWD: usize = 200;

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Measure,
                "A line split across TCP segments (START in three pieces)",
                LINES,
                split_line,
            ),
            (
                Kind::Measure,
                "Lines together: START and the whole deal of a game of three in one segment",
                LINES,
                lines_together,
            ),
            (
                Kind::Measure,
                "A slow server: every answer 2 s late",
                LINES,
                slow_server,
            ),
            (Kind::Measure, "Lines that end in CR LF", LINES, crlf),
            (
                Kind::Measure,
                "A long LOBBY: 200 other names before its own",
                "LOBBY [playerName] ... lists the other players that are in the lobby.",
                long_lobby,
            ),
            (
                Kind::Measure,
                "UPDATE spells each placed tile in another rotation of its letters (YRR2 for RRY0)",
                "A tile is always represented by 3 letters and one digit (eg. PPY1). When rotated 0 degrees, tiles are numbered counterclockwise, starting at the 'horizontal' face.",
                respelled,
            ),
            (
                Kind::Measure,
                "Runs of blanks between the fields of every line",
                LINES,
                wide,
            ),
        ],
    )
}

/// The client joined, a LOBBY with the other players and it, its READY: the game
/// dealt as `deal`, not started.
fn readied(probe: &mut Probe, deal: &Deal) -> Step<Host> {
    let (wire, name) = joined(probe)?;
    let mut host = Host::seated(wire, name, deal, probe.quiet())?;
    let lobby = [host.opponents(), vec![host.name.clone()]].concat();
    host.lobby(&lobby)?;
    host.ready()?;
    Ok(host)
}

fn split_line(probe: &mut Probe) -> Step<Finding> {
    let mut host = readied(probe, &Deal::new(2, 0).seed(41))?;
    let line = format!(
        "{}\n",
        ServerMessage::Start {
            players: host.players.clone()
        }
    );
    let bytes = line.as_bytes();
    let thirds = [0, bytes.len() / 3, 2 * bytes.len() / 3, bytes.len()];
    for piece in thirds.windows(2) {
        host.wire
            .send_bytes(&bytes[piece[0]..piece[1]], "a third of START")?;
        std::thread::sleep(Duration::from_millis(100));
    }
    host.deal_out()?;
    host.after_deal()?;
    host.play(2)?;
    Ok(Finding::Measured {
        summary: "took START in pieces, and played two moves".to_string(),
    })
}

fn lines_together(probe: &mut Probe) -> Step<Finding> {
    let mut host = readied(probe, &Deal::new(3, 0).seed(42))?;
    let mut text = format!(
        "{}\n",
        ServerMessage::Start {
            players: host.players.clone()
        }
    );
    for (seat, hand) in host.hands.iter().enumerate() {
        for &tile in hand {
            let tile = ServerMessage::Tile {
                player: host.players[seat].clone(),
                tile,
            };
            text.push_str(&format!("{tile}\n"));
        }
    }
    host.wire.send_bytes(
        text.as_bytes(),
        "START and the twelve TILE lines of the deal in one write",
    )?;
    host.after_deal()?;
    host.play(2)?;
    Ok(Finding::Measured {
        summary: "took thirteen lines in one segment, and played two moves".to_string(),
    })
}

fn slow_server(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 0).seed(43))?;
    let began = Instant::now();
    for _ in 0..2 {
        let (mv, line) = host.next_move()?;
        host.judge(mv, &line)?;
        std::thread::sleep(SLOW);
        host.make(mv)?;
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

fn crlf(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start_with(probe, &Deal::new(2, 0).seed(44), |host| host.crlf = true)?;
    host.play(3)?;
    Ok(Finding::Measured {
        summary: "played three moves on lines that end in CR LF".to_string(),
    })
}

fn long_lobby(probe: &mut Probe) -> Step<Finding> {
    let (wire, name) = joined(probe)?;
    let mut host = Host::seated(wire, name, &Deal::new(2, 0).seed(45), probe.quiet())?;
    let crowd = (1..=CROWD)
        .map(|n| format!("Guest{n}"))
        .filter(|n| *n != host.name && !host.players.contains(n));
    let lobby: Vec<String> = crowd
        .chain(host.opponents())
        .chain([host.name.clone()])
        .collect();
    host.lobby(&lobby)?;
    host.ready()?;
    host.start_game()?;
    host.play(2)?;
    Ok(Finding::Measured {
        summary: format!(
            "took a LOBBY of {} names, said READY, and played two moves",
            lobby.len()
        ),
    })
}

fn respelled(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start(probe, &Deal::new(2, 1).seed(46))?;
    host.respell = true;
    host.play(4)?;
    host.show(probe, "after four moves of the client's");
    Ok(Finding::Measured {
        summary:
            "took UPDATE lines with the tiles spelled in other rotations, and played four moves"
                .to_string(),
    })
}

fn wide(probe: &mut Probe) -> Step<Finding> {
    let mut host = Host::start_with(probe, &Deal::new(2, 1).seed(47), |host| host.wide = true)?;
    host.play(3)?;
    Ok(Finding::Measured {
        summary: "took lines with three blanks between fields, and played three moves".to_string(),
    })
}
