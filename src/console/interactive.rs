//! The console on a terminal: `rustyline` with the prompt `goserver> `, history kept
//! in `$HOME/.goserver_history`, tab completion of commands, player names and game
//! ids, and log lines printed above the prompt through rustyline's external printer.

use super::commands::{self, ArgKind, COMMANDS};
use super::{Console, Outcome};
use crate::engine::bot::Level;
use crate::logging::{self, Pipe};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, ExternalPrinter, Helper};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

/// The prompt.
const PROMPT: &str = "goserver> ";

/// Reads and runs lines until `shutdown`, Ctrl-C or Ctrl-D (all three shut the server
/// down), or until the terminal fails (then the server keeps serving).
pub fn run(console: Console) {
    let console = Arc::new(console);
    // List completion (like a shell) never waits for a key after Tab; cycling would.
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .build();
    let mut editor: Editor<ConsoleHelper, DefaultHistory> = match Editor::with_config(config) {
        Ok(editor) => editor,
        Err(e) => {
            log::error!("cannot start the interactive console: {e}");
            return;
        }
    };
    editor.set_helper(Some(ConsoleHelper {
        console: Arc::clone(&console),
    }));
    match editor.create_external_printer() {
        Ok(printer) => match line_printer(printer) {
            Ok(sink) => logging::redirect(Box::new(sink)),
            Err(e) => log::warn!("log lines may garble the prompt: {e}"),
        },
        Err(e) => log::warn!("log lines may garble the prompt: {e}"),
    }
    watch_for_shutdown(&console);
    let history = history_file();
    if let Some(path) = &history {
        // No history yet (first run) is not an error worth a word.
        let _ = editor.load_history(path);
    }
    println!("goserver console: type 'help' for the commands, Tab to complete");
    loop {
        match editor.readline(PROMPT) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    // Completion leaves a trailing blank; history keeps the command.
                    let _ = editor.add_history_entry(line.trim());
                }
                match console.execute(&line) {
                    Outcome::Answer(answer) => {
                        if !answer.is_empty() {
                            println!("{answer}");
                        }
                    }
                    Outcome::Shutdown(answer) => {
                        println!("{answer}");
                        break;
                    }
                }
            }
            Err(ReadlineError::Interrupted) => {
                println!("^C: shutting down");
                console.shutdown();
                break;
            }
            Err(ReadlineError::Eof) => {
                println!("^D: shutting down");
                console.shutdown();
                break;
            }
            Err(ReadlineError::Signal(_)) => {}
            Err(ReadlineError::Io(e)) => {
                log::error!("console terminal failed ({e}); the server keeps serving");
                break;
            }
            Err(ReadlineError::Errno(e)) => {
                log::error!("console terminal failed ({e}); the server keeps serving");
                break;
            }
            Err(e) => {
                log::error!("console failed ({e}); the server keeps serving");
                break;
            }
        }
    }
    if let Some(path) = &history {
        // A history that cannot be saved costs only the next run's convenience.
        let _ = editor.save_history(path);
    }
    // No prompt any more: log lines go straight to stderr again.
    logging::redirect(Box::new(io::stderr()));
}

/// Once the shutdown starts (by a signal too, while `readline` still waits for a
/// key), the prompt will not print anything any more: log lines go straight to
/// stderr, with `\r\n` line ends because the terminal is still in raw mode.
fn watch_for_shutdown(console: &Console) {
    let shutdown = console.shutdown_handle();
    let spawned = thread::Builder::new()
        .name("console-shutdown".into())
        .spawn(move || {
            shutdown.wait();
            // Off the prompt's line first.
            let _ = io::stderr().write_all(b"\r\n");
            logging::redirect(Box::new(RawTerminal(io::stderr())));
        });
    if let Err(e) = spawned {
        log::warn!("log lines during shutdown may be lost: {e}");
    }
}

/// Writes to a terminal in raw mode: every `\n` becomes `\r\n`.
struct RawTerminal<W>(W);

impl<W: Write> Write for RawTerminal<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            match piece.strip_suffix(b"\n") {
                Some(line) => {
                    self.0.write_all(line)?;
                    self.0.write_all(b"\r\n")?;
                }
                None => self.0.write_all(piece)?,
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// `$HOME/.goserver_history`, when `HOME` is set.
fn history_file() -> Option<PathBuf> {
    std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".goserver_history"))
}

/// The terminal log sink while the prompt is up: whole lines go through a pipe (see
/// `logging`) whose `console-print` thread feeds them to rustyline's external printer.
/// The printer can block (rustyline's own channel holds one message and is drained only
/// between keys), so only that thread ever waits on it, never a game or a connection.
fn line_printer<P: ExternalPrinter + Send + 'static>(mut printer: P) -> io::Result<Pipe> {
    Pipe::start("console-print", move |line| {
        // With its newline: rustyline adds none when it prints outside `readline`
        // (while a command runs), and none twice inside it.
        let text = String::from_utf8_lossy(line).into_owned();
        if let Err(e) = printer.print(text) {
            let _ = writeln!(io::stderr(), "console print failed: {e}");
        }
    })
}

/// Completion from the command table and the server's live names and ids.
struct ConsoleHelper {
    console: Arc<Console>,
}

impl ConsoleHelper {
    fn candidates(&self, kind: ArgKind) -> Vec<String> {
        match kind {
            ArgKind::Name => self.console.player_names(),
            ArgKind::GameId => self.console.game_ids(),
            ArgKind::NameOrGameId => {
                let mut all = self.console.player_names();
                all.extend(self.console.game_ids());
                all
            }
            ArgKind::File | ArgKind::Count => Vec::new(),
            ArgKind::Level => Level::ALL.iter().map(Level::to_string).collect(),
            ArgKind::FrontEnd => ["go", "spectrangle", "bkgo"].map(String::from).to_vec(),
            ArgKind::ArenaAction => ["pause", "resume"].map(String::from).to_vec(),
        }
    }
}

impl Completer for ConsoleHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = line.get(..pos).unwrap_or(line);
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let previous: Vec<&str> = before[..start].split_whitespace().collect();
        let options: Vec<String> = match previous.split_first() {
            None => COMMANDS.iter().map(|c| c.name.to_string()).collect(),
            Some((command, args)) => commands::spec(command)
                .and_then(|spec| spec.args.get(args.len()))
                .map(|arg| self.candidates(arg.kind))
                .unwrap_or_default(),
        };
        let pairs = options
            .into_iter()
            .filter(|option| option.starts_with(word))
            .map(|option| Pair {
                display: option.clone(),
                replacement: format!("{option} "),
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ConsoleHelper {
    type Hint = String;
}

impl Highlighter for ConsoleHelper {}

impl Validator for ConsoleHelper {}

impl Helper for ConsoleHelper {}
