//! The protocol transcripts of `README.md` and `docs/*.md`, replayed against a fresh
//! server, so that what the documentation shows is what the server says.
//!
//! A transcript is a fenced block whose info string is `transcript <front> [flags]`:
//! `<front>` (`go`, `spectrangle`, `bkgo`) is the port every window connects to, and
//! the flags are the server's own, added to `--host 127.0.0.1 --port 0`. Inside:
//!
//! - `A> text`: window `A` types a line (it connects when first named);
//! - `A< text`: the next line window `A` receives is exactly `text`;
//! - `A> [close]`: window `A` closes; `A< [closed]`: the server closes window `A`;
//! - `console> cmd` and `console< text`: the operator console, on a pipe;
//! - `#` comments and blank lines are skipped.
//!
//! The date of an SGF record (`DT[2026-11-25]`, in a Bkgo board) matches any date: the
//! server writes the day of the replay.
//!
//! Lines are written in the order they happen: before each action (a line typed, a
//! window opened or closed, a console command) every line shown above it must have
//! arrived, each window's in its own order. At the end no window may hold a line the
//! transcript does not show. A mismatch names the file and line, what was expected and
//! what arrived.

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// Generous: the machine may be slow. Nothing waits this long when all is well.
const PATIENCE: Duration = Duration::from_secs(20);

/// How long the end of a transcript waits for lines it does not show.
const QUIET: Duration = Duration::from_millis(300);

/// The window name of the operator console.
const CONSOLE: &str = "console";

/// One line of a transcript, with where it is written.
#[derive(Clone, Debug, PartialEq)]
struct Step {
    line: usize,
    window: String,
    action: Action,
}

#[derive(Clone, Debug, PartialEq)]
enum Action {
    Send(String),
    Expect(String),
    Close,
    ExpectClosed,
}

/// One fenced `transcript` block.
#[derive(Clone, Debug)]
struct Transcript {
    file: String,
    /// The line of its opening fence.
    line: usize,
    front: Front,
    flags: Vec<String>,
    steps: Vec<Step>,
}

/// The front end whose port the windows connect to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Front {
    Go,
    Spectrangle,
    Bkgo,
}

impl Front {
    fn parse(word: &str) -> Option<Front> {
        match word {
            "go" => Some(Front::Go),
            "spectrangle" => Some(Front::Spectrangle),
            "bkgo" => Some(Front::Bkgo),
            _ => None,
        }
    }

    /// As the server's `listening on` lines name it.
    fn log_name(self) -> &'static str {
        match self {
            Front::Go => "(GO!)",
            Front::Spectrangle => "(Spectrangle)",
            Front::Bkgo => "(Bkgo)",
        }
    }
}

/// Every transcript block of `text`, read from `file`; a malformed line is an error
/// naming it.
fn parse(file: &str, text: &str) -> Result<Vec<Transcript>, String> {
    let mut transcripts = Vec::new();
    let mut open: Option<Transcript> = None;
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let line = raw.trim_end();
        if let Some(mut transcript) = open.take() {
            if line.trim_start().starts_with("```") {
                if transcript.steps.is_empty() {
                    return Err(format!("{file}:{}: an empty transcript", transcript.line));
                }
                transcripts.push(transcript);
            } else {
                if let Some(step) = parse_step(line).map_err(|e| format!("{file}:{number}: {e}"))? {
                    transcript.steps.push(Step {
                        line: number,
                        ..step
                    });
                }
                open = Some(transcript);
            }
            continue;
        }
        let Some(info) = line.trim_start().strip_prefix("```transcript") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let front = words.next().and_then(Front::parse).ok_or_else(|| {
            format!(
                "{file}:{number}: expected ```transcript go|spectrangle|bkgo [flags], got {line:?}"
            )
        })?;
        open = Some(Transcript {
            file: file.to_string(),
            line: number,
            front,
            flags: words.map(str::to_string).collect(),
            steps: Vec::new(),
        });
    }
    match open {
        Some(transcript) => Err(format!(
            "{file}:{}: a transcript that is never closed",
            transcript.line
        )),
        None => Ok(transcripts),
    }
}

