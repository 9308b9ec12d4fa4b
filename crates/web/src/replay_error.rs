//! Why a trial cannot be opened for replay on `/demo` (a bundled trial, a picked record
//! file, the oracle's trial on a maze, a race's side): a [`ReplayError`] that says what
//! failed. A module of its own, so that `demo.rs` and `race.rs` share it without importing
//! each other.

use super::fetch::FetchError;
use super::storage::StorageError;
use shapemaze_core::maze::generate::GenerateError;
use shapemaze_core::results::race::RaceError;
use shapemaze_core::results::record::RecordError;
use std::fmt;

/// Why a trial cannot be replayed.
#[derive(Debug)]
pub(crate) enum ReplayError {
    /// A bundled trial's file could not be fetched.
    Fetch(FetchError),
    /// A race's bundled trial (its name) could not be fetched.
    BundledFetch(String, FetchError),
    /// This browser's storage could not be read.
    Storage(StorageError),
    /// A race names a stored trial (its key) this browser does not hold.
    NotStored(String),
    /// A text (its name as shown; the error alone when `None`) is not a trial record.
    NotARecord(Option<String>, RecordError),
    /// The record's steps cannot be replayed.
    Frames(RecordError),
    /// The maze to play could not be generated.
    Maze(GenerateError),
    /// The two trials cannot race.
    Race(RaceError),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fetch(e) => e.fmt(f),
            ReplayError::BundledFetch(name, e) => {
                write!(f, "the bundled trial '{name}' could not be fetched: {e}")
            }
            ReplayError::Storage(e) => e.fmt(f),
            ReplayError::NotStored(key) => write!(
                f,
                "no trial '{key}' is stored in this browser (a stored trial's race link opens only where its results are)"
            ),
            ReplayError::NotARecord(Some(name), e) => write!(f, "{name} is not a trial record: {e}"),
            ReplayError::NotARecord(None, e) | ReplayError::Frames(e) => e.fmt(f),
            ReplayError::Maze(e) => e.fmt(f),
            ReplayError::Race(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ReplayError {}
