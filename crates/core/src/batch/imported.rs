//! Mazes imported into a design from `.npy` files (the design's original maze sets or any
//! others): each file read, checked and named, so a design can run on exactly those mazes.

use crate::batch::error::{DesignError, StoredMazeError};
use crate::maze::encoding::Encoding;
use crate::maze::grid::{check_size, Maze, MazeError, SizeError};
use crate::maze::npy::{self, NpyError};
use crate::maze::shape::Shape;
use crate::results::layout::{MAZES_DIR, MAZE_FILE_EXT};
use crate::text::UnknownName;
use serde::{Deserialize, Serialize};

/// A maze brought in from a `.npy` file of the export layout, kept in the design in the
/// matrix encoding so the design is one self-contained JSON file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedMaze {
    /// The shape its folder names.
    pub shape: Shape,
    /// The grid side.
    pub size: usize,
    /// Its index `i` in the set (the trial's `sample`).
    pub index: usize,
    /// The maze in the matrix encoding, one row per entry (`1 0 P G`).
    pub rows: Vec<String>,
}

impl ImportedMaze {
    /// Reads a maze file: `path` must end in the layout
    /// `experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy` (any folder above it),
    /// `bytes` is the `.npy` file. The error says what is wrong with which file.
    pub fn from_npy(path: &str, bytes: &[u8]) -> Result<ImportedMaze, MazeFileError> {
        let bad = |problem: MazeFileProblem| MazeFileError {
            path: path.to_string(),
            problem,
        };
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
        let [.., mazes, size_dir, shape_dir, file] = parts[..] else {
            return Err(bad(MazeFileProblem::NotInLayout));
        };
        if mazes != MAZES_DIR {
            return Err(bad(MazeFileProblem::NotUnderMazes));
        }
        let size = size_dir
            .split_once('x')
            .filter(|(r, c)| r == c)
            .and_then(|(r, _)| r.parse::<usize>().ok())
            .ok_or_else(|| bad(MazeFileProblem::SizeFolder(size_dir.to_string())))?;
        check_size(size).map_err(|e| bad(MazeFileProblem::Size(e)))?;
        let shape = Shape::parse(shape_dir).map_err(|e| bad(MazeFileProblem::Shape(e)))?;
        let stem = format!("{size_dir}_{shape_dir}");
        let index = file
            .strip_suffix(MAZE_FILE_EXT)
            .and_then(|s| s.rsplit_once('_'))
            .filter(|(prefix, _)| *prefix == stem)
            .and_then(|(_, i)| i.parse::<usize>().ok())
            .ok_or_else(|| bad(MazeFileProblem::FileName(stem.clone())))?;
        let grid = npy::read(bytes).map_err(|e| bad(MazeFileProblem::Npy(e)))?;
        if grid.rows() != size || grid.cols() != size {
            return Err(bad(MazeFileProblem::Dimensions {
                rows: grid.rows(),
                cols: grid.cols(),
                size,
            }));
        }
        let maze = Maze::from_grid(grid).map_err(|e| bad(MazeFileProblem::NotPlayable(e)))?;
        Ok(ImportedMaze::of(shape, index, &maze))
    }

    /// The imported form of `maze`, as maze `index` of its shape's set.
    pub fn of(shape: Shape, index: usize, maze: &Maze) -> ImportedMaze {
        ImportedMaze {
            shape,
            size: maze.rows(),
            index,
            rows: Encoding::Matrix
                .render(maze.grid())
                .lines()
                .map(str::to_string)
                .collect(),
        }
    }

    /// The maze, read back from its rows.
    pub fn maze(&self) -> Result<Maze, StoredMazeError> {
        let grid = Encoding::Matrix
            .parse_grid(&self.rows.join("\n"), self.size, self.size)
            .map_err(StoredMazeError::Unreadable)?;
        Maze::from_grid(grid).map_err(StoredMazeError::NotPlayable)
    }
}

