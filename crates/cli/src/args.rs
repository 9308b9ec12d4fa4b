//! The command line's grammar, on clap (derive): the commands and their options, the help
//! every command prints, and the translation of clap's refusals into the one-line messages
//! a person can act on (`unknown option --colour for `shapemaze generate` (see ...)`), each
//! a [`CliError::Usage`].
//!
//! Each command's options are a struct in that command's module (`generate::GenerateArgs`
//! and so on); this module joins them. Values whose meaning belongs to the core (shapes,
//! phases, encodings, scorings) stay text here and are read by the core's own parsers, so a
//! mistake gets the same message in the terminal as on the page.

use super::export::ExportArgs;
use super::generate::GenerateArgs;
use super::report::ReportArgs;
use super::run::{MergeArgs, RunArgs};
use super::score::ScoreArgs;
use super::serve::ServeArgs;
use super::verify::VerifyArgs;
use crate::io::CliError;
use crate::values::COMMAND_HELP;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};

const COMMANDS: &str = "generate, verify, score, report, run, merge, export or serve";

/// `shapemaze`: the whole command line.
#[derive(Debug, Parser)]
#[command(
    name = "shapemaze",
    version,
    about = "Shapemaze's command-line companion. Generate maze sets, check one reply, and
re-score a folder of transcripts, by exactly the rules the browser app uses.",
    help_template = COMMAND_HELP,
    disable_help_subcommand = true,
    subcommand_value_name = "COMMAND",
    after_help = "Run `shapemaze <command> --help` (or `shapemaze help <command>`) for a command's options and an
example.

Examples:
  shapemaze generate --shape all --size 5 --samples 30 --seed 0 --out export/
  echo 'Shape: a spiral' | shapemaze verify --phase recognize --shape spiral --response -
  shapemaze score export/
  shapemaze run experiment.json --out results/ --shard 1/4
  shapemaze export --format every-eval-ever results/

Exit status: 0 when the command ran (whatever the verdicts); 3 when `run` finished with
trials that ended as API errors; and with one line on stderr saying what to fix: 2 for bad
arguments, 4 for a file that cannot be read or is not what it should be, 5 for inputs that
cannot be used together (another design's folder, shards that disagree, more mazes than
exist), 6 when the output cannot be written."
)]
pub struct Cli {
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print maze sets as JSON lines; --out DIR also writes .npy maze files.
    Generate(GenerateArgs),
    /// Check one reply (move, path, recognize, generate) and print the JSON verdict.
    Verify(VerifyArgs),
    /// Re-score every transcript under a folder and list recorded verdicts that differ.
    Score(ScoreArgs),
    /// Host the app, proxy chat requests with server-held keys, store study uploads.
    Serve(ServeArgs),
    /// The dashboard's measures, analyses and H1-H4 verdicts for a folder.
    Report(ReportArgs),
    /// Play an experiment design headless (resumable, --shard I/N) into an export folder.
    Run(RunArgs),
    /// Join the export folders of sharded runs into one.
    Merge(MergeArgs),
    /// Write a run folder in a shared evaluation format (every-eval-ever).
    Export(ExportArgs),
    /// This text, or a command's options with `shapemaze help <command>`.
    #[command(help_template = COMMAND_HELP, display_name = "shapemaze help")]
    Help {
        /// The command to explain.
        command: Option<String>,
    },
}

/// What the arguments ask for: text to print (help, the version), or a command to run.
#[derive(Debug)]
pub enum Parsed {
    /// Print this and exit 0.
    Print(String),
    /// Run this command.
    Run(Command),
}

/// Reads the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Parsed, CliError> {
    let argv = std::iter::once("shapemaze".to_string()).chain(args.iter().cloned());
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Command::Help { command },
        }) => help(command.as_deref()).map(Parsed::Print),
        Ok(cli) => Ok(Parsed::Run(cli.command)),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Ok(Parsed::Print(e.render().to_string()))
        }
        Err(e) => Err(refusal(&e, args.first().map(String::as_str))),
    }
}

