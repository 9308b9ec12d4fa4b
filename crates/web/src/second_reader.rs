//! The second reader on `/results#review`: a chat model, through the same client as a model
//! player ([`BrowserTransport`], the key typed here and never stored), asked with the one
//! fixed prompt of `shapemaze_core::analysis::second_reader` which move, shape or maze each
//! reply gives. Off until started; the cost is estimated before it starts; progress shows;
//! each answer is kept in this browser as it comes (the lines of `second-reader.jsonl`,
//! the file `shapemaze score --second-reader` keeps), so a stopped pass resumes where it
//! stopped and a second pass makes no call; the judge's settings (never its key) are kept
//! too, so its answers are there again on the next visit. The review part shows the two readers'
//! agreement per phase (Cohen's kappa) and queues every reply they read differently.

use super::download::download_file;
use super::local::{self, KeepError};
use super::transport::BrowserTransport;
use leptos::prelude::*;
use leptos::task::spawn_local;
use shapemaze_core::analysis::review::{QueueItem, ReplyKey};
use shapemaze_core::analysis::second_reader::{
    estimate, judge_messages, judge_value, kept_answers, JudgeAnswer, ANSWERS_FILE,
    JUDGE_PROMPT_VERSION,
};
use shapemaze_core::maze::shape::ShapeSet;
use shapemaze_core::model::call::complete;
use shapemaze_core::model::preset::Preset;
use shapemaze_core::model::price::{dollars, Price};
use shapemaze_core::model::settings::EndpointSettings;
use shapemaze_core::verify::Extracted;
use std::collections::BTreeMap;

/// Where this browser keeps the judge's answers (`second-reader.jsonl`'s lines).
const ANSWERS_KEY: &str = "shapemaze-second-reader";

/// Where this browser keeps the judge's settings (its endpoint and model, never a key), so
/// its kept answers are there again on the next visit without retyping its name.
const SETTINGS_KEY: &str = "shapemaze-second-reader-settings";

/// The judge's settings as this browser last kept them; a local server's when none are
/// kept (or they no longer read).
fn stored_settings() -> EndpointSettings {
    local::read(SETTINGS_KEY)
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| judge_settings(Preset::default()))
}

/// A preset's settings as the judge uses them: no randomness, a short answer.
fn judge_settings(preset: Preset) -> EndpointSettings {
    EndpointSettings {
        temperature: 0.0,
        max_tokens: 400,
        ..EndpointSettings::for_preset(preset)
    }
}

/// The answers this browser keeps, every judge's, as the file's text.
fn stored_text() -> String {
    local::read(ANSWERS_KEY).unwrap_or_default()
}

/// How many answers are kept in memory between writes of the browser's copy (the whole
/// text is written each time, so writing after every answer grows quadratically).
const SAVE_EVERY: usize = 20;

/// Adds one answer to `text` (the browser's copy of `second-reader.jsonl`), and writes the
/// copy when `save`; an error says why it could not be kept.
fn keep(text: &mut String, answer: &JudgeAnswer, save: bool) -> Result<(), KeepError> {
    text.push_str(&serde_json::to_string(answer)?);
    text.push('\n');
    if save {
        local::keep(ANSWERS_KEY, text)?;
    }
    Ok(())
}

/// The second reader's settings, its answers and its run.
#[derive(Clone, Copy)]
pub struct Judge {
    settings: RwSignal<EndpointSettings>,
    key: RwSignal<String>,
    /// Price per million input and output tokens, as typed (empty: unknown).
    price: RwSignal<(String, String)>,
    /// The answers kept of the model named now, by reply.
    pub answers: RwSignal<BTreeMap<ReplyKey, Extracted>>,
    running: RwSignal<bool>,
    progress: RwSignal<Option<(bool, String)>>,
    transport: StoredValue<BrowserTransport, LocalStorage>,
}

impl Judge {
    /// The settings this browser kept last (a local server's the first time), and the
    /// answers kept of their model.
    pub fn new() -> Judge {
        let settings = stored_settings();
        let answers = kept_answers(&stored_text(), &settings.model);
        Judge {
            settings: RwSignal::new(settings),
            key: RwSignal::new(String::new()),
            price: RwSignal::new((String::new(), String::new())),
            answers: RwSignal::new(answers),
            running: RwSignal::new(false),
            progress: RwSignal::new(None),
            transport: StoredValue::new_local(BrowserTransport::new()),
        }
    }

