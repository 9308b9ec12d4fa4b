//! A reply's outline: its lines (read once, lines.rs, as the readers read them), each given
//! one role ([`Role`]), so a person can see how the readers saw the reply (`shapemaze verify
//! --roles`, the transcript viewer, the review queue).
//!
//! The roles are the ones the readers decide from (decide.rs): an answer line, an item of
//! a list of options, the candidate ticked among candidates struck out, a question, a
//! correction that takes back what came before, a line that gives the maze's data or the
//! reply's own bookkeeping, a row of maze symbols, a JSON value, a sentence that concludes,
//! and prose; the reasoning of a think block is a part of its own. Each role is found by the
//! same rule the readers use (answer.rs for answer lines and ticks, conclusion.rs for
//! conclusion phrases, the matrix reader for rows), so the outline and a reading agree: the
//! value an answer line gave is read in a line whose role is `answer`.
//!
//! A line holds one role, the first of this order that fits: `json`, `chosen`, `question`,
//! `grid`, `options` (a candidate struck out beside a ticked one, an answer line beside
//! another that also holds a value, a list item beside another), `answer`, `correction`,
//! `data`, `conclusion`, `prose`. The outline reads lines; a reader still weighs the
//! clauses inside a line (standing.rs gives each cell a reply names its own standing).

use super::answer::{data_lead, struck_out};
use super::conclusion::holds_conclusion_phrase;
use super::lines::Lines;
use super::recognition::{chosen_option, mentions_in, Mention, ANSWER_LABELS};
use super::words::{first_word, normal_word, TAKING_BACK};
use crate::maze::coords::coordinates;
use crate::maze::is_maze_row;
use crate::maze::shape::ShapeSet;
use crate::reply::{Plain, Reasoning};
use serde::{Deserialize, Serialize};

/// What a line of a reply does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Reasoning inside a think block (`<think>...</think>`), never the answer when an
    /// answer follows.
    Reasoning,
    /// An answer line: a short lead set off from its value (`Move: (0, 1)`), a tag
    /// (`<answer>spiral</answer>`), or a value given first on a line of its own.
    Answer,
    /// An item of a list of options: a list item beside another, an answer line beside
    /// another that also holds a value, a candidate struck out.
    Options,
    /// The candidate ticked among candidates struck out.
    Chosen,
    /// A question: what it names is asked, not answered.
    Question,
    /// A line that opens by taking back what came before ("Wait, ...", "Actually, ...").
    Correction,
    /// A row of maze symbols (`1 0 0 P 1`).
    Grid,
    /// The maze's data or the reply's own bookkeeping (`Walls: ...`, `Current position:`).
    Data,
    /// A JSON value that gives an answer or a maze.
    Json,
    /// A sentence that holds a conclusion phrase or an answer label in running text
    /// ("Therefore, my next move is (1, 0).", "The position after this move: (1, 0)").
    Conclusion,
    /// Anything else: reasoning written as prose.
    Prose,
}

impl Role {
    /// Every role.
    pub const ALL: [Role; 11] = [
        Role::Reasoning,
        Role::Answer,
        Role::Options,
        Role::Chosen,
        Role::Question,
        Role::Correction,
        Role::Grid,
        Role::Data,
        Role::Json,
        Role::Conclusion,
        Role::Prose,
    ];

    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Role::Reasoning => "reasoning",
            Role::Answer => "answer",
            Role::Options => "options",
            Role::Chosen => "chosen",
            Role::Question => "question",
            Role::Correction => "correction",
            Role::Grid => "grid",
            Role::Data => "data",
            Role::Json => "json",
            Role::Conclusion => "conclusion",
            Role::Prose => "prose",
        }
    }

    /// What a line of the role is, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Role::Reasoning => "reasoning (never the answer when an answer follows)",
            Role::Answer => "an answer line",
            Role::Options => "an item of a list of options",
            Role::Chosen => "the candidate the reply picks",
            Role::Question => "a question",
            Role::Correction => "a correction: takes back what came before",
            Role::Grid => "a row of maze symbols",
            Role::Data => "the maze's data or the reply's bookkeeping",
            Role::Json => "JSON",
            Role::Conclusion => "a sentence that concludes",
            Role::Prose => "prose",
        }
    }
}

/// One part of a reply's outline: a line (or the reasoning) and its role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// What the part does.
    pub role: Role,
    /// Where it stands in the reply, `[start, end)` in bytes (markup and surrounding
    /// spaces aside).
    pub span: [usize; 2],
}

