//! Robustness and speed: garbage, long lines, floods, a client that stops reading,
//! many games at once, answer times. Most cases measure and report; they fail only
//! where the server crashed, stopped answering other clients, or broke a game (and the
//! runner checks after every case that a fresh client still gets an answer).

use super::super::case::{Case, Failure, Finding, Kind, Section, Step, numbered};
use super::super::measure::{
    FLOOD_LINES, answered_at_once, every_one_answered, flood_beside, spread,
};
use super::super::probe::{Probe, ensure};
use super::super::wire::{Heard, Wire, seconds};
use super::client::GoClient;
use super::play::{Match, random_move};
use crate::engine::rng::Rng;
use crate::frontend::go::protocol::{ClientCommand, ColourChoice, ServerMessage};
use std::time::{Duration, Instant};

/// The section.
pub const SECTION: Section = Section {
    slug: "robustness",
    title: "Robustness and speed",
};

const NEW_LINE: &str = "Commands are sent over a simple socket connection. Every command has to be sent on a new line.";
const GAMESTATE: &str = "The server is responsible for maintaining a valid gamestate, so it handles things like removing captured stones, calculating the scores and making sure the game flow is maintained.";

/// The section's cases.
pub fn cases() -> Vec<Case> {
    numbered(
        SECTION,
        vec![
            (
                Kind::Required,
                "A line that arrives in pieces is one command",
                NEW_LINE,
                line_in_pieces,
            ),
            (
                Kind::Required,
                "A HANDSHAKE sent the moment the connection opens is answered",
                "The protocol is started when a player opens a socket connection to the server.",
                handshake_at_once,
            ),
            (
                Kind::Required,
                "Two lines that arrive together are both answered, in order",
                NEW_LINE,
                lines_together,
            ),
            (
                Kind::Measure,
                "A line of binary garbage",
                NEW_LINE,
                binary_garbage,
            ),
            (Kind::Measure, "A line of 1 MB", NEW_LINE, megabyte_line),
            (
                Kind::Measure,
                "A line that is not UTF-8 text",
                NEW_LINE,
                not_utf8,
            ),
            (Kind::Measure, "An empty line", NEW_LINE, empty_line),
            (
                Kind::Measure,
                "Control characters and a NUL byte in a name",
                NEW_LINE,
                control_characters,
            ),
            (
                Kind::Measure,
                "A client that sends its line and closes its sending side (nc -N)",
                NEW_LINE,
                half_close,
            ),
            (
                Kind::Measure,
                "A client that connects and says nothing, while a game is played",
                GAMESTATE,
                silent_client,
            ),
            (
                Kind::Measure,
                "A disconnect in the middle of a line, in a game",
                "If someone disconnects or exits, the winner is the other person.",
                disconnect_mid_line,
            ),
            (
                Kind::Measure,
                "A flood of 5,000 refused lines, its answers read for 2 s, beside a game",
                GAMESTATE,
                flood_read,
            ),
            (
                Kind::Measure,
                "A client that floods and never reads its answers, beside a game",
                GAMESTATE,
                flood_unread,
            ),
            (
                Kind::Measure,
                "200 clients connect and handshake at once",
                GAMESTATE,
                many_clients,
            ),
            (
                Kind::Measure,
                "50 games at once, 20 moves each",
                GAMESTATE,
                fifty_games,
            ),
            (
                Kind::Measure,
                "Answer times of one game: 200 moves",
                GAMESTATE,
                answer_times,
            ),
            (
                Kind::Choice,
                "How the server ends its lines: LF, or CR LF",
                "The protocol uses a simple structure of `commands` and `parameters` delimited by a `+` sign and terminated by a new line.",
                line_ends,
            ),
        ],
    )
}

fn line_in_pieces(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = GoClient::connect(probe, &name)?;
    let line = format!("HANDSHAKE+{name}\n");
    for (n, byte) in line.bytes().enumerate() {
        client.wire().send_bytes(
            &[byte],
            &format!("byte {} of the line {}", n + 1, line.trim_end()),
        )?;
        std::thread::sleep(Duration::from_millis(20));
    }
    client.expect(
        "ACKNOWLEDGE_HANDSHAKE, once the whole line has arrived",
        |m| matches!(m, ServerMessage::AcknowledgeHandshake { .. }).then_some(()),
    )?;
    Ok(Finding::Pass)
}

fn handshake_at_once(probe: &mut Probe) -> Step<Finding> {
    // Five clients, each sending its HANDSHAKE with no pause (even with --connect-pause).
    for n in 0..5 {
        let name = probe.name(&format!("now{n}"));
        let mut wire = probe.connect_at_once()?;
        wire.send(&ClientCommand::Handshake { name }.to_string())?;
        let line = wire.line("ACKNOWLEDGE_HANDSHAKE to a HANDSHAKE sent at once")?;
        ensure(
            matches!(
                ServerMessage::parse(&line),
                Ok(ServerMessage::AcknowledgeHandshake { .. })
            ),
            "ACKNOWLEDGE_HANDSHAKE+<game id>+<0 or 1>",
            line,
        )?;
    }
    Ok(Finding::Pass)
}

