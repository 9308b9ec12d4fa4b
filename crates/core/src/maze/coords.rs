//! Coordinates as models write them in free text: `(2, 3)`, `[2,3]`, `row 2, column 3`.
//! Hand-written (no regex engine) to keep the browser build small; total on any input.

use super::grid::Pos;

/// A coordinate found in free text, with where it stands (byte offsets).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coord {
    /// The cell named.
    pub pos: Pos,
    /// Byte offset of the first character of the mention.
    pub start: usize,
    /// Byte offset just past the mention.
    pub end: usize,
}

/// Largest row or column number read (anything longer is not a coordinate of ours).
const MAX_COORD_DIGITS: usize = 4;

/// Every coordinate mentioned in `text`, in order. Understood forms: a pair of numbers in
/// any bracket, `(2, 3)`, `(2,3)`, `[2, 3]`, `{2, 3}`, `<2, 3>`, `(2; 3)`; the row and the
/// column named, `row 2, column 3`, `row 2 col 3`, `(row 2, col 3)`, `row=2, col=3`, `row 2
/// and column 3`, in the languages of [`ROW_WORDS`] and [`COLUMN_WORDS`] too (`fila 1,
/// columna 0`, `Zeile 1, Spalte 0`), and as keys of a structure whose markup stands between
/// them (`row: 1` and `col: 0` on lines of their own, `<row>1</row><col>0</col>`); in
/// short, `r2c3`, `r2 c3`, `R2 C3`, `r=2, c=3`; as attributes, `row="2" col="3"`; an index
/// into rows then columns, `maze[2][3]`; in Chinese, `第2行第3列`; a cell named with a
/// hyphen or comma, `cell 2-3`, `cell 2,3`; LaTeX's `\left( 2, \ 3\right)`. Full-width
/// brackets and commas read so once the reply is made plain ([`crate::reply::Plain`]).
pub fn coordinates(text: &str) -> Vec<Coord> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let found = match b[i] {
            b'(' | b'[' | b'{' | b'<' => bracketed(b, i),
            b'r' | b'R' => row_col(b, i).or_else(|| short_row_col(b, i)),
            b'c' | b'C' => named_cell(b, i),
            b'\\' => latex(b, i),
            0xE7 => ordinal_row_col(b, i),
            _ if starts_a_word(b, i) => row_col(b, i),
            _ => None,
        };
        match found {
            Some((pos, end)) => {
                out.push(Coord { pos, start: i, end });
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn number(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut j = i;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j == i || j - i > MAX_COORD_DIGITS {
        return None;
    }
    let n = std::str::from_utf8(&b[i..j]).ok()?.parse().ok()?;
    Some((n, j))
}

/// `(r, c)` or `[r, c]` starting at `i`, or the row/column form inside brackets.
fn bracketed(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    let close = match b[i] {
        b'(' => b')',
        b'[' => b']',
        b'{' => b'}',
        _ => b'>',
    };
    let j = skip_ws(b, i + 1);
    if let Some((pos, k)) = row_col(b, j) {
        let k = skip_ws(b, k);
        return (b.get(k) == Some(&close)).then_some((pos, k + 1));
    }
    let (r, j) = number(b, j)?;
    let j = skip_ws(b, j);
    if close == b']' && b.get(j) == Some(&b']') && b.get(j + 1) == Some(&b'[') {
        // An index into rows, then columns: `maze[2][3]`.
        let (c, k) = number(b, skip_ws(b, j + 2))?;
        let k = skip_ws(b, k);
        return (b.get(k) == Some(&b']')).then_some((Pos::new(r, c), k + 1));
    }
    if !matches!(b.get(j), Some(b',') | Some(b';')) {
        return None;
    }
    let (c, j) = number(b, skip_ws(b, j + 1))?;
    let j = skip_ws(b, j);
    (b.get(j) == Some(&close)).then_some((Pos::new(r, c), j + 1))
}

/// `\left( r, \ c\right)` starting at `i` (LaTeX spacing commands `\ `, `\,`, `\;`
/// between the numbers are allowed).
fn latex(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    let open = b"\\left(";
    let close = b"\\right)";
    if !b[i..].starts_with(open) {
        return None;
    }
    let skip = |mut j: usize| loop {
        j = skip_ws(b, j);
        match (b.get(j), b.get(j + 1)) {
            (Some(b'\\'), Some(b' ' | b',' | b';')) => j += 2,
            _ => return j,
        }
    };
    let (r, j) = number(b, skip(i + open.len()))?;
    let j = skip(j);
    if b.get(j) != Some(&b',') {
        return None;
    }
    let (c, j) = number(b, skip(j + 1))?;
    let j = skip(j);
    b[j..]
        .starts_with(close)
        .then_some((Pos::new(r, c), j + close.len()))
}

fn word_at(b: &[u8], i: usize, word: &str) -> Option<usize> {
    let w = word.as_bytes();
    let end = i + w.len();
    if end > b.len() || !b[i..end].eq_ignore_ascii_case(w) {
        return None;
    }
    let before_ok = i == 0 || !b[i - 1].is_ascii_alphanumeric();
    let after_ok = end == b.len() || !b[end].is_ascii_alphabetic();
    (before_ok && after_ok).then_some(end)
}

/// Words that name a row, in the languages models answer in most (English, Spanish,
/// Portuguese, French, Italian, German, Dutch), compared in any case.
const ROW_WORDS: [&str; 7] = ["row", "fila", "linha", "ligne", "riga", "zeile", "rij"];

/// Words that name a column, as [`ROW_WORDS`] (the short `col` and `spalte`'s like).
const COLUMN_WORDS: [&str; 8] = [
    "column", "col", "columna", "coluna", "colonne", "colonna", "spalte", "kolom",
];

/// Words that join the row to the column ("row 2 and column 3", "fila 2 y columna 3").
const JOINERS: [&str; 5] = ["and", "y", "e", "et", "und"];

/// Whether a word of [`ROW_WORDS`] could start at `i`: its first letter (in any case) with
/// no letter or digit right before it.
fn starts_a_word(b: &[u8], i: usize) -> bool {
    ROW_WORDS
        .iter()
        .any(|w| w.as_bytes()[0] == b[i].to_ascii_lowercase())
        && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
}

/// The end of the first of `words` that stands at `i` as a whole word.
fn one_of(b: &[u8], i: usize, words: &[&str]) -> Option<usize> {
    words.iter().find_map(|w| word_at(b, i, w))
}

/// `row 2, column 3` / `row 2 col 3` / `row: 2, col: 3` / `fila 2, columna 3` starting at
/// `i`; between the row's number and the column's word, only blanks, one comma or
/// semicolon, a joining word, or a structure's markup (a line break and its indent, tags:
/// `</row><col>`).
fn row_col(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    let j = one_of(b, i, &ROW_WORDS)?;
    let j = skip_sep(b, j);
    let (r, j) = number(b, j)?;
    // The value's closing quote, as in an attribute: `row="2" col="3"`.
    let j = if matches!(b.get(j), Some(b'"' | b'\'')) {
        j + 1
    } else {
        j
    };
    let mut j = skip_markup(b, j);
    if matches!(b.get(j), Some(b',') | Some(b';')) {
        j = skip_markup(b, j + 1);
    }
    if let Some(k) = one_of(b, j, &JOINERS) {
        j = skip_ws(b, k);
    }
    let j = one_of(b, j, &COLUMN_WORDS)?;
    let (c, j) = number(b, skip_sep(b, j))?;
    Some((Pos::new(r, c), j))
}

/// Past blanks and a structure's markup between a row's number and its column's key: at
/// most one line break (and the indent after it, as in YAML), and closing or opening tags
/// (`</row>`, `<col>`, as in XML), so that the column's key is next.
fn skip_markup(b: &[u8], i: usize) -> usize {
    let mut j = skip_ws(b, i);
    let mut breaks = 0;
    loop {
        match b.get(j) {
            Some(b'\n') if breaks == 0 => {
                breaks += 1;
                j = skip_ws(b, j + 1);
                // A list's marker opening the next line: `- Column: 3`, `* col: 3`, `• col 3`.
                for marker in ["- ", "* ", "\u{2022} "] {
                    if b[j..].starts_with(marker.as_bytes()) {
                        j = skip_ws(b, j + marker.len());
                    }
                }
            }
            Some(b'\r') => j += 1,
            Some(b'<') => {
                // A tag is `<`, an optional `/`, letters, `>`; the column's own opening
                // tag is skipped too, so its key stands next.
                let mut k = j + 1;
                if b.get(k) == Some(&b'/') {
                    k += 1;
                }
                let letters = k;
                while b.get(k).is_some_and(u8::is_ascii_alphabetic) {
                    k += 1;
                }
                if k == letters || b.get(k) != Some(&b'>') {
                    return j;
                }
                if b.get(j + 1) != Some(&b'/') {
                    // An opening tag: the key is its name.
                    return j + 1;
                }
                j = skip_ws(b, k + 1);
            }
            _ => return j,
        }
    }
}

/// `第2行第3列` (Chinese: "row 2, column 3", counted as the reply counts) starting at `i`,
/// with a comma, an enumeration comma or blanks allowed between the two.
fn ordinal_row_col(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    const NTH: &str = "第";
    let after = |j: usize, word: &str| {
        b[j..]
            .starts_with(word.as_bytes())
            .then_some(j + word.len())
    };
    let j = after(i, NTH)?;
    let (r, j) = number(b, skip_ws(b, j))?;
    let mut j = skip_ws(b, after(skip_ws(b, j), "行")?);
    for sep in [",", "\u{3001}", "\u{ff0c}"] {
        if let Some(k) = after(j, sep) {
            j = skip_ws(b, k);
        }
    }
    let j = after(j, NTH)?;
    let (c, j) = number(b, skip_ws(b, j))?;
    let j = after(skip_ws(b, j), "列")?;
    Some((Pos::new(r, c), j))
}

/// `r2c3`, `r2 c3`, `r=2, c=3`, `r: 2, c: 3` starting at `i`: a lone `r` (not inside a
/// word), its number, then a lone `c` and its number.
fn short_row_col(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    if i > 0 && b[i - 1].is_ascii_alphanumeric() {
        return None;
    }
    let j = skip_sep(b, i + 1);
    if !b.get(j).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (r, j) = number(b, j)?;
    let mut j = skip_ws(b, j);
    if matches!(b.get(j), Some(b',') | Some(b';')) {
        j = skip_ws(b, j + 1);
    }
    if !matches!(b.get(j), Some(b'c') | Some(b'C')) {
        return None;
    }
    let k = skip_sep(b, j + 1);
    if !b.get(k).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (c, k) = number(b, k)?;
    let after_ok = b.get(k).is_none_or(|x| !x.is_ascii_alphanumeric());
    after_ok.then_some((Pos::new(r, c), k))
}

/// `cell 2-3` or `cell 2,3` starting at `i`: the word `cell`, then two numbers joined by a
/// hyphen or a comma (no space before the joiner, so a list `cells 2, 3` is not a cell).
fn named_cell(b: &[u8], i: usize) -> Option<(Pos, usize)> {
    let j = word_at(b, i, "cell")?;
    let (r, j) = number(b, skip_ws(b, j))?;
    if !matches!(b.get(j), Some(b'-') | Some(b',')) {
        return None;
    }
    let (c, k) = number(b, skip_ws(b, j + 1))?;
    let after_ok = b.get(k).is_none_or(|x| !x.is_ascii_alphanumeric());
    after_ok.then_some((Pos::new(r, c), k))
}

fn skip_sep(b: &[u8], mut i: usize) -> usize {
    while i < b.len()
        && matches!(
            b[i],
            b' ' | b'\t' | b':' | b'=' | b'#' | b'>' | b'"' | b'\''
        )
    {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(t: &str) -> Vec<(usize, usize)> {
        coordinates(t)
            .iter()
            .map(|c| (c.pos.row, c.pos.col))
            .collect()
    }

    #[test]
    fn coordinates_are_read_in_the_forms_models_write() {
        assert_eq!(cells("(2, 3)"), vec![(2, 3)]);
        assert_eq!(cells("[2,3]"), vec![(2, 3)]);
        assert_eq!(cells("row 2, column 3"), vec![(2, 3)]);
        assert_eq!(cells("Row 2 col 3"), vec![(2, 3)]);
        assert_eq!(cells("(row 2, col 3)"), vec![(2, 3)]);
        assert_eq!(cells("**Move:** `(2,3)`"), vec![(2, 3)]);
        // LaTeX, as in a boxed answer: `$\boxed{\left( 2, \  3\right)}$`.
        assert_eq!(cells(r"$\boxed{\left( 2, \  3\right)}$"), vec![(2, 3)]);
        assert_eq!(cells(r"\left(4,\,0\right)"), vec![(4, 0)]);
        assert!(cells(r"\left( 2 \right)").is_empty());
        assert_eq!(
            cells("from (0, 1) to (1, 1) then [4 , 4]"),
            vec![(0, 1), (1, 1), (4, 4)]
        );
    }

    #[test]
    fn things_that_are_not_coordinates_are_skipped() {
        assert!(cells("(2, x)").is_empty());
        assert!(cells("(2 3)").is_empty());
        assert!(cells("(-1, 2)").is_empty());
        assert!(cells("arrow 2, column 3").is_empty(), "row inside arrow");
        assert!(cells("(123456, 1)").is_empty(), "absurdly long number");
        assert!(cells("(").is_empty());
        assert!(cells("for 2 c 3").is_empty(), "an r inside a word");
        assert!(cells("r2 c3d").is_empty(), "a column running into a word");
        assert!(cells("cells 2, 3 and 4").is_empty(), "a list of cells");
        assert!(cells("cell 2 - 3").is_empty(), "a range, spaced");
    }

    #[test]
    fn cells_in_other_brackets_and_short_forms_are_read() {
        assert_eq!(cells("{3, 1} then <0,4>"), vec![(3, 1), (0, 4)]);
        assert_eq!(cells("go to r3c1."), vec![(3, 1)]);
        assert_eq!(cells("R2 C0, r=4, c=4"), vec![(2, 0), (4, 4)]);
        assert_eq!(cells("r: 1; c: 2"), vec![(1, 2)]);
        assert_eq!(cells("the cell 3-2 is open"), vec![(3, 2)]);
        assert_eq!(cells("Cell 0,3"), vec![(0, 3)]);
        assert_eq!(cells("row=1, col=0"), vec![(1, 0)]);
    }

    #[test]
    fn a_row_and_a_column_named_in_other_languages_or_as_keys_are_read() {
        assert_eq!(cells("Voy a la fila 3 y columna 2."), vec![(3, 2)]);
        assert_eq!(cells("linha 0, coluna 4"), vec![(0, 4)]);
        assert_eq!(cells("la case ligne 2, colonne 0"), vec![(2, 0)]);
        assert_eq!(cells("Riga 1 colonna 1"), vec![(1, 1)]);
        assert_eq!(cells("Feld: Zeile 4, Spalte 3"), vec![(4, 3)]);
        assert_eq!(cells("rij 2 kolom 2"), vec![(2, 2)]);
        // Keys of a structure: YAML's lines, XML's elements.
        assert_eq!(cells("step:\n  row: 3\n  col: 4\nwhy: open"), vec![(3, 4)]);
        assert_eq!(
            cells("<cell><row>2</row><column>1</column></cell>"),
            vec![(2, 1)]
        );
        assert_eq!(cells("<row> 0 </row>\n<col> 3 </col>"), vec![(0, 3)]);
        // Not a cell: a row alone, two line breaks apart, a word that only ends in a key.
        assert!(cells("row 3 is all walls; column 2 too").is_empty());
        assert!(cells("row: 1\n\ncol: 2").is_empty());
        assert!(cells("arrow 1, column 2").is_empty());
        assert!(cells("Barrow 1 col 2").is_empty());
    }

    #[test]
    fn attributes_indexes_list_items_and_chinese_ordinals_are_read() {
        // Attributes, quoted either way.
        assert_eq!(cells("<step row=\"3\" column=\"2\"/>"), vec![(3, 2)]);
        assert_eq!(cells("<cell row='1' col='4'>"), vec![(1, 4)]);
        // An index into rows, then columns.
        assert_eq!(cells("so grid[2][0] is next"), vec![(2, 0)]);
        assert_eq!(cells("board[ 4 ][ 1 ]"), vec![(4, 1)]);
        // The row and the column as items of a list.
        assert_eq!(cells("Next:\n* row: 2\n* col: 3"), vec![(2, 3)]);
        assert_eq!(cells("\u{2022} Row 0\n\u{2022} Column 4"), vec![(0, 4)]);
        // Chinese "row r, column c", with or without a comma between.
        assert_eq!(cells("走到第3行第2列。"), vec![(3, 2)]);
        assert_eq!(cells("第 1 行、第 0 列"), vec![(1, 0)]);
        // Not a cell: one index alone, two lists' items apart, a row with no column.
        assert!(cells("items[2] and [3]").is_empty());
        assert!(cells("* row: 2\n\n* col: 3").is_empty());
        assert!(cells("第3行全是墙").is_empty());
    }
}
