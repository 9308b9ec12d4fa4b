//! The tests of `run.rs`.

use super::*;

#[test]
fn a_shard_is_read_as_i_of_n_and_nonsense_is_refused() {
    assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
    for bad in ["0/2", "3/2", "1/0", "x/2", "2", "1/2/3"] {
        assert!(Shard::parse(bad).is_err(), "{bad} is refused");
    }
}

#[test]
fn an_auto_shard_is_read_from_slurm_or_kubernetes_and_says_what_is_missing() {
    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| v.to_string())
        }
    }
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "8"),
    ];
    assert_eq!(
        Shard::from_arg("auto", env(&slurm)),
        Ok(Shard { index: 3, count: 8 })
    );
    let from_zero = [
        ("SLURM_ARRAY_TASK_ID", "0"),
        ("SLURM_ARRAY_TASK_MIN", "0"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    assert_eq!(
        Shard::from_arg("auto", env(&from_zero)),
        Ok(Shard { index: 1, count: 4 })
    );
    let k8s = [
        ("JOB_COMPLETION_INDEX", "7"),
        ("SHAPEMAZE_SHARD_COUNT", "8"),
    ];
    assert_eq!(
        Shard::from_arg("auto", env(&k8s)),
        Ok(Shard { index: 8, count: 8 })
    );
    assert_eq!(
        Shard::from_arg("2/5", env(&k8s)),
        Ok(Shard { index: 2, count: 5 }),
        "I/N wins"
    );
    let no_count = [("JOB_COMPLETION_INDEX", "0")];
    assert!(Shard::from_arg("auto", env(&no_count))
        .expect_err("refused")
        .to_string()
        .contains("SHAPEMAZE_SHARD_COUNT"));
    let stepped = [
        ("SLURM_ARRAY_TASK_ID", "2"),
        ("SLURM_ARRAY_TASK_STEP", "2"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    assert!(Shard::from_arg("auto", env(&stepped))
        .expect_err("refused")
        .to_string()
        .contains("step"));
    let outside = [
        ("JOB_COMPLETION_INDEX", "8"),
        ("SHAPEMAZE_SHARD_COUNT", "8"),
    ];
    assert!(Shard::from_arg("auto", env(&outside))
        .expect_err("refused")
        .to_string()
        .contains("shard 9 of 8"));
    let junk = [("SLURM_ARRAY_TASK_ID", "x")];
    assert!(Shard::from_arg("auto", env(&junk))
        .expect_err("refused")
        .to_string()
        .contains("'x'"));
    assert!(Shard::from_arg("auto", env(&[]))
        .expect_err("refused")
        .to_string()
        .contains("--shard I/N"));
}

#[test]
fn the_shards_of_a_design_cover_every_trial_once() {
    let design = ExperimentDesign::default();
    let mut ids: Vec<String> = (1..=3)
        .flat_map(|i| Shard { index: i, count: 3 }.keys(&design))
        .map(|k| k.id())
        .collect();
    ids.sort();
    let mut all: Vec<String> = design.trials().iter().map(TrialKey::id).collect();
    all.sort();
    assert_eq!(ids, all);
}

#[test]
fn a_log_gets_a_line_when_it_says_something_new_and_a_heartbeat_a_minute() {
    let mut log = LogLines::default();
    let at = Duration::from_secs;
    let waiting = "shapemaze: 0/2 done, 0 errors; m 2 in flight, concurrency 2/2; ETA ?";
    let written: Vec<bool> = [
        (waiting, 0),
        (waiting, 10),
        (waiting, 50),
        (waiting, 60),
        (waiting, 70),
        (
            "shapemaze: 1/2 done, 0 errors; m 1 in flight, concurrency 2/2; ETA 1m00s",
            80,
        ),
        (waiting, 90),
    ]
    .into_iter()
    .map(|(line, s)| log.admit(line, at(s)))
    .collect();
    assert_eq!(
        written,
        [true, false, false, true, false, true, true],
        "the same line only after 60 s; a new one at once"
    );
}

#[test]
fn the_log_interval_is_read_from_the_environment_and_falls_back_to_10_s() {
    assert_eq!(log_refresh(None), LOG_REFRESH);
    assert_eq!(log_refresh(Some("0.25")), Duration::from_millis(250));
    assert_eq!(log_refresh(Some(" 5 ")), Duration::from_secs(5));
    for bad in ["0", "-1", "soon", "NaN", "inf", ""] {
        assert_eq!(log_refresh(Some(bad)), LOG_REFRESH, "{bad}");
    }
}

#[test]
fn a_terminal_line_is_cut_to_one_row() {
    assert_eq!(fit("short", 80), "short");
    let long = "x".repeat(200);
    let cut = fit(&long, 80);
    assert_eq!(
        cut.chars().count(),
        79,
        "one column spare, so nothing wraps"
    );
    assert!(cut.ends_with('…'));
    assert_eq!(
        fit("abc", 1),
        "…",
        "a silly width still gives one character"
    );
}

#[test]
fn a_refused_connection_is_explained_without_browser_advice() {
    use shapemaze_core::batch::runner::test_support::unanswered;
    // A port nothing listens on: bind one, then let it go.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let transport = NativeTransport::new(NativeTransport::client().expect("a client"), 1);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime");
    let (cause, message) = runtime.block_on(unanswered(
        &format!("http://127.0.0.1:{port}/v1"),
        transport,
    ));
    let cause = cause.expect("the first failure was retried");
    let url = format!("http://127.0.0.1:{port}/v1/chat/completions");
    assert!(
        cause.starts_with(&format!("No answer from {url} (")),
        "{cause}"
    );
    assert!(
        message.starts_with(&format!("No answer from {url}.")),
        "{message}"
    );
    for text in [&cause, &message] {
        for word in ["CORS", "browser", "page", "make serve"] {
            assert!(
                !text.contains(word),
                "no '{word}' from the command line: {text}"
            );
        }
    }
}