/// One line inside a block: a step, nothing (a comment or a blank line), or what is
/// wrong with it.
fn parse_step(line: &str) -> Result<Option<Step>, String> {
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let Some(split) = line.find(['>', '<']) else {
        return Err(format!(
            "expected `NAME> text` or `NAME< text`, got {line:?}"
        ));
    };
    let window = &line[..split];
    if window.is_empty() || !window.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!(
            "expected a window name of letters and digits before '>' or '<', got {window:?}"
        ));
    }
    let sends = line[split..].starts_with('>');
    // One space after the arrow belongs to the notation; the rest is the line.
    let rest = &line[split + 1..];
    let text = rest.strip_prefix(' ').unwrap_or(rest).to_string();
    let action = match (sends, text.as_str()) {
        (true, "[close]") if window != CONSOLE => Action::Close,
        (false, "[closed]") if window != CONSOLE => Action::ExpectClosed,
        (true, _) => Action::Send(text),
        (false, _) => Action::Expect(text),
    };
    Ok(Some(Step {
        line: 0,
        window: window.to_string(),
        action,
    }))
}

/// What a reader thread saw.
enum Event {
    Line(String),
    Closed(String),
}

/// Lines of `stream`, read on a thread of their own.
fn read_events(stream: impl std::io::Read + Send + 'static) -> Receiver<Event> {
    let (sender, receiver) = channel();
    thread::spawn(move || {
        let mut reader = BufReader::new(stream);
        loop {
            let mut line = String::new();
            let event = match reader.read_line(&mut line) {
                Ok(0) => Event::Closed("end of stream".to_string()),
                Ok(_) => Event::Line(line.trim_end_matches(['\r', '\n']).to_string()),
                Err(e) => Event::Closed(e.to_string()),
            };
            let closed = matches!(event, Event::Closed(_));
            if sender.send(event).is_err() || closed {
                return;
            }
        }
    });
    receiver
}

/// The real server, its console on a pipe; killed when dropped.
struct Server {
    child: Child,
    console: Option<ChildStdin>,
    /// What the console prints, until the replay takes it.
    console_output: Option<Receiver<Event>>,
    log: Arc<Mutex<Vec<String>>>,
    port: u16,
}

impl Server {
    fn start(front: Front, flags: &[String]) -> Result<Server, String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_goserver"))
            .args(["--host", "127.0.0.1", "--port", "0", "--log-level", "info"])
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("the server does not start: {e}"))?;
        let console = child.stdin.take();
        let console_output = read_events(child.stdout.take().ok_or("no stdout")?);
        let stderr = read_events(child.stderr.take().ok_or("no stderr")?);
        let log = Arc::new(Mutex::new(Vec::new()));
        let (port_sender, port) = channel();
        let kept = Arc::clone(&log);
        thread::spawn(move || {
            while let Ok(Event::Line(line)) = stderr.recv() {
                if let Some(port) = listening_port(&line, front) {
                    let _ = port_sender.send(port);
                }
                kept.lock().map(|mut log| log.push(line)).ok();
            }
        });
        let mut server = Server {
            child,
            console,
            console_output: Some(console_output),
            log,
            port: 0,
        };
        server.port = port.recv_timeout(PATIENCE).map_err(|_| {
            format!(
                "the server did not say where it listens {}; its log:\n{}",
                front.log_name(),
                server.log_tail()
            )
        })?;
        Ok(server)
    }

    /// The last lines the server logged, for a failure's message.
    fn log_tail(&self) -> String {
        let log = self.log.lock().map(|l| l.clone()).unwrap_or_default();
        let start = log.len().saturating_sub(12);
        log[start..].join("\n")
    }
}

