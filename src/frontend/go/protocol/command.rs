//! Client commands: the parsed form of every line a client may send.

use super::GameId;
use crate::cards::Mistake;
use crate::frontend::names;
use crate::frontend::quote::clip;
use std::fmt;

pub use names::MAX_NAME_CHARS;

/// The colour a leader asks for in `SET_CONFIG`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourChoice {
    /// `0`: the server draws the leader's colour.
    Random,
    /// `1`.
    Black,
    /// `2`.
    White,
}

/// One line from a client, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientCommand {
    /// `HANDSHAKE+<name>`: identify, ask to be matched.
    Handshake { name: String },
    /// `SET_CONFIG+<game id>+<colour 0-2>+<board size>`: the leader's configuration.
    /// The size is checked against the server's limits later, not here.
    SetConfig {
        game_id: GameId,
        colour: ColourChoice,
        size: u32,
    },
    /// `SET_REMATCH+<1|0>`: the answer to `REQUEST_REMATCH`.
    SetRematch { rematch: bool },
    /// `MOVE+<game id>+<name>+<index>`; an index of `-1` is a pass, any other value is
    /// kept as sent so the game can say why it is off the board.
    Move {
        game_id: GameId,
        player: String,
        index: i64,
    },
    /// `PASS+<game id>+<name>`: the draft protocol's pass, same as `MOVE+..+-1`.
    Pass { game_id: GameId, player: String },
    /// `EXIT+<game id>+<name>`: leave the game (and the server).
    Exit { game_id: GameId, player: String },
}

/// The line a client sends for this command (without its `\n`): the inverse of
/// [`parse`], used by `goserver check`, which speaks the protocol from the client's
/// side.
impl fmt::Display for ClientCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let keyword = self.keyword();
        match self {
            ClientCommand::Handshake { name } => write!(f, "{keyword}+{name}"),
            ClientCommand::SetConfig {
                game_id,
                colour,
                size,
            } => write!(f, "{keyword}+{game_id}+{}+{size}", colour.number()),
            ClientCommand::SetRematch { rematch } => write!(f, "{keyword}+{}", u8::from(*rematch)),
            ClientCommand::Move {
                game_id,
                player,
                index,
            } => write!(f, "{keyword}+{game_id}+{player}+{index}"),
            ClientCommand::Pass { game_id, player } | ClientCommand::Exit { game_id, player } => {
                write!(f, "{keyword}+{game_id}+{player}")
            }
        }
    }
}

impl ColourChoice {
    /// The protocol's digit: 0 random, 1 black, 2 white.
    pub fn number(self) -> u8 {
        match self {
            ColourChoice::Random => 0,
            ColourChoice::Black => 1,
            ColourChoice::White => 2,
        }
    }
}

impl ClientCommand {
    /// The keyword, for logs and error messages.
    pub fn keyword(&self) -> Keyword {
        match self {
            ClientCommand::Handshake { .. } => Keyword::Handshake,
            ClientCommand::SetConfig { .. } => Keyword::SetConfig,
            ClientCommand::SetRematch { .. } => Keyword::SetRematch,
            ClientCommand::Move { .. } => Keyword::Move,
            ClientCommand::Pass { .. } => Keyword::Pass,
            ClientCommand::Exit { .. } => Keyword::Exit,
        }
    }
}

/// The first field of a client's line: which command it is. Matched once, here, from
/// the text; everything after works with the enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    /// `HANDSHAKE`
    Handshake,
    /// `SET_CONFIG`
    SetConfig,
    /// `SET_REMATCH`
    SetRematch,
    /// `MOVE`
    Move,
    /// `PASS` (the draft protocol's)
    Pass,
    /// `EXIT`
    Exit,
}

impl Keyword {
    /// Every keyword, in the order the "unknown command" message lists them.
    pub const ALL: [Keyword; 6] = [
        Keyword::Handshake,
        Keyword::SetConfig,
        Keyword::SetRematch,
        Keyword::Move,
        Keyword::Pass,
        Keyword::Exit,
    ];

