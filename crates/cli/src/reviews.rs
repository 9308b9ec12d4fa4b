//! `--reviews FILE` for `shapemaze score`: people's readings (`reviews.jsonl`, see
//! `shapemaze_core::analysis::review`) applied to a folder's transcripts, giving every rate
//! as read and as reviewed side by side, and the reader's agreement with the reviews made
//! on a random sample.

use crate::io::CliError;
use serde::Serialize;
use shapemaze_core::analysis::review::{agreement, latest, parse_reviews, Agreement, Review};
use shapemaze_core::play::trial::Phase;
use shapemaze_core::results::rescore::{
    replies_read, rescore_reviewed, Hints, Libraries, Rescored, Reviewed,
};
use shapemaze_core::results::tally::Total;
use std::collections::BTreeMap;

/// The reviews of one folder, loaded and keyed by transcript.
pub struct Reviews {
    /// The file they came from, as given.
    pub file: String,
    /// Every review in force (the last about each reply).
    pub all: Vec<Review>,
}

impl Reviews {
    /// Reads `file`; a file that cannot be read or a line that is not a review is an input
    /// error naming the file and the line.
    pub fn load(file: &str) -> Result<Reviews, CliError> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::input(format!("cannot read the reviews file {file}: {e}")))?;
        let parsed = parse_reviews(&text).map_err(|e| CliError::input(format!("{file}: {e}")))?;
        let all = latest(&parsed).into_values().cloned().collect();
        Ok(Reviews {
            file: file.to_string(),
            all,
        })
    }

    /// The reviews of the transcript at `file` (its path under the folder), each with its
    /// index in [`Reviews::all`].
    pub fn of(&self, file: &str) -> Vec<(usize, &Review)> {
        self.all
            .iter()
            .enumerate()
            .filter(|(_, r)| r.trial == file)
            .collect()
    }
}

/// What the reviews did to one transcript: its result as reviewed, and the reader's value
/// for each of its reviewed replies.
pub struct ReviewedTranscript {
    /// The transcript re-scored with the reviewed readings in place.
    pub result: Rescored,
    /// For each reviewed reply found, the reader's value (by review index in `Reviews::all`).
    pub read: Vec<(usize, shapemaze_core::verify::Extracted)>,
}

/// Re-scores one transcript with its reviews; `None` when it has none.
pub fn apply(
    reviews: &Reviews,
    file: &str,
    text: &str,
    hints: &Hints,
    libraries: &mut Libraries,
) -> Option<ReviewedTranscript> {
    let mine = reviews.of(file);
    if mine.is_empty() {
        return None;
    }
    let replies = replies_read(text, hints);
    let mut read = Vec::new();
    let mut reviewed: Vec<Reviewed> = Vec::new();
    for (i, r) in mine {
        // A review of `done` stands for the generation, as every phase index has it.
        let phase = Phase::at(r.phase.index());
        let Some(found) = replies
            .iter()
            .find(|x| x.phase == phase && x.step == r.step)
        else {
            continue;
        };
        read.push((i, found.reading.value.clone()));
        reviewed.push((phase, r.step, r.value.clone()));
    }
    Some(ReviewedTranscript {
        result: rescore_reviewed(text, hints, libraries, &reviewed),
        read,
    })
}

/// The `review` part of `score`'s report.
#[derive(Serialize)]
pub struct ReviewReport {
    /// The reviews file.
    pub file: String,
    /// Reviews in force in it.
    pub reviews: usize,
    /// Of those, how many name a reply of this folder.
    pub applied: usize,
    /// The replies named that this folder does not hold (`trial phase step`).
    pub unmatched: Vec<String>,
    /// The reader's agreement on the sampled reviews, per phase.
    pub agreement: Vec<Agreement>,
    /// The totals with the reviewed readings in place (`score` only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub totals: Vec<Total>,
}

/// The report: `read` maps each applied review (its index) to the reader's value.
pub fn report(
    reviews: &Reviews,
    read: &BTreeMap<usize, shapemaze_core::verify::Extracted>,
    totals: Vec<Total>,
) -> ReviewReport {
    let unmatched = reviews
        .all
        .iter()
        .enumerate()
        .filter(|(i, _)| !read.contains_key(i))
        .map(|(_, r)| format!("{} {} {}", r.trial, r.phase.name(), r.step))
        .collect();
    let agreement = agreement(&reviews.all, |key| {
        let i = reviews.all.iter().position(|r| &r.key() == key)?;
        read.get(&i).cloned()
    });
    ReviewReport {
        file: reviews.file.clone(),
        reviews: reviews.all.len(),
        applied: read.len(),
        unmatched,
        agreement,
        totals,
    }
}

/// The reader's agreement with `reviews` over the transcripts under `root` (each read as
/// `score` reads it), for `shapemaze report --reviews`: the report itself, with the totals
/// left as they are (`score --reviews` gives them as reviewed).
pub fn over_folder(root: &std::path::Path, reviews: &Reviews) -> Result<ReviewReport, CliError> {
    use super::files::{display, list_transcripts};
    let mut skipped = Vec::new();
    let files = list_transcripts(root, &mut skipped)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", root.display())))?;
    let in_play = super::score::folder_shapes(root);
    let mut read = BTreeMap::new();
    for path in files {
        let file = display(root, &path);
        if reviews.of(&file).is_empty() {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let (_, hints) = super::score::hints_for(&path, &text, in_play);
        let replies = replies_read(&text, &hints);
        for (i, r) in reviews.of(&file) {
            let phase = Phase::at(r.phase.index());
            if let Some(found) = replies
                .iter()
                .find(|x| x.phase == phase && x.step == r.step)
            {
                read.insert(i, found.reading.value.clone());
            }
        }
    }
    Ok(report(reviews, &read, Vec::new()))
}

/// The report's text: what was applied, the agreement per phase, what was not found.
pub fn render(r: &ReviewReport) -> String {
    let mut out = format!(
        "Reviews ({}): {} in force, {} applied to replies of this folder.\n",
        r.file, r.reviews, r.applied
    );
    if r.agreement.is_empty() {
        out.push_str("No sampled review, so no agreement figure: review a seeded random sample (the review part of /results) to measure the reader.\n");
    }
    for a in &r.agreement {
        out.push_str(&format!("In {}: {}.\n", a.phase.name(), a.sentence()));
    }
    if !r.unmatched.is_empty() {
        out.push_str(&format!(
            "{} reviews name replies this folder does not hold (listed):\n",
            r.unmatched.len()
        ));
        for u in &r.unmatched {
            out.push_str(&format!("  {u}\n"));
        }
    }
    out
}
