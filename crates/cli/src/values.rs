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
pub fn whole<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value
        .trim()
        .parse()
        .map_err(|_| format!("must be a whole number, not '{value}'"))
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
pub fn dollars(value: &str) -> Result<f64, String> {
    value
        .trim()
        .trim_start_matches('$')
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("must be dollars, like 5 or 0.50, not '{value}'"))
}
