//! The review part of `/results` (`/results#review`): the replies whose reading a person
//! should check (those a fall-back rule read, and on demand a seeded random sample of a
//! phase), one at a time: the reply with the span read marked, the maze as the model saw
//! it with the cell read, and the reader's value and rule. The reviewer confirms, picks
//! another cell on the grid or another shape, or says there is no answer, by mouse or by
//! keyboard alone (`c` confirm, `n` no answer, `j`/`k` next and previous; the grid's
//! arrows move between cells, Enter picks one). Reviews are kept in this browser and go
//! out and in as `reviews.jsonl` (the file `shapemaze score --reviews` reads); the
//! reader's agreement with the sampled reviews is shown per phase.
//!
//! The queue also holds the replies whose original-compatible reading (the design's own
//! checks) differs, and those a second reader ([`super::second_reader`]) reads otherwise.
//! Reading every reply takes a moment on a large run, so the part reads them when it is
//! opened (its button, or the address `/results#review`), not with every analysis.

use super::board::{BoardIds, MazeBoard};
use super::download::download_file;
use super::experiment::{notice, picked_files};
use super::local::{self, KeepError};
use super::review_error::{not_kept, ReviewsError};
use super::second_reader::{Judge, SecondReaderPanel};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::analysis::review::{
    agreement, all_replies, latest, parse_reviews, queue_of, rates_as_reviewed, readings_of,
    write_reviews, QueueItem, ReplyKey, Review, Why,
};
use shapemaze_core::analysis::second_reader::{compare, kappa_sentence};
use shapemaze_core::maze::grid::{Grid, Pos};
use shapemaze_core::maze::shape::{Shape, ShapeSet};
use shapemaze_core::original::disputes::readers_differ;
use shapemaze_core::play::trial::Phase;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::verify::Extracted;
use shapemaze_view::html::outlined_reply;
use std::collections::BTreeMap;
use wasm_bindgen::JsCast;

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

/// Where this browser keeps its reviews (`reviews.jsonl`'s text) and the reviewer's name.
const REVIEWS_KEY: &str = "shapemaze-reviews";
const REVIEWER_KEY: &str = "shapemaze-reviewer";

/// The board of the reply under review.
const REVIEW_BOARD: BoardIds = BoardIds {
    board: "review-maze",
    cell: "review-cell",
};

/// The reviews this browser keeps (none when there are none, or they cannot be read).
fn stored_reviews() -> Vec<Review> {
    local::read(REVIEWS_KEY)
        .and_then(|t| parse_reviews(&t).ok())
        .unwrap_or_default()
}

/// Keeps `reviews` in this browser; an error says why they could not be kept.
fn keep(reviews: &[Review]) -> Result<(), KeepError> {
    local::keep(REVIEWS_KEY, &write_reviews(reviews)?)?;
    Ok(())
}

/// A reviewed or read value for people: `(1, 0)`, `spiral`, `a 5x5 maze`, `no answer`.
fn shown(value: &Extracted) -> String {
    match value {
        Extracted::Nothing => "no answer".into(),
        Extracted::Cell(p) => p.to_string(),
        Extracted::Cells(ps) => format!("{} cells", ps.len()),
        Extracted::Shape(s) => s.name().into(),
        Extracted::Grid(g) => format!("a {}x{} maze", g.rows(), g.cols()),
    }
}

/// The page's review state.
#[derive(Clone, Copy)]
struct State {
    reviews: RwSignal<Vec<Review>>,
    reviewer: RwSignal<String>,
    items: Memo<Vec<QueueItem>>,
    at: RwSignal<usize>,
    message: RwSignal<Option<(bool, String)>>,
    /// The original-compatible reading of each reply it reads otherwise, in words.
    original: Memo<BTreeMap<ReplyKey, String>>,
    /// The second reader.
    judge: Judge,
}

impl State {
    /// Records `value` as the reading of the item on show, keeps it and moves on.
    fn record(self, value: Extracted) {
        let Some(item) = self
            .items
            .with_untracked(|q| q.get(self.at.get_untracked()).cloned())
        else {
            return;
        };
        let review = Review {
            trial: item.trial.clone(),
            phase: item.phase,
            step: item.step,
            value,
            reviewer: self.reviewer.get_untracked(),
            at: String::from(js_sys::Date::new_0().to_iso_string()),
            sampled: item.why == Why::Sampled,
        };
        self.reviews.update(|rs| rs.push(review));
        if let Err(e) = self.reviews.with_untracked(|rs| keep(rs)) {
            self.message.set(Some((true, not_kept(&e))));
        }
        self.step(1);
    }

