//! The export's tests (a child module of `export`, kept apart for the file's length).

use super::*;

#[test]
fn the_readme_documents_every_csv_column() {
    let readme = include_str!("../../../../docs/guides/models-and-experiments.md");
    for (name, what) in CSV_COLUMNS {
        assert!(
            readme.contains(&format!("| `{name}` | {what} |")),
            "docs/guides/models-and-experiments.md's trials.csv table lacks `{name}` as the code describes it"
        );
    }
}
use crate::maze::encoding::Encoding;
use crate::maze::generate::generate_set;
use crate::maze::grid::Maze;
use crate::maze::shape::Shape;
use crate::maze::templates::TemplateLibrary;
use crate::play::player::PlayerKind;
use crate::play::player::{play_ready, Oracle, Scripted, VARIANTS};
use crate::play::trial::{Protocol, Trial, TrialSetup};
use crate::results::record::{Placement, PlayerInfo};
use crate::results::rescore::{rescore, Hints, Libraries};
use crate::results::zip::Method;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!(
            "shapemaze-export-{name}-{}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn record_of(
    trial: &Trial,
    model: &str,
    kind: PlayerKind,
    sample: usize,
    repeat: usize,
) -> TrialRecord {
    TrialRecord::of(
        trial,
        PlayerInfo {
            kind,
            model: model.into(),
            endpoint: None,
            system_prompt: None,
        },
        Placement {
            seed: 0,
            sample,
            repeat,
        },
        Some(1_700_000_000_000.0),
        Some(1_700_000_000_500.0),
    )
}

/// Records from the oracle and every scripted variant, over a few mazes of every
/// shape, both encodings and the three protocols.
fn records() -> Vec<TrialRecord> {
    let mut out = Vec::new();
    for (s, shape) in Shape::ALL.into_iter().enumerate() {
        let lib = Arc::new(TemplateLibrary::for_shape(5, shape));
        let set: Vec<Maze> = generate_set(shape, 3, 0, &lib).expect("mazes");
        for (e, encoding) in Encoding::ALL.into_iter().enumerate() {
            for sample in 0..2 {
                let protocol = Protocol::ALL[(s + e + sample) % 3];
                let setup = TrialSetup {
                    protocol,
                    ..TrialSetup::new(shape, encoding, set[sample].clone())
                };
                let mut t = Trial::new(setup.clone(), lib.clone());
                play_ready(&mut t, &mut Oracle);
                out.push(record_of(&t, "oracle", PlayerKind::Oracle, sample, 0));
                for repeat in 0..2 {
                    let mut t = Trial::new(setup.clone(), lib.clone());
                    let v = (s + e + sample + repeat) % VARIANTS;
                    play_ready(&mut t, &mut Scripted::variant(v, set[2].clone()));
                    out.push(record_of(
                        &t,
                        "scripted/v1",
                        PlayerKind::Scripted,
                        sample,
                        repeat,
                    ));
                }
            }
        }
    }
    out
}

fn files_of(records: &[TrialRecord]) -> Vec<ExportFile> {
    export_files(&ExperimentDesign::default(), records, "test machine")
        .expect("written")
        .files
}

fn python_testzip(bytes: &[u8], name: &str) -> String {
    let dir = TempDir::new(name);
    let path = dir.0.join("export.zip");
    std::fs::write(&path, bytes).expect("the zip is written");
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print(len(z.namelist()))",
        ])
        .arg(&path)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "python's zipfile opens the archive: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn an_export_carries_its_provenance_and_item_matrix() {
    let records = records();
    let files = files_of(&records);
    let text = |name: &str| {
        let f = files.iter().find(|f| f.path == name).expect(name);
        String::from_utf8(f.bytes.clone()).expect("text")
    };
    let p = Provenance::from_json(&text(PROVENANCE_FILE)).expect("reads back");
    assert_eq!(p.format, crate::batch::provenance::PROVENANCE_FORMAT);
    assert_eq!(p.trials, records.len());
    assert_eq!(p.machine, "test machine");
    assert_eq!(p.design_sha256.len(), 64);
    assert_eq!(
        p.design_sha256,
        crate::batch::provenance::sha256_hex(
            &ExperimentDesign::default().to_json().expect("written")
        ),
        "the hash of experiment.json as written"
    );
    assert_eq!(
        text(EXPERIMENT_FILE),
        ExperimentDesign::default().to_json().expect("written")
    );
    assert!(p.record_versions.iter().map(|v| v.records).sum::<usize>() == records.len());
    let items = text(ITEMS_FILE);
    let mut lines = items.lines();
    assert_eq!(
        lines.next(),
        Some("shape,size,seed,sample,encoding,model,trials,solve,recognize,generate,condition")
    );
    let rows: Vec<&str> = lines.collect();
    assert!(!rows.is_empty());
    let trials: usize = rows
        .iter()
        .map(|r| {
            r.split(',')
                .nth(6)
                .expect("trials")
                .parse::<usize>()
                .expect("a count")
        })
        .sum();
    assert_eq!(trials, records.len(), "every trial in one row");
    for r in &rows {
        for share in r.split(',').skip(7).filter(|f| !f.is_empty()) {
            let x: f64 = share.parse().expect("a number");
            assert!((0.0..=1.0).contains(&x), "{r}");
        }
    }
}

