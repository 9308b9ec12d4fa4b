//! Walking a results folder: its transcripts, and paths shown relative to it.

use shapemaze_core::batch::design::ExperimentDesign;
use shapemaze_core::maze::grid::Grid;
use shapemaze_core::maze::npy;
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::original::audit::Skipped;
use shapemaze_core::results::layout::ExportPath;
use shapemaze_core::results::layout::TRANSCRIPT_EXT;
use shapemaze_core::results::rescore::image_maze_file;
use shapemaze_core::results::rescore::Hints;
use std::path::{Path, PathBuf};

/// `path` relative to `root`, with `/` separators.
pub fn display(root: &Path, path: &Path) -> String {
    match path.strip_prefix(root) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        _ => path.to_string_lossy().into_owned(),
    }
}

/// Every `*.txt` below `root` (or `root` itself when it is a file), sorted. Only `root`
/// failing to open is an error; a sub-folder that cannot be read is noted in `skipped`.
pub fn list_transcripts(root: &Path, skipped: &mut Vec<Skipped>) -> std::io::Result<Vec<PathBuf>> {
    if std::fs::metadata(root)?.is_file() {
        return Ok(vec![root.to_path_buf()]);
    }
    let mut files = Vec::new();
    let mut pending = vec![(root.to_path_buf(), std::fs::read_dir(root)?)];
    while let Some((dir, entries)) = pending.pop() {
        for entry in entries {
            let entry = match entry {
                Ok(e) => e,
                Err(e) => {
                    skipped.push(Skipped {
                        file: display(root, &dir),
                        why: format!("cannot be listed: {e}"),
                    });
                    continue;
                }
            };
            let path = entry.path();
            match entry.file_type() {
                Ok(t) if t.is_dir() => match std::fs::read_dir(&path) {
                    Ok(sub) => pending.push((path, sub)),
                    Err(e) => skipped.push(Skipped {
                        file: display(root, &path),
                        why: format!("cannot be listed: {e}"),
                    }),
                },
                Ok(t) if t.is_file() && path.to_string_lossy().ends_with(TRANSCRIPT_EXT) => {
                    files.push(path)
                }
                _ => {}
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The maze a transcript showed only as an image (vision `image`: its text holds none),
/// read from its export folder's maze file ([`image_maze_file`]); `None` for any other
/// transcript, or when the file is missing or unreadable.
pub fn maze_beside(transcript: &Path, text: &str) -> Option<Grid> {
    let file = image_maze_file(&transcript.to_string_lossy(), text)?;
    npy::read(&std::fs::read(file).ok()?).ok()
}
/// What a transcript's place says about it (its layout, when in the export layout) and the
/// hints it is re-scored with: the folder's shapes in play, a maze file beside it.
pub fn hints_for(
    path: &Path,
    text: &str,
    in_play: Option<ShapeSet>,
) -> (Option<ExportPath>, Hints) {
    let layout = ExportPath::parse(&path.to_string_lossy());
    let hints = Hints {
        in_play,
        maze: maze_beside(path, text),
        ..layout.as_ref().map(Hints::from).unwrap_or_default()
    };
    (layout, hints)
}

/// The shapes in play of the design an export folder holds (its `experiment.json`), when
/// it holds one that reads: a transcript does not say, and a C trial of a design with U
/// is read differently.
pub fn folder_shapes(root: &Path) -> Option<ShapeSet> {
    let text = std::fs::read_to_string(root.join("experiment.json")).ok()?;
    ExperimentDesign::from_json(&text)
        .ok()
        .map(|d| d.shape_set())
}
