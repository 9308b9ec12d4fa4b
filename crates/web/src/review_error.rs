//! Why reviews could not be taken in or written out: a [`ReviewsError`]. A module of its
//! own, so that the files that read an export (which may carry `reviews.jsonl`) name it
//! without importing the review page.

use super::local::KeepError;
use shapemaze_core::analysis::review::ReviewError;

/// Why reviews could not be taken in or written out.
#[derive(Debug)]
pub enum ReviewsError {
    /// The text is not `reviews.jsonl` (the line and why).
    NotReviews(ReviewError),
    /// The browser would not keep them.
    NotKept(KeepError),
    /// They cannot be written as `reviews.jsonl`.
    Unwritable(serde_json::Error),
}

impl std::fmt::Display for ReviewsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewsError::NotReviews(e) => e.fmt(f),
            ReviewsError::NotKept(e) => f.write_str(&not_kept(e)),
            ReviewsError::Unwritable(e) => write!(f, "the reviews cannot be written: {e}"),
        }
    }
}

impl std::error::Error for ReviewsError {}

/// Why reviews could not be kept, and what to do.
pub(crate) fn not_kept(e: &KeepError) -> String {
    format!("The reviews could not be kept in this browser: {e}. Download them to keep them.")
}
