//! Reading the move a free-text reply names ([`read_move`]).
//!
//! **Next move** ([`read_move`]): models write reasoning around their move, often naming
//! several cells, and small models restate the prompt. A move is a coordinate the reply
//! puts forward as its answer; coordinates that restate the maze or the prompt are not.
//!
//! First, each coordinate's standing (standing.rs: restated data, described cells,
//! the start, refused, asked and later cells).
//!
//! Then the cell that counts is, in order of preference: (0) the cell the reply concludes
//! with (conclusion.rs: the last sentence that puts one cell forward as the move); a reply
//! that concludes nothing and gives up ("unsolvable", "I'm stuck") names no move; (1) the
//! first coordinate after the last answer label that heads no list of options and no
//! paragraph (`Move:`, `Next move:`, `My move:`, `Answer:`, `Final answer:`,
//! `Next position:`, `Next cell:`, `New position:`), or the player's cell it gives
//! ("Answer: Player position: (0, 1)"); (2) the first coordinate after the last phrase
//! "move/go/step/head/proceed ... to" (the numbers inside coordinates are not words when
//! looking back from "to" for the verb; a negated phrase such as "I cannot move to (1, 1)"
//! is not a move); (3) the last coordinate in the reply. Restated data is never read;
//! described, start and refused cells are passed over, except that in (1) and (2) a
//! described cell counts when nothing else follows and only words such as "the goal at"
//! stand between the label or "to" and it ("I move to the goal at (4, 4)"), and a start or
//! refused cell counts when the reply names no other cell ("Moving from (0, 0).", "I don't
//! want to move to (1, 1)."). A reply with no move is [`Reason::NoCoordinate`]
//! (unparseable), never an invalid move. Coordinates are `(r, c)`, `[r, c]` or
//! between two walls is allowed.

use super::answer::{checked_line, Rule, MOVE_LABELS};
use super::conclusion::{concluded, gives_up, taken_back_after, DIRECTIONS};
use super::move_answer::{concluded_in_chinese, corrected, json_move, last_answer_line};
use super::standing::{
    another_player, data_key_before, key_words, standings, template_sentences, Standing,
    MOVE_VERBS, PLAYER_KEYS,
};
use super::words::{is_negated, normal_word, plain, span_in_reply, word_spans, words_before, Span};
use crate::maze::coords::{coordinates, Coord};
use crate::maze::grid::Pos;
use crate::text::find_words;

/// Words that may stand between an answer label or "to" and a described cell it names
/// ("Move: to the goal at (4, 4)").
const OBJECT_WORDS: [&str; 21] = [
    "the",
    "a",
    "an",
    "goal",
    "g",
    "target",
    "exit",
    "destination",
    "finish",
    "cell",
    "square",
    "position",
    "at",
    "which",
    "is",
    "its",
    "it",
    "to",
    "up",
    "down",
    "right",
];

/// The move a reply's text names, and how many coordinates were set aside as restated or
/// described maze data.
pub(super) struct MoveRead {
    pub(super) coord: Option<Coord>,
    /// The rule that read it (or that found none).
    pub(super) rule: Rule,
    pub(super) set_aside: usize,
    /// How many coordinates the reply holds.
    pub(super) coordinates: usize,
    /// How many placeholders of the answer template (`(row, col)`) it holds.
    pub(super) templates: usize,
}

/// The cell a reply names as its next move (see the module documentation for the rule).
pub fn read_move(reply: &str) -> Option<Pos> {
    read_move_in(&plain(reply)).coord.map(|c| c.pos)
}

/// [`read_move`] with where the coordinate it read stands in the reply (`[start, end)`).
pub fn read_move_at(reply: &str) -> Option<(Pos, [usize; 2])> {
    let text = plain(reply);
    read_move_in(&text)
        .coord
        .map(|c| (c.pos, span_in_reply(reply, c.start, c.end)))
}

pub(super) fn read_move_in(text: &str) -> MoveRead {
    let read = read_move_by_rules(text);
    match read.coord {
        Some(c) => MoveRead {
            coord: Some(corrected(text, c)),
            ..read
        },
        None => read,
    }
}

