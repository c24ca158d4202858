//! What a run found, and the four ways it is shown: the terminal (progress as cases
//! finish, then a summary by section), JUnit XML for a CI, a static HTML report, JSON.
//!
//! - [`terminal`]: progress lines and the summary.
//! - [`junit`]: `--junit FILE`.
//! - [`html`]: `--html DIR`.
//! - [`json`]: `--json FILE`.

pub mod html;
pub mod json;
pub mod junit;
pub mod terminal;

use super::case::{Section, Verdict};
use super::run::Outcome;
use std::time::Duration;

/// A finished run.
pub struct Report {
    /// The protocol's name: `GO!`.
    pub protocol: &'static str,
    /// The suite's name on the command line: `go`.
    pub suite: &'static str,
    /// What was checked: `localhost:8000`, or the server command.
    pub target: String,
    /// When the run began (RFC 3339).
    pub started: String,
    /// How long it took.
    pub took: Duration,
    /// The answer timeout it ran with.
    pub answer_timeout: Duration,
    /// The sections, in the document's order.
    pub sections: Vec<Section>,
    /// Every case run, in order.
    pub outcomes: Vec<Outcome>,
}

/// How many cases ended how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Passed.
    pub pass: usize,
    /// Failed.
    pub fail: usize,
    /// Failed only after the case's own steps: the server exited during it, or a
    /// fresh client got no answer after it.
    pub fail_only_after: usize,
    /// Open choices.
    pub open: usize,
    /// Open choices where the server chose as goserver does.
    pub open_same: usize,
    /// Measurements.
    pub measured: usize,
    /// Not run: the server was gone.
    pub gone: usize,
}

impl Counts {
    /// Counts `outcomes`.
    pub fn of<'a>(outcomes: impl IntoIterator<Item = &'a Outcome>) -> Counts {
        let mut counts = Counts::default();
        for outcome in outcomes {
            match &outcome.verdict {
                Verdict::Pass => counts.pass += 1,
                Verdict::Fail(_) => {
                    counts.fail += 1;
                    counts.fail_only_after += usize::from(outcome.failed_only_after);
                }
                Verdict::Open { same, .. } => {
                    counts.open += 1;
                    counts.open_same += usize::from(*same);
                }
                Verdict::Measured { .. } => counts.measured += 1,
                Verdict::Gone => counts.gone += 1,
            }
        }
        counts
    }

    /// Every case counted.
    pub fn total(&self) -> usize {
        self.pass + self.fail + self.open + self.measured + self.gone
    }
}

impl Report {
    /// The counts of every case.
    pub fn counts(&self) -> Counts {
        Counts::of(&self.outcomes)
    }

    /// Each section that has cases in this run, with its counts.
    pub fn by_section(&self) -> Vec<(Section, Counts)> {
        self.sections
            .iter()
            .filter_map(|section| {
                let outcomes = self.outcomes.iter().filter(|o| o.case.section == *section);
                let counts = Counts::of(outcomes);
                (counts.total() > 0).then_some((*section, counts))
            })
            .collect()
    }

    /// Whether a case failed.
    pub fn failed(&self) -> bool {
        self.counts().fail > 0
    }
}

/// The text of a failure, as every report shows it: expected, got, and the boards
/// side by side.
pub fn failure_text(failure: &super::case::Failure) -> String {
    let mut text = format!("expected: {}\ngot:      {}", failure.expected, failure.got);
    if let Some(boards) = &failure.boards {
        text.push_str(&format!("\nafter {}:\n", boards.after));
        text.push_str(&side_by_side(&boards.expected, &boards.got));
    }
    text
}

/// Two boards beside each other under the headings `expected` and `got`.
pub fn side_by_side(expected: &[String], got: &[String]) -> String {
    let width = expected
        .iter()
        .map(|row| row.chars().count())
        .max()
        .unwrap_or(0)
        .max("expected".len());
    let mut text = format!("  {:<width$}      got\n", "expected");
    for row in 0..expected.len().max(got.len()) {
        let left = expected.get(row).map_or("", String::as_str);
        let right = got.get(row).map_or("", String::as_str);
        let mark = if left == right { "  " } else { "<>" };
        text.push_str(&format!("  {left:<width$}  {mark}  {right}\n"));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_side_by_side_mark_the_rows_that_differ() {
        let expected = vec![". X".to_string(), ". .".to_string()];
        let got = vec![". X".to_string(), "O .".to_string()];
        assert_eq!(
            side_by_side(&expected, &got),
            "  expected      got\n  . X           . X\n  . .       <>  O .\n"
        );
    }
}
