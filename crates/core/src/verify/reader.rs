//! Reading the move a free-text reply names ([`read_move`]).
//!
//! **Next move** ([`read_move`]): models write reasoning around their move, often naming
//! several cells, and small models restate the prompt. A move is a coordinate the reply
//! puts forward as its answer; coordinates that restate the maze or the prompt are not.
//!
//! First, each coordinate's standing (standing.rs: restated data, described cells,
//! the start, refused, asked and later cells).
//!
//! Then each role gives its cell ([`MoveCandidates`]) and decide.rs weighs them in the one
//! order every reader shares; for the move the cell that counts is, in order of
//! preference: (0) the cell the reply concludes
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

use super::answer::{Rule, MOVE_LABELS};
use super::conclusion::{
    concluded, conclusions_among, gives_up, sentence_end, taken_back_after, DIRECTIONS,
};
use super::convention::declared_convention;
use super::decide::{decide, Candidates, Competing, Found};
use super::lines::Lines;
use super::move_answer::{
    answer_line_cells, concluded_in_chinese, corrected, json_move, json_moves, last_answer_line,
};
use super::standing::{
    another_player, data_key_before, key_words, standings, template_sentences, Standing,
    MOVE_VERBS, PLAYER_KEYS,
};
use super::verdict::DoubtKind;
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

/// Whether `to` is one step (diagonals included) from the player's cell `player`: a cell
/// the reply could be moving to, not a place it names (the start, the goal, a cell further
/// on). Knowing where the player stands decides whether some readings are sure
/// (decide.rs): a reply that names one cell, a neighbour of the player's, gives it as its
/// move; a cell named after the answer that the player cannot reach in one step competes
/// with nothing.
fn reachable(player: Pos, to: Pos) -> bool {
    to != player && player.row.abs_diff(to.row) <= 1 && player.col.abs_diff(to.col) <= 1
}

/// The move a reply's text names, and how many coordinates were set aside as restated or
/// described maze data.
pub(super) struct MoveRead {
    pub(super) coord: Option<Coord>,
    /// The rule that read it (or that found none).
    pub(super) rule: Rule,
    /// Why the reading is not sure (`None` when it is).
    pub(super) doubt: Option<Competing<Coord>>,
    pub(super) set_aside: usize,
    /// How many coordinates the reply holds.
    pub(super) coordinates: usize,
    /// How many placeholders of the answer template (`(row, col)`) it holds.
    pub(super) templates: usize,
}

/// The cell a reply names as its next move (see the module documentation for the rule).
pub fn read_move(reply: &str) -> Option<Pos> {
    read_move_in(&plain(reply), None).coord.map(|c| c.pos)
}

/// [`read_move`] with where the coordinate it read stands in the reply (`[start, end)`).
pub fn read_move_at(reply: &str) -> Option<(Pos, [usize; 2])> {
    let text = plain(reply);
    read_move_in(&text, None)
        .coord
        .map(|c| (c.pos, span_in_reply(reply, c.start, c.end)))
}

/// The move `text` (a reply's plain text) names; where the player stands (`player`, when
/// the maze is known) tells whether the reading is sure.
pub(super) fn read_move_in(text: &str, player: Option<Pos>) -> MoveRead {
    let read = read_move_by_rules(text, player);
    match read.coord {
        Some(c) => {
            let coord = corrected(text, c);
            // A correction on the cell's line explains the cell that follows it.
            let doubt = read
                .doubt
                .filter(|d| d.rival.is_none_or(|r| r.pos != coord.pos) || coord.pos == c.pos);
            MoveRead {
                coord: Some(coord),
                doubt,
                ..read
            }
        }
        None => read,
    }
}

