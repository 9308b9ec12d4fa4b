//! The command line's edges: the standard streams a command reads and writes ([`Io`]), why
//! a command stopped ([`CliError`], each kind with its exit status), and whole files read
//! and written with an error that names them.

use serde::Serialize;
use std::io::{self, Read, Write};
use std::path::Path;

/// Exit status of a command that ran, whatever it found.
pub const EXIT_OK: i32 = 0;
/// Exit status for bad arguments: an unknown command or option, a bad or missing value.
pub const EXIT_USAGE: i32 = 2;
/// Exit status when a file or folder named cannot be read or is not what it should be.
pub const EXIT_INPUT: i32 = 4;
/// Exit status when the inputs cannot be used together: a design asking for more mazes
/// than exist, a folder holding another design's run, shards that disagree, a trial the
/// design cannot play.
pub const EXIT_DATA: i32 = 5;
/// Exit status when the output cannot be written (a file, a folder, stdout).
pub const EXIT_OUTPUT: i32 = 6;
/// Exit status of a `shapemaze run` that finished with trials ended as API errors (the
/// endpoint failed; they were not judged): a script can tell, and rerun them with
/// `--retry-errors`.
pub const EXIT_API_ERRORS: i32 = 3;

/// The standard streams a command reads and writes.
pub struct Io<'a> {
    /// Where `verify --response -` reads from.
    pub stdin: &'a mut dyn Read,
    /// Where results go.
    pub stdout: &'a mut dyn Write,
    /// Where errors and side information go.
    pub stderr: &'a mut dyn Write,
}

impl Io<'_> {
    /// Writes `text` to stdout.
    pub fn out(&mut self, text: &str) -> Result<(), CliError> {
        self.stdout
            .write_all(text.as_bytes())
            .map_err(CliError::Output)
    }

    /// Writes `value` to stdout as one line of JSON.
    pub fn json_line<T: Serialize>(&mut self, value: &T) -> Result<(), CliError> {
        let text = serde_json::to_string(value)
            .map_err(|e| CliError::unwritable(format!("cannot write JSON: {e}")))?;
        self.out(&text)?;
        self.out("\n")
    }

    /// Writes one line of side information to stderr.
    pub fn note(&mut self, line: &str) -> Result<(), CliError> {
        writeln!(self.stderr, "shapemaze: {line}").map_err(CliError::Output)
    }
}

/// Why a command stopped, each kind with its exit status.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments ([`EXIT_USAGE`]).
    Usage(String),
    /// A file or folder that cannot be read or is not what it should be ([`EXIT_INPUT`]).
    Input(String),
    /// Inputs that cannot be used together ([`EXIT_DATA`]).
    Data(String),
    /// A file or folder that cannot be written ([`EXIT_OUTPUT`]).
    Unwritable(String),
    /// Writing to stdout failed ([`EXIT_OUTPUT`]; a closed pipe is not reported).
    Output(io::Error),
}

impl CliError {
    /// A usage error with `message`.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError::Usage(message.into())
    }

    /// An input error with `message`.
    pub fn input(message: impl Into<String>) -> Self {
        CliError::Input(message.into())
    }

    /// A data error with `message`.
    pub fn data(message: impl Into<String>) -> Self {
        CliError::Data(message.into())
    }

    /// An output error with `message`.
    pub fn unwritable(message: impl Into<String>) -> Self {
        CliError::Unwritable(message.into())
    }

    /// The exit status of this error.
    pub fn status(&self) -> i32 {
        match self {
            CliError::Usage(_) => EXIT_USAGE,
            CliError::Input(_) => EXIT_INPUT,
            CliError::Data(_) => EXIT_DATA,
            CliError::Unwritable(_) | CliError::Output(_) => EXIT_OUTPUT,
        }
    }

    /// The one line that says what to fix.
    pub fn message(&self) -> String {
        match self {
            CliError::Usage(m)
            | CliError::Input(m)
            | CliError::Data(m)
            | CliError::Unwritable(m) => m.clone(),
            CliError::Output(e) => format!("cannot write the output: {e}"),
        }
    }
}

impl From<shapemaze_core::text::UnknownName> for CliError {
    fn from(e: shapemaze_core::text::UnknownName) -> Self {
        CliError::Usage(e.to_string())
    }
}

impl From<shapemaze_core::maze::grid::SizeError> for CliError {
    fn from(e: shapemaze_core::maze::grid::SizeError) -> Self {
        CliError::Usage(e.to_string())
    }
}

/// Reads a whole file, with a one-line error naming it.
pub fn read_file(path: &str) -> Result<Vec<u8>, CliError> {
    std::fs::read(path).map_err(|e| CliError::input(format!("cannot read {path}: {e}")))
}

/// Writes a whole file, creating its folders first.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let fail = |e: io::Error| CliError::unwritable(format!("cannot write {}: {e}", path.display()));
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(fail)?;
    }
    std::fs::write(path, bytes).map_err(fail)
}