    /// The settings kept for the next visit and the model's answers read again (after
    /// the settings changed). Keeping them is a convenience: a browser that keeps nothing
    /// asks for them again.
    fn reload(self) {
        let model = self.settings.with_untracked(|s| {
            if let Ok(text) = serde_json::to_string(s) {
                let _ = local::keep(SETTINGS_KEY, &text);
            }
            s.model.clone()
        });
        self.answers.set(kept_answers(&stored_text(), &model));
    }

    /// The price typed, when both figures are numbers of dollars.
    fn price(self) -> Option<Price> {
        let (i, o) = self.price.get();
        let p = Price {
            input: i.trim().parse().ok()?,
            output: o.trim().parse().ok()?,
            reasoning: None,
        };
        p.check().ok().map(|()| p)
    }

    /// The estimate before starting: replies to read, kept answers, tokens and cost.
    fn estimate_line(self, all: &[QueueItem]) -> String {
        let answers = self.answers.get();
        let todo: Vec<&QueueItem> = all
            .iter()
            .filter(|q| !answers.contains_key(&q.key()))
            .collect();
        let (prompt, answer) = estimate(todo.iter().map(|q| q.reply.as_str()));
        let cost = self
            .price()
            .map(|p| {
                format!(
                    ", about {} at the price given",
                    dollars(p.cost(prompt, answer, 0))
                )
            })
            .unwrap_or_default();
        format!(
            "{} replies to read ({} already answered by this model), about {prompt} prompt and {answer} answer tokens{cost}.",
            todo.len(),
            all.len() - todo.len()
        )
    }

    /// Asks the judge about every reply of `all` not yet answered, one at a time, keeping
    /// each answer as it comes; stops when asked to, or at an endpoint error that retries
    /// did not cure (what is kept stays kept).
    fn run(self, all: Vec<QueueItem>, shapes: ShapeSet) {
        let settings = self.settings.get_untracked();
        if let Err(e) = settings.validate() {
            self.progress
                .set(Some((true, format!("The second reader's settings: {e}"))));
            return;
        }
        let key = self.key.get_untracked();
        let transport = self.transport.get_value();
        transport.reset();
        self.running.set(true);
        spawn_local(async move {
            let answered = self.answers.get_untracked();
            let todo: Vec<QueueItem> = all
                .into_iter()
                .filter(|q| !answered.contains_key(&q.key()))
                .collect();
            let (n, mut unread) = (todo.len(), Vec::new());
            let (mut kept, mut not_kept) = (stored_text(), None);
            for (i, q) in todo.iter().enumerate() {
                if transport.is_stopped() {
                    break;
                }
                let messages = judge_messages(q.phase, &q.reply, shapes);
                let reply = complete(&transport, &settings, &key, &messages, &mut |_| {}).await;
                let read = reply.map_err(|e| e.to_string()).and_then(|r| {
                    judge_value(q.phase, &r.content, shapes).map_err(|e| e.to_string())
                });
                match read {
                    Ok(value) => {
                        let answer = JudgeAnswer {
                            trial: q.trial.clone(),
                            phase: q.phase,
                            step: q.step,
                            model: settings.model.clone(),
                            prompt_version: JUDGE_PROMPT_VERSION,
                            value: value.clone(),
                        };
                        if let Err(e) = keep(&mut kept, &answer, (i + 1) % SAVE_EVERY == 0) {
                            not_kept = Some(e);
                        }
                        self.answers.update(|a| {
                            a.insert(q.key(), value);
                        });
                    }
                    Err(e) if transport.is_stopped() => unread.push(e),
                    Err(e) => {
                        unread.push(format!("{} {} {}: {e}", q.trial, q.phase.name(), q.step))
                    }
                }
                self.progress.set(Some((
                    false,
                    format!("{} of {n} replies read by the second reader.", i + 1),
                )));
            }
            if let Err(e) = local::keep(ANSWERS_KEY, &kept) {
                not_kept = Some(e.into());
            }
            self.running.set(false);
            let stopped = transport.is_stopped();
            let mut line = match (stopped, unread.first()) {
                (true, _) => "Stopped: the answers so far are kept; start again to go on.".to_string(),
                (false, None) => format!("Done: {n} replies read by the second reader."),
                (false, Some(first)) => format!(
                    "{} of {n} replies could not be read by the second reader (the first: {first}); start again to retry them.",
                    unread.len()
                ),
            };
            let failed = (!unread.is_empty() && !stopped) || not_kept.is_some();
            if let Some(e) = not_kept {
                line.push_str(&format!(" The answers could not be kept in this browser ({e}): download {ANSWERS_FILE} before you reload."));
            }
            self.progress.set(Some((failed, line)));
        });
    }
}

