//! The aggregate file of one model (`eval.schema.json`'s `EvaluationLog`): who ran what
//! (`source_metadata`, `eval_library`), the model as asked and as served (`model_info`),
//! and one evaluation result per phase with its success rate, its 95% interval (Wilson's,
//! clustered by maze instance, as `shapemaze report` gives it), the settings the endpoint
//! was sent (`generation_config`) and the link to the instance rows
//! (`detailed_evaluation_results`). serde structs of the parts of the schema Shapemaze
//! fills, nothing more.

use super::names::{result_id, Details, Identity, COLLECTION, SCHEMA_VERSION};
use crate::analysis::groups::ReadingBounds;
use crate::analysis::observation::{share_by_maze, Observation};
use crate::analysis::stats::Proportion;
use crate::batch::export::csv_value;
use crate::batch::provenance::{PlayerProvenance, Provenance};
use crate::model::preset::Preset;
use crate::model::reply::EndpointInfo;
use crate::play::phase::Phase;
use crate::results::record::{TrialRecord, VERIFIER_VERSION};
use serde::Serialize;

/// One model's aggregate file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvaluationLog {
    /// [`SCHEMA_VERSION`].
    pub schema_version: String,
    /// [`Identity::evaluation_id`].
    pub evaluation_id: String,
    /// When the model's first trial started, seconds since the Unix epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evaluation_timestamp: Option<String>,
    /// When the file was made, seconds since the Unix epoch.
    pub retrieved_timestamp: String,
    /// Where the figures come from: a run of Shapemaze.
    pub source_metadata: SourceMetadata,
    /// Shapemaze, its version and its readers' version.
    pub eval_library: EvalLibrary,
    /// The model.
    pub model_info: ModelInfo,
    /// One result per phase with scored trials.
    pub evaluation_results: Vec<EvaluationResult>,
    /// The instance rows' file, when the model has replies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detailed_evaluation_results: Option<DetailedResults>,
}

/// Whether the data is a run or a report of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceType {
    /// Raw per-item outputs of a run, as a Shapemaze run folder holds.
    EvaluationRun,
}

/// Who ran the evaluation, relative to the model's developer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relationship {
    /// The benchmark's own players (oracle, random).
    FirstParty,
    /// A model someone else made.
    ThirdParty,
}

/// `source_metadata`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SourceMetadata {
    /// `Shapemaze`.
    pub source_name: String,
    /// [`SourceType::EvaluationRun`].
    pub source_type: SourceType,
    /// `Shapemaze` (a run folder does not record who ran it).
    pub source_organization_name: String,
    /// First party for built-in players, third party for models.
    pub evaluator_relationship: Relationship,
    /// The run's provenance: design, hash, seeds, times, machine, record versions.
    pub additional_details: Details,
}

/// `eval_library`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalLibrary {
    /// `shapemaze`.
    pub name: String,
    /// The Shapemaze crate's version.
    pub version: String,
    /// The readers' and the prompts' versions.
    pub additional_details: Details,
}

/// How the model was served.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Deployment {
    /// On the machine of whoever ran it (a local server, a built-in player).
    SelfDeployed,
    /// Through a provider's API.
    ExternallyManaged,
    /// Not known (a custom endpoint, a proxy).
    Unknown,
}

/// Whether the weights can be had: never recorded by a run, so always unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    /// Not recorded.
    Unknown,
}

/// `model_info.additional_details`: the two the schema requires, then strings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelDetails {
    /// How it was served.
    pub deployment_type: Deployment,
    /// Whether its weights can be had.
    pub model_availability: Availability,
    /// The rest, each a string.
    #[serde(flatten)]
    pub more: Details,
}

/// `model_info.inference_engine`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InferenceEngine {
    /// Ollama, vLLM, ...
    pub name: String,
}

