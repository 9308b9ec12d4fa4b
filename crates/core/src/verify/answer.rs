//! A reply's structure, as the readers share it: the rule that read an answer
//! ([`Rule`]), the lines that give an answer the way labels do ([`answer_lines`]), and
//! answers written as JSON ([`json_values`]).
//!
//! **Answer lines.** A reply states its answer on a line of its own far more often than in
//! any fixed phrase, in any language: `Move: (0, 1)`, `Réponse : (0, 1)`, `下一步：(0, 1)`,
//! `Decision — (0, 1)`, `→ (0, 1)`. A line is an answer line when it opens with a short lead
//! (at most six words, no digits, not a question) set off from its value the way labels are:
//! a colon, an equals sign, a dash between spaces or an arrow (`->`, `=>`, `→`, `⇒`). An
//! arrow may stand alone at the line's start. List markers (`-`, `*`, `•`, `>`, `#`) before
//! the lead are dropped. What reads the value is the reader's own (one cell, one shape).
//!
//! Markup gives a lead too: a line that wraps its value in a tag, `<answer>(0, 1)</answer>`,
//! `<shape>spiral</shape>`, is an answer line whose lead is the tag's name. And a reply may
//! put its answer first and its reasons after: a first line that holds its value alone
//! (at most three words, no lead: `(0, 1)`, `**Spiral**`) is an answer line with no lead,
//! when more lines follow it.
//!
//! Leads are not answers when they name the maze's data or weigh options; English words do
//! that in the hint lists below ([`DATA_LEADS`], [`WEIGHING_LEADS`]), and structure does it
//! in any language: a lead whose last word is a single letter or a number (`Option B:`,
//! `Step 2:`) labels an item of a list, and the reader's value rule refuses values that list
//! several cells or shapes.

use super::words::{normal_word, word_spans, TAKING_BACK};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which rule of a reader read a reply's answer, as a stable snake_case name. Whether the
/// reading is *sure* depends on the rule and on what else the reply gives (decide.rs): a
/// fall-back that picks one of several candidates ([`Rule::is_fall_back`]) never is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// A JSON answer: `{"move": [0, 1]}`, `{"shape": "spiral"}`, a JSON array of rows.
    Json,
    /// The last answer line: a short lead set off from its value (`Move: (0, 1)`).
    AnswerLabel,
    /// The last sentence that puts one value forward as the answer ("Therefore, my next
    /// move is (1, 0).", "下一步移动到(1, 0)").
    Concluded,
    /// The candidate ticked in a list or table whose other candidates are struck out.
    Ticked,
    /// The value after the last answer label in running text ("... so the answer is a
    /// spiral, I think").
    LabelInText,
    /// The value alone: the one cell, shape or maze the reply puts forward (other cells
    /// restate the maze or are passed over as the start, refused or asked).
    Lone,
    /// Move: after the last "move ... to" phrase (a fall-back).
    MovePhrase,
    /// Move: the last cell the reply could be putting forward: the last coordinate that
    /// restates no maze data and is not the start, refused, asked or a later step (a
    /// fall-back).
    LastCoordinate,
    /// Shape: the last of several shapes named (a fall-back).
    LastNamed,
    /// Maze: the last of several blocks of rows (a fall-back).
    LastBlock,
    /// Nothing read: the reply gives no answer.
    NoAnswer,
    /// Nothing read: the reply was cut off inside its reasoning (`<think>` never closed).
    CutInReasoning,
    /// Read by serde from the JSON an endpoint held to the answer's schema (the `schema`
    /// and `transcribed` answer modes): the answer as its schema names it.
    Schema,
    /// Read by serde from the arguments of the function the reply was made to call (the
    /// `tool` answer mode).
    ToolCall,
}

impl Rule {
    /// Every rule.
    pub const ALL: [Rule; 14] = [
        Rule::Json,
        Rule::AnswerLabel,
        Rule::Concluded,
        Rule::Ticked,
        Rule::LabelInText,
        Rule::Lone,
        Rule::MovePhrase,
        Rule::LastCoordinate,
        Rule::LastNamed,
        Rule::LastBlock,
        Rule::NoAnswer,
        Rule::CutInReasoning,
        Rule::Schema,
        Rule::ToolCall,
    ];

