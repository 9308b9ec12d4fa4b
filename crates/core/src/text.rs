//! Small text scanners shared by the parsers and verifiers: answer-template placeholders (`(row, col)`), models' special tokens
//! (`<end_of_turn>`, `</s>`), markdown stripping, whole-word search, and the one CSV field
//! rule every CSV the project writes uses ([`csv_field`]). Hand-written (no regex engine) to keep
//! the browser build small; every function is total and never panics on any input.

/// A name that is none of the ones a parser knows (a shape, an encoding, a protocol, a
/// player kind, an endpoint preset, a scoring), with what it is and the choices: `unknown
/// shape 'hexagon': choose one of square, cross, spiral, triangle, C, Z`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What was named (`shape`, `encoding`, ...).
    pub what: &'static str,
    /// The name given, trimmed.
    pub given: String,
    /// The choices, as a sentence's end (`matrix or coord_list`).
    pub choices: String,
}

impl UnknownName {
    /// `given` is not a `what`; `choices` are the names it could be.
    pub fn new(what: &'static str, given: &str, choices: impl Into<String>) -> UnknownName {
        UnknownName {
            what,
            given: given.trim().to_string(),
            choices: choices.into(),
        }
    }
}

impl std::fmt::Display for UnknownName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown {} '{}': choose {}",
            self.what, self.given, self.choices
        )
    }
}

impl std::error::Error for UnknownName {}

impl From<UnknownName> for String {
    fn from(e: UnknownName) -> String {
        e.to_string()
    }
}

/// Words that stand for a row or a column in a written template (`(row, col)`, `(r, c)`,
/// `(x, y)`, `(<row>, <col>)`, `[row_index, col_index]`), compared with `_`, `<`, `>`,
/// `{`, `}` and spaces removed and case ignored.
const PLACEHOLDER_WORDS: [&str; 21] = [
    "row",
    "col",
    "column",
    "r",
    "c",
    "x",
    "y",
    "i",
    "j",
    "rowindex",
    "colindex",
    "columnindex",
    "rowidx",
    "colidx",
    "rownumber",
    "colnumber",
    "columnnumber",
    "rownum",
    "colnum",
    "rowno",
    "colno",
];

/// Where `text` writes a cell as a template rather than a coordinate: a bracketed pair of
/// placeholder words such as `(row, col)`, `(r, c)`, `(x, y)`, `(<row>, <col>)` or
/// `[row, column]` (the form a prompt asks for, echoed back). Spans are `[start, end)`.
pub fn placeholders(text: &str) -> Vec<[usize; 2]> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (i, &open) in b.iter().enumerate() {
        let close = match open {
            b'(' => b')',
            b'[' => b']',
            _ => continue,
        };
        // A placeholder is short: look no further than 40 bytes for its end.
        let end = (i + 1..b.len().min(i + 41)).find(|&k| b[k] == close || b[k] == b'\n');
        let Some(end) = end.filter(|&k| b[k] == close) else {
            continue;
        };
        let inner = &text[i + 1..end];
        let mut parts = inner.split([',', ';']);
        let (Some(first), Some(second), None) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let word = |s: &str| {
            let w: String = s
                .chars()
                .filter(|c| !matches!(c, '_' | '<' | '>' | '{' | '}' | ' ' | '\t'))
                .collect::<String>()
                .to_ascii_lowercase();
            PLACEHOLDER_WORDS.contains(&w.as_str())
        };
        if word(first) && word(second) {
            out.push([i, end + 1]);
        }
    }
    out
}

