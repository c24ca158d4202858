//! What the console shows of Spectrangle tables: a table as a `games` row, a client's
//! state, and the `board` report. Pure functions of what the tables published.

use super::summary::{TableStatus, TableSummary, TableView};
use crate::frontend::GameRow;
use std::fmt::Write as _;
use std::time::Instant;

/// A table as a row of the console's `games` table.
pub fn row(summary: &TableSummary, now: Instant) -> GameRow {
    GameRow {
        id: summary.id.to_string(),
        live: summary.status != TableStatus::Finished,
        status: summary.status.to_string(),
        players: players_of(summary),
        size: "-".to_string(),
        moves: summary.moves,
        turn: summary.to_move.clone().unwrap_or_else(|| "-".to_string()),
        waited: summary.turn_since.map(crate::frontend::waited),
        age: now.saturating_duration_since(summary.opened),
        result: summary.result.clone().unwrap_or_else(|| "-".to_string()),
    }
}

fn players_of(summary: &TableSummary) -> String {
    if summary.players.is_empty() {
        "-".to_string()
    } else {
        summary.players.join(", ")
    }
}

/// What a `players` row says a client is doing: its table's status, or `no lobby`.
pub fn player_state(status: Option<&TableStatus>) -> String {
    status.map_or_else(|| "no lobby".to_string(), ToString::to_string)
}

/// The `board` report: a heading, the drawn triangle, hands, bag, whose turn.
pub fn board(view: &TableView) -> String {
    let s = &view.summary;
    let plural = if s.moves == 1 { "" } else { "s" };
    let mut text = format!(
        "game {} (spectrangle): {}, {}, {} turn{plural}",
        s.id,
        players_of(s),
        s.status,
        s.moves
    );
    let Some(drawing) = &view.board else {
        let _ = write!(
            text,
            "\nno board yet: the game starts when every player of the lobby (2 to 4) is ready"
        );
        return text;
    };
    let _ = write!(text, "\n{drawing}");
    for (name, hand) in &view.hands {
        let tiles: Vec<String> = hand.iter().map(ToString::to_string).collect();
        let tiles = if tiles.is_empty() {
            "(no tiles)".to_string()
        } else {
            tiles.join(" ")
        };
        let _ = write!(text, "\nhand of {name}: {tiles}");
    }
    let _ = write!(text, "\nbag: {} tiles", view.bag);
    let _ = write!(
        text,
        "\nto move: {}",
        s.to_move.as_deref().unwrap_or("nobody (game over)")
    );
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::spectrangle::Tile;
    use crate::frontend::spectrangle::summary::TableId;
    use std::time::Duration;

    fn summary() -> TableSummary {
        let mut s = TableSummary::new(TableId(3), "default".into());
        s.status = TableStatus::Playing;
        s.players = vec!["Ann 12".into(), "Bob 4".into()];
        s.moves = 5;
        s.to_move = Some("Bob".into());
        s
    }

    #[test]
    fn a_row_names_the_table_as_the_console_writes_it() {
        let s = summary();
        let row = row(&s, s.opened + Duration::from_secs(3));
        assert_eq!(
            (row.id.as_str(), row.status.as_str(), row.players.as_str()),
            ("s3", "playing", "Ann 12, Bob 4")
        );
        assert_eq!((row.moves, row.turn.as_str(), row.live), (5, "Bob", true));
        assert_eq!(player_state(None), "no lobby");
        let lobby = TableStatus::Lobby {
            name: "default-2".into(),
        };
        assert_eq!(player_state(Some(&lobby)), "lobby default-2");
    }

    #[test]
    fn the_board_report_lists_hands_bag_and_turn() {
        let view = TableView {
            summary: summary(),
            board: Some("TRIANGLE".into()),
            hands: vec![
                ("Ann".into(), vec![Tile::ALL[0], Tile::ALL[35]]),
                ("Bob".into(), vec![]),
            ],
            bag: 20,
            record: String::new(),
        };
        assert_eq!(
            board(&view),
            "game s3 (spectrangle): Ann 12, Bob 4, playing, 5 turns\nTRIANGLE\n\
             hand of Ann: RRR0 WWW0\nhand of Bob: (no tiles)\nbag: 20 tiles\nto move: Bob"
        );
        let mut lobby = view.clone();
        lobby.board = None;
        assert!(board(&lobby).ends_with(
            "\nno board yet: the game starts when every player of the lobby (2 to 4) is ready"
        ));
    }
}