/// One text field of the judge's settings.
fn field(
    judge: Judge,
    label: &'static str,
    id: &'static str,
    get: fn(&EndpointSettings) -> String,
    set: fn(&mut EndpointSettings, String),
) -> impl IntoView {
    view! {
        <label class="field"><span>{label}</span>
            <input data-testid=id prop:value=move || judge.settings.with(get)
                on:change=move |ev| {
                    judge.settings.update(|s| set(s, event_target_value(&ev)));
                    judge.reload();
                } />
        </label>
    }
}

/// The second reader's panel: its settings, the estimate, start and stop, the progress.
#[component]
pub fn SecondReaderPanel(
    judge: Judge,
    /// Every reply of the records chosen, as the rules reader read it.
    all: Memo<Vec<QueueItem>>,
    /// The shapes the judge may name.
    shapes: Memo<ShapeSet>,
) -> impl IntoView {
    let preset_changed = move |ev: web_sys::Event| {
        let id = event_target_value(&ev);
        if let Some(p) = Preset::ALL.into_iter().find(|p| p.id() == id) {
            judge.settings.set(judge_settings(p));
            judge.reload();
        }
    };
    let start = move |_| judge.run(all.get_untracked(), shapes.get_untracked());
    let stop = move |_| judge.transport.with_value(BrowserTransport::abort);
    let download = move |_| {
        if let Err(e) = download_file(ANSWERS_FILE, &stored_text(), "application/x-ndjson") {
            judge.progress.set(Some((
                true,
                format!("The answers could not be downloaded: {e}"),
            )));
        }
    };
    view! {
        <details class="second-reader" data-testid="second-reader">
            <summary>"A second reader (a chat model)"</summary>
            <p class="muted">"Any OpenAI-compatible endpoint reads every reply again with one fixed prompt (version "{JUDGE_PROMPT_VERSION}", described in docs/cli.md) and answers in JSON; each reply it reads otherwise joins the queue. The key is used for these calls only and never stored."</p>
            <div class="review-bar">
                <label class="field"><span>"Endpoint"</span>
                    <select data-testid="second-reader-preset" on:change=preset_changed>
                        {Preset::ALL.into_iter().map(|p| view! {
                            <option value=p.id() selected=move || judge.settings.with(|s| s.preset == p)>{p.label()}</option>
                        }).collect_view()}
                    </select>
                </label>
                {field(judge, "Base URL", "second-reader-base-url", |s| s.base_url.clone(), |s, v| s.base_url = v.trim().to_string())}
                {field(judge, "Model", "second-reader-model", |s| s.model.clone(), |s, v| s.model = v.trim().to_string())}
                <label class="field"><span>"API key"</span>
                    <input type="password" autocomplete="off" data-testid="second-reader-key" prop:value=move || judge.key.get() on:input=move |ev| judge.key.set(event_target_value(&ev)) />
                </label>
                <label class="field"><span>"$ per M input"</span>
                    <input inputmode="decimal" data-testid="second-reader-price-input" on:change=move |ev| judge.price.update(|p| p.0 = event_target_value(&ev)) />
                </label>
                <label class="field"><span>"$ per M output"</span>
                    <input inputmode="decimal" data-testid="second-reader-price-output" on:change=move |ev| judge.price.update(|p| p.1 = event_target_value(&ev)) />
                </label>
            </div>
            <p data-testid="second-reader-estimate">{move || all.with(|a| judge.estimate_line(a))}</p>
            <div class="review-bar">
                <button type="button" class="button primary" data-testid="second-reader-start" disabled=move || judge.running.get() on:click=start>"Start the second reader"</button>
                <button type="button" class="button" data-testid="second-reader-stop" disabled=move || !judge.running.get() on:click=stop>"Stop"</button>
                <button type="button" class="button ghost" data-testid="second-reader-download" on:click=download>{format!("Download {ANSWERS_FILE}")}</button>
            </div>
            {move || judge.progress.get().map(|(error, text)| view! {
                <p class=if error { "error" } else { "muted" } data-testid="second-reader-progress" role="status">{text}</p>
            })}
        </details>
    }
}
