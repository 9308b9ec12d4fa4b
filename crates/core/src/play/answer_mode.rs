//! What a trial does under an answer mode (docs/guides/answer-modes.md; the modes and
//! what a record keeps are in `answer.rs`): the question a pending prompt asks ([`kind`],
//! [`context`]), the form a request asks for ([`form_request`]), the words a prompt adds
//! to say the form ([`note`]), the transcription's question ([`transcription_prompt`]),
//! where a schema answer is found ([`schema_answer`]), and [`Trial::respond_form`], which
//! reads a reply's form by serde against its schema and judges the trial by it when it
//! validates, by the free readers when it does not. The schema and its reading are the
//! verifier's ([`crate::verify::form`]); the request's spellings and the step-downs the
//! client's ([`crate::model::form`]); the endpoint player drives them (`play/endpoint.rs`).

use crate::maze::encoding::Encoding;
use crate::maze::grid::Tile;
use crate::model::form::{FormRequest, Spelling};
use crate::model::reply::ReplyMeta;
use crate::play::answer::{
    free_read, AnswerMode, FormAnswer, FormReading, FormReason, PhaseRead, Source,
};
use crate::play::phase::Phase;
use crate::play::trial::{Protocol, Trial, Turn};
use crate::verify::form::{
    judge, read, schema, FormContext, FormKind, FormValue, Holder, Judged, FIELD_ORDER,
};
use crate::verify::{Rule, Verdict};

/// What the question pending in `trial` asks for.
pub fn kind(trial: &Trial) -> FormKind {
    match (trial.phase(), trial.setup().protocol) {
        (Phase::Solve, Protocol::SingleShot) => FormKind::Path,
        (Phase::Solve, _) => FormKind::Move,
        (Phase::Recognize, Protocol::Combined) => FormKind::ShapeAndMaze,
        (Phase::Recognize, _) => FormKind::Shape,
        (Phase::Generate | Phase::Done, _) => FormKind::Maze,
    }
}

/// What `trial`'s forms depend on: its maze's size, encoding and symbols, the shapes in
/// play, its move limit.
pub fn context(trial: &Trial) -> FormContext {
    let s = trial.setup();
    FormContext {
        rows: s.maze.rows(),
        cols: s.maze.cols(),
        encoding: s.encoding,
        symbols: s.symbols,
        shapes: trial.library().shapes(),
        move_limit: s.move_limit,
    }
}

/// Who holds a form of `mode` asked with `spelling`.
pub fn holder(mode: AnswerMode, spelling: Spelling) -> Holder {
    match mode {
        AnswerMode::Transcribed => Holder::Transcription,
        _ if spelling.is_tool() => Holder::Call,
        _ => Holder::Answer,
    }
}

/// The form a request asks for: `kind`'s schema as `mode` holds it, spelled `spelling`.
pub fn form_request(
    kind: FormKind,
    ctx: &FormContext,
    mode: AnswerMode,
    spelling: Spelling,
) -> FormRequest {
    let h = holder(mode, spelling);
    FormRequest {
        spelling,
        name: match h {
            Holder::Call => kind.function(),
            Holder::Transcription => "transcription",
            Holder::Answer => kind.schema_name(),
        }
        .to_string(),
        description: format!("Give {}.", kind.what()),
        schema: schema(kind, ctx, h),
        key_order: &FIELD_ORDER,
    }
}

