//! The messages a trial sends its player, one function per message. Each phase's first
//! message begins with a fixed heading ([`SOLVE_HEADING`], [`RECOGNIZE_HEADING`],
//! [`GENERATE_HEADING`], [`COMBINED_HEADING`]) so a transcript can be split into phases when
//! it is read back ([`read_heading`], [`announced_move_limit`]).
//!
//! The wording is versioned ([`VERSION`]): a trial record keeps the version it was asked
//! with, and any change to a sentence here bumps it.

use crate::maze::encoding::{CoordStyle, Encoding};
use crate::maze::grid::{Maze, Movement, Tile};
use crate::maze::image::Vision;
use crate::maze::symbols::Symbols;

/// The version of the prompts' wording, kept in every trial record. Version 1 was the
/// stepwise protocol alone; version 2 added the single-shot and combined prompts (the
/// stepwise prompts are unchanged); version 3 dropped "square" from the image legend ("a
/// grid of square cells" became "a grid of cells": a shape's name before the recognition
/// question; the text conditions' prompts are unchanged). The image conditions' sentences
/// ([`IMAGE_ONLY`], the image legend) appear only in their own prompts, which records mark
/// with `vision`.
pub const VERSION: u32 = 3;

/// First line of the solve phase's first message.
pub const SOLVE_HEADING: &str = "Phase 1 of 3: solve the maze.";
/// First line of the recognition question.
pub const RECOGNIZE_HEADING: &str = "Phase 2 of 3: recognize the shape.";
/// First line of the generation request.
pub const GENERATE_HEADING: &str = "Phase 3 of 3: generate a new maze.";
/// First line of the message showing the maze after a move.
pub const UPDATE_HEADING: &str = "Updated maze:";
/// First line of the lenient protocol's answer to an invalid move it forgives.
pub const RETRY_HEADING: &str = "Invalid move, try again:";
/// First line of the combined recognition and generation request (the combined protocol).
pub const COMBINED_HEADING: &str =
    "Phases 2 and 3 of 3: recognize the shape and generate a new maze.";
/// The sentence that marks a single-shot solve prompt (the whole path in one reply).
pub const WHOLE_PATH: &str = "Reply with the whole path in one reply";

/// Which message of a trial a text is, read from its fixed first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Heading {
    /// The stepwise solve prompt (one move per reply).
    Solve,
    /// The single-shot solve prompt (the whole path in one reply).
    SolvePath,
    /// The maze after a move.
    Update,
    /// The recognition question.
    Recognize,
    /// The generation request.
    Generate,
    /// Recognition and generation asked together.
    Combined,
}

/// The heading a trial's message opens with, if any.
pub fn read_heading(message: &str) -> Option<Heading> {
    let m = message.trim_start();
    if m.starts_with(SOLVE_HEADING) {
        return Some(if m.contains(WHOLE_PATH) {
            Heading::SolvePath
        } else {
            Heading::Solve
        });
    }
    [
        (UPDATE_HEADING, Heading::Update),
        (RECOGNIZE_HEADING, Heading::Recognize),
        (GENERATE_HEADING, Heading::Generate),
        (COMBINED_HEADING, Heading::Combined),
    ]
    .into_iter()
    .find(|(h, _)| m.starts_with(h))
    .map(|(_, p)| p)
}

/// The matrix symbols a solve prompt's legend states (`Legend: @ = wall, * = empty
/// corridor, S = player, E = goal.`), if it states them.
pub fn announced_symbols(prompt: &str) -> Option<Symbols> {
    let line = prompt
        .lines()
        .find_map(|l| l.trim().strip_prefix("Legend: "))?;
    let mut chars = String::new();
    for (part, what) in line
        .split(", ")
        .zip(["wall", "empty corridor", "player", "goal"])
    {
        let (sym, name) = part.split_once(" = ")?;
        if !name.starts_with(what) {
            return None;
        }
        chars.push_str(sym);
    }
    Symbols::parse(&chars).ok()
}

/// The move limit a solve prompt announces ("at most 16 moves"), if it states one.
pub fn announced_move_limit(prompt: &str) -> Option<usize> {
    const LEAD: &str = "at most ";
    prompt.match_indices(LEAD).find_map(|(i, _)| {
        let rest = &prompt[i + LEAD.len()..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 4 || !rest[digits..].starts_with(" move") {
            return None;
        }
        rest[..digits].parse().ok()
    })
}

/// How a maze is written in a trial's messages: its encoding, the coordinate spacing of a
/// list and the symbols of a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The encoding.
    pub encoding: Encoding,
    /// A coordinate list's spacing.
    pub style: CoordStyle,
    /// A matrix's symbols.
    pub symbols: Symbols,
    /// Text, an image only, or both: under an image condition each message that shows
    /// the maze carries its image, and under `image` the text stands aside.
    pub vision: Vision,
}

