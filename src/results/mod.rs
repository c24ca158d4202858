//! Results and standings (ARENA.md): every game that ends, in every front end, is
//! handed to [`Results::record`] by its own game loop before its players hear the end.
//! With `--results PATH` the result is first appended to the file and synced to disk,
//! so a crash after a client saw its result never loses it; at start the file is read
//! back and the standings rebuilt from it. A layer below the front ends, like `live`:
//! the front ends record into it, the console and the web read from it.
//!
//! - [`result`]: one finished game and its JSON line.
//! - [`file`](mod@file): the results file, appended and read back.
//! - [`standings`]: the ratings tables and GO!'s crosstable.
//! - [`meetings`]: who met whom in GO!, for the arena's pairing.

pub mod file;
pub mod meetings;
pub mod result;
pub mod standings;

pub use file::ResultsFile;
pub use meetings::Meetings;
pub use result::{Ending, GameResult, GoGame, Player, Score};
pub use standings::{Cell, Crosstable, DuelRow, Standings, TableRow, Tables};

use parking_lot::Mutex;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// The newest results kept in memory, for `/api/results` and the console's `results`
/// (the file keeps them all).
pub const RECENT_KEPT: usize = 1000;

/// Every result of this server's life (and of the results file's), the standings and
/// GO!'s meetings. One per server, shared by every front end.
pub struct Results {
    file: Option<ResultsFile>,
    book: Mutex<Book>,
    /// How long each sync of the file takes longer than the disk makes it: zero, but
    /// for a test of a slow disk ([`Results::slow_disk_for_tests`]).
    extra_sync: Mutex<Duration>,
}

#[derive(Default)]
struct Book {
    standings: Standings,
    meetings: Meetings,
    recent: VecDeque<Arc<GameResult>>,
    /// Counts results recorded, so a viewer can tell the standings changed.
    version: u64,
    /// The tables and the crosstable, worked out once after the last result for
    /// everyone who reads them (every viewer of the standings page wants them at once).
    built: Option<(Arc<Tables>, Arc<Crosstable>)>,
    /// How many times they were worked out.
    builds: u64,
}

impl Book {
    fn add(&mut self, result: GameResult) {
        self.standings.record(&result);
        self.meetings.record(&result);
        if self.recent.len() == RECENT_KEPT {
            self.recent.pop_front();
        }
        self.recent.push_back(Arc::new(result));
        self.version += 1;
        self.built = None;
    }

    /// The tables and the crosstable, worked out if a result came since the last time.
    fn built(&mut self) -> (Arc<Tables>, Arc<Crosstable>) {
        if let Some(built) = &self.built {
            return built.clone();
        }
        let built = (
            Arc::new(self.standings.tables()),
            Arc::new(self.standings.crosstable()),
        );
        self.builds += 1;
        self.built = Some(built.clone());
        built
    }
}

impl Results {
    /// Results kept in memory only, for the server's life.
    pub fn in_memory() -> Arc<Results> {
        Arc::new(Results {
            file: None,
            book: Mutex::new(Book::default()),
            extra_sync: Mutex::default(),
        })
    }

    /// Results kept in `path` too: the standings are rebuilt from the results in it
    /// (lines that are not results are skipped with a warning), and each new one is
    /// appended.
    ///
    /// # Errors
    ///
    /// A message naming the path when it cannot be opened for appending or read.
    pub fn open(path: &Path) -> Result<Arc<Results>, String> {
        let (file, read_back) = ResultsFile::open(path)?;
        let mut book = Book::default();
        let count = read_back.results.len();
        for mut result in read_back.results {
            // The rules decide, not the line: a hand edit cannot rate a shutdown.
            result.rated = result.should_be_rated();
            book.add(result);
        }
        log::info!(
            "results file {}: {count} results read back{}",
            path.display(),
            match read_back.skipped.len() {
                0 => String::new(),
                1 => ", 1 line skipped".to_string(),
                n => format!(", {n} lines skipped"),
            }
        );
        Ok(Arc::new(Results {
            file: Some(file),
            book: Mutex::new(book),
            extra_sync: Mutex::default(),
        }))
    }

    /// Records a finished game: decides whether it is rated, appends it to the
    /// results file and syncs it (when there is one), and counts it in the standings.
    /// Called by the game's own loop before its players are told the game ended; the
    /// lock is held only while the line goes to the file's cache and the tables are
    /// updated, so the file and the standings see results in the same order, and the
    /// wait for the disk is outside it.
    pub fn record(&self, mut result: GameResult) {
        result.rated = result.should_be_rated();
        log::info!(
            "result: {} game {}: {}; winner {}; {} after {} moves{}",
            result.front.name(),
            result.game,
            result.scores_text(),
            result.winner.as_deref().unwrap_or("none"),
            result.ending,
            result.moves,
            if result.rated { "" } else { " (not rated)" }
        );
        let what = format!("{} game {}", result.front.name(), result.game);
        let written = {
            let mut book = self.book.lock();
            let written = self.file.as_ref().map(|file| file.write(&result));
            book.add(result);
            written
        };
        let Some((file, written)) = self.file.as_ref().zip(written) else {
            return;
        };
        let extra = *self.extra_sync.lock();
        if !extra.is_zero() {
            std::thread::sleep(extra);
        }
        if let Err(e) = written.and_then(|()| file.sync()) {
            log::error!(
                "results file {}: the result of {what} may not be on disk: {e}",
                file.path().display()
            );
        }
    }

