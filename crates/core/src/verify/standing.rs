//! How each coordinate of a reply stands for reading the move ([`standings`]): the
//! roles a cell can take in a reply before the reader (reader.rs) and the conclusion
//! (conclusion.rs) decide which cell is the move. One type, [`Standing`], serves both.
//!
//! - *Restated data*, never the move: a coordinate in a list labelled with a maze key
//!   (`Walls:`, `Empty:`, `Open cells:`, `Player position:`, `Player:`, `P:`, `Start:`,
//!   `Current position:`, `Goal:`, `Target:`, `G:`, ... with `:` or `=`, or in prose a
//!   list key with its verb: "the walls are at", "the empty cells are"; a list runs on over
//!   commas, `and` and `...`, onto the next line only after a comma, and one cell for the
//!   player's and goal's keys), and a cell given with its symbol (`(0, 1) = 0`,
//!   `(1, 1): wall`).
//! - *Described*: the goal's cell ("the goal is at (4, 4)", "G at (4, 4)", "(4, 4) is the
//!   goal"), the player's own ("I'm at (0, 0)", "the player is at", "currently at",
//!   "starting position"; not after "now", "then", "will", "after", ... in its sentence
//!   or the one before, nor followed by "now"), and walls ("(1, 1) is a wall", "there is
//!   a wall at (1, 1)", "(0, 1) and (1, 0) are walls").
//! - *The start*: right after "from" ("from (0, 0) to (0, 1)"); *refused*: right after a
//!   negated move phrase ("I can't go to (1, 1)"), set against the move ("rather than",
//!   "instead of", "not" right before it) or weighed as what only would, could or might do
//!   ("(0, 1) would be just as short").
//! - *Later*: a step of a route planned after a cell the sentence puts forward, its clause
//!   led by "then" ("down to (1, 0), then along to (4, 0)").
//! - A cell in a move narrated for another player, named by a single letter other than P
//!   ("Q moves to cell (0, 1)"), is described; a key of a single letter other than `A`,
//!   `P` and `G` (`S:`, `E:`, `Q:`) labels a list of data like the maze keys.
//! - The prompt's words restated hold no answer label and no move phrase: its answer
//!   template (a placeholder such as `(row, col)`, `(r, c)`, `(x, y)`, and the sentence
//!   before it up to the placeholder: "in the form: Move: (row, col)") and its headings (a
//!   line opening `Phase 1 of 3`). A cell given as a placeholder's value outside an answer
//!   ("Cell(row, col) = (0, 0)", the legend restated) is restated data; after a move label
//!   or verb it is the answer filled in ("Move: (row, col) = (1, 0)").

use super::words::{normal_word, word_spans, words_before, NEGATORS};
use crate::maze::coords::Coord;
use crate::text::placeholders;

pub(super) const MOVE_VERBS: [&str; 9] = [
    "move", "moves", "moving", "go", "going", "step", "head", "proceed", "moved",
];

/// Keys of restated maze lists that may hold many cells (compared in lower case, with
/// apostrophes, markdown and a leading article removed).
const LIST_KEYS: [&str; 15] = [
    "walls",
    "wall",
    "wall cells",
    "empty",
    "empty cells",
    "open cells",
    "open",
    "free cells",
    "corridor",
    "corridors",
    "corridor cells",
    "obstacles",
    "blocked",
    "blocked cells",
    "walls cells",
];

/// Keys of restated maze data that hold one cell: the player's and the goal's.
const CELL_KEYS: [&str; 27] = [
    "player position",
    "player",
    "players position",
    "position of the player",
    "player cell",
    "p",
    "start",
    "start position",
    "starting position",
    "starting point",
    "start cell",
    "current position",
    "current cell",
    "current",
    "my position",
    "my current position",
    "goal",
    "goal position",
    "goal cell",
    "goals position",
    "target",
    "exit",
    "destination",
    "finish",
    "end",
    "g",
    "position of the goal",
];

