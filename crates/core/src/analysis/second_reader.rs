//! A second reader: a chat model asked, with one fixed prompt ([`judge_messages`]), which
//! move, shape or maze a reply gives, answering in JSON ([`judge_value`]). Its readings
//! stand beside the rules reader's: their agreement per phase is Cohen's kappa with a 95%
//! interval and the raw agreement ([`kappa`]), and every reply they read differently is one
//! for a person to review.
//!
//! The prompt (version [`JUDGE_PROMPT_VERSION`]) gives the judge the reply alone, between
//! fences, never the maze: it is asked what the reply *says*, not whether it is right.

use crate::analysis::review::ReplyKey;
use crate::analysis::stats::Z_95;
use crate::maze::encoding::Encoding;
use crate::maze::shape::ShapeSet;
use crate::maze::symbols::Symbols;
use crate::model::request::ChatMessage;
use crate::play::phase::Phase;
use crate::verify::{maze_reading, move_reading, shape_reading, Extracted, Rule};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The version of the judge's prompt and of how its answer is read; a report names it, and
/// answers kept under another version are asked again. 2: the answer must be the JSON
/// object alone (version 1 also took a `"move": null` found anywhere in the answer, so a
/// small model that echoed the question read as "no answer" everywhere).
pub const JUDGE_PROMPT_VERSION: u32 = 2;

/// The system message: what the judge is for.
const SYSTEM: &str = "You read replies that language models gave in a maze task and say what each reply gives as its answer. You do not solve the task and you do not judge whether the answer is right. You answer with one JSON object and nothing else.";

/// The fixed prompt for one reply of `phase` (`shapes`: the names a shape may have).
pub fn judge_messages(phase: Phase, reply: &str, shapes: ShapeSet) -> Vec<ChatMessage> {
    let ask = match phase {
        Phase::Solve => "The model was asked for its next move in a grid maze, as a cell (row, col) counted from 0. Which cell does the reply put forward as its move? Answer {\"move\": [row, col]}, or {\"move\": null} if the reply gives no move.".to_string(),
        Phase::Recognize => format!(
            "The model was asked which shape the open cells of a maze form. Which shape does the reply give as its answer? Answer {{\"shape\": NAME}} with NAME one of {}, or {{\"shape\": null}} if the reply names none.",
            shapes.shapes().iter().map(|s| format!("\"{}\"", s.name())).collect::<Vec<_>>().join(", ")
        ),
        Phase::Generate | Phase::Done => "The model was asked to write a new maze as rows of the symbols 1 (wall), 0 (open), P (player) and G (goal). Which maze does the reply give as its answer? Answer {\"maze\": [\"row\", ...]} with each row's symbols separated by single spaces, or {\"maze\": null} if the reply gives none.".to_string(),
    };
    vec![
        ChatMessage::system(SYSTEM),
        ChatMessage::user(format!("The reply:\n<<<\n{reply}\n>>>\n\n{ask}")),
    ]
}

/// What the judge answered, read: its JSON object's value for the phase (`null` is no
/// answer). The answer must be that object alone (in a code fence or not): an answer that
/// is anything else, such as the question echoed back with its own `{"move": null}`, is an
/// error saying what came back, never a reading of "no answer".
pub fn judge_value(phase: Phase, answer: &str, shapes: ShapeSet) -> Result<Extracted, NotAnAnswer> {
    let key = match phase {
        Phase::Solve => "move",
        Phase::Recognize => "shape",
        Phase::Generate | Phase::Done => "maze",
    };
    let body = unfenced(answer);
    let object = (body.starts_with('{') && body.ends_with('}'))
        .then(|| serde_json::from_str::<serde_json::Value>(body).ok())
        .flatten();
    match object.as_ref().and_then(|o| o.get(key)) {
        Some(serde_json::Value::Null) => return Ok(Extracted::Nothing),
        Some(_) => {
            let reading = match phase {
                Phase::Solve => move_reading(body),
                Phase::Recognize => shape_reading(body, shapes),
                Phase::Generate | Phase::Done => {
                    maze_reading(body, Encoding::Matrix, 0, 0, Symbols::STANDARD)
                }
            };
            if reading.rule == Rule::Json {
                return Ok(reading.value);
            }
        }
        None => {}
    }
    let mut shown: String = answer.chars().take(120).collect();
    if shown.len() < answer.len() {
        shown.push('…');
    }
    Err(NotAnAnswer { key, shown })
}

/// The judge's answer was not the JSON object [`judge_value`] asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAnAnswer {
    /// The key the object should have held (`move`, `shape`, `maze`).
    pub key: &'static str,
    /// What the judge said, cut to 120 characters (`…` marks a cut).
    pub shown: String,
}

