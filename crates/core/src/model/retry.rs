//! The retry policy: which failures are retried, how long to wait (with the server's hints), and the notice a retry gives.

use super::settings::EndpointSettings;
use crate::text::parse_decimal;
use std::fmt;

/// When to try again and how long to wait first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Most attempts, the first included.
    pub max_attempts: u32,
    /// The first back-off, in milliseconds (default 1000); it doubles per attempt.
    pub base_ms: u64,
    /// The longest single wait, in milliseconds (default 60 000), server hints included.
    pub max_delay_ms: u64,
    /// The most total waiting for one call, in milliseconds; a retry whose wait would pass
    /// it is not made.
    pub max_wait_ms: u64,
}

impl RetryPolicy {
    /// The policy of some settings (their attempts and total wait, default back-off).
    pub fn from_settings(settings: &EndpointSettings) -> Self {
        RetryPolicy {
            max_attempts: settings.max_attempts,
            base_ms: 1000,
            max_delay_ms: 60_000,
            max_wait_ms: settings.max_wait_ms,
        }
    }

    /// The wait before the attempt after `attempt` (1-based) failed. A server hint wins
    /// when present; otherwise exponential back-off `base · 2^(attempt-1)`, capped, with
    /// "equal jitter": half of it fixed and half scaled by `jitter` (uniform in [0, 1)),
    /// so waits never collapse to zero yet concurrent clients spread out. Both are capped
    /// at `max_delay_ms`.
    pub fn delay_ms(&self, attempt: u32, hint: Option<u64>, jitter: f64) -> u64 {
        if let Some(h) = hint {
            return h.min(self.max_delay_ms);
        }
        let doublings = attempt.saturating_sub(1).min(40);
        let exp = self
            .base_ms
            .saturating_mul(1u64 << doublings)
            .min(self.max_delay_ms);
        let j = if jitter.is_finite() {
            jitter.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let half = exp / 2;
        half + ((exp - half) as f64 * j).round() as u64
    }
}

/// Reads a `Retry-After` value: seconds (`8`, `1.5`) or an HTTP date
/// (`Wed, 21 Oct 2015 07:28:00 GMT`), as milliseconds from `now_ms` (Unix epoch
/// milliseconds); a date in the past gives 0.
pub fn parse_retry_after(value: &str, now_ms: f64) -> Option<u64> {
    let v = value.trim();
    if let Some(secs) = parse_decimal(v) {
        return Some((secs * 1000.0).round() as u64);
    }
    let at = parse_http_date_ms(v)?;
    let wait = at - now_ms;
    Some(if wait > 0.0 { wait.round() as u64 } else { 0 })
}

/// Milliseconds since the Unix epoch of an IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`;
/// the weekday is optional and not checked).
fn parse_http_date_ms(v: &str) -> Option<f64> {
    let mut parts: Vec<&str> = v.split_whitespace().collect();
    if parts.first().is_some_and(|p| p.ends_with(',')) {
        parts.remove(0);
    }
    if let Some(zone) = parts.last() {
        if zone.eq_ignore_ascii_case("GMT") || zone.eq_ignore_ascii_case("UTC") {
            parts.pop();
        }
    }
    let [day, month, year, time] = parts.as_slice() else {
        return None;
    };
    let day: u32 = day.parse().ok()?;
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let month = MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(month))
        .map(|i| i as u32 + 1)?;
    let year: i64 = year.parse().ok()?;
    let mut hms = time.split(':').map(|x| x.parse::<u32>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next()??);
    if hms.next().is_some() || !(1..=31).contains(&day) || h > 23 || m > 59 || s > 60 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + i64::from(h * 3600 + m * 60 + s);
    Some(secs as f64 * 1000.0)
}

/// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Reads an `x-ratelimit-reset-requests` / `x-ratelimit-reset-tokens` value as
/// milliseconds: Go-style durations (`1s`, `6m0s`, `250ms`, `0.5s`, `1h2m`) or a bare
/// number of seconds (`2`).
pub fn parse_reset(value: &str) -> Option<u64> {
    let v = value.trim();
    if v.is_empty() {
        return None;
    }
    if let Some(secs) = parse_decimal(v) {
        return Some((secs * 1000.0).round() as u64);
    }
    let mut total = 0.0;
    let mut rest = v;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let number = parse_decimal(&rest[..num_end])?;
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let scale = match &rest[..unit_end] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1000.0,
            "ms" => 1.0,
            "us" | "µs" => 0.001,
            _ => return None,
        };
        rest = &rest[unit_end..];
        total += number * scale;
    }
    Some(total.round() as u64)
}

/// The server's hint of how long to wait, from `Retry-After`, `retry-after-ms`,
/// `x-ratelimit-reset-requests` and `x-ratelimit-reset-tokens` (names in any case): the
/// longest of those present, in milliseconds. `now_ms` (Unix epoch milliseconds) dates a
/// `Retry-After` given as an HTTP date.
pub fn retry_hint(headers: &[(String, String)], now_ms: f64) -> Option<u64> {
    headers
        .iter()
        .filter_map(|(name, value)| match name.to_ascii_lowercase().as_str() {
            "retry-after" => parse_retry_after(value, now_ms),
            "retry-after-ms" => parse_decimal(value).map(|ms| ms.round() as u64),
            "x-ratelimit-reset-requests" | "x-ratelimit-reset-tokens" => parse_reset(value),
            _ => None,
        })
        .max()
}

