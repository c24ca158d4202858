//! Robustness and speed: lines in pieces and together, garbage, long lines, floods,
//! many clients and games at once, answer times. The measuring cases fail only where
//! the server crashed, stopped answering others, or broke a game.

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::measure::{
    FLOOD_LINES, answered_at_once, every_one_answered, flood_beside, spread,
};
use super::super::probe::{Probe, ensure};
use super::super::wire::{Heard, Wire, seconds};
use super::client::SpClient;
use super::table::Table;
use crate::engine::rng::Rng;
use crate::frontend::spectrangle::protocol::{ErrorCode, ServerMessage};
use std::time::{Duration, Instant};

/// The section.
pub const SECTION: Section = Section {
    slug: "robustness",
    title: "Robustness and speed",
};

const COMMANDS: &str = "Values between angle brackets ( < > ) indicate a required argument.";
const GAME: &str = "START <playerName> ... The game has started with the players listed. Players take turns in the order listed.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "A line that arrives in pieces is one command",
                COMMANDS,
                line_in_pieces,
            ),
            (
                Kind::Required,
                "A JOIN sent the moment the connection opens is answered",
                "JOIN <playerName> [lobbyName] The player indicates he wants to join a lobby.",
                join_at_once,
            ),
            (
                Kind::Required,
                "Two lines that arrive together are both answered, in order",
                COMMANDS,
                lines_together,
            ),
            (
                Kind::Measure,
                "A line of binary garbage",
                COMMANDS,
                binary_garbage,
            ),
            (Kind::Measure, "A line of 1 MB", COMMANDS, megabyte_line),
            (
                Kind::Measure,
                "A line that is not UTF-8 text",
                COMMANDS,
                not_utf8,
            ),
            (
                Kind::Measure,
                "A flood of 5,000 refused lines, its answers read for 2 s, beside a game",
                GAME,
                flood_read,
            ),
            (
                Kind::Measure,
                "A client that floods and never reads its answers, beside a game",
                GAME,
                flood_unread,
            ),
            (
                Kind::Measure,
                "100 clients join at once",
                GAME,
                many_clients,
            ),
            (
                Kind::Measure,
                "20 games of two at once, ten moves each",
                GAME,
                twenty_games,
            ),
            (
                Kind::Measure,
                "Answer times of a whole game of two",
                GAME,
                answer_times,
            ),
        ],
    )
}

fn line_in_pieces(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    let line = format!("JOIN {name}\n");
    for (n, byte) in line.bytes().enumerate() {
        client.wire().send_bytes(
            &[byte],
            &format!("byte {} of the line {}", n + 1, line.trim_end()),
        )?;
        std::thread::sleep(Duration::from_millis(20));
    }
    client.expect("LOBBY, once the whole line has arrived", |m| {
        matches!(m, ServerMessage::Lobby { .. }).then_some(())
    })?;
    Ok(Finding::Pass)
}

fn join_at_once(probe: &mut Probe) -> Step<Finding> {
    // Five clients, each sending its JOIN with no pause (even with --connect-pause).
    for n in 0..5 {
        let name = probe.name(&format!("now{n}"));
        let mut wire = probe.connect_at_once()?;
        wire.send(&format!("JOIN {name}"))?;
        let line = wire.line("LOBBY to a JOIN sent at once")?;
        ensure(
            matches!(ServerMessage::parse(&line), Ok(ServerMessage::Lobby { .. })),
            "LOBBY <players>",
            line,
        )?;
        wire.send("EXIT")?;
    }
    Ok(Finding::Pass)
}

fn lines_together(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = SpClient::connect(probe, &name)?;
    let both = format!("JOIN {name}\nHELLO\n");
    client.wire().send_bytes(
        both.as_bytes(),
        &format!("JOIN {name} and HELLO in one write"),
    )?;
    client.expect("LOBBY (the answer to the first line)", |m| {
        matches!(m, ServerMessage::Lobby { .. }).then_some(())
    })?;
    client.refused(
        ErrorCode::Unrecognized,
        "the second line, HELLO, is no command",
    )?;
    Ok(Finding::Pass)
}

/// What a fresh client hears after sending `bytes` (logged as `what`).
fn abuse(probe: &mut Probe, bytes: &[u8], what: &str) -> Step<String> {
    let mut wire = probe.connect()?;
    let answer = probe.answer();
    if let Err(failure) = wire.send_bytes(bytes, what) {
        return Ok(format!("the server did not take it all ({})", failure.got));
    }
    Ok(describe(&mut wire, answer))
}

/// What comes on `wire` within `wait`, as a measurement says it.
fn describe(wire: &mut Wire, wait: Duration) -> String {
    match wire.hear(wait) {
        Heard::Line(line) => match ServerMessage::parse(&line) {
            Ok(ServerMessage::Error { code, .. }) => format!("answered ERROR {code}"),
            Ok(message) => format!(
                "answered {}",
                message.to_string().split(' ').next().unwrap_or_default()
            ),
            Err(_) => format!("answered '{}'", super::super::log::shown(&line)),
        },
        Heard::Closed => "the server closed the connection".to_string(),
        Heard::Silent(wait) => format!("no answer within {}", seconds(wait)),
        other => other.describe(),
    }
}

