//! What Every Eval Ever finds the files and results by: the schema version written, the
//! collection, each phase's result id, the evaluation's id and the datastore's paths
//! (`data/{collection}/{developer}/{model}/{uuid}.json` and `{uuid}_samples.jsonl`, the
//! uuid a version-4 form of the evaluation id's SHA-256, so exporting a run again writes the
//! same files). A leaf: the aggregate and the instance rows both use it.

use crate::model::reply::EndpointInfo;
use crate::play::phase::Phase;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The version of the Every Eval Ever schemas the files follow (`eval.schema.json` and
/// `instance_level_eval.schema.json`, both `"version": "0.3.0"`).
pub const SCHEMA_VERSION: &str = "0.3.0";

/// The datastore's collection the files go under: the benchmark.
pub const COLLECTION: &str = "shapemaze";

/// The three phases a trial is scored on, each an evaluation result of its own.
pub const PHASES: [Phase; 3] = Phase::PLAYED;

/// The schema's string maps (`additional_details`, `metadata`, `details`): every value a
/// string, in a fixed order.
pub type Details = BTreeMap<String, String>;

/// The id (and name) of a phase's evaluation result: `shapemaze.solve`, ...
pub fn result_id(phase: Phase) -> String {
    format!("{COLLECTION}.{}", phase.name())
}

/// Who played, as the datastore names them: the model id in `developer/model` form where
/// the developer is known, and the two folders the files go in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// The evaluation's id (`shapemaze/{design}/{player}/{design hash}-{start}`): the
    /// aggregate's and every instance row's `evaluation_id`.
    pub evaluation_id: String,
    /// `model_info.id` and the rows' `model_id`.
    pub model_id: String,
    /// The model's developer when the model's name says it (`qwen/qwen-2.5-72b-instruct`)
    /// or the player is built in (`shapemaze`); `None` when it is not recorded.
    pub developer: Option<String>,
    /// The developer's folder: the developer, else the endpoint preset that served it.
    pub developer_dir: String,
    /// The model's folder.
    pub model_dir: String,
    /// The files' uuid.
    pub uuid: String,
}

impl Identity {
    /// The identity of player `player` (the records' `model`), a built-in player when
    /// `endpoint` is `None`, in the design `design_name` with hash `design_sha256`, whose
    /// first trial started at `started_s` (seconds since the Unix epoch), when known.
    pub fn of(
        player: &str,
        endpoint: Option<&EndpointInfo>,
        design_name: &str,
        design_sha256: &str,
        started_s: Option<i64>,
    ) -> Identity {
        let (model_id, developer, fallback) = match endpoint {
            None => (
                format!("{COLLECTION}/{player}"),
                Some(COLLECTION.to_string()),
                COLLECTION.to_string(),
            ),
            Some(e) => {
                let developer = e
                    .model
                    .split_once('/')
                    .map(|(d, _)| d.trim().to_string())
                    .filter(|d| !d.is_empty());
                (e.model.clone(), developer, e.preset.clone())
            }
        };
        let model_dir = match model_id.split_once('/') {
            Some((_, rest)) if developer.is_some() => path_component(rest),
            _ => path_component(&model_id),
        };
        let developer_dir = path_component(developer.as_deref().unwrap_or(&fallback));
        let hash = &design_sha256[..design_sha256.len().min(12)];
        let evaluation_id = match started_s {
            Some(s) => format!("{COLLECTION}/{design_name}/{player}/{hash}-{s}"),
            None => format!("{COLLECTION}/{design_name}/{player}/{hash}"),
        };
        Identity {
            uuid: uuid_of(&evaluation_id),
            evaluation_id,
            model_id,
            developer,
            developer_dir,
            model_dir,
        }
    }

    /// The folder of both files, from the datastore's root: `data/shapemaze/{dev}/{model}`.
    pub fn folder(&self) -> String {
        format!(
            "data/{COLLECTION}/{}/{}",
            self.developer_dir, self.model_dir
        )
    }

    /// The aggregate file's path: `data/shapemaze/{dev}/{model}/{uuid}.json`.
    pub fn aggregate_path(&self) -> String {
        format!("{}/{}.json", self.folder(), self.uuid)
    }