/// Where `text` holds a model's special tokens, which carry no content of the reply: chat
/// and stop markers such as `<end_of_turn>`, `</s>`, `<eos>`, `<|im_end|>`, `<|eot_id|>`,
/// `<|endoftext|>`, `<｜end▁of▁sentence｜>`, `[INST]` and `[/INST]`. Any tag written
/// `<name>` or `</name>` (letters, digits, `_` and `-`, up to 24 of them, starting with a
/// letter) counts, so `<start_of_turn>` and `<think>` do too; `<- changed` does not (a space
/// follows the `<`). Spans are `[start, end)`, in order, never overlapping.
pub fn special_tokens(text: &str) -> Vec<[usize; 2]> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let found = match b[i] {
            b'<' => angle_token(text, i),
            b'[' => ["[INST]", "[/INST]"]
                .iter()
                .find(|t| {
                    b[i..].len() >= t.len() && b[i..i + t.len()].eq_ignore_ascii_case(t.as_bytes())
                })
                .map(|t| i + t.len()),
            _ => None,
        };
        match found {
            Some(end) => {
                out.push([i, end]);
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// `text` without its [`special_tokens`], and the tokens removed, in order.
pub fn drop_special_tokens(text: &str) -> (String, Vec<String>) {
    let tokens = special_tokens(text);
    let mut kept = String::with_capacity(text.len());
    let mut dropped = Vec::with_capacity(tokens.len());
    let mut from = 0;
    for [a, b] in tokens {
        kept.push_str(&text[from..a]);
        dropped.push(text[a..b].to_string());
        from = b;
    }
    kept.push_str(&text[from..]);
    (kept, dropped)
}

/// The end of a special token starting with the `<` at `i`, if one does.
fn angle_token(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i + 1..];
    // `<|...|>` and the full-width `<｜...｜>`: anything but blanks up to the closing bar.
    for bar in ["|", "\u{FF5C}"] {
        if let Some(inner) = rest.strip_prefix(bar) {
            let close = format!("{bar}>");
            // Look no further than a token's length for the closing bar.
            let limit = inner.char_indices().nth(52).map_or(inner.len(), |(k, _)| k);
            let end = inner[..limit].find(&close)?;
            let body = &inner[..end];
            return (!body.is_empty() && !body.contains(char::is_whitespace))
                .then_some(i + 1 + bar.len() + end + close.len());
        }
    }
    // `<<SYS>>` / `<</SYS>>`.
    for t in ["<<SYS>>", "<</SYS>>"] {
        if text[i..].starts_with(t) {
            return Some(i + t.len());
        }
    }
    let name = rest.strip_prefix('/').unwrap_or(rest);
    let slash = rest.len() - name.len();
    let len = name
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        .count();
    let starts_with_letter = name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
    (starts_with_letter && len <= 24 && name.as_bytes().get(len) == Some(&b'>'))
        .then_some(i + 1 + slash + len + 1)
}

/// A line with markdown decoration removed: leading list markers and quotes, `**`, `__`
/// and backticks; trimmed.
pub fn strip_markup(line: &str) -> String {
    // A line with no emphasis or code marks (most) is not copied three times over.
    let cleaned: std::borrow::Cow<'_, str> =
        if line.bytes().any(|b| matches!(b, b'*' | b'_' | b'`')) {
            line.replace("**", "")
                .replace("__", "")
                .replace('`', "")
                .into()
        } else {
            line.into()
        };
    let mut s = cleaned.trim();
    loop {
        let t = s.trim_start_matches(['-', '*', '>', '#', '+']).trim_start();
        let digits = t.chars().take_while(char::is_ascii_digit).count();
        let t = if digits > 0 && t[digits..].starts_with(". ") {
            &t[digits + 2..]
        } else {
            t
        };
        if t.len() == s.len() {
            return s.to_string();
        }
        s = t.trim_start();
    }
}

/// Whether `c` can be part of a word (for whole-word matching). ASCII letters, digits and
/// `_` are; beyond ASCII every character is, except general and CJK punctuation (dashes,
/// curly quotes, ellipses), which ends a word. (This avoids Unicode letter tables, which
/// would weigh on the browser build, and errs on the side of "inside a word".)
pub fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || c == '_'
        || (!c.is_ascii()
            && !matches!(c, '\u{00A0}' | '\u{2000}'..='\u{206F}' | '\u{3000}'..='\u{303F}'))
}

