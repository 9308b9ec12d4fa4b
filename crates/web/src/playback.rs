//! What the replay (`/demo`) and the race share: who played, said plainly; the playhead's
//! driver with the presenter's keys; and full screen.

use leptos::prelude::*;
use shapemaze_core::play::player::PlayerKind;
use shapemaze_core::results::record::TrialRecord;
use shapemaze_core::results::replay::Playhead;
use std::time::Duration;

/// Who played, said plainly (bundled trials come from built-in players, never a model).
pub(crate) fn played_by(r: &TrialRecord) -> String {
    match r.player {
        PlayerKind::Oracle => "the built-in oracle (a perfect player, not a model)".into(),
        PlayerKind::Random => "the built-in random walker (not a model)".into(),
        PlayerKind::Human => "a person".into(),
        PlayerKind::Scripted => "a scripted test player (not a model)".into(),
        PlayerKind::Endpoint => format!("the model {}", r.model),
    }
}

/// Asks the browser to show the page full screen.
pub(crate) fn fullscreen() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.request_fullscreen();
    }
}

/// Drives a replay's or a race's playhead: while playing, one frame per interval; and the
/// presenter's keys: space plays and pauses, the arrow keys step back and on, F goes full
/// screen (not while a field has the focus).
pub(crate) fn drive_playhead(head: RwSignal<Playhead>) {
    Effect::new(move |_| {
        let h = head.get();
        if h.playing {
            set_timeout(
                move || {
                    // The replay may be gone by now (another trial, a race closed, another
                    // page): then there is nothing to step.
                    if head.try_with_untracked(|x| x.playing && x.at == h.at) == Some(true) {
                        head.update(Playhead::step);
                    }
                },
                Duration::from_millis(u64::from(h.interval_ms())),
            );
        }
    });
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let typing = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(t).ok())
            .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"));
        if typing || ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        match ev.key().as_str() {
            " " => head.update(Playhead::toggle),
            "ArrowRight" => head.update(|h| {
                h.playing = false;
                h.step();
            }),
            "ArrowLeft" => head.update(|h| {
                h.playing = false;
                h.back();
            }),
            "f" | "F" => fullscreen(),
            _ => return,
        }
        ev.prevent_default();
    });
    on_cleanup(move || keys.remove());
}
