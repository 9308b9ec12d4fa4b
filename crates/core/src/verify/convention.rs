//! Whether a reply declares another way of writing cells than the prompt's zero-based
//! `(row, col)` ([`declared_convention`]): cells counted from 1 ("1-indexed", "one-based",
//! "counting rows and columns from 1"), or the column first ("(x, y)", "x is the column",
//! "(col, row)", "column first"). A reading of a reply that declares one is not sure
//! (decide.rs): the reply may or may not have converted its cell back.
//!
//! One pass over the reply's words (ASCII letters and digits; everything else separates
//! them), keeping the last few, so the check costs one scan whatever the reply's length.

/// Words that make "from 1" a way of counting cells ("rows numbered from 1").
const COUNTING: [&str; 14] = [
    "count",
    "counts",
    "counting",
    "counted",
    "number",
    "numbered",
    "numbering",
    "index",
    "indexed",
    "indexing",
    "start",
    "starting",
    "begin",
    "beginning",
];

/// How many words back a phrase may reach.
const BACK: usize = 6;

/// A word of the text and where it stands.
#[derive(Clone, Copy)]
struct Word<'t> {
    text: &'t str,
    at: usize,
}

impl Word<'_> {
    fn is(&self, w: &str) -> bool {
        self.text.eq_ignore_ascii_case(w)
    }

    fn is_one(&self) -> bool {
        self.is("1") || self.is("one")
    }

    fn end(&self) -> usize {
        self.at + self.text.len()
    }
}

/// The words of `text`: runs of ASCII letters and digits.
fn words(text: &str) -> impl Iterator<Item = Word<'_>> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() && !bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        Some(Word {
            text: &text[start..i],
            at: start,
        })
    })
}

/// Parts of the words every declaration holds, in either case of their first letter
/// (indexed, based, "from 1", "at one", "with 1", column, "col,", "col first", "c, r"): a
/// reply that holds none declares nothing, and most replies are passed over by these
/// searches alone.
const ANCHORS: [&[u8]; 15] = [
    b"ndex",
    b"ased",
    b"rom 1",
    b"rom one",
    b"at 1",
    b"at one",
    b"ith 1",
    b"ith one",
    b"olumn",
    b"ol,",
    b"ol first",
    b"OL,",
    b"OLUMN",
    b"c, r",
    b"c,r",
];

/// Whether `text` holds a word that could declare a convention: one of [`ANCHORS`], or an
/// `x` standing alone as a word.
fn may_declare(text: &str) -> bool {
    let bytes = text.as_bytes();
    let alone = |i: usize| {
        (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
            && bytes.get(i + 1).is_none_or(|b| !b.is_ascii_alphanumeric())
    };
    ANCHORS
        .iter()
        .any(|a| memchr::memmem::find(bytes, a).is_some())
        || memchr::memchr2_iter(b'x', b'X', bytes).any(alone)
}

/// Where `text` declares another way of writing cells (see the module documentation), as
/// the `[start, end)` of the words that declare it.
pub(super) fn declared_convention(text: &str) -> Option<[usize; 2]> {
    if !may_declare(text) {
        return None;
    }
    let mut last: [Option<Word>; BACK] = [None; BACK];
    for w in words(text) {
        last.rotate_right(1);
        last[0] = Some(w);
        let back = |n: usize| last.get(n).copied().flatten();
        let prev = back(1);
        let from = |n: usize| back(n).map_or(w.at, |b| b.at);
        // "1-indexed", "one based", "zero-indexed" is the prompt's own and no other way.
        if (w.is("indexed") || w.is("based")) && prev.is_some_and(|p| p.is_one()) {
            return Some([from(1), w.end()]);
        }
        // "from 1", "at one", "with 1" after a word of counting.
        if w.is_one()
            && prev.is_some_and(|p| p.is("from") || p.is("at") || p.is("with"))
            && (2..BACK).any(|n| back(n).is_some_and(|b| COUNTING.iter().any(|c| b.is(c))))
        {
            return Some([from(1), w.end()]);
        }
        // "(x, y)", "x is the column", "x as the column", "x = column".
        if w.is("y") && prev.is_some_and(|p| p.is("x")) && text[prev?.end()..w.at].trim() == "," {
            return Some([from(1), w.end()]);
        }
        if (w.is("column") || w.is("col"))
            && (1..4).any(|n| back(n).is_some_and(|b| b.is("x")))
            && (1..4).all(|n| back(n).is_none_or(|b| !b.is("row")))
        {
            let n = (1..4).find(|&n| back(n).is_some_and(|b| b.is("x")))?;
            return Some([from(n), w.end()]);
        }
        // "column first", "(col, row)", "column, row", "(c, r)".
        if w.is("first") && prev.is_some_and(|p| p.is("column") || p.is("col")) {
            return Some([from(1), w.end()]);
        }
        let col_then_row = (w.is("row") && prev.is_some_and(|p| p.is("column") || p.is("col")))
            || (w.is("r") && prev.is_some_and(|p| p.is("c")));
        if col_then_row && text[prev?.end()..w.at].trim() == "," {
            return Some([from(1), w.end()]);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Option<&str> {
        declared_convention(text).map(|[s, e]| &text[s..e])
    }

    #[test]
    fn counting_from_one_is_declared_in_many_words() {
        assert_eq!(found("Using 1-indexed cells: (2, 1)."), Some("1-indexed"));
        assert_eq!(found("rows are one based here"), Some("one based"));
        assert_eq!(
            found("Counting rows and columns from 1, I go to (1, 2)."),
            Some("from 1")
        );
        assert_eq!(found("numbered starting at one"), Some("at one"));
        assert_eq!(
            found("I move from 1 cell to the next."),
            None,
            "no counting word"
        );
        assert_eq!(found("zero-indexed, as asked"), None, "the prompt's own");
    }

    #[test]
    fn the_column_first_is_declared_in_many_words() {
        assert_eq!(found("Coordinates are (x, y) here."), Some("x, y"));
        assert_eq!(found("with x as the column"), Some("x as the column"));
        assert_eq!(found("x = column, y = row"), Some("x = column"));
        assert_eq!(found("I write (col, row)."), Some("col, row"));
        assert_eq!(found("Column first: (1, 0)"), Some("Column first"));
        assert_eq!(found("as (c, r) pairs"), Some("c, r"));
        assert_eq!(
            found("Move: (row, col) = (0, 1)"),
            None,
            "the prompt's order"
        );
        assert_eq!(found("the 5x5 column"), None, "an x inside a size is no x");
    }
}
