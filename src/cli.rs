//! The command line: every flag, its default and its help text.

use crate::engine::bot::Level;
use crate::engine::go::{KoRule, Komi, MAX_SIZE, MIN_SIZE, Rules, SuicideRule};
use crate::secret::Secret;
use crate::server::Protocol;
use crate::settings::{
    ArenaSettings, BkgoSettings, DEFAULT_ARENA_MOVE_CLOCK, DEFAULT_ARENA_ROUND_SECONDS,
    DEFAULT_ARENA_SIZE, DEFAULT_MAX_WEB_CLIENTS, Settings,
};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// A game server for teaching labs: students' clients connect over TCP and play Go
/// (GO! protocol), Spectrangle, or Go in the shared Bkgo 0.6 room, each on its own
/// port; the operator watches through the console on this terminal.
#[derive(Parser, Debug)]
#[command(
    name = "goserver",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Options {
    /// Instead of serving: `goserver check go HOST:PORT` runs the conformance suite
    /// against another server.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Address to listen on.
    #[arg(long, default_value = "0.0.0.0")]
    pub host: String,
    /// GO! port, or `off`; 0 picks a free port (see the "listening on" log lines), and
    /// makes the other front ends' default ports 0 too.
    #[arg(long, default_value = "8000", value_name = "N|off", value_parser = parse_port)]
    pub port: Port,
    /// Spectrangle port, or `off`; default: the GO! port + 1 (0 when --port is 0).
    #[arg(long, value_name = "N|off", value_parser = parse_port)]
    pub spectrangle_port: Option<Port>,
    /// Seed of every random choice (colours, Spectrangle's bag and turn order, the
    /// bot's playouts), so that a run can be repeated; default: random.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Komi added to white's score: a multiple of 0.5 (e.g. 0, 6.5, 7).
    #[arg(long, default_value = "0", value_parser = parse_komi, allow_negative_numbers = true)]
    pub komi: Komi,
    /// Largest board a leader may ask for (2 to 25).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u16).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    pub max_board_size: u16,
    /// Ko rule: positional superko, situational superko, or simple ko only.
    #[arg(long, value_enum, default_value_t = KoOption::Positional)]
    pub ko: KoOption,
    /// Allow multi-stone suicide (single-stone suicide stays illegal).
    #[arg(long)]
    pub allow_suicide: bool,
    /// Seconds a leader has to send SET_CONFIG before defaults apply (random colour,
    /// 9x9); 0 waits forever.
    #[arg(long, default_value_t = 60, value_name = "S", value_parser = seconds_parser())]
    pub config_timeout: u64,
    /// Seconds players have to answer REQUEST_REMATCH (no answer counts as no); 0
    /// waits forever.
    #[arg(long, default_value_t = 60, value_name = "S", value_parser = seconds_parser())]
    pub rematch_timeout: u64,
    /// Seconds a player has for each move (GO!: the game is lost; Spectrangle: the
    /// turn is skipped); 0 is no limit [default: no limit; with --arena, 30 for the
    /// arena's games].
    #[arg(long, value_name = "S", value_parser = seconds_parser())]
    pub move_timeout: Option<u64>,
    /// Seconds a client not in a game has to identify (GO!'s HANDSHAKE,
    /// Spectrangle's JOIN, Bkgo's Player:) before it is disconnected; 0 waits forever.
    #[arg(long, default_value_t = 60, value_name = "S", value_parser = seconds_parser())]
    pub handshake_timeout: u64,
    /// Clients connected at once (at least 1); more are refused with a message.
    #[arg(long, default_value_t = 10_000, value_name = "N", value_parser = parse_max_clients)]
    pub max_clients: usize,
    /// Write every finished game's record into this directory (SGF for Go, a text
    /// record for Spectrangle).
    #[arg(long, value_name = "DIR")]
    pub records: Option<PathBuf>,
    /// Log level on the terminal (and in the log file).
    #[arg(long, value_enum, default_value_t = LogLevel::Info)]
    pub log_level: LogLevel,
    /// Also append the log to this file.
    #[arg(long, value_name = "PATH")]
    pub log_file: Option<PathBuf>,
    /// Do not read operator commands from stdin.
    #[arg(long)]
    pub no_console: bool,
    /// Seconds a GO! game waits for a partner before the server's practice bot takes
    /// the seat; 0 never (the console's `bot <game id>` still seats it).
    #[arg(long, default_value_t = 0, value_name = "S", value_parser = seconds_parser())]
    pub bot_after: u64,
    /// Seconds a Spectrangle lobby's only player, once READY, waits before the practice
    /// bot (SpectraBot) joins and the game starts; 0 never (the console's
    /// `bot <game id>` still seats it).
    #[arg(long, default_value_t = 0, value_name = "S", value_parser = seconds_parser())]
    pub spectrangle_bot_after: u64,
    /// Seconds a player sits alone in the Bkgo room (the other seat free) before the
    /// practice bot (GoBot, at --bot-level) takes the free seat; 0 never (the
    /// console's `bot bkgo` still seats it).
    #[arg(long, default_value_t = 0, value_name = "S", value_parser = seconds_parser())]
    pub bkgo_bot_after: u64,
    /// Milliseconds the practice bot thinks about each move (1 to 60000).
    #[arg(long, default_value_t = 300, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=MAX_BOT_THINK_MS))]
    pub bot_think_ms: u64,
    /// Level of the practice bot, 1 to 5: 1 plays fast and loose (a careful beginner
    /// beats it), 5 uses the whole think time. The console's `bot <game id> <level>`
    /// seats another level.
    #[arg(long, default_value_t = Level::DEFAULT, value_name = "1-5", value_parser = parse_level)]
    pub bot_level: Level,
    /// Port of the Bkgo 0.6 front end (one shared Go room), or `off`; by default the
    /// GO! port + 2 (free ports too when --port is 0).
    #[arg(long, value_name = "N|off", value_parser = parse_port)]
    pub bkgo_port: Option<Port>,
    /// Board size of the Bkgo room, 2 to --max-board-size [default: 19, or
    /// --max-board-size when smaller].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(MIN_SIZE as i64..=MAX_SIZE as i64))]
    pub bkgo_size: Option<u16>,
    /// Turn Bkgo's remote shutdown on: the first line of this file is the password
    /// (read at start). Without it, remote shutdown is off.
    #[arg(long, value_name = "PATH")]
    pub bkgo_password_file: Option<PathBuf>,
    /// Port of the live web board (every game, read-only, in a browser), or `off`; by
    /// default the GO! port + 3 (a free port too when --port is 0).
    #[arg(long, value_name = "N|off", value_parser = parse_port)]
    pub web_port: Option<Port>,
    /// Web connections open at once (at least 1); one more is answered 503.
    #[arg(long, default_value_t = DEFAULT_MAX_WEB_CLIENTS, value_name = "N", value_parser = parse_max_web_clients)]
    pub max_web_clients: usize,
    /// Append every finished game's result to this file as a JSON line (synced before
    /// the players hear the end), and rebuild the standings from it at start.
    #[arg(long, value_name = "PATH")]
    pub results: Option<PathBuf>,
    /// Run GO! as an arena: the server pairs the waiting players in rounds (least met
    /// first, colours balanced) on a board of --arena-size with --komi; nobody leads.
    #[arg(long)]
    pub arena: bool,
    /// Board size of the arena's games, 2 to --max-board-size [default: 9, or
    /// --max-board-size when smaller].
    #[arg(long, value_name = "N", value_parser = parse_arena_size)]
    pub arena_size: Option<u16>,
    /// Seconds between the arena's pairing rounds (at least 1).
    #[arg(long, default_value_t = DEFAULT_ARENA_ROUND_SECONDS, value_name = "S", value_parser = parse_arena_round)]
    pub arena_round: u64,
}

