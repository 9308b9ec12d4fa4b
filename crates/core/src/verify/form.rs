//! Answers held to a form (docs/guides/answer-modes.md): the JSON schema of each question's
//! answer ([`schema`], its fields in [`FIELD_ORDER`]) and its reading by serde against that same schema ([`read`]), then
//! the verdict on the value read ([`judge`]), with the rule [`Rule::Schema`] or
//! [`Rule::ToolCall`]. A reading here is sure: the value is the one the schema names, or
//! the reply does not validate and is no reading at all ([`FormError`]: the form was not
//! held, and the trial goes on by the free-text readers).
//!
//! Three holders of one form: the model's own answer (`schema` mode: its reasoning first,
//! then the answer), a function's arguments (`tool` mode: the answer alone), and a
//! transcription of a free reply (`transcribed` mode: the answer alone, each part `null`
//! or empty when the reply gives none, and without the maze's bounds, since it copies what
//! the reply says).

use super::answer::Rule;
use super::moves::{check_step, verify_path};
use super::recognition::verdict_of;
use super::verdict::{Extracted, GenerationChecks, Reason, Verdict};
use crate::maze::encoding::Encoding;
use crate::maze::grid::{Maze, Movement, Pos, Tile};
use crate::maze::shape::{Shape, ShapeSet};
use crate::maze::symbols::Symbols;
use crate::maze::templates::TemplateLibrary;
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::fmt;

/// What a question asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FormKind {
    /// The next move (stepwise solving).
    Move,
    /// The whole path (single-shot solving).
    Path,
    /// The shape's name (recognition).
    Shape,
    /// A new maze (generation).
    Maze,
    /// The shape and a new maze in one answer (the combined protocol).
    ShapeAndMaze,
}

impl FormKind {
    /// The function a `tool` mode reply is made to call.
    pub fn function(self) -> &'static str {
        match self {
            FormKind::Move => "submit_move",
            FormKind::Path => "submit_path",
            FormKind::Shape => "name_shape",
            FormKind::Maze => "submit_maze",
            FormKind::ShapeAndMaze => "submit_shape_and_maze",
        }
    }

    /// The schema's name in a `response_format`.
    pub fn schema_name(self) -> &'static str {
        match self {
            FormKind::Move => "move",
            FormKind::Path => "path",
            FormKind::Shape => "shape",
            FormKind::Maze => "maze",
            FormKind::ShapeAndMaze => "shape_and_maze",
        }
    }

    /// What the answer is, in a few words (the function's description).
    pub fn what(self) -> &'static str {
        match self {
            FormKind::Move => "the cell the player moves to next",
            FormKind::Path => {
                "every cell of the path, in order, from the player's cell to the goal's"
            }
            FormKind::Shape => "the name of the shape all the open cells form",
            FormKind::Maze => "the new maze",
            FormKind::ShapeAndMaze => {
                "the name of the shape all the open cells form, and the new maze"
            }
        }
    }
}

/// Who holds the form: the model's own answer, a function's arguments or a transcription.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    /// The model's JSON answer: `reasoning` first, then the answer (`schema` mode).
    Answer,
    /// A function's arguments: the answer alone (`tool` mode).
    Call,
    /// A transcription of a free reply: the answer alone, `null` or empty where the reply
    /// gives none, unbounded (`transcribed` mode).
    Transcription,
}

/// What a form depends on besides its kind: the maze's size, the encoding and symbols a
/// maze is written in, the shapes in play, and the single-shot path's longest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormContext {
    /// Grid rows.
    pub rows: usize,
    /// Grid columns.
    pub cols: usize,
    /// The encoding a maze is written in.
    pub encoding: Encoding,
    /// A matrix's symbols.
    pub symbols: Symbols,
    /// The shapes in play (what a recognition may name).
    pub shapes: ShapeSet,
    /// Most moves of a path.
    pub move_limit: usize,
}

