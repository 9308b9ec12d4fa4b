//! Counting re-scored trials: successes and failures per phase, grouped by model,
//! encoding, shape and all three together, and the phases whose recorded verdict differs
//! from the recomputed one. `shapemaze score` prints these; a results dashboard can show
//! the very same numbers.
//!
//! ```
//! use shapemaze_core::results::rescore::{rescore, Hints, Libraries};
//! use shapemaze_core::results::tally::{tally, Entry, Group};
//!
//! let text = "Model said (1, 2)\n\nSOLVE: FAIL\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n";
//! let result = rescore(text, &Hints::default(), &mut Libraries::new());
//! let t = tally(&[Entry { file: "a.txt", model: "qwen", result: &result }]);
//! assert_eq!(t.totals[0].group, Group::All);
//! assert_eq!((t.totals[0].recognize.success, t.totals[0].solve.fail), (1, 1));
//! ```

use crate::json::is_zero;
use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::results::rescore::{Basis, Rescored};
use crate::verify::{Outcome, Reason};
use serde::Serialize;
use std::collections::BTreeMap;

/// The name shown for a model, encoding or shape that is not known.
pub const UNKNOWN: &str = "unknown";

/// Successes, failures, unscored phases and API errors of a group of trials.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Phases that passed.
    pub success: usize,
    /// Phases that failed.
    pub fail: usize,
    /// Phases that could not be scored (no verdict recomputed or recorded).
    pub unscored: usize,
    /// Phases whose endpoint failed ([`Outcome::Error`]): neither successes nor failures,
    /// and outside [`Counts::scored`]. Left out of JSON when zero, so reports without API
    /// errors read as before.
    #[serde(skip_serializing_if = "is_zero")]
    pub api_error: usize,
}

impl Counts {
    /// Counts one phase's outcome (`None`: it could not be scored).
    pub fn add(&mut self, o: Option<Outcome>) {
        match o {
            Some(Outcome::Success) => self.success += 1,
            Some(Outcome::Fail) => self.fail += 1,
            Some(Outcome::Error) => self.api_error += 1,
            None => self.unscored += 1,
        }
    }

    /// Phases with a verdict on the player: successes plus failures (API errors are not).
    pub fn scored(&self) -> usize {
        self.success + self.fail
    }

    /// Successes as a percentage of [`Counts::scored`]; `0.0` when nothing was scored.
    pub fn percent(&self) -> f64 {
        match self.scored() {
            0 => 0.0,
            n => 100.0 * self.success as f64 / n as f64,
        }
    }
}

/// `successes/scored percent`, then `?N` for phases with no outcome and `!N` for API
/// errors when there are any (`3/4 75.0% ?1`): how `shapemaze score` and the results
/// page's review part write a phase's counts.
impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{} {:.1}%",
            self.success,
            self.scored(),
            self.percent()
        )?;
        if self.unscored > 0 {
            write!(f, " ?{}", self.unscored)?;
        }
        if self.api_error > 0 {
            write!(f, " !{}", self.api_error)?;
        }
        Ok(())
    }
}

/// How the trials of a row of totals are grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Group {
    /// Every trial.
    #[serde(rename = "all")]
    All,
    /// Trials of one model.
    #[serde(rename = "model")]
    Model,
    /// Trials in one encoding.
    #[serde(rename = "encoding")]
    Encoding,
    /// Trials on one shape.
    #[serde(rename = "shape")]
    Shape,
    /// Trials of one model, encoding and shape.
    #[serde(rename = "model/encoding/shape")]
    ModelEncodingShape,
}

impl Group {
    /// Every group, in the order rows of totals list them.
    pub const ALL: [Group; 5] = [
        Group::All,
        Group::Model,
        Group::Encoding,
        Group::Shape,
        Group::ModelEncodingShape,
    ];

    /// The name, as in JSON: `all`, `model`, `encoding`, `shape`, `model/encoding/shape`.
    pub fn name(self) -> &'static str {
        match self {
            Group::All => "all",
            Group::Model => "model",
            Group::Encoding => "encoding",
            Group::Shape => "shape",
            Group::ModelEncodingShape => "model/encoding/shape",
        }
    }
}

/// One row of totals: a group's value and its counts per phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Total {
    /// How the trials are grouped.
    pub group: Group,
    /// The group's value: `all`, a model, an encoding, a shape, or `model/encoding/shape`.
    pub value: String,
    /// The solve phase.
    pub solve: Counts,
    /// The recognition phase.
    pub recognize: Counts,
    /// The generation phase.
    pub generate: Counts,
}