/// Words that join a list key to its cells in prose ("the empty cells are (0, 1), ...").
const LIST_VERBS: [&str; 6] = ["are", "at", "located", "include", "includes", "is"];

/// The keys of [`CELL_KEYS`] that give the player's cell: after an answer label
/// ("Answer: Player position: (0, 1)") the cell is the answer.
pub(super) const PLAYER_KEYS: [&str; 7] = [
    "player position",
    "player",
    "players position",
    "position of the player",
    "p",
    "current position",
    "my position",
];

/// Words that name the goal, the player (or the reply's own position) and walls, when a
/// coordinate follows them in prose ("the goal is at (4, 4)").
const GOAL_HEADS: [&str; 6] = ["goal", "target", "exit", "destination", "finish", "g"];
const PLAYER_HEADS: [&str; 12] = [
    "player",
    "players",
    "p",
    "i",
    "im",
    "we",
    "were",
    "start",
    "starting",
    "currently",
    "my",
    "current",
];
const WALL_HEADS: [&str; 5] = ["wall", "walls", "obstacle", "obstacles", "blocked"];
/// Words that may stand between such a head and the coordinate ("is located at").
const DESCRIBING: [&str; 17] = [
    "is",
    "are",
    "am",
    "lies",
    "sits",
    "located",
    "positioned",
    "situated",
    "standing",
    "sitting",
    "at",
    "in",
    "on",
    "cell",
    "cells",
    "position",
    "point",
];
/// Words that put the player's position after the move ("now I'm at", "I'll go down. I'm
/// at"); `I'll` is `ill` once its apostrophe is removed.
const AFTER_THE_MOVE: [&str; 13] = [
    "now",
    "then",
    "after",
    "afterwards",
    "will",
    "ill",
    "ll",
    "would",
    "next",
    "new",
    "moving",
    "moved",
    "move",
];
/// What may follow a cell to describe it as a wall, the goal or the player's cell (in lower
/// case, after spaces, a comma and "which"/"that").
const WALL_AFTER: [&str; 24] = [
    "is a wall",
    "is wall",
    "is also a wall",
    "is blocked",
    "is an obstacle",
    "is a 1",
    "is 1",
    "= 1",
    "=1",
    "(wall",
    "(blocked",
    "(a wall",
    "a wall",
    "are walls",
    "are both walls",
    "are all walls",
    "are blocked",
    "it's a wall",
    "it is a wall",
    "because it's a wall",
    "because it is a wall",
    "since it's a wall",
    "as it's a wall",
    "because of the wall",
];
const GOAL_AFTER: [&str; 5] = [
    "is the goal",
    "(the goal",
    "(goal",
    "(g)",
    "is where the goal",
];
const PLAYER_AFTER: [&str; 15] = [
    "is my position",
    "is my current position",
    "is where i am",
    "is where i stand",
    "is the player",
    "is the start",
    "is my start",
    "is the current",
    "(start",
    "(player",
    "(p)",
    "(current",
    "(me)",
    "(my position",
    "(where i am",
];
/// How a coordinate stands in a reply, for reading the move (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Standing {
    /// May be the move.
    Open,
    /// Describes the maze in prose: the goal's cell, the player's own, a wall.
    Described,
    /// Right after "from": where the player starts.
    Start,
    /// Right after a negated move phrase ("I can't go to (1, 1)"): not put forward.
    Refused,
    /// Restated maze data: never the move.
    Data,
    /// Inside a question ("Should I go to (1, 0)?"): never the move.
    Asked,
    /// A later step of a route the reply plans after the cell it puts forward: after
    /// "then" in the same sentence ("down to (1, 0), then along to (4, 0)").
    Later,
}

impl Standing {
    /// Whether the cell is passed over by every rule that puts a cell forward: restated
    /// data, the start, a refused, asked or later cell (a described cell still counts
    /// right after a label or a move phrase).
    pub(super) fn passed(self) -> bool {
        !matches!(self, Standing::Open | Standing::Described)
    }
}

