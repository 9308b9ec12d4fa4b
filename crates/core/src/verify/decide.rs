//! The one place a reader's answer is decided, and whether the reading is sure, from what
//! the reply gives in each role.
//!
//! Every reader (the move, the shape) finds candidates by role ([`Candidates`]): the JSON
//! answer, the last answer line, the last concluding clause, whether the reply gives up,
//! the candidate ticked among candidates struck out, an answer label in running text, and
//! a fall-back. [`decide`] chooses among them in one order, the same for every reader:
//!
//! 1. a JSON answer;
//! 2. the last answer line or the last concluding clause, whichever stands later (an
//!    answer line counts only when the reply does not give up; a conclusion the reply takes
//!    back gives no answer);
//! 3. nothing, when the reply gives up or was cut off before it answered;
//! 4. the ticked candidate;
//! 5. the last answer label in running text;
//! 6. the reader's fall-back, which names its own rule (`lone` when the reply names one
//!    value, else a fall-back).
//!
//! **Sure** (docs/DECISIONS.md, sixth round: a reading marked sure is a claim a reviewer
//! should never have to check). A reading is sure when a first-rank role gives it (JSON,
//! an answer line holding one value, a conclusion or an answer label in running text; the
//! one shape a reply names; the one cell it names when that cell is a neighbour of the
//! player's) and nothing in the reply's answer part competes with it: no first-rank
//! role gives another value anywhere ([`Candidates::first_rank`]), no other value follows
//! it in its statement or later in the reply ([`Candidates::put_forward`]), and the reply
//! declares no other way of writing its values ([`Candidates::convention`]). "No answer" is
//! sure only when the reply holds nothing the reader could have missed
//! ([`Candidates::traces`]): no coordinate or number for a move, no shape word or
//! description for a shape. A fall-back is never sure. When a reading is not sure, the
//! [`Doubt`] says why: the competing value and the role that gives it.
//!
//! The answer label answers `None` when the reply gives nothing in its role (the next
//! step is asked), `Some(None)` when it decides that the reply gives no answer (a label
//! before a hedge over every shape), and `Some(Some(value))` with the answer.

use super::answer::Rule;
use super::lines::Lines;
use super::verdict::{Doubt, DoubtKind, Extracted};

/// What a reply gives in a role: `None` nothing (ask the next role), `Some(None)` no answer
/// (decided), `Some(Some(v))` the answer `v`.
pub(super) type Found<T> = Option<Option<T>>;

/// Why a reading is not sure: what competes with it, where, and the role that gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Competing<V> {
    /// The kind of doubt.
    pub(super) kind: DoubtKind,
    /// The competing value, when one was read.
    pub(super) rival: Option<V>,
    /// Where the competing value (or the trace of one) stands in the text, `[start, end)`.
    pub(super) span: Option<[usize; 2]>,
}

impl<V> Competing<V> {
    /// The doubt as a verdict carries it, about a `what` (move, shape) read by `rule` in
    /// a reply whose plain text, where spans count, is `text`; `in_reply` maps a span of
    /// `text` to the reply's bytes, and `value` says what a value is.
    pub(super) fn to_doubt(
        &self,
        rule: Rule,
        what: &str,
        text: &str,
        in_reply: impl Fn([usize; 2]) -> [usize; 2],
        value: impl Fn(&V) -> Extracted,
    ) -> Doubt {
        let quote = self
            .span
            .and_then(|[s, e]| text.get(s..e))
            .unwrap_or_default();
        Doubt::new(
            self.kind,
            rule,
            what,
            self.rival.as_ref().map_or(Extracted::Nothing, value),
            self.span.map(in_reply),
            quote,
        )
    }
}

/// A reader's decision: the value (or none), the rule that read it, and why the reading is
/// not sure (`None` when it is sure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Decision<V> {
    pub(super) value: Option<V>,
    pub(super) rule: Rule,
    pub(super) doubt: Option<Competing<V>>,
}

