//! The shapes a maze's corridor can trace, each defined by one entry of [`SPECS`].
//!
//! A shape's entry holds everything the rest of the program knows about it: its name, its
//! movement rule, the words that name it in a recognition answer, and the base patterns its
//! templates are built from (see [`crate::core::maze::templates`]). Adding a shape is adding a
//! variant to [`Shape`] and one entry to [`SPECS`]; every test loops over [`Shape::ALL`].
//!
//! The base patterns, drawn for their smallest size (`#` corridor, `.` wall):
//!
//! ```text
//! square (side 3+)   cross (odd side 3+)   C (height >= width >= 3)   Z (side 4+), and its mirror S
//! # # #              # . #                 # # #                      # # # #
//! # . #              . # .                 # . .                      . . # .
//! # # #              # . #                 # # #                      . # . .
//!                                                                     # # # #
//! triangle, flat base (3+ rows)   triangle, right angle (side 4+)   spiral (side 5+)
//! . . # . .                       # # # #                           # # # # #
//! . # . # .                       # . # .                           . . . . #
//! # # # # #                       # # . .                           # # # . #
//!                                 # . . .                           # . . . #
//!                                                                   # # # # #
//! ```
//!
//! Orientations: the square and the cross are symmetric; C and both triangles come in their
//! four quarter turns; Z comes as Z and its mirror image S (its quarter turns are the letter
//! N, a shape of its own); the spiral comes in all eight (four starting corners, both turning
//! directions). Every pattern is placed at every position inside the grid.

use super::pattern::{mirrors, rotations, Pattern};
use crate::core::maze::grid::Movement;
use crate::core::text::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A shape a maze's corridor traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Shape {
    /// The outline of a square.
    #[serde(rename = "square")]
    Square,
    /// An X: the two diagonals of a square.
    #[serde(rename = "cross")]
    Cross,
    /// A corridor winding inward.
    #[serde(rename = "spiral")]
    Spiral,
    /// A triangle's outline.
    #[serde(rename = "triangle")]
    Triangle,
    /// A square or tall rectangle outline with one side open.
    C,
    /// Top bar, bottom bar and the diagonal joining them (or its mirror, S).
    Z,
}

/// Everything the program knows about one shape.
pub struct ShapeSpec {
    /// The shape this entry describes.
    pub shape: Shape,
    /// The name used in files, folders, URLs and JSON (case matters in file names).
    pub name: &'static str,
    /// How a player moves through this shape's mazes.
    pub movement: Movement,
    /// Words and phrases that name the shape in a recognition answer (matched
    /// case-insensitively as whole words; single letters must stand alone, see
    /// [`crate::core::verify`]).
    pub synonyms: &'static [&'static str],
    /// One line for people: what the shape looks like.
    pub description: &'static str,
    /// The base patterns in all their orientations, for every pattern size that fits a grid
    /// of side `n`.
    pub patterns: fn(n: usize) -> Vec<Pattern>,
}