#[test]
fn a_stored_export_zip_opens_with_python_s_zipfile() {
    let files = files_of(&records());
    let zip = export_zip(&files, None).expect("the zip is made");
    let out = python_testzip(&zip, "stored");
    assert_eq!(
        out,
        format!("None\n{}\n", files.len()),
        "testzip finds no bad file and every file is listed"
    );
}

#[test]
fn a_deflated_export_zip_opens_with_python_and_reads_back() {
    let records = records();
    let files = files_of(&records);
    let deflate = |d: &[u8]| miniz_oxide::deflate::compress_to_vec(d, 6);
    let zip = export_zip(&files, Some(&deflate)).expect("the zip is made");
    let stored = export_zip(&files, None).expect("the zip is made");
    assert!(zip.len() < stored.len() / 2, "deflate shrinks the export");
    let out = python_testzip(&zip, "deflated");
    assert!(
        out.starts_with("None\n"),
        "testzip finds no bad file: {out}"
    );
    let entries = read_zip(&zip).expect("read back");
    assert!(
        entries.iter().any(|e| e.method == Method::Deflated),
        "some entries are deflated"
    );
    let inflate = |d: &[u8]| {
        miniz_oxide::inflate::decompress_to_vec(d)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{e:?}")))
    };
    let back = import_bytes("export.zip", &zip, &inflate).expect("the import reads");
    assert_eq!(back, records, "every record comes back as it was");
}

#[test]
fn the_csv_has_a_row_per_trial_and_a_documented_value_for_every_column() {
    let mut records = records();
    records[0].model = "a, \"quoted\" model".into();
    records[0].messages[1].meta.latency_ms = Some(120.4);
    records[0].messages[1].meta.total_tokens = Some(50);
    let csv = trials_csv(&records);
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(
        lines.len(),
        records.len() + 1,
        "a header and one row per trial"
    );
    let header: Vec<&str> = lines[0].split(',').collect();
    let names: Vec<&str> = CSV_COLUMNS.iter().map(|c| c.0).collect();
    assert_eq!(header, names, "the header is CSV_COLUMNS");
    for contract in [
        "model",
        "encoding",
        "shape",
        "size",
        "seed",
        "sample",
        "repeat",
        "solve",
        "recognize",
        "generate",
        "moves",
        "valid_moves",
        "shortest_path",
        "failure",
        "predicted_shape",
        "player",
        "protocol",
        "api_error",
        "latency_ms",
        "total_tokens",
        "started_ms",
        "ended_ms",
    ] {
        assert!(names.contains(&contract), "column {contract} is present");
    }
    for (name, meaning) in CSV_COLUMNS {
        assert!(meaning.len() > 10, "column {name} is documented");
        assert!(
            csv_value(&records[0], name).is_some(),
            "column {name} has a value"
        );
        assert_eq!(
            names.iter().filter(|n| *n == name).count(),
            1,
            "column {name} is listed once"
        );
    }
    assert!(
        lines[1].contains("\"a, \"\"quoted\"\" model\""),
        "the model is quoted: {}",
        lines[1]
    );
    assert_eq!(csv_value(&records[0], "latency_ms").as_deref(), Some("120"));
    assert_eq!(
        csv_value(&records[0], "total_tokens").as_deref(),
        Some("50")
    );
    assert_eq!(
        csv_value(&records[1], "total_tokens").as_deref(),
        Some(""),
        "unknown is empty"
    );
    assert_eq!(csv_value(&records[0], "solve").as_deref(), Some("success"));
    assert_eq!(
        csv_value(&records[0], "nonsense"),
        None,
        "unknown columns have no value"
    );
}

