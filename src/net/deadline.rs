//! A socket read bounded by a deadline for everything it reads, not by a timeout per
//! read: a peer that trickles one byte every few seconds resets a per-read timeout
//! each time and can hold a reader for ever, while a deadline ends it on time.

use std::io::{self, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The shortest read timeout set: the socket refuses a zero timeout, and a read that
/// cannot wait a millisecond is late already.
const LEAST_WAIT: Duration = Duration::from_millis(1);

/// A [`TcpStream`] whose reads end, with [`io::ErrorKind::TimedOut`], once the
/// deadline has passed, however the bytes before it arrived.
#[derive(Debug)]
pub struct DeadlineReader {
    stream: TcpStream,
    deadline: Option<Instant>,
}

impl DeadlineReader {
    /// Reads from `stream` with no deadline until [`DeadlineReader::set_deadline`].
    pub fn new(stream: TcpStream) -> DeadlineReader {
        DeadlineReader {
            stream,
            deadline: None,
        }
    }

    /// Every read from now on ends by `deadline` (`None`: reads wait as long as the
    /// socket's own timeout lets them).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The deadline reads end by.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The stream read from.
    pub fn stream(&self) -> &TcpStream {
        &self.stream
    }
}

impl Read for DeadlineReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(io::ErrorKind::TimedOut, "deadline passed"));
            }
            self.stream.set_read_timeout(Some(left.max(LEAST_WAIT)))?;
        }
        self.stream.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;

    #[test]
    fn a_trickle_does_not_outlive_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = listener.local_addr().expect("addr");
        let writer = std::thread::spawn(move || {
            let (mut peer, _) = listener.accept().expect("accept");
            // One byte every 50 ms, for ten seconds (or until the reader is gone):
            // each read gets a byte in time.
            for _ in 0..200 {
                if peer.write_all(b"x").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let stream = TcpStream::connect(addr).expect("connect");
        let mut reader = DeadlineReader::new(stream);
        let started = Instant::now();
        reader.set_deadline(Some(started + Duration::from_millis(300)));
        let mut buf = [0u8; 16];
        let error = loop {
            match reader.read(&mut buf) {
                Ok(0) => panic!("the writer closed before the deadline"),
                Ok(_) => {}
                Err(e) => break e,
            }
        };
        assert!(
            matches!(
                error.kind(),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock
            ),
            "{error}"
        );
        // Cut off long before the trickle ends (a busy machine may be late to notice).
        let took = started.elapsed();
        assert!(took < Duration::from_secs(5), "{took:?}");
        drop(reader);
        let _ = writer.join();
    }
}
