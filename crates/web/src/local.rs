//! This browser's `localStorage`, for what the lab keeps between visits (reviews, the
//! second reader's answers, a remembered key, the open experiment): reading it, and
//! keeping a value with a [`LocalError`] that says what failed.

use std::fmt;

/// Why a value could not be kept in this browser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocalError {
    /// The browser keeps no local storage here (private mode, or it is switched off).
    Unavailable,
    /// The browser refused the value (its storage is full).
    Refused,
}

impl fmt::Display for LocalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalError::Unavailable => "this browser keeps no local storage (private mode?)",
            LocalError::Refused => "the browser refused to keep it (storage full?)",
        })
    }
}

impl std::error::Error for LocalError {}

/// Why data could not be kept: it could not be written, or the browser would not keep it.
#[derive(Debug)]
pub enum KeepError {
    /// It cannot be written as JSON (serde's reason).
    Unwritable(serde_json::Error),
    /// The browser would not keep it.
    Local(LocalError),
}

impl fmt::Display for KeepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeepError::Unwritable(e) => write!(f, "it cannot be written: {e}"),
            KeepError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for KeepError {}

impl From<LocalError> for KeepError {
    fn from(e: LocalError) -> Self {
        KeepError::Local(e)
    }
}

impl From<serde_json::Error> for KeepError {
    fn from(e: serde_json::Error) -> Self {
        KeepError::Unwritable(e)
    }
}

/// This browser's local storage, when it has one.
pub fn local() -> Option<web_sys::Storage> {
    web_sys::window().and_then(|w| w.local_storage().ok().flatten())
}

/// The value kept under `key` (none when there is none, or no storage).
pub fn read(key: &str) -> Option<String> {
    local().and_then(|s| s.get_item(key).ok().flatten())
}

/// Keeps `value` under `key`.
pub fn keep(key: &str, value: &str) -> Result<(), LocalError> {
    local()
        .ok_or(LocalError::Unavailable)?
        .set_item(key, value)
        .map_err(|_| LocalError::Refused)
}
