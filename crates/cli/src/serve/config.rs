//! What `shapemaze serve` runs with: the flags, the optional TOML file and the environment
//! (upstream keys, the export token) gathered into one [`ServeConfig`], checked once at
//! start so a mistake stops the server before it listens rather than on the first request.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::path::PathBuf;

/// The default address: loopback only, the port `make serve` uses.
pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
/// The default folder of the built app.
pub const DEFAULT_DIST: &str = "dist";
/// The default SQLite file for study uploads.
pub const DEFAULT_DB: &str = "shapemaze.sqlite";
/// The default largest upload body, in bytes (5 MiB).
pub const DEFAULT_MAX_UPLOAD: usize = 5 * 1024 * 1024;
/// The default number of uploads one client may send per minute.
pub const DEFAULT_RATE: u32 = 60;
/// The environment variable holding the experimenter's export token.
pub const EXPORT_TOKEN_ENV: &str = "SHAPEMAZE_EXPORT_TOKEN";

/// One chat-completions upstream the proxy may reach.
#[derive(Clone, PartialEq, Eq)]
pub struct Upstream {
    /// The name in `/proxy/NAME/chat/completions`.
    pub name: String,
    /// The base URL; requests go to `URL/chat/completions`.
    pub url: String,
    /// The environment variable the key was read from.
    pub key_env: String,
    /// The key sent as `Authorization: Bearer`, if the variable was set.
    pub key: Option<String>,
}

impl std::fmt::Debug for Upstream {
    // Never print the key, not even in a debug dump.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("name", &self.name)
            .field("url", &self.url)
            .field("key_env", &self.key_env)
            .field("key", &self.key.as_ref().map(|_| "<set>"))
            .finish()
    }
}

/// Everything the server needs, read and checked.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The built app's folder.
    pub dist: PathBuf,
    /// Where to listen.
    pub addr: SocketAddr,
    /// The SQLite file for study uploads.
    pub db: PathBuf,
    /// The configured upstreams, by name.
    pub upstreams: BTreeMap<String, Upstream>,
    /// The largest upload (and proxied request) body, in bytes.
    pub max_upload: usize,
    /// Uploads one client may send per minute (0: no limit).
    pub rate_per_min: u32,
    /// The export token; `None` disables the exports.
    pub export_token: Option<String>,
    /// How long a shutdown waits for requests still running (an open stream, a slow
    /// client) before it gives up on them.
    pub drain_timeout: std::time::Duration,
    /// Whether to print one line per upload and per failed proxy call on stderr.
    pub log: bool,
}

impl ServeConfig {
    /// A configuration with every default and no upstream, for `addr`.
    pub fn new(addr: SocketAddr) -> ServeConfig {
        ServeConfig {
            dist: PathBuf::from(DEFAULT_DIST),
            addr,
            db: PathBuf::from(DEFAULT_DB),
            upstreams: BTreeMap::new(),
            max_upload: DEFAULT_MAX_UPLOAD,
            rate_per_min: DEFAULT_RATE,
            export_token: None,
            drain_timeout: std::time::Duration::from_secs(30),
            log: true,
        }
    }
}

/// The TOML file given with `--config`: every field optional; flags win over it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// As `--dist`.
    pub dist: Option<PathBuf>,
    /// As `--addr`.
    pub addr: Option<String>,
    /// As `--db`.
    pub db: Option<PathBuf>,
    /// As `--max-upload`.
    pub max_upload: Option<usize>,
    /// As `--rate` (uploads per minute per client).
    pub rate: Option<u32>,
    /// `[upstreams.NAME]` tables.
    #[serde(default)]
    pub upstreams: BTreeMap<String, UpstreamFile>,
}

/// One `[upstreams.NAME]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpstreamFile {
    /// The base URL (`.../v1`).
    pub url: String,
    /// The environment variable holding the key (default `SHAPEMAZE_KEY_<NAME>`).
    pub key_env: Option<String>,
}