#[cfg(test)]
impl FormContext {
    /// A 5x5 maze's, in `encoding`, standard symbols and shapes, 16 moves (tests).
    pub(crate) fn five(encoding: Encoding) -> FormContext {
        FormContext {
            rows: 5,
            cols: 5,
            encoding,
            symbols: Symbols::STANDARD,
            shapes: ShapeSet::STANDARD,
            move_limit: 16,
        }
    }
}

/// The value a form answer holds, read by serde.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FormValue {
    /// A move (`None`: a transcription saying the reply gives none).
    Move(Option<Pos>),
    /// A path's cells, in order (empty: none given).
    Path(Vec<Pos>),
    /// A shape (`None`: `none`).
    Shape(Option<Shape>),
    /// A maze, written as text in the trial's encoding (`None`: none given).
    Maze(Option<String>),
    /// A shape and a maze.
    ShapeAndMaze(Option<Shape>, Option<String>),
}

/// Why a reply does not validate against its form: the form was not held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormError(pub String);

impl fmt::Display for FormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FormError {}

/// Every field a form may have, in the order a schema lists them and a model is asked to
/// write them: the reasoning first, then the answer. (A JSON object's keys have no order
/// of their own here: a request writes the schema in this order,
/// [`crate::model::form::FormRequest::key_order`].)
pub const FIELD_ORDER: [&str; 10] = [
    "reasoning",
    "row",
    "col",
    "path",
    "shape",
    "rows",
    "walls",
    "empty",
    "player",
    "goal",
];

fn cell_schema(ctx: &FormContext, holder: Holder) -> Value {
    let bound = |n: usize| match holder {
        Holder::Transcription => json!({"type": "integer"}),
        _ => json!({"type": "integer", "minimum": 0, "maximum": n.saturating_sub(1)}),
    };
    json!({
        "type": "object",
        "properties": {"row": bound(ctx.rows), "col": bound(ctx.cols)},
        "required": ["row", "col"],
        "additionalProperties": false,
    })
}

fn nullable(schema: Value, holder: Holder) -> Value {
    match holder {
        Holder::Transcription => json!({"anyOf": [schema, {"type": "null"}]}),
        _ => schema,
    }
}

fn shape_names(ctx: &FormContext) -> Vec<&'static str> {
    ctx.shapes
        .shapes()
        .iter()
        .map(|s| s.name())
        .chain(["none"])
        .collect()
}

/// The maze's fields of a form: `rows` for a matrix, the four lists of a coordinate list.
fn maze_fields(ctx: &FormContext, holder: Holder, props: &mut Map<String, Value>) {
    match ctx.encoding {
        Encoding::Matrix => {
            let s = ctx.symbols;
            let mut rows = json!({
                "type": "array",
                "items": {"type": "string"},
                "description": format!(
                    "the maze's rows, top first, each {} cells separated by spaces: {} wall, {} empty, {} player, {} goal",
                    ctx.cols, s.of(Tile::Wall), s.of(Tile::Empty), s.of(Tile::Player), s.of(Tile::Goal)
                ),
            });
            if holder != Holder::Transcription {
                rows["minItems"] = json!(ctx.rows);
                rows["maxItems"] = json!(ctx.rows);
            }
            props.insert("rows".into(), rows);
        }
        Encoding::CoordList => {
            let cells = json!({"type": "array", "items": cell_schema(ctx, holder)});
            props.insert("walls".into(), cells.clone());
            props.insert("empty".into(), cells);
            props.insert("player".into(), nullable(cell_schema(ctx, holder), holder));
            props.insert("goal".into(), nullable(cell_schema(ctx, holder), holder));
        }
    }
}