/// `model_info`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelInfo {
    /// The player's name in the design (the records' `model`).
    pub name: String,
    /// [`Identity::model_id`].
    pub id: String,
    /// The developer, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub developer: Option<String>,
    /// The endpoint preset's label.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inference_platform: Option<String>,
    /// The local server, for the local presets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inference_engine: Option<InferenceEngine>,
    /// How it was served, and what the server said it was.
    pub additional_details: ModelDetails,
}

/// One phase's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvaluationResult {
    /// `shapemaze.solve`, ... (the instance rows' `evaluation_result_id`).
    pub evaluation_result_id: String,
    /// The same.
    pub evaluation_name: String,
    /// The mazes: generated from seeds, so no dataset to point at.
    pub source_data: SourceData,
    /// A success rate, a proportion from 0 to 1.
    pub metric_config: MetricConfig,
    /// The rate, its counts and its interval.
    pub score_details: ScoreDetails,
    /// The endpoint's settings (models only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generation_config: Option<GenerationConfig>,
}

/// `source_data` (the schema's private-source form).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SourceData {
    /// `shapemaze`.
    pub dataset_name: String,
    /// `other`.
    pub source_type: String,
    /// The mazes and how they were shown.
    pub additional_details: Details,
}

/// `metric_config`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MetricConfig {
    /// What the rate counts.
    pub evaluation_description: String,
    /// `accuracy`.
    pub metric_id: String,
    /// `success rate`.
    pub metric_name: String,
    /// `accuracy`.
    pub metric_kind: String,
    /// `proportion`.
    pub metric_unit: String,
    /// `false`.
    pub lower_is_better: bool,
    /// `continuous`.
    pub score_type: String,
    /// 0.
    pub min_score: f64,
    /// 1.
    pub max_score: f64,
}

/// `score_details`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScoreDetails {
    /// The success rate.
    pub score: f64,
    /// Its counts, as strings.
    pub details: Details,
    /// Its interval.
    pub uncertainty: Uncertainty,
}

/// `score_details.uncertainty`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Uncertainty {
    /// The 95% interval.
    pub confidence_interval: Interval,
    /// The trials scored.
    pub num_samples: usize,
}

/// `uncertainty.confidence_interval`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Its lower end.
    pub lower: f64,
    /// Its upper end.
    pub upper: f64,
    /// 0.95.
    pub confidence_level: f64,
    /// How it was computed.
    pub method: String,
}

/// `generation_config`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationConfig {
    /// The settings the schema names.
    pub generation_args: GenerationArgs,
    /// The rest of the endpoint's settings, as strings.
    pub additional_details: Details,
}

/// `generation_config.generation_args`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GenerationArgs {
    /// The sampling temperature sent.
    pub temperature: f64,
    /// Nucleus sampling.
    pub top_p: f64,
    /// Most tokens per reply (left out when 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// Whether thinking was turned on.
    pub reasoning: bool,
}

/// `detailed_evaluation_results`: the instance rows' file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DetailedResults {
    /// `jsonl`.
    pub format: String,
    /// [`Identity::samples_path`].
    pub file_path: String,
    /// `sha256`.
    pub hash_algorithm: String,
    /// The file's SHA-256, in hex.
    pub checksum: String,
    /// Its lines.
    pub total_rows: usize,
}

/// One model's trials and what the run says about it.
pub struct ModelRun<'a> {
    /// Its names.
    pub identity: &'a Identity,
    /// Its trials.
    pub records: &'a [&'a TrialRecord],
    /// Its entry in the provenance, when there is one.
    pub player: Option<&'a PlayerProvenance>,
    /// The run's provenance.
    pub provenance: &'a Provenance,
}