/// A phase whose recorded closing line differs from the recomputed verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Difference<'a> {
    /// The transcript, as the caller names it.
    pub file: &'a str,
    /// The phase's name (`solve`, `recognize`, `generate`).
    pub phase: &'static str,
    /// The closing line's outcome (`None` when the line is missing).
    pub recorded: Option<Outcome>,
    /// The recomputed outcome (`None` when it could not be recomputed).
    pub recomputed: Option<Outcome>,
    /// The recomputed verdict's reason.
    pub reason: Option<Reason>,
    /// The recomputed verdict's explanation.
    pub explanation: Option<&'a str>,
}

/// One re-scored transcript, as the tally takes it.
#[derive(Clone, Copy, Debug)]
pub struct Entry<'a> {
    /// The transcript's name (a path, for people).
    pub file: &'a str,
    /// The model that played it ([`UNKNOWN`] when not known).
    pub model: &'a str,
    /// The re-scored transcript.
    pub result: &'a Rescored,
}

/// Everything counted over a list of re-scored transcripts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tally<'a> {
    /// Transcripts counted.
    pub transcripts: usize,
    /// Of those, the ones whose replies were re-run.
    pub rescored: usize,
    /// Of those, the ones counted from their closing lines only.
    pub closing_lines_only: usize,
    /// Of those, the ones without message markers.
    pub without_markers: usize,
    /// Rows of totals, by [`Group`] in the order of [`Group::ALL`], then model (by name),
    /// encoding and shape (in their `ALL` orders, unknown last).
    pub totals: Vec<Total>,
    /// Every phase whose recorded verdict differs from the recomputed one, in entry order.
    pub differences: Vec<Difference<'a>>,
}

/// Counts `entries` (see [`Tally`]).
pub fn tally<'a>(entries: &[Entry<'a>]) -> Tally<'a> {
    let with_basis = |b: Basis| entries.iter().filter(|e| e.result.basis == b).count();
    Tally {
        transcripts: entries.len(),
        rescored: with_basis(Basis::Replies),
        closing_lines_only: with_basis(Basis::ClosingLines),
        without_markers: entries.iter().filter(|e| !e.result.marked).count(),
        totals: totals(entries),
        differences: differences(entries),
    }
}

/// The position of `x` in `all`, or `all.len()` (last) when unknown.
fn rank<T: PartialEq>(all: &[T], x: Option<T>) -> usize {
    x.and_then(|x| all.iter().position(|a| *a == x))
        .unwrap_or(all.len())
}

