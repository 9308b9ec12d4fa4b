//! `shapemaze serve`: one process a lab runs to host the app, hold the endpoint keys and
//! receive study data.
//!
//! [`config`] gathers the flags, the TOML file and the environment; [`store`] keeps the
//! uploads in SQLite; [`server`] is the HTTP side (axum). [`command`] is the entry point
//! from the command line: it parses, prints where it listens, and serves until Ctrl-C or
//! SIGTERM.

pub mod config;
pub mod server;
pub mod store;

use crate::io::{CliError, Io};
use crate::values::{self, whole, COMMAND_HELP};
use config::{ConfigFile, ServeConfig, Upstream};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// `shapemaze serve`'s options.
#[derive(Debug, Default, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze serve",
    override_usage = "shapemaze serve [--dist DIR] [--addr HOST:PORT] [--db FILE] [--upstream NAME=URL]...
                       [--config FILE.toml] [--max-upload BYTES] [--rate N/min]",
    after_help = "Routes: GET /healthz; GET /proxy (upstream names); POST /proxy/NAME/chat/completions;
POST /api/study-data; POST /api/study-order; GET /api/study-data.csv, /api/study-data.jsonl,
/api/study-trials.csv and /api/study-participants.csv with Authorization: Bearer
$SHAPEMAZE_EXPORT_TOKEN (exports are off when it is unset; the start-up lines say which).

Example:
  SHAPEMAZE_KEY_DASHSCOPE=sk-... SHAPEMAZE_EXPORT_TOKEN=... shapemaze serve \\
      --upstream dashscope=https://dashscope-intl.aliyuncs.com/compatible-mode/v1

Stops on Ctrl-C or SIGTERM after the requests in flight finish. When it cannot start, one
line on stderr and exit status 2 (a bad option or address) or 4 (a config file that
cannot be read or is not valid)."
)]
pub struct ServeArgs {
    /// the built app (make build-release); default dist
    #[arg(long, value_name = "DIR")]
    pub dist: Option<PathBuf>,
    /// where to listen; default 127.0.0.1:8080 (0.0.0.0:8080 for a network)
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<String>,
    /// the SQLite file for study uploads; default shapemaze.sqlite
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// POST /proxy/NAME/chat/completions goes to URL/chat/completions with
    /// Authorization: Bearer $SHAPEMAZE_KEY_NAME (upper-cased, - as _);
    /// repeat for more upstreams
    #[arg(long, value_name = "NAME=URL", verbatim_doc_comment)]
    pub upstream: Vec<String>,
    /// dist, addr, db, max_upload, rate and [upstreams.NAME] tables with
    /// url and key_env; flags win over the file
    #[arg(long, value_name = "FILE.toml", verbatim_doc_comment)]
    pub config: Option<String>,
    /// largest upload or proxied request body; default 5242880 (5 MiB)
    #[arg(long, value_name = "BYTES", value_parser = whole::<usize>)]
    pub max_upload: Option<usize>,
    /// uploads per minute per client address; default 60 (0: no limit)
    #[arg(long, value_name = "N/min")]
    pub rate: Option<String>,
}

/// Builds the configuration from the options, reading the config file with `read` and
/// keys and the export token with `env`.
pub fn config_from(
    parsed: &ServeArgs,
    env: &dyn Fn(&str) -> Option<String>,
    read: &dyn Fn(&str) -> Result<String, CliError>,
) -> Result<ServeConfig, CliError> {
    let file = match parsed.config.as_deref() {
        Some(path) => {
            ConfigFile::parse(&read(path)?, path).map_err(|e| CliError::input(e.to_string()))?
        }
        None => ConfigFile::default(),
    };
    let addr_text = parsed
        .addr
        .clone()
        .or(file.addr)
        .unwrap_or_else(|| config::DEFAULT_ADDR.to_string());
    let addr = addr_text.parse().map_err(|_| {
        CliError::usage(format!(
            "--addr must be HOST:PORT with an IP address (e.g. 127.0.0.1:8080), not '{addr_text}'"
        ))
    })?;
    let mut cfg = ServeConfig::new(addr);
    if let Some(dist) = parsed.dist.clone().or(file.dist) {
        cfg.dist = dist;
    }
    if let Some(db) = parsed.db.clone().or(file.db) {
        cfg.db = db;
    }
    cfg.max_upload = parsed
        .max_upload
        .or(file.max_upload)
        .unwrap_or(config::DEFAULT_MAX_UPLOAD);
    if cfg.max_upload == 0 {
        return Err(CliError::usage("--max-upload must be more than 0 bytes"));
    }
    cfg.rate_per_min = match parsed.rate.as_deref() {
        Some(v) => values::rate(v)?,
        None => file.rate.unwrap_or(config::DEFAULT_RATE),
    };
    let mut upstreams: BTreeMap<String, Upstream> = BTreeMap::new();
    for (name, u) in &file.upstreams {
        let up = config::upstream(name, &u.url, u.key_env.as_deref(), env)
            .map_err(|e| CliError::usage(e.to_string()))?;
        upstreams.insert(name.clone(), up);
    }
    let mut from_flags = std::collections::BTreeSet::new();
    for value in &parsed.upstream {
        let up = config::upstream_flag(value, env).map_err(|e| CliError::usage(e.to_string()))?;
        if !from_flags.insert(up.name.clone()) {
            return Err(CliError::usage(format!(
                "--upstream {} is given more than once",
                up.name
            )));
        }
        // A flag wins over the file's table of the same name.
        upstreams.insert(up.name.clone(), up);
    }
    cfg.upstreams = upstreams;
    cfg.export_token = env(config::EXPORT_TOKEN_ENV).filter(|t| !t.trim().is_empty());
    Ok(cfg)
}