    /// The stable snake_case name.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Json => "json",
            Rule::AnswerLabel => "answer_label",
            Rule::Concluded => "concluded",
            Rule::Ticked => "ticked",
            Rule::LabelInText => "label_in_text",
            Rule::Lone => "lone",
            Rule::MovePhrase => "move_phrase",
            Rule::LastCoordinate => "last_coordinate",
            Rule::LastNamed => "last_named",
            Rule::LastBlock => "last_block",
            Rule::NoAnswer => "no_answer",
            Rule::CutInReasoning => "cut_in_reasoning",
            Rule::Schema => "schema",
            Rule::ToolCall => "tool_call",
        }
    }

    /// Whether the rule falls back on one of several candidates (never a sure reading).
    pub fn is_fall_back(self) -> bool {
        matches!(
            self,
            Rule::MovePhrase | Rule::LastCoordinate | Rule::LastNamed | Rule::LastBlock
        )
    }

    /// A sentence for people: how the answer was read.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Json => "read from the JSON the reply gives",
            Rule::AnswerLabel => "read from the reply's last answer line",
            Rule::Concluded => "read from the sentence the reply concludes with",
            Rule::Ticked => "the candidate the reply ticks among candidates struck out",
            Rule::LabelInText => "read after the reply's last answer label in running text",
            Rule::Lone => {
                "the one answer the reply puts forward (any other cells restate the maze)"
            }
            Rule::MovePhrase => "a fall-back: the cell after the reply's last move phrase",
            Rule::LastCoordinate => "a fall-back: the last cell the reply could be putting forward",
            Rule::LastNamed => "a fall-back: the last of the shapes the reply names",
            Rule::LastBlock => "a fall-back: the last of the reply's blocks of rows",
            Rule::NoAnswer => "the reply gives no answer",
            Rule::CutInReasoning => "the reply was cut off inside its reasoning",
            Rule::Schema => "read from the JSON the endpoint held to the answer's schema",
            Rule::ToolCall => "read from the arguments of the function the reply called",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Answer labels (a conclusion reads a few more, conclusion.rs).
pub(super) const MOVE_LABELS: [&str; 8] = [
    "move:",
    "next move:",
    "answer:",
    "final answer:",
    "next position:",
    "next cell:",
    "new position:",
    "my move:",
];

/// An answer line: `[start, end)` of its lead and of its value in the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AnswerLine {
    /// The lead (may be empty before an arrow).
    pub(super) lead: [usize; 2],
    /// The value, up to the line's end.
    pub(super) value: [usize; 2],
    /// The line's index in the text.
    pub(super) row: usize,
}

/// Of `lines`, those that stand alone: no line right above or below (no blank line
/// between) is another answer line for which `holds` is true. Answer lines one under the
/// other that each hold a value list options (`Up: (0, 1)` / `Left: (1, 0)`), not the answer;
/// a line that names several values is a list of its own and holds none.
pub(super) fn alone(lines: &[AnswerLine], holds: impl Fn(&AnswerLine) -> bool) -> Vec<AnswerLine> {
    let holding: Vec<usize> = lines.iter().filter(|l| holds(l)).map(|l| l.row).collect();
    lines
        .iter()
        .filter(|l| !holding.iter().any(|&r| r + 1 == l.row || l.row + 1 == r))
        .copied()
        .collect()
}

/// English leads that name the maze's data, not an answer (compared in lower case, with
/// an article dropped): hints only, beside the structural rules.
const DATA_LEADS: [&str; 30] = [
    "walls",
    "wall",
    "empty",
    "empty cells",
    "open",
    "open cells",
    "free cells",
    "corridor",
    "obstacles",
    "player",
    "player position",
    "position",
    "current position",
    "current cell",
    "current",
    "start",
    "starting position",
    "start position",
    "from",
    "goal",
    "goal position",
    "target",
    "exit",
    "end",
    "destination",
    "finish",
    "p",
    "g",
    "path",
    "route",
];

/// English words that, anywhere in a lead, make it name the maze's data or the reply's
/// own bookkeeping (`Current player position:`, `Visited:`).
const DATA_WORDS: [&str; 12] = [
    "player", "current", "goal", "start", "starting", "wall", "walls", "empty", "target",
    "visited", "queue", "previous",
];

