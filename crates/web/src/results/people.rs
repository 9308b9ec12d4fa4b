//! `/results`' people: the scored trials of the studies run in this browser, one source
//! per study (`people: STUDY`), each trial with its participant and the solve phase's time
//! from the study's log, so the report pairs people with the models on the same mazes
//! (`table-people-models`, `chart-people-models`, drawn by
//! [`shapemaze_view::report_people`]).

use super::dashboard::Source;
use shapemaze_core::study::StudyTrialData;

/// The people's sources among the study trials stored in this browser: practice trials are
/// left out.
pub(super) fn people_sources(trials: Vec<StudyTrialData>) -> Vec<Source> {
    let mut groups: Vec<Source> = Vec::new();
    for d in trials {
        if d.practice {
            continue;
        }
        let label = format!("people: {}", d.study);
        let person = (d.participant_key(), d.solve_ms());
        match groups.iter_mut().find(|g| g.label == label) {
            Some(g) => {
                g.records.push(d.record);
                g.people.push(person);
            }
            None => groups.push(Source {
                label,
                id: None,
                records: vec![d.record],
                people: vec![person],
                transcripts: Vec::new(),
                audit: None,
                provenance: None,
                chosen: true,
            }),
        }
    }
    groups
}
