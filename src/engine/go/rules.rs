//! The rule variants a game can be played under: ko, suicide and komi.

use std::fmt;

/// Which repetitions of the whole board are forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoRule {
    /// No move may recreate any earlier board position of the game (the default).
    #[default]
    Positional,
    /// No move may recreate an earlier board position with the same player to move.
    Situational,
    /// Only the immediate recapture of a single stone in a ko is forbidden.
    Simple,
}

/// Whether a move may leave its own group without liberties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SuicideRule {
    /// Every suicide is illegal (the default).
    #[default]
    Forbidden,
    /// A suicide of two or more stones is legal and removes them (Tromp-Taylor,
    /// New Zealand); single-stone suicide stays illegal.
    MultiStoneAllowed,
}

/// Komi in half points, so 6.5 is exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Komi(i32);

impl Komi {
    /// The komi of `h` half points: `from_halves(13)` is 6.5.
    pub fn from_halves(h: i32) -> Komi {
        Komi(h)
    }

    /// The komi in half points.
    pub fn halves(self) -> i32 {
        self.0
    }

    /// Parses a komi such as `"0"`, `"6.5"`, `"-3"` or `"7.0"`.
    ///
    /// `None` unless the text is a decimal number that is a multiple of 0.5.
    pub fn parse(text: &str) -> Option<Komi> {
        let text = text.trim();
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if !fraction.bytes().all(|b| b.is_ascii_digit())
            || (digits.contains('.') && fraction.is_empty())
        {
            return None;
        }
        let half = match fraction.trim_end_matches('0') {
            "" => 0,
            "5" => 1,
            _ => return None,
        };
        let whole: i64 = whole.parse().ok()?;
        let halves = whole.checked_mul(2)?.checked_add(half)?;
        let halves = i32::try_from(if negative { -halves } else { halves }).ok()?;
        Some(Komi(halves))
    }

    /// Whether the komi is a whole number of points.
    pub fn is_whole(self) -> bool {
        self.0 % 2 == 0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_halves(i64::from(self.0)))
    }
}

/// Formats a number of half points: `"7"`, `"6.5"`, `"-0.5"`.
pub(crate) fn format_halves(halves: i64) -> String {
    let sign = if halves < 0 { "-" } else { "" };
    let magnitude = halves.unsigned_abs();
    if magnitude.is_multiple_of(2) {
        format!("{sign}{}", magnitude / 2)
    } else {
        format!("{sign}{}.5", magnitude / 2)
    }
}

/// The complete rule set of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rules {
    /// Which repetitions are forbidden.
    pub ko: KoRule,
    /// Whether multi-stone suicide is allowed.
    pub suicide: SuicideRule,
    /// Points added to white's score.
    pub komi: Komi,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_parse_and_display() {
        let good = [
            ("0", 0, "0"),
            ("6.5", 13, "6.5"),
            ("-3", -6, "-3"),
            ("7.0", 14, "7"),
            ("7.50", 15, "7.5"),
            ("-0.5", -1, "-0.5"),
            ("+2", 4, "2"),
            (" 5.5 ", 11, "5.5"),
            ("-0", 0, "0"),
        ];
        for (text, halves, shown) in good {
            let komi = Komi::parse(text).unwrap_or_else(|| panic!("{text:?} should parse"));
            assert_eq!(komi.halves(), halves, "{text:?}");
            assert_eq!(komi.to_string(), shown, "{text:?}");
            assert_eq!(komi.is_whole(), halves % 2 == 0);
        }
        for bad in [
            "",
            "-",
            ".5",
            "6.",
            "6.25",
            "6.3",
            "abc",
            "1e3",
            "6,5",
            "--1",
            "99999999999999999999",
            "3000000000",
            "0x10",
        ] {
            assert_eq!(Komi::parse(bad), None, "{bad:?}");
        }
        assert_eq!(Komi::from_halves(-7).to_string(), "-3.5");
        assert_eq!(Komi::default(), Komi::from_halves(0));
    }

    #[test]
    fn defaults() {
        let rules = Rules::default();
        assert_eq!(rules.ko, KoRule::Positional);
        assert_eq!(rules.suicide, SuicideRule::Forbidden);
        assert_eq!(rules.komi.halves(), 0);
    }
}