impl ModelRun<'_> {
    /// The endpoint it was asked through (`None` for a built-in player).
    pub fn endpoint(&self) -> Option<&EndpointInfo> {
        endpoint_of(self.player, self.records)
    }

    /// Each distinct value of column `column` (`trials.csv`'s) over its trials, sorted,
    /// joined by `, `; empty values left out.
    pub fn distinct(&self, column: &str) -> String {
        let mut values: Vec<String> = self
            .records
            .iter()
            .filter_map(|r| csv_value(r, column))
            .filter(|v| !v.is_empty())
            .collect();
        crate::sort::sort_dedup(&mut values);
        values.join(", ")
    }
}

/// The endpoint a model's trials were asked through: as the provenance gives it, else as
/// its first record with one does (`None` for a built-in player).
pub fn endpoint_of<'a>(
    player: Option<&'a PlayerProvenance>,
    records: &[&'a TrialRecord],
) -> Option<&'a EndpointInfo> {
    player
        .and_then(|p| p.endpoint.as_ref())
        .or_else(|| records.iter().find_map(|r| r.endpoint.as_ref()))
}

/// When the first of `records` started, milliseconds since the Unix epoch.
pub fn first_start(records: &[&TrialRecord]) -> Option<f64> {
    records.iter().filter_map(|r| r.started_ms).reduce(f64::min)
}

/// Whole seconds since the Unix epoch of `ms` milliseconds, as the schema's timestamps.
pub fn epoch_seconds(ms: f64) -> i64 {
    (ms / 1000.0).floor() as i64
}

/// The aggregate file of `run`, made at `retrieved_ms`, linked to its instance rows.
pub fn evaluation_log(
    run: &ModelRun<'_>,
    retrieved_ms: f64,
    detailed: Option<DetailedResults>,
) -> EvaluationLog {
    let started = first_start(run.records);
    let built_in = run.endpoint().is_none();
    EvaluationLog {
        schema_version: SCHEMA_VERSION.to_string(),
        evaluation_id: run.identity.evaluation_id.clone(),
        evaluation_timestamp: started.map(|ms| epoch_seconds(ms).to_string()),
        retrieved_timestamp: epoch_seconds(retrieved_ms).to_string(),
        source_metadata: SourceMetadata {
            source_name: "Shapemaze".to_string(),
            source_type: SourceType::EvaluationRun,
            source_organization_name: "Shapemaze".to_string(),
            evaluator_relationship: if built_in {
                Relationship::FirstParty
            } else {
                Relationship::ThirdParty
            },
            additional_details: provenance_details(run.provenance),
        },
        eval_library: EvalLibrary {
            name: COLLECTION.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            additional_details: Details::from([
                ("verifier_version".into(), VERIFIER_VERSION.to_string()),
                (
                    "prompt_version".into(),
                    crate::play::prompt::VERSION.to_string(),
                ),
            ]),
        },
        model_info: model_info(run),
        evaluation_results: results(run),
        detailed_evaluation_results: detailed,
    }
}

/// The provenance's facts as strings.
fn provenance_details(p: &Provenance) -> Details {
    let mut d = Details::new();
    let mut put = |k: &str, v: String| {
        d.insert(k.to_string(), v);
    };
    put("provenance_format", p.format.clone());
    put("design", p.design_name.clone());
    put("design_sha256", p.design_sha256.clone());
    put(
        "seeds",
        p.seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    );
    put("trials_in_run", p.trials.to_string());
    put("machine", p.machine.clone());
    if let Some(s) = &p.started {
        put("started", s.clone());
    }
    if let Some(e) = &p.ended {
        put("ended", e.clone());
    }
    let made_with: Vec<String> = p
        .record_versions
        .iter()
        .map(|v| {
            format!(
                "shapemaze {} (prompts {}, readers {}): {} records",
                v.versions.shapemaze, v.versions.prompt, v.versions.verifier, v.records
            )
        })
        .collect();
    put("records_made_with", made_with.join("; "));
    d
}

