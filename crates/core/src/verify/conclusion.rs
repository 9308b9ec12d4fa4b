//! The move a reply concludes with (docs/DECISIONS.md, fourth round).
//!
//! Chat models deliberate before they answer: they list the cells around them, restate where
//! they stand and where the goal is, reject a cell or two, and then conclude ("Therefore, my
//! next move is to (1, 0)."). The move is the cell of the **last statement that puts one
//! cell forward as the move**. This file finds that statement, reading the reply's
//! sentences from the last one back:
//!
//! - A sentence concludes when it holds a *conclusion phrase* ([`MARKERS`]: "the next move
//!   is", "my move would be", "the coordinates of my next move are", "I choose", "I'll
//!   move", "let's go", an answer label such as `Next move:`, "the answer is", `\boxed`)
//!   and after it, with only the move's own words between (directions, "to", "the cell",
//!   "coordinate", "position", ...), a coordinate that may be the move.
//! - That coordinate is the first one after the phrase that is neither restated maze data,
//!   nor the start ("from (0, 0)"), nor refused; a cell described as the goal, the player's
//!   or a wall still counts when nothing else follows ("I choose to move to (4, 4), which
//!   is the goal position"): a concluded cell that is the goal is the move.
//! - A sentence does not conclude when it only weighs options or plans ahead: a question; a
//!   word of possibility or condition before the phrase ("I can move to", "if I move to",
//!   "possible moves"); a later step ("then", "after that", "eventually"); a negation; two
//!   cells offered as alternatives ("(1, 4) or (2, 3)").
//! - A cell taken back in the same sentence ("(1, 2), no: (2, 1)", "(1, 1) - wait, that is
//!   a wall") gives way to the cell named after the correction, when one is.
//!
//! When no sentence concludes, the reader's earlier rules apply (reader.rs): the answer
//! label, the move phrase, the last coordinate.

use super::answer::MOVE_LABELS;
use super::standing::Standing;
use super::words::{normal_word, word_spans, Span, NEGATORS, TAKING_BACK};
use crate::maze::coords::Coord;

/// Conclusion phrases, as words in lower case without apostrophes (`I'll` is `ill`). The
/// colon of a label is checked apart ([`MORE_LABELS`]).
const MARKERS: &[&[&str]] = &[
    &["next", "move", "is"],
    &["next", "move", "will", "be"],
    &["next", "move", "would", "be"],
    &["next", "move", "should", "be"],
    &["next", "move", "shall", "be"],
    &["my", "move", "is"],
    &["my", "move", "will", "be"],
    &["my", "move", "would", "be"],
    &["the", "move", "is"],
    &["best", "move", "is"],
    &["next", "step", "is"],
    &["next", "position", "is"],
    &["new", "position", "is"],
    &["next", "cell", "is"],
    &["move", "coordinates", "are"],
    &["move", "coordinates", "is"],
    &["move", "coordinate", "is"],
    &["next", "move", "coordinates"],
    &["next", "move", "coordinate"],
    &["coordinates", "of", "my", "next", "move"],
    &["coordinates", "of", "the", "next", "move"],
    &["coordinate", "of", "my", "next", "move"],
    &["coordinates", "for", "my", "next", "move"],
    &["coordinates", "of", "your", "next", "move"],
    &["answer", "is"],
    &["boxed"],
    &["i", "choose"],
    &["i", "chose"],
    &["ill", "choose"],
    &["i", "will", "choose"],
    &["i", "select"],
    &["ill", "select"],
    &["i", "will", "select"],
    &["i", "decide"],
    &["i", "move"],
    &["ill", "move"],
    &["i", "will", "move"],
    &["i", "shall", "move"],
    &["im", "moving"],
    &["i", "am", "moving"],
    &["ill", "go"],
    &["i", "will", "go"],
    &["i", "go"],
    &["ill", "step"],
    &["i", "will", "step"],
    &["ill", "head"],
    &["i", "will", "head"],
    &["ill", "proceed"],
    &["i", "will", "proceed"],
    &["we", "move"],
    &["well", "move"],
    &["we", "will", "move"],
    &["lets", "move"],
    &["lets", "go"],
    &["lets", "step"],
    &["let", "me", "move"],
    &["let", "us", "move"],
    &["my", "move"],
    &["best", "move"],
    &["first", "move", "is"],
    &["first", "move", "will", "be"],
    &["next", "moves", "coordinates"],
    &["move", "coordinates"],
    &["new", "coordinates"],
    &["next", "move"],
    &["first", "move"],
    &["i", "will", "instead", "move"],
    &["ill", "instead", "move"],
    &["i", "will", "try"],
    &["ill", "try"],
    &["oxed"],
];

