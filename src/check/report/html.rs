//! `--html DIR`: a static report, as Autobahn|Testsuite writes one: `index.html`, a
//! table of the cases by section with their verdicts, and a page per case with the
//! sentence of the document it checks, its verdict, its boards and its whole wire log.
//! No script and no file from elsewhere: the pages open from a disk or a CI artifact.
//! Everything the server sent is escaped.

use super::super::case::Verdict;
use super::super::log::Direction;
use super::super::run::Outcome;
use super::super::wire::seconds;
use super::Report;
use crate::html::escape;
use std::fs;
use std::path::Path;

/// The pages' style, inline in each page.
const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#222}\
table{border-collapse:collapse;width:100%;margin:1em 0}th,td{text-align:left;padding:.3em .6em;border-bottom:1px solid #ddd;vertical-align:top}\
th{background:#f4f4f4}code,pre,.log td{font-family:ui-monospace,monospace;font-size:.92em}\
pre{background:#f8f8f8;padding:.6em;overflow-x:auto}blockquote{border-left:4px solid #ccc;margin:1em 0;padding:.2em 1em;color:#444}\
.v{font-weight:bold;padding:.1em .5em;border-radius:.3em;color:#fff}.pass{background:#2e7d32}.fail{background:#c62828}\
.open{background:#6a1b9a}.open.same{background:#8e7cc3}.measured{background:#1565c0}.gone{background:#757575}\
.boards{display:flex;gap:2em;flex-wrap:wrap}.boards div{min-width:12em}.differ{background:#ffe0e0}\
.log .sent td:nth-child(3){color:#0d47a1}.log .received td:nth-child(3){color:#1b5e20}.log .note td{color:#777;font-style:italic}";

/// Writes the report into `dir` (created if missing).
///
/// # Errors
///
/// A file that cannot be written, and why.
pub fn write(report: &Report, dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let index = dir.join("index.html");
    fs::write(&index, index_page(report))
        .map_err(|e| format!("cannot write {}: {e}", index.display()))?;
    for outcome in &report.outcomes {
        let path = dir.join(page_name(outcome));
        fs::write(&path, case_page(report, outcome))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// `moves.3.html`.
fn page_name(outcome: &Outcome) -> String {
    format!("{}.html", outcome.case.id)
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        escape(title)
    )
}

/// The verdict as a coloured word.
fn badge(verdict: &Verdict) -> String {
    let same = matches!(verdict, Verdict::Open { same: true, .. });
    format!(
        "<span class=\"v {}{}\">{}</span>",
        verdict.word(),
        if same { " same" } else { "" },
        verdict.word()
    )
}

fn index_page(report: &Report) -> String {
    let counts = report.counts();
    let mut body = format!(
        "<h1>goserver check {}: {}</h1>\n<p>{} cases against <code>{}</code>, begun {}, took {}; answers awaited {} each.</p>\n",
        escape(report.suite),
        escape(report.protocol),
        counts.total(),
        escape(&report.target),
        escape(&report.started),
        seconds(report.took),
        seconds(report.answer_timeout)
    );
    let only_after = if counts.fail_only_after > 0 {
        format!(
            " ({} only after the case: the server exited during it, or a fresh client got no answer after it)",
            counts.fail_only_after
        )
    } else {
        String::new()
    };
    body.push_str(&format!(
        "<p>{} pass, {} fail{only_after}, {} open ({} as goserver), {} measured, {} gone.</p>\n",
        counts.pass, counts.fail, counts.open, counts.open_same, counts.measured, counts.gone
    ));
    for (section, c) in report.by_section() {
        body.push_str(&format!(
            "<h2>{}</h2>\n<p>{} pass, {} fail, {} open, {} measured, {} gone</p>\n<table><tr><th>case</th><th>title</th><th>verdict</th><th>detail</th><th>time</th></tr>\n",
            escape(section.title),
            c.pass,
            c.fail,
            c.open,
            c.measured,
            c.gone
        ));
        for outcome in report.outcomes.iter().filter(|o| o.case.section == section) {
            body.push_str(&format!(
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(&page_name(outcome)),
                escape(&outcome.case.id),
                escape(outcome.case.title),
                badge(&outcome.verdict),
                escape(&clip(&outcome.verdict.detail(), 200)),
                seconds(outcome.elapsed)
            ));
        }
        body.push_str("</table>\n");
    }
    page(&format!("goserver check {}", report.suite), &body)
}

fn case_page(report: &Report, outcome: &Outcome) -> String {
    let case = &outcome.case;
    let mut body = format!(
        "<p><a href=\"index.html\">&larr; all cases</a></p>\n<h1>{} {}</h1>\n<table><tr><th>section</th><td>{}</td></tr><tr><th>kind</th><td>{:?}</td></tr><tr><th>verdict</th><td>{}</td></tr><tr><th>time</th><td>{}</td></tr><tr><th>server alive after</th><td>{}</td></tr><tr><th>server</th><td><code>{}</code></td></tr></table>\n<blockquote>{}</blockquote>\n",
        escape(&case.id),
        escape(case.title),
        escape(case.section.title),
        case.kind,
        badge(&outcome.verdict),
        seconds(outcome.elapsed),
        if outcome.alive { "yes" } else { "no" },
        escape(&report.target),
        escape(case.spec)
    );
    match &outcome.verdict {
        Verdict::Fail(failure) => {
            body.push_str(&format!(
                "<h2>Failure</h2>\n<table><tr><th>expected</th><td><code>{}</code></td></tr><tr><th>got</th><td><code>{}</code></td></tr></table>\n",
                escape(&failure.expected),
                escape(&failure.got)
            ));
            if let Some(boards) = &failure.boards {
                body.push_str(&format!("<p>The boards after {}:</p>\n<div class=\"boards\">", escape(&boards.after)));
                for (title, rows, other) in [
                    ("expected (the rules engine)", &boards.expected, &boards.got),
                    ("got (the server)", &boards.got, &boards.expected),
                ] {
                    body.push_str(&format!("<div><h3>{title}</h3><pre>"));
                    for (n, row) in rows.iter().enumerate() {
                        let differs = other.get(n) != Some(row);
                        if differs {
                            body.push_str(&format!("<span class=\"differ\">{}</span>\n", escape(row)));
                        } else {
                            body.push_str(&format!("{}\n", escape(row)));
                        }
                    }
                    body.push_str("</pre></div>");
                }
                body.push_str("</div>\n");
            }
        }
        Verdict::Open { server, goserver, same } => body.push_str(&format!(
            "<h2>A choice the document leaves open</h2>\n<table><tr><th>the server</th><td>{}</td></tr><tr><th>goserver</th><td>{}</td></tr><tr><th>the same</th><td>{}</td></tr></table>\n",
            escape(server),
            escape(goserver),
            if *same { "yes" } else { "no" }
        )),
        Verdict::Measured { summary } => {
            body.push_str(&format!("<h2>Measured</h2>\n<p>{}</p>\n", escape(summary)));
        }
        Verdict::Pass | Verdict::Gone => {}
    }
    if !outcome.shots.is_empty() {
        body.push_str("<h2>Boards</h2>\n<div class=\"boards\">");
        for shot in &outcome.shots {
            body.push_str(&format!(
                "<div><h3>{}</h3><pre>{}</pre></div>",
                escape(&shot.caption),
                escape(&shot.rows.join("\n"))
            ));
        }
        body.push_str("</div>\n");
    }
    if !outcome.server_output.is_empty() {
        body.push_str(&format!(
            "<h2>The server's last output</h2>\n<pre>{}</pre>\n",
            escape(&outcome.server_output.join("\n"))
        ));
    }
    body.push_str("<h2>Wire log</h2>\n<p>Milliseconds since the case began; <code>A&gt;</code> is a line client A sent, <code>A&lt;</code> one it received.</p>\n<table class=\"log\"><tr><th>ms</th><th>who</th><th>line</th></tr>\n");
    for entry in &outcome.log {
        let (class, arrow) = match entry.direction {
            Direction::Sent => ("sent", ">"),
            Direction::Received => ("received", "<"),
            Direction::Note => ("note", "#"),
        };
        body.push_str(&format!(
            "<tr class=\"{class}\"><td>{}</td><td>{}{arrow}</td><td>{}</td></tr>\n",
            entry.ms,
            escape(&entry.who),
            escape(&entry.text)
        ));
    }
    body.push_str("</table>\n");
    page(&format!("{} {}", case.id, case.title), &body)
}

/// At most `chars` characters of `text`.
fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_string(),
    }
}