/// English words that make a lead weigh options or plan ahead rather than answer.
const WEIGHING_LEADS: [&str; 16] = [
    "possible",
    "options",
    "option",
    "alternatives",
    "alternative",
    "candidates",
    "candidate",
    "valid",
    "available",
    "neighbors",
    "neighbours",
    "adjacent",
    "can",
    "could",
    "if",
    "or",
];

/// Separators that set a value off from its lead, longest first.
const SEPARATORS: [&str; 9] = [
    "=>",
    "->",
    "\u{2192}",
    "\u{21d2}",
    " - ",
    " \u{2014} ",
    " \u{2013} ",
    ":",
    "=",
];

/// A line that wraps its value in a tag (`<answer>(0, 1)</answer>`): the lead's
/// `[start, end)` (the tag's name) and the value's, in `line`.
fn tag_line(line: &str) -> Option<[usize; 4]> {
    let name_end = line.strip_prefix('<')?.find('>')? + 1;
    let name = &line[1..name_end];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let close = format!("</{name}>");
    let value_end = line.rfind(&close)?;
    let value_start = name_end + 1;
    (value_end > value_start && line[value_end + close.len()..].trim().is_empty()).then_some([
        1,
        name_end,
        value_start,
        value_end,
    ])
}

/// Whether the text after an answer given first takes it back: a correction's word
/// ("wait", "actually", ... [`TAKING_BACK`], or "instead") anywhere in it, or "no" said as
/// an answer (opening its sentence or set off by punctuation: "No, (1, 0)", not "no wall").
/// The answer given first then counts no more than any other line (the reply corrects
/// itself).
fn takes_back(after: &str) -> bool {
    word_spans(after).iter().any(|w| {
        let word = normal_word(w.text);
        if word == "no" {
            let opens = after[..w.start()]
                .trim_end()
                .chars()
                .next_back()
                .is_none_or(|c| matches!(c, '.' | '!' | '?' | ':'));
            let set_off = after[w.end..].starts_with([',', ':', ';', '.', '!', '\u{2014}']);
            return opens || set_off;
        }
        TAKING_BACK.contains(&word.as_str()) || word == "instead"
    })
}

/// Whether a line holds a value alone: at most three words, no lead, no question.
fn value_alone(line: &str) -> bool {
    let words = line
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count();
    let t = line.trim();
    (1..=3).contains(&words) && !t.ends_with(['?', ':']) && split_lead(t).is_none()
}

/// The answer lines of `text` in order (see the module documentation).
pub(super) fn answer_lines(text: &str) -> Vec<AnswerLine> {
    let mut out = Vec::new();
    let mut offset = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // Whether a line opens with a list marker (`-`, `*`, `•`).
    let marked = |l: &str| l.trim_start().starts_with(['-', '*', '\u{2022}']);
    // The nearest line above or below `i` that holds text.
    let neighbour = |i: usize, up: bool| {
        let mut k = i;
        loop {
            if up {
                k = k.checked_sub(1)?;
            } else {
                k += 1;
            }
            let l = lines.get(k)?;
            if !l.trim().is_empty() {
                return Some(*l);
            }
        }
    };
    for (i, line) in lines.iter().enumerate() {
        let start = offset;
        offset += line.len();
        // An item of a list (a marked line beside another) is an option, not the answer.
        if marked(line)
            && (neighbour(i, true).is_some_and(marked) || neighbour(i, false).is_some_and(marked))
        {
            continue;
        }
        let body = line.trim_end();
        let marker = body.len()
            - body
                .trim_start_matches([' ', '\t', '-', '*', '>', '#', '\u{2022}'])
                .len();
        let from = start + marker;
        let rest = &text[from..start + body.len()];
        if let Some([ls, le, vs, ve]) = tag_line(rest) {
            out.push(AnswerLine {
                lead: [from + ls, from + le],
                value: [from + vs, from + ve],
                row: i,
            });
            continue;
        }
        let first = text[..start].trim().is_empty();
        let after = &text[start + line.len()..];
        if first && value_alone(rest) && !after.trim().is_empty() && !takes_back(after) {
            out.push(AnswerLine {
                lead: [from, from],
                value: [from, start + body.len()],
                row: i,
            });
            continue;
        }
        if let Some(found) = split_lead(rest) {
            let [ls, le, vs] = found;
            out.push(AnswerLine {
                lead: [from + ls, from + le],
                value: [from + vs, start + body.len()],
                row: i,
            });
        }
    }
    out
}

