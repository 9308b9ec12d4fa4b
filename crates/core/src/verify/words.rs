//! The word helpers the move and recognition readers share: the plain text a reader reads
//! ([`plain`]) and where its spans stand in the reply, answer labels, word spans, and
//! negation bounded by its clause.

use crate::reply::Plain;
use crate::text::{find_words, is_word_char};

/// The text the readers read of a reply ([`crate::reply::Plain`]): its answer without the
/// reasoning before it, markdown emphasis and code ticks removed (labels like `**Move:**`
/// read as `Move:`), full-width punctuation read as ASCII.
pub(crate) fn plain(reply: &str) -> String {
    Plain::text_of(reply)
}

/// Where a byte range of [`plain`]'s text stands in the reply it came from: `[start, end)`
/// in the reply.
pub fn span_in_reply(reply: &str, start: usize, end: usize) -> [usize; 2] {
    Plain::of(reply).span(start, end)
}

/// The byte offset just past the last occurrence (as whole words, any case) of any label.
pub(crate) fn end_of_last_label(text: &str, labels: &[&str]) -> Option<usize> {
    labels
        .iter()
        .flat_map(|l| {
            find_words(text, l, true)
                .into_iter()
                .map(move |i| i + l.len())
        })
        .max()
}

/// Words (apostrophes removed) that negate a shape named within three words after them.
pub(crate) const NEGATORS: [&str; 17] = [
    "not", "no", "never", "neither", "nor", "without", "unlike", "cannot", "isnt", "arent",
    "doesnt", "dont", "wasnt", "wont", "aint", "cant", "hardly",
];
pub(crate) const NEGATING_PAIRS: [(&str, &str); 3] =
    [("rather", "than"), ("instead", "of"), ("other", "than")];

pub(crate) struct Span<'a> {
    pub(crate) text: &'a str,
    pub(crate) end: usize,
}

impl Span<'_> {
    pub(crate) fn start(&self) -> usize {
        self.end - self.text.len()
    }
}

pub(crate) fn word_spans(text: &str) -> Vec<Span<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        let w = is_word_char(ch) || ch == '\'' || ch == '\u{2019}';
        match (w, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Span {
                    text: &text[s..i],
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Span {
            text: &text[s..],
            end: text.len(),
        });
    }
    out
}

/// Characters that end a clause, so a negation before them does not reach past them
/// (dashes included: "Is it a square? No — it's a spiral.").
pub(crate) const CLAUSE_ENDS: [char; 9] =
    ['.', '!', '?', ';', ',', '\n', ':', '\u{2014}', '\u{2013}'];

/// The up-to-`n` words before byte `at`, stopping at a clause boundary (one of
/// [`CLAUSE_ENDS`], or a hyphen standing alone as a dash: " - ").
pub(crate) fn words_before(text: &str, at: usize, n: usize) -> Vec<String> {
    let head = &text[..at];
    let after_char = head
        .rfind(CLAUSE_ENDS)
        .map(|i| i + head[i..].chars().next().map_or(1, char::len_utf8));
    // A dash only matters after the last clause end (and looking no further back keeps
    // this cheap when it is called for every coordinate of a long reply).
    let from = after_char.unwrap_or(0);
    let after_dash = head[from..].rfind(" - ").map(|i| from + i + 3);
    let clause_start = after_char.max(after_dash).unwrap_or(0);
    let clause = &head[clause_start..];
    let words: Vec<String> = word_spans(clause)
        .iter()
        .map(|w| normal_word(w.text))
        .collect();
    words[words.len().saturating_sub(n)..].to_vec()
}

/// A word in lower case with apostrophes removed (`I'm` -> `im`), as the readers compare
/// words.
pub(crate) fn normal_word(w: &str) -> String {
    w.to_ascii_lowercase().replace(['\'', '\u{2019}'], "")
}

pub(crate) fn is_negated(text: &str, at: usize) -> bool {
    let before = words_before(text, at, 3);
    before.iter().any(|w| NEGATORS.contains(&w.as_str()))
        || before
            .windows(2)
            .any(|p| NEGATING_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}
