//! What a run will cost before it starts: calls, tokens and, with prices, dollars (the
//! experiment page's estimate line, and what the cost limit expects of a trial before one
//! has finished).

use super::design::{ExperimentDesign, PlayerSpec};
use crate::maze::encoding::Encoding;
use crate::maze::templates::TemplateLibrary;
use crate::play::answer::AnswerMode;
use crate::play::trial::{Protocol, Trial};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Characters per token in the rough token estimate ([`ExperimentDesign::estimate`]).
pub const CHARS_PER_TOKEN: usize = 4;

/// Reply tokens assumed per call in the rough token estimate.
pub const REPLY_TOKENS_ESTIMATE: u64 = 150;

/// Tokens of a transcription call's question around the reply it holds (the `transcribed`
/// answer mode: one more call per reply), and of its answer, in the rough estimate.
pub const TRANSCRIPTION_TOKENS_ESTIMATE: (u64, u64) = (150, 40);

/// What a run will cost, shown before it starts.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Trials.
    pub trials: usize,
    /// Chat calls to endpoints at most, retries and step-downs not counted (built-in
    /// players make none): stepwise `move_limit + 2` per trial, combined `move_limit + 1`,
    /// single shot 3; twice that under the `transcribed` answer mode.
    pub calls: u64,
    /// A rough token count for those calls. Every call sends the whole conversation so
    /// far, and each message is taken to be as long as the trial's first prompt, so call
    /// `j` (from 1) of a trial sends about `j x first prompt` characters, counted as
    /// [`CHARS_PER_TOKEN`] characters per token, plus [`REPLY_TOKENS_ESTIMATE`] reply
    /// tokens. An upper figure: most trials end well before the move limit.
    pub tokens: u64,
    /// Dollars for those tokens at the players' prices (prompt tokens at the input price,
    /// reply tokens at the dearest output price), when any player has a price: as high
    /// an estimate as the tokens are.
    pub cost: Option<f64>,
    /// Each priced player's dearest trial by that reckoning, in the design's player
    /// order: what the cost limit expects of a player's trial before one has finished. (A
    /// list, not a map: a handful of players, and a map's code costs the browser build.)
    pub cost_per_trial: Vec<(String, f64)>,
}

impl ExperimentDesign {
    /// Chat calls one trial makes at most (retries not counted): stepwise
    /// `move_limit + 2`, combined `move_limit + 1`, single shot 3.
    pub fn calls_per_trial(&self) -> u64 {
        let m = self.move_limit as u64;
        match self.protocol {
            Protocol::Stepwise => m + 2,
            Protocol::Combined => m + 1,
            Protocol::SingleShot => 3,
        }
    }

    /// Trials, calls and tokens before starting (see [`Estimate`]). Calls and tokens
    /// count endpoint players only. `library` gives the template library for a size
    /// (`rescore::Libraries::get` fits); the first prompt's length is measured on a real
    /// maze of each size and encoding.
    pub fn estimate(&self, mut library: impl FnMut(usize) -> Arc<TemplateLibrary>) -> Estimate {
        let trials = self.trials();
        let runs = self.runs();
        let run = |name: &str| runs.iter().find(|p| p.name() == name);
        let c = self.calls_per_trial();
        let mut first_prompt: BTreeMap<(usize, Encoding), u64> = BTreeMap::new();
        let mut est = Estimate {
            trials: self.trial_count(),
            ..Estimate::default()
        };
        // A staircase lists each walk's first trial, standing for the walk's trials.
        let per_key = self.staircase.map_or(1, |s| s.trials as u64);
        for key in &trials {
            if !run(&key.player).is_some_and(PlayerSpec::is_endpoint) {
                continue;
            }
            let chars = *first_prompt
                .entry((key.size, key.encoding))
                .or_insert_with(|| {
                    let lib = library(key.size);
                    self.maze_for(key, &lib)
                        .map(|maze| {
                            let t = Trial::new(self.setup_for(key, maze), lib.clone());
                            t.pending_prompt().map_or(0, |p| p.len() as u64)
                        })
                        .unwrap_or(0)
                });
            let prompt_tokens = chars / CHARS_PER_TOKEN as u64;
            // A transcribed trial makes a transcription call per reply, holding the reply.
            let transcribed = u64::from(key.answer_mode == AnswerMode::Transcribed);
            est.calls += c * (1 + transcribed) * per_key;
            // Call j sends j messages of about the first prompt's length.
            let (question, answer) = TRANSCRIPTION_TOKENS_ESTIMATE;
            let sent = prompt_tokens * c * (c + 1) / 2
                + transcribed * c * (REPLY_TOKENS_ESTIMATE + question);
            let replied = REPLY_TOKENS_ESTIMATE * c + transcribed * c * answer;
            est.tokens += (sent + replied) * per_key;
            if let Some(price) = run(&key.player).and_then(|p| p.price) {
                let dearest = price.output.max(price.reasoning.unwrap_or(0.0));
                let cost = (sent as f64 * price.input + replied as f64 * dearest) / 1e6;
                *est.cost.get_or_insert(0.0) += cost * per_key as f64;
                match est
                    .cost_per_trial
                    .iter_mut()
                    .find(|(p, _)| *p == key.player)
                {
                    Some((_, top)) => *top = top.max(cost),
                    None => est.cost_per_trial.push((key.player.clone(), cost)),
                }
            }
        }
        est
    }
}
