//! One finished game as ARENA.md describes it: who played, how it ended, who won. The
//! same JSON object is a line of the results file and an entry of `/api/results`.

use crate::engine::go;
use crate::front::Front;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use time::OffsetDateTime;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ending {
    /// Two passes in a row (Go).
    Passes,
    /// Counted at the game's natural end (Spectrangle's end; GO!'s move limit).
    Score,
    /// A player said EXIT.
    Exit,
    /// A player's connection closed, or the server closed it.
    Disconnect,
    /// A player did not move in time.
    Timeout,
    /// The operator kicked a player.
    Kick,
    /// The server shut down.
    Shutdown,
    /// The server failed inside the game.
    Error,
}

impl Ending {
    /// Whether a game that ended this way can be rated (ARENA.md): not when the
    /// server, rather than the players, ended it.
    pub fn can_be_rated(self) -> bool {
        !matches!(self, Ending::Shutdown | Ending::Error)
    }

    /// Its name in JSON and on the console.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Passes => "passes",
            Ending::Score => "score",
            Ending::Exit => "exit",
            Ending::Disconnect => "disconnect",
            Ending::Timeout => "timeout",
            Ending::Kick => "kick",
            Ending::Shutdown => "shutdown",
            Ending::Error => "error",
        }
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A player's score: Go's area score with komi (one decimal when komi has one),
/// Spectrangle's points. Written as a whole number when it is one (`45`, `36.5`).
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd, Default)]
pub struct Score(pub f64);

impl Serialize for Score {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let whole = self.0.round();
        if (self.0 - whole).abs() < 1e-9 && whole.abs() < 1e15 {
            // A whole number of points, well inside i64.
            #[allow(clippy::cast_possible_truncation)]
            serializer.serialize_i64(whole as i64)
        } else {
            serializer.serialize_f64((self.0 * 10.0).round() / 10.0)
        }
    }
}

impl<'de> Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(Score)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.fract() == 0.0 {
            write!(f, "{:.0}", self.0)
        } else {
            write!(f, "{:.1}", self.0)
        }
    }
}

/// A player of a finished game, in seat order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// Its granted name.
    pub name: String,
    /// Go: 1 black, 2 white. Spectrangle: the seat, 1 to 4, in turn order.
    pub colour: u8,
    /// Its final score.
    pub score: Score,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// The front end it was played on.
    pub front: Front,
    /// Its id in that front end, in that run of the server.
    pub game: u64,
    /// When it started (UTC, whole seconds).
    #[serde(with = "time::serde::rfc3339")]
    pub started: OffsetDateTime,
    /// When it ended.
    #[serde(with = "time::serde::rfc3339")]
    pub ended: OffsetDateTime,
    /// Its players in seat order (Go: black, then white).
    pub players: Vec<Player>,
    /// The winner; `None` for a draw or a shared first place.
    pub winner: Option<String>,
    /// Spectrangle: the names from first place to last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub places: Option<Vec<String>>,
    /// How it ended.
    pub ending: Ending,
    /// Turns taken: stones, passes, Spectrangle's swaps and skips.
    pub moves: u32,
    /// Go: the board size. Spectrangle: `None` (`null`).
    pub size: Option<u32>,
    /// Whether it counts in the standings.
    pub rated: bool,
}

/// Why a line of the results file is not a result.
#[derive(Debug, PartialEq)]
pub struct NotAResult(pub String);

impl fmt::Display for NotAResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who played a Go game (GO!, Bkgo) and how it went, for [`GameResult::of_go`].
pub struct GoGame<'a> {
    /// GO! or Bkgo.
    pub front: Front,
    /// The front end's id of the game.
    pub game: u64,
    /// When it started.
    pub started: std::time::SystemTime,
    /// Who had black, who had white.
    pub black: &'a str,
    pub white: &'a str,
    /// The position at the end.
    pub position: &'a go::Game,
}

