//! A reply made ready for reading, once, for every reader (moves, shapes, mazes): the
//! reasoning set apart from the answer, markup dropped, and punctuation written in its
//! full-width forms read as its ASCII form. Every byte of the text read keeps where it came
//! from in the reply, so a reading can point at the span it read.
//!
//! - **Reasoning** (docs/DECISIONS.md, fifth round): text inside `<think>...</think>` is the
//!   model's reasoning, and the answer is what follows the last closing tag. Qwen3's chat
//!   template opens the block in the prompt, so a reply may hold only the closing tag: what
//!   comes before it is reasoning too. A reply whose last reasoning block is never closed
//!   was cut off while reasoning: it has given no answer ([`Plain::cut_in_reasoning`]).
//!   `<thinking>` and `<reasoning>` read as `<think>` does.
//! - **Markup**: `**`, `__` and backquotes are dropped (`**Move:**` reads as `Move:`).
//! - **Full-width forms** (U+FF01 to U+FF5E, as Chinese and Japanese text writes brackets,
//!   commas, colons and digits) read as the ASCII character they stand for, the ideographic
//!   space as a space, the ideographic comma `、` as a comma, the ideographic full stop `。`
//!   as a full stop, and the lenticular brackets `【】` as square brackets.

/// The tags that open and close a reasoning block, in lower case.
const REASONING_TAGS: [(&str, &str); 3] = [
    ("<think>", "</think>"),
    ("<thinking>", "</thinking>"),
    ("<reasoning>", "</reasoning>"),
];

/// How a reply's reasoning stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reasoning {
    /// No reasoning block.
    None,
    /// A closed reasoning block, `[start, end)` in the reply (tags included); the answer
    /// is what follows it.
    Closed([usize; 2]),
    /// A reasoning block opened at this byte of the reply and never closed: the reply was
    /// cut off while reasoning and gives no answer.
    Unclosed(usize),
}

/// The text a reader reads: the reply's answer, markup dropped, full-width forms read as
/// ASCII, each byte knowing where it stands in the reply.
#[derive(Clone, Debug)]
pub struct Plain {
    /// The text read.
    pub text: String,
    /// For each byte of `text`, the offset in the reply of the character it came from, and
    /// just past it; `None` when the text is the reply itself (nothing set apart, mapped or
    /// dropped), so a byte stands where it stands.
    map: Option<(Vec<usize>, Vec<usize>)>,
    /// The reply's length.
    len: usize,
    /// The reasoning, if any.
    pub reasoning: Reasoning,
}

/// Whether the character is one that [`ascii_form`] changes.
fn mapped(ch: char) -> bool {
    ascii_form(ch) != ch
}

/// The markup the readers drop, in the order they drop it.
const MARKUP: [&str; 3] = ["**", "__", "`"];

impl Plain {
    /// Reads `reply` once (see the module documentation).
    pub fn of(reply: &str) -> Plain {
        let mut plain = Plain::answer_of(reply);
        for pattern in MARKUP {
            plain.remove(pattern);
        }
        plain
    }

    /// The text alone of [`Plain::of`] (no places kept): what most readers need, made
    /// without the cost of keeping each byte's place.
    pub fn text_of(reply: &str) -> String {
        let (_, [a, b]) = answer_region(reply);
        let region = &reply[a..b];
        let mut text: String = if region.chars().any(mapped) {
            region.chars().map(ascii_form).collect()
        } else {
            region.to_string()
        };
        for pattern in MARKUP {
            if text.contains(pattern) {
                text = text.replace(pattern, "");
            }
        }
        text
    }

    /// The reply's answer with full-width forms read as ASCII, markup kept (the maze
    /// reader drops markup itself and says so).
    pub fn answer_of(reply: &str) -> Plain {
        let (reasoning, [a, b]) = answer_region(reply);
        let region = &reply[a..b];
        if a == 0 && b == reply.len() && !region.chars().any(mapped) {
            return Plain {
                text: reply.to_string(),
                map: None,
                len: reply.len(),
                reasoning,
            };
        }
        let mut text = String::with_capacity(b - a);
        let mut from = Vec::with_capacity(b - a);
        let mut to = Vec::with_capacity(b - a);
        for (i, ch) in region.char_indices() {
            let at = a + i;
            let start = text.len();
            text.push(ascii_form(ch));
            for _ in start..text.len() {
                from.push(at);
                to.push(at + ch.len_utf8());
            }
        }
        Plain {
            text,
            map: Some((from, to)),
            len: reply.len(),
            reasoning,
        }
    }

