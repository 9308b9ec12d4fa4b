//! `--second-reader FILE` for `shapemaze score`: a chat model, through the same client and
//! key handling as a model player (its API key read from the environment variable the
//! file's `key_env` names, never written anywhere), asked with one fixed prompt
//! (`shapemaze_core::analysis::second_reader`) which move, shape or maze each reply gives.
//! Its answers are kept as they come in `second-reader.jsonl` inside the folder, so an
//! interrupted pass resumes where it stopped and a second pass makes no call. The report
//! gives, per phase, Cohen's kappa with its interval and the raw agreement, and lists the
//! replies the two readers read differently: the ones to review first.

use super::transport::NativeTransport;
use crate::io::{CliError, Io};
use serde::Serialize;
use shapemaze_core::analysis::second_reader::{
    compare, estimate, judge_messages, judge_value, kappa_sentence, kept_answers, JudgeAnswer,
    Kappa, ANSWERS_FILE, JUDGE_PROMPT_VERSION,
};
use shapemaze_core::batch::design::PlayerSpec;
use shapemaze_core::batch::runner::endpoint_settings;
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::model::call::complete;
use shapemaze_core::model::settings::EndpointSettings;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::verify::Extracted;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The file the judge's answers are kept in, inside the folder scored.
pub const CACHE_FILE: &str = ANSWERS_FILE;

/// The judge: its settings and key.
pub struct Judge {
    settings: EndpointSettings,
    key: String,
    price: Option<shapemaze_core::model::price::Price>,
}

impl Judge {
    /// Reads a player file (`{"kind": "endpoint", "base_url": ..., "model": ...,
    /// "key_env": ...}`, as a design's player), and the key from the environment.
    pub fn load(file: &str) -> Result<Judge, CliError> {
        let text = std::fs::read_to_string(file).map_err(|e| {
            CliError::input(format!(
                "cannot read the second reader's settings {file}: {e}"
            ))
        })?;
        let spec: PlayerSpec = serde_json::from_str(&text).map_err(|e| {
            CliError::input(format!(
                "{file}: not a player's settings ({e}); write it as a design's endpoint player: {{\"kind\": \"endpoint\", \"base_url\": \"...\", \"model\": \"...\", \"key_env\": \"...\"}}"
            ))
        })?;
        let settings =
            endpoint_settings(&spec).map_err(|e| CliError::input(format!("{file}: {e}")))?;
        settings
            .validate()
            .map_err(|e| CliError::input(format!("{file}: {e}")))?;
        let key = match spec.key_env.as_deref().map(str::trim) {
            Some(var) if !var.is_empty() => std::env::var(var).map_err(|_| {
                CliError::usage(format!(
                    "the environment variable {var} (the second reader's API key) is not set"
                ))
            })?,
            _ => String::new(),
        };
        Ok(Judge {
            settings,
            key,
            price: spec.price,
        })
    }
}

/// One reply to put to the judge, with the rules reader's value.
pub struct Asked {
    /// The transcript's path under the folder.
    pub trial: String,
    /// The phase.
    pub phase: Phase,
    /// The reply's index in it.
    pub step: usize,
    /// The reply.
    pub reply: String,
    /// What the rules reader read.
    pub read: Extracted,
    /// The shapes in play.
    pub shapes: ShapeSet,
}

/// The second reader's part of `score`'s report.
#[derive(Serialize)]
pub struct SecondReaderReport {
    /// The judge's model.
    pub model: String,
    /// The prompt's version.
    pub prompt_version: u32,
    /// Calls made now (answers already kept are not asked again).
    pub calls: usize,
    /// Answers read from the cache.
    pub kept: usize,
    /// Per phase: the two readers' agreement.
    pub phases: Vec<PhaseKappa>,
    /// The replies read differently (`trial phase step: rules X, second reader Y`).
    pub disagreements: Vec<String>,
    /// The replies the judge could not read (why).
    pub errors: Vec<String>,
}

/// One phase's agreement.
#[derive(Serialize)]
pub struct PhaseKappa {
    /// The phase.
    pub phase: Phase,
    /// Kappa, its interval, the raw agreement.
    #[serde(flatten)]
    pub kappa: Kappa,
}

fn cached(dir: &Path) -> PathBuf {
    dir.join(CACHE_FILE)
}

fn key(trial: &str, phase: Phase, step: usize) -> (String, Phase, usize) {
    (trial.to_string(), phase, step)
}

