//! Recognition replies: which shape a reply names.
//!
//! Synonyms ([`Shape::synonyms`]) are matched as whole words, ignoring case. Single letters
//! (C, Z, X) count standing alone or as in `C-shape`, never inside a word, in `5 X 5` or in
//! `X-axis`; in lower case only when plainly the answer: the whole reply, right after an
//! answer label (`Shape: z`), before "shape", after "letter", or "a c." ending a clause.
//! "times" does not count after a count ("three times"). Asides, that is comparisons
//! ("like a square") and descriptions of the grid ("the 5x5 box", "square grid"), count
//! only when nothing else is named. A mention negated within the three words before it,
//! inside its clause ("not a square", "isn't a box", "rather than a spiral"), is not an
//! answer; a clause ends at `. , ; : ? !`, a line break or a dash, so "No — it's a spiral"
//! names the spiral. When several shapes are named, the first mention after the last
//! answer label (`Answer:`, `Shape:`, `Final answer`, `the answer is`, `Conclusion:`)
//! counts, else the last mention. "The shape is" is not a label: models write it while
//! thinking aloud ("at first I thought the shape is a square, but ..."). A mention that
//! stands in a list naming every shape ("a square, cross, spiral, triangle, C or Z; I
//! cannot tell") names none. What a name names depends on the shapes in play
//! ([`ShapeSet`]): "U", "U-shape" and "horseshoe" name the U when it is in play and the C
//! (whose upward opening it is) when not; "N" names the N only when it is in play (never
//! in "N/A"); "zig zag" names the Z as "zigzag" does.

use super::answer::{alone, json_key, opens_with_answer, AnswerLine, Rule};
use super::conclusion::sentence_end;
use super::decide::{decide, Candidates, Decision, Found};
use super::lines::Lines;
use super::verdict::{DoubtKind, Extracted, Reason, Verdict};
use super::words::{
    end_of_last_label, first_word, is_negated, normal_word, plain, span_in_reply, word_spans,
    words_before, Span,
};
use crate::maze::shape::{Shape, ShapeSet};
use crate::text::find_words;

/// A shape named in a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mention {
    /// The shape.
    pub shape: Shape,
    /// Byte offset in the (markup-stripped) reply.
    pub at: usize,
    /// Its length in bytes there (the name as written).
    pub len: usize,
    /// Whether the mention is negated ("not a square").
    pub negated: bool,
    /// Whether the mention is an aside: a comparison ("like a square") or a description of
    /// the grid ("the 5x5 box", "a square grid"). Asides count only when the reply names no
    /// shape otherwise.
    pub compared: bool,
    /// Whether the mention stands in a question ("Is it a spiral?"): a shape named only in
    /// a question names nothing, unless the reply answers it yes at once ("Is it a
    /// spiral? Yes.").
    pub asked: bool,
}

const COUNT_WORDS: [&str; 17] = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "many",
    "several", "multiple", "few", "some", "at", "more",
];
/// Labels that introduce a final answer. "The shape is" is deliberately not one: models
/// write it while thinking aloud ("at first I thought the shape is a square, but ...").
pub(super) const ANSWER_LABELS: [&str; 5] = [
    "answer:",
    "final answer",
    "shape:",
    "the answer is",
    "conclusion:",
];
/// Words that make a mention a comparison rather than an answer ("like a square").
const COMPARERS: [&str; 6] = [
    "like",
    "similar",
    "resembles",
    "resembling",
    "than",
    "unlike",
];
/// Words after a shape word that make it describe the grid, not the corridor ("square grid").
const GRID_WORDS: [&str; 6] = ["grid", "grids", "maze", "matrix", "board", "layout"];

/// Whether a lower-case single letter (c, z, x) at `at` is meant as the shape: the whole
/// reply, the first word after an answer label, followed by "shape(d)", after "letter", or
/// after "a"/"an" at the end of a clause ("it's a c.").
fn lower_letter_ok(text: &str, at: usize) -> bool {
    let rest = text[at + 1..].trim_start_matches([' ', '\t', '-']);
    let rest_lower = rest.to_ascii_lowercase();
    if rest_lower.starts_with("shape") {
        return true;
    }
    let before = words_before(text, at, 2);
    let last = before.last().map(String::as_str);
    let clause_ends = rest.is_empty() || rest.starts_with(['.', '!', '?', ',', ';', '\n', ')']);
    let whole = text.trim().len() <= 3;
    let after_label = end_of_last_label(text, &ANSWER_LABELS).is_some_and(|o| {
        text.get(o..at)
            .is_some_and(|between| between.chars().all(|c| !c.is_ascii_alphanumeric()))
    });
    whole
        || after_label
        || last == Some("letter")
        || (matches!(last, Some("a" | "an")) && clause_ends)
}