/// The outline of `reply`: its reasoning, then each line that holds text, in order.
pub fn outline(reply: &str) -> Vec<Part> {
    let plain = Plain::of(reply);
    let mut parts = match plain.reasoning {
        Reasoning::None => Vec::new(),
        Reasoning::Closed(span) => vec![Part {
            role: Role::Reasoning,
            span,
        }],
        Reasoning::Unclosed(start) => vec![Part {
            role: Role::Reasoning,
            span: [start, reply.len()],
        }],
    };
    parts.extend(
        line_roles(&Lines::of(&plain.text))
            .into_iter()
            .map(|(role, [s, e])| Part {
                role,
                span: plain.span(s, e),
            }),
    );
    crate::sort::sort_by_key(&mut parts, |p| p.span[0]);
    parts
}

/// Each line of the outline's text that holds text, as `[start, end)` (spaces trimmed) with
/// its role.
fn line_roles(lines: &Lines) -> Vec<(Role, [usize; 2])> {
    let text = lines.text;
    let answers = &lines.answers;
    let ticked = lines.ticked.map(|[s, _]| s);
    let json: Vec<[usize; 2]> = lines
        .json
        .iter()
        .filter(|(v, _)| v.is_object() || v.as_array().is_some_and(|a| !a[0].is_number()))
        .map(|(_, span)| *span)
        .collect();
    // An answer line holds a value when it names one cell, or no cell and one shape (a
    // line naming several is a list of its own), as the readers' answer lines do.
    let holds = |[s, e]: [usize; 2]| match coordinates(&text[s..e]).len() {
        1 => true,
        0 => {
            let named = mentions_in(&text[s..e], ShapeSet::ALL);
            named
                .first()
                .is_some_and(|f| named.iter().all(|m| m.shape == f.shape))
        }
        _ => false,
    };
    // The option a reply chooses by its letter (`D) triangle` ... `Answer: D`).
    let named: Vec<Mention> = mentions_in(text, ShapeSet::ALL)
        .into_iter()
        .filter(|m| !m.negated && !m.asked)
        .collect();
    let option = chosen_option(&named, lines).map(|m| m.at);
    let holding: Vec<usize> = answers
        .iter()
        .filter(|a| holds(a.value))
        .map(|a| a.row)
        .collect();
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len();
            Some((start, line))
        })
        .collect();
    let marked = |i: usize| {
        lines
            .get(i)
            .is_some_and(|(_, l)| l.trim_start().starts_with(['-', '*', '\u{2022}']))
    };
    let mut out = Vec::new();
    for (i, &(start, line)) in lines.iter().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let from = start + (line.len() - line.trim_start().len());
        let span = [from, from + t.len()];
        let answer = answers.iter().find(|a| a.row == i);
        let beside = |rows: &[usize]| rows.iter().any(|&r| r + 1 == i || i + 1 == r);
        let concludes = || holds_conclusion_phrase(t, &ANSWER_LABELS);
        let role = if json.iter().any(|&[s, e]| s < span[1] && span[0] < e) {
            Role::Json
        } else if ticked == Some(start) || option.is_some_and(|at| start <= at && at < span[1]) {
            Role::Chosen
        } else if t.ends_with('?') {
            Role::Question
        } else if is_maze_row(t) {
            Role::Grid
        } else if (ticked.is_some() && struck_out(line))
            || answer.is_some_and(|a| holds(a.value) && beside(&holding))
        {
            Role::Options
        } else if answer.is_some_and(|a| a.lead[0] < a.lead[1] || holds(a.value)) {
            // (A line given first counts when it names a value: `(0, 1)`, not a header.)
            Role::Answer
        } else if marked(i) && ((i > 0 && marked(i - 1)) || marked(i + 1)) {
            // An item of a list, unless it is labelled as the answer (`* Shape: Z`).
            if concludes() {
                Role::Conclusion
            } else {
                Role::Options
            }
        } else if opens_correction(t) {
            Role::Correction
        } else if data_lead(t) {
            Role::Data
        } else if concludes() {
            Role::Conclusion
        } else {
            Role::Prose
        };
        out.push((role, span));
    }
    out
}