/// The one table of shapes, in [`Shape::ALL`] order.
pub const SPECS: [ShapeSpec; 6] = [
    ShapeSpec {
        shape: Shape::Square,
        name: "square",
        movement: Movement::Four,
        synonyms: &[
            "square",
            "box",
            "cube",
            "symmetrical rectangle",
            "quadrilateral",
            "ring",
        ],
        description: "the outline of a square, one cell wide",
        patterns: square_patterns,
    },
    ShapeSpec {
        shape: Shape::Cross,
        name: "cross",
        movement: Movement::Eight,
        synonyms: &[
            "cross",
            "times",
            "multiplication",
            "X",
            "X-shape",
            "X-shaped",
            "crossed lines",
            "saltire",
        ],
        description: "an X: the two diagonals of a square crossing in the middle",
        patterns: cross_patterns,
    },
    ShapeSpec {
        shape: Shape::Spiral,
        name: "spiral",
        movement: Movement::Four,
        synonyms: &[
            "spiral", "spirals", "helix", "coil", "whorl", "swirl", "vortex",
        ],
        description: "a corridor running round the edge and winding inward",
        patterns: spiral_patterns,
    },
    ShapeSpec {
        shape: Shape::Triangle,
        name: "triangle",
        movement: Movement::Eight,
        synonyms: &[
            "triangle",
            "triangles",
            "triangular",
            "pyramid",
            "trilateral",
            "isosceles",
        ],
        description: "a triangle's outline, flat-based or right-angled, in any orientation",
        patterns: triangle_patterns,
    },
    ShapeSpec {
        shape: Shape::C,
        name: "C",
        movement: Movement::Four,
        synonyms: &[
            "C",
            "C-shape",
            "C-shaped",
            "crescent",
            "half-circle",
            "semi-circle",
            "semicircle",
            "horseshoe",
            // No design has a U yet, so a U names the C, whose upward opening it is
            // (docs/DECISIONS.md).
            "U",
            "U-shape",
            "U-shaped",
        ],
        description: "a square or tall rectangle outline with one side open, in four orientations",
        patterns: c_patterns,
    },
    ShapeSpec {
        shape: Shape::Z,
        name: "Z",
        movement: Movement::Eight,
        synonyms: &[
            "Z",
            "Z-shape",
            "Z-shaped",
            "zigzag",
            "zigzags",
            "zig-zag",
            "zig zag",
            "zig zags",
            "lightning bolt",
            "S-shape",
        ],
        description: "a top bar and a bottom bar joined by a diagonal (Z), or its mirror image (S)",
        patterns: z_patterns,
    },
];

impl Shape {
    /// Every shape, in the design's order.
    pub const ALL: [Shape; 6] = [
        Shape::Square,
        Shape::Cross,
        Shape::Spiral,
        Shape::Triangle,
        Shape::C,
        Shape::Z,
    ];

    /// This shape's entry in [`SPECS`].
    pub fn spec(self) -> &'static ShapeSpec {
        // SPECS is in ALL order; the test `specs_are_in_all_order` keeps it so.
        &SPECS[self as usize]
    }

    /// The canonical name (`square`, `cross`, `spiral`, `triangle`, `C`, `Z`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The movement rule of this shape's mazes.
    pub fn movement(self) -> Movement {
        self.spec().movement
    }

    /// Recognition synonyms.
    pub fn synonyms(self) -> &'static [&'static str] {
        self.spec().synonyms
    }

    /// Parses a shape name in any case (`Square`, `c`, `z-shape` is not a name: use `Z`).
    pub fn parse(s: &str) -> Result<Shape, UnknownName> {
        let t = s.trim();
        Shape::ALL
            .into_iter()
            .find(|sh| sh.name().eq_ignore_ascii_case(t))
            .ok_or_else(|| {
                UnknownName::new(
                    "shape",
                    t,
                    format!("one of {}", Shape::ALL.map(Shape::name).join(", ")),
                )
            })
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn square_patterns(n: usize) -> Vec<Pattern> {
    (3..=n)
        .map(|k| Pattern::from_fn(k, k, |r, c| r == 0 || c == 0 || r == k - 1 || c == k - 1))
        .collect()
}

fn cross_patterns(n: usize) -> Vec<Pattern> {
    (3..=n)
        .step_by(2)
        .map(|k| Pattern::from_fn(k, k, |r, c| r == c || r + c == k - 1))
        .collect()
}

fn c_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    for h in 3..=n {
        for w in 3..=h {
            let base = Pattern::from_fn(h, w, |r, c| r == 0 || r == h - 1 || c == 0);
            out.extend(rotations(&base));
        }
    }
    out
}

fn z_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    for k in 4..=n {
        let z = Pattern::from_fn(k, k, |r, c| r == 0 || r == k - 1 || r + c == k - 1);
        out.extend(mirrors(&z));
    }
    out
}

fn triangle_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    // Flat base, apex up: h rows, 2h-1 columns.
    for h in (3..=n).take_while(|h| 2 * h - 1 <= n) {
        let base = Pattern::from_fn(h, 2 * h - 1, |r, c| {
            r == h - 1 || c + r == h - 1 || c == h - 1 + r
        });
        out.extend(rotations(&base));
    }
    // Right angle in a corner, diagonal hypotenuse.
    for k in 4..=n {
        let base = Pattern::from_fn(k, k, |r, c| r == 0 || c == 0 || r + c == k - 1);
        out.extend(rotations(&base));
    }
    out
}