/// Whether a byte may start one of [`SEPARATORS`].
fn starts_separator(b: u8) -> bool {
    matches!(b, b'=' | b'-' | b':' | b' ' | 0xE2)
}

/// The lead's `[start, end)` and the value's start in `line`, when it is an answer line.
fn split_lead(line: &str) -> Option<[usize; 3]> {
    // The first place a separator starts (the longest of those starting there), found in
    // one pass over the line: only a byte that starts one of them is tried (`=`, `-`, `:`,
    // a space, and the lead byte of the arrows and dashes, each a char boundary).
    let (at, sep) = line.bytes().enumerate().find_map(|(i, b)| {
        if !starts_separator(b) {
            return None;
        }
        let rest = &line[i..];
        SEPARATORS
            .iter()
            .find(|s| rest.starts_with(**s))
            .map(|s| (i, *s))
    })?;
    let lead = &line[..at];
    let value_start = at + sep.len();
    let arrow = matches!(sep, "=>" | "->" | "\u{2192}" | "\u{21d2}");
    if lead.trim().is_empty() {
        return arrow.then_some([at, at, value_start]);
    }
    let lead_t = lead.trim();
    if lead_t.ends_with('?')
        || lead_t.contains([
            '(', ')', '[', ']', '{', '}', '<', '>', ',', '.', ';', '!', '?',
        ])
        || lead_t.chars().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    let words: Vec<String> = lead_t
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase().replace(['\'', '\u{2019}'], ""))
        .collect();
    if words.is_empty() || words.len() > 6 || lead_t.chars().count() > 40 {
        return None;
    }
    let last = words.last().map_or("", String::as_str);
    let single_letter = words.len() > 1 && last.chars().count() == 1 && last != "i";
    let key: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| matches!(*w, "the" | "a" | "an" | "my" | "your"))
        .collect();
    let data = DATA_LEADS.contains(&key.join(" ").as_str())
        || (words.len() == 1 && words[0].chars().count() == 1);
    let weighing = words.iter().any(|w| WEIGHING_LEADS.contains(&w.as_str()))
        || words.iter().any(|w| DATA_WORDS.contains(&w.as_str()));
    let lead_start = line.len() - line.trim_start().len();
    (!(data || weighing || single_letter)).then_some([
        lead_start,
        lead_start + lead_t.len(),
        value_start,
    ])
}

/// Whether `line` opens with a lead that names the maze's data or the reply's own
/// bookkeeping (`Walls: (0, 0), (0, 1)`, `Current position: (2, 2)`): the words before its
/// first colon or equals sign, at most six, are one of [`DATA_LEADS`] or hold one of
/// [`DATA_WORDS`].
pub(super) fn data_lead(line: &str) -> bool {
    let body = line.trim_start_matches([' ', '\t', '-', '*', '>', '#', '\u{2022}']);
    let Some(at) = body.find([':', '=']) else {
        return false;
    };
    let words: Vec<String> = body[..at]
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase().replace(['\'', '\u{2019}'], ""))
        .collect();
    if words.is_empty() || words.len() > 6 {
        return false;
    }
    let key: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .skip_while(|w| matches!(*w, "the" | "a" | "an" | "my" | "your"))
        .collect();
    DATA_LEADS.contains(&key.join(" ").as_str())
        || words.iter().any(|w| DATA_WORDS.contains(&w.as_str()))
}

/// Whether a value opens with its answer: the answer starts within its first five words
/// (`at` is where the answer starts in `value`), and the value holds at most twelve words
/// besides (a line of prose that names a cell is no answer line). In scripts written
/// without spaces (Chinese, Japanese) each character counts as a word.
pub(super) fn opens_with_answer(value: &str, at: usize, len: usize) -> bool {
    let count = |t: &str| {
        t.split_whitespace()
            .filter(|w| w.chars().any(char::is_alphanumeric))
            .map(|w| w.chars().filter(|&c| unspaced(c)).count().max(1))
            .sum::<usize>()
    };
    let at = at.min(value.len());
    let end = (at + len).min(value.len());
    count(&value[..at]) <= 5 && count(&value[..at]) + count(&value[end..]) <= 12
}

