//! Human result files of the original page (ORIGINAL_DATA.md "Human results"), read and
//! scored three ways like transcripts.

use crate::maze::encoding::Encoding;
use crate::maze::grid::{Grid, Maze, Movement, Pos, Tile, MAX_SIZE};
use crate::maze::shape::{Shape, ShapeSet};
use crate::original::checks::king_step;
use crate::original::mark::{Mark, Marks};
use crate::original::score::{Audit, AuditCache, Cause, Difference, Reading, Readings};
use crate::play::phase::Phase;
use crate::verify::verify_generation;
use serde::Deserialize;

/// The generation part of a human result file of the original page.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanGeneration {
    /// Whether the page accepted the generated maze.
    pub valid: bool,
    /// The shape the page judged it.
    pub shape: Option<String>,
    /// The open cells, each `[r, c]`.
    pub generated_shape: Vec<[i64; 2]>,
    /// Where the generated maze starts, `[r, c]`.
    pub start_position: Option<[i64; 2]>,
    /// Where it ends, `[r, c]`.
    pub end_position: Option<[i64; 2]>,
    /// The page's feedback text.
    pub feedback: Option<String>,
    /// The page's path ratio.
    pub path_ratio: Option<f64>,
}

/// `maze_type` of a human result file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanMazeType {
    /// The size as the page wrote it (`"5x5"` or a number).
    pub size: serde_json::Value,
    /// The shape's name.
    pub shape: String,
}

/// One human result file of the original page (ORIGINAL_DATA.md "Human results").
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct HumanFile {
    /// The participant.
    pub participant_id: String,
    /// The maze file's name, e.g. `5x5_C_3.npy`.
    pub maze_file: String,
    /// The maze's size and shape.
    pub maze_type: HumanMazeType,
    /// The moves that landed on an open cell, as direction words.
    pub moves: Vec<String>,
    /// Moves counted by the page.
    pub total_moves: Option<u64>,
    /// Seconds.
    pub completion_time: Option<f64>,
    /// When the file was written.
    pub timestamp: serde_json::Value,
    /// Whether the player reached the goal.
    pub maze_complete: bool,
    /// Whether the phase ended on a wall or the edge.
    pub failed: bool,
    /// The page's phase when saved.
    pub phase: serde_json::Value,
    /// The shape chosen from the list.
    pub recognized_shape: Option<String>,
    /// Whether the page judged the choice correct.
    pub recognition_correct: Option<bool>,
    /// The generated corridor.
    pub generation_result: Option<HumanGeneration>,
    /// How the maze was generated.
    pub generation_method: serde_json::Value,
    /// The coordinates the participant entered.
    pub generation_coordinates: serde_json::Value,
}

/// Reads a human result file.
pub fn parse_human(json: &str) -> Result<HumanFile, serde_json::Error> {
    serde_json::from_str(json)
}

/// The step of a direction word (`up`, `down-left`, …).
pub fn direction(word: &str) -> Option<(isize, isize)> {
    Some(match word.trim().to_ascii_lowercase().as_str() {
        "up" => (-1, 0),
        "down" => (1, 0),
        "left" => (0, -1),
        "right" => (0, 1),
        "up-left" => (-1, -1),
        "up-right" => (-1, 1),
        "down-left" => (1, -1),
        "down-right" => (1, 1),
        _ => return None,
    })
}

/// Replays human moves under `movement`: the solve mark, and whether a diagonal on a
/// 4-direction rule is what failed it.
fn replay_human(h: &HumanFile, maze: &Maze, movement: Movement) -> (Option<Mark>, bool) {
    let mut at = maze.player();
    for w in &h.moves {
        let Some((dr, dc)) = direction(w) else {
            return (Some(Mark::Fail), false);
        };
        let Some(to) = at.offset(dr, dc) else {
            return (Some(Mark::Fail), false);
        };
        let open = maze.grid().get(to).is_some_and(Tile::is_open);
        if !movement.is_step(at, to) {
            return (Some(Mark::Fail), true);
        }
        if !open {
            return (Some(Mark::Fail), false);
        }
        at = to;
    }
    if h.maze_complete {
        // The move onto the goal is not listed: it must be one step away.
        if movement.is_step(at, maze.goal()) {
            (Some(Mark::Success), false)
        } else {
            (Some(Mark::Fail), king_step(at, maze.goal()))
        }
    } else if h.failed {
        (Some(Mark::Fail), false)
    } else {
        (None, false)
    }
}

/// The generated maze of a human file: its open cells, P at the start and G at the end.
pub fn human_generated_grid(g: &HumanGeneration, rows: usize, cols: usize) -> Option<Grid> {
    let pos = |[r, c]: [i64; 2]| {
        let p = Pos::new(usize::try_from(r).ok()?, usize::try_from(c).ok()?);
        (p.row < rows && p.col < cols).then_some(p)
    };
    let mut grid = Grid::walls(rows, cols);
    for &cell in &g.generated_shape {
        grid.set(pos(cell)?, Tile::Empty);
    }
    grid.set(pos(g.start_position?)?, Tile::Player);
    grid.set(pos(g.end_position?)?, Tile::Goal);
    Some(grid)
}