/// Whether the word at `at` (of byte length `len`) describes the grid rather than the
/// corridor: followed by "grid", "maze", ... or preceded by a size such as "5x5".
fn describes_grid(text: &str, at: usize, len: usize) -> bool {
    let next = first_word(&text[at + len..]).map(str::to_ascii_lowercase);
    let sized = words_before(text, at, 1).first().is_some_and(|w| {
        let w = w.replace('\u{d7}', "x");
        let mut parts = w.split('x');
        matches!((parts.next(), parts.next(), parts.next()), (Some(a), Some(b), None)
            if !a.is_empty() && !b.is_empty() && a.chars().chain(b.chars()).all(|c| c.is_ascii_digit()))
    });
    sized || next.is_some_and(|n| GRID_WORDS.contains(&n.as_str()))
}

fn is_compared(text: &str, at: usize) -> bool {
    words_before(text, at, 3)
        .iter()
        .any(|w| COMPARERS.contains(&w.as_str()))
}

fn single_letter_ok(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end_matches([' ', '\t']);
    let after_raw = &text[at + 1..];
    let after = after_raw.trim_start_matches([' ', '\t']);
    let digit_before = before
        .chars()
        .next_back()
        .is_some_and(|c| c.is_ascii_digit());
    let digit_after = after.chars().next().is_some_and(|c| c.is_ascii_digit());
    let lower = after_raw.to_ascii_lowercase();
    // `X-axis`, `x coordinate`, a `U-turn`.
    let axis = [
        "-axis",
        " axis",
        "-coordinate",
        " coordinate",
        "-turn",
        " turn",
    ]
    .iter()
    .any(|s| lower.starts_with(s));
    // `N/A` is no N.
    let not_applicable = text[at..].starts_with(['N', 'n'])
        && lower.starts_with("/a")
        && !lower[2..].starts_with(|c: char| c.is_ascii_alphanumeric());
    let size_like = digit_before && digit_after;
    !(size_like || axis || not_applicable)
}

/// Every shape named in `reply` with the design's six in play, in order, with negation
/// marked.
pub fn mentions(reply: &str) -> Vec<Mention> {
    mentions_in(reply, ShapeSet::STANDARD)
}

/// Every shape named in `reply` with `shapes` in play ([`ShapeSet::named`]), in order,
/// with negation marked.
pub fn mentions_in(reply: &str, shapes: ShapeSet) -> Vec<Mention> {
    let text = plain(reply);
    let mut out: Vec<Mention> = Vec::new();
    for word_of in Shape::ALL {
        let Some(shape) = shapes.named(word_of) else {
            continue;
        };
        for syn in word_of.synonyms() {
            let single = syn.chars().count() == 1;
            for at in find_words(&text, syn, true) {
                if single {
                    let capital = text[at..].starts_with(|c: char| c.is_ascii_uppercase());
                    if !single_letter_ok(&text, at) || !(capital || lower_letter_ok(&text, at)) {
                        continue;
                    }
                }
                if single && option_letter(&text, at) {
                    continue;
                }
                if syn.eq_ignore_ascii_case("times") {
                    let prev = words_before(&text, at, 1);
                    if prev.first().is_some_and(|w| {
                        COUNT_WORDS.contains(&w.as_str()) || w.chars().all(|c| c.is_ascii_digit())
                    }) {
                        continue;
                    }
                }
                if out.iter().any(|m| m.at == at && m.shape == shape) {
                    continue;
                }
                // Kept in text order by inserting in place (no sorting code in the browser).
                let at_pos = out.partition_point(|m| m.at < at);
                out.insert(
                    at_pos,
                    Mention {
                        shape,
                        at,
                        len: syn.len(),
                        negated: is_negated(&text, at) || negated_in_chinese(&text, at),
                        compared: is_compared(&text, at) || describes_grid(&text, at, syn.len()),
                        asked: in_question(&text, at + syn.len()),
                    },
                );
            }
        }
    }
    out
}

