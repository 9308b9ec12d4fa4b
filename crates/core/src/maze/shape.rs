//! The shapes a maze's corridor can trace, each defined by one entry of [`SPECS`].
//!
//! A shape's entry holds everything the rest of the program knows about it: its name, its
//! movement rule, the words that name it in a recognition answer, and the base patterns its
//! templates are built from (see [`crate::maze::templates`]). Adding a shape is adding a
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
//! U (width >= height >= 3)   N (side 4+), and its mirror
//! # . #                      # . . #
//! # . #                      # . # #
//! # # #                      # # . #
//!                            # . . #
//! ```
//!
//! Orientations: the square and the cross are symmetric; C and both triangles come in their
//! four quarter turns; Z comes as Z and its mirror image S; the spiral comes in all eight
//! (four starting corners, both turning directions). U is the C opening up or down, and N
//! is the Z's quarter turn, as Z and S are each other's mirror (docs/DECISIONS.md, "U and
//! the C"). Every pattern is placed at every position inside the grid.
//!
//! The shapes in play ([`ShapeSet`]) are the design's six plus whatever a design, study or
//! page adds (U, N). They decide two things: in a set with U the C keeps only its left and
//! right openings (the up and down ones are U's), and a recognition answer naming U names
//! the C when U is not in play (its upward opening), while one naming N names nothing.

use super::pattern::{mirrors, rotations, Pattern};
use crate::maze::grid::Movement;
use crate::text::UnknownName;
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
    /// A C opening up or down (a design's extension).
    U,
    /// The Z's quarter turn: two upright bars joined by a diagonal (a design's extension).
    N,
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
    /// [`crate::verify`]).
    pub synonyms: &'static [&'static str],
    /// One line for people: what the shape looks like.
    pub description: &'static str,
    /// The base patterns in all their orientations, for every pattern size that fits a grid
    /// of side `n`.
    pub patterns: fn(n: usize) -> Vec<Pattern>,
}

/// The one table of shapes, in [`Shape::ALL`] order.
pub const SPECS: [ShapeSpec; 8] = [
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
            // Chinese (docs/DECISIONS.md, fifth round): square, square frame, ring.
            "正方形",
            "方框",
            "环形",
            // Spanish, Portuguese, French, Italian, German, Dutch (as the answer leads
            // and the row and column words of the move reader).
            "cuadrado",
            "quadrado",
            "carré",
            "quadrato",
            "Quadrat",
            "vierkant",
            // Japanese, Korean, Russian.
            "四角形",
            "정사각형",
            "사각형",
            "квадрат",
            // Vietnamese, Indonesian and Malay, Turkish, Polish.
            "hình vuông",
            "persegi",
            "bujur sangkar",
            "kare",
            "kwadrat",
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
            // Chinese: cross, cross-shaped, X-shaped crossing.
            "十字",
            "十字形",
            "交叉形",
            // Spanish and Portuguese, French, Italian, German, Dutch.
            "cruz",
            "croix",
            "croce",
            "Kreuz",
            "kruis",
            // Japanese writes the Chinese; Korean, Russian.
            "십자",
            "십자형",
            "крест",
            // Vietnamese, Indonesian and Malay, Turkish, Polish.
            "chữ thập",
            "salib",
            "silang",
            "haç",
            "krzyż",
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
            // Chinese: spiral, spiral-shaped.
            "螺旋", "螺旋形",
            // Spanish and Portuguese, French, Italian and German, Dutch.
            "espiral", "spirale", "spiraal",
            // Japanese (whorl, and the loanword), Korean, Russian.
            "渦巻き", "渦巻", "スパイラル", "나선", "나선형", "спираль",
            // Vietnamese, Turkish, Polish (Indonesian and Malay write "spiral").
            "xoắn ốc", "sarmal", "spirala",
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
            // Chinese: triangle.
            "三角形",
            "三角",
            // Spanish, Portuguese, Italian, German, Dutch (French writes "triangle").
            "triángulo",
            "triangulo",
            "triângulo",
            "triangolo",
            "Dreieck",
            "driehoek",
            // Japanese writes the Chinese; Korean, Russian.
            "삼각형",
            "треугольник",
            // Vietnamese, Indonesian and Malay, Turkish, Polish.
            "tam giác",
            "segitiga",
            "üçgen",
            "trójkąt",
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
            // Chinese: crescent, semicircle ("C形" reads as the letter C).
            "月牙形",
            "半圆形",
        ],
        description: "a square or rectangle outline with one side open, in four orientations (with U in play: open left or right)",
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
            // Chinese: zigzag ("Z形" reads as the letter Z).
            "之字形",
            "锯齿形",
            // Chinese and Japanese for "lightning bolt", "zigzag"; Korean, Russian zigzag.
            "闪电",
            "ジグザグ",
            "지그재그",
            "зигзаг",
            // Turkish, Polish (Vietnamese and Indonesian write "zigzag").
            "zikzak",
            "zygzak",
        ],
        description: "a top bar and a bottom bar joined by a diagonal (Z), or its mirror image (S)",
        patterns: z_patterns,
    },
    ShapeSpec {
        shape: Shape::U,
        name: "U",
        movement: Movement::Four,
        // Without U in play these name the C ([`ShapeSet::named`]).
        synonyms: &["U", "U-shape", "U-shaped", "horseshoe", "马蹄形"],
        description: "a C opening up or down: a rectangle outline with its top or bottom side open",
        patterns: u_patterns,
    },
    ShapeSpec {
        shape: Shape::N,
        name: "N",
        movement: Movement::Eight,
        synonyms: &["N", "N-shape", "N-shaped"],
        description: "two upright bars joined by a diagonal (N), or its mirror image: the Z turned a quarter",
        patterns: n_patterns,
    },
];

