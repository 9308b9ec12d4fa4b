//! Running the built `shapemaze` binary from integration tests (only they know where
//! cargo put it, so the example that shares `support` leaves this module out).

use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The result of one run of the binary.
pub struct Run {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Run {
    fn of(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    /// The single JSON object printed.
    pub fn json(&self) -> Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not one JSON object ({e}):\n{}", self.stdout))
    }

    /// Asserts a usage failure (bad arguments): status 2, one line on stderr containing
    /// `needle`.
    pub fn assert_usage_error(&self, needle: &str, what: &str) {
        self.assert_refused(2, needle, what);
    }

    /// Asserts an input failure (a file that cannot be read or is not what it should be):
    /// status 4, one line on stderr containing `needle`.
    pub fn assert_input_error(&self, needle: &str, what: &str) {
        self.assert_refused(4, needle, what);
    }

    /// Asserts a data failure (inputs that cannot be used together): status 5, one line
    /// on stderr containing `needle`.
    pub fn assert_data_error(&self, needle: &str, what: &str) {
        self.assert_refused(5, needle, what);
    }

    /// Asserts an output failure (a file that cannot be written): status 6, one line on
    /// stderr containing `needle`.
    pub fn assert_output_error(&self, needle: &str, what: &str) {
        self.assert_refused(6, needle, what);
    }

    /// Asserts a refusal with exit status `code` and one line on stderr containing
    /// `needle`.
    pub fn assert_refused(&self, code: i32, needle: &str, what: &str) {
        assert_eq!(
            self.code, code,
            "{what}: exit status (stderr: {})",
            self.stderr
        );
        assert_eq!(
            self.stderr.lines().count(),
            1,
            "{what}: one line on stderr, got:\n{}",
            self.stderr
        );
        assert!(
            self.stderr.starts_with("shapemaze: error: "),
            "{what}: {}",
            self.stderr
        );
        assert!(
            self.stderr.contains(needle),
            "{what}: stderr should mention '{needle}': {}",
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{what}: {}", self.stderr);
    }
}

/// Runs the binary with `args` and an empty stdin.
pub fn shapemaze(args: &[&str]) -> Run {
    shapemaze_with_stdin(args, b"")
}

/// Runs the binary with `args`, feeding `stdin`.
pub fn shapemaze_with_stdin(args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shapemaze"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(mut input) = child.stdin.take() {
        // A command that does not read stdin may close it first: ignore that.
        let _ = input.write_all(stdin);
    }
    Run::of(child.wait_with_output().expect("the binary finishes"))
}

/// Asserts that `shapemaze score DIR` replays all `n` transcripts of `dir` from their
/// replies (none counted from closing lines alone) and finds no verdict differing.
pub fn assert_all_replayed(dir: &Path, n: usize) {
    let score = shapemaze(&["score", path_str(dir)]);
    let replayed =
        format!("{n} re-scored from their replies, 0 counted from their closing lines only");
    assert!(
        score.stdout.contains(&replayed)
            && score.stdout.contains("differ from the recomputed ones: 0"),
        "{}",
        score.stdout
    );
}

/// A temporary path as text.
pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("temporary paths are UTF-8")
}

/// Runs the binary with `args` and extra environment variables, killed after `limit`.
#[allow(clippy::disallowed_methods)] // native only: a clock and sleeps (clippy.toml)
pub fn shapemaze_env(args: &[&str], env: &[(&str, &str)], limit: Duration) -> Run {
    let mut child = command(args, env).spawn().expect("the binary starts");
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().expect("the child can be polled").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child
                .wait_with_output()
                .expect("the killed binary is reaped");
            panic!(
                "shapemaze {args:?} took longer than {limit:?}; stderr:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("the binary finishes");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The binary with `args` and extra environment variables, its output piped.
pub fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_shapemaze"));
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}
