//! Base patterns: a set of cells in a bounding box, turned, mirrored and placed on a grid.
//! The shapes ([`super::shape`]) draw theirs with these; the template library
//! ([`super::templates`]) places them.

use super::grid::{Mask, Pos};

/// A base pattern: a set of cells inside an `h` x `w` bounding box.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pattern {
    h: usize,
    w: usize,
    cells: Vec<(usize, usize)>,
}

impl Pattern {
    /// The cells `(r, c)` of an `h` x `w` box for which `inside(r, c)` holds.
    pub fn from_fn(h: usize, w: usize, inside: impl Fn(usize, usize) -> bool) -> Self {
        let cells = (0..h)
            .flat_map(|r| (0..w).map(move |c| (r, c)))
            .filter(|&(r, c)| inside(r, c))
            .collect();
        Self { h, w, cells }
    }

    /// A pattern from explicit cells (kept in row-major order, duplicates and cells outside
    /// the box dropped, so equal patterns compare equal).
    pub fn from_cells(h: usize, w: usize, cells: &[(usize, usize)]) -> Self {
        Self::from_fn(h, w, |r, c| cells.contains(&(r, c)))
    }

    /// The height of its bounding box.
    pub fn height(&self) -> usize {
        self.h
    }

    /// The width of its bounding box.
    pub fn width(&self) -> usize {
        self.w
    }

    /// Its cells `(r, c)`, in row-major order.
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// The pattern turned a quarter clockwise.
    pub fn rotated(&self) -> Self {
        let h = self.h;
        let cells: Vec<_> = self.cells.iter().map(|&(r, c)| (c, h - 1 - r)).collect();
        Self::from_cells(self.w, self.h, &cells)
    }

    /// The pattern mirrored left to right.
    pub fn mirrored(&self) -> Self {
        let w = self.w;
        let cells: Vec<_> = self.cells.iter().map(|&(r, c)| (r, w - 1 - c)).collect();
        Self::from_cells(self.h, self.w, &cells)
    }

    /// Every placement of the pattern inside an `n` x `n` grid.
    pub fn placements(&self, n: usize) -> impl Iterator<Item = Mask> + '_ {
        let rows = (n + 1).saturating_sub(self.h);
        let cols = (n + 1).saturating_sub(self.w);
        (0..rows).flat_map(move |dr| {
            (0..cols).map(move |dc| {
                let mut m = Mask::empty(n, n);
                for &(r, c) in &self.cells {
                    m.insert(Pos::new(r + dr, c + dc));
                }
                m
            })
        })
    }
}

/// The pattern in its four quarter turns (duplicates removed later).
pub fn rotations(p: &Pattern) -> Vec<Pattern> {
    let mut out = vec![p.clone()];
    for _ in 0..3 {
        let next = out[out.len() - 1].rotated();
        out.push(next);
    }
    out
}

/// The pattern and its mirror image.
pub fn mirrors(p: &Pattern) -> Vec<Pattern> {
    vec![p.clone(), p.mirrored()]
}
