//! The seeded maze generator.
//!
//! The maze set for `(shape, size, seed)` is one ordered list, the same natively and in the
//! browser: the command line's `generate`, `/play?...&seed=S&sample=I` (its I-th maze) and
//! every experiment draw from it. Asking for more samples extends the list without changing
//! its start. Each maze picks a template of the shape uniformly, then a player and goal
//! cell uniformly among the pairs whose shortest path takes [`MIN_PATH`] to [`MAX_PATH`]
//! moves; a maze equal to an earlier one in the list is drawn again.
//!
//! Reproducibility: the random stream is ChaCha8 (`rand_chacha`, pinned exactly together
//! with `rand`), seeded from the user's seed mixed with the shape's name and the size by a
//! fixed function; templates are iterated in their fixed order; no hash map is involved.

use crate::maze::grid::{Mask, Maze, Pos};
use crate::maze::shape::Shape;
use crate::maze::templates::TemplateLibrary;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::fmt;

/// Fewest moves the shortest path from P to G may take.
pub const MIN_PATH: usize = 3;
/// Most moves the shortest path from P to G may take (the design's move limit).
pub const MAX_PATH: usize = 16;
/// Default number of mazes per shape (the design's 30 samples).
pub const DEFAULT_SAMPLES: usize = 30;
/// Draws without finding a new maze before the generator counts what is left.
const PATIENCE: usize = 4096;

/// Why a maze set could not be generated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenerateError {
    /// More mazes were asked for than distinct ones exist.
    TooFewDistinct {
        /// The shape.
        shape: Shape,
        /// The grid side.
        size: usize,
        /// How many were asked for.
        wanted: usize,
        /// How many distinct mazes exist.
        available: usize,
    },
    /// The library was built for another size.
    LibrarySize {
        /// The size asked for.
        size: usize,
        /// The library's size.
        library: usize,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::TooFewDistinct { shape, size, wanted, available } => write!(
                f,
                "only {available} distinct {shape} mazes exist at {size}x{size} (shortest path {MIN_PATH} to {MAX_PATH} moves), but {wanted} were asked for"
            ),
            GenerateError::LibrarySize { size, library } => {
                write!(f, "template library is for {library}x{library}, not {size}x{size}")
            }
        }
    }
}