/// Where the maze's text would stand in a message of the image-only condition.
pub const IMAGE_ONLY: &str = "[The maze is shown in the attached image.]";

/// The image conditions' legend of the picture (the drawing rule, docs/vision.md).
const IMAGE_LEGEND: &str = "The maze is also shown as an image: a grid of cells in which dark cells are walls, white cells are empty corridor, the blue cell marked P is the player and the green cell marked G is the goal.";

impl Shown {
    fn render(self, maze: &Maze) -> String {
        match self.vision {
            Vision::Image => IMAGE_ONLY.to_string(),
            Vision::Text | Vision::ImageAndText => {
                self.encoding
                    .render_in(maze.grid(), self.style, self.symbols)
            }
        }
    }

    /// The player's and the goal's names in the text: their symbols in a matrix, `P` and
    /// `G` in a list.
    fn names(self) -> (char, char) {
        match self.encoding {
            Encoding::Matrix => (self.symbols.of(Tile::Player), self.symbols.of(Tile::Goal)),
            Encoding::CoordList => ('P', 'G'),
        }
    }

    fn legend(self) -> String {
        let s = self.symbols;
        let text = match self.encoding {
            Encoding::Matrix => format!(
                "Legend: {} = wall, {} = empty corridor, {} = player, {} = goal. Cells are (row, col), counted from 0, row 0 at the top.",
                s.of(Tile::Wall),
                s.of(Tile::Empty),
                s.of(Tile::Player),
                s.of(Tile::Goal)
            ),
            // Image only: no lists are sent, so the sentence says how a maze is written.
            Encoding::CoordList if self.vision == Vision::Image => "Cells are (row, col), counted from 0, row 0 at the top; a maze is written as lists of cells: walls, empty corridor cells, the player and the goal.".into(),
            Encoding::CoordList => "The maze is given as lists of cells (row, col), counted from 0, row 0 at the top: walls, empty corridor cells, the player and the goal.".into(),
        };
        match self.vision {
            Vision::Text => text,
            // Image only: the text's legend still says how a maze is written.
            Vision::Image => format!("{}\n{text}", IMAGE_LEGEND.replace("also ", "")),
            Vision::ImageAndText => format!("{text}\n{IMAGE_LEGEND}"),
        }
    }

    fn format_rule(self) -> String {
        let s = self.symbols;
        match self.encoding {
            Encoding::Matrix => format!(
                "Write it in the same matrix encoding: one line per row, cells separated by spaces, {} wall, {} empty, exactly one {} and one {}.",
                s.of(Tile::Wall),
                s.of(Tile::Empty),
                s.of(Tile::Player),
                s.of(Tile::Goal)
            ),
            Encoding::CoordList => "Write it in the same coordinate-list encoding, four lines: Walls: ..., Empty: ..., Player position: (r, c), Goal: (r, c), listing every cell exactly once.".into(),
        }
    }
}

fn movement_rule(movement: Movement) -> &'static str {
    match movement {
        Movement::Four => "You may move one cell up, down, left or right (no diagonals).",
        Movement::Eight => "You may move one cell in any of the 8 directions, diagonals included.",
    }
}

/// The opening of both solve prompts: the heading, the task, the movement rule, `limit`
/// (how the move limit is put), the legend and the maze.
fn solve_intro(maze: &Maze, movement: Movement, shown: Shown, limit: &str) -> String {
    let (p, g) = shown.names();
    format!(
        "{SOLVE_HEADING}\nYou are the player {p} in a {r}x{c} maze and must reach the goal {g}. {rule} You cannot enter walls. {limit}\n{legend}\n\n{maze}\n\n",
        r = maze.rows(),
        c = maze.cols(),
        rule = movement_rule(movement),
        legend = shown.legend(),
        maze = shown.render(maze),
    )
}