/// What a reader finds in each role of one reply (see the module documentation). Each
/// method is asked at most once, and only when the roles before it gave nothing, so a
/// reader's costly rules run only when they are needed.
pub(super) trait Candidates {
    /// The value read (a cell, a shape mention).
    type Value: Copy;
    /// Where a value stands in the text (`[start, end)`), to tell which of two came later.
    fn span(value: &Self::Value) -> [usize; 2];
    /// Whether two values are the same answer (the same cell, the same shape).
    fn same(a: &Self::Value, b: &Self::Value) -> bool;
    /// A JSON answer.
    fn json(&self) -> Option<Self::Value>;
    /// The value of the last answer line that gives one.
    fn answer_line(&self) -> Option<Self::Value>;
    /// The value of the last concluding clause, and whether it is kept (`false` when the
    /// reply takes it back later: then it gives no answer).
    fn concluded(&self) -> Option<(Self::Value, bool)> {
        None
    }
    /// Whether the reply gives up or was cut off before it answered.
    fn gives_up(&self) -> bool {
        false
    }
    /// The candidate ticked among candidates struck out.
    fn ticked(&self) -> Option<Self::Value>;
    /// The value after the last answer label in running text.
    fn labelled(&self) -> Found<Self::Value>;
    /// The fall-back, with the rule that read it.
    fn fallback(&self) -> (Option<Self::Value>, Rule);
    /// Whether `value`, read as the value alone ([`Rule::Lone`]), is a first-rank reading.
    fn lone_is_first_rank(&self, value: &Self::Value) -> bool;
    /// The values a first-rank role gives anywhere in the reply (every JSON answer, every
    /// answer line that holds one value, every concluding clause), with the role's kind of
    /// doubt (`RivalJson`, `RivalAnswerLine`, `RivalConclusion`): at least every one that
    /// differs from `chosen` (a reader may leave out the ones that cannot).
    fn first_rank(&self, chosen: &Self::Value) -> Vec<(Self::Value, DoubtKind)>;
    /// Every value the reply puts forward outside restated data, questions and negations,
    /// in text order.
    fn put_forward(&self) -> Vec<Self::Value>;
    /// The end of the statement (sentence or line) holding byte `at`.
    fn statement_end(&self, at: usize) -> usize;
    /// Where the reply declares another way of writing its values than the prompt's (cells
    /// counted from 1, or written column first).
    fn convention(&self) -> Option<[usize; 2]> {
        None
    }
    /// Where the reply names `value` as part of what it describes rather than as its
    /// answer ("three sides of a square"), if it does.
    fn qualified(&self, _value: &Self::Value) -> Option<[usize; 2]> {
        None
    }
    /// The reply's lines, read once.
    fn lines(&self) -> &Lines<'_>;
    /// What a reply that gives no answer still holds that the reader could have missed:
    /// a value (in any standing), else the span of a trace of one (a number, a word that
    /// describes a shape).
    fn traces(&self) -> Option<(Option<Self::Value>, [usize; 2])>;
}

/// The answer a reply gives, the rule that read it ([`Rule::NoAnswer`] when none), and why
/// the reading is not sure.
pub(super) fn decide<C: Candidates>(reader: &C) -> Decision<C::Value> {
    let (value, rule) = choose(reader);
    let doubt = match value {
        None => no_answer_doubt(reader, rule),
        Some(v) => doubt_of(reader, &v, rule),
    };
    Decision { value, rule, doubt }
}

/// The answer and its rule, in the order of the module documentation.
fn choose<C: Candidates>(reader: &C) -> (Option<C::Value>, Rule) {
    let found = |value: Option<C::Value>, rule| match value {
        Some(v) => (Some(v), rule),
        None => (None, Rule::NoAnswer),
    };
    if let Some(v) = reader.json() {
        return (Some(v), Rule::Json);
    }
    let at = |v: &C::Value| C::span(v)[0];
    let clause = reader.concluded();
    let line = reader
        .answer_line()
        .filter(|v| clause.as_ref().is_none_or(|(c, _)| at(v) > at(c)))
        .filter(|_| !reader.gives_up());
    match (line, clause) {
        (Some(v), _) => return (Some(v), Rule::AnswerLabel),
        (None, Some((c, kept))) => return found(kept.then_some(c), Rule::Concluded),
        (None, None) => {}
    }
    if reader.gives_up() {
        return (None, Rule::NoAnswer);
    }
    if let Some(v) = reader.ticked() {
        return (Some(v), Rule::Ticked);
    }
    if let Some(v) = reader.labelled() {
        return found(v, Rule::LabelInText);
    }
    let (v, rule) = reader.fallback();
    found(v, rule)
}