/// The prompt's answer template echoed in a reply: each placeholder (`(row, col)`) with the
/// sentence before it, as `[sentence start, placeholder start, placeholder end]`. Labels and
/// move phrases there are the prompt's words, not the reply's answer.
pub(super) fn template_sentences(text: &str) -> Vec<[usize; 3]> {
    let mut out: Vec<[usize; 3]> = placeholders(text)
        .into_iter()
        .map(|[start, end]| [sentence_start(text, start), start, end])
        .collect();
    // The prompt's heading restated ("Phase 2 of 3: move to cell Q"): the whole line.
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if is_phase_heading(line) {
            let end = offset + line.trim_end().len();
            out.push([offset, end, end]);
        }
        offset += line.len();
    }
    out
}

/// Where the sentence holding byte `at` starts (after `\n . ! ?`).
fn sentence_start(text: &str, at: usize) -> usize {
    text[..at].rfind(['\n', '.', '!', '?']).map_or(0, |i| i + 1)
}

/// Whether a line opens as the prompts' headings do: `Phase 1 of 3: ...`.
fn is_phase_heading(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().take(4).collect();
    let number = |w: &str| {
        let w = w.trim_end_matches([':', '.']);
        !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())
    };
    matches!(words[..], [p, a, o, b, ..] if p.eq_ignore_ascii_case("phase")
        && number(a)
        && o.eq_ignore_ascii_case("of")
        && number(b))
        || matches!(words[..], [p, a, ..] if p.eq_ignore_ascii_case("phases") && number(a))
}

/// Whether a word names a player other than P, moving on its own ("Q moves to"): a single
/// letter other than `p`, `i` and `a` ("a move to").
pub(super) fn another_player(word: &str) -> bool {
    word.len() == 1
        && word.bytes().all(|b| b.is_ascii_alphabetic())
        && !matches!(word, "p" | "i" | "a")
}

/// Whether the coordinate is the cell of a move narrated for another player: "Q moves to
/// cell (0, 1)".
fn narrated(before: &[String]) -> bool {
    let mut words = tail(before, 7).to_vec();
    while words
        .last()
        .is_some_and(|w| matches!(w.as_str(), "cell" | "the" | "a" | "position" | "square"))
    {
        words.pop();
    }
    if words.last().map(String::as_str) != Some("to") {
        return false;
    }
    let n = words.len() - 1;
    (n.saturating_sub(3)..n)
        .any(|v| MOVE_VERBS.contains(&words[v].as_str()) && v > 0 && another_player(&words[v - 1]))
}

/// Whether the coordinate is the example value of an answer template outside an answer:
/// the legend restated, "Cell(row, col) = (0, 0)". After a move label or verb it is the
/// answer filled in ("Move: (row, col) = (1, 0)").
fn template_value(text: &str, c: &Coord, templates: &[[usize; 3]]) -> bool {
    templates.iter().any(|&[from, p, end]| {
        p < end
            && end <= c.start
            && c.start - end <= 8
            && text[end..c.start].trim().len() <= 1
            && text[end..c.start]
                .trim()
                .chars()
                .all(|ch| matches!(ch, '=' | ':'))
            && !word_spans(&text[from..p]).iter().any(|w| {
                let w = normal_word(w.text);
                MOVE_VERBS.contains(&w.as_str()) || w == "answer"
            })
    })
}