    /// Moves `by` items on (or back), staying inside the queue.
    fn step(self, by: i64) {
        let n = self.items.with_untracked(Vec::len);
        let at = self.at.get_untracked() as i64 + by;
        self.at
            .set(at.clamp(0, n.saturating_sub(1) as i64) as usize);
    }

    /// The item on show's reading, confirmed.
    fn confirm(self) {
        if let Some(v) = self.items.with_untracked(|q| {
            q.get(self.at.get_untracked())
                .map(|i| i.reading.value.clone())
        }) {
            self.record(v);
        }
    }
}

/// Whether the address names the review part.
fn addressed() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|h| h == "#review")
}

/// The review part: a button that reads the replies, then the queue. The records are
/// fetched (`records` clones them) only once the part is opened, and again when the
/// analysis changes while it is open.
#[component]
pub fn ReviewPart(
    /// The records of the trials chosen on the page (read when opened).
    records: Signal<Vec<TrialRecord>, LocalStorage>,
    /// How many there are.
    #[prop(into)]
    count: Signal<usize>,
) -> impl IntoView {
    let opened = RwSignal::new(addressed());
    let hash = window_event_listener(leptos::ev::hashchange, move |_| {
        if addressed() {
            opened.set(true);
        }
    });
    on_cleanup(move || hash.remove());
    let held = RwSignal::new(Vec::<TrialRecord>::new());
    Effect::new(move |_| {
        if opened.get() {
            held.set(records.get());
        }
    });
    view! {
        {move || if count.get() == 0 {
            ().into_any()
        } else if opened.get() {
            view! { <ReviewQueue records=held.into() /> }.into_any()
        } else {
            view! {
                <div class="review" data-testid="review-closed">
                    <p class="muted">{move || format!("The replies of {} trials are read for review when you open the queue.", count.get())}</p>
                    <button type="button" class="button primary" data-testid="review-open" on:click=move |_| opened.set(true)>"Open the review queue"</button>
                </div>
            }.into_any()
        }}
    }
}

/// The queue of replies to review, the rates as reviewed and the agreements.
#[component]
fn ReviewQueue(records: Signal<Vec<TrialRecord>>) -> impl IntoView {
    // Opened by the address: the browser jumped to #review while the page ended just below
    // it (too short to bring it to the top); once the queue is drawn, jump again.
    if addressed() {
        request_animation_frame(|| {
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("review"))
            {
                el.scroll_into_view();
            }
        });
    }
    let sample = RwSignal::new(None::<(Phase, usize, u64)>);
    // Every reply read once, for the queue and for the agreement alike.
    let all = Memo::new(move |_| records.with(|r| all_replies(r)));
    let original = Memo::new(move |_| records.with(|r| all.with(|a| readers_differ(r, a))));
    let judge = Judge::new();
    let second = Memo::new(move |_| {
        judge.answers.with(|answers| {
            all.with(|a| compare(a.iter().map(|q| (q.key(), &q.reading.value)), answers))
        })
    });
    let flagged = Memo::new(move |_| {
        let mut f: BTreeMap<ReplyKey, Why> =
            original.with(|o| o.keys().map(|k| (k.clone(), Why::ReadersDiffer)).collect());
        second.with(|c| {
            for (k, _, _) in &c.differ {
                f.insert(k.clone(), Why::SecondReader);
            }
        });
        f
    });
    let items = Memo::new(move |_| all.with(|a| flagged.with(|f| queue_of(a, f, sample.get()))));
    let shapes = Memo::new(move |_| {
        records.with(|r| ShapeSet::with(&r.iter().map(|x| x.shape).collect::<Vec<_>>()))
    });
    let state = State {
        reviews: RwSignal::new(stored_reviews()),
        reviewer: RwSignal::new(local::read(REVIEWER_KEY).unwrap_or_default()),
        items,
        at: RwSignal::new(0),
        message: RwSignal::new(None),
        original,
        judge,
    };
    // Reviews imported with an export (or in another tab) are read again with new records.
    Effect::new(move |_| {
        records.track();
        state.reviews.set(stored_reviews());
    });
    let summary = move || {
        items.with(|q| {
            let count = |why| q.iter().filter(|i| i.why == why).count();
            format!(
                "{} replies to review: {} read by a fall-back rule, {} where the original-compatible reading differs, {} read otherwise by the second reader, {} in the random sample.",
                q.len(),
                count(Why::FallBack),
                count(Why::ReadersDiffer),
                count(Why::SecondReader),
                count(Why::Sampled)
            )
        })
    };
    view! {
        <div class="review" data-testid="review-queue">
            <p class="muted" data-testid="review-summary">{summary}</p>
            <ReviewBar state=state sample=sample />
            <SecondReaderPanel judge=judge all=all shapes=shapes />
            {move || notice(state.message.get(), "review-message")}
            {move || {
                let item = items.with(|q| q.get(state.at.get()).cloned());
                match item {
                    Some(item) => view! { <ReviewItem state=state item=item /> }.into_any(),
                    None => view! {
                        <p class="muted" data-testid="review-empty">
                            "Nothing to review: every reply was read from a plain answer, and no other reading differs. Draw a random sample to measure the reader."
                        </p>
                    }.into_any(),
                }
            }}
            <ReviewRates state=state records=records />
            <ReviewAgreement state=state all=all second=second />
        </div>
    }
}

