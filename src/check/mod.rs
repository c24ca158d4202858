//! `goserver check`: the reference's verdict on another server of the course's
//! protocols, a student's. It connects as students' clients would and runs a suite of
//! cases against the server, each tied to a sentence of the protocol document, each
//! with its wire log, and reports on the terminal, in JUnit XML, in HTML and in JSON,
//! as Autobahn|Testsuite and h2spec do for WebSocket and HTTP/2.
//!
//! The checker is a view over the front ends' protocols and engines, beside the
//! console and the web board: it speaks each protocol from the other side with the
//! protocol modules' own types (it formats a client's commands and parses a server's
//! messages with them), and judges the rules with the project's engines. No front end
//! knows it. It is blocking code like the rest: a thread per case (and per client
//! where a case needs them at once), and every wait bounded.
//!
//! - [`options`]: the subcommand's flags.
//! - [`case`]: a case (id, section, title, the sentence it checks), its verdict.
//! - [`step`]: a step of a case, and why it failed (expected, got, boards).
//! - [`probe`]: what a case runs with: the server's address, the waits, names.
//! - [`wire`]: one connection of a case: bounded reads and writes, every line logged.
//! - [`log`]: a case's wire log.
//! - [`measure`]: what the robustness cases share: answer times, floods.
//! - [`target`]: the server under test: running already, or started for each case.
//! - [`run`]: the cases one after another, each with a deadline, and the server's
//!   health after each.
//! - [`report`]: the terminal, JUnit, HTML and JSON.
//! - [`go`], [`spectrangle`]: the suites.

pub mod case;
pub mod go;
pub mod log;
pub mod measure;
pub mod options;
pub mod probe;
pub mod report;
pub mod run;
pub mod spectrangle;
pub mod step;
pub mod target;
pub mod wire;

pub use options::{CheckOptions, Protocol};

use probe::Timing;
use report::Report;
use run::Suite;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use target::Target;

/// The exit status of a run in which a case failed.
const SOME_CASE_FAILED: u8 = 1;

/// The exit status when the server cannot be reached or a flag is wrong.
const CANNOT_CHECK: u8 = 2;

/// The suite of `protocol`.
pub fn suite(protocol: Protocol) -> Suite {
    match protocol {
        Protocol::Go => go::suite(),
        Protocol::Spectrangle => spectrangle::suite(),
    }
}

/// The exam of a client of `protocol` (`--client-cmd`): the checker plays the server.
pub fn exam(protocol: Protocol) -> Suite {
    match protocol {
        Protocol::Go => go::exam::suite(),
        Protocol::Spectrangle => spectrangle::exam::suite(),
    }
}

/// The sections of every suite and how many cases each has, for `goserver check --help`.
pub fn sections_help() -> String {
    let mut text =
        String::from("Sections (run one with --only <section>; --list shows every case):\n");
    let suites = [Protocol::Go, Protocol::Spectrangle]
        .into_iter()
        .flat_map(|protocol| [suite(protocol), exam(protocol)]);
    for suite in suites {
        text.push_str(&format!(
            "  {} ({}, {} cases):\n",
            suite.name,
            suite.protocol,
            suite.cases.len()
        ));
        for section in &suite.sections {
            let count = suite.cases.iter().filter(|c| c.section == *section).count();
            text.push_str(&format!(
                "    {:<12} {} ({count})\n",
                section.slug, section.title
            ));
        }
    }
    text
}

