//! The export layout: where maze files and transcripts sit, as paths relative to an
//! export's root (docs/CONTRACT.md, docs/cli.md).
//!
//! ```text
//! experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy
//! {encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt
//! {encoding}+{mode}_{model}_results/...     the same under an answer mode other than free
//! ```
//!
//! [`maze_file_path`] writes the first; [`ExportPath`] renders and parses the second, so a
//! transcript's place tells its encoding, model, shape, maze and trial.
//!
//! ```
//! use shapemaze_core::results::layout::{maze_file_path, ExportPath};
//! use shapemaze_core::maze::shape::Shape;
//!
//! assert_eq!(maze_file_path(5, 5, Shape::C, 2), "experiment_mazes/5x5/C/5x5_C_2.npy");
//! let p = ExportPath::parse("runs/matrix_qwen_results/5x5/C/5x5_C_2.npy/0.txt")
//!     .expect("in the layout");
//! assert_eq!((p.model.as_str(), p.maze, p.trial), ("qwen", 2, 0));
//! ```

use crate::maze::encoding::Encoding;
use crate::maze::shape::Shape;
use crate::play::answer::AnswerMode;
use serde::Serialize;

/// Folder with the maze files of an export (`experiment_mazes/{R}x{C}/{shape}/...`).
pub const MAZES_DIR: &str = "experiment_mazes";
/// Ending of a results folder's name (`{encoding}_{model}_results`).
pub const RESULTS_SUFFIX: &str = "_results";
/// Ending of a maze file's name (and of the folder holding its transcripts).
pub const MAZE_FILE_EXT: &str = ".npy";
/// Ending of a transcript file's name (`{k}.txt`).
pub const TRANSCRIPT_EXT: &str = ".txt";

/// A model's name as it appears in a results folder: characters outside `[A-Za-z0-9._-]`
/// become `-` (docs/CONTRACT.md).
pub fn model_dir_name(model: &str) -> String {
    model
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Path of maze `index` of a set, relative to an export's root:
/// `experiment_mazes/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy`.
pub fn maze_file_path(rows: usize, cols: usize, shape: Shape, index: usize) -> String {
    format!("{MAZES_DIR}/{rows}x{cols}/{shape}/{rows}x{cols}_{shape}_{index}{MAZE_FILE_EXT}")
}

/// Where a transcript sits in the export layout:
/// `{encoding}_{model}_results/{R}x{C}/{shape}/{R}x{C}_{shape}_{i}.npy/{k}.txt`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExportPath {
    /// The encoding the maze was shown in.
    pub encoding: Encoding,
    /// The answer mode (`free` for the design's, whose folders name no mode).
    #[serde(skip_serializing_if = "AnswerMode::is_free")]
    pub answer_mode: AnswerMode,
    /// The model's name as in the folder (`qwen` for the design's own results).
    pub model: String,
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// The maze's shape.
    pub shape: Shape,
    /// Index `i` of the maze in its set.
    pub maze: usize,
    /// Index `k` of the trial on that maze.
    pub trial: usize,
}

impl ExportPath {
    /// Where a record's transcript goes in the layout (its sample is `i`, its repeat `k`):
    /// the trial's identity in an export, a reviews file and a score of its folder.
    pub fn of_record(record: &crate::results::record::TrialRecord) -> ExportPath {
        ExportPath {
            encoding: record.encoding,
            answer_mode: record.answer_mode,
            model: record.model.clone(),
            rows: record.size,
            cols: record.size,
            shape: record.shape,
            maze: record.sample,
            trial: record.repeat,
        }
    }

    /// Reads the layout from the last five components of `path` (`/` or `\` separated), so
    /// a path below any folder works. `None` when the path is not in the layout.
    pub fn parse(path: &str) -> Option<ExportPath> {
        let parts: Vec<&str> = path.split(['/', '\\']).filter(|s| !s.is_empty()).collect();
        let [.., results, size, shape_dir, maze_file, trial_file] = parts[..] else {
            return None;
        };
        let (encoding, answer_mode, model) = parse_results_dir(results)?;
        let (rows, cols) = parse_size(size)?;
        let shape = Shape::parse(shape_dir).ok()?;
        let stem = maze_file.strip_suffix(MAZE_FILE_EXT)?;
        let (prefix, index) = stem.rsplit_once('_')?;
        let (file_size, file_shape) = prefix.split_once('_')?;
        if parse_size(file_size)? != (rows, cols) || Shape::parse(file_shape).ok()? != shape {
            return None;
        }
        Some(ExportPath {
            encoding,
            answer_mode,
            model: model.to_string(),
            rows,
            cols,
            shape,
            maze: parse_index(index)?,
            trial: parse_index(trial_file.strip_suffix(TRANSCRIPT_EXT)?)?,
        })
    }