/// Whether the single letter at `at` labels an option rather than naming a shape: `(C)`
/// or `C)` followed by a word, as in "(C) cross" or a line `C) spiral`.
fn option_letter(text: &str, at: usize) -> bool {
    let after = &text[at + 1..];
    let closed = after.starts_with(')') || after.starts_with("].");
    let opened = text[..at].ends_with('(') || text[..at].ends_with('[');
    let line_start = text[..at]
        .rfind('\n')
        .map_or(&text[..at], |i| &text[i + 1..at])
        .trim_start_matches(['(', '[', ' ', '\t', '-', '*'])
        .is_empty();
    let word_follows = after
        .trim_start_matches([')', ']', '.', ':'])
        .trim_start()
        .starts_with(|c: char| c.is_alphabetic());
    closed && (opened || line_start) && word_follows
}

/// Whether a mention ending at `end` stands in a question: its sentence ends with `?`,
/// and the reply does not answer it "yes" at once ("Is it a square? Yes: ..." puts the
/// square forward; "Is it a spiral? No ..." and a question left open do not).
fn in_question(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    let stop = rest.find(['\n', '.', '!', '?']).map_or(rest.len(), |i| i);
    rest[stop..].starts_with('?') && !answered_yes(&rest[stop + 1..])
}

/// Words that answer a question yes.
const YES: [&str; 8] = [
    "yes",
    "yeah",
    "yep",
    "indeed",
    "correct",
    "exactly",
    "definitely",
    "\u{662f}\u{7684}",
];

/// Whether `after` (the text right after a question mark) opens with a yes that stands
/// alone: set off by punctuation or ending the text ("Yes: ...", "Yes.", "Indeed!"),
/// not "yes and no".
fn answered_yes(after: &str) -> bool {
    let t = after.trim_start_matches([' ', '\t', '\n', '*', '_']);
    YES.iter().any(|y| {
        t.get(..y.len()).is_some_and(|w| w.eq_ignore_ascii_case(y))
            && t[y.len()..]
                .trim_start_matches(['*', '_', ' '])
                .chars()
                .next()
                .is_none_or(|c| {
                    matches!(
                        c,
                        ',' | ':' | ';' | '.' | '!' | '\u{2014}' | '\u{ff0c}' | '\u{3002}'
                    )
                })
    })
}

/// Whether a mention at `at` is negated in Chinese: 不 (not), 非 (not), 没 or 无 (none)
/// among the four characters before it, in its clause.
fn negated_in_chinese(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .rev()
        .take(4)
        .take_while(|c| !matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '\n'))
        .any(|c| matches!(c, '不' | '非' | '没' | '无'))
}

/// The shape a recognition reply answers with, the design's six in play (see the module
/// documentation for the rule).
pub fn recognize(reply: &str) -> Option<Shape> {
    recognize_in(reply, ShapeSet::STANDARD)
}

/// The shape a recognition reply answers with, `shapes` in play.
pub fn recognize_in(reply: &str, shapes: ShapeSet) -> Option<Shape> {
    answer_mention(&plain(reply), reply, shapes)
        .value
        .map(|m| m.shape)
}

/// [`recognize`] with where the name it read stands in the reply (`[start, end)`).
pub fn recognize_at(reply: &str) -> Option<(Shape, [usize; 2])> {
    let text = plain(reply);
    answer_mention(&text, reply, ShapeSet::STANDARD)
        .value
        .map(|m| (m.shape, span_in_reply(reply, m.at, m.at + m.len)))
}

/// The shape a JSON object in the reply gives: `{"shape": "spiral"}` (also `answer`,
/// `final_answer`, `name`), the last such object.
fn json_shape(lines: &Lines, shapes: ShapeSet) -> Option<Mention> {
    json_shapes(lines, shapes).next()
}