/// Imperative verbs that conclude when they open a sentence ("Move right to (0, 2).", "So,
/// go down to (1, 0).").
const IMPERATIVES: [&str; 4] = ["move", "go", "step", "moving"];

/// Labels that conclude when a coordinate follows them in their sentence, besides the
/// reader's answer labels ([`MOVE_LABELS`]).
const MORE_LABELS: [&str; 4] = [
    "new player position:",
    "player position after move:",
    "next move coordinates:",
    "move coordinates:",
];

/// Directions, which may stand in a move phrase before its cell ("move diagonally up-left
/// to"; hyphens are dropped before comparing).
pub(super) const DIRECTIONS: &[&str] = &[
    "up",
    "down",
    "left",
    "right",
    "diagonally",
    "upward",
    "upwards",
    "downward",
    "downwards",
    "leftward",
    "rightward",
    "north",
    "south",
    "east",
    "west",
    "upleft",
    "upright",
    "downleft",
    "downright",
    "diagonal",
    "back",
    "forward",
];

/// Words that may stand between a conclusion phrase and its cell (besides [`DIRECTIONS`]).
const BETWEEN: &[&str] = &[
    "to",
    "the",
    "a",
    "an",
    "cell",
    "square",
    "space",
    "empty",
    "open",
    "position",
    "point",
    "coordinate",
    "coordinates",
    "at",
    "is",
    "are",
    "be",
    "will",
    "would",
    "move",
    "moving",
    "go",
    "step",
    "head",
    "proceed",
    "once",
    "again",
    "one",
    "directly",
    "straight",
    "of",
    "my",
    "next",
    "new",
    "boxed",
    "therefore",
    "so",
    "thus",
    "hence",
    "final",
    "answer",
    "player",
    "ill",
    "i",
    "we",
    "lets",
    "row",
    "column",
    "col",
    "that",
    "this",
    "which",
    "goal",
    "target",
    "g",
    "from",
    "current",
    "players",
    "initial",
    "oxed",
    "actually",
    "then",
    "instead",
];

/// Words before a phrase that make it an option, a condition or a plan, not the move.
const WEIGHING: &[&str] = &[
    "can",
    "could",
    "may",
    "might",
    "if",
    "possible",
    "possibly",
    "option",
    "options",
    "either",
    "whether",
    "then",
    "after",
    "afterwards",
    "eventually",
    "later",
    "would",
    "tried",
    "try",
    "trying",
    "previously",
    "cant",
    "cannot",
];

/// What a reply says when it gives up instead of moving.
const GIVING_UP: [&str; 16] = [
    "cannot be reached",
    "cant be reached",
    "unsolvable",
    "not solvable",
    "no valid move",
    "no valid next move",
    "no possible move",
    "no available move",
    "no path",
    "no way to reach",
    "no solution",
    "impossible to reach",
    "cannot reach the goal",
    "cant reach the goal",
    "i am stuck",
    "im stuck",
];

/// Whether a reply that concludes nothing gives up ("the maze is unsolvable", "I'm stuck")
/// or was cut off before it stated a move (it ends mid-sentence, not on a cell): then it
/// names no move, whatever cells its reasoning mentions.
pub(super) fn gives_up(text: &str) -> bool {
    cut_off(text) || says_it_gives_up(text)
}

/// Whether a reply of some length ends mid-sentence: on a word, a comma, an opening
/// bracket or a dash, not on a full stop or a closing bracket.
fn cut_off(text: &str) -> bool {
    let t = text.trim_end();
    t.len() > 200
        && t.ends_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, ',' | '(' | '-' | '['))
}

