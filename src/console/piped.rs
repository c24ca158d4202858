//! The console when stdin is not a terminal: plain command lines from stdin, answers
//! on stdout, so the console can be scripted (`printf 'games\n' | goserver`). At end
//! of input it stops reading; the server keeps serving.

use super::{Console, Outcome};
use std::io::{self, BufRead, Write};

/// Reads and runs lines until end of input, a read error, or `shutdown`.
pub fn run(console: &Console) {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => {
                log::info!("console input ended; the server keeps serving");
                return;
            }
            Ok(_) => {}
            Err(e) => {
                log::warn!("console input failed ({e}); the server keeps serving");
                return;
            }
        }
        // Invalid UTF-8 is an unknown command, not a reason to stop.
        let line = String::from_utf8_lossy(&bytes);
        let (answer, stop) = match console.execute(&line) {
            Outcome::Answer(answer) => (answer, false),
            Outcome::Shutdown(answer) => (answer, true),
        };
        if !answer.is_empty() {
            let mut out = io::stdout().lock();
            // Nobody to tell when stdout is gone; the server goes on.
            let _ = writeln!(out, "{answer}");
            let _ = out.flush();
        }
        if stop {
            return;
        }
    }
}
