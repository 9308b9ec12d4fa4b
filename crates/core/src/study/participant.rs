//! Who the participant is (read from the link) and the stable hash that names things
//! after their text.

use crate::maze::shape::Shape;
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
    /// Which counterbalancing order (from `order`, else a hash of the id; with server
    /// assignment, the server's at consent): the row of the Latin square and the condition
    /// ([`crate::study::Study::order_for`], [`crate::study::Study::condition_for`]).
    pub order: u64,
    /// Whether the link gave the order (`order=`); left out when it did not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub order_given: bool,
}

impl Participant {
    /// Reads the participant from URL parameters; `fallback_id` is used when the link names
    /// nobody (the page makes one up and keeps it for this tab).
    pub fn from_params(get: impl Fn(&str) -> Option<String>, fallback_id: &str) -> Participant {
        let clean = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
        let id = clean(get("PROLIFIC_PID"))
            .or_else(|| clean(get("participant")))
            .unwrap_or_else(|| fallback_id.to_string());
        let given: Option<u64> = clean(get("order")).and_then(|o| o.parse().ok());
        Participant {
            study_id: clean(get("STUDY_ID")),
            session_id: clean(get("SESSION_ID")),
            order: given.unwrap_or_else(|| fnv1a(id.as_bytes())),
            order_given: given.is_some(),
            id,
        }
    }
}

impl Participant {
    /// The forced choice's shapes in this participant's order: `in_play` shuffled by a
    /// seed made from the id, so participants see the buttons in different orders (no
    /// position favours a shape across the study) while one participant sees the same
    /// order in every trial, after a reload and in a new attempt. The order is a function
    /// of the id alone, so an analysis can rebuild it.
    pub fn choice_order(&self, in_play: &[Shape]) -> Vec<Shape> {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let seed = fnv1a(format!("choices:{}", self.id).as_bytes());
        let mut order = in_play.to_vec();
        order.shuffle(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
        order
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
