//! What a run was, for a paper's methods section (`provenance.json`, CONTRACT.md
//! "Provenance"): the design and its SHA-256, the seeds, the Shapemaze, prompt and
//! verifier versions, each player's endpoint settings (never a key) with the prices used and
//! the model ids the server answered with (the response's `model` and
//! `system_fingerprint`), the start and end, and the machine or browser; and the item
//! matrix (`items.csv`): one row per maze instance and model, the share of its trials that
//! passed each phase. Pure: the caller gives the times and the machine.

use crate::batch::design::ExperimentDesign;
use crate::json::JsonError;
use crate::model::price::Price;
use crate::model::reply::EndpointInfo;
use crate::results::record::{TrialRecord, Versions};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The format's name and version, the first field of every `provenance.json`.
pub const PROVENANCE_FORMAT: &str = "shapemaze-provenance/1";
/// The item matrix's file name beside `provenance.json`.
pub const ITEMS_FILE: &str = "items.csv";
/// The provenance's file name in a run folder and an export.
pub const PROVENANCE_FILE: &str = "provenance.json";

/// What a run was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// [`PROVENANCE_FORMAT`].
    pub format: String,
    /// The versions this provenance was written by.
    pub versions: Versions,
    /// The versions the run's records were made with, each with how many records: more
    /// than one when shards of different versions were merged.
    pub record_versions: Vec<VersionCount>,
    /// The design's name.
    pub design_name: String,
    /// SHA-256 of the design's JSON as written (`experiment.json`), in hex.
    pub design_sha256: String,
    /// The seeds the mazes were made from (the design's, and those of imported mazes).
    pub seeds: Vec<u64>,
    /// Who played: one entry per model (a built-in player by its name).
    pub players: Vec<PlayerProvenance>,
    /// The first trial's start, UTC (ISO 8601), when known.
    pub started: Option<String>,
    /// The last trial's end, UTC (ISO 8601), when known.
    pub ended: Option<String>,
    /// Where it ran: the operating system, architecture and cores of the command line, or
    /// the browser's user agent.
    pub machine: String,
    /// Trials recorded.
    pub trials: usize,
}

/// A version triple and how many records carry it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VersionCount {
    /// The versions.
    #[serde(flatten)]
    pub versions: Versions,
    /// Records made with them.
    pub records: usize,
}

/// One model as it was asked and as it answered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerProvenance {
    /// The name the records use (the model asked for, or the built-in player's).
    pub model: String,
    /// `oracle`, `random`, `endpoint`, ...
    pub kind: String,
    /// The endpoint's settings as the records hold them (never a key).
    pub endpoint: Option<EndpointInfo>,
    /// The prices the design gave for it, per million tokens.
    pub price: Option<Price>,
    /// The model ids the server answered with (its responses' `model`), each once.
    pub served_models: Vec<String>,
    /// The responses' `system_fingerprint`s, each once.
    pub system_fingerprints: Vec<String>,
    /// Trials it played.
    pub trials: usize,
}

/// SHA-256 of `text`, in lowercase hex.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

impl Provenance {
    /// The provenance of `records` played from `design`, on `machine`; the start and end
    /// are the records' own (their first start and last end).
    pub fn of(
        design: &ExperimentDesign,
        records: &[TrialRecord],
        machine: &str,
    ) -> Result<Provenance, JsonError> {
        let design_json = design.to_json()?;
        let mut seeds = vec![design.seed];
        for r in records {
            if !seeds.contains(&r.seed) {
                seeds.push(r.seed);
            }
        }
        crate::sort::sort_by(&mut seeds, |a, b| a.cmp(b));
        let started = records.iter().filter_map(|r| r.started_ms).reduce(f64::min);
        let ended = records.iter().filter_map(|r| r.ended_ms).reduce(f64::max);
        Ok(Provenance {
            format: PROVENANCE_FORMAT.to_string(),
            versions: Versions::current(),
            record_versions: version_counts(records),
            design_name: design.name.clone(),
            design_sha256: sha256_hex(&design_json),
            seeds,
            players: players(design, records),
            started: started.map(iso8601),
            ended: ended.map(iso8601),
            machine: machine.to_string(),
            trials: records.len(),
        })
    }