/// The port of `listening on 127.0.0.1:<port> (<front>)`, if `line` is that for `front`.
fn listening_port(line: &str, front: Front) -> Option<u16> {
    let rest = line.split("listening on ").nth(1)?;
    let (address, name) = rest.split_once(' ')?;
    if name.trim() != front.log_name() {
        return None;
    }
    address.rsplit(':').next()?.parse().ok()
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A window: a client's connection, or the console.
struct Window {
    stream: Option<TcpStream>,
    events: Receiver<Event>,
    /// Lines it must receive before the next action, with where they are written.
    expected: VecDeque<(usize, Action)>,
}

/// Replays `transcript`; the first mismatch is an error naming its file and line.
fn replay(transcript: &Transcript) -> Result<(), String> {
    let mut server = Server::start(transcript.front, &transcript.flags)
        .map_err(|e| format!("{}:{}: {e}", transcript.file, transcript.line))?;
    let result = run(transcript, &mut server);
    result.map_err(|e| {
        format!(
            "{}:{e}\n  the server's last log lines:\n{}",
            transcript.file,
            server.log_tail()
        )
    })
}

fn run(transcript: &Transcript, server: &mut Server) -> Result<(), String> {
    let mut windows: HashMap<String, Window> = HashMap::new();
    let console_events = server
        .console_output
        .take()
        .ok_or("the console's output is taken")?;
    windows.insert(
        CONSOLE.to_string(),
        Window {
            stream: None,
            events: console_events,
            expected: VecDeque::new(),
        },
    );
    let mut order: Vec<String> = vec![CONSOLE.to_string()];
    for step in &transcript.steps {
        if !windows.contains_key(&step.window) {
            settle(&mut windows, &order)?;
            let stream = TcpStream::connect(("127.0.0.1", server.port)).map_err(|e| {
                format!("{}: window {} cannot connect: {e}", step.line, step.window)
            })?;
            let events = read_events(
                stream
                    .try_clone()
                    .map_err(|e| format!("{}: {e}", step.line))?,
            );
            windows.insert(
                step.window.clone(),
                Window {
                    stream: Some(stream),
                    events,
                    expected: VecDeque::new(),
                },
            );
            order.push(step.window.clone());
        }
        match &step.action {
            Action::Expect(_) | Action::ExpectClosed => {
                if let Some(window) = windows.get_mut(&step.window) {
                    window.expected.push_back((step.line, step.action.clone()));
                }
            }
            Action::Send(text) => {
                settle(&mut windows, &order)?;
                send(server, &mut windows, step, text)?;
            }
            Action::Close => {
                settle(&mut windows, &order)?;
                if let Some(stream) = windows.get_mut(&step.window).and_then(|w| w.stream.take()) {
                    let _ = stream.shutdown(Shutdown::Both);
                }
            }
        }
    }
    settle(&mut windows, &order)?;
    // Nothing more than the transcript shows.
    for name in &order {
        let Some(window) = windows.get(name) else {
            continue;
        };
        if name != CONSOLE && window.stream.is_none() {
            continue;
        }
        match window.events.recv_timeout(QUIET) {
            Ok(Event::Line(line)) => {
                return Err(format!(
                    "{}: window {name} received {line:?} after the transcript's last line",
                    transcript.steps.last().map_or(transcript.line, |s| s.line)
                ));
            }
            Ok(Event::Closed(_)) | Err(_) => {}
        }
    }
    Ok(())
}

/// Sends one typed line: to a client's connection, or to the console.
fn send(
    server: &mut Server,
    windows: &mut HashMap<String, Window>,
    step: &Step,
    text: &str,
) -> Result<(), String> {
    if step.window == CONSOLE {
        let console = server.console.as_mut().ok_or("the console is closed")?;
        return writeln!(console, "{text}")
            .and_then(|()| console.flush())
            .map_err(|e| format!("{}: the console does not take {text:?}: {e}", step.line));
    }
    let stream = windows
        .get_mut(&step.window)
        .and_then(|w| w.stream.as_mut())
        .ok_or_else(|| {
            format!(
                "{}: window {} sends {text:?} after it closed",
                step.line, step.window
            )
        })?;
    stream
        .write_all(format!("{text}\n").as_bytes())
        .map_err(|e| {
            format!(
                "{}: window {} cannot send {text:?}: {e}",
                step.line, step.window
            )
        })
}

/// Waits until every window has received the lines shown for it so far.
fn settle(windows: &mut HashMap<String, Window>, order: &[String]) -> Result<(), String> {
    for name in order {
        let Some(window) = windows.get_mut(name) else {
            continue;
        };
        while let Some((line, wanted)) = window.expected.pop_front() {
            let got = match window.events.recv_timeout(PATIENCE) {
                Ok(event) => event,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "{line}: window {name} expected {}, nothing came within {} s",
                        describe(&wanted),
                        PATIENCE.as_secs()
                    ));
                }
                Err(RecvTimeoutError::Disconnected) => Event::Closed("no reader".to_string()),
            };
            match (&wanted, got) {
                (Action::Expect(text), Event::Line(line_got))
                    if without_dates(text) == without_dates(&line_got) => {}
                (Action::ExpectClosed, Event::Closed(_)) => {}
                (_, Event::Line(line_got)) => {
                    return Err(format!(
                        "{line}: window {name} expected {}, got {line_got:?}",
                        describe(&wanted)
                    ));
                }
                (_, Event::Closed(why)) => {
                    return Err(format!(
                        "{line}: window {name} expected {}, but its connection closed ({why})",
                        describe(&wanted)
                    ));
                }
            }
        }
    }
    Ok(())
}

