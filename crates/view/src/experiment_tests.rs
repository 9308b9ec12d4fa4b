//! The tests of `experiment.rs`.

use super::*;
use shapemaze_core::analysis::groups::in_group;
use shapemaze_core::analysis::observation::ALL;
use shapemaze_core::batch::design::{ExperimentDesign, PlayerSpec};
use shapemaze_core::batch::form::DesignForm;
use shapemaze_core::batch::scheduler::Scheduler;

#[test]
fn a_group_row_lists_its_trials_pooled_dimensions_matching_all() {
    use shapemaze_core::analysis::analyze::{analyze, AnalysisOptions};
    use shapemaze_core::play::player::{play_ready, Oracle};
    use shapemaze_core::play::trial::Trial;
    use shapemaze_core::results::record::{Placement, PlayerInfo};
    let d = ExperimentDesign {
        samples_per_shape: 1,
        ..ExperimentDesign::default()
    };
    let lib = std::sync::Arc::new(shapemaze_core::maze::templates::TemplateLibrary::new(5));
    let obs: Vec<Observation> = d
        .trials()
        .iter()
        .map(|k| {
            let maze = d.maze_for(k, &lib).expect("a maze");
            let mut t = Trial::new(d.setup_for(k, maze), lib.clone());
            play_ready(&mut t, &mut Oracle);
            let info = PlayerInfo::builtin(PlayerKind::Oracle);
            let r = shapemaze_core::results::record::TrialRecord::of(
                &t,
                info,
                Placement {
                    seed: 0,
                    sample: k.sample,
                    repeat: 0,
                },
                None,
                None,
            );
            Observation::from_record("e1", &r)
        })
        .collect();
    let a = analyze(&obs, &AnalysisOptions::default());
    let g = &a.groups[0];
    let n = obs.iter().filter(|o| in_group(o, g)).count();
    assert_eq!(n, g.trials);
    let pooled = a
        .pooled
        .iter()
        .find(|r| r.shape == ALL && r.encoding == ALL)
        .expect("a pooled row");
    assert_eq!(obs.iter().filter(|o| in_group(o, pooled)).count(), 12);
    let rows: Vec<(usize, &Observation, bool)> = obs
        .iter()
        .enumerate()
        .filter(|(_, o)| in_group(o, g))
        .map(|(i, o)| (i, o, i > 0))
        .collect();
    let h = trials_table("Trials of <g>", &rows);
    assert!(h.contains("Trials of &lt;g&gt;"));
    assert!(
        !h.contains("data-index=\"0\""),
        "a trial without its record has no replay button"
    );
    assert_eq!(h.matches("no replay").count(), 1);
    assert_eq!(h.matches("<td>success</td>").count(), 3 * n);
}

#[test]
fn the_estimate_line_says_what_a_run_costs() {
    let est = |trials, calls, tokens, cost| Estimate {
        trials,
        calls,
        tokens,
        cost,
        ..Estimate::default()
    };
    assert_eq!(
        estimate_line(&est(360, 0, 0, None), 1),
        "360 trials (360 per player); built-in players only: no model calls"
    );
    let l = estimate_line(&est(720, 6480, 1_234_567, None), 2);
    assert!(
        l.contains("at most 6480 model calls and about 1\u{202f}234\u{202f}567 tokens"),
        "{l}"
    );
    assert!(l.contains("720 trials (360 per player)"), "{l}");
    assert!(!l.contains('$'), "no price, no dollars: {l}");
    let priced = estimate_line(&est(720, 6480, 1_234_567, Some(3.456)), 2);
    assert!(
        priced.contains("at most about $3.46 at the prices given"),
        "{priced}"
    );
}

#[test]
fn the_progress_panel_shows_counts_lanes_and_state() {
    let d = ExperimentDesign::default();
    let mut s = Scheduler::for_design(&d);
    let p = s.progress(0.0);
    let lanes = s.lanes(0.0);
    let h = progress_panel(&p, &lanes, 0.0);
    assert!(h.contains("data-done=\"0\" data-total=\"360\""), "{h}");
    assert!(h.contains("0/360 trials"));
    assert!(h.contains("<th>oracle</th>"));
}