/// The study exports, behind the export token.
pub const EXPORTS: [&str; 4] = [
    "/api/study-data.csv",
    "/api/study-data.jsonl",
    "/api/study-trials.csv",
    "/api/study-participants.csv",
];

/// Lines describing what the server listening on `addr` will do, for stderr at start.
pub fn describe(cfg: &ServeConfig, addr: std::net::SocketAddr) -> Vec<String> {
    let mut lines = vec![
        format!("listening on http://{addr}"),
        format!(
            "serving {} (uploads into {})",
            cfg.dist.display(),
            cfg.db.display()
        ),
    ];
    if !cfg.dist.join("index.html").is_file() {
        lines.push(format!(
            "warning: {} has no index.html: build the app with `make build-release` (or pass --dist); the API routes work meanwhile",
            cfg.dist.join("index.html").display()
        ));
    }
    for u in cfg.upstreams.values() {
        let key = if u.key.is_some() {
            format!("key from {}", u.key_env)
        } else {
            format!("no key: {} is not set, requests go without one", u.key_env)
        };
        lines.push(format!(
            "upstream {}: /proxy/{}/chat/completions -> {}/chat/completions ({key})",
            u.name, u.name, u.url
        ));
    }
    let exports = EXPORTS.map(|e| format!("http://{addr}{e}")).join(", ");
    lines.push(match cfg.export_token {
        Some(_) => format!(
            "exports are on: {exports}, each with the header Authorization: Bearer ${}",
            config::EXPORT_TOKEN_ENV
        ),
        None => format!(
            "exports are off: set {} and restart to download {exports}",
            config::EXPORT_TOKEN_ENV
        ),
    });
    lines
}