    /// The places of the text's bytes, made explicit.
    fn places(&mut self) -> &mut (Vec<usize>, Vec<usize>) {
        let n = self.text.len();
        let text = &self.text;
        self.map.get_or_insert_with(|| {
            let mut from = Vec::with_capacity(n);
            let mut to = Vec::with_capacity(n);
            for (i, ch) in text.char_indices() {
                for _ in 0..ch.len_utf8() {
                    from.push(i);
                    to.push(i + ch.len_utf8());
                }
            }
            (from, to)
        })
    }

    /// Drops every occurrence of `pattern`, left to right.
    fn remove(&mut self, pattern: &str) {
        if !self.text.contains(pattern) {
            return;
        }
        let bytes = self.text.as_bytes();
        let mut keep = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for (found, _) in self.text.match_indices(pattern) {
            keep.extend(at..found);
            at = found + pattern.len();
        }
        keep.extend(at..bytes.len());
        let kept: Vec<u8> = keep.iter().map(|&k| bytes[k]).collect();
        // Whole patterns of ASCII bytes were removed, so the rest is still UTF-8.
        let text = String::from_utf8(kept).unwrap_or_default();
        let (from, to) = self.places();
        let from: Vec<usize> = keep.iter().map(|&k| from[k]).collect();
        let to: Vec<usize> = keep.iter().map(|&k| to[k]).collect();
        self.text = text;
        self.map = Some((from, to));
    }

    /// Where the range `[start, end)` of [`Plain::text`] stands in the reply.
    pub fn span(&self, start: usize, end: usize) -> [usize; 2] {
        let end = end.max(start);
        let Some((from, to)) = &self.map else {
            let s = start.min(self.len);
            return [s, end.min(self.len).max(s)];
        };
        let first = from.get(start).copied().unwrap_or_else(|| {
            // Past the end: just past the last character read, or the reply's end.
            to.last().copied().unwrap_or(self.len)
        });
        if end == start {
            return [first, first];
        }
        let last = to
            .get(end - 1)
            .copied()
            .unwrap_or_else(|| to.last().copied().unwrap_or(self.len));
        [first, last.max(first)]
    }

    /// Whether the reply was cut off inside a reasoning block, before any answer.
    pub fn cut_in_reasoning(&self) -> bool {
        matches!(self.reasoning, Reasoning::Unclosed(_)) && self.text.trim().is_empty()
    }
}

/// Whether `reply` was cut off inside a reasoning block before any answer
/// ([`Plain::cut_in_reasoning`], without reading the reply whole).
pub fn cut_in_reasoning(reply: &str) -> bool {
    match answer_region(reply) {
        (Reasoning::Unclosed(_), [a, b]) => reply[a..b].trim().is_empty(),
        _ => false,
    }
}

/// The reasoning of a reply and the range of the reply that holds its answer.
fn answer_region(reply: &str) -> (Reasoning, [usize; 2]) {
    // Every tag ends in `k>` or `g>`, in any case: most replies hold neither.
    let tagged = reply.contains('<')
        && ["k>", "K>", "g>", "G>"]
            .iter()
            .any(|end| reply.contains(end));
    if !tagged {
        return (Reasoning::None, [0, reply.len()]);
    }
    let lower = reply.to_ascii_lowercase();
    let last_close = REASONING_TAGS
        .iter()
        .filter_map(|(_, close)| lower.rfind(close).map(|i| (i, i + close.len())))
        .max();
    let from = last_close.map_or(0, |(_, end)| end);
    let open_after = REASONING_TAGS
        .iter()
        .filter_map(|(open, _)| lower[from..].find(open).map(|i| from + i))
        .min();
    let reasoning = match last_close {
        // A closing tag with or without its opening one: all before it is reasoning.
        Some((_, end)) => Reasoning::Closed([
            REASONING_TAGS
                .iter()
                .filter_map(|(open, _)| lower[..end].find(open))
                .min()
                .unwrap_or(0),
            end,
        ]),
        None => Reasoning::None,
    };
    match open_after {
        // An opening tag after the last closing one: cut off while reasoning, unless an
        // answer stands before it.
        Some(open) => (Reasoning::Unclosed(open), [from, open]),
        None => (reasoning, [from, reply.len()]),
    }
}

