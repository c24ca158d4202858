//! What the console shows of GO! games: a game as a `games` row, a client's state, and
//! the `board` report. Pure functions of what the games published.

use super::summary::{GameStatus, GameSummary, GameView};
use crate::engine::go::Move;
use crate::frontend::GameRow;
use std::fmt::Write as _;
use std::time::Instant;

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

/// A game as a row of the console's `games` table.
pub fn row(summary: &GameSummary, now: Instant) -> GameRow {
    GameRow {
        id: summary.id.to_string(),
        live: summary.status != GameStatus::Finished,
        status: summary.status.to_string(),
        players: players_of(summary),
        size: summary.size.map_or("-".to_string(), |n| format!("{n}x{n}")),
        moves: summary.moves,
        turn: turn_of(summary),
        waited: summary.turn_since.map(crate::frontend::waited),
        age: now.saturating_duration_since(summary.opened),
        result: summary.result.clone().unwrap_or_else(|| "-".to_string()),
    }
}

/// What a `players` row says a connection is doing.
pub fn player_state(name: Option<&str>, status: Option<GameStatus>) -> String {
    match (name, status) {
        (None, _) => "awaiting handshake".to_string(),
        (Some(_), None) => "no game".to_string(),
        (Some(_), Some(status)) => status.to_string(),
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
    let _ = match view.last_move {
        None => write!(text, "\nlast move: none yet"),
        Some(played) => match played.mv {
            Move::Pass => write!(text, "\nlast move: {} passed", played.colour),
            Move::Play(point) => {
                let (row, col) = (usize::from(point.row()), usize::from(point.col()));
                write!(
                    text,
                    "\nlast move: {} {} (index {}), shown in ( )",
                    played.colour,
                    coordinate(row, col, size),
                    row * size + col
                )
            }
        },
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

/// Whether a game counts as waiting for players (for `stats`).
pub fn is_waiting(status: GameStatus) -> bool {
    matches!(
        status,
        GameStatus::WaitingForPartner | GameStatus::WaitingForConfig
    )
}

/// Whether a game counts as being played (for `stats`).
pub fn is_playing(status: GameStatus) -> bool {
    matches!(status, GameStatus::Playing | GameStatus::RematchPending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Colour, PlayedMove, Point};
    use crate::frontend::go::protocol::GameId;
    use std::time::Duration;

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
    fn a_row_shows_players_turn_and_result() {
        let mut g = summary(1);
        let now = g.opened + Duration::from_secs(65);
        let live = row(&g, now);
        assert_eq!(
            (
                live.id.as_str(),
                live.status.as_str(),
                live.players.as_str()
            ),
            ("1", "playing", "Ann (black) vs Bob (white)")
        );
        assert_eq!(
            (live.size.as_str(), live.moves, live.turn.as_str()),
            ("5x5", 3, "Bob (white)")
        );
        assert_eq!(
            (live.age, live.result.as_str()),
            (Duration::from_secs(65), "-")
        );
        g.status = GameStatus::Finished;
        g.to_move = None;
        g.result = Some("Ann wins".into());
        let done = row(&g, now);
        assert_eq!(
            (done.turn.as_str(), done.result.as_str()),
            ("-", "Ann wins")
        );
        assert_eq!(player_state(None, None), "awaiting handshake");
        assert_eq!(player_state(Some("Bob"), None), "no game");
        assert_eq!(
            player_state(Some("Ann"), Some(GameStatus::Playing)),
            "playing"
        );
    }

    #[test]
    fn coordinates_skip_the_letter_i() {
        assert_eq!(coordinate(0, 3, 5), "D5");
        assert_eq!(coordinate(8, 8, 9), "J1");
    }

    #[test]
    fn board_report_surrounds_the_drawing() {
        let view = GameView {
            summary: summary(1),
            board: Some("DRAWING".into()),
            last_move: Some(PlayedMove {
                colour: Colour::Black,
                mv: Move::Play(Point::new(2, 1)),
            }),
            captures: (1, 0),
            score: Some(("3".into(), "2".into())),
            sgf: None,
        };
        assert_eq!(
            board(&view),
            "game 1: Ann (black) vs Bob (white), 5x5, playing, 3 moves\nDRAWING\n\
             last move: black B3 (index 11), shown in ( )\nto move: Bob (white)\n\
             captures: black 1, white 0\narea score so far: black 3, white 2 (komi included)"
        );
        let mut passed = view.clone();
        passed.last_move = Some(PlayedMove {
            colour: Colour::White,
            mv: Move::Pass,
        });
        assert!(board(&passed).contains("\nlast move: white passed\n"));
        let mut waiting = view.clone();
        waiting.board = None;
        waiting.summary.status = GameStatus::WaitingForConfig;
        assert!(board(&waiting).ends_with("\nno board yet (waiting for config)"));
    }
}