/// Asks the judge about every reply not yet answered, keeping each answer as it comes, and
/// reports the agreement. The cost estimate and the progress go to stderr.
pub fn run(
    judge: &Judge,
    dir: &Path,
    asked: &[Asked],
    io: &mut Io<'_>,
) -> Result<SecondReaderReport, CliError> {
    let model = judge.settings.model.clone();
    let mut answers = std::fs::read_to_string(cached(dir))
        .map(|text| kept_answers(&text, &model))
        .unwrap_or_default();
    let kept = asked
        .iter()
        .filter(|a| answers.contains_key(&key(&a.trial, a.phase, a.step)))
        .count();
    let todo: Vec<&Asked> = asked
        .iter()
        .filter(|a| !answers.contains_key(&key(&a.trial, a.phase, a.step)))
        .collect();
    let (prompt_tokens, completion_tokens) = estimate(todo.iter().map(|a| a.reply.as_str()));
    let cost = judge
        .price
        .map(|p| {
            format!(
                ", about ${:.2} at its price",
                p.cost(prompt_tokens, completion_tokens, 0)
            )
        })
        .unwrap_or_default();
    io.note(&format!(
        "second reader {model}: {} replies to read ({kept} already answered in {CACHE_FILE}), about {prompt_tokens} prompt and {completion_tokens} answer tokens{cost}",
        todo.len()
    ))?;
    let mut errors = Vec::new();
    let calls = todo.len();
    if !todo.is_empty() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| CliError::usage(format!("cannot start the async runtime: {e}")))?;
        let transport = NativeTransport::new(NativeTransport::client()?, 0x5eed);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(cached(dir))
            .map_err(|e| {
                CliError::unwritable(format!("cannot write {}: {e}", cached(dir).display()))
            })?;
        for (i, a) in todo.iter().enumerate() {
            let messages = judge_messages(a.phase, &a.reply, a.shapes);
            let reply = runtime.block_on(complete(
                &transport,
                &judge.settings,
                &judge.key,
                &messages,
                &mut |_| {},
            ));
            let where_ = format!("{} {} {}", a.trial, a.phase.name(), a.step);
            match reply
                .map_err(|e| e.to_string())
                .and_then(|r| judge_value(a.phase, &r.content, a.shapes).map_err(|e| e.to_string()))
            {
                Ok(value) => {
                    let line = serde_json::to_string(&JudgeAnswer {
                        trial: a.trial.clone(),
                        phase: a.phase,
                        step: a.step,
                        model: model.clone(),
                        prompt_version: JUDGE_PROMPT_VERSION,
                        value: value.clone(),
                    })
                    .map_err(|e| CliError::unwritable(format!("cannot write an answer: {e}")))?;
                    writeln!(file, "{line}").map_err(CliError::Output)?;
                    answers.insert(key(&a.trial, a.phase, a.step), value);
                }
                Err(e) => errors.push(format!("{where_}: {e}")),
            }
            if (i + 1) % 25 == 0 || i + 1 == calls {
                io.note(&format!("second reader: {} of {calls} read", i + 1))?;
            }
        }
    }
    // A value as the disagreement says it (its JSON, or why it has none).
    let shown =
        |v: &Extracted| shapemaze_core::json::to_string(v).unwrap_or_else(|e| e.to_string());
    let compared = compare(
        asked
            .iter()
            .map(|a| (key(&a.trial, a.phase, a.step), &a.read)),
        &answers,
    );
    let disagreements = compared
        .differ
        .iter()
        .map(|((trial, phase, step), rules, second)| {
            format!(
                "{trial} {} {step}: rules {}, second reader {}",
                phase.name(),
                shown(rules),
                shown(second)
            )
        })
        .collect();
    Ok(SecondReaderReport {
        model,
        prompt_version: JUDGE_PROMPT_VERSION,
        calls,
        kept,
        phases: compared
            .phases
            .into_iter()
            .map(|(phase, kappa)| PhaseKappa { phase, kappa })
            .collect(),
        disagreements,
        errors,
    })
}

/// The report's text.
pub fn render(r: &SecondReaderReport) -> String {
    let mut out = format!(
        "Second reader {} (prompt version {}): {} calls now, {} answers kept from before.\n",
        r.model, r.prompt_version, r.calls, r.kept
    );
    for p in &r.phases {
        out.push_str(&format!(
            "In {}: {}.\n",
            p.phase.name(),
            kappa_sentence(&p.kappa)
        ));
    }
    if !r.disagreements.is_empty() {
        out.push_str(&format!(
            "Read differently ({}), to review first:\n",
            r.disagreements.len()
        ));
        for d in &r.disagreements {
            out.push_str(&format!("  {d}\n"));
        }
    }
    if !r.errors.is_empty() {
        out.push_str(&format!(
            "Not read by the second reader ({}):\n",
            r.errors.len()
        ));
        for e in &r.errors {
            out.push_str(&format!("  {e}\n"));
        }
    }
    out
}