/// What the binary does instead of serving.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run the conformance suite of a protocol against a server (a student's): every
    /// case with its verdict and wire log; JUnit, HTML and JSON reports.
    Check(crate::check::CheckOptions),
    /// Play on a server (a student's) as a correct client: the practice bot's moves,
    /// or yours with --human; GO! or Spectrangle, as their documents say.
    Play(crate::play::PlayOptions),
}

/// A port flag's value: a port number, or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Port {
    /// Listen on this port (0: a free one).
    Number(u16),
    /// Do not serve this front end.
    Off,
}

fn parse_port(text: &str) -> Result<Port, String> {
    if text == "off" {
        return Ok(Port::Off);
    }
    text.parse::<u16>()
        .map(Port::Number)
        .map_err(|_| format!("'{text}' is not a port: use a number from 0 to 65535, or off"))
}

fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<Level>().map_err(|e| e.to_string())
}

/// The longest the bot may think about a move, in milliseconds: a minute.
const MAX_BOT_THINK_MS: u64 = 60_000;

/// The port of a front end whose flag is `given` and whose default is `offset` above
/// `base`, the GO! port (0 when that is 0: every port free); `None` when it is off.
///
/// # Errors
///
/// When the default would be past the last port.
fn front_end_port(
    given: Option<Port>,
    base: u16,
    offset: u16,
    flag: &str,
) -> Result<Option<u16>, String> {
    match given {
        Some(Port::Off) => Ok(None),
        Some(Port::Number(port)) => Ok(Some(port)),
        None if base == 0 => Ok(Some(0)),
        None => base.checked_add(offset).map(Some).ok_or_else(|| {
            format!(
                "{flag} defaults to the GO! port + {offset}, which is past 65535: give {flag} N or off"
            )
        }),
    }
}

