//! Where a participant's study data is kept: one typed key ([`StudyKey`]) for every thing
//! the browser stores, and the names a participant's data goes by on the server. Every key
//! is written by [`StudyKey::render`] and read by [`StudyKey::parse`]; nothing else spells
//! one.
//!
//! In the browser's `study` store (IndexedDB), under the attempt's prefix `{study}/{id}/`
//! (the first attempt) or `{study}/{id}/attempt-N/` (from the second on, `N` = 1, 2, ...):
//!
//! | key | holds |
//! |---|---|
//! | `{study}/{id}/session` | the participant's session, one for every attempt ([`StudyKey::Session`]) |
//! | `{prefix}trial/{i}` | trial `i` (the practice is -1) ([`StudyKey::Trial`]) |
//! | `{prefix}outcome` | how the attempt ended ([`StudyKey::Outcome`]) |
//! | `{prefix}sent/{i}`, `{prefix}sent/outcome` | the hash of the copy the server acknowledged ([`StudyKey::Sent`]) |
//!
//! `{study}` is the study's storage name (its file name, or `inline-HASH`: never a `/`),
//! `{id}` the participant's id (never empty). Before issue 41 an acknowledged outcome was kept at
//! `{prefix}outcome-sent`: that key still reads, as the same [`StudyKey::Sent`] (a new
//! acknowledgement is written at `sent/outcome`). Trials imported on `/study/manage` are
//! kept as the first attempt of participant `{id}` or `{id}#attempt-N` in study
//! `imported-{title}` ([`Who::imported`]).
//!
//! Reading a key goes from its end: what it names, then an `attempt-N` part if what is
//! left before it is still `{study}/{id}`, then the study up to the first `/`. So every key
//! written reads back as itself (while the study's name and the id hold no `/`; an imported
//! study's title may, and its key then reads with the id taking the rest), and every key
//! read renders back as the text it was read from (but the old `outcome-sent`).

use std::fmt;

/// The key part of a later attempt: `attempt-N`.
const ATTEMPT: &str = "attempt-";
/// What the old spelling of an acknowledged outcome ended with.
const OLD_OUTCOME_SENT: &str = "/outcome-sent";
/// The study name trials imported on `/study/manage` are kept under starts with this.
const IMPORTED: &str = "imported-";

/// A participant of a study as stored: the study's storage name and the participant's id.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Who {
    /// The study's storage name (its file name, or `inline-HASH` for a study in the link).
    pub study: String,
    /// The participant's id.
    pub participant: String,
}

impl Who {
    /// Participant `participant` of the study stored as `study`.
    pub fn new(study: impl Into<String>, participant: impl Into<String>) -> Who {
        Who {
            study: study.into(),
            participant: participant.into(),
        }
    }

    /// Where `/study/manage` keeps imported trials of the study titled `title` by the
    /// participant stored as `participant` ([`super::StudyTrialData::participant_key`]):
    /// study `imported-{title}`, apart from the studies run in this browser.
    pub fn imported(title: &str, participant: impl Into<String>) -> Who {
        Who::new(format!("{IMPORTED}{title}"), participant)
    }

    /// Attempt `n` (0 first) of this participant.
    pub fn attempt(&self, n: u32) -> Attempt {
        Attempt {
            who: self.clone(),
            n,
        }
    }

    /// `{study}/{id}/`: the start of every key of this participant.
    fn prefix(&self) -> String {
        format!("{}/{}/", self.study, self.participant)
    }
}

/// One attempt of a participant at a study: where that attempt's data is kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Attempt {
    /// Whose.
    pub who: Who,
    /// Which attempt (0 first).
    pub n: u32,
}

impl Attempt {
    /// `{study}/{id}/`, then `attempt-N/` from the second attempt on.
    fn prefix(&self) -> String {
        match self.n {
            0 => self.who.prefix(),
            n => format!("{}{ATTEMPT}{n}/", self.who.prefix()),
        }
    }
}

/// What an acknowledgement is of: a trial or the attempt's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sendable {
    /// Trial `i` (the practice is -1).
    Trial(i64),
    /// The attempt's outcome.
    Outcome,
}