    /// How the protocol writes it.
    pub fn word(self) -> &'static str {
        match self {
            Keyword::Handshake => "HANDSHAKE",
            Keyword::SetConfig => "SET_CONFIG",
            Keyword::SetRematch => "SET_REMATCH",
            Keyword::Move => "MOVE",
            Keyword::Pass => "PASS",
            Keyword::Exit => "EXIT",
        }
    }

    /// How many fields its line has, the keyword included.
    fn fields(self) -> usize {
        match self {
            Keyword::Handshake | Keyword::SetRematch => 2,
            Keyword::Pass | Keyword::Exit => 3,
            Keyword::SetConfig | Keyword::Move => 4,
        }
    }

    /// Its fields in order, as the error messages spell them out.
    fn syntax(self) -> &'static str {
        match self {
            Keyword::Handshake => "HANDSHAKE, your name",
            Keyword::SetConfig => {
                "SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size"
            }
            Keyword::SetRematch => "SET_REMATCH, 1 for yes or 0 for no",
            Keyword::Move => "MOVE, game id, your name, tile index (-1 to pass)",
            Keyword::Pass => "PASS, game id, your name",
            Keyword::Exit => "EXIT, game id, your name",
        }
    }

    /// The keyword `text` is, written exactly.
    fn find(text: &str) -> Option<Keyword> {
        Keyword::ALL.into_iter().find(|k| k.word() == text)
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Why a line is not a command. The `Display` text is what the client receives after
/// `UNKNOWN_COMMAND+`: it names what was expected and what arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// The line was empty (or only blanks).
    EmptyLine,
    /// The first field is no keyword we know.
    UnknownKeyword { got: String },
    /// The keyword is known but written in the wrong case.
    WrongCase { got: String, keyword: Keyword },
    /// The keyword is right, the number of fields is not.
    FieldCount { keyword: Keyword, got: usize },
    /// A field that must be a number is not one (or is out of its range).
    NotANumber {
        keyword: Keyword,
        field: &'static str,
        got: String,
    },
    /// A number field holds a value the command does not allow.
    BadValue {
        keyword: Keyword,
        field: &'static str,
        expected: &'static str,
        got: String,
    },
    /// The name in HANDSHAKE breaks the name rules.
    BadName { reason: String },
    /// A number field is a number, but too large (or small) for its type.
    OutOfRange {
        keyword: Keyword,
        field: &'static str,
        got: String,
    },
    /// The line was longer than the server accepts (it was discarded).
    LineTooLong { max_bytes: usize },
    /// The line is not UTF-8 text.
    NotUtf8,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::EmptyLine => write!(
                f,
                "Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT"
            ),
            ParseError::UnknownKeyword { got } => write!(
                f,
                "Unknown command '{got}': expected one of {}",
                Keyword::ALL.map(Keyword::word).join(", ")
            ),
            ParseError::WrongCase { got, keyword } => write!(
                f,
                "Unknown command '{got}': commands are upper case, did you mean {keyword}?"
            ),
            ParseError::FieldCount { keyword, got } => write!(
                f,
                "Expected {} fields joined by plus signs ({}), got {got}",
                keyword.fields(),
                keyword.syntax()
            ),
            ParseError::NotANumber {
                keyword,
                field,
                got,
            } => write!(f, "{keyword}: {field} must be a whole number, got '{got}'"),
            ParseError::BadValue {
                keyword,
                field,
                expected,
                got,
            } => write!(f, "{keyword}: {field} must be {expected}, got {got}"),
            ParseError::BadName { reason } => write!(f, "HANDSHAKE: {reason}"),
            ParseError::OutOfRange {
                keyword,
                field,
                got,
            } => write!(f, "{keyword}: {field} is out of range, got '{got}'"),
            ParseError::LineTooLong { max_bytes } => {
                write!(f, "Line too long: at most {max_bytes} bytes per line")
            }
            ParseError::NotUtf8 => write!(f, "The line is not valid UTF-8 text"),
        }
    }
}

impl std::error::Error for ParseError {}

impl ParseError {
    /// The kind of mistake it is, on the sender's report card.
    pub fn mistake(&self) -> Mistake {
        match self {
            ParseError::EmptyLine => Mistake::EmptyLine,
            ParseError::UnknownKeyword { .. } => Mistake::UnknownCommand,
            ParseError::WrongCase { .. } => Mistake::WrongCase,
            ParseError::FieldCount { .. } => Mistake::FieldCount,
            ParseError::NotANumber { .. } | ParseError::OutOfRange { .. } => Mistake::NotANumber,
            ParseError::BadValue { .. } => Mistake::BadValue,
            ParseError::BadName { .. } => Mistake::BadName,
            ParseError::LineTooLong { .. } => Mistake::LineTooLong,
            ParseError::NotUtf8 => Mistake::NotUtf8,
        }
    }

