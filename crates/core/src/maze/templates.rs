//! The template library: for each shape and grid size, every corridor pattern that counts as
//! that shape.
//!
//! A shape's entry in [`crate::maze::shape::SPECS`] lists its base patterns in their
//! orientations at every pattern size; this module places each one at every position inside
//! the grid and keeps the distinct results as [`Mask`]s. Whether a corridor "is a square" is
//! then one scan of a short list.
//!
//! Templates per shape on square grids (checked by `template_counts_are_as_documented`);
//! U and N exist only where they are in play, and beside a U the C keeps half its own
//! (its left and right openings: the "C with U" column):
//!
//! | size | square | cross | spiral | triangle | C | Z | U | N | C with U |
//! |------|-------:|------:|-------:|---------:|--:|--:|--:|--:|---------:|
//! | 5x5  | 14 | 10 | 8 | 32 | 100 | 10 | 50 | 10 | 50 |
//! | 7x7  | 55 | 35 | 112 | 196 | 560 | 60 | 280 | 60 | 280 |
//! | 9x9  | 140 | 84 | 440 | 596 | 1848 | 182 | 924 | 182 | 924 |
//! | 11x11 | 285 | 165 | 1120 | 1336 | 4620 | 408 | 2310 | 408 | 2310 |
//!
//! Distinct mazes (template x P/G placement with a shortest path of 3 to 16 moves) on 5x5:
//! square 728, cross 36, spiral 1680, triangle 632, C 3856, Z 508, U 1928, N 508, C with U
//! 1928.

use super::grid::Mask;
use super::pattern::Pattern;
use super::shape::{Shape, ShapeSet};

/// Every distinct template of `shape` on an `n` x `n` grid, in a fixed order: pattern by
/// pattern as the shape's entry lists them, each placed row by row.
///
/// Duplicates are removed at the pattern level: every base pattern touches all four sides
/// of its bounding box, and so do its turns and mirror images, so two placements coincide
/// only when the patterns are equal. (This keeps sorting code out of the browser build.)
pub fn templates(shape: Shape, n: usize) -> Vec<Mask> {
    templates_but(shape, n, &[])
}

/// [`templates`] without the placements of the patterns in `except` (the C beside the U:
/// compared pattern by pattern, a few hundred comparisons, not mask by mask).
fn templates_but(shape: Shape, n: usize, except: &[Pattern]) -> Vec<Mask> {
    let mut patterns: Vec<Pattern> = Vec::new();
    for p in (shape.spec().patterns)(n) {
        if !patterns.contains(&p) && !except.contains(&p) {
            patterns.push(p);
        }
    }
    patterns.iter().flat_map(|p| p.placements(n)).collect()
}

/// The templates of the shapes in play for one grid size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateLibrary {
    size: usize,
    shapes: ShapeSet,
    by_shape: Vec<Vec<Mask>>,
}

impl TemplateLibrary {
    /// Builds the library of the design's six shapes for `n` x `n` grids.
    pub fn new(n: usize) -> Self {
        Self::of_set(n, ShapeSet::STANDARD)
    }

    /// Builds the library of the shapes in `shapes` for `n` x `n` grids. With U in play
    /// the C keeps its left and right openings; a shape not in play has no templates.
    pub fn of_set(n: usize, shapes: ShapeSet) -> Self {
        let mut by_shape: Vec<Vec<Mask>> = Shape::ALL
            .iter()
            .map(|&s| {
                if shapes.contains(s) {
                    templates(s, n)
                } else {
                    Vec::new()
                }
            })
            .collect();
        if shapes.contains(Shape::U) {
            let u = (Shape::U.spec().patterns)(n);
            by_shape[Shape::C as usize] = templates_but(Shape::C, n, &u);
        }
        Self {
            size: n,
            shapes,
            by_shape,
        }
    }

    /// The library a trial of `shape` uses when nothing else says what is in play: the
    /// design's six with `shape` added (a C has its four openings, a U brings the U's).
    pub fn for_shape(n: usize, shape: Shape) -> Self {
        Self::of_set(n, ShapeSet::with(&[shape]))
    }

    /// The shapes in play.
    pub fn shapes(&self) -> ShapeSet {
        self.shapes
    }

    /// The grid side this library was built for.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The templates of `shape`, in the order of [`templates`].
    pub fn of(&self, shape: Shape) -> &[Mask] {
        &self.by_shape[shape as usize]
    }

    /// Whether `mask` is one of `shape`'s templates.
    pub fn matches(&self, shape: Shape, mask: &Mask) -> bool {
        // A linear scan: a few thousand 128-bit comparisons at most (11x11 C), microseconds.
        self.of(shape).contains(mask)
    }