/// Each phase's success as read and as reviewed.
#[component]
fn ReviewRates(state: State, records: Signal<Vec<TrialRecord>>) -> impl IntoView {
    let rates = Memo::new(move |_| {
        let rs = state.reviews.get();
        records.with(|r| rates_as_reviewed(r, &rs))
    });
    let rate_rows = move || {
        let pct = |k: usize, n: usize| {
            if n == 0 {
                0.0
            } else {
                100.0 * k as f64 / n as f64
            }
        };
        ["solve", "recognize", "generate"]
            .into_iter()
            .zip(rates.get())
            .map(|(phase, r)| {
                view! {
                    <tr data-phase=phase>
                        <th scope="row">{phase}</th>
                        <td>{format!("{}/{} ({:.1}%)", r.read, r.n, pct(r.read, r.n))}</td>
                        <td>{format!("{}/{} ({:.1}%)", r.reviewed, r.n, pct(r.reviewed, r.n))}</td>
                    </tr>
                }
            })
            .collect_view()
    };
    view! {
        <table class="review-rates" data-testid="review-rates">
            <caption>"Success as read and as reviewed (every reviewed reading in place of the reader's)"</caption>
            <thead><tr><th scope="col">"phase"</th><th scope="col">"as read"</th><th scope="col">"as reviewed"</th></tr></thead>
            <tbody>{rate_rows}</tbody>
        </table>
    }
}

