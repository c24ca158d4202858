//! The standings of each front end, rebuilt from its rated results one game at a time:
//! Glicko-2 for the two-player Go front ends (GO!, Bkgo), Weng-Lin for Spectrangle's 2
//! to 4 players, both from the `skillratings` crate with its default settings (every
//! player starts at its default rating: Glicko-2 1500 ± 350, Weng-Lin 25 ± 8.3). Also
//! GO!'s crosstable: each player's wins and losses against each other.

use super::result::{GameResult, Score};
use crate::front::Front;
use serde::Serialize;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap};

/// A row of a Go table (GO!, Bkgo), as the console and `/api/standings` show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DuelRow {
    pub rank: usize,
    pub name: String,
    /// Glicko-2 rating, rounded.
    pub rating: i64,
    /// Its deviation, rounded.
    pub deviation: i64,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// The last rated game: `won vs Bob (passes)`.
    pub last: String,
}

/// A row of the Spectrangle table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableRow {
    pub rank: usize,
    pub name: String,
    /// Weng-Lin rating, rounded.
    pub rating: i64,
    /// Its uncertainty, rounded.
    pub deviation: i64,
    pub games: u32,
    /// Games it finished first in (a shared first place counts).
    pub firsts: u32,
    /// Its mean place (1 = first), to two decimals.
    pub mean_place: f64,
    /// Its mean score, to one decimal.
    pub mean_score: f64,
}

/// All three tables, in rank order: the JSON of `/api/standings`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tables {
    pub go: Vec<DuelRow>,
    pub spectrangle: Vec<TableRow>,
    pub bkgo: Vec<DuelRow>,
}

/// GO!'s crosstable: `cells[row][column]` is the row player's wins and losses against
/// the column player. Players in rank order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Crosstable {
    pub players: Vec<String>,
    pub cells: Vec<Vec<Cell>>,
}

/// One player's record against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Cell {
    pub wins: u32,
    pub losses: u32,
}

/// The standings of all three front ends.
#[derive(Default)]
pub struct Standings {
    go: Duels,
    bkgo: Duels,
    spectrangle: TableGames,
    /// GO!: (winner, loser) → games.
    beaten: HashMap<(String, String), u32>,
}

impl Standings {
    /// Counts `result` if it is rated; results that are not change nothing.
    pub fn record(&mut self, result: &GameResult) {
        if !result.rated {
            return;
        }
        match result.front {
            Front::Go => {
                if self.go.record(result)
                    && let Some(winner) = &result.winner
                    && let Some(loser) = result.players.iter().find(|p| p.name != *winner)
                {
                    *self
                        .beaten
                        .entry((winner.clone(), loser.name.clone()))
                        .or_default() += 1;
                }
            }
            Front::Bkgo => {
                self.bkgo.record(result);
            }
            Front::Spectrangle => self.spectrangle.record(result),
        }
    }

    /// Every table in rank order.
    pub fn tables(&self) -> Tables {
        Tables {
            go: self.go.rows(),
            spectrangle: self.spectrangle.rows(),
            bkgo: self.bkgo.rows(),
        }
    }

    /// GO!'s crosstable, players in rank order.
    pub fn crosstable(&self) -> Crosstable {
        let players: Vec<String> = self.go.rows().into_iter().map(|r| r.name).collect();
        let cells = players
            .iter()
            .map(|row| {
                players
                    .iter()
                    .map(|column| Cell {
                        wins: self.beaten_count(row, column),
                        losses: self.beaten_count(column, row),
                    })
                    .collect()
            })
            .collect();
        Crosstable { players, cells }
    }

    fn beaten_count(&self, winner: &str, loser: &str) -> u32 {
        self.beaten
            .get(&(winner.to_string(), loser.to_string()))
            .copied()
            .unwrap_or(0)
    }
}

/// A two-player table (GO!, Bkgo).
#[derive(Default)]
struct Duels {
    players: HashMap<String, DuelRecord>,
}

#[derive(Default)]
struct DuelRecord {
    rating: Glicko2Rating,
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    last: String,
}

