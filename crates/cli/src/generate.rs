//! `shapemaze generate`: maze sets as JSON lines, and optionally as `.npy` maze files in the
//! export layout.

use crate::io::{write_file, CliError, Io};
use crate::values::{shapes_with, whole, COMMAND_HELP};
use serde::Serialize;
use shapemaze_core::maze::encoding::Encoding;
use shapemaze_core::maze::generate::{generate_set, path_length_histogram, DEFAULT_SAMPLES};
use shapemaze_core::maze::grid::{check_size, Maze, Pos};
use shapemaze_core::maze::shape::{Shape, ShapeSet};
use shapemaze_core::maze::templates::TemplateLibrary;
use shapemaze_core::maze::{image, npy};
use shapemaze_core::results::layout::maze_file_path;
use std::path::PathBuf;

/// `shapemaze generate`'s options.
#[derive(Debug, clap::Args)]
#[command(
    help_template = COMMAND_HELP,
    display_name = "shapemaze generate",
    override_usage = "shapemaze generate --shape S [--size N] [--samples K] [--seed X] [--with SHAPES] [--out DIR [--images]]",
    after_help = "Each line: {\"shape\",\"size\",\"sample\",\"movement\",\"matrix\":[\"1 0 0 P\", ...],\"player\":[r,c],\"goal\":[r,c]}.
The distribution of shortest-path lengths of each set goes to stderr.

Example:
  shapemaze generate --shape spiral --size 7 --samples 3 --seed 42 --out mazes/"
)]
pub struct GenerateArgs {
    /// square, cross, spiral, triangle, C, Z, U, N (any case), or all
    #[arg(long, value_name = "S")]
    pub shape: String,
    /// grid side: 5, 7, 9 or 11
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = whole::<usize>)]
    pub size: usize,
    /// mazes per shape
    #[arg(long, value_name = "K", default_value_t = DEFAULT_SAMPLES, value_parser = whole::<usize>)]
    pub samples: usize,
    /// seed of the set, a whole number; the same seed always gives the
    /// same mazes, here, in /play and in every experiment
    #[arg(long, value_name = "X", default_value_t = 0, value_parser = whole::<u64>, allow_negative_numbers = true, verbatim_doc_comment)]
    pub seed: u64,
    /// shapes in play beside it, comma-separated (U: the C's set as a design
    /// with U draws it, with only its left and right openings)
    #[arg(long = "with", value_name = "SHAPES", verbatim_doc_comment)]
    pub with: Option<String>,
    /// also write DIR/experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// with --out, also write each maze as the vision condition's
    /// image, {R}x{C}_{shape}_{i}.png beside its .npy (docs/vision.md)
    #[arg(long, requires = "out", verbatim_doc_comment)]
    pub images: bool,
}

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
pub fn run(args: &GenerateArgs, io: &mut Io<'_>) -> Result<(), CliError> {
    let shapes: Vec<Shape> = if args.shape.trim().eq_ignore_ascii_case("all") {
        Shape::ALL.to_vec()
    } else {
        vec![Shape::parse(&args.shape)?]
    };
    let size = check_size(args.size)?;
    let samples = args.samples;
    if samples == 0 {
        return Err(CliError::usage("--samples must be at least 1"));
    }
    let seed = args.seed;
    let out = args.out.as_deref();
    let beside = shapes_with(args.with.as_deref())?;
    for shape in shapes {
        // Each shape as a trial of it (and the shapes --with names) sees it: a C has its
        // four openings unless the U is in play.
        let mut in_play = beside.clone();
        in_play.push(shape);
        let library = TemplateLibrary::of_set(size, ShapeSet::with(&in_play));
        let set = generate_set(shape, samples, seed, &library)
            .map_err(|e| CliError::usage(e.to_string()))?;
        for (i, maze) in set.iter().enumerate() {
            print_maze(io, shape, size, i, maze)?;
            if let Some(dir) = out {
                let path = dir.join(maze_file_path(size, size, shape, i));
                write_file(&path, &npy::write(maze.grid()))?;
                if args.images {
                    let png = image::png(&image::draw(maze.grid()));
                    write_file(&path.with_extension("png"), &png)?;
                }
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