/// The `Retry-After` hint alone (used for 5xx, where rate-limit reset headers say nothing
/// about when the server recovers).
pub(super) fn retry_after_only(headers: &[(String, String)], now_ms: f64) -> Option<u64> {
    headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case("retry-after"))
        .filter_map(|(_, value)| parse_retry_after(value, now_ms))
        .max()
}

/// Told to the page before waiting to try again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryNotice {
    /// The HTTP status that failed, when the endpoint answered with one.
    pub status: Option<u16>,
    /// What failed, for people: the status (`429`), `network error` or `timeout`.
    pub status_label: String,
    /// The likely cause in words when the label says too little (a request without a
    /// response: [`ChatError::retry_cause`]).
    pub cause: Option<String>,
    /// The attempt that failed (1-based).
    pub attempt: u32,
    /// Most attempts.
    pub of: u32,
    /// The wait before the next attempt, in milliseconds.
    pub delay_ms: u64,
}

/// `No answer from URL: ... (CORS). Retrying (attempt 2 of 6) in 1 s…`, or with only a
/// label, `429. Retrying (attempt 3 of 6) in 8 s…`.
impl fmt::Display for RetryNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.cause {
            Some(cause) => write!(f, "{cause}.")?,
            None => {
                let mut label = self.status_label.chars();
                if let Some(first) = label.next() {
                    write!(f, "{}{}.", first.to_uppercase(), label.as_str())?;
                }
            }
        }
        write!(
            f,
            " Retrying (attempt {} of {}) in {}…",
            self.attempt + 1,
            self.of,
            format_wait(self.delay_ms)
        )
    }
}

/// `8 s`, `1.5 s`, `250 ms`.
pub(super) fn format_wait(ms: u64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms >= 10_000 || ms % 1000 < 50 || ms % 1000 >= 950 {
        format!("{} s", (ms + 500) / 1000)
    } else {
        let tenths = (ms + 50) / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_http_dates() {
        let now = 1_445_412_480_000.0; // Wed, 21 Oct 2015 07:28:00 GMT
        assert_eq!(parse_retry_after("8", now), Some(8000));
        assert_eq!(parse_retry_after(" 1.5 ", now), Some(1500));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now),
            Some(10_000)
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now),
            Some(0),
            "past dates wait 0"
        );
        assert_eq!(parse_retry_after("-3", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(
            parse_retry_after("Wed, 32 Oct 2015 07:28:00 GMT", now),
            None
        );
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(
            parse_http_date_ms("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(now)
        );
    }

    #[test]
    fn rate_limit_reset_values_read_as_milliseconds() {
        let cases = [
            ("1s", 1000),
            ("6m0s", 360_000),
            ("250ms", 250),
            ("0.5s", 500),
            ("2", 2000),
            ("1h2m3s", 3_723_000),
        ];
        for (v, ms) in cases {
            assert_eq!(parse_reset(v), Some(ms), "{v}");
        }
        assert_eq!(parse_reset(""), None);
        assert_eq!(parse_reset("5 parsecs"), None);
        let headers = vec![
            ("X-RateLimit-Reset-Requests".to_string(), "1s".to_string()),
            ("x-ratelimit-reset-tokens".to_string(), "6m0s".to_string()),
            ("Retry-After".to_string(), "20".to_string()),
        ];
        assert_eq!(
            retry_hint(&headers, 0.0),
            Some(360_000),
            "the longest hint wins"
        );
        assert_eq!(retry_hint(&[], 0.0), None);
    }

    #[test]
    fn back_off_doubles_with_equal_jitter_and_hints_win_up_to_the_cap() {
        let p = RetryPolicy {
            max_attempts: 6,
            base_ms: 1000,
            max_delay_ms: 60_000,
            max_wait_ms: 300_000,
        };
        assert_eq!(p.delay_ms(1, None, 0.0), 500);
        assert_eq!(p.delay_ms(1, None, 0.999_999), 1000);
        assert_eq!(
            p.delay_ms(3, None, 0.5),
            3000,
            "4000 halved plus half of 2000"
        );
        assert_eq!(p.delay_ms(30, None, 0.0), 30_000, "capped then halved");
        assert_eq!(p.delay_ms(2, Some(8000), 0.9), 8000, "a hint wins");
        assert_eq!(
            p.delay_ms(2, Some(600_000), 0.9),
            60_000,
            "hints are capped"
        );
    }

    #[test]
    fn retry_notices_read_naturally() {
        let n = RetryNotice {
            status: Some(429),
            status_label: "429".into(),
            cause: None,
            attempt: 3,
            of: 6,
            delay_ms: 8000,
        };
        assert_eq!(n.to_string(), "429. Retrying (attempt 4 of 6) in 8 s…");
        let n = RetryNotice {
            status: None,
            status_label: "timeout".into(),
            cause: None,
            attempt: 1,
            of: 6,
            delay_ms: 1500,
        };
        assert_eq!(
            n.to_string(),
            "Timeout. Retrying (attempt 2 of 6) in 1.5 s…"
        );
        let n = RetryNotice {
            status: None,
            status_label: "network error".into(),
            cause: Some("No answer from http://x/v1/chat/completions".into()),
            attempt: 1,
            of: 6,
            delay_ms: 1500,
        };
        assert_eq!(
            n.to_string(),
            "No answer from http://x/v1/chat/completions. Retrying (attempt 2 of 6) in 1.5 s…"
        );
        assert_eq!(format_wait(250), "250 ms");
    }
}