fn binary_garbage(probe: &mut Probe) -> Step<Finding> {
    let mut rng = Rng::new(11);
    let mut bytes: Vec<u8> = (0..2048)
        .map(|_| u8::try_from(rng.below(256)).unwrap_or(0))
        .collect();
    bytes.retain(|&b| b != b'\n');
    bytes.push(b'\n');
    let seen = abuse(probe, &bytes, "2 KB of random bytes and a newline")?;
    Ok(Finding::Measured { summary: seen })
}

fn megabyte_line(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let mut bytes = vec![b'A'; 1 << 20];
    bytes.push(b'\n');
    let seen = abuse(probe, &bytes, "1 MB of 'A' and a newline")?;
    neighbour_moves(&mut table, 2)?;
    Ok(Finding::Measured {
        summary: format!("{seen}; a game beside it went on"),
    })
}

fn not_utf8(probe: &mut Probe) -> Step<Finding> {
    let seen = abuse(
        probe,
        b"JOIN \xff\xfe\xfd\n",
        "JOIN and three bytes that are not UTF-8",
    )?;
    Ok(Finding::Measured { summary: seen })
}

/// Plays `moves` turns of a game that must still be served; returns each one's time.
fn neighbour_moves(table: &mut Table, moves: usize) -> Step<Vec<Duration>> {
    let mut times = Vec::new();
    for _ in 0..moves {
        let began = Instant::now();
        table.auto_move().map_err(|failure| Failure {
            expected: format!("(another client's game goes on) {}", failure.expected),
            ..failure
        })?;
        times.push(began.elapsed());
    }
    Ok(times)
}

fn flood_read(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let mut flooder = probe.connect()?;
    let lines: Vec<u8> = (0..FLOOD_LINES)
        .flat_map(|n| format!("FLOOD {n}\n").into_bytes())
        .collect();
    probe.note(&format!(
        "{} sends {FLOOD_LINES} lines FLOOD <n> as fast as it can and reads the answers (not logged one by one)",
        flooder.who()
    ));
    let (flood, times) = flood_beside(
        &mut flooder,
        &lines,
        Some(FLOOD_LINES),
        probe.answer(),
        || neighbour_moves(&mut table, 4),
    )?;
    Ok(Finding::Measured {
        summary: format!("{flood}; a game beside it: turns {}", spread(&times)),
    })
}

fn flood_unread(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let mut flooder = probe.connect()?;
    let lines: Vec<u8> = (0..4 * FLOOD_LINES)
        .flat_map(|n| format!("FLOOD {n}\n").into_bytes())
        .collect();
    probe.note(&format!(
        "{} sends {} refused lines as fast as it can and never reads an answer",
        flooder.who(),
        4 * FLOOD_LINES
    ));
    let (flood, times) = flood_beside(&mut flooder, &lines, None, probe.answer(), || {
        neighbour_moves(&mut table, 8)
    })?;
    drop(flooder);
    Ok(Finding::Measured {
        summary: format!("{flood}; a game beside it: turns {}", spread(&times)),
    })
}

/// How many clients `many_clients` connects.
const MANY: usize = 100;

fn many_clients(probe: &mut Probe) -> Step<Finding> {
    let mut clients = Vec::with_capacity(MANY);
    for n in 0..MANY {
        let name = probe.name(&format!("c{n}"));
        clients.push(SpClient::connect(probe, &name)?);
    }
    probe.note(&format!(
        "{MANY} clients connected; each sends JOIN at once"
    ));
    let asks: Vec<(&mut Wire, String)> = clients
        .iter_mut()
        .map(|client| {
            let line = format!("JOIN {}", client.name);
            (client.wire(), line)
        })
        .collect();
    let answer = probe.answer();
    every_one_answered(&answered_at_once(asks, answer), "JOIN", answer)
}

/// How many games `twenty_games` plays at once, and how many turns each.
const GAMES: usize = 20;
const GAME_TURNS: usize = 10;

fn twenty_games(probe: &mut Probe) -> Step<Finding> {
    let mut tables = Vec::with_capacity(GAMES);
    for n in 0..GAMES {
        tables.push(Table::start(
            probe,
            &[&format!("Ann{n}"), &format!("Bob{n}")],
        )?);
    }
    probe.note(&format!(
        "{GAMES} games started; each plays {GAME_TURNS} turns on a thread of its own"
    ));
    let began = Instant::now();
    let played: Vec<Step<Vec<Duration>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = tables
            .iter_mut()
            .map(|table| scope.spawn(move || neighbour_moves(table, GAME_TURNS)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(Failure::new("a game's thread to finish", "it panicked"))
                })
            })
            .collect()
    });
    let took = began.elapsed();
    let mut times = Vec::new();
    for game in played {
        times.extend(game?);
    }
    Ok(Finding::Measured {
        summary: format!(
            "{GAMES} games, {} turns in {} ({:.0} turns/s): turns {}",
            times.len(),
            seconds(took),
            times.len() as f64 / took.as_secs_f64().max(1e-9),
            spread(&times)
        ),
    })
}

fn answer_times(probe: &mut Probe) -> Step<Finding> {
    let mut table = Table::start(probe, &["Ann", "Bob"])?;
    let mut times = Vec::new();
    let mut last = Instant::now();
    table.play_to_end(|_| {
        let now = Instant::now();
        times.push(now - last);
        last = now;
        Ok(())
    })?;
    // The first entry is the start itself, not a turn.
    times.remove(0);
    Ok(Finding::Measured {
        summary: format!("{} turns: {}", times.len(), spread(&times)),
    })
}