fn spiral_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    for k in 5..=n {
        let base = Pattern::from_cells(k, k, &spiral_walk(k));
        for r in rotations(&base) {
            out.extend(mirrors(&r));
        }
    }
    out
}

/// The clockwise spiral in a `k` x `k` box, starting at the top-left corner heading right:
/// go straight while the next cell stays in the box and touches no earlier corridor cell
/// (other than the one we stand on); otherwise turn right; stop when turning does not help.
/// On 5x5 this makes four quarter turns and ends in the centre; on 7x7 six.
fn spiral_walk(k: usize) -> Vec<(usize, usize)> {
    const HEADINGS: [(isize, isize); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut path = vec![(0usize, 0usize)];
    let mut heading = 0;
    let mut turned = false;
    loop {
        let (r, c) = path[path.len() - 1];
        let (dr, dc) = HEADINGS[heading];
        let next = r
            .checked_add_signed(dr)
            .zip(c.checked_add_signed(dc))
            .filter(|&(nr, nc)| nr < k && nc < k);
        let ok = next.is_some_and(|(nr, nc)| {
            !path.contains(&(nr, nc))
                && path[..path.len() - 1]
                    .iter()
                    .all(|&(pr, pc)| pr.abs_diff(nr) + pc.abs_diff(nc) > 1)
        });
        match (ok, next) {
            (true, Some(cell)) => {
                path.push(cell);
                turned = false;
            }
            _ if turned => return path,
            _ => {
                heading = (heading + 1) % 4;
                turned = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_are_in_all_order() {
        for (i, s) in Shape::ALL.into_iter().enumerate() {
            assert_eq!(SPECS[i].shape, s, "SPECS[{i}] is not {s:?}");
        }
    }

    #[test]
    fn names_parse_in_any_case_and_unknown_names_explain_the_choices() {
        for s in Shape::ALL {
            assert_eq!(Shape::parse(s.name()), Ok(s));
            assert_eq!(Shape::parse(&s.name().to_uppercase()), Ok(s));
            assert_eq!(Shape::parse(&s.name().to_lowercase()), Ok(s));
        }
        let err = Shape::parse("hexagon").expect_err("not a shape");
        assert!(
            err.to_string()
                .contains("square, cross, spiral, triangle, C, Z"),
            "{err}"
        );
    }

    #[test]
    fn movement_rules_follow_the_design() {
        let eight: Vec<Shape> = Shape::ALL
            .into_iter()
            .filter(|s| s.movement() == Movement::Eight)
            .collect();
        assert_eq!(eight, vec![Shape::Cross, Shape::Triangle, Shape::Z]);
    }

    #[test]
    fn required_synonyms_are_present() {
        let need: [(Shape, &[&str]); 6] = [
            (
                Shape::Square,
                &[
                    "square",
                    "box",
                    "cube",
                    "symmetrical rectangle",
                    "quadrilateral",
                ],
            ),
            (
                Shape::Triangle,
                &["triangle", "pyramid", "trilateral", "isosceles"],
            ),
            (
                Shape::Spiral,
                &["spiral", "helix", "coil", "whorl", "swirl"],
            ),
            (
                Shape::Cross,
                &[
                    "cross",
                    "times",
                    "multiplication",
                    "X",
                    "X-shape",
                    "crossed lines",
                ],
            ),
            (
                Shape::C,
                &[
                    "C",
                    "crescent",
                    "half-circle",
                    "semi-circle",
                    "U",
                    "U-shape",
                ],
            ),
            (Shape::Z, &["Z", "zigzag", "zig zag", "lightning bolt"]),
        ];
        for (shape, words) in need {
            for w in words {
                assert!(shape.synonyms().contains(w), "{shape} lacks synonym {w}");
            }
        }
    }

    #[test]
    fn the_five_by_five_spiral_winds_into_the_centre() {
        let walk = spiral_walk(5);
        assert_eq!(walk.len(), 17);
        assert_eq!(walk.last(), Some(&(2, 2)));
        let seven = spiral_walk(7);
        assert_eq!(
            seven.last(),
            Some(&(4, 2)),
            "7x7 spiral makes six quarter turns"
        );
    }
}
