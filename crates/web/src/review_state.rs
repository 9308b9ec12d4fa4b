//! The review part's state (`/results#review`): the queue, which items are in view (the
//! filter by reason, reviewed items hidden or not), the item on show, the reviews kept in
//! this browser (and `reviews.jsonl`, the file they go out and in as), and where the keyboard
//! focus goes after each action. A module of its own so that the queue ([`super::review`]),
//! the item ([`super::review_item`]) and the lab's export and import share it without
//! importing each other.

use super::local::{self, KeepError};
use super::review_error::{not_kept, ReviewsError};
use super::second_reader::Judge;
use leptos::prelude::*;
use shapemaze_core::analysis::review::{
    latest, parse_reviews, write_reviews, QueueItem, ReplyKey, Review, Why,
};
use shapemaze_core::verify::Extracted;
use std::collections::{BTreeMap, BTreeSet};
use wasm_bindgen::JsCast;

/// Where this browser keeps its reviews (`reviews.jsonl`'s text) and the reviewer's name.
pub(crate) const REVIEWS_KEY: &str = "shapemaze-reviews";
pub(crate) const REVIEWER_KEY: &str = "shapemaze-reviewer";

/// The reviews this browser keeps (none when there are none, or they cannot be read).
pub(crate) fn stored_reviews() -> Vec<Review> {
    local::read(REVIEWS_KEY)
        .and_then(|t| parse_reviews(&t).ok())
        .unwrap_or_default()
}

/// Keeps `reviews` in this browser; an error says why they could not be kept.
pub(crate) fn keep(reviews: &[Review]) -> Result<(), KeepError> {
    local::keep(REVIEWS_KEY, &write_reviews(reviews)?)?;
    Ok(())
}

/// The file reviews go out and in as (and the export ZIP's entry).
pub const REVIEWS_FILE: &str = "reviews.jsonl";

/// The reviews this browser keeps of the trials at `paths` (transcript paths of an
/// export), as `reviews.jsonl`'s text; `None` when there are none.
pub fn reviews_of(paths: &[String]) -> Result<Option<String>, ReviewsError> {
    let mine: Vec<Review> = stored_reviews()
        .into_iter()
        .filter(|r| paths.contains(&r.trial))
        .collect();
    if mine.is_empty() {
        return Ok(None);
    }
    write_reviews(&mine)
        .map(Some)
        .map_err(ReviewsError::Unwritable)
}

/// Keeps the reviews of `text` (`reviews.jsonl`) beside those this browser has; the number
/// read, or why the file is not one.
pub fn take_in(text: &str) -> Result<usize, ReviewsError> {
    let more = parse_reviews(text).map_err(ReviewsError::NotReviews)?;
    let n = more.len();
    let mut all = stored_reviews();
    all.extend(more);
    keep(&all).map_err(ReviewsError::NotKept)?;
    Ok(n)
}

/// A reviewed or read value for people: `(1, 0)`, `spiral`, `a 5x5 maze`, `no answer`.
pub(crate) fn shown(value: &Extracted) -> String {
    match value {
        Extracted::Nothing => "no answer".into(),
        Extracted::Cell(p) => p.to_string(),
        Extracted::Cells(ps) => format!("{} cells", ps.len()),
        Extracted::Shape(s) => s.name().into(),
        Extracted::Grid(g) => format!("a {}x{} maze", g.rows(), g.cols()),
    }
}

/// Which items of the queue are in view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct View {
    /// Only the items queued for this reason (all when `None`).
    pub reason: Option<Why>,
    /// Whether reviewed items are left out of view.
    pub hide_reviewed: bool,
}

/// The page's review state.
#[derive(Clone, Copy)]
pub(crate) struct State {
    pub reviews: RwSignal<Vec<Review>>,
    pub reviewer: RwSignal<String>,
    /// The whole queue.
    pub items: Memo<Vec<QueueItem>>,
    /// The replies reviewed (a review in force), of any run.
    pub reviewed: Memo<BTreeSet<ReplyKey>>,
    pub view: RwSignal<View>,
    /// The items in view, as indices into `items`.
    pub visible: Memo<Vec<usize>>,
    /// The item on show: an index into `visible`.
    pub at: RwSignal<usize>,
    pub message: RwSignal<Option<(bool, String)>>,
    /// The original-compatible reading of each reply it reads otherwise, in words.
    pub original: Memo<BTreeMap<ReplyKey, String>>,
    /// The second reader.
    pub judge: Judge,
    /// Whether the next item drawn takes the keyboard focus (after an action taken on the
    /// item, so the focus never drops to the page's body).
    pub refocus: StoredValue<bool>,
}