/// The answer's fields in words and an example object, for a prompt: `(example, notes)`.
fn fields(kind: FormKind, ctx: &FormContext, h: Holder) -> (String, String) {
    let cell = r#"{"row": R, "col": C}"#;
    let max = ctx.rows.max(ctx.cols).saturating_sub(1);
    let shapes: Vec<&str> = ctx.shapes.shapes().iter().map(|s| s.name()).collect();
    let none = |what: &str| match h {
        Holder::Transcription => format!(" ({what} when the reply gives none)"),
        _ => String::new(),
    };
    let shape_note = format!("shape: one of {}, or none", shapes.join(", "));
    let maze = || -> (String, String) {
        match ctx.encoding {
            Encoding::Matrix => {
                let s = ctx.symbols;
                (
                    r#""rows": ["...", "..."]"#.to_string(),
                    format!(
                        "rows: the maze's {} rows, top first, each {} symbols separated by spaces ({} wall, {} empty, {} player, {} goal){}",
                        ctx.rows,
                        ctx.cols,
                        s.of(Tile::Wall),
                        s.of(Tile::Empty),
                        s.of(Tile::Player),
                        s.of(Tile::Goal),
                        none("an empty list")
                    ),
                )
            }
            Encoding::CoordList => (
                format!(r#""walls": [{cell}, ...], "empty": [{cell}, ...], "player": {cell}, "goal": {cell}"#),
                format!(
                    "walls and empty: the wall cells and the empty corridor cells, player and goal: their cells, every cell of the grid exactly once{}",
                    none("empty lists and null")
                ),
            ),
        }
    };
    let (body, notes) =
        match kind {
            FormKind::Move => (
                r#""row": R, "col": C"#.to_string(),
                format!(
                    "row and col: the cell {}, each from 0 to {max}{}",
                    if h == Holder::Transcription {
                        "the reply moves to"
                    } else {
                        "you move to"
                    },
                    none("null and null")
                ),
            ),
            FormKind::Path => (
                format!(r#""path": [{cell}, {cell}, ...]"#),
                format!(
                "path: every cell {} steps on, in order, from the player's cell to the goal's{}",
                if h == Holder::Transcription { "the reply" } else { "you" },
                none("an empty list")
            ),
            ),
            FormKind::Shape => (r#""shape": "NAME""#.to_string(), shape_note),
            FormKind::Maze => maze(),
            FormKind::ShapeAndMaze => {
                let (m, n) = maze();
                (
                    format!(r#""shape": "NAME", {m}"#),
                    format!("{shape_note}; {n}"),
                )
            }
        };
    let example = match h {
        Holder::Answer => format!(r#"{{"reasoning": "...", {body}}}"#),
        _ => format!("{{{body}}}"),
    };
    (example, notes)
}

/// The first line of what a prompt adds to say its answer's form.
pub const NOTE_HEADING: &str = "Answer format:";

/// What a prompt adds, after the free prompt's own words, to say the answer's form under
/// `mode` (`None` for `free` and `transcribed`, which ask freely): the JSON object with the
/// reasoning first (the word JSON in it, as JSON modes ask), or the function to call.
pub fn note(kind: FormKind, ctx: &FormContext, mode: AnswerMode) -> Option<String> {
    match mode {
        AnswerMode::Free | AnswerMode::Transcribed => None,
        AnswerMode::Schema => {
            let (example, notes) = fields(kind, ctx, Holder::Answer);
            Some(format!(
                "\n\n{NOTE_HEADING} instead of the form above, reply with one JSON object and nothing else, your reasoning first, then the answer: {example}\n({notes}.)"
            ))
        }
        AnswerMode::Tool => {
            let (example, notes) = fields(kind, ctx, Holder::Call);
            Some(format!(
                "\n\n{NOTE_HEADING} instead of the form above, answer by calling the function {} with {}: {example}\n({notes}.) You may reason in your reply before the call.",
                kind.function(),
                kind.what()
            ))
        }
    }
}

/// The first line of a transcription call's question.
pub const TRANSCRIBE_HEADING: &str = "Transcribe the answer a reply gives.";

/// The transcription call's one message: the free reply `reply` (and nothing else of the
/// trial), and the question what answer it gives, to be copied into the schema as JSON.
pub fn transcription_prompt(kind: FormKind, ctx: &FormContext, reply: &str) -> String {
    let question = match kind {
        FormKind::Move => {
            "What move does this reply give as its answer (the cell it moves to next)?"
        }
        FormKind::Path => "What path does this reply give as its answer (its cells in order)?",
        FormKind::Shape => "What shape does this reply name as its answer?",
        FormKind::Maze => "What maze does this reply give as its answer?",
        FormKind::ShapeAndMaze => {
            "What shape does this reply name as its answer, and what new maze does it give?"
        }
    };
    let (example, notes) = fields(kind, ctx, Holder::Transcription);
    format!(
        "{TRANSCRIBE_HEADING}\nBelow is a reply a model gave to a question about a maze. {question} Copy the answer the reply itself gives, exactly as it gives it, even if it is wrong; do not answer the question yourself, and do not correct anything.\n\nThe reply:\n<<<\n{reply}\n>>>\n\nAnswer with one JSON object and nothing else: {example}\n({notes}.)"
    )
}

/// The JSON text a schema answer may be: the content; or, when the content is empty, the
/// JSON object that ends the reasoning (a server that put the whole answer there).
pub fn schema_answer(content: &str, reasoning: Option<&str>) -> (Option<String>, Source) {
    if !content.trim().is_empty() {
        return (Some(content.to_string()), Source::Content);
    }
    let Some(r) = reasoning.map(str::trim_end).filter(|r| r.ends_with('}')) else {
        return (None, Source::Content);
    };
    // The last `{` from which the rest of the reasoning is one JSON value.
    let found = r
        .char_indices()
        .filter(|(_, c)| *c == '{')
        .map(|(i, _)| &r[i..])
        .find(|tail| serde_json::from_str::<serde_json::Value>(tail).is_ok());
    match found {
        Some(json) => (Some(json.to_string()), Source::Reasoning),
        None => (None, Source::Content),
    }
}

/// The phases a reply to a `kind` question answers.
fn phases(kind: FormKind) -> &'static [Phase] {
    match kind {
        FormKind::Move | FormKind::Path => &[Phase::Solve],
        FormKind::Shape => &[Phase::Recognize],
        FormKind::Maze => &[Phase::Generate],
        FormKind::ShapeAndMaze => &[Phase::Recognize, Phase::Generate],
    }
}

/// A form answer read by serde against its schema, or why it is no reading.
fn read_answer(
    kind: FormKind,
    ctx: &FormContext,
    h: Holder,
    form: &FormAnswer,
) -> Result<FormValue, (FormReason, String)> {
    if let Some(e) = &form.error {
        return Err((FormReason::ApiError, e.clone()));
    }
    let not_held = |why: String| (FormReason::FormNotHeld, why);
    let Some(answer) = &form.answer else {
        return Err(not_held(match h {
            Holder::Call => format!("the reply made no call to {}", kind.function()),
            Holder::Transcription => "the transcription gave no answer".into(),
            Holder::Answer => "the reply holds no JSON answer".into(),
        }));
    };
    if let Some(c) = form.call.as_ref().filter(|c| c.name != kind.function()) {
        return Err(not_held(format!(
            "the reply called {}, not {}",
            c.name,
            kind.function()
        )));
    }
    read(kind, ctx, h, answer).map_err(|e| not_held(e.0))
}

impl Trial {
    /// The readers' verdicts on a reply's text to a `kind` question (the recognition's and
    /// the generation's for a combined reply).
    fn free_verdicts(&self, kind: FormKind, reply: &str) -> (Verdict, Option<Verdict>) {
        match kind {
            FormKind::Move => (self.read_move(reply), None),
            FormKind::Path => (self.read_path(reply), None),
            FormKind::Shape => (self.read_recognition(reply), None),
            FormKind::Maze => (self.judge_generation(reply), None),
            FormKind::ShapeAndMaze => (
                self.read_recognition(reply),
                Some(self.judge_generation(reply)),
            ),
        }
    }

    /// The verdicts on a value read from the reply's form, by `rule`.
    fn form_verdicts(&self, value: &FormValue, rule: Rule) -> (Verdict, Option<Verdict>) {
        let s = self.setup();
        let on = Judged {
            current: self.current(),
            original: &s.maze,
            shape: s.shape,
            movement: s.shape.movement(),
            encoding: s.encoding,
            symbols: s.symbols,
            library: self.library(),
        };
        judge(value, &on, rule)
    }

    /// Hands the trial a reply given under an answer mode other than `free`, with its form
    /// (what the endpoint held, or the transcription): like [`Trial::respond`], but the
    /// pending prompt first gets the words that said the form as they were sent ([`note`]),
    /// and the reply is judged by its form when the form validates against its schema (the
    /// rule `schema` or `tool_call`, sure); when it does not (`form_not_held`), or its
    /// transcription failed, by the readers on its text, as under `free`. Either way the
    /// reply keeps both readings ([`FormReading`]). Returns the verdict, `None` when the
    /// trial takes no reply.
    pub fn respond_form(
        &mut self,
        reply: &str,
        meta: Option<ReplyMeta>,
        form: FormAnswer,
    ) -> Option<Verdict> {
        if self.stopped() || self.phase() == Phase::Done {
            return None;
        }
        if form.mode.is_free() {
            return self.respond(reply, meta);
        }
        let (kind, ctx) = (kind(self), context(self));
        // The prompt waiting for the reply gets the words the player sent with it.
        let waiting = self.pending_prompt().is_some();
        if let (Some(words), Some(t), true) = (
            note(kind, &ctx, form.mode),
            self.turns_mut().last_mut(),
            waiting,
        ) {
            if !t.message.content.ends_with(&words) {
                t.message.content.push_str(&words);
            }
        }
        let h = holder(form.mode, form.spelling);
        let value = read_answer(kind, &ctx, h, &form);
        // A reply whose answer came in a call or its reasoning is not empty.
        let meta = self.why_empty(reply, meta, value.is_ok());
        let free = self.free_verdicts(kind, reply);
        let rule = if h == Holder::Call {
            Rule::ToolCall
        } else {
            Rule::Schema
        };
        let held = value.as_ref().ok().map(|v| self.form_verdicts(v, rule));
        let read: Vec<PhaseRead> = phases(kind)
            .iter()
            .enumerate()
            .map(|(i, &phase)| {
                let pick = |pair: &(Verdict, Option<Verdict>)| -> Option<Verdict> {
                    if i == 0 {
                        Some(pair.0.clone())
                    } else {
                        pair.1.clone()
                    }
                };
                PhaseRead {
                    form: held
                        .as_ref()
                        .and_then(pick)
                        .map_or(crate::verify::Extracted::Nothing, |v| v.extracted),
                    ..free_read(phase, pick(&free).as_ref())
                }
            })
            .collect();
        // Under `transcribed` the transcription is one reader of the free reply and ours
        // another: where they differ, its reading is not sure.
        let held = match (held, form.mode) {
            (Some((a, b)), AnswerMode::Transcribed) => Some((
                unless_agreed(a, read.first(), kind),
                b.map(|b| unless_agreed(b, read.get(1), kind)),
            )),
            (h, _) => h,
        };
        let (first, second) = held.unwrap_or(free);
        let before = self.turns().len();
        let v = match kind {
            FormKind::Move => self.take_move(reply, first),
            FormKind::Path => self.take_path(reply, first),
            FormKind::Shape => self.take_recognition(reply, first),
            FormKind::Maze => self.take_generation(reply, first),
            FormKind::ShapeAndMaze => {
                let generated = second.unwrap_or_else(|| first.clone());
                self.take_combined(reply, first, generated)
            }
        };
        self.why_empty(reply, None, true);
        let (reason, why) = match value {
            Ok(_) => (None, None),
            Err((r, w)) => (Some(r), Some(w)),
        };
        let reading = FormReading {
            mode: form.mode,
            form: form.spelling,
            answer: form.answer,
            source: form.source,
            tool: form.call.as_ref().map(|c| c.name.clone()),
            call_id: form.call.map(|c| c.id),
            held: reason.is_none(),
            reason,
            why,
            read,
            stepped_down: form.stepped_down,
            transcriber: form.transcriber,
        };
        if let Some(turn) = self.turns_mut().get_mut(before) {
            turn.meta = meta;
            turn.form = crate::play::answer::Kept::new(Some(Box::new(reading)));
        }
        Some(v)
    }
}

/// `v`, a form's verdict, unsure when [`PhaseRead::doubt`] says so.
fn unless_agreed(v: Verdict, read: Option<&PhaseRead>, kind: FormKind) -> Verdict {
    let doubt = read
        .zip(v.rule)
        .and_then(|(r, rule)| r.doubt(AnswerMode::Transcribed, rule, kind == FormKind::Path));
    match (doubt, v.rule) {
        (Some(d), Some(rule)) => v.read_with(rule, Some(d)),
        _ => v,
    }
}

/// The forms of a conversation's turns, in order.
pub fn forms(turns: &[Turn]) -> impl Iterator<Item = &FormReading> {
    turns.iter().filter_map(|t| t.form.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(encoding: Encoding) -> FormContext {
        FormContext::five(encoding)
    }

    #[test]
    fn the_schema_note_says_json_and_the_reasoning_first_and_the_tool_note_names_the_function() {
        let c = ctx(Encoding::Matrix);
        let n = note(FormKind::Move, &c, AnswerMode::Schema).expect("a note");
        assert!(
            n.contains("JSON") && n.contains(r#"{"reasoning": "...", "row": R, "col": C}"#),
            "{n}"
        );
        assert!(n.contains("from 0 to 4"), "the bounds: {n}");
        let t = note(FormKind::Maze, &c, AnswerMode::Tool).expect("a note");
        assert!(
            t.contains("submit_maze") && t.contains(r#"{"rows": ["...", "..."]}"#),
            "{t}"
        );
        assert_eq!(note(FormKind::Move, &c, AnswerMode::Free), None);
        assert_eq!(
            note(FormKind::Move, &c, AnswerMode::Transcribed),
            None,
            "the free prompt, unchanged"
        );
        let l = note(
            FormKind::ShapeAndMaze,
            &ctx(Encoding::CoordList),
            AnswerMode::Schema,
        )
        .expect("a note");
        assert!(
            l.contains(r#""shape": "NAME", "walls""#) && l.contains("square, cross"),
            "{l}"
        );
    }

    #[test]
    fn a_transcription_holds_the_reply_alone_and_asks_to_copy_not_to_solve() {
        let p = transcription_prompt(
            FormKind::Shape,
            &ctx(Encoding::Matrix),
            "It is a ring.\nShape: square",
        );
        assert!(p.starts_with(TRANSCRIBE_HEADING));
        assert!(p.contains("<<<\nIt is a ring.\nShape: square\n>>>"), "{p}");
        assert!(
            p.contains("do not answer the question yourself") && p.contains("JSON"),
            "{p}"
        );
        let m = transcription_prompt(FormKind::Move, &ctx(Encoding::Matrix), "x");
        assert!(m.contains("null and null when the reply gives none"), "{m}");
    }

    #[test]
    fn a_schema_answer_is_the_content_or_else_the_json_that_ends_the_reasoning() {
        assert_eq!(
            schema_answer(" {\"row\": 1} ", None),
            (Some(" {\"row\": 1} ".into()), Source::Content)
        );
        let r = "I think down is open.\n{\"reasoning\": \"down\", \"path\": [{\"row\": 1, \"col\": 0}]}\n";
        let (a, s) = schema_answer("", Some(r));
        assert_eq!(s, Source::Reasoning);
        assert_eq!(
            a.as_deref(),
            Some("{\"reasoning\": \"down\", \"path\": [{\"row\": 1, \"col\": 0}]}")
        );
        assert_eq!(
            schema_answer("", Some("no json here")),
            (None, Source::Content)
        );
        assert_eq!(schema_answer("", None), (None, Source::Content));
    }
}
