//! Filtering trials by one line of text, as the search box of an eval log viewer does: the
//! results page and `shapemaze report --filter` analyse only the trials a [`TrialFilter`]
//! matches.
//!
//! The grammar (README, "Results"):
//! - terms are separated by spaces, and every term must hold (AND);
//! - `field:value` matches a field of the trial: `model` and `experiment` contain the value
//!   (a substring), every other field equals it; values ignore case (letters A-Z);
//! - `size`, `seed`, `sample`, `repeat`, `moves` and `lenient` are numbers and also compare:
//!   `moves>8`, `moves<=4`; `size:5` and `size:5x5` are the same;
//! - a bare word or a `"quoted phrase"` searches the text of every message of the trial
//!   (the prompts and the replies) for that substring, ignoring case; `reply:TEXT` searches
//!   the replies only; a value may be quoted too (`model:"qwen plus"`);
//! - a leading `-` negates a term: `-shape:square`, `-"I cannot"`.
//!
//! A trial lacking what a term asks (no endpoint effort, no record to search) fails the
//! term, and so passes its negation. The empty filter matches every trial.

use super::record::{RecordMessage, TrialRecord};
use crate::maze::encoding::Encoding;
use crate::maze::image::Vision;
use crate::maze::shape::Shape;
use crate::maze::symbols::Symbols;
use crate::model::effort::Effort;
use crate::play::answer::AnswerMode;
use crate::play::player::PlayerKind;
use crate::play::transcript::Role;
use crate::text::UnknownName;
use crate::verify::{Outcome, Reason};
use std::fmt;

/// The fields a term can name, separated by spaces, in the order the help lists them.
pub const FIELDS: &str = "model experiment player shape encoding size seed sample repeat solve recognize generate reason predicted moves effort symbols vision lenient mode reply";

/// The fields that hold numbers and compare with `<`, `>`, `<=`, `>=`.
const NUMBERS: [&str; 6] = ["size", "seed", "sample", "repeat", "moves", "lenient"];

/// One line of help for a filter box: the grammar in brief, the fields and an example.
pub const HELP: &str = "Words and \"phrases\" search the messages; field:value matches a field; -term excludes; moves>8 compares. Fields: model, experiment, player, shape, encoding, size, seed, sample, repeat, solve, recognize, generate (success, fail, error, none), reason, predicted, moves, effort, symbols, vision (text, image, image+text), lenient, mode (free, schema, tool, transcribed), reply. Example: shape:spiral solve:fail reply:\"wall\"";

/// What a trial shows a filter: a record's fields, or the fewer an analysis observation of
/// a transcript has (`None`, and no messages, for what it lacks).
#[derive(Clone, Copy, Debug)]
pub struct Facts<'a> {
    /// The experiment (or group) the trial was analysed in.
    pub experiment: &'a str,
    /// The model or built-in player.
    pub model: &'a str,
    /// Who played.
    pub player: Option<PlayerKind>,
    /// The maze's shape.
    pub shape: Shape,
    /// The encoding the maze was shown in.
    pub encoding: Encoding,
    /// The grid side.
    pub size: usize,
    /// The maze set's seed.
    pub seed: u64,
    /// Which maze of the set.
    pub sample: usize,
    /// Which repeat of the maze.
    pub repeat: usize,
    /// Solve, recognize, generate (`None`: not reached, or not known).
    pub outcomes: [Option<Outcome>; 3],
    /// Each phase's reason, when known.
    pub reasons: [Option<Reason>; 3],
    /// The shape the recognition named: `Some(None)` when it named none, `None` when the
    /// recognition was not judged.
    pub predicted: Option<Option<Shape>>,
    /// Move attempts in the solve phase.
    pub moves: Option<usize>,
    /// The endpoint's reasoning effort.
    pub effort: Option<Effort>,
    /// The matrix symbols.
    pub symbols: Option<Symbols>,
    /// How the maze was shown (text, an image, both).
    pub vision: Option<Vision>,
    /// The lenient protocol's allowance.
    pub lenient: Option<usize>,
    /// The answer mode asked.
    pub answer_mode: AnswerMode,
    /// The conversation, searched by words and phrases.
    pub messages: &'a [RecordMessage],
}

