//! What the robustness cases of every suite share: the spread of answer times, a
//! flood written as fast as the server takes it within a time budget (beside a game,
//! read or not), and many clients asking at once.

use super::case::{Failure, Finding, Step};
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

/// How many lines a flood that is read sends (one that is not read sends four times
/// as many).
pub const FLOOD_LINES: usize = 5_000;

/// How long a flood's answers are read: a server may pace a client whose lines it
/// keeps refusing (goserver does, to about 100 a second), so not all of them come.
pub const FLOOD_READING: Duration = Duration::from_secs(2);

/// A flood beside a game: `flooder` writes `lines` as fast as the server takes them
/// (for at most four answer timeouts) while `beside` plays a game next to it on this
/// thread. With `read`, the flooder also reads the answers, for at most
/// [`FLOOD_READING`] or until `read` lines came. Returns what the flood part of a
/// finding says, and what `beside` returned.
pub fn flood_beside<T>(
    flooder: &mut Wire,
    lines: &[u8],
    read: Option<usize>,
    answer: Duration,
    beside: impl FnOnce() -> Step<T>,
) -> Step<(String, T)> {
    let socket = flooder
        .handle()
        .map_err(|e| Failure::new("a socket for the flood", e.to_string()))?;
    let (counted, written, besides) = std::thread::scope(|scope| {
        let reading = read.map(|expected| {
            scope.spawn(move || {
                let began = Instant::now();
                let mut answered = 0;
                let last = loop {
                    match flooder.hear_unlogged(answer) {
                        Heard::Line(_) => answered += 1,
                        other => break other,
                    }
                    if answered == expected || began.elapsed() >= FLOOD_READING {
                        break Heard::Silent(Duration::ZERO);
                    }
                };
                (answered, expected, began.elapsed(), last)
            })
        });
        let writing = scope.spawn(move || flood(socket, lines, answer * 4));
        let besides = beside();
        (reading.map(|r| r.join()), writing.join(), besides)
    });
    let besides = besides?;
    let (Ok((sent, how)), Ok(counted)) = (written, counted.transpose()) else {
        return Err(Failure::new(
            "the flood's threads to finish",
            "one of them panicked",
        ));
    };
    let sent = format!("{} KB sent: {how}", sent / 1024);
    let said = match counted {
        None => sent,
        Some((answered, expected, took, last)) => {
            let end = match last {
                Heard::Silent(wait) if wait.is_zero() => String::new(),
                other => format!(", then {}", other.describe()),
            };
            format!(
                "{answered} of {expected} lines answered in the {} they were read{end} ({sent})",
                seconds(took)
            )
        }
    };
    Ok((said, besides))
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