/// `line` with the date of every SGF record in it (`DT[2026-11-25]`) made `DT[date]`:
/// a record sent today carries today's date, whatever day the transcript was taken.
fn without_dates(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("DT[") {
        let (before, from) = rest.split_at(at + 3);
        out.push_str(before);
        let date = from.get(..11).filter(|d| {
            d.bytes().enumerate().all(|(i, b)| match i {
                4 | 7 => b == b'-',
                10 => b == b']',
                _ => b.is_ascii_digit(),
            })
        });
        match date {
            Some(_) => {
                out.push_str("date]");
                rest = &from[11..];
            }
            None => rest = from,
        }
    }
    out.push_str(rest);
    out
}

fn describe(action: &Action) -> String {
    match action {
        Action::Expect(text) => format!("{text:?}"),
        _ => "the server to close the connection".to_string(),
    }
}

/// The project's Markdown: README.md and every docs/*.md, as (name, text).
fn documents() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths: Vec<PathBuf> = vec![root.join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root.join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        docs.sort();
        paths.extend(docs);
    }
    paths
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect()
}

fn all_transcripts() -> Vec<Transcript> {
    let mut all = Vec::new();
    let mut errors = Vec::new();
    for (name, text) in documents() {
        match parse(&name, &text) {
            Ok(transcripts) => all.extend(transcripts),
            Err(e) => errors.push(e),
        }
    }
    assert!(
        errors.is_empty(),
        "malformed transcripts:\n{}",
        errors.join("\n")
    );
    all
}