/// Runs `goserver check` with `options`; returns the exit status.
pub fn main(options: &CheckOptions) -> ExitCode {
    let suite = if options.client_cmd.is_some() {
        exam(options.protocol)
    } else {
        suite(options.protocol)
    };
    let cases = match &options.only {
        Some(patterns) => select(&suite, patterns),
        None => suite.cases.clone(),
    };
    if cases.is_empty() {
        eprintln!(
            "goserver check: no case matches --only {} (goserver check {} --list shows them)",
            options.only.as_deref().unwrap_or_default(),
            suite.name
        );
        return ExitCode::from(CANNOT_CHECK);
    }
    if options.list {
        for case in &cases {
            println!(
                "{:<15} {:<9} {}",
                case.id,
                format!("{:?}", case.kind).to_lowercase(),
                case.title
            );
        }
        return ExitCode::SUCCESS;
    }
    let timing = Timing {
        connect_pause: Duration::from_millis(options.connect_pause),
        ..Timing::new(Duration::from_secs_f64(options.answer_timeout))
    };
    let (target, described) = match target(options) {
        Ok(target) => target,
        Err(why) => {
            eprintln!("goserver check: {why}");
            return ExitCode::from(CANNOT_CHECK);
        }
    };
    println!(
        "goserver check {}: the {} suite against {described}",
        suite.name, suite.protocol
    );
    let started = now_rfc3339();
    let began = Instant::now();
    let mut progress = report::terminal::Terminal::new(std::io::stdout());
    let outcomes = run::run(&suite, &cases, &target, timing, &mut progress);
    let report = Report {
        protocol: suite.protocol,
        suite: suite.name,
        target: described,
        started,
        took: began.elapsed(),
        answer_timeout: timing.answer,
        sections: suite.sections.clone(),
        outcomes,
    };
    print!("{}", report::terminal::summary(&report));
    let _ = std::io::stdout().flush();
    if let Err(why) = write_reports(&report, options) {
        eprintln!("goserver check: {why}");
        return ExitCode::from(CANNOT_CHECK);
    }
    if report.failed() {
        ExitCode::from(SOME_CASE_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The cases `--only` selects, in the suite's order: each comma-separated pattern is a
/// section (`moves`), a case (`moves.3`), or else words of titles (`ko`), ignoring case.
pub fn select(suite: &Suite, patterns: &str) -> Vec<case::Case> {
    let patterns: Vec<(String, bool)> = patterns
        .split(',')
        .map(|p| p.trim().to_lowercase())
        .filter(|p| !p.is_empty())
        .map(|p| {
            let names_a_case = suite
                .cases
                .iter()
                .any(|c| c.id.to_lowercase() == p || c.section.slug == p);
            (p, names_a_case)
        })
        .collect();
    suite
        .cases
        .iter()
        .filter(|c| patterns.iter().any(|(p, names)| c.selected_by(p, *names)))
        .cloned()
        .collect()
}

/// The target the flags name, checked to be there, and how reports name it.
///
/// # Errors
///
/// The address cannot be resolved or reached, or the server command cannot start a
/// server that listens.
fn target(options: &CheckOptions) -> Result<(Target, String), String> {
    if let Some(command) = &options.client_cmd {
        if !command.contains("{port}") {
            return Err(format!(
                "--client-cmd has no {{port}}: the checker puts the port it listens on there for each case, e.g. --client-cmd 'java -jar client.jar localhost {{port}}' ({command})"
            ));
        }
        let target = Target::Client {
            template: command.clone(),
            start_timeout: Duration::from_secs_f64(options.start_timeout),
        };
        return Ok((
            target,
            format!("a client started for each case by: {command}"),
        ));
    }
    match (&options.server_cmd, &options.address) {
        (Some(command), _) => {
            let target = Target::Command {
                template: command.clone(),
                start_timeout: Duration::from_secs_f64(options.start_timeout),
            };
            if !command.contains("{port}") {
                return Err(format!(
                    "--server-cmd has no {{port}}: the checker puts a free port there for each case, e.g. --server-cmd 'java -jar server.jar {{port}}' ({command})"
                ));
            }
            // One start before the run: a command that cannot start a server is a
            // wrong flag, not forty failed cases.
            let mut served = target
                .start()
                .map_err(|why| format!("the server cannot be started: {why}"))?;
            served.stop();
            Ok((
                target,
                format!("a server started for each case by: {command}"),
            ))
        }
        (None, Some(address)) => {
            let addr = Target::resolve(address)?;
            std::net::TcpStream::connect_timeout(
                &addr,
                Duration::from_secs_f64(options.answer_timeout),
            )
            .map_err(|e| format!("cannot reach {address} ({addr}): {e}"))?;
            Ok((Target::Running(addr), address.clone()))
        }
        (None, None) => Err("give HOST:PORT, or --server-cmd".to_string()),
    }
}

/// Writes the reports the flags ask for.
///
/// # Errors
///
/// A report that cannot be made or written, and why.
fn write_reports(report: &Report, options: &CheckOptions) -> Result<(), String> {
    if let Some(path) = &options.json {
        let json = report::json::render(report)?;
        std::fs::write(path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("JSON report: {}", path.display());
    }
    if let Some(path) = &options.junit {
        let xml = report::junit::render(report)?;
        std::fs::write(path, xml).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("JUnit report: {}", path.display());
    }
    if let Some(dir) = &options.html {
        report::html::write(report, dir)?;
        println!("HTML report: {}", dir.join("index.html").display());
    }
    Ok(())
}

/// Now, in RFC 3339 (UTC).
fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}