/// How each coordinate stands (see the module documentation).
pub(super) fn standings(text: &str, all: &[Coord], templates: &[[usize; 3]]) -> Vec<Standing> {
    let mut out = vec![Standing::Open; all.len()];
    let mut befores = Befores {
        text,
        cells: all,
        words: vec![None; all.len()],
    };
    let mut i = 0;
    while i < all.len() {
        if let Some(list) = data_key_before(text, all[i].start) {
            out[i] = Standing::Data;
            // A list runs on over its separators.
            while list && i + 1 < all.len() && list_gap(&text[all[i].end..all[i + 1].start]) {
                i += 1;
                out[i] = Standing::Data;
            }
        }
        i += 1;
    }
    for (i, c) in all.iter().enumerate() {
        if out[i] != Standing::Open {
            continue;
        }
        if cell_with_symbol(&text[c.end..]) || template_value(text, c, templates) {
            out[i] = Standing::Data;
        } else if tail(befores.of(i), 1) == ["from"] {
            out[i] = Standing::Start;
        } else if refused(befores.of(i))
            || refused_in_chinese(text, c.start)
            || set_against(text, c, befores.of(i))
        {
            out[i] = Standing::Refused;
        } else if described_before(text, c, befores.of(i))
            || described_after(&text[c.end..]).is_some()
            || narrated(befores.of(i))
        {
            out[i] = Standing::Described;
        }
    }
    // A cell inside a question is asked about, never put forward.
    for (i, c) in all.iter().enumerate() {
        if out[i] == Standing::Open && in_question(text, c) {
            out[i] = Standing::Asked;
        }
    }
    // A cell after "then" in the sentence of an open cell before it is a later step.
    for i in 1..all.len() {
        if out[i] == Standing::Open {
            let earlier = (0..i).rev().find(|&j| out[j] == Standing::Open);
            if earlier.is_some_and(|j| later_step(text, &all[j], &all[i], befores.of(i))) {
                out[i] = Standing::Later;
            }
        }
    }
    // A wall named before a list ("walls at (1, 1), (1, 2)") or after it ("(0, 1) and
    // (1, 0) are walls") describes the whole list.
    for i in 1..all.len() {
        if out[i - 1] == Standing::Described
            && out[i] == Standing::Open
            && wall_before(befores.of(i - 1))
            && list_gap(&text[all[i - 1].end..all[i].start])
        {
            out[i] = Standing::Described;
        }
    }
    let mut walls_after = false;
    for i in (0..all.len()).rev() {
        if out[i] == Standing::Described && described_after(&text[all[i].end..]) == Some(true) {
            walls_after = true;
        } else if walls_after
            && out[i] == Standing::Open
            && list_gap(&text[all[i].end..all[i + 1].start])
        {
            out[i] = Standing::Described;
        } else {
            walls_after = false;
        }
    }
    out
}

/// The words before each cell in its clause (up to [`BEFORE`]), read once for the rules that
/// look back from the cell and kept.
struct Befores<'t> {
    text: &'t str,
    cells: &'t [Coord],
    words: Vec<Option<Vec<String>>>,
}

/// How many words before a cell its rules look at, at most.
const BEFORE: usize = 8;

impl Befores<'_> {
    /// The words before cell `i`.
    fn of(&mut self, i: usize) -> &[String] {
        let (text, at) = (self.text, self.cells[i].start);
        self.words[i].get_or_insert_with(|| words_before(text, at, BEFORE))
    }
}

/// The last `n` of `words` (all of them when there are fewer).
fn tail(words: &[String], n: usize) -> &[String] {
    &words[words.len().saturating_sub(n)..]
}

/// Whether a coordinate stands in a question: its sentence (up to the next line break or
/// sentence end) ends with a question mark.
fn in_question(text: &str, c: &Coord) -> bool {
    let rest = &text[c.end..];
    let end = rest.find(['\n', '.', '!', '?']).map_or(rest.len(), |i| i);
    rest[end..].starts_with('?')
}