    /// The instance rows' path: `data/shapemaze/{dev}/{model}/{uuid}_samples.jsonl`.
    pub fn samples_path(&self) -> String {
        format!("{}/{}_samples.jsonl", self.folder(), self.uuid)
    }
}

/// A version-4 uuid made from `key`'s SHA-256 (the version and variant bits set as a
/// random uuid's are), so one key always names one file.
pub fn uuid_of(key: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let h: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..]
    )
}

/// `name` as one folder name anywhere: `/`, `:`, `<>"\|?*` and control characters become
/// `_`, trailing dots and spaces go, a name Windows reserves (`CON`, `COM1`, ...) or the
/// datastore's own `data` gets a leading `_`, and nothing left is `_`.
pub fn path_component(name: &str) -> String {
    let mapped: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_control() || "/:<>\"\\|?*".contains(c) {
                '_'
            } else {
                c
            }
        })
        .collect();
    let trimmed = mapped.trim_end_matches(['.', ' ']);
    let stem = trimmed.split('.').next().unwrap_or("").to_ascii_uppercase();
    let reserved = ["CON", "PRN", "AUX", "NUL"].contains(&stem.as_str())
        || ((stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.len() == 4
            && stem[3..].chars().all(|c| ('1'..='9').contains(&c)));
    match trimmed {
        "" | "." | ".." => "_".to_string(),
        "data" => "_data".to_string(),
        t if reserved => format!("_{t}"),
        t => t.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::preset::Preset;
    use crate::model::settings::EndpointSettings;

    #[test]
    fn a_uuid_is_a_version_4_uuid_and_the_same_for_the_same_key() {
        let u = uuid_of("shapemaze/design/oracle/abc");
        assert_eq!(u, uuid_of("shapemaze/design/oracle/abc"));
        assert_ne!(u, uuid_of("shapemaze/design/random/abc"));
        let parts: Vec<&str> = u.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [8, 4, 4, 4, 12]
        );
        assert!(parts[2].starts_with('4'), "{u}");
        assert!("89ab".contains(&parts[3][..1]), "{u}");
        assert!(u.chars().all(|c| c == '-' || c.is_ascii_hexdigit()));
    }

    #[test]
    fn folder_names_are_portable() {
        assert_eq!(path_component("qwen2.5:7b"), "qwen2.5_7b");
        assert_eq!(path_component("a/b"), "a_b");
        assert_eq!(path_component("data"), "_data");
        assert_eq!(path_component("COM1.x"), "_COM1.x");
        assert_eq!(path_component("name. "), "name");
        assert_eq!(path_component(""), "_");
        assert_eq!(path_component("COMPUTE"), "COMPUTE");
    }

    #[test]
    fn a_model_s_namespace_is_its_developer_and_a_built_in_player_is_shapemaze_s() {
        let mut e = EndpointInfo::from(&EndpointSettings {
            model: "qwen/qwen-2.5-72b-instruct".into(),
            ..EndpointSettings::for_preset(Preset::OpenRouter)
        });
        let id = Identity::of("q", Some(&e), "d", "0123456789abcdef", Some(5));
        assert_eq!(id.model_id, "qwen/qwen-2.5-72b-instruct");
        assert_eq!(id.developer.as_deref(), Some("qwen"));
        assert_eq!(id.folder(), "data/shapemaze/qwen/qwen-2.5-72b-instruct");
        assert_eq!(id.evaluation_id, "shapemaze/d/q/0123456789ab-5");
        e.model = "qwen-plus".into();
        e.preset = "dashscope-intl".into();
        let id = Identity::of("q", Some(&e), "d", "0123", None);
        assert_eq!(
            (id.model_id.as_str(), id.developer.as_deref()),
            ("qwen-plus", None)
        );
        assert_eq!(id.folder(), "data/shapemaze/dashscope-intl/qwen-plus");
        let id = Identity::of("oracle", None, "d", "0123", None);
        assert_eq!(id.model_id, "shapemaze/oracle");
        assert_eq!(id.folder(), "data/shapemaze/shapemaze/oracle");
        assert!(id
            .samples_path()
            .ends_with(&format!("{}_samples.jsonl", id.uuid)));
    }
}