    /// The path relative to an export's root (the reverse of [`ExportPath::parse`]).
    pub fn render(&self) -> String {
        let (r, c, s) = (self.rows, self.cols, self.shape);
        let mode = match self.answer_mode {
            AnswerMode::Free => String::new(),
            m => format!("+{m}"),
        };
        format!(
            "{}{mode}_{}{RESULTS_SUFFIX}/{r}x{c}/{s}/{r}x{c}_{s}_{}{MAZE_FILE_EXT}/{}{TRANSCRIPT_EXT}",
            self.encoding,
            model_dir_name(&self.model),
            self.maze,
            self.trial
        )
    }
}

fn parse_index(s: &str) -> Option<usize> {
    s.bytes()
        .all(|b| b.is_ascii_digit())
        .then(|| s.parse().ok())
        .flatten()
}

fn parse_size(s: &str) -> Option<(usize, usize)> {
    let (r, c) = s.split_once('x')?;
    Some((parse_index(r)?, parse_index(c)?))
}

/// `{encoding}_{model}_results` or `{encoding}+{mode}_{model}_results` read back.
fn parse_results_dir(name: &str) -> Option<(Encoding, AnswerMode, &str)> {
    let rest = name.strip_suffix(RESULTS_SUFFIX)?;
    Encoding::ALL.into_iter().find_map(|e| {
        let after = rest.strip_prefix(e.name())?;
        let (mode, after) = match after.strip_prefix('+') {
            Some(m) => {
                let (mode, model) = m.split_once('_')?;
                (AnswerMode::parse(mode).ok()?, model)
            }
            None => (AnswerMode::Free, after.strip_prefix('_')?),
        };
        (!after.is_empty()).then_some((e, mode, after))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_paths_round_trip_and_foreign_paths_are_refused() {
        let p = ExportPath {
            encoding: Encoding::CoordList,
            answer_mode: AnswerMode::Free,
            model: "qwen".into(),
            rows: 5,
            cols: 5,
            shape: Shape::C,
            maze: 12,
            trial: 3,
        };
        let text = p.render();
        assert_eq!(text, "coord_list_qwen_results/5x5/C/5x5_C_12.npy/3.txt");
        assert_eq!(
            ExportPath::parse(&format!("/data/run 1/{text}")),
            Some(p.clone()),
            "any folder above"
        );
        for bad in [
            "coord_list_results/5x5/C/5x5_C_12.npy/3.txt",
            "json_qwen_results/5x5/C/5x5_C_12.npy/3.txt",
            "coord_list_qwen_results/5x5/C/5x5_Z_12.npy/3.txt",
            "coord_list_qwen_results/5x5/C/7x7_C_12.npy/3.txt",
            "coord_list_qwen_results/5x5/C/5x5_C_+1.npy/3.txt",
            "coord_list_qwen_results/5x5/C/5x5_C_12.npy/notes.txt",
            "5x5_C_12.npy/3.txt",
        ] {
            assert_eq!(ExportPath::parse(bad), None, "{bad}");
        }
        // An answer mode other than free stands beside the encoding.
        let moded = ExportPath {
            answer_mode: AnswerMode::Tool,
            ..p.clone()
        };
        assert_eq!(
            moded.render(),
            "coord_list+tool_qwen_results/5x5/C/5x5_C_12.npy/3.txt"
        );
        assert_eq!(ExportPath::parse(&moded.render()), Some(moded));
        assert_eq!(
            ExportPath::parse("matrix+grammar_qwen_results/5x5/C/5x5_C_1.npy/0.txt"),
            None,
            "no such mode"
        );
        assert_eq!(model_dir_name("openai/gpt-4o mini"), "openai-gpt-4o-mini");
        assert_eq!(
            maze_file_path(5, 5, Shape::Z, 0),
            "experiment_mazes/5x5/Z/5x5_Z_0.npy"
        );
    }
}