/// The solve phase's opening message.
pub fn solve(
    maze: &Maze,
    movement: Movement,
    shown: Shown,
    move_limit: usize,
    lenient: usize,
) -> String {
    let limit = match lenient {
        0 => format!("You have at most {move_limit} moves; an invalid move ends the phase."),
        k => format!(
            "You have at most {move_limit} moves. {LENIENT_LEAD}{k} invalid move{} (each still uses a move); the next one ends the phase.",
            if k == 1 { "" } else { "s" }
        ),
    };
    solve_intro(maze, movement, shown, &limit)
        + "Reply with your next move as the cell you move to, in the form: Move: (row, col)"
}

/// The single-shot solve prompt: the whole path in one reply, scored by the path verifier.
pub fn solve_path(maze: &Maze, movement: Movement, shown: Shown, move_limit: usize) -> String {
    let limit = format!("The path may take at most {move_limit} moves.");
    let (p, g) = shown.names();
    solve_intro(maze, movement, shown, &limit)
        + WHOLE_PATH
        + &format!(": every cell you step on, in order, from {p}'s cell to {g}'s cell, in the form: Path: (row, col), (row, col), ...")
}

/// How the lenient protocol's solve prompt announces its allowance, before the number.
const LENIENT_LEAD: &str =
    "An invalid move is answered with why it is invalid and you may try again, up to ";

/// The lenient protocol's allowance a solve prompt announces, if it announces one.
pub fn announced_lenient(prompt: &str) -> Option<usize> {
    let rest = &prompt[prompt.find(LENIENT_LEAD)? + LENIENT_LEAD.len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[..digits].parse().ok()
}

/// The answer to an invalid move the lenient protocol forgives: why it is invalid, how
/// many more it forgives, and the moves used. The player has not moved, so the maze is
/// not redrawn.
pub fn retry(why: &str, left: usize, moves: usize, move_limit: usize) -> String {
    let more = match left {
        0 => "The next invalid move ends the phase.".to_string(),
        1 => "One more invalid move may be tried again.".to_string(),
        n => format!("{n} more invalid moves may be tried again."),
    };
    format!(
        "{RETRY_HEADING}\n{why} You stay where you are. {more}\n\nMoves used: {moves} of {move_limit}. Reply with your next move: Move: (row, col)"
    )
}

/// The message after a valid move that did not end the phase.
pub fn update(maze: &Maze, shown: Shown, moves: usize, move_limit: usize) -> String {
    format!(
        "{UPDATE_HEADING}\n\n{}\n\nMoves used: {moves} of {move_limit}. Reply with your next move: Move: (row, col)",
        shown.render(maze)
    )
}

/// The recognition question, after the solve phase ended with `solve_summary`.
pub fn recognize(original: &Maze, shown: Shown, solve_summary: &str) -> String {
    let (p, g) = shown.names();
    format!(
        "{RECOGNIZE_HEADING}\n{solve_summary}\nLook at all the open cells of the maze (every empty cell plus {p} and {g}, not only your path). What geometric shape do they form? Give the shape's name and your reasoning, and end with: Shape: <name>\n\n{}",
        shown.render(original)
    )
}

fn rule_short(movement: Movement) -> &'static str {
    match movement {
        Movement::Four => "moving up, down, left or right",
        Movement::Eight => "moving in 8 directions, diagonals included",
    }
}

/// The generation request.
pub fn generate(original: &Maze, shown: Shown, movement: Movement) -> String {
    let (p, g) = shown.names();
    format!(
        "{GENERATE_HEADING}\nCreate a new {r}x{c} maze whose open cells form the same geometric shape as the maze above. It must not be an identical copy, {p} must be able to reach {g} ({rule}), and it must be properly encoded. {format}",
        r = original.rows(),
        c = original.cols(),
        rule = rule_short(movement),
        format = shown.format_rule(),
    )
}

/// Recognition and generation in one request (the combined protocol, as the design's
/// original runs asked them), after the solve phase ended with `solve_summary`.
pub fn combined(original: &Maze, shown: Shown, movement: Movement, solve_summary: &str) -> String {
    let (p, g) = shown.names();
    format!(
        "{COMBINED_HEADING}\n{solve_summary}\nFirst, look at all the open cells of the maze below (every empty cell plus {p} and {g}, not only your path): what geometric shape do they form? Give the shape's name on a line of its own: Shape: <name>\nThen create a new {r}x{c} maze whose open cells form the same shape. It must not be an identical copy, {p} must be able to reach {g} ({rule}), and it must be properly encoded. {format} Write the new maze last.\n\n{maze}",
        r = original.rows(),
        c = original.cols(),
        rule = rule_short(movement),
        format = shown.format_rule(),
        maze = shown.render(original),
    )
}