/// Whether a reply cut off mid-sentence takes its conclusion back after byte `at` and never
/// concludes again: a sentence after it opens with "However", "Wait", "But", "Actually" or
/// "Upon" (re-examining).
pub(super) fn taken_back_after(text: &str, at: usize) -> bool {
    cut_off(text)
        && text[at..]
            .split(['\n', '.', '!', '?'])
            .skip(1)
            .map(|s| s.trim_start().to_ascii_lowercase())
            .any(|s| {
                ["however", "wait", "but ", "actually", "upon"]
                    .iter()
                    .any(|w| s.starts_with(w))
            })
}

fn says_it_gives_up(text: &str) -> bool {
    let lower = normal_word(text);
    GIVING_UP
        .iter()
        .any(|p| !crate::text::find_words(&lower, p, false).is_empty())
}

/// Whether a line holds a conclusion phrase ([`MARKERS`], a subject that is the move: "the
/// correct move is", or a label: `next move:`, `Final answer`), whatever follows it: how an
/// outline marks a line that concludes (outline.rs). The reader asks more of a sentence
/// ([`concluded`]).
pub(super) fn holds_conclusion_phrase(line: &str, labels: &[&str]) -> bool {
    let labelled = MOVE_LABELS
        .iter()
        .chain(&MORE_LABELS)
        .chain(labels)
        .any(|l| !crate::text::find_words(line, l, true).is_empty());
    if labelled {
        return true;
    }
    let lower: Vec<String> = word_spans(line)
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    let phrase = (0..lower.len()).any(|k| {
        MARKERS
            .iter()
            .any(|m| lower.len() - k >= m.len() && m.iter().zip(&lower[k..]).all(|(a, b)| a == b))
    });
    phrase || qualified_moves(&lower).next().is_some()
}

/// The index of the coordinate the reply concludes with, if a sentence concludes.
pub(super) fn concluded(text: &str, all: &[Coord], standing: &[Standing]) -> Option<usize> {
    conclusions_among(text, all, standing, |_| true).next()
}

/// The indexes of the coordinates the reply's concluding sentences conclude with, the last
/// first: what [`concluded`] reads, then each earlier conclusion (a reading is not sure when
/// an earlier one concluded otherwise, decide.rs). Only sentences that hold a coordinate
/// `among` takes are asked whether they conclude, and only as far as the last such
/// coordinate in each (the rest are passed over unread).
pub(super) fn conclusions_among<'a>(
    text: &'a str,
    all: &'a [Coord],
    standing: &'a [Standing],
    among: impl Fn(usize) -> bool + 'a,
) -> impl Iterator<Item = usize> + 'a {
    let last = last_line_answer(text, all, standing);
    let mut i = all.len();
    let earlier = std::iter::from_fn(move || {
        while i > 0 {
            i -= 1;
            if !among(i) {
                continue;
            }
            let (mut start, end) = sentence_around(text, all[i].start);
            // A cell written over a line break (a structure's keys, `row: 1` and `col: 0` on
            // lines of their own) ends its sentence no earlier than itself.
            let end = end.max(all[i].end);
            // "... my next move will be:\n\n(5, 1)": the answer on its own line after a colon.
            if text[start..all[i].start].trim().is_empty() {
                let above = text[..start].trim_end();
                if above.ends_with(':') {
                    start = sentence_around(text, above.len() - 1).0;
                }
            }
            let first = (0..=i)
                .rev()
                .take_while(|&k| all[k].start >= start)
                .last()?;
            let found = sentence_concludes(text, all, standing, start, end, first..i + 1);
            i = first;
            if found.is_some() {
                return found;
            }
        }
        None
    });
    last.into_iter()
        .chain(earlier.filter(move |&k| Some(k) != last))
}

/// A last line that holds one coordinate and nothing else: the answer line.
fn last_line_answer(text: &str, all: &[Coord], standing: &[Standing]) -> Option<usize> {
    let last_line = text.trim_end().rfind('\n').map_or(0, |i| i + 1);
    let k = all.iter().position(|c| c.start >= last_line)?;
    let rest = |t: &str| {
        t.chars()
            .all(|c| c.is_whitespace() || matches!(c, '$' | '{' | '}' | '.' | '>' | '#'))
    };
    (k + 1 == all.len()
        && !standing[k].passed()
        && rest(
            &text[last_line..all[k].start]
                .replace("\\boxed", "")
                .replace("\u{8}oxed", ""),
        )
        && rest(&text[all[k].end..]))
    .then_some(k)
}

