//! The study manager's view of the data collected: each stored trial with the signs that
//! its participant may have had help, as a table of the report model.

use super::document::{Cell, Table};
use shapemaze_core::study::reconcile::{Reconciled, RECONCILE_COLUMNS};
use shapemaze_core::study::StudyTrialData;

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
            ["", "", "3", "1", "2", "1 2", "no outcome yet"].map(String::from)
        );
    }
}
