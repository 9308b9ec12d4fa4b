//! The transcript text format (docs/CONTRACT.md): the conversation in order, each message under
//! a line of its own `### user` or `### assistant`, then exactly three closing lines
//! `SOLVE: …`, `RECOGNIZE: …`, `GENERATE: …` with `SUCCESS`, `FAIL` or `ERROR` (the
//! endpoint failed, so the phase has no reply to judge; see [`Outcome`]).
//!
//! [`render`] and [`parse`] round-trip. Transcripts written by other tools may lack the
//! message markers; [`parse`] then still reads the closing lines and says it found no
//! markers ([`ParsedTranscript::marked`] is false).

use crate::verify::Outcome;
use serde::{Deserialize, Serialize};

/// Marker line before a message from the trial (prompts, updated mazes).
pub const USER_MARKER: &str = "### user";
/// Marker line before a reply from the player.
pub const ASSISTANT_MARKER: &str = "### assistant";
/// Closing-line keys, in order.
pub const CLOSING_KEYS: [&str; 3] = ["SOLVE", "RECOGNIZE", "GENERATE"];

/// Who wrote a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The trial: prompts and updated mazes.
    User,
    /// The player: a model, an agent or a person.
    Assistant,
}

impl Role {
    /// The marker line for this role.
    pub fn marker(self) -> &'static str {
        match self {
            Role::User => USER_MARKER,
            Role::Assistant => ASSISTANT_MARKER,
        }
    }
}

/// One message of the conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// Who wrote it.
    pub role: Role,
    /// What it says.
    pub content: String,
}

/// Whether `line` is a marker behind zero or more backslashes. A message line that is one
/// gets one more backslash when rendered and loses it when parsed, so a reply that itself
/// contains a line `### user` cannot be mistaken for the start of a message.
fn escaped_marker(line: &str) -> bool {
    let bare = line.trim_end().trim_start_matches('\\');
    bare == USER_MARKER || bare == ASSISTANT_MARKER
}

/// Renders a finished conversation and its three outcomes.
pub fn render<'a>(
    messages: impl IntoIterator<Item = &'a Message>,
    outcomes: [Outcome; 3],
) -> String {
    let mut out = String::new();
    for m in messages {
        out.push_str(m.role.marker());
        out.push('\n');
        for line in m.content.trim_end_matches('\n').split('\n') {
            if escaped_marker(line) {
                out.push('\\');
            }
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
    }
    for (key, o) in CLOSING_KEYS.iter().zip(outcomes) {
        out.push_str(&format!("{key}: {}\n", o.closing()));
    }
    out
}

/// A transcript read back.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct ParsedTranscript {
    /// The messages (empty when the transcript has no markers).
    pub messages: Vec<Message>,
    /// The recorded outcome of each phase, `None` where its closing line is missing or
    /// unreadable.
    pub closing: [Option<Outcome>; 3],
    /// Whether the transcript carries our message markers.
    pub marked: bool,
}

fn closing_line(line: &str) -> Option<(usize, Outcome)> {
    let (key, value) = line.trim().split_once(':')?;
    let idx = CLOSING_KEYS.iter().position(|k| *k == key.trim())?;
    Some((idx, Outcome::from_closing(value.trim())?))
}

/// The verdict lines of a transcript without markers, wherever they stand: the design's
/// original code writes `SOLVE: …` right after the solve phase and the other two at the
/// end. The last line of each key counts.
fn scattered_closing(lines: &[&str]) -> [Option<Outcome>; 3] {
    let mut closing = [None; 3];
    for line in lines {
        if let Some((i, o)) = closing_line(line) {
            closing[i] = Some(o);
        }
    }
    closing
}