/// The end of the sentence holding byte `at` (see [`sentence_around`]).
pub(super) fn sentence_end(text: &str, at: usize) -> usize {
    sentence_around(text, at.min(text.len().saturating_sub(1))).1
}

/// The sentence holding byte `at`: `[start, end)`, bounded by line breaks and by `.`, `!`,
/// `?` followed by a space or the end.
fn sentence_around(text: &str, at: usize) -> (usize, usize) {
    let bytes = text.as_bytes();
    let ends_here = |k: usize| {
        bytes[k] == b'\n'
            || (matches!(bytes[k], b'.' | b'!' | b'?')
                && bytes.get(k + 1).is_none_or(|b| b.is_ascii_whitespace())
                // An ellipsis runs on: "(0, 2) no... (0, 1) no... (0, 0)".
                && !(k > 0 && bytes[k - 1] == b'.'))
            // A sentence run on after a cell without its full stop: "(3, 4) The new ...".
            || (bytes[k] == b')'
                && bytes.get(k + 1) == Some(&b' ')
                && bytes.get(k + 2).is_some_and(|b| b.is_ascii_uppercase())
                && bytes.get(k + 3).is_some_and(|b| b.is_ascii_lowercase()))
    };
    let start = (0..at).rev().find(|&k| ends_here(k)).map_or(0, |k| k + 1);
    let end = (at..text.len())
        .find(|&k| ends_here(k))
        .map_or(text.len(), |k| k + 1);
    (start, end)
}

/// Whether the sentence `[start, end)` concludes, and with which coordinate.
fn sentence_concludes(
    text: &str,
    all: &[Coord],
    standing: &[Standing],
    start: usize,
    end: usize,
    inside: std::ops::Range<usize>,
) -> Option<usize> {
    let sentence = &text[start..end];
    if sentence.trim_end().ends_with('?') {
        return None;
    }
    // A cell followed by its verdict: "(2, 2) is my only choice".
    if let Some(k) = inside.clone().rev().find(|&k| {
        !standing[k].passed() && {
            let after = text[all[k].end..end].trim_start().to_ascii_lowercase();
            [
                "is my only choice",
                "is my choice",
                "is my move",
                "is my next move",
                "is my answer",
            ]
            .iter()
            .any(|p| after.starts_with(p))
        }
    }) {
        return Some(k);
    }
    // Coordinates' numbers are not words.
    let words: Vec<Span> = word_spans(sentence)
        .into_iter()
        .filter(|w| {
            !all[inside.clone()]
                .iter()
                .any(|c| c.start <= start + w.start() && start + w.end <= c.end)
        })
        .collect();
    let lower: Vec<String> = words.iter().map(|w| normal_word(w.text)).collect();
    // The phrase's end (in the text) for each conclusion phrase, last first.
    let mut ends: Vec<(usize, usize)> = Vec::new();
    for (k, _) in lower.iter().enumerate() {
        for m in MARKERS {
            if lower.len() - k >= m.len() && m.iter().zip(&lower[k..]).all(|(a, b)| a == b) {
                ends.push((k, start + words[k + m.len() - 1].end));
            }
        }
    }
    ends.extend(qualified_moves(&lower).map(|(k, last)| (k, start + words[last].end)));
    let lowered = sentence.to_ascii_lowercase();
    for label in MOVE_LABELS.iter().chain(&MORE_LABELS) {
        for at in crate::text::find_words(&lowered, label, true) {
            let k = words
                .iter()
                .position(|w| w.start() >= at)
                .unwrap_or(words.len());
            ends.push((k, start + at + label.len()));
        }
    }
    // An imperative opening the sentence, after a connective at most.
    let opening = lower.iter().position(|w| {
        !matches!(
            w.as_str(),
            "so" | "therefore"
                | "thus"
                | "hence"
                | "for"
                | "now"
                | "no"
                | "nope"
                | "wait"
                | "actually"
                | "instead"
        )
    });
    if let Some(k) = opening.filter(|&k| IMPERATIVES.contains(&lower[k].as_str())) {
        ends.push((k, start + words[k].end));
    }
    crate::sort::sort_by_key(&mut ends, |&(_, e)| std::cmp::Reverse(e));
    for (k, phrase_end) in ends {
        let clause_from = words[..k]
            .iter()
            .rposition(|w| sentence[w.end..].trim_start().starts_with([',', ';', ':']))
            .map_or(0, |c| c + 1);
        if weighed(&lower[clause_from..k]) {
            continue;
        }
        if let Some(found) = cell_after(text, all, standing, phrase_end, inside.clone()) {
            return Some(found);
        }
    }
    None
}