/// The move and the rule that read it, before a correction later on its line is applied.
fn read_move_by_rules(text: &str, player: Option<Pos>) -> MoveRead {
    let all = coordinates(text);
    let templates = template_sentences(text);
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
    let decision = decide(&MoveCandidates {
        lines: &Lines::of(text),
        all: &all,
        standing: &standing,
        templates: &templates,
        guessed,
        player,
    });
    MoveRead {
        coord: decision.value,
        rule: decision.rule,
        doubt: decision.doubt,
        set_aside,
        coordinates: all.len(),
        templates: templates.len(),
    }
}

/// The cells one reply gives in each role, for [`decide`].
struct MoveCandidates<'a> {
    /// The reply's text, and its answer lines, tick and JSON, read once.
    lines: &'a Lines<'a>,
    /// Every coordinate, and how each stands.
    all: &'a [Coord],
    standing: &'a [Standing],
    /// The sentences of the prompt's answer template the reply repeats.
    templates: &'a [[usize; 3]],
    /// Whether every cell is the start or refused (each then counts as open).
    guessed: bool,
    /// Where the player stands, when the reading is for a known maze.
    player: Option<Pos>,
}

impl MoveCandidates<'_> {
    /// Whether byte `at` stands in the template's sentence: a label or "to" is the
    /// template's when a placeholder follows it in its sentence with no coordinate between
    /// ("in the form: Move: (row, col)"), not in "Move: (1, 0) (row, col)".
    fn masked(&self, at: usize) -> bool {
        self.templates.iter().any(|&[s, p, e]| {
            s <= at && at < e && !self.all.iter().any(|c| c.start >= at && c.start < p)
        })
    }

    /// The first open coordinate after `offset`, else a described one that only words such
    /// as "the goal at" separate from it.
    fn named_after(&self, offset: usize) -> Option<Coord> {
        let after = || (0..self.all.len()).filter(move |&i| self.all[i].start >= offset);
        after()
            .find(|&i| self.standing[i] == Standing::Open)
            .or_else(|| {
                after().find(|&i| {
                    self.standing[i] == Standing::Described
                        && only_object_words(&self.lines.text[offset..self.all[i].start])
                })
            })
            .map(|i| self.all[i])
    }

    /// `rule`, or `lone` when the reply names one open cell and nothing was guessed.
    fn lone_or(&self, rule: Rule) -> Rule {
        let open = self
            .standing
            .iter()
            .filter(|s| **s == Standing::Open)
            .count();
        if open == 1 && !self.guessed {
            Rule::Lone
        } else {
            rule
        }
    }

    /// The end of the last answer label outside the prompt's template that heads no list of
    /// options and no paragraph ("I can move:\n- Right to (0, 1)", "Let's find the next
    /// move:\n\nFrom ...").
    fn last_label(&self) -> Option<usize> {
        MOVE_LABELS
            .iter()
            .flat_map(|l| {
                find_words(self.lines.text, l, true)
                    .into_iter()
                    .map(move |i| (i, i + l.len()))
            })
            .filter(|&(i, end)| !self.masked(i) && !heads_options(self.lines.text, i, end))
            .map(|(_, end)| end)
            .max()
    }

    /// A label that gives the player's cell as its answer: "Answer: Player position: (0, 1)".
    fn keyed(&self, offset: usize) -> Option<Coord> {
        let c = self.all.iter().find(|c| c.start >= offset)?;
        let between = self.lines.text[offset..c.start].trim();
        let key = between
            .strip_suffix(':')
            .or_else(|| between.strip_suffix('='))?;
        (data_key_before(self.lines.text, c.start) == Some(false)
            && !key.contains(['\n', '.', ',', ';', ')'])
            && PLAYER_KEYS.contains(&key_words(key).as_str()))
        .then_some(*c)
    }

    /// The end of the last "move ... to" (not negated; coordinates' numbers are not words).
    fn last_move_phrase(&self) -> Option<usize> {
        let all = self.all;
        let words: Vec<Span> = word_spans(self.lines.text)
            .into_iter()
            .filter(|w| !all.iter().any(|c| c.start <= w.start() && w.end <= c.end))
            .collect();
        words
            .iter()
            .enumerate()
            .filter(|(i, w)| {
                w.text.eq_ignore_ascii_case("to")
                    && !self.masked(w.start())
                    && (reach_back(&words, *i)..*i).any(|v| {
                        MOVE_VERBS
                            .iter()
                            .any(|m| words[v].text.eq_ignore_ascii_case(m))
                            && !is_negated(self.lines.text, words[v].start())
                            && !(v > 0 && another_player(&normal_word(words[v - 1].text)))
                    })
            })
            .map(|(_, w)| w.end)
            .max()
    }
}

