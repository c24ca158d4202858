//! Report cards on the web (docs/report.md): `/api/clients` (one row per card, the
//! worst first), `/api/client/<front>/<name>` (a whole card) and `/api/clients.csv`
//! (one row per card, a column per count, for a spreadsheet), read from the cards'
//! views; nothing here touches a game.

use crate::cards::card::KindCount;
use crate::cards::{CardView, Cards, Mistake, times::TimesSummary};
use crate::front::Front;
use parking_lot::Mutex;
use serde::Serialize;
use std::sync::Arc;
use time::OffsetDateTime;

/// `/api/clients`, written once per change of the cards for every request and viewer.
/// Its lock is the web's alone: a game recording into a card never waits for it.
#[derive(Default)]
pub struct Cache {
    latest: Mutex<Option<(u64, Arc<str>)>>,
}

impl Cache {
    /// The cards' fingerprint now, and `/api/clients` for it.
    pub fn list(&self, cards: &Cards) -> (u64, Arc<str>) {
        let fingerprint = cards.fingerprint();
        let mut latest = self.latest.lock();
        if let Some((seen, json)) = latest.as_ref().filter(|(seen, _)| *seen == fingerprint) {
            return (*seen, Arc::clone(json));
        }
        let json: Arc<str> = list_json(&cards.rows()).into();
        *latest = Some((fingerprint, Arc::clone(&json)));
        (fingerprint, json)
    }
}

/// One row of `/api/clients`: a card without its examples.
#[derive(Serialize)]
struct Row<'a> {
    front: Front,
    name: &'a str,
    #[serde(with = "time::serde::rfc3339")]
    last_seen: OffsetDateTime,
    connections: u64,
    games: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    moves: u64,
    mistakes_total: u64,
    /// `{"not-your-turn": 20, ...}`: each kind that happened, in the order of
    /// docs/report.md.
    mistakes: KindCounts<'a>,
    longest_repeat: u64,
    late_moves: u64,
    games_left: u64,
    move_times: TimesSummary,
}

/// `{"clients": [<row>, ...]}`, the worst first.
pub fn list_json(views: &[CardView]) -> String {
    let rows: Vec<Row<'_>> = views
        .iter()
        .map(|v| Row {
            front: v.front,
            name: &v.name,
            last_seen: v.last_seen,
            connections: v.connections,
            games: v.games,
            wins: v.wins,
            losses: v.losses,
            draws: v.draws,
            moves: v.moves,
            mistakes_total: v.mistakes_total,
            mistakes: KindCounts(&v.mistakes),
            longest_repeat: v.longest_repeat,
            late_moves: v.late_moves,
            games_left: v.games_left,
            move_times: v.move_times,
        })
        .collect();
    serde_json::to_string(&List { clients: rows }).unwrap_or_else(|e| {
        log::error!("web: the report cards cannot be written as JSON: {e}");
        r#"{"clients":[]}"#.to_string()
    })
}

#[derive(Serialize)]
struct List<'a> {
    clients: Vec<Row<'a>>,
}

/// Kinds and counts as one JSON object, in the kinds' order.
struct KindCounts<'a>(&'a [KindCount]);

impl Serialize for KindCounts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for kind in self.0 {
            map.serialize_entry(kind.kind.name(), &kind.count)?;
        }
        map.end()
    }
}

/// A whole card.
pub fn card_json(view: &CardView) -> String {
    serde_json::to_string(view).unwrap_or_else(|e| {
        log::error!("web: a report card cannot be written as JSON: {e}");
        "{}".to_string()
    })
}

/// The CSV: a header row, then one row per card; a column per count, every kind of
/// mistake included. A cell that a spreadsheet would read as a formula (it begins with
/// `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'` in front.
pub fn csv(views: &[CardView]) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "front",
        "name",
        "connections",
        "games",
        "wins",
        "losses",
        "draws",
        "moves",
        "mistakes_total",
        "longest_repeat",
        "late_moves",
        "games_left",
        "move_p50_ms",
        "move_p99_ms",
        "move_max_ms",
        "last_seen",
    ]
    .map(String::from)
    .to_vec();
    header.extend(Mistake::ALL.iter().map(|k| k.name().to_string()));
    let mut rows = vec![header];
    for v in views {
        let ms = |value: Option<f64>| value.map_or(String::new(), |ms| ms.to_string());
        let mut row = vec![
            v.front.name().to_string(),
            v.name.clone(),
            v.connections.to_string(),
            v.games.to_string(),
            v.wins.to_string(),
            v.losses.to_string(),
            v.draws.to_string(),
            v.moves.to_string(),
            v.mistakes_total.to_string(),
            v.longest_repeat.to_string(),
            v.late_moves.to_string(),
            v.games_left.to_string(),
            ms(v.move_times.p50_ms),
            ms(v.move_times.p99_ms),
            ms(v.move_times.max_ms),
            v.last_seen
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
        ];
        row.extend(Mistake::ALL.iter().map(|&k| v.count(k).to_string()));
        rows.push(row);
    }
    for row in rows {
        let cells: Vec<String> = row.iter().map(|cell| no_formula(cell)).collect();
        if let Err(e) = writer.write_record(&cells) {
            log::error!("web: the cards' CSV cannot be written: {e}");
        }
    }
    writer
        .into_inner()
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default()
}

/// `cell`, with a `'` in front when a spreadsheet would take it for a formula.
fn no_formula(cell: &str) -> String {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}")
    } else {
        cell.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Offending, Run};

    #[test]
    fn the_csv_quotes_and_defuses_what_a_spreadsheet_would_run() {
        let card = Card::new(Front::Go, "=HYPERLINK(\"x\",\"y\"), <b>");
        card.mistake(
            Mistake::Ko,
            Offending::Line("MOVE"),
            "INVALID_MOVE+ko",
            Run::ONCE,
        );
        let text = csv(&[card.row()]);
        let mut lines = text.lines();
        let header = lines.next().unwrap_or_default();
        assert!(
            header.starts_with("front,name,connections,games,"),
            "{header}"
        );
        assert!(header.ends_with(",bad-sgf,other"), "{header}");
        let row = lines.next().unwrap_or_default();
        assert!(
            row.starts_with(r#"go,"'=HYPERLINK(""x"",""y""), <b>",0,0,0,0,0,0,1,1,0,0,,,,"#),
            "{row}"
        );
        assert_eq!(no_formula("-1"), "'-1");
        assert_eq!(no_formula("@me"), "'@me");
        assert_eq!(no_formula("Ann"), "Ann");
    }

    #[test]
    fn the_list_has_no_examples_and_a_card_has_them() {
        let card = Card::new(Front::Spectrangle, "Ann");
        card.mistake(
            Mistake::NotYourTurn,
            Offending::Line("MOVE_SKIP"),
            "ERROR 5 x",
            Run::ONCE,
        );
        let list: serde_json::Value =
            serde_json::from_str(&list_json(&[card.row()])).unwrap_or_default();
        assert_eq!(list["clients"][0]["name"], "Ann");
        assert_eq!(list["clients"][0]["mistakes"]["not-your-turn"], 1);
        assert!(list["clients"][0].get("examples").is_none());
        let whole: serde_json::Value =
            serde_json::from_str(&card_json(&card.view())).unwrap_or_default();
        assert_eq!(whole["examples"][0]["kind"], "not-your-turn");
        assert_eq!(whole["examples"][0]["line"], "MOVE_SKIP");
        assert_eq!(whole["mistakes"][0]["kind"], "not-your-turn");
    }
}