/// The random seed of the set for `(seed, shape, size)`: FNV-1a over the shape's name,
/// mixed with the seed and size by SplitMix64. Fixed forever: published seeds depend on it.
pub fn set_seed(seed: u64, shape: Shape, size: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in shape.name().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    splitmix(seed ^ splitmix(h ^ (size as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The ordered `(player, goal)` pairs of a template whose shortest path is in range.
pub fn placements(mask: &Mask, shape: Shape) -> Vec<(Pos, Pos)> {
    let cells = mask.cells();
    let mut out = Vec::new();
    for &p in &cells {
        let dist = mask.distances(p, shape.movement());
        for &g in &cells {
            if let Some(d) = dist[g.row * mask.cols() + g.col] {
                if (MIN_PATH..=MAX_PATH).contains(&d) {
                    out.push((p, g));
                }
            }
        }
    }
    out
}

/// How many distinct mazes the generator can make for `shape` on `library`'s size.
pub fn distinct_mazes(shape: Shape, library: &TemplateLibrary) -> usize {
    library
        .of(shape)
        .iter()
        .map(|m| placements(m, shape).len())
        .sum()
}

/// The first `samples` mazes of the set for `(shape, library.size(), seed)`.
pub fn generate_set(
    shape: Shape,
    samples: usize,
    seed: u64,
    library: &TemplateLibrary,
) -> Result<Vec<Maze>, GenerateError> {
    let size = library.size();
    let templates = library.of(shape);
    if templates.is_empty() && samples > 0 {
        return Err(GenerateError::TooFewDistinct {
            shape,
            size,
            wanted: samples,
            available: 0,
        });
    }
    let mut rng = ChaCha8Rng::seed_from_u64(set_seed(seed, shape, size));
    let mut cache: Vec<Option<Vec<(Pos, Pos)>>> = vec![None; templates.len()];
    // Sorted, searched by bisection: no tree code in the browser build.
    let mut seen: Vec<(usize, Pos, Pos)> = Vec::with_capacity(samples);
    let mut out = Vec::with_capacity(samples);
    let mut misses = 0;
    while out.len() < samples {
        let t = rng.random_range(0..templates.len());
        let pairs = cache[t].get_or_insert_with(|| placements(&templates[t], shape));
        // A template without a placement in range is a miss like a repeat, so a set that
        // cannot be completed ends at the patience check instead of looping on.
        let fresh = if pairs.is_empty() {
            false
        } else {
            let (p, g) = pairs[rng.random_range(0..pairs.len())];
            match seen.binary_search(&(t, p, g)) {
                Err(at) => {
                    seen.insert(at, (t, p, g));
                    out.push(Maze::from_mask(&templates[t], p, g));
                    true
                }
                Ok(_) => false,
            }
        };
        if fresh {
            misses = 0;
        } else {
            misses += 1;
            if misses == PATIENCE {
                let available = distinct_mazes(shape, library);
                if samples > available {
                    return Err(GenerateError::TooFewDistinct {
                        shape,
                        size,
                        wanted: samples,
                        available,
                    });
                }
                misses = 0;
            }
        }
    }
    Ok(out)
}

/// Maze `sample` (0-based) of the set for `(shape, size, seed)`.
pub fn generate_one(
    shape: Shape,
    sample: usize,
    seed: u64,
    library: &TemplateLibrary,
) -> Result<Maze, GenerateError> {
    let mut set = generate_set(shape, sample + 1, seed, library)?;
    set.pop().ok_or(GenerateError::TooFewDistinct {
        shape,
        size: library.size(),
        wanted: sample + 1,
        available: 0,
    })
}

/// A 64-bit fingerprint of a maze list (FNV-1a over the mazes' matrix encodings), for
/// checking that two machines, or the browser and the command line, hold the same set.
pub fn fingerprint(mazes: &[Maze]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for m in mazes {
        for b in crate::maze::encoding::Encoding::Matrix
            .render(m.grid())
            .bytes()
            .chain([b'\n', b'\n'])
        {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// How many mazes of a set have each shortest-path length.
pub fn path_length_histogram(mazes: &[Maze], shape: Shape) -> BTreeMap<usize, usize> {
    let mut h = BTreeMap::new();
    for m in mazes {
        if let Some(d) = m.shortest_path_len(shape.movement()) {
            *h.entry(d).or_insert(0) += 1;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::Encoding;
    use crate::maze::grid::SIZES;
    use crate::maze::shape::ShapeSet;
    use std::collections::BTreeSet;

    #[test]
    fn every_generated_maze_meets_its_invariants_for_all_shapes_and_sizes() {
        for n in SIZES {
            // Each shape alone in play, and the C beside the U (left and right openings).
            let cases = Shape::ALL
                .map(|s| (s, ShapeSet::with(&[s])))
                .into_iter()
                .chain([(Shape::C, ShapeSet::ALL)]);
            for (shape, in_play) in cases {
                let lib = TemplateLibrary::of_set(n, in_play);
                let set = generate_set(shape, 30, 7, &lib).expect("30 mazes exist");
                assert_eq!(set.len(), 30);
                for (i, m) in set.iter().enumerate() {
                    assert_ne!(m.player(), m.goal(), "{shape} {n} #{i}");
                    assert!(
                        lib.matches(shape, &m.open_mask()),
                        "{shape} {n} #{i} corridor is a template"
                    );
                    let d = m.shortest_path_len(shape.movement()).expect("solvable");
                    assert!(
                        (MIN_PATH..=MAX_PATH).contains(&d),
                        "{shape} {n} #{i}: path {d}"
                    );
                }
                let distinct: BTreeSet<_> = set
                    .iter()
                    .map(|m| Encoding::Matrix.render(m.grid()))
                    .collect();
                assert_eq!(distinct.len(), 30, "{shape} {n}: duplicates in the set");
            }
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_set_and_longer_sets_extend_shorter_ones() {
        for shape in Shape::ALL {
            let lib = TemplateLibrary::for_shape(5, shape);
            let a = generate_set(shape, 10, 42, &lib).expect("set");
            let b = generate_set(shape, 30, 42, &lib).expect("set");
            assert_eq!(a[..], b[..10], "{shape}: prefix property");
            let c = generate_set(shape, 10, 43, &lib).expect("set");
            assert_ne!(a, c, "{shape}: another seed, another set");
            assert_eq!(generate_one(shape, 9, 42, &lib).expect("one"), a[9]);
        }
    }

    #[test]
    fn asking_for_more_mazes_than_exist_is_a_clear_error() {
        let lib = TemplateLibrary::new(5);
        let available = distinct_mazes(Shape::Cross, &lib);
        assert_eq!(
            available, 36,
            "the 5x5 X has 36 P/G placements; the 3x3 X none"
        );
        assert!(generate_set(Shape::Cross, available, 1, &lib).is_ok());
        let err = generate_set(Shape::Cross, available + 1, 1, &lib).expect_err("too many");
        assert!(
            err.to_string().contains("only 36 distinct cross mazes"),
            "{err}"
        );
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // a native test's watchdog thread
    fn a_shape_with_templates_but_no_placement_ends_with_the_clear_error() {
        // The 3x3 X is a template whose cells lie at most 2 moves apart: no P/G pair reaches
        // the 3-move minimum, so no maze exists. Run on a thread so a regression (an endless
        // loop) fails the test instead of hanging it.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let lib = TemplateLibrary::new(3);
            let _ = tx.send((
                lib.of(Shape::Cross).len(),
                generate_set(Shape::Cross, 1, 0, &lib),
            ));
        });
        let (templates, result) = rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the generator gives up instead of looping forever");
        assert!(
            templates > 0,
            "the case needs a template without placements"
        );
        let err = result.expect_err("no maze exists");
        assert!(
            err.to_string().contains("only 0 distinct cross mazes"),
            "{err}"
        );
    }

    #[test]
    fn histograms_count_every_maze() {
        let lib = TemplateLibrary::new(5);
        let set = generate_set(Shape::Spiral, 30, 0, &lib).expect("set");
        let h = path_length_histogram(&set, Shape::Spiral);
        assert_eq!(h.values().sum::<usize>(), 30);
        assert!(h.keys().all(|d| (MIN_PATH..=MAX_PATH).contains(d)));
    }
}
