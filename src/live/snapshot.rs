//! One game as the web board shows it, at one moment: its summary (the overview's row)
//! and its state (the game page), in the shape `WEB.md` fixes, serialized to JSON once,
//! the first time a viewer needs it.

use crate::engine::go::{self, Colour, Move};
pub use crate::front::Front;
use serde::Serialize;
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;

/// Which game: its front end and its number there (GO!'s game id, the `n` of
/// Spectrangle's `s<n>`, 1 for the Bkgo room).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey {
    pub front: Front,
    pub id: u32,
}

/// Where a game is in its life, as the web says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for players (or a GO! leader's configuration).
    Waiting,
    /// Being played.
    Playing,
    /// Over (GO!: ended by two passes, waiting for rematch answers, or done).
    Finished,
}

/// A player in a game's summary: Go's colour (1 black, 2 white), Spectrangle's seat
/// (1 to 4, turn order), or `None` while there is none yet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Seat {
    pub name: String,
    pub colour: Option<u8>,
}

/// A game at a glance: the overview's row, and the start of its state.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub front: Front,
    pub id: u32,
    pub status: Status,
    pub players: Vec<Seat>,
    /// The board's size (Go, once configured).
    pub size: Option<usize>,
    /// Every turn taken: stones, passes, swaps, skips.
    pub moves: usize,
    /// Who is to move, while the game is playing.
    pub turn: Option<String>,
    /// Since when the player to move has been waited for, while the game is playing
    /// (RFC 3339; left out otherwise): the pages and the console show how long.
    #[serde(
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub turn_since: Option<time::OffsetDateTime>,
    /// The message the players got when it ended.
    pub result: Option<String>,
    /// How many watch (the Bkgo room only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watchers: Option<usize>,
}

/// Black's and white's of something.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Colours<T> {
    pub black: T,
    pub white: T,
}

/// A Go board's state (GO! and Bkgo); `None`s while a GO! game has no configuration.
///
/// Its area score is worked out from the board when its JSON is first written (if a
/// viewer ever asks), not on the game's loop, which publishes after every move.
#[derive(Clone, Debug)]
pub struct GoBoard {
    /// One digit per point, row 0 first: GO!'s board field.
    pub board: Option<String>,
    /// 1 black or 2 white.
    pub to_move: Option<u8>,
    /// The last move's index, -1 for a pass, `None` before any move.
    pub last_move: Option<i64>,
    /// Stones each colour has taken.
    pub captures: Colours<usize>,
    /// The game's komi, for the score.
    pub komi: Option<go::Komi>,
    /// What its record is written from (`None` before a GO! game has its
    /// configuration).
    pub record: Option<Arc<super::GoRecord>>,
}

impl GoBoard {
    /// The board of `game` as the web shows it, and what its record is written from;
    /// all `None` before a GO! game has its configuration (no game yet).
    pub fn of(game: Option<&go::Game>, record: Option<&Arc<super::GoRecord>>) -> GoBoard {
        let Some(game) = game else {
            return GoBoard {
                board: None,
                to_move: None,
                last_move: None,
                captures: Colours { black: 0, white: 0 },
                komi: None,
                record: None,
            };
        };
        GoBoard {
            board: Some(game.board().to_protocol_string()),
            to_move: Some(colour_digit(game.to_move())),
            last_move: game.last_move().map(|played| match played.mv {
                Move::Pass => -1,
                Move::Play(point) => i64::try_from(point.index(game.size())).unwrap_or(-1),
            }),
            captures: Colours {
                black: game.captures(Colour::Black),
                white: game.captures(Colour::White),
            },
            komi: Some(game.rules().komi),
            record: record.cloned(),
        }
    }

    /// The area score so far, komi included (half points, so exact in a float).
    pub fn score(&self) -> Option<Colours<f64>> {
        let (board, komi) = (self.board.as_deref()?, self.komi?);
        let size = (1..=go::MAX_SIZE).find(|n| n * n == board.len())?;
        let score = go::Board::from_protocol_string(board, size)
            .ok()?
            .score(komi);
        Some(Colours {
            black: score.black_halves() as f64 / 2.0,
            white: score.white_halves() as f64 / 2.0,
        })
    }
}