impl Duels {
    /// Rates a two-player game; false when it is not one (the same name twice).
    fn record(&mut self, result: &GameResult) -> bool {
        let [first, second] = result.players.as_slice() else {
            return false;
        };
        if first.name == second.name {
            return false;
        }
        let outcome = match &result.winner {
            None => Outcomes::DRAW,
            Some(w) if *w == first.name => Outcomes::WIN,
            Some(_) => Outcomes::LOSS,
        };
        let one = self.players.entry(first.name.clone()).or_default().rating;
        let two = self.players.entry(second.name.clone()).or_default().rating;
        let (one, two) = glicko2(&one, &two, &outcome, &Glicko2Config::new());
        for (me, other, rating, mine) in [
            (first, second, one, outcome),
            (second, first, two, reversed(outcome)),
        ] {
            let record = self.players.entry(me.name.clone()).or_default();
            record.rating = rating;
            record.games += 1;
            let verb = match mine {
                Outcomes::WIN => {
                    record.wins += 1;
                    "won"
                }
                Outcomes::LOSS => {
                    record.losses += 1;
                    "lost"
                }
                Outcomes::DRAW => {
                    record.draws += 1;
                    "drew"
                }
            };
            record.last = format!("{verb} vs {} ({})", other.name, result.ending);
        }
        true
    }

    fn rows(&self) -> Vec<DuelRow> {
        let mut rows: Vec<(&String, &DuelRecord)> = self.players.iter().collect();
        rows.sort_by(|(a_name, a), (b_name, b)| {
            by_rating(a.rating.rating, b.rating.rating)
                .then(b.games.cmp(&a.games))
                .then(a_name.cmp(b_name))
        });
        rows.into_iter()
            .enumerate()
            .map(|(index, (name, record))| DuelRow {
                rank: index + 1,
                name: name.clone(),
                rating: rounded(record.rating.rating),
                deviation: rounded(record.rating.deviation),
                games: record.games,
                wins: record.wins,
                losses: record.losses,
                draws: record.draws,
                last: record.last.clone(),
            })
            .collect()
    }
}

fn reversed(outcome: Outcomes) -> Outcomes {
    match outcome {
        Outcomes::WIN => Outcomes::LOSS,
        Outcomes::LOSS => Outcomes::WIN,
        Outcomes::DRAW => Outcomes::DRAW,
    }
}

/// Spectrangle's table.
#[derive(Default)]
struct TableGames {
    players: BTreeMap<String, TableRecord>,
}

#[derive(Default)]
struct TableRecord {
    rating: WengLinRating,
    games: u32,
    firsts: u32,
    places: u64,
    points: f64,
}

impl TableGames {
    fn record(&mut self, result: &GameResult) {
        let players = &result.players;
        let mut names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        if players.len() < 2 || names.len() != players.len() {
            return;
        }
        let places = result.place_of_each();
        let ratings: Vec<[WengLinRating; 1]> = players
            .iter()
            .map(|p| [self.players.entry(p.name.clone()).or_default().rating])
            .collect();
        let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> = ratings
            .iter()
            .zip(&places)
            .map(|(team, place)| (&team[..], MultiTeamOutcome::new(*place)))
            .collect();
        let rated = weng_lin_multi_team(&teams, &WengLinConfig::new());
        for ((player, place), team) in players.iter().zip(&places).zip(rated) {
            let record = self.players.entry(player.name.clone()).or_default();
            if let Some(rating) = team.first() {
                record.rating = *rating;
            }
            record.games += 1;
            record.firsts += u32::from(*place == 1);
            record.places += *place as u64;
            let Score(points) = player.score;
            record.points += points;
        }
    }

    fn rows(&self) -> Vec<TableRow> {
        let mut rows: Vec<(&String, &TableRecord)> = self.players.iter().collect();
        rows.sort_by(|(a_name, a), (b_name, b)| {
            by_rating(a.rating.rating, b.rating.rating)
                .then(b.games.cmp(&a.games))
                .then(a_name.cmp(b_name))
        });
        rows.into_iter()
            .enumerate()
            .map(|(index, (name, record))| {
                let games = f64::from(record.games.max(1));
                #[allow(clippy::cast_precision_loss)]
                let places = record.places as f64;
                TableRow {
                    rank: index + 1,
                    name: name.clone(),
                    rating: rounded(record.rating.rating),
                    deviation: rounded(record.rating.uncertainty),
                    games: record.games,
                    firsts: record.firsts,
                    mean_place: (places / games * 100.0).round() / 100.0,
                    mean_score: (record.points / games * 10.0).round() / 10.0,
                }
            })
            .collect()
    }
}

/// Higher ratings first.
fn by_rating(a: f64, b: f64) -> Ordering {
    b.total_cmp(&a)
}

