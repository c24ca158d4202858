//! Game records on disk: every front end writes the record of each finished game into
//! the `--records` directory through [`save`], under a file name of its choosing.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// Writes `text` as `file_name` in `dir` (created if missing) and logs where it went,
/// or why it could not be written, naming the game as `game`. A record that cannot be
/// written is a warning, never a reason to stop a game.
pub fn save(dir: &Path, file_name: &str, text: &str, game: &str) {
    match write(dir, file_name, text) {
        Ok(path) => log::info!("{game}: record written to {}", path.display()),
        Err(e) => log::warn!("{game}: cannot write record in {}: {e}", dir.display()),
    }
}

fn write(dir: &Path, file_name: &str, text: &str) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(file_name);
    std::fs::write(&path, text)?;
    Ok(path)
}

/// Seconds since 1970, for file names that sort in time order.
pub fn unix_seconds() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn saves_into_a_directory_it_creates() {
        let dir = std::env::temp_dir().join(format!("goserver-records-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        save(&dir.join("inner"), "game-1.sgf", "(;)\n", "game 1");
        let text = std::fs::read_to_string(dir.join("inner").join("game-1.sgf"));
        assert_eq!(text.ok().as_deref(), Some("(;)\n"));
        let _ = std::fs::remove_dir_all(&dir);
        assert!(unix_seconds() > 1_700_000_000);
    }
}
