//! Logging set-up: `simplelog` to the terminal (or above the console prompt) and
//! optionally to a file. Traced protocol lines (target `trace`) are always shown.
//!
//! No thread that logs ever waits for a log line to be written: a game or a
//! connection thread only puts the line in a bounded queue ([`Pipe`]), and a thread of
//! the destination's own (`log-terminal`, `log-file`) writes it. A destination that
//! stops taking lines (a stderr nobody reads with `--no-console`, a stalled disk)
//! stalls only that thread; once its queue is full, new lines are dropped and counted,
//! and the count is written as soon as the destination moves again.

use crate::net::connection::TRACE_TARGET;
use crossbeam_channel::{Receiver, Sender, TrySendError, bounded};
use parking_lot::Mutex;
use simplelog::{ConfigBuilder, LevelFilter, SharedLogger, ThreadLogMode, WriteLogger};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// Log lines that may wait for their destination; past this, new ones are dropped
/// (and counted) rather than stall the thread that logs. A burst of a busy lab server
/// is a few thousand lines.
pub const LOG_QUEUE_BOUND: usize = 10_000;

/// How long the program waits at exit for queued log lines to be written.
pub const FLUSH_AT_EXIT: std::time::Duration = std::time::Duration::from_secs(1);

/// Where terminal log lines go: stderr until the interactive console redirects them
/// above its prompt.
type Sink = Arc<Mutex<Box<dyn Write + Send>>>;

static TERMINAL: OnceLock<Sink> = OnceLock::new();

/// Every pipe started, so that [`flush`] can wait for them at exit.
static PIPES: Mutex<Vec<Arc<PipeQueue>>> = Mutex::new(Vec::new());

fn terminal() -> &'static Sink {
    TERMINAL.get_or_init(|| Arc::new(Mutex::new(Box::new(io::stderr()))))
}

/// Sends terminal log lines to `writer` from now on (the console's external printer).
pub fn redirect(writer: Box<dyn Write + Send>) {
    *terminal().lock() = writer;
}

/// The queue of one destination and what its thread needs.
struct PipeQueue {
    lines: Sender<Vec<u8>>,
    /// Lines dropped because the queue was full, not yet reported.
    dropped: AtomicU64,
    /// Whether the thread is writing a line now (for [`flush`]).
    writing: AtomicBool,
}

/// A `Write` whose whole lines go to a bounded queue that a thread of its own writes
/// to a destination that may block. `simplelog` writes one record in several `write`
/// calls, so bytes wait in `pending` until their newline; each logger has its own
/// pipe writer, so records never interleave.
pub struct Pipe {
    queue: Arc<PipeQueue>,
    pending: Vec<u8>,
}

impl Pipe {
    /// Starts a thread named `name` that writes every line put into the pipe with
    /// `write_line`, which may block; returns the pipe.
    ///
    /// # Errors
    ///
    /// When the thread cannot be started.
    pub fn start(
        name: &str,
        mut write_line: impl FnMut(&[u8]) + Send + 'static,
    ) -> io::Result<Pipe> {
        let (lines, receiver) = bounded::<Vec<u8>>(LOG_QUEUE_BOUND);
        let queue = Arc::new(PipeQueue {
            lines,
            dropped: AtomicU64::new(0),
            writing: AtomicBool::new(false),
        });
        let drained = Arc::clone(&queue);
        thread::Builder::new()
            .name(name.into())
            .spawn(move || drain(&receiver, &drained, &mut write_line))?;
        PIPES.lock().push(Arc::clone(&queue));
        Ok(Pipe {
            queue,
            pending: Vec::new(),
        })
    }

    /// Another writer into the same queue (for a second logger).
    fn writer(&self) -> Pipe {
        Pipe {
            queue: Arc::clone(&self.queue),
            pending: Vec::new(),
        }
    }
}

/// The pipe's thread: writes lines until every writer is gone, and reports lines that
/// were dropped meanwhile.
fn drain(receiver: &Receiver<Vec<u8>>, queue: &PipeQueue, write_line: &mut impl FnMut(&[u8])) {
    for line in receiver {
        queue.writing.store(true, Ordering::Release);
        let dropped = queue.dropped.swap(0, Ordering::Relaxed);
        if dropped > 0 {
            let note =
                format!("[{dropped} log lines were dropped: their destination did not keep up]\n");
            write_line(note.as_bytes());
        }
        write_line(&line);
        queue.writing.store(false, Ordering::Release);
    }
}

