//! Scripted players and an export writer shared by the command-line tests and the
//! benchmark's transcript maker (`examples/make_transcripts.rs` includes this file).
//!
//! A scripted player answers a trial's prompts with replies chosen by a `variant` number,
//! so a set of trials covers every way a phase can end: solved, a wall hit, an unreadable
//! reply, the move limit, right and wrong shapes, new, copied and broken mazes. The trials
//! are played by the core's [`Trial`], so their transcripts are exactly what the app writes.
#![allow(dead_code)]

#[cfg(test)]
pub mod run;

use shapemaze::core::encoding::Encoding;
use shapemaze::core::generate::generate_set;
use shapemaze::core::grid::{Maze, Pos, Tile};
use shapemaze::core::npy;
use shapemaze::core::rescore::{maze_file_path, ExportPath};
use shapemaze::core::shape::Shape;
use shapemaze::core::templates::TemplateLibrary;
use shapemaze::core::trial::{Phase, Trial, TrialSetup};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// How many different scripted behaviours [`play`] has.
pub const VARIANTS: usize = 6;

/// A folder under the system's temporary folder, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A new, empty folder whose name starts with `name`.
    pub fn new(name: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("shapemaze-{name}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("the temporary folder can be created");
        TempDir(dir)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A neighbour of the player's cell holding `tile` (under the shape's movement), if any.
fn neighbour(maze: &Maze, shape: Shape, tile: Tile) -> Option<Pos> {
    let p = maze.player();
    shape
        .movement()
        .steps()
        .iter()
        .filter_map(|&(dr, dc)| p.offset(dr, dc))
        .find(|&q| maze.grid().get(q) == Some(tile))
}

/// Another shape than `shape`, for wrong answers.
fn other_shape(shape: Shape) -> Shape {
    let i = Shape::ALL.iter().position(|&s| s == shape).unwrap_or(0);
    Shape::ALL[(i + 1) % Shape::ALL.len()]
}

/// Plays one trial on `maze` with the scripted behaviour `variant` (any number; taken
/// modulo [`VARIANTS`]); `other` is a different maze of the same shape and size, offered as
/// the new maze where the script generates a valid one. Returns the finished trial.
pub fn play(
    shape: Shape,
    encoding: Encoding,
    maze: &Maze,
    other: &Maze,
    variant: usize,
    library: &TemplateLibrary,
) -> Trial {
    let mut t = Trial::new(
        TrialSetup::new(shape, encoding, maze.clone()),
        std::sync::Arc::new(library.clone()),
    );
    let path = maze.shortest_path(shape.movement()).unwrap_or_default();
    let variant = variant % VARIANTS;
    match variant {
        2 => {
            let bump = neighbour(maze, shape, Tile::Wall).unwrap_or(Pos::new(99, 99));
            t.submit(&format!("Going right into {bump}. Move: {bump}"));
        }
        3 => {
            t.submit("I am not sure which way leads to the goal.");
        }
        5 => {
            // Back and forth until the move limit.
            let start = maze.player();
            let away = neighbour(maze, shape, Tile::Empty).unwrap_or(start);
            let mut i = 0;
            while t.phase() == Phase::Solve {
                let to = if i % 2 == 0 { away } else { start };
                t.submit(&format!("Move: {to}"));
                i += 1;
            }
        }
        _ => {
            for w in path.windows(2) {
                let reply = if variant == 1 {
                    format!(
                        "I am at {}. The goal G is at {}. Options include (0, 0), but I will move to {} now.",
                        w[0],
                        maze.goal(),
                        w[1]
                    )
                } else {
                    format!("Move: {}", w[1])
                };
                t.submit(&reply);
            }
        }
    }
    let recognition = match variant {
        1 => format!(
            "It is not a {}. Final answer: {}",
            other_shape(shape),
            shape.synonyms().last().unwrap_or(&"")
        ),
        2 => format!("Shape: {}", other_shape(shape)),
        3 => "I cannot tell.".to_string(),
        _ => format!("Shape: {shape}"),
    };
    t.submit(&recognition);
    let generation = match variant {
        0 | 5 => encoding.render(other.grid()),
        1 => format!(
            "Here is a new maze:\n\n```\n{}\n```\nIt keeps the shape.",
            encoding.render(other.grid())
        ),
        2 => encoding.render(maze.grid()),
        3 => "Sorry, I cannot draw mazes.".to_string(),
        _ => Encoding::ALL
            .into_iter()
            .find(|&e| e != encoding)
            .unwrap_or(encoding)
            .render(other.grid()),
    };
    t.submit(&generation);
    t
}

/// A written export: where each transcript went and the trial that wrote it.
pub struct Written {
    /// Transcript paths, relative to the export's root, with their trials.
    pub trials: Vec<(String, Trial)>,
}

/// Writes an export under `root` for `model`: for both encodings and every shape,
/// `mazes` mazes of `size` (seed `seed`) as `.npy` files, and `trials` transcripts per
/// maze (the variant cycles with the maze and trial numbers).
pub fn write_export(
    root: &Path,
    model: &str,
    size: usize,
    mazes: usize,
    trials: usize,
    seed: u64,
) -> Written {
    let library = TemplateLibrary::new(size);
    let mut written = Vec::new();
    for shape in Shape::ALL {
        let set = generate_set(shape, mazes + 1, seed, &library).expect("enough mazes exist");
        for (i, maze) in set.iter().take(mazes).enumerate() {
            let file = root.join(maze_file_path(size, size, shape, i));
            write(&file, &npy::write(maze.grid()));
            for encoding in Encoding::ALL {
                for k in 0..trials {
                    let trial = play(shape, encoding, maze, &set[i + 1], i + k, &library);
                    let rel = ExportPath {
                        encoding,
                        model: model.to_string(),
                        rows: size,
                        cols: size,
                        shape,
                        maze: i,
                        trial: k,
                    }
                    .render();
                    let text = trial
                        .transcript()
                        .expect("a scripted trial always finishes");
                    write(&root.join(&rel), text.as_bytes());
                    written.push((rel, trial));
                }
            }
        }
    }
    Written { trials: written }
}

/// Writes a file, creating its folders.
pub fn write(path: &Path, bytes: &[u8]) {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).expect("folders can be created");
    }
    std::fs::write(path, bytes).expect("the file can be written");
}