/// Whether a line opens by taking back what came before: a correction's word first
/// ("Wait", "Actually", "Correction:", "Instead"), or "No" set off by punctuation.
fn opens_correction(line: &str) -> bool {
    let Some(word) = first_word(line) else {
        return false;
    };
    let w = normal_word(word);
    let lead = line.len()
        - line
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .len();
    if lead + word.len() > line.len() || !line[lead..].starts_with(word) {
        return false;
    }
    let after = &line[lead + word.len()..];
    match w.as_str() {
        "no" | "nope" => after.starts_with([',', ':', ';', '.', '!', '\u{2014}']),
        "mean" => false,
        _ => TAKING_BACK.contains(&w.as_str()) || w == "instead",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each line's role and text.
    fn roles(reply: &str) -> Vec<(Role, &str)> {
        outline(reply)
            .into_iter()
            .map(|p| (p.role, &reply[p.span[0]..p.span[1]]))
            .collect()
    }

    #[test]
    fn a_deliberation_is_outlined_line_by_line() {
        let reply = "I stand at (2, 2) and the exit is at (4, 4).\n\
                     Walls: (1, 2), (2, 1)\n\
                     Could I go up?\n\
                     - Down: (3, 2)\n\
                     - Right: (2, 3)\n\
                     Wait, (3, 2) leads nowhere.\n\
                     So my next move is (2, 3).\n\
                     Move: (2, 3)";
        assert_eq!(
            roles(reply),
            vec![
                (Role::Prose, "I stand at (2, 2) and the exit is at (4, 4)."),
                (Role::Data, "Walls: (1, 2), (2, 1)"),
                (Role::Question, "Could I go up?"),
                (Role::Options, "- Down: (3, 2)"),
                (Role::Options, "- Right: (2, 3)"),
                (Role::Correction, "Wait, (3, 2) leads nowhere."),
                (Role::Conclusion, "So my next move is (2, 3)."),
                (Role::Answer, "Move: (2, 3)"),
            ]
        );
    }

    #[test]
    fn answer_lines_one_under_another_that_each_hold_a_value_are_options() {
        let reply = "Up: (0, 1)\nLeft: (1, 0)\n\nChoice: (0, 1)";
        assert_eq!(
            roles(reply),
            vec![
                (Role::Options, "Up: (0, 1)"),
                (Role::Options, "Left: (1, 0)"),
                (Role::Answer, "Choice: (0, 1)"),
            ]
        );
    }

    #[test]
    fn reasoning_grid_rows_json_and_ticks_have_their_roles() {
        let reply = "<think>which cell?</think>\n1 0 P\n0 0 1\nG 1 1\n{\"move\": [0, 1]}";
        let got = roles(reply);
        assert_eq!(got[0], (Role::Reasoning, "<think>which cell?</think>"));
        assert_eq!(
            got[1..4].iter().map(|r| r.0).collect::<Vec<_>>(),
            [Role::Grid; 3]
        );
        assert_eq!(got[4], (Role::Json, "{\"move\": [0, 1]}"));
        let table = "| shape | fits |\n| square | \u{2717} |\n| spiral | \u{2713} |";
        assert_eq!(
            roles(table).iter().map(|r| r.0).collect::<Vec<_>>(),
            [Role::Prose, Role::Options, Role::Chosen]
        );
    }

    #[test]
    fn an_option_picked_by_its_letter_is_chosen_and_a_labelled_list_item_concludes() {
        let reply = "(A) a spiral\n(B) a cross\n(C) a Z\nMy pick: B";
        let got = roles(reply);
        assert_eq!(got[1], (Role::Chosen, "(B) a cross"));
        assert_eq!(got[3], (Role::Answer, "My pick: B"));
        let listed = "- Corridor width: one cell\n- Final answer: spiral\n- Confidence: high";
        assert_eq!(
            roles(listed).iter().map(|r| r.0).collect::<Vec<_>>(),
            [Role::Options, Role::Conclusion, Role::Options]
        );
    }

    #[test]
    fn a_line_naming_several_values_leaves_its_neighbour_an_answer() {
        let reply = "Pick: (3, 0)\nAlso open: (0, 3), (1, 4)";
        assert_eq!(roles(reply)[0], (Role::Answer, "Pick: (3, 0)"));
        let both_one = "Pick: (3, 0)\nBackup: (0, 3)";
        assert_eq!(roles(both_one)[0].0, Role::Options);
    }

    #[test]
    fn no_opens_a_correction_only_when_it_answers() {
        assert!(opens_correction("No, the cell is a wall."));
        assert!(opens_correction("**Actually** it is (1, 0)."));
        assert!(!opens_correction("No wall stands there."));
        assert!(!opens_correction("Meanwhile the goal waits."));
    }

    #[test]
    fn every_role_has_a_distinct_stable_name() {
        let names: std::collections::BTreeSet<&str> = Role::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(names.len(), Role::ALL.len());
        for role in Role::ALL {
            let json = serde_json::to_string(&role).expect("a role serializes");
            assert_eq!(json, format!("\"{}\"", role.name()));
        }
    }
}