/// Scores a human result file three ways on its maze: recorded (the page's own fields),
/// strict (moves replayed with diagonals only on 8-direction shapes; the chosen shape; the
/// generated corridor through today's generation checks) and original (diagonals on every
/// shape; the generated corridor against the original families).
pub fn audit_human(h: &HumanFile, shape: Shape, maze: &Maze, cache: &mut AuditCache) -> Audit {
    let solved = if h.maze_complete {
        Some(Mark::Success)
    } else if h.failed {
        Some(Mark::Fail)
    } else {
        None
    };
    let recorded = Marks {
        solve: solved,
        recognize: h.recognition_correct.map(Mark::of),
        generate: h.generation_result.as_ref().map(|g| Mark::of(g.valid)),
    };
    let mut a = Audit {
        encoding: None,
        shape: Some(shape),
        size: Some((maze.rows(), maze.cols())),
        api_error: false,
        vision: false,
        recorded,
        strict: Marks::default(),
        original: Marks::default(),
        causes: Vec::new(),
        diverged_at: None,
        readings: Readings::default(),
        doubts: Default::default(),
        maze: Some(Audit::fingerprint(maze)),
    };
    let (strict_solve, diagonal) = replay_human(h, maze, shape.movement());
    let (original_solve, _) = replay_human(h, maze, Movement::Eight);
    a.strict.solve = strict_solve;
    a.original.solve = original_solve;
    if strict_solve != original_solve && strict_solve.is_some() && original_solve.is_some() {
        // The moves as one line: the original followed them all; strict stopped at the
        // first diagonal.
        let reply = h.moves.join(", ");
        let mut at = 0;
        let mut stopped = None;
        for w in &h.moves {
            if direction(w).is_some_and(|(dr, dc)| dr != 0 && dc != 0) {
                stopped = Some([at, at + w.len()]);
                break;
            }
            at += w.len() + 2;
        }
        let whole = vec![[0, reply.len()]];
        a.causes.push(Difference::new(
            Phase::Solve,
            if diagonal {
                Cause::DiagonalOnFourDirectionShape
            } else {
                Cause::Other
            },
            Some(Reading::of(None, &reply, stopped, whole)),
        ));
    }
    let chosen = h
        .recognized_shape
        .as_deref()
        .map(|s| Shape::parse(s).ok() == Some(shape));
    a.strict.recognize = chosen.map(Mark::of);
    a.original.recognize = chosen.map(Mark::of);
    if let Some(g) = &h.generation_result {
        let grid = human_generated_grid(g, maze.rows(), maze.cols());
        let strict_ok = grid.as_ref().is_some_and(|grid| {
            maze.rows() <= MAX_SIZE
                && verify_generation(
                    maze,
                    shape,
                    Encoding::Matrix,
                    cache.strict.get(maze.rows(), ShapeSet::STANDARD),
                    &Encoding::Matrix.render(grid),
                )
                .passed()
        });
        let family = cache.family(shape, maze.rows(), maze.cols());
        let original_ok = grid.as_ref().is_some_and(|grid| {
            family.contains(grid)
                && grid.find(Tile::Player).len() == 1
                && grid.find(Tile::Goal).len() == 1
        });
        a.strict.generate = Some(Mark::of(strict_ok));
        a.original.generate = Some(Mark::of(original_ok));
        if strict_ok != original_ok {
            // A corridor today's templates take and the original families do not (or the
            // reverse) is the families' difference; anything else is another cause.
            let cause = match &grid {
                Some(g) if strict_ok && !family.contains(g) => {
                    Cause::TemplateOutsideOriginalFamilies
                }
                Some(g)
                    if original_ok
                        && maze.rows() <= MAX_SIZE
                        && maze.rows() == maze.cols()
                        && !cache
                            .strict
                            .get(maze.rows(), ShapeSet::STANDARD)
                            .matches(shape, &g.open_mask()) =>
                {
                    Cause::TemplateOutsideOriginalFamilies
                }
                _ => Cause::Other,
            };
            let drawn = grid.as_ref().map(|g| Encoding::Matrix.render(g));
            let read = drawn.map(|d| {
                let whole = [0, d.len()];
                Reading::of(None, &d, Some(whole), vec![whole])
            });
            a.causes.push(Difference::new(Phase::Generate, cause, read));
        }
    }
    a
}

#[cfg(test)]
mod human_tests {
    use super::*;

    use crate::original::score::*;

    const SQUARE: &str = "P 0 G 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 0";

    fn maze() -> Maze {
        let g = Encoding::Matrix
            .parse_grid(SQUARE, 0, 0)
            .expect("fixture reads");
        Maze::from_grid(g).expect("P and G")
    }

