//! The console's answers as text: tables, the board report, stats. Pure functions of
//! the data they are given, so they are unit-tested without a server.

use super::commands::COMMANDS;
use crate::game::{GameStatus, GameSummary, GameView};
use crate::go::Colour;
use crate::protocol::GameId;
use std::fmt::Write as _;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Left-aligned columns separated by two spaces, a header row first; no trailing blanks.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            if let Some(width) = widths.get_mut(i) {
                *width = (*width).max(cell.chars().count());
            }
        }
    }
    let header: Vec<String> = headers.iter().map(|h| (*h).to_string()).collect();
    std::iter::once(&header)
        .chain(rows)
        .map(|row| {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let width = widths.get(i).copied().unwrap_or(0);
                let _ = write!(line, "{cell:<width$}  ");
            }
            line.trim_end().to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A duration as people read it: `42s`, `3m05s`, `2h03m`, `1d02h`.
pub fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86_400 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

/// The `help` text, from the command table.
pub fn help() -> String {
    let rows: Vec<Vec<String>> = COMMANDS
        .iter()
        .map(|c| vec![c.usage(), c.about.to_string()])
        .collect();
    format!(
        "{}\nTab completes commands, player names and game ids.",
        table(&["COMMAND", "WHAT IT DOES"], &rows)
    )
}

/// `Ann (black) vs Bob (white)`, or the names alone before colours are assigned.
pub fn players_of(summary: &GameSummary) -> String {
    if summary.players.is_empty() {
        return "-".to_string();
    }
    summary
        .players
        .iter()
        .map(|(name, colour)| match colour {
            Some(colour) => format!("{name} ({colour})"),
            None => name.clone(),
        })
        .collect::<Vec<_>>()
        .join(" vs ")
}

/// `Bob (white)` for the player to move, `-` when nobody is.
fn turn_of(summary: &GameSummary) -> String {
    let Some(colour) = summary.to_move else {
        return "-".to_string();
    };
    match summary.players.iter().find(|(_, c)| *c == Some(colour)) {
        Some((name, _)) => format!("{name} ({colour})"),
        None => colour.to_string(),
    }
}

/// The `games` table: live games by id, then the finished ones kept.
pub fn games(live: &[GameSummary], finished: &[GameSummary], now: Instant) -> String {
    if live.is_empty() && finished.is_empty() {
        return "no games".to_string();
    }
    let rows: Vec<Vec<String>> = live
        .iter()
        .chain(finished)
        .map(|g| {
            vec![
                g.id.to_string(),
                g.status.to_string(),
                players_of(g),
                g.size.map_or("-".to_string(), |n| format!("{n}x{n}")),
                g.moves.to_string(),
                turn_of(g),
                duration(now.saturating_duration_since(g.opened)),
                g.result.clone().unwrap_or_else(|| "-".to_string()),
            ]
        })
        .collect();
    table(
        &[
            "ID", "STATUS", "PLAYERS", "SIZE", "MOVES", "TURN", "AGE", "RESULT",
        ],
        &rows,
    )
}

/// One connection as the `players` table shows it.
#[derive(Clone, Debug)]
pub struct PlayerRow {
    pub name: Option<String>,
    pub peer: SocketAddr,
    /// `awaiting handshake`, `no game`, or its game's status.
    pub state: String,
    pub game: Option<GameId>,
    pub connected: Duration,
    pub lines_in: u64,
    pub lines_out: u64,
    pub traced: bool,
}

/// The `players` table.
pub fn players(rows: &[PlayerRow]) -> String {
    if rows.is_empty() {
        return "no players connected".to_string();
    }
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|p| {
            vec![
                p.name.clone().unwrap_or_else(|| "-".to_string()),
                p.peer.to_string(),
                if p.traced {
                    format!("{}, traced", p.state)
                } else {
                    p.state.clone()
                },
                p.game.map_or("-".to_string(), |g| g.to_string()),
                duration(p.connected),
                p.lines_in.to_string(),
                p.lines_out.to_string(),
            ]
        })
        .collect();
    table(
        &["NAME", "PEER", "STATE", "GAME", "CONNECTED", "IN", "OUT"],
        &rows,
    )
}

/// What a `players` row says a connection is doing.
pub fn player_state(name: Option<&str>, status: Option<GameStatus>) -> String {
    match (name, status) {
        (None, _) => "awaiting handshake".to_string(),
        (Some(_), None) => "no game".to_string(),
        (Some(_), Some(status)) => status.to_string(),
    }
}