impl<'a> Facts<'a> {
    /// The facts of `r`, analysed in `experiment`.
    pub fn of(experiment: &'a str, r: &'a TrialRecord) -> Facts<'a> {
        let v = r.verdicts.all();
        let judged = v[1].is_some_and(|v| v.outcome != Outcome::Error);
        Facts {
            experiment,
            model: &r.model,
            player: Some(r.player),
            shape: r.shape,
            encoding: r.encoding,
            size: r.size,
            seed: r.seed,
            sample: r.sample,
            repeat: r.repeat,
            outcomes: v.map(|v| v.map(|v| v.outcome)),
            reasons: v.map(|v| v.map(|v| v.reason)),
            predicted: judged.then_some(r.predicted_shape),
            moves: Some(r.moves),
            effort: r.endpoint.as_ref().and_then(|e| e.effort),
            symbols: Some(r.symbols),
            vision: Some(r.vision),
            lenient: Some(r.lenient),
            answer_mode: r.answer_mode,
            messages: &r.messages,
        }
    }
}

/// Why a filter's text cannot be read, with what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterError {
    /// A term names no field (the name given).
    UnknownField(String),
    /// `field:` with nothing after it.
    MissingValue(&'static str),
    /// `<` or `>` on a field that is no number.
    NotANumberField(&'static str),
    /// A value the field cannot take, and the values it can.
    BadValue(UnknownName),
    /// A `"` with no closing one.
    UnclosedQuote,
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::UnknownField(name) => write!(
                f,
                "unknown field '{name}': choose one of {} (to search the messages for text holding a colon, quote it: \"{name}:...\")",
                FIELDS.replace(' ', ", ")
            ),
            FilterError::MissingValue(field) => {
                write!(f, "'{field}:' needs a value after the colon")
            }
            FilterError::NotANumberField(field) => write!(
                f,
                "'{field}' takes field:value; only {} compare with < and >",
                NUMBERS.join(", ")
            ),
            FilterError::BadValue(e) => e.fmt(f),
            FilterError::UnclosedQuote => {
                f.write_str("a quote is not closed: add the closing \" or remove the quote")
            }
        }
    }
}

impl std::error::Error for FilterError {}

/// How a number field compares with the term's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cmp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What one term asks of a trial.
#[derive(Clone, Debug, PartialEq)]
enum Test {
    /// A substring of a message (replies only with `true`), in lower case.
    Text(String, bool),
    /// A substring of the model, in lower case.
    Model(String),
    /// A substring of the experiment, in lower case.
    Experiment(String),
    Player(PlayerKind),
    Shape(Shape),
    Encoding(Encoding),
    /// A phase's outcome (`None`: not reached).
    Phase(usize, Option<Outcome>),
    /// Any phase's reason.
    Reason(Reason),
    /// The shape named (`None`: none).
    Predicted(Option<Shape>),
    Effort(Effort),
    Symbols(Symbols),
    /// The vision condition.
    Vision(Vision),
    /// The answer mode asked.
    Mode(AnswerMode),
    /// A number field (by its name), compared.
    Number(&'static str, Cmp, u64),
}

/// A filter over trials (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrialFilter {
    text: String,
    /// The terms, each negated or not.
    terms: Vec<(bool, Test)>,
}

/// A term as written: negated, the field and how it compares, the value without quotes.
struct Raw {
    negated: bool,
    field: Option<(String, Cmp)>,
    value: String,
}