impl Candidates for MoveCandidates<'_> {
    type Value = Coord;

    /// A reply that names one cell and no rule above puts it forward often restates a
    /// place (the player's own cell, the goal): the cell is its move when it is a neighbour
    /// of the player's, and unsure when the maze is not known.
    fn lone_is_first_rank(&self, value: &Coord) -> bool {
        self.player.is_some_and(|p| reachable(p, value.pos))
    }

    fn span(value: &Coord) -> [usize; 2] {
        [value.start, value.end]
    }

    fn same(a: &Coord, b: &Coord) -> bool {
        a.pos == b.pos
    }

    /// A JSON answer: `{"move": [0, 1]}`.
    fn json(&self) -> Option<Coord> {
        json_move(self.lines)
    }

    fn answer_line(&self) -> Option<Coord> {
        last_answer_line(self.lines, self.all, |k| self.standing[k] == Standing::Open)
    }

    /// The last concluding sentence (conclusion.rs), in English or Chinese; a reply cut off
    /// that takes it back later keeps none.
    fn concluded(&self) -> Option<(Coord, bool)> {
        let (text, all, standing) = (self.lines.text, self.all, self.standing);
        let k = concluded(text, all, standing)
            .filter(|&k| !self.masked(all[k].start))
            .or_else(|| {
                concluded_in_chinese(text, all, |k| {
                    matches!(standing[k], Standing::Open | Standing::Described)
                })
            })?;
        Some((all[k], !taken_back_after(text, all[k].end)))
    }

    fn gives_up(&self) -> bool {
        gives_up(self.lines.text)
    }

    /// A table or list of candidate cells, one ticked and the others struck out.
    fn ticked(&self) -> Option<Coord> {
        let [from, to] = self.lines.ticked?;
        let inside: Vec<usize> = (0..self.all.len())
            .filter(|&i| self.all[i].start >= from && self.all[i].end <= to)
            .filter(|&i| matches!(self.standing[i], Standing::Open | Standing::Described))
            .collect();
        match inside[..] {
            [k] => Some(self.all[k]),
            _ => None,
        }
    }

    /// (1) after the last answer label, or the player's cell it gives as its answer.
    fn labelled(&self) -> Found<Coord> {
        let label = self.last_label()?;
        self.named_after(label)
            .or_else(|| self.keyed(label))
            .map(Some)
    }

    /// (2) after the last "move ... to", else (3) the last open coordinate.
    fn fallback(&self) -> (Option<Coord>, Rule) {
        if let Some(c) = self.last_move_phrase().and_then(|at| self.named_after(at)) {
            return (Some(c), self.lone_or(Rule::MovePhrase));
        }
        let last = (0..self.all.len())
            .rev()
            .find(|&i| self.standing[i] == Standing::Open)
            .map(|i| self.all[i]);
        (last, self.lone_or(Rule::LastCoordinate))
    }

    /// When the maze is known, a cell the player cannot reach in one step competes with
    /// nothing: a conclusion that names it ("the goal at (3, 0) cannot be reached") is a
    /// place, not a move.
    fn first_rank(&self, chosen: &Coord) -> Vec<(Coord, DoubtKind)> {
        let (text, all, standing) = (self.lines.text, self.all, self.standing);
        // The cells that could compete: put forward or described, another cell than the
        // one read, and one the player could step to. Only sentences that hold one are
        // asked whether they conclude.
        let rival = |k: usize| {
            !standing[k].passed()
                && all[k].pos != chosen.pos
                && self.player.is_none_or(|p| reachable(p, all[k].pos))
        };
        if !(0..all.len()).any(rival) && self.lines.json.is_empty() {
            return Vec::new();
        }
        let move_like = |c: &(Coord, DoubtKind)| self.player.is_none_or(|p| reachable(p, c.0.pos));
        let open = |k: usize| standing[k] == Standing::Open;
        let json = json_moves(self.lines).map(|c| (c, DoubtKind::RivalJson));
        let lines =
            answer_line_cells(self.lines, all, open).map(|c| (c, DoubtKind::RivalAnswerLine));
        // A conclusion in an item of a list ("1. Move up to (3, 2) - a wall.") weighs an
        // option; the answer's own conclusion competes with it not.
        let weighed = |k: usize| self.masked(all[k].start) || in_list_item(text, all[k].start);
        let clauses = conclusions_among(text, all, standing, |k| rival(k) && !weighed(k))
            .filter(|&k| !weighed(k))
            .map(|k| (all[k], DoubtKind::RivalConclusion));
        let chinese = concluded_in_chinese(text, all, |k| {
            matches!(standing[k], Standing::Open | Standing::Described)
        })
        .map(|k| (all[k], DoubtKind::RivalConclusion));
        json.chain(lines)
            .chain(clauses)
            .chain(chinese)
            .filter(move_like)
            .collect()
    }

    /// The cells that may be the move: restated data, the start, refused, asked and later
    /// cells are not put forward, nor, when the maze is known, a cell the player cannot
    /// reach in one step (a place the reply names: the start, the goal, a cell further on).
    fn put_forward(&self) -> Vec<Coord> {
        (0..self.all.len())
            .filter(|&i| self.standing[i] == Standing::Open)
            .map(|i| self.all[i])
            .filter(|c| self.player.is_none_or(|p| reachable(p, c.pos)))
            .collect()
    }

    fn statement_end(&self, at: usize) -> usize {
        sentence_end(self.lines.text, at)
    }

    fn lines(&self) -> &Lines<'_> {
        self.lines
    }

    /// A reply that counts rows and columns from 1, or writes the column first.
    fn convention(&self) -> Option<[usize; 2]> {
        declared_convention(self.lines.text)
    }

    /// Any coordinate, else any number or number word: a move may hide in them.
    fn traces(&self) -> Option<(Option<Coord>, [usize; 2])> {
        if let Some(c) = self.put_forward().last().or(self.all.last()) {
            return Some((Some(*c), [c.start, c.end]));
        }
        let text = self.lines.text;
        let digit = text
            .char_indices()
            .find(|(_, c)| c.is_numeric())
            .map(|(i, c)| [i, i + c.len_utf8()]);
        digit
            .or_else(|| {
                word_spans(text)
                    .into_iter()
                    .find(|w| NUMBER_WORDS.contains(&normal_word(w.text).as_str()))
                    .map(|w| [w.start(), w.end])
            })
            .map(|span| (None, span))
    }
}

/// Whether byte `at` stands on a line that is an item of a list: it opens with `-`, `*`,
/// `•` or a number and `.` or `)` (`1. Move up to (3, 2)`, `**2)** ...`).
fn in_list_item(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[start..].trim_start_matches([' ', '\t', '*', '#', '>']);
    if line.starts_with(['-', '\u{2022}', '+']) || text[start..].trim_start().starts_with("* ") {
        return true;
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (1..=2).contains(&digits) && matches!(line.as_bytes().get(digits), Some(b'.' | b')'))
}

/// Words that name a number or a cell's row or column: a reply that gives no coordinate may
/// still give the move in them ("row one, column zero").
const NUMBER_WORDS: [&str; 16] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "first",
    "second", "third", "row", "column", "col",
];

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