#[test]
fn every_transcript_in_the_docs_replays_exactly() {
    let transcripts = all_transcripts();
    for front in [Front::Go, Front::Spectrangle, Front::Bkgo] {
        assert!(
            transcripts.iter().any(|t| t.front == front),
            "no transcript of {front:?} in README.md or docs/"
        );
    }
    assert!(
        transcripts.iter().any(|t| t.file == "README.md"),
        "README.md shows no transcript"
    );
    // A few at a time: each is a server of its own.
    let failures: Vec<String> = transcripts
        .chunks(4)
        .flat_map(|chunk| {
            thread::scope(|scope| {
                let runs: Vec<_> = chunk
                    .iter()
                    .map(|t| scope.spawn(move || replay(t)))
                    .collect();
                runs.into_iter()
                    .filter_map(|run| match run.join() {
                        Ok(Ok(())) => None,
                        Ok(Err(e)) => Some(e),
                        Err(_) => Some("a replay panicked".to_string()),
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    println!("{} transcripts replayed", transcripts.len());
    assert!(
        failures.is_empty(),
        "{} of {} transcripts no longer match the server:\n\n{}",
        failures.len(),
        transcripts.len(),
        failures.join("\n\n")
    );
}

#[test]
fn a_changed_line_in_a_copy_of_a_transcript_fails_naming_its_file_and_line() {
    let (name, text) = documents().remove(0);
    let transcript = parse(&name, &text)
        .expect("README.md parses")
        .into_iter()
        .next()
        .expect("README.md shows a transcript");
    // The last line the server sends in the first transcript, changed by one character.
    let changed = transcript
        .steps
        .iter()
        .rev()
        .find(|s| matches!(s.action, Action::Expect(_)) && s.window != CONSOLE)
        .expect("a line the server sends")
        .clone();
    let Action::Expect(original) = &changed.action else {
        unreachable!()
    };
    let copy: String = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            if i + 1 == changed.line {
                format!("{line}X\n")
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    let copied = parse("README.md (copy)", &copy)
        .expect("the copy parses")
        .remove(0);
    let error = replay(&copied).expect_err("the changed line fails the replay");
    let place = format!(
        "README.md (copy):{}: window {} expected",
        changed.line, changed.window
    );
    assert!(error.starts_with(&place), "{error}");
    assert!(
        error.contains(&format!("{:?}", format!("{original}X"))),
        "{error}"
    );
    assert!(error.contains(&format!("got {original:?}")), "{error}");
    // The original itself replays.
    replay(&transcript).expect("the original replays");
}

#[test]
fn the_notation_is_read_as_documented() {
    let text = "intro\n```transcript go --seed 3 --komi 7\n# a comment\n\nA> HANDSHAKE+Ann\nA< ACKNOWLEDGE_HANDSHAKE+1+1\nconsole> games\nconsole<\nB> [close]\nA< [closed]\nA> \n```\n";
    let transcripts = parse("t.md", text).expect("parses");
    assert_eq!(transcripts.len(), 1);
    let t = &transcripts[0];
    assert_eq!((t.line, t.front), (2, Front::Go));
    assert_eq!(t.flags, ["--seed", "3", "--komi", "7"]);
    let steps: Vec<(usize, &str, Action)> = t
        .steps
        .iter()
        .map(|s| (s.line, s.window.as_str(), s.action.clone()))
        .collect();
    assert_eq!(
        steps,
        [
            (5, "A", Action::Send("HANDSHAKE+Ann".into())),
            (6, "A", Action::Expect("ACKNOWLEDGE_HANDSHAKE+1+1".into())),
            (7, "console", Action::Send("games".into())),
            (8, "console", Action::Expect(String::new())),
            (9, "B", Action::Close),
            (10, "A", Action::ExpectClosed),
            (11, "A", Action::Send(String::new())),
        ]
    );
    assert_eq!(
        parse("t.md", "```transcript chess\nA> x\n```\n").unwrap_err(),
        "t.md:1: expected ```transcript go|spectrangle|bkgo [flags], got \"```transcript chess\""
    );
    assert_eq!(
        parse("t.md", "```transcript go\nA x\n```\n").unwrap_err(),
        "t.md:2: expected `NAME> text` or `NAME< text`, got \"A x\""
    );
    assert_eq!(
        parse("t.md", "```transcript go\nA> x\n").unwrap_err(),
        "t.md:1: a transcript that is never closed"
    );
    assert_eq!(
        listening_port(
            "2026 [INFO] (main) listening on 127.0.0.1:4321 (Spectrangle)",
            Front::Spectrangle
        ),
        Some(4321)
    );
    assert_eq!(
        listening_port("listening on 127.0.0.1:4321 (GO!)", Front::Bkgo),
        None
    );
    assert_eq!(
        without_dates("(;GM[1]DT[2026-11-25]SZ[5];B[aa]C[DT[x]])"),
        "(;GM[1]DT[date]SZ[5];B[aa]C[DT[x]])"
    );
    assert_eq!(without_dates("DT[2026-11-2"), "DT[2026-11-2");
}

/// A fenced ```` ```checker <protocol> ```` block: a run of `goserver check` against a
/// fresh goserver. Its first line is the command as a user types it
/// (`$ goserver check go localhost:8000 --only handshake`); the rest is what the
/// command prints. Times (`(12 ms)`, `in 0.4 s:`) match any time, and the address shown
/// stands for the fresh server's.
#[derive(Clone, Debug)]
struct CheckerRun {
    /// `check` (a ```checker block) or `play` (a ```play block).
    command: &'static str,
    file: String,
    line: usize,
    front: Front,
    /// The command's words after `goserver check <protocol> <address>`.
    flags: Vec<String>,
    /// The address the command shows.
    address: String,
    /// What it prints.
    output: Vec<String>,
}

/// The flags of the fresh server a ```play block runs against: its bot takes the free
/// seat after a second, and both bots stop after a fixed number of simulations (level
/// 2, a deadline of a minute), so the games are the same on any machine.
const PLAY_SERVER_FLAGS: [&str; 8] = [
    "--bot-after",
    "1",
    "--bot-level",
    "2",
    "--bot-think-ms",
    "60000",
    "--seed",
    "1",
];

/// Every checker block (```checker) and play block (```play) of `text`, read from
/// `file`.
fn checker_runs(file: &str, text: &str) -> Result<Vec<CheckerRun>, String> {
    let mut runs = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((index, line)) = lines.next() {
        let opening = line.trim_start();
        let (command, info) = match (
            opening.strip_prefix("```checker"),
            opening.strip_prefix("```play"),
        ) {
            (Some(info), _) => ("check", info),
            (_, Some(info)) => ("play", info),
            _ => continue,
        };
        let front = Front::parse(info.trim())
            .filter(|f| *f != Front::Bkgo)
            .ok_or_else(|| {
                format!(
                    "{file}:{}: expected ```checker or ```play, then go|spectrangle",
                    index + 1
                )
            })?;
        let (_, shown) = lines
            .next()
            .ok_or_else(|| format!("{file}:{}: an empty {command} block", index + 1))?;
        let words: Vec<&str> = shown.split_whitespace().collect();
        let ["$", "goserver", word, _protocol, address, flags @ ..] = &words[..] else {
            return Err(format!(
                "{file}:{}: expected `$ goserver {command} <protocol> <address> [flags]`, got {shown:?}",
                index + 2
            ));
        };
        if *word != command {
            return Err(format!(
                "{file}:{}: a ```{} block shows `goserver {word}`",
                index + 2,
                if command == "check" {
                    "checker"
                } else {
                    "play"
                }
            ));
        }
        let mut output = Vec::new();
        for (_, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            output.push(line.to_string());
        }
        runs.push(CheckerRun {
            command,
            file: file.to_string(),
            line: index + 1,
            front,
            flags: flags.iter().map(|f| (*f).to_string()).collect(),
            address: address.to_string(),
            output,
        });
    }
    Ok(runs)
}

/// `line` with every time the checker prints made `TIME`: `(12 ms)`, `(1.5 s)`,
/// `in 0.4 s:`.
fn without_times(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        // A time is a number, a blank, then `ms` or `s`, after `(` or `in `.
        let at = ["(", "in "]
            .iter()
            .filter_map(|opening| rest.find(opening).map(|i| (i, opening.len())))
            .filter(|&(i, len)| {
                let after = &rest[i + len..];
                let digits = after.len()
                    - after
                        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                        .len();
                digits > 0
                    && (after[digits..].starts_with(" ms") || after[digits..].starts_with(" s"))
            })
            .min();
        let Some((i, len)) = at else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..i + len]);
        out.push_str("TIME");
        let after = &rest[i + len..];
        let digits = after.len()
            - after
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == '.')
                .len();
        let unit = if after[digits..].starts_with(" ms") {
            3
        } else {
            2
        };
        rest = &after[digits + unit..];
    }
}

/// Runs `run` against a fresh server; a mismatch names its file and line.
fn check_run(run: &CheckerRun) -> Result<(), String> {
    let server_flags: Vec<String> = if run.command == "play" {
        PLAY_SERVER_FLAGS.iter().map(|f| (*f).to_string()).collect()
    } else {
        Vec::new()
    };
    let server = Server::start(run.front, &server_flags)
        .map_err(|e| format!("{}:{}: {e}", run.file, run.line))?;
    let address = format!("127.0.0.1:{}", server.port);
    let protocol = match run.front {
        Front::Go => "go",
        _ => "spectrangle",
    };
    let printed = Command::new(env!("CARGO_BIN_EXE_goserver"))
        .args([run.command, protocol, &address])
        .args(&run.flags)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{}:{}: the checker does not run: {e}", run.file, run.line))?;
    let text = String::from_utf8_lossy(&printed.stdout).replace(&address, &run.address);
    let got: Vec<&str> = text.lines().collect();
    for (n, wanted) in run.output.iter().enumerate() {
        let line = run.line + 2 + n;
        match got.get(n) {
            Some(got) if without_times(got) == without_times(wanted) => {}
            Some(got) => {
                return Err(format!(
                    "{}:{line}: expected {wanted:?}, got {got:?}",
                    run.file
                ));
            }
            None => {
                return Err(format!(
                    "{}:{line}: expected {wanted:?}, the output ended",
                    run.file
                ));
            }
        }
    }
    if got.len() > run.output.len() {
        return Err(format!(
            "{}:{}: the checker printed more than shown: {:?}",
            run.file,
            run.line + 2 + run.output.len(),
            got[run.output.len()]
        ));
    }
    Ok(())
}

#[test]
fn every_checker_run_in_the_docs_prints_as_shown() {
    let mut runs = Vec::new();
    for (name, text) in documents() {
        runs.extend(checker_runs(&name, &text).unwrap_or_else(|e| panic!("{e}")));
    }
    assert!(
        runs.iter()
            .any(|r| r.file == "README.md" && r.command == "check"),
        "README.md shows no checker run"
    );
    assert!(
        runs.iter()
            .any(|r| r.file == "README.md" && r.command == "play"),
        "README.md shows no goserver play run"
    );
    let failures: Vec<String> = runs.iter().filter_map(|run| check_run(run).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn times_in_a_checker_run_match_any_time() {
    assert_eq!(
        without_times("  [1/9] pass     handshake.1     The first client (12 ms)"),
        "  [1/9] pass     handshake.1     The first client (TIME)"
    );
    assert_eq!(
        without_times("9 cases in 0.4 s: 5 pass (1.5 s) and (x) in 3 parts"),
        "9 cases in TIME: 5 pass (TIME) and (x) in 3 parts"
    );
}
