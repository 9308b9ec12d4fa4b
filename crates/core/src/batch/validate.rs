//! Whether an experiment design can run ([`ExperimentDesign::validate`]): every problem
//! found, each with what to change.

use super::design::{
    ExperimentDesign, PlayerSpec, MAX_CONCURRENCY, MAX_MOVE_LIMIT, MAX_REPEATS,
    MAX_SAMPLES_PER_SHAPE,
};
use crate::batch::error::DesignError;
use crate::batch::imported::ImportedMaze;
use crate::maze::encoding::Encoding;
use crate::maze::grid::{check_size, SIZES};
use crate::play::player::PlayerKind;
use crate::play::trial::Protocol;
use crate::results::layout::model_dir_name;
use crate::text::Fixed;
use std::collections::BTreeMap;

impl ExperimentDesign {
    /// Checks that the design can run; the error lists every problem with what to do.
    pub fn validate(&self) -> Result<(), DesignError> {
        let mut p: Vec<String> = Vec::new();
        self.validate_players(&mut p);
        self.validate_conditions(&mut p);
        match &self.mazes {
            Some(mazes) => self.validate_mazes(mazes, &mut p),
            None => self.validate_generated(&mut p),
        }
        self.validate_counts(&mut p);
        if p.is_empty() {
            Ok(())
        } else {
            Err(DesignError { problems: p })
        }
    }

    /// The answer modes' problems: a mode twice, modes other than `free` without a model
    /// endpoint to play them, or with a staircase (whose walks go by player and encoding).
    fn validate_answer_modes(&self, p: &mut Vec<String>) {
        if has_duplicates(&self.answer_modes) {
            p.push("answer modes: each mode once".into());
        }
        let moded = self.answer_modes.iter().any(|m| !m.is_free());
        if moded && !self.players.iter().any(PlayerSpec::is_endpoint) {
            p.push("answer modes other than free apply to model endpoints (built-in players answer freely): add one, or keep free alone".into());
        }
        if moded && self.staircase.is_some() {
            p.push("a staircase walks in the free answer mode only: remove the staircase or the other answer modes".into());
        }
    }

    /// The players' problems: none at all, or each one's (in order), two of them sharing
    /// a results folder included.
    fn validate_players(&self, p: &mut Vec<String>) {
        if self.players.is_empty() {
            p.push("add at least one player (oracle, random, scripted or a model endpoint)".into());
        }
        let mut folder_names: BTreeMap<String, String> = BTreeMap::new();
        for (i, player) in self.players.iter().enumerate() {
            self.validate_player(i + 1, player, &mut folder_names, p);
        }
    }

    /// Player `n`'s problems (from 1); `folder_names` holds the results folders of the
    /// players before it, by the run names that use them, and takes this one's.
    fn validate_player(
        &self,
        n: usize,
        player: &PlayerSpec,
        folder_names: &mut BTreeMap<String, String>,
        p: &mut Vec<String>,
    ) {
        let name = player.name();
        match player.kind {
            PlayerKind::Human => p.push(format!(
                "player {n} is 'human': a batch run plays built-in agents or models only"
            )),
            PlayerKind::Endpoint => validate_endpoint(n, &name, player, p),
            _ => {}
        }
        if let Some(Err(e)) = player.price.map(|price| price.check()) {
            p.push(format!("player {n} ({name}): {e}"));
        }
        if let Some(k) = &player.key_env {
            if !is_env_name(k) {
                p.push(format!(
                    "player {n} ({name}): key_env must be the NAME of an environment variable (like DASHSCOPE_API_KEY), never the key itself"
                ));
            }
        }
        if name.is_empty() {
            return;
        }
        if let Some(c) = player.concurrency {
            if c == 0 || c > MAX_CONCURRENCY {
                p.push(format!(
                    "player {n} ({name}): concurrency {c} is outside 1 to {MAX_CONCURRENCY}"
                ));
            }
        }
        if player.effort.is_some() && player.is_endpoint() && !self.efforts.is_empty() {
            p.push(format!(
                "player {n} ({name}): its effort and the design's efforts would both set it: remove one"
            ));
        }
        for run in self.runs_of(player) {
            let name = run.name();
            let folder = model_dir_name(&name);
            if let Some(earlier) = folder_names.insert(folder.clone(), name.clone()) {
                p.push(format!(
                    "players '{earlier}' and '{name}' would share the results folder name '{folder}': give one of them a different name"
                ));
            }
        }
    }