#[test]
fn the_exported_folder_is_rescored_to_the_records_verdicts() {
    let records = records();
    let export =
        export_files(&ExperimentDesign::default(), &records, "test machine").expect("written");
    assert!(
        export.without_transcript.is_empty(),
        "every record finished"
    );
    assert!(export.maze_conflicts.is_empty(), "one maze per file");
    let dir = TempDir::new("score");
    write_folder(&dir.0, &export.files).expect("the folder is written");
    let mut libs = Libraries::new();
    let mut checked = 0;
    for r in &records {
        let rel = transcript_path(r);
        let text = std::fs::read_to_string(dir.0.join(&rel)).expect("the transcript is there");
        let path = ExportPath::parse(&rel).expect("the path is in the layout");
        let rescored = rescore(&text, &Hints::from(&path), &mut libs);
        let recorded = r.verdicts.all().map(|v| v.map(|v| v.outcome));
        assert_eq!(rescored.counted(), recorded, "{rel}: rescore agrees");
        assert!(
            rescored.differences().is_empty(),
            "{rel}: closing lines agree"
        );
        let maze_file = dir.0.join(maze_file_path(5, 5, r.shape, r.sample));
        let grid = npy::read(&std::fs::read(maze_file).expect("the maze file")).expect("npy");
        assert_eq!(
            Some(&grid),
            r.first_maze().ok().as_ref().map(Maze::grid),
            "{rel}: maze file"
        );
        checked += 1;
    }
    assert_eq!(checked, records.len(), "every transcript checked");
    assert!(
        dir.0.join("matrix_scripted-v1_results").is_dir(),
        "the model's folder name is sanitised"
    );
    let design = std::fs::read_to_string(dir.0.join(EXPERIMENT_FILE)).expect("the design");
    assert_eq!(
        ExperimentDesign::from_json(&design),
        Ok(ExperimentDesign::default()),
        "experiment.json is the design"
    );
}

#[test]
fn import_errors_name_the_file_and_line() {
    let records = records();
    let good = records[0].to_json().expect("written");
    let text = format!("{good}\n\n{good}\n{{\"player\": \"oracle\"}}\n");
    let err = parse_jsonl("mine.jsonl", &text).expect_err("line 4 is bad");
    assert_eq!(err.file, "mine.jsonl", "the file");
    assert_eq!(err.line, Some(4), "the line, counting the blank one");
    assert!(err.to_string().starts_with("mine.jsonl, line 4: "), "{err}");
    let mut broken = records[0].clone();
    broken.valid_moves = broken.moves + 1;
    let err =
        parse_jsonl("x.jsonl", &broken.to_json().expect("written")).expect_err("counts do not fit");
    assert!(err.to_string().contains("valid moves"), "{err}");
    let err =
        import_bytes("x.jsonl", b"", &|_| Err(std::io::Error::other("unused"))).expect_err("empty");
    assert!(err.to_string().contains("no trial records"), "{err}");
    let zip = export_zip(
        &[ExportFile {
            path: "notes.txt".into(),
            bytes: b"hi".to_vec(),
        }],
        None,
    )
    .expect("zip");
    let err = import_bytes("foreign.zip", &zip, &|_| {
        Err(std::io::Error::other("unused"))
    })
    .expect_err("foreign");
    assert!(
        err.to_string().starts_with("foreign.zip: ") && err.to_string().contains("trials.jsonl"),
        "{err}"
    );
    let files = vec![ExportFile {
        path: "run/trials.jsonl".into(),
        bytes: format!("{good}\nnot json\n").into_bytes(),
    }];
    let zip = export_zip(&files, None).expect("zip");
    let err = import_bytes("run.zip", &zip, &|_| Err(std::io::Error::other("unused")))
        .expect_err("bad line");
    assert!(
        err.to_string()
            .starts_with("run.zip: run/trials.jsonl, line 2: "),
        "the entry and line are named: {err}"
    );
}

#[test]
fn merge_adds_new_trials_skips_duplicates_and_keeps_stored_ones_on_conflict() {
    let records = records();
    let (stored, rest) = records.split_at(10);
    let mut changed = stored[3].clone();
    changed.seed = 42;
    let mut incoming: Vec<TrialRecord> = stored.iter().take(5).cloned().collect();
    incoming.push(changed);
    incoming.extend(rest.iter().cloned());
    incoming.push(rest[0].clone());
    let m = merge(stored, incoming);
    assert_eq!(
        m.new,
        rest.to_vec(),
        "only the trials not stored are new, once each"
    );
    assert_eq!(
        m.duplicates, 6,
        "five stored copies and one repeated new one"
    );
    assert_eq!(m.conflicts.len(), 1, "one conflict");
    assert_eq!(
        m.conflicts[0].id,
        TrialKey::of_record(&stored[3]).id(),
        "its id"
    );
    assert!(
        m.conflicts[0].message.contains("seed 0"),
        "{}",
        m.conflicts[0].message
    );
    let again = merge(&records, records.clone());
    assert!(again.new.is_empty(), "a full re-import adds nothing");
    assert_eq!(again.duplicates, records.len(), "everything is a duplicate");
}

#[test]
fn records_ids_are_distinct_in_the_test_set() {
    let records = records();
    let ids: std::collections::BTreeSet<String> = records
        .iter()
        .map(|r| TrialKey::of_record(r).id())
        .collect();
    assert_eq!(ids.len(), records.len(), "merge tests need distinct ids");
}