/// The move's own nouns, which a sentence's subject may end in ("the correct move is").
const MOVE_NOUNS: [&str; 3] = ["move", "step", "choice"];

/// Words that make "the ... move" some other move than the one made: one of several (what
/// is available is an option, not yet a choice), an earlier or a wrong one.
const NOT_THE_MOVE: [&str; 15] = [
    "possible",
    "potential",
    "alternative",
    "available",
    "other",
    "previous",
    "last",
    "current",
    "invalid",
    "illegal",
    "wrong",
    "bad",
    "worst",
    "second",
    "third",
];

/// Conclusions by their structure rather than their words: a subject that is the move,
/// `the|my|our`, at most two words that qualify it, and one of [`MOVE_NOUNS`], followed by
/// `is` or `will|would|should|shall be` ("the correct move is", "our optimal next step
/// will be"). Each as (index of its first word, index of its last word) in `lower`.
fn qualified_moves(lower: &[String]) -> impl Iterator<Item = (usize, usize)> + '_ {
    (1..lower.len()).filter_map(move |n| {
        if !MOVE_NOUNS.contains(&lower[n].as_str()) {
            return None;
        }
        let copula = match (lower.get(n + 1).map(String::as_str), lower.get(n + 2)) {
            (Some("is"), _) => n + 1,
            (Some("will" | "would" | "should" | "shall"), Some(be)) if be == "be" => n + 2,
            _ => return None,
        };
        let d = (n.saturating_sub(3)..n)
            .rev()
            .find(|&d| matches!(lower[d].as_str(), "the" | "my" | "our"))?;
        let qualifiers = &lower[d + 1..n];
        let plain = qualifiers.iter().all(|w| {
            !NOT_THE_MOVE.contains(&w.as_str()) && w.chars().all(|c| c.is_ascii_alphabetic())
        });
        plain.then_some((d, copula))
    })
}

/// Whether the words before a phrase, in its clause, weigh options, plan ahead or negate it
/// ("I don't move to").
fn weighed(before: &[String]) -> bool {
    before
        .iter()
        .any(|w| WEIGHING.contains(&w.as_str()) || NEGATORS.contains(&w.as_str()))
}

/// The coordinate a phrase ending at `from` puts forward: the first that may be the move,
/// with only the move's words before it, unless it is offered with an alternative; a cell
/// taken back gives way to the one named after it.
fn cell_after(
    text: &str,
    all: &[Coord],
    standing: &[Standing],
    from: usize,
    inside: std::ops::Range<usize>,
) -> Option<usize> {
    let after: Vec<usize> = inside.filter(|&k| all[k].start >= from).collect();
    let mut gap_from = from;
    let mut pick = None;
    for &k in &after {
        let gap = &text[gap_from..all[k].start];
        if !only_move_words(gap) {
            return None;
        }
        // The start in the phrase: "move down from position (3, 0) to (4, 0)".
        let from_here = word_spans(gap)
            .iter()
            .rev()
            .map(|w| w.text.to_ascii_lowercase())
            .find(|w| {
                !matches!(
                    w.as_str(),
                    "the"
                        | "my"
                        | "position"
                        | "cell"
                        | "current"
                        | "initial"
                        | "player"
                        | "player's"
                )
            })
            .is_some_and(|w| w == "from");
        match standing[k] {
            _ if from_here => {}
            Standing::Open => {
                pick = Some(k);
                break;
            }
            Standing::Described if pick.is_none() => pick = Some(k),
            _ => {}
        }
        gap_from = all[k].end;
    }
    let mut k = pick?;
    // A cell taken back gives way to the next ("(0, 2) no... (0, 1) no... (0, 0)"); two
    // offered as alternatives conclude nothing.
    while let Some(n) = after.iter().copied().find(|&n| n > k) {
        let gap = text[all[k].end..all[n].start].to_ascii_lowercase();
        let gap_words: Vec<String> = word_spans(&gap)
            .iter()
            .map(|w| normal_word(w.text))
            .collect();
        if gap_words.iter().any(|w| TAKING_BACK.contains(&w.as_str())) && !standing[n].passed() {
            k = n;
            continue;
        }
        if gap_words.first().map(String::as_str) == Some("or") {
            return None;
        }
        break;
    }
    Some(k)
}