    /// The shape whose template `mask` is, if any (templates of different shapes never
    /// coincide, so there is at most one).
    pub fn classify(&self, mask: &Mask) -> Option<Shape> {
        Shape::ALL.into_iter().find(|&s| self.matches(s, mask))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::grid::Pos;
    use crate::maze::grid::SIZES;
    use crate::maze::pattern::rotations;
    use std::collections::BTreeMap;

    #[test]
    fn template_counts_are_as_documented() {
        let expect: [(usize, [usize; 6]); 4] = [
            (5, [14, 10, 8, 32, 100, 10]),
            (7, [55, 35, 112, 196, 560, 60]),
            (9, [140, 84, 440, 596, 1848, 182]),
            (11, [285, 165, 1120, 1336, 4620, 408]),
        ];
        for (n, counts) in expect {
            let lib = TemplateLibrary::new(n);
            let got: Vec<usize> = Shape::ALL.iter().map(|&s| lib.of(s).len()).collect();
            let mut want = counts.to_vec();
            want.extend([0, 0]);
            assert_eq!(
                got, want,
                "template counts for {n}x{n}: no U or N unless in play"
            );
            // With every shape in play: U and N, and the C halved.
            let all = TemplateLibrary::of_set(n, ShapeSet::ALL);
            let got: Vec<usize> = Shape::ALL.iter().map(|&s| all.of(s).len()).collect();
            let [sq, x, sp, t, c, z] = counts;
            assert_eq!(
                got,
                [sq, x, sp, t, c / 2, z, c / 2, z],
                "with U and N on {n}x{n}"
            );
        }
    }

    #[test]
    fn u_is_the_c_opening_up_or_down_and_n_the_z_turned() {
        // A 3x3 C opening up, in the top-left corner.
        let mut up = Mask::empty(5, 5);
        for (r, c) in [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)] {
            up.insert(Pos::new(r, c));
        }
        assert_eq!(TemplateLibrary::new(5).classify(&up), Some(Shape::C));
        assert_eq!(
            TemplateLibrary::for_shape(5, Shape::U).classify(&up),
            Some(Shape::U),
            "beside a U, the upward opening is the U's"
        );
        // Its quarter turn opens to the side: a C in every set.
        let mut side = Mask::empty(5, 5);
        for (r, c) in [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)] {
            side.insert(Pos::new(r, c));
        }
        assert_eq!(
            TemplateLibrary::of_set(5, ShapeSet::ALL).classify(&side),
            Some(Shape::C)
        );
        // A 4x4 N: two upright bars and the diagonal.
        let mut n = Mask::empty(5, 5);
        for (r, c) in [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (1, 2),
            (2, 1),
        ] {
            n.insert(Pos::new(r, c));
        }
        assert_eq!(
            TemplateLibrary::new(5).classify(&n),
            None,
            "no N unless in play"
        );
        assert_eq!(
            TemplateLibrary::for_shape(5, Shape::N).classify(&n),
            Some(Shape::N)
        );
        assert_eq!(
            TemplateLibrary::for_shape(5, Shape::N).shapes(),
            ShapeSet::with(&[Shape::N])
        );
    }

    #[test]
    fn every_template_is_connected_under_its_shapes_movement() {
        for n in SIZES {
            let lib = TemplateLibrary::new(n);
            for s in Shape::ALL {
                for m in lib.of(s) {
                    assert!(
                        m.is_connected(s.movement()),
                        "{s} template not connected on {n}x{n}: {:?}",
                        m.cells()
                    );
                }
            }
        }
    }

    #[test]
    fn no_template_belongs_to_two_shapes() {
        for (n, in_play) in SIZES
            .into_iter()
            .flat_map(|n| [ShapeSet::STANDARD, ShapeSet::ALL].map(|set| (n, set)))
        {
            let lib = TemplateLibrary::of_set(n, in_play);
            let mut owner: BTreeMap<Mask, Shape> = BTreeMap::new();
            for s in Shape::ALL {
                for m in lib.of(s) {
                    if let Some(other) = owner.insert(*m, s) {
                        panic!(
                            "{n}x{n}: a template is both {other} and {s}: {:?}",
                            m.cells()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn no_shape_lists_a_template_twice() {
        for n in SIZES {
            for s in Shape::ALL {
                let list = templates(s, n);
                let distinct: std::collections::BTreeSet<Mask> = list.iter().copied().collect();
                assert_eq!(
                    distinct.len(),
                    list.len(),
                    "{s} on {n}x{n} repeats a template"
                );
            }
        }
    }

    #[test]
    fn every_base_pattern_touches_all_four_sides_of_its_box() {
        for n in SIZES {
            for s in Shape::ALL {
                for p in (s.spec().patterns)(n) {
                    let rows: Vec<usize> = p.cells().iter().map(|c| c.0).collect();
                    let cols: Vec<usize> = p.cells().iter().map(|c| c.1).collect();
                    assert!(
                        rows.contains(&0)
                            && rows.contains(&(p.height() - 1))
                            && cols.contains(&0)
                            && cols.contains(&(p.width() - 1)),
                        "{s} pattern {}x{} does not fill its box, so placements could coincide",
                        p.height(),
                        p.width()
                    );
                }
            }
        }
    }

    #[test]
    fn every_shape_has_templates_at_every_size() {
        for n in SIZES {
            for s in Shape::ALL {
                assert!(
                    !templates(s, n).is_empty(),
                    "{s} has no template on {n}x{n}"
                );
            }
        }
    }

    #[test]
    fn a_small_square_ring_in_a_corner_is_a_square() {
        let lib = TemplateLibrary::new(5);
        let mut m = Mask::empty(5, 5);
        for (r, c) in [
            (2, 2),
            (2, 3),
            (2, 4),
            (3, 2),
            (3, 4),
            (4, 2),
            (4, 3),
            (4, 4),
        ] {
            m.insert(Pos::new(r, c));
        }
        assert_eq!(lib.classify(&m), Some(Shape::Square));
        m.insert(Pos::new(3, 3));
        assert_eq!(lib.classify(&m), None, "a filled square is no template");
    }

    #[test]
    fn c_comes_in_four_orientations_and_z_in_two() {
        let c3 = Pattern::from_fn(3, 3, |r, c| r == 0 || r == 2 || c == 0);
        let mut cs = rotations(&c3);
        cs.sort();
        cs.dedup();
        assert_eq!(cs.len(), 4);
        let z = Pattern::from_fn(4, 4, |r, c| r == 0 || r == 3 || r + c == 3);
        assert_ne!(z, z.mirrored(), "S differs from Z");
        assert_eq!(z, z.rotated().rotated(), "Z is its own half turn");
    }
}
