//! The study manager's view of the data collected: each stored trial with the signs that
//! its participant may have had help, as a table of the report model.

use super::document::{Cell, Table};
use shapemaze_core::analysis::stats::Tally;
use shapemaze_core::batch::export::trials_csv_with;
use shapemaze_core::study::reconcile::{Reconciled, RECONCILE_COLUMNS};
use shapemaze_core::study::StudyTrialData;

/// The people's trials file: `trials.csv`'s columns for people's trials
/// ([`shapemaze_core::batch::export::CSV_COLUMNS`], whose `condition`, `encoding_shown`
/// and `shape_shown_before_answer` say what each person was shown), then these.
pub const STUDY_TRIALS_FILE: &str = "study-trials.csv";

/// The columns [`people_trials_csv`] adds after `trials.csv`'s, with what they hold.
pub const STUDY_TRIALS_COLUMNS: &[(&str, &str)] = &[
    ("study", "the study's title"),
    (
        "participant",
        "the participant's id (with #attempt-N from a second attempt on)",
    ),
    ("attempt", "which attempt at the study (0 first)"),
    (
        "trial",
        "the trial's place in the participant's order (0 first; -1 the practice)",
    ),
    (
        "practice",
        "true for the practice trial (never scored), else false",
    ),
];

/// The people's trials as CSV ([`STUDY_TRIALS_FILE`]): one row per trial, with the
/// participant, their condition, the encoding they were shown (`none` on the grid) and
/// every verdict, in the columns of `trials.csv` and [`STUDY_TRIALS_COLUMNS`].
pub fn people_trials_csv(trials: &[StudyTrialData]) -> String {
    let extra: Vec<&str> = STUDY_TRIALS_COLUMNS.iter().map(|(n, _)| *n).collect();
    trials_csv_with(
        &extra,
        trials.iter().map(|d| {
            (
                &d.record,
                vec![
                    d.study.clone(),
                    d.participant_key(),
                    d.attempt.to_string(),
                    d.trial_index.to_string(),
                    d.practice.to_string(),
                ],
            )
        }),
    )
}

/// How many participants each study has in each condition, and how many of them
/// completed it: the balance of a study's conditions (`table-study-conditions`).
pub fn conditions_table(rows: &[Reconciled]) -> Table {
    let mut t = Table::new(
        "study-conditions",
        "Participants in each condition, per study (as their trials say)".into(),
        &[
            ("study", "study"),
            ("condition", "condition"),
            ("participants", "participants"),
            ("complete", "complete"),
        ],
    );
    t.empty = Some("No participant's trial in this browser says its condition yet.".into());
    // Per study and condition: the participants who completed, of those who began.
    let mut counts: std::collections::BTreeMap<(&str, &str), Tally> =
        std::collections::BTreeMap::new();
    for r in rows {
        if let Some(c) = r.condition.as_deref() {
            counts
                .entry((r.study.as_str(), c))
                .or_default()
                .add(r.status() == "complete");
        }
    }
    for ((study, condition), completed) in counts {
        t.row(vec![
            Cell::text(study),
            Cell::text(condition),
            Cell::Count(completed.total),
            Cell::Count(completed.right),
        ]);
    }
    t
}

/// Answers typed faster than this (characters a second) are flagged: people rarely exceed
/// it.
pub const FAST_TYPING: f64 = 10.0;

/// The stored trials, one row each, with their help signals and a flag when any is
/// raised (a paste, time away, answers typed faster than [`FAST_TYPING`]). Flags are for
/// the experimenter to look at; nothing is rejected.
pub fn signals_table(trials: &[StudyTrialData]) -> Table {
    let mut t = Table::new(
        "study-signals",
        format!(
            "Trials stored in this browser, with signs of help (flagged, never blocked): {}",
            trials.len()
        ),
        &[
            ("participant", "participant"),
            ("study", "study"),
            ("trial", "trial"),
            ("pastes", "pastes"),
            ("tab_leaves", "left the tab"),
            ("away_s", "time away (s)"),
            ("answer_chars_per_s", "answer chars/s"),
            ("flag", "flag"),
        ],
    );
    t.empty = Some("No study data in this browser yet.".into());
    for d in trials {
        let s = &d.signals;
        let fast = s.answer_chars_per_s.is_some_and(|c| c > FAST_TYPING);
        let mut flags = Vec::new();
        if s.pastes > 0 {
            flags.push("pasted");
        }
        if s.tab_leaves > 0 {
            flags.push("left the tab");
        }
        if fast {
            flags.push("fast answer");
        }
        t.row(vec![
            Cell::text(&d.participant.id),
            Cell::text(&d.study),
            Cell::Text(if d.practice {
                "practice".into()
            } else {
                d.trial_index.to_string()
            }),
            Cell::Count(s.pastes),
            Cell::Count(s.tab_leaves),
            Cell::Number(Some(s.away_ms / 1000.0)),
            Cell::Number(s.answer_chars_per_s),
            Cell::Text(flags.join(", ")),
        ]);
    }
    t
}