/// Whether `c` is a CJK ideograph or kana, which texts write without spaces between words.
pub fn is_ideograph(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}')
}

/// Whether `c` is a Hangul syllable.
fn is_hangul(c: char) -> bool {
    matches!(c, '\u{AC00}'..='\u{D7A3}')
}

/// Byte offsets of every whole-word occurrence of `needle` in `hay`. With `ignore_case`,
/// ASCII case is ignored. A needle that itself ends in a hyphenated part (`C-shape`) must
/// still stand alone as a whole.
pub fn find_words(hay: &str, needle: &str, ignore_case: bool) -> Vec<usize> {
    let mut out = Vec::new();
    if needle.is_empty() || needle.len() > hay.len() || (!needle.is_ascii() && hay.is_ascii()) {
        return out;
    }
    let hb = hay.as_bytes();
    let nb = needle.as_bytes();
    let last = hb.len() - nb.len();
    let (lower, upper) = (nb[0].to_ascii_lowercase(), nb[0].to_ascii_uppercase());
    let mut from = 0;
    while from <= last {
        // The windows that start with the needle's first byte (either case), found by
        // memchr's SIMD search: most of a reply is skipped without a comparison.
        let found = if ignore_case && lower != upper {
            memchr::memchr2(lower, upper, &hb[from..=last])
        } else {
            memchr::memchr(nb[0], &hb[from..=last])
        };
        let Some(offset) = found else {
            break;
        };
        let start = from + offset;
        from = start + 1;
        if !hay.is_char_boundary(start) || !hay.is_char_boundary(start + nb.len()) {
            continue;
        }
        let window = &hb[start..start + nb.len()];
        let same = if ignore_case {
            window.eq_ignore_ascii_case(nb)
        } else {
            window == nb
        };
        if !same {
            continue;
        }
        let before = hay[..start].chars().next_back();
        let after = hay[start + nb.len()..].chars().next();
        // Chinese and Japanese write words without spaces: an ideograph or kana beside the
        // needle is no part of its word (`是C形`, `一个螺旋`).
        let joins = |c: char| is_word_char(c) && !is_ideograph(c);
        // Korean writes its particles and endings onto the word (`정사각형입니다`): Hangul
        // after a Hangul needle is no new word (before it, it is: `직사각형`).
        let suffix =
            needle.chars().next_back().is_some_and(is_hangul) && after.is_some_and(is_hangul);
        if before.is_some_and(joins) || (after.is_some_and(joins) && !suffix) {
            continue;
        }
        out.push(start);
    }
    out
}

/// Reads a plain non-negative decimal (`8`, `1.5`, `.25`), with no exponent or sign; `None`
/// for anything else. Written out rather than `str::parse::<f64>` so the browser build
/// carries no general float parser.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole
        .bytes()
        .chain(frac.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // Up to 15 digits the number is an exact integer over an exact power of ten, and one
    // division rounds it correctly: "0.7" reads as the double nearest 0.7, as `parse` does.
    let digits = whole.len() + frac.len();
    if digits <= 15 {
        let n = whole
            .bytes()
            .chain(frac.bytes())
            .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
        return Some(n as f64 / 10f64.powi(frac.len() as i32));
    }
    let mut value = 0.0;
    for b in whole.bytes() {
        value = value * 10.0 + f64::from(b - b'0');
    }
    let mut scale = 0.1;
    for b in frac.bytes() {
        value += f64::from(b - b'0') * scale;
        scale /= 10.0;
    }
    Some(value)
}

