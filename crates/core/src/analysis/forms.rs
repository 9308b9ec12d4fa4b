//! What a trial's answer mode leaves for the review queue (docs/guides/answer-modes.md):
//! the replies whose transcription our readers read otherwise
//! ([`transcription_disagreements`]). The label that keeps a mode's trials apart in every
//! table and the counts per phase are the record's ([`crate::results::forms`]).

use crate::analysis::review::ReplyKey;
use crate::play::answer::AnswerMode;
use crate::play::transcript::Role;
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
        let mut steps = [0usize; 3];
        for m in r.messages.iter().filter(|m| m.role == Role::Assistant) {
            let Some(f) = m.form.as_deref() else {
                continue;
            };
            for read in &f.read {
                let i = read.phase.index();
                if f.held && !read.agrees() {
                    out.push((trial.clone(), read.phase, steps[i]));
                }
                steps[i] += 1;
            }
        }
    }
    out
}