/// The last move as read from a game record: its colour and point (`None` for a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    pub colour: Colour,
    /// (row from the top, column), or `None` for a pass.
    pub point: Option<(usize, usize)>,
}

/// The last move of an SGF record written by `game::record`.
pub fn last_move(sgf: &str) -> Option<LastMove> {
    sgf.lines().rev().find_map(|line| {
        let line = line.trim_end().trim_end_matches(')');
        let rest = line.strip_prefix(';')?;
        let (colour, rest) = match rest.as_bytes().first()? {
            b'B' => (Colour::Black, &rest[1..]),
            b'W' => (Colour::White, &rest[1..]),
            _ => return None,
        };
        let vertex = rest.strip_prefix('[')?.strip_suffix(']')?;
        let point = match vertex.as_bytes() {
            [] => None,
            [col, row] => Some((sgf_number(*row)?, sgf_number(*col)?)),
            _ => return None,
        };
        Some(LastMove { colour, point })
    })
}

fn sgf_number(c: u8) -> Option<usize> {
    match c {
        b'a'..=b'z' => Some(usize::from(c - b'a')),
        b'A'..=b'Z' => Some(usize::from(c - b'A') + 26),
        _ => None,
    }
}

/// A point as Go players read it: column letter (no I) and row number from the bottom.
pub fn coordinate(row: usize, col: usize, size: usize) -> String {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let letter = letters.chars().nth(col).unwrap_or('?');
    format!("{letter}{}", size.saturating_sub(row))
}

/// The `board` report: a heading, the drawn board, last move, turn, captures, score.
pub fn board(view: &GameView) -> String {
    let g = &view.summary;
    let mut text = format!("game {}: {}", g.id, players_of(g));
    if let Some(n) = g.size {
        let _ = write!(text, ", {n}x{n}");
    }
    let plural = if g.moves == 1 { "" } else { "s" };
    let _ = write!(text, ", {}, {} move{plural}", g.status, g.moves);
    let Some(drawing) = &view.board else {
        let _ = write!(text, "\nno board yet ({})", g.status);
        return text;
    };
    let _ = write!(text, "\n{drawing}");
    let size = g.size.unwrap_or(0);
    let last = view.sgf.as_deref().and_then(last_move);
    let _ = match last {
        None => write!(text, "\nlast move: none yet"),
        Some(LastMove {
            colour,
            point: None,
        }) => write!(text, "\nlast move: {colour} passed"),
        Some(LastMove {
            colour,
            point: Some((row, col)),
        }) => write!(
            text,
            "\nlast move: {colour} {} (index {}), shown in ( )",
            coordinate(row, col, size),
            row * size + col
        ),
    };
    let _ = write!(text, "\nto move: {}", turn_of(g));
    let (black, white) = view.captures;
    let _ = write!(text, "\ncaptures: black {black}, white {white}");
    if let Some((black, white)) = &view.score {
        let _ = write!(
            text,
            "\narea score so far: black {black}, white {white} (komi included)"
        );
    }
    text
}

/// What `stats` reports.
#[derive(Clone, Debug)]
pub struct Stats {
    pub clients: usize,
    pub waiting: usize,
    pub playing: usize,
    pub finished: u64,
    /// Moves per second over the last minute (or since start, if shorter); `None`
    /// before the first second is sampled.
    pub moves_per_second: Option<f64>,
    /// Over how long that rate was measured.
    pub rate_window: Duration,
    pub threads: Option<usize>,
    pub uptime: Duration,
}