/// Whether the coordinate starting at `at` opens a list labelled with a maze key (`Walls:`,
/// `Goal =`, or in prose a list key and a verb: "the empty cells are"): `Some(true)` for a
/// key of many cells, `Some(false)` for a key of one.
pub(super) fn data_key_before(text: &str, at: usize) -> Option<bool> {
    let head = text[..at].trim_end_matches([' ', '\t']);
    let head = head
        .strip_suffix('\n')
        .unwrap_or(head)
        .trim_end_matches([' ', '\t']);
    let labelled = head.strip_suffix(':').or_else(|| head.strip_suffix('='));
    let head = labelled.unwrap_or(head).trim_end();
    // A short aside before the colon: "Goal (G):".
    let head = match head.strip_suffix(')').and_then(|h| h.rsplit_once('(')) {
        Some((before, inside))
            if labelled.is_some()
                && inside.len() <= 8
                && !inside.contains(|c: char| c.is_ascii_digit()) =>
        {
            before.trim_end()
        }
        _ => head,
    };
    let from = head
        .rfind(['\n', '.', ',', ';', '|', '!', '?', ')', ':'])
        .map_or(0, |i| i + 1);
    let mut words: Vec<String> = word_spans(&head[from..])
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    if labelled.is_none() {
        // In prose only a list with its verb: "the walls are at", "empty cells include".
        let before = words.len();
        while words
            .last()
            .is_some_and(|w| LIST_VERBS.contains(&w.as_str()))
        {
            words.pop();
        }
        if words.len() == before {
            return None;
        }
    }
    let key = key_words(&words.join(" "));
    // A single letter names a maze symbol or a player (`S:`, `E:`, `Q:`), never an answer
    // (`A:` may be one).
    let letter = key.len() == 1 && key != "a" && key.bytes().all(|b| b.is_ascii_alphabetic());
    if LIST_KEYS.contains(&key.as_str())
        || (letter && labelled.is_some() && key != "p" && key != "g")
    {
        Some(true)
    } else {
        (labelled.is_some() && CELL_KEYS.contains(&key.as_str())).then_some(false)
    }
}

/// A key as compared with [`LIST_KEYS`] and [`CELL_KEYS`]: its words in lower case,
/// apostrophes and markdown removed, without a leading article ("The player's position"
/// -> "players position").
pub(super) fn key_words(key: &str) -> String {
    let words: Vec<String> = word_spans(key)
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    let words = match words.first().map(String::as_str) {
        Some("the" | "a" | "your" | "our") => &words[1..],
        _ => &words[..],
    };
    words.join(" ")
}

/// Whether the text between two coordinates only separates items of one list: blanks,
/// commas, "and", "..."; a line break only after a comma, and no blank line.
fn list_gap(gap: &str) -> bool {
    if let Some(nl) = gap.find('\n') {
        let before = gap[..nl].trim_end();
        if gap[nl + 1..].contains('\n') || !before.ends_with(',') {
            return false;
        }
    }
    gap.replace("...", " ")
        .replace('\u{2026}', " ")
        .split(|c: char| c.is_whitespace() || c == ',')
        .all(|w| w.is_empty() || w.eq_ignore_ascii_case("and"))
}

/// Whether `after` (the text after a coordinate) gives the cell's symbol or tile:
/// `(0, 1) = 0`, `(1, 1): wall`.
fn cell_with_symbol(after: &str) -> bool {
    let t = after.trim_start_matches([' ', '\t']);
    let Some(t) = t.strip_prefix([':', '=']) else {
        return false;
    };
    let t = t.trim_start_matches([' ', '\t']);
    let word: String = t
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        word.as_str(),
        "0" | "1"
            | "p"
            | "g"
            | "wall"
            | "empty"
            | "open"
            | "blocked"
            | "free"
            | "player"
            | "goal"
            | "start"
    )
}

/// The words of the clause before a coordinate, with describing words ("is located at")
/// removed from their end: the head word that names what the cell is, and the words
/// before it.
fn head_before(before: &[String]) -> Option<(String, Vec<String>)> {
    let mut words = tail(before, 6).to_vec();
    while words
        .last()
        .is_some_and(|w| DESCRIBING.contains(&w.as_str()))
    {
        words.pop();
    }
    let head = words.pop()?;
    if words.iter().any(|w| NEGATORS.contains(&w.as_str())) {
        return None;
    }
    Some((head, words))
}

