//! A case of the conformance suite: what it checks (its id, section, title and the
//! sentence of the protocol document behind it), how it runs, and its verdict.

use super::probe::Probe;
pub use super::step::{BoardDiff, Failure, Step};
use serde::Serialize;

/// A part of a protocol document that cases are grouped under, in the document's
/// order: `handshake`, `moves`, ...
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Section {
    /// The first part of its cases' ids, and what `--only` matches.
    pub slug: &'static str,
    /// Its heading in reports.
    pub title: &'static str,
}

/// What a case can conclude, fixed before it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// What the document requires: pass or fail.
    Required,
    /// Where the document leaves a choice: the server's choice beside goserver's, never
    /// a failure (unless the server broke).
    Choice,
    /// Robustness and speed: what happened, a failure only when the server crashed,
    /// stopped answering others, or broke a game.
    Measure,
}

/// The body of a case: runs against the server through `probe` and returns what it
/// found, or the first step that failed.
pub type Body = fn(&mut Probe) -> Step<Finding>;

/// One case of a suite.
#[derive(Clone, Debug)]
pub struct Case {
    /// `<section>.<n>`, e.g. `moves.3`: stable, for `--only` and reports.
    pub id: String,
    /// Where it belongs.
    pub section: Section,
    /// What it checks, in a line.
    pub title: &'static str,
    /// The sentence of the protocol document it checks, quoted.
    pub spec: &'static str,
    /// What it can conclude.
    pub kind: Kind,
    /// How it runs.
    pub body: Body,
}

impl Case {
    /// Whether the pattern `p` (lower case) selects it: a section's slug (`moves`)
    /// selects that section, a case's id (`moves.3`) that case; `names_a_case` says
    /// whether `p` is one of those in the suite. Any other pattern selects the cases
    /// whose title contains it (`ko`).
    pub fn selected_by(&self, p: &str, names_a_case: bool) -> bool {
        let id = self.id.to_lowercase();
        if names_a_case {
            id == p || id.starts_with(&format!("{p}."))
        } else {
            self.title.to_lowercase().contains(p)
        }
    }
}

/// Builds a section's cases: ids are numbered in the order given.
pub fn numbered(
    section: Section,
    cases: Vec<(Kind, &'static str, &'static str, Body)>,
) -> Vec<Case> {
    cases
        .into_iter()
        .enumerate()
        .map(|(n, (kind, title, spec, body))| Case {
            id: format!("{}.{}", section.slug, n + 1),
            section,
            title,
            spec,
            kind,
            body,
        })
        .collect()
}

/// What a case found when none of its steps failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    /// The server did what the document requires.
    Pass,
    /// Where the document leaves a choice: what the server did, and what goserver does.
    Open { server: String, goserver: String },
    /// A measurement: what happened, in a line or two.
    Measured { summary: String },
}

/// A case's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Done as required.
    Pass,
    /// Not done as required: the step that failed.
    Fail(Failure),
    /// A choice: the server's and goserver's, and whether they are the same.
    Open {
        server: String,
        goserver: String,
        same: bool,
    },
    /// A measurement that found the server whole.
    Measured { summary: String },
    /// Not run: an earlier case left no server to run it against.
    Gone,
}

impl Verdict {
    /// The verdict's word in reports: `pass`, `fail`, `open`, `measured`, `gone`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fail(_) => "fail",
            Verdict::Open { .. } => "open",
            Verdict::Measured { .. } => "measured",
            Verdict::Gone => "gone",
        }
    }

    /// Whether it makes the run fail.
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Fail(_))
    }

    /// The one-line detail reports show beside the word.
    pub fn detail(&self) -> String {
        match self {
            Verdict::Pass => String::new(),
            Verdict::Fail(failure) => format!("expected {}; got {}", failure.expected, failure.got),
            Verdict::Open {
                server,
                goserver,
                same,
            } => {
                let same = if *same { " (the same)" } else { "" };
                format!("server: {server}; goserver: {goserver}{same}")
            }
            Verdict::Measured { summary } => summary.clone(),
            Verdict::Gone => {
                "not run: the server is gone (see the case that stopped it)".to_string()
            }
        }
    }
}

impl From<Step<Finding>> for Verdict {
    fn from(step: Step<Finding>) -> Verdict {
        match step {
            Ok(Finding::Pass) => Verdict::Pass,
            Ok(Finding::Open { server, goserver }) => Verdict::Open {
                same: server == goserver,
                server,
                goserver,
            },
            Ok(Finding::Measured { summary }) => Verdict::Measured { summary },
            Err(failure) => Verdict::Fail(failure),
        }
    }
}