/// Each participant's outcome against the trials held, one row each, the missing trials
/// listed (the columns of the reconcile CSV).
pub fn participants_table(rows: &[Reconciled]) -> Table {
    let columns: Vec<(&str, &str)> = RECONCILE_COLUMNS
        .iter()
        .map(|&(key, _)| (key, key))
        .collect();
    let missing = rows
        .iter()
        .filter(|r| r.status() == "missing trials")
        .count();
    let n = rows.len();
    let mut t = Table::new(
        "study-participants",
        format!(
            "Participants: each outcome against the trials held here ({n} participant{}, {missing} with missing trials)",
            if n == 1 { "" } else { "s" }
        ),
        &columns,
    );
    t.empty = Some("No participant in this browser yet.".into());
    for r in rows {
        t.row(vec![
            Cell::text(&r.study),
            Cell::text(&r.participant),
            Cell::Text(r.outcome.clone().unwrap_or_default()),
            Cell::Text(r.code.clone().unwrap_or_default()),
            Cell::Text(r.expected.map_or(String::new(), |n| n.to_string())),
            Cell::Count(r.received.len()),
            Cell::Count(r.missing.len()),
            Cell::Text(r.missing_list()),
            Cell::text(r.status()),
            Cell::Text(r.condition.clone().unwrap_or_default()),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use shapemaze_core::study::HelpSignals;

    #[test]
    fn flags_follow_the_signals() {
        let signals = [
            HelpSignals::default(),
            HelpSignals {
                pastes: 1,
                tab_leaves: 2,
                away_ms: 8_500.0,
                answer_chars_per_s: Some(25.0),
            },
        ];
        let flags: Vec<String> = signals
            .iter()
            .map(|s| {
                let mut d = shapemaze_core::study::test_support::data();
                d.signals = *s;
                let t = signals_table(&[d]);
                match &t.rows[0].cells[7] {
                    Cell::Text(f) => f.clone(),
                    other => panic!("{other:?}"),
                }
            })
            .collect();
        assert_eq!(flags, ["", "pasted, left the tab, fast answer"]);
        let empty = signals_table(&[]);
        assert_eq!(
            empty.empty.as_deref(),
            Some("No study data in this browser yet.")
        );
    }

    #[test]
    fn the_participants_table_lists_the_missing_trials_under_the_csv_columns() {
        let mut d = shapemaze_core::study::test_support::data();
        d.planned = Some(3);
        let rows = shapemaze_core::study::reconcile::reconcile(&[d], &[]);
        let t = participants_table(&rows);
        assert_eq!(t.id, "study-participants");
        assert_eq!(t.columns.len(), RECONCILE_COLUMNS.len());
        assert!(
            t.caption.contains("(1 participant, 0 with missing trials)"),
            "{}",
            t.caption
        );
        let cells: Vec<String> = t.rows[0]
            .cells
            .iter()
            .map(|c| match c {
                Cell::Text(s) => s.clone(),
                Cell::Count(n) => n.to_string(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            cells[2..],
            ["", "", "3", "1", "2", "1 2", "no outcome yet", ""].map(String::from)
        );
    }

    #[test]
    fn the_conditions_table_counts_each_study_s_participants_per_condition() {
        use shapemaze_core::play::condition::Condition;
        let mut trials = Vec::new();
        for (who, condition, done) in [
            ("a", Condition::Grid, true),
            ("b", Condition::Text, true),
            ("c", Condition::Grid, false),
        ] {
            let mut d = shapemaze_core::study::test_support::data();
            d.participant.id = who.into();
            d.record.condition = Some(condition);
            d.planned = Some(if done { 1 } else { 2 });
            trials.push(d);
        }
        let mut old = shapemaze_core::study::test_support::data();
        old.participant.id = "old".into();
        trials.push(old);
        let outcomes: Vec<_> = ["a", "b"]
            .iter()
            .map(|who| {
                let mut o = shapemaze_core::study::test_support::outcome();
                o.participant.id = (*who).into();
                o
            })
            .collect();
        let rows = shapemaze_core::study::reconcile::reconcile(&trials, &outcomes);
        let t = conditions_table(&rows);
        let cells: Vec<Vec<String>> = t
            .rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| match c {
                        Cell::Text(s) => s.clone(),
                        Cell::Count(n) => n.to_string(),
                        other => format!("{other:?}"),
                    })
                    .collect()
            })
            .collect();
        assert_eq!(
            cells,
            [["Pilot, 1", "grid", "2", "1"], ["Pilot, 1", "text", "1", "1"]]
                .map(|r| r.map(String::from).to_vec()),
            "two grid participants (one complete), one text; the one whose data has no condition is not counted"
        );
    }

    #[test]
    fn the_people_s_trials_csv_has_trials_csv_s_columns_then_the_participant_s() {
        use shapemaze_core::play::condition::Condition;
        let mut d = shapemaze_core::study::test_support::data();
        d.study = "pilot".into();
        d.record.condition = Some(Condition::Grid);
        d.record.shape_shown_before_answer = Some(false);
        d.attempt = 1;
        let csv = people_trials_csv(&[d]);
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
        let row: Vec<&str> = lines.next().expect("a row").split(',').collect();
        let at = |name: &str| {
            let i = header
                .iter()
                .position(|h| *h == name)
                .unwrap_or_else(|| panic!("no column {name}: {header:?}"));
            row[i]
        };
        assert_eq!(header.len(), row.len(), "{csv}");
        assert_eq!(
            header[header.len() - STUDY_TRIALS_COLUMNS.len()..],
            ["study", "participant", "attempt", "trial", "practice"]
        );
        assert_eq!(at("player"), "human");
        assert_eq!(at("condition"), "grid");
        assert_eq!(
            at("encoding_shown"),
            "none",
            "a grid person saw no encoding"
        );
        assert_eq!(at("shape_shown_before_answer"), "false");
        assert_eq!(
            (at("solve"), at("recognize"), at("generate")),
            ("success", "success", "success")
        );
        assert_eq!(at("participant"), "p1#attempt-1");
        assert_eq!(
            (at("attempt"), at("trial"), at("practice")),
            ("1", "0", "false")
        );
    }
}
