//! Logging set-up: `simplelog` to the terminal (or above the console prompt) and
//! optionally to a file. Traced protocol lines (target `trace`) are always shown.

use crate::net::connection::TRACE_TARGET;
use parking_lot::Mutex;
use simplelog::{ConfigBuilder, LevelFilter, SharedLogger, ThreadLogMode, WriteLogger};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Where terminal log lines go: stderr until the interactive console redirects them
/// above its prompt.
type Sink = Arc<Mutex<Box<dyn Write + Send>>>;

static TERMINAL: OnceLock<Sink> = OnceLock::new();

fn terminal() -> &'static Sink {
    TERMINAL.get_or_init(|| Arc::new(Mutex::new(Box::new(io::stderr()))))
}

/// Sends terminal log lines to `writer` from now on (the console's external printer).
pub fn redirect(writer: Box<dyn Write + Send>) {
    *terminal().lock() = writer;
}

/// A `Write` that forwards to the current terminal sink.
struct TerminalWriter;

impl Write for TerminalWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        terminal().lock().write(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        terminal().lock().flush()
    }
}

/// Starts logging at `level` to the terminal and, when given, appended to `file`.
///
/// # Errors
///
/// When the log file cannot be opened or a logger is already set.
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
    let mut loggers: Vec<Box<dyn SharedLogger>> = vec![
        WriteLogger::new(level, config(false), TerminalWriter),
        WriteLogger::new(LevelFilter::Info, config(true), TerminalWriter),
    ];
    if let Some(path) = file {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open log file {}: {e}", path.display()))?;
        let file = Arc::new(Mutex::new(file));
        loggers.push(WriteLogger::new(
            level,
            config(false),
            SharedFile(Arc::clone(&file)),
        ));
        loggers.push(WriteLogger::new(
            LevelFilter::Info,
            config(true),
            SharedFile(file),
        ));
    }
    simplelog::CombinedLogger::init(loggers).map_err(|e| format!("cannot start logging: {e}"))
}

/// One log file written by two loggers (normal and traced lines).
struct SharedFile(Arc<Mutex<std::fs::File>>);

impl Write for SharedFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.lock().write(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.lock().flush()
    }
}