impl std::fmt::Display for NotAnAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the second reader did not answer with a JSON object holding \"{}\" (it said: {})",
            self.key, self.shown
        )
    }
}

impl std::error::Error for NotAnAnswer {}

/// The answer without the code fence around it (```json ... ```), trimmed.
fn unfenced(answer: &str) -> &str {
    let t = answer.trim();
    match t.strip_prefix("```") {
        Some(rest) => {
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
            rest.strip_suffix("```").unwrap_or(rest).trim()
        }
        None => t,
    }
}

/// Cohen's kappa of two readers over the same replies, with the raw agreement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Kappa {
    /// Replies both read.
    pub n: usize,
    /// Replies read alike.
    pub agree: usize,
    /// `agree / n`.
    pub raw: f64,
    /// Replies the second reader gave an answer for (not "no answer").
    pub second_answered: usize,
    /// Cohen's kappa: the agreement beyond what the readers' own frequencies give by chance
    /// (1 when both read every reply alike; `null` in JSON when a reader gave one value to
    /// every reply, where kappa is 0 or undefined by construction and says nothing).
    pub kappa: Option<f64>,
    /// Its 95% interval (large-sample standard error), clipped to [-1, 1].
    pub low: Option<f64>,
    /// The upper end.
    pub high: Option<f64>,
}

/// Cohen's kappa of the pairs `(first reader, second reader)`: the categories are the
/// values read (each cell, shape or maze, and "no answer").
pub fn kappa(pairs: &[(Extracted, Extracted)]) -> Kappa {
    let n = pairs.len();
    let agree = pairs.iter().filter(|(a, b)| a == b).count();
    let raw = if n == 0 { 0.0 } else { agree as f64 / n as f64 };
    // Chance agreement: the sum over categories of the product of the two readers' shares.
    let mut categories: Vec<&Extracted> = Vec::new();
    for (a, b) in pairs {
        for v in [a, b] {
            if !categories.contains(&v) {
                categories.push(v);
            }
        }
    }
    let share = |v: &Extracted, first: bool| {
        pairs
            .iter()
            .filter(|(a, b)| if first { a == v } else { b == v })
            .count() as f64
            / n.max(1) as f64
    };
    let chance: f64 = categories
        .iter()
        .map(|v| share(v, true) * share(v, false))
        .sum();
    let one_value = |first: bool| {
        let mut values = pairs.iter().map(|(a, b)| if first { a } else { b });
        values.next().is_some_and(|v0| values.all(|v| v == v0))
    };
    let degenerate = one_value(true) || one_value(false);
    let (kappa, low, high) = if n == 0 || degenerate || (1.0 - chance).abs() < 1e-12 {
        (None, None, None)
    } else {
        let k = (raw - chance) / (1.0 - chance);
        let se = (raw * (1.0 - raw) / (n as f64 * (1.0 - chance).powi(2))).sqrt();
        let z = Z_95;
        (
            Some(k),
            Some((k - z * se).max(-1.0)),
            Some((k + z * se).min(1.0)),
        )
    };
    Kappa {
        n,
        agree,
        raw,
        second_answered: pairs
            .iter()
            .filter(|(_, b)| *b != Extracted::Nothing)
            .count(),
        kappa,
        low,
        high,
    }
}

/// The file a folder keeps the judge's answers in (`shapemaze score --second-reader`), and
/// the name the page's copy downloads as.
pub const ANSWERS_FILE: &str = "second-reader.jsonl";

/// One answer of the judge as it is kept (one JSON line of [`ANSWERS_FILE`]): which reply,
/// by which judge and prompt version, read as what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JudgeAnswer {
    /// The trial's identity (its transcript's path in the export layout).
    pub trial: String,
    /// The reply's phase.
    pub phase: Phase,
    /// Its index in the phase.
    pub step: usize,
    /// The judge's model.
    pub model: String,
    /// The prompt's version ([`JUDGE_PROMPT_VERSION`] when asked now).
    pub prompt_version: u32,
    /// What the judge read.
    pub value: Extracted,
}

impl JudgeAnswer {
    /// The reply it reads.
    pub fn key(&self) -> ReplyKey {
        (self.trial.clone(), self.phase, self.step)
    }
}

/// The answers of `model` under today's prompt among the lines of an answers file (a later
/// line about the same reply wins; a line that does not read, or another judge's, is passed
/// over: the file is a cache, and what it lacks is asked again).
pub fn kept_answers(text: &str, model: &str) -> BTreeMap<ReplyKey, Extracted> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<JudgeAnswer>(l).ok())
        .filter(|a| a.model == model && a.prompt_version == JUDGE_PROMPT_VERSION)
        .map(|a| (a.key(), a.value))
        .collect()
}

