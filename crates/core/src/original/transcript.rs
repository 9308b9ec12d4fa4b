//! An original transcript read as it really is: no message markers, so the conversation is
//! split by the original's fixed prompt sentences; a reply may be glued to the end of the
//! prompt's last sentence, and `SOLVE: …` stands right after the solve phase.

use crate::maze::encoding::Encoding;
use crate::maze::grid::{Grid, Movement};
use crate::verify::Outcome;

/// The first prompt's opening sentence.
pub const FIRST_PROMPT_START: &str = "You are tasked with solving a maze.";

/// The line before the maze in the first prompt.
pub const MAZE_INTRO: &str = "Here is the maze you should solve:";

/// The sentence every solve prompt ends with; the reply follows it.
pub const NEXT_MOVE: &str = "Please provide the coordinates of your next move.";

/// The line before the maze in every later solve prompt.
pub const UPDATE_INTRO: &str = "Here is the current state of the maze after your latest move:";

/// The combined recognition and generation prompt's first line.
pub const COMBINED_START: &str = "For the maze you were tasked to solve, please provide:";

/// The combined prompt's last line (the braces stand there literally).
pub const COMBINED_LAST: &str =
    "* The general shape formed by its empty spaces (corridors) is recognizable as \"{shape}\".";

/// How an API-failure file begins.
pub const QUERY_FAILED: &str = "Query did not run:";

/// The line an API-failure file carries the error message on.
pub const ERROR_LINE: &str = "Error:";

/// How vision prompts begin.
pub const VISION_START: &str = "# Maze Navigation Task";

/// The vision solve prompt's last line: the image follows it, then the first reply.
pub const VISION_MAZE_INTRO: &str = "Here is the maze you need to solve:";

/// The vision recognition and generation prompt's first line.
pub const VISION_COMBINED_START: &str = "# Maze Shape Recognition and Generation Task";

/// The vision recognition and generation prompt's last line.
pub const VISION_COMBINED_LAST: &str =
    "Please provide both Part 1 (recognition) and Part 2 (generation) in your response.";

/// The original's move limit.
pub const ORIGINAL_MOVE_LIMIT: usize = 16;

/// One solve step of an original transcript: the maze its prompt showed and the reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The maze in the prompt (`None` when it could not be read).
    pub maze: Option<Grid>,
    /// The reply to the prompt.
    pub reply: String,
}

/// An original transcript read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriginalTranscript {
    /// The verdict lines, wherever they stand (`None` where missing).
    pub closing: [Option<Outcome>; 3],
    /// Whether the file records an API failure (`Query did not run:` / `Error:`).
    pub api_error: bool,
    /// Whether the prompts are the vision ones (the maze was an image).
    pub vision: bool,
    /// The encoding the mazes are written in (from the first maze).
    pub encoding: Option<Encoding>,
    /// The movement rule the first prompt states.
    pub movement: Option<Movement>,
    /// The solve steps, in order.
    pub steps: Vec<Step>,
    /// The reply to the combined recognition and generation prompt.
    pub combined_reply: Option<String>,
    /// The reply to a separate recognition prompt (Shapemaze's stepwise runs).
    pub recognize_reply: Option<String>,
    /// The reply to a separate generation prompt (Shapemaze's stepwise runs).
    pub generate_reply: Option<String>,
}

fn verdict_line(line: &str) -> Option<(usize, Outcome)> {
    let (key, value) = line.trim().split_once(':')?;
    let idx = ["SOLVE", "RECOGNIZE", "GENERATE"]
        .iter()
        .position(|k| *k == key.trim())?;
    Some((idx, Outcome::from_closing(value.trim())?))
}

/// Byte offset of the start of each line of `text`, with the line.
fn lines_at(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split('\n') {
        out.push((at, line));
        at += line.len() + 1;
    }
    out
}

/// The first block of non-blank lines after the line holding `intro` (blank lines before
/// it skipped), up to a line holding `stop`.
fn maze_block(prompt: &str, intro: &str) -> Option<String> {
    let start = prompt.find(intro)? + intro.len();
    let mut block = Vec::new();
    for line in prompt[start..].split('\n').skip(1) {
        if line.contains(NEXT_MOVE) {
            break;
        }
        if line.trim().is_empty() {
            if block.is_empty() {
                continue;
            }
            break;
        }
        block.push(line.trim_end());
    }
    (!block.is_empty()).then(|| block.join("\n"))
}