/// The move and the rule that read it, before a correction later on its line is applied.
fn read_move_by_rules(text: &str) -> MoveRead {
    let all = coordinates(text);
    let templates = template_sentences(text);
    // A label or "to" is the template's when a placeholder follows it in its sentence with
    // no coordinate between ("in the form: Move: (row, col)"), not in "Move: (1, 0) (row, col)".
    let masked = |at: usize| {
        templates.iter().any(|&[s, p, e]| {
            s <= at && at < e && !all.iter().any(|c| c.start >= at && c.start < p)
        })
    };
    let mut standing = standings(text, &all, &templates);
    let set_aside = standing
        .iter()
        .filter(|s| matches!(s, Standing::Data | Standing::Described))
        .count();
    // The start, or a cell the reply refuses, counts when the reply names no other cell
    // ("Moving from (0, 0).", "I don't want to move to (1, 1)."): a guess, so what reads it
    // is a fall-back, never `lone`.
    let guessed = standing
        .iter()
        .all(|s| matches!(s, Standing::Start | Standing::Refused));
    if guessed {
        standing.fill(Standing::Open);
    }
    let read = |rule, coord: Option<Coord>| MoveRead {
        rule: if coord.is_some() {
            rule
        } else {
            Rule::NoAnswer
        },
        coord,
        set_aside,
        coordinates: all.len(),
        templates: templates.len(),
    };
    // The first open coordinate after `offset`, else a described one that only words such
    // as "the goal at" separate from it.
    let all_ref = &all;
    let standing_ref = &standing;
    let named_after = |offset: usize| {
        let after = || (0..all_ref.len()).filter(move |&i| all_ref[i].start >= offset);
        after()
            .find(|&i| standing_ref[i] == Standing::Open)
            .or_else(|| {
                after().find(|&i| {
                    standing_ref[i] == Standing::Described
                        && only_object_words(&text[offset..all_ref[i].start])
                })
            })
            .map(|i| all_ref[i])
    };
    // A JSON answer: `{"move": [0, 1]}`.
    if let Some(c) = json_move(text) {
        return read(Rule::Json, Some(c));
    }
    // The last answer line, else the last concluding sentence: whichever comes later. A
    // reply that gives up or is cut off is read at a concluding sentence only.
    let sentence = concluded(text, &all, &standing)
        .filter(|&k| !masked(all[k].start))
        .or_else(|| {
            concluded_in_chinese(text, &all, |k| {
                matches!(standing[k], Standing::Open | Standing::Described)
            })
        });
    // (Whether the reply gives up is asked only of an answer line that would count.)
    let line = last_answer_line(text, &all, |k| standing[k] == Standing::Open)
        .filter(|c| sentence.is_none_or(|k| c.start > all[k].start))
        .filter(|_| !gives_up(text));
    match (line, sentence) {
        (Some(c), _) => return read(Rule::AnswerLabel, Some(c)),
        (None, Some(k)) => {
            let kept = (!taken_back_after(text, all[k].end)).then_some(all[k]);
            return read(Rule::Concluded, kept);
        }
        (None, None) => {}
    }
    if gives_up(text) {
        return read(Rule::NoAnswer, None);
    }
    // A table or list of candidate cells, one ticked and the others struck out.
    if let Some([from, to]) = checked_line(text) {
        let inside: Vec<usize> = (0..all.len())
            .filter(|&i| all[i].start >= from && all[i].end <= to)
            .filter(|&i| matches!(standing[i], Standing::Open | Standing::Described))
            .collect();
        if let [k] = inside[..] {
            return read(Rule::AnswerLabel, Some(all[k]));
        }
    }
    // (1) after the last answer label outside the prompt's template, unless the label heads
    // a list of options or a paragraph ("I can move:\n- Right to (0, 1)", "Let's find the
    // next move:\n\nFrom ...")
    let label = MOVE_LABELS
        .iter()
        .flat_map(|l| {
            find_words(text, l, true)
                .into_iter()
                .map(move |i| (i, i + l.len()))
        })
        .filter(|&(i, end)| !masked(i) && !heads_options(text, i, end))
        .map(|(_, end)| end)
        .max();
    if let Some(c) = label.and_then(named_after) {
        return read(Rule::AnswerLabel, Some(c));
    }
    // A label that gives the player's cell as its answer: "Answer: Player position: (0, 1)".
    let keyed = label.and_then(|offset| {
        let c = all.iter().find(|c| c.start >= offset)?;
        let between = text[offset..c.start].trim();
        let key = between
            .strip_suffix(':')
            .or_else(|| between.strip_suffix('='))?;
        (data_key_before(text, c.start) == Some(false)
            && !key.contains(['\n', '.', ',', ';', ')'])
            && PLAYER_KEYS.contains(&key_words(key).as_str()))
        .then_some(*c)
    });
    if keyed.is_some() {
        return read(Rule::AnswerLabel, keyed);
    }
    // (2) after the last "move ... to" (not negated; coordinates' numbers are not words)
    let words: Vec<Span> = word_spans(text)
        .into_iter()
        .filter(|w| !all.iter().any(|c| c.start <= w.start() && w.end <= c.end))
        .collect();
    let last_to = words
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            w.text.eq_ignore_ascii_case("to")
                && !masked(w.start())
                && (reach_back(&words, *i)..*i).any(|v| {
                    MOVE_VERBS
                        .iter()
                        .any(|m| words[v].text.eq_ignore_ascii_case(m))
                        && !is_negated(text, words[v].start())
                        && !(v > 0 && another_player(&normal_word(words[v - 1].text)))
                })
        })
        .map(|(_, w)| w.end)
        .max();
    let open = standing.iter().filter(|s| **s == Standing::Open).count();
    let lone_or = |rule| {
        if open == 1 && !guessed {
            Rule::Lone
        } else {
            rule
        }
    };
    if let Some(c) = last_to.and_then(named_after) {
        return read(lone_or(Rule::MovePhrase), Some(c));
    }
    // (3) the last open coordinate
    let last = (0..all.len())
        .rev()
        .find(|&i| standing[i] == Standing::Open)
        .map(|i| all[i]);
    read(lone_or(Rule::LastCoordinate), last)
}

