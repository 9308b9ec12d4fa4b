//! An export writer shared by the command-line tests and the benchmark's transcript maker
//! (`examples/make_transcripts.rs` includes this file).
//!
//! Its trials are played by the core's scripted player ([`Scripted::variant`]), whose
//! behaviours cover every way a phase can end: solved, a wall hit, an unreadable reply, the
//! move limit, right and wrong shapes, new, copied and broken mazes. The trials are played
//! by the core's [`Trial`], so their transcripts are exactly what the app writes.
#![allow(dead_code)]

#[cfg(test)]
pub mod endpoint;
#[cfg(test)]
pub mod run;

use shapemaze::core::maze::encoding::Encoding;
use shapemaze::core::maze::generate::generate_set;
use shapemaze::core::maze::grid::Maze;
use shapemaze::core::maze::npy;
use shapemaze::core::maze::shape::Shape;
use shapemaze::core::maze::templates::TemplateLibrary;
use shapemaze::core::play::player::{play_ready, Scripted};
use shapemaze::core::play::trial::{Trial, TrialSetup};
use shapemaze::core::results::layout::{maze_file_path, ExportPath};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

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

/// Plays one trial on `maze` with the core's scripted behaviour `variant` (any number; see
/// [`Scripted::variant`]); `other` is a different maze of the same shape and size, offered
/// as the new maze where the script generates a valid one. Returns the finished trial.
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
    play_ready(&mut t, &mut Scripted::variant(variant, other.clone()));
    t
}

/// A written export: where each transcript went and the trial that wrote it.
pub struct Written {
    /// Transcript paths, relative to the export's root, with their trials.
    pub trials: Vec<(String, Trial)>,
}

/// Writes an export under `root` for `model`: for both encodings and the design's six shapes,
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
    for shape in Shape::STANDARD {
        let set = generate_set(shape, mazes + 1, seed, &library).expect("enough mazes exist");
        for (i, maze) in set.iter().take(mazes).enumerate() {
            let file = root.join(maze_file_path(size, size, shape, i));
            write(&file, &npy::write(maze.grid()));
            for encoding in Encoding::ALL {
                for k in 0..trials {
                    let trial = play(shape, encoding, maze, &set[i + 1], i + k, &library);
                    let rel = ExportPath {
                        encoding,
                        answer_mode: Default::default(),
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
