//! The original code's checks, as it ran them: its move reading (the last coordinate of a
//! reply, diagonals on every shape), its shape words, its shape families
//! (`original_templates.json`) and its reading of generated mazes.

use crate::maze::encoding::{CoordStyle, Encoding};
use crate::maze::grid::{Grid, Maze, Pos, Tile};
use crate::maze::shape::Shape;
use crate::original::mark::Mark;
use crate::original::transcript::{original_coordinates, ORIGINAL_MOVE_LIMIT};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};

/// The original shape families (ORIGINAL_DATA.md), as data.
const ORIGINAL_TEMPLATES: &str = include_str!("original_templates.json");

/// The original recognition word lists.
pub fn original_words(shape: Shape) -> &'static [&'static str] {
    match shape {
        Shape::Square => &[
            "square",
            "box",
            "cube",
            "symmetrical rectangle",
            "right-angled quadrilateral",
            "symmetric quadrilateral",
            "four-sided polygon",
        ],
        Shape::Triangle => &[
            "triangle",
            "pyramid",
            "trilateral",
            "three-sided polygon",
            "isosceles",
        ],
        Shape::Spiral => &["spiral", "helix", "coil", "whorl", "swirl", "vortex"],
        Shape::Cross => &[
            "cross",
            "times",
            "multiplication",
            "X",
            "X-shape",
            "crossed lines",
            "crossing",
        ],
        Shape::C => &[
            "C",
            "crescent",
            "half-circle",
            "curved line",
            "semi-circle",
            "semi circle",
            "open curve",
        ],
        Shape::Z => &["Z", "zigzag", "lightning bolt"],
        // The original code had no U or N.
        Shape::U | Shape::N => &[],
    }
}

/// Whether `b` is one of the 8 neighbours of `a`.
pub(crate) fn king_step(a: Pos, b: Pos) -> bool {
    a != b && a.row.abs_diff(b.row) <= 1 && a.col.abs_diff(b.col) <= 1
}

pub(crate) fn to_pos(grid: &Grid, (r, c): (i64, i64)) -> Option<Pos> {
    let p = Pos::new(usize::try_from(r).ok()?, usize::try_from(c).ok()?);
    grid.contains(p).then_some(p)
}

/// The original move check on one reply: the last `(r, c)`; `None` when the reply names
/// none or the move is invalid (outside, a wall, not one of P's 8 neighbours).
pub fn original_move(maze: &Maze, reply: &str) -> Option<Pos> {
    original_step(maze, last_coordinate(reply))
}

/// The last `(r, c)` of a reply, read the original way: what [`original_move`] takes.
pub(crate) fn last_coordinate(reply: &str) -> Option<(i64, i64)> {
    original_coordinates(reply).pop().map(|(_, p)| p)
}

/// [`original_move`] on the reply's last coordinate, read once.
pub(crate) fn original_step(maze: &Maze, last: Option<(i64, i64)>) -> Option<Pos> {
    let to = to_pos(maze.grid(), last?)?;
    let open = maze.grid().get(to).is_some_and(Tile::is_open);
    (open && king_step(maze.player(), to)).then_some(to)
}

/// The original solve replay: every step's reply through [`original_move`], at most
/// [`ORIGINAL_MOVE_LIMIT`] moves. `None` when the replies stop before a verdict.
pub fn original_solve(start: &Maze, replies: &[&str]) -> Option<Mark> {
    let lasts: Vec<_> = replies.iter().map(|r| last_coordinate(r)).collect();
    original_solve_on(start, &lasts)
}

/// [`original_solve`] on each reply's last coordinate, read once.
pub(crate) fn original_solve_on(start: &Maze, lasts: &[Option<(i64, i64)>]) -> Option<Mark> {
    let mut maze = start.clone();
    for (i, &last) in lasts.iter().enumerate() {
        if i >= ORIGINAL_MOVE_LIMIT {
            return Some(Mark::Fail);
        }
        match original_step(&maze, last) {
            None => return Some(Mark::Fail),
            Some(to) if to == maze.goal() => return Some(Mark::Success),
            Some(to) => maze = maze.with_player_at(to),
        }
    }
    (lasts.len() >= ORIGINAL_MOVE_LIMIT).then_some(Mark::Fail)
}