    /// The command the line was meant to be, when its keyword is known (in any case):
    /// a malformed SET_CONFIG still answers a REQUEST_CONFIG.
    pub fn keyword(&self) -> Option<Keyword> {
        match self {
            ParseError::WrongCase { keyword, .. }
            | ParseError::FieldCount { keyword, .. }
            | ParseError::NotANumber { keyword, .. }
            | ParseError::BadValue { keyword, .. }
            | ParseError::OutOfRange { keyword, .. } => Some(*keyword),
            ParseError::EmptyLine
            | ParseError::UnknownKeyword { .. }
            | ParseError::BadName { .. }
            | ParseError::LineTooLong { .. }
            | ParseError::NotUtf8 => None,
        }
    }
}

/// Parses one line (without its line ending) into a command.
///
/// Fields are split on `+` and trimmed of surrounding blanks; keywords must be upper
/// case exactly as the spec writes them.
///
/// # Errors
///
/// A [`ParseError`] saying what was expected and what arrived.
pub fn parse(line: &str) -> Result<ClientCommand, ParseError> {
    let fields: Vec<&str> = line.split('+').map(str::trim).collect();
    let keyword_text = fields[0];
    if fields.len() == 1 && keyword_text.is_empty() {
        return Err(ParseError::EmptyLine);
    }
    let Some(keyword) = Keyword::find(keyword_text) else {
        return Err(
            match Keyword::ALL
                .into_iter()
                .find(|k| k.word().eq_ignore_ascii_case(keyword_text))
            {
                Some(keyword) => ParseError::WrongCase {
                    got: clip(keyword_text),
                    keyword,
                },
                None => ParseError::UnknownKeyword {
                    got: clip(keyword_text),
                },
            },
        );
    };
    if fields.len() != keyword.fields() {
        return Err(ParseError::FieldCount {
            keyword,
            got: fields.len(),
        });
    }
    let args = &fields[1..];
    match keyword {
        Keyword::Handshake => Ok(ClientCommand::Handshake {
            name: valid_name(args[0])?,
        }),
        Keyword::SetConfig => Ok(ClientCommand::SetConfig {
            game_id: game_id(keyword, args[0])?,
            colour: colour_choice(args[1])?,
            size: number::<u32>(keyword, "board size", args[2])?,
        }),
        Keyword::SetRematch => match number::<i64>(keyword, "the answer", args[0])? {
            1 => Ok(ClientCommand::SetRematch { rematch: true }),
            0 => Ok(ClientCommand::SetRematch { rematch: false }),
            other => Err(ParseError::BadValue {
                keyword,
                field: "the answer",
                expected: "1 (yes) or 0 (no)",
                got: other.to_string(),
            }),
        },
        Keyword::Move => Ok(ClientCommand::Move {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
            index: number::<i64>(keyword, "tile index (-1 to pass)", args[2])?,
        }),
        Keyword::Pass => Ok(ClientCommand::Pass {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
        }),
        Keyword::Exit => Ok(ClientCommand::Exit {
            game_id: game_id(keyword, args[0])?,
            player: args[1].to_string(),
        }),
    }
}

fn game_id(keyword: Keyword, text: &str) -> Result<GameId, ParseError> {
    number::<u32>(keyword, "game id", text).map(GameId)
}

fn number<T: std::str::FromStr>(
    keyword: Keyword,
    field: &'static str,
    text: &str,
) -> Result<T, ParseError> {
    text.parse().map_err(|_| {
        let digits = text.strip_prefix('-').unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            ParseError::OutOfRange {
                keyword,
                field,
                got: clip(text),
            }
        } else {
            ParseError::NotANumber {
                keyword,
                field,
                got: clip(text),
            }
        }
    })
}

fn colour_choice(text: &str) -> Result<ColourChoice, ParseError> {
    match number::<i64>(Keyword::SetConfig, "colour", text)? {
        0 => Ok(ColourChoice::Random),
        1 => Ok(ColourChoice::Black),
        2 => Ok(ColourChoice::White),
        other => Err(ParseError::BadValue {
            keyword: Keyword::SetConfig,
            field: "colour",
            expected: "0 (random), 1 (black) or 2 (white)",
            got: other.to_string(),
        }),
    }
}