/// The `--ko` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum KoOption {
    /// A move may not repeat any earlier whole-board position.
    Positional,
    /// A move may not repeat an earlier position with the same player to move.
    Situational,
    /// Only the immediate recapture of a single stone is forbidden.
    Simple,
}

/// The `--log-level` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl LogLevel {
    /// The matching `log` filter.
    pub fn filter(self) -> log::LevelFilter {
        match self {
            LogLevel::Error => log::LevelFilter::Error,
            LogLevel::Warn => log::LevelFilter::Warn,
            LogLevel::Info => log::LevelFilter::Info,
            LogLevel::Debug => log::LevelFilter::Debug,
            LogLevel::Trace => log::LevelFilter::Trace,
        }
    }
}

/// The longest timeout accepted, in seconds: a week.
const MAX_TIMEOUT_SECONDS: u64 = 7 * 24 * 3600;

fn seconds_parser() -> clap::builder::RangedU64ValueParser<u64> {
    clap::value_parser!(u64).range(0..=MAX_TIMEOUT_SECONDS)
}

fn parse_max_web_clients(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of web connections: use a whole number of at least 1"
        )),
    }
}

fn parse_max_clients(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "'{text}' is not a number of clients: use a whole number of at least 1"
        )),
    }
}

/// A board size for the arena: a whole number; whether it fits --max-board-size is
/// checked with the other flags ([`Options::arena_settings`]), which names the range.
fn parse_arena_size(text: &str) -> Result<u16, String> {
    text.parse::<u16>()
        .map_err(|_| format!("'{text}' is not a board size: give a whole number, e.g. 9"))
}

fn parse_arena_round(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (1..=MAX_TIMEOUT_SECONDS).contains(&n) => Ok(n),
        _ => Err(format!(
            "'{text}' is not a time between pairing rounds: give a whole number of seconds, at least 1 (at most {MAX_TIMEOUT_SECONDS}, a week)"
        )),
    }
}

