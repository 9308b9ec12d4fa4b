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
/// Words after a cell, in its sentence, that take it back before naming another (the
/// conclusion's and the correction's); in the lines after an answer given first, they take
/// that answer back.
pub(crate) const TAKING_BACK: &[&str] = &[
    "no",
    "nope",
    "wait",
    "actually",
    "sorry",
    "correction",
    "oops",
    "mean",
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
        match (in_word(ch), start) {
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

/// The first word of `text` (as [`word_spans`] reads words), found without reading on.
pub(crate) fn first_word(text: &str) -> Option<&str> {
    let start = text.find(in_word)?;
    let end = text[start..]
        .find(|c| !in_word(c))
        .map_or(text.len(), |e| start + e);
    Some(&text[start..end])
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
    // The last `n` words, found from the clause's end (only they are made into strings).
    let mut out = Vec::with_capacity(n);
    let mut end: Option<usize> = None;
    for (i, ch) in clause.char_indices().rev() {
        match (in_word(ch), end) {
            (true, None) => end = Some(i + ch.len_utf8()),
            (false, Some(e)) => {
                if out.len() == n {
                    break;
                }
                out.push(normal_word(&clause[i + ch.len_utf8()..e]));
                end = None;
            }
            _ => {}
        }
    }
    if let Some(e) = end {
        if out.len() < n {
            out.push(normal_word(&clause[..e]));
        }
    }
    out.reverse();
    out
}

/// Whether `ch` belongs to a word as [`word_spans`] reads words (apostrophes included).
fn in_word(ch: char) -> bool {
    is_word_char(ch) || ch == '\'' || ch == '\u{2019}'
}

/// A word in lower case with apostrophes removed (`I'm` -> `im`), as the readers compare
/// words.
pub(crate) fn normal_word(w: &str) -> String {
    let mut out = String::with_capacity(w.len());
    out.extend(
        w.chars()
            .filter(|&c| c != '\'' && c != '\u{2019}')
            .map(|c| c.to_ascii_lowercase()),
    );
    out
}

pub(crate) fn is_negated(text: &str, at: usize) -> bool {
    let before = words_before(text, at, 3);
    before.iter().any(|w| NEGATORS.contains(&w.as_str()))
        || before
            .windows(2)
            .any(|p| NEGATING_PAIRS.contains(&(p[0].as_str(), p[1].as_str())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_words_before_a_place_are_the_last_of_its_clause_normalised() {
        let text = "So, I can't go to (1, 1); I'll move to (0, 1)";
        let at = text.rfind('(').unwrap_or(0);
        assert_eq!(words_before(text, at, 3), ["ill", "move", "to"]);
        assert_eq!(words_before(text, at, 9), ["ill", "move", "to"]);
        assert!(words_before(text, at, 0).is_empty());
        let at = text.find('(').unwrap_or(0);
        assert_eq!(words_before(text, at, 2), ["go", "to"]);
        // A dash bounds the clause; a word at the clause's start counts.
        assert_eq!(words_before("Up - Down to", 12, 5), ["down", "to"]);
        assert_eq!(words_before("Rather than", 11, 5), ["rather", "than"]);
        assert_eq!(normal_word("Don\u{2019}t"), "dont");
        assert_eq!(first_word(", square grid"), Some("square"));
        assert_eq!(first_word(" it's"), Some("it's"));
        assert_eq!(first_word(" .!"), None);
    }
}