/// What asking the judge about these replies costs, roughly: prompt tokens (the fixed
/// prompt's ~700 characters and the reply's, four characters a token) and answer tokens
/// (40 a reply).
pub fn estimate<'a>(replies: impl IntoIterator<Item = &'a str>) -> (u64, u64) {
    replies
        .into_iter()
        .fold((0, 0), |(p, c), r| (p + (r.len() as u64 + 700) / 4, c + 40))
}

/// The two readers side by side: per phase, their agreement; and each reply they read
/// differently, with the rules reader's value then the judge's.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Compared {
    /// Per phase with answers, Cohen's kappa and the raw agreement.
    pub phases: Vec<(Phase, Kappa)>,
    /// The replies read differently: (reply, rules reader, second reader).
    pub differ: Vec<(ReplyKey, Extracted, Extracted)>,
}

/// Compares the rules reader's values (`read`) with the judge's `answers` over the replies
/// both read, in `read`'s order.
pub fn compare<'a>(
    read: impl IntoIterator<Item = (ReplyKey, &'a Extracted)>,
    answers: &BTreeMap<ReplyKey, Extracted>,
) -> Compared {
    let mut pairs: BTreeMap<Phase, Vec<(Extracted, Extracted)>> = BTreeMap::new();
    let mut differ = Vec::new();
    for (key, rules) in read {
        let Some(second) = answers.get(&key) else {
            continue;
        };
        if second != rules {
            differ.push((key.clone(), rules.clone(), second.clone()));
        }
        pairs
            .entry(key.1)
            .or_default()
            .push((rules.clone(), second.clone()));
    }
    Compared {
        phases: pairs.into_iter().map(|(p, v)| (p, kappa(&v))).collect(),
        differ,
    }
}