fn parse_komi(text: &str) -> Result<Komi, String> {
    Komi::parse(text)
        .ok_or_else(|| format!("'{text}' is not a komi: use a multiple of 0.5, e.g. 6.5"))
}

/// Seconds to a timeout, where 0 means none.
fn seconds(s: u64) -> Option<Duration> {
    (s > 0).then(|| Duration::from_secs(s))
}

impl Options {
    /// The front ends to serve and their ports, GO! first: each port flag as given, or
    /// its default (the GO! port plus the front end's offset; 0 when the GO! port is 0).
    ///
    /// # Errors
    ///
    /// A default port past 65535, or every front end off.
    pub fn ports(&self) -> Result<Vec<(Protocol, u16)>, String> {
        let go = match self.port {
            Port::Number(port) => Some(port),
            Port::Off => None,
        };
        // The base of the other defaults: the GO! port, or its own default when off.
        let base = go.unwrap_or(8000);
        let others = [
            (
                Protocol::Spectrangle,
                self.spectrangle_port,
                1,
                "--spectrangle-port",
            ),
            (Protocol::Bkgo, self.bkgo_port, 2, "--bkgo-port"),
        ];
        let mut ports: Vec<(Protocol, u16)> =
            go.map(|port| (Protocol::Go, port)).into_iter().collect();
        for (protocol, given, offset, flag) in others {
            if let Some(port) = front_end_port(given, base, offset, flag)? {
                ports.push((protocol, port));
            }
        }
        if ports.is_empty() {
            return Err("every front end is off: give at least one port".to_string());
        }
        Ok(ports)
    }

    /// The web board's port: `--web-port`, or the GO! port + 3; `None` when off.
    ///
    /// # Errors
    ///
    /// When the default would be past the last port.
    pub fn web_port(&self) -> Result<Option<u16>, String> {
        let base = match self.port {
            Port::Number(port) => port,
            Port::Off => 8000,
        };
        front_end_port(self.web_port, base, 3, "--web-port")
    }

    /// The arena's settings when `--arena` is given.
    ///
    /// # Errors
    ///
    /// An `--arena-size` outside 2 to `--max-board-size`.
    pub fn arena_settings(&self) -> Result<Option<ArenaSettings>, String> {
        let largest = usize::from(self.max_board_size);
        // A size given is checked with or without --arena: a typo is said at once.
        let size = match self.arena_size {
            Some(size) => {
                let size = usize::from(size);
                if !(MIN_SIZE..=largest).contains(&size) {
                    return Err(format!(
                        "--arena-size {size} is not a board size the arena can use: give a size from {MIN_SIZE} to {largest} (--max-board-size)"
                    ));
                }
                size
            }
            None => DEFAULT_ARENA_SIZE.min(largest),
        };
        if !self.arena {
            return Ok(None);
        }
        Ok(Some(ArenaSettings {
            size,
            round: Duration::from_secs(self.arena_round),
            // A tournament must not hang on a client that never moves.
            move_clock: match self.move_timeout {
                None => Some(DEFAULT_ARENA_MOVE_CLOCK),
                Some(seconds_given) => seconds(seconds_given),
            },
        }))
    }

    /// The server settings these options ask for.
    pub fn settings(&self) -> Settings {
        Settings {
            rules: Rules {
                ko: match self.ko {
                    KoOption::Positional => KoRule::Positional,
                    KoOption::Situational => KoRule::Situational,
                    KoOption::Simple => KoRule::Simple,
                },
                suicide: if self.allow_suicide {
                    SuicideRule::MultiStoneAllowed
                } else {
                    SuicideRule::Forbidden
                },
                komi: self.komi,
            },
            max_board_size: usize::from(self.max_board_size),
            config_timeout: seconds(self.config_timeout),
            rematch_timeout: seconds(self.rematch_timeout),
            move_timeout: self.move_timeout.and_then(seconds),
            handshake_timeout: seconds(self.handshake_timeout),
            max_clients: self.max_clients,
            max_web_clients: self.max_web_clients,
            records: self.records.clone(),
            seed: self.seed,
            bot_after: seconds(self.bot_after),
            spectrangle_bot_after: seconds(self.spectrangle_bot_after),
            bot_think: Duration::from_millis(self.bot_think_ms),
            bot_level: self.bot_level,
            ..Settings::default()
        }
    }

