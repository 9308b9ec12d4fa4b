//! The timed log of every action of a trial, and the signs of help read from it.

use serde::{Deserialize, Serialize};

/// One thing the participant did, timed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Action {
    /// What: `move`, `key`, `answer`, `choice`, `paint`, `submit`, `focus`, `blur`,
    /// `resize`, `phase`, `reload`, ...
    pub kind: String,
    /// The phase it happened in (`solve`, `recognize`, `generate`, `done`).
    pub phase: String,
    /// Details (the cell, the key, the text as typed, the drawn maze, the window size).
    #[serde(default)]
    pub detail: String,
    /// Milliseconds since the trial started.
    pub t_ms: f64,
    /// Milliseconds since the previous action of this trial.
    pub dt_ms: f64,
}

/// The timed log of one trial.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionLog {
    /// Every action, in order.
    pub actions: Vec<Action>,
    /// Whether each action is logged under the phase it happened in (logs written from
    /// issue 42 on). Earlier logs put an action under the phase it led to, so the move that
    /// reached the goal was logged as `recognize`; [`ActionLog::phase_ms`] reads them by the
    /// action's kind instead ([`kind_phase`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exact: bool,
}

/// The phase an action of `kind` belongs to whatever phase an older log put it under: a
/// move or a key to the solve, an answer or a choice to the recognition, a paint or a
/// submission to the generation; `None` for the others (focus, resize, ...).
pub fn kind_phase(kind: &str) -> Option<&'static str> {
    match kind {
        "move" | "key" => Some("solve"),
        "answer" | "choice" => Some("recognize"),
        "paint" | "submit" => Some("generate"),
        _ => None,
    }
}

impl ActionLog {
    /// An empty log whose actions are logged under the phase they happen in.
    pub fn new() -> ActionLog {
        ActionLog {
            actions: Vec::new(),
            exact: true,
        }
    }

    /// The phase action `a` happened in: as logged, or by its kind in an older log.
    fn phase_of<'a>(&self, a: &'a Action) -> &'a str {
        if self.exact {
            return &a.phase;
        }
        kind_phase(&a.kind).unwrap_or(&a.phase)
    }

    /// Adds an action at `t_ms` since the trial started.
    pub fn push(&mut self, kind: &str, phase: &str, detail: impl Into<String>, t_ms: f64) {
        let prev = self.actions.last().map_or(0.0, |a| a.t_ms);
        self.actions.push(Action {
            kind: kind.into(),
            phase: phase.into(),
            detail: detail.into(),
            t_ms,
            dt_ms: (t_ms - prev).max(0.0),
        });
    }

    /// Milliseconds spent in `phase`: from the action before its first action (the trial's
    /// start for the first phase) to its last action before another phase's, the action
    /// that ends it included (the move that reaches the goal is the solve's).
    pub fn phase_ms(&self, phase: &str) -> f64 {
        let first = self.actions.iter().position(|a| self.phase_of(a) == phase);
        let Some(first) = first else { return 0.0 };
        let start = if first == 0 {
            0.0
        } else {
            self.actions[first - 1].t_ms
        };
        let end = self.actions[first..]
            .iter()
            .take_while(|a| {
                let p = self.phase_of(a);
                p == phase || (!self.exact && kind_phase(&a.kind).is_none())
            })
            .filter(|a| self.phase_of(a) == phase)
            .last()
            .map_or(start, |a| a.t_ms);
        end - start
    }
}

/// Signs in a trial's log that a participant may have had help: pastes, leaving the tab,
/// and answers typed faster than people type. Flagged in the data, never used to block
/// anyone (rejecting a participant and excluding their data are separate acts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HelpSignals {
    /// Pastes into the page during the trial.
    pub pastes: usize,
    /// Times the participant left the tab or window.
    pub tab_leaves: usize,
    /// Time away, in milliseconds (until they came back, or the trial's last action).
    pub away_ms: f64,
    /// Characters of typed answers per second, from the action before each answer to the
    /// answer (`None` without a typed answer): people rarely exceed 10.
    pub answer_chars_per_s: Option<f64>,
}

impl ActionLog {
    /// The help signals of this log.
    pub fn signals(&self) -> HelpSignals {
        let mut s = HelpSignals::default();
        let mut left_at: Option<f64> = None;
        let (mut chars, mut ms) = (0usize, 0f64);
        for a in &self.actions {
            match a.kind.as_str() {
                "paste" => s.pastes += 1,
                "blur" => {
                    s.tab_leaves += 1;
                    left_at.get_or_insert(a.t_ms);
                }
                "focus" => {
                    if let Some(t) = left_at.take() {
                        s.away_ms += a.t_ms - t;
                    }
                }
                "answer" if !a.detail.trim().is_empty() => {
                    chars += a.detail.trim().chars().count();
                    ms += a.dt_ms;
                }
                _ => {}
            }
        }
        if let (Some(t), Some(last)) = (left_at, self.actions.last()) {
            s.away_ms += last.t_ms - t;
        }
        s.answer_chars_per_s = (chars > 0 && ms > 0.0).then(|| chars as f64 * 1000.0 / ms);
        s
    }
}