/// Checks the name rules shared by the front ends (see `frontend::names`).
fn valid_name(name: &str) -> Result<String, ParseError> {
    match names::check(name) {
        Ok(()) => Ok(name.to_string()),
        Err(broken) => Err(ParseError::BadName {
            reason: broken.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        let table = [
            (
                "HANDSHAKE+Thiery Baudet",
                ClientCommand::Handshake {
                    name: "Thiery Baudet".into(),
                },
            ),
            (
                "SET_CONFIG+3+1+9",
                ClientCommand::SetConfig {
                    game_id: GameId(3),
                    colour: ColourChoice::Black,
                    size: 9,
                },
            ),
            (
                "SET_CONFIG + 3 + 0 + 19 ",
                ClientCommand::SetConfig {
                    game_id: GameId(3),
                    colour: ColourChoice::Random,
                    size: 19,
                },
            ),
            ("SET_REMATCH+1", ClientCommand::SetRematch { rematch: true }),
            (
                "SET_REMATCH+0",
                ClientCommand::SetRematch { rematch: false },
            ),
            (
                "MOVE+1+Bob+9",
                ClientCommand::Move {
                    game_id: GameId(1),
                    player: "Bob".into(),
                    index: 9,
                },
            ),
            (
                "MOVE+1+Bob+-1",
                ClientCommand::Move {
                    game_id: GameId(1),
                    player: "Bob".into(),
                    index: -1,
                },
            ),
            (
                "PASS+1+Bob",
                ClientCommand::Pass {
                    game_id: GameId(1),
                    player: "Bob".into(),
                },
            ),
            (
                "EXIT+1+Bob",
                ClientCommand::Exit {
                    game_id: GameId(1),
                    player: "Bob".into(),
                },
            ),
        ];
        for (line, expected) in table {
            assert_eq!(parse(line), Ok(expected), "{line}");
        }
    }

    #[test]
    fn every_command_formats_as_the_line_it_is_parsed_from() {
        for line in [
            "HANDSHAKE+Thiery Baudet",
            "SET_CONFIG+3+0+19",
            "SET_CONFIG+3+2+9",
            "SET_REMATCH+1",
            "SET_REMATCH+0",
            "MOVE+1+Bob+-1",
            "MOVE+12+Bob+360",
            "PASS+1+Bob",
            "EXIT+1+Bob",
        ] {
            let command = parse(line).expect(line);
            assert_eq!(command.to_string(), line);
            assert_eq!(parse(&command.to_string()), Ok(command));
        }
    }

    #[test]
    fn rejections_say_what_was_expected() {
        let table = [
            (
                "",
                "Empty line: expected a command such as HANDSHAKE, SET_CONFIG, MOVE or EXIT",
            ),
            (
                "HELLO+x",
                "Unknown command 'HELLO': expected one of HANDSHAKE, SET_CONFIG, SET_REMATCH, MOVE, PASS, EXIT",
            ),
            (
                "move+1+Bob+3",
                "Unknown command 'move': commands are upper case, did you mean MOVE?",
            ),
            (
                "MOVE+1+3",
                "Expected 4 fields joined by plus signs (MOVE, game id, your name, tile index (-1 to pass)), got 3",
            ),
            (
                "SET_CONFIG+1+9",
                "Expected 4 fields joined by plus signs (SET_CONFIG, game id, colour (0 random, 1 black, 2 white), board size), got 3",
            ),
            (
                "MOVE+x+Bob+3",
                "MOVE: game id must be a whole number, got 'x'",
            ),
            (
                "MOVE+1+Bob+three",
                "MOVE: tile index (-1 to pass) must be a whole number, got 'three'",
            ),
            (
                "SET_CONFIG+1+5+9",
                "SET_CONFIG: colour must be 0 (random), 1 (black) or 2 (white), got 5",
            ),
            (
                "SET_REMATCH+2",
                "SET_REMATCH: the answer must be 1 (yes) or 0 (no), got 2",
            ),
            ("HANDSHAKE+", "HANDSHAKE: the name must not be empty"),
            (
                "MOVE+1+Bob+11111111111111111111111111",
                "MOVE: tile index (-1 to pass) is out of range, got '11111111111111111111111111'",
            ),
            ("MOVE+-1+Bob+1", "MOVE: game id is out of range, got '-1'"),
            (
                "HANDSHAKE+a\u{7}b",
                "HANDSHAKE: the name must not contain control characters",
            ),
            (
                "HANDSHAKE+abcdefghijklmnopqrstuvwxyz0123456789",
                "HANDSHAKE: the name may have at most 32 characters, got 36",
            ),
        ];
        for (line, expected) in table {
            let error = parse(line).expect_err(line);
            assert_eq!(error.to_string(), expected, "{line}");
            assert!(!error.to_string().contains('+'), "{line}");
        }
    }

    #[test]
    fn any_input_is_a_value_not_a_panic() {
        for line in [
            "+",
            "++++",
            "MOVE++++",
            "HANDSHAKE+ ",
            "\u{0}",
            "MOVE+99999999999+a+1",
        ] {
            let _ = parse(line);
        }
    }
}