/// Every `(r, c)` in `text` the original way: integers, spaces allowed, a minus sign
/// allowed. Returned with the byte offset of the `(`.
pub fn original_coordinates(text: &str) -> Vec<(usize, (i64, i64))> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'(' {
            if let Some((pair, end)) = pair_at(b, i + 1) {
                out.push((i, pair));
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out
}

fn pair_at(b: &[u8], mut i: usize) -> Option<((i64, i64), usize)> {
    let skip = |i: &mut usize| {
        while *i < b.len() && b[*i] == b' ' {
            *i += 1;
        }
    };
    let int = |i: &mut usize| -> Option<i64> {
        let neg = *i < b.len() && b[*i] == b'-';
        if neg {
            *i += 1;
        }
        let start = *i;
        let mut v: i64 = 0;
        while *i < b.len() && b[*i].is_ascii_digit() && *i - start < 9 {
            v = v * 10 + i64::from(b[*i] - b'0');
            *i += 1;
        }
        if *i == start || (*i < b.len() && b[*i].is_ascii_digit()) {
            return None;
        }
        Some(if neg { -v } else { v })
    };
    skip(&mut i);
    let r = int(&mut i)?;
    skip(&mut i);
    (i < b.len() && b[i] == b',').then_some(())?;
    i += 1;
    skip(&mut i);
    let c = int(&mut i)?;
    skip(&mut i);
    (i < b.len() && b[i] == b')').then_some(())?;
    Some(((r, c), i + 1))
}

/// Reads a maze as the original renderer writes it (matrix or coordinate list).
pub fn read_maze(block: &str) -> Option<(Encoding, Grid)> {
    let first = block.trim_start();
    if first.starts_with("Walls:") || first.starts_with("Empty:") {
        let coords = original_coordinates(block);
        let rows = coords.iter().map(|(_, (r, _))| *r).max()? + 1;
        let cols = coords.iter().map(|(_, (_, c))| *c).max()? + 1;
        let (rows, cols) = (usize::try_from(rows).ok()?, usize::try_from(cols).ok()?);
        let g = Encoding::CoordList.parse_grid(block, rows, cols).ok()?;
        Some((Encoding::CoordList, g))
    } else {
        let g = Encoding::Matrix.parse_grid(block, 0, 0).ok()?;
        Some((Encoding::Matrix, g))
    }
}

/// Reads an original transcript exactly as ORIGINAL_DATA.md states it.
pub fn parse(text: &str) -> OriginalTranscript {
    // Most transcripts have no carriage return: those are read as they are, uncopied.
    let text: std::borrow::Cow<'_, str> = if text.contains('\r') {
        text.replace("\r\n", "\n").into()
    } else {
        text.into()
    };
    let lines = lines_at(&text);
    let mut t = OriginalTranscript::default();
    let mut solve_at = None;
    for &(at, line) in &lines {
        if let Some((i, o)) = verdict_line(line) {
            t.closing[i] = Some(o);
            if i == 0 && solve_at.is_none() {
                solve_at = Some(at);
            }
        }
    }
    let body = text.trim_start();
    t.vision = body.starts_with(VISION_START);
    t.api_error = !body.starts_with(FIRST_PROMPT_START)
        && !t.vision
        && lines
            .iter()
            .any(|(_, l)| l.starts_with(QUERY_FAILED) || l.starts_with(ERROR_LINE));
    if t.api_error {
        return t;
    }
    let solve_end = solve_at.unwrap_or(text.len());
    let solve = &text[..solve_end];
    if t.vision {
        // The image stood where the prompts end; each reply follows its prompt's last line.
        if let Some(i) = solve.find(VISION_MAZE_INTRO) {
            for reply in solve[i + VISION_MAZE_INTRO.len()..].split(UPDATE_INTRO) {
                t.steps.push(Step {
                    maze: None,
                    reply: reply.trim().to_string(),
                });
            }
        }
        t.combined_reply = combined_reply(
            &text[solve_end..],
            VISION_COMBINED_START,
            VISION_COMBINED_LAST,
        );
        return t;
    }
    if let Some(first) = solve.split(NEXT_MOVE).next() {
        if first.contains("any diagonal") {
            t.movement = Some(Movement::Eight);
        } else if first.contains("up, down, left, or right") {
            t.movement = Some(Movement::Four);
        }
    }
    let parts: Vec<&str> = solve.split(NEXT_MOVE).collect();
    // parts[0] is the first prompt; parts[k] (k >= 1) is reply k, then the next prompt.
    let mut prompt = parts.first().copied().unwrap_or("");
    let mut intro = MAZE_INTRO;
    for part in parts.iter().skip(1) {
        let block = maze_block(prompt, intro);
        let maze = block.as_deref().and_then(read_maze).map(|(e, g)| {
            t.encoding.get_or_insert(e);
            g
        });
        let (reply, next) = match part.find(UPDATE_INTRO) {
            Some(i) => (&part[..i], &part[i..]),
            None => (*part, ""),
        };
        t.steps.push(Step {
            maze,
            reply: reply.trim().to_string(),
        });
        prompt = next;
        intro = UPDATE_INTRO;
    }
    t.combined_reply = combined_reply(&text[solve_end..], COMBINED_START, COMBINED_LAST);
    t
}

