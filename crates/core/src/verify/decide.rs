//! The one place a reader's answer is decided, from what the reply gives in each role.
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
//!    value, else a fall-back marked as one: [`Rule::sure`] is false).
//!
//! The answer label answers `None` when the reply gives nothing in its role (the next
//! step is asked), `Some(None)` when it decides that the reply gives no answer (a label
//! before a hedge over every shape), and `Some(Some(value))` with the answer.

use super::answer::Rule;

/// What a reply gives in a role: `None` nothing (ask the next role), `Some(None)` no answer
/// (decided), `Some(Some(v))` the answer `v`.
pub(super) type Found<T> = Option<Option<T>>;

/// What a reader finds in each role of one reply (see the module documentation). Each
/// method is asked at most once, and only when the roles before it gave nothing, so a
/// reader's costly rules run only when they are needed.
pub(super) trait Candidates {
    /// The value read (a cell, a shape mention).
    type Value: Copy;
    /// Where a value stands in the text (its start), to tell which of two came later.
    fn at(value: &Self::Value) -> usize;
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
}

/// The answer a reply gives, and the rule that read it ([`Rule::NoAnswer`] when none).
pub(super) fn decide<C: Candidates>(reader: &C) -> (Option<C::Value>, Rule) {
    let found = |value: Option<C::Value>, rule| match value {
        Some(v) => (Some(v), rule),
        None => (None, Rule::NoAnswer),
    };
    if let Some(v) = reader.json() {
        return (Some(v), Rule::Json);
    }
    let clause = reader.concluded();
    let line = reader
        .answer_line()
        .filter(|v| clause.as_ref().is_none_or(|(c, _)| C::at(v) > C::at(c)))
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
        return (Some(v), Rule::AnswerLabel);
    }
    if let Some(v) = reader.labelled() {
        return found(v, Rule::AnswerLabel);
    }
    let (v, rule) = reader.fallback();
    found(v, rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader whose roles are given: each value is where it stands.
    #[derive(Default)]
    struct Given {
        json: Option<usize>,
        line: Option<usize>,
        clause: Option<(usize, bool)>,
        gives_up: bool,
        ticked: Option<usize>,
        labelled: Found<usize>,
        fallback: Option<usize>,
    }

    impl Candidates for Given {
        type Value = usize;
        fn at(value: &usize) -> usize {
            *value
        }
        fn json(&self) -> Option<usize> {
            self.json
        }
        fn answer_line(&self) -> Option<usize> {
            self.line
        }
        fn concluded(&self) -> Option<(usize, bool)> {
            self.clause
        }
        fn gives_up(&self) -> bool {
            self.gives_up
        }
        fn ticked(&self) -> Option<usize> {
            self.ticked
        }
        fn labelled(&self) -> Found<usize> {
            self.labelled
        }
        fn fallback(&self) -> (Option<usize>, Rule) {
            (self.fallback, Rule::LastNamed)
        }
    }

    #[test]
    fn json_comes_first() {
        let r = Given {
            json: Some(1),
            line: Some(50),
            clause: Some((90, true)),
            ..Given::default()
        };
        assert_eq!(decide(&r), (Some(1), Rule::Json));
    }

    #[test]
    fn the_later_of_an_answer_line_and_a_conclusion_counts() {
        let line_last = Given {
            line: Some(80),
            clause: Some((20, true)),
            ..Given::default()
        };
        assert_eq!(decide(&line_last), (Some(80), Rule::AnswerLabel));
        let clause_last = Given {
            line: Some(20),
            clause: Some((80, true)),
            ..Given::default()
        };
        assert_eq!(decide(&clause_last), (Some(80), Rule::Concluded));
    }

    #[test]
    fn a_conclusion_taken_back_gives_no_answer_and_stops_the_fall_backs() {
        let r = Given {
            clause: Some((60, false)),
            fallback: Some(5),
            ..Given::default()
        };
        assert_eq!(decide(&r), (None, Rule::NoAnswer));
        // An answer line after it still counts.
        let later_line = Given {
            clause: Some((60, false)),
            line: Some(70),
            ..Given::default()
        };
        assert_eq!(decide(&later_line), (Some(70), Rule::AnswerLabel));
    }

    #[test]
    fn giving_up_silences_the_answer_line_but_not_a_conclusion() {
        let line = Given {
            line: Some(30),
            gives_up: true,
            fallback: Some(40),
            ..Given::default()
        };
        assert_eq!(decide(&line), (None, Rule::NoAnswer));
        let clause = Given {
            line: Some(30),
            clause: Some((10, true)),
            gives_up: true,
            ..Given::default()
        };
        assert_eq!(decide(&clause), (Some(10), Rule::Concluded));
    }

    #[test]
    fn then_the_ticked_candidate_the_label_and_the_fall_back() {
        let ticked = Given {
            ticked: Some(7),
            labelled: Some(Some(9)),
            fallback: Some(11),
            ..Given::default()
        };
        assert_eq!(decide(&ticked), (Some(7), Rule::AnswerLabel));
        let labelled = Given {
            labelled: Some(Some(9)),
            fallback: Some(11),
            ..Given::default()
        };
        assert_eq!(decide(&labelled), (Some(9), Rule::AnswerLabel));
        let hedged = Given {
            labelled: Some(None),
            fallback: Some(11),
            ..Given::default()
        };
        assert_eq!(decide(&hedged), (None, Rule::NoAnswer));
        let fallback = Given {
            fallback: Some(11),
            ..Given::default()
        };
        assert_eq!(decide(&fallback), (Some(11), Rule::LastNamed));
        assert_eq!(decide(&Given::default()), (None, Rule::NoAnswer));
    }
}