fn lines_together(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let first = game
        .move_command(crate::engine::go::Colour::Black, 12)
        .to_string();
    let second = format!("MOVE+{}+{}+twelve", game.id, game.black.name);
    let both = format!("{first}\n{second}\n");
    game.black.wire().send_bytes(
        both.as_bytes(),
        &format!("{first} and {second} in one write"),
    )?;
    // The first is acknowledged, then the second refused: its index is no number.
    let expected = "ACKNOWLEDGE_MOVE of the first line";
    game.black.expect(expected, |m| {
        matches!(m, ServerMessage::AcknowledgeMove { index: 12, .. }).then_some(())
    })?;
    game.black
        .refusal("the second line: its index 'twelve' is not a number")?;
    Ok(Finding::Pass)
}

/// What a fresh client hears after sending `bytes` (logged as `what`): an answer, a
/// close, silence. A server that takes none of it is measured, not failed.
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
            Ok(message) => format!("answered {}", first_field(&message.to_string())),
            Err(_) => format!("answered '{}'", super::super::log::shown(&line)),
        },
        Heard::Closed => "the server closed the connection".to_string(),
        Heard::Silent(wait) => format!("no answer within {}", seconds(wait)),
        other => other.describe(),
    }
}

/// `UNKNOWN_COMMAND` of `UNKNOWN_COMMAND+...`.
fn first_field(line: &str) -> String {
    line.split('+').next().unwrap_or(line).to_string()
}

/// A game that must still be served: two moves, each acknowledged to both.
fn neighbour_moves(game: &mut Match, moves: &[i64]) -> Step<Vec<Duration>> {
    let mut times = Vec::new();
    for &index in moves {
        let began = Instant::now();
        game.play(index).map_err(|failure| Failure {
            expected: format!("(another client's game goes on) {}", failure.expected),
            ..failure
        })?;
        times.push(began.elapsed());
    }
    Ok(times)
}

fn binary_garbage(probe: &mut Probe) -> Step<Finding> {
    let mut rng = Rng::new(7);
    let mut bytes: Vec<u8> = (0..2048)
        .map(|_| u8::try_from(rng.below(256)).unwrap_or(0))
        .collect();
    bytes.retain(|&b| b != b'\n');
    bytes.push(b'\n');
    let seen = abuse(probe, &bytes, "2 KB of random bytes and a newline")?;
    Ok(Finding::Measured { summary: seen })
}

fn megabyte_line(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    let mut bytes = vec![b'A'; 1 << 20];
    bytes.push(b'\n');
    let seen = abuse(probe, &bytes, "1 MB of 'A' and a newline")?;
    neighbour_moves(&mut game, &[12, 6])?;
    Ok(Finding::Measured {
        summary: format!("{seen}; a game beside it went on"),
    })
}

fn not_utf8(probe: &mut Probe) -> Step<Finding> {
    let seen = abuse(
        probe,
        b"HANDSHAKE+\xff\xfe\xfd\n",
        "HANDSHAKE+ and three bytes that are not UTF-8",
    )?;
    Ok(Finding::Measured { summary: seen })
}

fn empty_line(probe: &mut Probe) -> Step<Finding> {
    let seen = abuse(probe, b"\n", "an empty line")?;
    Ok(Finding::Measured { summary: seen })
}

fn control_characters(probe: &mut Probe) -> Step<Finding> {
    let seen = abuse(
        probe,
        b"HANDSHAKE+a\x00b\x07c\x1b[31m\n",
        "HANDSHAKE with a NUL, a bell and an escape",
    )?;
    Ok(Finding::Measured { summary: seen })
}

fn half_close(probe: &mut Probe) -> Step<Finding> {
    let name = probe.name("Ann");
    let mut client = GoClient::connect(probe, &name)?;
    client.send(&ClientCommand::Handshake { name })?;
    client.wire().finish_sending();
    let answer = probe.answer();
    let seen = describe(client.wire(), answer);
    Ok(Finding::Measured { summary: seen })
}

fn silent_client(probe: &mut Probe) -> Step<Finding> {
    let mut silent = probe.connect()?;
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let times = neighbour_moves(&mut game, &[40, 30, 50, 31, 41, 32])?;
    let fate = describe(&mut silent, Duration::from_millis(10));
    Ok(Finding::Measured {
        summary: format!(
            "a game beside it went on (move answers {}); the silent client: {fate} so far",
            spread(&times)
        ),
    })
}

fn disconnect_mid_line(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, 6])?;
    let half = format!("MOVE+{}+{}+1", game.id, game.black.name);
    game.black
        .wire()
        .send_bytes(half.as_bytes(), &format!("{half} without its newline"))?;
    game.black.wire().disconnect();
    let answer = probe.answer();
    let seen = describe(game.white.wire(), answer);
    Ok(Finding::Measured {
        summary: format!("the other player: {seen}"),
    })
}

