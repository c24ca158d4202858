//! The `--results` file: one JSON line per finished game, appended and `fsync`ed, and
//! read back at start. A line that is not a result (a torn last line after a crash, a
//! hand edit, binary junk, a line longer than [`LINE_LIMIT`]) is skipped with a
//! warning naming its line number; it never stops the server.

use super::result::GameResult;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The longest line read back. A result of four players with long names is well under
/// a kilobyte; a longer line is not one of ours and is skipped without being held.
pub const LINE_LIMIT: usize = 64 * 1024;

/// The results file, open for appending.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

/// What reading the file back found.
pub struct ReadBack {
    /// The results, in the file's order.
    pub results: Vec<GameResult>,
    /// Lines that were not results: each one's number (from 1) and why, each also
    /// logged as a warning.
    pub skipped: Vec<(usize, String)>,
}

impl ResultsFile {
    /// Opens `path` for appending (creating it), then reads back the results in it.
    /// A file whose last line was torn gets a newline first, so the next result
    /// starts a line of its own.
    ///
    /// # Errors
    ///
    /// A message naming the path and what is wrong: a directory, a file that cannot
    /// be opened for appending or read.
    pub fn open(path: &Path) -> Result<(ResultsFile, ReadBack), String> {
        let shown = path.display();
        if path.is_dir() {
            return Err(format!(
                "--results {shown}: is a directory; give a file to append results to"
            ));
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("--results {shown}: cannot be opened for appending: {e}"))?;
        let read_back = read_back(&mut file, path)
            .map_err(|e| format!("--results {shown}: cannot be read: {e}"))?;
        end_torn_line(&mut file)
            .map_err(|e| format!("--results {shown}: cannot be written: {e}"))?;
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            read_back,
        ))
    }

    /// Appends `result` as one line and waits until it is on the disk.
    ///
    /// # Errors
    ///
    /// When the line cannot be written or synced.
    pub fn append(&self, result: &GameResult) -> io::Result<()> {
        self.write(result)?;
        self.sync()
    }

    /// Appends `result` as one line, into the file's cache. The file is opened in
    /// append mode, so each line is one write at the end, whoever else appends.
    ///
    /// # Errors
    ///
    /// When the line cannot be written.
    pub fn write(&self, result: &GameResult) -> io::Result<()> {
        let mut line = result.to_json_line();
        line.push('\n');
        (&self.file).write_all(line.as_bytes())
    }

    /// Waits until what was written is on the disk.
    ///
    /// # Errors
    ///
    /// When the disk says it failed.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data()
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reads every line of `file` from its start.
fn read_back(file: &mut File, path: &Path) -> io::Result<ReadBack> {
    file.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::new(file);
    let mut results = Vec::new();
    let mut skipped = Vec::new();
    let mut number = 0;
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let read = (&mut reader)
            .take(LINE_LIMIT as u64 + 1)
            .read_until(b'\n', &mut bytes)?;
        if read == 0 {
            break;
        }
        number += 1;
        let problem = if bytes.len() > LINE_LIMIT && bytes.last() != Some(&b'\n') {
            skip_rest_of_line(&mut reader)?;
            Some(format!("longer than {} KiB", LINE_LIMIT / 1024))
        } else {
            match std::str::from_utf8(&bytes) {
                Err(_) => Some("not UTF-8 text".to_string()),
                Ok(text) if text.trim().is_empty() => Some("a blank line".to_string()),
                Ok(text) => match GameResult::from_json_line(text.trim_end()) {
                    Ok(result) => {
                        results.push(result);
                        None
                    }
                    Err(why) => Some(why.0),
                },
            }
        };
        if let Some(problem) = problem {
            log::warn!(
                "results file {}: line {number} skipped: {problem}",
                path.display()
            );
            skipped.push((number, problem));
        }
    }
    Ok(ReadBack { results, skipped })
}

/// Reads up to the end of the current line without keeping it.
fn skip_rest_of_line(reader: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(at) => {
                reader.consume(at + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                reader.consume(all);
            }
        }
    }
}

