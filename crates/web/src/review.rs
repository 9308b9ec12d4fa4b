//! The review part of `/results` (`/results#review`): the replies whose reading a person
//! should check, in the queue's order (every reading the reader is unsure of, then those
//! another reader reads otherwise, then on demand a seeded random sample of the sure
//! readings), one at a time ([`super::review_item`]), by mouse or by keyboard alone.
//! Reviewed items leave the view (unless shown), a filter shows one reason alone, and a
//! message says when every item in view is reviewed. Reviews are kept in this browser and
//! go out and in as `reviews.jsonl` (the file `shapemaze score --reviews` reads); the part
//! shows each model's rates as read and as reviewed (counted as `score --reviews` counts
//! them), and the reader's agreement per phase, the sure readings of the sample apart from
//! the unsure ones. The built-in players' replies are never queued.
//!
//! The queue holds the replies whose original-compatible reading (the design's own checks)
//! differs, and those a second reader ([`super::second_reader`]) reads otherwise, as
//! [`Flags`]: a new reason is one more flag. Reading every reply takes a moment on a large
//! run, so the part reads them when it is opened (its button, or the address
//! `/results#review`), not with every analysis.

use super::download::download_file;
use super::experiment::{notice, picked_files};
use super::local;
use super::review_item::ReviewItem;
use super::review_state::{stored_reviews, take_focus, take_in, State, REVIEWER_KEY, REVIEWS_FILE};
use super::second_reader::{Judge, SecondReaderPanel};
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::analysis::forms::transcription_disagreements;
use shapemaze_core::analysis::review::{
    agreement, all_replies, flag, latest, queue_of, rates_as_reviewed, readings_of, write_reviews,
    Flags, QueueItem, Sample, Why,
};
use shapemaze_core::analysis::second_reader::{compare, kappa_sentence};
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::original::disputes::readers_differ;
use shapemaze_core::play::phase::Phase;
use shapemaze_core::results::record::TrialRecord;
use wasm_bindgen::JsCast;

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
    let sample = RwSignal::new(None::<Sample>);
    // Every reply read once, for the queue and for the agreement alike.
    let all = Memo::new(move |_| records.with(|r| all_replies(r)));
    let original = Memo::new(move |_| records.with(|r| all.with(|a| readers_differ(r, a))));
    let judge = Judge::new();
    let second = Memo::new(move |_| {
        judge.answers.with(|answers| {
            all.with(|a| compare(a.iter().map(|q| (q.key(), &q.reading.value)), answers))
        })
    });
    let flags = Memo::new(move |_| {
        let mut f = Flags::new();
        original.with(|o| {
            for k in o.keys() {
                flag(&mut f, k.clone(), Why::ReadersDiffer);
            }
        });
        second.with(|c| {
            for (k, _, _) in &c.differ {
                flag(&mut f, k.clone(), Why::SecondReader);
            }
        });
        for k in records.with(|r| transcription_disagreements(r)) {
            flag(&mut f, k, Why::Transcription);
        }
        f
    });
    let items = Memo::new(move |_| all.with(|a| flags.with(|f| queue_of(a, f, sample.get()))));
    let shapes = Memo::new(move |_| {
        records.with(|r| ShapeSet::with(&r.iter().map(|x| x.shape).collect::<Vec<_>>()))
    });
    let state = State::new(items, original, judge);
    // Reviews imported with an export (or in another tab) are read again with new records.
    Effect::new(move |_| {
        records.track();
        state.reviews.set(stored_reviews());
    });
    // A new queue or view starts at its first item.
    Effect::new(move |_| {
        items.track();
        state.view.track();
        state.at.set(0);
    });
    let summary = move || {
        items.with(|q| {
            let counts: Vec<String> = Why::ALL
                .iter()
                .filter(|&&w| named(q, w))
                .map(|&w| format!("{} {}", q.iter().filter(|i| i.is(w)).count(), w.counted()))
                .collect();
            format!(
                "{} replies to review: {}; {} reviewed.",
                q.len(),
                counts.join(", "),
                state.reviewed_count()
            )
        })
    };
    view! {
        <div class="review" data-testid="review-queue">
            <p class="muted" data-testid="review-summary">{summary}</p>
            <ReviewBar state=state sample=sample />
            <ReviewFilter state=state />
            <SecondReaderPanel judge=judge all=all shapes=shapes />
            {move || notice(state.message.get(), "review-message")}
            {move || {
                let index = state.visible.with(|v| v.get(state.at.get()).copied());
                match index.and_then(|i| items.with(|q| q.get(i).cloned())) {
                    Some(item) => view! { <ReviewItem state=state item=item shapes=shapes.get_untracked().shapes() /> }.into_any(),
                    None => view! { <ReviewEnd state=state /> }.into_any(),
                }
            }}
            <ReviewRates state=state records=records />
            <ReviewAgreement state=state all=all second=second />
        </div>
    }
}