impl Write for Pipe {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            match self.queue.lines.try_send(line) {
                Ok(()) => {}
                Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                    self.queue.dropped.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Waits until every log line queued so far has been written, at most `wait`: at the
/// end of `main`, so that the last lines ("stopped") are not lost.
pub fn flush(wait: Duration) {
    let deadline = Instant::now() + wait;
    let pipes: Vec<Arc<PipeQueue>> = PIPES.lock().clone();
    for pipe in pipes {
        while (!pipe.lines.is_empty() || pipe.writing.load(Ordering::Acquire))
            && Instant::now() < deadline
        {
            thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Starts logging at `level` to the terminal and, when given, appended to `file`.
///
/// # Errors
///
/// When the log file cannot be opened, a thread cannot start, or a logger is already
/// set.
pub fn init(level: LevelFilter, file: Option<&Path>) -> Result<(), String> {
    let config = |allow_trace_only: bool| {
        let mut builder = ConfigBuilder::new();
        builder
            .set_thread_mode(ThreadLogMode::Names)
            .set_thread_level(LevelFilter::Error)
            .set_target_level(LevelFilter::Off)
            .set_location_level(LevelFilter::Off)
            .set_time_format_rfc3339();
        if allow_trace_only {
            builder.add_filter_allow_str(TRACE_TARGET);
        } else {
            builder.add_filter_ignore_str(TRACE_TARGET);
        }
        builder.build()
    };
    let started = |e: io::Error| format!("cannot start a logging thread: {e}");
    let to_terminal = Pipe::start("log-terminal", |line| {
        // A terminal that fails to take a line has nowhere to report it.
        let _ = terminal().lock().write_all(line);
    })
    .map_err(started)?;
    let mut loggers: Vec<Box<dyn SharedLogger>> = vec![
        WriteLogger::new(level, config(false), to_terminal.writer()),
        WriteLogger::new(LevelFilter::Info, config(true), to_terminal),
    ];
    if let Some(path) = file {
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
        let to_file = Pipe::start("log-file", move |line| {
            if let Err(e) = file.write_all(line) {
                let _ = writeln!(terminal().lock(), "cannot write to the log file: {e}");
            }
        })
        .map_err(started)?;
        loggers.push(WriteLogger::new(level, config(false), to_file.writer()));
        loggers.push(WriteLogger::new(LevelFilter::Info, config(true), to_file));
    }
    simplelog::CombinedLogger::init(loggers).map_err(|e| format!("cannot start logging: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_destination_that_blocks_never_blocks_the_writer_and_drops_are_reported() {
        let (release, gate) = bounded::<()>(0);
        let (written, seen) = crossbeam_channel::unbounded::<String>();
        let mut pipe = Pipe::start("log-test", move |line| {
            // The destination takes nothing until released.
            let _ = gate.recv();
            let _ = written.send(String::from_utf8_lossy(line).into_owned());
        })
        .expect("a thread");
        let started = Instant::now();
        for n in 0..LOG_QUEUE_BOUND + 100 {
            // Written in pieces, as simplelog does.
            write!(pipe, "line ").expect("never fails");
            writeln!(pipe, "{n}").expect("never fails");
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the writer waited"
        );
        drop(release);
        // What fitted in the queue (and the line the thread held), in order, and one
        // note of the lines dropped.
        // At least lines 0 to LOG_QUEUE_BOUND - 1 fitted.
        let last = format!("line {}\n", LOG_QUEUE_BOUND - 1);
        let mut lines = Vec::new();
        while lines.last() != Some(&last) {
            lines.push(seen.recv_timeout(Duration::from_secs(20)).expect("a line"));
        }
        let (notes, kept): (Vec<&String>, Vec<&String>) = lines
            .iter()
            .partition(|l| l.contains("log lines were dropped"));
        assert_eq!(notes.len(), 1, "the drops are reported once");
        for (n, line) in kept.iter().enumerate() {
            assert_eq!(**line, format!("line {n}\n"));
        }
    }
}