/// The original recognition: the words of the shape's list found whole, any case,
/// anywhere (offsets and words).
pub fn original_mentions(shape: Shape, reply: &str) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    for w in original_words(shape) {
        for at in crate::text::find_words(reply, w, true) {
            out.push((at, *w));
        }
    }
    out
}

/// The original's placed templates of a shape for an `rows` x `cols` grid, as sets of
/// corridor cells (bit `r * cols + c`).
#[derive(Clone, Debug, Default)]
pub struct OriginalFamily {
    masks: HashSet<u128>,
}

impl OriginalFamily {
    /// Every base pattern of `shape` placed at every position that fits.
    pub fn new(shape: Shape, rows: usize, cols: usize) -> Self {
        let mut masks = HashSet::new();
        if rows * cols > 128 {
            return Self { masks };
        }
        let patterns = base_patterns(shape);
        for p in &patterns {
            let h = p.len();
            let w = p.first().map_or(0, Vec::len);
            if h == 0 || w == 0 || h > rows || w > cols {
                continue;
            }
            for dr in 0..=rows - h {
                for dc in 0..=cols - w {
                    let mut m = 0u128;
                    for (r, row) in p.iter().enumerate() {
                        for (c, &v) in row.iter().enumerate() {
                            if v == 1 {
                                m |= 1u128 << ((r + dr) * cols + c + dc);
                            }
                        }
                    }
                    masks.insert(m);
                }
            }
        }
        Self { masks }
    }

    /// How many distinct placed templates there are.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Whether a grid's corridor (every open cell) is one of the placed templates.
    pub fn contains(&self, grid: &Grid) -> bool {
        mask_of(grid).is_some_and(|m| self.masks.contains(&m))
    }
}

fn mask_of(grid: &Grid) -> Option<u128> {
    if grid.rows() * grid.cols() > 128 {
        return None;
    }
    let mut m = 0u128;
    for p in grid.positions() {
        if grid.get(p).is_some_and(Tile::is_open) {
            m |= 1u128 << (p.row * grid.cols() + p.col);
        }
    }
    Some(m)
}

/// The base patterns of a shape from `original_templates.json`, in its order.
pub fn base_patterns(shape: Shape) -> Vec<Vec<Vec<u8>>> {
    #[derive(Deserialize)]
    struct File {
        patterns: HashMap<String, Vec<Vec<Vec<u8>>>>,
    }
    serde_json::from_str::<File>(ORIGINAL_TEMPLATES)
        .ok()
        .and_then(|mut f| f.patterns.remove(shape.name()))
        .unwrap_or_default()
}

/// The mazes in a reply that the original renderer could have written verbatim: every
/// candidate block re-rendered, kept when the reply holds that rendering.
pub fn verbatim_mazes(reply: &str, encoding: Encoding, rows: usize, cols: usize) -> Vec<Grid> {
    verbatim_blocks(reply, encoding, rows, cols)
        .into_iter()
        .map(|(_, g)| g)
        .collect()
}

