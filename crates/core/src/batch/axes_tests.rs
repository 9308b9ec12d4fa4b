//! The design's axes beyond encoding, shape and size, tested on the design: reasoning
//! efforts (each endpoint player once per effort) and the matrix's symbols.

use super::design::{ExperimentDesign, PlayerSpec};
use crate::model::effort::Effort;
use crate::play::player::PlayerKind;

fn design(efforts: &[Effort]) -> ExperimentDesign {
    let mut d = ExperimentDesign::default();
    d.players.push(PlayerSpec::endpoint(
        "http://localhost:8080/v1",
        "qwen3-8b",
        None,
    ));
    d.efforts = efforts.to_vec();
    d
}

#[test]
fn each_endpoint_player_runs_once_per_effort_under_its_own_name() {
    let d = design(&[Effort::Low, Effort::NoThinking]);
    let runs: Vec<(String, Option<Effort>)> =
        d.runs().iter().map(|p| (p.name(), p.effort)).collect();
    assert_eq!(
        runs,
        vec![
            ("oracle".into(), None),
            ("qwen3-8b@low".into(), Some(Effort::Low)),
            ("qwen3-8b@no-thinking".into(), Some(Effort::NoThinking)),
        ]
    );
    assert!(d.validate().is_ok(), "{:?}", d.validate());
    assert_eq!(d.trials().len(), 3 * 360, "the standard 360 trials per run");
    let info = d
        .player("qwen3-8b@no-thinking")
        .and_then(|p| p.endpoint_info())
        .expect("an endpoint run");
    assert_eq!(
        (info.effort, info.thinking),
        (Some(Effort::NoThinking), false)
    );
    let record_json = serde_json::to_string(&info).expect("json");
    assert!(
        record_json.contains("\"effort\":\"no-thinking\""),
        "{record_json}"
    );
    // Without efforts, nothing changes: one run per player, no effort field.
    let plain = design(&[]);
    assert_eq!(plain.runs(), plain.players);
    assert!(!plain.to_json().expect("written").contains("efforts"));
    let info = plain.players[1].endpoint_info().expect("an endpoint");
    assert!(!serde_json::to_string(&info)
        .expect("json")
        .contains("effort"));
}

#[test]
fn efforts_without_a_model_twice_or_beside_a_player_s_own_are_refused() {
    let problems = |d: &ExperimentDesign| d.validate().err().map(|e| e.problems.join("; "));
    let mut d = design(&[Effort::High]);
    d.players.retain(|p| p.kind != PlayerKind::Endpoint);
    assert!(problems(&d).is_some_and(|p| p.contains("apply to model endpoints")));
    let d = design(&[Effort::High, Effort::High]);
    assert!(problems(&d).is_some_and(|p| p.contains("listed twice")));
    let mut d = design(&[Effort::High]);
    d.players[1].effort = Some(Effort::Low);
    assert!(problems(&d).is_some_and(|p| p.contains("would both set it")));
    // A player's own effort alone is a setting, not an axis.
    d.efforts.clear();
    assert!(d.validate().is_ok());
    assert_eq!(d.runs()[1].name(), "qwen3-8b");
}

#[test]
fn a_design_file_names_its_efforts_and_reads_back() {
    let d = design(&[Effort::Thinking, Effort::NoThinking]);
    let text = d.to_json().expect("written");
    assert!(
        text.contains("\"efforts\": [\n    \"thinking\",\n    \"no-thinking\"\n  ]"),
        "{text}"
    );
    assert_eq!(ExperimentDesign::from_json(&text).expect("reads back"), d);
    let bad = text.replace("\"thinking\",", "\"deep\",");
    let err = ExperimentDesign::from_json(&bad).expect_err("refused");
    assert!(err.to_string().contains("unknown variant `deep`"), "{err}");
}

#[test]
fn the_runs_of_one_endpoint_share_its_concurrency_and_requests_per_minute() {
    let mut d = design(&[Effort::Low, Effort::High, Effort::Xhigh]);
    d.requests_per_minute = Some(60);
    let lanes: Vec<(String, usize, Option<u32>)> = crate::batch::scheduler::lanes_for(&d, None)
        .into_iter()
        .map(|l| (l.name, l.max_concurrency, l.requests_per_minute))
        .collect();
    assert_eq!(
        lanes,
        vec![
            ("oracle".into(), 4, None),
            ("qwen3-8b@low".into(), 1, Some(20)),
            ("qwen3-8b@high".into(), 1, Some(20)),
            ("qwen3-8b@xhigh".into(), 1, Some(20)),
        ]
    );
    let scheduler = crate::batch::scheduler::Scheduler::for_design(&d);
    assert_eq!(scheduler.progress(0.0).players.len(), 4, "one lane per run");
}
