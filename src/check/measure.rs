//! What the robustness cases of every suite share: the spread of answer times, a
//! flood written as fast as the server takes it within a time budget, and many
//! clients asking at once.

use super::case::{Finding, Step};
use super::probe::ensure;
use super::wire::{Heard, Wire, seconds};
use std::io::Write;
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Writes `lines` to `socket` in 16 KiB writes until all are written, a write fails,
/// or `budget` has passed; says how it ended and how many bytes went.
pub fn flood(mut socket: TcpStream, lines: &[u8], budget: Duration) -> (usize, String) {
    let began = Instant::now();
    let mut sent = 0;
    for chunk in lines.chunks(16 * 1024) {
        if began.elapsed() > budget {
            return (sent, format!("still writing after {}", seconds(budget)));
        }
        match socket.write_all(chunk) {
            Ok(()) => sent += chunk.len(),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                return (
                    sent,
                    "the server stopped taking its lines (TCP held it back)".to_string(),
                );
            }
            Err(_) => return (sent, "the server closed its connection".to_string()),
        }
    }
    (sent, "all of it taken".to_string())
}

/// Each wire sends its line at the same moment, on a thread of its own; the time until
/// its first answer, or `None` for no answer within `answer`.
pub fn answered_at_once(asks: Vec<(&mut Wire, String)>, answer: Duration) -> Vec<Option<Duration>> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = asks
            .into_iter()
            .map(|(wire, line)| {
                scope.spawn(move || {
                    let began = Instant::now();
                    wire.send(&line).ok()?;
                    matches!(wire.hear(answer), Heard::Line(_)).then(|| began.elapsed())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().ok().flatten())
            .collect()
    })
}

/// The finding of [`answered_at_once`] for `what` (`HANDSHAKE`, `JOIN`): a failure
/// unless every client was answered within `answer`, else the spread.
pub fn every_one_answered(
    results: &[Option<Duration>],
    what: &str,
    answer: Duration,
) -> Step<Finding> {
    let times: Vec<Duration> = results.iter().flatten().copied().collect();
    let asked = results.len();
    ensure(
        times.len() == asked,
        format!(
            "an answer to each of the {asked} {what}s within {}",
            seconds(answer)
        ),
        format!("{} answers", times.len()),
    )?;
    Ok(Finding::Measured {
        summary: format!("{asked} of {asked} answered: {}", spread(&times)),
    })
}

/// `p50 3 ms, p99 9 ms`: the spread of `times`.
pub fn spread(times: &[Duration]) -> String {
    if times.is_empty() {
        return "none measured".to_string();
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |q: f64| {
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
        sorted[rank - 1]
    };
    format!(
        "p50 {}, p99 {}, max {}",
        millis(at(0.5)),
        millis(at(0.99)),
        millis(sorted[sorted.len() - 1])
    )
}

/// `3.2 ms`.
fn millis(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_names_the_median_the_99th_percentile_and_the_worst() {
        let times: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(spread(&times), "p50 50.0 ms, p99 99.0 ms, max 100.0 ms");
        assert_eq!(spread(&[]), "none measured");
    }
}
