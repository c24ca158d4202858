//! Docs that cannot drift: what `docs/design.md` and `docs/command-line.md` state as
//! facts is read here and compared with the code and with a running server.
//!
//! - The bounds table of docs/design.md: every number in its "bound" column against the
//!   constant or default its last column names, in order.
//! - The thread table of docs/design.md: against the threads real servers have, as
//!   `/proc` names them (every front end, the web board, the console with and without a
//!   terminal, games in play, the bots seated): no thread the table does not name, and
//!   no row that no server shows.
//! - The flags of docs/command-line.md: against `goserver --help`, `goserver check
//!   --help` and `goserver play --help`, with their defaults.
//!
//! A failure names the page and the line to mend.

mod common;

use common::PATIENCE;
use goserver::settings::Settings;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn page(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rows of the Markdown table under `heading` (a `## ` heading) of `text`: each
/// row's line number (from 1) and its cells, the header and the rule left out.
fn table(text: &str, heading: &str) -> Vec<(usize, Vec<String>)> {
    let mut rows = Vec::new();
    let mut inside = false;
    let mut seen_header = false;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with("## ") {
            inside = line.trim() == heading;
            continue;
        }
        if !inside || !line.starts_with('|') {
            if seen_header && !rows.is_empty() && !line.starts_with('|') {
                break;
            }
            continue;
        }
        let cells = split_row(line);
        if !seen_header {
            seen_header = true;
            continue;
        }
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ' '))
        {
            continue;
        }
        rows.push((n + 1, cells));
    }
    assert!(!rows.is_empty(), "no table under '{heading}'");
    rows
}

/// The cells of a table row; `\|` is a `|` inside a cell.
fn split_row(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut cells = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                if let Some(cell) = cells.last_mut() {
                    cell.push('|');
                }
                chars.next();
            }
            '|' => cells.push(String::new()),
            c => {
                if let Some(cell) = cells.last_mut() {
                    cell.push(c);
                }
            }
        }
    }
    cells.into_iter().map(|c| c.trim().to_string()).collect()
}

/// The code spans (between backticks) of a cell.
fn code_spans(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

// ----- the bounds table -----

/// A number with what it counts, as the page writes it and as the code holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Quantity {
    Count(u64),
    Bytes(u64),
    Millis(u64),
}

/// The numbers of a cell in order, code spans left out: `4 KiB`, `1.5 s`, `2,000`.
fn quantities(cell: &str) -> Vec<Quantity> {
    let prose: String = cell.split('`').step_by(2).collect::<Vec<_>>().join(" ");
    let chars: Vec<char> = prose.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '-'));
        if !starts_number {
            i += 1;
            continue;
        }
        let mut text = String::new();
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || ((chars[i] == ',' || chars[i] == '.')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)))
        {
            if chars[i] != ',' {
                text.push(chars[i]);
            }
            i += 1;
        }
        let rest: String = chars[i..].iter().collect();
        let unit = rest
            .trim_start()
            .split(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("");
        let value: f64 = text.parse().expect("a number");
        found.push(match unit {
            "KiB" => Quantity::Bytes((value * 1024.0) as u64),
            "MiB" => Quantity::Bytes((value * 1024.0 * 1024.0) as u64),
            "s" => Quantity::Millis((value * 1000.0) as u64),
            "ms" => Quantity::Millis(value as u64),
            _ => Quantity::Count(value as u64),
        });
    }
    found
}

fn millis(d: Duration) -> Quantity {
    Quantity::Millis(u64::try_from(d.as_millis()).expect("a short duration"))
}

fn count(n: usize) -> Quantity {
    Quantity::Count(n as u64)
}

fn bytes(n: usize) -> Quantity {
    Quantity::Bytes(n as u64)
}

