//! The study CSV: one row per action, jsPsych-like columns first.

use super::trial_data::StudyTrialData;
use crate::text::{csv_field, Fixed};

/// The columns of the study CSV (one row per action), jsPsych-like first.
pub const EVENT_COLUMNS: &[(&str, &str)] = &[
    (
        "trial_type",
        "what the row is: the action's kind (move, answer, paint, submit, focus, blur, ...)",
    ),
    (
        "trial_index",
        "0-based position of the trial in the participant's sequence (-1: practice)",
    ),
    ("time_elapsed", "milliseconds since the trial started"),
    ("rt", "milliseconds since the previous action of the trial"),
    (
        "participant",
        "the participant's id (PROLIFIC_PID or participant)",
    ),
    ("study_id", "Prolific's STUDY_ID, if given"),
    ("session_id", "Prolific's SESSION_ID, if given"),
    ("study", "the study's title"),
    ("practice", "true for the practice trial"),
    ("shape", "the maze's shape"),
    ("size", "the grid side"),
    ("encoding", "the encoding (what the text condition shows)"),
    ("seed", "the maze set's seed"),
    ("sample", "the maze's index in its set"),
    ("phase", "the phase the action happened in"),
    ("detail", "the cell, key, text as typed or drawn maze"),
    ("solve", "the trial's solve outcome"),
    ("recognize", "the trial's recognition outcome"),
    ("generate", "the trial's generation outcome"),
    (
        "consented_at",
        "when the participant consented, in milliseconds since 1970 (their clock)",
    ),
    ("study_version", "the study's version they consented to"),
    (
        "consent_hash",
        "a hash of the consent text they were shown (FNV-1a 64, hexadecimal)",
    ),
    (
        "pastes",
        "pastes during the trial (a sign of help, never a reason to block)",
    ),
    (
        "tab_leaves",
        "times the participant left the tab or window during the trial",
    ),
    ("away_ms", "milliseconds away from the tab during the trial"),
    (
        "answer_chars_per_s",
        "characters of typed answers per second (people rarely exceed 10)",
    ),
    (
        "attempt",
        "which attempt at the study (0 first; a restart, an expired session or a new version starts the next)",
    ),
    (
        "session_events",
        "what happened to the session up to the trial (kind: detail; ...)",
    ),
    (
        "step",
        "a staircase trial's place in the participant's walk (0 first; empty outside a staircase)",
    ),
    (
        "level",
        "the staircase level it was played at (0 the easiest; empty outside a staircase)",
    ),
    (
        "condition",
        "how the maze was shown: grid, or text (in the encoding above); empty in data from before it was kept",
    ),
];

/// The study CSV: a header, then one row per action of every trial.
pub fn events_csv(data: &[StudyTrialData]) -> String {
    let mut out: String = EVENT_COLUMNS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for d in data {
        let r = &d.record;
        let outcome = |v: Option<&crate::verify::Verdict>| {
            v.map(|v| v.outcome.name().to_string()).unwrap_or_default()
        };
        let [s, rc, g] = r.verdicts.all().map(outcome);
        let consent = d.consent.as_ref();
        let events = d
            .session_events
            .iter()
            .map(|e| match e.detail.as_str() {
                "" => e.kind.clone(),
                detail => format!("{}: {detail}", e.kind),
            })
            .collect::<Vec<_>>()
            .join("; ");
        for a in &d.log.actions {
            let row = [
                a.kind.clone(),
                d.trial_index.to_string(),
                (a.t_ms.round() as i64).to_string(),
                (a.dt_ms.round() as i64).to_string(),
                d.participant.id.clone(),
                d.participant.study_id.clone().unwrap_or_default(),
                d.participant.session_id.clone().unwrap_or_default(),
                d.study.clone(),
                d.practice.to_string(),
                r.shape.name().to_string(),
                r.size.to_string(),
                r.encoding.name().to_string(),
                r.seed.to_string(),
                r.sample.to_string(),
                a.phase.clone(),
                a.detail.clone(),
                s.clone(),
                rc.clone(),
                g.clone(),
                consent.map_or(String::new(), |c| (c.at_ms.round() as i64).to_string()),
                consent.map_or(String::new(), |c| c.study_version.clone()),
                consent.map_or(String::new(), |c| c.text_hash.clone()),
                d.signals.pastes.to_string(),
                d.signals.tab_leaves.to_string(),
                (d.signals.away_ms.round() as i64).to_string(),
                d.signals
                    .answer_chars_per_s
                    .map_or(String::new(), |c| format!("{c:.1}", c = Fixed(c))),
                d.attempt.to_string(),
                events.clone(),
                r.staircase.map_or(String::new(), |s| s.step.to_string()),
                r.staircase.map_or(String::new(), |s| s.level.to_string()),
                r.condition.map_or(String::new(), |c| c.name().to_string()),
            ];
            let line: Vec<String> = row.iter().map(|f| csv_field(f)).collect();
            out.push_str(&line.join(","));
            out.push('\n');
        }
    }
    out
}