#[allow(clippy::cast_possible_truncation)]
fn rounded(value: f64) -> i64 {
    value.round() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::result::{Ending, Player, now};

    fn go(black: &str, white: &str, winner: Option<&str>) -> GameResult {
        GameResult {
            front: Front::Go,
            game: 1,
            started: now(),
            ended: now(),
            players: vec![
                Player {
                    name: black.into(),
                    colour: 1,
                    score: Score(40.0),
                },
                Player {
                    name: white.into(),
                    colour: 2,
                    score: Score(41.0),
                },
            ],
            winner: winner.map(str::to_string),
            places: None,
            ending: Ending::Passes,
            moves: 60,
            size: Some(9),
            rated: true,
        }
    }

    #[test]
    fn a_win_moves_the_ratings_as_glicko_2_says() {
        let mut standings = Standings::default();
        standings.record(&go("Ann", "Bob", Some("Ann")));
        let rows = standings.tables().go;
        // skillratings' own example: two new players, one game: 1662 and 1338, ± 290.
        assert_eq!(
            rows.iter()
                .map(|r| (r.rank, r.name.as_str(), r.rating, r.deviation))
                .collect::<Vec<_>>(),
            [(1, "Ann", 1662, 290), (2, "Bob", 1338, 290)]
        );
        assert_eq!((rows[0].wins, rows[0].losses, rows[1].losses), (1, 0, 1));
        assert_eq!(rows[0].last, "won vs Bob (passes)");
        assert_eq!(rows[1].last, "lost vs Ann (passes)");
    }

    #[test]
    fn unrated_results_change_nothing_and_draws_count_as_draws() {
        let mut standings = Standings::default();
        let mut shutdown = go("Ann", "Bob", None);
        shutdown.ending = Ending::Shutdown;
        shutdown.rated = false;
        standings.record(&shutdown);
        assert!(standings.tables().go.is_empty());
        standings.record(&go("Ann", "Bob", None));
        let rows = standings.tables().go;
        assert_eq!(
            (rows[0].draws, rows[0].rating, rows[1].rating),
            (1, 1500, 1500)
        );
    }

    #[test]
    fn the_crosstable_counts_each_pair_s_wins_and_losses() {
        let mut standings = Standings::default();
        standings.record(&go("Ann", "Bob", Some("Ann")));
        standings.record(&go("Bob", "Ann", Some("Ann")));
        standings.record(&go("Cid", "Bob", Some("Bob")));
        let table = standings.crosstable();
        assert_eq!(table.players, ["Ann", "Bob", "Cid"]);
        let cell = |r: usize, c: usize| (table.cells[r][c].wins, table.cells[r][c].losses);
        assert_eq!(
            (cell(0, 1), cell(1, 0), cell(1, 2), cell(2, 1)),
            ((2, 0), (0, 2), (1, 0), (0, 1))
        );
        assert_eq!(cell(0, 0), (0, 0));
    }

    #[test]
    fn spectrangle_places_firsts_and_means() {
        let mut standings = Standings::default();
        let players = |scores: [f64; 3]| {
            ["Ann", "Bob", "Cid"]
                .iter()
                .zip(scores)
                .enumerate()
                .map(|(seat, (name, score))| Player {
                    name: (*name).into(),
                    colour: u8::try_from(seat + 1).unwrap_or(1),
                    score: Score(score),
                })
                .collect::<Vec<_>>()
        };
        for scores in [[30.0, 20.0, 10.0], [25.0, 25.0, 5.0]] {
            let players = players(scores);
            let places = GameResult::places_by_score(&players)
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            standings.record(&GameResult {
                front: Front::Spectrangle,
                game: 1,
                started: now(),
                ended: now(),
                players,
                winner: None,
                places: Some(places),
                ending: Ending::Score,
                moves: 30,
                size: None,
                rated: true,
            });
        }
        let rows = standings.tables().spectrangle;
        let shown: Vec<(&str, u32, u32, f64, f64)> = rows
            .iter()
            .map(|r| {
                (
                    r.name.as_str(),
                    r.games,
                    r.firsts,
                    r.mean_place,
                    r.mean_score,
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("Ann", 2, 2, 1.0, 27.5),
                ("Bob", 2, 1, 1.5, 22.5),
                ("Cid", 2, 0, 3.0, 7.5)
            ]
        );
        assert!(rows[0].rating > 25 && rows[2].rating < 25, "{rows:?}");
    }
}