/// Ends a last line that has no newline (a write cut short by a crash).
fn end_torn_line(file: &mut File) -> io::Result<()> {
    let length = file.seek(SeekFrom::End(0))?;
    if length == 0 {
        return Ok(());
    }
    file.seek(SeekFrom::Start(length - 1))?;
    let mut last = [0u8];
    file.read_exact(&mut last)?;
    if last[0] != b'\n' {
        file.write_all(b"\n")?;
        file.sync_data()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::result::{now, sample_go};

    fn temp_file(name: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("goserver-results-{name}-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn result(game: u64) -> GameResult {
        sample_go(game, now(), 80)
    }

    fn lines_of(skipped: &[(usize, String)]) -> Vec<usize> {
        skipped.iter().map(|(line, _)| *line).collect()
    }

    /// ARENA.md: every line that is not a result is skipped with a warning naming it,
    /// however many there are (a hand edit's blank line too).
    #[test]
    fn every_line_that_is_not_a_result_is_named() {
        let path = temp_file("many");
        let mut text = String::new();
        for line in 1..=30 {
            match line {
                5 => text.push_str(&result(5).to_json_line()),
                6 => text.push_str("   "),
                _ => text.push_str("junk"),
            }
            text.push('\n');
        }
        std::fs::write(&path, text).expect("writes");
        let (_, read) = ResultsFile::open(&path).expect("opens");
        assert_eq!(read.results.len(), 1);
        let expected: Vec<usize> = (1..=30).filter(|line| *line != 5).collect();
        assert_eq!(lines_of(&read.skipped), expected);
        assert_eq!(read.skipped[4], (6, "a blank line".to_string()));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn appended_results_are_read_back_in_order() {
        let path = temp_file("append");
        let (file, read) = ResultsFile::open(&path).expect("opens");
        assert!(read.results.is_empty());
        for game in 1..=3 {
            file.append(&result(game)).expect("appends");
        }
        drop(file);
        let (_, read) = ResultsFile::open(&path).expect("opens again");
        let games: Vec<u64> = read.results.iter().map(|r| r.game).collect();
        assert_eq!(games, vec![1, 2, 3]);
        assert!(read.skipped.is_empty());
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_the_next_result_starts_a_line() {
        let path = temp_file("torn");
        let whole = result(1).to_json_line();
        let torn = &result(2).to_json_line()[..40];
        std::fs::write(&path, format!("{whole}\n{torn}")).expect("writes");
        let (file, read) = ResultsFile::open(&path).expect("opens");
        assert_eq!(read.results.len(), 1);
        assert_eq!(lines_of(&read.skipped), [2]);
        file.append(&result(3)).expect("appends");
        let (_, read) = ResultsFile::open(&path).expect("opens again");
        let games: Vec<u64> = read.results.iter().map(|r| r.game).collect();
        assert_eq!(games, vec![1, 3]);
        assert_eq!(lines_of(&read.skipped), [2]);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn binary_junk_and_a_megabyte_line_are_skipped() {
        let path = temp_file("junk");
        let mut bytes = vec![0xff, 0xfe, 0x00, b'\n'];
        bytes.extend(std::iter::repeat_n(b'x', 1024 * 1024));
        bytes.push(b'\n');
        bytes.extend(result(9).to_json_line().bytes());
        bytes.push(b'\n');
        std::fs::write(&path, bytes).expect("writes");
        let (_, read) = ResultsFile::open(&path).expect("opens");
        assert_eq!(read.results.len(), 1);
        assert_eq!(read.results[0].game, 9);
        assert_eq!(
            read.skipped,
            [
                (1, "not UTF-8 text".to_string()),
                (2, "longer than 64 KiB".to_string())
            ]
        );
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_directory_is_refused_with_a_message_naming_it() {
        let dir = std::env::temp_dir();
        let error = ResultsFile::open(&dir).err().expect("refused");
        assert!(error.contains("is a directory"), "{error}");
        assert!(error.starts_with("--results "), "{error}");
    }
}