/// The JSON schema of a `kind` answer as `holder` holds it: an object whose fields are
/// `reasoning` (the model's own answer only, first), then `row` and `col`, `path`,
/// `shape` (a name in play, or `none`), `rows` (a matrix) or `walls`, `empty`, `player`
/// and `goal` (a coordinate list); every field required, no other allowed (as OpenAI's
/// strict mode asks).
pub fn schema(kind: FormKind, ctx: &FormContext, holder: Holder) -> Value {
    let mut props = Map::new();
    if holder == Holder::Answer {
        props.insert(
            "reasoning".into(),
            json!({"type": "string", "description": "your reasoning, before the answer"}),
        );
    }
    match kind {
        FormKind::Move => {
            for (k, n) in [("row", ctx.rows), ("col", ctx.cols)] {
                let v = match holder {
                    Holder::Transcription => json!({"type": ["integer", "null"]}),
                    _ => json!({"type": "integer", "minimum": 0, "maximum": n.saturating_sub(1)}),
                };
                props.insert(k.into(), v);
            }
        }
        FormKind::Path => {
            let mut path = json!({"type": "array", "items": cell_schema(ctx, holder)});
            if holder != Holder::Transcription {
                path["minItems"] = json!(1);
                path["maxItems"] = json!(ctx.move_limit + 1);
            }
            props.insert("path".into(), path);
        }
        FormKind::Shape | FormKind::ShapeAndMaze => {
            props.insert(
                "shape".into(),
                json!({"type": "string", "enum": shape_names(ctx)}),
            );
        }
        FormKind::Maze => {}
    }
    if matches!(kind, FormKind::Maze | FormKind::ShapeAndMaze) {
        maze_fields(ctx, holder, &mut props);
    }
    let required: Vec<Value> = FIELD_ORDER
        .iter()
        .filter(|k| props.contains_key(**k))
        .map(|k| Value::from(*k))
        .collect();
    json!({"type": "object", "properties": props, "required": required, "additionalProperties": false})
}

/// A cell as every form writes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Cell {
    row: i64,
    col: i64,
}

/// Every field any form has; which of them a form needs is checked after ([`read`]).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Fields {
    reasoning: Option<String>,
    #[serde(default, deserialize_with = "present")]
    row: Option<Option<i64>>,
    #[serde(default, deserialize_with = "present")]
    col: Option<Option<i64>>,
    path: Option<Vec<Cell>>,
    shape: Option<String>,
    rows: Option<Vec<String>>,
    walls: Option<Vec<Cell>>,
    empty: Option<Vec<Cell>>,
    #[serde(default, deserialize_with = "present")]
    player: Option<Option<Cell>>,
    #[serde(default, deserialize_with = "present")]
    goal: Option<Option<Cell>>,
}

