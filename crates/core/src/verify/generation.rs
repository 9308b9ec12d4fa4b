//! Generation replies: is the reply a new maze of the same shape and size?
//!
//! The maze is found in the reply in the trial's encoding ([`Encoding::read_reply`]: the
//! maze the reply offers as its answer, a block labelled as the original passed over when
//! another is there, special tokens, emphasis and short comments around rows dropped), then
//! checked for encoding (readable, exactly one P and one G), size, shape (the open cells, P
//! and G included, are one of the shape's templates for that size), novelty (differs from
//! the original as first shown in any cell) and a path from P to G, each reported on its
//! own in [`GenerationChecks`]; the verdict's reason is the first check that failed, in
//! that order. When text was dropped around the maze's lines, or a block labelled as the
//! original passed over, the explanation says so. Rows written without spaces (`0111P`)
//! are read cell by cell and fail the encoding check alone (`cells_not_separated`).
//!
//! There is no "no path" reason: every template is connected under its shape's movement
//! rule and a maze that passes the shape check has P and G on it, so it always has a path
//! (`a_maze_of_the_right_shape_always_has_a_path` checks every template of every shape and
//! size). `path_exists` is still measured on its own, so a maze of the wrong shape says
//! whether P reaches G.

use super::answer::Rule;
use super::verdict::{Doubt, DoubtKind, Extracted, GenerationChecks, Reason, Verdict};
use super::words::{normal_word, word_spans};
use crate::maze::encoding::Encoding;
use crate::maze::extraction::{Extraction, ParseError};
use crate::maze::grid::{Mask, Maze, MazeError, Tile, MAX_SIZE};
use crate::maze::shape::Shape;
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;

/// Verifies a generated maze against the original (as first shown), a matrix in the
/// design's symbols `1 0 P G`.
pub fn verify_generation(
    original: &Maze,
    shape: Shape,
    encoding: Encoding,
    library: &TemplateLibrary,
    reply: &str,
) -> Verdict {
    verify_generation_in(original, shape, encoding, Symbols::STANDARD, library, reply)
}