/// [`verbatim_mazes`] with where each rendering stands in the reply (`[start, end)`).
pub fn verbatim_blocks(
    reply: &str,
    encoding: Encoding,
    rows: usize,
    cols: usize,
) -> Vec<([usize; 2], Grid)> {
    let mut out = Vec::new();
    match encoding {
        Encoding::Matrix => {
            let width = 2 * cols - 1;
            let lines: Vec<&str> = reply.split('\n').collect();
            if rows == 0 || lines.len() < rows {
                return out;
            }
            let mut starts = Vec::with_capacity(lines.len());
            let mut at = 0;
            for line in &lines {
                starts.push(at);
                at += line.len() + 1;
            }
            for s in 0..=lines.len() - rows {
                let window = &lines[s..s + rows];
                let mut rows_text = Vec::with_capacity(rows);
                for (k, line) in window.iter().enumerate() {
                    let part = if rows == 1 {
                        None
                    } else if k == 0 {
                        line.len().checked_sub(width).and_then(|at| line.get(at..))
                    } else if k + 1 == rows {
                        line.get(..width)
                    } else {
                        (line.len() == width).then_some(*line)
                    };
                    match part {
                        Some(p) => rows_text.push(p),
                        None => break,
                    }
                }
                if rows_text.len() != rows {
                    continue;
                }
                let block = rows_text.join("\n");
                if let Ok(g) = Encoding::Matrix.parse_grid(&block, rows, cols) {
                    if g.rows() == rows
                        && g.cols() == cols
                        && Encoding::Matrix.render_with(&g, CoordStyle::Spaced) == block
                    {
                        let first = starts[s] + lines[s].len() - rows_text[0].len();
                        let last = starts[s + rows - 1] + rows_text[rows - 1].len();
                        out.push(([first, last], g));
                    }
                }
            }
        }
        Encoding::CoordList => {
            for (at, _) in reply.match_indices("Walls:") {
                let rest = &reply[at..];
                let end = rest
                    .match_indices('\n')
                    .nth(3)
                    .map_or(rest.len(), |(i, _)| i);
                if let Ok(g) = Encoding::CoordList.parse_grid(&rest[..end], rows, cols) {
                    let r = Encoding::CoordList.render_with(&g, CoordStyle::Spaced);
                    if rest.starts_with(&r) {
                        out.push(([at, at + r.len()], g));
                    }
                }
            }
        }
    }
    out
}

/// The original generation check: some placed template with a distinct P and G, other
/// than the maze after the solve phase, appears verbatim in the reply.
pub fn original_generation(
    family: &OriginalFamily,
    after_solve: &Grid,
    encoding: Encoding,
    reply: &str,
) -> bool {
    let blocks = verbatim_blocks(reply, encoding, after_solve.rows(), after_solve.cols());
    !accepted_blocks(family, after_solve, &blocks).is_empty()
}

/// Of the verbatim mazes of a reply ([`verbatim_blocks`]), where those stand that
/// [`original_generation`] accepts.
pub(crate) fn accepted_blocks(
    family: &OriginalFamily,
    after_solve: &Grid,
    blocks: &[([usize; 2], Grid)],
) -> Vec<[usize; 2]> {
    blocks
        .iter()
        .filter(|(_, g)| {
            g != after_solve
                && g.find(Tile::Player).len() == 1
                && g.find(Tile::Goal).len() == 1
                && family.contains(g)
        })
        .map(|(span, _)| *span)
        .collect()
}