#[test]
fn the_list_offers_each_experiment_its_actions() {
    let items = [
        ListedExperiment {
            id: "a\"b".into(),
            name: "<x>".into(),
            done: 3,
            total: 10,
            api_errors: 1,
            open: false,
            running: false,
        },
        ListedExperiment {
            id: "c".into(),
            name: "c".into(),
            done: 10,
            total: 10,
            api_errors: 0,
            open: true,
            running: true,
        },
    ];
    let h = experiment_list(&items);
    assert!(h.contains("&lt;x&gt;") && h.contains("a&quot;b"));
    assert!(h.contains("stopped at 30%") && h.contains("1 API errors"));
    assert!(h.contains("data-action=\"delete\" data-id=\"a&quot;b\""));
    assert_eq!(
        h.matches("data-action=\"delete\"").count(),
        1,
        "not while running"
    );
    assert!(experiment_list(&[]).contains("No experiments stored"));
}

/// Every `data-action` value in `html`.
fn actions_in(html: &str) -> Vec<String> {
    html.split("data-action=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next().map(str::to_string))
        .collect()
}

#[test]
fn every_action_the_renderer_writes_is_one_the_page_reads() {
    for a in LabAction::ALL {
        assert_eq!(LabAction::parse(a.name()), Some(a), "{a:?} reads back");
    }
    let mut d = ExperimentDesign::default();
    d.players
        .push(PlayerSpec::endpoint("/proxy/openai", "gpt", None));
    let mut form = DesignForm::of(&d);
    form.mazes = Some("3".into());
    let mut written = actions_in(&design_form(&form, false));
    for (running, open) in [(false, false), (false, true), (true, true)] {
        written.extend(actions_in(&toolbar(ToolbarState {
            open,
            running,
            stored: 2,
            total: 4,
            api_errors: 1,
        })));
    }
    let listed = ListedExperiment {
        id: "e".into(),
        name: "e".into(),
        done: 1,
        total: 2,
        api_errors: 0,
        open: false,
        running: false,
    };
    written.extend(actions_in(&experiment_list(&[listed])));
    let unknown: Vec<&String> = written
        .iter()
        .filter(|w| LabAction::parse(w).is_none())
        .collect();
    assert!(
        unknown.is_empty(),
        "actions the page would not read: {unknown:?}"
    );
    for a in [
        LabAction::AddPlayer,
        LabAction::RemovePlayer,
        LabAction::ClearMazes,
        LabAction::Start,
        LabAction::Delete,
    ] {
        assert!(written.iter().any(|w| w == a.name()), "{a:?} is rendered");
    }
    // The player rows' field names are the form model's.
    let html = design_form(&form, false);
    // (The default design's oracle is row 0; the endpoint added is the last row.)
    let last = form.players.len() - 1;
    assert!(html.contains(&format!(
        "name=\"{}\"",
        DesignForm::field_name(Some(last), "model")
    )));
    assert!(html.contains(&format!(
        "name=\"{}\"",
        DesignForm::field_name(None, "kind")
    )));
}

#[test]
fn the_form_escapes_what_was_typed_and_carries_its_test_ids() {
    let mut d = ExperimentDesign {
        name: "Qwen <three> sizes".into(),
        ..ExperimentDesign::default()
    };
    d.players.push(PlayerSpec::endpoint(
        "/proxy/dashscope-intl",
        "qwen-plus",
        None,
    ));
    let mut form = DesignForm::of(&d);
    form.new.key = "sk-test".into();
    form.add_configured_player();
    form.mazes = Some("12".into());
    form.rpm = "120".into();
    form.move_limit = "20".into();
    let html = design_form(&form, false);
    for (name, testid, value) in [
        ("rpm", "design-rpm", "120"),
        ("move_limit", "design-move_limit", "20"),
        ("samples", "samples-per-shape", "30"),
    ] {
        let field = format!("name=\"{name}\" data-testid=\"{testid}\" value=\"{value}\"");
        assert!(
            html.contains(&field),
            "each number field shows its own value: {field}"
        );
    }
    assert!(
        html.contains("<input type=\"hidden\" name=\"mazes\" value=\"12\">"),
        "the imported mazes' count goes back with the form, so reading it keeps the notice"
    );
    assert!(
        html.contains("Qwen &lt;three&gt; sizes"),
        "the name is escaped"
    );
    assert!(html.contains("value=\"qwen-plus\""));
    assert!(html.contains("name=\"p1.key\""));
    for id in [
        "agent",
        "endpoint-preset",
        "endpoint-base-url",
        "endpoint-api-key",
        "endpoint-model",
        "endpoint-stream",
        "add-model",
        "samples-per-shape",
        "repeats-per-maze",
        "concurrency",
    ] {
        assert!(html.contains(&format!("data-testid=\"{id}\"")), "{id}");
    }
}