/// A field that may be `null`: `Some(None)` when it is, `None` (by `default`) when absent.
fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// The keys a form of `kind` held by `holder` has, in [`FIELD_ORDER`].
fn keys(kind: FormKind, ctx: &FormContext, holder: Holder) -> Vec<String> {
    match schema(kind, ctx, holder).get("required") {
        Some(Value::Array(r)) => r
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

/// Reads a form answer's JSON `text` by serde against its schema ([`schema`]): every field
/// the form has, no other, each of its type; a cell within the grid, a shape named as the
/// form names it, as many rows as the maze has (all but the bounds waived for a
/// transcription). Surrounding whitespace is allowed, nothing else: a reply that is not
/// the JSON the form asks for is no reading.
pub fn read(
    kind: FormKind,
    ctx: &FormContext,
    holder: Holder,
    text: &str,
) -> Result<FormValue, FormError> {
    let fields: Fields = serde_json::from_str(text.trim()).map_err(|e| {
        FormError(format!(
            "the answer is not the JSON its schema asks for: {e}"
        ))
    })?;
    let given = |k: &str| match k {
        "reasoning" => fields.reasoning.is_some(),
        "row" => fields.row.is_some(),
        "col" => fields.col.is_some(),
        "path" => fields.path.is_some(),
        "shape" => fields.shape.is_some(),
        "rows" => fields.rows.is_some(),
        "walls" => fields.walls.is_some(),
        "empty" => fields.empty.is_some(),
        "player" => fields.player.is_some(),
        "goal" => fields.goal.is_some(),
        _ => false,
    };
    let wanted = keys(kind, ctx, holder);
    if let Some(k) = wanted.iter().find(|k| !given(k.as_str())) {
        return Err(FormError(format!("the answer has no field `{k}`")));
    }
    if let Some(k) = FIELD_ORDER
        .iter()
        .find(|k| given(k) && !wanted.iter().any(|w| w == **k))
    {
        return Err(FormError(format!(
            "the answer has a field `{k}` its schema does not"
        )));
    }
    let reader = Reader { ctx, holder };
    Ok(match kind {
        FormKind::Move => {
            FormValue::Move(reader.move_of(fields.row.flatten(), fields.col.flatten())?)
        }
        FormKind::Path => FormValue::Path(reader.cells(fields.path.unwrap_or_default(), "path")?),
        FormKind::Shape => FormValue::Shape(reader.shape(fields.shape.as_deref())?),
        FormKind::Maze => FormValue::Maze(reader.maze(&fields)?),
        FormKind::ShapeAndMaze => FormValue::ShapeAndMaze(
            reader.shape(fields.shape.as_deref())?,
            reader.maze(&fields)?,
        ),
    })
}

/// Reads the parts of a form's fields under its bounds.
struct Reader<'a> {
    ctx: &'a FormContext,
    holder: Holder,
}

impl Reader<'_> {
    fn pos(&self, row: i64, col: i64) -> Result<Pos, FormError> {
        let (Ok(r), Ok(c)) = (usize::try_from(row), usize::try_from(col)) else {
            return Err(FormError(format!(
                "the cell ({row}, {col}) has a negative coordinate"
            )));
        };
        let bounded = self.holder != Holder::Transcription;
        if bounded && (r >= self.ctx.rows || c >= self.ctx.cols) {
            return Err(FormError(format!(
                "the cell ({r}, {c}) lies outside the schema's bounds (rows and columns 0 to {})",
                self.ctx.rows.max(self.ctx.cols) - 1
            )));
        }
        Ok(Pos::new(r, c))
    }

    fn move_of(&self, row: Option<i64>, col: Option<i64>) -> Result<Option<Pos>, FormError> {
        match (row, col) {
            (Some(r), Some(c)) => self.pos(r, c).map(Some),
            (None, None) if self.holder == Holder::Transcription => Ok(None),
            _ => Err(FormError(
                "the move's row and col must both be numbers".into(),
            )),
        }
    }

    fn cells(&self, cells: Vec<Cell>, what: &str) -> Result<Vec<Pos>, FormError> {
        if cells.is_empty() && self.holder != Holder::Transcription && what == "path" {
            return Err(FormError("the path has no cell".into()));
        }
        cells.into_iter().map(|c| self.pos(c.row, c.col)).collect()
    }

    fn shape(&self, name: Option<&str>) -> Result<Option<Shape>, FormError> {
        let name = name.unwrap_or("none");
        if name == "none" {
            return Ok(None);
        }
        self.ctx
            .shapes
            .shapes()
            .into_iter()
            .find(|s| s.name() == name)
            .map(Some)
            .ok_or_else(|| {
                FormError(format!(
                    "the shape '{name}' is none of the schema's names ({})",
                    shape_names(self.ctx).join(", ")
                ))
            })
    }

    /// The maze as text in the trial's encoding, the form's fields written out.
    fn maze(&self, f: &Fields) -> Result<Option<String>, FormError> {
        match self.ctx.encoding {
            Encoding::Matrix => {
                let rows = f.rows.clone().unwrap_or_default();
                if rows.is_empty() && self.holder == Holder::Transcription {
                    return Ok(None);
                }
                if self.holder != Holder::Transcription && rows.len() != self.ctx.rows {
                    return Err(FormError(format!(
                        "the maze has {} rows, the schema {}",
                        rows.len(),
                        self.ctx.rows
                    )));
                }
                Ok(Some(rows.join("\n")))
            }
            Encoding::CoordList => {
                let list = |cells: &Option<Vec<Cell>>, what: &str| -> Result<Vec<Pos>, FormError> {
                    let cells = cells.iter().flatten().map(|c| Cell {
                        row: c.row,
                        col: c.col,
                    });
                    self.cells(cells.collect(), what)
                };
                let (walls, empty) = (list(&f.walls, "walls")?, list(&f.empty, "empty")?);
                let one =
                    |c: &Option<Option<Cell>>, what: &str| -> Result<Option<Pos>, FormError> {
                        match c.as_ref().and_then(Option::as_ref) {
                            Some(c) => self.pos(c.row, c.col).map(Some),
                            None if self.holder == Holder::Transcription => Ok(None),
                            None => Err(FormError(format!("the maze's {what} is no cell"))),
                        }
                    };
                let (player, goal) = (one(&f.player, "player")?, one(&f.goal, "goal")?);
                if walls.is_empty() && empty.is_empty() && player.is_none() && goal.is_none() {
                    return Ok(None);
                }
                let join = |cells: &[Pos]| {
                    cells
                        .iter()
                        .map(Pos::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let named = |p: Option<Pos>| p.map(|p| p.to_string()).unwrap_or_default();
                Ok(Some(format!(
                    "Walls: {}\nEmpty: {}\nPlayer position: {}\nGoal: {}",
                    join(&walls),
                    join(&empty),
                    named(player),
                    named(goal)
                )))
            }
        }
    }
}

/// What a trial judges a form answer against.
pub struct Judged<'a> {
    /// The maze as the player stands in it (a move is judged from there).
    pub current: &'a Maze,
    /// The maze as first shown (a path, a new maze are judged against it).
    pub original: &'a Maze,
    /// The maze's shape.
    pub shape: Shape,
    /// The shape's movement.
    pub movement: Movement,
    /// The encoding a maze is written in.
    pub encoding: Encoding,
    /// A matrix's symbols.
    pub symbols: Symbols,
    /// The templates generation is judged against.
    pub library: &'a TemplateLibrary,
}

/// The verdicts on a value read from a form (the recognition's and the generation's for a
/// combined answer; one verdict otherwise, in the first place), each read by `rule`: a
/// move by [`check_step`], a path by the path verifier on its cells written out, a shape
/// against the maze's, a maze by the generation verifier on its fields written out in the
/// trial's encoding.
pub fn judge(value: &FormValue, on: &Judged<'_>, rule: Rule) -> (Verdict, Option<Verdict>) {
    let maze = |text: &Option<String>| match text {
        Some(t) => super::generation::verify_generation_in(
            on.original,
            on.shape,
            on.encoding,
            on.symbols,
            on.library,
            t,
        )
        .read_by(rule),
        None => {
            let mut v = Verdict::new(
                false,
                Reason::NoMazeFound,
                Extracted::Nothing,
                "The answer gives no maze.".into(),
            );
            v.checks = Some(GenerationChecks::default());
            v.read_by(rule)
        }
    };
    match value {
        FormValue::Move(None) => (
            Verdict::new(
                false,
                Reason::NoCoordinate,
                Extracted::Nothing,
                "The answer gives no move.".into(),
            )
            .read_by(rule),
            None,
        ),
        FormValue::Move(Some(to)) => {
            let (reason, why) = check_step(on.current, on.movement, *to);
            let ok = matches!(reason, Reason::ValidMove | Reason::ReachedGoal);
            (
                Verdict::new(ok, reason, Extracted::Cell(*to), why).read_by(rule),
                None,
            )
        }
        FormValue::Path(cells) => {
            let text: Vec<String> = cells.iter().map(Pos::to_string).collect();
            (
                verify_path(on.original, on.movement, &text.join(", ")).read_by(rule),
                None,
            )
        }
        FormValue::Shape(s) => (verdict_of(on.shape, *s).read_by(rule), None),
        FormValue::Maze(m) => (maze(m), None),
        FormValue::ShapeAndMaze(s, m) => (verdict_of(on.shape, *s).read_by(rule), Some(maze(m))),
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::ring;
    use super::*;

    fn ctx(encoding: Encoding) -> FormContext {
        FormContext::five(encoding)
    }

    #[test]
    fn every_schema_puts_the_reasoning_first_and_requires_every_field_it_has() {
        let c = ctx(Encoding::Matrix);
        let s = schema(FormKind::Move, &c, Holder::Answer);
        assert_eq!(
            s["required"],
            json!(["reasoning", "row", "col"]),
            "the reasoning before the answer"
        );
        assert_eq!(s["additionalProperties"], false);
        assert_eq!(
            s["properties"]["row"]["maximum"], 4,
            "bounds from the maze's size"
        );
        let call = schema(FormKind::Move, &c, Holder::Call);
        assert!(
            call["properties"].get("reasoning").is_none(),
            "a function takes the answer alone"
        );
        let shape = schema(FormKind::Shape, &c, Holder::Answer);
        assert_eq!(
            shape["properties"]["shape"]["enum"],
            json!(["square", "cross", "spiral", "triangle", "C", "Z", "none"])
        );
        let maze = schema(FormKind::Maze, &c, Holder::Answer);
        assert_eq!(maze["properties"]["rows"]["minItems"], 5);
        let list = schema(
            FormKind::ShapeAndMaze,
            &ctx(Encoding::CoordList),
            Holder::Call,
        );
        assert_eq!(
            list["required"],
            json!(["shape", "walls", "empty", "player", "goal"])
        );
        let t = schema(FormKind::Move, &c, Holder::Transcription);
        assert_eq!(
            t["properties"]["row"]["type"],
            json!(["integer", "null"]),
            "a transcription may say none"
        );
    }

    #[test]
    fn a_reply_that_validates_reads_as_its_fields_say_and_any_other_is_no_reading() {
        let c = ctx(Encoding::Matrix);
        let read_move = |h, t| read(FormKind::Move, &c, h, t);
        assert_eq!(
            read_move(
                Holder::Answer,
                r#" {"reasoning": "down is open", "row": 1, "col": 0} "#
            ),
            Ok(FormValue::Move(Some(Pos::new(1, 0))))
        );
        assert_eq!(
            read_move(Holder::Call, r#"{"row": 1, "col": 5}"#).map_err(|e| e.0.contains("outside")),
            Err(true),
            "the bounds are the schema's"
        );
        for (bad, why) in [
            (r#"{"row": 1, "col": 0}"#, "no field `reasoning`"),
            (
                r#"{"reasoning": "", "row": 1, "col": 0, "note": 1}"#,
                "unknown field",
            ),
            (r#"{"reasoning": "", "row": "1", "col": 0}"#, "invalid type"),
            ("Move: (1, 0)", "not the JSON"),
            (
                "```json\n{\"reasoning\": \"\", \"row\": 1, \"col\": 0}\n```",
                "not the JSON",
            ),
            (r#"{"reasoning": "", "row": -1, "col": 0}"#, "negative"),
        ] {
            let e = read_move(Holder::Answer, bad).expect_err(bad);
            assert!(e.0.contains(why), "{bad}: {e}");
        }
        assert_eq!(
            read(
                FormKind::Move,
                &c,
                Holder::Transcription,
                r#"{"row": null, "col": null}"#
            ),
            Ok(FormValue::Move(None)),
            "a transcription of a reply that gives no move"
        );
        assert_eq!(
            read(
                FormKind::Move,
                &c,
                Holder::Transcription,
                r#"{"row": 7, "col": 9}"#
            ),
            Ok(FormValue::Move(Some(Pos::new(7, 9)))),
            "a transcription copies even a cell off the grid"
        );
        assert_eq!(
            read(FormKind::Shape, &c, Holder::Call, r#"{"shape": "C"}"#),
            Ok(FormValue::Shape(Some(Shape::C)))
        );
        assert!(
            read(FormKind::Shape, &c, Holder::Call, r#"{"shape": "c-shape"}"#).is_err(),
            "only the schema's names"
        );
        assert_eq!(
            read(FormKind::Shape, &c, Holder::Call, r#"{"shape": "none"}"#),
            Ok(FormValue::Shape(None))
        );
        let rows = r#"{"rows": ["1 1 1 1 1", "1 0 G 0 1", "1 0 1 0 1", "1 0 P 0 1", "1 1 1 1 1"]}"#;
        assert_eq!(
            read(FormKind::Maze, &c, Holder::Call, rows),
            Ok(FormValue::Maze(Some(
                "1 1 1 1 1\n1 0 G 0 1\n1 0 1 0 1\n1 0 P 0 1\n1 1 1 1 1".into()
            )))
        );
        assert!(
            read(FormKind::Maze, &c, Holder::Call, r#"{"rows": ["1 1"]}"#).is_err(),
            "five rows, as the schema says"
        );
        let l = ctx(Encoding::CoordList);
        let list = r#"{"walls": [{"row": 0, "col": 0}], "empty": [], "player": {"row": 1, "col": 1}, "goal": {"row": 2, "col": 2}}"#;
        assert_eq!(
            read(FormKind::Maze, &l, Holder::Call, list),
            Ok(FormValue::Maze(Some(
                "Walls: (0, 0)\nEmpty: \nPlayer position: (1, 1)\nGoal: (2, 2)".into()
            )))
        );
    }

    #[test]
    fn a_value_read_from_a_form_is_judged_by_the_rules_of_its_phase_and_read_by_its_rule() {
        let m = ring();
        let lib = TemplateLibrary::new(5);
        let on = Judged {
            current: &m,
            original: &m,
            shape: Shape::Square,
            movement: Movement::Four,
            encoding: Encoding::Matrix,
            symbols: Symbols::STANDARD,
            library: &lib,
        };
        let (v, _) = judge(&FormValue::Move(Some(Pos::new(0, 1))), &on, Rule::ToolCall);
        assert_eq!(
            (v.reason, v.rule, v.sure),
            (Reason::ValidMove, Some(Rule::ToolCall), Some(true))
        );
        let (v, _) = judge(&FormValue::Move(Some(Pos::new(2, 0))), &on, Rule::Schema);
        assert_eq!(v.reason, Reason::NotAdjacent);
        let (v, _) = judge(&FormValue::Move(None), &on, Rule::Schema);
        assert_eq!(v.reason, Reason::NoCoordinate);
        let (v, _) = judge(&FormValue::Shape(Some(Shape::Spiral)), &on, Rule::Schema);
        assert_eq!(v.reason, Reason::WrongShape);
        let swapped = "G 0 0 0 0\n0 1 1 1 0\n0 1 1 1 0\n0 1 1 1 0\n0 0 0 0 P";
        let (v, _) = judge(&FormValue::Maze(Some(swapped.into())), &on, Rule::Schema);
        assert!(
            matches!(v.extracted, Extracted::Grid(_)),
            "the maze read: {v:?}"
        );
        assert_eq!(
            (v.rule, v.checks.map(|c| c.novel)),
            (Some(Rule::Schema), Some(true))
        );
        let (r, g) = judge(
            &FormValue::ShapeAndMaze(Some(Shape::Square), None),
            &on,
            Rule::ToolCall,
        );
        assert_eq!(r.reason, Reason::CorrectShape);
        assert_eq!(g.expect("a generation verdict").reason, Reason::NoMazeFound);
        let path: Vec<Pos> = [
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (1, 4),
            (2, 4),
            (3, 4),
            (4, 4),
        ]
        .iter()
        .map(|&(r, c)| Pos::new(r, c))
        .collect();
        let (v, _) = judge(&FormValue::Path(path), &on, Rule::Schema);
        assert_eq!(
            (v.reason, v.rule),
            (Reason::ReachedPlayer, Some(Rule::Schema))
        );
    }
}