/// The shape of every JSON object in the reply that gives one, the last first.
fn json_shapes<'a>(lines: &'a Lines, shapes: ShapeSet) -> impl Iterator<Item = Mention> + 'a {
    let text = lines.text;
    let any = text.contains('{');
    lines
        .json
        .iter()
        .rev()
        .filter(move |_| any)
        .filter_map(move |(value, [start, _])| {
            let start = *start;
            let object = value.as_object()?;
            // A key named for the shape or the answer, or one that ends so
            // (`identified_shape`, `predicted_shape`, `my_answer`).
            let name = json_key(object, &["shape", "answer", "final_answer", "name"])
                .or_else(|| {
                    object.iter().find_map(|(k, v)| {
                        let k = k.to_ascii_lowercase().replace(['-', ' '], "_");
                        (k.ends_with("_shape") || k.ends_with("_answer")).then_some(v)
                    })
                })?
                .as_str()?;
            let found = mentions_in(name, shapes);
            let first = found.iter().find(|m| !m.negated)?;
            // Where the name stands in the text: its first occurrence in the object.
            let at = text[start..].find(name).map_or(start, |i| start + i);
            Some(Mention {
                at: at + first.at,
                ..*first
            })
        })
}

/// The shape the reply's last answer line names, when its value names one shape (answer.rs).
fn answer_line_shape(all: &[Mention], lines: &Lines) -> Option<Mention> {
    answer_line_shapes(all, lines).next()
}

/// The shape of every answer line that names one (see [`answer_line_shape`]), the last
/// first.
fn answer_line_shapes<'a>(
    all: &'a [Mention],
    lines: &'a Lines,
) -> impl Iterator<Item = Mention> + 'a {
    let text = lines.text;
    // A line holds a value when it names one shape: a line naming several is a list of its
    // own, which leaves the line above or below it standing alone (`Top guess: triangle` /
    // `Runners-up: Z, cross`).
    let holds_shape = |line: &AnswerLine| one_shape_within(all, line.value).is_some();
    alone(&lines.answers, holds_shape)
        .into_iter()
        .rev()
        .filter_map(move |line| {
            let [from, to] = line.value;
            if text[from..to].trim_end().ends_with('?') {
                return None;
            }
            let inside = one_shape_within(all, line.value)?;
            let first = inside[0];
            opens_with_answer(&text[from..to], first.at - from, first.len)
                .then(|| *inside[inside.len() - 1])
        })
}

/// The mentions within `[from, to)`, when there is one or more and all name one shape.
fn one_shape_within(all: &[Mention], [from, to]: [usize; 2]) -> Option<Vec<&Mention>> {
    let inside: Vec<&Mention> = all.iter().filter(|m| m.at >= from && m.at < to).collect();
    let first = inside.first()?;
    inside
        .iter()
        .all(|m| m.shape == first.shape)
        .then_some(inside)
}

/// The option a reply chooses by its letter among options of its own: lines `D) triangle`,
/// `(D) triangle`, `D. triangle` or `D: triangle` list them, and the last answer line whose
/// value is one of their letters alone (`Answer: D`, `Final answer: (D)`) chooses one.
pub(super) fn chosen_option(all: &[Mention], lines: &Lines) -> Option<Mention> {
    let text = lines.text;
    let mut options: Vec<(char, Mention)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let body = line.trim_start_matches([' ', '\t', '-', '*']);
        let lead = start + line.len() - body.len();
        let body = body.strip_prefix('(').unwrap_or(body);
        let mut chars = body.chars();
        let (Some(letter), Some(mark)) = (chars.next(), chars.next()) else {
            continue;
        };
        if !letter.is_ascii_uppercase() || !matches!(mark, ')' | '.' | ':') {
            continue;
        }
        // The option's name: the first mention on the line after its letter.
        let named = all
            .iter()
            .find(|m| m.at > lead + 1 && m.at < start + line.len());
        if let Some(m) = named {
            options.push((letter, *m));
        }
    }
    if options.len() < 2 {
        return None;
    }
    let letter_of = |value: &str| {
        let v = value
            .trim()
            .trim_end_matches(['.', '!'])
            .trim_start_matches(['(', '['])
            .trim_end_matches([')', ']']);
        let mut chars = v.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => Some(c),
            _ => None,
        }
    };
    lines.answers.iter().rev().find_map(|line| {
        let letter = letter_of(&text[line.value[0]..line.value[1]])?;
        options.iter().find(|(l, _)| *l == letter).map(|(_, m)| *m)
    })
}

/// The shape a reply names with `shapes` in play: the decision ([`decide`]) over its
/// mentions, with the rule that read it and why the reading is not sure.
pub(super) fn answer_mention(text: &str, reply: &str, shapes: ShapeSet) -> Decision<Mention> {
    let named = mentions_in(reply, shapes);
    let all: Vec<Mention> = named
        .iter()
        .filter(|m| !m.negated && !m.asked)
        .copied()
        .collect();
    // Asides count only when nothing else is named.
    let plain: Vec<Mention> = all.iter().filter(|m| !m.compared).copied().collect();
    let ms = if plain.is_empty() { all.clone() } else { plain };
    decide(&ShapeCandidates {
        lines: &Lines::of(text),
        shapes,
        named,
        all,
        ms,
    })
}