/// Equal when they show the same and write their record from the same log.
impl PartialEq for GoBoard {
    fn eq(&self, other: &GoBoard) -> bool {
        (
            &self.board,
            self.to_move,
            self.last_move,
            self.captures,
            self.komi,
        ) == (
            &other.board,
            other.to_move,
            other.last_move,
            other.captures,
            other.komi,
        ) && match (&self.record, &other.record) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Serialize for GoBoard {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut fields = serializer.serialize_struct("GoBoard", 5)?;
        fields.serialize_field("board", &self.board)?;
        fields.serialize_field("to_move", &self.to_move)?;
        fields.serialize_field("last_move", &self.last_move)?;
        fields.serialize_field("captures", &self.captures)?;
        fields.serialize_field("score", &self.score())?;
        fields.end()
    }
}

/// 1 for black, 2 for white, as the protocols write colours.
pub fn colour_digit(colour: Colour) -> u8 {
    match colour {
        Colour::Black => 1,
        Colour::White => 2,
    }
}

/// A bonus field of the Spectrangle board and its factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bonus {
    pub field: usize,
    pub factor: u32,
}

/// A Spectrangle player in the game's state: its seat, score and hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpectranglePlayer {
    pub name: String,
    pub colour: Option<u8>,
    pub score: u32,
    pub tiles: usize,
    /// Its tiles as the TILE lines spelled them, in the order they were dealt.
    pub hand: Vec<String>,
}

/// A Spectrangle table's state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SpectrangleBoard {
    /// The 36 fields: the placed tile as UPDATE spells it, or `None`.
    pub fields: Vec<Option<String>>,
    pub bonus: Vec<Bonus>,
    pub players: Vec<SpectranglePlayer>,
    /// Tiles left in the bag.
    pub bag: usize,
}

/// What a game's state holds beyond its summary.
#[derive(Clone, Debug, PartialEq)]
pub enum Detail {
    /// GO! and Bkgo.
    Go(GoBoard),
    /// Spectrangle.
    Spectrangle(SpectrangleBoard),
}

/// One game at one moment, as its loop published it.
#[derive(Debug)]
pub struct Snapshot {
    pub summary: Summary,
    pub detail: Detail,
    /// When it (last) started: GO! at its configuration (a rematch starts again),
    /// Spectrangle at START, the Bkgo room when it last became playing.
    pub started: Option<SystemTime>,
    /// When it ended, once finished.
    pub ended: Option<SystemTime>,
    summary_json: OnceLock<Arc<str>>,
    state_json: OnceLock<Arc<str>>,
}

impl Snapshot {
    /// A snapshot of a game; its JSON is written when first asked for.
    pub fn new(
        summary: Summary,
        detail: Detail,
        started: Option<SystemTime>,
        ended: Option<SystemTime>,
    ) -> Snapshot {
        Snapshot {
            summary,
            detail,
            started,
            ended,
            summary_json: OnceLock::new(),
            state_json: OnceLock::new(),
        }
    }

    /// Which game it is.
    pub fn key(&self) -> GameKey {
        GameKey {
            front: self.summary.front,
            id: self.summary.id,
        }
    }

    /// Whether it shows the same game as `other` does (its times aside).
    pub fn same_as(&self, other: &Snapshot) -> bool {
        self.summary == other.summary && self.detail == other.detail
    }

    /// The summary as one line of JSON.
    pub fn summary_json(&self) -> Arc<str> {
        Arc::clone(self.summary_json.get_or_init(|| to_json(&self.summary)))
    }

    /// The whole state as one line of JSON: the summary's fields and the detail's.
    pub fn state_json(&self) -> Arc<str> {
        Arc::clone(self.state_json.get_or_init(|| match &self.detail {
            Detail::Go(board) => to_json(&GoState {
                summary: &self.summary,
                board,
            }),
            Detail::Spectrangle(board) => to_json(&SpectrangleState {
                front: self.summary.front,
                id: self.summary.id,
                status: self.summary.status,
                players: &board.players,
                size: self.summary.size,
                moves: self.summary.moves,
                turn: self.summary.turn.as_deref(),
                result: self.summary.result.as_deref(),
                fields: &board.fields,
                bonus: &board.bonus,
                bag: board.bag,
            }),
        }))
    }
}

