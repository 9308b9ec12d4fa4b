//! `--reviews FILE` for `shapemaze score` and `shapemaze report`: people's readings
//! (`reviews.jsonl`, see `shapemaze_core::analysis::review`) applied to a folder's
//! transcripts, giving every rate as read and as reviewed side by side, and the reader's
//! agreement with the reviews: over the sure readings drawn in a random sample (the
//! precision of sure) and over the unsure readings reviewed, apart. The built-in players'
//! transcripts (`oracle`, `random` in the path) are not counted in the agreement.

use super::files::{folder_shapes, hints_for};
use super::totals::totals_table;
use crate::io::CliError;
use serde::Serialize;
use shapemaze_core::analysis::review::{
    agreement, built_in_name, is_sure, latest, parse_reviews, Agreement, Review,
};
use shapemaze_core::play::phase::Phase;
use shapemaze_core::results::rescore::{
    replies_read, rescore, rescore_reviewed, Hints, Libraries, Rescored, Reviewed,
};
use shapemaze_core::results::tally::{tally, Entry, Total, UNKNOWN};
use shapemaze_core::verify::Extracted;
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

/// What the reader read in a reviewed reply and whether it is sure of it, by review index
/// in [`Reviews::all`]; `None` for a built-in player's reply (found, not counted).
pub type Read = BTreeMap<usize, Option<(Extracted, bool)>>;

/// What the reviews did to one transcript: its result as reviewed, and the reader's
/// reading of each of its reviewed replies.
pub struct ReviewedTranscript {
    /// The transcript re-scored with the reviewed readings in place.
    pub result: Rescored,
    /// For each reviewed reply found (by review index), the reader's value and whether it
    /// is sure (`None` for a built-in player's).
    pub read: Read,
}

/// Re-scores one transcript of `model` with its reviews; `None` when it has none.
pub fn apply(
    reviews: &Reviews,
    file: &str,
    model: &str,
    text: &str,
    hints: &Hints,
    libraries: &mut Libraries,
) -> Option<ReviewedTranscript> {
    let mine = reviews.of(file);
    if mine.is_empty() {
        return None;
    }
    let replies = replies_read(text, hints);
    let mut read = Read::new();
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
        let counted =
            (!built_in_name(model)).then(|| (found.reading.value.clone(), is_sure(&found.reading)));
        read.insert(i, counted);
        reviewed.push((phase, r.step, r.value.clone()));
    }
    Some(ReviewedTranscript {
        result: rescore_reviewed(text, hints, libraries, &reviewed),
        read,
    })
}

/// The `review` part of `score`'s and `report`'s reports.
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
    /// The reader's agreement with the reviews, per phase, sure and unsure readings apart.
    pub agreement: Vec<Agreement>,
    /// The totals with the reviewed readings in place.
    pub totals: Vec<Total>,
    /// The totals as read (`report` only: `score` prints them as its own totals).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_totals: Vec<Total>,
}

/// The report: `read` maps each applied review (its index) to the reader's reading.
pub fn report(reviews: &Reviews, read: &Read, totals: Vec<Total>) -> ReviewReport {
    let unmatched = reviews
        .all
        .iter()
        .enumerate()
        .filter(|(i, _)| !read.contains_key(i))
        .map(|(_, r)| format!("{} {} {}", r.trial, r.phase.name(), r.step))
        .collect();
    let agreement = agreement(&reviews.all, |key| {
        let i = reviews.all.iter().position(|r| &r.key() == key)?;
        read.get(&i).cloned().flatten()
    });
    ReviewReport {
        file: reviews.file.clone(),
        reviews: reviews.all.len(),
        applied: read.len(),
        unmatched,
        agreement,
        totals,
        read_totals: Vec::new(),
    }
}

