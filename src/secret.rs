//! A secret the server holds (the Bkgo remote-shutdown password): read from a file at
//! start, never shown (its `Debug` hides it, it has no `Display`), and compared in
//! constant time.
//!
//! It does not decide who may try it or how often (the Bkgo front end does).

use std::fmt;
use std::path::Path;

/// A non-empty secret text.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

/// Why a secret file gives no secret. `Display` is one line for the operator.
#[derive(Debug)]
pub enum SecretError {
    /// The file cannot be read (missing, no permission, not UTF-8 text, ...).
    Unreadable {
        /// The file.
        path: String,
        /// What the system said.
        error: String,
    },
    /// The file's first line is empty (or only blanks).
    Empty {
        /// The file.
        path: String,
    },
}

impl fmt::Display for SecretError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecretError::Unreadable { path, error } => {
                write!(f, "cannot read the password file {path}: {error}")
            }
            SecretError::Empty { path } => write!(
                f,
                "the password file {path} has an empty first line: write the password on it"
            ),
        }
    }
}

impl std::error::Error for SecretError {}

impl Secret {
    /// The secret on the first line of `text`, without surrounding blanks; `None` when
    /// that line is empty.
    pub fn from_first_line(text: &str) -> Option<Secret> {
        let first = text.lines().next().unwrap_or("").trim();
        (!first.is_empty()).then(|| Secret(first.to_string()))
    }

    /// The secret on the first line of the file at `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be read, or its first line is empty.
    pub fn from_file(path: &Path) -> Result<Secret, SecretError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| SecretError::Unreadable {
            path: shown.clone(),
            error: e.to_string(),
        })?;
        Secret::from_first_line(&text).ok_or(SecretError::Empty { path: shown })
    }

    /// Whether `guess` is the secret. The time taken depends on the guess's length
    /// only, not on how much of it is right, nor on the secret's length.
    pub fn matches(&self, guess: &str) -> bool {
        let secret = self.0.as_bytes();
        let guess = guess.as_bytes();
        if secret.is_empty() {
            return false;
        }
        // Every byte of the guess is compared (cycling through the secret), and the
        // differences are OR-ed together: no early exit tells a guesser where it failed.
        let mut difference = guess.len() ^ secret.len();
        for (i, &byte) in guess.iter().enumerate() {
            let expected = secret.get(i % secret.len()).copied().unwrap_or(0);
            difference |= usize::from(byte ^ expected);
        }
        std::hint::black_box(difference) == 0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(<hidden>)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_trimmed_is_the_secret() {
        let table = [
            ("s3cret\n", Some("s3cret")),
            ("  s3cret \r\nsecond line\n", Some("s3cret")),
            ("two words", Some("two words")),
            ("\nsecond", None),
            ("   \n", None),
            ("", None),
        ];
        for (text, secret) in table {
            assert_eq!(
                Secret::from_first_line(text),
                secret.map(|s| Secret(s.to_string())),
                "{text:?}"
            );
        }
    }

    #[test]
    fn only_the_exact_secret_matches() {
        let secret = Secret("s3cret".into());
        let table = [
            ("s3cret", true),
            ("s3cre", false),
            ("s3cret!", false),
            ("s3cret s3cret", false),
            // The same bytes cycled: the length check still refuses it.
            ("s3crets3cret", false),
            ("S3cret", false),
            ("", false),
        ];
        for (guess, verdict) in table {
            assert_eq!(secret.matches(guess), verdict, "{guess:?}");
        }
        assert_eq!(format!("{secret:?}"), "Secret(<hidden>)");
    }

    #[test]
    fn a_missing_or_empty_file_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("goserver-secret-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let empty = dir.join("empty");
        std::fs::write(&empty, "\nnot the first line\n").expect("write");
        let error = Secret::from_file(&empty).expect_err("empty first line");
        assert_eq!(
            error.to_string(),
            format!(
                "the password file {} has an empty first line: write the password on it",
                empty.display()
            )
        );
        let missing = dir.join("missing");
        let error = Secret::from_file(&missing).expect_err("missing");
        assert!(
            error.to_string().starts_with(&format!(
                "cannot read the password file {}: ",
                missing.display()
            )),
            "{error}"
        );
        let good = dir.join("good");
        std::fs::write(&good, "hunter2\n").expect("write");
        assert!(
            Secret::from_file(&good)
                .expect("readable")
                .matches("hunter2")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
