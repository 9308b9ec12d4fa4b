//! The sample trials the demo page ships (`public/trials/`, written by
//! `cargo run --example record_samples`) read back as trial records, are listed in the
//! index, and replay to the verdicts they record.

use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::player::PlayerKind;
use shapemaze::core::results::record::TrialRecord;
use shapemaze::core::results::replay::frames;
use std::sync::Arc;

#[test]
fn every_bundled_trial_reads_back_is_indexed_and_rescores_to_its_own_verdicts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/trials");
    let index: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("index.json")).expect("the index exists"),
    )
    .expect("the index is JSON");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the folder exists")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n != "index.json" && n != "races.json")
        .collect();
    files.sort();
    let mut listed: Vec<String> = index
        .iter()
        .map(|e| format!("{}.json", e["name"].as_str().expect("a name")))
        .collect();
    listed.sort();
    assert_eq!(files, listed, "the index lists exactly the bundled trials");
    for entry in &index {
        let name = entry["name"].as_str().expect("a name");
        let label = entry["label"].as_str().expect("a label");
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("readable");
        let record = TrialRecord::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            matches!(record.player, PlayerKind::Oracle | PlayerKind::Random),
            "{name}: bundled trials come from built-in players"
        );
        assert!(
            label.contains("built-in"),
            "{name}: labelled as such: {label}"
        );
        let again = record
            .rescored(Arc::new(TemplateLibrary::new(record.size)))
            .expect("replays");
        // The verdicts agree; how a reply was read (`rule`, `sure`) is new in verifier 5,
        // why a reading is unsure (`doubt`) in verifier 9, absent from trials bundled before.
        let judged = |v: &shapemaze::core::results::record::PhaseVerdicts| {
            v.all().map(|v| {
                v.cloned().map(|v| shapemaze::core::verify::Verdict {
                    rule: None,
                    sure: None,
                    doubt: None,
                    ..v
                })
            })
        };
        assert_eq!(
            judged(&again.verdicts),
            judged(&record.verdicts),
            "{name}: today's verifiers agree"
        );
        assert!(
            frames(&record).expect("frames").len() > 2,
            "{name}: steps to replay"
        );
    }
}

#[test]
fn every_bundled_race_names_two_indexed_trials_of_one_maze() {
    use shapemaze::core::results::race::{parse_race, Race, RaceSide};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/trials");
    let races: Vec<serde_json::Value> = serde_json::from_str(
        &std::fs::read_to_string(dir.join("races.json")).expect("the races exist"),
    )
    .expect("the races are JSON");
    assert!(!races.is_empty(), "the demo ships at least one race");
    let read = |side: &RaceSide| {
        let RaceSide::Bundled(name) = side else {
            panic!("a bundled race names bundled trials: {side:?}");
        };
        let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("indexed");
        TrialRecord::from_json(&text).expect("a record")
    };
    for r in &races {
        let param = r["race"].as_str().expect("a race parameter");
        assert!(r["label"].as_str().is_some_and(|l| l.contains("built-in")));
        let (a, b) = parse_race(param).expect("two sides");
        let race = Race::of(&read(&a), &read(&b)).expect("one maze");
        assert!(race.len() > 2, "{param}: steps to race");
    }
}

#[test]
fn every_bundled_study_file_reads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("public/studies");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("the folder exists") {
        let path = entry.expect("an entry").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        shapemaze::core::study::Study::from_json(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        n += 1;
    }
    assert!(n > 0, "at least one study ships");
}
