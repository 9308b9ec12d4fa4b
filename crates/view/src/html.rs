//! Read-only HTML fragments the pages show as they are (the live transcript, replay text,
//! tables): built here as strings, every piece of text escaped, so model text is always
//! shown as text and never interpreted as HTML. Rendering whole fragments from strings
//! instead of one reactive node per line also keeps the browser build small.

use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::model::reply::ReplyMeta;
use shapemaze_core::play::transcript::Role;
use shapemaze_core::play::trial::Turn;
use shapemaze_core::verify::{
    move_reading, outline, shape_reading, Extracted, Outcome, Role as OutlineRole, Verdict,
};
use std::fmt::Write;

/// `text` with `& < > " '` escaped, safe inside elements and quoted attributes of HTML and
/// XML (SVG); control characters other than tab and line breaks, which XML refuses,
/// become spaces.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && !matches!(c, '\n' | '\t' | '\r') => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Milliseconds as people read them (`850 ms`, `1.2 s`), without float formatting.
pub fn duration(ms: f64) -> String {
    let ms = ms.max(0.0).round() as u64;
    if ms < 1000 {
        format!("{ms} ms")
    } else {
        let tenths = (ms + 50) / 100;
        format!("{}.{} s", tenths / 10, tenths % 10)
    }
}

/// The one-line summary of a reply: latency, tokens, finish reason, attempts.
pub fn reply_summary(meta: &ReplyMeta) -> String {
    let mut parts = vec!["Reply".to_string()];
    if let Some(ms) = meta.latency_ms {
        parts.push(duration(ms));
    }
    match (meta.prompt_tokens, meta.completion_tokens) {
        (Some(p), Some(c)) => parts.push(format!("{p} + {c} tokens")),
        (None, Some(c)) => parts.push(format!("{c} tokens")),
        _ => {}
    }
    if let Some(f) = &meta.finish_reason {
        parts.push(f.clone());
    }
    if let Some(a) = meta.attempts.filter(|&a| a > 1) {
        parts.push(format!("{a} attempts"));
    }
    if meta.logprobs.is_some() {
        parts.push("logprobs".into());
    }
    parts.join(" · ")
}

fn mark(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Success => "✓",
        Outcome::Fail => "✗",
        Outcome::Error => "!",
    }
}

/// One verdict as a line: mark, reason, explanation, and the rule that read the reply
/// (verifier 5), with why the reading is not sure when it is not (verifier 9: the
/// competing value and its role, [`Verdict::doubt`]).
pub fn verdict_line(v: &Verdict) -> String {
    let rule = v.rule.map_or(String::new(), |rule| {
        let sure = v.sure.unwrap_or(!rule.is_fall_back());
        let why = match (&v.doubt, sure) {
            (Some(d), _) => format!(
                " <span class=\"doubt\" data-testid=\"doubt\" data-doubt=\"{k}\">{w}</span>",
                k = d.kind_name(),
                w = escape(&d.why)
            ),
            (None, false) => " (unsure: worth a look)".to_string(),
            (None, true) => String::new(),
        };
        format!(
            " <span class=\"read-rule\" data-rule=\"{n}\" data-sure=\"{sure}\" title=\"{d}\">read by <code>{n}</code>{why}</span>",
            n = rule.name(),
            d = escape(rule.describe()),
        )
    });
    format!(
        "<div class=\"step-verdict {o}\">{m} <code>{r}</code> {e}{rule}</div>",
        o = v.outcome.name(),
        m = mark(v.outcome),
        r = v.reason.as_str(),
        e = escape(&v.explanation)
    )
}

/// A reply with the span its reader read marked (`<mark data-testid="read-span">`), for
/// a verdict that read a cell or a shape, and each of its lines wrapped with its role in
/// the reply's outline ([`outlined_reply`]).
fn marked_reply(content: &str, v: Option<&Verdict>) -> String {
    let span = match v.map(|v| &v.extracted) {
        Some(Extracted::Cell(_)) => move_reading(content).span,
        Some(Extracted::Shape(_)) => shape_reading(content, ShapeSet::ALL).span,
        _ => None,
    };
    outlined_reply(content, span.filter(|[s, e]| s < e), "read-span")
}