/// Marks that pick an item of a list or a table (`✓ ✔ ☑ ✅`, `[x]`).
const CHECKS: [&str; 6] = ["\u{2713}", "\u{2714}", "\u{2611}", "\u{2705}", "[x]", "[X]"];

/// Marks that strike an item out (`✗ ✘ ☒ ❌`, `[ ]`).
const CROSSES: [&str; 5] = ["\u{2717}", "\u{2718}", "\u{2612}", "\u{274c}", "[ ]"];

/// Whether a line carries a cross (`✗ ✘ ☒ ❌ [ ]`) and no check mark: a candidate struck out.
pub(super) fn struck_out(line: &str) -> bool {
    CROSSES.iter().any(|m| line.contains(m)) && !CHECKS.iter().any(|m| line.contains(m))
}

/// The line (`[start, end)` in `text`) that a list or table of candidates picks by its mark:
/// exactly one line carries a check mark and at least one other a cross, as in a table of
/// candidates ticked and struck (`| C | ✓ |` among `| Square | ✗ |` rows).
pub(super) fn checked_line(text: &str) -> Option<[usize; 2]> {
    // Every mark is a character outside ASCII or holds a bracket: a line of ASCII without a
    // bracket carries none (most lines, read without a search for each mark).
    let unmarked = |t: &str| t.is_ascii() && !t.contains('[');
    if unmarked(text) {
        return None;
    }
    let mut checked = Vec::new();
    let mut crossed = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let has = |marks: &[&str]| !unmarked(line) && marks.iter().any(|m| line.contains(m));
        match (has(&CHECKS), has(&CROSSES)) {
            (true, false) => checked.push([offset, offset + line.len()]),
            (false, true) => crossed += 1,
            _ => {}
        }
        offset += line.len();
    }
    match checked[..] {
        [line] if crossed > 0 => Some(line),
        _ => None,
    }
}

/// Whether `c` is of a script written without spaces between words (CJK ideographs, kana).
fn unspaced(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}')
}

/// Every JSON object or array in `text` that parses, with its `[start, end)`, in order;
/// nested values are not listed apart from the value that holds them.
pub(super) fn json_values(text: &str) -> Vec<(serde_json::Value, [usize; 2])> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'{' | b'[') {
            let mut stream =
                serde_json::Deserializer::from_str(&text[i..]).into_iter::<serde_json::Value>();
            if let Some(Ok(value)) = stream.next() {
                let end = i + stream.byte_offset();
                if value.is_object() || value.as_array().is_some_and(|a| !a.is_empty()) {
                    out.push((value, [i, end]));
                    i = end;
                    continue;
                }
            }
        }
        i += 1;
    }
    out
}

