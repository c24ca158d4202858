//! The console's answers as text: tables, the board report, stats. Pure functions of
//! the data they are given, so they are unit-tested without a server.

use super::commands::COMMANDS;
use crate::frontend::GameRow;
use std::fmt::{self, Write as _};
use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

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
pub fn help(web: Option<SocketAddr>) -> String {
    let rows: Vec<Vec<String>> = COMMANDS
        .iter()
        .map(|c| vec![c.usage(), c.about.to_string()])
        .collect();
    format!(
        "{}\nTab completes commands, player names and game ids.\n{}",
        table(&["COMMAND", "WHAT IT DOES"], &rows),
        web_board(web)
    )
}

/// Where the web board is, as `help` says it.
pub fn web_board(web: Option<SocketAddr>) -> String {
    match web {
        None => "The web board is off (--web-port off).".to_string(),
        Some(address) if address.ip().is_unspecified() => format!(
            "Web board: http://localhost:{port}/ (from another machine: http://<this machine's address>:{port}/)",
            port = address.port()
        ),
        Some(address) => format!("Web board: http://{address}/"),
    }
}

/// The `games` table: every front end's games, live ones first, each row naming its
/// front end.
pub fn games(rows: &[(&str, GameRow)]) -> String {
    if rows.is_empty() {
        return "no games".to_string();
    }
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|(front_end, g)| {
            vec![
                g.id.clone(),
                (*front_end).to_string(),
                g.status.clone(),
                g.players.clone(),
                g.size.clone(),
                g.moves.to_string(),
                g.turn.clone(),
                g.waited.map_or_else(|| "-".to_string(), duration),
                duration(g.age),
                g.result.clone(),
            ]
        })
        .collect();
    table(
        &[
            "ID",
            "FRONT END",
            "STATUS",
            "PLAYERS",
            "SIZE",
            "MOVES",
            "TURN",
            "WAITED",
            "AGE",
            "RESULT",
        ],
        &rows,
    )
}

/// Where a player is: a client's address, or the server's own practice bot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// A client connected from this address.
    Address(SocketAddr),
    /// The practice bot: no connection (shown as `(bot)`).
    Bot,
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Peer::Address(address) => write!(f, "{address}"),
            Peer::Bot => f.write_str("(bot)"),
        }
    }
}

impl FromStr for Peer {
    type Err = std::net::AddrParseError;

    /// An address such as `127.0.0.1:5000`.
    fn from_str(text: &str) -> Result<Peer, Self::Err> {
        text.parse().map(Peer::Address)
    }
}

/// One player as the `players` table shows it: a connection, or the practice bot
/// (whose time connected and line counts are shown as `-`).
#[derive(Clone, Debug)]
pub struct PlayerRow {
    pub name: Option<String>,
    /// The front end it is connected to.
    pub front_end: &'static str,
    pub peer: Peer,
    /// `awaiting handshake`, `no game`, or its game's status.
    pub state: String,
    pub game: Option<String>,
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
            let connected = p.peer != Peer::Bot;
            let if_connected = |text: String| if connected { text } else { "-".into() };
            vec![
                p.name.clone().unwrap_or_else(|| "-".to_string()),
                p.front_end.to_string(),
                p.peer.to_string(),
                if p.traced {
                    format!("{}, traced", p.state)
                } else {
                    p.state.clone()
                },
                p.game.clone().unwrap_or_else(|| "-".to_string()),
                if_connected(duration(p.connected)),
                if_connected(p.lines_in.to_string()),
                if_connected(p.lines_out.to_string()),
            ]
        })
        .collect();
    table(
        &[
            "NAME",
            "FRONT END",
            "PEER",
            "STATE",
            "GAME",
            "CONNECTED",
            "IN",
            "OUT",
        ],
        &rows,
    )
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
    /// Each kind of inbox: what, the deepest it has been, its bound.
    pub queues: Vec<(&'static str, usize, usize)>,
    /// Web event streams open now.
    pub web_viewers: usize,
    /// Report cards kept, their bound, and how many were forgotten to keep it.
    pub cards: (usize, usize, u64),
}

