//! The flags of `goserver check`.

use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Runs the conformance suite of a protocol against another server (a student's, or
/// goserver itself), as students' clients would meet it: every case with its verdict
/// and wire log. Exit status 0 when no case fails, 1 when one does, 2 when the server
/// cannot be reached or a flag is wrong.
#[derive(Args, Debug, Clone)]
pub struct CheckOptions {
    /// The protocol the server speaks.
    #[arg(value_enum)]
    pub protocol: Protocol,
    /// Where the server listens, HOST:PORT (e.g. localhost:8000); not with
    /// --server-cmd or --client-cmd.
    #[arg(value_name = "HOST:PORT", required_unless_present_any = ["server_cmd", "client_cmd", "list"], conflicts_with_all = ["server_cmd", "client_cmd"])]
    pub address: Option<String>,
    /// Start the server for each case with this command (run by `sh -c`), `{port}`
    /// replaced by a free port; the case starts once the port accepts, and the server is
    /// stopped after it.
    #[arg(long, value_name = "CMD", conflicts_with = "client_cmd")]
    pub server_cmd: Option<String>,
    /// The other direction: examine a CLIENT. For each case the checker listens on a
    /// free port, starts the client with this command (run by `sh -c`, `{port}`
    /// replaced by that port), plays the server's side of the case and judges the
    /// client's lines; the client is stopped after the case.
    #[arg(long, value_name = "CMD")]
    pub client_cmd: Option<String>,
    /// Seconds a started server has to accept connections on its port (with
    /// --client-cmd: a started client has to connect).
    #[arg(long, value_name = "S", default_value_t = 20.0, value_parser = positive_seconds)]
    pub start_timeout: f64,
    /// Seconds to wait for each answer; past it the step, and its case, fail.
    #[arg(long, value_name = "S", default_value_t = 5.0, value_parser = positive_seconds)]
    pub answer_timeout: f64,
    /// Milliseconds each client waits after connecting before its first line, for a
    /// server that loses a line sent at once (the case that sends one at once still
    /// does).
    #[arg(long, value_name = "MS", default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10_000))]
    pub connect_pause: u64,
    /// Run only the cases whose id is, or starts with, PATTERN (a section: `moves`; a
    /// case: `moves.3`), or whose title contains it; several patterns joined by commas.
    #[arg(long, value_name = "PATTERN")]
    pub only: Option<String>,
    /// List the cases (id, kind, title) and run none.
    #[arg(long)]
    pub list: bool,
    /// Write a JUnit XML report: a testcase per case, its wire log in its output.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Write an HTML report into this directory: an index and a page per case.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Write the whole report as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// The protocols the checker has a suite for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// GO! (docs/go-protocol.md).
    Go,
    /// Spectrangle (docs/spectrangle-protocol.md).
    Spectrangle,
}

/// The longest wait a flag may ask for: an hour.
const MAX_SECONDS: f64 = 3600.0;

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => Err(format!(
            "give seconds above 0 and at most {MAX_SECONDS}, e.g. 5 or 0.5"
        )),
    }
}
