//! What every command's arguments share: the layout of a command's help, and the readers of
//! option values (a whole number, dollars, the shapes `--with` names), whose messages start
//! with "must" so that the refusal can put the option's name before them
//! ([`crate::args`]).

use crate::io::CliError;
use shapemaze_core::maze::shape::Shape;

/// How every command's help is laid out: `shapemaze NAME: what it does`, its usage, its
/// options, then the text after them (details, an example, the exit status).
pub const COMMAND_HELP: &str =
    "{name}: {about}\n\n{usage-heading} {usage}\n\n{all-args}{after-help}";

/// A value that must be a whole number: the message starts with "must", and [`refusal`]
/// puts the option's name before it.
pub fn whole<T: std::str::FromStr>(value: &str) -> Result<T, ValueError> {
    value
        .trim()
        .parse()
        .map_err(|_| ValueError::NotWhole(value.to_string()))
}

/// The shapes `--with` names (comma-separated; none when it is not given).
pub fn shapes_with(list: Option<&str>) -> Result<Vec<Shape>, CliError> {
    list.unwrap_or_default()
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| Shape::parse(s).map_err(CliError::from))
        .collect()
}

/// A value that must be an amount of dollars (a decimal number, `$` allowed): the message
/// starts with "must", as [`whole`]'s does.
pub fn dollars(value: &str) -> Result<f64, ValueError> {
    value
        .trim()
        .trim_start_matches('$')
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| ValueError::NotDollars(value.to_string()))
}

/// Parses `--rate`: `N` or `N/min`.
pub fn rate(value: &str) -> Result<u32, ValueError> {
    let n = value.trim().trim_end_matches("/min");
    n.parse()
        .map_err(|_| ValueError::NotRate(value.to_string()))
}

/// Why an option's value was refused; each holds the value as given. The messages of the
/// values clap reads ([`whole`], [`dollars`]) start with "must", so that [`refusal`] can put
/// the option's name before them.
///
/// [`refusal`]: crate::args
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Not a whole number.
    NotWhole(String),
    /// Not an amount of dollars.
    NotDollars(String),
    /// Not a rate of uploads per minute (`--rate`).
    NotRate(String),
}

impl std::fmt::Display for ValueError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueError::NotWhole(v) => write!(f, "must be a whole number, not '{v}'"),
            ValueError::NotDollars(v) => write!(f, "must be dollars, like 5 or 0.50, not '{v}'"),
            ValueError::NotRate(v) => write!(
                f,
                "--rate must be a whole number of uploads per minute (e.g. 60 or 60/min), not '{v}'"
            ),
        }
    }
}

impl std::error::Error for ValueError {}

impl From<ValueError> for CliError {
    fn from(e: ValueError) -> Self {
        CliError::Usage(e.to_string())
    }
}
