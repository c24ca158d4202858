//! `--junit FILE`: JUnit XML, as CI systems read it (GitLab, GitHub's test reporters,
//! Jenkins). A test suite per section, a test case per case; the wire log goes in the
//! case's `system-out`, so a failing CI job shows the lines that prove it. Written by
//! `quick-junit`, the serializer cargo-nextest uses, which escapes the text and drops
//! the characters XML cannot hold.

use super::super::case::Verdict;
use super::{Report, failure_text};
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

/// The report as JUnit XML.
///
/// # Errors
///
/// The serializer's error, as text.
pub fn render(report: &Report) -> Result<String, String> {
    let mut junit = quick_junit::Report::new(format!("goserver check {}", report.suite));
    junit.set_time(report.took);
    for (section, _) in report.by_section() {
        let mut suite = TestSuite::new(format!("{} {}", report.protocol, section.title));
        for outcome in report.outcomes.iter().filter(|o| o.case.section == section) {
            let status = match &outcome.verdict {
                Verdict::Fail(failure) => {
                    let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    status.set_message(format!(
                        "expected {}; got {}",
                        failure.expected, failure.got
                    ));
                    status.set_description(failure_text(failure));
                    status
                }
                Verdict::Gone => {
                    let mut status = TestCaseStatus::skipped();
                    status.set_message(outcome.verdict.detail());
                    status
                }
                _ => TestCaseStatus::success(),
            };
            let mut case = TestCase::new(
                format!("{} {}", outcome.case.id, outcome.case.title),
                status,
            );
            case.set_classname(format!("goserver-check.{}.{}", report.suite, section.slug));
            case.set_time(outcome.elapsed);
            let mut out = format!("{}: {}\n", outcome.verdict.word(), outcome.verdict.detail());
            out.push_str(&format!("the document: {}\n\n", outcome.case.spec));
            for entry in &outcome.log {
                out.push_str(&format!("{entry}\n"));
            }
            case.set_system_out(out);
            if !outcome.server_output.is_empty() {
                case.set_system_err(outcome.server_output.join("\n"));
            }
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().map_err(|e| e.to_string())
}