/// The shapes one reply names in each role, for [`decide`].
struct ShapeCandidates<'a> {
    /// The reply's text, and its answer lines, tick and JSON, read once.
    lines: &'a Lines<'a>,
    /// Every mention, negated and asked ones too (traces of an answer).
    named: Vec<Mention>,
    shapes: ShapeSet,
    /// Every mention neither negated nor asked.
    all: Vec<Mention>,
    /// Of those, the mentions that are no aside (all of them when every one is).
    ms: Vec<Mention>,
}

impl ShapeCandidates<'_> {
    /// Mention `i` of `ms`, unless it stands in a list naming every shape ("a square,
    /// cross, spiral, triangle, C or Z; I cannot tell"), which chooses none.
    fn unless_hedged(&self, i: usize) -> Option<Mention> {
        (!lists_every_shape(self.lines.text, &self.ms, i, self.shapes)).then_some(self.ms[i])
    }
}

impl Candidates for ShapeCandidates<'_> {
    type Value = Mention;

    /// A reply that names one shape (however often) names its answer.
    fn lone_is_first_rank(&self, _: &Mention) -> bool {
        true
    }

    fn span(value: &Mention) -> [usize; 2] {
        [value.at, value.at + value.len]
    }

    fn same(a: &Mention, b: &Mention) -> bool {
        a.shape == b.shape
    }

    fn json(&self) -> Option<Mention> {
        json_shape(self.lines, self.shapes)
    }

    /// An option chosen by its letter, else the last answer line's shape.
    fn answer_line(&self) -> Option<Mention> {
        chosen_option(&self.all, self.lines).or_else(|| answer_line_shape(&self.all, self.lines))
    }

    /// A table or list of candidate shapes, one ticked and the others struck out.
    fn ticked(&self) -> Option<Mention> {
        self.lines
            .ticked
            .and_then(|line| one_shape_within(&self.all, line))
            .map(|inside| *inside[0])
    }

    /// The first mention after the last answer label in running text (`the answer is`).
    fn labelled(&self) -> Found<Mention> {
        let i = end_of_last_label(self.lines.text, &ANSWER_LABELS)
            .and_then(|o| self.ms.iter().position(|m| m.at >= o))?;
        Some(self.unless_hedged(i))
    }

    /// The last mention: `lone` when every mention names one shape, else a fall-back.
    fn fallback(&self) -> (Option<Mention>, Rule) {
        let Some(last) = self.ms.len().checked_sub(1) else {
            return (None, Rule::NoAnswer);
        };
        let rule = if self.ms.iter().all(|m| m.shape == self.ms[last].shape) {
            Rule::Lone
        } else {
            Rule::LastNamed
        };
        (self.unless_hedged(last), rule)
    }

    fn first_rank(&self, _: &Mention) -> Vec<(Mention, DoubtKind)> {
        let json = json_shapes(self.lines, self.shapes).map(|m| (m, DoubtKind::RivalJson));
        let lines = chosen_option(&self.all, self.lines)
            .into_iter()
            .chain(answer_line_shapes(&self.all, self.lines))
            .map(|m| (m, DoubtKind::RivalAnswerLine));
        json.chain(lines).collect()
    }

    /// The mentions that are no aside (all of them when every one is), but for those in a
    /// list that names every shape.
    fn put_forward(&self) -> Vec<Mention> {
        (0..self.ms.len())
            .filter_map(|i| self.unless_hedged(i))
            .collect()
    }

    fn statement_end(&self, at: usize) -> usize {
        sentence_end(self.lines.text, at)
    }

    fn lines(&self) -> &Lines<'_> {
        self.lines
    }

    /// "A square with its right side missing", and a shape offered as one of alternatives
    /// ("a U shape or a rectangle", "a staircase or zigzag"): "or" within two words after
    /// the name or three before it, unless the alternative names the same shape ("a U or a
    /// C shape").
    fn qualified(&self, value: &Mention) -> Option<[usize; 2]> {
        let text = self.lines.text;
        let end = value.at + value.len;
        let sentence = &text[end..self.statement_end(end).max(end)];
        let after = word_spans(sentence);
        let lacking = after
            .iter()
            .any(|w| LACKING.contains(&normal_word(w.text).as_str()));
        let same_shape_near = |[from, to]: [usize; 2]| {
            let named: Vec<&Mention> = self
                .all
                .iter()
                .filter(|m| m.at >= from && m.at < to && m.at != value.at)
                .collect();
            !named.is_empty() && named.iter().all(|m| m.shape == value.shape)
        };
        let or_after = after
            .iter()
            .take(2)
            .find(|w| normal_word(w.text) == "or")
            .map(|w| end + w.end);
        let mut before_from = value.at.saturating_sub(40);
        while !text.is_char_boundary(before_from) {
            before_from -= 1;
        }
        let before: Vec<String> = word_spans(&text[before_from..value.at])
            .iter()
            .rev()
            .take(3)
            .map(|w| normal_word(w.text))
            .collect();
        let or_before = before.iter().any(|w| w == "or");
        let alternatives = or_after
            .is_some_and(|at| !same_shape_near([at, (at + 30).min(text.len())]))
            || (or_before && !same_shape_near([before_from, value.at]));
        // "looks like a square but could be a spiral": offered tentatively, with another
        // shape named beside it (as an aside too).
        let tentative = before.iter().any(|w| TENTATIVE.contains(&w.as_str()))
            && self
                .named
                .iter()
                .any(|m| m.shape != value.shape && !m.negated);
        (lacking || alternatives || tentative).then_some([value.at, end])
    }

    /// Any shape named, negated or asked included; else a word that describes one.
    /// An answer line whose value names no shape the reader knows, a reply written in a
    /// script in which it knows no shape names, are traces too.
    fn traces(&self) -> Option<(Option<Mention>, [usize; 2])> {
        if let Some(m) = self.named.last() {
            return Some((Some(*m), [m.at, m.at + m.len]));
        }
        let text = self.lines.text;
        let line = self
            .lines
            .answers
            .iter()
            .rev()
            .find(|l| !text[l.value[0]..l.value[1]].trim().is_empty())
            .map(|l| [l.lead[0], l.value[1]]);
        let words = word_spans(text);
        let describing = || {
            words
                .iter()
                .find(|w| DESCRIBING_WORDS.contains(&normal_word(w.text).as_str()))
                .map(|w| [w.start(), w.end])
        };
        let unknown_script = || {
            let unknown: Vec<&Span> = words.iter().filter(|w| !known_script(w.text)).collect();
            (2 * unknown.len() > words.len())
                .then(|| unknown.first().map(|w| [w.start(), w.end]))
                .flatten()
        };
        line.or_else(describing)
            .or_else(unknown_script)
            .map(|span| (None, span))
    }
}

