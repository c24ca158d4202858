//! The date of a record (`DT`): a `SystemTime` as YYYY-MM-DD in UTC, through the `time`
//! crate's calendar.

use std::time::{SystemTime, UNIX_EPOCH};
use time::OffsetDateTime;
use time::macros::format_description;

/// The date of `time` as YYYY-MM-DD (UTC); a time before 1970 gives 1970-01-01.
pub(super) fn date(time: SystemTime) -> String {
    let time = OffsetDateTime::from(time.max(UNIX_EPOCH));
    time.format(format_description!("[year]-[month]-[day]"))
        .unwrap_or_else(|_| "1970-01-01".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn day(days: u64) -> String {
        date(UNIX_EPOCH + Duration::from_secs(days * 86_400 + 3_600))
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(day(0), "1970-01-01");
        assert_eq!(day(20_513), "2026-03-01");
        assert_eq!(day(10_957), "2000-01-01");
        assert_eq!(day(11_016), "2000-02-29");
        assert_eq!(date(UNIX_EPOCH - Duration::from_secs(86_400)), "1970-01-01");
        assert_eq!(
            date(UNIX_EPOCH + Duration::from_secs(1_795_000_000)),
            "2026-11-18"
        );
    }
}