/// The reader's agreement with people (on the sampled reviews) and with the second reader.
#[component]
fn ReviewAgreement(
    state: State,
    all: Memo<Vec<QueueItem>>,
    second: Memo<shapemaze_core::analysis::second_reader::Compared>,
) -> impl IntoView {
    let read = Memo::new(move |_| all.with(|a| readings_of(a)));
    let agreement_lines = move || {
        let rs = state.reviews.get();
        read.with(|read| agreement(&rs, |k| read.get(k).cloned()))
            .iter()
            .map(|a| format!("In {}: {}.", a.phase.name(), a.sentence()))
            .collect::<Vec<_>>()
    };
    let kappa_lines = move || {
        second.with(|c| {
            c.phases
                .iter()
                .map(|(phase, k)| format!("In {}: {}.", phase.name(), kappa_sentence(k)))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div class="review-agreement" data-testid="review-agreement">
            <h3>"The reader against review"</h3>
            {move || {
                let lines = agreement_lines();
                if lines.is_empty() {
                    view! { <p class="muted">"No sampled reply reviewed yet: draw a sample and review it to measure how often the reader agrees."</p> }.into_any()
                } else {
                    lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view().into_any()
                }
            }}
        </div>
        <div class="review-agreement" data-testid="second-reader-kappa">
            <h3>"The reader against the second reader"</h3>
            {move || {
                let lines = kappa_lines();
                if lines.is_empty() {
                    view! { <p class="muted">"No second reader's answers for these replies yet."</p> }.into_any()
                } else {
                    lines.into_iter().map(|l| view! { <p>{l}</p> }).collect_view().into_any()
                }
            }}
        </div>
    }
}

/// The reviewer's name, the sample's settings, and the export and import of the reviews.
#[component]
fn ReviewBar(state: State, sample: RwSignal<Option<(Phase, usize, u64)>>) -> impl IntoView {
    let phase = RwSignal::new("solve".to_string());
    let size = RwSignal::new("20".to_string());
    let seed = RwSignal::new("1".to_string());
    let draw = move |_| {
        let which = match phase.get_untracked().as_str() {
            "recognize" => Phase::Recognize,
            "generate" => Phase::Generate,
            _ => Phase::Solve,
        };
        let (n, s) = (
            size.get_untracked().trim().parse::<usize>(),
            seed.get_untracked().trim().parse::<u64>(),
        );
        match (n, s) {
            (Ok(n), Ok(s)) if n > 0 => {
                sample.set(Some((which, n, s)));
                state.at.set(0);
                state.message.set(None);
            }
            _ => state.message.set(Some((
                true,
                "The sample needs a size of 1 or more and a seed that is a whole number (0 or more).".into(),
            ))),
        }
    };
    let export = move |_| {
        let text = state.reviews.with_untracked(|rs| write_reviews(rs));
        let result = text.map_err(|e| e.to_string()).and_then(|t| {
            download_file(REVIEWS_FILE, &t, "application/x-ndjson").map_err(String::from)
        });
        if let Err(e) = result {
            state.message.set(Some((
                true,
                format!("The reviews could not be downloaded: {e}"),
            )));
        }
    };
    let import = move |ev: web_sys::Event| {
        let Some(el) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        spawn_local(async move {
            for (name, bytes) in picked_files(&el).await {
                let text = String::from_utf8_lossy(&bytes);
                match take_in(&text) {
                    Ok(n) => {
                        state.reviews.set(stored_reviews());
                        state
                            .message
                            .set(Some((false, format!("Read {n} reviews from {name}."))));
                    }
                    Err(e) => state.message.set(Some((true, format!("{name}: {e}")))),
                }
            }
        });
    };
    let name_changed = move |ev: web_sys::Event| {
        let v = event_target_value(&ev);
        // The name is a convenience: a browser that keeps nothing asks for it again.
        let _ = local::keep(REVIEWER_KEY, &v);
        state.reviewer.set(v);
    };
    let count = move || state.reviews.with(|rs| latest(rs).len());
    view! {
        <div class="review-bar">
            <label class="field"><span>"Reviewer"</span>
                <input data-testid="review-reviewer" prop:value=move || state.reviewer.get() on:change=name_changed placeholder="your name or initials" />
            </label>
            <label class="field"><span>"Sample of"</span>
                <select data-testid="review-sample-phase" on:change=move |ev| phase.set(event_target_value(&ev))>
                    <option value="solve">"moves"</option>
                    <option value="recognize">"shapes"</option>
                    <option value="generate">"mazes"</option>
                </select>
            </label>
            <label class="field"><span>"Size"</span>
                <input data-testid="review-sample-size" inputmode="numeric" prop:value=move || size.get() on:change=move |ev| size.set(event_target_value(&ev)) />
            </label>
            <label class="field"><span>"Seed"</span>
                <input data-testid="review-sample-seed" inputmode="numeric" prop:value=move || seed.get() on:change=move |ev| seed.set(event_target_value(&ev)) />
            </label>
            <button type="button" class="button" data-testid="review-sample" on:click=draw>"Draw a random sample"</button>
            <button type="button" class="button" data-testid="review-export" on:click=export>
                {move || format!("Download reviews.jsonl ({})", count())}
            </button>
            <label class="button file">"Import reviews…"
                <input type="file" accept=".jsonl,application/x-ndjson" data-testid="review-import" on:change=import />
            </label>
        </div>
    }
}

/// The choices for a reply: confirm, no answer, another cell (the grid) or another shape.
fn choices(state: State, item: &QueueItem) -> impl IntoView {
    let board = match (item.phase, &item.maze) {
        (Phase::Solve, Some(grid)) => Some(review_board(state, grid.clone(), &item.reading.value)),
        _ => None,
    };
    let shapes = (item.phase == Phase::Recognize).then(|| {
        Shape::ALL
            .into_iter()
            .map(|s| {
                view! {
                    <button type="button" class="button ghost" data-testid=format!("review-shape-{}", s.name())
                        on:click=move |_| state.record(Extracted::Shape(s))>{s.name()}</button>
                }
            })
            .collect_view()
    });
    view! {
        <div class="review-choices">
            <button type="button" class="button primary" data-testid="review-confirm" on:click=move |_| state.confirm()>"Confirm (c)"</button>
            <button type="button" class="button" data-testid="review-none" on:click=move |_| state.record(Extracted::Nothing)>"No answer (n)"</button>
            <button type="button" class="button ghost" data-testid="review-previous" on:click=move |_| state.step(-1)>"◀ Previous (k)"</button>
            <button type="button" class="button ghost" data-testid="review-next" on:click=move |_| state.step(1)>"Next (j) ▶"</button>
            {shapes.map(|s| view! { <div class="review-shapes" role="group" aria-label="Another shape">{s}</div> })}
            {board}
        </div>
    }
}

/// The maze as the model saw it; a cell pressed is the reviewer's reading.
fn review_board(state: State, grid: Grid, read: &Extracted) -> impl IntoView {
    let trail: Vec<Pos> = match read {
        Extracted::Cell(p) => vec![*p],
        _ => Vec::new(),
    };
    view! {
        <div class="review-board">
            <p class="muted">"Another cell: press it on the maze (arrows move between cells, Enter picks)."</p>
            <MazeBoard grid=Signal::derive(move || grid.clone()) shape=Shape::Square ids=REVIEW_BOARD
                on_press=Callback::new(move |p: Pos| state.record(Extracted::Cell(p)))
                trail=Signal::derive(move || trail.clone()) active=true label="The maze as the model saw it" arrows_move_focus=true />
        </div>
    }
}

/// One reply under review.
#[component]
fn ReviewItem(state: State, item: QueueItem) -> impl IntoView {
    // The reply, each line with its role, the span read marked (an empty mark at the end
    // when nothing was read, or when the span does not fit the reply).
    let r = &item.reply;
    let fits = |&[s, e]: &[usize; 2]| {
        s <= e && e <= r.len() && r.is_char_boundary(s) && r.is_char_boundary(e)
    };
    let span = item.reading.span.filter(fits).unwrap_or([r.len(); 2]);
    let reply_html = outlined_reply(r, Some(span), "review-read-span");
    let position = move || {
        format!(
            "Reply {} of {}",
            state.at.get() + 1,
            state.items.with(Vec::len)
        )
    };
    let key = item.key();
    let reviewed = move || {
        state.reviews.with(|rs| {
            latest(rs).get(&key).map(|r| {
                format!(
                    "Reviewed: {} ({})",
                    shown(&r.value),
                    if r.reviewer.is_empty() {
                        "no name"
                    } else {
                        &r.reviewer
                    }
                )
            })
        })
    };
    let why = item.why.describe();
    let original = state
        .original
        .with_untracked(|o| o.get(&item.key()).cloned());
    let second = state
        .judge
        .answers
        .with_untracked(|a| a.get(&item.key()).map(shown));
    let rule = item.reading.rule;
    let keys = move |ev: web_sys::KeyboardEvent| {
        let in_field = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
        if in_field || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        let done = match ev.key().as_str() {
            "c" => {
                state.confirm();
                true
            }
            "n" => {
                state.record(Extracted::Nothing);
                true
            }
            "j" => {
                state.step(1);
                true
            }
            "k" => {
                state.step(-1);
                true
            }
            _ => false,
        };
        if done {
            ev.prevent_default();
        }
    };
    view! {
        <div class="review-item" data-testid="review-item" tabindex="0" on:keydown=keys
            data-trial=item.trial.clone() data-phase=item.phase.name() data-step=item.step data-rule=rule.name()>
            <p><strong>{position}</strong>" · "{item.trial.clone()}" · "{item.phase.name()}" "{item.step}" · "{why}</p>
            <pre class="review-reply" data-testid="review-reply" inner_html=reply_html></pre>
            <p class="muted role-legend">"Each line's role, as a bar before it: "
                <span class="line-role" data-role="answer">"an answer"</span>" "
                <span class="line-role" data-role="conclusion">"a conclusion"</span>" "
                <span class="line-role" data-role="options">"an option or a question"</span>" "
                <span class="line-role" data-role="correction">"a correction"</span>
                " (hover a line for its role)."</p>
            <p data-testid="review-reading">
                "The reader read: "<strong>{shown(&item.reading.value)}</strong>
                " (rule " <code>{rule.name()}</code> ": " {rule.describe()} ")"
            </p>
            {original.map(|o| view! { <p data-testid="review-original">"The original-compatible reading: "<strong>{o}</strong></p> })}
            {second.map(|v| view! { <p data-testid="review-second">"The second reader read: "<strong>{v}</strong></p> })}
            <p class="muted" data-testid="review-reviewed">{reviewed}</p>
            {choices(state, &item)}
        </div>
    }
}
