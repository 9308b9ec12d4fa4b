//! `shapemaze generate`: maze sets as JSON lines, and optionally as `.npy` maze files in the
//! export layout.

use super::args::Args;
use super::{write_file, CliError, Io};
use crate::core::maze::encoding::Encoding;
use crate::core::maze::generate::{generate_set, path_length_histogram, DEFAULT_SAMPLES};
use crate::core::maze::grid::{check_size, Maze, Pos};
use crate::core::maze::npy;
use crate::core::maze::shape::Shape;
use crate::core::maze::templates::TemplateLibrary;
use crate::core::results::layout::maze_file_path;
use serde::Serialize;
use std::path::Path;

/// Options `generate` accepts.
pub const OPTIONS: &[&str] = &["shape", "size", "samples", "seed", "out"];

/// Help text.
pub const HELP: &str = "\
shapemaze generate: print maze sets as JSON lines, one object per maze

Usage: shapemaze generate --shape S [--size N] [--samples K] [--seed X] [--out DIR]

Options:
  --shape S     square, cross, spiral, triangle, C, Z (any case), or all
  --size N      grid side: 5, 7, 9 or 11 (default 5)
  --samples K   mazes per shape (default 30)
  --seed X      seed of the set, a whole number (default 0); the same seed always gives
                the same mazes, here, in /play and in every experiment
  --out DIR     also write DIR/experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy

Each line: {\"shape\",\"size\",\"sample\",\"movement\",\"matrix\":[\"1 0 0 P\", ...],\"player\":[r,c],\"goal\":[r,c]}.
The distribution of shortest-path lengths of each set goes to stderr.

Example:
  shapemaze generate --shape spiral --size 7 --samples 3 --seed 42 --out mazes/
";

/// One maze as a JSON line (field names fixed by docs/CONTRACT.md).
#[derive(Serialize)]
struct MazeLine<'a> {
    shape: &'a str,
    size: usize,
    sample: usize,
    movement: u8,
    matrix: Vec<&'a str>,
    player: [usize; 2],
    goal: [usize; 2],
}

fn pair(p: Pos) -> [usize; 2] {
    [p.row, p.col]
}

/// Runs `generate`.
pub fn run(args: &Args, io: &mut Io<'_>) -> Result<(), CliError> {
    let shape = args.required("shape", "generate")?;
    let shapes: Vec<Shape> = if shape.trim().eq_ignore_ascii_case("all") {
        Shape::ALL.to_vec()
    } else {
        vec![Shape::parse(shape)?]
    };
    let size = check_size(args.number("size", 5)?)?;
    let samples: usize = args.number("samples", DEFAULT_SAMPLES)?;
    if samples == 0 {
        return Err(CliError::usage("--samples must be at least 1"));
    }
    let seed: u64 = args.number("seed", 0)?;
    let out = args.get("out").map(Path::new);
    let library = TemplateLibrary::new(size);
    for shape in shapes {
        let set = generate_set(shape, samples, seed, &library)
            .map_err(|e| CliError::usage(e.to_string()))?;
        for (i, maze) in set.iter().enumerate() {
            print_maze(io, shape, size, i, maze)?;
            if let Some(dir) = out {
                let path = dir.join(maze_file_path(size, size, shape, i));
                write_file(&path, &npy::write(maze.grid()))?;
            }
        }
        let lengths: Vec<String> = path_length_histogram(&set, shape)
            .iter()
            .map(|(len, n)| format!("{len}: {n}"))
            .collect();
        io.note(&format!(
            "{shape} {size}x{size} seed {seed}: {} mazes; shortest path P to G in moves (length: mazes) {{{}}}",
            set.len(),
            lengths.join(", ")
        ))?;
    }
    Ok(())
}

fn print_maze(
    io: &mut Io<'_>,
    shape: Shape,
    size: usize,
    sample: usize,
    maze: &Maze,
) -> Result<(), CliError> {
    let text = Encoding::Matrix.render(maze.grid());
    let line = MazeLine {
        shape: shape.name(),
        size,
        sample,
        movement: shape.movement().directions(),
        matrix: text.lines().collect(),
        player: pair(maze.player()),
        goal: pair(maze.goal()),
    };
    io.json_line(&line)
}
