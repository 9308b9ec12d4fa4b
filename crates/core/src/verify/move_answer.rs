//! The move as a reply's structure gives it (answer.rs): a JSON answer, the last answer
//! line, a Chinese conclusion phrase, and a correction later on the cell's line. The
//! reader (reader.rs) decides between these and its phrase rules in one place.

use super::answer::{alone, json_key, opens_with_answer, AnswerLine};
use super::lines::Lines;
use super::words::{normal_word, word_spans, TAKING_BACK};
use crate::maze::coords::{coordinates, Coord};
use crate::maze::grid::Pos;
use crate::reply::Plain;

/// Keys of a JSON object that hold the move, in order of preference (compared in lower
/// case, `-` and spaces read as `_`).
const JSON_MOVE_KEYS: [&str; 14] = [
    "move",
    "next_move",
    "nextmove",
    "answer",
    "final_answer",
    "next",
    "next_cell",
    "next_position",
    "new_position",
    "cell",
    "target_cell",
    "to",
    "action",
    "position",
];

/// The move a JSON object in the reply gives (the last such object): under one of
/// [`JSON_MOVE_KEYS`], as `[r, c]`, `{"row": r, "col": c}` (also `r`/`c`, `column`) or
/// a string holding a coordinate. The coordinate's span is the object's.
pub(super) fn json_move(lines: &Lines) -> Option<Coord> {
    json_moves(lines).next()
}

/// The move of every JSON object in the reply that gives one, the last first.
pub(super) fn json_moves<'a>(lines: &'a Lines) -> impl Iterator<Item = Coord> + 'a {
    let any = lines.text.contains('{');
    lines
        .json
        .iter()
        .rev()
        .filter(move |_| any)
        .filter_map(|(value, [start, end])| {
            let (start, end) = (*start, *end);
            let object = value.as_object()?;
            let cell = json_key(object, &JSON_MOVE_KEYS)
                .and_then(json_cell)
                .or_else(|| {
                    // An object that is itself the cell: `{"row": 0, "col": 1}`.
                    json_cell(value)
                })
                .or_else(|| nested_cell(value, 3))?;
            Some(Coord {
                pos: cell,
                start,
                end,
            })
        })
}

/// A cell an object holds deeper down, as a tool call's arguments do
/// (`{"tool": "move", "arguments": {"row": 1, "column": 0}}`): the first object within
/// `depth` levels that is itself a cell or holds one under a move key.
fn nested_cell(value: &serde_json::Value, depth: usize) -> Option<Pos> {
    if depth == 0 {
        return None;
    }
    value.as_object()?.values().find_map(|v| {
        let inner = v.as_object()?;
        json_cell(v)
            .or_else(|| json_key(inner, &JSON_MOVE_KEYS).and_then(json_cell))
            .or_else(|| nested_cell(v, depth - 1))
    })
}

/// A cell written as JSON: `[r, c]`, `{"row": r, "col": c}` or a string holding one
/// coordinate.
fn json_cell(value: &serde_json::Value) -> Option<Pos> {
    let n = |v: &serde_json::Value| v.as_u64().and_then(|x| usize::try_from(x).ok());
    match value {
        serde_json::Value::Array(a) if a.len() == 2 => Some(Pos::new(n(&a[0])?, n(&a[1])?)),
        serde_json::Value::Object(o) => {
            let row = json_key(o, &["row", "r"]).and_then(n)?;
            let col = json_key(o, &["col", "column", "c"]).and_then(n)?;
            Some(Pos::new(row, col))
        }
        serde_json::Value::String(s) => match coordinates(&Plain::text_of(s))[..] {
            [c] => Some(c.pos),
            _ => None,
        },
        _ => None,
    }
}

/// The cell of the reply's last answer line whose value names one cell that restates no
/// maze data (answer.rs): `Réponse : (0, 1)`, `→ (1, 0)`, `Next: 0, 1`. A value of two
/// numbers alone (`0, 1`, `0 1`) is the cell they name.
pub(super) fn last_answer_line(
    lines: &Lines,
    all: &[Coord],
    open: impl Fn(usize) -> bool,
) -> Option<Coord> {
    answer_line_cells(lines, all, open).next()
}