/// The `stats` text.
pub fn stats(s: &Stats) -> String {
    let rate = match s.moves_per_second {
        Some(rate) => format!("{rate:.2} (over the last {})", duration(s.rate_window)),
        None => "not measured yet".to_string(),
    };
    let threads = s.threads.map_or("unknown".to_string(), |n| n.to_string());
    let queues: Vec<String> = s
        .queues
        .iter()
        .map(|(what, deepest, bound)| format!("{what} {deepest} of {bound}"))
        .collect();
    let queues = if queues.is_empty() {
        "none".to_string()
    } else {
        queues.join(", ")
    };
    let (cards, kept, forgotten) = s.cards;
    format!(
        "clients connected: {}\nweb viewers: {}\ngames: {} waiting, {} playing, {} finished\nmoves per second: {rate}\nthreads: {threads}\ndeepest inboxes: {queues}\nreport cards: {cards}, bound {kept} ({forgotten} forgotten, the idlest not connected first)\nuptime: {}",
        s.clients,
        s.web_viewers,
        s.waiting,
        s.playing,
        s.finished,
        duration(s.uptime)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, status: &str, result: &str) -> GameRow {
        GameRow {
            id: id.into(),
            live: status != "finished",
            status: status.into(),
            players: "Ann (black) vs Bob (white)".into(),
            size: "5x5".into(),
            moves: 3,
            turn: if status == "playing" {
                "Bob (white)"
            } else {
                "-"
            }
            .into(),
            waited: (status == "playing").then(|| Duration::from_secs(12)),
            age: Duration::from_secs(65),
            result: result.into(),
        }
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
    fn games_rows_name_their_front_end() {
        let rows = [
            ("go", row("1", "playing", "-")),
            ("go", row("2", "finished", "Ann wins")),
        ];
        assert_eq!(
            games(&rows),
            "ID  FRONT END  STATUS    PLAYERS                     SIZE  MOVES  TURN         WAITED  AGE    RESULT\n\
             1   go         playing   Ann (black) vs Bob (white)  5x5   3      Bob (white)  12s     1m05s  -\n\
             2   go         finished  Ann (black) vs Bob (white)  5x5   3      -            -       1m05s  Ann wins"
        );
        assert_eq!(games(&[]), "no games");
    }

    #[test]
    fn players_rows() {
        let row = PlayerRow {
            name: Some("Ann".into()),
            front_end: "go",
            peer: "127.0.0.1:5000".parse().unwrap(),
            state: "playing".into(),
            game: Some("1".into()),
            connected: Duration::from_secs(3),
            lines_in: 4,
            lines_out: 6,
            traced: true,
        };
        assert_eq!(
            players(&[row]),
            "NAME  FRONT END  PEER            STATE            GAME  CONNECTED  IN  OUT\n\
             Ann   go         127.0.0.1:5000  playing, traced  1     3s         4   6"
        );
    }

    #[test]
    fn the_bot_has_no_peer_time_or_lines() {
        let ann = PlayerRow {
            name: Some("Ann".into()),
            front_end: "go",
            peer: Peer::Address("127.0.0.1:5000".parse().unwrap()),
            state: "playing".into(),
            game: Some("2".into()),
            connected: Duration::from_secs(3),
            lines_in: 4,
            lines_out: 6,
            traced: false,
        };
        let bot = PlayerRow {
            name: Some("GoBot".into()),
            peer: Peer::Bot,
            connected: Duration::ZERO,
            lines_in: 0,
            lines_out: 0,
            ..ann.clone()
        };
        assert_eq!(
            players(&[ann, bot]),
            "NAME   FRONT END  PEER            STATE    GAME  CONNECTED  IN  OUT\n\
             Ann    go         127.0.0.1:5000  playing  2     3s         4   6\n\
             GoBot  go         (bot)           playing  2     -          -   -"
        );
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
            queues: vec![
                ("GO! game inboxes", 2, 16),
                ("the Bkgo room's inbox", 7, 1024),
            ],
            web_viewers: 4,
            cards: (12, 2000, 0),
        };
        assert_eq!(
            stats(&s),
            "clients connected: 2\nweb viewers: 4\ngames: 0 waiting, 1 playing, 3 finished\n\
             moves per second: 0.25 (over the last 1m00s)\nthreads: 9\n\
             deepest inboxes: GO! game inboxes 2 of 16, the Bkgo room's inbox 7 of 1024\n\
             report cards: 12, bound 2000 (0 forgotten, the idlest not connected first)\n\
             uptime: 1m01s"
        );
    }
}