    /// What a person should know before citing the run: more than one version of the
    /// readers, prompts or Shapemaze among its records, or a model answered by more than one
    /// served model id. Empty when there is nothing to say.
    pub fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.record_versions.len() > 1 {
            let list: Vec<String> = self
                .record_versions
                .iter()
                .map(|v| {
                    format!(
                        "Shapemaze {} (prompts {}, readers {}): {} records",
                        v.versions.shapemaze, v.versions.prompt, v.versions.verifier, v.records
                    )
                })
                .collect();
            out.push(format!(
                "the records were made by different versions: {}",
                list.join("; ")
            ));
        }
        for p in &self.players {
            if p.served_models.len() > 1 {
                out.push(format!(
                    "{} was answered by {} served models: {}",
                    p.model,
                    p.served_models.len(),
                    p.served_models.join(", ")
                ));
            }
        }
        out
    }

    /// The provenance in a few lines of plain text, for the text report, the report file and
    /// the results page: the versions, the design and its hash, the seeds, each player as
    /// asked and as served, the times and the machine, then any warnings.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "Provenance: Shapemaze {} (prompts {}, readers {}); design \"{}\" (SHA-256 {}); seeds {}; {} trials",
            self.versions.shapemaze,
            self.versions.prompt,
            self.versions.verifier,
            self.design_name,
            &self.design_sha256[..self.design_sha256.len().min(12)],
            self.seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            self.trials
        );
        for p in &self.players {
            let _ = write!(out, "\n  {} ({}, {} trials)", p.model, p.kind, p.trials);
            if let Some(e) = &p.endpoint {
                let _ = write!(
                    out,
                    ": {} at {}, temperature {}, max_tokens {}",
                    e.preset, e.base_url, e.temperature, e.max_tokens
                );
            }
            if !p.served_models.is_empty() {
                let _ = write!(out, "; served as {}", p.served_models.join(", "));
            }
            if !p.system_fingerprints.is_empty() {
                let _ = write!(out, " (fingerprints {})", p.system_fingerprints.join(", "));
            }
            if let Some(price) = &p.price {
                let _ = write!(
                    out,
                    "; priced ${} in, ${} out per million tokens",
                    price.input, price.output
                );
            }
        }
        let when = match (&self.started, &self.ended) {
            (Some(a), Some(b)) => format!("from {a} to {b}"),
            (Some(a), None) => format!("from {a}"),
            _ => "at times not recorded".to_string(),
        };
        let _ = write!(out, "\n  run {when} on {}", self.machine);
        for w in self.warnings() {
            let _ = write!(out, "\n  Note: {w}.");
        }
        out
    }

    /// As JSON, indented for a person to read.
    pub fn to_json(&self) -> Result<String, JsonError> {
        crate::json::to_string_pretty(self)
    }

    /// Reads a `provenance.json`.
    pub fn from_json(text: &str) -> Result<Provenance, JsonError> {
        crate::json::from_str(text)
    }
}

fn version_counts(records: &[TrialRecord]) -> Vec<VersionCount> {
    let mut out: Vec<VersionCount> = Vec::new();
    for r in records {
        match out.iter_mut().find(|v| v.versions == r.versions) {
            Some(v) => v.records += 1,
            None => out.push(VersionCount {
                versions: r.versions.clone(),
                records: 1,
            }),
        }
    }
    out
}

fn players(design: &ExperimentDesign, records: &[TrialRecord]) -> Vec<PlayerProvenance> {
    let mut out: Vec<PlayerProvenance> = Vec::new();
    for r in records {
        let i = match out.iter().position(|p| p.model == r.model) {
            Some(i) => i,
            None => {
                let price = design
                    .players
                    .iter()
                    .find(|s| s.name() == r.model)
                    .and_then(|s| s.price);
                out.push(PlayerProvenance {
                    model: r.model.clone(),
                    kind: r.player.name().to_string(),
                    endpoint: r.endpoint.clone(),
                    price,
                    served_models: Vec::new(),
                    system_fingerprints: Vec::new(),
                    trials: 0,
                });
                out.len() - 1
            }
        };
        let p = &mut out[i];
        p.trials += 1;
        for m in &r.messages {
            if let Some(id) = m.meta.served_model.as_ref().filter(|s| !s.is_empty()) {
                if !p.served_models.contains(id) {
                    p.served_models.push(id.clone());
                }
            }
            if let Some(f) = m.meta.system_fingerprint.as_ref().filter(|s| !s.is_empty()) {
                if !p.system_fingerprints.contains(f) {
                    p.system_fingerprints.push(f.clone());
                }
            }
        }
    }
    out
}

/// Milliseconds since the Unix epoch as UTC in ISO 8601 (`2026-11-28T09:30:00.000Z`).
pub fn iso8601(ms: f64) -> String {
    let ms = ms.max(0.0).round() as i64;
    let (days, rest) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000
    )
}

/// The date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_written_in_utc_as_iso_8601() {
        assert_eq!(iso8601(0.0), "1970-01-01T00:00:00.000Z");
        // 2026-11-28T09:30:05.250Z
        assert_eq!(iso8601(1_795_858_205_250.0), "2026-11-28T09:30:05.250Z");
        // The leap day of 2024.
        assert_eq!(iso8601(1_709_208_000_000.0), "2024-02-29T12:00:00.000Z");
    }

    #[test]
    fn the_design_s_hash_is_sha_256() {
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