    /// The Bkgo room's settings: its board size, and the password read from
    /// `--bkgo-password-file` when it is given.
    ///
    /// # Errors
    ///
    /// A size larger than `--max-board-size`; a password file that cannot be read or
    /// whose first line is empty.
    pub fn bkgo_settings(&self) -> Result<BkgoSettings, String> {
        let largest = usize::from(self.max_board_size);
        let size = match self.bkgo_size {
            None => BkgoSettings::default().size.min(largest),
            Some(size) if usize::from(size) <= largest => usize::from(size),
            Some(size) => {
                return Err(format!(
                    "--bkgo-size {size} is larger than --max-board-size {largest}: give a size from {MIN_SIZE} to {largest}"
                ));
            }
        };
        let password = match &self.bkgo_password_file {
            None => None,
            Some(path) => {
                Some(Secret::from_file(path).map_err(|e| format!("--bkgo-password-file: {e}"))?)
            }
        };
        Ok(BkgoSettings {
            size,
            password,
            bot_after: seconds(self.bkgo_bot_after),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_design_names_parse() {
        let options = Options::try_parse_from([
            "goserver",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--komi",
            "6.5",
            "--max-board-size",
            "25",
            "--ko",
            "situational",
            "--allow-suicide",
            "--config-timeout",
            "5",
            "--rematch-timeout",
            "0",
            "--move-timeout",
            "30",
            "--handshake-timeout",
            "10",
            "--max-clients",
            "100",
            "--records",
            "/tmp/r",
            "--log-level",
            "debug",
            "--log-file",
            "/tmp/l",
            "--no-console",
        ])
        .expect("all design flags parse");
        let settings = options.settings();
        assert_eq!(settings.rules.komi.halves(), 13);
        assert_eq!(settings.rules.ko, KoRule::Situational);
        assert_eq!(settings.rules.suicide, SuicideRule::MultiStoneAllowed);
        assert_eq!(settings.max_board_size, 25);
        assert_eq!(settings.rematch_timeout, None);
        assert_eq!(settings.move_timeout, Some(Duration::from_secs(30)));
        assert_eq!(
            options.ports(),
            Ok(vec![
                (Protocol::Go, 0),
                (Protocol::Spectrangle, 0),
                (Protocol::Bkgo, 0)
            ])
        );
        let negative =
            Options::try_parse_from(["goserver", "--komi", "-1.5"]).expect("negative komi");
        assert_eq!(negative.settings().rules.komi.halves(), -3);
    }

    #[test]
    fn an_arena_has_a_move_clock_unless_it_is_turned_off() {
        let clocks = |flags: &[&str]| {
            let options =
                Options::try_parse_from(std::iter::once("goserver").chain(flags.iter().copied()))
                    .expect("flags parse");
            let arena = options
                .arena_settings()
                .expect("a valid arena")
                .map(|arena| arena.move_clock);
            (arena, options.settings().move_timeout)
        };
        // Without --arena there is no clock unless one is asked for.
        assert_eq!(clocks(&[]), (None, None));
        assert_eq!(
            clocks(&["--move-timeout", "5"]),
            (None, Some(Duration::from_secs(5)))
        );
        // An arena gets the default clock; the other games keep none.
        assert_eq!(
            clocks(&["--arena"]),
            (Some(Some(DEFAULT_ARENA_MOVE_CLOCK)), None)
        );
        assert_eq!(DEFAULT_ARENA_MOVE_CLOCK, Duration::from_secs(30));
        assert_eq!(
            clocks(&["--arena", "--move-timeout", "7"]),
            (
                Some(Some(Duration::from_secs(7))),
                Some(Duration::from_secs(7))
            )
        );
        // 0 turns the arena's clock off explicitly.
        assert_eq!(
            clocks(&["--arena", "--move-timeout", "0"]),
            (Some(None), None)
        );
    }

    #[test]
    fn an_arena_size_outside_the_boards_names_the_range_that_applies() {
        let size = |flags: &[&str]| {
            Options::try_parse_from(std::iter::once("goserver").chain(flags.iter().copied()))
                .expect("flags parse")
                .arena_settings()
                .map(|arena| arena.map(|a| a.size))
        };
        assert_eq!(size(&["--arena"]), Ok(Some(9)));
        assert_eq!(
            size(&["--arena", "--arena-size", "99"]),
            Err("--arena-size 99 is not a board size the arena can use: give a size from 2 to 19 (--max-board-size)".to_string())
        );
        assert_eq!(
            size(&["--arena", "--max-board-size", "25", "--arena-size", "25"]),
            Ok(Some(25))
        );
        assert!(Options::try_parse_from(["goserver", "--arena-size", "nine"]).is_err());
    }

    #[test]
    fn the_bkgo_size_is_bounded_by_the_largest_board() {
        let size = |flags: &[&str]| {
            Options::try_parse_from(std::iter::once("goserver").chain(flags.iter().copied()))
                .expect("flags parse")
                .bkgo_settings()
                .map(|b| b.size)
        };
        assert_eq!(size(&[]), Ok(19));
        assert_eq!(size(&["--bkgo-size", "9"]), Ok(9));
        assert_eq!(size(&["--max-board-size", "9"]), Ok(9));
        assert_eq!(
            size(&["--max-board-size", "25", "--bkgo-size", "25"]),
            Ok(25)
        );
        assert_eq!(
            size(&["--bkgo-size", "21"]),
            Err(
                "--bkgo-size 21 is larger than --max-board-size 19: give a size from 2 to 19"
                    .to_string()
            )
        );
        assert!(Options::try_parse_from(["goserver", "--bkgo-size", "1"]).is_err());
        let password =
            Options::try_parse_from(["goserver", "--bkgo-password-file", "/nonexistent/pw"])
                .expect("parse")
                .bkgo_settings()
                .expect_err("no such file");
        assert!(
            password.starts_with(
                "--bkgo-password-file: cannot read the password file /nonexistent/pw: "
            ),
            "{password}"
        );
    }

    #[test]
    fn the_bkgo_bot_comes_after_its_seconds_and_0_is_never() {
        let after = |flags: &[&str]| {
            Options::try_parse_from(std::iter::once("goserver").chain(flags.iter().copied()))
                .map(|options| options.bkgo_settings().map(|b| b.bot_after))
        };
        assert_eq!(after(&[]).expect("no flags"), Ok(None));
        assert_eq!(
            after(&["--bkgo-bot-after", "0"]).expect("0 parses"),
            Ok(None)
        );
        assert_eq!(
            after(&["--bkgo-bot-after", "5"]).expect("5 parses"),
            Ok(Some(Duration::from_secs(5)))
        );
        // GO!'s --bot-after is another flag: it does not seat a bot in the room.
        assert_eq!(after(&["--bot-after", "5"]).expect("parses"), Ok(None));
        for bad in ["-1", "x", "1.5"] {
            assert!(after(&["--bkgo-bot-after", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn ports_default_to_the_go_port_plus_an_offset() {
        let ports = |args: &[&str]| {
            let mut all = vec!["goserver"];
            all.extend_from_slice(args);
            Options::try_parse_from(all).expect("options").ports()
        };
        use Protocol::{Bkgo, Go, Spectrangle};
        assert_eq!(
            ports(&[]),
            Ok(vec![(Go, 8000), (Spectrangle, 8001), (Bkgo, 8002)])
        );
        assert_eq!(
            ports(&["--port", "9000", "--spectrangle-port", "off"]),
            Ok(vec![(Go, 9000), (Bkgo, 9002)])
        );
        assert_eq!(
            ports(&["--port", "off", "--bkgo-port", "7000"]),
            Ok(vec![(Spectrangle, 8001), (Bkgo, 7000)])
        );
        assert_eq!(
            ports(&["--port", "0", "--spectrangle-port", "7000"]),
            Ok(vec![(Go, 0), (Spectrangle, 7000), (Bkgo, 0)])
        );
        assert_eq!(
            ports(&["--port", "65534"]),
            Err("--bkgo-port defaults to the GO! port + 2, which is past 65535: give --bkgo-port N or off".to_string())
        );
        let all_off = [
            "--port",
            "off",
            "--spectrangle-port",
            "off",
            "--bkgo-port",
            "off",
        ];
        assert!(ports(&all_off).is_err());
        assert!(Options::try_parse_from(["goserver", "--bkgo-port", "on"]).is_err());
        assert!(Options::try_parse_from(["goserver", "--bkgo-port", "65536"]).is_err());
        let seeded = Options::try_parse_from(["goserver", "--seed", "42"]).expect("seed");
        assert_eq!(seeded.settings().seed, Some(42));
    }

    #[test]
    fn the_bot_and_seed_flags() {
        let defaults = Options::try_parse_from(["goserver"]).expect("no flags");
        let settings = defaults.settings();
        assert_eq!(settings.bot_after, None);
        assert_eq!(settings.bot_think, Duration::from_millis(300));
        assert_eq!(settings.bot_level, Level::DEFAULT);
        assert_eq!(settings.seed, None);
        let options = Options::try_parse_from([
            "goserver",
            "--bot-after",
            "30",
            "--bot-think-ms",
            "2000",
            "--seed",
            "42",
            "--bot-level",
            "5",
        ])
        .expect("the bot flags parse");
        let settings = options.settings();
        assert_eq!(settings.bot_level, Level::STRONGEST);
        assert_eq!(settings.bot_after, Some(Duration::from_secs(30)));
        assert_eq!(settings.bot_think, Duration::from_millis(2000));
        assert_eq!(settings.seed, Some(42));
        // 0 is off, as for the timeouts.
        let off = Options::try_parse_from(["goserver", "--bot-after", "0"]).expect("0 parses");
        assert_eq!(off.settings().bot_after, None);
        for bad in [
            &["goserver", "--bot-think-ms", "0"][..],
            &["goserver", "--bot-think-ms", "60001"],
            &["goserver", "--bot-after", "-1"],
            &["goserver", "--seed", "-1"],
            &["goserver", "--seed", "x"],
        ] {
            assert!(Options::try_parse_from(bad).is_err(), "{bad:?}");
        }
        // A level out of range or not a number: clap's usage error (exit status 2),
        // naming the range.
        for bad in ["0", "6", "x"] {
            let refused = Options::try_parse_from(["goserver", "--bot-level", bad]).expect_err(bad);
            assert_eq!(refused.exit_code(), 2);
            let text = refused.to_string();
            assert!(
                text.contains(&format!(
                    "invalid value '{bad}' for '--bot-level <1-5>': the bot's level is a whole number from 1 to 5, got '{bad}'"
                )),
                "{text}"
            );
        }
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            &["goserver", "--komi", "6.3"][..],
            &["goserver", "--max-board-size", "26"],
            &["goserver", "--ko", "japanese"],
            &["goserver", "--handshake-timeout", "18446744073709551615"],
            &["goserver", "--move-timeout", "604801"],
            &["goserver", "--max-clients", "0"],
            &["goserver", "--port", "70000"],
            &["goserver", "--spectrangle-port", "on"],
        ] {
            assert!(Options::try_parse_from(bad).is_err(), "{bad:?}");
        }
    }
}