/// The reviews applied to every transcript under `root` (each read as `score` reads it),
/// for `shapemaze report --reviews`: the agreement, and the totals as read and as
/// reviewed, as `score --reviews` gives them.
pub fn over_folder(root: &std::path::Path, reviews: &Reviews) -> Result<ReviewReport, CliError> {
    use super::files::{display, list_transcripts};
    let mut skipped = Vec::new();
    let files = list_transcripts(root, &mut skipped)
        .map_err(|e| CliError::input(format!("cannot read {}: {e}", root.display())))?;
    let in_play = folder_shapes(root);
    let mut libraries = Libraries::new();
    let mut read = Read::new();
    // Each transcript as read and as reviewed, with its file and model.
    let mut scored: Vec<Scored> = Vec::new();
    for path in files {
        let file = display(root, &path);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let (layout, hints) = hints_for(&path, &text, in_play);
        let result = rescore(&text, &hints, &mut libraries);
        if !result.is_transcript() {
            continue;
        }
        let model = layout.map_or(UNKNOWN.to_string(), |l| l.model);
        let applied = apply(reviews, &file, &model, &text, &hints, &mut libraries);
        let as_reviewed = applied.map(|a| {
            read.extend(a.read);
            a.result
        });
        scored.push((file, model, result, as_reviewed));
    }
    let mut out = report(reviews, &read, tally(&entries(&scored, true)).totals);
    out.read_totals = tally(&entries(&scored, false)).totals;
    Ok(out)
}

/// A transcript as read, and as reviewed when it has reviews, with its file and model.
type Scored = (String, String, Rescored, Option<Rescored>);

/// The transcripts as `tally` counts them: as reviewed (`reviewed`) or as read.
fn entries(scored: &[Scored], reviewed: bool) -> Vec<Entry<'_>> {
    scored
        .iter()
        .map(|(file, model, result, as_reviewed)| Entry {
            file,
            model,
            result: match as_reviewed {
                Some(r) if reviewed => r,
                _ => result,
            },
        })
        .collect()
}

/// Whether some phase has no outcome as reviewed where it had one as read: a corrected
/// reading let it go on past the replies recorded.
fn left_open(read: &[Total], reviewed: &[Total]) -> bool {
    read.first().zip(reviewed.first()).is_some_and(|(a, b)| {
        [
            (a.solve, b.solve),
            (a.recognize, b.recognize),
            (a.generate, b.generate),
        ]
        .iter()
        .any(|(a, b)| b.unscored > a.unscored)
    })
}

/// What a phase with no outcome as reviewed is, for the text reports and the page.
pub const LEFT_OPEN: &str = "?N as reviewed: phases with no outcome as reviewed. A move read as invalid ended its phase; corrected to a valid move that does not reach the goal, the phase would go on past the replies recorded, and what the model would have answered next is not known, so the phase counts as neither a success nor a failure (the results page's review part counts it the same way).";

/// The report's text: what was applied, the agreement per phase, what was not found.
pub fn render(r: &ReviewReport) -> String {
    let mut out = format!(
        "Reviews ({}): {} in force, {} applied to replies of this folder.\n",
        r.file, r.reviews, r.applied
    );
    if !r.agreement.iter().any(|a| a.sure) {
        out.push_str("No sure reading reviewed in a random sample, so no precision of sure: review a seeded random sample (the review part of /results) to measure the reader.\n");
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

/// The totals as read (when `show_read`) and as reviewed, as tables, with what `?N` means
/// when a phase was left with no outcome as reviewed.
pub fn render_totals(read: &[Total], reviewed: &[Total], show_read: bool) -> String {
    let mut out = String::new();
    if show_read {
        out.push_str("\nAs read:\n");
        out.push_str(&totals_table(read));
    }
    out.push_str("\nAs reviewed (the reviewed readings in place of the reader's):\n");
    out.push_str(&totals_table(reviewed));
    if left_open(read, reviewed) {
        out.push_str(LEFT_OPEN);
        out.push('\n');
    }
    out
}
