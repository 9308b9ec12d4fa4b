//! A participant's finished trial, for the tests of the layers that show or store study
//! data (the study's own, the view's, the command line's).

use super::*;
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;

/// A finished practice-free trial of participant `p1` in study "Pilot, 1", with a consent
/// record, two logged actions and the oracle's moves on a C maze.
pub fn data() -> StudyTrialData {
    use crate::play::player::PlayerKind;
    use crate::play::player::{play_ready, Oracle};
    use crate::play::trial::{Trial, TrialSetup};
    use crate::results::record::{Placement, PlayerInfo};
    let lib = crate::maze::templates::TemplateLibrary::new(5);
    let maze = crate::maze::generate::generate_one(Shape::C, 0, 1, &lib).expect("maze");
    let mut t = Trial::start(TrialSetup::new(Shape::C, Encoding::Matrix, maze));
    play_ready(&mut t, &mut Oracle);
    let mut log = ActionLog::default();
    log.push("move", "solve", "(1, 2)", 800.0);
    log.push("answer", "recognize", "a \"C\", I think", 2000.0);
    StudyTrialData {
        study: "Pilot, 1".into(),
        participant: Participant {
            id: "p1".into(),
            ..Default::default()
        },
        trial_index: 0,
        practice: false,
        record: crate::results::record::TrialRecord::of(
            &t,
            PlayerInfo::builtin(PlayerKind::Human),
            Placement {
                seed: 1,
                sample: 0,
                repeat: 0,
            },
            None,
            None,
        ),
        log,
        window: "1280x900".into(),
        consent: Some(ConsentRecord {
            at_ms: 1_764_000_000_000.0,
            study_version: "v2".into(),
            text_hash: "00ff00ff00ff00ff".into(),
        }),
        signals: HelpSignals::default(),
        attempt: 0,
        session_events: Vec::new(),
        planned: Some(1),
    }
}

/// The completed outcome of [`data`]'s participant: code `ABC`, one trial planned and
/// played.
pub fn outcome() -> OutcomeRecord {
    OutcomeRecord {
        study: "Pilot, 1".into(),
        participant: Participant {
            id: "p1".into(),
            ..Default::default()
        },
        attempt: 0,
        outcome: "completed".into(),
        code: Some("ABC".into()),
        planned: 1,
        played: vec![0],
    }
}