impl GameResult {
    /// A Go game's result: the area score of the final position with komi (whatever
    /// ended the game), every stone and pass a move; `winner` as the front end
    /// decided it.
    pub fn of_go(game: &GoGame<'_>, winner: Option<&str>, ending: Ending) -> GameResult {
        let score = game.position.score();
        let halves = |h: i64| {
            #[allow(clippy::cast_precision_loss)]
            let points = h as f64 / 2.0;
            Score(points)
        };
        GameResult {
            front: game.front,
            game: game.game,
            started: at(game.started),
            ended: now(),
            players: vec![
                Player {
                    name: game.black.to_string(),
                    colour: 1,
                    score: halves(score.black_halves()),
                },
                Player {
                    name: game.white.to_string(),
                    colour: 2,
                    score: halves(score.white_halves()),
                },
            ],
            winner: winner.map(str::to_string),
            places: None,
            ending,
            moves: u32::try_from(game.position.moves().len()).unwrap_or(u32::MAX),
            size: u32::try_from(game.position.size()).ok(),
            rated: false,
        }
    }

    /// Whether a game with these players, ending and moves is rated (ARENA.md): two
    /// or more players (two for Go), ended by the players or the rules rather than
    /// the server, and at least one move made.
    pub fn should_be_rated(&self) -> bool {
        self.ending.can_be_rated() && self.moves > 0 && self.players.len() >= 2
    }

