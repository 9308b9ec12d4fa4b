//! Reading what the project stores as JSON (trial records, designs, studies, participants'
//! data) through serde's derive, with the place of what is wrong: serde's reason, and
//! where it is (`messages[1].verdict.reason`) from `serde_path_to_error`.
//!
//! ```
//! use shapemaze_core::json;
//!
//! #[derive(serde::Deserialize, Debug)]
//! struct Cell { row: usize, col: usize }
//! #[derive(serde::Deserialize, Debug)]
//! struct Path { cells: Vec<Cell> }
//!
//! let e = json::from_str::<Path>(r#"{"cells": [{"row": 1, "col": 2}, {"row": 1}]}"#)
//!     .expect_err("a cell has no col");
//! assert!(e.to_string().starts_with("missing field `cells[1].col`"), "{e}");
//! let e = json::from_str::<Path>(r#"{"cells": [{"row": "one", "col": 2}]}"#)
//!     .expect_err("a row is a number");
//! assert!(e.to_string().starts_with("field `cells[0].row`: invalid type: string"), "{e}");
//! ```

use serde::de::DeserializeOwned;
use std::fmt;

/// Why a JSON text is not a value of the type read: where, and serde's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonError {
    /// The place of the field that is wrong (`players[1].temperature`); empty for the
    /// whole value (and for text that is not JSON).
    pub at: String,
    /// serde's reason, with the line and column (`invalid type: string "hot", expected
    /// f64 at line 1 column 40`).
    pub reason: String,
}

impl fmt::Display for JsonError {
    /// `field `players[1].temperature`: invalid type: ...`; a reason that names a field
    /// inside the place names it from the top: `missing field `versions.verifier``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            return f.write_str(&self.reason);
        }
        for lead in ["missing field `", "field `"] {
            if let Some(rest) = self.reason.strip_prefix(lead) {
                return write!(f, "{lead}{}.{rest}", self.at);
            }
        }
        write!(f, "field `{}`: {}", self.at, self.reason)
    }
}

impl std::error::Error for JsonError {}

impl From<serde_path_to_error::Error<serde_json::Error>> for JsonError {
    fn from(e: serde_path_to_error::Error<serde_json::Error>) -> JsonError {
        let at = e.path().to_string();
        JsonError {
            at: if at == "." { String::new() } else { at },
            reason: e.into_inner().to_string(),
        }
    }
}

/// Writes `value` as JSON by its `Serialize`, as `serde_json::to_string` does; a value that
/// cannot be written (a map whose keys are not text, a serializer's own error) is an error
/// that says so, never an empty text.
pub fn to_string<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    serde_json::to_string(value).map_err(unwritable)
}

/// [`to_string`], indented for a person to read.
pub fn to_string_pretty<T: serde::Serialize + ?Sized>(value: &T) -> Result<String, JsonError> {
    serde_json::to_string_pretty(value).map_err(unwritable)
}

/// `items` as JSON lines (one value a line, each line ended with `\n`), or the first that
/// cannot be written.
pub fn lines<T: serde::Serialize>(items: &[T]) -> Result<String, JsonError> {
    items
        .iter()
        .map(|item| to_string(item).map(|line| line + "\n"))
        .collect()
}

fn unwritable(e: serde_json::Error) -> JsonError {
    JsonError {
        at: String::new(),
        reason: format!("cannot be written as JSON: {e}"),
    }
}

/// Reads a `T` from JSON text by its `Deserialize`, as `serde_json::from_str` does, the
/// error naming the field and its place.
///
/// With the `short-json-errors` feature (the people's build) the error is serde's reason with
/// its line and column, without the place.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, JsonError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = read(&mut de)?;
    de.end().map_err(|e| JsonError {
        at: String::new(),
        reason: e.to_string(),
    })?;
    Ok(value)
}

/// Reads a `T` from a JSON value by its `Deserialize`, as `serde_json::from_value` does,
/// the error naming the field and its place.
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, JsonError> {
    read(value)
}

/// A `T` from a deserializer, the error naming the place.
#[cfg(not(feature = "short-json-errors"))]
fn read<'de, T, D>(d: D) -> Result<T, JsonError>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de, Error = serde_json::Error>,
{
    Ok(serde_path_to_error::deserialize(d)?)
}

/// A `T` from a deserializer, the error serde's own (`short-json-errors`).
#[cfg(feature = "short-json-errors")]
fn read<'de, T, D>(d: D) -> Result<T, JsonError>
where
    T: serde::Deserialize<'de>,
    D: serde::Deserializer<'de, Error = serde_json::Error>,
{
    T::deserialize(d).map_err(|e| JsonError {
        at: String::new(),
        reason: e.to_string(),
    })
}

/// Reads a flattened `T` (`#[serde(flatten, deserialize_with = "json::flattened")]`)
/// keeping the place of what is wrong inside it, which serde's flatten loses: the error
/// names the field (`field `latency_ms`: ...`, `missing field `logprobs[0].logprob``),
/// and [`JsonError`] puts it after the place of the value around it
/// (`messages[1].latency_ms`).
pub fn flattened<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    flattened_read(d)
}

#[cfg(feature = "short-json-errors")]
fn flattened_read<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(d)
}

#[cfg(not(feature = "short-json-errors"))]
fn flattened_read<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    serde_path_to_error::deserialize(d).map_err(|e| {
        let at = e.path().to_string();
        let inner = e.into_inner();
        match at.as_str() {
            "." => inner,
            _ => serde::de::Error::custom(JsonError {
                at,
                reason: inner.to_string(),
            }),
        }
    })
}

/// Whether a value is its type's default, 0 for a count (serde's `skip_serializing_if` for
/// fields left out when there is nothing to say).
pub fn is_zero<T: Default + PartialEq>(n: &T) -> bool {
    *n == T::default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_that_cannot_be_written_is_an_error_not_an_empty_text() {
        let mut keys_not_text = std::collections::BTreeMap::new();
        keys_not_text.insert((1, 2), "cell");
        let e = to_string(&keys_not_text).expect_err("tuple keys");
        assert!(
            e.to_string().starts_with("cannot be written as JSON: "),
            "{e}"
        );
        assert_eq!(to_string(&[1, 2]).expect("written"), "[1,2]");
        assert_eq!(to_string_pretty(&[1]).expect("written"), "[\n  1\n]");
        assert_eq!(lines(&[[1], [2]]).expect("written"), "[1]\n[2]\n");
        assert!(lines(&[keys_not_text]).is_err());
    }
}