/// A phase's agreement in words: "the readers agree on 58 of 60 replies (96.7%), kappa
/// 0.912 (0.801 to 1.000)"; where the second reader answered none of them, it says so
/// instead of a kappa.
pub fn kappa_sentence(k: &Kappa) -> String {
    let kappa = match (k.kappa, k.low, k.high) {
        (Some(v), Some(lo), Some(hi)) => format!("kappa {v:.3} ({lo:.3} to {hi:.3})"),
        _ if k.second_answered == 0 => {
            "no kappa: the second reader gave no answer for any of them".into()
        }
        _ => "no kappa: a reader gave one value to every reply".into(),
    };
    format!(
        "the readers agree on {} of {} replies ({:.1}%), {kappa}",
        k.agree,
        k.n,
        100.0 * k.raw
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::grid::Pos;
    use crate::maze::shape::Shape;

    #[test]
    fn the_prompt_is_fixed_and_holds_the_reply_alone() {
        let m = judge_messages(Phase::Solve, "Move: (0, 1)", ShapeSet::STANDARD);
        assert_eq!(m.len(), 2);
        assert!(m[1].content.contains("<<<\nMove: (0, 1)\n>>>"));
        assert!(m[1].content.contains("{\"move\": null}"));
        let s = judge_messages(Phase::Recognize, "a ring", ShapeSet::STANDARD);
        assert!(s[1].content.contains("\"spiral\""), "{}", s[1].content);
        assert!(!s[1].content.contains("\"U\""), "only the shapes in play");
    }

    #[test]
    fn the_judges_json_is_read_and_anything_else_is_an_error() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        assert_eq!(
            judge_value(Phase::Solve, "{\"move\": [1, 0]}", ShapeSet::STANDARD),
            Ok(cell(1, 0))
        );
        assert_eq!(
            judge_value(
                Phase::Solve,
                "```json\n{\"move\": null}\n```",
                ShapeSet::STANDARD
            ),
            Ok(Extracted::Nothing)
        );
        assert_eq!(
            judge_value(Phase::Recognize, "{\"shape\": \"Z\"}", ShapeSet::STANDARD),
            Ok(Extracted::Shape(Shape::Z))
        );
        let maze = "{\"maze\": [\"P 0 0\", \"0 1 0\", \"0 0 G\"]}";
        assert!(matches!(
            judge_value(Phase::Generate, maze, ShapeSet::STANDARD),
            Ok(Extracted::Grid(_))
        ));
        let err = judge_value(Phase::Solve, "The move is (1, 0).", ShapeSet::STANDARD)
            .expect_err("no JSON")
            .to_string();
        // A small model echoes the question, whose template holds `{"move": null}`: that is
        // no answer of the judge's, not a reading of "no move".
        let echoed = format!(
            "{}\nmendatang",
            judge_messages(Phase::Solve, "Move: (2, 1)", ShapeSet::STANDARD)[1].content
        );
        assert!(judge_value(Phase::Solve, &echoed, ShapeSet::STANDARD).is_err());
        assert_eq!(
            judge_value(
                Phase::Recognize,
                "{\"shape\": null, \"why\": \"none named\"}",
                ShapeSet::STANDARD
            ),
            Ok(Extracted::Nothing)
        );
        assert!(judge_value(Phase::Recognize, "{\"answer\": \"Z\"}", ShapeSet::STANDARD).is_err());
        assert!(
            err.contains("\"move\"") && err.contains("The move is"),
            "{err}"
        );
    }

    #[test]
    fn kappa_is_one_for_full_agreement_and_falls_with_disagreement() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        let same: Vec<(Extracted, Extracted)> =
            (0..10).map(|i| (cell(i % 3, 0), cell(i % 3, 0))).collect();
        let k = kappa(&same);
        assert_eq!((k.n, k.agree), (10, 10));
        assert!((k.kappa.expect("defined") - 1.0).abs() < 1e-12);
        let mut mixed = same.clone();
        mixed[0].1 = Extracted::Nothing;
        mixed[1].1 = cell(2, 0);
        let k = kappa(&mixed);
        assert_eq!(k.agree, 8);
        let v = k.kappa.expect("defined");
        assert!(v < 1.0 && v > 0.5, "{v}");
        assert!(k.low.expect("low") < v && v < k.high.expect("high"));
        // Both read "no answer" everywhere: chance agreement is total, kappa undefined.
        let none = vec![(Extracted::Nothing, Extracted::Nothing); 4];
        assert_eq!(kappa(&none).kappa, None);
        assert_eq!(kappa(&[]).n, 0);
    }

    #[test]
    fn a_second_reader_that_answered_nothing_gives_no_kappa_and_says_why() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        // The rules reader read a maze in each reply, the second reader none: kappa would
        // be 0 with a zero-width interval, which says nothing.
        let pairs: Vec<(Extracted, Extracted)> =
            (0..5).map(|i| (cell(i, 0), Extracted::Nothing)).collect();
        let k = kappa(&pairs);
        assert_eq!(
            (k.kappa, k.low, k.high, k.second_answered),
            (None, None, None, 0)
        );
        let words = kappa_sentence(&k);
        assert_eq!(
            words,
            "the readers agree on 0 of 5 replies (0.0%), no kappa: the second reader gave no answer for any of them"
        );
        assert!(!words.contains("0.000"), "{words}");
        // One value from the second reader that is an answer: no kappa either.
        let same: Vec<(Extracted, Extracted)> = (0..5).map(|i| (cell(i, 0), cell(0, 0))).collect();
        let k = kappa(&same);
        assert_eq!((k.kappa, k.second_answered), (None, 5));
        assert!(kappa_sentence(&k).ends_with("no kappa: a reader gave one value to every reply"));
    }

    #[test]
    fn answers_are_kept_per_judge_and_compared_with_the_rules_reader() {
        let cell = |r, c| Extracted::Cell(Pos::new(r, c));
        let line = |model: &str, step: usize, value: Extracted, version: u32| {
            serde_json::to_string(&JudgeAnswer {
                trial: "t/0.txt".into(),
                phase: Phase::Solve,
                step,
                model: model.into(),
                prompt_version: version,
                value,
            })
            .expect("writes")
        };
        let text = [
            line("judge", 0, cell(0, 1), JUDGE_PROMPT_VERSION),
            line("judge", 1, cell(1, 1), JUDGE_PROMPT_VERSION),
            line("other", 2, cell(2, 1), JUDGE_PROMPT_VERSION),
            line("judge", 2, cell(3, 1), JUDGE_PROMPT_VERSION + 1),
            "not json".into(),
            line("judge", 1, Extracted::Nothing, JUDGE_PROMPT_VERSION),
        ]
        .join("\n");
        let kept = kept_answers(&text, "judge");
        assert_eq!(kept.len(), 2, "{kept:?}");
        let key = |step| ("t/0.txt".to_string(), Phase::Solve, step);
        assert_eq!(
            kept.get(&key(1)),
            Some(&Extracted::Nothing),
            "the later line"
        );
        let read = [
            (key(0), cell(0, 1)),
            (key(1), cell(1, 1)),
            (key(2), cell(2, 1)),
        ];
        let c = compare(read.iter().map(|(k, v)| (k.clone(), v)), &kept);
        assert_eq!(c.phases.len(), 1);
        assert_eq!((c.phases[0].1.n, c.phases[0].1.agree), (2, 1));
        assert_eq!(c.differ, vec![(key(1), cell(1, 1), Extracted::Nothing)]);
        assert!(kappa_sentence(&c.phases[0].1)
            .starts_with("the readers agree on 1 of 2 replies (50.0%)"));
        assert_eq!(estimate(["ab", "cd"]), (2 * (702 / 4), 80));
    }
}
