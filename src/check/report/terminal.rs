//! The terminal: a line per case as it finishes (with how many are done and how
//! many there are), then a summary by section, each failure with what was expected and
//! what came, and the choices where the server differs from goserver.

use super::super::case::Verdict;
use super::super::run::{Outcome, Progress};
use super::super::wire::seconds;
use super::{Report, failure_text};
use std::io::Write;

/// Prints progress to `out` as cases finish.
pub struct Terminal<W: Write> {
    out: W,
    section: Option<&'static str>,
}

impl<W: Write> Terminal<W> {
    /// Progress printed to `out`.
    pub fn new(out: W) -> Terminal<W> {
        Terminal { out, section: None }
    }
}

impl<W: Write> Progress for Terminal<W> {
    fn start(&mut self, total: usize) {
        let _ = writeln!(
            self.out,
            "{total} cases; each line is a case as it finishes."
        );
        let _ = self.out.flush();
    }

    fn finished(&mut self, index: usize, total: usize, outcome: &Outcome) {
        let section = outcome.case.section;
        if self.section != Some(section.slug) {
            self.section = Some(section.slug);
            let _ = writeln!(self.out, "\n{}", section.title);
        }
        let width = total.to_string().len();
        let _ = writeln!(
            self.out,
            "  [{:>width$}/{total}] {:<8} {:<15} {} ({})",
            index + 1,
            outcome.verdict.word(),
            outcome.case.id,
            outcome.case.title,
            seconds(outcome.elapsed)
        );
        let detail = match &outcome.verdict {
            Verdict::Fail(failure) => Some(failure.got.clone()),
            Verdict::Open {
                server, same: true, ..
            } => Some(format!("as goserver: {server}")),
            Verdict::Open { same: false, .. } | Verdict::Measured { .. } => {
                Some(outcome.verdict.detail())
            }
            _ => None,
        };
        if let Some(detail) = detail {
            let _ = writeln!(
                self.out,
                "  {:width$}  {:8} {detail}",
                "",
                "",
                width = width * 2 + 3
            );
        }
        let _ = self.out.flush();
    }
}

/// How many of a failed case's server output lines the summary shows.
const SERVER_LINES_SHOWN: usize = 6;

/// The summary at the end of a run.
pub fn summary(report: &Report) -> String {
    let mut text = String::new();
    let title_width = report
        .by_section()
        .iter()
        .map(|(s, _)| s.title.len())
        .max()
        .unwrap_or(0)
        .max("all".len());
    text.push_str(&format!(
        "\n{:<title_width$}  {:>5} {:>5} {:>5} {:>9} {:>5}\n",
        "Summary", "pass", "fail", "open", "measured", "gone"
    ));
    let row = |title: &str, c: &super::Counts| {
        format!(
            "{title:<title_width$}  {:>5} {:>5} {:>5} {:>9} {:>5}\n",
            c.pass, c.fail, c.open, c.measured, c.gone
        )
    };
    for (section, counts) in report.by_section() {
        text.push_str(&row(section.title, &counts));
    }
    let all = report.counts();
    text.push_str(&row("all", &all));
    let failures: Vec<&Outcome> = report
        .outcomes
        .iter()
        .filter(|o| o.verdict.is_failure())
        .collect();
    if !failures.is_empty() {
        text.push_str("\nFailures\n");
        if all.fail_only_after > 0 {
            text.push_str(&format!(
                "({} of {} only after the case's own steps passed: the server exited during \
                 the case, or a fresh client got no answer after it)\n",
                all.fail_only_after, all.fail
            ));
        }
        for outcome in failures {
            if let Verdict::Fail(failure) = &outcome.verdict {
                text.push_str(&format!("\n{} {}\n", outcome.case.id, outcome.case.title));
                text.push_str(&format!("  the document: {}\n", outcome.case.spec));
                for line in failure_text(failure).lines() {
                    text.push_str(&format!("  {line}\n"));
                }
                if !outcome.server_output.is_empty() {
                    text.push_str(
                        "  the server's last output (all of it in the HTML and JSON reports):\n",
                    );
                    let last = outcome
                        .server_output
                        .len()
                        .saturating_sub(SERVER_LINES_SHOWN);
                    for line in &outcome.server_output[last..] {
                        text.push_str(&format!("    | {line}\n"));
                    }
                }
            }
        }
    }
    let differs: Vec<&Outcome> = report
        .outcomes
        .iter()
        .filter(|o| matches!(o.verdict, Verdict::Open { same: false, .. }))
        .collect();
    if !differs.is_empty() {
        text.push_str("\nOpen choices where the server differs from goserver (never a failure)\n");
        for outcome in differs {
            text.push_str(&format!(
                "  {} {}: {}\n",
                outcome.case.id,
                outcome.case.title,
                outcome.verdict.detail()
            ));
        }
    }
    let only_after = if all.fail_only_after > 0 {
        format!(" ({} only after the case)", all.fail_only_after)
    } else {
        String::new()
    };
    text.push_str(&format!(
        "\n{} cases in {}: {} pass, {} fail{only_after}, {} open ({} as goserver), {} measured, {} gone\n",
        all.total(),
        seconds(report.took),
        all.pass,
        all.fail,
        all.open,
        all.open_same,
        all.measured,
        all.gone
    ));
    text
}