/// Reads a transcript: messages between markers, and the closing lines at the end (for a
/// transcript without markers, the verdict lines wherever they stand).
pub fn parse(text: &str) -> ParsedTranscript {
    let text = text.replace("\r\n", "\n");
    let lines: Vec<&str> = text.lines().collect();
    // The closing block: the trailing run of closing lines (blank lines allowed).
    let mut end = lines.len();
    let mut closing = [None; 3];
    while end > 0 {
        let l = lines[end - 1];
        if l.trim().is_empty() {
            end -= 1;
            continue;
        }
        match closing_line(l) {
            Some((i, o)) if closing[i].is_none() => {
                closing[i] = Some(o);
                end -= 1;
            }
            _ => break,
        }
    }
    let mut messages: Vec<Message> = Vec::new();
    let mut marked = false;
    for line in &lines[..end] {
        let role = match line.trim_end() {
            USER_MARKER => Some(Role::User),
            ASSISTANT_MARKER => Some(Role::Assistant),
            _ => None,
        };
        match (role, messages.last_mut()) {
            (Some(role), _) => {
                marked = true;
                messages.push(Message {
                    role,
                    content: String::new(),
                });
            }
            (None, Some(m)) => {
                let line = match line.strip_prefix('\\') {
                    Some(rest) if escaped_marker(line) => rest,
                    _ => line,
                };
                m.content.push_str(line);
                m.content.push('\n');
            }
            (None, None) => {}
        }
    }
    for m in &mut messages {
        m.content = m.content.trim_end_matches('\n').to_string();
    }
    if !marked {
        closing = scattered_closing(&lines);
    }
    ParsedTranscript {
        messages,
        closing,
        marked,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_round_trip() {
        let msgs = vec![
            Message {
                role: Role::User,
                content: "Phase 1\n\n1 0 P\n0 0 G".into(),
            },
            Message {
                role: Role::Assistant,
                content: "Move: (1, 1)\n\nbecause".into(),
            },
        ];
        let text = render(&msgs, [Outcome::Success, Outcome::Fail, Outcome::Success]);
        assert!(text.ends_with("SOLVE: SUCCESS\nRECOGNIZE: FAIL\nGENERATE: SUCCESS\n"));
        let p = parse(&text);
        assert_eq!(p.messages, msgs);
        assert!(p.marked);
        assert_eq!(
            p.closing,
            [
                Some(Outcome::Success),
                Some(Outcome::Fail),
                Some(Outcome::Success)
            ]
        );
        // An empty reply (the model answered nothing) reads back empty.
        let mut with_empty = msgs.clone();
        with_empty.insert(
            1,
            Message {
                role: Role::Assistant,
                content: String::new(),
            },
        );
        let text = render(&with_empty, [Outcome::Fail; 3]);
        assert_eq!(parse(&text).messages, with_empty);
    }

    #[test]
    fn api_error_closing_lines_round_trip_beside_the_others() {
        for o in Outcome::ALL {
            let outcomes = [o, Outcome::Error, Outcome::Success];
            let text = render(&[], outcomes);
            assert!(
                text.starts_with(&format!("SOLVE: {}\nRECOGNIZE: ERROR\n", o.closing())),
                "{text}"
            );
            assert_eq!(parse(&text).closing, outcomes.map(Some), "{text}");
        }
        assert_eq!(
            parse("SOLVE: error\n").closing,
            [None, None, None],
            "closing words are capitals"
        );
    }

    #[test]
    fn a_reply_containing_a_marker_line_survives_the_round_trip() {
        let msgs = vec![
            Message {
                role: Role::User,
                content: "Phase 1".into(),
            },
            Message {
                role: Role::Assistant,
                content: "### user\nMove: (1, 1)\n\\### assistant\n### user please".into(),
            },
        ];
        let text = render(&msgs, [Outcome::Fail, Outcome::Fail, Outcome::Fail]);
        assert_eq!(
            text.matches("\n### user\n").count(),
            0,
            "the reply's marker line is escaped:\n{text}"
        );
        assert_eq!(parse(&text).messages, msgs);
    }

    #[test]
    fn foreign_transcripts_are_read_from_their_closing_lines() {
        let text = "Prompt...\nModel: (1,2)\n\nSOLVE: FAIL\nRECOGNIZE: SUCCESS\nGENERATE: FAIL\n";
        let p = parse(text);
        assert!(!p.marked);
        assert!(p.messages.is_empty());
        assert_eq!(
            p.closing,
            [
                Some(Outcome::Fail),
                Some(Outcome::Success),
                Some(Outcome::Fail)
            ]
        );
        let original_way = "You are tasked with solving a maze.\nPlease provide the coordinates of your next move.(1, 2)\n\nSOLVE: SUCCESS\nFor the maze you were tasked to solve, please provide:\nA square.\n\nRECOGNIZE: SUCCESS\n\nGENERATE: FAIL\n";
        assert_eq!(
            parse(original_way).closing,
            [
                Some(Outcome::Success),
                Some(Outcome::Success),
                Some(Outcome::Fail)
            ],
            "the original code's SOLVE line stands after the solve phase, not at the end"
        );
        let none = parse("just text");
        assert_eq!(none.closing, [None, None, None]);
    }
}
