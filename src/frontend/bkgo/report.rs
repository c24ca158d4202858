//! What the console shows of the Bkgo room: its `games` row, a member's state, and
//! the `board` report. Pure functions of what the room published.

use super::summary::{Role, RoomSummary, RoomView};
use crate::engine::go::{Colour, Move};
use crate::frontend::GameRow;
use std::fmt::Write as _;
use std::time::Instant;

/// How the console names the room.
pub const ROOM_ID: &str = "bkgo";

/// `Ann (black)`, or `- (black)` for a free seat.
fn seat(summary: &RoomSummary, colour: Colour) -> String {
    format!("{} ({colour})", summary.seated(colour).unwrap_or("-"))
}

/// `Ann (black) vs Bob (white), 3 watching`.
pub fn players(summary: &RoomSummary) -> String {
    format!(
        "{} vs {}, {} watching",
        seat(summary, Colour::Black),
        seat(summary, Colour::White),
        summary.watchers().count()
    )
}

/// `playing`, `waiting for players` or `game over`, and the room's name if it has one.
pub fn status(summary: &RoomSummary) -> String {
    let status = if summary.result.is_some() || summary.to_move.is_none() {
        "game over"
    } else if is_playing(summary) {
        "playing"
    } else {
        "waiting for players"
    };
    match &summary.name {
        Some(name) => format!("{status} ({name})"),
        None => status.to_string(),
    }
}

/// `Bob (white)` for the player to move, `-` once the game is over.
fn turn(summary: &RoomSummary) -> String {
    summary
        .to_move
        .map_or("-".to_string(), |colour| seat(summary, colour))
}

/// Whether the room counts as a game for `games` and `stats`: someone is in it, or
/// its board has moves. An empty room on an untouched board is no game.
pub fn is_in_use(summary: &RoomSummary) -> bool {
    !summary.members.is_empty() || summary.moves > 0 || summary.result.is_some()
}

/// Whether the room counts as a game being played: both seats taken, game not over.
pub fn is_playing(summary: &RoomSummary) -> bool {
    summary.to_move.is_some()
        && summary.seated(Colour::Black).is_some()
        && summary.seated(Colour::White).is_some()
}

/// The room as a row of the console's `games` table.
pub fn row(summary: &RoomSummary, now: Instant) -> GameRow {
    GameRow {
        id: ROOM_ID.to_string(),
        live: true,
        status: status(summary),
        players: players(summary),
        size: format!("{0}x{0}", summary.size),
        moves: summary.moves,
        turn: turn(summary),
        // Only a game being played waits for someone.
        waited: summary
            .turn_since
            .filter(|_| is_playing(summary))
            .map(crate::frontend::waited),
        age: now.saturating_duration_since(summary.opened),
        result: summary.result.clone().unwrap_or_else(|| "-".to_string()),
    }
}

/// What a `players` row says a client is doing: its role in the room, or
/// `connecting` before it has joined.
pub fn player_state(role: Option<Role>) -> String {
    role.map_or("connecting".to_string(), |role| role.to_string())
}