/// `content` as HTML: each line wrapped with its role in the reply's outline
/// (`<span class="line-role" data-role="answer" title="an answer line">`, verify::outline),
/// so a person sees which line was the answer, an option, a question or a correction; and
/// the span `read` marked (`<mark class="read" data-testid="{mark_id}">`, empty where the
/// span is), never split: a line that holds only part of it is left unwrapped.
pub fn outlined_reply(content: &str, read: Option<[usize; 2]>, mark_id: &str) -> String {
    let fits = |[s, e]: [usize; 2]| {
        s <= e && e <= content.len() && content.is_char_boundary(s) && content.is_char_boundary(e)
    };
    let read = read.filter(|&r| fits(r));
    let mut out = String::new();
    let mut at = 0;
    let mut marked = false;
    let mut mark = |out: &mut String, [from, to]: [usize; 2]| match read {
        Some([s, e]) if !marked && from <= s && e <= to => {
            marked = true;
            let _ = write!(
                out,
                "{}<mark class=\"read\" data-testid=\"{mark_id}\">{}</mark>{}",
                escape(&content[from..s]),
                escape(&content[s..e]),
                escape(&content[e..to])
            );
        }
        _ => out.push_str(&escape(&content[from..to])),
    };
    for part in outline(content) {
        let [s, e] = part.span;
        let split = read.is_some_and(|[rs, re]| rs < e && s < re && !(s <= rs && re <= e));
        if s < at || s >= e || !fits(part.span) || split || part.role == OutlineRole::Prose {
            continue;
        }
        mark(&mut out, [at, s]);
        let _ = write!(
            out,
            "<span class=\"line-role\" data-role=\"{r}\" title=\"{t}\">",
            r = part.role.name(),
            t = part.role.describe()
        );
        mark(&mut out, [s, e]);
        out.push_str("</span>");
        at = e;
    }
    mark(&mut out, [at, content.len()]);
    out
}

/// What a reply's form was read as, under an answer mode other than free
/// (`data-testid="transcript-form"`, with `data-mode`, `data-form` and `data-held`): the
/// function called or the transcription, how the endpoint was asked, and whether the form
/// held (else why, and that the free readers read the reply).
fn form_line(f: &shapemaze_core::play::answer::FormReading) -> String {
    use shapemaze_core::play::answer::Source;
    let mut s = format!(
        "<div class=\"form-line\" data-testid=\"transcript-form\" data-mode=\"{}\" data-form=\"{}\" data-held=\"{}\">",
        f.mode.name(),
        f.form.name(),
        f.held
    );
    let answer = f.answer.as_deref().unwrap_or("");
    match (f.source, &f.tool, &f.transcriber) {
        (Source::ToolCall, Some(name), _) => {
            let _ = write!(
                s,
                "<pre tabindex=\"0\">{}({})</pre>",
                escape(name),
                escape(answer)
            );
        }
        (Source::Transcription, _, Some(t)) if !answer.is_empty() => {
            let _ = write!(
                s,
                "<div class=\"step-head\">Transcribed by {}</div><pre tabindex=\"0\">{}</pre>",
                escape(&t.model),
                escape(answer)
            );
        }
        (Source::Reasoning, _, _) if !answer.is_empty() => {
            let _ = write!(
                s,
                "<div class=\"step-head\">Answer found in the reasoning field</div><pre tabindex=\"0\">{}</pre>",
                escape(answer)
            );
        }
        _ => {}
    }
    let how = format!("{} mode, asked as {}", f.mode.name(), f.form.name());
    let held = match (f.held, &f.reason, &f.why) {
        (true, _, _) => "the form held: read by serde against its schema".to_string(),
        (false, Some(r), why) => format!(
            "{}: {}; read by the free readers instead",
            r.name(),
            why.as_deref().unwrap_or("")
        ),
        (false, None, _) => "read by the free readers".to_string(),
    };
    let steps: Vec<String> = f
        .stepped_down
        .iter()
        .map(|d| match d.status {
            Some(code) => format!("{} refused ({code})", d.form.name()),
            None => format!("{} refused", d.form.name()),
        })
        .collect();
    let steps = if steps.is_empty() {
        String::new()
    } else {
        format!(" Stepped down: {}.", steps.join(", "))
    };
    let _ = write!(
        s,
        "<p class=\"muted\">{}; {}.{}</p></div>",
        escape(&how),
        escape(&held),
        escape(&steps)
    );
    s
}

