//! The tournament's JSON (ARENA.md): `/api/standings`, `/api/results?limit=N`,
//! `/api/crosstable`, and what the standings page's stream sends, read from the
//! server's results.

use crate::results::{Crosstable, GameResult, Results, Tables};
use parking_lot::Mutex;
use serde::Serialize;
use std::sync::Arc;

/// Results `/api/results` gives without `limit`.
pub const DEFAULT_LIMIT: usize = 50;

/// The most results `/api/results` gives.
pub const MOST_LIMIT: usize = 1000;

/// Results the standings page shows under the tables.
const RECENT_SHOWN: usize = 20;

/// The tournament's JSON, written once per new result for every request and every
/// viewer of the standings page (fifty projectors and phones want it at once).
#[derive(Default)]
pub struct Cache {
    latest: Mutex<Option<Written>>,
}

/// The JSON of one version of the results.
#[derive(Clone)]
pub struct Written {
    /// Which version of the results (see `Results::version`).
    pub version: u64,
    /// `/api/standings`.
    pub standings: Arc<str>,
    /// `/api/crosstable`.
    pub crosstable: Arc<str>,
    /// The standings page's event.
    pub page: Arc<str>,
}

impl Cache {
    /// The JSON of the results as they are now: written again only after a new result.
    /// Its lock is the web's alone (a game recording a result never waits for it).
    pub fn get(&self, results: &Results) -> Written {
        let version = results.version();
        let mut latest = self.latest.lock();
        if let Some(written) = latest.as_ref().filter(|w| w.version == version) {
            return written.clone();
        }
        let (tables, crosstable) = (results.tables(), results.crosstable());
        let written = Written {
            version,
            standings: to_json(&*tables).into(),
            crosstable: to_json(&*crosstable).into(),
            page: page_state(results, &tables, &crosstable).into(),
        };
        *latest = Some(written.clone());
        written
    }
}

/// `{"results": [...]}`, newest first, as many as `query`'s `limit` asks.
///
/// # Errors
///
/// The JSON of a 400 answer when `limit` is not a whole number from 1 to 1000.
pub fn recent(results: &Results, query: Option<&str>) -> Result<String, String> {
    let limit = limit(query)?;
    #[derive(Serialize)]
    struct List<'a> {
        results: Vec<&'a GameResult>,
    }
    let recent = results.recent(limit);
    Ok(to_json(&List {
        results: recent.iter().map(Arc::as_ref).collect(),
    }))
}

/// The standings page's event: every table, the crosstable and the newest results.
fn page_state(results: &Results, tables: &Tables, crosstable: &Crosstable) -> String {
    #[derive(Serialize)]
    struct PageState<'a> {
        standings: &'a Tables,
        crosstable: &'a Crosstable,
        results: Vec<&'a GameResult>,
    }
    let recent = results.recent(RECENT_SHOWN);
    to_json(&PageState {
        standings: tables,
        crosstable,
        results: recent.iter().map(Arc::as_ref).collect(),
    })
}

/// The `limit` of a query (`limit=20&x=y`): [`DEFAULT_LIMIT`] when absent.
fn limit(query: Option<&str>) -> Result<usize, String> {
    let given = query
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('=').or(Some((pair, ""))))
        .find(|(key, _)| *key == "limit")
        .map(|(_, value)| value);
    let Some(given) = given else {
        return Ok(DEFAULT_LIMIT);
    };
    given
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MOST_LIMIT).contains(n))
        .ok_or_else(|| {
            let shown: String = given.chars().take(40).collect();
            let error = serde_json::json!({
                "error": format!(
                    "limit must be a whole number from 1 to {MOST_LIMIT}, got '{shown}'"
                )
            });
            error.to_string()
        })
}

fn to_json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| {
        // Plain data: this cannot fail.
        log::error!("standings could not be written as JSON: {e}");
        "{}".to_string()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_a_whole_number_from_1_to_1000() {
        assert_eq!(limit(None), Ok(50));
        assert_eq!(limit(Some("")), Ok(50));
        assert_eq!(limit(Some("x=1&limit=7")), Ok(7));
        assert_eq!(limit(Some("limit=1000")), Ok(1000));
        for bad in [
            "limit=0",
            "limit=1001",
            "limit=-3",
            "limit=ten",
            "limit=",
            "limit",
        ] {
            let error = limit(Some(bad)).expect_err(bad);
            assert!(
                error
                    .starts_with(r#"{"error":"limit must be a whole number from 1 to 1000, got '"#),
                "{error}"
            );
        }
    }
}