/// Words before a shape that offer it tentatively ("could be a spiral", "maybe a Z").
const TENTATIVE: [&str; 6] = ["could", "might", "may", "maybe", "perhaps", "possibly"];

/// Words after a shape in its sentence that say the figure lacks part of it ("a square
/// with its right side missing").
const LACKING: [&str; 8] = [
    "missing",
    "without",
    "except",
    "minus",
    "lacking",
    "removed",
    "incomplete",
    "broken",
];

/// Whether `word` is written in a script in which the reader knows shape names: Latin,
/// Cyrillic, Chinese and Japanese, Korean (digits and symbols count as known).
fn known_script(word: &str) -> bool {
    word.chars().all(|c| {
        !c.is_alphabetic()
            || c.is_ascii()
            || matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}' | '\u{0400}'..='\u{04FF}' | '\u{AC00}'..='\u{D7A3}')
            || crate::text::is_ideograph(c)
    })
}

/// Words that describe a shape without naming it ("a hollow ring", "it coils inward",
/// "two diagonals"): a reply that names no shape but holds one of these may still give its
/// answer (decide.rs).
const DESCRIBING_WORDS: [&str; 56] = [
    "curl",
    "curls",
    "curling",
    "spiralling",
    "ring",
    "loop",
    "circle",
    "round",
    "oval",
    "frame",
    "border",
    "perimeter",
    "outline",
    "hollow",
    "box",
    "rectangle",
    "rectangular",
    "plus",
    "diagonal",
    "diagonals",
    "intersect",
    "intersecting",
    "coil",
    "coils",
    "coiling",
    "coiled",
    "swirl",
    "swirls",
    "swirling",
    "winding",
    "winds",
    "inward",
    "inwards",
    "snail",
    "shell",
    "vortex",
    "helix",
    "pyramid",
    "wedge",
    "apex",
    "peak",
    "tent",
    "arrow",
    "letter",
    "zig",
    "zag",
    "lightning",
    "bolt",
    "hook",
    "horseshoe",
    "bracket",
    "crescent",
    "star",
    "diamond",
    "sides",
    "corners",
];