/// `value` with at most `places` decimals and no trailing zeros (`0.7`, `2`, `0.25`), without
/// float formatting (see [`parse_decimal`]).
pub fn format_decimal(value: f64, places: u32) -> String {
    let sign = if value < 0.0 { "-" } else { "" };
    let scale = 10u64.pow(places);
    let n = (value.abs() * scale as f64).round() as u64;
    let (whole, mut frac) = (n / scale, n % scale);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let mut digits = places as usize;
    while frac % 10 == 0 {
        frac /= 10;
        digits -= 1;
    }
    format!("{sign}{whole}.{frac:0digits$}")
}

/// A float written digit for digit as `format!("{:.N}", x)` writes it (the exact binary value
/// rounded half to even, the sign of a negative value kept, `+` honoured), without the standard
/// library's float formatting, which costs the browser build about 6 KB gzipped. Takes a
/// precision of at most 17 places and no width: `format!("{:.1}%", Fixed(x))`. With `#`
/// (`{:#.1}`) trailing zeros are dropped, and the point with them: `960`, `12.5`.
#[derive(Clone, Copy, Debug)]
pub struct Fixed(pub f64);

impl std::fmt::Display for Fixed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let places = f.precision().unwrap_or(0).min(17);
        let v = self.0;
        if v.is_nan() {
            return f.write_str("NaN");
        }
        let sign = if v.is_sign_negative() {
            "-"
        } else if f.sign_plus() {
            "+"
        } else {
            ""
        };
        if v.is_infinite() {
            return write!(f, "{sign}inf");
        }
        let bits = v.abs().to_bits();
        let (exp, frac) = ((bits >> 52) as i32, bits & ((1u64 << 52) - 1));
        // v = m * 2^e exactly.
        let (m, e) = if exp == 0 {
            (frac, -1074)
        } else {
            (frac | 1 << 52, exp - 1075)
        };
        let zeros = "0".repeat(places);
        let point = if places > 0 { "." } else { "" };
        if e >= 0 {
            // A whole number: its decimal digits, least significant first, doubled e times.
            let mut digits: Vec<u8> = m.to_string().bytes().rev().map(|b| b - b'0').collect();
            for _ in 0..e {
                let mut carry = 0;
                for d in digits.iter_mut() {
                    let x = *d * 2 + carry;
                    *d = x % 10;
                    carry = x / 10;
                }
                if carry > 0 {
                    digits.push(carry);
                }
            }
            let whole: String = digits.iter().rev().map(|d| char::from(b'0' + d)).collect();
            if f.alternate() {
                return write!(f, "{sign}{whole}");
            }
            return write!(f, "{sign}{whole}{point}{zeros}");
        }
        let k = (-e) as u32;
        let scale = 10u128.pow(places as u32);
        // m * 10^places < 2^110 fits; below 2^-67 the value rounds to zero at 17 places.
        let n = if k >= 120 {
            0
        } else {
            let t = u128::from(m) * scale;
            let (q, r, half) = (t >> k, t & ((1u128 << k) - 1), 1u128 << (k - 1));
            q + u128::from(r > half || (r == half && q % 2 == 1))
        };
        let (whole, mut frac) = (n / scale, n % scale);
        let mut places = places;
        if f.alternate() {
            // `{:#.N}`: no trailing zeros, and no point for a whole number.
            while places > 0 && frac % 10 == 0 {
                frac /= 10;
                places -= 1;
            }
        }
        if places == 0 {
            write!(f, "{sign}{whole}")
        } else {
            write!(f, "{sign}{whole}.{frac:0places$}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts a list of spans of `t` covers.
    fn texts(t: &str, spans: Vec<[usize; 2]>) -> Vec<String> {
        spans.iter().map(|&[s, e]| t[s..e].to_string()).collect()
    }

    #[test]
    fn answer_templates_are_found_and_coordinates_are_not_templates() {
        let spans = |t: &str| texts(t, placeholders(t));
        assert_eq!(spans("in the form: Move: (row, col)"), vec!["(row, col)"]);
        for t in [
            "(r, c)",
            "(x, y)",
            "[row, column]",
            "(<row>, <col>)",
            "(row_index, col_index)",
            "(column, row)",
            "(Row,Col)",
        ] {
            assert_eq!(spans(t), vec![t], "{t}");
        }
        for t in [
            "(2, 3)",
            "(row 2, col 3)",
            "(up, down)",
            "(row, col, x)",
            "(a, b)",
            "(row)",
            "(row, col",
        ] {
            assert!(spans(t).is_empty(), "{t}");
        }
    }

    #[test]
    fn special_tokens_are_found_and_comments_are_not_tokens() {
        let spans = |t: &str| texts(t, special_tokens(t));
        for tok in [
            "<end_of_turn>",
            "</s>",
            "<eos>",
            "<|im_end|>",
            "[/INST]",
            "[inst]",
            "<|eot_id|>",
            "<|endoftext|>",
            "<｜end▁of▁sentence｜>",
            "<start_of_turn>",
            "</think>",
            "<</SYS>>",
        ] {
            assert_eq!(spans(&format!("0 0 G{tok} ")), vec![tok], "{tok}");
        }
        for t in [
            "0 1 <- changed",
            "a < b > c",
            "<|no end",
            "< s>",
            "<1>",
            "<| |>",
            "[INST",
        ] {
            assert!(spans(t).is_empty(), "{t}: {:?}", spans(t));
        }
        assert_eq!(spans("</s></s>"), vec!["</s>", "</s>"]);
    }

    #[test]
    fn markup_is_stripped_from_key_lines() {
        assert_eq!(strip_markup("**Walls:** (0,0)"), "Walls: (0,0)");
        assert_eq!(strip_markup("  - Goal: (3,3)"), "Goal: (3,3)");
        assert_eq!(strip_markup("2. Empty: (1,1)"), "Empty: (1,1)");
        assert_eq!(
            strip_markup("> `Player position: (0,1)`"),
            "Player position: (0,1)"
        );
    }

    #[test]
    fn the_word_search_finds_what_a_window_by_window_search_finds() {
        // The search before memchr: every window compared, the same whole-word rule.
        fn windows(hay: &str, needle: &str, ignore_case: bool) -> Vec<usize> {
            let (hb, nb) = (hay.as_bytes(), needle.as_bytes());
            let joins = |c: char| is_word_char(c) && !is_ideograph(c);
            (0..=hb.len().saturating_sub(nb.len()))
                .filter(|&i| i + nb.len() <= hb.len())
                .filter(|&i| hay.is_char_boundary(i) && hay.is_char_boundary(i + nb.len()))
                .filter(|&i| {
                    let w = &hb[i..i + nb.len()];
                    if ignore_case {
                        w.eq_ignore_ascii_case(nb)
                    } else {
                        w == nb
                    }
                })
                .filter(|&i| {
                    !hay[..i].chars().next_back().is_some_and(joins)
                        && !hay[i + nb.len()..].chars().next().is_some_and(joins)
                })
                .collect()
        }
        let parts = [
            "C", "c", "shape", "Shape", " ", "-", "形", "é", "(1, 2)", "square", "SQUARE", ".",
            "\n",
        ];
        let mut seed = 7u64;
        for _ in 0..3000 {
            let mut hay = String::new();
            for _ in 0..(seed % 9) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                hay.push_str(parts[(seed >> 33) as usize % parts.len()]);
            }
            for needle in ["C", "c", "shape", "square", "形", "é", "(1, 2)"] {
                for ignore_case in [false, true] {
                    assert_eq!(
                        find_words(&hay, needle, ignore_case),
                        if needle.len() > hay.len() || (!needle.is_ascii() && hay.is_ascii()) {
                            Vec::new()
                        } else {
                            windows(&hay, needle, ignore_case)
                        },
                        "{hay:?} {needle:?} {ignore_case}"
                    );
                }
            }
        }
    }

    #[test]
    fn whole_words_never_match_inside_other_words() {
        assert_eq!(find_words("a C shape", "C", false), vec![2]);
        assert!(find_words("Circle", "C", false).is_empty());
        assert!(find_words("complex", "c", true).is_empty());
        assert_eq!(
            find_words("C-shape", "C", false),
            vec![0],
            "hyphen ends a word"
        );
        assert_eq!(find_words("a Square.", "square", true), vec![2]);
        assert!(find_words("squares", "square", true).is_empty());
        assert_eq!(find_words("ünicode ß", "ß", true).len(), 1);
        assert_eq!(
            find_words("a “C” shape", "C", false).len(),
            1,
            "curly quotes end words"
        );
        assert!(
            find_words("éC", "C", false).is_empty(),
            "accented letters are word characters"
        );
    }

    #[test]
    fn decimals_read_and_write_without_the_float_machinery() {
        assert_eq!(parse_decimal("8"), Some(8.0));
        assert_eq!(parse_decimal(" 1.5 "), Some(1.5));
        assert_eq!(parse_decimal(".25"), Some(0.25));
        // As `str::parse` reads them: a form's 0.7 stays 0.7, not 0.7000000000000001.
        for text in [
            "0.7",
            "0.9",
            "0.3",
            "1.1",
            "123.456",
            "0.000001",
            "99999.99999",
            "2.675",
        ] {
            assert_eq!(parse_decimal(text), text.parse().ok(), "{text}");
        }
        for bad in ["", ".", "-1", "1e3", "1.2.3", "abc", "NaN"] {
            assert_eq!(parse_decimal(bad), None, "{bad}");
        }
        assert_eq!(format_decimal(0.7, 3), "0.7");
        assert_eq!(format_decimal(2.0, 2), "2");
        assert_eq!(format_decimal(0.25, 2), "0.25");
        assert_eq!(format_decimal(1.05, 1), "1.1");
        assert_eq!(format_decimal(-0.5, 2), "-0.5");
        assert_eq!(format_decimal(0.1 + 0.2, 3), "0.3");
    }
    #[test]
    fn fixed_writes_what_the_standard_formatting_writes() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.375,
            -0.04,
            0.05,
            0.15,
            0.25,
            0.35,
            1e-300,
            5e-324,
            1e300,
            1.7976931348623157e308,
            123456.789,
            99.95,
            99.949999,
            0.001,
            2f64.powi(80),
        ];
        for n in 1..60u32 {
            for k in 0..=n {
                values.push(f64::from(k) / f64::from(n));
                values.push(100.0 * f64::from(k) / f64::from(n));
                values.push(-3.7 * f64::from(k) / f64::from(n));
            }
        }
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Any mantissa and sign, with exponents from 2^-123 to 2^126 (the extremes are above).
            let v = f64::from_bits((x & !(0x7ff << 52)) | ((900 + (x >> 52) % 250) << 52));
            values.push(v);
            values.push(v.abs().log2() * 37.0);
        }
        for v in values {
            for p in 0..=7 {
                assert_eq!(
                    format!("{:.p$}", Fixed(v)),
                    format!("{v:.p$}"),
                    "{v:e} at {p}"
                );
                assert_eq!(
                    format!("{:+.p$}", Fixed(v)),
                    format!("{v:+.p$}"),
                    "{v:e} at {p}"
                );
            }
        }
        for (v, text) in [
            (960.0, "960"),
            (12.5, "12.5"),
            (12.46, "12.5"),
            (-0.04, "-0"),
            (1e20, "100000000000000000000"),
        ] {
            assert_eq!(format!("{:#.1}", Fixed(v)), text);
        }
        assert_eq!(format!("{}", Fixed(f64::NAN)), "NaN");
        assert_eq!(format!("{:+.1}", Fixed(f64::INFINITY)), "+inf");
        assert_eq!(format!("{:.1}", Fixed(f64::NEG_INFINITY)), "-inf");
    }
}

