//! A small argument parser: `--name value`, `--name=value`, `-h`/`--help` and positional
//! arguments, checked against the options a command accepts. Hand-written so the native
//! build needs no extra crate; every failure is one line a person can act on.

use std::collections::BTreeMap;

/// A command's arguments, parsed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Args {
    /// Arguments that are not options, in order.
    pub positional: Vec<String>,
    /// Whether `-h` or `--help` was given.
    pub help: bool,
    values: BTreeMap<&'static str, String>,
}

impl Args {
    /// Parses `args` for `command`, which accepts the options named in `options` (without
    /// their leading `--`), each taking one value, except flags, named with a trailing `!`
    /// (`retry-errors!`), which take none (their value reads `true`).
    pub fn parse(args: &[String], command: &str, options: &[&'static str]) -> Result<Args, String> {
        let mut out = Args::default();
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            if arg == "-h" || arg == "--help" {
                out.help = true;
                continue;
            }
            let Some(body) = arg.strip_prefix("--") else {
                if arg.len() > 1 && arg.starts_with('-') {
                    return Err(format!(
                        "unknown option {arg} (see `shapemaze {command} --help`)"
                    ));
                }
                out.positional.push(arg.clone());
                continue;
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let Some(&known) = options
                .iter()
                .find(|o| o.strip_suffix('!').unwrap_or(o) == name)
            else {
                return Err(format!(
                    "unknown option --{name} for `shapemaze {command}` (see `shapemaze {command} --help`)"
                ));
            };
            // A name ending in `!` is a flag: it takes no value.
            let (known, value) = match known.strip_suffix('!') {
                Some(flag) => match inline {
                    Some(_) => return Err(format!("--{name} takes no value")),
                    None => (flag, "true".to_string()),
                },
                None => match inline {
                    Some(v) => (known, v),
                    None => match it.next() {
                        Some(v) if !v.starts_with("--") => (known, v.clone()),
                        _ => return Err(format!("--{name} needs a value")),
                    },
                },
            };
            if out.values.insert(known, value).is_some() {
                return Err(format!("--{name} is given more than once"));
            }
        }
        Ok(out)
    }

    /// The value of `--name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The value of `--name`, which the command needs.
    pub fn required(&self, name: &str, command: &str) -> Result<&str, String> {
        self.get(name).ok_or_else(|| {
            format!("`shapemaze {command}` needs --{name} (see `shapemaze {command} --help`)")
        })
    }

    /// The command's one positional argument (`what` names it in the messages: `folder`,
    /// `design file`).
    pub fn single(&self, command: &str, what: &str) -> Result<&str, String> {
        match self.positional.as_slice() {
            [one] => Ok(one.as_str()),
            [] => Err(format!(
                "`shapemaze {command}` needs a {what} (see `shapemaze {command} --help`)"
            )),
            more => Err(format!(
                "`shapemaze {command}` takes one {what}, not {}",
                more.len()
            )),
        }
    }

    /// The value of `--name` as a number, or `default` when not given.
    pub fn number<T: std::str::FromStr>(&self, name: &str, default: T) -> Result<T, String> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => v
                .trim()
                .parse()
                .map_err(|_| format!("--{name} must be a whole number, not '{v}'")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Args, String> {
        let owned: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        Args::parse(&owned, "verify", &["shape", "response"])
    }

    #[test]
    fn options_take_values_in_both_spellings_and_positionals_stay_in_order() {
        let a = parse(&["dir", "--shape", "C", "--response=-", "more"]).expect("valid");
        assert_eq!(a.get("shape"), Some("C"));
        assert_eq!(
            a.get("response"),
            Some("-"),
            "a lone dash is a value (stdin)"
        );
        assert_eq!(a.positional, vec!["dir", "more"]);
        assert!(!a.help);
        assert!(parse(&["-h"]).expect("help").help);
    }

    #[test]
    fn mistakes_are_explained_in_one_line() {
        let unknown = parse(&["--shap", "C"]).expect_err("unknown");
        assert!(
            unknown.contains("unknown option --shap") && unknown.contains("verify --help"),
            "{unknown}"
        );
        assert!(parse(&["--shape"])
            .expect_err("no value")
            .contains("needs a value"));
        assert!(parse(&["--shape", "--response", "x"])
            .expect_err("no value")
            .contains("--shape needs a value"));
        assert!(parse(&["--shape", "C", "--shape", "Z"])
            .expect_err("twice")
            .contains("more than once"));
        assert!(parse(&["-x"])
            .expect_err("short")
            .contains("unknown option -x"));
        let a = parse(&["--shape", "x"]).expect("valid");
        assert!(a
            .number::<usize>("shape", 5)
            .expect_err("nan")
            .contains("whole number"));
        assert_eq!(a.number::<usize>("size", 5), Ok(5), "default when absent");
        assert!(a
            .required("response", "verify")
            .expect_err("missing")
            .contains("needs --response"));
    }
}