/// The value of a constant or default the bounds table names; `None` for a name this
/// test does not know (add it here when the page names a new one).
fn constant(name: &str) -> Option<Quantity> {
    use goserver::net;
    let settings = Settings::default();
    let lines = net::LineLimits::default();
    let outbox = net::OutboxLimits::default();
    Some(match name {
        "net::LineLimits::max_line_bytes" => bytes(lines.max_line_bytes),
        "net::Overlong::flood_bytes" => match lines.overlong {
            net::Overlong::ReportAtNewline { flood_bytes } => bytes(flood_bytes),
            net::Overlong::ReportAtOnce => return None,
        },
        "net::pacer::FREE_REJECTIONS" => count(net::pacer::FREE_REJECTIONS as usize),
        "net::pacer::PACED_DELAY" => millis(net::pacer::PACED_DELAY),
        "net::handoff::ANSWER_WAIT" => millis(net::handoff::ANSWER_WAIT),
        "frontend::go::GAME_INBOX_BOUND" => {
            count(goserver::frontend::go::registry::GAME_INBOX_BOUND)
        }
        "frontend::spectrangle::TABLE_INBOX_BOUND" => {
            count(goserver::frontend::spectrangle::registry::TABLE_INBOX_BOUND)
        }
        "frontend::bkgo::ROOM_INBOX_BOUND" => count(goserver::frontend::bkgo::ROOM_INBOX_BOUND),
        "net::OUTPUT_STALL_TIMEOUT" => millis(net::OUTPUT_STALL_TIMEOUT),
        "net::OutboxLimits::max_pending_bytes" => bytes(outbox.max_pending_bytes),
        "net::OutboxLimits::send_buffer_bytes" => bytes(outbox.send_buffer_bytes),
        "Settings::max_clients" => count(settings.max_clients),
        "Settings::max_web_clients" => count(settings.max_web_clients),
        "web::http::HEAD_LIMIT" => bytes(goserver::web::http::HEAD_LIMIT),
        "web::http::MAX_HEADERS" => count(goserver::web::http::MAX_HEADERS),
        "settings::WEB_HEAD_TIMEOUT" => millis(goserver::settings::WEB_HEAD_TIMEOUT),
        "Settings::handshake_timeout" => millis(settings.handshake_timeout?),
        "Settings::moves_per_point" => count(settings.moves_per_point),
        "frontend::bkgo::MAX_SGF_BYTES" => bytes(goserver::frontend::bkgo::upload::MAX_SGF_BYTES),
        "results::LINE_LIMIT" => bytes(goserver::results::file::LINE_LIMIT),
        "results::RECENT_KEPT" => count(goserver::results::RECENT_KEPT),
        "cards::CARDS_KEPT" => count(goserver::cards::CARDS_KEPT),
        "cards::Mistake::COUNT" => count(goserver::cards::mistake::Mistake::COUNT),
        "cards::EXAMPLES_PER_KIND" => count(goserver::cards::card::EXAMPLES_PER_KIND),
        "cards::EXAMPLE_BYTES" => Quantity::Count(goserver::cards::card::EXAMPLE_BYTES as u64),
        "live::FINISHED_SHOWN" => count(goserver::live::hub::FINISHED_SHOWN),
        "logging::LOG_QUEUE_BOUND" => count(goserver::logging::LOG_QUEUE_BOUND),
        "records::WRITER_QUEUE_BOUND" => count(goserver::records::WRITER_QUEUE_BOUND),
        "net::CONNECTION_STACK_BYTES" => bytes(net::listener::CONNECTION_STACK_BYTES),
        "server::GAME_STACK_BYTES" => bytes(goserver::server::GAME_STACK_BYTES),
        "server::IDLE_CONNECTION_THREADS" => count(goserver::server::IDLE_CONNECTION_THREADS),
        "server::IDLE_GAME_THREADS" => count(goserver::server::IDLE_GAME_THREADS),
        "workers::IDLE_TIMEOUT" => millis(goserver::workers::IDLE_TIMEOUT),
        "frontend::QUERY_TIMEOUT" => millis(goserver::frontend::QUERY_TIMEOUT),
        "server::SHUTDOWN_GRACE" => millis(goserver::server::SHUTDOWN_GRACE),
        "logging::FLUSH_AT_EXIT" => millis(goserver::logging::FLUSH_AT_EXIT),
        _ => return None,
    })
}