/// Whether the coordinate is the object of a negated move phrase: "I can't go to (1, 1)",
/// "I don't want to move to (1, 1)".
fn refused(before: &[String]) -> bool {
    let words = tail(before, 7);
    if words.last().map(String::as_str) != Some("to") {
        return false;
    }
    let n = words.len() - 1;
    (n.saturating_sub(3)..n).any(|v| {
        MOVE_VERBS.contains(&words[v].as_str())
            && words[v.saturating_sub(3)..v]
                .iter()
                .any(|w| NEGATORS.contains(&w.as_str()))
    })
}

/// Whether a cell at `at` is refused in Chinese: among the six characters before it, in
/// its clause, 不 (not) or 别 (don't) comes before a verb of moving (走 walk, 去 go, 移 move,
/// 往 towards, 到 to): "不要走 (1, 1)", "别去(1, 1)".
fn refused_in_chinese(text: &str, at: usize) -> bool {
    let before: Vec<char> = text[..at]
        .chars()
        .rev()
        .take(6)
        .take_while(|c| !matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | '\n'))
        .collect();
    // `before` runs backwards: a verb nearer the cell, a negation further back.
    before
        .iter()
        .position(|c| matches!(c, '走' | '去' | '移' | '往' | '到'))
        .is_some_and(|v| before[v..].iter().any(|c| matches!(c, '不' | '别')))
}

/// Whether the coordinate is set against the move rather than put forward: rejected right
/// before it ("rather than (0, 1)", "instead of (0, 1)", "not (1, 1)"), or weighed as an
/// alternative that only would, could or might do ("(0, 1) would be just as short"; not
/// "(1, 0) would be my move").
fn set_against(text: &str, c: &Coord, before: &[String]) -> bool {
    let rejected = matches!(
        tail(before, 2)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()[..],
        [.., "rather", "than"] | [.., "instead", "of"] | [.., "not"]
    );
    // The four words after it, looked for in its clause only.
    let rest = &text[c.end..];
    let clause = rest
        .find(['\n', '.', ',', ';', ':', '!', '?'])
        .unwrap_or(rest.len());
    let after: Vec<String> = word_spans(&rest[..clause])
        .iter()
        .take(4)
        .map(|w| normal_word(w.text))
        .collect();
    let weighed = after
        .first()
        .is_some_and(|w| matches!(w.as_str(), "would" | "could" | "might"))
        && !after[1..].iter().any(|w| {
            matches!(
                w.as_str(),
                "my" | "our" | "the" | "answer" | "choice" | "move"
            )
        });
    rejected || weighed
}

/// Whether `later` is a later step of a route that puts `earlier` forward: no sentence ends
/// between them, and "then" (or "afterwards") leads the clause of `later` within its eight
/// words before it ("..., then along the bottom row to (4, 4)").
fn later_step(text: &str, earlier: &Coord, later: &Coord, before: &[String]) -> bool {
    !text[earlier.end..later.start].contains(['\n', '.', '!', '?', ';'])
        && tail(before, 8)
            .iter()
            .any(|w| matches!(w.as_str(), "then" | "afterwards"))
}

/// Whether a wall is named right before the coordinate ("there is a wall at (1, 1)").
fn wall_before(before: &[String]) -> bool {
    head_before(before).is_some_and(|(h, _)| WALL_HEADS.contains(&h.as_str()))
}

