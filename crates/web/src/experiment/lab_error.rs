//! Why something the lab was asked to do failed: a [`LabError`] that says what, shown in the
//! lab's message line. A module of its own, so that the lab's files share it without
//! importing each other.

use super::super::download::DownloadError;
use super::super::review_error::ReviewsError;
use super::super::storage::StorageError;
use shapemaze_core::json::JsonError;
use shapemaze_core::model::settings::SettingsError;
use shapemaze_core::results::record::RecordError;
use shapemaze_core::results::zip::ZipError;
use shapemaze_core::text::UnknownName;
use std::fmt;

/// Why the lab could not do what it was asked.
#[derive(Debug)]
pub(crate) enum LabError {
    /// The browser's storage has not opened yet.
    StorageOpening,
    /// The browser keeps no IndexedDB here.
    NoStorage,
    /// The browser's storage failed.
    Storage(StorageError),
    /// A record or records cannot be written as JSON.
    Record(RecordError),
    /// A design or a stored experiment cannot be written as JSON.
    Json(JsonError),
    /// The JSONL of the trials cannot be written.
    Jsonl(RecordError),
    /// The export ZIP cannot be built.
    Zip(ZipError),
    /// The reviews that go with the export cannot be written.
    Reviews(ReviewsError),
    /// A download failed.
    Download(DownloadError),
    /// An endpoint player (its number from 1, its name) needs an API key.
    NeedsKey(usize, String),
    /// An endpoint player (its number from 1, its name) names an unknown preset.
    Preset(usize, String, UnknownName),
    /// An endpoint player's (its number from 1, its name) settings are refused.
    Settings(usize, String, SettingsError),
    /// A new experiment could not be kept, so nothing was started.
    NotCreated(Box<LabError>),
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::StorageOpening => {
                f.write_str("The browser's storage is still opening: try again in a moment.")
            }
            LabError::NoStorage => f.write_str(
                "This browser's storage (IndexedDB) is not available (private mode, or storage blocked for this site): nothing can be kept. Allow site data and reload.",
            ),
            LabError::Storage(e) => e.fmt(f),
            LabError::Record(e) => e.fmt(f),
            LabError::Json(e) => e.fmt(f),
            LabError::Jsonl(e) => write!(f, "Could not write the JSONL: {e}"),
            LabError::Zip(e) => write!(f, "Could not build the ZIP: {e}"),
            LabError::Reviews(e) => write!(f, "Could not build the ZIP: {e}"),
            LabError::Download(e) => e.fmt(f),
            LabError::NeedsKey(n, name) => write!(
                f,
                "Player {n} ({name}) needs an API key: type it in its row (it stays in this tab only)."
            ),
            LabError::Preset(n, name, e) => write!(f, "Player {n} ({name}): {e}"),
            LabError::Settings(n, name, e) => write!(f, "Player {n} ({name}): {e}"),
            LabError::NotCreated(e) => {
                write!(f, "Could not keep the new experiment: {e}. Nothing was started.")
            }
        }
    }
}

impl std::error::Error for LabError {}

impl From<StorageError> for LabError {
    fn from(e: StorageError) -> Self {
        LabError::Storage(e)
    }
}

impl From<DownloadError> for LabError {
    fn from(e: DownloadError) -> Self {
        LabError::Download(e)
    }
}