/// Runs `shapemaze serve` with `args` (after the command name) until Ctrl-C or SIGTERM.
pub fn command(args: &ServeArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let read = |path: &str| -> Result<String, CliError> {
        String::from_utf8(crate::io::read_file(path)?)
            .map_err(|_| CliError::input(format!("{path} is not UTF-8 text")))
    };
    let env = |name: &str| std::env::var(name).ok();
    let cfg = config_from(args, &env, &read)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
    let described = cfg.clone();
    let server = runtime.block_on(server::Server::bind(cfg))?;
    for line in &describe(&described, server.local_addr()?) {
        io.note(line)?;
    }
    io.note("stop with Ctrl-C (requests in flight finish first)")?;
    io.stderr.flush().map_err(CliError::Output)?;
    runtime.block_on(server.run(server::shutdown_signal()))?;
    io.note("stopped; every answered upload is stored")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Command, Parsed};

    /// `serve`'s options read from `list` as the command line reads them.
    fn args(list: &[&str]) -> Result<ServeArgs, CliError> {
        let argv: Vec<String> = std::iter::once("serve")
            .chain(list.iter().copied())
            .map(String::from)
            .collect();
        match crate::args::parse(&argv)? {
            Parsed::Run(Command::Serve(a)) => Ok(a),
            other => panic!("{list:?}: {other:?}"),
        }
    }

    fn config(
        list: &[&str],
        env: &dyn Fn(&str) -> Option<String>,
        read: &dyn Fn(&str) -> Result<String, CliError>,
    ) -> Result<ServeConfig, CliError> {
        config_from(&args(list)?, env, read)
    }

    fn env(name: &str) -> Option<String> {
        match name {
            "SHAPEMAZE_KEY_DASHSCOPE" => Some("sk-d".into()),
            "LOCAL_KEY" => Some("sk-l".into()),
            "SHAPEMAZE_EXPORT_TOKEN" => Some("t0k".into()),
            _ => None,
        }
    }

    fn no_file(path: &str) -> Result<String, CliError> {
        Err(CliError::input(format!("cannot read {path}")))
    }

    fn usage(e: CliError) -> String {
        e.message()
    }

    #[test]
    fn defaults_apply_when_nothing_is_given() {
        let cfg = config(&[], &|_| None, &no_file).expect("valid");
        assert_eq!(cfg.addr.to_string(), config::DEFAULT_ADDR);
        assert_eq!(cfg.dist, PathBuf::from("dist"));
        assert_eq!(cfg.db, PathBuf::from("shapemaze.sqlite"));
        assert_eq!(cfg.max_upload, 5 * 1024 * 1024);
        assert_eq!(cfg.rate_per_min, 60);
        assert!(cfg.upstreams.is_empty() && cfg.export_token.is_none());
    }

    #[test]
    fn repeated_upstreams_and_a_config_file_combine_with_flags_winning() {
        let file = |_: &str| -> Result<String, CliError> {
            Ok("rate = 5\n[upstreams.local]\nurl = \"http://127.0.0.1:8000/v1\"\nkey_env = \"LOCAL_KEY\"\n[upstreams.dashscope]\nurl = \"http://old.example/v1\"\n".into())
        };
        let cfg = config(
            &[
                "--upstream",
                "dashscope=https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
                "--upstream=other=http://127.0.0.1:9/v1",
                "--config",
                "serve.toml",
                "--rate",
                "30/min",
            ],
            &env,
            &file,
        )
        .expect("valid");
        let names: Vec<&str> = cfg.upstreams.keys().map(String::as_str).collect();
        assert_eq!(names, ["dashscope", "local", "other"]);
        assert_eq!(
            cfg.upstreams["dashscope"].url,
            "https://dashscope-intl.aliyuncs.com/compatible-mode/v1",
            "the flag wins over the file"
        );
        assert_eq!(cfg.upstreams["dashscope"].key.as_deref(), Some("sk-d"));
        assert_eq!(
            cfg.upstreams["local"].key.as_deref(),
            Some("sk-l"),
            "key_env"
        );
        assert_eq!(cfg.upstreams["other"].key, None, "no variable, no key");
        assert_eq!(cfg.rate_per_min, 30, "the flag wins over the file's rate");
        assert_eq!(cfg.export_token.as_deref(), Some("t0k"));
    }

    #[test]
    fn mistakes_stop_the_server_before_it_starts_with_one_line() {
        for (list, expected) in [
            (vec!["--addr", "localhost"], "HOST:PORT"),
            (vec!["--rate", "fast"], "--rate must be"),
            (vec!["--max-upload", "0"], "more than 0"),
            (vec!["--upstream"], "NAME=URL"),
            (
                vec!["--upstream", "a=http://x", "--upstream", "a=http://y"],
                "more than once",
            ),
            (vec!["--port", "1"], "unknown option --port"),
            (vec!["extra"], "unexpected argument"),
            (vec!["--config", "nope.toml"], "cannot read nope.toml"),
        ] {
            let err = usage(config(&list, &env, &no_file).expect_err("refused"));
            assert!(err.contains(expected), "{list:?}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
        let argv = ["serve".to_string(), "--help".to_string()];
        assert!(
            matches!(crate::args::parse(&argv), Ok(Parsed::Print(_))),
            "--help asks for the help text"
        );
    }

    #[test]
    fn the_start_up_lines_say_whether_exports_are_on_and_at_which_addresses() {
        let addr: std::net::SocketAddr = "127.0.0.1:8123".parse().expect("an address");
        let on = config(&[], &env, &no_file).expect("valid");
        let off = config(&[], &|_| None, &no_file).expect("valid");
        let line = |cfg: &ServeConfig| {
            describe(cfg, addr)
                .into_iter()
                .find(|l| l.starts_with("exports are"))
                .expect("a line on exports")
        };
        let on = line(&on);
        assert!(
            on.starts_with("exports are on: http://127.0.0.1:8123/api/study-data.csv, "),
            "{on}"
        );
        for e in EXPORTS {
            assert!(
                on.contains(&format!("http://127.0.0.1:8123{e}")),
                "{e}: {on}"
            );
        }
        assert!(
            on.ends_with("Authorization: Bearer $SHAPEMAZE_EXPORT_TOKEN"),
            "{on}"
        );
        assert!(
            !on.contains("t0k"),
            "the token itself is never printed: {on}"
        );
        let off = line(&off);
        assert!(
            off.starts_with("exports are off: set SHAPEMAZE_EXPORT_TOKEN and restart"),
            "{off}"
        );
    }
}