/// Whether prose before the coordinate says it is the goal's cell, the player's own or a
/// wall ("the goal is at", "I'm at", "a wall at").
fn described_before(text: &str, c: &Coord, before: &[String]) -> bool {
    let Some((head, _)) = head_before(before) else {
        return false;
    };
    if GOAL_HEADS.contains(&head.as_str()) || WALL_HEADS.contains(&head.as_str()) {
        return true;
    }
    if !PLAYER_HEADS.contains(&head.as_str()) {
        return false;
    }
    // The player's cell after the move is the move: "now I'm at (0, 1)", "(0, 1) now",
    // "I'll go down. I'm at (1, 0)." (its sentence or the one before says so).
    let ends = ['\n', '.', '!', '?'];
    let head = &text[..c.start];
    let before = head[..head.rfind(ends).unwrap_or(0)]
        .trim_end_matches(|ch: char| ends.contains(&ch) || ch.is_whitespace());
    let sentence_start = before.rfind(ends).map_or(0, |i| i + 1);
    let sentence = &head[sentence_start..];
    let after_move = word_spans(sentence)
        .iter()
        .any(|w| AFTER_THE_MOVE.contains(&normal_word(w.text).as_str()));
    let rest = text[c.end..].trim_start_matches([' ', '\t']);
    let now_after = rest.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("now"))
        && !rest[3..].starts_with(|ch: char| ch.is_ascii_alphanumeric());
    !(after_move || now_after)
}

/// What the text after a coordinate describes it as: `Some(true)` a wall, `Some(false)` the
/// goal's cell or the player's own, `None` nothing.
fn described_after(after: &str) -> Option<bool> {
    let mut t: String = after
        .chars()
        .take(40)
        .collect::<String>()
        .to_ascii_lowercase();
    t = t.trim_start_matches([' ', '\t', ',']).to_string();
    for lead in ["which ", "that ", "- "] {
        if let Some(rest) = t.strip_prefix(lead) {
            t = rest.to_string();
        }
    }
    if WALL_AFTER.iter().any(|p| t.starts_with(p)) {
        Some(true)
    } else if GOAL_AFTER
        .iter()
        .chain(PLAYER_AFTER.iter())
        .any(|p| t.starts_with(p))
    {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::coords::coordinates;

    #[test]
    fn restated_data_described_cells_and_the_start_stand_apart() {
        use Standing::*;
        let cases: [(&str, &[Standing]); 15] = [
            (
                "Walls: (1, 1), (1, 2),\n(1, 3) and (2, 1) ... (2, 3)",
                &[Data; 5],
            ),
            ("Walls: (1, 1),\n\n(1, 0)", &[Data, Open]),
            ("Walls: (1, 1)\n(1, 0)", &[Data, Open]),
            ("Goal: (4, 4), (3, 4)", &[Data, Open]),
            ("The empty cells are (0, 1), (1, 0).", &[Data, Data]),
            ("(0, 0) = P, (0, 1): 0, (0, 2) is open", &[Data, Data, Open]),
            ("from (0, 0) to (0, 1)", &[Start, Open]),
            ("I'm at (0, 0); now I'm at (0, 1)", &[Described, Open]),
            (
                "walls at (1, 1), (1, 2); (0, 1) and (1, 0) are walls",
                &[Data, Data, Described, Described],
            ),
            (
                "There is a wall at (1, 1), (1, 2). (0, 1) is a wall",
                &[Described; 3],
            ),
            (
                "the goal (4, 4), not a wall at (1, 0), (2, 2) (the goal)",
                &[Described, Open, Described],
            ),
            (
                "Cell(row, col) = (0, 0); Move: (row, col) = (1, 0)",
                &[Data, Open],
            ),
            (
                "Q moves to cell (0, 1). I make a move to (1, 0)",
                &[Described, Open],
            ),
            (
                "S: (0, 0)\nE: (4, 4), (4, 3)\nA: (1, 0)",
                &[Data, Data, Data, Open],
            ),
            ("I can't go to (1, 1)", &[Refused]),
        ];
        for (text, want) in cases {
            let templates = template_sentences(text);
            assert_eq!(
                standings(text, &coordinates(text), &templates),
                want,
                "{text}"
            );
        }
        assert!(is_phase_heading("Phase 2 of 3: move to cell Q"));
        assert!(is_phase_heading("phase 10 of 3."));
        assert!(!is_phase_heading("Phase two of the plan"));
    }
}
