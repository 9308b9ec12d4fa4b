//! Mazes: the grid and its cells, the shapes and the template patterns that draw them, the
//! seeded generator, the two text encodings (matrix and coordinate list) and `.npy` maze
//! files. May import [`crate::text`] and [`crate::sort`] only.
//! [`image`] draws a maze for the vision condition (a PNG, as a `data:` URL).

pub mod coords;
pub mod encoding;
pub mod extraction;
pub mod generate;
pub mod grid;
pub mod image;
mod matrix;
pub(crate) use matrix::is_maze_row;
pub mod npy;
pub mod pattern;
pub mod shape;
pub mod symbols;
pub mod templates;
