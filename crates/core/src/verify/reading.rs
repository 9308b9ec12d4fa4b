//! What a reader read in one reply, by which rule and where, apart from any judgement: the
//! review queue shows it, the transcript viewer marks it, and the agreement with people is
//! counted on it (analysis::review).

use super::answer::Rule;
use super::generation::maze_rule;
use super::reader::read_move_in;
use super::recognition::answer_mention;
use super::verdict::Extracted;
use crate::maze::encoding::Encoding;
use crate::maze::shape::ShapeSet;
use crate::maze::symbols::Symbols;
use crate::reply::Plain;

/// One reply as a reader read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reading {
    /// The value read (`Nothing` when none).
    pub value: Extracted,
    /// The rule that read it.
    pub rule: Rule,
    /// Where the value stands in the reply (`[start, end)`), when one was read.
    pub span: Option<[usize; 2]>,
}

impl Reading {
    fn none(rule: Rule) -> Reading {
        Reading {
            value: Extracted::Nothing,
            rule,
            span: None,
        }
    }
}

/// The move a reply names ([`super::read_move`]), with its rule and span.
pub fn move_reading(reply: &str) -> Reading {
    let plain = Plain::of(reply);
    if plain.cut_in_reasoning() {
        return Reading::none(Rule::CutInReasoning);
    }
    let read = read_move_in(&plain.text);
    match read.coord {
        Some(c) => Reading {
            value: Extracted::Cell(c.pos),
            rule: read.rule,
            span: Some(plain.span(c.start, c.end)),
        },
        None => Reading::none(read.rule),
    }
}

/// The shape a reply names with `shapes` in play ([`super::recognize_in`]).
pub fn shape_reading(reply: &str, shapes: ShapeSet) -> Reading {
    let plain = Plain::of(reply);
    if plain.cut_in_reasoning() {
        return Reading::none(Rule::CutInReasoning);
    }
    match answer_mention(&plain.text, reply, shapes) {
        Some((m, rule)) => Reading {
            value: Extracted::Shape(m.shape),
            rule,
            span: Some(plain.span(m.at, m.at + m.len)),
        },
        None => Reading::none(Rule::NoAnswer),
    }
}

/// The maze a reply offers in `encoding` (`symbols` for a matrix), whether or not it is a
/// valid one: `Nothing` when no maze could be read.
pub fn maze_reading(
    reply: &str,
    encoding: Encoding,
    rows: usize,
    cols: usize,
    symbols: Symbols,
) -> Reading {
    if crate::reply::cut_in_reasoning(reply) {
        return Reading::none(Rule::CutInReasoning);
    }
    let read = encoding.read_reply_in(reply, rows, cols, symbols);
    let rule = maze_rule(&read);
    match read.grid {
        Ok(g) => Reading {
            value: Extracted::Grid(g),
            rule,
            span: read.span,
        },
        Err(_) => Reading {
            value: Extracted::Nothing,
            rule,
            span: read.span,
        },
    }
}
