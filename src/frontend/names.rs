//! Player names, as every Go front end grants them: the rules a name must follow, and
//! the `_2`, `_3`, ... suffix that makes a taken name unique.
//!
//! It does not know where names are registered (a GO! lobby, a Bkgo room): the caller
//! says which names are taken.

use crate::engine::bot::Level;
use std::fmt;

/// The longest player name accepted, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Why a name is refused. `Display` is the reason a client reads, without the command
/// that carried the name (each front end says that).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// The name is empty (or only blanks, which the protocols trim).
    Empty,
    /// The name holds a control character (a tab, a bell, ...).
    ControlCharacter,
    /// The name holds a `+`, the GO! field separator.
    PlusSign,
    /// The name is longer than [`MAX_NAME_CHARS`].
    TooLong {
        /// Its length in characters.
        chars: usize,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the name must not be empty"),
            NameError::ControlCharacter => {
                write!(f, "the name must not contain control characters")
            }
            NameError::PlusSign => write!(f, "the name must not contain a plus sign"),
            NameError::TooLong { chars } => write!(
                f,
                "the name may have at most {MAX_NAME_CHARS} characters, got {chars}"
            ),
        }
    }
}

impl std::error::Error for NameError {}

/// The name GoBot of `level` asks for, in GO! and in the Bkgo room: `GoBot-L3`
/// (granted as `GoBot-L3_2`, ... when taken), so that games, logs and records tell
/// levels apart, and tell the bot from a client.
pub fn bot_name(level: Level) -> String {
    format!("GoBot-L{level}")
}

/// Checks the name rules: not empty, no control characters, no `+`, at most
/// [`MAX_NAME_CHARS`] characters (checked in that order).
///
/// # Errors
///
/// The first rule `name` breaks.
pub fn check(name: &str) -> Result<(), NameError> {
    let chars = name.chars().count();
    if name.is_empty() {
        Err(NameError::Empty)
    } else if name.chars().any(char::is_control) {
        Err(NameError::ControlCharacter)
    } else if name.contains('+') {
        Err(NameError::PlusSign)
    } else if chars > MAX_NAME_CHARS {
        Err(NameError::TooLong { chars })
    } else {
        Ok(())
    }
}

/// `wanted` if it is free, else the first free `wanted_2`, `wanted_3`, ... A granted
/// name follows the rules too: a long `wanted` is cut so that it and its suffix fit
/// in [`MAX_NAME_CHARS`].
pub fn grant(wanted: &str, is_taken: impl Fn(&str) -> bool) -> String {
    if !is_taken(wanted) {
        return wanted.to_string();
    }
    // Some suffix is free: fewer names are taken than there are numbers.
    (2u64..)
        .map(|n| {
            let suffix = format!("_{n}");
            let room = MAX_NAME_CHARS.saturating_sub(suffix.len());
            let base: String = wanted.chars().take(room).collect();
            base + &suffix
        })
        .find(|candidate| !is_taken(candidate))
        .unwrap_or_else(|| wanted.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_in_order() {
        let table = [
            ("Ann", Ok(())),
            ("Thiery Baudet", Ok(())),
            (&"x".repeat(32), Ok(())),
            ("", Err(NameError::Empty)),
            ("a\tb", Err(NameError::ControlCharacter)),
            ("a+\u{7}", Err(NameError::ControlCharacter)),
            ("a+b", Err(NameError::PlusSign)),
            (&"x".repeat(33), Err(NameError::TooLong { chars: 33 })),
            (&"é".repeat(32), Ok(())),
        ];
        for (name, verdict) in table {
            assert_eq!(check(name), verdict, "{name:?}");
        }
        assert_eq!(
            NameError::TooLong { chars: 40 }.to_string(),
            "the name may have at most 32 characters, got 40"
        );
    }

    #[test]
    fn taken_names_get_the_first_free_suffix() {
        let taken = ["Bob", "Bob_2", "Bob_4"];
        let is_taken = |name: &str| taken.contains(&name);
        assert_eq!(grant("Ann", is_taken), "Ann");
        assert_eq!(grant("Bob", is_taken), "Bob_3");
        assert_eq!(grant("Bob_2", is_taken), "Bob_2_2");
    }

    #[test]
    fn a_granted_name_keeps_to_the_longest_name() {
        let long = "é".repeat(MAX_NAME_CHARS);
        let granted = grant(&long, |name| name == long);
        assert_eq!(granted, format!("{}_2", "é".repeat(30)));
        assert_eq!(check(&granted), Ok(()));
        let taken = [long.clone(), granted.clone()];
        let third = grant(&long, |name| taken.iter().any(|t| t == name));
        assert_eq!(third, format!("{}_3", "é".repeat(30)));
    }
}
