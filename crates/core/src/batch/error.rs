//! Why a design cannot run (or its mazes cannot be imported).

use crate::maze::extraction::ParseError;
use crate::maze::generate::GenerateError;
use crate::maze::grid::MazeError;
use crate::maze::shape::Shape;
use std::fmt;

/// Why a design cannot run: every problem found, each a sentence saying what to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignError {
    /// The problems, in the order of the design's fields.
    pub problems: Vec<String>,
}

impl fmt::Display for DesignError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.problems.join("; "))
    }
}

impl std::error::Error for DesignError {}

impl DesignError {
    /// The problems as sentences, for a page: `A must be ... . B ... .`
    pub fn sentences(&self) -> String {
        self.problems.join(". ") + "."
    }
}

/// Why a design gives no maze for a trial (or a set of them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MazeLookupError {
    /// The design imports its mazes and has none for this trial.
    NotImported {
        /// The grid side.
        size: usize,
        /// The shape.
        shape: Shape,
        /// The maze's index in its set.
        sample: usize,
    },
    /// The imported maze cannot be played.
    Imported {
        /// The grid side.
        size: usize,
        /// The shape.
        shape: Shape,
        /// The maze's index in its set.
        sample: usize,
        /// Why.
        error: StoredMazeError,
    },
    /// The template library given is for another size than the trial's.
    WrongLibrary {
        /// The library's size.
        library: usize,
        /// The trial's size.
        trial: usize,
    },
    /// The generated set cannot hold the maze.
    Generate(GenerateError),
}

impl fmt::Display for MazeLookupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MazeLookupError::NotImported {
                size,
                shape,
                sample,
            } => write!(f, "no imported maze {size}x{size} {shape} {sample}"),
            MazeLookupError::Imported {
                size,
                shape,
                sample,
                error,
            } => write!(f, "imported maze {size}x{size} {shape} {sample} {error}"),
            MazeLookupError::WrongLibrary { library, trial } => write!(
                f,
                "the template library is for {library}x{library}, the trial is {trial}x{trial}"
            ),
            MazeLookupError::Generate(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MazeLookupError {}

/// Why an imported maze kept in a design cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredMazeError {
    /// Its rows are not a maze in the matrix encoding.
    Unreadable(ParseError),
    /// Its grid is not a playable maze.
    NotPlayable(MazeError),
}

impl std::fmt::Display for StoredMazeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoredMazeError::Unreadable(e) => write!(f, "cannot be read: {e}"),
            StoredMazeError::NotPlayable(e) => write!(f, "is not playable: {e}"),
        }
    }
}

impl std::error::Error for StoredMazeError {}