/// Rows of totals over `entries` (see [`Tally::totals`]).
pub fn totals(entries: &[Entry<'_>]) -> Vec<Total> {
    let mut rows: BTreeMap<(Group, &str, usize, usize), Total> = BTreeMap::new();
    for entry in entries {
        let r = entry.result;
        let model = entry.model;
        let (e, sh) = (rank(&Encoding::ALL, r.encoding), rank(&Shape::ALL, r.shape));
        let enc = r.encoding.map_or(UNKNOWN, Encoding::name);
        let shape = r.shape.map_or(UNKNOWN, Shape::name);
        let keys = [
            ((Group::All, "", 0, 0), "all".to_string()),
            ((Group::Model, model, 0, 0), model.to_string()),
            ((Group::Encoding, "", e, 0), enc.to_string()),
            ((Group::Shape, "", 0, sh), shape.to_string()),
            (
                (Group::ModelEncodingShape, model, e, sh),
                format!("{model}/{enc}/{shape}"),
            ),
        ];
        let counted = r.counted();
        for (key, value) in keys {
            let row = rows.entry(key).or_insert_with(|| Total {
                group: key.0,
                value,
                solve: Counts::default(),
                recognize: Counts::default(),
                generate: Counts::default(),
            });
            row.solve.add(counted[0]);
            row.recognize.add(counted[1]);
            row.generate.add(counted[2]);
        }
    }
    rows.into_values().collect()
}

/// Every phase of `entries` whose recorded verdict differs from the recomputed one.
pub fn differences<'a>(entries: &[Entry<'a>]) -> Vec<Difference<'a>> {
    entries
        .iter()
        .flat_map(|e| {
            e.result.differences().into_iter().map(move |p| Difference {
                file: e.file,
                phase: p.phase.name(),
                recorded: p.recorded,
                recomputed: p.recomputed,
                reason: p.reason,
                explanation: p.explanation.as_deref(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::rescore::{rescore, Hints, Libraries, PhaseScore, PHASES};

    /// A transcript counted from its closing lines, on a known encoding and shape.
    fn closing(encoding: Option<Encoding>, shape: Option<Shape>, lines: &str) -> Rescored {
        let hints = Hints {
            encoding,
            shape,
            size: None,
            in_play: None,
            maze: None,
        };
        rescore(lines, &hints, &mut Libraries::new())
    }

    #[test]
    fn counts_add_outcomes_and_give_the_success_percentage_of_scored_phases() {
        let mut c = Counts::default();
        for o in [
            Some(Outcome::Success),
            Some(Outcome::Fail),
            Some(Outcome::Fail),
            None,
        ] {
            c.add(o);
        }
        assert_eq!((c.success, c.fail, c.unscored, c.scored()), (1, 2, 1, 3));
        assert!((c.percent() - 100.0 / 3.0).abs() < 1e-9, "{}", c.percent());
        assert_eq!(Counts::default().percent(), 0.0, "nothing scored");
    }

    #[test]
    fn api_errors_are_counted_apart_and_never_as_failures() {
        let mut c = Counts::default();
        for o in [
            Some(Outcome::Success),
            Some(Outcome::Error),
            Some(Outcome::Error),
        ] {
            c.add(o);
        }
        assert_eq!((c.success, c.fail, c.api_error, c.scored()), (1, 0, 2, 1));
        assert_eq!(c.percent(), 100.0, "API errors are outside the percentage");
    }

    #[test]
    fn totals_come_in_group_order_with_unknown_values_last() {
        let a = closing(
            Some(Encoding::CoordList),
            Some(Shape::Z),
            "SOLVE: SUCCESS\nRECOGNIZE: FAIL\nGENERATE: SUCCESS\n",
        );
        let b = closing(
            Some(Encoding::Matrix),
            Some(Shape::Square),
            "SOLVE: FAIL\nRECOGNIZE: FAIL\n",
        );
        let c = closing(
            None,
            None,
            "SOLVE: SUCCESS\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n",
        );
        let d = closing(
            None,
            None,
            "SOLVE: ERROR\nRECOGNIZE: ERROR\nGENERATE: ERROR\n",
        );
        let entries = [
            Entry {
                file: "a",
                model: "qwen",
                result: &a,
            },
            Entry {
                file: "b",
                model: "gpt",
                result: &b,
            },
            Entry {
                file: "c",
                model: UNKNOWN,
                result: &c,
            },
            Entry {
                file: "d",
                model: UNKNOWN,
                result: &d,
            },
        ];
        let rows = totals(&entries);
        let names: Vec<(&str, &str)> = rows
            .iter()
            .map(|t| (t.group.name(), t.value.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("all", "all"),
                ("model", "gpt"),
                ("model", "qwen"),
                ("model", "unknown"),
                ("encoding", "matrix"),
                ("encoding", "coord_list"),
                ("encoding", "unknown"),
                ("shape", "square"),
                ("shape", "Z"),
                ("shape", "unknown"),
                ("model/encoding/shape", "gpt/matrix/square"),
                ("model/encoding/shape", "qwen/coord_list/Z"),
                ("model/encoding/shape", "unknown/unknown/unknown"),
            ]
        );
        let all = &rows[0];
        assert_eq!(
            (all.solve, all.recognize, all.generate),
            (
                Counts {
                    success: 2,
                    fail: 1,
                    unscored: 0,
                    api_error: 1
                },
                Counts {
                    success: 1,
                    fail: 2,
                    unscored: 0,
                    api_error: 1
                },
                Counts {
                    success: 1,
                    fail: 1,
                    unscored: 1,
                    api_error: 1
                },
            ),
            "a missing closing line is unscored; an API error is neither a success nor a failure"
        );
        let t = tally(&entries);
        assert_eq!(
            (
                t.transcripts,
                t.rescored,
                t.closing_lines_only,
                t.without_markers
            ),
            (4, 0, 4, 4)
        );
    }

    #[test]
    fn differences_name_the_file_and_phase_of_every_changed_verdict() {
        let mut result = closing(None, None, "SOLVE: FAIL\nRECOGNIZE: FAIL\nGENERATE: FAIL\n");
        result.basis = Basis::Replies;
        result.phases = PHASES.map(|phase| PhaseScore {
            phase,
            recorded: Some(Outcome::Fail),
            recomputed: Some(Outcome::Fail),
            reason: Some(Reason::WrongShape),
            explanation: Some("why".into()),
        });
        result.phases[1].recomputed = Some(Outcome::Success);
        result.phases[1].reason = Some(Reason::CorrectShape);
        let entries = [Entry {
            file: "x/0.txt",
            model: "m",
            result: &result,
        }];
        let d = differences(&entries);
        assert_eq!(
            d,
            [Difference {
                file: "x/0.txt",
                phase: "recognize",
                recorded: Some(Outcome::Fail),
                recomputed: Some(Outcome::Success),
                reason: Some(Reason::CorrectShape),
                explanation: Some("why"),
            }]
        );
        assert_eq!(tally(&entries).rescored, 1);
    }

    /// serde_json is a native-only dependency.
    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn every_group_serializes_to_its_name() {
        for g in Group::ALL {
            let json = serde_json::to_string(&g).expect("serializes");
            assert_eq!(json, format!("\"{}\"", g.name()), "{g:?}");
        }
    }
}