/// `model_info`: the player's name, the model id, and how it was served.
fn model_info(run: &ModelRun<'_>) -> ModelInfo {
    let id = run.identity;
    let name = run
        .records
        .first()
        .map_or_else(String::new, |r| r.model.clone());
    let mut more = Details::new();
    more.insert("player_kind".into(), run.distinct("player"));
    let Some(e) = run.endpoint() else {
        more.insert(
            "note".into(),
            "a player built into Shapemaze (a program, not a model)".into(),
        );
        return ModelInfo {
            name,
            id: id.model_id.clone(),
            developer: id.developer.clone(),
            inference_platform: None,
            inference_engine: None,
            additional_details: ModelDetails {
                deployment_type: Deployment::SelfDeployed,
                model_availability: Availability::Unknown,
                more,
            },
        };
    };
    let preset = Preset::parse(&e.preset).ok();
    more.insert("endpoint_preset".into(), e.preset.clone());
    more.insert("base_url".into(), e.base_url.clone());
    if let Some(p) = run.player {
        if !p.served_models.is_empty() {
            more.insert("served_models".into(), p.served_models.join(", "));
        }
        if !p.system_fingerprints.is_empty() {
            more.insert(
                "system_fingerprints".into(),
                p.system_fingerprints.join(", "),
            );
        }
    }
    let deployment = match preset {
        Some(Preset::Ollama | Preset::Vllm | Preset::LlamaCpp | Preset::LmStudio) => {
            Deployment::SelfDeployed
        }
        Some(p) if p.is_dashscope() || matches!(p, Preset::OpenRouter | Preset::OpenAi) => {
            Deployment::ExternallyManaged
        }
        _ => Deployment::Unknown,
    };
    ModelInfo {
        name,
        id: id.model_id.clone(),
        developer: id.developer.clone(),
        inference_platform: preset.map(|p| p.label().to_string()),
        inference_engine: (deployment == Deployment::SelfDeployed)
            .then(|| {
                preset.map(|p| InferenceEngine {
                    name: p.label().to_string(),
                })
            })
            .flatten(),
        additional_details: ModelDetails {
            deployment_type: deployment,
            model_availability: Availability::Unknown,
            more,
        },
    }
}

/// What the phase's success means, for `evaluation_description`.
fn describe(phase: Phase) -> &'static str {
    match phase {
        Phase::Solve => "Solve: the share of trials whose player walked from P to G within the move limit, every move valid.",
        Phase::Recognize => "Recognize: the share of trials whose reply named the maze's shape.",
        _ => "Generate: the share of trials whose reply drew a new maze of the same shape and size (a valid encoding, one P, one G, a path between them).",
    }
}

/// One result per phase with scored trials (API errors and phases not reached are not
/// scored).
fn results(run: &ModelRun<'_>) -> Vec<EvaluationResult> {
    let observations: Vec<Observation> = run
        .records
        .iter()
        .map(|r| Observation::from_record("", r))
        .collect();
    let api_errors = observations.iter().filter(|o| o.api_error()).count();
    let source_data = source_data(run);
    let generation_config = run.endpoint().map(|e| generation_config(e, run));
    super::names::PHASES
        .into_iter()
        .filter_map(|phase| {
            let p = share_by_maze(&observations, |o| o.scored(phase));
            (p.n > 0).then(|| EvaluationResult {
                evaluation_result_id: result_id(phase),
                evaluation_name: result_id(phase),
                source_data: source_data.clone(),
                metric_config: MetricConfig {
                    evaluation_description: describe(phase).to_string(),
                    metric_id: "accuracy".into(),
                    metric_name: "success rate".into(),
                    metric_kind: "accuracy".into(),
                    metric_unit: "proportion".into(),
                    lower_is_better: false,
                    score_type: "continuous".into(),
                    min_score: 0.0,
                    max_score: 1.0,
                },
                score_details: score_details(
                    &p,
                    ReadingBounds::of(&observations, phase),
                    observations.len(),
                    api_errors,
                ),
                generation_config: generation_config.clone(),
            })
        })
        .collect()
}

