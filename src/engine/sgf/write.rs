//! Writing a game's record: the SGF text of a [`Game`], with who played it and how it
//! ended. Saving the text to a file is the caller's business.

use std::fmt::Write as _;
use std::time::SystemTime;

use super::date::date;
use super::notation::{colour_letter, move_text, point_text};
use crate::engine::go::{Game, KoRule, Setup, SuicideRule};

/// Who played, and how it ended, for a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordInfo<'a> {
    /// Black's name (`PB`).
    pub black: &'a str,
    /// White's name (`PW`).
    pub white: &'a str,
    /// SGF `RE` value: `B+3.5`, `W+R`, `0` (draw), `Void`; empty while in progress.
    pub result: &'a str,
    /// When the game started (`DT`).
    pub started: SystemTime,
}

/// The SGF (`FF[4]`) text of `game`: one root node with the game's size, komi, rules,
/// players, date, result (when not empty) and setup stones (`AB`, `AW`, `PL`), then one
/// move node per line (`B[dd]`, `W[]` for a pass), then `)` and a newline.
pub fn write(game: &Game, info: &RecordInfo<'_>) -> String {
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
    if let Some(setup) = game.setup() {
        write_setup(&mut text, setup);
    }
    for &played in game.moves() {
        let _ = write!(text, "\n;{}", move_text(played));
    }
    text.push_str(")\n");
    text
}

/// Appends `AB`, `AW` (each only when it has stones, points sorted) and `PL`.
fn write_setup(text: &mut String, setup: &Setup) {
    for (property, points) in [("AB", &setup.black), ("AW", &setup.white)] {
        if points.is_empty() {
            continue;
        }
        let mut values: Vec<String> = points.iter().copied().map(point_text).collect();
        values.sort();
        text.push_str(property);
        for value in values {
            let _ = write!(text, "[{value}]");
        }
    }
    let _ = write!(text, "PL[{}]", colour_letter(setup.to_move));
}

/// Escapes `]` and `\` in a property value.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::{Colour, Komi, Move, Point, Rules};
    use std::time::UNIX_EPOCH;

    #[test]
    fn records_moves_passes_and_result() {
        let mut game = Game::new(9, Rules::default()).expect("9x9");
        assert!(
            game.play(Colour::Black, Move::Play(Point::new(2, 3)))
                .is_ok()
        );
        assert!(game.play(Colour::White, Move::Pass).is_ok());
        let text = write(
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

    #[test]
    fn records_a_setup_after_the_game_info() {
        let setup = Setup {
            black: vec![Point::new(2, 0), Point::new(0, 2), Point::new(0, 1)],
            white: vec![Point::new(1, 1)],
            to_move: Colour::White,
        };
        let rules = Rules {
            ko: KoRule::Simple,
            suicide: SuicideRule::MultiStoneAllowed,
            komi: Komi::from_halves(13),
        };
        let mut game = Game::from_setup(3, rules, &setup).expect("valid setup");
        game.play(Colour::White, Move::Play(Point::new(2, 2)))
            .expect("legal");
        let info = RecordInfo {
            black: "A\\n",
            white: "B",
            result: "",
            started: UNIX_EPOCH,
        };
        assert_eq!(
            write(&game, &info),
            format!(
                "(;FF[4]GM[1]CA[UTF-8]AP[goserver:{}]SZ[3]KM[6.5]RU[Tromp-Taylor area scoring, simple ko, suicide multi-stone allowed]PB[A\\\\n]PW[B]DT[1970-01-01]AB[ac][ba][ca]AW[bb]PL[W]\n;W[cc])\n",
                env!("CARGO_PKG_VERSION")
            )
        );
        // Only the colours that have stones get a property; PL is always there.
        let only_white = Setup {
            black: vec![],
            white: vec![Point::new(0, 0)],
            to_move: Colour::Black,
        };
        let game = Game::from_setup(2, Rules::default(), &only_white).expect("valid");
        let text = write(&game, &info);
        assert!(text.ends_with("DT[1970-01-01]AW[aa]PL[B])\n"), "{text}");
    }
}