/// Words that may join the items of a list of shapes: `a square, a cross or a C`.
const LIST_WORDS: [&str; 14] = [
    "or",
    "and",
    "a",
    "an",
    "the",
    "nor",
    "either",
    "maybe",
    "perhaps",
    "possibly",
    "shape",
    "shaped",
    // Chinese "or" and "or else" (single characters are [`CJK_JOINERS`]).
    "\u{6216}\u{8005}",
    "\u{8fd8}\u{662f}",
];

/// Chinese characters that join the items of a list, written without spaces: or, and,
/// together with, and the "-shape" ending (`C形或Z形`).
const CJK_JOINERS: [char; 5] = ['\u{6216}', '\u{548c}', '\u{4e0e}', '\u{53ca}', '\u{5f62}'];

/// Whether mention `i` of `ms` stands in a list that names every shape in play: mentions
/// joined only by commas, slashes, list words ([`LIST_WORDS`]) and spaces, with no
/// sentence or clause ending between them.
fn lists_every_shape(text: &str, ms: &[Mention], i: usize, shapes: ShapeSet) -> bool {
    let joined = |a: &Mention, b: &Mention| {
        text.get(a.at + a.len..b.at).is_some_and(|between| {
            between
                .split(|c: char| c.is_whitespace() || matches!(c, ',' | '/' | '(' | ')' | '-'))
                .filter(|w| !w.is_empty())
                .all(|w| {
                    LIST_WORDS.contains(&w.to_ascii_lowercase().as_str())
                        || w.chars().all(|c| CJK_JOINERS.contains(&c))
                })
        })
    };
    let mut first = i;
    while first > 0 && joined(&ms[first - 1], &ms[first]) {
        first -= 1;
    }
    let mut last = i;
    while last + 1 < ms.len() && joined(&ms[last], &ms[last + 1]) {
        last += 1;
    }
    // Every shape in play, or the design's six (a hedge over the six names none even
    // where U or N is in play).
    let names = |s: &Shape| ms[first..=last].iter().any(|m| m.shape == *s);
    shapes.shapes().iter().all(names) || Shape::STANDARD.iter().all(names)
}

/// Verifies a recognition reply against the maze's true shape, `shapes` in play.
pub fn verify_recognition(expected: Shape, reply: &str, shapes: ShapeSet) -> Verdict {
    if crate::reply::cut_in_reasoning(reply) {
        return Verdict::cut_in_reasoning(Reason::NoShapeNamed, "shape");
    }
    let text = plain(reply);
    let read = answer_mention(&text, reply, shapes);
    let doubt = read.doubt.map(|d| {
        d.to_doubt(
            read.rule,
            "shape",
            &text,
            |[s, e]| span_in_reply(reply, s, e),
            |m| Extracted::Shape(m.shape),
        )
    });
    verdict_of(expected, read.value.map(|m| m.shape)).read_with(read.rule, doubt)
}

/// The verdict on a shape read (or none), `expected` being the maze's.
pub(super) fn verdict_of(expected: Shape, read: Option<Shape>) -> Verdict {
    match read {
        None => Verdict::new(
            false,
            Reason::NoShapeNamed,
            Extracted::Nothing,
            "The reply names no shape (negated mentions such as \"not a square\" do not count, nor does a list of every shape)."
                .into(),
        ),
        Some(s) if s == expected => Verdict::new(
            true,
            Reason::CorrectShape,
            Extracted::Shape(s),
            format!("The reply names the {s}, which is the maze's shape."),
        ),
        Some(s) => Verdict::new(
            false,
            Reason::WrongShape,
            Extracted::Shape(s),
            format!("The reply names the {s}, but the maze's shape is the {expected}."),
        ),
    }
}

#[cfg(test)]
#[path = "recognition_tests.rs"]
mod tests;