/// What stands in place of an item when none is in view: nothing queued, every item in
/// view reviewed, or nothing left for the reason filtered on.
#[component]
fn ReviewEnd(state: State) -> impl IntoView {
    let total = state.items.with_untracked(Vec::len);
    let reviewed = state.reviewed_count();
    let filtered = state.view.with_untracked(|v| v.reason.is_some());
    take_focus(state, "review-done");
    if total == 0 {
        return view! {
            <p class="muted" data-testid="review-empty" tabindex="-1">
                "Nothing to review: the reader is sure of every reading, and no other reading differs. Draw a random sample of the sure readings to measure the reader."
            </p>
        }
        .into_any();
    }
    let text = if reviewed >= total {
        format!("Every reply in the queue is reviewed ({reviewed} of {total}). Download reviews.jsonl to keep them with the run, or draw another sample.")
    } else if filtered {
        format!("Every reply queued for this reason is reviewed; {} of {total} in the queue are not: show every reason to go on.", total - reviewed)
    } else {
        format!("{reviewed} of {total} reviewed.")
    };
    view! { <p class="notice" role="status" tabindex="-1" data-testid="review-done">{text}</p> }
        .into_any()
}

/// Whether the queue's summary and filter name `why`: every reason, but a transcription's
/// disagreement only when some item has one (the answer mode `transcribed`'s, a lab's).
fn named(q: &[QueueItem], why: Why) -> bool {
    why != Why::Transcription || q.iter().any(|i| i.is(why))
}

/// Which items are in view: one reason alone, and whether reviewed items stay in view.
#[component]
fn ReviewFilter(state: State) -> impl IntoView {
    let reason = move |ev: web_sys::Event| {
        let name = event_target_value(&ev);
        let why = Why::ALL.into_iter().find(|w| w.name() == name);
        state.view.update(|v| v.reason = why);
    };
    let hide = move |ev: web_sys::Event| {
        let on = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
            .is_some_and(|el| el.checked());
        state.view.update(|v| v.hide_reviewed = on);
    };
    let options = move || {
        Why::ALL
            .into_iter()
            .filter(|&w| state.items.with(|q| named(q, w)))
            .map(|w| {
                let count = move || state.items.with(|q| q.iter().filter(|i| i.is(w)).count());
                view! { <option value=w.name()>{move || format!("{} ({})", w.label(), count())}</option> }
            })
            .collect_view()
    };
    view! {
        <div class="review-bar">
            <label class="field"><span>"Show"</span>
                <select data-testid="review-filter" on:change=reason>
                    <option value="all">"every reason"</option>
                    {options}
                </select>
            </label>
            <label class="check"><input type="checkbox" data-testid="review-hide-reviewed" prop:checked=move || state.view.get().hide_reviewed on:change=hide />" Hide reviewed replies"</label>
        </div>
    }
}