/// The ASCII character a full-width form stands for (see the module documentation), or
/// the character itself.
pub fn ascii_form(ch: char) -> char {
    match ch {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(ch as u32 - 0xFEE0).unwrap_or(ch),
        '\u{3000}' => ' ',
        '\u{3001}' => ',',
        '\u{3002}' => '.',
        '\u{3010}' => '[',
        '\u{3011}' => ']',
        _ => ch,
    }
}

/// The reply's reasoning and its answer as written (markup kept): `(reasoning, answer)`,
/// the reasoning `None` when the reply holds no reasoning block. A record keeps the two
/// apart.
pub fn split_reasoning(reply: &str) -> (Option<&str>, &str) {
    let (reasoning, [a, b]) = answer_region(reply);
    match reasoning {
        Reasoning::None => (None, reply),
        Reasoning::Closed([s, e]) => (Some(strip_tags(&reply[s..e])), reply[a..b].trim()),
        Reasoning::Unclosed(open) => (Some(strip_tags(&reply[open..])), reply[a..b].trim()),
    }
}

/// A reasoning block without its tags.
fn strip_tags(block: &str) -> &str {
    let mut t = block.trim();
    for (open, close) in REASONING_TAGS {
        if t.len() >= open.len() && t[..open.len()].eq_ignore_ascii_case(open) {
            t = &t[open.len()..];
        }
        if t.len() >= close.len() && t[t.len() - close.len()..].eq_ignore_ascii_case(close) {
            t = &t[..t.len() - close.len()];
        }
    }
    t.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_forms_read_as_ascii_and_keep_their_place() {
        let reply = "下一步：（０，１）。";
        let p = Plain::of(reply);
        assert_eq!(p.text, "下一步:(0,1).");
        let at = p.text.find('(').expect("a bracket");
        let [s, e] = p.span(at, at + 5);
        assert_eq!(&reply[s..e], "（０，１）");
    }

    #[test]
    fn the_answer_is_what_follows_the_reasoning() {
        let p = Plain::of("<think>maybe (1, 0)?</think>\nMove: (0, 1)");
        assert_eq!(p.text.trim(), "Move: (0, 1)");
        assert!(matches!(p.reasoning, Reasoning::Closed([0, 28])));
        // Only the closing tag, as Qwen3's template opens the block in the prompt.
        let p = Plain::of("I weigh (1, 0) and (0, 1).</think>(0, 1)");
        assert_eq!(p.text, "(0, 1)");
        // Cut off while reasoning: no answer.
        let p = Plain::of("<think>First (1, 0), then");
        assert!(p.cut_in_reasoning());
        assert!(!Plain::of("<think>a</think> (0, 1)").cut_in_reasoning());
        // Case and the other spellings of the tag.
        assert_eq!(
            Plain::of("<Thinking>x</Thinking> spiral").text.trim(),
            "spiral"
        );
    }

    #[test]
    fn a_record_keeps_the_reasoning_apart_from_the_answer() {
        assert_eq!(
            split_reasoning("<think> weigh </think>\n\nMove: (0, 1)"),
            (Some("weigh"), "Move: (0, 1)")
        );
        assert_eq!(
            split_reasoning("weigh</think>Move: (0, 1)"),
            (Some("weigh"), "Move: (0, 1)")
        );
        assert_eq!(split_reasoning("Move: (0, 1)"), (None, "Move: (0, 1)"));
        assert_eq!(split_reasoning("<think>still"), (Some("still"), ""));
    }
}