/// [`verify_generation`] for a trial whose matrix is written in `symbols`: a maze written
/// in other symbols is not properly encoded, and the explanation says which were expected.
pub fn verify_generation_in(
    original: &Maze,
    shape: Shape,
    encoding: Encoding,
    symbols: Symbols,
    library: &TemplateLibrary,
    reply: &str,
) -> Verdict {
    let (rows, cols) = (original.rows(), original.cols());
    if crate::reply::cut_in_reasoning(reply) {
        let mut v = Verdict::cut_in_reasoning(Reason::NoMazeFound, "maze");
        v.checks = Some(GenerationChecks::default());
        return v;
    }
    let read = encoding.read_reply_in(reply, rows, cols, symbols);
    let rule = maze_rule(&read);
    let doubt = maze_doubt(reply, &read, rule, [rows, cols], encoding, symbols);
    // What was dropped or passed over to read the maze, said after the verdict's reason.
    let notes = read.notes(encoding);
    let with_notes = |explanation: String| {
        if notes.is_empty() {
            explanation
        } else {
            format!("{explanation} {notes}")
        }
    };
    let grid = match read.grid {
        Ok(g) => g,
        Err(e) => {
            let mut v = Verdict::new(
                false,
                Reason::from(&e),
                Extracted::Nothing,
                with_notes(named(
                    encoding,
                    symbols,
                    format!(
                        "The maze is not properly encoded as a {}: {e}.{}",
                        encoding.label().to_ascii_lowercase(),
                        other_symbols(encoding, symbols, reply, rows, cols)
                    ),
                )),
            );
            v.checks = Some(GenerationChecks::default());
            return v.read_with(rule, doubt);
        }
    };
    let maze = Maze::from_grid(grid.clone());
    let same_size = grid.rows() == rows && grid.cols() == cols;
    // Corridor masks hold at most MAX_SIZE x MAX_SIZE cells: a larger grid read from a reply
    // is judged on its size alone (building its mask would overflow).
    let measurable = grid.rows() <= MAX_SIZE && grid.cols() <= MAX_SIZE;
    let mask = if measurable {
        grid.open_mask()
    } else {
        Mask::empty(0, 0)
    };
    let same_shape = same_size && library.size() == rows && library.matches(shape, &mask);
    let novel = &grid != original.grid();
    let path_len = maze
        .as_ref()
        .ok()
        .filter(|_| measurable)
        .and_then(|m| m.shortest_path_len(shape.movement()));
    let checks = GenerationChecks {
        valid_encoding: maze.is_ok() && !read.unspaced,
        same_size,
        same_shape,
        novel,
        path_exists: path_len.is_some(),
    };
    let (reason, explanation) = if let Err(e) = &maze {
        let r = match e {
            MazeError::PlayerCount(_) => Reason::PlayerCount,
            MazeError::GoalCount(_) => Reason::GoalCount,
        };
        (r, format!("The maze is not properly encoded: {e}."))
    } else if read.unspaced {
        (
            Reason::CellsNotSeparated,
            format!(
                "The maze is not properly encoded: its rows are written without spaces between the cells (as read, it is {}x{}{}).",
                grid.rows(),
                grid.cols(),
                match (same_size, same_shape, novel) {
                    (false, _, _) => format!(", the original {rows}x{cols}"),
                    (true, false, _) => format!(", and its open cells do not form a {shape}"),
                    (true, true, false) => ", and identical to the original".to_string(),
                    (true, true, true) => format!(", a new {shape} of the same size"),
                }
            ),
        )
    } else if !same_size {
        (
            Reason::WrongSize,
            format!(
                "The maze is {}x{}, the original {rows}x{cols}.",
                grid.rows(),
                grid.cols()
            ),
        )
    } else if !same_shape {
        let seen = library
            .classify(&mask)
            .map_or("no shape of ours".to_string(), |s| format!("a {s}"));
        (
            Reason::WrongShape,
            format!("The open cells do not form a {shape} (they form {seen})."),
        )
    } else if !novel {
        (
            Reason::IdenticalToOriginal,
            "The maze is identical to the original; a new maze must differ in at least one cell."
                .into(),
        )
    } else {
        // A template connects all its cells and holds P and G: see the module documentation.
        debug_assert!(path_len.is_some(), "a maze of the right shape has a path");
        (
            Reason::ValidNewMaze,
            format!(
                "A new {shape} maze of the same size; P reaches G in {} moves.",
                path_len.unwrap_or_default()
            ),
        )
    };
    let mut v = Verdict::new(
        reason == Reason::ValidNewMaze,
        reason,
        Extracted::Grid(grid),
        with_notes(named(encoding, symbols, explanation)),
    );
    v.checks = Some(checks);
    v.read_with(rule, doubt)
}