impl State {
    /// The state over `items`, with the reviews this browser keeps.
    pub fn new(
        items: Memo<Vec<QueueItem>>,
        original: Memo<BTreeMap<ReplyKey, String>>,
        judge: Judge,
    ) -> State {
        let reviews = RwSignal::new(stored_reviews());
        let reviewed =
            Memo::new(move |_| reviews.with(|rs| latest(rs).into_keys().collect::<BTreeSet<_>>()));
        let view = RwSignal::new(View {
            reason: None,
            hide_reviewed: true,
        });
        let visible = Memo::new(move |_| {
            let v = view.get();
            items.with(|q| {
                reviewed.with(|done| {
                    q.iter()
                        .enumerate()
                        .filter(|(_, i)| v.reason.is_none_or(|w| i.is(w)))
                        .filter(|(_, i)| !(v.hide_reviewed && done.contains(&i.key())))
                        .map(|(k, _)| k)
                        .collect::<Vec<usize>>()
                })
            })
        });
        State {
            reviews,
            reviewer: RwSignal::new(local::read(REVIEWER_KEY).unwrap_or_default()),
            items,
            reviewed,
            view,
            visible,
            at: RwSignal::new(0),
            message: RwSignal::new(None),
            original,
            judge,
            refocus: StoredValue::new(false),
        }
    }

    /// The item on show, if any.
    pub fn current(self) -> Option<QueueItem> {
        let at = self.at.get_untracked();
        let index = self.visible.with_untracked(|v| v.get(at).copied())?;
        self.items.with_untracked(|q| q.get(index).cloned())
    }

    /// Records `value` as the reading of the item on show, keeps it and moves to the next
    /// unreviewed item (with reviewed items hidden, the one that takes its place).
    pub fn record(self, value: Extracted) {
        let Some(item) = self.current() else {
            return;
        };
        let review = Review {
            trial: item.trial.clone(),
            phase: item.phase,
            step: item.step,
            value,
            reviewer: self.reviewer.get_untracked(),
            at: String::from(js_sys::Date::new_0().to_iso_string()),
            sampled: item.sampled(),
        };
        self.refocus.set_value(true);
        self.reviews.update(|rs| rs.push(review));
        if let Err(e) = self.reviews.with_untracked(|rs| keep(rs)) {
            self.message.set(Some((true, not_kept(&e))));
        }
        if self.view.get_untracked().hide_reviewed {
            self.clamp();
        } else {
            self.next_unreviewed();
        }
    }

    /// Keeps the item on show inside the items in view.
    pub fn clamp(self) {
        let n = self.visible.with_untracked(Vec::len);
        if self.at.get_untracked() >= n {
            self.at.set(n.saturating_sub(1));
        }
    }

    /// Moves `by` items on (or back) among the items in view, staying inside them.
    pub fn step(self, by: i64) {
        let n = self.visible.with_untracked(Vec::len);
        let at = self.at.get_untracked() as i64 + by;
        self.refocus.set_value(true);
        self.at
            .set(at.clamp(0, n.saturating_sub(1) as i64) as usize);
    }

    /// Moves to the next item in view not yet reviewed (from the start again after the
    /// last); stays when there is none.
    pub fn next_unreviewed(self) {
        let at = self.at.get_untracked();
        let found = self.visible.with_untracked(|v| {
            self.items.with_untracked(|q| {
                self.reviewed.with_untracked(|done| {
                    let unreviewed = |k: &usize| !done.contains(&q[*k].key());
                    let n = v.len();
                    (1..=n).map(|d| (at + d) % n).find(|&i| unreviewed(&v[i]))
                })
            })
        });
        self.refocus.set_value(true);
        if let Some(i) = found {
            self.at.set(i);
        }
    }

    /// The item on show's reading, confirmed.
    pub fn confirm(self) {
        if let Some(item) = self.current() {
            self.record(item.reading.value);
        }
    }

    /// How many items of the queue are reviewed.
    pub fn reviewed_count(self) -> usize {
        self.items.with(|q| {
            self.reviewed
                .with(|done| q.iter().filter(|i| done.contains(&i.key())).count())
        })
    }
}

/// The element whose `data-testid` is `testid`, if the page holds one.
pub(crate) fn by_testid(testid: &str) -> Option<web_sys::HtmlElement> {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector(&format!("[data-testid=\"{testid}\"]"))
                .ok()
                .flatten()
        })
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Gives the keyboard focus to the element `testid` names once it is drawn, its head
/// brought to the top of the screen (below the page's sticky contents bar); only when an
/// action asked for it (the state's `refocus`).
pub(crate) fn take_focus(state: State, testid: &'static str) {
    if !state.refocus.get_value() {
        return;
    }
    state.refocus.set_value(false);
    request_animation_frame(move || {
        let Some(el) = by_testid(testid) else {
            return;
        };
        let _ = el.focus();
        // The item's head at the top, below the sticky contents bar (its scroll margin).
        el.scroll_into_view_with_bool(true);
    });
}