/// Every number of the bounds table against the code; the mismatches, each naming the
/// page's line.
fn bounds_mismatches(text: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    for (line, cells) in table(text, "## Bounds") {
        let [what, bound, _past, code] = cells.as_slice() else {
            wrong.push(format!("docs/design.md:{line}: a row of 4 cells"));
            continue;
        };
        let numbers = quantities(bound);
        let names = code_spans(code);
        if numbers.len() != names.len() {
            wrong.push(format!(
                "docs/design.md:{line} ({what}): {} numbers in '{bound}', {} constants named in '{code}'",
                numbers.len(),
                names.len()
            ));
            continue;
        }
        for (number, name) in numbers.iter().zip(&names) {
            match constant(name) {
                None => wrong.push(format!(
                    "docs/design.md:{line} ({what}): `{name}` is no constant tests/docs_facts.rs knows"
                )),
                Some(value) if value != *number => wrong.push(format!(
                    "docs/design.md:{line} ({what}): the page says {number:?}, `{name}` is {value:?}"
                )),
                Some(_) => {}
            }
        }
    }
    wrong
}

#[test]
fn every_number_of_the_bounds_table_is_the_code_s() {
    let wrong = bounds_mismatches(&page("design.md"));
    assert!(
        wrong.is_empty(),
        "the bounds table no longer matches the code:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn a_changed_number_in_the_bounds_table_fails_naming_its_line() {
    let text = page("design.md");
    let changed = text.replacen("| 64 KiB | disconnected", "| 32 KiB | disconnected", 1);
    assert_ne!(changed, text, "the row to change is on the page");
    let wrong = bounds_mismatches(&changed);
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    assert!(
        wrong[0].starts_with("docs/design.md:")
            && wrong[0].contains("`net::Overlong::flood_bytes` is Bytes(65536)"),
        "{}",
        wrong[0]
    );
}

#[test]
fn numbers_are_read_with_their_units() {
    assert_eq!(
        quantities("5 s per line, 1 MiB queued, 2,730 lines, `--max-clients`, 1.5 s, 10 ms, 9x9"),
        vec![
            Quantity::Millis(5000),
            Quantity::Bytes(1 << 20),
            Quantity::Count(2730),
            Quantity::Millis(1500),
            Quantity::Millis(10),
            Quantity::Count(9),
        ]
    );
}

// ----- the thread table -----

/// A row of the thread table: the names it gives (a `<n>` or `<game>` part stands for
/// a number), whether its threads live only for a moment, its line.
struct ThreadRow {
    line: usize,
    names: Vec<String>,
    for_a_moment: bool,
}

fn thread_rows(text: &str) -> Vec<ThreadRow> {
    table(text, "## Threads")
        .into_iter()
        .map(|(line, cells)| ThreadRow {
            line,
            names: code_spans(&cells[0]),
            for_a_moment: cells[1].contains("for a moment"),
        })
        .collect()
}

/// Whether thread name `seen` (as `/proc` shows it: at most 15 bytes) is `pattern`.
fn is_named(seen: &str, pattern: &str) -> bool {
    let (prefix, numbered) = match pattern.find('<') {
        Some(at) => (&pattern[..at], true),
        None => (pattern, false),
    };
    if numbered {
        let truncated: String = prefix.chars().take(15).collect();
        seen.starts_with(&truncated)
            && seen.len() > truncated.len()
            && seen[truncated.len()..].chars().all(|c| c.is_ascii_digit())
    } else {
        let truncated: String = prefix.chars().take(15).collect();
        seen == truncated
    }
}

/// The names of the threads of process `pid`, its main thread as `main`.
fn thread_names(pid: u32) -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|task| {
            let task = task.ok()?;
            let tid = task.file_name().to_string_lossy().to_string();
            if tid == pid.to_string() {
                return Some("main".to_string());
            }
            let comm = std::fs::read_to_string(task.path().join("comm")).ok()?;
            Some(comm.trim_end().to_string())
        })
        .collect()
}

/// A goserver process started for this test, stopped when dropped.
struct Running {
    child: Child,
    /// The process whose threads are read (the child, or goserver under `script`).
    pid: u32,
    ports: BTreeMap<String, u16>,
}