/// Splits `text` into terms at spaces outside quotes.
fn split(text: &str) -> Result<Vec<Raw>, FilterError> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(char::is_ascii_whitespace).is_some() {}
        if chars.peek().is_none() {
            return Ok(out);
        }
        let negated = chars.next_if_eq(&'-').is_some();
        let (mut field, mut value) = (None, String::new());
        let (mut quoted, mut open) = (false, false);
        while let Some(c) = chars.next() {
            if c == '"' {
                (quoted, open) = (true, !open);
            } else if !open && c.is_ascii_whitespace() {
                break;
            } else if !open
                && !quoted
                && field.is_none()
                && matches!(c, ':' | '<' | '>')
                && !value.is_empty()
                && value.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_')
            {
                let or_equal = c != ':' && chars.next_if_eq(&'=').is_some();
                let cmp = match (c, or_equal) {
                    (':', _) => Cmp::Eq,
                    ('<', false) => Cmp::Lt,
                    ('<', true) => Cmp::Le,
                    (_, false) => Cmp::Gt,
                    (_, true) => Cmp::Ge,
                };
                field = Some((std::mem::take(&mut value).to_ascii_lowercase(), cmp));
            } else {
                value.push(c);
            }
        }
        if open {
            return Err(FilterError::UnclosedQuote);
        }
        match (&field, value.is_empty()) {
            // `""` asks nothing; a lone `-` is the word "-".
            (None, true) if quoted => {}
            (None, true) => out.push(Raw {
                negated: false,
                field: None,
                value: "-".into(),
            }),
            _ => out.push(Raw {
                negated,
                field,
                value,
            }),
        }
    }
}

/// Reads a value with `parse`, or says which `field` it does not fit.
fn value<T, E>(
    field: &'static str,
    v: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
    choices: impl FnOnce() -> String,
) -> Result<T, FilterError> {
    parse(v).map_err(|_| FilterError::BadValue(UnknownName::new(field, v, choices())))
}

fn shape_names() -> String {
    Shape::ALL.map(Shape::name).join(", ")
}

/// The test of a `field` (one of [`FIELDS`]) compared by `cmp` with `v`.
fn test(field: &'static str, cmp: Cmp, v: &str) -> Result<Test, FilterError> {
    if NUMBERS.contains(&field) {
        // `5x5` is the size 5.
        let n = match v.to_ascii_lowercase().split_once('x') {
            Some((a, b)) if field == "size" && a == b => a.to_string(),
            _ => v.to_string(),
        };
        let n = value(
            field,
            v,
            |_| n.parse::<u64>(),
            || format!("a whole number ({field}:4, {field}>4, {field}<=4)"),
        )?;
        return Ok(Test::Number(field, cmp, n));
    }
    if cmp != Cmp::Eq {
        return Err(FilterError::NotANumberField(field));
    }
    let lower = v.to_ascii_lowercase();
    Ok(match field {
        "model" => Test::Model(lower),
        "experiment" => Test::Experiment(lower),
        "reply" => Test::Text(lower, true),
        "player" => Test::Player(PlayerKind::parse(v).map_err(FilterError::BadValue)?),
        "shape" => Test::Shape(Shape::parse(v).map_err(FilterError::BadValue)?),
        "encoding" => Test::Encoding(Encoding::parse(v).map_err(FilterError::BadValue)?),
        "effort" => Test::Effort(Effort::parse(v).map_err(FilterError::BadValue)?),
        "vision" => Test::Vision(Vision::parse(v).map_err(FilterError::BadValue)?),
        "mode" => Test::Mode(AnswerMode::parse(v).map_err(FilterError::BadValue)?),
        "reason" => Test::Reason(value(
            field,
            v,
            |v| Reason::from_name(&v.to_ascii_lowercase()).ok_or(()),
            || format!("one of {}", Reason::NAMES.join(", ")),
        )?),
        "predicted" => Test::Predicted(match lower.as_str() {
            "none" => None,
            _ => Some(value(field, v, Shape::parse, || {
                format!("one of {}, or none", shape_names())
            })?),
        }),
        "symbols" => Test::Symbols(value(field, v, Symbols::parse, || {
            "four characters for wall, empty, player and goal, as symbols:10PG or symbols:\"@ * S E\"".into()
        })?),
        _ => {
            let phase = ["solve", "recognize", "generate"]
                .iter()
                .position(|p| *p == field)
                .unwrap_or(0);
            let outcome = Outcome::ALL.into_iter().find(|o| o.name() == lower);
            if outcome.is_none() && lower != "none" {
                return Err(FilterError::BadValue(UnknownName::new(
                    field,
                    v,
                    "success, fail, error (an API error) or none (not reached)",
                )));
            }
            Test::Phase(phase, outcome)
        }
    })
}

