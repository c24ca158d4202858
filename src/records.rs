//! Game records on disk: every front end writes the record of each finished game into
//! the `--records` directory through [`save`], under a file name of its choosing. A
//! loop that many clients share (the Bkgo room) hands its records to a [`Writer`]
//! instead, so that a slow disk never stalls it.

use crossbeam_channel::{Sender, TrySendError, bounded};
use std::io;
use std::path::{Path, PathBuf};
use std::thread::{self, JoinHandle};
use std::time::{SystemTime, UNIX_EPOCH};

/// Records waiting for the [`Writer`]'s thread. A room finishes a game every few
/// minutes and a record takes milliseconds to write: a disk this far behind is
/// failing, and a record that does not fit is dropped with a warning rather than
/// stall the room.
pub const WRITER_QUEUE_BOUND: usize = 64;

/// One record to write.
struct Job {
    file_name: String,
    text: String,
    game: String,
}

/// Writes records into one directory on a thread of its own (`records`). Dropping it
/// lets the thread write what is queued, then end.
pub struct Writer {
    dir: PathBuf,
    queue: Sender<Job>,
}

impl Writer {
    /// Starts the writer thread for `dir`; returns the writer and the thread, to be
    /// waited for at shutdown once the writer is dropped.
    ///
    /// # Errors
    ///
    /// When the thread cannot be started.
    pub fn start(dir: PathBuf) -> io::Result<(Writer, JoinHandle<()>)> {
        let (queue, jobs) = bounded::<Job>(WRITER_QUEUE_BOUND);
        let target = dir.clone();
        let thread = thread::Builder::new()
            .name("records".into())
            .spawn(move || {
                for job in jobs {
                    save(&target, &job.file_name, &job.text, &job.game);
                }
            })?;
        Ok((Writer { dir, queue }, thread))
    }

    /// Queues `text` to be written as `file_name`, naming the game as `game` in the
    /// log. Never waits: a full queue drops the record, with a warning.
    pub fn save(&self, file_name: String, text: String, game: String) {
        let job = Job {
            file_name,
            text,
            game,
        };
        match self.queue.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(job) | TrySendError::Disconnected(job)) => log::warn!(
                "{}: record not written: the disk is {WRITER_QUEUE_BOUND} records behind in {}",
                job.game,
                self.dir.display()
            ),
        }
    }
}

/// Writes `text` as `file_name` in `dir` (created if missing) and logs where it went,
/// or why it could not be written, naming the game as `game`. A record that cannot be
/// written is a warning, never a reason to stop a game.
pub fn save(dir: &Path, file_name: &str, text: &str, game: &str) {
    match write(dir, file_name, text) {
        Ok(path) => log::info!("{game}: record written to {}", path.display()),
        Err(e) => log::warn!("{game}: cannot write record in {}: {e}", dir.display()),
    }
}

/// Writes `text` to `file_name` in `dir` and syncs it: on disk when this returns.
fn write(dir: &Path, file_name: &str, text: &str) -> io::Result<PathBuf> {
    use std::io::Write;
    std::fs::create_dir_all(dir)?;
    let path = dir.join(file_name);
    let mut file = std::fs::File::create(&path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    Ok(path)
}

/// Seconds since 1970, for file names that sort in time order.
pub fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_into_a_directory_it_creates() {
        let dir = std::env::temp_dir().join(format!("goserver-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        save(&dir.join("inner"), "game-1.sgf", "(;)\n", "game 1");
        let text = std::fs::read_to_string(dir.join("inner").join("game-1.sgf"));
        assert_eq!(text.ok().as_deref(), Some("(;)\n"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(unix_seconds() > 1_700_000_000);
    }

    #[test]
    fn a_writer_writes_what_was_queued_before_it_was_dropped() {
        let dir = std::env::temp_dir().join(format!("goserver-writer-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (writer, thread) = Writer::start(dir.clone()).expect("a thread");
        for n in 0..3 {
            writer.save(
                format!("g{n}.sgf"),
                format!("(;C[{n}])\n"),
                format!("game {n}"),
            );
        }
        drop(writer);
        assert!(thread.join().is_ok());
        let text = std::fs::read_to_string(dir.join("g2.sgf"));
        assert_eq!(text.ok().as_deref(), Some("(;C[2])\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