/// Every thing the browser keeps of a participant's study.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum StudyKey {
    /// The participant's session ([`super::StudySession`]), one for every attempt.
    Session(Who),
    /// A trial's data ([`super::StudyTrialData`]) by its index (the practice is -1).
    Trial(Attempt, i64),
    /// How the attempt ended ([`super::OutcomeRecord`]).
    Outcome(Attempt),
    /// The hash of the copy of a trial or of the outcome the server acknowledged
    /// ([`super::content_hash`]).
    Sent(Attempt, Sendable),
}

/// Which part of a participant's keys a listing or a deletion covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every study's data.
    All,
    /// Everything of one participant: the session and every attempt.
    Participant(Who),
    /// One attempt's data. The first attempt's keys start as the participant's do, so
    /// its scope covers the session and the later attempts too.
    Attempt(Attempt),
}

impl Scope {
    /// The text every key in the scope starts with.
    pub fn render(&self) -> String {
        match self {
            Scope::All => String::new(),
            Scope::Participant(who) => who.prefix(),
            Scope::Attempt(a) => a.prefix(),
        }
    }
}

/// Why a text is not a study key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyError {
    /// The text read.
    pub key: String,
    /// What is wrong with it.
    pub why: KeyProblem,
}

/// What is wrong with a text read as a study key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyProblem {
    /// Its end names nothing kept (`session`, `trial/N`, `outcome`, `sent/N`,
    /// `sent/outcome`).
    Unknown,
    /// A trial's index is not a whole number as the page writes it (`3`, `-1`).
    Index,
    /// No `{study}/{participant}/` comes before what it names.
    NoParticipant,
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.why {
            KeyProblem::Unknown => "its end names nothing a study keeps (session, trial/N, outcome, sent/N or sent/outcome)",
            KeyProblem::Index => "the trial's index is not a whole number (3, or -1 for the practice)",
            KeyProblem::NoParticipant => "it does not start with the study's name and the participant's id",
        };
        write!(f, "'{}' is not a study's stored key: {why}", self.key)
    }
}

impl std::error::Error for KeyError {}

impl StudyKey {
    /// The key's text (see the module's table).
    pub fn render(&self) -> String {
        match self {
            StudyKey::Session(who) => format!("{}session", who.prefix()),
            StudyKey::Trial(a, i) => format!("{}trial/{i}", a.prefix()),
            StudyKey::Outcome(a) => format!("{}outcome", a.prefix()),
            StudyKey::Sent(a, Sendable::Trial(i)) => format!("{}sent/{i}", a.prefix()),
            StudyKey::Sent(a, Sendable::Outcome) => format!("{}sent/outcome", a.prefix()),
        }
    }

    /// The tab's mark that it has this participant's session open (kept in the tab's
    /// sessionStorage, not the study store): a reload of a tab that holds it resumes.
    pub fn open_mark(who: &Who) -> String {
        format!("shapemaze.study-open.{}", StudyKey::Session(who.clone()))
    }

    /// Reads a key's text: every key [`StudyKey::render`] writes, and the acknowledged
    /// outcome's old spelling (`{prefix}outcome-sent`, read as [`StudyKey::Sent`]).
    pub fn parse(text: &str) -> Result<StudyKey, KeyError> {
        read(text).map_err(|why| KeyError {
            key: text.to_string(),
            why,
        })
    }

    /// Where the hash of this thing's acknowledged copy is kept: a trial's and the
    /// outcome's [`StudyKey::Sent`]; none for what is never sent.
    pub fn sent(&self) -> Option<StudyKey> {
        match self {
            StudyKey::Trial(a, i) => Some(StudyKey::Sent(a.clone(), Sendable::Trial(*i))),
            StudyKey::Outcome(a) => Some(StudyKey::Sent(a.clone(), Sendable::Outcome)),
            StudyKey::Session(_) | StudyKey::Sent(..) => None,
        }
    }

    /// Whose data the key holds.
    pub fn who(&self) -> &Who {
        match self {
            StudyKey::Session(who) => who,
            StudyKey::Trial(a, _) | StudyKey::Outcome(a) | StudyKey::Sent(a, _) => &a.who,
        }
    }