/// Whether the text between a phrase and a coordinate holds only the move's own words and
/// punctuation.
fn only_move_words(between: &str) -> bool {
    // Across a line break only after a colon: "I'll move to:\n\n(6, 5)".
    if between.contains('\n') && !between.trim_end().ends_with(':') && between.trim().len() > 1 {
        return false;
    }
    // An aside in brackets is passed over: "(4 is blocked so we don't use this) (5, 4)".
    let mut plain = String::new();
    let mut depth = 0usize;
    for ch in between.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    word_spans(&plain).iter().all(|w| {
        let w = w
            .text
            .to_ascii_lowercase()
            .replace(['\'', '\u{2019}', '-'], "");
        BETWEEN.contains(&w.as_str()) || DIRECTIONS.contains(&w.as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::super::read_move;
    use crate::maze::grid::Pos;

    fn reads(reply: &str) -> Option<(usize, usize)> {
        read_move(reply).map(|p: Pos| (p.row, p.col))
    }

    #[test]
    fn options_listed_after_a_move_label_give_way_to_the_conclusion() {
        let reply = "Standing on (0, 0), these are my choices, I can move:\n- Right to (0, 1)\n- Down to (1, 0)\n\nDown leads toward the target. Therefore, my next move is: (1, 0)";
        assert_eq!(reads(reply), Some((1, 0)));
        let reply = "Valid moves:\n- (0, 1)\n- (1, 0)\nThe second one gets closer, so I'll move down to (1, 0).";
        assert_eq!(reads(reply), Some((1, 0)));
    }

    #[test]
    fn a_heading_that_names_the_next_move_is_not_the_answer() {
        let reply = "To get through, let's work out the next move:\n\nFrom where I stand, the current position (0, 0), the possible moves are right to (0, 1) and down to (1, 0). Down is open, so the next move is to (1, 0).";
        assert_eq!(reads(reply), Some((1, 0)));
    }

    #[test]
    fn a_concluded_cell_that_is_the_goal_is_the_move() {
        let reply = "The target sits just to my right. Therefore, I choose to move to coordinate (4, 4), which is the goal position.";
        assert_eq!(reads(reply), Some((4, 4)));
        let reply = "I am at (1, 3). The goal is at (1, 4), one step right. So the next move is to the coordinate (1, 4), the goal itself.";
        assert_eq!(reads(reply), Some((1, 4)));
    }

    #[test]
    fn an_answer_given_first_stays_the_answer() {
        let reply = "Next move: (1, 0)\n\nReasoning: the row below is open all the way to the goal at (4, 4), and (0, 1) leads into a dead end.";
        assert_eq!(reads(reply), Some((1, 0)));
    }

    #[test]
    fn plans_options_hedges_and_questions_do_not_conclude() {
        // A plan after the move.
        let reply = "My next move is (2, 1). After that I will move to (3, 1).";
        assert_eq!(reads(reply), Some((2, 1)));
        // Weighing options before concluding.
        let reply = "If I move to (0, 1) I reach a dead end. I could move to (1, 0) too. I'll move to (1, 0).";
        assert_eq!(reads(reply), Some((1, 0)));
        // A question is not a conclusion.
        let reply = "The next move is to (1, 0). Or should I move to (0, 1)?";
        assert_eq!(reads(reply), Some((1, 0)));
    }

    #[test]
    fn an_imperative_a_lone_last_line_and_a_reason_clause_conclude() {
        let reply = "Going up leads nowhere. For now, move to (4, 1).";
        assert_eq!(reads(reply), Some((4, 1)));
        // (Without the answer line, the move phrase "move to (3, 1)" would count.)
        let reply = "I could move to (3, 1), but (2, 0) is the way around.\n\n(2, 0)";
        assert_eq!(reads(reply), Some((2, 0)));
        let reply = "Since diagonal steps are allowed and I can take one, my next move will be directly to the goal at (2, 2).";
        assert_eq!(reads(reply), Some((2, 2)));
        let reply = "Up is a wall and right is a wall. My best move will be: (5, 0)";
        assert_eq!(reads(reply), Some((5, 0)));
    }

    #[test]
    fn an_aside_in_brackets_before_the_cell_is_passed_over() {
        let reply =
            "The coordinates of my next move are: (3 would hit the wall, so not that) (2, 4)";
        assert_eq!(reads(reply), Some((2, 4)));
        let reply = "Going right led nowhere. I choose to move back to: (2, 3)";
        assert_eq!(reads(reply), Some((2, 3)));
    }

    #[test]
    fn a_reply_that_gives_up_without_concluding_names_no_move() {
        let reply = "From (2, 2) every way is closed: (1, 2) and (3, 2) are walls and I have been at (2, 1). The maze looks unsolvable from here.";
        assert_eq!(reads(reply), None);
        let reply = "I'm stuck at (3, 3), yet the answer is (3, 4).";
        assert_eq!(reads(reply), Some((3, 4)));
    }

    #[test]
    fn a_reply_cut_off_before_its_move_names_none() {
        let reply = "Step 1: I stand at (2, 3). Step 2: left (2, 2) is open, right (2, 4) is a wall, up (1, 3) is open too. Step 3: comparing the two open cells by their distance to the goal at (0, 2), we prefer the one that";
        assert_eq!(reads(reply), None);
        let reply = "Step 1: I stand at (2, 3). Step 2: left (2, 2) is open, right (2, 4) is a wall, up (1, 3) is open too. Step 3: the goal at (0, 2) is nearer from the left, so I will move left to (2, 2) and then";
        assert_eq!(reads(reply), Some((2, 2)));
        let reply = "I have tried every opening around (3, 3) and (3, 4). The goal cannot be reached from here.";
        assert_eq!(reads(reply), None);
    }

    #[test]
    fn a_conclusion_taken_back_in_a_reply_cut_off_names_no_move() {
        let reply = "Left looks open, so my next move is to (2, 2). However, on a second look (2, 2) may be a wall, and the way around it runs through the top row, which means that before choosing I should count the cells between here and the goal at (0, 2) once more, because the";
        assert_eq!(reads(reply), None);
        let reply = "My next move is to (2, 2). However, the way around the top is longer.";
        assert_eq!(reads(reply), Some((2, 2)));
    }

    #[test]
    fn a_cell_followed_by_its_verdict_concludes() {
        let reply = "Going up is blocked and right is a wall, so (2, 2) is my only choice";
        assert_eq!(reads(reply), Some((2, 2)));
        let reply = "The next cell will thus actually be (1 fails...), (2 is blocked...), actually then, (3, 4).";
        assert_eq!(reads(reply), Some((3, 4)));
    }

    #[test]
    fn a_cell_taken_back_gives_way_to_the_correction() {
        let reply = "Looking again, the coordinates of my next move are (1, 2), no: (2, 1).";
        assert_eq!(reads(reply), Some((2, 1)));
        let reply = "So my next move is (0, 2) no...  (0, 1) no...  (0, 0)";
        assert_eq!(reads(reply), Some((0, 0)));
    }

    #[test]
    fn the_start_and_the_players_cell_in_the_conclusion_are_passed_over() {
        let reply = "For my next move, I want to go down.\n\nI will move down from position (3, 0) to position (4, 0).";
        assert_eq!(reads(reply), Some((4, 0)));
        let reply =
            "Hence the coordinates of my next move are: (4, 0) and the goal stays at (6, 6).";
        assert_eq!(reads(reply), Some((4, 0)));
    }
}