/// Whether the answer label at `[at, end)` heads options or a paragraph rather than giving
/// the answer: a word of possibility or search before it in its clause ("I can move:",
/// "let's find the next move:"), or the label ends its line and a list or a paragraph that
/// does not open with a coordinate follows.
fn heads_options(text: &str, at: usize, end: usize) -> bool {
    const HEADING: [&str; 12] = [
        "can",
        "could",
        "may",
        "possible",
        "valid",
        "available",
        "find",
        "determine",
        "figure",
        "decide",
        "choose",
        "lets",
    ];
    if words_before(text, at, 4)
        .iter()
        .any(|w| HEADING.contains(&w.as_str()))
    {
        return true;
    }
    let rest = &text[end..];
    let line_end = rest.find('\n').unwrap_or(rest.len());
    if !rest[..line_end].trim().is_empty() {
        return false;
    }
    let after = &rest[line_end..];
    let next = after.trim_start();
    let blank_line = after[..after.len() - next.len()].matches('\n').count() > 1;
    let listed = next.starts_with(['-', '*', '\u{2022}'])
        || next
            .split_once('.')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    !next.is_empty()
        && (blank_line || listed)
        && coordinates(next).first().is_none_or(|c| c.start > 2)
}

/// Where the look back from "to" (word `i`) for a move verb starts: three words back, not
/// counting directions ("move diagonally up-left to" reaches "move").
fn reach_back(words: &[Span], i: usize) -> usize {
    let mut from = i;
    let mut counted = 0;
    while from > 0 && counted < 3 {
        from -= 1;
        if !DIRECTIONS.contains(&normal_word(words[from].text).as_str()) {
            counted += 1;
        }
    }
    from
}

/// Whether `between` holds only words such as "the goal at" (see [`OBJECT_WORDS`]).
fn only_object_words(between: &str) -> bool {
    word_spans(between)
        .iter()
        .all(|w| OBJECT_WORDS.contains(&normal_word(w.text).as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_phrase_looks_past_directions_for_its_verb() {
        let reply = "The player should move diagonally down-left to (2, 1), past (1, 1).";
        assert_eq!(read_move(reply), Some(Pos::new(2, 1)));
    }

    #[test]
    fn a_label_that_heads_options_is_no_answer_label() {
        // No sentence concludes; "move:" heads the options, so the label rule passes over
        // it and the reply's last cell counts, not the first option.
        let reply = "From here I can move:\n- (0, 1)\n- (1, 0)\nDown looks better.";
        assert_eq!(read_move(reply), Some(Pos::new(1, 0)));
        let reply = "Move:\n(1, 0)\nbecause (0, 1) is a dead end";
        assert_eq!(
            read_move(reply),
            Some(Pos::new(1, 0)),
            "an answer on the next line"
        );
    }
}