/// Why the maze read from `reply` by `rule` is not sure (verify/decide.rs says what sure
/// means), for a maze of `size` (rows, columns): a fall-back; rows that could not be read
/// as a maze, or no maze found in a reply holding rows of maze symbols; rows read that are
/// not a whole maze (not one player and one goal) or not the size asked; a reply that takes
/// its maze back after it ("scrap that").
pub(super) fn maze_doubt(
    reply: &str,
    read: &Extraction,
    rule: Rule,
    [rows, cols]: [usize; 2],
    encoding: Encoding,
    symbols: Symbols,
) -> Option<Doubt> {
    let doubt = |kind, span: Option<[usize; 2]>, quote: &str| {
        Some(Doubt::new(
            kind,
            rule,
            "maze",
            Extracted::Nothing,
            span,
            quote,
        ))
    };
    if rule == Rule::CutInReasoning {
        return None;
    }
    if rule.is_fall_back() {
        return doubt(DoubtKind::FallBack, read.span, "");
    }
    let grid = match (&read.grid, read.span) {
        (Ok(g), _) => g,
        // Rows in other symbols (an emoji grid, `#` and `.`) may be a maze a person reads;
        // rows of unequal length or a list that misses or repeats a cell are the reply's
        // own error, read as it is written.
        (Err(e @ ParseError::InvalidSymbol { .. }), Some(span)) => {
            return doubt(DoubtKind::Unreadable, Some(span), &e.to_string());
        }
        (Err(_), Some(_)) => return None,
        (Err(_), None) => {
            let [start, end] = grid_like(reply, encoding, symbols, cols)?;
            return doubt(DoubtKind::Unread, Some([start, end]), &reply[start..end]);
        }
    };
    if grid.rows() != rows || grid.cols() != cols {
        let size = format!("{}x{}, not {rows}x{cols}", grid.rows(), grid.cols());
        return doubt(DoubtKind::OtherSize, read.span, &size);
    }
    if let Err(e) = Maze::from_grid(grid.clone()) {
        return doubt(DoubtKind::Incomplete, read.span, &e.to_string());
    }
    let end = read.span.map_or(reply.len(), |[_, e]| e).min(reply.len());
    let after = reply.get(end..).unwrap_or_default();
    // A sentence or line after the maze that opens by taking it back.
    let mut at = 0;
    after
        .split_inclusive(['\n', '.', '!', '?'])
        .find_map(|sentence| {
            let from = at;
            at += sentence.len();
            let first = word_spans(sentence).into_iter().next()?;
            TAKING_BACK_A_MAZE
                .contains(&normal_word(first.text).as_str())
                .then(|| [end + from + first.start(), end + from + first.end])
        })
        .and_then(|span| doubt(DoubtKind::TakenBack, Some(span), &reply[span[0]..span[1]]))
}

/// Words that open a sentence after a maze by which a reply takes it back ("Scrap that",
/// "Wait, that is the original", "Oops", "Correction:").
const TAKING_BACK_A_MAZE: [&str; 11] = [
    "scrap",
    "scratch",
    "ignore",
    "disregard",
    "wait",
    "oops",
    "sorry",
    "correction",
    "hmm",
    "redo",
    "hold",
];

/// The first line of `reply` that looks like rows of a maze (`[start, end)`): a line of at
/// least `cols` cells' symbols that are most of its text, or a coordinate list's key line;
/// `None` when there is none.
fn grid_like(reply: &str, encoding: Encoding, symbols: Symbols, cols: usize) -> Option<[usize; 2]> {
    let cell = |c: char| {
        c.is_ascii_digit()
            || Tile::ALL
                .iter()
                .any(|&t| symbols.of(t).eq_ignore_ascii_case(&c))
            || matches!(c, '#' | '.' | '*' | '@' | '_')
            || (!c.is_ascii() && !c.is_alphabetic() && !c.is_whitespace())
    };
    let mut offset = 0;
    reply.split_inclusive('\n').find_map(|line| {
        let start = offset;
        offset += line.len();
        let text = line.trim_end();
        let (cells, others) = text
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, ',' | '|' | '[' | ']' | '"' | '\''))
            .fold(
                (0, 0),
                |(n, o), c| if cell(c) { (n + 1, o) } else { (n, o + 1) },
            );
        let rows_like = cells >= cols.max(3) && cells >= others;
        let keys = encoding == Encoding::CoordList
            && ["walls", "empty", "player position", "goal"]
                .iter()
                .any(|k| text.to_ascii_lowercase().trim_start().starts_with(k));
        (rows_like || keys).then_some([start, start + text.len()])
    })
}

/// The rule that read a maze: none found, JSON, the last of several blocks (a fall-back),
/// or the only block (those passed over as the original aside).
pub(super) fn maze_rule(read: &Extraction) -> Rule {
    if read.span.is_none() {
        Rule::NoAnswer
    } else if read.json {
        Rule::Json
    } else if read.blocks > 1 + read.passed_over.len() {
        Rule::LastBlock
    } else {
        Rule::Lone
    }
}

