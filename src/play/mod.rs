//! `goserver play`: the project's own client, the other direction of what the server
//! parses and formats. A student points it at their own server to meet a strong,
//! correct opponent (the practice bots), or plays their server by hand (`--human`).
//!
//! - [`link`]: the connection: lines out (and the wire log), lines in on a reader
//!   thread, every wait bounded.
//! - [`go`]: the GO! client.
//! - [`spectrangle`]: the Spectrangle client.
//! - [`human`]: the board in the terminal, moves typed as `D4` or `pass` (pure).
//!
//! It knows the server only through the wire: nothing of goserver's serving side is
//! used but the protocol modules and the engines.

pub mod go;
pub mod human;
pub mod link;
pub mod spectrangle;

use crate::engine::bot::Level;
use crate::frontend::go::protocol::ColourChoice;
use clap::{Args, ValueEnum};
use crossbeam_channel::{Receiver, bounded};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// The protocols `goserver play` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// GO! (docs/go-protocol.md).
    Go,
    /// Spectrangle (docs/spectrangle-protocol.md).
    Spectrangle,
}

/// `goserver play`'s options.
#[derive(Args, Debug, Clone)]
pub struct PlayOptions {
    /// The protocol the server speaks.
    #[arg(value_enum)]
    pub protocol: Protocol,
    /// Where the server listens, HOST:PORT (e.g. localhost:8000).
    #[arg(value_name = "HOST:PORT")]
    pub address: String,
    /// The name to ask for (GO!'s HANDSHAKE, Spectrangle's JOIN); the server may grant
    /// another, which is then used.
    #[arg(long, default_value = "Player")]
    pub name: String,
    /// GO!: the colour asked for when leading: black, white or random.
    #[arg(long, default_value = "random", value_parser = go::colour_choice)]
    pub colour: ColourChoice,
    /// GO!: the board size asked for when leading.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(2..=25))]
    pub size: u32,
    /// Games to play: rematches when the opponent agrees, else a new HANDSHAKE (GO!) or
    /// JOIN (Spectrangle).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub games: u32,
    /// GO!: the practice bot's level, 1 (weakest) to 5.
    #[arg(long, default_value = "3", value_parser = parse_level)]
    pub level: Level,
    /// Milliseconds the bot thinks per move.
    #[arg(long = "think", value_name = "MS", default_value = "300", value_parser = parse_millis)]
    pub think: Duration,
    /// Moves typed at the keyboard (the board shown in the terminal) instead of the bot's.
    #[arg(long)]
    pub human: bool,
    /// Write every line sent and received, with its time, to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
    /// Seconds to wait for the server (or a person) before giving up.
    #[arg(long, value_name = "S", default_value = "120", value_parser = parse_seconds)]
    pub patience: Duration,
    /// Seed of the bot's random choices (default: from the clock).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

impl PlayOptions {
    /// The bot's seed.
    pub fn seed(&self) -> u64 {
        self.seed
            .unwrap_or_else(|| crate::engine::rng::Rng::from_entropy().next_u64())
    }
}

fn parse_level(text: &str) -> Result<Level, String> {
    text.parse::<u8>()
        .ok()
        .and_then(|n| Level::new(n).ok())
        .ok_or_else(|| format!("the bot's level is a whole number from 1 to 5, got '{text}'"))
}

fn parse_millis(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(ms) if (1..=600_000).contains(&ms) => Ok(Duration::from_millis(ms)),
        _ => Err(format!("give milliseconds from 1 to 600000, got '{text}'")),
    }
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<u64>() {
        Ok(s) if (1..=86_400).contains(&s) => Ok(Duration::from_secs(s)),
        _ => Err(format!("give whole seconds from 1 to 86400, got '{text}'")),
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every game played (exit status 0).
    Done,
    /// The server misbehaved, went silent or closed early: why (exit status 1).
    Failed(String),
}

/// The exit status when the server cannot be reached, or a file named cannot be used.
const CANNOT_START: u8 = 2;

/// Runs `goserver play`; returns the exit status: 0 every game played, 1 the server
/// failed the client (the reason printed), 2 no connection.
pub fn main(options: &PlayOptions) -> ExitCode {
    let say = Say;
    let log = match link::WireLog::to(options.log.as_deref()) {
        Ok(log) => log,
        Err(e) => {
            say.problem(&format!("cannot write the log: {e}"));
            return ExitCode::from(CANNOT_START);
        }
    };
    let link = match link::Link::connect(&options.address, log) {
        Ok(link) => link,
        Err(e) => {
            say.problem(&format!("cannot connect to {}: {e}", options.address));
            return ExitCode::from(CANNOT_START);
        }
    };
    say.line(&format!("connected to {}", options.address));
    let outcome = match options.protocol {
        Protocol::Go => go::play(options, link, &say),
        Protocol::Spectrangle => spectrangle::play(options, link, &say),
    };
    match outcome {
        Outcome::Done => ExitCode::SUCCESS,
        Outcome::Failed(why) => {
            say.problem(&why);
            ExitCode::FAILURE
        }
    }
}

/// Where the client tells what happens: a line per event on stdout, problems on stderr.
pub struct Say;

impl Say {
    /// An event: a game starts or ends, the board (for a person).
    pub fn line(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }

    /// A prompt, without a line end.
    pub fn prompt(&self, text: &str) {
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{text}");
        let _ = out.flush();
    }

    /// Something the server did wrong, or why the run ends.
    pub fn problem(&self, text: &str) {
        let _ = writeln!(std::io::stderr().lock(), "goserver play: {text}");
    }
}

/// The keyboard's lines, read on a thread of their own so that the client can wait for
/// a person and the server at once. The thread ends with the input (or the process).
pub fn keyboard() -> Receiver<String> {
    let (lines, typed) = bounded(16);
    let spawned = std::thread::Builder::new()
        .name("play-keyboard".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { return };
                if lines.send(line).is_err() {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        Say.problem(&format!("cannot read the keyboard: {e}"));
    }
    typed
}