    /// Whether results go to a file (each one then waits for the disk).
    pub fn has_file(&self) -> bool {
        self.file.is_some()
    }

    /// Makes every sync of the results file take `delay` longer: a slow disk, for the
    /// tests that check that nothing but the game ending waits for it.
    #[doc(hidden)]
    pub fn slow_disk_for_tests(&self, delay: Duration) {
        *self.extra_sync.lock() = delay;
    }

    /// The three tables, in rank order: worked out once per new result, shared by
    /// everyone who reads them.
    pub fn tables(&self) -> Arc<Tables> {
        self.book.lock().built().0
    }

    /// GO!'s crosstable: worked out once per new result, like the tables.
    pub fn crosstable(&self) -> Arc<Crosstable> {
        self.book.lock().built().1
    }

    /// How many times the tables and the crosstable were worked out since the server
    /// started: at most once per new result, however many read them.
    pub fn builds(&self) -> u64 {
        self.book.lock().builds
    }

    /// The newest `limit` results, newest first.
    pub fn recent(&self, limit: usize) -> Vec<Arc<GameResult>> {
        self.book
            .lock()
            .recent
            .iter()
            .rev()
            .take(limit)
            .cloned()
            .collect()
    }

    /// GO!'s meetings so far.
    pub fn meetings(&self) -> Meetings {
        self.book.lock().meetings.clone()
    }

    /// How many results were recorded (read back included): changes with each one.
    pub fn version(&self) -> u64 {
        self.book.lock().version
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpu_clock::thread_cpu_time;
    use crate::front::Front;
    use std::time::Instant;

    fn result(game: u64, black: &str, white: &str) -> GameResult {
        GameResult {
            front: Front::Go,
            game,
            started: result::now(),
            ended: result::now(),
            players: vec![
                Player {
                    name: black.into(),
                    colour: 1,
                    score: Score(40.5),
                },
                Player {
                    name: white.into(),
                    colour: 2,
                    score: Score(30.0),
                },
            ],
            winner: Some(black.into()),
            places: None,
            ending: Ending::Passes,
            moves: 50,
            size: Some(9),
            rated: false,
        }
    }

    #[test]
    fn a_restart_rebuilds_the_same_standings_and_meetings() {
        let path = std::env::temp_dir().join(format!("goserver-book-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let names = ["Ann", "Bob", "Cid", "Dan"];
        let results = Results::open(&path).expect("opens");
        for game in 0..24 {
            let black = names[game % 4];
            let white = names[(game * 3 + 1) % 4];
            if black != white {
                results.record(result(game as u64, black, white));
            }
        }
        let again = Results::open(&path).expect("opens again");
        assert_eq!(again.tables(), results.tables());
        assert_eq!(again.crosstable(), results.crosstable());
        assert_eq!(again.recent(5), results.recent(5));
        assert_eq!(
            again.meetings().times_met("Ann", "Bob"),
            results.meetings().times_met("Bob", "Ann")
        );
        assert!(again.recent(1)[0].rated, "rated is decided when recorded");
        let _ = std::fs::remove_file(&path);
    }

    /// A hand-edited line cannot rate what the rules do not: rated is decided again
    /// when the file is read back.
    #[test]
    fn reading_back_decides_again_what_is_rated() {
        let path = std::env::temp_dir().join(format!("goserver-rated-{}", std::process::id()));
        let mut shutdown = result(1, "Ann", "Bob");
        shutdown.ending = Ending::Shutdown;
        shutdown.rated = true;
        let mut passes = result(2, "Ann", "Bob");
        passes.rated = false;
        let text = format!("{}\n{}\n", shutdown.to_json_line(), passes.to_json_line());
        std::fs::write(&path, text).expect("writes");
        let results = Results::open(&path).expect("opens");
        let rated: Vec<(u64, bool)> = results
            .recent(2)
            .iter()
            .map(|r| (r.game, r.rated))
            .collect();
        assert_eq!(rated, [(2, true), (1, false)]);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn ten_thousand_results_are_read_back_within_a_second() {
        let path = std::env::temp_dir().join(format!("goserver-10k-{}", std::process::id()));
        let names: Vec<String> = (0..40).map(|i| format!("team{i}")).collect();
        let mut text = String::new();
        for game in 0..10_000usize {
            let mut line = result(game as u64, &names[game % 40], &names[(game * 7 + 3) % 40]);
            if line.players[0].name == line.players[1].name {
                line.players[1].name = "guest".into();
            }
            line.rated = true;
            text.push_str(&line.to_json_line());
            text.push('\n');
        }
        std::fs::write(&path, text).expect("writes");
        let cpu = thread_cpu_time();
        let start = Instant::now();
        let results = Results::open(&path).expect("opens");
        let took = start.elapsed();
        let worked = thread_cpu_time() - cpu;
        assert_eq!(results.version(), 10_000);
        // The target is a second of work in a release build (the CPU time of this
        // thread, which reads and counts them all: a busy machine does not add to it);
        // a debug build gets some slack. On the wall clock, generously, as the machine
        // may be busy.
        let limit = if cfg!(debug_assertions) { 10 } else { 1 };
        assert!(worked < Duration::from_secs(limit), "{worked:?} of CPU");
        assert!(took < Duration::from_secs(5 * limit), "{took:?}");
        let _ = std::fs::remove_file(&path);
    }
}