fn flood_read(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let mut flooder = probe.connect()?;
    let lines: Vec<u8> = (0..FLOOD_LINES)
        .flat_map(|n| format!("FLOOD+{n}\n").into_bytes())
        .collect();
    probe.note(&format!(
        "{} sends {FLOOD_LINES} lines FLOOD+<n> as fast as it can and reads the answers (not logged one by one)",
        flooder.who()
    ));
    let (flood, times) = flood_beside(
        &mut flooder,
        &lines,
        Some(FLOOD_LINES),
        probe.answer(),
        || neighbour_moves(&mut game, &[40, 30, 50, 31]),
    )?;
    Ok(Finding::Measured {
        summary: format!("{flood}; a game beside it: move answers {}", spread(&times)),
    })
}

fn flood_unread(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let mut flooder = probe.connect()?;
    let lines: Vec<u8> = (0..4 * FLOOD_LINES)
        .flat_map(|n| format!("MOVE+987654+flood+{n}\n").into_bytes())
        .collect();
    probe.note(&format!(
        "{} sends {} refused lines as fast as it can and never reads an answer",
        flooder.who(),
        4 * FLOOD_LINES
    ));
    let (flood, times) = flood_beside(&mut flooder, &lines, None, probe.answer(), || {
        neighbour_moves(&mut game, &[40, 30, 50, 31, 41, 32, 49, 33])
    })?;
    drop(flooder);
    Ok(Finding::Measured {
        summary: format!("{flood}; a game beside it: move answers {}", spread(&times)),
    })
}

/// How many clients `many_clients` connects.
const MANY: usize = 200;

fn many_clients(probe: &mut Probe) -> Step<Finding> {
    let mut clients = Vec::with_capacity(MANY);
    for n in 0..MANY {
        let name = probe.name(&format!("c{n}"));
        clients.push(GoClient::connect(probe, &name)?);
    }
    probe.note(&format!(
        "{MANY} clients connected; each sends HANDSHAKE at once"
    ));
    let asks: Vec<(&mut Wire, String)> = clients
        .iter_mut()
        .map(|client| {
            let line = ClientCommand::Handshake {
                name: client.name.clone(),
            }
            .to_string();
            (client.wire(), line)
        })
        .collect();
    let answer = probe.answer();
    every_one_answered(&answered_at_once(asks, answer), "HANDSHAKE", answer)
}

/// How many games `fifty_games` plays at once, and how many moves each.
const GAMES: usize = 50;
const GAME_MOVES: usize = 20;

fn fifty_games(probe: &mut Probe) -> Step<Finding> {
    let mut games = Vec::with_capacity(GAMES);
    for _ in 0..GAMES {
        games.push(Match::start(probe, 9, ColourChoice::Black)?);
    }
    probe.note(&format!(
        "{GAMES} games started; each plays {GAME_MOVES} random moves on a thread of its own"
    ));
    let began = Instant::now();
    let played: Vec<Step<Vec<Duration>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .iter_mut()
            .enumerate()
            .map(|(n, game)| {
                scope.spawn(move || {
                    let mut rng = Rng::new(n as u64);
                    let mut times = Vec::new();
                    for _ in 0..GAME_MOVES {
                        let Some(index) = random_move(game, &mut rng) else {
                            break;
                        };
                        let began = Instant::now();
                        game.play(index)?;
                        times.push(began.elapsed());
                    }
                    Ok(times)
                })
            })
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
            "{GAMES} games, {} moves in {} ({:.0} moves/s): move answers {}",
            times.len(),
            seconds(took),
            times.len() as f64 / took.as_secs_f64().max(1e-9),
            spread(&times)
        ),
    })
}

fn answer_times(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 9, ColourChoice::Black)?;
    let mut rng = Rng::new(200);
    let mut times = Vec::new();
    while times.len() < 200 {
        let Some(index) = random_move(&game, &mut rng) else {
            break;
        };
        let began = Instant::now();
        game.play(index)?;
        times.push(began.elapsed());
    }
    Ok(Finding::Measured {
        summary: format!("{} moves: answers {}", times.len(), spread(&times)),
    })
}

/// Every line of the start of a game (a handshake, the configuration, two moves and a
/// refusal) is read with its line end. The document says "a new line" and no more, so
/// the choice is open; but a client that splits on `\n` reads a server's CR LF as a
/// `\r` at the end of each last field (`PLAYING;2;...0\r`, `1\r`), and every other
/// case takes the `\r` off and cannot tell.
fn line_ends(probe: &mut Probe) -> Step<Finding> {
    let mut game = Match::start(probe, 5, ColourChoice::Black)?;
    game.play_all(&[12, 6])?;
    game.refused(12)?;
    let ends = game.black.wire().line_ends() + game.white.wire().line_ends();
    probe.note(&format!(
        "of the {} lines the players heard, {} ended in LF alone and {} in CR LF",
        ends.lf + ends.crlf,
        ends.lf,
        ends.crlf
    ));
    Ok(Finding::Open {
        server: ends.describe(),
        goserver: "LF".to_string(),
    })
}