impl Drop for Running {
    fn drop(&mut self) {
        // SAFETY: kill only sends a signal to a process this test started.
        unsafe {
            libc::kill(self.pid as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `listening on ...:<port> (<front>)` lines from `log` until every front end in
/// `fronts` has one.
fn wait_for_ports(log: &Path, fronts: &[&str]) -> BTreeMap<String, u16> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        let mut ports = BTreeMap::new();
        for line in text.lines() {
            let Some(rest) = line.split("listening on ").nth(1) else {
                continue;
            };
            let Some((address, front)) = rest.split_once(' ') else {
                continue;
            };
            let port = address.rsplit(':').next().and_then(|p| p.parse().ok());
            if let Some(port) = port {
                ports.insert(
                    front.trim_matches(|c| c == '(' || c == ')').to_string(),
                    port,
                );
            }
        }
        if fronts.iter().all(|f| ports.contains_key(*f)) {
            return ports;
        }
        assert!(
            Instant::now() < deadline,
            "no ports within {PATIENCE:?} in:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A server with every front end, the web board, `--records`, `--log-file`, the arena
/// and the bots, its console on a pipe; `terminal`: under `script`, whose pty is its
/// terminal, so the console is interactive.
fn start(dir: &Path, terminal: bool) -> Running {
    let log = dir.join("server.log");
    let records = dir.join("records");
    std::fs::create_dir_all(&records).expect("a records directory");
    let args = [
        "--port",
        "0",
        "--records",
        &records.to_string_lossy(),
        "--log-file",
        &log.to_string_lossy(),
        "--arena",
        "--arena-round",
        "1",
        "--bot-after",
        "1",
        "--bkgo-bot-after",
        "1",
        "--bot-think-ms",
        "60000",
        "--bkgo-size",
        "5",
        "--seed",
        "3",
    ]
    .map(str::to_string);
    let binary = env!("CARGO_BIN_EXE_goserver");
    let mut command = if terminal {
        let line = std::iter::once(binary.to_string())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let mut script = Command::new("script");
        script.args(["-q", "-e", "-c", &line, "/dev/null"]);
        script
    } else {
        let mut server = Command::new(binary);
        server.args(&args);
        server
    };
    let child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start the server{}: {e}",
                if terminal {
                    " under script (util-linux)"
                } else {
                    ""
                }
            )
        });
    let ports = wait_for_ports(&log, &["GO!", "Spectrangle", "Bkgo", "web"]);
    let pid = if terminal {
        child_of(child.id())
    } else {
        child.id()
    };
    Running { child, pid, ports }
}

/// The goserver process `script` (pid `parent`) started, found among all its
/// descendants: `script` may run it through a shell that forks rather than
/// execs, and `/proc/PID/task/PID/children` is not on every kernel, so the
/// parent of every process is read from `/proc/PID/stat` instead.
fn child_of(parent: u32) -> u32 {
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(pid) = goserver_below(parent) {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "script (pid {parent}) started no process named goserver"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A process named `goserver` whose chain of parents reaches `ancestor`.
fn goserver_below(ancestor: u32) -> Option<u32> {
    let mut parents = std::collections::HashMap::new();
    let mut names = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": comm may hold spaces, so split after its ')'.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let ppid = stat[close + 1..]
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(ppid) = ppid {
            parents.insert(pid, ppid);
            names.insert(pid, stat[open + 1..close].to_string());
        }
    }
    names
        .iter()
        .filter(|(_, name)| name.as_str() == "goserver")
        .map(|(pid, _)| *pid)
        .find(|pid| {
            let mut at = *pid;
            for _ in 0..64 {
                match parents.get(&at) {
                    Some(&up) if up == ancestor => return true,
                    Some(&up) if up > 1 => at = up,
                    _ => return false,
                }
            }
            false
        })
}

/// A connection that sends lines and reads them, bounded by the test's patience.
struct Peer {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Peer {
    fn connect(port: u16) -> Peer {
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
        stream.set_read_timeout(Some(PATIENCE)).expect("timeout");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        Peer { stream, reader }
    }

    fn send(&mut self, line: &str) {
        self.stream
            .write_all(format!("{line}\n").as_bytes())
            .expect("send");
    }

    /// Reads lines until one starts with `prefix`.
    fn until(&mut self, prefix: &str) -> String {
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => panic!("no line starting {prefix:?}"),
                Ok(_) if line.starts_with(prefix) => return line.trim_end().to_string(),
                Ok(_) => {}
            }
        }
    }
}

/// Plays on `server` until every kind of thread is there: two GO! players paired by
/// the arena, a third alone who gets GoBot, a Spectrangle game, a Bkgo player who
/// gets GoBot, a web viewer's stream. Returns the connections, to keep them open.
fn busy(server: &Running) -> Vec<Peer> {
    let port = |front: &str| server.ports[front];
    let mut peers = Vec::new();
    for name in ["Ann", "Bob", "Cat"] {
        let mut go = Peer::connect(port("GO!"));
        go.send(&format!("HANDSHAKE+{name}"));
        peers.push(go);
    }
    for peer in &mut peers {
        peer.until("ACKNOWLEDGE_CONFIG+");
    }
    for name in ["Dan", "Eve"] {
        let mut spectrangle = Peer::connect(port("Spectrangle"));
        spectrangle.send(&format!("JOIN {name}"));
        spectrangle.until("LOBBY");
        spectrangle.send("READY");
        peers.push(spectrangle);
    }
    let mut bkgo = Peer::connect(port("Bkgo"));
    bkgo.until("BKGO-Server-version");
    bkgo.send("BKGO-Client-version-1.0");
    bkgo.until("OK");
    bkgo.send("join");
    bkgo.until("GimmeGoPlayer");
    bkgo.send("Player: Fay");
    bkgo.until("AnnouncePlayer: GoBot");
    peers.push(bkgo);
    let mut web = Peer::connect(port("web"));
    web.stream
        .write_all(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .expect("a request");
    web.until("HTTP/1.1 200");
    peers.push(web);
    peers
}

/// The thread names seen over `within`, sampled until every row that must be alive
/// has been seen (or the time is up).
fn sample(pid: u32, rows: &[&ThreadRow], within: Duration) -> BTreeSet<String> {
    let deadline = Instant::now() + within;
    let mut seen = BTreeSet::new();
    loop {
        seen.extend(thread_names(pid));
        let all = rows.iter().all(|row| {
            row.names
                .iter()
                .all(|n| seen.iter().any(|s| is_named(s, n)))
        });
        if all || Instant::now() >= deadline {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_thread_table_names_every_thread_of_a_running_server_and_each_is_seen() {
    let text = page("design.md");
    let rows = thread_rows(&text);
    let dir = tempdir();
    let mut seen = BTreeSet::new();
    // With a terminal only: the console's printer and its shutdown watch.
    let terminal_only = |row: &&ThreadRow| {
        row.names
            .iter()
            .any(|n| n == "console-print" || n == "console-shutdown")
    };
    {
        let server = start(&dir.join("piped"), false);
        let _peers = busy(&server);
        let wanted: Vec<&ThreadRow> = rows
            .iter()
            .filter(|r| !r.for_a_moment && !terminal_only(r))
            .collect();
        seen.extend(sample(server.pid, &wanted, PATIENCE));
    }
    {
        let server = start(&dir.join("terminal"), true);
        let wanted: Vec<&ThreadRow> = rows.iter().filter(terminal_only).collect();
        seen.extend(sample(server.pid, &wanted, PATIENCE));
    }
    let unnamed: Vec<&String> = seen
        .iter()
        .filter(|s| !rows.iter().any(|r| r.names.iter().any(|n| is_named(s, n))))
        .collect();
    assert!(
        unnamed.is_empty(),
        "docs/design.md's thread table names no thread {unnamed:?}, which a running server has"
    );
    let sources = source_text();
    let mut missing = Vec::new();
    for row in &rows {
        for name in &row.names {
            if row.for_a_moment {
                if !sources.contains(&format!("\"{name}\"")) {
                    missing.push(format!(
                        "docs/design.md:{}: `{name}` is no thread name in src/",
                        row.line
                    ));
                }
            } else if !seen.iter().any(|s| is_named(s, name)) {
                missing.push(format!(
                    "docs/design.md:{}: no running server showed a thread `{name}`",
                    row.line
                ));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// Every `.rs` file under src/, joined.
fn source_text() -> String {
    fn walk(dir: &Path, text: &mut String) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, text);
            } else if path.extension().is_some_and(|x| x == "rs") {
                text.push_str(&std::fs::read_to_string(&path).unwrap_or_default());
            }
        }
    }
    let mut text = String::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut text,
    );
    text
}

/// A fresh directory under the system's temporary one.
fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "goserver-docs-facts-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn thread_names_are_matched_as_proc_shows_them() {
    assert!(is_named("conn-12", "conn-<n>"));
    assert!(!is_named("conn-", "conn-<n>"));
    assert!(!is_named("console", "conn-<n>"));
    assert!(is_named("accept-spectran", "accept-spectrangle"));
    assert!(is_named("bot-3", "bot-<game>"));
    assert!(!is_named("bkgo-bot", "bot-<game>"));
}

// ----- the flags -----

/// The flags `--help` output lists (long names, `--x`), with the default it shows.
fn help_flags(args: &[&str]) -> BTreeMap<String, Option<String>> {
    let output = Command::new(env!("CARGO_BIN_EXE_goserver"))
        .args(args)
        .output()
        .expect("goserver runs");
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    let mut flags = BTreeMap::new();
    let mut last: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if line.starts_with("  ")
            && (trimmed.starts_with("--") || trimmed.starts_with("-h") || trimmed.starts_with("-V"))
        {
            let flag = trimmed
                .split([' ', ','])
                .find(|w| w.starts_with("--"))
                .unwrap_or("")
                .to_string();
            flags.insert(flag.clone(), None);
            last = Some(flag);
        } else if let (Some(flag), Some(rest)) = (&last, trimmed.strip_prefix("[default: ")) {
            flags.insert(flag.clone(), Some(rest.trim_end_matches(']').to_string()));
        }
    }
    flags
}

#[test]
fn every_flag_of_the_command_line_page_is_in_the_help_and_back() {
    let text = page("command-line.md");
    let serve = help_flags(&["--help"]);
    let check = help_flags(&["check", "--help"]);
    let play = help_flags(&["play", "--help"]);
    // The flag tables: a row per flag of the server, its default in the second cell.
    let mut documented = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        if !line.starts_with("| `-") {
            continue;
        }
        let cells = split_row(line);
        for span in code_spans(&cells[0]) {
            if let Some(flag) = span
                .split_whitespace()
                .next()
                .filter(|f| f.starts_with("--"))
            {
                documented.insert(flag.to_string(), (n + 1, cells[1].clone()));
            }
        }
    }
    let mut wrong = Vec::new();
    for (flag, default) in &serve {
        match documented.get(flag) {
            None => wrong.push(format!(
                "docs/command-line.md: no row for {flag}, which `goserver --help` lists"
            )),
            Some((line, cell)) => {
                if let Some(default) = default
                    && !cell.contains(&format!("`{default}`"))
                {
                    wrong.push(format!(
                        "docs/command-line.md:{line}: {flag}'s default is `{default}` in --help, '{cell}' on the page"
                    ));
                }
            }
        }
    }
    for (flag, (line, _)) in &documented {
        if !serve.contains_key(flag) {
            wrong.push(format!(
                "docs/command-line.md:{line}: {flag} is no flag of `goserver --help`"
            ));
        }
    }
    // The synopsis names every flag of both commands.
    let synopsis = text
        .split("## Synopsis")
        .nth(1)
        .and_then(|s| s.split("```").nth(1))
        .unwrap_or("");
    for flag in serve.keys().chain(check.keys()).chain(play.keys()) {
        let listed = synopsis
            .split(|c: char| c.is_whitespace() || c == '[' || c == ']' || c == '|')
            .any(|w| w == flag);
        if !listed {
            wrong.push(format!(
                "docs/command-line.md: the synopsis does not name {flag}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ----- the first lesson -----

#[test]
fn the_first_lesson_is_as_short_as_the_readme_and_the_tour_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let example = std::fs::read_to_string(root.join("examples/chat.rs")).expect("examples/chat.rs");
    let lines = example.lines().count();
    assert!(
        lines <= 150,
        "examples/chat.rs has {lines} lines: a first lesson has at most 150"
    );
    let said = format!("{lines} lines");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    assert!(
        readme.contains(&format!("a chat room in {said}")),
        "README.md must say 'a chat room in {said}'"
    );
    assert!(
        page("tour.md").contains(&format!("all of it ({said})")),
        "docs/tour.md's Stop 0 must say 'all of it ({said})'"
    );
    // It stands on the net layer alone: no front end, no report cards.
    for line in example.lines().filter(|l| l.starts_with("use goserver::")) {
        assert!(
            [
                "use goserver::net",
                "use goserver::shutdown",
                "use goserver::workers"
            ]
            .iter()
            .any(|allowed| line.starts_with(allowed)),
            "examples/chat.rs uses more than the net layer: {line}"
        );
    }
}
