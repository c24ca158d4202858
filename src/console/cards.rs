//! The console's report cards (`report`, `report <name>`): one row per client, the
//! worst first, and one whole card. Pure text from the cards' views.

use super::report::table;
use crate::cards::CardView;
use crate::frontend::quote::escaped;
use std::fmt::Write as _;

/// Rows `report` shows; the web's `/clients` and its CSV list every card.
pub const ROWS_SHOWN: usize = 40;

/// The `report` answer: one row per card, the worst first.
pub fn cards_table(views: &[CardView]) -> String {
    if views.is_empty() {
        return "no report cards yet: a card opens when a client names itself".to_string();
    }
    let rows: Vec<Vec<String>> = views
        .iter()
        .take(ROWS_SHOWN)
        .map(|v| {
            vec![
                v.front.name().to_string(),
                v.name.clone(),
                v.connections.to_string(),
                format!("{}-{}-{}", v.wins, v.losses, v.draws),
                v.moves.to_string(),
                v.mistakes_total.to_string(),
                v.top_mistake().map_or("-".to_string(), |k| {
                    format!("{} {}", k.kind.name(), k.count)
                }),
                v.longest_repeat.to_string(),
                v.late_moves.to_string(),
                v.games_left.to_string(),
                millis(v.move_times.p50_ms),
                millis(v.move_times.p99_ms),
            ]
        })
        .collect();
    let mut text = table(
        &[
            "FRONT",
            "NAME",
            "CONNS",
            "W-L-D",
            "MOVES",
            "MISTAKES",
            "MOST OFTEN",
            "REPEAT",
            "LATE",
            "LEFT",
            "MOVE p50",
            "MOVE p99",
        ],
        &rows,
    );
    if views.len() > ROWS_SHOWN {
        let _ = write!(
            text,
            "\n... and {} more (the web board's /clients and /api/clients.csv list every card)",
            views.len() - ROWS_SHOWN
        );
    }
    text
}

/// The `report <name>` answer: the cards of that name (one per front end it used),
/// whole.
pub fn cards_of(name: &str, views: &[CardView]) -> String {
    let cards: Vec<String> = views.iter().map(card).collect();
    if cards.is_empty() {
        return format!("no report card for '{name}': 'report' lists them");
    }
    cards.join("\n\n")
}

/// One card, whole.
pub fn card(v: &CardView) -> String {
    let mut text = format!(
        "{} ({}): {} connection{}, {} game{} ({} won, {} lost, {} drawn), {} move{}",
        v.name,
        v.front.name(),
        v.connections,
        plural(v.connections),
        v.games,
        plural(v.games),
        v.wins,
        v.losses,
        v.draws,
        v.moves,
        plural(v.moves)
    );
    let _ = write!(
        text,
        "\ntime to move once told: p50 {}, p99 {}, max {} ({} timed)",
        millis(v.move_times.p50_ms),
        millis(v.move_times.p99_ms),
        millis(v.move_times.max_ms),
        v.move_times.count
    );
    let _ = write!(
        text,
        "\nmoves not made in time: {}; games left mid-play: {}",
        v.late_moves, v.games_left
    );
    if v.mistakes.is_empty() {
        text.push_str("\nno mistakes");
        return text;
    }
    let _ = write!(
        text,
        "\n{} mistake{}; the longest run of one refused line: {}{}",
        v.mistakes_total,
        plural(v.mistakes_total),
        v.longest_repeat,
        v.repeated_line
            .as_ref()
            .map_or(String::new(), |line| format!(" ({})", escaped(line)))
    );
    for kind in &v.mistakes {
        let _ = write!(text, "\n  {} {}", kind.kind.name(), kind.count);
        for example in v.examples.iter().filter(|e| e.kind == kind.kind) {
            // Whole seconds: enough for a person at the console (the JSON has more).
            let at = example
                .at
                .replace_nanosecond(0)
                .unwrap_or(example.at)
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default();
            // A client's line, escaped: a terminal sequence in it must not run here.
            let _ = write!(text, "\n    {at}  sent: {}", escaped(&example.line));
            if !example.answer.is_empty() {
                let _ = write!(
                    text,
                    "\n    {:width$}  got:  {}",
                    "",
                    escaped(&example.answer),
                    width = at.len()
                );
            }
        }
    }
    text
}

fn millis(ms: Option<f64>) -> String {
    ms.map_or("-".to_string(), |ms| format!("{ms} ms"))
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, Mistake, Offending, Run};
    use crate::front::Front;
    use std::time::Duration;

    #[test]
    fn a_row_per_card_and_a_whole_card() {
        let card = Card::new(Front::Go, "Ann");
        card.connected();
        card.moved(Duration::from_millis(12));
        for length in 1..=3 {
            card.mistake(
                Mistake::NotYourTurn,
                Offending::Line("MOVE+1+Ann+3"),
                "INVALID_MOVE+Not your turn: white is to move",
                Run {
                    length,
                    line_hash: 3,
                },
            );
        }
        card.mistake(
            Mistake::UnknownCommand,
            Offending::Line("\u{1b}[2J"),
            "UNKNOWN_COMMAND+x",
            Run::ONCE,
        );
        let view = card.view();
        let rows = cards_table(std::slice::from_ref(&view));
        let lines: Vec<&str> = rows.lines().collect();
        assert!(
            lines[0].starts_with("FRONT  NAME  CONNS  W-L-D  MOVES  MISTAKES  MOST OFTEN"),
            "{rows}"
        );
        assert!(
            lines[1].starts_with("go     Ann   1      0-0-0  1      4         not-your-turn 3  3"),
            "{rows}"
        );
        let whole = cards_of("Ann", &[view]);
        assert!(
            whole.starts_with("Ann (go): 1 connection, 0 games (0 won, 0 lost, 0 drawn), 1 move\n"),
            "{whole}"
        );
        assert!(whole.contains("\n4 mistakes; the longest run of one refused line: 3 (MOVE+1+Ann+3)\n  unknown-command 1\n"), "{whole}");
        assert!(whole.contains("\n  not-your-turn 3\n"), "{whole}");
        assert!(whole.contains("  sent: \\u{1b}[2J\n"), "escaped: {whole}");
        assert!(!whole.contains('\u{1b}'), "{whole}");
        assert!(whole.contains("  sent: MOVE+1+Ann+3\n"), "{whole}");
        assert!(
            whole.contains("  got:  INVALID_MOVE+Not your turn: white is to move"),
            "{whole}"
        );
        assert_eq!(
            cards_of("Bob", &[]),
            "no report card for 'Bob': 'report' lists them"
        );
    }
}