/// An explanation with the design's symbols in it (`one player P`, `P reaches G`, the
/// legend of an unknown symbol) written in the trial's matrix symbols.
fn named(encoding: Encoding, symbols: Symbols, text: String) -> String {
    if encoding != Encoding::Matrix || symbols.is_standard() {
        return text;
    }
    let (p, g) = (symbols.of(Tile::Player), symbols.of(Tile::Goal));
    text.replace(
        "(use 1 wall, 0 empty, P player, G goal)",
        &format!("(use {})", symbols.describe()),
    )
    .replace("one player P,", &format!("one player {p},"))
    .replace("one goal G,", &format!("one goal {g},"))
    .replace("; P reaches G in", &format!("; {p} reaches {g} in"))
}

/// For a matrix in symbols other than the design's: the symbols the trial asked for, and
/// whether the reply holds a maze in the design's `1 0 P G` instead.
fn other_symbols(
    encoding: Encoding,
    symbols: Symbols,
    reply: &str,
    rows: usize,
    cols: usize,
) -> String {
    if encoding != Encoding::Matrix || symbols.is_standard() {
        return String::new();
    }
    let standard = encoding.read_reply(reply, rows, cols).grid.is_ok();
    format!(
        " This trial's symbols are {}{}.",
        symbols.describe(),
        if standard {
            "; the reply writes its maze in 1 0 P G instead"
        } else {
            ""
        }
    )
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{ring, x5};
    use super::*;
    use crate::maze::generate::generate_one;
    use crate::maze::grid::SIZES;

    fn gen(original: &Maze, shape: Shape, enc: Encoding, reply: &str) -> Verdict {
        verify_generation(original, shape, enc, &TemplateLibrary::new(5), reply)
    }

    #[test]
    fn a_new_maze_of_the_same_shape_passes_every_check() {
        let reply = "```\nP 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 G 0\n```";
        let v = gen(&ring(), Shape::Square, Encoding::Matrix, reply);
        assert_eq!(v.reason, Reason::ValidNewMaze, "{}", v.explanation);
        assert_eq!(
            v.checks,
            Some(GenerationChecks {
                valid_encoding: true,
                same_size: true,
                same_shape: true,
                novel: true,
                path_exists: true
            })
        );
    }

    #[test]
    fn a_matrix_written_without_spaces_is_read_and_measured_but_not_properly_encoded() {
        // As a model writes it when it drops the spaces, with prose around it.
        let reply = "Here is a new square maze:\n\nP0000\n01110\n01110\n01110\n000G0\n\nThe corridor runs around the edge.";
        let v = gen(&ring(), Shape::Square, Encoding::Matrix, reply);
        assert_eq!(v.reason, Reason::CellsNotSeparated, "{}", v.explanation);
        assert_eq!(v.outcome, super::super::Outcome::Fail);
        assert_eq!(
            v.checks,
            Some(GenerationChecks {
                valid_encoding: false,
                same_size: true,
                same_shape: true,
                novel: true,
                path_exists: true
            }),
            "only the encoding fails: {}",
            v.explanation
        );
        assert!(
            v.explanation.contains("without spaces") && v.explanation.contains("a new square"),
            "{}",
            v.explanation
        );
        // In brackets, and a copy of the original: still measured.
        let copy = "[P0000]\n[01110]\n[01110]\n[01110]\n[0000G]";
        let v = gen(&ring(), Shape::Square, Encoding::Matrix, copy);
        assert_eq!(v.reason, Reason::CellsNotSeparated);
        let checks = v.checks.expect("checks");
        assert!(checks.same_shape && !checks.novel, "{}", v.explanation);
        // Spaced rows are read as before; one unspaced line alone is no maze.
        let spaced = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 G 0";
        assert_eq!(
            gen(&ring(), Shape::Square, Encoding::Matrix, spaced).reason,
            Reason::ValidNewMaze
        );
        let one = "My answer row: \n01110\nThat is all.";
        assert_eq!(
            gen(&ring(), Shape::Square, Encoding::Matrix, one).reason,
            Reason::NoMazeFound
        );
    }

    #[test]
    fn generation_failures_are_reported_check_by_check() {
        let o = ring();
        let copy = Encoding::Matrix.render(o.grid());
        let v = gen(&o, Shape::Square, Encoding::Matrix, &copy);
        assert_eq!(v.reason, Reason::IdenticalToOriginal);
        assert!(!v.checks.expect("checks").novel);

        let v = gen(
            &o,
            Shape::Square,
            Encoding::Matrix,
            &Encoding::Matrix.render(x5().grid()),
        );
        assert_eq!(v.reason, Reason::WrongShape, "{}", v.explanation);
        assert!(v.explanation.contains("cross"), "{}", v.explanation);

        let two_p = "P 0 0 0 P\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 G 0";
        assert_eq!(
            gen(&o, Shape::Square, Encoding::Matrix, two_p).reason,
            Reason::PlayerCount
        );
        let no_g = "P 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";
        assert_eq!(
            gen(&o, Shape::Square, Encoding::Matrix, no_g).reason,
            Reason::GoalCount
        );
        let small = "P 0 0\n0 1 0\n0 0 G";
        assert_eq!(
            gen(&o, Shape::Square, Encoding::Matrix, small).reason,
            Reason::WrongSize
        );
        assert_eq!(
            gen(&o, Shape::Square, Encoding::Matrix, "no idea").reason,
            Reason::NoMazeFound
        );
        let v = gen(
            &o,
            Shape::Square,
            Encoding::CoordList,
            "Walls: (0,0)\nEmpty: (0,0)",
        );
        assert_eq!(v.reason, Reason::DuplicateCell);
    }

    #[test]
    fn path_exists_is_measured_for_a_maze_of_the_wrong_shape() {
        let reply = "P 1 1 1 G\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1\n1 1 1 1 1";
        let v = gen(&ring(), Shape::Square, Encoding::Matrix, reply);
        assert_eq!(v.reason, Reason::WrongShape, "{}", v.explanation);
        let c = v.checks.expect("checks");
        assert!(c.valid_encoding && c.same_size && !c.same_shape && !c.path_exists);
    }

    #[test]
    fn a_maze_of_the_right_shape_always_has_a_path() {
        // Why there is no "no path" reason: the shape check passes only when the open cells,
        // P and G included, are one of the shape's templates, and every template connects
        // all its cells under the shape's movement. Checked through the verifier for every
        // template of every shape and size, with P and G at its first and last cells.
        for n in SIZES {
            let lib = TemplateLibrary::new(n);
            let original = generate_one(Shape::Square, 0, 0, &lib).expect("a maze");
            for shape in Shape::ALL {
                for t in lib.of(shape) {
                    let cells = t.cells();
                    let (Some(&p), Some(&g)) = (cells.first(), cells.last()) else {
                        panic!("{shape} {n}x{n}: an empty template");
                    };
                    let reply = Encoding::Matrix.render(Maze::from_mask(t, p, g).grid());
                    let v = verify_generation(&original, shape, Encoding::Matrix, &lib, &reply);
                    let c = v.checks.expect("checks");
                    assert!(c.same_shape, "{shape} {n}x{n}: {}\n{reply}", v.explanation);
                    assert!(
                        c.path_exists,
                        "{shape} {n}x{n}: a template without a path\n{reply}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_generated_grid_larger_than_any_maze_is_the_wrong_size_not_a_crash() {
        let row = |r: usize| {
            (0..12)
                .map(|c| {
                    if (r, c) == (0, 0) {
                        "P"
                    } else if (r, c) == (11, 11) {
                        "G"
                    } else {
                        "0"
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let reply = (0..12).map(row).collect::<Vec<_>>().join("\n");
        let v = gen(&ring(), Shape::Square, Encoding::Matrix, &reply);
        assert_eq!(v.reason, Reason::WrongSize, "{}", v.explanation);
        assert!(
            !v.checks.expect("checks").path_exists,
            "not measured beyond 11x11"
        );
    }
}