/// The help of `command`, or the whole command line's without one.
pub fn help(command: Option<&str>) -> Result<String, CliError> {
    let mut cli = Cli::command();
    let Some(name) = command else {
        return Ok(cli.render_help().to_string());
    };
    let known = cli.get_subcommands().any(|s| s.get_name() == name) && name != "help";
    if !known {
        return Err(CliError::usage(format!(
            "no help for '{name}': the commands are generate, verify, score, serve, report, run, merge and export"
        )));
    }
    // The command's own `--help`, so it reads the same whichever way it is asked for.
    match cli.try_get_matches_from_mut(["shapemaze", name, "--help"]) {
        Err(e) if e.kind() == ErrorKind::DisplayHelp => Ok(e.render().to_string()),
        _ => Err(CliError::usage(format!("no help for '{name}'"))),
    }
}

/// What the arguments that are not options of `command` are, in a person's words.
fn positionals(command: &str) -> Option<(&'static str, &'static str)> {
    // (what a missing one is called, what one too many is called)
    match command {
        "score" | "report" | "export" => Some(("a folder", "one folder")),
        "run" => Some(("a design file", "one design file")),
        "merge" => Some(("OUT and at least one DIR", "OUT and DIRs")),
        "help" => Some(("a command", "one command")),
        _ => None,
    }
}

/// The option or argument a clap error is about, as a person types it: `--shape`, `DIR`.
fn about_arg(e: &clap::Error) -> Option<String> {
    let text = match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(s) => s.clone(),
        // Missing arguments: the ones that are not options first.
        ContextValue::Strings(list) => list
            .iter()
            .find(|a| !a.starts_with('-'))
            .or(list.first())?
            .clone(),
        _ => return None,
    };
    // `--shape <S>` -> `--shape`; `<DIR>...` -> `DIR`.
    let name = text.split([' ', '=']).next().unwrap_or(&text);
    Some(name.trim_matches(['<', '>', '.']).to_string())
}

fn context_text(e: &clap::Error, kind: ContextKind) -> Option<String> {
    match e.get(kind)? {
        ContextValue::String(s) => Some(s.clone()),
        ContextValue::Strings(list) => list.first().cloned(),
        _ => None,
    }
}

/// The value a clap error refuses (empty when none was given).
fn given_value(e: &clap::Error) -> String {
    context_text(e, ContextKind::InvalidValue).unwrap_or_default()
}