/// One CSV field, by the one rule every CSV of the project follows (`trials.csv`, the
/// analysis tables, the study export): quoted as RFC 4180 asks when it holds a comma, a
/// quote, a line break, or leading or trailing space (quotes doubled); and text that a
/// spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
/// return) is defused with a leading `'`, unless the whole field is a number (`-0.25`
/// stays a number for R, pandas and spreadsheets alike).
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !is_number(s);
    let s = if formula {
        format!("'{s}")
    } else {
        s.to_string()
    };
    if s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ') {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// Whether `s` is a decimal number as CSV readers take one: an optional sign, digits with
/// at most one point, an optional exponent (`-12`, `+0.5`, `1e-3`).
fn is_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (mut digits, mut point) = (0, false);
    while i < b.len() {
        match b[i] {
            b'0'..=b'9' => digits += 1,
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && matches!(b[i], b'e' | b'E') {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod csv_tests {
    use super::csv_field;

    #[test]
    fn csv_fields_are_quoted_as_rfc_4180_asks() {
        assert_eq!(csv_field("plain"), "plain", "plain text as is");
        assert_eq!(csv_field(""), "", "empty stays empty");
        assert_eq!(csv_field("a,b"), "\"a,b\"", "a comma quotes");
        assert_eq!(
            csv_field("say \"hi\""),
            "\"say \"\"hi\"\"\"",
            "quotes doubled"
        );
        assert_eq!(
            csv_field("two\nlines"),
            "\"two\nlines\"",
            "a line break quotes"
        );
        assert_eq!(
            csv_field("cr\rlf"),
            "\"cr\rlf\"",
            "a carriage return quotes"
        );
        assert_eq!(csv_field(" pad"), "\" pad\"", "leading space quotes");
        assert_eq!(csv_field("pad "), "\"pad \"", "trailing space quotes");
    }

    #[test]
    fn formulas_are_defused_and_numbers_are_not() {
        assert_eq!(csv_field("=cmd()"), "'=cmd()");
        assert_eq!(csv_field("+1+cmd"), "'+1+cmd");
        assert_eq!(csv_field("-2+3"), "'-2+3");
        assert_eq!(csv_field("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(csv_field("\tx"), "'\tx");
        assert_eq!(
            csv_field("=HYPERLINK(\"x\",1)"),
            "\"'=HYPERLINK(\"\"x\"\",1)\""
        );
        for n in ["-0.25", "+3", "-12", "1e-3", "-1.5E+2", "0.5", "42"] {
            assert_eq!(csv_field(n), n, "{n} stays a number");
        }
        for not in ["-", "-.", "-1e", "-1-2", "--1"] {
            assert!(csv_field(not).starts_with('\''), "{not} is not a number");
        }
    }

    #[test]
    fn an_unknown_name_says_what_it_is_and_the_choices() {
        let e = crate::text::UnknownName::new("encoding", "  json ", "matrix or coord_list");
        assert_eq!(
            e.to_string(),
            "unknown encoding 'json': choose matrix or coord_list"
        );
        assert_eq!(String::from(e.clone()), e.to_string());
    }
}

#[cfg(test)]
pub(crate) mod names_test {
    /// Checks that every variant of `all` serializes as its `name` and reads back from it,
    /// and that an unknown name is refused in serde's words, naming every choice.
    pub(crate) fn check<T>(all: &[T], name: fn(&T) -> &'static str)
    where
        T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        for v in all {
            let json = serde_json::to_string(v).expect("serializes");
            assert_eq!(json, format!("\"{}\"", name(v)), "{v:?}");
            let back: T = serde_json::from_str(&json).expect("reads back");
            assert_eq!(&back, v);
        }
        let e = serde_json::from_str::<T>("\"no-such-name\"")
            .expect_err("refused")
            .to_string();
        assert!(
            e.starts_with("unknown variant `no-such-name`, expected "),
            "{e}"
        );
        for v in all {
            assert!(e.contains(&format!("`{}`", name(v))), "{e} names {v:?}");
        }
    }
}