    fn file(moves: &[&str], complete: bool, failed: bool, chosen: &str) -> String {
        serde_json::json!({
            "participant_id": "p01",
            "maze_file": "5x5_square_1.npy",
            "maze_type": {"size": "5x5", "shape": "square"},
            "moves": moves,
            "total_moves": moves.len(),
            "completion_time": 12.5,
            "timestamp": "2024-03-01T10:00:00Z",
            "maze_complete": complete,
            "failed": failed,
            "phase": "generation",
            "recognized_shape": chosen,
            "recognition_correct": chosen == "square",
            "generation_result": {
                "valid": true,
                "shape": "square",
                "generated_shape": [[0,0],[0,1],[0,2],[1,0],[1,2],[2,0],[2,1],[2,2]],
                "start_position": [0, 0],
                "end_position": [2, 2],
                "feedback": "Valid square",
                "path_ratio": 1.0
            },
            "generation_method": "click",
            "generation_coordinates": []
        })
        .to_string()
    }

    #[test]
    fn a_human_solve_ending_beside_the_goal_scores_the_same_three_ways() {
        let h = parse_human(&file(&["right"], true, false, "square")).expect("reads");
        let a = audit_human(&h, Shape::Square, &maze(), &mut AuditCache::new());
        let all = Marks {
            solve: Some(Mark::Success),
            recognize: Some(Mark::Success),
            generate: Some(Mark::Success),
        };
        assert_eq!(a.recorded, all, "the page's fields");
        assert_eq!(a.strict, all, "today's rules: {a:?}");
        assert_eq!(a.original, all, "the original rules: {a:?}");
        assert!(a.causes.is_empty(), "no differences");
    }

    #[test]
    fn a_human_diagonal_on_a_square_fails_strict_only() {
        // A diagonal into a wall: the page ended the phase there.
        let h = parse_human(&file(&["right", "down-right"], false, true, "cube")).expect("reads");
        let a = audit_human(&h, Shape::Square, &maze(), &mut AuditCache::new());
        assert_eq!(
            a.recorded.solve,
            Some(Mark::Fail),
            "the page ended on a wall"
        );
        assert_eq!(a.strict.solve, Some(Mark::Fail), "a diagonal on a square");
        assert_eq!(
            a.strict.recognize,
            Some(Mark::Fail),
            "cube is not the chosen name"
        );
        let diag = parse_human(&file(&["down", "up-right"], true, false, "square")).expect("reads");
        let a = audit_human(&diag, Shape::Square, &maze(), &mut AuditCache::new());
        assert_eq!(
            a.original.solve,
            Some(Mark::Success),
            "the page took the diagonal"
        );
        assert_eq!(
            a.strict.solve,
            Some(Mark::Fail),
            "not on a 4-direction shape"
        );
        assert_eq!(
            a.causes.first().map(|d| d.cause),
            Some(Cause::DiagonalOnFourDirectionShape),
            "{a:?}"
        );
        let read = a.causes[0].read.as_ref().expect("a reading");
        assert_eq!(read.reply, "down, up-right", "the moves as one line");
        let texts = |spans: &[[usize; 2]]| -> Vec<String> {
            spans
                .iter()
                .map(|[s, e]| read.reply[*s..*e].to_string())
                .collect()
        };
        assert_eq!(
            texts(&read.strict),
            vec!["up-right"],
            "where strict stopped"
        );
        assert_eq!(
            texts(&read.original),
            vec!["down, up-right"],
            "the original took all"
        );
    }

    #[test]
    fn a_drawn_corridor_outside_the_original_families_is_named_as_such() {
        use crate::maze::generate::generate_one;
        use crate::maze::templates::TemplateLibrary;
        let mut cache = AuditCache::new();
        let family = cache.family(Shape::C, 5, 5);
        let lib = TemplateLibrary::new(5);
        // A corridor among today's C templates that the original families do not hold
        // (today's C family is wider than the original's).
        let outside = lib
            .of(Shape::C)
            .iter()
            .map(|m| {
                let cells = m.cells();
                let mut g = Grid::walls(5, 5);
                for &p in &cells {
                    g.set(p, Tile::Empty);
                }
                g.set(cells[0], Tile::Player);
                g.set(cells[cells.len() - 1], Tile::Goal);
                (cells, g)
            })
            .find(|(_, g)| !family.contains(g))
            .expect("a C template outside the original families");
        let (cells, _) = &outside;
        let pair = |p: Pos| [p.row as i64, p.col as i64];
        let maze = generate_one(Shape::C, 3, 7, &lib).expect("a C maze");
        let mut h = parse_human(&file(&[], false, true, "C")).expect("reads");
        h.maze_file = "5x5_C_1.npy".into();
        h.generation_result = Some(HumanGeneration {
            valid: true,
            generated_shape: cells.iter().map(|&p| pair(p)).collect(),
            start_position: Some(pair(cells[0])),
            end_position: Some(pair(cells[cells.len() - 1])),
            ..HumanGeneration::default()
        });
        let a = audit_human(&h, Shape::C, &maze, &mut cache);
        assert_eq!(a.strict.generate, Some(Mark::Success), "{a:?}");
        assert_eq!(a.original.generate, Some(Mark::Fail), "{a:?}");
        assert_eq!(
            a.causes.iter().map(|d| d.cause).collect::<Vec<_>>(),
            vec![Cause::TemplateOutsideOriginalFamilies],
            "{a:?}"
        );
    }
}