/// The cell of every answer line that gives one (see [`last_answer_line`]), the last first.
pub(super) fn answer_line_cells<'a>(
    lines: &'a Lines,
    all: &'a [Coord],
    open: impl Fn(usize) -> bool + 'a,
) -> impl Iterator<Item = Coord> + 'a {
    let text = lines.text;
    // A line holds a value when it names one cell: a line naming several is a list of its
    // own, which leaves the line above or below it standing alone (`Best: (0, 1)` /
    // `Others: (1, 0), (2, 0)`).
    let holds_cell = |line: &AnswerLine| {
        let cells = all
            .iter()
            .filter(|c| c.end > line.value[0] && c.end <= line.value[1])
            .count();
        cells == 1 || (cells == 0 && bare_pair(&text[line.value[0]..line.value[1]]).is_some())
    };
    alone(&lines.answers, holds_cell)
        .into_iter()
        .rev()
        .filter_map(move |line| {
            let [value_start, line_end] = line.value;
            let inside: Vec<usize> = (0..all.len())
                .filter(|&i| {
                    all[i].start >= line.lead[0]
                        && all[i].end <= line_end
                        && all[i].end > value_start
                })
                .collect();
            let value = &text[value_start..line_end];
            match inside[..] {
                [] => bare_pair(value).map(|(pos, [s, e])| Coord {
                    pos,
                    start: value_start + s,
                    end: value_start + e,
                }),
                [k] if open(k)
                    && !value.trim_end().ends_with('?')
                    && opens_with_answer(
                        value,
                        all[k].start.saturating_sub(value_start),
                        all[k].end - all[k].start.max(value_start),
                    ) =>
                {
                    Some(all[k])
                }
                _ => None,
            }
        })
}

/// A value that is two numbers and nothing else but punctuation (`0, 1`, `0 1`, `0;1.`):
/// the cell and where its numbers stand in `value`.
fn bare_pair(value: &str) -> Option<(Pos, [usize; 2])> {
    let start = value.find(|c: char| c.is_ascii_digit())?;
    let end = value.rfind(|c: char| c.is_ascii_digit())? + 1;
    let outside = |t: &str| {
        t.chars()
            .all(|c| c.is_whitespace() || matches!(c, '.' | '!' | '"' | '\''))
    };
    if !outside(&value[..start]) || !outside(&value[end..]) {
        return None;
    }
    let nums: Vec<&str> = value[start..end]
        .split([',', ';', ' ', '\t'])
        .filter(|p| !p.is_empty())
        .collect();
    match nums[..] {
        [r, c] if r.len() <= 2 && c.len() <= 2 => {
            Some((Pos::new(r.parse().ok()?, c.parse().ok()?), [start, end]))
        }
        _ => None,
    }
}

/// Conclusion phrases of Chinese replies (docs/DECISIONS.md, fifth round): the next step,
/// move to, go to, head for, the answer, I choose. A cell that follows one within its clause
/// is concluded.
const CHINESE_CONCLUDING: [&str; 9] = [
    "下一步",
    "移动到",
    "移到",
    "走到",
    "前往",
    "答案",
    "我选择",
    "选择",
    "最终",
];

/// The last cell that follows a Chinese conclusion phrase ([`CHINESE_CONCLUDING`]) in its
/// clause, with only words (no other cell, no clause end) between.
pub(super) fn concluded_in_chinese(
    text: &str,
    all: &[Coord],
    may_be_move: impl Fn(usize) -> bool,
) -> Option<usize> {
    if text.is_ascii() {
        return None;
    }
    (0..all.len()).rev().find(|&k| {
        if !may_be_move(k) {
            return false;
        }
        let from = if k > 0 { all[k - 1].end } else { 0 };
        let before = &text[from..all[k].start];
        let clause = before
            .rfind(['.', '!', '?', ';', '\n'])
            .map_or(before, |i| &before[i + 1..]);
        CHINESE_CONCLUDING.iter().any(|p| clause.contains(p))
    })
}

/// The cell a correction later on the chosen cell's line puts in its place: "(1, 0) —
/// scratch that, (0, 1)", "(1, 0), no wait: (0, 1)". Taking-back words are the
/// conclusion's ([`TAKING_BACK`]) and a few more.
pub(super) fn corrected(text: &str, chosen: Coord) -> Coord {
    let line_end = text[chosen.end..]
        .find('\n')
        .map_or(text.len(), |i| chosen.end + i);
    let later = coordinates(&text[chosen.end..line_end]);
    let Some(next) = later.first() else {
        return chosen;
    };
    let between = &text[chosen.end..chosen.end + next.start];
    // The correction stays in the cell's sentence.
    if between.contains(['.', '!', '?']) {
        return chosen;
    }
    let words: Vec<String> = word_spans(between)
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    // "rather" takes back ("(1, 0), or rather (0, 1)"), "rather than" sets the next cell
    // aside instead ("(1, 0) rather than (0, 1)").
    let takes_back = words.iter().enumerate().any(|(i, w)| {
        TAKING_BACK.contains(&w.as_str())
            || matches!(w.as_str(), "scratch" | "strike")
            || (w == "rather" && words.get(i + 1).is_none_or(|n| n != "than"))
    }) || between.contains("不对")
        || between.contains("更正");
    if takes_back && later.len() == 1 {
        Coord {
            pos: next.pos,
            start: chosen.end + next.start,
            end: chosen.end + next.end,
        }
    } else {
        chosen
    }
}
