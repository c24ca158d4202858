//! An SGF stream a client sends: the lines between `SendingBoard` and `EOF`, kept up
//! to a bound, then read and replayed on the rules engine (through `crate::engine::sgf`).
//!
//! It does not decide whether the sender may replace the board (the room does).

use crate::engine::go::{Game, MIN_SIZE, Rules};
use crate::engine::sgf::{self, ReadLimits, SgfError};

/// The longest SGF stream loaded, in bytes (each line counted with its `\n`).
pub const MAX_SGF_BYTES: usize = 64 * 1024;

/// The lines of one SGF stream so far.
///
/// At most [`MAX_SGF_BYTES`] are kept: beyond that the text is dropped and only its
/// length counted, so a stream of any length (or of any number of lines: each costs
/// at least its `\n`) holds at most that much memory.
#[derive(Debug, Default)]
pub struct Upload {
    text: String,
    /// Bytes received, `\n`s included.
    bytes: usize,
}

impl Upload {
    /// An empty stream.
    pub fn new() -> Upload {
        Upload::default()
    }

    /// Adds one line of the stream.
    pub fn push(&mut self, line: &str) {
        self.bytes = self.bytes.saturating_add(line.len() + 1);
        if self.bytes <= MAX_SGF_BYTES {
            self.text.push_str(line);
            self.text.push('\n');
        } else if !self.text.is_empty() {
            self.text = String::new();
        }
    }

    /// The stream read and replayed: the game it describes, under `rules`, on a board
    /// of 2 to `max_size`.
    ///
    /// # Errors
    ///
    /// [`SgfError::TooLarge`] for a stream over [`MAX_SGF_BYTES`]; otherwise as
    /// [`sgf::load`].
    pub fn load(self, rules: Rules, max_size: usize) -> Result<Game, SgfError> {
        if self.bytes > MAX_SGF_BYTES {
            return Err(SgfError::TooLarge {
                bytes: self.bytes,
                limit: MAX_SGF_BYTES,
            });
        }
        let limits = ReadLimits {
            max_bytes: MAX_SGF_BYTES,
            sizes: MIN_SIZE..=max_size,
        };
        sgf::load(&self.text, &limits, rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::go::Colour;

    fn upload(lines: &[&str]) -> Upload {
        let mut upload = Upload::new();
        for line in lines {
            upload.push(line);
        }
        upload
    }

    #[test]
    fn loads_the_lines_as_one_record() {
        let game = upload(&["(;FF[4]SZ[5]AB[aa]", ";W[bb]", ";B[]", ")"])
            .load(Rules::default(), 19)
            .expect("a good record");
        assert_eq!(game.size(), 5);
        assert_eq!(game.moves().len(), 2);
        assert_eq!(game.to_move(), Colour::White);
        assert_eq!(
            game.board().to_string(),
            "X . . . .\n. O . . .\n. . . . .\n. . . . .\n. . . . ."
        );
    }

    #[test]
    fn refusals_name_the_problem() {
        let line = "x".repeat(4000);
        let too_big = upload(&[line.as_str(); 20]);
        let table = [
            (
                upload(&["(;SZ[21])"]),
                "SZ[21]: the board size must be from 2 to 19 here",
            ),
            (
                too_big,
                "SGF too large: 80020 bytes, at most 65536 are read",
            ),
        ];
        for (upload, reason) in table {
            let error = upload.load(Rules::default(), 19).expect_err(reason);
            assert_eq!(error.to_string(), reason);
        }
        // The text is not kept beyond the bound.
        let mut long = upload(&[line.as_str(); 17]);
        assert!(long.text.is_empty());
        long.push(")");
        assert_eq!(long.bytes, 17 * 4001 + 2);
    }
}
