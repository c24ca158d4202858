//! Console lines to typed commands, and the one table of commands that drives both
//! `help` and tab completion. Pure: no I/O, no server state.

use crate::engine::bot::Level;
use crate::front::Front;
pub use crate::frontend::ArenaAction;
use std::fmt;
use std::path::PathBuf;

/// What an argument of a command is, for `help` and completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A player's granted name.
    Name,
    /// A game id.
    GameId,
    /// A player's name or a game id.
    NameOrGameId,
    /// A file path.
    File,
    /// A level of the practice bot, 1 to 5.
    Level,
    /// A front end: `go`, `spectrangle`, `bkgo`.
    FrontEnd,
    /// A count.
    Count,
    /// What to do with the arena: `pause`, `resume`.
    ArenaAction,
}

/// One argument of a command.
#[derive(Debug)]
pub struct Arg {
    /// How `help` names it: `game id`.
    pub name: &'static str,
    /// What it takes (completion).
    pub kind: ArgKind,
    /// Whether it may be left out.
    pub optional: bool,
}

/// One console command as `help` shows it.
#[derive(Debug)]
pub struct CommandSpec {
    /// The command word.
    pub name: &'static str,
    /// Its arguments, in order.
    pub args: &'static [Arg],
    /// What it does, one line.
    pub about: &'static str,
}

impl CommandSpec {
    /// The command with its arguments: `sgf <game id> [file]`.
    pub fn usage(&self) -> String {
        let mut usage = self.name.to_string();
        for arg in self.args {
            if arg.optional {
                usage.push_str(&format!(" [{}]", arg.name));
            } else {
                usage.push_str(&format!(" <{}>", arg.name));
            }
        }
        usage
    }
}

const GAME_ID: Arg = Arg {
    name: "game id",
    kind: ArgKind::GameId,
    optional: false,
};
const NAME: Arg = Arg {
    name: "name",
    kind: ArgKind::Name,
    optional: false,
};

/// Every console command, in the order `help` lists them.
pub const COMMANDS: &[CommandSpec] = &[
    CommandSpec {
        name: "help",
        args: &[],
        about: "list the commands",
    },
    CommandSpec {
        name: "games",
        args: &[],
        about: "one row per game: id, status, players, size, moves, turn, age",
    },
    CommandSpec {
        name: "players",
        args: &[],
        about: "one row per connection: name, peer, state, game, time connected, lines in/out",
    },
    CommandSpec {
        name: "board",
        args: &[GAME_ID],
        about: "draw a game's board, with last move, captures, turn and score so far",
    },
    CommandSpec {
        name: "kick",
        args: &[Arg {
            name: "name or game id",
            kind: ArgKind::NameOrGameId,
            optional: false,
        }],
        about: "disconnect a player (or both players of a game): the opponent wins",
    },
    CommandSpec {
        name: "trace",
        args: &[NAME],
        about: "print a client's protocol lines, in and out, as they pass",
    },
    CommandSpec {
        name: "untrace",
        args: &[NAME],
        about: "stop printing a client's protocol lines",
    },
    CommandSpec {
        name: "sgf",
        args: &[
            GAME_ID,
            Arg {
                name: "file",
                kind: ArgKind::File,
                optional: true,
            },
        ],
        about: "print a game's record (SGF), or write it to file",
    },
    CommandSpec {
        name: "bot",
        args: &[
            GAME_ID,
            Arg {
                name: "level",
                kind: ArgKind::Level,
                optional: true,
            },
        ],
        about: "seat the practice bot (level 1 to 5, default --bot-level) in a GO! game waiting for a partner, a Spectrangle lobby or the Bkgo room",
    },
    CommandSpec {
        name: "standings",
        args: &[Arg {
            name: "go|spectrangle|bkgo",
            kind: ArgKind::FrontEnd,
            optional: true,
        }],
        about: "ratings tables: rank, name, rating ± deviation, games and record",
    },
    CommandSpec {
        name: "results",
        args: &[Arg {
            name: "N",
            kind: ArgKind::Count,
            optional: true,
        }],
        about: "the last N finished games (default 10), newest first",
    },
    CommandSpec {
        name: "crosstable",
        args: &[],
        about: "GO!: each player's wins-losses against each other",
    },
    CommandSpec {
        name: "arena",
        args: &[Arg {
            name: "pause|resume",
            kind: ArgKind::ArenaAction,
            optional: true,
        }],
        about: "GO! arena: who waits, this round's games, the crosstable; pause or resume pairing",
    },
    CommandSpec {
        name: "report",
        args: &[Arg {
            name: "name",
            kind: ArgKind::Name,
            optional: true,
        }],
        about: "report cards: one row per client, the worst first; with a name, its whole card (mistakes with examples, move times)",
    },
    CommandSpec {
        name: "stats",
        args: &[],
        about: "clients, games, moves per second over the last minute, threads, uptime",
    },
    CommandSpec {
        name: "shutdown",
        args: &[],
        about: "finish every game and stop the server (same as Ctrl-C, Ctrl-D)",
    },
];