/// A Go game's state: the summary's fields, then the board's.
#[derive(Serialize)]
struct GoState<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    #[serde(flatten)]
    board: &'a GoBoard,
}

/// A Spectrangle game's state: the summary's fields with the players in full.
#[derive(Serialize)]
struct SpectrangleState<'a> {
    front: Front,
    id: u32,
    status: Status,
    players: &'a [SpectranglePlayer],
    size: Option<usize>,
    moves: usize,
    turn: Option<&'a str>,
    result: Option<&'a str>,
    fields: &'a [Option<String>],
    bonus: &'a [Bonus],
    bag: usize,
}

/// `value` as one line of JSON. Our types always serialize; should one ever fail, the
/// viewer gets an error object rather than nothing.
fn to_json(value: &impl Serialize) -> Arc<str> {
    serde_json::to_string(value)
        .unwrap_or_else(|e| format!("{{\"error\":\"cannot write the game as JSON: {e}\"}}"))
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go_summary() -> Summary {
        Summary {
            front: Front::Go,
            id: 3,
            status: Status::Playing,
            players: vec![
                Seat {
                    name: "Ann".into(),
                    colour: Some(1),
                },
                Seat {
                    name: "<b>Bob".into(),
                    colour: Some(2),
                },
            ],
            size: Some(5),
            moves: 2,
            turn: Some("Ann".into()),
            turn_since: None,
            result: None,
            watchers: None,
        }
    }

    #[test]
    fn a_go_state_is_the_summary_then_the_board_as_web_md_spells_it() {
        let snapshot = Snapshot::new(
            go_summary(),
            Detail::Go(GoBoard {
                board: Some("0000000000001200000000000".into()),
                to_move: Some(1),
                last_move: Some(13),
                captures: Colours { black: 0, white: 1 },
                komi: Some(go::Komi::from_halves(13)),
                record: None,
            }),
            None,
            None,
        );
        assert_eq!(
            &*snapshot.summary_json(),
            r#"{"front":"go","id":3,"status":"playing","players":[{"name":"Ann","colour":1},{"name":"<b>Bob","colour":2}],"size":5,"moves":2,"turn":"Ann","result":null}"#
        );
        assert_eq!(
            &*snapshot.state_json(),
            r#"{"front":"go","id":3,"status":"playing","players":[{"name":"Ann","colour":1},{"name":"<b>Bob","colour":2}],"size":5,"moves":2,"turn":"Ann","result":null,"board":"0000000000001200000000000","to_move":1,"last_move":13,"captures":{"black":0,"white":1},"score":{"black":1.0,"white":7.5}}"#
        );
    }

    #[test]
    fn a_spectrangle_state_lists_its_players_in_full() {
        let summary = Summary {
            front: Front::Spectrangle,
            id: 2,
            size: None,
            ..go_summary()
        };
        let board = SpectrangleBoard {
            fields: vec![None, Some("RRY2".into())],
            bonus: vec![Bonus {
                field: 10,
                factor: 2,
            }],
            players: vec![SpectranglePlayer {
                name: "Ann".into(),
                colour: Some(1),
                score: 12,
                tiles: 1,
                hand: vec!["GGB0".into()],
            }],
            bag: 20,
        };
        let snapshot = Snapshot::new(summary, Detail::Spectrangle(board), None, None);
        assert_eq!(
            &*snapshot.state_json(),
            r#"{"front":"spectrangle","id":2,"status":"playing","players":[{"name":"Ann","colour":1,"score":12,"tiles":1,"hand":["GGB0"]}],"size":null,"moves":2,"turn":"Ann","result":null,"fields":[null,"RRY2"],"bonus":[{"field":10,"factor":2}],"bag":20}"#
        );
    }

    #[test]
    fn fronts_are_named_as_the_paths_name_them() {
        for front in Front::ALL {
            assert_eq!(Front::parse(front.name()), Some(front));
        }
        assert_eq!(Front::parse("GO"), None);
    }
}
