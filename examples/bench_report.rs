//! Benchmark of `shapemaze report`'s budget (issue 8): over 1,080 trials (3 models x 360:
//! 2 encodings x 6 shapes x 30 mazes, played by the core's scripted players), read a
//! `trials.jsonl`, re-score every record, analyse, and write the text-free outputs (JSON,
//! CSV and the HTML report). Budget: < 1 s natively.
//!
//! Run with `cargo run --profile bench-native --example bench_report [ROUNDS]`.
#![allow(clippy::disallowed_methods)] // native only: clocks and threads (clippy.toml)

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/support/mod.rs"]
mod support;

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use shapemaze::cli::report::read_observations;
    use shapemaze::core::analysis::analyze::{analyze, AnalysisOptions};
    use shapemaze::core::analysis::hypotheses::DEFAULT_MODEL_ORDER;
    use shapemaze::core::analysis::observation::observations_csv;
    use shapemaze::core::maze::encoding::Encoding;
    use shapemaze::core::maze::generate::generate_set;
    use shapemaze::core::maze::shape::Shape;
    use shapemaze::core::maze::templates::TemplateLibrary;
    use shapemaze::core::play::player::PlayerKind;
    use shapemaze::core::results::items::item_matrix_csv;
    use shapemaze::core::results::record::{Placement, PlayerInfo, TrialRecord};
    use shapemaze::view::document::csv;
    use shapemaze::view::report::report_html;
    use shapemaze::view::report_charts::groups_table;
    use std::time::{Duration, Instant};

    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let library = TemplateLibrary::new(5);
    let mut lines = Vec::new();
    for (m, model) in DEFAULT_MODEL_ORDER.iter().enumerate() {
        for shape in Shape::STANDARD {
            let set = generate_set(shape, 31, 0, &library).expect("31 mazes exist");
            for i in 0..30 {
                for encoding in Encoding::ALL {
                    let trial =
                        support::play(shape, encoding, &set[i], &set[i + 1], i + m, &library);
                    let record = TrialRecord::of(
                        &trial,
                        PlayerInfo {
                            kind: PlayerKind::Scripted,
                            model: model.to_string(),
                            endpoint: None,
                            system_prompt: None,
                        },
                        Placement {
                            seed: 0,
                            sample: i,
                            repeat: 0,
                        },
                        None,
                        None,
                    );
                    lines.push(record.to_json().expect("written"));
                }
            }
        }
    }
    let dir = support::TempDir::new("bench-report");
    support::write(
        &dir.path().join("trials.jsonl"),
        (lines.join("\n") + "\n").as_bytes(),
    );
    println!(
        "{} trials in trials.jsonl ({} KB)",
        lines.len(),
        lines.iter().map(String::len).sum::<usize>() / 1024
    );

    let mut best = [Duration::MAX; 4];
    let mut sizes = (0, 0, 0);
    for _ in 0..rounds {
        let t0 = Instant::now();
        let (obs, _) =
            read_observations(dir.path(), &Default::default()).expect("the folder reads");
        let t1 = Instant::now();
        let analysis = analyze(&obs, &AnalysisOptions::default());
        let t2 = Instant::now();
        let json = serde_json::to_string(&analysis).expect("serializes");
        let csv = csv::write(&groups_table("csv", "", &analysis.groups, true));
        let items = item_matrix_csv(obs.iter().map(|o| o.item()));
        let html = report_html(&analysis, "", "bench", &observations_csv(&obs), &items);
        let t3 = Instant::now();
        sizes = (json.len(), csv.len(), html.len());
        for (b, d) in best.iter_mut().zip([t1 - t0, t2 - t1, t3 - t2, t3 - t0]) {
            *b = (*b).min(d);
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "best of {rounds}: read + re-score {:.1} ms, analyse {:.1} ms, JSON + CSV + HTML {:.1} ms; total {:.1} ms (budget 1000 ms)",
        ms(best[0]),
        ms(best[1]),
        ms(best[2]),
        ms(best[3])
    );
    println!(
        "output sizes: JSON {} KB, CSV {} KB, HTML {} KB",
        sizes.0 / 1024,
        sizes.1 / 1024,
        sizes.2 / 1024
    );
    if best[3] >= Duration::from_secs(1) {
        eprintln!("over budget");
        std::process::exit(1);
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