    /// What the key holds, for people: `trial 3 of participant p1 (attempt 2) in study
    /// pilot`.
    pub fn what(&self) -> String {
        let trial = |i: i64| match i {
            -1 => "the practice trial".to_string(),
            i => format!("trial {}", i + 1),
        };
        let (thing, a) = match self {
            StudyKey::Session(_) => ("the session".to_string(), None),
            StudyKey::Trial(a, i) => (trial(*i), Some(a)),
            StudyKey::Outcome(a) => ("the outcome".to_string(), Some(a)),
            StudyKey::Sent(a, Sendable::Trial(i)) => {
                (format!("the upload receipt of {}", trial(*i)), Some(a))
            }
            StudyKey::Sent(a, Sendable::Outcome) => {
                ("the upload receipt of the outcome".to_string(), Some(a))
            }
        };
        let who = self.who();
        let attempt = match a.map_or(0, |a| a.n) {
            0 => String::new(),
            n => format!(" (attempt {})", n + 1),
        };
        format!(
            "{thing} of participant {}{attempt} in study {}",
            who.participant, who.study
        )
    }
}

impl fmt::Display for StudyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::str::FromStr for StudyKey {
    type Err = KeyError;

    fn from_str(text: &str) -> Result<StudyKey, KeyError> {
        StudyKey::parse(text)
    }
}

/// [`StudyKey::parse`] but for the text in the error.
fn read(text: &str) -> Result<StudyKey, KeyProblem> {
    use KeyProblem::{Index, NoParticipant, Unknown};
    if let Some(head) = text.strip_suffix("/session") {
        return who(head).map(StudyKey::Session).ok_or(NoParticipant);
    }
    if let Some(head) = text.strip_suffix(OLD_OUTCOME_SENT) {
        let a = attempt(head).ok_or(NoParticipant)?;
        return Ok(StudyKey::Sent(a, Sendable::Outcome));
    }
    let (rest, last) = text.rsplit_once('/').ok_or(Unknown)?;
    let named = rest.rsplit_once('/');
    // `{prefix}sent/outcome` before `{prefix}outcome`: a participant called `sent` reads
    // as that only when no participant is left before it.
    if let (Some((head, "sent")), "outcome") = (named, last) {
        if let Some(a) = attempt(head) {
            return Ok(StudyKey::Sent(a, Sendable::Outcome));
        }
    }
    if last == "outcome" {
        return attempt(rest).map(StudyKey::Outcome).ok_or(NoParticipant);
    }
    let (head, kind) = named.ok_or(Unknown)?;
    let make: fn(Attempt, i64) -> StudyKey = match kind {
        "trial" => StudyKey::Trial,
        "sent" => |a, i| StudyKey::Sent(a, Sendable::Trial(i)),
        _ => return Err(Unknown),
    };
    let i = number::<i64>(last).ok_or(Index)?;
    Ok(make(attempt(head).ok_or(NoParticipant)?, i))
}

/// `{study}/{id}`: the study up to the first `/`, both named.
fn who(head: &str) -> Option<Who> {
    let (study, participant) = head.split_once('/')?;
    (!study.is_empty() && !participant.is_empty()).then(|| Who::new(study, participant))
}

/// `{study}/{id}` or `{study}/{id}/attempt-N` (N from 1, as written): the latter only when
/// what is left before `attempt-N` is still a participant.
fn attempt(head: &str) -> Option<Attempt> {
    let later = head.rsplit_once('/').and_then(|(rest, part)| {
        let n = number::<u32>(part.strip_prefix(ATTEMPT)?).filter(|&n| n > 0)?;
        Some(who(rest)?.attempt(n))
    });
    later.or_else(|| Some(who(head)?.attempt(0)))
}

/// A whole number written as the page writes it (no sign but `-`, no leading zeros), so
/// it renders back as the same text.
fn number<T: std::str::FromStr + ToString>(text: &str) -> Option<T> {
    text.parse::<T>().ok().filter(|n| n.to_string() == text)
}

/// The participant as the server and the exports store them: the id, with `#attempt-N`
/// from the second attempt on (so a restarted participant's trials never replace the
/// first attempt's).
pub(crate) fn stored_participant(id: &str, attempt: u32) -> String {
    match attempt {
        0 => id.to_string(),
        n => format!("{id}#{ATTEMPT}{n}"),
    }
}

/// A trial's row key on the server: `{title}/{participant as stored}/{index}`.
pub(crate) fn server_row(title: &str, participant: &str, index: i64) -> String {
    format!("{title}/{participant}/{index}")
}