/// The `board` report: a heading, the drawn board, last move, turn, captures, score,
/// watchers and the result.
pub fn board(view: &RoomView) -> String {
    let s = &view.summary;
    let plural = if s.moves == 1 { "" } else { "s" };
    let mut text = format!(
        "room {ROOM_ID}: {} vs {}, {size}x{size}, {}, {} move{plural}\n{}",
        seat(s, Colour::Black),
        seat(s, Colour::White),
        status(s),
        s.moves,
        view.board,
        size = s.size,
    );
    let _ = match view.last_move {
        None => write!(text, "\nlast move: none yet"),
        Some(played) => match played.mv {
            Move::Pass => write!(text, "\nlast move: {} passed", played.colour),
            Move::Play(point) => write!(
                text,
                "\nlast move: {} {} (Place: {}, {}), shown in ( )",
                played.colour,
                point.vertex(s.size),
                point.col(),
                point.row()
            ),
        },
    };
    let _ = write!(text, "\nto move: {}", turn(s));
    let (black, white) = view.captures;
    let _ = write!(text, "\ncaptures: black {black}, white {white}");
    let (black, white) = &view.score;
    let _ = write!(
        text,
        "\narea score so far: black {black}, white {white} (komi included)"
    );
    let watchers: Vec<&str> = s.watchers().collect();
    let _ = if watchers.is_empty() {
        write!(text, "\nwatching: nobody")
    } else {
        write!(text, "\nwatching: {}", watchers.join(", "))
    };
    if let Some(result) = &s.result {
        let _ = write!(text, "\nresult: {result}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::PlayedMove;
    use crate::engine::go::Point;
    use crate::frontend::bkgo::summary::MemberRow;
    use crate::net::ConnId;
    use std::time::Duration;

    fn summary() -> RoomSummary {
        let mut s = RoomSummary::new(9);
        let member = |n: u64, name: &str, role| MemberRow {
            conn: Some(ConnId(n)),
            name: name.into(),
            role,
        };
        s.members = vec![
            member(1, "Ann", Role::Black),
            member(2, "Bob", Role::White),
            member(3, "Cat", Role::Watching),
            member(4, "Dan", Role::Watching),
        ];
        s.moves = 3;
        s.to_move = Some(Colour::White);
        s
    }

    #[test]
    fn the_row_shows_seats_watchers_and_turn() {
        let mut s = summary();
        let now = s.opened + Duration::from_secs(65);
        let row = row(&s, now);
        assert_eq!(
            (row.id.as_str(), row.status.as_str(), row.players.as_str()),
            ("bkgo", "playing", "Ann (black) vs Bob (white), 2 watching")
        );
        assert_eq!(
            (
                row.size.as_str(),
                row.moves,
                row.turn.as_str(),
                row.result.as_str()
            ),
            ("9x9", 3, "Bob (white)", "-")
        );
        assert!(row.live);
        assert!(is_in_use(&s) && is_playing(&s));
        assert!(!is_in_use(&RoomSummary::new(19)));
        // A free seat, a name, the end.
        s.members.remove(1);
        s.name = Some("Lab 3".into());
        assert_eq!(players(&s), "Ann (black) vs - (white), 2 watching");
        assert_eq!(status(&s), "waiting for players (Lab 3)");
        assert_eq!(turn(&s), "- (white)");
        assert!(!is_playing(&s));
        s.to_move = None;
        s.result = Some("Game over".into());
        assert_eq!(status(&s), "game over (Lab 3)");
        assert_eq!(turn(&s), "-");
        assert_eq!(player_state(None), "connecting");
        assert_eq!(player_state(Some(Role::Watching)), "watching");
    }

    #[test]
    fn the_board_report_surrounds_the_drawing() {
        let view = RoomView {
            summary: summary(),
            board: "DRAWING".into(),
            last_move: Some(PlayedMove {
                colour: Colour::Black,
                mv: Move::Play(Point::new(2, 1)),
            }),
            captures: (1, 0),
            score: ("3".into(), "2".into()),
            sgf: String::new(),
        };
        assert_eq!(
            board(&view),
            "room bkgo: Ann (black) vs Bob (white), 9x9, playing, 3 moves\nDRAWING\n\
             last move: black B7 (Place: 1, 2), shown in ( )\nto move: Bob (white)\n\
             captures: black 1, white 0\narea score so far: black 3, white 2 (komi included)\n\
             watching: Cat, Dan"
        );
        let mut over = view.clone();
        over.summary.members.truncate(2);
        over.summary.to_move = None;
        over.summary.result = Some("Game over: both players passed".into());
        over.last_move = Some(PlayedMove {
            colour: Colour::White,
            mv: Move::Pass,
        });
        let text = board(&over);
        assert!(
            text.contains("\nlast move: white passed\nto move: -\n"),
            "{text}"
        );
        assert!(
            text.ends_with("\nwatching: nobody\nresult: Game over: both players passed"),
            "{text}"
        );
    }
}