impl Shape {
    /// Every shape, the design's six first, then its extensions.
    pub const ALL: [Shape; 8] = [
        Shape::Square,
        Shape::Cross,
        Shape::Spiral,
        Shape::Triangle,
        Shape::C,
        Shape::Z,
        Shape::U,
        Shape::N,
    ];

    /// The design's six shapes, in its order (the standard experiment): the first six of
    /// [`Shape::ALL`].
    pub const STANDARD: [Shape; 6] = {
        let mut six = [Shape::Square; 6];
        let mut i = 0;
        while i < six.len() {
            six[i] = Shape::ALL[i];
            i += 1;
        }
        six
    };

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

/// The shapes in play for a trial: the design's six, plus U and N when a design, study or
/// page includes them. Decides which shapes' templates exist (and so the C's orientations)
/// and what a recognition answer names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShapeSet(u8);

impl Default for ShapeSet {
    fn default() -> Self {
        ShapeSet::STANDARD
    }
}

impl ShapeSet {
    /// The design's six shapes.
    pub const STANDARD: ShapeSet = ShapeSet(0b0011_1111);
    /// Every shape (the C then keeps only its left and right openings).
    pub const ALL: ShapeSet = ShapeSet(0b1111_1111);

    /// The six, with `shapes` added.
    pub fn with(shapes: &[Shape]) -> ShapeSet {
        shapes
            .iter()
            .fold(ShapeSet::STANDARD, |set, &s| ShapeSet(set.0 | 1 << s as u8))
    }

    /// Whether `shape` is in play.
    pub fn contains(self, shape: Shape) -> bool {
        self.0 & 1 << shape as u8 != 0
    }

    /// Whether this is the standard set (nothing added).
    pub fn is_standard(&self) -> bool {
        *self == ShapeSet::STANDARD
    }

    /// The shapes in play, in [`Shape::ALL`] order.
    pub fn shapes(self) -> Vec<Shape> {
        Shape::ALL
            .into_iter()
            .filter(|&s| self.contains(s))
            .collect()
    }

    /// The shape a mention of `shape` names in this set: itself when in play; the C for a
    /// U while U is not (the C's upward opening is a U); none for an N while N is not.
    pub fn named(self, shape: Shape) -> Option<Shape> {
        match shape {
            s if self.contains(s) => Some(s),
            Shape::U => Some(Shape::C),
            _ => None,
        }
    }
}

/// Written as the list of shape names added to the standard six (`["U"]`), so records of
/// standard designs leave it out.
impl Serialize for ShapeSet {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let added: Vec<Shape> = self
            .shapes()
            .into_iter()
            .filter(|s| !Shape::STANDARD.contains(s))
            .collect();
        added.serialize(ser)
    }
}

impl<'de> Deserialize<'de> for ShapeSet {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        Vec::<Shape>::deserialize(de).map(|v| ShapeSet::with(&v))
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
            out.extend(c_turns(h, w));
        }
    }
    out
}

/// The C's base pattern of height `h` and width `w` (`w <= h`), open to the right, in its
/// four quarter turns: open right, down, left, up.
fn c_turns(h: usize, w: usize) -> Vec<Pattern> {
    rotations(&Pattern::from_fn(h, w, |r, c| {
        r == 0 || r == h - 1 || c == 0
    }))
}

/// The U: the C's turns that open down or up.
fn u_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    for h in 3..=n {
        for w in 3..=h {
            let turns = c_turns(h, w);
            out.push(turns[1].clone());
            out.push(turns[3].clone());
        }
    }
    out
}

/// The N: the Z turned a quarter, and its mirror image.
fn n_patterns(n: usize) -> Vec<Pattern> {
    let mut out = Vec::new();
    for k in 4..=n {
        let z = Pattern::from_fn(k, k, |r, c| r == 0 || r == k - 1 || r + c == k - 1);
        out.extend(mirrors(&z.rotated()));
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
        assert_eq!(
            eight,
            vec![Shape::Cross, Shape::Triangle, Shape::Z, Shape::N],
            "U moves as the C does, N as the Z"
        );
    }

    #[test]
    fn required_synonyms_are_present() {
        let need: [(Shape, &[&str]); 8] = [
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
            (Shape::C, &["C", "crescent", "half-circle", "semi-circle"]),
            (Shape::Z, &["Z", "zigzag", "zig zag", "lightning bolt"]),
            (Shape::U, &["U", "U-shape", "U-shaped", "horseshoe"]),
            (Shape::N, &["N", "N-shape"]),
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