/// The spec of command `name`, if there is one.
pub fn spec(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name == name)
}

/// The most results `results N` lists (as many as are kept in memory).
pub const MOST_RESULTS: usize = crate::results::RECENT_KEPT;

/// Results `results` lists without a count.
pub const DEFAULT_RESULTS: usize = 10;

/// A parsed console line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Games,
    Players,
    /// A game id as the `games` table writes it (`1`, `s2`, `bkgo`): which front end
    /// it names is decided against the running front ends.
    Board(String),
    /// A name or a game id: which one is decided against the connected players.
    Kick(String),
    /// A game id, as for `Board`, and the bot's level if one was asked for.
    Bot(String, Option<Level>),
    Trace(String),
    Untrace(String),
    Sgf(String, Option<PathBuf>),
    /// One front end's standings, or all three.
    Standings(Option<Front>),
    /// The last this many results.
    Results(usize),
    Crosstable,
    Arena(ArenaAction),
    /// Every report card, or the cards of one name (the rest of the line: a name may
    /// hold blanks).
    Report(Option<String>),
    Stats,
    Shutdown,
}

/// Why a console line is not a command: one line for the operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses one console line. `Ok(None)` for a blank line.
///
/// # Errors
///
/// An unknown command, or missing, extra or malformed arguments.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let mut words = line.split_whitespace();
    let Some(word) = words.next() else {
        return Ok(None);
    };
    let args: Vec<&str> = words.collect();
    let Some(spec) = spec(word) else {
        return Err(CommandError(format!(
            "unknown command '{word}': type 'help' for the list of commands"
        )));
    };
    if spec.name == "report" {
        // A name may hold blanks ("Thiery Baudet"): the rest of the line is the name.
        let name = line.trim_start().strip_prefix(word).unwrap_or("").trim();
        return Ok(Some(Command::Report(
            (!name.is_empty()).then(|| name.to_string()),
        )));
    }
    let usage = format!("usage: {}", spec.usage());
    let usage = usage.as_str();
    if let Some(missing) = spec.args.get(args.len()).filter(|a| !a.optional) {
        return Err(CommandError(format!(
            "{} needs {}: {usage}",
            spec.name,
            with_article(missing.name)
        )));
    }
    if args.len() > spec.args.len() {
        let expected = match spec.args.len() {
            0 => "no arguments".to_string(),
            1 => "1 argument".to_string(),
            n => format!("at most {n} arguments"),
        };
        return Err(CommandError(format!(
            "{} takes {expected}, got {}: {usage}",
            spec.name,
            args.len()
        )));
    }
    let command = match spec.name {
        "help" => Command::Help,
        "games" => Command::Games,
        "players" => Command::Players,
        "board" => Command::Board(args[0].to_string()),
        "kick" => Command::Kick(args[0].to_string()),
        "bot" => {
            let level = match args.get(1).map(|text| text.parse::<Level>()) {
                None => None,
                Some(Ok(level)) => Some(level),
                Some(Err(refused)) => return Err(CommandError(format!("{refused}: {usage}"))),
            };
            Command::Bot(args[0].to_string(), level)
        }
        "trace" => Command::Trace(args[0].to_string()),
        "untrace" => Command::Untrace(args[0].to_string()),
        "sgf" => Command::Sgf(args[0].to_string(), args.get(1).map(PathBuf::from)),
        "standings" => Command::Standings(match args.first() {
            None => None,
            Some(word) => Some(Front::parse(word).ok_or_else(|| {
                CommandError(format!(
                    "'{word}' is not a front end: use go, spectrangle or bkgo, or none for all three: {usage}"
                ))
            })?),
        }),
        "results" => Command::Results(match args.first() {
            None => DEFAULT_RESULTS,
            Some(word) => word
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MOST_RESULTS).contains(n))
                .ok_or_else(|| {
                    CommandError(format!(
                        "'{word}' is not a number of results: use a whole number from 1 to {MOST_RESULTS}: {usage}"
                    ))
                })?,
        }),
        "crosstable" => Command::Crosstable,
        "arena" => Command::Arena(match args.first().copied() {
            None => ArenaAction::Show,
            Some("pause") => ArenaAction::Pause,
            Some("resume") => ArenaAction::Resume,
            Some(word) => {
                return Err(CommandError(format!(
                    "'{word}' is not an arena action: use 'arena', 'arena pause' or 'arena resume'"
                )));
            }
        }),
        "stats" => Command::Stats,
        _ => Command::Shutdown,
    };
    Ok(Some(command))
}