    /// The problems of what the trials vary over and how they are shown and paid for:
    /// efforts, lenient, symbols and vision, encodings, the cost limit.
    fn validate_conditions(&self, p: &mut Vec<String>) {
        self.validate_answer_modes(p);
        if !self.efforts.is_empty() && !self.players.iter().any(PlayerSpec::is_endpoint) {
            p.push(
                "reasoning efforts apply to model endpoints: add one, or remove the efforts".into(),
            );
        }
        if has_duplicates(&self.efforts) {
            p.push("a reasoning effort is listed twice: list each once".into());
        }
        if self.lenient > 0 && self.protocol == Protocol::SingleShot {
            p.push("lenient forgives invalid moves one at a time: choose the stepwise or combined protocol, or set lenient to 0".into());
        } else if self.lenient > self.move_limit {
            p.push(format!(
                "lenient {} is more than the move limit ({}): each forgiven move still uses a move",
                self.lenient, self.move_limit
            ));
        }
        if self.vision.shows_image() && !self.symbols.is_standard() {
            p.push(format!(
                "the image marks the player P and the goal G, so the symbols {} cannot be used with vision {}: remove the symbols or show text",
                self.symbols,
                self.vision.name()
            ));
        }
        if !self.symbols.is_standard() && !self.encodings.contains(&Encoding::Matrix) {
            p.push(format!(
                "the symbols {} apply to the matrix encoding: add it, or remove the symbols",
                self.symbols
            ));
        }
        if self.encodings.is_empty() {
            p.push("choose at least one encoding (matrix or coord_list)".into());
        }
        if let Some(limit) = self.cost_limit {
            if !limit.is_finite() || limit <= 0.0 {
                p.push(format!(
                    "the cost limit must be a number of dollars above zero, not {:#.6}",
                    Fixed(limit)
                ));
            } else if !self.players.iter().any(|pl| pl.price.is_some()) {
                p.push("a cost limit needs a price for at least one model (price: input and output dollars per million tokens)".into());
            }
        }
        if has_duplicates(&self.encodings) {
            p.push("an encoding is listed twice: list each once".into());
        }
    }

    /// The problems of generated mazes: shapes, sizes, samples per shape.
    fn validate_generated(&self, p: &mut Vec<String>) {
        if self.shapes.is_empty() {
            p.push("choose at least one shape".into());
        }
        if has_duplicates(&self.shapes) {
            p.push("a shape is listed twice: list each once".into());
        }
        let sizes = self.sizes();
        for s in &sizes {
            if let Err(e) = check_size(*s) {
                p.push(e.to_string());
            }
        }
        if has_duplicates(&sizes) {
            p.push("a size is listed twice: list each once".into());
        }
        if self.samples_per_shape == 0 {
            p.push("samples_per_shape must be at least 1".into());
        } else if self.samples_per_shape > MAX_SAMPLES_PER_SHAPE {
            p.push(format!(
                "samples_per_shape {} is more than {MAX_SAMPLES_PER_SHAPE}",
                self.samples_per_shape
            ));
        }
    }