/// Why the server's configuration cannot be used: each says what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigError {
    /// The config file is not a serve config (its path, TOML's reason on one line).
    File {
        /// The file.
        path: String,
        /// Why, on one line.
        reason: String,
    },
    /// An upstream's name is not letters, digits, `-` and `_`.
    Name(String),
    /// An upstream's URL does not start with `http://` or `https://` (name, URL).
    Scheme(String, String),
    /// An upstream's URL names no host (name, URL).
    NoHost(String, String),
    /// A `--upstream` value is not `NAME=URL`.
    Flag(String),
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::File { path, reason } => {
                write!(f, "{path} is not a valid serve config: {reason}")
            }
            ConfigError::Name(name) => write!(
                f,
                "upstream name '{name}' must be letters, digits, '-' or '_' (it appears in /proxy/NAME/...)"
            ),
            ConfigError::Scheme(name, url) => write!(
                f,
                "upstream '{name}': the URL '{url}' must start with http:// or https://"
            ),
            ConfigError::NoHost(name, url) => {
                write!(f, "upstream '{name}': the URL '{url}' names no host")
            }
            ConfigError::Flag(value) => write!(
                f,
                "--upstream takes NAME=URL (e.g. dashscope=https://dashscope-intl.aliyuncs.com/compatible-mode/v1), not '{value}'"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl ConfigFile {
    /// Parses the TOML text of `path` (named in errors).
    pub fn parse(text: &str, path: &str) -> Result<ConfigFile, ConfigError> {
        toml::from_str(text).map_err(|e| ConfigError::File {
            path: path.to_string(),
            reason: one_line(&e),
        })
    }
}

fn one_line(e: &dyn std::fmt::Display) -> String {
    e.to_string()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The environment variable that holds `name`'s key by default:
/// `SHAPEMAZE_KEY_` + the name upper-cased with `-` as `_`.
pub fn key_env_for(name: &str) -> String {
    format!(
        "SHAPEMAZE_KEY_{}",
        name.to_ascii_uppercase().replace('-', "_")
    )
}

/// Checks an upstream name: letters, digits, `-` and `_`, as it appears in the URL path.
pub fn check_name(name: &str) -> Result<(), ConfigError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ConfigError::Name(name.to_string()));
    }
    Ok(())
}

/// Checks an upstream base URL and drops a trailing `/`.
pub fn check_url(name: &str, url: &str) -> Result<String, ConfigError> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| ConfigError::Scheme(name.to_string(), url.to_string()))?;
    if rest.is_empty() || rest.starts_with('/') {
        return Err(ConfigError::NoHost(name.to_string(), url.to_string()));
    }
    Ok(url.trim_end_matches('/').to_string())
}

/// Builds an upstream from its name, URL and key variable, reading the key with `env`.
pub fn upstream(
    name: &str,
    url: &str,
    key_env: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Upstream, ConfigError> {
    check_name(name)?;
    let url = check_url(name, url)?;
    let key_env = key_env.map_or_else(|| key_env_for(name), str::to_string);
    let key = env(&key_env).filter(|k| !k.trim().is_empty());
    Ok(Upstream {
        name: name.to_string(),
        url,
        key_env,
        key,
    })
}

/// Parses one `--upstream NAME=URL`.
pub fn upstream_flag(
    value: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Upstream, ConfigError> {
    let Some((name, url)) = value.split_once('=') else {
        return Err(ConfigError::Flag(value.to_string()));
    };
    upstream(name.trim(), url, None, env)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        (name == "SHAPEMAZE_KEY_MY_LAB").then(|| "sk-lab".to_string())
    }

    #[test]
    fn the_key_variable_is_the_name_upper_cased_with_dashes_as_underscores() {
        assert_eq!(key_env_for("my-lab"), "SHAPEMAZE_KEY_MY_LAB");
        let u = upstream_flag("my-lab=http://127.0.0.1:9/v1/", &env).expect("valid");
        assert_eq!(
            u.url, "http://127.0.0.1:9/v1",
            "the trailing slash is dropped"
        );
        assert_eq!(
            u.key.as_deref(),
            Some("sk-lab"),
            "the key comes from the env"
        );
        assert!(
            !format!("{u:?}").contains("sk-lab"),
            "the key never shows in a debug dump"
        );
    }

    #[test]
    fn bad_upstreams_are_refused_with_what_to_fix() {
        let no_eq = upstream_flag("dashscope", &env).expect_err("no =");
        assert_eq!(no_eq, ConfigError::Flag("dashscope".into()));
        assert!(no_eq.to_string().contains("NAME=URL"), "{no_eq}");
        let bad_url = upstream_flag("a=ftp://x", &env).expect_err("scheme");
        assert!(matches!(bad_url, ConfigError::Scheme(..)), "{bad_url}");
        assert!(bad_url.to_string().contains("http://"), "{bad_url}");
        let bad_name = upstream_flag("a/b=http://x", &env).expect_err("name");
        assert!(
            bad_name.to_string().contains("letters, digits"),
            "{bad_name}"
        );
        let no_host = upstream_flag("a=https:///v1", &env).expect_err("host");
        assert_eq!(
            no_host.to_string(),
            "upstream 'a': the URL 'https:///v1' names no host"
        );
    }

    #[test]
    fn a_config_file_names_upstreams_and_rejects_unknown_fields() {
        let file = ConfigFile::parse(
            "rate = 10\n[upstreams.dashscope]\nurl = \"https://x.example/v1\"\nkey_env = \"DASHSCOPE_API_KEY\"\n",
            "serve.toml",
        )
        .expect("valid");
        assert_eq!(file.rate, Some(10));
        assert_eq!(
            file.upstreams["dashscope"].key_env.as_deref(),
            Some("DASHSCOPE_API_KEY")
        );
        let bad = ConfigFile::parse(
            "[upstreams.x]\nurl = \"http://x\"\nkey = \"sk\"\n",
            "s.toml",
        )
        .expect_err("unknown field");
        let bad = bad.to_string();
        assert!(
            bad.contains("s.toml") && bad.contains("key"),
            "names the file and the field: {bad}"
        );
    }
}