/// Whether the letter at `at` stands between two numbers (`5 x 5`, `5x5`).
pub(crate) fn between_numbers(text: &str, at: usize) -> bool {
    let before = text[..at].trim_end().chars().next_back();
    let after = text
        .get(at + 1..)
        .and_then(|s| s.trim_start().chars().next());
    before.is_some_and(|c| c.is_ascii_digit()) && after.is_some_and(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::original::score::Audit;
    use crate::original::test_support::{
        audited, cross_named_by_grid_size, grid, original_file, quoted_back, MOVE_REPLIES,
        NEW_SQUARE, SQUARE,
    };

    /// The texts each scorer read behind a trial's one difference.
    fn read_texts(a: &Audit) -> (Option<usize>, Vec<String>, Vec<String>) {
        let d = a.causes.first().expect("one difference");
        let r = d.read.as_ref().expect("a reading");
        let texts = |spans: &[[usize; 2]]| -> Vec<String> {
            spans
                .iter()
                .map(|[s, e]| r.reply[*s..*e].to_string())
                .collect()
        };
        (r.step, texts(&r.strict), texts(&r.original))
    }

    #[test]
    fn each_difference_shows_the_part_of_the_reply_each_scorer_read() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &[
                "(0, 1)",
                "Move to (1, 0)... no: **move to** `(0, 2)`, moving from (0, 1).",
            ],
            false,
            "A square.",
            ["FAIL", "SUCCESS", "FAIL"],
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (Some(1), vec!["(0, 2)".to_string()], vec!["(0, 1)".to_string()]),
            "strict read the move after the last \"move to\" (markup around it kept in place), the original the last coordinate"
        );
        let a = audited(&cross_named_by_grid_size(), Shape::Cross, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (None, vec![], vec!["x".to_string()]),
            "the original read the x of 5 x 5; strict read no shape"
        );
        let a = audited(&quoted_back(), Shape::Square, Encoding::Matrix);
        assert_eq!(
            read_texts(&a),
            (None, vec![SQUARE.to_string()], vec![SQUARE.to_string()]),
            "both read the quoted maze"
        );
        let coords = "Walls: (0, 1)\nEmpty: (1, 1)\nPlayer position: (0, 0)\nGoal: (1, 0)";
        let reply = format!("Sure.\n{coords}\nThat is all.");
        assert_eq!(
            Encoding::CoordList
                .extract_span(&reply)
                .map(|[s, e]| &reply[s..e]),
            Some(coords),
            "a coordinate list's span runs from its Walls line to its last key line"
        );
        let reply = format!("Old:\n{SQUARE}\n\nNew:\n{NEW_SQUARE}\nDone.");
        assert_eq!(
            Encoding::Matrix
                .extract_span(&reply)
                .map(|[s, e]| &reply[s..e]),
            Some(NEW_SQUARE),
            "a matrix span is the last block of rows"
        );
        let spaced = Encoding::CoordList.render_with(&grid(SQUARE), CoordStyle::Spaced);
        let reply = format!("Here: {spaced}\nthanks");
        let blocks = verbatim_blocks(&reply, Encoding::CoordList, 5, 5);
        assert_eq!(
            blocks
                .iter()
                .map(|([s, e], _)| &reply[*s..*e])
                .collect::<Vec<_>>(),
            vec![spaced.as_str()],
            "a verbatim coordinate list is found where it stands"
        );
    }

    #[test]
    fn the_original_replay_reads_each_replys_last_coordinate_once() {
        // The audit reads each reply's last coordinate once, for the original replay, the
        // maze after it and each step's comparison with strict.
        let maze = Maze::from_grid(grid(SQUARE)).expect("P and G");
        for reply in MOVE_REPLIES {
            assert_eq!(
                original_step(&maze, last_coordinate(reply)),
                original_move(&maze, reply),
                "{reply:?}"
            );
        }
        let back_and_forth = |n: usize| -> Vec<&str> {
            (0..n)
                .map(|i| if i % 2 == 0 { "(0, 1)" } else { "(0, 0)" })
                .collect()
        };
        let cases: Vec<(Vec<&str>, Option<Mark>)> = vec![
            (vec!["(0, 1)", "I go to (0, 2)."], Some(Mark::Success)),
            (vec!["(0, 1)", "(0, 1)"], Some(Mark::Fail)),
            (vec!["(1, 1)"], Some(Mark::Fail)),
            (vec!["none"], Some(Mark::Fail)),
            (vec![], None),
            (back_and_forth(4), None),
            (back_and_forth(16), Some(Mark::Fail)),
            (back_and_forth(17), Some(Mark::Fail)),
        ];
        for (replies, want) in cases {
            assert_eq!(original_solve(&maze, &replies), want, "{replies:?}");
        }
    }

    #[test]
    fn the_original_families_give_the_stated_template_counts() {
        let stated = [(5, [14, 10, 8, 23, 22, 5]), (7, [55, 35, 112, 139, 95, 30])];
        let shapes = Shape::ALL;
        for (n, counts) in stated {
            for (s, want) in shapes.iter().zip(counts) {
                assert_eq!(OriginalFamily::new(*s, n, n).len(), want, "{n}x{n} {s}");
            }
        }
    }
}