    /// The problems of the counts and limits: repeats, staircase, concurrency, requests
    /// per minute, move limit.
    fn validate_counts(&self, p: &mut Vec<String>) {
        if self.repeats == 0 || self.repeats > MAX_REPEATS {
            p.push(format!(
                "repeats {} is outside 1 to {MAX_REPEATS}",
                self.repeats
            ));
        }
        if let Some(stairs) = self.staircase {
            p.extend(stairs.problems(self.stair_levels().len()));
            if self.repeats != 1 {
                p.push(format!(
                    "a staircase chooses each trial's maze itself: set repeats to 1 (it is {})",
                    self.repeats
                ));
            }
        }
        if self.concurrency == 0 || self.concurrency > MAX_CONCURRENCY {
            p.push(format!(
                "concurrency {} is outside 1 to {MAX_CONCURRENCY}",
                self.concurrency
            ));
        }
        if self.requests_per_minute == Some(0) {
            p.push("requests_per_minute must be at least 1, or left out for no limit".into());
        }
        if self.move_limit == 0 || self.move_limit > MAX_MOVE_LIMIT {
            p.push(format!(
                "move_limit {} is outside 1 to {MAX_MOVE_LIMIT}",
                self.move_limit
            ));
        }
    }

    /// The problems of imported mazes: none, an unsupported size, an unreadable maze, one
    /// listed twice.
    fn validate_mazes(&self, mazes: &[ImportedMaze], p: &mut Vec<String>) {
        if mazes.is_empty() {
            p.push("the imported maze list is empty: import at least one .npy maze file, or remove it to generate mazes".into());
        }
        let mut seen = Vec::new();
        for m in mazes {
            let label = format!(
                "imported maze {}x{} {} {}",
                m.size, m.size, m.shape, m.index
            );
            if !SIZES.contains(&m.size) {
                p.push(format!("{label}: size {} is not supported", m.size));
                continue;
            }
            if let Err(e) = m.maze() {
                p.push(format!("{label} {e}"));
            }
            let k = (m.size, m.shape, m.index);
            if seen.contains(&k) {
                p.push(format!("{label} is listed twice"));
            }
            seen.push(k);
        }
    }
}

/// An endpoint player's own problems: base URL, model, sampling, attempts, extra body.
fn validate_endpoint(n: usize, name: &str, player: &PlayerSpec, p: &mut Vec<String>) {
    if player.base_url.trim().is_empty() {
        p.push(format!("player {n} ({name}): give the endpoint's base URL"));
    } else if !(player.base_url.starts_with("http://")
        || player.base_url.starts_with("https://")
        || player.base_url.starts_with('/'))
    {
        p.push(format!(
            "player {n} ({name}): the base URL '{}' must start with http:// or https://",
            player.base_url
        ));
    }
    if player.model.trim().is_empty() {
        p.push(format!("player {n}: give the model's name"));
    }
    if !(0.0..=2.0).contains(&player.temperature) {
        p.push(format!(
            "player {n} ({name}): temperature {:#.6} is outside 0 to 2",
            Fixed(player.temperature)
        ));
    }
    if !(0.0..=1.0).contains(&player.top_p) {
        p.push(format!(
            "player {n} ({name}): top_p {:#.6} is outside 0 to 1",
            Fixed(player.top_p)
        ));
    }
    if player.max_tokens == 0 {
        p.push(format!(
            "player {n} ({name}): max_tokens must be at least 1"
        ));
    }
    if player.max_attempts == 0 {
        p.push(format!(
            "player {n} ({name}): max_attempts must be at least 1"
        ));
    }
    if !player.extra.trim().is_empty()
        && !matches!(
            serde_json::from_str::<serde_json::Value>(&player.extra),
            Ok(serde_json::Value::Object(_))
        )
    {
        p.push(format!(
                "player {n} ({name}): extra must be a JSON object such as {{\"enable_thinking\": false}}"
            ));
    }
}

fn has_duplicates<T: PartialEq>(items: &[T]) -> bool {
    items
        .iter()
        .enumerate()
        .any(|(i, a)| items[..i].contains(a))
}

/// Whether `s` looks like an environment variable's name (`[A-Za-z_][A-Za-z0-9_]*`, at
/// most 64 characters), as opposed to a key.
fn is_env_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && s.len() <= 64
        && !s.starts_with("sk_")
}
