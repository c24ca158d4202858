//! The server's settings, as the command line sets them (see `cli`).

use crate::engine::bot::Level;
use crate::engine::go::Rules;
use crate::engine::rng::Rng;
use crate::net::{LineLimits, OutboxLimits};
use crate::secret::Secret;
use std::path::PathBuf;
use std::time::Duration;

/// Everything the server's behaviour depends on. Built once, shared read-only.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Ko rule, suicide rule and komi of every game.
    pub rules: Rules,
    /// The largest board a leader may ask for.
    pub max_board_size: usize,
    /// How long a leader has to send SET_CONFIG before defaults apply.
    pub config_timeout: Option<Duration>,
    /// How long players have to answer REQUEST_REMATCH.
    pub rematch_timeout: Option<Duration>,
    /// How long a player has for each move (none: unlimited).
    pub move_timeout: Option<Duration>,
    /// How long a client not in a game has to identify itself (HANDSHAKE, JOIN,
    /// `Player:`).
    pub handshake_timeout: Option<Duration>,
    /// Connections open at once.
    pub max_clients: usize,
    /// Where finished games' records are written, if anywhere.
    pub records: Option<PathBuf>,
    /// Line length bounds.
    pub lines: LineLimits,
    /// Output queue bounds.
    pub output: OutboxLimits,
    /// A game ends (and is scored) after this many moves per point of its board,
    /// passes included: far beyond real games, it bounds a game's memory.
    pub moves_per_point: usize,
    /// The seed of every random choice of the server (GO!'s random colours, the bot's
    /// playouts, Spectrangle's bag and turn order); none: random.
    pub seed: Option<u64>,
    /// How long a GO! game waits for a partner before the practice bot takes the
    /// seat; none: never by itself (the console's `bot` command still seats it).
    pub bot_after: Option<Duration>,
    /// How long a Spectrangle lobby's only player, ready, waits before the practice
    /// bot joins it; none: never by itself (the console's `bot` still seats it).
    pub spectrangle_bot_after: Option<Duration>,
    /// How long the practice bot thinks about each move.
    pub bot_think: Duration,
    /// The practice bot's level when nobody asks for another (the console's `bot`
    /// may).
    pub bot_level: Level,
    /// The most playouts the practice bot runs per move; none: only `bot_think`
    /// bounds it. No flag sets it: tests do, so that the bot's strength does not
    /// depend on the speed of the machine.
    pub bot_playouts: Option<u32>,
    /// The Bkgo room's board size and remote-shutdown password.
    pub bkgo: BkgoSettings,
    /// Web connections open at once (`--max-web-clients`); one more gets 503.
    pub max_web_clients: usize,
    /// How long a web connection may sit idle between requests, and how long a
    /// request head may take to arrive whole ([`WEB_HEAD_TIMEOUT`]; no flag sets it:
    /// tests shorten it).
    pub web_head_timeout: Duration,
    /// The GO! arena (`--arena`): the server pairs players in rounds; none: GO!'s
    /// usual leader-and-partner matchmaking.
    pub arena: Option<ArenaSettings>,
}

/// The GO! arena's settings (ARENA.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaSettings {
    /// The board size of every arena game (`--arena-size`).
    pub size: usize,
    /// How often the waiting players are paired (`--arena-round`).
    pub round: Duration,
    /// How long a player of an arena game has for each move: `--move-timeout` when
    /// given (0 is none), else [`DEFAULT_ARENA_MOVE_CLOCK`].
    pub move_clock: Option<Duration>,
}

/// The arena's move clock unless `--move-timeout` says otherwise: a tournament of
/// students' clients must not hang on one that stopped moving.
pub const DEFAULT_ARENA_MOVE_CLOCK: Duration = Duration::from_secs(30);

/// The arena's board size unless told otherwise.
pub const DEFAULT_ARENA_SIZE: usize = 9;

/// Seconds between the arena's rounds unless told otherwise.
pub const DEFAULT_ARENA_ROUND_SECONDS: u64 = 3;

/// The Bkgo front end's own settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BkgoSettings {
    /// The room's board size (`--bkgo-size`): every `NewBoard` starts one this size.
    pub size: usize,
    /// The remote-shutdown password (`--bkgo-password-file`); none: remote shutdown off.
    pub password: Option<Secret>,
    /// How long a player sits alone in the room (the other seat free, a game going
    /// on) before the practice bot takes the free seat (`--bkgo-bot-after`); none:
    /// never by itself (the console's `bot bkgo` still seats it).
    pub bot_after: Option<Duration>,
}

impl Default for BkgoSettings {
    fn default() -> Self {
        BkgoSettings {
            size: 19,
            password: None,
            bot_after: None,
        }
    }
}

/// The board size used when the leader does not configure in time.
pub const DEFAULT_BOARD_SIZE: usize = 9;

/// Web connections open at once unless told otherwise.
pub const DEFAULT_MAX_WEB_CLIENTS: usize = 256;

/// WEB.md: an idle keep-alive connection is closed after 30 s, and so is one whose
/// request head has not wholly arrived 30 s after it began (the accept for the first
/// request, the first byte for a later one).
pub const WEB_HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// How long the practice bot thinks about a move unless told otherwise.
pub const DEFAULT_BOT_THINK: Duration = Duration::from_millis(300);

impl Default for Settings {
    fn default() -> Self {
        Settings {
            rules: Rules::default(),
            max_board_size: 19,
            config_timeout: Some(Duration::from_secs(60)),
            rematch_timeout: Some(Duration::from_secs(60)),
            move_timeout: None,
            handshake_timeout: Some(Duration::from_secs(60)),
            max_clients: 10_000,
            records: None,
            lines: LineLimits::default(),
            output: OutboxLimits::default(),
            moves_per_point: 10,
            seed: None,
            bot_after: None,
            spectrangle_bot_after: None,
            bot_think: DEFAULT_BOT_THINK,
            bot_level: Level::DEFAULT,
            bot_playouts: None,
            bkgo: BkgoSettings::default(),
            max_web_clients: DEFAULT_MAX_WEB_CLIENTS,
            web_head_timeout: WEB_HEAD_TIMEOUT,
            arena: None,
        }
    }
}

impl Settings {
    /// The random numbers of game `game` of front end `front_end`: from `--seed` when
    /// given (the same in every run, and different for every game), else from the
    /// system.
    pub fn game_rng(&self, front_end: &str, game: u64) -> Rng {
        let Some(seed) = self.seed else {
            return Rng::from_entropy();
        };
        // FNV-1a of the front end's name keeps GO!'s game 1 apart from Spectrangle's.
        let salt = front_end
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
            });
        Rng::derive(seed ^ salt, game)
    }

    /// The board size used when the leader does not configure in time.
    pub fn default_board_size(&self) -> usize {
        DEFAULT_BOARD_SIZE.min(self.max_board_size)
    }
}