fn with_article(noun: &str) -> String {
    if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        assert_eq!(parse("help"), Ok(Some(Command::Help)));
        assert_eq!(parse("  games  "), Ok(Some(Command::Games)));
        assert_eq!(parse("players"), Ok(Some(Command::Players)));
        assert_eq!(parse("board 3"), Ok(Some(Command::Board("3".into()))));
        assert_eq!(parse("kick Bob"), Ok(Some(Command::Kick("Bob".into()))));
        assert_eq!(parse("trace Ann"), Ok(Some(Command::Trace("Ann".into()))));
        assert_eq!(
            parse("untrace Ann"),
            Ok(Some(Command::Untrace("Ann".into())))
        );
        assert_eq!(parse("sgf 1"), Ok(Some(Command::Sgf("1".into(), None))));
        assert_eq!(
            parse("sgf s2 /tmp/g.txt"),
            Ok(Some(Command::Sgf("s2".into(), Some("/tmp/g.txt".into()))))
        );
        assert_eq!(parse("stats"), Ok(Some(Command::Stats)));
        assert_eq!(parse("shutdown"), Ok(Some(Command::Shutdown)));
        assert_eq!(parse("   "), Ok(None));
    }

    #[test]
    fn bad_lines_get_one_line_reasons() {
        let error = |line| parse(line).unwrap_err().0;
        assert_eq!(
            error("frobnicate"),
            "unknown command 'frobnicate': type 'help' for the list of commands"
        );
        assert_eq!(
            error("board"),
            "board needs a game id: usage: board <game id>"
        );
        assert_eq!(
            error("kick"),
            "kick needs a name or game id: usage: kick <name or game id>"
        );
        assert_eq!(
            error("games 1"),
            "games takes no arguments, got 1: usage: games"
        );
        assert_eq!(
            error("sgf 1 a b"),
            "sgf takes at most 2 arguments, got 3: usage: sgf <game id> [file]"
        );
    }

    #[test]
    fn the_bot_command_takes_a_game_id_and_a_level() {
        assert_eq!(parse("bot 3"), Ok(Some(Command::Bot("3".into(), None))));
        assert_eq!(
            parse("bot 3 5"),
            Ok(Some(Command::Bot("3".into(), Some(Level::STRONGEST))))
        );
        // The Bkgo room is a game id like any other: which front end it is, and
        // whether its bot can sit, is the console's and the room's to say.
        assert_eq!(
            parse("bot bkgo 1"),
            Ok(Some(Command::Bot("bkgo".into(), Some(Level::WEAKEST))))
        );
        let error = |line| parse(line).unwrap_err().0;
        assert_eq!(
            error("bot"),
            "bot needs a game id: usage: bot <game id> [level]"
        );
        assert_eq!(
            error("bot 3 9"),
            "the bot's level is a whole number from 1 to 5, got '9': usage: bot <game id> [level]"
        );
        assert_eq!(
            error("bot 3 x"),
            "the bot's level is a whole number from 1 to 5, got 'x': usage: bot <game id> [level]"
        );
        assert_eq!(
            error("bot 3 4 5"),
            "bot takes at most 2 arguments, got 3: usage: bot <game id> [level]"
        );
        assert_eq!(spec("bot").map(|s| s.args[0].kind), Some(ArgKind::GameId));
        assert_eq!(spec("bot").map(|s| s.args[1].kind), Some(ArgKind::Level));
    }

    #[test]
    fn tournament_commands_and_their_bad_arguments() {
        assert_eq!(parse("standings"), Ok(Some(Command::Standings(None))));
        assert_eq!(
            parse("standings spectrangle"),
            Ok(Some(Command::Standings(Some(Front::Spectrangle))))
        );
        assert_eq!(parse("results"), Ok(Some(Command::Results(10))));
        assert_eq!(parse("results 3"), Ok(Some(Command::Results(3))));
        assert_eq!(parse("crosstable"), Ok(Some(Command::Crosstable)));
        assert_eq!(parse("arena"), Ok(Some(Command::Arena(ArenaAction::Show))));
        assert_eq!(
            parse("arena pause"),
            Ok(Some(Command::Arena(ArenaAction::Pause)))
        );
        let error = |line| parse(line).unwrap_err().0;
        assert_eq!(
            error("standings foo"),
            "'foo' is not a front end: use go, spectrangle or bkgo, or none for all three: usage: standings [go|spectrangle|bkgo]"
        );
        assert_eq!(
            error("results -3"),
            "'-3' is not a number of results: use a whole number from 1 to 1000: usage: results [N]"
        );
        assert_eq!(
            error("results 1001"),
            "'1001' is not a number of results: use a whole number from 1 to 1000: usage: results [N]"
        );
        assert_eq!(
            error("arena frobnicate"),
            "'frobnicate' is not an arena action: use 'arena', 'arena pause' or 'arena resume'"
        );
    }

    #[test]
    fn the_table_names_every_command_once() {
        for spec in COMMANDS {
            assert_eq!(COMMANDS.iter().filter(|c| c.name == spec.name).count(), 1);
            assert!(spec.usage().starts_with(spec.name));
        }
    }
}
