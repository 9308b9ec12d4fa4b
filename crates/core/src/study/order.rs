//! The counterbalanced order of a study's trials: the balanced Latin square (see the
//! study module's documentation) and the order `shapemaze serve` assigns.

use super::file::{Assignment, Study, StudyTrial};
use crate::play::condition::Condition;

/// Minutes after which `shapemaze serve` takes a participant with no outcome yet for one
/// who left, when the study sets neither `resume.max_age_minutes` nor a time limit.
pub const DEFAULT_HOLD_MINUTES: u32 = 120;

/// The body of `POST /api/study-order` for `participant` of the study stored as `study`:
/// the orders to choose among, and what the server needs to leave out of its counts the
/// participants who took an order and left ([`Study::hold_minutes`]; the study's title,
/// which its trials and outcomes are stored under).
pub fn order_request(study_name: &str, study: &Study, participant: &str) -> String {
    serde_json::json!({
        "study": study_name,
        "participant": participant,
        "orders": study.order_count(),
        "title": study.title,
        "hold_minutes": study.hold_minutes(),
    })
    .to_string()
}

/// Why the server's answer to [`order_request`] gives no order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrderError {
    /// The server answered with this HTTP status.
    Status(u16),
    /// Its answer is not JSON.
    NotJson,
    /// Its order is not one of the study's (the order, the study's orders).
    OutOfRange(u64, usize),
    /// Its answer names no order.
    NoOrder,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrderError::Status(status) => write!(f, "the server answered {status}"),
            OrderError::NotJson => f.write_str(
                "the server's answer is not JSON (is this site served by `shapemaze serve`?)",
            ),
            OrderError::OutOfRange(k, n) => {
                write!(f, "the server gave order {k}, but the study has {n}")
            }
            OrderError::NoOrder => f.write_str("the server's answer names no order"),
        }
    }
}

impl std::error::Error for OrderError {}

/// The order in the server's answer to [`order_request`], or why there is none.
pub fn read_order_answer(status: u16, text: &str, study: &Study) -> Result<u64, OrderError> {
    if !(200..300).contains(&status) {
        return Err(OrderError::Status(status));
    }
    let value: serde_json::Value = serde_json::from_str(text).map_err(|_| OrderError::NotJson)?;
    match value.get("order").and_then(serde_json::Value::as_u64) {
        Some(k) if k < study.order_count() as u64 => Ok(k),
        Some(k) => Err(OrderError::OutOfRange(k, study.order_count())),
        None => Err(OrderError::NoOrder),
    }
}

impl Study {
    /// How many rows of the Latin square the trial order has (the number of shapes when
    /// even, twice that when odd; 1 when not counterbalanced).
    fn latin_orders(&self) -> usize {
        let n = self.shapes().len();
        match (self.counterbalance, n) {
            (false, _) | (true, 0 | 1) => 1,
            (true, n) if n.is_multiple_of(2) => n,
            (true, n) => 2 * n,
        }
    }

    /// How many distinct counterbalancing orders the study has: each row of its Latin
    /// square ([`Study::order_for`]) in each condition it offers ([`Study::condition_for`]),
    /// so balancing the orders balances the conditions too; 1 for a study neither
    /// counterbalanced nor with several conditions.
    pub fn order_count(&self) -> usize {
        self.latin_orders() * self.conditions_offered().len()
    }

    /// The scored trials in the order participant number `k` takes them (see the module
    /// documentation); the file order when the study is not counterbalanced. With `c`
    /// conditions, participants `k` and `k + 1` ... `k + c - 1` take the same row when `k`
    /// is a multiple of `c`: the row is that of `k / c`.
    pub fn order_for(&self, k: u64) -> Vec<StudyTrial> {
        if !self.counterbalance {
            return self.trials.clone();
        }
        let shapes = self.shapes();
        let c = self.conditions_offered().len() as u64;
        latin_row(shapes.len(), k / c)
            .into_iter()
            .flat_map(|i| {
                let s = shapes[i];
                self.trials.iter().copied().filter(move |t| t.shape == s)
            })
            .collect()
    }

    /// The condition of participant number `k`: the study's conditions in turn
    /// (`k mod c`), so consecutive participants alternate and, over every `c` rows of the
    /// Latin square's cycle, each condition takes each order equally often.
    pub fn condition_for(&self, k: u64) -> Condition {
        let offered = self.conditions_offered();
        offered[(k % offered.len() as u64) as usize]
    }

    /// How long an order the server assigned is held for its participant while no outcome
    /// has come: the minutes a session may be resumed (`resume.max_age_minutes`), else the
    /// study's time limit (rounded up to a minute), else [`DEFAULT_HOLD_MINUTES`]. After
    /// that, with no outcome, the participant is taken to have left and their order is
    /// counted no more when the next participant's is chosen (they keep it if they come
    /// back).
    pub fn hold_minutes(&self) -> u32 {
        self.resume
            .max_age_minutes
            .or(self.time_limits.study.map(|s| s.div_ceil(60)))
            .filter(|&m| m > 0)
            .unwrap_or(DEFAULT_HOLD_MINUTES)
    }

    /// Whether a new participant's order (and condition) comes from `shapemaze serve` at
    /// consent: the study asks for it, has more than one order, and the link gives none.
    pub fn orders_from_server(&self, order_in_link: bool) -> bool {
        self.assignment == Assignment::Server && self.order_count() > 1 && !order_in_link
    }
}

/// Row `k` of a balanced Latin square (Williams design) of order `n`: a permutation of
/// `0..n`. With odd `n`, rows `n..2n` are the mirror images of rows `0..n`.
pub fn latin_row(n: usize, k: u64) -> Vec<usize> {
    if n == 0 {
        return Vec::new();
    }
    let period = if n.is_multiple_of(2) { n } else { 2 * n } as u64;
    let k = (k % period) as usize;
    let r = k % n;
    // 0, 1, n-1, 2, n-2, ... shifted by r.
    let mut row: Vec<usize> = (0..n)
        .map(|j| {
            let base = if j == 0 {
                0
            } else if j % 2 == 1 {
                j.div_ceil(2)
            } else {
                n - j / 2
            };
            (base + r) % n
        })
        .collect();
    if k >= n {
        row.reverse();
    }
    row
}
