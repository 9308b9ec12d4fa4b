//! Maze files against real NumPy, both ways: files `shapemaze generate --out` writes load in
//! `numpy.load` with the right dtype, shape and values; files `numpy.save` writes (several
//! dtypes, byte orders and versions) load in ours, and the ones we must refuse are refused.
//!
//! Needs `python3` with NumPy (`make test` installs it through scripts/setup.sh). Without
//! it these tests FAIL, on purpose: a skipped compatibility test proves nothing.
#![cfg(not(target_arch = "wasm32"))]

mod support;

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::npy::{self, NpyError};
use std::process::Command;
use support::run::{path_str, shapemaze};
use support::{write, TempDir};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/numpy_compat.py");

/// Runs the NumPy side; fails the test with its output when it fails.
fn python(args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("python3 is required for the NumPy compatibility test: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("No module named 'numpy'"),
        "NumPy is required for this test: run `scripts/setup.sh test` (or `make test`), which installs it.\n{stderr}"
    );
    assert!(
        out.status.success(),
        "tests/numpy_compat.py {} failed:\n{stderr}",
        args.join(" ")
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn maze_files_we_write_load_in_numpy_with_dtype_shape_and_values() {
    let dir = TempDir::new("numpy-ours");
    let out = path_str(dir.path());
    let run = shapemaze(&[
        "generate",
        "--shape",
        "all",
        "--size",
        "7",
        "--samples",
        "5",
        "--seed",
        "3",
        "--out",
        out,
    ]);
    assert_eq!(run.code, 0, "generate failed: {}", run.stderr);
    let jsonl = dir.path().join("mazes.jsonl");
    write(&jsonl, run.stdout.as_bytes());
    let said = python(&["check", path_str(dir.path()), path_str(&jsonl)]);
    assert!(
        said.contains("checked 40 maze files"),
        "all eight shapes x 5 mazes were checked: {said}"
    );
}

#[test]
fn maze_files_numpy_writes_load_in_ours_in_every_integer_and_float_dtype() {
    let dir = TempDir::new("numpy-theirs");
    python(&["write", path_str(dir.path())]);
    let reference =
        std::fs::read_to_string(dir.path().join("reference.txt")).expect("reference written");
    let expected = Encoding::Matrix
        .parse_grid(&reference, 5, 5)
        .expect("reference parses");
    let names = [
        "int8",
        "uint8",
        "int16",
        "int32_big_endian",
        "int64",
        "uint64_big_endian",
        "float32",
        "float64",
        "version_2",
    ];
    for name in names {
        let bytes =
            std::fs::read(dir.path().join(format!("ok_{name}.npy"))).expect("numpy wrote it");
        assert_eq!(
            npy::read(&bytes).as_ref(),
            Ok(&expected),
            "{name}: same maze as the reference"
        );
    }
}

#[test]
fn numpy_files_we_cannot_take_are_refused_with_the_reason() {
    let dir = TempDir::new("numpy-refused");
    python(&["write", path_str(dir.path())]);
    let read = |name: &str| {
        npy::read(
            &std::fs::read(dir.path().join(format!("bad_{name}.npy"))).expect("numpy wrote it"),
        )
    };
    assert_eq!(
        read("fortran_order"),
        Err(NpyError::FortranOrder),
        "Fortran order"
    );
    assert!(
        matches!(read("three_dimensional"), Err(NpyError::Shape(_))),
        "3-D: {:?}",
        read("three_dimensional")
    );
    assert!(
        matches!(read("bad_code"), Err(NpyError::Code { .. })),
        "code 7: {:?}",
        read("bad_code")
    );
    assert!(
        matches!(read("half_values"), Err(NpyError::Code { .. })),
        "0.5: {:?}",
        read("half_values")
    );
    assert!(
        matches!(read("strings"), Err(NpyError::Dtype(_))),
        "strings: {:?}",
        read("strings")
    );

    // And the command line says so in one line, with status 2.
    let reply = dir.path().join("reply.txt");
    write(&reply, b"Move: (0, 2)");
    let verify = |maze: &str| {
        let maze = dir.path().join(maze);
        shapemaze(&[
            "verify",
            "--phase",
            "move",
            "--shape",
            "C",
            "--maze",
            path_str(&maze),
            "--response",
            path_str(&reply),
        ])
    };
    verify("bad_fortran_order.npy").assert_input_error("Fortran order", "a Fortran-order file");
    let ok = verify("ok_int32_big_endian.npy");
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    assert_eq!(
        ok.json()["reason"],
        "valid_move",
        "P at (0, 3) steps to (0, 2)"
    );
}