/// Why a maze file cannot be imported: the file, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeFileError {
    /// The file's path as given.
    pub path: String,
    /// What is wrong with it.
    pub problem: MazeFileProblem,
}

/// What is wrong with a maze file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MazeFileProblem {
    /// Its path is not `experiment_mazes/RxC/shape/RxC_shape_i.npy`.
    NotInLayout,
    /// The folder above the size folder is not `experiment_mazes`.
    NotUnderMazes,
    /// The size folder (named here) is not a square size like `5x5`.
    SizeFolder(String),
    /// A size the app does not play.
    Size(SizeError),
    /// A shape folder that names no shape.
    Shape(UnknownName),
    /// The file name is not `{stem}_i.npy` (the stem given).
    FileName(String),
    /// Not a maze file NumPy wrote.
    Npy(NpyError),
    /// The array's dimensions disagree with its folder.
    Dimensions {
        /// The array's rows.
        rows: usize,
        /// The array's columns.
        cols: usize,
        /// The folder's size.
        size: usize,
    },
    /// Not a playable maze.
    NotPlayable(MazeError),
}

impl std::fmt::Display for MazeFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.path)?;
        match &self.problem {
            MazeFileProblem::NotInLayout => {
                write!(f, "not in the layout {MAZES_DIR}/RxC/shape/RxC_shape_i.npy")
            }
            MazeFileProblem::NotUnderMazes => {
                write!(f, "the folder above the size is not {MAZES_DIR}")
            }
            MazeFileProblem::SizeFolder(d) => write!(f, "'{d}' is not a square size like 5x5"),
            MazeFileProblem::Size(e) => write!(f, "{e}"),
            MazeFileProblem::Shape(e) => write!(f, "{e}"),
            MazeFileProblem::FileName(stem) => write!(f, "the file name is not {stem}_i.npy"),
            MazeFileProblem::Npy(e) => write!(f, "{e}"),
            MazeFileProblem::Dimensions { rows, cols, size } => write!(
                f,
                "the array is {rows}x{cols} but its folder says {size}x{size}"
            ),
            MazeFileProblem::NotPlayable(e) => write!(f, "not playable: {e}"),
        }
    }
}

impl std::error::Error for MazeFileError {}

/// Reads every `.npy` file of an imported folder or ZIP (`(path, bytes)` pairs; other
/// files are skipped) into a design's `mazes`, sorted by size, shape and index. Refuses
/// the whole set, naming each bad file, when any maze file is unreadable, and a set
/// holding no maze file at all.
pub fn mazes_from_files(files: &[(String, Vec<u8>)]) -> Result<Vec<ImportedMaze>, DesignError> {
    let mut mazes = Vec::new();
    let mut problems = Vec::new();
    for (path, bytes) in files.iter().filter(|(p, _)| p.ends_with(MAZE_FILE_EXT)) {
        match ImportedMaze::from_npy(path, bytes) {
            Ok(m) => mazes.push(m),
            Err(e) => problems.push(e.to_string()),
        }
    }
    if mazes.is_empty() && problems.is_empty() {
        problems.push(format!(
            "no maze file found: expected files like {MAZES_DIR}/5x5/square/5x5_square_0.npy"
        ));
    }
    if !problems.is_empty() {
        return Err(DesignError { problems });
    }
    crate::sort::sort_by_key(&mut mazes, |m| (m.size, m.shape, m.index));
    Ok(mazes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_maze_file_is_refused_naming_the_file() {
        let files = vec![(
            "experiment_mazes/5x5/spiral/5x5_spiral_0.npy".to_string(),
            b"not numpy".to_vec(),
        )];
        let err = mazes_from_files(&files).expect_err("refused");
        assert!(
            err.to_string().contains("5x5_spiral_0.npy") && err.to_string().contains("NumPy"),
            "the message names the file and the problem: {err}"
        );
        let err = mazes_from_files(&[]).expect_err("no files");
        assert!(err.to_string().contains("no maze file"), "{err}");
    }
}
