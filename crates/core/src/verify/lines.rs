//! A reply's text read once into the lines the readers decide from ([`Lines`]): the move
//! reader (reader.rs), the shape reader (recognition.rs) and the outline (outline.rs) all
//! take a reply's answer lines, its ticked line and its JSON values from here.

use super::answer::{answer_lines, checked_line, json_values, AnswerLine};

/// A reply's text read once into the lines the readers decide from: its answer lines, the
/// line a list or table ticks, and its JSON values. The move and shape readers take these
/// from here (decide.rs); the outline (outline.rs) gives every line its role from them.
pub(super) struct Lines<'t> {
    /// The text read (markup dropped, reasoning set apart: `crate::reply::Plain`).
    pub(super) text: &'t str,
    /// The answer lines, in order (answer.rs).
    pub(super) answers: Vec<AnswerLine>,
    /// The line (`[start, end)`) a list or table of candidates ticks.
    pub(super) ticked: Option<[usize; 2]>,
    /// Every JSON object or array the text holds, with its span.
    pub(super) json: Vec<(serde_json::Value, [usize; 2])>,
}

impl<'t> Lines<'t> {
    /// Reads `text`'s lines once.
    pub(super) fn of(text: &'t str) -> Lines<'t> {
        let json = if text.contains('{') || text.contains("[[") || text.contains("[\"") {
            json_values(text)
        } else {
            Vec::new()
        };
        Lines {
            text,
            answers: answer_lines(text),
            ticked: checked_line(text),
            json,
        }
    }
}
