//! SGF (FF[4]) records of games: the text, and writing it to the records directory.

use crate::go::{Colour, Game, KoRule, Move, SuicideRule};
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Who played, and how it ended, for a record.
pub struct RecordInfo<'a> {
    pub black: &'a str,
    pub white: &'a str,
    /// SGF `RE` value: `B+3.5`, `W+R`, `0` (draw), `Void`; empty while in progress.
    pub result: &'a str,
    /// When the game started.
    pub started: SystemTime,
}

/// The SGF text of `game`.
pub fn sgf(game: &Game, info: &RecordInfo<'_>) -> String {
    let rules = game.rules();
    let ruleset = format!(
        "Tromp-Taylor area scoring, {}, suicide {}",
        match rules.ko {
            KoRule::Positional => "positional superko",
            KoRule::Situational => "situational superko",
            KoRule::Simple => "simple ko",
        },
        match rules.suicide {
            SuicideRule::Forbidden => "forbidden",
            SuicideRule::MultiStoneAllowed => "multi-stone allowed",
        }
    );
    let mut text = format!(
        "(;FF[4]GM[1]CA[UTF-8]AP[goserver:{}]SZ[{}]KM[{}]RU[{}]PB[{}]PW[{}]DT[{}]",
        env!("CARGO_PKG_VERSION"),
        game.size(),
        rules.komi,
        escape(&ruleset),
        escape(info.black),
        escape(info.white),
        date(info.started)
    );
    if !info.result.is_empty() {
        let _ = write!(text, "RE[{}]", escape(info.result));
    }
    for played in game.moves() {
        let colour = match played.colour {
            Colour::Black => 'B',
            Colour::White => 'W',
        };
        let vertex = match played.mv {
            Move::Pass => String::new(),
            Move::Play(point) => {
                format!(
                    "{}{}",
                    sgf_coordinate(point.col()),
                    sgf_coordinate(point.row())
                )
            }
        };
        let _ = write!(text, "\n;{colour}[{vertex}]");
    }
    text.push_str(")\n");
    text
}

/// Writes `text` as `game-<id>-<unix time>-<round>.sgf` in `dir`, returning the path.
///
/// # Errors
///
/// When the directory cannot be created or the file written.
pub fn write(dir: &Path, game_id: u32, round: u32, text: &str) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let path = dir.join(format!("game-{game_id}-{seconds}-{round}.sgf"));
    std::fs::write(&path, text)?;
    Ok(path)
}

/// SGF coordinates: `a` to `z` from the top-left, then `A` to `Z` past 26 (FF[4]).
fn sgf_coordinate(n: u8) -> char {
    match n {
        0..=25 => char::from(b'a' + n),
        _ => char::from(b'A' + (n - 26)),
    }
}

/// Escapes `]` and `\` in a property value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// The date of `time` as YYYY-MM-DD (UTC).
fn date(time: SystemTime) -> String {
    let days = time
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0);
    let (year, month, day) = civil_from_days(i64::try_from(days).unwrap_or(0));
    format!("{year:04}-{month:02}-{day:02}")
}

/// Days since 1970-01-01 to a (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::{Point, Rules};
    use std::time::Duration;

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(
            date(UNIX_EPOCH + Duration::from_secs(1_795_000_000)),
            "2026-11-18"
        );
    }

    #[test]
    fn records_moves_passes_and_result() {
        let mut game = Game::new(9, Rules::default()).expect("9x9");
        assert!(
            game.play(Colour::Black, Move::Play(Point::new(2, 3)))
                .is_ok()
        );
        assert!(game.play(Colour::White, Move::Pass).is_ok());
        let text = sgf(
            &game,
            &RecordInfo {
                black: "Ann",
                white: "B]ob",
                result: "B+R",
                started: UNIX_EPOCH,
            },
        );
        assert_eq!(
            text,
            format!(
                "(;FF[4]GM[1]CA[UTF-8]AP[goserver:{}]SZ[9]KM[0]RU[Tromp-Taylor area scoring, positional superko, suicide forbidden]PB[Ann]PW[B\\]ob]DT[1970-01-01]RE[B+R]\n;B[dc]\n;W[])\n",
                env!("CARGO_PKG_VERSION")
            )
        );
    }
}
