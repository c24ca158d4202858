//! `--json FILE`: the whole report as one JSON document, for scripts (a teaching
//! assistant's table of forty servers). Its fields are listed in `docs/check.md`.

use super::super::case::{Failure, Kind, Verdict};
use super::super::log::Entry;
use super::super::probe::Shot;
use super::Report;
use serde::Serialize;

#[derive(Serialize)]
struct JsonReport<'a> {
    protocol: &'a str,
    target: &'a str,
    started: &'a str,
    seconds: f64,
    answer_timeout_seconds: f64,
    counts: JsonCounts,
    cases: Vec<JsonCase<'a>>,
}

#[derive(Serialize)]
struct JsonCounts {
    pass: usize,
    fail: usize,
    fail_only_after_the_case: usize,
    open: usize,
    open_same_as_goserver: usize,
    measured: usize,
    gone: usize,
}

#[derive(Serialize)]
struct JsonCase<'a> {
    id: &'a str,
    section: &'a str,
    title: &'a str,
    spec: &'a str,
    kind: Kind,
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<&'a Failure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    server_chose: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goserver_chose: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    same_as_goserver: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    measured: Option<&'a str>,
    milliseconds: u128,
    server_alive_after: bool,
    failed_only_after_the_case: bool,
    log: &'a [Entry],
    boards: &'a [Shot],
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    server_output: &'a [String],
}

/// The report as pretty-printed JSON.
///
/// # Errors
///
/// The serializer's error, as text.
pub fn render(report: &Report) -> Result<String, String> {
    let counts = report.counts();
    let cases = report
        .outcomes
        .iter()
        .map(|o| {
            let (failure, server, goserver, same, measured) = match &o.verdict {
                Verdict::Fail(failure) => (Some(failure), None, None, None, None),
                Verdict::Open {
                    server,
                    goserver,
                    same,
                } => (
                    None,
                    Some(server.as_str()),
                    Some(goserver.as_str()),
                    Some(*same),
                    None,
                ),
                Verdict::Measured { summary } => (None, None, None, None, Some(summary.as_str())),
                Verdict::Pass | Verdict::Gone => (None, None, None, None, None),
            };
            JsonCase {
                id: &o.case.id,
                section: o.case.section.slug,
                title: o.case.title,
                spec: o.case.spec,
                kind: o.case.kind,
                verdict: o.verdict.word(),
                failure,
                server_chose: server,
                goserver_chose: goserver,
                same_as_goserver: same,
                measured,
                milliseconds: o.elapsed.as_millis(),
                server_alive_after: o.alive,
                failed_only_after_the_case: o.failed_only_after,
                log: &o.log,
                boards: &o.shots,
                server_output: &o.server_output,
            }
        })
        .collect();
    let json = JsonReport {
        protocol: report.protocol,
        target: &report.target,
        started: &report.started,
        seconds: report.took.as_secs_f64(),
        answer_timeout_seconds: report.answer_timeout.as_secs_f64(),
        counts: JsonCounts {
            pass: counts.pass,
            fail: counts.fail,
            fail_only_after_the_case: counts.fail_only_after,
            open: counts.open,
            open_same_as_goserver: counts.open_same,
            measured: counts.measured,
            gone: counts.gone,
        },
        cases,
    };
    serde_json::to_string_pretty(&json).map_err(|e| e.to_string())
}
