//! Trial records of every format version the project has written read back to the values
//! they read to when they were stored (tests/fixtures/records/README.md).

use shapemaze::core::results::record::TrialRecord;
use std::path::Path;

#[test]
fn records_of_every_format_version_read_back_to_the_same_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    names.sort();
    assert!(names.len() >= 6, "{names:?}");
    for path in names {
        let text = std::fs::read_to_string(&path).expect("a fixture");
        let mut shown = String::new();
        for (i, line) in text.lines().enumerate() {
            let r = TrialRecord::from_json(line)
                .unwrap_or_else(|e| panic!("{}:{}: {e}", path.display(), i + 1));
            let again = TrialRecord::from_json(&r.to_json().expect("writes")).expect("reads");
            assert_eq!(
                again,
                r,
                "{}:{} written and read again",
                path.display(),
                i + 1
            );
            shown.push_str(&r.to_json().expect("writes"));
            shown.push('\n');
        }
        let golden = path.with_extension("read");
        if std::env::var_os("SHAPEMAZE_BLESS").is_some() {
            std::fs::write(&golden, &shown).expect("blessed");
        }
        let want = std::fs::read_to_string(&golden).expect("the values read before");
        assert!(
            want == shown,
            "{} reads to other values than it did",
            path.display()
        );
    }
}
