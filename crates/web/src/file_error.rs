//! Why a chosen file is not results that can be read (an exported ZIP, a `trials.jsonl`, a
//! results folder of transcripts): a [`FileError`] that says what failed and in which
//! file. The lab's import and the results page's import both read files through it.

use super::review_error::ReviewsError;
use shapemaze_core::batch::error::DesignError;
use shapemaze_core::batch::export::ImportError;
use shapemaze_core::results::zip::ZipError;
use std::fmt;

/// Why a file, or an entry of a ZIP, could not be read as results.
#[derive(Debug)]
pub(crate) enum FileError {
    /// Inside the file or entry named: `NAME: why`.
    In(String, Box<FileError>),
    /// A ZIP that cannot be read, or an entry whose checksum fails.
    Zip(ZipError),
    /// An entry (its name) that could not be decompressed.
    NotInflated(String),
    /// An entry (its name) that is not UTF-8 text.
    NotText(String),
    /// A file (its name) that is neither a ZIP nor UTF-8 text.
    NeitherZipNorText(String),
    /// A ZIP (its name) without a `trials.jsonl`.
    NoTrials(String),
    /// A `trials.jsonl` line that is not a record.
    Records(ImportError),
    /// An `experiment.json` that is not a design.
    Design(DesignError),
    /// A `reviews.jsonl` that is not reviews, or could not be kept.
    Reviews(ReviewsError),
    /// A chosen folder (its name) without a `trials.jsonl` or transcripts.
    NoResults(String),
    /// A chosen folder (its name) none of whose `.txt` files (how many) is a transcript.
    NoTranscripts(String, usize),
}

impl FileError {
    /// `e`, as found inside the file or entry `name`.
    pub(crate) fn inside(name: &str, e: FileError) -> FileError {
        FileError::In(name.to_string(), Box::new(e))
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::In(name, e) => write!(f, "{name}: {e}"),
            FileError::Zip(e) => e.fmt(f),
            FileError::NotInflated(name) => write!(f, "{name} could not be decompressed"),
            FileError::NotText(name) => write!(f, "{name} is not UTF-8 text"),
            FileError::NeitherZipNorText(name) => write!(
                f,
                "{name} is neither a ZIP nor UTF-8 text: choose a trials.jsonl or an exported ZIP."
            ),
            FileError::NoTrials(name) => write!(
                f,
                "{name}: the ZIP holds no trials.jsonl: choose a ZIP exported by Shapemaze (or by shapemaze run)."
            ),
            FileError::Records(e) => e.fmt(f),
            FileError::Design(e) => e.fmt(f),
            FileError::Reviews(e) => e.fmt(f),
            FileError::NoResults(name) => write!(
                f,
                "{name}: no trials.jsonl and no transcripts (.txt) in it: choose an exported ZIP, a trials.jsonl, or a results folder of transcripts."
            ),
            FileError::NoTranscripts(name, count) => write!(
                f,
                "{name}: none of its {count} .txt files is a transcript in the results layout ({{encoding}}_{{model}}_results/RxC/shape/RxC_shape_i.npy/k.txt)."
            ),
        }
    }
}

impl std::error::Error for FileError {}