/// A phase's rate, its counts, its reading bounds and its interval.
fn score_details(
    p: &Proportion,
    bounds: ReadingBounds,
    trials: usize,
    api_errors: usize,
) -> ScoreDetails {
    let mut details = Details::from([
        ("successes".into(), p.successes.to_string()),
        ("scored".into(), p.n.to_string()),
        ("trials".into(), trials.to_string()),
        ("trials_with_api_errors".into(), api_errors.to_string()),
        ("unsure".into(), bounds.unsure.to_string()),
        (
            "score_if_unsure_wrong".into(),
            bounds.if_unsure_wrong.to_string(),
        ),
        (
            "score_if_unsure_right".into(),
            bounds.if_unsure_right.to_string(),
        ),
    ]);
    if let Some(m) = p.mazes {
        details.insert("mazes".into(), m.to_string());
    }
    if let Some(d) = p.design_effect {
        details.insert("design_effect".into(), d.to_string());
    }
    ScoreDetails {
        score: p.rate,
        details,
        uncertainty: Uncertainty {
            confidence_interval: Interval {
                lower: p.ci_low,
                upper: p.ci_high,
                confidence_level: 0.95,
                method: "Wilson score interval on the effective sample size, clustered by maze instance (Kish design effect), as shapemaze report gives it".into(),
            },
            num_samples: p.n,
        },
    }
}

/// The mazes and how they were shown and asked about.
fn source_data(run: &ModelRun<'_>) -> SourceData {
    let mut d = Details::new();
    for (key, column) in [
        ("encodings", "encoding"),
        ("shapes", "shape"),
        ("sizes", "size"),
        ("seeds", "seed"),
        ("protocols", "protocol"),
        ("move_limits", "move_limit"),
        ("lenient", "lenient"),
        ("vision", "vision"),
        ("symbols", "symbols"),
        ("prompt_versions", "prompt_version"),
    ] {
        let values = run.distinct(column);
        if !values.is_empty() {
            d.insert(key.to_string(), values);
        }
    }
    d.insert(
        "mazes".into(),
        "generated from the seeds by Shapemaze's seeded generator; each run folder holds them as experiment_mazes/{R}x{C}/{shape}/*.npy".into(),
    );
    SourceData {
        dataset_name: COLLECTION.to_string(),
        source_type: "other".into(),
        additional_details: d,
    }
}

/// The endpoint's settings: those the schema names, the rest as strings.
fn generation_config(e: &EndpointInfo, run: &ModelRun<'_>) -> GenerationConfig {
    let mut d = Details::new();
    d.insert("stream".into(), e.stream.to_string());
    d.insert("logprobs".into(), e.logprobs.to_string());
    if let Some(seed) = e.seed {
        d.insert("seed".into(), seed.to_string());
    }
    if let Some(effort) = e.effort {
        d.insert("effort".into(), effort.name().to_string());
    }
    if !e.extra.trim().is_empty() {
        d.insert("extra_body".into(), e.extra.clone());
    }
    let price = run.player.and_then(|p| p.price).or(e.price);
    if let Some(p) = price {
        d.insert("price_input_per_million".into(), p.input.to_string());
        d.insert("price_output_per_million".into(), p.output.to_string());
        if let Some(r) = p.reasoning {
            d.insert("price_reasoning_per_million".into(), r.to_string());
        }
    }
    let mut prompts: Vec<String> = run
        .records
        .iter()
        .filter_map(|r| r.system_prompt.clone())
        .collect();
    crate::sort::sort_dedup(&mut prompts);
    if !prompts.is_empty() {
        d.insert("system_prompt".into(), prompts.join("\n---\n"));
    }
    GenerationConfig {
        generation_args: GenerationArgs {
            temperature: e.temperature,
            top_p: e.top_p,
            max_tokens: (e.max_tokens > 0).then_some(e.max_tokens),
            reasoning: e.thinking,
        },
        additional_details: d,
    }
}