/// Why "no answer" is not sure: the reply holds a value or a trace of one.
fn no_answer_doubt<C: Candidates>(reader: &C, rule: Rule) -> Option<Competing<C::Value>> {
    if rule == Rule::CutInReasoning {
        return None;
    }
    let (rival, span) = reader.traces()?;
    Some(Competing {
        kind: DoubtKind::Unread,
        rival,
        span: Some(span),
    })
}

/// Why the reading `v` by `rule` is not sure, if it is not (see the module documentation).
fn doubt_of<C: Candidates>(reader: &C, v: &C::Value, rule: Rule) -> Option<Competing<C::Value>> {
    let doubt = |kind, rival: Option<C::Value>| Competing {
        kind,
        rival,
        span: rival.as_ref().map(C::span),
    };
    let others = reader.put_forward();
    let other = |after: usize| {
        others
            .iter()
            .rev()
            .find(|o| !C::same(o, v) && C::span(o)[0] >= after)
            .copied()
    };
    let first_rank = matches!(
        rule,
        Rule::Json | Rule::AnswerLabel | Rule::Concluded | Rule::LabelInText
    ) || (rule == Rule::Lone && reader.lone_is_first_rank(v));
    if let (false, Some(span)) = (first_rank, ends_on_empty_label(reader.lines())) {
        return Some(Competing {
            kind: DoubtKind::CutOff,
            rival: None,
            span: Some(span),
        });
    }
    if !first_rank {
        let kind = if rule.is_fall_back() {
            DoubtKind::FallBack
        } else {
            DoubtKind::NotFirstRank
        };
        return Some(doubt(kind, other(0)));
    }
    if let Some((w, kind)) = reader
        .first_rank(v)
        .into_iter()
        .find(|(w, _)| !C::same(w, v))
    {
        return Some(doubt(kind, Some(w)));
    }
    if let Some(span) = reader.qualified(v) {
        return Some(Competing {
            kind: DoubtKind::Qualified,
            rival: None,
            span: Some(span),
        });
    }
    let end = C::span(v)[1];
    if let Some(w) = other(end) {
        let kind = if C::span(&w)[0] < reader.statement_end(end) {
            DoubtKind::FollowedInStatement
        } else {
            DoubtKind::NamedAfter
        };
        return Some(doubt(kind, Some(w)));
    }
    let convention = reader
        .convention()
        .map(|span| (DoubtKind::OtherConvention, span));
    convention
        .or_else(|| ends_on_empty_label(reader.lines()).map(|span| (DoubtKind::CutOff, span)))
        .map(|(kind, span)| Competing {
            kind,
            rival: None,
            span: Some(span),
        })
}

