//! The console's tournament answers as text: `standings`, `results`, `crosstable`.
//! Pure functions of the tables the results module gives.

use super::report::table;
use crate::front::Front;
use crate::results::{Crosstable, DuelRow, GameResult, TableRow, Tables};
use std::sync::Arc;

/// The `standings` answer: one front end's table, or all three, each under a title.
pub fn standings(tables: &Tables, front: Option<Front>) -> String {
    let fronts = match front {
        Some(front) => vec![front],
        None => Front::ALL.to_vec(),
    };
    fronts
        .into_iter()
        .map(|front| {
            let body = match front {
                Front::Go => duel_table(&tables.go),
                Front::Bkgo => duel_table(&tables.bkgo),
                Front::Spectrangle => spectrangle_table(&tables.spectrangle),
            };
            format!("{} standings\n{body}", title(front))
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// How the console titles a front end.
fn title(front: Front) -> &'static str {
    match front {
        Front::Go => "GO!",
        Front::Spectrangle => "Spectrangle",
        Front::Bkgo => "Bkgo",
    }
}

fn duel_table(rows: &[DuelRow]) -> String {
    if rows.is_empty() {
        return "(no rated games yet)".to_string();
    }
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.rank.to_string(),
                r.name.clone(),
                format!("{} ± {}", r.rating, r.deviation),
                r.games.to_string(),
                r.wins.to_string(),
                r.losses.to_string(),
                r.draws.to_string(),
                r.last.clone(),
            ]
        })
        .collect();
    table(
        &[
            "RANK", "NAME", "RATING", "GAMES", "WINS", "LOSSES", "DRAWS", "LAST",
        ],
        &rows,
    )
}

fn spectrangle_table(rows: &[TableRow]) -> String {
    if rows.is_empty() {
        return "(no rated games yet)".to_string();
    }
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.rank.to_string(),
                r.name.clone(),
                format!("{} ± {}", r.rating, r.deviation),
                r.games.to_string(),
                r.firsts.to_string(),
                format!("{:.2}", r.mean_place),
                format!("{:.1}", r.mean_score),
            ]
        })
        .collect();
    table(
        &[
            "RANK",
            "NAME",
            "RATING",
            "GAMES",
            "FIRSTS",
            "MEAN PLACE",
            "MEAN SCORE",
        ],
        &rows,
    )
}

/// The `results` answer: the given results (newest first), one row each.
pub fn results(list: &[Arc<GameResult>]) -> String {
    if list.is_empty() {
        return "no game has ended yet".to_string();
    }
    let rows: Vec<Vec<String>> = list
        .iter()
        .map(|r| {
            let ended = r
                .ended
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default();
            let game = match r.front {
                Front::Spectrangle => format!("s{}", r.game),
                _ => r.game.to_string(),
            };
            vec![
                ended,
                r.front.name().to_string(),
                game,
                r.scores_text(),
                r.winner.clone().unwrap_or_else(|| "-".into()),
                r.ending.to_string(),
                r.moves.to_string(),
                if r.rated { "yes" } else { "no" }.to_string(),
            ]
        })
        .collect();
    table(
        &[
            "ENDED", "FRONT", "GAME", "SCORES", "WINNER", "ENDING", "MOVES", "RATED",
        ],
        &rows,
    )
}

/// The `crosstable` answer: each GO! player's wins–losses against each other, row
/// player against column player.
pub fn crosstable(cross: &Crosstable) -> String {
    if cross.players.is_empty() {
        return "GO! crosstable: no rated games yet".to_string();
    }
    let mut headers: Vec<&str> = vec![""];
    headers.extend(cross.players.iter().map(String::as_str));
    let rows: Vec<Vec<String>> = cross
        .players
        .iter()
        .zip(&cross.cells)
        .enumerate()
        .map(|(row, (name, cells))| {
            std::iter::once(name.clone())
                .chain(cells.iter().enumerate().map(|(column, cell)| {
                    if column == row {
                        "-".to_string()
                    } else {
                        format!("{}-{}", cell.wins, cell.losses)
                    }
                }))
                .collect()
        })
        .collect();
    format!(
        "GO! crosstable (row player's wins-losses against the column player)\n{}",
        table(&headers, &rows)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Cell;

    #[test]
    fn standings_show_every_table_with_a_title() {
        let tables = Tables {
            go: vec![DuelRow {
                rank: 1,
                name: "Ann".into(),
                rating: 1662,
                deviation: 290,
                games: 1,
                wins: 1,
                losses: 0,
                draws: 0,
                last: "won vs Bob (passes)".into(),
            }],
            spectrangle: Vec::new(),
            bkgo: Vec::new(),
        };
        assert_eq!(
            standings(&tables, None),
            "GO! standings\n\
             RANK  NAME  RATING      GAMES  WINS  LOSSES  DRAWS  LAST\n\
             1     Ann   1662 ± 290  1      1     0       0      won vs Bob (passes)\n\
             \n\
             Spectrangle standings\n\
             (no rated games yet)\n\
             \n\
             Bkgo standings\n\
             (no rated games yet)"
        );
        assert_eq!(
            standings(&tables, Some(Front::Bkgo)),
            "Bkgo standings\n(no rated games yet)"
        );
    }

    #[test]
    fn results_and_the_crosstable_as_rows() {
        let ended = time::macros::datetime!(2026-12-01 13:25:40 UTC);
        let result = crate::results::result::sample_go(7, ended, 112);
        assert_eq!(
            results(&[Arc::new(result)]),
            "ENDED                 FRONT  GAME  SCORES            WINNER  ENDING  MOVES  RATED\n\
             2026-12-01T13:25:40Z  go     7     Ann 45, Bob 36.5  Ann     passes  112    yes"
        );
        let cross = Crosstable {
            players: vec!["Ann".into(), "Bob".into()],
            cells: vec![
                vec![Cell::default(), Cell { wins: 2, losses: 1 }],
                vec![Cell { wins: 1, losses: 2 }, Cell::default()],
            ],
        };
        assert_eq!(
            crosstable(&cross),
            "GO! crosstable (row player's wins-losses against the column player)\n\
             \x20    Ann  Bob\n\
             Ann  -    2-1\n\
             Bob  1-2  -"
        );
    }
}