    /// The JSON object, on one line.
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            // Every field is plain data; this cannot fail.
            log::error!("a result could not be written as JSON: {e}");
            String::new()
        })
    }

    /// Reads one line of the results file: the JSON object, checked to be a result
    /// of its front end (Go: two players coloured 1 and 2; Spectrangle: 2 to 4 seats
    /// and the places). Unknown keys are ignored.
    ///
    /// # Errors
    ///
    /// What is wrong with the line.
    pub fn from_json_line(line: &str) -> Result<GameResult, NotAResult> {
        let result: GameResult =
            serde_json::from_str(line).map_err(|e| NotAResult(format!("not a result: {e}")))?;
        result.check()?;
        Ok(result)
    }

    fn check(&self) -> Result<(), NotAResult> {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        match self.front {
            Front::Go | Front::Bkgo => {
                let colours: Vec<u8> = self.players.iter().map(|p| p.colour).collect();
                if colours != [1, 2] {
                    return Err(NotAResult(format!(
                        "a Go result has two players, black (colour 1) then white (colour 2); this one has colours {colours:?}"
                    )));
                }
            }
            Front::Spectrangle => {
                if !(2..=4).contains(&self.players.len()) {
                    return Err(NotAResult(format!(
                        "a Spectrangle result has 2 to 4 players; this one has {}",
                        self.players.len()
                    )));
                }
                let places = self.places.as_deref().unwrap_or_default();
                let mut sorted: Vec<&str> = places.iter().map(String::as_str).collect();
                sorted.sort_unstable();
                let mut seated = names.clone();
                seated.sort_unstable();
                if sorted != seated {
                    return Err(NotAResult(
                        "a Spectrangle result's places name each of its players once".into(),
                    ));
                }
            }
        }
        if let Some(winner) = &self.winner
            && !names.contains(&winner.as_str())
        {
            return Err(NotAResult(format!(
                "the winner {winner:?} is not one of the players"
            )));
        }
        Ok(())
    }

    /// The places of a Spectrangle game: `players` (in seat order) by score, highest
    /// first; tied scores share the earlier place, in seat order. Returns each name
    /// with its place (1 for first; two tied firsts are both 1 and the next is 3).
    pub fn places_by_score(players: &[Player]) -> Vec<(String, usize)> {
        let mut order: Vec<&Player> = players.iter().collect();
        // A stable sort keeps seat order among equal scores.
        order.sort_by(|a, b| b.score.0.total_cmp(&a.score.0));
        let mut placed = Vec::with_capacity(order.len());
        for (index, player) in order.iter().enumerate() {
            let place = match placed.last() {
                Some((_, place)) if order[index - 1].score == player.score => *place,
                _ => index + 1,
            };
            placed.push((player.name.clone(), place));
        }
        placed
    }

    /// Each player's place (1 = first), in seat order: from `places` for Spectrangle
    /// (tied scores share a place), from the winner for Go.
    pub fn place_of_each(&self) -> Vec<usize> {
        let placed = GameResult::places_by_score(&self.players);
        self.players
            .iter()
            .map(|p| {
                placed
                    .iter()
                    .find(|(name, _)| *name == p.name)
                    .map_or(self.players.len(), |(_, place)| *place)
            })
            .collect()
    }

    /// `Ann 45 – Bob 36`, `Cid 30, Ann 22, Bob 22`: the players and scores, for the
    /// console and logs.
    pub fn scores_text(&self) -> String {
        self.players
            .iter()
            .map(|p| format!("{} {}", p.name, p.score))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Now, in UTC, to the second: results carry whole seconds.
pub fn now() -> OffsetDateTime {
    at(std::time::SystemTime::now())
}

/// `time`, in UTC, to the second.
pub fn at(time: std::time::SystemTime) -> OffsetDateTime {
    let time = OffsetDateTime::from(time);
    time.replace_nanosecond(0).unwrap_or(time)
}

/// Ann (black, 45) beat Bob (white, 36.5) by two passes on 9x9: the result the tests
/// of its readers and writers share.
#[cfg(test)]
pub(crate) fn sample_go(game: u64, ended: OffsetDateTime, moves: u32) -> GameResult {
    let player = |name: &str, colour, score| Player {
        name: name.into(),
        colour,
        score: Score(score),
    };
    GameResult {
        front: Front::Go,
        game,
        started: ended,
        ended,
        players: vec![player("Ann", 1, 45.0), player("Bob", 2, 36.5)],
        winner: Some("Ann".into()),
        places: None,
        ending: Ending::Passes,
        moves,
        size: Some(9),
        rated: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_line() -> &'static str {
        r#"{"front":"go","game":7,"started":"2026-12-01T13:05:09Z","ended":"2026-12-01T13:25:40Z","players":[{"name":"Ann","colour":1,"score":45},{"name":"Bob","colour":2,"score":36.5}],"winner":"Ann","ending":"passes","moves":112,"size":9,"rated":true}"#
    }

    #[test]
    fn a_go_result_reads_and_writes_as_arena_md_shows() {
        let result = GameResult::from_json_line(go_line()).expect("a result");
        assert_eq!(result.front, Front::Go);
        assert_eq!(result.players[1].score, Score(36.5));
        assert_eq!(result.ending, Ending::Passes);
        assert_eq!(result.to_json_line(), go_line());
    }

    #[test]
    fn unknown_keys_are_ignored() {
        let line = go_line().replace(r#""rated":true"#, r#""rated":true,"referee":"Zed""#);
        assert!(GameResult::from_json_line(&line).is_ok());
    }

    #[test]
    fn a_spectrangle_result_has_null_size_and_its_places() {
        let players = vec![
            Player {
                name: "Ann".into(),
                colour: 1,
                score: Score(22.0),
            },
            Player {
                name: "Bob".into(),
                colour: 2,
                score: Score(22.0),
            },
            Player {
                name: "Cid".into(),
                colour: 3,
                score: Score(30.0),
            },
        ];
        let placed = GameResult::places_by_score(&players);
        assert_eq!(
            placed,
            [("Cid".into(), 1), ("Ann".into(), 2), ("Bob".into(), 2)]
        );
        let result = GameResult {
            front: Front::Spectrangle,
            game: 3,
            started: now(),
            ended: now(),
            players,
            winner: Some("Cid".into()),
            places: Some(placed.into_iter().map(|(n, _)| n).collect()),
            ending: Ending::Score,
            moves: 40,
            size: None,
            rated: true,
        };
        let line = result.to_json_line();
        assert!(line.contains(r#""size":null"#), "{line}");
        assert!(line.contains(r#""places":["Cid","Ann","Bob"]"#), "{line}");
        assert_eq!(GameResult::from_json_line(&line), Ok(result.clone()));
        assert_eq!(result.place_of_each(), [2, 2, 1]);
    }

    #[test]
    fn lines_that_are_not_results_say_why() {
        for (line, why) in [
            ("", "not a result"),
            ("{\"front\":\"go\"", "not a result"),
            (
                &go_line().replace(r#""colour":2"#, r#""colour":1"#),
                "colours [1, 1]",
            ),
            (
                &go_line().replace(r#""winner":"Ann""#, r#""winner":"Zed""#),
                "\"Zed\" is not one of the players",
            ),
            (&go_line().replace("passes", "resigned"), "unknown variant"),
        ] {
            let error = GameResult::from_json_line(line).expect_err(line);
            assert!(error.0.contains(why), "{line}: {error}");
        }
    }

    #[test]
    fn a_game_without_moves_or_ended_by_the_server_is_not_rated() {
        let mut result = GameResult::from_json_line(go_line()).expect("a result");
        assert!(result.should_be_rated());
        result.ending = Ending::Shutdown;
        assert!(!result.should_be_rated());
        result.ending = Ending::Exit;
        result.moves = 0;
        assert!(!result.should_be_rated());
    }
}