/// Where a reply ends on an answer label with nothing after it (`Shape:`): cut off, it may
/// never have given the answer it was about to.
fn ends_on_empty_label(lines: &Lines) -> Option<[usize; 2]> {
    let last = lines.answers.last()?;
    let [_, end] = last.value;
    (lines.text[last.value[0]..].trim().is_empty()).then_some([last.lead[0], end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A value read: what it is and where it stands.
    type V = (char, usize);

    /// A reader whose roles are given.
    struct Given {
        json: Option<V>,
        line: Option<V>,
        clause: Option<(V, bool)>,
        gives_up: bool,
        ticked: Option<V>,
        labelled: Found<V>,
        fallback: (Option<V>, Rule),
        lone_first: bool,
        first_rank: Vec<(V, DoubtKind)>,
        put_forward: Vec<V>,
        convention: Option<[usize; 2]>,
        traces: Option<(Option<V>, [usize; 2])>,
        lines: Lines<'static>,
    }

    impl Default for Given {
        fn default() -> Self {
            Given {
                json: None,
                line: None,
                clause: None,
                gives_up: false,
                ticked: None,
                labelled: None,
                fallback: (None, Rule::NoAnswer),
                lone_first: true,
                first_rank: Vec::new(),
                put_forward: Vec::new(),
                convention: None,
                traces: None,
                lines: Lines::of(""),
            }
        }
    }

    impl Candidates for Given {
        type Value = V;
        fn span(value: &V) -> [usize; 2] {
            [value.1, value.1 + 1]
        }
        fn same(a: &V, b: &V) -> bool {
            a.0 == b.0
        }
        fn json(&self) -> Option<V> {
            self.json
        }
        fn answer_line(&self) -> Option<V> {
            self.line
        }
        fn concluded(&self) -> Option<(V, bool)> {
            self.clause
        }
        fn gives_up(&self) -> bool {
            self.gives_up
        }
        fn ticked(&self) -> Option<V> {
            self.ticked
        }
        fn labelled(&self) -> Found<V> {
            self.labelled
        }
        fn fallback(&self) -> (Option<V>, Rule) {
            self.fallback
        }
        fn lone_is_first_rank(&self, _: &V) -> bool {
            self.lone_first
        }
        fn first_rank(&self, _: &V) -> Vec<(V, DoubtKind)> {
            self.first_rank.clone()
        }
        fn put_forward(&self) -> Vec<V> {
            self.put_forward.clone()
        }
        /// A statement runs to the next multiple of 10.
        fn statement_end(&self, at: usize) -> usize {
            (at / 10 + 1) * 10
        }
        fn convention(&self) -> Option<[usize; 2]> {
            self.convention
        }
        fn lines(&self) -> &Lines<'_> {
            &self.lines
        }
        fn traces(&self) -> Option<(Option<V>, [usize; 2])> {
            self.traces
        }
    }

    fn chose(r: &Given) -> (Option<V>, Rule) {
        let d = decide(r);
        (d.value, d.rule)
    }

    fn doubt(r: &Given) -> Option<(DoubtKind, Option<V>)> {
        decide(r).doubt.map(|d| (d.kind, d.rival))
    }

    #[test]
    fn json_comes_first() {
        let r = Given {
            json: Some(('a', 1)),
            line: Some(('b', 50)),
            clause: Some((('c', 90), true)),
            ..Given::default()
        };
        assert_eq!(chose(&r), (Some(('a', 1)), Rule::Json));
    }

    #[test]
    fn the_later_of_an_answer_line_and_a_conclusion_counts() {
        let line_last = Given {
            line: Some(('a', 80)),
            clause: Some((('b', 20), true)),
            ..Given::default()
        };
        assert_eq!(chose(&line_last), (Some(('a', 80)), Rule::AnswerLabel));
        let clause_last = Given {
            line: Some(('a', 20)),
            clause: Some((('b', 80), true)),
            ..Given::default()
        };
        assert_eq!(chose(&clause_last), (Some(('b', 80)), Rule::Concluded));
    }

    #[test]
    fn a_conclusion_taken_back_gives_no_answer_and_stops_the_fall_backs() {
        let r = Given {
            clause: Some((('a', 60), false)),
            fallback: (Some(('b', 5)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&r), (None, Rule::NoAnswer));
        // An answer line after it still counts.
        let later_line = Given {
            clause: Some((('a', 60), false)),
            line: Some(('b', 70)),
            ..Given::default()
        };
        assert_eq!(chose(&later_line), (Some(('b', 70)), Rule::AnswerLabel));
    }

    #[test]
    fn giving_up_silences_the_answer_line_but_not_a_conclusion() {
        let line = Given {
            line: Some(('a', 30)),
            gives_up: true,
            fallback: (Some(('b', 40)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&line), (None, Rule::NoAnswer));
        let clause = Given {
            line: Some(('a', 30)),
            clause: Some((('b', 10), true)),
            gives_up: true,
            ..Given::default()
        };
        assert_eq!(chose(&clause), (Some(('b', 10)), Rule::Concluded));
    }

    #[test]
    fn then_the_ticked_candidate_the_label_and_the_fall_back() {
        let ticked = Given {
            ticked: Some(('a', 7)),
            labelled: Some(Some(('b', 9))),
            fallback: (Some(('c', 11)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&ticked), (Some(('a', 7)), Rule::Ticked));
        let labelled = Given {
            labelled: Some(Some(('b', 9))),
            fallback: (Some(('c', 11)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&labelled), (Some(('b', 9)), Rule::LabelInText));
        let hedged = Given {
            labelled: Some(None),
            fallback: (Some(('c', 11)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&hedged), (None, Rule::NoAnswer));
        let fallback = Given {
            fallback: (Some(('c', 11)), Rule::LastNamed),
            ..Given::default()
        };
        assert_eq!(chose(&fallback), (Some(('c', 11)), Rule::LastNamed));
        assert_eq!(chose(&Given::default()), (None, Rule::NoAnswer));
    }

    #[test]
    fn a_first_rank_reading_nothing_competes_with_is_sure() {
        let r = Given {
            line: Some(('a', 40)),
            first_rank: vec![(('a', 40), DoubtKind::RivalAnswerLine)],
            put_forward: vec![('a', 12), ('a', 40)],
            ..Given::default()
        };
        assert_eq!(
            doubt(&r),
            None,
            "the same value named twice competes with nothing"
        );
    }

    #[test]
    fn another_value_in_a_first_rank_role_anywhere_makes_it_unsure() {
        let r = Given {
            line: Some(('a', 40)),
            first_rank: vec![
                (('a', 40), DoubtKind::RivalAnswerLine),
                (('b', 5), DoubtKind::RivalConclusion),
            ],
            ..Given::default()
        };
        assert_eq!(
            doubt(&r),
            Some((DoubtKind::RivalConclusion, Some(('b', 5)))),
            "an earlier conclusion that gives another value"
        );
    }

    #[test]
    fn another_value_after_the_answer_makes_it_unsure_and_says_where() {
        let in_statement = Given {
            clause: Some((('a', 41), true)),
            put_forward: vec![('a', 41), ('b', 44)],
            ..Given::default()
        };
        assert_eq!(
            doubt(&in_statement),
            Some((DoubtKind::FollowedInStatement, Some(('b', 44))))
        );
        let later = Given {
            clause: Some((('a', 41), true)),
            put_forward: vec![('c', 3), ('a', 41), ('b', 75)],
            ..Given::default()
        };
        assert_eq!(
            doubt(&later),
            Some((DoubtKind::NamedAfter, Some(('b', 75))))
        );
        let before = Given {
            clause: Some((('a', 41), true)),
            put_forward: vec![('c', 3), ('a', 41)],
            ..Given::default()
        };
        assert_eq!(
            doubt(&before),
            None,
            "a value weighed before the answer competes not"
        );
    }

    #[test]
    fn a_declared_convention_makes_a_reading_unsure() {
        let r = Given {
            json: Some(('a', 30)),
            convention: Some([0, 9]),
            ..Given::default()
        };
        assert_eq!(doubt(&r), Some((DoubtKind::OtherConvention, None)));
    }

    #[test]
    fn readings_below_the_first_rank_are_never_sure() {
        let ticked = Given {
            ticked: Some(('a', 7)),
            put_forward: vec![('b', 2), ('a', 7)],
            ..Given::default()
        };
        assert_eq!(
            doubt(&ticked),
            Some((DoubtKind::NotFirstRank, Some(('b', 2))))
        );
        let fallback = Given {
            fallback: (Some(('c', 11)), Rule::LastCoordinate),
            ..Given::default()
        };
        assert_eq!(doubt(&fallback), Some((DoubtKind::FallBack, None)));
        let lone = |first| Given {
            fallback: (Some(('c', 11)), Rule::Lone),
            lone_first: first,
            ..Given::default()
        };
        assert_eq!(
            doubt(&lone(true)),
            None,
            "the value alone, where it is first rank"
        );
        assert_eq!(doubt(&lone(false)), Some((DoubtKind::NotFirstRank, None)));
    }

    #[test]
    fn no_answer_is_sure_only_when_the_reply_holds_no_trace_of_one() {
        assert_eq!(doubt(&Given::default()), None);
        let traced = Given {
            traces: Some((None, [3, 4])),
            ..Given::default()
        };
        assert_eq!(doubt(&traced), Some((DoubtKind::Unread, None)));
        let gave_up = Given {
            gives_up: true,
            traces: Some((Some(('a', 3)), [3, 4])),
            ..Given::default()
        };
        assert_eq!(doubt(&gave_up), Some((DoubtKind::Unread, Some(('a', 3)))));
    }

    #[test]
    fn a_reading_below_the_first_rank_before_an_empty_label_was_cut_off() {
        let r = Given {
            fallback: (Some(('c', 2)), Rule::Lone),
            lone_first: false,
            lines: Lines::of("I think it is a (0, 1)\nMove:"),
            ..Given::default()
        };
        assert_eq!(doubt(&r), Some((DoubtKind::CutOff, None)));
    }
}
