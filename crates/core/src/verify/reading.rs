//! What a reader read in one reply, by which rule and where, apart from any judgement: the
//! review queue shows it, the transcript viewer marks it, and the agreement with people is
//! counted on it (analysis::review).

use super::answer::Rule;
use super::generation::{maze_doubt, maze_rule};
use super::reader::read_move_in;
use super::recognition::answer_mention;
use super::verdict::{Doubt, Extracted};
use crate::maze::encoding::Encoding;
use crate::maze::grid::Pos;
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
    /// Why the reading is not sure (`None` when it is: verify/decide.rs).
    pub doubt: Option<Doubt>,
}

impl Reading {
    /// Whether the reading is sure: a reviewer should never have to check it.
    pub fn sure(&self) -> bool {
        self.doubt.is_none()
    }

    fn none(rule: Rule) -> Reading {
        Reading {
            value: Extracted::Nothing,
            rule,
            span: None,
            doubt: None,
        }
    }
}

/// The move a reply names ([`super::read_move`]), with its rule and span, not knowing the
/// maze it answers (some readings are then unsure that [`move_reading_from`] finds sure).
pub fn move_reading(reply: &str) -> Reading {
    move_reading_in(reply, None)
}

/// [`move_reading`] of a reply to a maze whose player stands on `player`: a reply that
/// names one cell next to the player's gives it as its move, and a place it names that the
/// player cannot reach in one step does not compete with its answer (verify/decide.rs).
pub fn move_reading_from(reply: &str, player: Pos) -> Reading {
    move_reading_in(reply, Some(player))
}

fn move_reading_in(reply: &str, player: Option<Pos>) -> Reading {
    let plain = Plain::of(reply);
    if plain.cut_in_reasoning() {
        return Reading::none(Rule::CutInReasoning);
    }
    let read = read_move_in(&plain.text, player);
    let doubt = read.doubt.map(|d| {
        let in_reply = |[s, e]: [usize; 2]| plain.span(s, e);
        d.to_doubt(read.rule, "move", &plain.text, in_reply, |c| {
            Extracted::Cell(c.pos)
        })
    });
    match read.coord {
        Some(c) => Reading {
            value: Extracted::Cell(c.pos),
            rule: read.rule,
            span: Some(plain.span(c.start, c.end)),
            doubt,
        },
        None => Reading {
            doubt,
            ..Reading::none(read.rule)
        },
    }
}

/// The shape a reply names with `shapes` in play ([`super::recognize_in`]).
pub fn shape_reading(reply: &str, shapes: ShapeSet) -> Reading {
    let plain = Plain::of(reply);
    if plain.cut_in_reasoning() {
        return Reading::none(Rule::CutInReasoning);
    }
    let read = answer_mention(&plain.text, reply, shapes);
    let doubt = read.doubt.map(|d| {
        let in_reply = |[s, e]: [usize; 2]| plain.span(s, e);
        d.to_doubt(read.rule, "shape", &plain.text, in_reply, |m| {
            Extracted::Shape(m.shape)
        })
    });
    match read.value {
        Some(m) => Reading {
            value: Extracted::Shape(m.shape),
            rule: read.rule,
            span: Some(plain.span(m.at, m.at + m.len)),
            doubt,
        },
        None => Reading {
            doubt,
            ..Reading::none(read.rule)
        },
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
    let doubt = maze_doubt(reply, &read, rule, [rows, cols], encoding, symbols);
    let value = match read.grid {
        Ok(g) => Extracted::Grid(g),
        Err(_) => Extracted::Nothing,
    };
    Reading {
        value,
        rule,
        span: read.span,
        doubt,
    }
}