/// The `stats` text.
pub fn stats(s: &Stats) -> String {
    let rate = match s.moves_per_second {
        Some(rate) => format!("{rate:.2} (over the last {})", duration(s.rate_window)),
        None => "not measured yet".to_string(),
    };
    let threads = s.threads.map_or("unknown".to_string(), |n| n.to_string());
    format!(
        "clients connected: {}\ngames: {} waiting, {} playing, {} finished\nmoves per second: {rate}\nthreads: {threads}\nuptime: {}",
        s.clients,
        s.waiting,
        s.playing,
        s.finished,
        duration(s.uptime)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: u32) -> GameSummary {
        let mut g = GameSummary::new(GameId(id));
        g.status = GameStatus::Playing;
        g.players = vec![
            ("Ann".into(), Some(Colour::Black)),
            ("Bob".into(), Some(Colour::White)),
        ];
        g.size = Some(5);
        g.moves = 3;
        g.to_move = Some(Colour::White);
        g
    }

    #[test]
    fn tables_align_columns_without_trailing_blanks() {
        let text = table(
            &["A", "LONG"],
            &[
                vec!["wide cell".into(), "x".into()],
                vec!["y".into(), String::new()],
            ],
        );
        assert_eq!(text, "A          LONG\nwide cell  x\ny");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(duration(Duration::from_secs(42)), "42s");
        assert_eq!(duration(Duration::from_secs(185)), "3m05s");
        assert_eq!(duration(Duration::from_secs(7380)), "2h03m");
        assert_eq!(duration(Duration::from_secs(93_600)), "1d02h");
    }

    #[test]
    fn games_rows_show_players_turn_and_result() {
        let g = summary(1);
        let now = g.opened + Duration::from_secs(65);
        let mut done = summary(2);
        done.status = GameStatus::Finished;
        done.to_move = None;
        done.result = Some("Ann wins".into());
        done.opened = g.opened;
        assert_eq!(
            games(&[g], &[done], now),
            "ID  STATUS    PLAYERS                     SIZE  MOVES  TURN         AGE    RESULT\n\
             1   playing   Ann (black) vs Bob (white)  5x5   3      Bob (white)  1m05s  -\n\
             2   finished  Ann (black) vs Bob (white)  5x5   3      -            1m05s  Ann wins"
        );
        assert_eq!(games(&[], &[], now), "no games");
    }

    #[test]
    fn players_rows() {
        let row = PlayerRow {
            name: Some("Ann".into()),
            peer: "127.0.0.1:5000".parse().unwrap(),
            state: player_state(Some("Ann"), Some(GameStatus::Playing)),
            game: Some(GameId(1)),
            connected: Duration::from_secs(3),
            lines_in: 4,
            lines_out: 6,
            traced: true,
        };
        assert_eq!(
            players(&[row]),
            "NAME  PEER            STATE            GAME  CONNECTED  IN  OUT\n\
             Ann   127.0.0.1:5000  playing, traced  1     3s         4   6"
        );
        assert_eq!(player_state(None, None), "awaiting handshake");
        assert_eq!(player_state(Some("Bob"), None), "no game");
    }

    #[test]
    fn last_move_comes_from_the_record() {
        let sgf = "(;FF[4]GM[1]SZ[5]\n;B[cc]\n;W[da])\n";
        assert_eq!(
            last_move(sgf),
            Some(LastMove {
                colour: Colour::White,
                point: Some((0, 3))
            })
        );
        assert_eq!(
            last_move("(;FF[4]SZ[5]\n;B[])\n"),
            Some(LastMove {
                colour: Colour::Black,
                point: None
            })
        );
        assert_eq!(last_move("(;FF[4]SZ[5]PB[Ann])\n"), None);
        assert_eq!(coordinate(0, 3, 5), "D5");
        assert_eq!(coordinate(8, 8, 9), "J1");
    }

    #[test]
    fn board_report_surrounds_the_drawing() {
        let view = GameView {
            summary: summary(1),
            board: Some("DRAWING".into()),
            captures: (1, 0),
            score: Some(("3".into(), "2".into())),
            sgf: Some("(;SZ[5]\n;B[cc]\n;W[aa]\n;B[bc])\n".into()),
        };
        assert_eq!(
            board(&view),
            "game 1: Ann (black) vs Bob (white), 5x5, playing, 3 moves\nDRAWING\n\
             last move: black B3 (index 11), shown in ( )\nto move: Bob (white)\n\
             captures: black 1, white 0\narea score so far: black 3, white 2 (komi included)"
        );
        let mut waiting = view.clone();
        waiting.board = None;
        waiting.summary.status = GameStatus::WaitingForConfig;
        assert!(board(&waiting).ends_with("\nno board yet (waiting for config)"));
    }

    #[test]
    fn stats_text() {
        let s = Stats {
            clients: 2,
            waiting: 0,
            playing: 1,
            finished: 3,
            moves_per_second: Some(0.25),
            rate_window: Duration::from_secs(60),
            threads: Some(9),
            uptime: Duration::from_secs(61),
        };
        assert_eq!(
            stats(&s),
            "clients connected: 2\ngames: 0 waiting, 1 playing, 3 finished\n\
             moves per second: 0.25 (over the last 1m00s)\nthreads: 9\nuptime: 1m01s"
        );
    }
}
