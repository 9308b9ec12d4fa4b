//! Who the participant is (read from the link) and the stable hash that names things
//! after their text.

use serde::{Deserialize, Serialize};

/// Who the participant is, read from the link.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Participant {
    /// The participant's id (`PROLIFIC_PID`, else `participant`, else made up locally).
    pub id: String,
    /// Prolific's `STUDY_ID`, if given.
    #[serde(default)]
    pub study_id: Option<String>,
    /// Prolific's `SESSION_ID`, if given.
    #[serde(default)]
    pub session_id: Option<String>,
    /// Which counterbalancing row (from `order`, else a hash of the id).
    pub order: u64,
}

impl Participant {
    /// Reads the participant from URL parameters; `fallback_id` is used when the link names
    /// nobody (the page makes one up and keeps it for this tab).
    pub fn from_params(get: impl Fn(&str) -> Option<String>, fallback_id: &str) -> Participant {
        let clean = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let id = clean(get("PROLIFIC_PID"))
            .or_else(|| clean(get("participant")))
            .unwrap_or_else(|| fallback_id.to_string());
        let order = clean(get("order"))
            .and_then(|o| o.parse().ok())
            .unwrap_or_else(|| fnv1a(id.as_bytes()));
        Participant {
            study_id: clean(get("STUDY_ID")),
            session_id: clean(get("SESSION_ID")),
            id,
            order,
        }
    }
}

/// FNV-1a, 64 bits: the stable hash of ids, consent texts and inline studies.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A study in a link has no file name: it is stored under a name made from its text.
pub fn inline_name(config: &str) -> String {
    format!("inline-{:016x}", fnv1a(config.as_bytes()))
}