/// Each model's phases as read and as reviewed, as `shapemaze score --reviews` counts them.
#[component]
fn ReviewRates(state: State, records: Signal<Vec<TrialRecord>>) -> impl IntoView {
    let rates = Memo::new(move |_| {
        let rs = state.reviews.get();
        records.with(|r| rates_as_reviewed(r, &rs))
    });
    let open = move || {
        rates.with(|rows| {
            rows.iter()
                .any(|r| (0..3).any(|i| r.reviewed[i].unscored > r.read[i].unscored))
        })
    };
    let rate_rows = move || {
        rates
            .get()
            .into_iter()
            .flat_map(|r| {
                ["solve", "recognize", "generate"]
                    .into_iter()
                    .enumerate()
                    .map(move |(i, phase)| {
                        let (read, reviewed) = (r.read[i].to_string(), r.reviewed[i].to_string());
                        view! {
                            <tr data-model=r.model.clone() data-phase=phase>
                                <th scope="row">{r.model.clone()}</th>
                                <td>{phase}</td>
                                <td>{read}</td>
                                <td>{reviewed}</td>
                            </tr>
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .collect_view()
    };
    view! {
        <div class="review-rates-wrap"><table class="review-rates" data-testid="review-rates">
            <caption>"Success as read and as reviewed (every reviewed reading in place of the reader's), each model apart: successes/phases scored, ?N phases with no outcome, as shapemaze score --reviews counts them"</caption>
            <thead><tr><th scope="col">"model"</th><th scope="col">"phase"</th><th scope="col">"as read"</th><th scope="col">"as reviewed"</th></tr></thead>
            <tbody>{rate_rows}</tbody>
        </table></div>
        {move || open().then(|| view! {
            <p class="muted" data-testid="review-rates-open">"?N as reviewed: a move read as invalid ended its phase; corrected to a valid move that does not reach the goal, the phase would go on past the replies recorded, and what the model would have answered next is not known, so the phase counts as neither a success nor a failure (shapemaze score --reviews counts it the same way)."</p>
        })}
    }
}

/// The reader's agreement with people (the sure readings of the sample, the unsure ones
/// apart) and with the second reader.
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
            .map(|a| {
                let sure = if a.sure { "sure" } else { "unsure" };
                (sure, format!("In {}: {}.", a.phase.name(), a.sentence()))
            })
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
                    view! { <p class="muted">"No reading reviewed yet: review the unsure readings, and draw a sample of the sure ones and review it to measure the precision of sure."</p> }.into_any()
                } else {
                    lines.into_iter().map(|(sure, l)| view! { <p data-sure=sure>{l}</p> }).collect_view().into_any()
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
fn ReviewBar(state: State, sample: RwSignal<Option<Sample>>) -> impl IntoView {
    let phase = RwSignal::new("all".to_string());
    let size = RwSignal::new("20".to_string());
    let seed = RwSignal::new("1".to_string());
    let draw = move |_| {
        let which = match phase.get_untracked().as_str() {
            "solve" => Some(Phase::Solve),
            "recognize" => Some(Phase::Recognize),
            "generate" => Some(Phase::Generate),
            _ => None,
        };
        let (n, s) = (
            size.get_untracked().trim().parse::<usize>(),
            seed.get_untracked().trim().parse::<u64>(),
        );
        match (n, s) {
            (Ok(n), Ok(s)) if n > 0 => {
                sample.set(Some(Sample {
                    phase: which,
                    size: n,
                    seed: s,
                }));
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
            <label class="field"><span>"Sample of sure readings"</span>
                <select data-testid="review-sample-phase" on:change=move |ev| phase.set(event_target_value(&ev))>
                    <option value="all">"of every phase"</option>
                    <option value="solve">"moves"</option>
                    <option value="recognize">"shapes"</option>
                    <option value="generate">"mazes"</option>
                </select>
            </label>
            <label class="field"><span>"Size (each phase)"</span>
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