/// The live transcript: one `<li data-testid="transcript-step">` per message (prompts
/// folded after the first, replies with their summary, folded reasoning and verdict),
/// then the reply arriving, if any.
pub fn transcript(turns: &[Turn], live: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    for (i, turn) in turns.iter().enumerate() {
        let m = &turn.message;
        let role = match m.role {
            Role::User => "user",
            Role::Assistant => "assistant",
        };
        let _ = write!(
            out,
            "<li class=\"step {role}\" data-testid=\"transcript-step\" data-role=\"{role}\">"
        );
        match m.role {
            Role::User => {
                let first = m.content.lines().next().unwrap_or("");
                let open = if i == 0 { " open" } else { "" };
                let _ = write!(
                    out,
                    "<div class=\"step-head\">Prompt</div><details class=\"prompt-text\"{open}><summary>{}</summary><pre tabindex=\"0\">{}</pre></details>",
                    escape(first),
                    escape(&m.content)
                );
            }
            Role::Assistant => {
                let meta = turn.meta.clone().unwrap_or_default();
                let _ = write!(
                    out,
                    "<div class=\"step-head\">{}</div>",
                    escape(&reply_summary(&meta))
                );
                if let Some(r) = meta.reasoning.as_deref().filter(|r| !r.is_empty()) {
                    let _ = write!(
                        out,
                        "<details class=\"reasoning\"><summary>Reasoning</summary><pre tabindex=\"0\">{}</pre></details>",
                        escape(r)
                    );
                }
                let _ = write!(
                    out,
                    "<pre tabindex=\"0\">{}</pre>",
                    marked_reply(&m.content, turn.verdict.as_ref())
                );
                if let Some(f) = turn.form.as_deref() {
                    out.push_str(&form_line(f));
                }
                if let Some(v) = &turn.verdict {
                    out.push_str(&verdict_line(v));
                }
            }
        }
        out.push_str("</li>");
    }
    if let Some((content, reasoning)) = live.filter(|(c, r)| !c.is_empty() || !r.is_empty()) {
        out.push_str("<li class=\"step assistant live\" data-testid=\"transcript-live\"><div class=\"step-head\">Reply arriving…</div>");
        if !reasoning.is_empty() {
            let _ = write!(
                out,
                "<details class=\"reasoning\" open><summary>Reasoning</summary><pre tabindex=\"0\">{}</pre></details>",
                escape(reasoning)
            );
        }
        let _ = write!(out, "<pre tabindex=\"0\">{}</pre></li>", escape(content));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use shapemaze_core::play::transcript::Message;
    use shapemaze_core::verify::{Extracted, Reason};

    #[test]
    fn hostile_model_text_is_shown_as_text() {
        let messages = vec![
            Message {
                role: Role::User,
                content: "Phase 1 of 3\n1 0 P".into(),
            },
            Message {
                role: Role::Assistant,
                content: "<script>alert('x')</script> & <img src=x onerror=alert(1)>".into(),
            },
        ];
        let meta = vec![
            None,
            Some(ReplyMeta {
                reasoning: Some("</pre><b>bold</b>".into()),
                latency_ms: Some(1234.0),
                prompt_tokens: Some(10),
                completion_tokens: Some(5),
                ..ReplyMeta::default()
            }),
        ];
        let verdicts = vec![
            None,
            Some(Verdict {
                outcome: Outcome::Fail,
                reason: Reason::NoCoordinate,
                extracted: Extracted::Nothing,
                explanation: "No <coordinate>".into(),
                checks: None,
                rule: None,
                sure: None,
                doubt: None,
            }),
        ];
        let turns: Vec<Turn> = messages
            .into_iter()
            .zip(meta)
            .zip(verdicts)
            .map(|((message, meta), verdict)| Turn {
                message,
                meta,
                verdict,
                image: None,
                form: Default::default(),
            })
            .collect();
        let html = transcript(&turns, Some(("<i>", "")));
        assert!(!html.contains("<script>"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(!html.contains("<i>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp;"));
        assert!(html.contains("1.2 s · 10 + 5 tokens"), "{html}");
        assert_eq!(html.matches("data-testid=\"transcript-step\"").count(), 2);
        assert!(html.contains("data-testid=\"transcript-live\""));
    }

    /// A successful move to (0, 1), its rule not yet named.
    fn moved_to_0_1() -> Verdict {
        Verdict {
            outcome: Outcome::Success,
            reason: Reason::ValidMove,
            extracted: Extracted::Cell(shapemaze_core::maze::grid::Pos::new(0, 1)),
            explanation: "Moved.".into(),
            checks: None,
            rule: None,
            sure: None,
            doubt: None,
        }
    }

    #[test]
    fn a_reading_is_marked_in_its_reply_and_its_rule_named() {
        use shapemaze_core::verify::Rule;
        let v = moved_to_0_1().read_by(Rule::LastCoordinate);
        let reply = "<b> maybe (1, 0) & (0, 1)";
        let html = marked_reply(reply, Some(&v));
        assert_eq!(
            html,
            "&lt;b&gt; maybe (1, 0) &amp; <mark class=\"read\" data-testid=\"read-span\">(0, 1)</mark>"
        );
        let line = verdict_line(&v);
        assert!(line.contains("data-rule=\"last_coordinate\""), "{line}");
        assert!(line.contains("data-sure=\"false\""), "{line}");
        assert!(line.contains("data-doubt=\"fall_back\""), "{line}");
        assert!(line.contains("a fall-back"), "{line}");
        let plain = verdict_line(&v.clone().read_by(Rule::AnswerLabel));
        assert!(!plain.contains("fall-back"), "{plain}");
        assert!(plain.contains("data-sure=\"true\""), "{plain}");
        assert_eq!(marked_reply("no cell", None), "no cell");
    }

    #[test]
    fn each_line_of_a_reply_carries_its_role_and_the_mark_stays_inside_it() {
        let v = moved_to_0_1();
        let reply = "Is (1, 0) open?\nWait, it is a wall.\nMove: (0, 1)";
        assert_eq!(
            marked_reply(reply, Some(&v)),
            "<span class=\"line-role\" data-role=\"question\" title=\"a question\">Is (1, 0) open?</span>\n\
             <span class=\"line-role\" data-role=\"correction\" title=\"a correction: takes back what came before\">Wait, it is a wall.</span>\n\
             <span class=\"line-role\" data-role=\"answer\" title=\"an answer line\">Move: <mark class=\"read\" data-testid=\"read-span\">(0, 1)</mark></span>"
        );
    }

    #[test]
    fn a_mark_is_never_split_and_an_empty_one_stands_where_its_span_is() {
        // A span over two lines leaves both unwrapped, so the mark stays whole.
        let reply = "Answer:\n(0, 1)\nIs (1, 0) open?";
        let html = outlined_reply(reply, Some([0, 14]), "m");
        assert!(
            html.starts_with("<mark class=\"read\" data-testid=\"m\">Answer:\n(0, 1)</mark>\n"),
            "{html}"
        );
        assert!(html.contains("data-role=\"question\""), "{html}");
        // Nothing read: one empty mark at the end, once.
        let end = reply.len();
        let html = outlined_reply(reply, Some([end, end]), "m");
        assert_eq!(html.matches("<mark").count(), 1, "{html}");
        assert!(
            html.contains("open?<mark class=\"read\" data-testid=\"m\"></mark>"),
            "{html}"
        );
        // A span outside the text marks nothing.
        assert!(!outlined_reply(reply, Some([3, 99]), "m").contains("<mark"));
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(0.4), "0 ms");
        assert_eq!(duration(850.0), "850 ms");
        assert_eq!(duration(1000.0), "1.0 s");
        assert_eq!(duration(1249.0), "1.2 s");
        assert_eq!(duration(61_950.0), "62.0 s");
        assert_eq!(duration(-3.0), "0 ms");
    }
}
