//! What a trial's answer mode leaves for the review queue (docs/guides/answer-modes.md):
//! the replies whose transcription our readers read otherwise
//! ([`transcription_disagreements`]). The label that keeps a mode's trials apart in every
//! table and the counts per phase are the record's ([`crate::results::forms`]).

use crate::analysis::review::ReplyKey;
use crate::play::answer::AnswerMode;
use crate::results::forms::form_reads;
use crate::results::layout::ExportPath;
use crate::results::record::TrialRecord;

/// The replies of `records` whose transcription read them otherwise than our readers
/// (the `transcribed` mode, the transcription held): they join the review queue, where a
/// person says which reading is right.
pub fn transcription_disagreements(records: &[TrialRecord]) -> Vec<ReplyKey> {
    let mut out = Vec::new();
    for r in records
        .iter()
        .filter(|r| r.answer_mode == AnswerMode::Transcribed)
    {
        let trial = ExportPath::of_record(r).render();
        for f in form_reads(r) {
            if f.form.held && !f.read.agrees() {
                out.push((trial.clone(), f.read.phase, f.step));
            }
        }
    }
    out
}