/// Translates clap's refusal of the arguments of `command` (the first argument) into one
/// line that says what to fix.
fn refusal(e: &clap::Error, command: Option<&str>) -> CliError {
    let known = command.filter(|c| Cli::command().get_subcommands().any(|s| s.get_name() == *c));
    let see = match known {
        Some(c) => format!("see `shapemaze {c} --help`"),
        None => "see `shapemaze --help`".to_string(),
    };
    let arg = about_arg(e).unwrap_or_default();
    let message = match e.kind() {
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            format!("no command given: use {COMMANDS} (see `shapemaze --help`)")
        }
        ErrorKind::InvalidSubcommand => {
            let name = context_text(e, ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("unknown command '{name}': use {COMMANDS} (see `shapemaze --help`)")
        }
        ErrorKind::UnknownArgument => match known {
            Some(c) if arg.starts_with('-') => {
                format!("unknown option {arg} for `shapemaze {c}` ({see})")
            }
            Some(c) => match positionals(c) {
                Some((_, takes)) => {
                    format!("`shapemaze {c}` takes {takes}: '{arg}' is one too many ({see})")
                }
                None => format!("unexpected argument '{arg}' for `shapemaze {c}` ({see})"),
            },
            None if arg.starts_with('-') => format!("unknown option {arg} ({see})"),
            None => format!("unknown command '{arg}': use {COMMANDS} ({see})"),
        },
        ErrorKind::MissingRequiredArgument => match known {
            Some(c) => match positionals(c) {
                Some((needs, _)) if !arg.starts_with('-') => {
                    format!("`shapemaze {c}` needs {needs} ({see})")
                }
                _ => format!("`shapemaze {c}` needs {arg} ({see})"),
            },
            None => format!("an argument is missing ({see})"),
        },
        ErrorKind::ArgumentConflict => format!("{arg} is given more than once"),
        ErrorKind::TooManyValues if arg.is_empty() => {
            format!("too many arguments ({see})")
        }
        ErrorKind::TooManyValues => format!("{arg} takes no value"),
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e)
                .map(ToString::to_string)
                .unwrap_or_else(|| "is not valid".to_string());
            if why.starts_with("must") {
                format!("{arg} {why}")
            } else {
                why
            }
        }
        ErrorKind::InvalidValue if !given_value(e).is_empty() => {
            // A value outside a fixed list (`--format csv`): name the list.
            let valid = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(list)) => list.join(", "),
                _ => String::new(),
            };
            format!("unknown {arg} '{}': choose {valid}", given_value(e))
        }
        ErrorKind::InvalidValue | ErrorKind::WrongNumberOfValues | ErrorKind::NoEquals => {
            // `--upstream <NAME=URL>` -> `--upstream NAME=URL`
            let spelled = context_text(e, ContextKind::InvalidArg)
                .unwrap_or_default()
                .replace(['<', '>'], "");
            format!("{arg} needs a value: {spelled}")
        }
        _ => {
            // Whatever clap says, on one line.
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("bad arguments");
            format!("{} ({see})", first.trim_start_matches("error: "))
        }
    };
    CliError::Usage(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(args: &[&str]) -> String {
        let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        match parse(&owned) {
            Err(e) => e.message(),
            Ok(p) => panic!("{args:?} parsed: {p:?}"),
        }
    }

    fn verify(args: &[&str]) -> VerifyArgs {
        let owned: Vec<String> = ["verify"]
            .iter()
            .chain(args)
            .map(|s| s.to_string())
            .collect();
        match parse(&owned) {
            Ok(Parsed::Run(Command::Verify(v))) => v,
            other => panic!("{args:?}: {other:?}"),
        }
    }

    #[test]
    fn options_take_values_in_both_spellings() {
        let a = verify(&["--shape", "C", "--response=-", "--phase", "move"]);
        assert_eq!(a.shape.as_deref(), Some("C"));
        assert_eq!(a.response, "-", "a lone dash is a value (stdin)");
        assert_eq!(a.phase, "move");
    }

    #[test]
    fn mistakes_are_explained_in_one_line() {
        let cases: [(&[&str], &str); 18] = [
            (
                &["verify", "--shap", "C"],
                "unknown option --shap for `shapemaze verify` (see `shapemaze verify --help`)",
            ),
            (
                &["verify", "--phase", "move", "--shape"],
                "--shape needs a value",
            ),
            (
                &["verify", "--response", "r", "--shape", "--phase", "x"],
                "--shape needs a value",
            ),
            (
                &["generate", "--shape", "C", "--shape", "Z"],
                "--shape is given more than once",
            ),
            (
                &["generate", "-x"],
                "unknown option -x for `shapemaze generate`",
            ),
            (
                &["generate", "--shape", "C", "--size", "x"],
                "--size must be a whole number, not 'x'",
            ),
            (
                &["run", "d.json", "--out", "o", "--cost-limit", "lots"],
                "--cost-limit must be dollars, like 5 or 0.50, not 'lots'",
            ),
            (
                &["generate", "--shape", "C", "--seed", "-3"],
                "--seed must be a whole number, not '-3'",
            ),
            (
                &["verify", "--phase", "move"],
                "`shapemaze verify` needs --response (see `shapemaze verify --help`)",
            ),
            (
                &["generate", "--shape", "C", "extra"],
                "unexpected argument 'extra' for `shapemaze generate`",
            ),
            (
                &["run", "d.json", "--out", "o", "--retry-errors=yes"],
                "--retry-errors takes no value",
            ),
            (
                &["export", "--format", "csv", "d"],
                "unknown --format 'csv': choose every-eval-ever",
            ),
            (&["export", "d"], "`shapemaze export` needs --format"),
            (
                &["export", "--format", "every-eval-ever"],
                "`shapemaze export` needs a folder",
            ),
            (&[], "no command given"),
            (&["solve"], "unknown command 'solve'"),
            (&["help", "solve"], "no help for 'solve'"),
            (
                &["--colour"],
                "unknown option --colour (see `shapemaze --help`)",
            ),
        ];
        for (args, needle) in cases {
            let message = refused(args);
            assert!(message.contains(needle), "{args:?}: {message}");
            assert_eq!(message.lines().count(), 1, "{args:?}: {message}");
        }
    }

    #[test]
    fn help_and_version_are_printed_not_refused() {
        for args in [
            &["--help"][..],
            &["-h"],
            &["help"],
            &["generate", "-h"],
            &["help", "run"],
            &["--version"],
        ] {
            let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
            match parse(&owned) {
                Ok(Parsed::Print(text)) => {
                    assert!(text.starts_with("shapemaze"), "{args:?}: {text}")
                }
                other => panic!("{args:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_grammar_is_consistent() {
        Cli::command().debug_assert();
    }
}