/// Whether `hay` holds `needle` (lower case, not empty), ignoring the case of A-Z.
fn holds(hay: &str, needle: &str) -> bool {
    hay.as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

impl Test {
    fn holds(&self, f: &Facts<'_>) -> bool {
        match self {
            Test::Text(needle, replies) => f
                .messages
                .iter()
                .any(|m| (!replies || m.role == Role::Assistant) && holds(&m.content, needle)),
            Test::Model(s) => holds(f.model, s),
            Test::Experiment(s) => holds(f.experiment, s),
            Test::Player(p) => f.player == Some(*p),
            Test::Shape(s) => f.shape == *s,
            Test::Encoding(e) => f.encoding == *e,
            Test::Phase(i, o) => f.outcomes[*i] == *o,
            Test::Reason(r) => f.reasons.contains(&Some(*r)),
            Test::Predicted(s) => f.predicted == Some(*s),
            Test::Effort(e) => f.effort == Some(*e),
            Test::Symbols(s) => f.symbols == Some(*s),
            Test::Vision(v) => f.vision == Some(*v),
            Test::Mode(m) => f.answer_mode == *m,
            Test::Number(field, cmp, n) => {
                let have = match *field {
                    "size" => Some(f.size as u64),
                    "seed" => Some(f.seed),
                    "sample" => Some(f.sample as u64),
                    "repeat" => Some(f.repeat as u64),
                    "moves" => f.moves.map(|m| m as u64),
                    _ => f.lenient.map(|l| l as u64),
                };
                have.is_some_and(|x| match cmp {
                    Cmp::Eq => x == *n,
                    Cmp::Lt => x < *n,
                    Cmp::Le => x <= *n,
                    Cmp::Gt => x > *n,
                    Cmp::Ge => x >= *n,
                })
            }
        }
    }
}

impl TrialFilter {
    /// Reads a filter from one line of text (see the module documentation); the error
    /// says what is wrong and what would be right.
    pub fn parse(text: &str) -> Result<TrialFilter, FilterError> {
        let mut terms = Vec::new();
        for raw in split(text)? {
            let t = match raw.field {
                None => Test::Text(raw.value.to_ascii_lowercase(), false),
                Some((name, cmp)) => {
                    let field = FIELDS
                        .split(' ')
                        .find(|f| *f == name)
                        .ok_or(FilterError::UnknownField(name))?;
                    if raw.value.trim().is_empty() {
                        return Err(FilterError::MissingValue(field));
                    }
                    test(field, cmp, raw.value.trim())?
                }
            };
            terms.push((raw.negated, t));
        }
        Ok(TrialFilter {
            text: text.trim().to_string(),
            terms,
        })
    }

    /// The text the filter was read from, trimmed.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the filter asks nothing (it matches every trial).
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// `Filter: TEXT — N of M trials`, as the text report and the report file say it.
    pub fn summary(&self, matched: usize, trials: usize) -> String {
        format!("Filter: {} — {matched} of {trials} trials", self.text)
    }

    /// Whether a term searches the messages (which only trial records have).
    pub fn searches_text(&self) -> bool {
        self.terms.iter().any(|(_, t)| matches!(t, Test::Text(..)))
    }

    /// Whether every term holds for `facts`.
    pub fn matches_facts(&self, facts: &Facts<'_>) -> bool {
        self.terms
            .iter()
            .all(|(negated, t)| t.holds(facts) != *negated)
    }

    /// Whether every term holds for the record `r` analysed in `experiment`.
    pub fn matches_in(&self, experiment: &str, r: &TrialRecord) -> bool {
        self.is_empty() || self.matches_facts(&Facts::of(experiment, r))
    }

    /// Whether every term holds for the record `r` (in no named experiment).
    pub fn matches(&self, r: &TrialRecord) -> bool {
        self.matches_in("", r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::generate::generate_set;
    use crate::maze::templates::TemplateLibrary;
    use crate::play::player::{play_ready, Scripted};
    use crate::play::trial::{Trial, TrialSetup};
    use crate::results::record::{Placement, PlayerInfo};
    use std::sync::Arc;

    /// Trials played by the core's scripted behaviours (solved, into a wall, unreadable,
    /// the move limit; right, wrong and no shapes; new, copied and no mazes): three shapes,
    /// both encodings, the six behaviours, by two models.
    fn records() -> Vec<TrialRecord> {
        let lib = Arc::new(TemplateLibrary::new(5));
        let mut out = Vec::new();
        for shape in [Shape::Square, Shape::Spiral, Shape::Cross] {
            let set = generate_set(shape, 2, 0, &lib).expect("mazes");
            for encoding in Encoding::ALL {
                for variant in 0..6 {
                    let setup = TrialSetup::new(shape, encoding, set[0].clone());
                    let mut t = Trial::new(setup, lib.clone());
                    play_ready(&mut t, &mut Scripted::variant(variant, set[1].clone()));
                    let player = PlayerInfo {
                        model: ["qwen-plus", "qwen-max"][variant % 2].into(),
                        ..PlayerInfo::builtin(PlayerKind::Scripted)
                    };
                    let at = Placement {
                        seed: 3,
                        sample: variant,
                        repeat: 0,
                    };
                    out.push(TrialRecord::of(&t, player, at, None, None));
                }
            }
        }
        out
    }

    fn filter(text: &str) -> TrialFilter {
        TrialFilter::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn count(records: &[TrialRecord], text: &str) -> usize {
        let f = filter(text);
        records.iter().filter(|r| f.matches(r)).count()
    }

    fn error(text: &str) -> String {
        match TrialFilter::parse(text) {
            Ok(f) => panic!("{text} was read as {f:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn the_empty_filter_matches_every_trial() {
        let rs = records();
        for text in ["", "   ", "\"\""] {
            assert!(filter(text).is_empty(), "{text:?}");
            assert_eq!(count(&rs, text), rs.len(), "{text:?}");
        }
        assert_eq!(filter("  shape:C ").text(), "shape:C");
        assert_eq!(
            filter(" shape:C").summary(3, 10),
            "Filter: shape:C — 3 of 10 trials"
        );
    }

    /// Which records a term should match.
    type Want<'a> = Box<dyn Fn(&TrialRecord) -> bool + 'a>;

    #[test]
    fn each_field_matches_what_the_record_holds() {
        let rs = records();
        let n = rs.len();
        let outcome = |r: &TrialRecord, i: usize| r.verdicts.all()[i].map(|v| v.outcome);
        let reason = |r: &TrialRecord, x: Reason| {
            r.verdicts
                .all()
                .iter()
                .any(|v| v.is_some_and(|v| v.reason == x))
        };
        let judged = |r: &TrialRecord| outcome(r, 1).is_some_and(|o| o != Outcome::Error);
        let cases: Vec<(&str, Want<'_>)> = vec![
            ("shape:spiral", Box::new(|r| r.shape == Shape::Spiral)),
            ("SHAPE:Spiral", Box::new(|r| r.shape == Shape::Spiral)),
            (
                "encoding:coord_list",
                Box::new(|r| r.encoding == Encoding::CoordList),
            ),
            (
                "encoding:Coord-List",
                Box::new(|r| r.encoding == Encoding::CoordList),
            ),
            (
                "encoding:matrix",
                Box::new(|r| r.encoding == Encoding::Matrix),
            ),
            ("model:MAX", Box::new(|r| r.model == "qwen-max")),
            ("model:qwen", Box::new(|_| true)),
            ("model:\"qwen-plus\"", Box::new(|r| r.model == "qwen-plus")),
            ("player:scripted", Box::new(|_| true)),
            ("player:Human", Box::new(|_| false)),
            ("size:5", Box::new(|_| true)),
            ("size:5x5", Box::new(|_| true)),
            ("size:7", Box::new(|_| false)),
            ("seed:3", Box::new(|_| true)),
            ("sample:2", Box::new(|r| r.sample == 2)),
            ("sample>=4", Box::new(|r| r.sample >= 4)),
            ("repeat:0", Box::new(|_| true)),
            (
                "solve:success",
                Box::new(move |r| outcome(r, 0) == Some(Outcome::Success)),
            ),
            (
                "solve:FAIL",
                Box::new(move |r| outcome(r, 0) == Some(Outcome::Fail)),
            ),
            (
                "recognize:fail",
                Box::new(move |r| outcome(r, 1) == Some(Outcome::Fail)),
            ),
            (
                "generate:success",
                Box::new(move |r| outcome(r, 2) == Some(Outcome::Success)),
            ),
            ("generate:error", Box::new(|_| false)),
            ("generate:none", Box::new(move |r| outcome(r, 2).is_none())),
            ("reason:wall", Box::new(move |r| reason(r, Reason::Wall))),
            (
                "reason:WRONG_SHAPE",
                Box::new(move |r| reason(r, Reason::WrongShape)),
            ),
            (
                "reason:identical_to_original",
                Box::new(move |r| reason(r, Reason::IdenticalToOriginal)),
            ),
            (
                "predicted:none",
                Box::new(move |r| judged(r) && r.predicted_shape.is_none()),
            ),
            (
                "predicted:cross",
                Box::new(|r| r.predicted_shape == Some(Shape::Cross)),
            ),
            ("moves>8", Box::new(|r| r.moves > 8)),
            ("moves<4", Box::new(|r| r.moves < 4)),
            ("moves<=4", Box::new(|r| r.moves <= 4)),
            ("moves:1", Box::new(|r| r.moves == 1)),
            ("lenient:0", Box::new(|_| true)),
            ("lenient>0", Box::new(|_| false)),
            ("symbols:10PG", Box::new(|_| true)),
            ("symbols:\"1 0 P G\"", Box::new(|_| true)),
        ];
        for (text, want) in &cases {
            let expected = rs.iter().filter(|r| want(r)).count();
            assert_eq!(count(&rs, text), expected, "{text}");
            // Its negation matches exactly the others.
            let negated = format!("-{text}");
            assert_eq!(count(&rs, &negated), n - expected, "{negated}");
        }
        // The scripted behaviours reach each way these fields can differ.
        for text in [
            "solve:fail",
            "recognize:fail",
            "generate:success",
            "reason:wall",
            "reason:wrong_shape",
            "predicted:none",
            "predicted:cross",
            "moves>8",
            "moves<4",
        ] {
            let k = count(&rs, text);
            assert!(0 < k && k < n, "{text} splits the trials: {k} of {n}");
        }
    }

    #[test]
    fn effort_symbols_lenient_and_experiment_match_records_that_carry_them() {
        let mut rs = records();
        rs[0].endpoint = Some(
            serde_json::from_value(serde_json::json!({
                "preset": "custom", "base_url": "http://127.0.0.1:9/v1", "model": "qwen3-8b",
                "temperature": 0.7, "top_p": 0.9, "max_tokens": 512, "stream": false,
                "logprobs": false, "effort": "no-thinking"
            }))
            .expect("an endpoint"),
        );
        rs[1].symbols = Symbols::parse("@ * S E").expect("symbols");
        rs[2].lenient = 3;
        assert_eq!(count(&rs, "effort:no-thinking"), 1);
        assert_eq!(count(&rs, "effort:No_Thinking"), 1, "as designs spell it");
        assert_eq!(count(&rs, "effort:high"), 0);
        assert_eq!(count(&rs, "-effort:no-thinking"), rs.len() - 1);
        assert_eq!(count(&rs, "symbols:@*SE"), 1);
        assert_eq!(count(&rs, "symbols:\"@ * S E\""), 1);
        assert_eq!(count(&rs, "symbols:10PG"), rs.len() - 1);
        assert_eq!(count(&rs, "lenient>0"), 1);
        assert_eq!(count(&rs, "lenient:3"), 1);
        rs[3].vision = Vision::ImageAndText;
        assert_eq!(count(&rs, "vision:image+text"), 1);
        assert_eq!(count(&rs, "vision:text"), rs.len() - 1);
        assert_eq!(count(&rs, "-vision:text"), 1);
        rs[4].answer_mode = AnswerMode::Transcribed;
        assert_eq!(count(&rs, "mode:transcribed"), 1);
        assert_eq!(
            count(&rs, "mode:free"),
            rs.len() - 1,
            "a record without a mode is free"
        );
        let bad = TrialFilter::parse("mode:grammar").expect_err("no such mode");
        assert!(
            bad.to_string()
                .contains("free, schema, tool or transcribed"),
            "{bad}"
        );
        let f = filter("experiment:RUN-a");
        assert!(f.matches_in("run-a (2)", &rs[0]), "a substring, any case");
        assert!(!f.matches_in("run-b", &rs[0]));
        assert!(!f.matches(&rs[0]), "no experiment named");
    }

    #[test]
    fn words_and_phrases_search_the_messages_and_reply_the_replies_only() {
        let rs = records();
        // Behaviour 3's solve reply: "I am not sure which way leads to the goal."
        let unsure = rs.iter().filter(|r| r.sample == 3).count();
        assert!(unsure > 0);
        assert_eq!(count(&rs, "\"not sure which way\""), unsure);
        assert_eq!(
            count(&rs, "\"NOT SURE which WAY\""),
            unsure,
            "case is ignored"
        );
        assert_eq!(count(&rs, "sure"), unsure, "a bare word is a substring");
        assert_eq!(count(&rs, "reply:\"not sure\""), unsure);
        assert_eq!(count(&rs, "-\"not sure\""), rs.len() - unsure);
        // Behaviour 2 walks into a wall and says so.
        let bumped = rs.iter().filter(|r| r.sample == 2).count();
        assert_eq!(count(&rs, "\"Going right into\""), bumped);
        // The matrix prompts state a legend; no reply does.
        let matrix = rs.iter().filter(|r| r.encoding == Encoding::Matrix).count();
        assert_eq!(count(&rs, "\"Legend:\""), matrix, "a prompt is searched");
        assert_eq!(count(&rs, "reply:legend"), 0, "replies only");
        // Words of several terms must all be there, anywhere in the conversation.
        assert_eq!(count(&rs, "not sure"), unsure);
        assert_eq!(
            count(&rs, "sure \"cannot draw\""),
            unsure,
            "behaviour 3 cannot draw either"
        );
        assert_eq!(count(&rs, "sure \"Going right\""), 0);
        assert!(filter("reply:x").searches_text() && filter("a").searches_text());
        assert!(!filter("shape:C moves>3").searches_text());
    }

    #[test]
    fn terms_combine_and_negate() {
        let rs = records();
        let spiral_unsure_fails = rs
            .iter()
            .filter(|r| r.shape == Shape::Spiral && r.sample == 3)
            .count();
        assert_eq!(
            count(&rs, "shape:spiral solve:fail \"not sure\""),
            spiral_unsure_fails
        );
        assert_eq!(
            count(&rs, "-shape:square -shape:cross"),
            count(&rs, "shape:spiral")
        );
        assert_eq!(
            count(&rs, "model:max encoding:matrix"),
            rs.iter()
                .filter(|r| r.model == "qwen-max" && r.encoding == Encoding::Matrix)
                .count()
        );
        assert_eq!(count(&rs, "shape:spiral shape:square"), 0, "all must hold");
        assert_eq!(count(&rs, "moves>=1 moves<=1"), count(&rs, "moves:1"));
    }

    #[test]
    fn the_text_splits_into_terms_as_a_search_box_does() {
        let t = |text: &str| filter(text).terms;
        assert_eq!(
            t("\"Move: (0\""),
            vec![(false, Test::Text("move: (0".into(), false))],
            "a colon inside quotes is text"
        );
        assert_eq!(
            t("<think>"),
            vec![(false, Test::Text("<think>".into(), false))]
        );
        assert_eq!(t(" - "), vec![(false, Test::Text("-".into(), false))]);
        assert_eq!(
            t("-\"I cannot\"\tmodel:\"qwen max\""),
            vec![
                (true, Test::Text("i cannot".into(), false)),
                (false, Test::Model("qwen max".into()))
            ]
        );
        assert_eq!(
            t("moves>=8 size:7x7"),
            vec![
                (false, Test::Number("moves", Cmp::Ge, 8)),
                (false, Test::Number("size", Cmp::Eq, 7))
            ]
        );
        assert_eq!(t("recognize:none"), vec![(false, Test::Phase(1, None))]);
        assert_eq!(
            t("predicted:U"),
            vec![(false, Test::Predicted(Some(Shape::U)))]
        );
    }

    #[test]
    fn errors_say_what_is_wrong_and_what_would_be_right() {
        let e = error("shape:spiral colour:red");
        assert!(e.contains("unknown field 'colour'"), "{e}");
        assert!(
            e.contains("model, experiment, player, shape"),
            "the fields: {e}"
        );
        assert!(e.contains("quote it"), "{e}");
        assert_eq!(
            TrialFilter::parse("Move:"),
            Err(FilterError::UnknownField("move".into()))
        );
        let e = error("shape:oval");
        assert!(
            e.contains("unknown shape 'oval'") && e.contains("square, cross, spiral"),
            "{e}"
        );
        let e = error("solve:maybe");
        assert!(
            e.contains("'maybe'") && e.contains("success, fail, error"),
            "{e}"
        );
        let e = error("reason:bogus");
        assert!(
            e.contains("'bogus'") && e.contains("valid_move, reached_goal"),
            "{e}"
        );
        let e = error("predicted:blob");
        assert!(e.contains("or none"), "{e}");
        let e = error("encoding:image");
        assert!(e.contains("matrix or coord_list"), "{e}");
        let e = error("effort:max");
        assert!(e.contains("xhigh"), "{e}");
        let e = error("moves>many");
        assert!(
            e.contains("unknown moves 'many'") && e.contains("whole number"),
            "{e}"
        );
        assert!(error("size:5x7").contains("'5x7'"));
        assert!(error("symbols:ab").contains("four characters"));
        let e = error("shape>3");
        assert!(
            e.contains("only size, seed, sample, repeat, moves, lenient"),
            "{e}"
        );
        assert_eq!(
            TrialFilter::parse("solve:"),
            Err(FilterError::MissingValue("solve"))
        );
        assert_eq!(
            TrialFilter::parse("model:\"\""),
            Err(FilterError::MissingValue("model"))
        );
        assert_eq!(
            TrialFilter::parse("shape:spiral \"wall"),
            Err(FilterError::UnclosedQuote)
        );
        assert!(error("model:\"qwen").contains("closing \""));
    }
}