/// The reply to the combined recognition and generation prompt that opens with `first` and
/// ends with the line `last` (else its first line), up to the `RECOGNIZE:` line.
fn combined_reply(after_solve: &str, first: &str, last: &str) -> Option<String> {
    let rest = &after_solve[after_solve.find(first)?..];
    let reply_start = match rest.find(last) {
        Some(i) => i + last.len(),
        None => rest.find('\n').unwrap_or(rest.len()),
    };
    let reply = &rest[reply_start..];
    let end = lines_at(reply)
        .iter()
        .rev()
        .find(|(_, l)| verdict_line(l).is_some_and(|(i, _)| i == 1))
        .map_or(reply.len(), |(at, _)| *at);
    Some(reply[..end].trim().to_string())
}

/// Reads one of Shapemaze's own transcripts (with `### user` / `### assistant` markers)
/// into the same steps, so the original checks can score a new model's runs too; `None`
/// without markers. Single-shot solve prompts are not read (the original asked stepwise).
pub fn from_marked(text: &str, hint: Option<Encoding>) -> Option<OriginalTranscript> {
    use crate::play::prompt::{read_heading, Heading};
    use crate::play::transcript::Role;
    let parsed = crate::play::transcript::parse(text);
    if !parsed.marked {
        return None;
    }
    let first = parsed.messages.first()?;
    let encoding = hint.unwrap_or_else(|| crate::results::rescore::detect_encoding(&first.content));
    let mut t = OriginalTranscript {
        closing: parsed.closing,
        encoding: Some(encoding),
        ..OriginalTranscript::default()
    };
    let mut current = None;
    let mut maze = None;
    for m in &parsed.messages {
        match m.role {
            Role::User => {
                if let Some(h) = read_heading(&m.content) {
                    current = Some(h);
                    if matches!(h, Heading::Solve | Heading::Update) {
                        maze = crate::results::rescore::read_shown_maze(&m.content, encoding).ok();
                    }
                }
            }
            Role::Assistant => {
                let reply = m.content.clone();
                match current {
                    Some(Heading::Solve | Heading::Update) => t.steps.push(Step {
                        maze: maze.take(),
                        reply,
                    }),
                    Some(Heading::Combined) => t.combined_reply = Some(reply),
                    Some(Heading::Recognize) => t.recognize_reply = Some(reply),
                    Some(Heading::Generate) => t.generate_reply = Some(reply),
                    Some(Heading::SolvePath) | None => {}
                }
            }
        }
    }
    // Only a trial whose endpoint failed before any reply counts as an API failure file.
    t.api_error = t.steps.is_empty() && t.closing.contains(&Some(Outcome::Error));
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::encoding::CoordStyle;
    use crate::maze::grid::Pos;
    use crate::maze::grid::Tile;
    use crate::maze::shape::Shape;
    use crate::original::test_support::{audited, grid, marks, original_file, NEW_SQUARE, SQUARE};

    #[test]
    fn a_clean_success_with_a_glued_reply_scores_the_same_three_ways() {
        let text = original_file(
            SQUARE,
            Encoding::Matrix,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            true,
            &format!("Shape: square\n\n{NEW_SQUARE}"),
            ["SUCCESS", "SUCCESS", "SUCCESS"],
        );
        assert!(
            text.contains(&format!("{NEXT_MOVE}(0, 1)")),
            "the reply is glued"
        );
        let t = parse(&text);
        assert_eq!(t.steps.len(), 2, "two solve steps");
        assert_eq!(t.steps[0].reply, "(0, 1)", "the glued reply is split off");
        assert_eq!(
            t.steps[1].maze.as_ref().map(|g| g.find(Tile::Player)),
            Some(vec![Pos::new(0, 1)]),
            "the update prompt's maze shows the move"
        );
        let a = audited(&text, Shape::Square, Encoding::Matrix);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert!(a.causes.is_empty(), "no differences: {a:?}");
    }

    #[test]
    fn coordinate_list_transcripts_are_read_and_scored() {
        let new = Encoding::CoordList.render_with(&grid(NEW_SQUARE), CoordStyle::Spaced);
        let text = original_file(
            SQUARE,
            Encoding::CoordList,
            Shape::Square,
            &["(0, 1)", "(0, 2)"],
            true,
            &format!("Square.\n{new}"),
            ["SUCCESS", "SUCCESS", "SUCCESS"],
        );
        assert!(text.contains("Walls: (1, 1)"), "coordinate list prompt");
        let t = parse(&text);
        assert_eq!(t.encoding, Some(Encoding::CoordList), "detected");
        let a = audited(&text, Shape::Square, Encoding::CoordList);
        assert_eq!(a.strict, marks(["SUCCESS", "SUCCESS", "SUCCESS"]), "{a:?}");
        assert!(a.causes.is_empty(), "no differences: {a:?}");
    }

    #[test]
    fn original_coordinates_allow_spaces_and_minus_signs() {
        let found: Vec<(i64, i64)> = original_coordinates("(1,2) then ( -1 , 3 ) not (a, b) (4, 5")
            .into_iter()
            .map(|(_, p)| p)
            .collect();
        assert_eq!(found, vec![(1, 2), (-1, 3)]);
    }
}