/// The value of the first key of `object` (case ignored, `-` and spaces read as `_`) that
/// is one of `keys`.
pub(super) fn json_key<'a>(
    object: &'a serde_json::Map<String, serde_json::Value>,
    keys: &[&str],
) -> Option<&'a serde_json::Value> {
    keys.iter().find_map(|k| {
        object.iter().find_map(|(name, v)| {
            let name = name.to_ascii_lowercase().replace(['-', ' '], "_");
            (name == *k).then_some(v)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_separator_starts_with_a_byte_the_lead_search_tries() {
        for sep in SEPARATORS {
            assert!(starts_separator(sep.as_bytes()[0]), "{sep:?}");
        }
    }

    fn leads(text: &str) -> Vec<(&str, &str)> {
        answer_lines(text)
            .into_iter()
            .map(|l| {
                (
                    &text[l.lead[0]..l.lead[1]],
                    text[l.value[0]..l.value[1]].trim(),
                )
            })
            .collect()
    }

    #[test]
    fn a_short_lead_set_off_from_its_value_is_an_answer_line_in_any_language() {
        assert_eq!(leads("Mon choix : (0, 1)"), vec![("Mon choix", "(0, 1)")]);
        assert_eq!(
            leads("- Entscheidung -> (2, 3)"),
            vec![("Entscheidung", "(2, 3)")]
        );
        assert_eq!(leads("结论: spiral"), vec![("结论", "spiral")]);
        assert_eq!(leads("\u{2192} (1, 0)"), vec![("", "(1, 0)")]);
        assert_eq!(leads("Verdict \u{2014} cross"), vec![("Verdict", "cross")]);
    }

    #[test]
    fn a_tag_around_a_value_and_a_value_first_are_answer_lines() {
        assert_eq!(leads("<final>(3, 2)</final>"), vec![("final", "(3, 2)")]);
        assert_eq!(leads("  <forme>croix</forme>"), vec![("forme", "croix")]);
        assert_eq!(
            leads("(2, 2)\n\nThe corridor bends there, so the next cells are (3, 2)."),
            vec![("", "(2, 2)")]
        );
        assert_eq!(leads("Spiral.\nIt winds inward."), vec![("", "Spiral.")]);
        // "no" as a determiner takes nothing back.
        assert_eq!(
            leads("(2, 2)\n\nThere is no wall at (2, 2); (3, 2) is open too."),
            vec![("", "(2, 2)")]
        );
        // Not: an answer first that the lines after take back, tags that do not close on
        // the line, a reply of one line, a question, a sentence.
        for text in [
            "(2, 2)\n\nWait, that cell is a wall; the open one is (3, 2).",
            "(2, 2)\n\nNo. The open one is (3, 2).",
            "(2, 2)\n\nIt is open, no: (3, 2) is.",
            "Square, maybe.\nActually the corridor winds inward.",
            "<answer>(3, 2)",
            "<a href>x</a>",
            "(2, 2)",
            "Which one?\nDown.",
            "I will go down now.\nIt is open.",
        ] {
            assert!(answer_lines(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_value_of_unspaced_script_counts_its_characters_as_words() {
        // "go right, along the top edge to (0, 4), then down to the goal": prose, no
        // answer opening it.
        let value = "向右走，沿着上边一直到 (0, 4)，再向下到终点。";
        let at = value.find('(').unwrap_or(0);
        assert!(!opens_with_answer(value, at, 6));
        let value = "移动到 (0, 1)";
        assert!(opens_with_answer(value, value.find('(').unwrap_or(0), 6));
    }

    #[test]
    fn data_options_steps_questions_and_prose_are_not_answer_lines() {
        for text in [
            "Walls: (1, 1), (1, 2)",
            "The player position: (0, 0)",
            "Possible moves: (0, 1)",
            "Option B: (1, 0)",
            "Step 2: (0, 2)",
            "Current player position: (3, 3)",
            "- Right: (0, 3)\n- Down: (1, 2)",
            "Where next? (0, 1)",
            "I looked at the row, and then the column: it is open",
            "(0, 1): open",
            "P: (0, 0)",
            "a very long lead of many many words here: (0, 1)",
        ] {
            assert!(answer_lines(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn json_values_are_found_in_prose_and_nested_values_stay_inside() {
        let text = "Here: {\"move\": [0, 1]} and [[1, 2], [3, 4]] but not {oops";
        let found: Vec<&str> = json_values(text)
            .iter()
            .map(|(_, [s, e])| &text[*s..*e])
            .collect();
        assert_eq!(found, vec!["{\"move\": [0, 1]}", "[[1, 2], [3, 4]]"]);
        let (v, _) = &json_values("{\"Next-Move\": 3}")[0];
        let obj = v.as_object().expect("an object");
        assert_eq!(json_key(obj, &["next_move"]), Some(&serde_json::json!(3)));
    }

    #[test]
    fn every_rule_has_a_distinct_name_and_the_fall_backs_are_marked() {
        let mut names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Rule::ALL.len());
        let fall_backs: Vec<Rule> = Rule::ALL.into_iter().filter(|r| r.is_fall_back()).collect();
        assert_eq!(
            fall_backs,
            [
                Rule::MovePhrase,
                Rule::LastCoordinate,
                Rule::LastNamed,
                Rule::LastBlock
            ]
        );
    }
}
