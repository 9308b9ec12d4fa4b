//! Each participant's outcome against the trials received: who was given a completion code,
//! how many scored trials their plan held, which arrived and which are missing. Built by
//! `shapemaze serve` over its store (`GET /api/study-reconcile.csv`) and by
//! `/study/manage` over the data in the browser.

use super::delivery::OutcomeRecord;
use super::trial_data::StudyTrialData;
use crate::text::csv_field;

/// One participant (one attempt) of one study, reconciled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reconciled {
    /// The study's title.
    pub study: String,
    /// The participant as stored (`id`, or `id#attempt-N`).
    pub participant: String,
    /// `completed` or `timed_out`; none while no outcome has arrived (still playing, left,
    /// or the outcome is on its way).
    pub outcome: Option<String>,
    /// The completion code (or redirect) given.
    pub code: Option<String>,
    /// Scored trials in the participant's plan (none when no trial or outcome says).
    pub expected: Option<usize>,
    /// The scored trial indexes received, in order.
    pub received: Vec<i64>,
    /// The trial indexes that should be there and are not: those the page held at the end
    /// (the outcome's `played`; with a completed outcome every planned trial too), or
    /// without an outcome every planned one not received.
    pub missing: Vec<i64>,
    /// How the participant was shown the mazes (`grid` or `text`), as their trials'
    /// records say; none when no trial says (none arrived, or data from before it was
    /// kept).
    pub condition: Option<String>,
}

impl Reconciled {
    /// The missing trials' indexes, separated by spaces.
    pub fn missing_list(&self) -> String {
        self.missing
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// What the row means, for people: `complete` (an outcome, every trial there),
    /// `missing trials` (an outcome, and trials it says were played are not here), `no
    /// outcome yet` (still playing, left, or the outcome is on its way: `missing` then
    /// lists the planned trials not here yet).
    pub fn status(&self) -> &'static str {
        match (&self.outcome, self.missing.is_empty()) {
            (None, _) => "no outcome yet",
            (Some(_), true) => "complete",
            (Some(_), false) => "missing trials",
        }
    }
}

/// Every participant of `trials` and `outcomes`, by study and participant.
pub fn reconcile(trials: &[StudyTrialData], outcomes: &[OutcomeRecord]) -> Vec<Reconciled> {
    let mut keys: Vec<(String, String)> = trials
        .iter()
        .map(|t| (t.study.clone(), t.participant_key()))
        .chain(
            outcomes
                .iter()
                .map(|o| (o.study.clone(), o.participant_key())),
        )
        .collect();
    crate::sort::sort_dedup(&mut keys);
    keys.into_iter()
        .map(|(study, participant)| {
            let mine: Vec<&StudyTrialData> = trials
                .iter()
                .filter(|t| t.study == study && t.participant_key() == participant)
                .collect();
            let outcome = outcomes
                .iter()
                .rfind(|o| o.study == study && o.participant_key() == participant);
            one(study, participant, &mine, outcome)
        })
        .collect()
}

fn one(
    study: String,
    participant: String,
    trials: &[&StudyTrialData],
    outcome: Option<&OutcomeRecord>,
) -> Reconciled {
    let mut got: Vec<i64> = trials.iter().map(|t| t.trial_index).collect();
    crate::sort::sort_dedup(&mut got);
    let expected = outcome
        .map(|o| o.planned)
        .or_else(|| trials.iter().filter_map(|t| t.planned).max());
    let planned = 0..expected.unwrap_or(0) as i64;
    let mut should: Vec<i64> = match outcome {
        Some(o) if o.outcome == "completed" => o.played.iter().copied().chain(planned).collect(),
        Some(o) => o.played.clone(),
        None => planned.collect(),
    };
    crate::sort::sort_dedup(&mut should);
    let condition = trials
        .iter()
        .rev()
        .find_map(|t| t.record.condition)
        .map(|c| c.name().to_string());
    Reconciled {
        study,
        participant,
        condition,
        outcome: outcome.map(|o| o.outcome.clone()),
        code: outcome.and_then(|o| o.code.clone()),
        expected,
        missing: should.into_iter().filter(|i| !got.contains(i)).collect(),
        received: got.into_iter().filter(|&i| i >= 0).collect(),
    }
}

/// The reconcile CSV's columns, each with what it holds.
pub const RECONCILE_COLUMNS: &[(&str, &str)] = &[
    ("study", "the study's title"),
    (
        "participant",
        "the participant's id (with #attempt-N from a second attempt on)",
    ),
    (
        "outcome",
        "completed or timed_out; empty while no outcome has arrived",
    ),
    (
        "code",
        "the completion code or redirect the participant was given",
    ),
    ("expected", "scored trials in the participant's plan"),
    ("received", "scored trials received"),
    ("missing", "how many trials are missing"),
    (
        "missing_trials",
        "the missing trials' indexes, separated by spaces (-1: practice)",
    ),
    (
        "status",
        "complete; missing trials (an outcome, and trials it says were played are not here); or no outcome yet",
    ),
    (
        "condition",
        "grid or text: how the participant was shown the mazes, as their trials say (empty when none does)",
    ),
];

/// The reconcile CSV: a header, then one row per participant.
pub fn reconcile_csv(rows: &[Reconciled]) -> String {
    let mut out = RECONCILE_COLUMNS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for r in rows {
        let fields = [
            r.study.clone(),
            r.participant.clone(),
            r.outcome.clone().unwrap_or_default(),
            r.code.clone().unwrap_or_default(),
            r.expected.map_or(String::new(), |n| n.to_string()),
            r.received.len().to_string(),
            r.missing.len().to_string(),
            r.missing_list(),
            r.status().to_string(),
            r.condition.clone().unwrap_or_default(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        out.push_str(&line.join(","));
        out.push('\n');
    }
    out
}
